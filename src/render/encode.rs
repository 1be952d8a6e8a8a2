//! PNG encoding of palette images, with a DEFLATE compressor written for board images.
//!
//! A board image is flat areas and repeated tiles, and most of its rows equal the row
//! above. General-purpose compressors either search hard for that (zlib's fast levels
//! take several milliseconds for a 720-pixel board) or hardly at all (fdeflate's
//! ultra-fast mode only codes runs of zero bytes and leaves these images two to three
//! times larger). Two things make this one both fast and small:
//!
//! - **Tiles are compressed once.** A square's tile (a piece on a kind of square) is
//!   always copied into the image whole, so the LZ77 tokens of its rows, referring only to
//!   its own earlier rows, are the same in every image of that size. [`TileCode`] finds
//!   them once, with a thorough search (hash chains and lazy matching); each image only
//!   splices them in. A tile already drawn earlier within DEFLATE's 32 KiB window (a
//!   second pawn on a light square in the same rank) is coded as one copy per row.
//! - **Everything else is compressed greedily** from three candidates per position: a
//!   run of the previous byte, the same bytes one row up, and the last earlier position
//!   whose next four bytes hashed alike.
//!
//! Adjacent copies from the same distance are merged, so a row that equals the row above
//! costs about three tokens whatever tiles it crosses. All tokens go into one block with
//! Huffman codes built for the image. Rows are not filtered: palette indices compress
//! best as they are.

use super::theme::Rgb;
use std::sync::OnceLock;

/// Longest match DEFLATE can code.
const MAX_MATCH: usize = 258;
/// Shortest match DEFLATE can code.
const MIN_MATCH: usize = 3;
/// Farthest back a match may reach.
const WINDOW: usize = 32768;
/// A copy the greedy compressor takes without looking at other candidates.
const LONG_ENOUGH: usize = 4 * MAX_MATCH;
/// Bits of the hash of four bytes used by the greedy compressor.
const HASH_BITS: u32 = 14;
/// How much of a copy's cost is expected to remain when it merges with a neighbour.
const MERGE_DISCOUNT: f32 = 0.3;
/// Copies up to this long are tried at every length when tiles are parsed.
const SHORT: usize = 16;
/// Candidates a tile's search looks at per position.
const CHAIN: usize = 16;

/// Encodes an 8-bit palette image (`pixels` row by row, `width * height` indices into
/// `palette`, 1 to 256 colours) as a PNG file.
pub fn png(width: u32, height: u32, pixels: &[u8], palette: &[Rgb]) -> Vec<u8> {
    assert_eq!(
        pixels.len(),
        width as usize * height as usize,
        "pixel count"
    );
    let w = width as usize;
    let mut raw = Vec::with_capacity(pixels.len() + height as usize);
    for row in pixels.chunks_exact(w.max(1)) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    png_raw(width, height, &raw, palette, None)
}

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
    /// Tiles across and down.
    pub cols: usize,
    pub rows: usize,
    /// For each cell, row by row, the tile copied there (an index into `tiles`) with the
    /// rows drawn over it, or `None` if nothing of the tile is left.
    pub cells: &'a [Option<TileCell>],
    /// The tiles, with their tokens for this image's width.
    pub tiles: &'a TileSet,
}

/// Encodes like [`png`] an image given as PNG's raw rows (each row a filter byte, 0,
/// then its pixels), using the prepared tokens of the tiles in `tiling`.
pub(crate) fn png_raw(
    width: u32,
    height: u32,
    raw: &[u8],
    palette: &[Rgb],
    tiling: Option<&Tiling>,
) -> Vec<u8> {
    let stride = width as usize + 1;
    assert_eq!(raw.len(), stride * height as usize, "raw size");
    debug_assert!(raw.iter().step_by(stride).all(|&f| f == 0), "filter bytes");
    assert!(!palette.is_empty() && palette.len() <= 256, "palette size");
    let mut out = Vec::with_capacity(raw.len() / 24 + 1024);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    // 8 bits per pixel, palette colour, deflate, adaptive filtering, no interlace.
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    let plte: Vec<u8> = palette.iter().flat_map(|c| [c.0, c.1, c.2]).collect();
    chunk(&mut out, b"PLTE", &plte);
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(b"IDAT");
    out.extend_from_slice(&[0x78, 0x01]);
    let tokens = tokenize(raw, stride, tiling);
    out.reserve(tokens.len() * 3);
    let mut bits = BitWriter::new(out);
    // The board and the frame around it use their colours differently: each gets a
    // block with its own codes.
    let cuts: Vec<usize> = match tiling {
        Some(t) => vec![t.y * stride, (t.y + t.rows * t.s) * stride],
        None => Vec::new(),
    };
    let mut pieces = Vec::new();
    let (mut from, mut pos, mut next_cut) = (0, 0, 0);
    for (i, &t) in tokens.iter().enumerate() {
        if next_cut < cuts.len() && pos >= cuts[next_cut] {
            if i > from {
                pieces.push(&tokens[from..i]);
            }
            from = i;
            while next_cut < cuts.len() && pos >= cuts[next_cut] {
                next_cut += 1;
            }
        }
        pos += token_len(t);
    }
    pieces.push(&tokens[from..]);
    let n = pieces.len();
    for (i, piece) in pieces.into_iter().enumerate() {
        write_block(piece, i + 1 == n, &mut bits);
    }
    let mut out = bits.finish();
    out.extend_from_slice(&simd_adler32::adler32(&raw).to_be_bytes());
    let len = (out.len() - start - 8) as u32;
    out[start..start + 4].copy_from_slice(&len.to_be_bytes());
    let crc = crc32fast::hash(&out[start + 4..]);
    out.extend_from_slice(&crc.to_be_bytes());
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A literal byte, or a match: bit 31 set, length - 3 in bits 16..24, distance - 1 in
/// bits 0..16.
type Token = u32;

const MATCH_FLAG: u32 = 1 << 31;

#[inline]
fn match_token(len: usize, dist: usize) -> Token {
    debug_assert!((MIN_MATCH..=MAX_MATCH).contains(&len) && (1..=WINDOW).contains(&dist));
    MATCH_FLAG | (((len - MIN_MATCH) as u32) << 16) | (dist - 1) as u32
}

#[inline]
fn token_len(t: Token) -> usize {
    if t & MATCH_FLAG != 0 {
        ((t >> 16) & 0xff) as usize + MIN_MATCH
    } else {
        1
    }
}

#[inline]
fn token_dist(t: Token) -> usize {
    (t & 0xffff) as usize + 1
}

/// How many bytes at `a` and `b` agree, up to `limit`.
#[inline]
fn common_prefix(data: &[u8], a: usize, b: usize, limit: usize) -> usize {
    let mut n = 0;
    while n + 8 <= limit {
        let x = u64::from_le_bytes(data[a + n..a + n + 8].try_into().expect("8 bytes"));
        let y = u64::from_le_bytes(data[b + n..b + n + 8].try_into().expect("8 bytes"));
        let diff = x ^ y;
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while n < limit && data[a + n] == data[b + n] {
        n += 1;
    }
    n
}

#[inline]
fn hash4(data: &[u8], i: usize) -> usize {
    let v = u32::from_le_bytes(data[i..i + 4].try_into().expect("4 bytes"));
    (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// Builds the token list of one image, position by position.
struct Lz<'a> {
    raw: &'a [u8],
    stride: usize,
    head: Vec<u32>,
    tokens: Vec<Token>,
    /// Where the next token starts.
    pos: usize,
}

impl<'a> Lz<'a> {
    fn new(raw: &'a [u8], stride: usize) -> Lz<'a> {
        Lz {
            raw,
            stride,
            head: vec![u32::MAX; 1 << HASH_BITS],
            tokens: Vec::with_capacity(raw.len() / 24 + 64),
            pos: 0,
        }
    }

    fn literal(&mut self) {
        self.tokens.push(self.raw[self.pos] as u32);
        self.pos += 1;
    }

    /// Codes the next `len` bytes (any length) as a copy from `dist` back, merged with the
    /// previous token when that is a copy from the same distance.
    fn copy(&mut self, mut len: usize, dist: usize) {
        if let Some(&last) = self.tokens.last() {
            if last & MATCH_FLAG != 0 && token_dist(last) == dist {
                let have = token_len(last);
                let take = (MAX_MATCH - have).min(len);
                if take > 0 {
                    *self.tokens.last_mut().expect("a last token") = match_token(have + take, dist);
                    self.pos += take;
                    len -= take;
                }
            }
        }
        while len > 0 {
            let n = len.min(MAX_MATCH);
            // Never leave a tail too short to be a copy.
            let n = if len - n > 0 && len - n < MIN_MATCH {
                n - MIN_MATCH
            } else {
                n
            };
            if n >= MIN_MATCH {
                self.tokens.push(match_token(n, dist));
                self.pos += n;
            } else {
                for _ in 0..n {
                    self.literal();
                }
            }
            len -= n;
        }
    }

    /// Appends prepared tokens for the bytes from the current position on.
    fn splice(&mut self, tokens: &[Token]) {
        for &t in tokens {
            if t & MATCH_FLAG != 0 {
                self.copy(token_len(t), token_dist(t));
            } else {
                debug_assert_eq!(self.raw[self.pos] as u32, t);
                self.literal();
            }
        }
    }

    /// Greedily codes everything from the current position up to `end`. Runs and
    /// copies from the row above are followed to their end, however long (a flat row is
    /// one scan), other copies up to DEFLATE's longest.
    fn greedy(&mut self, end: usize) {
        let raw = self.raw;
        let stride = self.stride;
        let n = raw.len();
        while self.pos < end {
            let i = self.pos;
            let rest = end - i;
            let (mut best, mut dist) = (0, 0);
            // A copy this long is taken at once: looking further would only scan the same
            // bytes again for a choice that hardly matters.
            let enough = rest.min(LONG_ENOUGH);
            if rest >= MIN_MATCH {
                // Going on with the last copy's distance costs nothing when it merges,
                // so it wins ties.
                if let Some(&last) = self.tokens.last() {
                    if last & MATCH_FLAG != 0 {
                        let d = token_dist(last);
                        if d <= i {
                            (best, dist) = (common_prefix(raw, i - d, i, rest), d);
                        }
                    }
                }
                if best < enough && i >= 1 && dist != 1 {
                    let l = common_prefix(raw, i - 1, i, rest);
                    if l > best {
                        (best, dist) = (l, 1);
                    }
                }
                if best < enough && i >= stride && stride <= WINDOW && dist != stride {
                    let l = common_prefix(raw, i - stride, i, rest);
                    if l > best {
                        (best, dist) = (l, stride);
                    }
                }
                if best < MAX_MATCH.min(rest) && i + 4 <= n {
                    let h = hash4(raw, i);
                    let cand = self.head[h];
                    self.head[h] = i as u32;
                    if cand != u32::MAX {
                        let c = cand as usize;
                        let d = i - c;
                        if d <= WINDOW && d != stride && d != 1 {
                            let l = common_prefix(raw, c, i, MAX_MATCH.min(rest));
                            if l > best + 1 {
                                (best, dist) = (l, d);
                            }
                        }
                    }
                }
            }
            if best >= MIN_MATCH {
                self.copy(best, dist);
            } else {
                self.literal();
            }
        }
    }
}

/// Tokens for the whole raw stream.
fn tokenize(raw: &[u8], stride: usize, tiling: Option<&Tiling>) -> Vec<Token> {
    let mut lz = Lz::new(raw, stride);
    if let Some(t) = tiling {
        // For each cell, the earlier cells within reach holding the same tile, nearest
        // first, with their distance back.
        let repeat: Vec<Vec<(usize, TileCell)>> = (0..t.cells.len())
            .map(|k| {
                let Some(cell) = t.cells[k] else {
                    return Vec::new();
                };
                let (r, c) = (k / t.cols, k % t.cols);
                (0..k)
                    .rev()
                    .filter_map(|j| t.cells[j].filter(|o| o.tile == cell.tile).map(|o| (j, o)))
                    .map(|(j, o)| {
                        let (rj, cj) = (j / t.cols, j % t.cols);
                        ((r - rj) * t.s * stride + c * t.s - cj * t.s, o)
                    })
                    .take_while(|&(d, _)| d <= WINDOW)
                    .collect()
            })
            .collect();
        for y in t.y..t.y + t.rows * t.s {
            let (band, row) = ((y - t.y) / t.s, (y - t.y) % t.s);
            for col in 0..t.cols {
                let k = band * t.cols + col;
                let start = y * stride + 1 + t.x + col * t.s;
                lz.greedy(start);
                let Some(cell) = t.cells[k].filter(|c| c.clean(row)) else {
                    lz.greedy(start + t.s);
                    continue;
                };
                let code = t.tiles.code(cell.tile as usize);
                // The same row, unchanged, in an earlier cell with the same tile.
                let same = repeat[k].iter().find(|(_, o)| o.clean(row));
                match same {
                    Some(&(d, _)) if code.row(row).len() > 1 => lz.copy(t.s, d),
                    // Below the band, the row's tokens must not read the drawn rows.
                    _ if row < cell.drawn.0 as usize
                        || code.reach(row) >= cell.drawn.1 as usize =>
                    {
                        lz.splice(code.row(row))
                    }
                    _ => lz.greedy(start + t.s),
                }
            }
        }
    }
    lz.greedy(raw.len());
    lz.tokens
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
        assert_eq!(tile.len(), s * s);
        assert!(stride > s);
        // The tile as it sits in the raw stream; bytes beside it are never looked at.
        let span = (s - 1) * stride + s;
        let mut buf = vec![0u8; span + 8];
        for (r, row) in tile.chunks_exact(s).enumerate() {
            buf[r * stride..r * stride + s].copy_from_slice(row);
        }
        let mut head = vec![u32::MAX; 1 << 16];
        let mut prev = vec![u32::MAX; span];
        let hash3 = |p: usize| {
            let v = buf[p] as u32 | (buf[p + 1] as u32) << 8 | (buf[p + 2] as u32) << 16;
            (v.wrapping_mul(0x9E37_79B1) >> 16) as usize
        };
        let mut tokens = Vec::new();
        let mut rows = Vec::with_capacity(s + 1);
        let mut reach = Vec::with_capacity(s);
        // Per row: the cheapest cost to reach each column, and the token that does.
        let mut cost = vec![0f32; s + 1];
        let mut step: Vec<Token> = vec![0; s + 1];
        // For each length, the cheapest distance offering at least that length.
        let mut by_len: Vec<(f32, usize)> = vec![(f32::INFINITY, 0); MAX_MATCH + 2];
        let mut ends = vec![false; MAX_MATCH + 2];
        let mut cands: Vec<usize> = Vec::with_capacity(chain + 4);
        for r in 0..s {
            rows.push(tokens.len() as u32);
            cost.fill(f32::INFINITY);
            cost[0] = 0.0;
            for x in 0..s {
                let p = r * stride + x;
                let here = cost[x];
                let lit = here + costs.literal[buf[p] as usize];
                if lit < cost[x + 1] {
                    cost[x + 1] = lit;
                    step[x + 1] = buf[p] as u32;
                }
                let room = (s - x).min(MAX_MATCH);
                if room >= MIN_MATCH {
                    // Candidates: the chain, plus one and two rows up and a run.
                    cands.clear();
                    if x >= 1 {
                        cands.push(p - 1);
                    }
                    for k in 1..=2 {
                        if r >= k && k * stride <= WINDOW {
                            cands.push(p - k * stride);
                        }
                    }
                    let mut c = head[hash3(p)];
                    while c != u32::MAX && cands.len() < chain + 3 {
                        let cu = c as usize;
                        if p - cu > WINDOW {
                            break;
                        }
                        cands.push(cu);
                        c = prev[cu];
                    }
                    let mut longest = 0;
                    for &c in &cands {
                        let xc = c % stride;
                        let limit = room.min(s - xc);
                        let l = common_prefix(&buf, c, p, limit);
                        if l >= MIN_MATCH {
                            let d = p - c;
                            let dc = costs.dist_only(d);
                            if dc < by_len[l].0 {
                                by_len[l] = (dc, d);
                            }
                            ends[l] = true;
                            longest = longest.max(l);
                        }
                    }
                    if longest >= MIN_MATCH {
                        by_len[longest + 1] = (f32::INFINITY, 0);
                        for l in (MIN_MATCH..=longest).rev() {
                            if by_len[l + 1].0 < by_len[l].0 {
                                by_len[l] = by_len[l + 1];
                            }
                            // Every short length, and each candidate's full length: the
                            // lengths in between are seldom the cheapest way.
                            if l > SHORT && !ends[l] {
                                continue;
                            }
                            ends[l] = false;
                            let (dc, d) = by_len[l];
                            let mut c = costs.by_length[l] + dc;
                            // A copy from one row up that touches the tile's edge usually
                            // merges with the neighbouring tile's copy from one row up.
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
                        }
                        for e in by_len.iter_mut().take(longest + 1).skip(MIN_MATCH) {
                            *e = (f32::INFINITY, 0);
                        }
                    }
                }
                if x + MIN_MATCH <= s {
                    let h = hash3(p);
                    prev[p] = head[h];
                    head[h] = p as u32;
                }
            }
            // Walk back from the row's end to read off the cheapest tokens.
            let start = tokens.len();
            let mut x = s;
            let mut first = r;
            while x > 0 {
                let t = step[x];
                tokens.push(t);
                x -= token_len(t);
                if t & MATCH_FLAG != 0 {
                    first = first.min((r * stride + x - token_dist(t)) / stride);
                }
            }
            reach.push(first as u16);
            tokens[start..].reverse();
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

/// Square tiles of one size with their tokens for one image width. The cost model is
/// learnt once from a quick parse of the first tiles (the most used ones, which are also
/// parsed fully at once); every other tile is parsed on first use.
pub(crate) struct TileSet {
    tiles: Vec<Vec<u8>>,
    s: usize,
    stride: usize,
    costs: Costs,
    codes: Vec<OnceLock<TileCode>>,
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
            tiles,
            s,
            stride,
        };
        for i in 0..sample {
            set.code(i);
        }
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

    /// Parses every tile now.
    pub fn prepare_all(&self) {
        for i in 0..self.tiles.len() {
            self.code(i);
        }
    }
}

const LEN_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LEN_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];

/// The length symbol (minus 257) of every length, indexed by length - 3.
const LEN_SYMBOL: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut sym = 0;
    let mut len = 3;
    while len <= 258 {
        while sym + 1 < 29 && LEN_BASE[sym + 1] as usize <= len {
            sym += 1;
        }
        table[len - 3] = sym as u8;
        len += 1;
    }
    table
};

/// Symbol, extra bits and extra value of a match length (3..=258).
#[inline]
fn length_code(len: usize) -> (usize, u32, u32) {
    let i = LEN_SYMBOL[len - MIN_MATCH] as usize;
    (
        257 + i,
        LEN_EXTRA[i] as u32,
        (len - LEN_BASE[i] as usize) as u32,
    )
}

/// Code, extra bits and extra value of a distance (1..=32768).
#[inline]
fn dist_code(dist: usize) -> (usize, u32, u32) {
    if dist <= 4 {
        return (dist - 1, 0, 0);
    }
    let d = (dist - 1) as u32;
    let top = 31 - d.leading_zeros(); // the highest set bit, at least 2
    let extra = top - 1;
    let second = (d >> extra) & 1;
    ((2 * top + second) as usize, extra, d & ((1 << extra) - 1))
}

/// Writes bits least significant first, as DEFLATE wants.
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    /// Appends to `out`.
    fn new(out: Vec<u8>) -> BitWriter {
        BitWriter { out, acc: 0, n: 0 }
    }

    /// Writes the low `count` bits of `bits` (`count` at most 32).
    #[inline(always)]
    fn put(&mut self, bits: u32, count: u32) {
        self.acc |= (bits as u64) << self.n;
        self.n += count;
        if self.n >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    /// Flushes the last bits (padded to a byte) and returns the output.
    fn finish(mut self) -> Vec<u8> {
        let bytes = self.n.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
        self.out
    }
}

/// Code lengths for `freqs`, none longer than `max_bits` (zero for unused symbols).
fn code_lengths(freqs: &[u32], max_bits: usize) -> Vec<u8> {
    let mut used: Vec<(u32, usize)> = freqs
        .iter()
        .enumerate()
        .filter(|(_, &f)| f > 0)
        .map(|(s, &f)| (f, s))
        .collect();
    let mut lengths = vec![0u8; freqs.len()];
    match used.len() {
        0 => return lengths,
        1 => {
            lengths[used[0].1] = 1;
            return lengths;
        }
        _ => {}
    }
    used.sort_unstable();
    // Moffat and Katajainen's in-place computation of Huffman code lengths.
    let n = used.len();
    let mut a: Vec<usize> = used.iter().map(|&(f, _)| f as usize).collect();
    a[0] += a[1];
    let (mut root, mut leaf) = (0usize, 2usize);
    for next in 1..n - 1 {
        if leaf >= n || a[root] < a[leaf] {
            a[next] = a[root];
            a[root] = next;
            root += 1;
        } else {
            a[next] = a[leaf];
            leaf += 1;
        }
        if leaf >= n || (root < next && a[root] < a[leaf]) {
            a[next] += a[root];
            a[root] = next;
            root += 1;
        } else {
            a[next] += a[leaf];
            leaf += 1;
        }
    }
    a[n - 2] = 0;
    for next in (0..n - 2).rev() {
        a[next] = a[a[next]] + 1;
    }
    let (mut avail, mut used_n, mut depth) = (1isize, 0isize, 0usize);
    let (mut root, mut next) = (n as isize - 2, n as isize - 1);
    while avail > 0 {
        while root >= 0 && a[root as usize] == depth {
            used_n += 1;
            root -= 1;
        }
        while avail > used_n {
            a[next as usize] = depth;
            next -= 1;
            avail -= 1;
        }
        avail = 2 * used_n;
        depth += 1;
        used_n = 0;
    }
    // a[i] is now the length for the i-th least frequent symbol. Limit the lengths,
    // keeping the code complete.
    let mut count = vec![0usize; max_bits + 1];
    for &len in &a {
        count[len.min(max_bits)] += 1;
    }
    let mut total: usize = (1..=max_bits).map(|i| count[i] << (max_bits - i)).sum();
    while total > 1 << max_bits {
        count[max_bits] -= 1;
        for i in (1..max_bits).rev() {
            if count[i] != 0 {
                count[i] -= 1;
                count[i + 1] += 2;
                break;
            }
        }
        total -= 1;
    }
    // Shortest codes to the most frequent symbols.
    let mut sym = used.iter().rev();
    for (len, &k) in count.iter().enumerate().skip(1) {
        for _ in 0..k {
            let &(_, s) = sym.next().expect("as many lengths as symbols");
            lengths[s] = len as u8;
        }
    }
    lengths
}

/// Canonical codes for `lengths`, bit-reversed for least-significant-first output.
fn codes(lengths: &[u8]) -> Vec<u32> {
    let max = lengths.iter().copied().max().unwrap_or(0) as usize;
    let mut count = vec![0u32; max + 1];
    for &l in lengths {
        if l > 0 {
            count[l as usize] += 1;
        }
    }
    let mut next = vec![0u32; max + 2];
    let mut code = 0u32;
    for bits in 1..=max {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c.reverse_bits() >> (32 - l as u32)
        })
        .collect()
}

/// Run-length codes the code lengths with symbols 16, 17 and 18: (symbol, extra value).
fn rle_lengths(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lengths.len() {
        let l = lengths[i];
        let mut run = 1;
        while i + run < lengths.len() && lengths[i + run] == l {
            run += 1;
        }
        i += run;
        if l == 0 {
            while run >= 11 {
                let k = run.min(138);
                out.push((18, (k - 11) as u8));
                run -= k;
            }
            if run >= 3 {
                out.push((17, (run - 3) as u8));
                run = 0;
            }
            out.extend(std::iter::repeat((0, 0)).take(run));
        } else {
            out.push((l, 0));
            run -= 1;
            while run >= 3 {
                let k = run.min(6);
                out.push((16, (k - 3) as u8));
                run -= k;
            }
            out.extend(std::iter::repeat((l, 0)).take(run));
        }
    }
    out
}

/// Writes `tokens` as one final block with dynamic Huffman codes.
fn write_block(tokens: &[Token], last: bool, bits: &mut BitWriter) {
    let mut lit_freq = [0u32; 286];
    let mut dist_freq = [0u32; 30];
    for &t in tokens {
        if t & MATCH_FLAG != 0 {
            lit_freq[length_code(token_len(t)).0] += 1;
            dist_freq[dist_code(token_dist(t)).0] += 1;
        } else {
            lit_freq[t as usize] += 1;
        }
    }
    lit_freq[256] = 1;
    // Two distance codes at least, so that the distance code is always complete.
    for f in dist_freq.iter_mut().take(2) {
        *f = (*f).max(1);
    }
    let lit_len = code_lengths(&lit_freq, 15);
    let dist_len = code_lengths(&dist_freq, 15);
    let lit_code = codes(&lit_len);
    let dist_bits = codes(&dist_len);
    let hlit = 257.max(lit_len.iter().rposition(|&l| l > 0).map_or(0, |p| p + 1));
    let hdist = 1.max(dist_len.iter().rposition(|&l| l > 0).map_or(0, |p| p + 1));
    let mut all = lit_len[..hlit].to_vec();
    all.extend_from_slice(&dist_len[..hdist]);
    let rle = rle_lengths(&all);
    let mut cl_freq = [0u32; 19];
    for &(s, _) in &rle {
        cl_freq[s as usize] += 1;
    }
    let cl_len = code_lengths(&cl_freq, 7);
    let cl_code = codes(&cl_len);
    const ORDER: [usize; 19] = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ];
    let hclen = 4.max(
        ORDER
            .iter()
            .rposition(|&s| cl_len[s] > 0)
            .map_or(0, |p| p + 1),
    );

    bits.put(last as u32, 1); // whether this is the final block
    bits.put(2, 2); // with dynamic Huffman codes
    bits.put((hlit - 257) as u32, 5);
    bits.put((hdist - 1) as u32, 5);
    bits.put((hclen - 4) as u32, 4);
    for &s in &ORDER[..hclen] {
        bits.put(cl_len[s] as u32, 3);
    }
    for &(s, extra) in &rle {
        bits.put(cl_code[s as usize], cl_len[s as usize] as u32);
        match s {
            16 => bits.put(extra as u32, 2),
            17 => bits.put(extra as u32, 3),
            18 => bits.put(extra as u32, 7),
            _ => {}
        }
    }
    // Each literal's code, and each length's code with its extra bits, as one write.
    let literal: Vec<(u32, u32)> = (0..256).map(|b| (lit_code[b], lit_len[b] as u32)).collect();
    let length: Vec<(u32, u32)> = (0..=MAX_MATCH)
        .map(|len| {
            if len < MIN_MATCH {
                return (0, 0);
            }
            let (sym, eb, ev) = length_code(len);
            let n = lit_len[sym] as u32;
            (lit_code[sym] | ev << n, n + eb)
        })
        .collect();
    for &t in tokens {
        if t & MATCH_FLAG != 0 {
            let (code, n) = length[token_len(t)];
            bits.put(code, n);
            let (dsym, deb, dev) = dist_code(token_dist(t));
            let n = dist_len[dsym] as u32;
            bits.put(dist_bits[dsym] | dev << n, n + deb);
        } else {
            let (code, n) = literal[t as usize];
            bits.put(code, n);
        }
    }
    bits.put(lit_code[256], lit_len[256] as u32);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> Vec<u8> {
        let mut d = ::png::Decoder::new(std::io::Cursor::new(png));
        d.set_transformations(::png::Transformations::IDENTITY);
        let mut r = d.read_info().expect("png header");
        let mut buf = vec![0; r.output_buffer_size().expect("size")];
        let info = r.next_frame(&mut buf).expect("png data");
        buf.truncate(info.buffer_size());
        buf
    }

    fn palette() -> Vec<Rgb> {
        (0..=255u8).map(|i| Rgb(i, 255 - i, i / 2)).collect()
    }

    fn roundtrip(w: u32, h: u32, px: &[u8]) {
        let png = png(w, h, px, &palette());
        assert_eq!(decode(&png), px, "{w}x{h}");
    }

    /// A pseudo-random generator, for test data.
    fn noise(seed: &mut u32) -> u8 {
        *seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (*seed >> 24) as u8
    }

    #[test]
    fn length_and_distance_codes_follow_the_deflate_tables() {
        assert_eq!(length_code(3), (257, 0, 0));
        assert_eq!(length_code(10), (264, 0, 0));
        assert_eq!(length_code(11), (265, 1, 0));
        assert_eq!(length_code(12), (265, 1, 1));
        assert_eq!(length_code(257), (284, 5, 30));
        assert_eq!(length_code(258), (285, 0, 0));
        assert_eq!(dist_code(1), (0, 0, 0));
        assert_eq!(dist_code(4), (3, 0, 0));
        assert_eq!(dist_code(5), (4, 1, 0));
        assert_eq!(dist_code(6), (4, 1, 1));
        assert_eq!(dist_code(7), (5, 1, 0));
        assert_eq!(dist_code(25), (9, 3, 0));
        assert_eq!(dist_code(32768), (29, 13, 8191));
    }

    #[test]
    fn code_lengths_are_complete_prefix_codes_within_the_limit() {
        let freqs: Vec<u32> = (0..286)
            .map(|i| if i % 3 == 0 { 0 } else { 1 + (i * i) % 977 })
            .collect();
        for max in [7, 9, 15] {
            let l = code_lengths(&freqs, max);
            assert!(l.iter().all(|&x| (x as usize) <= max));
            let kraft: f64 = l
                .iter()
                .filter(|&&x| x > 0)
                .map(|&x| 0.5f64.powi(x as i32))
                .sum();
            assert!((kraft - 1.0).abs() < 1e-9, "{kraft}");
        }
        // Fibonacci frequencies: a plain Huffman code would be longer than 7 bits.
        let fib = [1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233];
        assert!(code_lengths(&fib, 7).iter().all(|&x| (1..=7).contains(&x)));
    }

    #[test]
    fn images_decode_to_what_was_encoded() {
        roundtrip(1, 1, &[7]);
        roundtrip(3, 2, &[0, 1, 2, 3, 4, 5]);
        roundtrip(300, 200, &vec![9u8; 300 * 200]);
        // Runs, repeats and noise, in rows wider than the window.
        let (w, h) = (40000u32, 3u32);
        let mut seed = 12345;
        let px: Vec<u8> = (0..w * h)
            .map(|i| match (i / 97) % 3 {
                0 => (i / 500) as u8,
                1 => ((i % 97) as u8) & 0x0f,
                _ => noise(&mut seed),
            })
            .collect();
        roundtrip(w, h, &px);
    }

    #[test]
    fn tiled_images_decode_to_what_was_encoded() {
        // A 5x4 grid of 20-pixel tiles (three kinds, one overdrawn) in a frame.
        let s = 20;
        let (w, h) = (7 + 5 * s + 3, 11 + 4 * s + 6);
        let mut seed = 99;
        let tiles: Vec<Vec<u8>> = (0..3)
            .map(|k| {
                (0..s * s)
                    .map(|i| match k {
                        0 => 1,
                        1 => ((i % s) / 4 + (i / s) / 5) as u8,
                        _ => noise(&mut seed) & 7,
                    })
                    .collect()
            })
            .collect();
        let set = TileSet::new(tiles.clone(), 1, s, w + 1);
        let mut cells = Vec::new();
        let mut px = vec![200u8; w * h];
        for r in 0..4 {
            for c in 0..5 {
                let id = (r * 5 + c) % 3;
                for y in 0..s {
                    let at = (11 + r * s + y) * w + 7 + c * s;
                    px[at..at + s].copy_from_slice(&tiles[id][y * s..(y + 1) * s]);
                }
                cells.push(Some(TileCell::whole(id as u16)));
            }
        }
        // Draw over one cell, which must then be compressed as it is.
        px[(11 + s + 3) * w + 7 + 2 * s + 5] = 250;
        cells[5 + 2] = None;
        // Draw over bands of rows of others (top, middle, bottom; every kind of tile):
        // their other rows keep the tile's tokens or copies only where those read
        // unchanged rows.
        for (cell, from, to) in [(2, 0, 6), (8, 3, 9), (11, 7, 12), (12, 14, 20), (13, 2, 5)] {
            let (r, c) = (cell / 5, cell % 5);
            for y in from..to {
                let at = (11 + r * s + y) * w + 7 + c * s;
                for (i, p) in px[at + 2..at + 9].iter_mut().enumerate() {
                    *p = 240 + (i as u8 + y as u8) % 9;
                }
            }
            cells[cell] = cells[cell].and_then(|t| t.drawn_over(from, to, s));
            assert!(cells[cell].is_some());
        }
        let tiling = Tiling {
            x: 7,
            y: 11,
            s,
            cols: 5,
            rows: 4,
            cells: &cells,
            tiles: &set,
        };
        let raw: Vec<u8> = px
            .chunks(w)
            .flat_map(|r| std::iter::once(0).chain(r.iter().copied()))
            .collect();
        let png = png_raw(w as u32, h as u32, &raw, &palette(), Some(&tiling));
        assert_eq!(decode(&png), px);
    }

    #[test]
    fn a_cell_drawn_over_keeps_the_band_that_covers_every_drawing() {
        let t = TileCell::whole(3);
        assert!((0..20).all(|r| t.clean(r)));
        let top = t.drawn_over(1, 6, 20).unwrap();
        assert_eq!(top.drawn, (1, 6));
        assert!(top.clean(0) && !top.clean(1) && !top.clean(5) && top.clean(6));
        assert_eq!(top.drawn_over(14, 18, 20).unwrap().drawn, (1, 18));
        assert_eq!(top.drawn_over(3, 3, 20), Some(top));
        assert_eq!(top.drawn_over(0, 20, 20), None);
        assert_eq!(t.drawn_over(0, 30, 20), None);
    }

    #[test]
    fn a_checkerboard_is_tiny() {
        let (w, h) = (720usize, 720usize);
        let px: Vec<u8> = (0..w * h)
            .map(|i| (((i % w) / 90 + (i / w) / 90) % 2) as u8)
            .collect();
        let png = png(
            w as u32,
            h as u32,
            &px,
            &[Rgb(240, 217, 181), Rgb(181, 136, 99)],
        );
        assert!(png.len() < 4000, "{} bytes", png.len());
        assert_eq!(decode(&png), px);
    }
}
