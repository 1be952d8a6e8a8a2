//! Drawing done once per size, while assets are prepared: coverage masks (glyphs, circles,
//! lines, rounded boxes), colour layers built from them, and their conversion into palette
//! sprites and opaque tiles.

use super::palette::{Palette, LEVELS};
use super::theme::Rgb;
use ab_glyph::{Font, FontRef, PxScale};

/// A coverage mask: how much of each pixel a shape covers, 0.0 to 1.0.
#[derive(Clone, Debug)]
pub(crate) struct Mask {
    pub w: usize,
    pub h: usize,
    pub a: Vec<f32>,
}

impl Mask {
    /// An empty mask.
    pub fn new(w: usize, h: usize) -> Mask {
        Mask {
            w,
            h,
            a: vec![0.0; w * h],
        }
    }

    #[cfg(test)]
    pub fn get(&self, x: usize, y: usize) -> f32 {
        self.a[y * self.w + x]
    }

    /// Adds a shape given by a coverage function over every pixel (union by maximum).
    pub fn add_with(&mut self, f: impl Fn(f32, f32) -> f32) {
        for y in 0..self.h {
            for x in 0..self.w {
                let c = f(x as f32 + 0.5, y as f32 + 0.5).clamp(0.0, 1.0);
                let p = &mut self.a[y * self.w + x];
                *p = p.max(c);
            }
        }
    }

    /// A filled circle of radius `r` centred at (`cx`, `cy`).
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32) {
        self.add_with(|x, y| r + 0.5 - ((x - cx).powi(2) + (y - cy).powi(2)).sqrt());
    }

    /// A ring: the band between radii `r - width` and `r`.
    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32) {
        self.add_with(|x, y| {
            let d = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
            (r + 0.5 - d).min(d - (r - width) + 0.5)
        });
    }

    /// A straight stroke of the given width from (`x0`, `y0`) to (`x1`, `y1`), with round
    /// ends.
    pub fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32) {
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len2 = (dx * dx + dy * dy).max(1e-6);
        self.add_with(|x, y| {
            let t = (((x - x0) * dx + (y - y0) * dy) / len2).clamp(0.0, 1.0);
            let d = ((x - x0 - t * dx).powi(2) + (y - y0 - t * dy).powi(2)).sqrt();
            width / 2.0 + 0.5 - d
        });
    }

    /// A filled box from (`x0`, `y0`) to (`x1`, `y1`) with corners rounded to `r`.
    pub fn rounded_box(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, r: f32) {
        self.add_with(|x, y| {
            let qx = (x0 + r - x).max(x - (x1 - r)).max(0.0);
            let qy = (y0 + r - y).max(y - (y1 - r)).max(0.0);
            let outside = (qx * qx + qy * qy).sqrt() - r;
            let inside = (x - x0).min(x1 - x).min(y - y0).min(y1 - y);
            if qx > 0.0 && qy > 0.0 {
                0.5 - outside
            } else {
                inside + 0.5
            }
        });
    }

    /// Rounds every cover to the nearest of `steps` equal steps (0 and 1 kept exact).
    pub fn quantize(&mut self, steps: u32) {
        let k = steps as f32;
        for a in &mut self.a {
            *a = (*a * k).round() / k;
        }
    }

    /// Removes `other` from this mask (both the same size).
    pub fn subtract(&mut self, other: &Mask) {
        for (a, b) in self.a.iter_mut().zip(&other.a) {
            *a = (*a - b).max(0.0);
        }
    }

    /// The mask grown by `r` pixels in every direction, anti-aliased at its new edge.
    pub fn dilated(&self, r: f32) -> Mask {
        let mut out = self.clone();
        let k = r.ceil() as isize + 1;
        for y in 0..self.h as isize {
            for x in 0..self.w as isize {
                let mut best = out.a[y as usize * self.w + x as usize];
                if best >= 1.0 {
                    continue;
                }
                for dy in -k..=k {
                    for dx in -k..=k {
                        let (sx, sy) = (x + dx, y + dy);
                        if sx < 0 || sy < 0 || sx >= self.w as isize || sy >= self.h as isize {
                            continue;
                        }
                        let src = self.a[sy as usize * self.w + sx as usize];
                        if src <= 0.0 {
                            continue;
                        }
                        let d = ((dx * dx + dy * dy) as f32).sqrt();
                        let c = (r + 0.5 - d).clamp(0.0, 1.0) * src;
                        best = best.max(c);
                    }
                }
                out.a[y as usize * self.w + x as usize] = best;
            }
        }
        out
    }

    /// The area this mask encloses: every pixel that cannot be reached from the border
    /// without crossing the shape, with the shape's own anti-aliased outer edge kept.
    /// Used to fill a piece glyph drawn as an outline.
    pub fn filled(&self) -> Mask {
        let (w, h) = (self.w, self.h);
        let mut outside = vec![false; w * h];
        let mut stack = Vec::new();
        for x in 0..w {
            stack.push((x, 0));
            stack.push((x, h - 1));
        }
        for y in 0..h {
            stack.push((0, y));
            stack.push((w - 1, y));
        }
        while let Some((x, y)) = stack.pop() {
            let i = y * w + x;
            if outside[i] || self.a[i] >= 0.5 {
                continue;
            }
            outside[i] = true;
            if x > 0 {
                stack.push((x - 1, y));
            }
            if x + 1 < w {
                stack.push((x + 1, y));
            }
            if y > 0 {
                stack.push((x, y - 1));
            }
            if y + 1 < h {
                stack.push((x, y + 1));
            }
        }
        let mut out = Mask::new(w, h);
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                out.a[i] = if outside[i] {
                    self.a[i]
                } else {
                    let touches = |nx: usize, ny: usize| outside[ny * w + nx];
                    let edge = (x > 0 && touches(x - 1, y))
                        || (x + 1 < w && touches(x + 1, y))
                        || (y > 0 && touches(x, y - 1))
                        || (y + 1 < h && touches(x, y + 1));
                    if edge {
                        self.a[i]
                    } else {
                        1.0
                    }
                };
            }
        }
        out
    }
}

/// Bounds of a glyph as drawn: its size in pixels and where its top left corner is
/// relative to the pen (on the baseline).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GlyphBox {
    pub left: f32,
    pub top: f32,
    pub right: f32,
    pub bottom: f32,
}

impl GlyphBox {
    pub fn width(&self) -> f32 {
        self.right - self.left
    }

    pub fn height(&self) -> f32 {
        self.bottom - self.top
    }
}

/// The scale at which `font`'s em square is `em_px` pixels.
pub(crate) fn em_scale(font: &FontRef<'static>, em_px: f32) -> PxScale {
    let upem = font.units_per_em().unwrap_or(1000.0);
    PxScale::from(em_px * font.height_unscaled() / upem)
}

/// The pixel bounds of `ch` drawn at `scale` with the pen at the origin, if it has an
/// outline.
pub(crate) fn glyph_box(font: &FontRef<'static>, ch: char, scale: PxScale) -> Option<GlyphBox> {
    let g = font
        .glyph_id(ch)
        .with_scale_and_position(scale, ab_glyph::point(0.0, 0.0));
    let og = font.outline_glyph(g)?;
    let b = og.px_bounds();
    Some(GlyphBox {
        left: b.min.x,
        top: b.min.y,
        right: b.max.x,
        bottom: b.max.y,
    })
}

/// Draws `ch` into `mask` with the pen (baseline origin) at (`x`, `y`).
pub(crate) fn draw_glyph(
    mask: &mut Mask,
    font: &FontRef<'static>,
    ch: char,
    scale: PxScale,
    x: f32,
    y: f32,
) {
    let g = font
        .glyph_id(ch)
        .with_scale_and_position(scale, ab_glyph::point(x, y));
    if let Some(og) = font.outline_glyph(g) {
        let b = og.px_bounds();
        let (ox, oy) = (b.min.x as i32, b.min.y as i32);
        og.draw(|gx, gy, c| {
            let (px, py) = (ox + gx as i32, oy + gy as i32);
            if px >= 0 && py >= 0 && (px as usize) < mask.w && (py as usize) < mask.h {
                let p = &mut mask.a[py as usize * mask.w + px as usize];
                *p = p.max(c.clamp(0.0, 1.0));
            }
        });
    }
}

/// Premultiplied colour with alpha, components 0.0 to 1.0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Px {
    r: f32,
    g: f32,
    b: f32,
    a: f32,
}

/// A colour picture with transparency, painted from masks.
#[derive(Clone, Debug)]
pub(crate) struct Layer {
    pub w: usize,
    pub h: usize,
    px: Vec<Px>,
}

fn unit(c: u8) -> f32 {
    c as f32 / 255.0
}

fn byte(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

impl Layer {
    /// A transparent layer.
    pub fn new(w: usize, h: usize) -> Layer {
        Layer {
            w,
            h,
            px: vec![Px::default(); w * h],
        }
    }

    /// Paints `color` through `mask` (same size), scaled by `opacity`, over what is there.
    pub fn paint(&mut self, mask: &Mask, color: Rgb, opacity: f32) {
        debug_assert_eq!((mask.w, mask.h), (self.w, self.h));
        let (r, g, b) = (unit(color.0), unit(color.1), unit(color.2));
        for (p, &m) in self.px.iter_mut().zip(&mask.a) {
            let a = m * opacity;
            if a <= 0.0 {
                continue;
            }
            p.r = r * a + p.r * (1.0 - a);
            p.g = g * a + p.g * (1.0 - a);
            p.b = b * a + p.b * (1.0 - a);
            p.a = a + p.a * (1.0 - a);
        }
    }

    /// Paints another layer (same size) over this one.
    pub fn paint_layer(&mut self, top: &Layer) {
        for (p, q) in self.px.iter_mut().zip(&top.px) {
            let k = 1.0 - q.a;
            p.r = q.r + p.r * k;
            p.g = q.g + p.g * k;
            p.b = q.b + p.b * k;
            p.a = q.a + p.a * k;
        }
    }

    /// Multiplies the opacity of everything painted by `opacity`.
    pub fn fade(&mut self, opacity: f32) {
        for p in &mut self.px {
            p.r *= opacity;
            p.g *= opacity;
            p.b *= opacity;
            p.a *= opacity;
        }
    }

    /// The layer flattened onto a solid background, as palette indices.
    pub fn over(&self, bg: Rgb, palette: &mut Palette) -> Vec<u8> {
        let (br, bg_, bb) = (unit(bg.0), unit(bg.1), unit(bg.2));
        self.px
            .iter()
            .map(|p| {
                let k = 1.0 - p.a;
                palette.quantize(Rgb(
                    byte(p.r + br * k),
                    byte(p.g + bg_ * k),
                    byte(p.b + bb * k),
                ))
            })
            .collect()
    }

    /// The layer as a sprite that can be drawn over any background.
    pub fn to_sprite(&self, palette: &mut Palette) -> Sprite {
        let mut alpha = Vec::with_capacity(self.px.len());
        let mut color = Vec::with_capacity(self.px.len());
        for p in &self.px {
            let level = (p.a * (LEVELS - 1) as f32).round() as u8;
            if level == 0 {
                alpha.push(0);
                color.push(0);
                continue;
            }
            let c = Rgb(byte(p.r / p.a), byte(p.g / p.a), byte(p.b / p.a));
            alpha.push(level);
            color.push(palette.quantize(c));
        }
        Sprite {
            w: self.w,
            h: self.h,
            alpha,
            color,
        }
    }
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
    /// A sprite of one colour from a coverage mask.
    pub fn from_mask(mask: &Mask, color: u8) -> Sprite {
        let alpha: Vec<u8> = mask
            .a
            .iter()
            .map(|&a| (a.clamp(0.0, 1.0) * (LEVELS - 1) as f32).round() as u8)
            .collect();
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

    #[test]
    fn a_circle_covers_its_centre_and_not_its_corners() {
        let mut m = Mask::new(20, 20);
        m.circle(10.0, 10.0, 6.3);
        assert_eq!(m.get(10, 10), 1.0);
        assert_eq!(m.get(0, 0), 0.0);
        let edge = m.get(16, 10);
        assert!(edge > 0.0 && edge < 1.0, "{edge}");
    }

    #[test]
    fn filling_an_outline_covers_its_inside() {
        let mut m = Mask::new(30, 30);
        m.ring(15.0, 15.0, 10.0, 2.0);
        assert_eq!(m.get(15, 15), 0.0);
        let f = m.filled();
        assert_eq!(f.get(15, 15), 1.0);
        assert_eq!(f.get(1, 1), 0.0);
    }

    #[test]
    fn dilation_grows_a_shape() {
        let mut m = Mask::new(20, 20);
        m.rounded_box(8.0, 8.0, 12.0, 12.0, 0.0);
        let d = m.dilated(2.0);
        assert_eq!(m.get(7, 10), 0.0);
        assert!(d.get(7, 10) > 0.9);
        let soft = d.get(6, 10);
        assert!(soft > 0.0 && soft < 1.0, "{soft}");
        assert_eq!(d.get(4, 10), 0.0);
    }

    #[test]
    fn a_layer_over_a_background_blends_half_cover() {
        let mut p = Palette::new();
        let mut m = Mask::new(2, 1);
        m.a = vec![1.0, 0.5];
        let mut l = Layer::new(2, 1);
        l.paint(&m, Rgb(0, 0, 0), 1.0);
        let t = l.over(Rgb(254, 254, 254), &mut p);
        assert_eq!(p.rgb(t[0]), Rgb(0, 0, 0));
        let mid = p.rgb(t[1]);
        assert!((120..=135).contains(&mid.0), "{mid:?}");
    }
}
