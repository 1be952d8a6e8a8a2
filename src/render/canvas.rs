//! The image being composed: palette indices, one byte a pixel, drawn into by copying
//! prepared tiles and blending sprites and text through the palette's ramps.
//!
//! Rows are kept as PNG stores them before compression: each row starts with a filter
//! byte (always 0, no filter) followed by the row's pixels, so the PNG encoder reads the
//! canvas as it is, without a copy.

use super::fonts::Line;
use super::palette::{Palette, Ramp, LEVELS};
use super::raster::Sprite;

/// An image in palette indices, each row preceded by a zero byte.
#[derive(Clone, Debug)]
pub(crate) struct Canvas {
    pub w: usize,
    pub h: usize,
    /// Bytes from one row to the next: `w + 1`.
    pub stride: usize,
    /// `h` rows of `stride` bytes: a zero, then the row's pixels.
    pub px: Vec<u8>,
}

/// Remembers the last ramp used, since neighbouring pixels nearly always need the same.
struct RampMemo<'a> {
    palette: &'a Palette,
    key: (u8, u8),
    ramp: Ramp,
}

impl<'a> RampMemo<'a> {
    fn new(palette: &'a Palette) -> RampMemo<'a> {
        RampMemo {
            palette,
            key: (0, 0),
            ramp: palette.ramp(0, 0),
        }
    }

    #[inline]
    fn blend(&mut self, bg: u8, fg: u8, level: u8) -> u8 {
        if self.key != (bg, fg) {
            self.key = (bg, fg);
            self.ramp = self.palette.ramp(bg, fg);
        }
        self.ramp[level as usize]
    }
}

impl Canvas {
    /// A canvas filled with one index.
    pub fn new(w: usize, h: usize, fill: u8) -> Canvas {
        let mut c = Canvas {
            w,
            h: 0,
            stride: w + 1,
            px: Vec::new(),
        };
        c.grow(h, fill);
        c
    }

    /// Adds rows at the bottom until the canvas is `h` rows high, filled with one index.
    pub fn grow(&mut self, h: usize, fill: u8) {
        if h <= self.h {
            return;
        }
        self.px.reserve((h - self.h) * self.stride);
        for _ in self.h..h {
            self.px.push(0);
            self.px.extend(std::iter::repeat(fill).take(self.w));
        }
        self.h = h;
    }

    /// Where pixel (`x`, `y`) is in `px`.
    #[inline]
    pub fn at(&self, x: usize, y: usize) -> usize {
        y * self.stride + 1 + x
    }

    /// The pixels of row `y`.
    #[cfg(test)]
    pub fn row(&self, y: usize) -> &[u8] {
        let start = y * self.stride + 1;
        &self.px[start..start + self.w]
    }

    /// Fills a rectangle, clipped to the canvas.
    pub fn fill(&mut self, x: i32, y: i32, w: usize, h: usize, index: u8) {
        let (x0, x1) = (
            x.max(0) as usize,
            (x + w as i32).clamp(0, self.w as i32) as usize,
        );
        let (y0, y1) = (
            y.max(0) as usize,
            (y + h as i32).clamp(0, self.h as i32) as usize,
        );
        if x0 >= x1 {
            return;
        }
        for row in y0..y1 {
            let start = self.at(0, row);
            self.px[start + x0..start + x1].fill(index);
        }
    }

    /// Copies an opaque `w` x `h` tile with its top left corner at (`x`, `y`), clipped to
    /// the canvas.
    pub fn blit(&mut self, x: i32, y: i32, w: usize, h: usize, tile: &[u8]) {
        debug_assert_eq!(tile.len(), w * h);
        let skip_x = (-x).max(0) as usize;
        let x0 = x.max(0) as usize;
        if skip_x >= w || x0 >= self.w {
            return;
        }
        let n = (w - skip_x).min(self.w - x0);
        for (row, src) in tile.chunks_exact(w).enumerate() {
            let cy = y + row as i32;
            if cy < 0 || cy >= self.h as i32 {
                continue;
            }
            let start = self.at(x0, cy as usize);
            self.px[start..start + n].copy_from_slice(&src[skip_x..skip_x + n]);
        }
    }

    /// Draws a sprite with its top left corner at (`x`, `y`), clipped to the canvas.
    pub fn sprite(&mut self, x: i32, y: i32, sprite: &Sprite, palette: &Palette) {
        let mut memo = RampMemo::new(palette);
        for sy in 0..sprite.h {
            let cy = y + sy as i32;
            if cy < 0 || cy >= self.h as i32 {
                continue;
            }
            for sx in 0..sprite.w {
                let cx = x + sx as i32;
                if cx < 0 || cx >= self.w as i32 {
                    continue;
                }
                let i = sy * sprite.w + sx;
                let a = sprite.alpha[i];
                if a == 0 {
                    continue;
                }
                let at = self.at(cx as usize, cy as usize);
                let dst = &mut self.px[at];
                *dst = if a as usize >= LEVELS - 1 {
                    sprite.color[i]
                } else {
                    memo.blend(*dst, sprite.color[i], a)
                };
            }
        }
    }

    /// Draws a line of text in one colour with its pen starting at (`x`, `baseline`).
    pub fn text(&mut self, x: i32, baseline: i32, line: &Line, color: u8, palette: &Palette) {
        let mut memo = RampMemo::new(palette);
        for (g, pen) in &line.glyphs {
            let gx = x + pen + g.left;
            let gy = baseline + g.top;
            for row in 0..g.h {
                let cy = gy + row as i32;
                if cy < 0 || cy >= self.h as i32 {
                    continue;
                }
                for col in 0..g.w {
                    let cx = gx + col as i32;
                    if cx < 0 || cx >= self.w as i32 {
                        continue;
                    }
                    let a = g.alpha[row * g.w + col];
                    if a == 0 {
                        continue;
                    }
                    let at = self.at(cx as usize, cy as usize);
                    let dst = &mut self.px[at];
                    *dst = if a as usize >= LEVELS - 1 {
                        color
                    } else {
                        memo.blend(*dst, color, a)
                    };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::raster::Mask;
    use crate::render::theme::Rgb;

    #[test]
    fn fills_and_blits_are_clipped_and_placed() {
        let mut c = Canvas::new(4, 3, 9);
        c.fill(-1, 1, 3, 5, 7);
        assert_eq!(c.px, vec![0, 9, 9, 9, 9, 0, 7, 7, 9, 9, 0, 7, 7, 9, 9]);
        c.blit(2, 0, 2, 2, &[1, 2, 3, 4]);
        assert_eq!(c.row(0), &[9, 9, 1, 2]);
        assert_eq!(c.row(1), &[7, 7, 3, 4]);
        c.blit(-1, 2, 2, 2, &[5, 6, 7, 8]);
        assert_eq!(c.row(2), &[6, 7, 9, 9]);
        c.blit(3, -1, 2, 2, &[1, 2, 3, 4]);
        assert_eq!(c.row(0), &[9, 9, 1, 3]);
        c.grow(4, 5);
        assert_eq!((c.h, c.row(3)), (4, &[5u8, 5, 5, 5][..]));
        assert_eq!(c.px[3 * 5], 0);
    }

    #[test]
    fn sprites_blend_their_edges_with_what_is_below() {
        let mut pal = Palette::new();
        let white = pal.exact(Rgb(255, 255, 255));
        let black = pal.exact(Rgb(0, 0, 0));
        let mut m = Mask::new(2, 1);
        m.rounded_box(0.0, 0.0, 1.5, 1.0, 0.0);
        let s = Sprite::from_mask(&m, black);
        pal.prepare_ramp(white, black);
        let mut c = Canvas::new(3, 1, white);
        c.sprite(1, 0, &s, &pal);
        assert_eq!(c.row(0)[0], white);
        assert_eq!(c.row(0)[1], black);
        let mid = pal.rgb(c.row(0)[2]);
        assert!((100..=160).contains(&mid.0), "{mid:?}");
    }
}
