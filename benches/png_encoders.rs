//! Postal's board image against the `png` crate, in one run (docs/design/images.md, "A PNG
//! encoder for these images"): the time to draw and encode a board at 720 pixels with
//! Postal's renderer, and the time for the `png` crate to encode the same pixels as RGBA
//! at its `Fast` setting and at its default (`Balanced`). The size of each PNG is printed
//! once before the timings.
//!
//! Run with `cargo bench --bench png_encoders`.

use criterion::{criterion_group, criterion_main, Criterion};
use postal::render::view::BoardView;
use postal::render::{Image, RenderOptions, Renderer};
use postal::rules::{Color, Position, Variant};

/// The `png` crate's encoding of `rgba` (width x height RGBA bytes) at `level`.
fn png_crate(rgba: &[u8], width: u32, height: u32, level: png::Compression) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(level);
    let mut writer = encoder.write_header().expect("header");
    writer.write_image_data(rgba).expect("pixels");
    writer.finish().expect("end");
    out
}

/// The image's pixels as RGBA bytes, row by row.
fn rgba(image: &Image) -> Vec<u8> {
    let mut px = Vec::with_capacity((image.width() * image.height() * 4) as usize);
    for y in 0..image.height() {
        for x in 0..image.width() {
            let c = image.rgb(x, y);
            px.extend_from_slice(&[c.0, c.1, c.2, 255]);
        }
    }
    px
}

fn encoders(c: &mut Criterion) {
    let renderer = Renderer::default();
    let options = RenderOptions::default();
    let mut position = Position::start(Variant::STANDARD);
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"] {
        let m = postal::notation::parse_move(&position, san).expect("a legal move");
        position.play_unchecked(m);
    }
    let view = BoardView::from_position(&position, None, Color::White);
    renderer.prepare(8, 8, &options);
    let image = renderer.render(&view, &options);
    let (w, h) = (image.width(), image.height());
    let pixels = rgba(&image);
    println!(
        "{w}x{h}: Postal {} B, png Fast {} B, png Balanced {} B",
        renderer.render_png(&view, &options).len(),
        png_crate(&pixels, w, h, png::Compression::Fast).len(),
        png_crate(&pixels, w, h, png::Compression::Balanced).len(),
    );
    let mut group = c.benchmark_group("board-720px");
    group.bench_function("postal-draw-and-encode", |b| {
        b.iter(|| renderer.render_png(&view, &options))
    });
    group.bench_function("png-crate-encode-fast", |b| {
        b.iter(|| png_crate(&pixels, w, h, png::Compression::Fast))
    });
    group.sample_size(20);
    group.bench_function("png-crate-encode-balanced", |b| {
        b.iter(|| png_crate(&pixels, w, h, png::Compression::Balanced))
    });
    group.finish();
}

criterion_group!(benches, encoders);
criterion_main!(benches);
