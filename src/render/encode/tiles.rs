//! Board tiles and their LZ77 tokens, found once per tile and image width with a
//! thorough search and a cost model, so that each image only splices them in.

use super::deflate::{code_lengths, dist_code, length_code, BitString, FixedBlock};
use super::lz::{common_prefix, match_token, token_dist, token_len, RowCode, Token, MATCH_FLAG};
use super::{MAX_MATCH, MIN_MATCH, WINDOW};
use arrayvec::ArrayVec;
use std::sync::OnceLock;

/// How much of a copy's cost is expected to remain when it merges with a neighbour.
const MERGE_DISCOUNT: f32 = 0.3;
/// Copies up to this long are tried at every length when tiles are parsed.
const SHORT: usize = 16;
/// Candidates a tile's search looks at per position.
const CHAIN: usize = 16;

/// A board cell holding a prepared tile, perhaps with a band of its rows drawn over (a
/// letter's badge at the top, a small disc at the bottom): the other rows are still the
/// tile's, and keep its prepared tokens where those read only unchanged rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TileCell {
    /// The tile copied into the cell.
    pub tile: u16,
    /// The rows `drawn.0..drawn.1` of the cell were drawn over (an empty band: none).
    pub drawn: (u16, u16),
}

impl TileCell {
    /// A cell holding its tile unchanged.
    pub fn whole(tile: u16) -> TileCell {
        TileCell {
            tile,
            drawn: (0, 0),
        }
    }

    /// Whether row `r` of the cell is still the tile's.
    #[inline]
    pub fn clean(&self, r: usize) -> bool {
        r < self.drawn.0 as usize || r >= self.drawn.1 as usize
    }

    /// The cell with rows `from..to` drawn over as well (the band grows to cover both),
    /// or `None` when nothing of the tile is left.
    pub fn drawn_over(self, from: usize, to: usize, s: usize) -> Option<TileCell> {
        let (from, to) = (from.min(s), to.min(s));
        if from >= to {
            return Some(self);
        }
        let (a, b) = if self.drawn.0 < self.drawn.1 {
            (
                from.min(self.drawn.0 as usize),
                to.max(self.drawn.1 as usize),
            )
        } else {
            (from, to)
        };
        (a > 0 || b < s).then_some(TileCell {
            tile: self.tile,
            drawn: (a as u16, b as u16),
        })
    }
}

/// Where an image's tiles are, so that their prepared tokens can be used.
pub(crate) struct Tiling<'a> {
    /// Left edge of the grid of tiles.
    pub x: usize,
    /// Top edge of the grid.
    pub y: usize,
    /// Side of a tile.
    pub s: usize,
    /// Tiles across.
    pub cols: usize,
    /// Tiles down.
    pub rows: usize,
    /// For each cell, row by row, the tile copied there (an index into `tiles`) with the
    /// rows drawn over it, or `None` if nothing of the tile is left.
    pub cells: &'a [Option<TileCell>],
    /// The tiles, with their tokens for this image's width.
    pub tiles: &'a TileSet,
}

/// The LZ77 tokens of one tile's rows, found once per tile and image width. Each row's
/// tokens cover exactly that row of the tile and refer only to the tile's own pixels.
#[derive(Clone, Debug, Default)]
pub(crate) struct TileCode {
    tokens: Vec<Token>,
    /// Where each row's tokens start in `tokens`, and a final end.
    rows: Vec<u32>,
    /// For each row, the first row its tokens read from.
    reach: Vec<u16>,
}

/// What each symbol is expected to cost, in bits, when tiles are parsed.
struct Costs {
    literal: [f32; 256],
    /// By length (index = length), extra bits included; filled by `finish`.
    by_length: Vec<f32>,
    /// By length symbol (0..29), extra bits included separately.
    length: [f32; 29],
    /// By distance code (0..30), extra bits included separately.
    dist: [f32; 30],
}

impl Costs {
    /// A first guess: literals by how often each byte occurs in the tiles, copies at a
    /// flat rate.
    fn guess(tiles: &[Vec<u8>]) -> Costs {
        let mut freq = [1u32; 256];
        for t in tiles {
            for &b in t {
                freq[b as usize] += 1;
            }
        }
        let total: u32 = freq.iter().sum();
        let mut literal = [0f32; 256];
        for (c, &f) in literal.iter_mut().zip(&freq) {
            *c = (total as f32 / f as f32).log2().min(15.0);
        }
        Costs {
            literal,
            by_length: Vec::new(),
            length: [6.0; 29],
            dist: [6.0; 30],
        }
        .finish()
    }

    /// Fills the table of costs by length.
    fn finish(mut self) -> Costs {
        self.by_length = (0..=MAX_MATCH)
            .map(|l| {
                if l < MIN_MATCH {
                    f32::INFINITY
                } else {
                    let (ls, le, _) = length_code(l);
                    self.length[ls - 257] + le as f32
                }
            })
            .collect();
        self
    }

    /// The cost of the code lengths of a parse.
    fn from_tokens(codes: &[TileCode]) -> Costs {
        let mut lit = [1u32; 286];
        let mut dist = [1u32; 30];
        for t in codes.iter().flat_map(|c| &c.tokens) {
            if t & MATCH_FLAG != 0 {
                lit[length_code(token_len(*t)).0] += 1;
                dist[dist_code(token_dist(*t)).0] += 1;
            } else {
                lit[*t as usize] += 1;
            }
        }
        let ll = code_lengths(&lit, 15);
        let dl = code_lengths(&dist, 15);
        let mut costs = Costs {
            literal: [0.0; 256],
            by_length: Vec::new(),
            length: [0.0; 29],
            dist: [0.0; 30],
        };
        for (i, c) in costs.literal.iter_mut().enumerate() {
            *c = ll[i] as f32;
        }
        for (i, c) in costs.length.iter_mut().enumerate() {
            *c = ll[257 + i] as f32;
        }
        for (i, c) in costs.dist.iter_mut().enumerate() {
            *c = dl[i] as f32;
        }
        costs.finish()
    }

    #[inline]
    fn dist_only(&self, dist: usize) -> f32 {
        let (ds, de, _) = dist_code(dist);
        self.dist[ds] + de as f32
    }
}

impl TileCode {
    /// Parses one tile with the cheapest tokens under `costs`, row by row, looking at up
    /// to `chain` earlier positions besides the obvious ones.
    fn parse(tile: &[u8], s: usize, stride: usize, costs: &Costs, chain: usize) -> TileCode {
        let mut parser = TileParser::new(tile, s, stride, costs, chain);
        let mut tokens = Vec::new();
        let mut rows = Vec::with_capacity(s + 1);
        let mut reach = Vec::with_capacity(s);
        for r in 0..s {
            rows.push(tokens.len() as u32);
            parser.cheapest_row(r);
            reach.push(parser.read_back(r, &mut tokens) as u16);
        }
        rows.push(tokens.len() as u32);
        TileCode {
            tokens,
            rows,
            reach,
        }
    }

    /// The tokens of row `r`.
    #[inline]
    pub fn row(&self, r: usize) -> &[Token] {
        &self.tokens[self.rows[r] as usize..self.rows[r + 1] as usize]
    }

    /// The first row that the tokens of row `r` read from.
    #[inline]
    pub fn reach(&self, r: usize) -> usize {
        self.reach[r] as usize
    }
}

/// The state of one tile's parse: the tile as it sits in the raw stream, the hash chains
/// of the positions seen, and per row the cheapest way to reach each column.
struct TileParser<'a> {
    s: usize,
    stride: usize,
    costs: &'a Costs,
    chain: usize,
    /// The tile as it sits in the raw stream; bytes beside it are never looked at.
    buf: Vec<u8>,
    head: Vec<u32>,
    prev: Vec<u32>,
    /// The cheapest cost to reach each column of the current row.
    cost: Vec<f32>,
    /// The token that reaches each column at that cost.
    step: Vec<Token>,
    cands: Vec<usize>,
}

impl<'a> TileParser<'a> {
    /// Lays `tile` (`s` x `s`) out in rows `stride` apart, with empty chains.
    fn new(tile: &[u8], s: usize, stride: usize, costs: &'a Costs, chain: usize) -> TileParser<'a> {
        assert_eq!(tile.len(), s * s);
        assert!(stride > s);
        let span = (s - 1) * stride + s;
        let mut buf = vec![0u8; span + 8];
        for (r, row) in tile.chunks_exact(s).enumerate() {
            buf[r * stride..r * stride + s].copy_from_slice(row);
        }
        TileParser {
            s,
            stride,
            costs,
            chain,
            buf,
            head: vec![u32::MAX; 1 << 16],
            prev: vec![u32::MAX; span],
            cost: vec![0f32; s + 1],
            step: vec![0; s + 1],
            cands: Vec::with_capacity(chain + 4),
        }
    }

    #[inline]
    fn hash3(&self, p: usize) -> usize {
        let buf = &self.buf;
        let v = buf[p] as u32 | (buf[p + 1] as u32) << 8 | (buf[p + 2] as u32) << 16;
        (v.wrapping_mul(0x9E37_79B1) >> 16) as usize
    }

    /// Fills `cost` and `step` for row `r`: a literal or a copy from each column. A row
    /// equal to the row above is one copy from it, without a search.
    #[inline]
    fn cheapest_row(&mut self, r: usize) {
        let s = self.s;
        self.cost.fill(f32::INFINITY);
        self.cost[0] = 0.0;
        let row = r * self.stride;
        let whole = r >= 1
            && (MIN_MATCH..=MAX_MATCH).contains(&s)
            && common_prefix(&self.buf, row - self.stride, row, s) == s;
        if whole {
            self.cost[s] = 0.0;
            self.step[s] = match_token(s, self.stride);
        }
        for x in 0..s {
            let p = row + x;
            let here = self.cost[x];
            let lit = here + self.costs.literal[self.buf[p] as usize];
            if lit < self.cost[x + 1] {
                self.cost[x + 1] = lit;
                self.step[x + 1] = self.buf[p] as u32;
            }
            let room = (s - x).min(MAX_MATCH);
            if room >= MIN_MATCH && !whole {
                self.gather_candidates(p, r, x);
                self.relax_copies(p, x, room, here);
            }
            if x + MIN_MATCH <= s {
                let h = self.hash3(p);
                self.prev[p] = self.head[h];
                self.head[h] = p as u32;
            }
        }
    }

    /// Candidates for a copy to position `p` (row `r`, column `x`): the chain, plus one
    /// and two rows up and a run.
    #[inline]
    fn gather_candidates(&mut self, p: usize, r: usize, x: usize) {
        let stride = self.stride;
        self.cands.clear();
        if x >= 1 {
            self.cands.push(p - 1);
        }
        for k in 1..=2 {
            if r >= k && k * stride <= WINDOW {
                self.cands.push(p - k * stride);
            }
        }
        let mut c = self.head[self.hash3(p)];
        while c != u32::MAX && self.cands.len() < self.chain + 3 {
            let cu = c as usize;
            if p - cu > WINDOW {
                break;
            }
            self.cands.push(cu);
            c = self.prev[cu];
        }
    }

    /// Offers each copy from the candidates to position `p` (column `x`, reached at cost
    /// `here`, `room` bytes left in the row) as a way to reach the columns after it:
    /// every short length, and each candidate's full length (the lengths in between are
    /// seldom the cheapest way), each from the cheapest distance that offers it.
    #[inline]
    fn relax_copies(&mut self, p: usize, x: usize, room: usize, here: f32) {
        let (s, stride) = (self.s, self.stride);
        // (length, distance's cost, distance) of each candidate with a copy.
        let mut found: ArrayVec<(usize, f32, usize), { CHAIN + 3 }> = ArrayVec::new();
        for &c in &self.cands {
            let xc = c % stride;
            let limit = room.min(s - xc);
            let l = common_prefix(&self.buf, c, p, limit);
            if l >= MIN_MATCH {
                let d = p - c;
                found.push((l, self.costs.dist_only(d), d));
            }
        }
        if found.is_empty() {
            return;
        }
        // Longest first: the cheapest distance for a length is the cheapest among the
        // candidates at least that long.
        found.sort_unstable_by_key(|f| std::cmp::Reverse(f.0));
        let longest = found[0].0;
        let (mut best, mut i) = ((f32::INFINITY, 0usize), 0);
        let take = |l: usize, best: (f32, usize), cost: &mut [f32], step: &mut [Token]| {
            let (dc, d) = best;
            let mut c = self.costs.by_length[l] + dc;
            // A copy from one row up that touches the tile's edge usually merges with
            // the neighbouring tile's copy from one row up.
            if d == stride {
                if x == 0 {
                    c *= MERGE_DISCOUNT;
                }
                if x + l == s {
                    c *= MERGE_DISCOUNT;
                }
            }
            let total = here + c;
            if total < cost[x + l] {
                cost[x + l] = total;
                step[x + l] = match_token(l, d);
            }
        };
        // Each candidate's full length above the short ones.
        while i < found.len() && found[i].0 > SHORT {
            let l = found[i].0;
            while i < found.len() && found[i].0 == l {
                if found[i].1 < best.0 {
                    best = (found[i].1, found[i].2);
                }
                i += 1;
            }
            take(l, best, &mut self.cost, &mut self.step);
        }
        // Every short length.
        for l in (MIN_MATCH..=longest.min(SHORT)).rev() {
            while i < found.len() && found[i].0 >= l {
                if found[i].1 < best.0 {
                    best = (found[i].1, found[i].2);
                }
                i += 1;
            }
            take(l, best, &mut self.cost, &mut self.step);
        }
    }

    /// Walks back from the end of row `r` to append its cheapest tokens to `tokens`;
    /// returns the first row they read from.
    #[inline]
    fn read_back(&self, r: usize, tokens: &mut Vec<Token>) -> usize {
        let start = tokens.len();
        let mut x = self.s;
        let mut first = r;
        while x > 0 {
            let t = self.step[x];
            tokens.push(t);
            x -= token_len(t);
            if t & MATCH_FLAG != 0 {
                first = first.min((r * self.stride + x - token_dist(t)) / self.stride);
            }
        }
        tokens[start..].reverse();
        first
    }
}

/// Square tiles of one size with their tokens for one image width. The cost model is
/// learnt once from a quick parse of the first tiles (the most used ones); every tile is
/// parsed fully on first use.
pub(crate) struct TileSet {
    tiles: Vec<Vec<u8>>,
    s: usize,
    stride: usize,
    costs: Costs,
    codes: Vec<OnceLock<TileCode>>,
    /// The fixed codes of the images' bands, once learnt ([`TileSet::learn`]).
    fixed: OnceLock<FixedCodes>,
    /// Each tile's rows as images take them, coded under the board's fixed code, made
    /// on first use.
    coded: Vec<OnceLock<Vec<RowCode>>>,
}

/// The fixed codes of a board image's two kinds of band: the frame (the players' rows,
/// the coordinates, the status line), and the band of the board's rows.
#[derive(Debug)]
pub(crate) struct FixedCodes {
    pub frame: FixedBlock,
    pub board: FixedBlock,
}

impl TileSet {
    /// Tiles of `s` x `s` pixels, in images whose raw rows are `stride` bytes apart; the
    /// first `sample` are the most used.
    pub fn new(tiles: Vec<Vec<u8>>, sample: usize, s: usize, stride: usize) -> TileSet {
        assert!(!tiles.is_empty() && tiles.iter().all(|t| t.len() == s * s));
        let sample = sample.clamp(1, tiles.len());
        let guess = Costs::guess(&tiles[..sample]);
        let quick: Vec<TileCode> = tiles[..sample]
            .iter()
            .map(|t| TileCode::parse(t, s, stride, &guess, 0))
            .collect();
        let set = TileSet {
            costs: Costs::from_tokens(&quick),
            codes: tiles.iter().map(|_| OnceLock::new()).collect(),
            fixed: OnceLock::new(),
            coded: tiles.iter().map(|_| OnceLock::new()).collect(),
            tiles,
            s,
            stride,
        };
        set
    }

    /// The pixels of tile `i`.
    #[inline]
    pub fn pixels(&self, i: usize) -> &[u8] {
        &self.tiles[i]
    }

    /// The tokens of tile `i`, parsed now if they have not been yet.
    #[inline]
    pub fn code(&self, i: usize) -> &TileCode {
        self.codes[i].get_or_init(|| {
            TileCode::parse(&self.tiles[i], self.s, self.stride, &self.costs, CHAIN)
        })
    }

    /// Parses every tile now (and codes its rows, once the fixed codes are learnt).
    pub fn prepare_all(&self) {
        for i in 0..self.tiles.len() {
            self.code(i);
            if self.fixed.get().is_some() {
                self.coded_rows(i);
            }
        }
    }

    /// Sets the fixed codes images are written with from now on (the first codes set
    /// stay: every image of a size is then written alike).
    pub fn learn(&self, codes: FixedCodes) {
        let _ = self.fixed.set(codes);
    }

    /// The fixed codes, once learnt.
    #[inline]
    pub fn fixed(&self) -> Option<&FixedCodes> {
        self.fixed.get()
    }

    /// The rows of tile `i` as images take them under the board's fixed code
    /// ([`RowCode`]), coded now if they have not been yet. Only once the fixed codes are
    /// learnt.
    #[inline]
    pub(super) fn coded_rows(&self, i: usize) -> &[RowCode] {
        self.coded[i].get_or_init(|| {
            let board = &self.fixed.get().expect("fixed codes learnt").board;
            let code = self.code(i);
            (0..self.s)
                .map(|r| {
                    let row = code.row(r);
                    let mut middle = BitString::default();
                    let mut middle_len = 0;
                    for &t in row.iter().take(row.len().saturating_sub(1)).skip(1) {
                        board.token(t, &mut middle);
                        middle_len += token_len(t) as u32;
                    }
                    RowCode {
                        first: row[0],
                        last: (row.len() > 1).then(|| row[row.len() - 1]),
                        middle,
                        middle_len,
                    }
                })
                .collect()
        })
    }
}
