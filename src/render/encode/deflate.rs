//! DEFLATE's block format: length and distance codes, length-limited Huffman codes, and
//! a dynamic-Huffman block written from a list of tokens.

use super::lz::{token_dist, token_len, Token, MATCH_FLAG};
use super::{MAX_MATCH, MIN_MATCH};

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
pub(super) fn length_code(len: usize) -> (usize, u32, u32) {
    let i = LEN_SYMBOL[len - MIN_MATCH] as usize;
    (
        257 + i,
        LEN_EXTRA[i] as u32,
        (len - LEN_BASE[i] as usize) as u32,
    )
}

/// Code, extra bits and extra value of a distance (1..=32768).
#[inline]
pub(super) fn dist_code(dist: usize) -> (usize, u32, u32) {
    if dist <= 4 {
        return (dist - 1, 0, 0);
    }
    let d = (dist - 1) as u32;
    let top = 31 - d.leading_zeros(); // the highest set bit, at least 2
    let extra = top - 1;
    let second = (d >> extra) & 1;
    ((2 * top + second) as usize, extra, d & ((1 << extra) - 1))
}

/// Where bits go: the output, or a string of bits kept to be copied into it later.
pub(super) trait PutBits {
    /// Writes the low `count` bits of `bits` (`count` at most 32).
    fn put(&mut self, bits: u32, count: u32);
}

/// Bits kept to be appended whole to an output later ([`BitWriter::append`]): a tile
/// row's tokens, or a block's header, under a fixed code.
#[derive(Clone, Debug, Default)]
pub(super) struct BitString {
    words: Vec<u32>,
    acc: u64,
    n: u32,
}

impl PutBits for BitString {
    #[inline(always)]
    fn put(&mut self, bits: u32, count: u32) {
        self.acc |= (bits as u64) << self.n;
        self.n += count;
        if self.n >= 32 {
            self.words.push(self.acc as u32);
            self.acc >>= 32;
            self.n -= 32;
        }
    }
}

/// Writes bits least significant first, as DEFLATE wants.
pub(super) struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    /// Appends to `out`.
    pub(super) fn new(out: Vec<u8>) -> BitWriter {
        BitWriter { out, acc: 0, n: 0 }
    }

    /// Appends kept bits.
    #[inline]
    pub(super) fn append(&mut self, s: &BitString) {
        for &w in &s.words {
            self.put(w, 32);
        }
        if s.n > 0 {
            self.put(s.acc as u32, s.n);
        }
    }

    /// Flushes the last bits (padded to a byte) and returns the output.
    pub(super) fn finish(mut self) -> Vec<u8> {
        let bytes = self.n.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
        self.out
    }
}

impl PutBits for BitWriter {
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
}

/// Code lengths for `freqs`, none longer than `max_bits` (zero for unused symbols).
pub(super) fn code_lengths(freqs: &[u32], max_bits: usize) -> Vec<u8> {
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
    let a = huffman_lengths(&used);
    let count = limit_lengths(&a, max_bits);
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

/// Unlimited Huffman code lengths for the `(frequency, symbol)` pairs `used`, sorted
/// by frequency, at least two: the length for the i-th least frequent symbol.
/// Moffat and Katajainen's in-place computation.
fn huffman_lengths(used: &[(u32, usize)]) -> Vec<usize> {
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
    a
}

/// How many codes of each length (index 1..=`max_bits`) there are once the lengths `a`
/// are limited to `max_bits`, keeping the code complete.
fn limit_lengths(a: &[usize], max_bits: usize) -> Vec<usize> {
    let mut count = vec![0usize; max_bits + 1];
    for &len in a {
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
    count
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

/// The order in which the code-length code's lengths are written.
const CL_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// The literal/length and distance codes of a block: lengths and bit-reversed codes.
struct BlockCodes {
    lit_len: Vec<u8>,
    lit_code: Vec<u32>,
    dist_len: Vec<u8>,
    dist_bits: Vec<u32>,
}

impl BlockCodes {
    /// Huffman codes for these symbol frequencies.
    fn new(lit_freq: &[u32; 286], dist_freq: &[u32; 30]) -> BlockCodes {
        let lit_len = code_lengths(lit_freq, 15);
        let dist_len = code_lengths(dist_freq, 15);
        BlockCodes {
            lit_code: codes(&lit_len),
            dist_bits: codes(&dist_len),
            lit_len,
            dist_len,
        }
    }
}

/// Writes `tokens` as one block with dynamic Huffman codes (the final one if `last`).
pub(super) fn write_block(tokens: &[Token], last: bool, bits: &mut BitWriter) {
    let (lit_freq, dist_freq) = token_frequencies(tokens);
    let block = BlockCodes::new(&lit_freq, &dist_freq);
    bits.put(last as u32, 1); // whether this is the final block
    write_header(&block, bits);
    write_tokens(&block, tokens, bits);
}

/// A block's codes fixed in advance (one per kind of band of a board image, learnt once
/// per board size from a sample image, [`FixedBlock::learn`]), with its header already
/// written and its symbols' bits in tables: an image's tokens under it are written
/// without counting them or building codes, and a tile's row can be kept as bits.
#[derive(Debug)]
pub(crate) struct FixedBlock {
    /// The header after its first bit (whether the block is the last).
    header: BitString,
    /// Each literal's code and its length.
    literal: SymbolBits,
    /// Each length's code with its extra bits, and their length.
    length: SymbolBits,
    /// Each distance code's code, and its length (extra bits apart).
    dist: SymbolBits,
    /// The end of block's code and its length.
    end: (u32, u32),
}

impl FixedBlock {
    /// Codes for tokens like `tokens`: every symbol counted once more than it occurs, so
    /// that any token, seen or not, has a code.
    pub(super) fn learn<'a>(tokens: impl IntoIterator<Item = &'a Token>) -> FixedBlock {
        let mut lit_freq = [1u32; 286];
        let mut dist_freq = [1u32; 30];
        for &t in tokens {
            if t & MATCH_FLAG != 0 {
                lit_freq[length_code(token_len(t)).0] += 1;
                dist_freq[dist_code(token_dist(t)).0] += 1;
            } else {
                lit_freq[t as usize] += 1;
            }
        }
        let block = BlockCodes::new(&lit_freq, &dist_freq);
        let mut header = BitString::default();
        write_header(&block, &mut header);
        let (literal, length) = symbol_tables(&block);
        FixedBlock {
            header,
            literal,
            length,
            dist: (0..30)
                .map(|d| (block.dist_bits[d], block.dist_len[d] as u32))
                .collect(),
            end: (block.lit_code[256], block.lit_len[256] as u32),
        }
    }

    /// Begins a block under this code: whether it is the last, then its header.
    #[inline]
    pub(super) fn begin(&self, last: bool, bits: &mut BitWriter) {
        bits.put(last as u32, 1);
        bits.append(&self.header);
    }

    /// Writes one token.
    #[inline(always)]
    pub(super) fn token(&self, t: Token, bits: &mut impl PutBits) {
        if t & MATCH_FLAG != 0 {
            let (code, n) = self.length[token_len(t)];
            bits.put(code, n);
            let (dsym, deb, dev) = dist_code(token_dist(t));
            let (dcode, n) = self.dist[dsym];
            bits.put(dcode | dev << n, n + deb);
        } else {
            let (code, n) = self.literal[t as usize];
            bits.put(code, n);
        }
    }

    /// Ends the block.
    #[inline]
    pub(super) fn end(&self, bits: &mut BitWriter) {
        bits.put(self.end.0, self.end.1);
    }
}

/// Per symbol, the bits to write and how many.
type SymbolBits = Vec<(u32, u32)>;

/// Each literal's code and each length's code with its extra bits, as one write.
fn symbol_tables(block: &BlockCodes) -> (SymbolBits, SymbolBits) {
    let (lit_len, lit_code) = (&block.lit_len, &block.lit_code);
    let literal: SymbolBits = (0..256).map(|b| (lit_code[b], lit_len[b] as u32)).collect();
    let length: SymbolBits = (0..=MAX_MATCH)
        .map(|len| {
            if len < MIN_MATCH {
                return (0, 0);
            }
            let (sym, eb, ev) = length_code(len);
            let n = lit_len[sym] as u32;
            (lit_code[sym] | ev << n, n + eb)
        })
        .collect();
    (literal, length)
}

/// How often each literal/length symbol (with one end of block) and each distance code
/// (the first two at least once, so that the distance code is always complete) occurs.
fn token_frequencies(tokens: &[Token]) -> ([u32; 286], [u32; 30]) {
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
    for f in dist_freq.iter_mut().take(2) {
        *f = (*f).max(1);
    }
    (lit_freq, dist_freq)
}

/// The block's header after its first bit: its kind, then the code lengths of its two
/// codes, run-length coded with a code of their own.
fn write_header(block: &BlockCodes, bits: &mut impl PutBits) {
    let (lit_len, dist_len) = (&block.lit_len, &block.dist_len);
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
    let hclen = 4.max(
        CL_ORDER
            .iter()
            .rposition(|&s| cl_len[s] > 0)
            .map_or(0, |p| p + 1),
    );

    bits.put(2, 2); // with dynamic Huffman codes
    bits.put((hlit - 257) as u32, 5);
    bits.put((hdist - 1) as u32, 5);
    bits.put((hclen - 4) as u32, 4);
    for &s in &CL_ORDER[..hclen] {
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
}

/// The block's tokens and its end.
fn write_tokens(block: &BlockCodes, tokens: &[Token], bits: &mut BitWriter) {
    let BlockCodes {
        lit_len,
        lit_code,
        dist_len,
        dist_bits,
    } = block;
    let (literal, length) = symbol_tables(block);
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
