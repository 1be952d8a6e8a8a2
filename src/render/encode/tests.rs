//! Round trips through a PNG decoder, and checks of the DEFLATE tables and codes.

use super::deflate::{code_lengths, dist_code, length_code};
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
    // Under fixed codes learnt from the image itself, with the tiles' rows kept coded.
    learn(&raw, w + 1, &tiling);
    assert!(set.fixed().is_some());
    let fixed = png_raw(w as u32, h as u32, &raw, &palette(), Some(&tiling));
    assert_ne!(fixed, png, "written under the fixed codes");
    assert_eq!(decode(&fixed), px);
    // And an image the codes were not learnt from: every cell holding the noisy tile.
    let noisy: Vec<Option<TileCell>> = vec![Some(TileCell::whole(2)); 20];
    let mut px2 = vec![3u8; w * h];
    for k in 0..20 {
        let (r, c) = (k / 5, k % 5);
        for y in 0..s {
            let at = (11 + r * s + y) * w + 7 + c * s;
            px2[at..at + s].copy_from_slice(&tiles[2][y * s..(y + 1) * s]);
        }
    }
    let raw2: Vec<u8> = px2
        .chunks(w)
        .flat_map(|r| std::iter::once(0).chain(r.iter().copied()))
        .collect();
    let tiling2 = Tiling {
        cells: &noisy,
        ..tiling
    };
    let png2 = png_raw(w as u32, h as u32, &raw2, &palette(), Some(&tiling2));
    assert_eq!(decode(&png2), px2);
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
