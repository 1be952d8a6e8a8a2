//! The indexed colour palette every image is drawn in, and blending ramps between its
//! colours.
//!
//! Images are composed directly as palette indices, so encoding needs no colour
//! quantisation. The palette is grown while a size's assets are prepared: each colour is
//! matched to an existing entry when one is close enough, and added otherwise. Anti-aliased
//! edges are drawn through *ramps*: for a background index and a foreground index, the
//! sixteen indices nearest to the colours between them.

use super::theme::Rgb;
use std::collections::HashMap;
use std::sync::Mutex;

/// Levels of partial coverage an anti-aliased edge is drawn with (0 = background only,
/// `LEVELS - 1` = foreground only).
pub(crate) const LEVELS: usize = 16;

/// Palette entries at most. One index of the 256 is kept free so that an animated GIF can
/// use it as its transparent colour.
pub(crate) const MAX_COLORS: usize = 255;

/// Squared RGB distance under which a colour reuses an existing entry.
const TOLERANCE: i32 = 3 * 5 * 5;

/// One blending ramp: `ramp[k]` is the index nearest to `bg + (fg - bg) * k / 15`.
pub(crate) type Ramp = [u8; LEVELS];

/// A palette being built, or frozen once its assets are ready.
#[derive(Debug, Default)]
pub(crate) struct Palette {
    colors: Vec<Rgb>,
    exact: HashMap<Rgb, u8>,
    ramps: HashMap<(u8, u8), Ramp>,
    /// Ramps first needed after the palette was frozen, worked out from its colours and
    /// kept, so that each is computed once.
    late: Mutex<HashMap<(u8, u8), Ramp>>,
}

fn dist2(a: Rgb, b: Rgb) -> i32 {
    let dr = a.0 as i32 - b.0 as i32;
    let dg = a.1 as i32 - b.1 as i32;
    let db = a.2 as i32 - b.2 as i32;
    // Green weighs most for the eye, blue least.
    3 * dr * dr + 4 * dg * dg + 2 * db * db
}

/// The colour `k / 15` of the way from `bg` to `fg`.
pub(crate) fn mix(bg: Rgb, fg: Rgb, k: usize) -> Rgb {
    let t = k as f32 / (LEVELS - 1) as f32;
    let m = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * t).round() as u8;
    Rgb(m(bg.0, fg.0), m(bg.1, fg.1), m(bg.2, fg.2))
}

impl Palette {
    /// An empty palette.
    pub(crate) fn new() -> Palette {
        Palette::default()
    }

    /// The colours, in index order.
    pub(crate) fn colors(&self) -> &[Rgb] {
        &self.colors
    }

    /// The colour of an index.
    #[inline]
    pub(crate) fn rgb(&self, index: u8) -> Rgb {
        self.colors[index as usize]
    }

    /// Adds `c` exactly (the theme's own colours go in this way), or returns its index if
    /// it is already there.
    pub(crate) fn exact(&mut self, c: Rgb) -> u8 {
        if let Some(&i) = self.exact.get(&c) {
            return i;
        }
        if self.colors.len() < MAX_COLORS {
            let i = self.colors.len() as u8;
            self.colors.push(c);
            self.exact.insert(c, i);
            i
        } else {
            self.nearest(c)
        }
    }

    /// The index for `c`: an entry within the tolerance, a new entry while there is room,
    /// or else the nearest entry.
    pub(crate) fn quantize(&mut self, c: Rgb) -> u8 {
        if let Some(&i) = self.exact.get(&c) {
            return i;
        }
        let near = self.nearest(c);
        let i = if !self.colors.is_empty() && dist2(self.rgb(near), c) <= TOLERANCE {
            near
        } else if self.colors.len() < MAX_COLORS {
            self.colors.push(c);
            (self.colors.len() - 1) as u8
        } else {
            near
        };
        self.exact.insert(c, i);
        i
    }

    /// The index of the entry closest to `c`, without adding anything.
    pub(crate) fn nearest(&self, c: Rgb) -> u8 {
        if let Some(&i) = self.exact.get(&c) {
            return i;
        }
        let mut best = (i32::MAX, 0u8);
        for (i, &p) in self.colors.iter().enumerate() {
            let d = dist2(p, c);
            if d < best.0 {
                best = (d, i as u8);
            }
        }
        best.1
    }

    /// Builds (adding colours as needed) and remembers the ramp from `bg` to `fg`.
    pub(crate) fn prepare_ramp(&mut self, bg: u8, fg: u8) -> Ramp {
        if let Some(r) = self.ramps.get(&(bg, fg)) {
            return *r;
        }
        let (b, f) = (self.rgb(bg), self.rgb(fg));
        let mut ramp = [0u8; LEVELS];
        for (k, slot) in ramp.iter_mut().enumerate() {
            *slot = match k {
                0 => bg,
                k if k == LEVELS - 1 => fg,
                k => self.quantize(mix(b, f, k)),
            };
        }
        self.ramps.insert((bg, fg), ramp);
        ramp
    }

    /// Builds and remembers a ramp from `bg` to `fg` with only `steps` colours besides
    /// `bg` (each level rounded to the nearest step): for large, low-contrast shapes,
    /// whose edges need few shades and compress better with few.
    pub(crate) fn prepare_stepped_ramp(&mut self, bg: u8, fg: u8, steps: usize) -> Ramp {
        let steps = steps.clamp(1, LEVELS - 1);
        let (b, f) = (self.rgb(bg), self.rgb(fg));
        let mut ramp = [0u8; LEVELS];
        for (k, slot) in ramp.iter_mut().enumerate() {
            // The level rounded to the nearest of 0, 1/steps, .., 1 of the way.
            let step = (k * steps + (LEVELS - 1) / 2) / (LEVELS - 1);
            *slot = match step {
                0 => bg,
                s if s == steps => fg,
                s => self.quantize(mix(b, f, s * (LEVELS - 1) / steps)),
            };
        }
        self.ramps.insert((bg, fg), ramp);
        ramp
    }

    /// The ramp from `bg` to `fg`: a prepared one, or one worked out from the frozen
    /// palette (and kept for next time).
    pub(crate) fn ramp(&self, bg: u8, fg: u8) -> Ramp {
        if let Some(r) = self.ramps.get(&(bg, fg)) {
            return *r;
        }
        let mut late = self.late.lock().expect("palette ramps");
        if let Some(r) = late.get(&(bg, fg)) {
            return *r;
        }
        let (b, f) = (self.rgb(bg), self.rgb(fg));
        let mut ramp = [0u8; LEVELS];
        for (k, slot) in ramp.iter_mut().enumerate() {
            *slot = match k {
                0 => bg,
                k if k == LEVELS - 1 => fg,
                k => self.nearest(mix(b, f, k)),
            };
        }
        late.insert((bg, fg), ramp);
        ramp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_colours_keep_their_index() {
        let mut p = Palette::new();
        let a = p.exact(Rgb(10, 20, 30));
        let b = p.exact(Rgb(200, 100, 0));
        assert_eq!(p.exact(Rgb(10, 20, 30)), a);
        assert_ne!(a, b);
        assert_eq!(p.rgb(b), Rgb(200, 100, 0));
    }

    #[test]
    fn close_colours_share_an_entry() {
        let mut p = Palette::new();
        let a = p.quantize(Rgb(100, 100, 100));
        assert_eq!(p.quantize(Rgb(101, 100, 99)), a);
        assert_ne!(p.quantize(Rgb(140, 100, 100)), a);
    }

    #[test]
    fn ramps_run_from_background_to_foreground() {
        let mut p = Palette::new();
        let bg = p.exact(Rgb(255, 255, 255));
        let fg = p.exact(Rgb(0, 0, 0));
        let r = p.prepare_ramp(bg, fg);
        assert_eq!(r[0], bg);
        assert_eq!(r[LEVELS - 1], fg);
        let lum: Vec<u8> = r.iter().map(|&i| p.rgb(i).0).collect();
        assert!(lum.windows(2).all(|w| w[0] >= w[1]), "{lum:?}");
        assert_eq!(p.ramp(bg, fg), r);
    }

    #[test]
    fn a_stepped_ramp_has_only_its_steps() {
        let mut p = Palette::new();
        let bg = p.exact(Rgb(240, 220, 180));
        let fg = p.exact(Rgb(160, 140, 120));
        let r = p.prepare_stepped_ramp(bg, fg, 3);
        assert_eq!((r[0], r[LEVELS - 1]), (bg, fg));
        let mut distinct = r.to_vec();
        distinct.dedup();
        assert_eq!(distinct.len(), 4, "{r:?}");
        assert_eq!(p.ramp(bg, fg), r);
        let lum: Vec<u8> = r.iter().map(|&i| p.rgb(i).0).collect();
        assert!(lum.windows(2).all(|w| w[0] >= w[1]), "{lum:?}");
    }

    #[test]
    fn the_palette_never_grows_past_its_limit() {
        let mut p = Palette::new();
        for i in 0..2000u32 {
            p.quantize(Rgb((i * 7) as u8, (i * 13) as u8, (i * 29) as u8));
        }
        assert!(p.colors().len() <= MAX_COLORS);
    }
}
