//! Drawing done once per size, while assets are prepared, on the `image` and `imageproc`
//! crates: shapes (circles, rings, strokes, rounded boxes) and glyphs are drawn with
//! `imageproc` at [`SS`] times the size, since its filled shapes are not anti-aliased,
//! and reduced with `image`'s area-averaging [`image::imageops::thumbnail`], which turns
//! them into coverage; holes are filled with `imageproc`'s connected components and
//! outlines grown with its dilation; colour layers are composited with `image`'s alpha
//! blending ([`image::imageops::overlay`]). What comes out is palette sprites and opaque
//! tiles for the per-turn compositor.

use super::palette::{Palette, LEVELS};
use super::theme::Rgb;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{imageops, GrayImage, Luma, Pixel, Rgba, RgbaImage};
use imageproc::distance_transform::Norm;
use imageproc::drawing::{
    draw_filled_circle_mut, draw_filled_rect_mut, draw_polygon_mut, draw_text_mut,
};
use imageproc::morphology::dilate_mut;
use imageproc::point::Point;
use imageproc::rect::Rect;
use imageproc::region_labelling::{connected_components, Connectivity};

/// How many times finer than the asset a mask is drawn, in each direction.
pub(crate) const SS: u32 = 4;

const INK: Luma<u8> = Luma([255]);
const CLEAR: Luma<u8> = Luma([0]);

/// A shape being drawn, at [`SS`] times its size; [`Mask::cover`] gives its coverage.
/// Coordinates are in pixels of the asset, with pixel `i` spanning `i..i + 1`.
#[derive(Clone, Debug)]
pub(crate) struct Mask {
    pub w: usize,
    pub h: usize,
    hi: GrayImage,
}

/// A coordinate in fine pixels, the edge between two of them.
fn fine(v: f32) -> i32 {
    (v * SS as f32).round() as i32
}

/// A disc of radius `r` centred at (`cx`, `cy`) (asset pixels) drawn in `color`. A disc
/// of `imageproc` is centred on a fine pixel and spans an odd number of them; four, one
/// fine pixel apart, make one centred between fine pixels, on an asset pixel's edge or
/// a quarter of the way across it.
fn disc(img: &mut GrayImage, cx: f32, cy: f32, r: f32, color: Luma<u8>) {
    let k = SS as f32;
    let radius = (r * k).round() as i32 - 1;
    if radius < 0 {
        return;
    }
    let (x, y) = (fine(cx), fine(cy));
    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        draw_filled_circle_mut(img, (x - dx, y - dy), radius, color);
    }
}

/// A filled box over fine pixels `x0..x1`, `y0..y1` (nothing if it is empty).
fn fine_rect(img: &mut GrayImage, x0: i32, y0: i32, x1: i32, y1: i32, color: Luma<u8>) {
    if x1 > x0 && y1 > y0 {
        let r = Rect::at(x0, y0).of_size((x1 - x0) as u32, (y1 - y0) as u32);
        draw_filled_rect_mut(img, r, color);
    }
}

impl Mask {
    /// An empty mask for a `w` x `h` asset.
    pub fn new(w: usize, h: usize) -> Mask {
        Mask {
            w,
            h,
            hi: GrayImage::new(w as u32 * SS, h as u32 * SS),
        }
    }

    /// The coverage of each asset pixel, 0 (none) to 255 (all), averaged over its fine
    /// pixels.
    pub fn cover(&self) -> GrayImage {
        imageops::thumbnail(&self.hi, self.w as u32, self.h as u32)
    }

    /// Adds another mask of the same size (union).
    pub fn union(&mut self, other: &Mask) {
        for (a, b) in self.hi.iter_mut().zip(other.hi.iter()) {
            *a = (*a).max(*b);
        }
    }

    /// Removes `other` (the same size) from this mask.
    pub fn subtract(&mut self, other: &Mask) {
        for (a, b) in self.hi.iter_mut().zip(other.hi.iter()) {
            *a = a.saturating_sub(*b);
        }
    }

    /// Clears everything from row `y` (asset pixels) down.
    pub fn clear_below(&mut self, y: f32) {
        let (w, h) = (self.hi.width() as i32, self.hi.height() as i32);
        fine_rect(&mut self.hi, 0, fine(y).max(0), w, h, CLEAR);
    }

    /// A filled circle of radius `r` centred at (`cx`, `cy`).
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32) {
        disc(&mut self.hi, cx, cy, r, INK);
    }

    /// A ring: the band between radii `r - width` and `r`.
    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32) {
        let mut ring = Mask::new(self.w, self.h);
        disc(&mut ring.hi, cx, cy, r, INK);
        disc(&mut ring.hi, cx, cy, r - width, CLEAR);
        self.union(&ring);
    }

    /// A straight stroke of the given width from (`x0`, `y0`) to (`x1`, `y1`), with round
    /// ends.
    pub fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32) {
        let half = width / 2.0;
        disc(&mut self.hi, x0, y0, half, INK);
        disc(&mut self.hi, x1, y1, half, INK);
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-3 {
            return;
        }
        let (nx, ny) = (-dy / len * half, dx / len * half);
        let mut poly: Vec<Point<i32>> = Vec::with_capacity(4);
        for (x, y) in [
            (x0 + nx, y0 + ny),
            (x1 + nx, y1 + ny),
            (x1 - nx, y1 - ny),
            (x0 - nx, y0 - ny),
        ] {
            let p = Point::new(fine(x), fine(y));
            if poly.last() != Some(&p) {
                poly.push(p);
            }
        }
        while poly.len() > 1 && poly.first() == poly.last() {
            poly.pop();
        }
        if poly.len() >= 3 {
            draw_polygon_mut(&mut self.hi, &poly, INK);
        }
    }

    /// A filled box from (`x0`, `y0`) to (`x1`, `y1`) with corners rounded to `r`.
    pub fn rounded_box(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, r: f32) {
        let r = r.clamp(0.0, ((x1 - x0).min(y1 - y0) / 2.0).max(0.0));
        let (fx0, fy0, fx1, fy1) = (fine(x0), fine(y0), fine(x1), fine(y1));
        let (rx0, ry0, rx1, ry1) = (fine(x0 + r), fine(y0 + r), fine(x1 - r), fine(y1 - r));
        fine_rect(&mut self.hi, rx0, fy0, rx1, fy1, INK);
        fine_rect(&mut self.hi, fx0, ry0, fx1, ry1, INK);
        if r > 0.0 {
            for (cx, cy) in [
                (x0 + r, y0 + r),
                (x1 - r, y0 + r),
                (x0 + r, y1 - r),
                (x1 - r, y1 - r),
            ] {
                disc(&mut self.hi, cx, cy, r, INK);
            }
        }
    }

    /// Draws `ch` with `imageproc`'s text drawing, the pen (baseline origin) at
    /// (`x`, `y`).
    pub fn glyph(&mut self, font: &FontRef<'static>, ch: char, scale: PxScale, x: f32, y: f32) {
        let k = SS as f32;
        let fine_scale = PxScale {
            x: scale.x * k,
            y: scale.y * k,
        };
        // `draw_text_mut` puts the pen at the font's ascent below the point given.
        let ascent = font.as_scaled(fine_scale).ascent();
        let mut buf = [0u8; 4];
        draw_text_mut(
            &mut self.hi,
            INK,
            (x * k).round() as i32,
            (y * k - ascent).round() as i32,
            fine_scale,
            font,
            ch.encode_utf8(&mut buf),
        );
    }

    /// The mask grown by `r` pixels in every direction, measured from the centres of
    /// its edge pixels and less the part of a pixel its anti-aliased edge already covers
    /// (the outline moves out by `r - 0.625`): the weight of the piece contours and
    /// halos the golden images were drawn with.
    pub fn dilated(&self, r: f32) -> Mask {
        let mut out = self.clone();
        for p in out.hi.iter_mut() {
            *p = if *p >= 128 { 255 } else { 0 };
        }
        let k = ((r - 0.625) * SS as f32).round().clamp(0.0, 255.0) as u8;
        dilate_mut(&mut out.hi, Norm::L2, k);
        out.union(self);
        out
    }

    /// The area this mask encloses: every pixel that cannot be reached from the border
    /// without crossing the shape, with the shape's own anti-aliased outer edge kept.
    /// Used to fill a piece glyph drawn as an outline. Reachability is decided on whole
    /// asset pixels (at least half covered is a wall), so that a gap narrower than a
    /// pixel between two strokes does not let the outside in.
    pub fn filled(&self) -> Mask {
        let cover = self.cover();
        let open = GrayImage::from_fn(cover.width(), cover.height(), |x, y| {
            if cover.get_pixel(x, y)[0] >= 128 {
                CLEAR
            } else {
                INK
            }
        });
        let labels = connected_components(&open, Connectivity::Four, CLEAR);
        let (w, h) = labels.dimensions();
        let count = labels.iter().copied().max().unwrap_or(0) as usize + 1;
        let mut reached = vec![false; count];
        let border = (0..w)
            .flat_map(|x| [(x, 0), (x, h.saturating_sub(1))])
            .chain((0..h).flat_map(|y| [(0, y), (w.saturating_sub(1), y)]));
        for (x, y) in border {
            reached[labels.get_pixel(x, y)[0] as usize] = true;
        }
        // Label 0 is the shape itself.
        reached[0] = false;
        let outside = |x: i64, y: i64| {
            x >= 0
                && y >= 0
                && x < w as i64
                && y < h as i64
                && reached[labels.get_pixel(x as u32, y as u32)[0] as usize]
        };
        // Enclosed pixels not touching the outside are covered whole; the rest keep
        // their own cover.
        let mut out = self.clone();
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                let edge = outside(x, y)
                    || outside(x - 1, y)
                    || outside(x + 1, y)
                    || outside(x, y - 1)
                    || outside(x, y + 1);
                if !edge {
                    let r = Rect::at(x as i32 * SS as i32, y as i32 * SS as i32).of_size(SS, SS);
                    draw_filled_rect_mut(&mut out.hi, r, INK);
                }
            }
        }
        out
    }
}

/// Rounds every cover to the nearest of `steps` equal steps (0 and 255 kept exact).
pub(crate) fn quantize(cover: &mut GrayImage, steps: u32) {
    let k = steps as f32;
    for a in cover.iter_mut() {
        *a = ((*a as f32 / 255.0 * k).round() / k * 255.0).round() as u8;
    }
}

/// A colour picture with transparency, painted from masks.
#[derive(Clone, Debug)]
pub(crate) struct Layer {
    pub w: usize,
    pub h: usize,
    img: RgbaImage,
}

impl Layer {
    /// A transparent layer.
    pub fn new(w: usize, h: usize) -> Layer {
        Layer {
            w,
            h,
            img: RgbaImage::new(w as u32, h as u32),
        }
    }

    /// Paints `color` through `mask` (same size), scaled by `opacity`, over what is there.
    pub fn paint(&mut self, mask: &Mask, color: Rgb, opacity: f32) {
        self.paint_cover(&mask.cover(), color, opacity);
    }

    /// Paints `color` through a coverage image (same size), scaled by `opacity`.
    pub fn paint_cover(&mut self, cover: &GrayImage, color: Rgb, opacity: f32) {
        debug_assert_eq!(cover.dimensions(), self.img.dimensions());
        for (p, m) in self.img.pixels_mut().zip(cover.pixels()) {
            let a = (m[0] as f32 * opacity).round().clamp(0.0, 255.0) as u8;
            if a > 0 {
                p.blend(&Rgba([color.0, color.1, color.2, a]));
            }
        }
    }

    /// Paints another layer (same size) over this one.
    pub fn paint_layer(&mut self, top: &Layer) {
        imageops::overlay(&mut self.img, &top.img, 0, 0);
    }

    /// Multiplies the opacity of everything painted by `opacity`.
    pub fn fade(&mut self, opacity: f32) {
        for p in self.img.pixels_mut() {
            p[3] = (p[3] as f32 * opacity).round() as u8;
        }
    }

    /// The layer flattened onto a solid background, as palette indices.
    pub fn over(&self, bg: Rgb, palette: &mut Palette) -> Vec<u8> {
        let mut flat = RgbaImage::from_pixel(
            self.img.width(),
            self.img.height(),
            Rgba([bg.0, bg.1, bg.2, 255]),
        );
        imageops::overlay(&mut flat, &self.img, 0, 0);
        let mut last = None;
        flat.pixels()
            .map(|p| quantize_after(palette, Rgb(p[0], p[1], p[2]), &mut last))
            .collect()
    }

    /// The layer as a sprite that can be drawn over any background.
    pub fn to_sprite(&self, palette: &mut Palette) -> Sprite {
        let n = self.w * self.h;
        let mut alpha = Vec::with_capacity(n);
        let mut color = Vec::with_capacity(n);
        let mut last = None;
        for p in self.img.pixels() {
            let level = alpha_level(p[3]);
            if level == 0 {
                alpha.push(0);
                color.push(0);
                continue;
            }
            alpha.push(level);
            color.push(quantize_after(palette, Rgb(p[0], p[1], p[2]), &mut last));
        }
        Sprite {
            w: self.w,
            h: self.h,
            alpha,
            color,
        }
    }
}

/// `palette.quantize(c)`, remembering the last colour and its index in `last`: the
/// pixels of a tile or sprite come in runs of one colour, and a colour once quantized
/// keeps its index.
#[inline]
fn quantize_after(palette: &mut Palette, c: Rgb, last: &mut Option<(Rgb, u8)>) -> u8 {
    match *last {
        Some((l, i)) if l == c => i,
        _ => {
            let i = palette.quantize(c);
            *last = Some((c, i));
            i
        }
    }
}

/// A coverage (0 to 255) as a ramp level.
fn alpha_level(a: u8) -> u8 {
    (a as f32 / 255.0 * (LEVELS - 1) as f32).round() as u8
}

/// A picture in palette indices with a level of coverage per pixel (0 = transparent,
/// `LEVELS - 1` = opaque); partly covered pixels are blended with whatever they are drawn
/// over through the palette's ramps.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sprite {
    pub w: usize,
    pub h: usize,
    pub alpha: Vec<u8>,
    pub color: Vec<u8>,
}

impl Sprite {
    /// A sprite of one colour from a mask.
    pub fn from_mask(mask: &Mask, color: u8) -> Sprite {
        let alpha: Vec<u8> = mask.cover().iter().map(|&a| alpha_level(a)).collect();
        Sprite {
            w: mask.w,
            h: mask.h,
            color: vec![color; alpha.len()],
            alpha,
        }
    }

    /// Prepares in `palette` the ramps this sprite needs to be drawn over `bg`.
    pub fn prepare_over(&self, bg: u8, palette: &mut Palette) {
        let mut seen = std::collections::HashSet::new();
        for (&a, &c) in self.alpha.iter().zip(&self.color) {
            if a > 0 && (a as usize) < LEVELS - 1 && seen.insert(c) {
                palette.prepare_ramp(bg, c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(cover: &GrayImage, x: u32, y: u32) -> u8 {
        cover.get_pixel(x, y)[0]
    }

    #[test]
    fn a_circle_covers_its_centre_and_not_its_corners() {
        let mut m = Mask::new(20, 20);
        m.circle(10.0, 10.0, 6.3);
        let c = m.cover();
        assert_eq!(at(&c, 10, 10), 255);
        assert_eq!(at(&c, 0, 0), 0);
        let edge = at(&c, 16, 10);
        assert!(edge > 0 && edge < 255, "{edge}");
    }

    #[test]
    fn a_circle_is_symmetric_to_within_an_eighth_of_a_pixel() {
        let mut m = Mask::new(20, 20);
        m.circle(10.0, 10.0, 5.5);
        let c = m.cover();
        let area: u32 = c.iter().map(|&a| a as u32).sum();
        let expected = std::f32::consts::PI * 5.5 * 5.5 * 255.0;
        assert!((area as f32 / expected - 1.0).abs() < 0.06, "{area}");
        for y in 0..20 {
            for x in 0..10 {
                let (a, b) = (at(&c, x, y) as i32, at(&c, 19 - x, y) as i32);
                assert!((a - b).abs() <= 255 / 4, "{x},{y}: {a} against {b}");
            }
        }
    }

    #[test]
    fn a_ring_leaves_its_middle_empty() {
        let mut m = Mask::new(30, 30);
        m.ring(15.0, 15.0, 10.0, 2.0);
        let c = m.cover();
        assert_eq!(at(&c, 15, 15), 0);
        assert_eq!(at(&c, 15, 6), 255);
    }

    #[test]
    fn filling_an_outline_covers_its_inside() {
        let mut m = Mask::new(30, 30);
        m.ring(15.0, 15.0, 10.0, 2.0);
        let f = m.filled().cover();
        assert_eq!(at(&f, 15, 15), 255);
        assert_eq!(at(&f, 1, 1), 0);
    }

    #[test]
    fn dilation_grows_a_shape() {
        let mut m = Mask::new(20, 20);
        m.rounded_box(8.0, 8.0, 12.0, 12.0, 0.0);
        let d = m.dilated(2.625).cover();
        assert_eq!(at(&m.cover(), 7, 10), 0);
        assert!(at(&d, 7, 10) > 230);
        assert!(at(&d, 6, 10) > 200);
        assert_eq!(at(&d, 4, 10), 0);
    }

    #[test]
    fn a_thick_line_covers_its_length_and_not_beside_it() {
        let mut m = Mask::new(20, 20);
        m.line(4.0, 10.0, 16.0, 10.0, 4.0);
        let c = m.cover();
        assert_eq!(at(&c, 10, 10), 255);
        assert_eq!(at(&c, 10, 3), 0);
        assert!(at(&c, 3, 10) > 0, "round end");
    }

    #[test]
    fn a_rounded_box_cuts_its_corners() {
        let mut m = Mask::new(20, 20);
        m.rounded_box(0.0, 0.0, 20.0, 20.0, 6.0);
        let c = m.cover();
        assert_eq!(at(&c, 10, 0), 255);
        assert_eq!(at(&c, 0, 10), 255);
        assert_eq!(at(&c, 0, 0), 0);
    }

    #[test]
    fn a_layer_over_a_background_blends_half_cover() {
        let mut p = Palette::new();
        let mut m = Mask::new(2, 1);
        m.rounded_box(0.0, 0.0, 1.5, 1.0, 0.0);
        let mut l = Layer::new(2, 1);
        l.paint(&m, Rgb(0, 0, 0), 1.0);
        let t = l.over(Rgb(254, 254, 254), &mut p);
        assert_eq!(p.rgb(t[0]), Rgb(0, 0, 0));
        let mid = p.rgb(t[1]);
        assert!((120..=135).contains(&mid.0), "{mid:?}");
    }
}
