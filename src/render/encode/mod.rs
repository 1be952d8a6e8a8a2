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
//!   its own earlier rows, are the same in every image of that size.
//!   [`TileCode`](tiles::TileCode) finds them once, with a thorough search (hash chains
//!   and lazy matching); each image only splices them in. A tile already drawn earlier within DEFLATE's 32 KiB window (a
//!   second pawn on a light square in the same rank) is coded as one copy per row.
//! - **Everything else is compressed greedily** from three candidates per position: a
//!   run of the previous byte, the same bytes one row up, and the last earlier position
//!   whose next four bytes hashed alike.
//!
//! Adjacent copies from the same distance are merged, so a row that equals the row above
//! costs about three tokens whatever tiles it crosses. All tokens go into one block with
//! Huffman codes built for the image. Rows are not filtered: palette indices compress
//! best as they are.

mod deflate;
mod lz;
#[cfg(test)]
mod tests;
mod tiles;

pub(crate) use tiles::{TileCell, TileSet, Tiling};

use super::theme::Rgb;
use deflate::{write_block, BitString, BitWriter, FixedBlock};
use lz::{token_len, tokenize, Sink, Token};
use tiles::FixedCodes;

/// Longest match DEFLATE can code.
const MAX_MATCH: usize = 258;
/// Shortest match DEFLATE can code.
const MIN_MATCH: usize = 3;
/// Farthest back a match may reach.
const WINDOW: usize = 32768;

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

/// Encodes like [`png`] an image given as PNG's raw rows (each row a filter byte, 0,
/// then its pixels), using the prepared tokens of the tiles in `tiling`.
pub(crate) fn png_raw(
    width: u32,
    height: u32,
    raw: &[u8],
    palette: &[Rgb],
    tiling: Option<&Tiling>,
) -> Vec<u8> {
    png_raw_codes(width, height, raw, palette, tiling, true)
}

/// [`png_raw`], under the tiles' fixed codes if `fixed` and they are learnt, else under
/// codes made for this image (what every image was written with before the fixed codes,
/// kept to compare them with).
pub(crate) fn png_raw_codes(
    width: u32,
    height: u32,
    raw: &[u8],
    palette: &[Rgb],
    tiling: Option<&Tiling>,
    fixed: bool,
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
    let fixed = tiling
        .filter(|_| fixed)
        .and_then(|t| t.tiles.fixed().map(|codes| (t, codes)));
    let mut out = match fixed {
        Some((t, codes)) => {
            let writer = FixedWriter::new(BitWriter::new(out), codes, cuts(t, stride));
            tokenize(raw, stride, tiling, true, writer).finish()
        }
        None => {
            let tokens = tokenize(raw, stride, tiling, false, Vec::new());
            out.reserve(tokens.len() * 3);
            let mut bits = BitWriter::new(out);
            let cuts = tiling.map_or([usize::MAX; 2], |t| cuts(t, stride));
            let pieces = bands(&tokens, &cuts);
            let n = pieces.len();
            for (i, piece) in pieces.into_iter().enumerate() {
                write_block(piece, i + 1 == n, &mut bits);
            }
            bits.finish()
        }
    };
    out.extend_from_slice(&simd_adler32::adler32(&raw).to_be_bytes());
    let len = (out.len() - start - 8) as u32;
    out[start..start + 4].copy_from_slice(&len.to_be_bytes());
    let crc = crc32fast::hash(&out[start + 4..]);
    out.extend_from_slice(&crc.to_be_bytes());
    chunk(&mut out, b"IEND", &[]);
    out
}

/// Where the board's band of rows begins and ends in the raw stream: the frame and the
/// board use their colours differently, so each gets a block with its own codes.
fn cuts(t: &Tiling, stride: usize) -> [usize; 2] {
    [t.y * stride, (t.y + t.rows * t.s) * stride]
}

/// `tokens` split into blocks, each at the first token that starts at or after a cut.
fn bands<'a>(tokens: &'a [Token], cuts: &[usize; 2]) -> Vec<&'a [Token]> {
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
    pieces
}

/// Learns the fixed codes of a board size's images from one sample image (raw rows, its
/// tiles in `tiling`): from then on its images are written under them, without counting
/// their symbols or building codes, and its tiles' rows are kept coded.
pub(crate) fn learn(raw: &[u8], stride: usize, tiling: &Tiling) {
    let tokens = tokenize(raw, stride, Some(tiling), false, Vec::new());
    let pieces = bands(&tokens, &cuts(tiling, stride));
    let (board, frame): (Vec<_>, Vec<_>) = pieces
        .iter()
        .enumerate()
        .partition(|(i, _)| pieces.len() == 3 && *i == 1);
    tiling.tiles.learn(FixedCodes {
        frame: FixedBlock::learn(frame.iter().flat_map(|(_, p)| p.iter())),
        board: FixedBlock::learn(board.iter().flat_map(|(_, p)| p.iter())),
    });
}

/// Writes tokens as they come under the fixed codes: the frame's, then from the first
/// token at or after the board's first row the board's, then the frame's again.
struct FixedWriter<'a> {
    bits: BitWriter,
    codes: &'a FixedCodes,
    cuts: [usize; 2],
    /// How many cuts were passed: the blocks begun, less one.
    passed: usize,
}

impl<'a> FixedWriter<'a> {
    fn new(mut bits: BitWriter, codes: &'a FixedCodes, cuts: [usize; 2]) -> FixedWriter<'a> {
        codes.frame.begin(false, &mut bits);
        FixedWriter {
            bits,
            codes,
            cuts,
            passed: 0,
        }
    }

    /// The code of the current block.
    #[inline(always)]
    fn block(&self) -> &'a FixedBlock {
        if self.passed == 1 {
            &self.codes.board
        } else {
            &self.codes.frame
        }
    }

    /// Ends the block and begins the next if `at` is past the next cut.
    #[inline(always)]
    fn cut(&mut self, at: usize) {
        while self.passed < 2 && at >= self.cuts[self.passed] {
            self.block().end(&mut self.bits);
            self.passed += 1;
            let last = self.passed == 2;
            self.block().begin(last, &mut self.bits);
        }
    }

    /// Ends the last block; a block never begun (an image that ends before the board)
    /// is begun and ended empty, so that the stream has its last block.
    fn finish(mut self) -> Vec<u8> {
        self.cut(usize::MAX);
        self.block().end(&mut self.bits);
        self.bits.finish()
    }
}

impl Sink for FixedWriter<'_> {
    #[inline(always)]
    fn token(&mut self, t: Token, at: usize) {
        self.cut(at);
        self.block().token(t, &mut self.bits);
    }

    #[inline]
    fn bits(&mut self, bits: &BitString, at: usize) {
        self.cut(at);
        debug_assert_eq!(self.passed, 1, "a tile's bits inside the board's band");
        self.bits.append(bits);
    }
}

/// Appends a PNG chunk: its length, its kind, `data` and its CRC.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}
