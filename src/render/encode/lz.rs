//! LZ77 tokens and the greedy compressor that codes an image with them, splicing in the
//! prepared tokens of its tiles.

use super::deflate::BitString;
use super::tiles::{TileCell, TileCode, Tiling};
use super::{MAX_MATCH, MIN_MATCH, WINDOW};

/// A copy the greedy compressor takes without looking at other candidates.
const LONG_ENOUGH: usize = 4 * MAX_MATCH;
/// Bits of the hash of four bytes used by the greedy compressor.
const HASH_BITS: u32 = 14;

/// A literal byte, or a match: bit 31 set, length - 3 in bits 16..24, distance - 1 in
/// bits 0..16.
pub(super) type Token = u32;

/// The bit that marks a [`Token`] as a match.
pub(super) const MATCH_FLAG: u32 = 1 << 31;

/// The token of a copy of `len` bytes from `dist` back.
#[inline]
pub(super) fn match_token(len: usize, dist: usize) -> Token {
    debug_assert!((MIN_MATCH..=MAX_MATCH).contains(&len) && (1..=WINDOW).contains(&dist));
    MATCH_FLAG | (((len - MIN_MATCH) as u32) << 16) | (dist - 1) as u32
}

/// How many bytes a token covers.
#[inline]
pub(super) fn token_len(t: Token) -> usize {
    if t & MATCH_FLAG != 0 {
        ((t >> 16) & 0xff) as usize + MIN_MATCH
    } else {
        1
    }
}

/// How far back a match token copies from.
#[inline]
pub(super) fn token_dist(t: Token) -> usize {
    (t & 0xffff) as usize + 1
}

/// How many bytes at `a` and `b` agree, up to `limit`. Eight bytes a step, on slices cut
/// to `limit` first so that the steps need no bounds checks (this runs over most of every
/// image's frame).
#[inline(always)]
pub(super) fn common_prefix(data: &[u8], a: usize, b: usize, limit: usize) -> usize {
    let (x, y) = (&data[a..a + limit], &data[b..b + limit]);
    let mut n = 0;
    for (p, q) in x.chunks_exact(8).zip(y.chunks_exact(8)) {
        let p = u64::from_le_bytes(p.try_into().expect("8 bytes"));
        let q = u64::from_le_bytes(q.try_into().expect("8 bytes"));
        let diff = p ^ q;
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while n < limit && x[n] == y[n] {
        n += 1;
    }
    n
}

/// Hash of the four bytes at `i`, in `HASH_BITS` bits.
#[inline]
fn hash4(data: &[u8], i: usize) -> usize {
    let v = u32::from_le_bytes(data[i..i + 4].try_into().expect("4 bytes"));
    (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// Where the tokens of an image go, in order, each with the position it starts at.
pub(super) trait Sink {
    /// Takes the next token.
    fn token(&mut self, t: Token, at: usize);
    /// Takes bits already coded for the tokens from `at` on (a tile row's middle, coded
    /// under the board's fixed code); only a sink that writes under fixed codes is given
    /// any.
    fn bits(&mut self, bits: &BitString, at: usize);
}

impl Sink for Vec<Token> {
    #[inline]
    fn token(&mut self, t: Token, _at: usize) {
        self.push(t);
    }

    fn bits(&mut self, _bits: &BitString, _at: usize) {
        unreachable!("a token list is never given coded bits");
    }
}

/// Builds the tokens of one image, position by position. A copy is held back (`run`)
/// until something else comes, since it may still grow: copies from the same distance
/// that follow each other are one copy, however long, cut into DEFLATE's longest only
/// when it is passed on.
struct Lz<'a, S: Sink> {
    raw: &'a [u8],
    stride: usize,
    head: Vec<u32>,
    sink: S,
    /// The copy held back: its length (0: none) and distance. It ends at `pos`.
    run_len: usize,
    run_dist: usize,
    /// Where the next token starts.
    pos: usize,
}

impl<'a, S: Sink> Lz<'a, S> {
    fn new(raw: &'a [u8], stride: usize, sink: S) -> Lz<'a, S> {
        Lz {
            raw,
            stride,
            head: vec![u32::MAX; 1 << HASH_BITS],
            sink,
            run_len: 0,
            run_dist: 0,
            pos: 0,
        }
    }

    /// Passes the held copy on, as copies of at most DEFLATE's longest (none shorter
    /// than its shortest).
    #[inline(always)]
    fn release(&mut self) {
        if self.run_len > 0 {
            self.release_run();
        }
    }

    fn release_run(&mut self) {
        let (mut len, dist) = (self.run_len, self.run_dist);
        let mut at = self.pos - len;
        while len > MAX_MATCH {
            // Never leave a tail too short to be a copy.
            let n = if len - MAX_MATCH < MIN_MATCH {
                len - MIN_MATCH
            } else {
                MAX_MATCH
            };
            self.sink.token(match_token(n, dist), at);
            at += n;
            len -= n;
        }
        self.sink.token(match_token(len, dist), at);
        self.run_len = 0;
    }

    /// The held copy's distance, if there is one.
    #[inline(always)]
    fn run_distance(&self) -> Option<usize> {
        (self.run_len > 0).then_some(self.run_dist)
    }

    #[inline(always)]
    fn literal(&mut self) {
        self.release();
        self.sink.token(self.raw[self.pos] as u32, self.pos);
        self.pos += 1;
    }

    /// Codes the next `len` bytes (any length) as a copy from `dist` back, joined to the
    /// held copy when that is from the same distance.
    #[inline]
    fn copy(&mut self, len: usize, dist: usize) {
        if self.run_len > 0 && self.run_dist == dist {
            self.run_len += len;
            self.pos += len;
        } else if len >= MIN_MATCH {
            self.release();
            self.run_len = len;
            self.run_dist = dist;
            self.pos += len;
        } else {
            for _ in 0..len {
                self.literal();
            }
        }
    }

    /// Takes one prepared token for the bytes at the current position.
    #[inline(always)]
    fn prepared(&mut self, t: Token) {
        if t & MATCH_FLAG != 0 {
            self.copy(token_len(t), token_dist(t));
        } else {
            debug_assert_eq!(self.raw[self.pos] as u32, t);
            self.literal();
        }
    }

    /// Appends a tile row's prepared tokens, the middle ones (between the first and the
    /// last, which may join their neighbours) as bits already coded.
    #[inline]
    fn splice_coded(&mut self, row: &RowCode) {
        self.prepared(row.first);
        if row.middle_len > 0 {
            self.release();
            self.sink.bits(&row.middle, self.pos);
            self.pos += row.middle_len as usize;
        }
        if let Some(last) = row.last {
            self.prepared(last);
        }
    }

    /// Appends prepared tokens for the bytes from the current position on.
    fn splice(&mut self, tokens: &[Token]) {
        for &t in tokens {
            self.prepared(t);
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
                // Going on with the held copy's distance costs nothing, so it wins ties.
                if let Some(d) = self.run_distance() {
                    if d <= i {
                        (best, dist) = (common_prefix(raw, i - d, i, rest), d);
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

/// A tile row's tokens as an image takes them: its first token and its last (which may
/// join their neighbours' copies), and the tokens between them coded under the board's
/// fixed code, with how many bytes they cover.
#[derive(Clone, Debug, Default)]
pub(super) struct RowCode {
    pub first: Token,
    /// The last token, unless the row has only one.
    pub last: Option<Token>,
    pub middle: BitString,
    pub middle_len: u32,
}

/// Passes the tokens of the whole raw stream to `sink`, using the prepared tokens of the
/// tiles in `tiling` (and, with `coded`, their rows' bits under the board's fixed code);
/// returns the sink.
pub(super) fn tokenize<S: Sink>(
    raw: &[u8],
    stride: usize,
    tiling: Option<&Tiling>,
    coded: bool,
    sink: S,
) -> S {
    let mut lz = Lz::new(raw, stride, sink);
    if let Some(t) = tiling {
        let (plans, repeats) = plan_cells(t, stride, coded);
        for y in t.y..t.y + t.rows * t.s {
            let (band, row) = ((y - t.y) / t.s, (y - t.y) % t.s);
            for col in 0..t.cols {
                let k = band * t.cols + col;
                let start = y * stride + 1 + t.x + col * t.s;
                if lz.pos < start {
                    lz.greedy(start);
                }
                let Some(plan) = plans[k].as_ref().filter(|p| p.cell.clean(row)) else {
                    lz.greedy(start + t.s);
                    continue;
                };
                // The same row, unchanged, in an earlier cell with the same tile.
                let same = repeats[plan.repeats.clone()]
                    .iter()
                    .find(|(_, o)| o.clean(row));
                let tokens = plan.code.row(row);
                match same {
                    Some(&(d, _)) if tokens.len() > 1 => lz.copy(t.s, d),
                    // Below the band, the row's tokens must not read the drawn rows.
                    _ if row < plan.cell.drawn.0 as usize
                        || plan.code.reach(row) >= plan.cell.drawn.1 as usize =>
                    {
                        match plan.coded {
                            Some(rows) => lz.splice_coded(&rows[row]),
                            None => lz.splice(tokens),
                        }
                    }
                    _ => lz.greedy(start + t.s),
                }
            }
        }
    }
    lz.greedy(raw.len());
    lz.release();
    lz.sink
}

/// What a cell of an image gives its rows: its tile's tokens (and, with fixed codes, its
/// coded rows), and where its earlier cells with the same tile are.
struct CellPlan<'t> {
    cell: TileCell,
    code: &'t TileCode,
    coded: Option<&'t [RowCode]>,
    /// Its entries in the list of repeats.
    repeats: std::ops::Range<usize>,
}

/// The plan of each cell of `t` (`None` where nothing of the tile is left), and the list
/// of repeats: for each cell, the earlier cells within reach holding the same tile,
/// nearest first, with their distance back.
fn plan_cells<'t>(
    t: &Tiling<'t>,
    stride: usize,
    coded: bool,
) -> (Vec<Option<CellPlan<'t>>>, Vec<(usize, TileCell)>) {
    let mut repeats = Vec::new();
    let plans = (0..t.cells.len())
        .map(|k| {
            let cell = t.cells[k]?;
            let (r, c) = (k / t.cols, k % t.cols);
            let from = repeats.len();
            for j in (0..k).rev() {
                let (rj, cj) = (j / t.cols, j % t.cols);
                let d = (r - rj) * t.s * stride + c * t.s - cj * t.s;
                if d > WINDOW {
                    break;
                }
                if let Some(o) = t.cells[j].filter(|o| o.tile == cell.tile) {
                    repeats.push((d, o));
                }
            }
            let tile = cell.tile as usize;
            Some(CellPlan {
                cell,
                code: t.tiles.code(tile),
                coded: coded.then(|| t.tiles.coded_rows(tile)),
                repeats: from..repeats.len(),
            })
        })
        .collect();
    (plans, repeats)
}
