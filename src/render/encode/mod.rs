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
use deflate::{write_block, BitWriter};
use lz::{token_len, tokenize};

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

/// Appends a PNG chunk: its length, its kind, `data` and its CRC.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}
