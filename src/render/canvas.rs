//! The image being composed: palette indices, one byte a pixel, drawn into by copying
//! prepared tiles and blending sprites and text through the palette's ramps.

use super::fonts::Line;
use super::palette::{Palette, Ramp, LEVELS};
use super::raster::Sprite;

/// An image in palette indices.
#[derive(Clone, Debug)]
pub(crate) struct Canvas {
    pub w: usize,
    pub h: usize,
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
        Canvas {
            w,
            h,
            px: vec![fill; w * h],
        }
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
            self.px[row * self.w + x0..row * self.w + x1].fill(index);
        }
    }

    /// Copies an opaque `w` x `h` tile with its top left corner at (`x`, `y`). The tile
    /// must lie inside the canvas.
    pub fn blit(&mut self, x: usize, y: usize, w: usize, h: usize, tile: &[u8]) {
        debug_assert!(x + w <= self.w && y + h <= self.h && tile.len() == w * h);
        for (row, src) in tile.chunks_exact(w).enumerate() {
            let start = (y + row) * self.w + x;
            self.px[start..start + w].copy_from_slice(src);
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
                let dst = &mut self.px[cy as usize * self.w + cx as usize];
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
                    let dst = &mut self.px[cy as usize * self.w + cx as usize];
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
        let mut c = Canvas::new(4, 3, 0);
        c.fill(-1, 1, 3, 5, 7);
        assert_eq!(c.px, vec![0, 0, 0, 0, 7, 7, 0, 0, 7, 7, 0, 0]);
        c.blit(2, 0, 2, 2, &[1, 2, 3, 4]);
        assert_eq!(&c.px[..8], &[0, 0, 1, 2, 7, 7, 3, 4]);
    }

    #[test]
    fn sprites_blend_their_edges_with_what_is_below() {
        let mut pal = Palette::new();
        let white = pal.exact(Rgb(255, 255, 255));
        let black = pal.exact(Rgb(0, 0, 0));
        let mut m = Mask::new(2, 1);
        m.a = vec![1.0, 0.5];
        let s = Sprite::from_mask(&m, black);
        pal.prepare_ramp(white, black);
        let mut c = Canvas::new(3, 1, white);
        c.sprite(1, 0, &s, &pal);
        assert_eq!(c.px[0], white);
        assert_eq!(c.px[1], black);
        let mid = pal.rgb(c.px[2]);
        assert!((100..=160).contains(&mid.0), "{mid:?}");
    }
}
