//! LZ77 tokens and the greedy compressor that codes an image with them, splicing in the
//! prepared tokens of its tiles.

use super::deflate::BitString;
use super::tiles::{TileCell, Tiling};
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

/// Builds the tokens of one image, position by position. The last token is held back
/// (`last`) until the next one comes, since a copy may still grow.
struct Lz<'a, S: Sink> {
    raw: &'a [u8],
    stride: usize,
    head: Vec<u32>,
    sink: S,
    /// The last token and where it starts.
    last: Option<(Token, usize)>,
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
            last: None,
            pos: 0,
        }
    }

    /// Passes the held token on.
    #[inline(always)]
    fn release(&mut self) {
        if let Some((t, at)) = self.last.take() {
            self.sink.token(t, at);
        }
    }

    /// Takes `t`, `len` bytes from the current position.
    #[inline(always)]
    fn push(&mut self, t: Token, len: usize) {
        self.release();
        self.last = Some((t, self.pos));
        self.pos += len;
    }

    /// The last token, if it is a copy.
    #[inline(always)]
    fn last_copy(&self) -> Option<Token> {
        self.last.map(|(t, _)| t).filter(|t| t & MATCH_FLAG != 0)
    }

    #[inline(always)]
    fn literal(&mut self) {
        self.push(self.raw[self.pos] as u32, 1);
    }

    /// Codes the next `len` bytes (any length) as a copy from `dist` back, merged with the
    /// previous token when that is a copy from the same distance.
    fn copy(&mut self, mut len: usize, dist: usize) {
        if let Some(last) = self.last_copy() {
            if token_dist(last) == dist {
                let have = token_len(last);
                let take = (MAX_MATCH - have).min(len);
                if take > 0 {
                    if let Some((t, _)) = self.last.as_mut() {
                        *t = match_token(have + take, dist);
                    }
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
                self.push(match_token(n, dist), n);
            } else {
                for _ in 0..n {
                    self.literal();
                }
            }
            len -= n;
        }
    }

    /// Appends a tile row's prepared tokens, the middle ones (between the first and the
    /// last, which may merge with their neighbours) as bits already coded.
    fn splice_coded(&mut self, tokens: &[Token], middle: &Middle) {
        if middle.len == 0 {
            self.splice(tokens);
            return;
        }
        self.splice(&tokens[..1]);
        self.release();
        self.sink.bits(&middle.bits, self.pos);
        self.pos += middle.len;
        self.splice(&tokens[tokens.len() - 1..]);
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
                if let Some(last) = self.last_copy() {
                    let d = token_dist(last);
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

/// A tile row's tokens but its first and last, coded under the board's fixed code, and
/// how many bytes they cover (0: none, the row has two tokens or fewer).
#[derive(Clone, Debug, Default)]
pub(super) struct Middle {
    pub bits: BitString,
    pub len: usize,
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
                        if coded {
                            let middle = t.tiles.middle(cell.tile as usize, row);
                            lz.splice_coded(code.row(row), middle);
                        } else {
                            lz.splice(code.row(row));
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
