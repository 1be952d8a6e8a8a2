//! The fonts shipped in `/fonts`, embedded in the binary so that images look the same
//! everywhere and need no system fonts, and the cache of text glyphs drawn per image.

use super::palette::LEVELS;
use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Noto Sans Symbols 2, cut down to the chess pieces, card suits and playing cards.
static SYMBOLS_TTF: &[u8] = include_bytes!("../../fonts/NotoSansSymbols2-Chess.ttf");
/// Noto Sans Bold, cut down to Latin, Greek, Cyrillic and common punctuation.
static TEXT_TTF: &[u8] = include_bytes!("../../fonts/NotoSans-Bold-Subset.ttf");

/// The two fonts, parsed once.
pub(crate) struct Fonts {
    /// Chess pieces and playing cards.
    pub symbols: FontRef<'static>,
    /// Names, coordinates, counts and the status line.
    pub text: FontRef<'static>,
}

/// The embedded fonts.
pub(crate) fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| Fonts {
        symbols: FontRef::try_from_slice(SYMBOLS_TTF).expect("the embedded symbol font parses"),
        text: FontRef::try_from_slice(TEXT_TTF).expect("the embedded text font parses"),
    })
}

/// One text glyph ready to draw: coverage levels, placed relative to the pen on the
/// baseline.
#[derive(Debug)]
pub(crate) struct TextGlyph {
    pub left: i32,
    pub top: i32,
    pub w: usize,
    pub h: usize,
    pub alpha: Vec<u8>,
    id: GlyphId,
    advance: f32,
}

/// A line of text laid out: each glyph with its pen position, and the total width.
pub(crate) struct Line {
    pub glyphs: Vec<(Arc<TextGlyph>, i32)>,
    pub width: i32,
}

/// Text glyphs rasterised at whole-pixel positions, kept per size and character.
#[derive(Default)]
pub(crate) struct GlyphCache {
    glyphs: Mutex<HashMap<(u32, char), Arc<TextGlyph>>>,
}

impl GlyphCache {
    /// The glyph for `ch` at an em of `em_px` pixels (tenths of a pixel kept in the key).
    pub fn glyph(&self, em_px: f32, ch: char) -> Arc<TextGlyph> {
        let key = ((em_px * 10.0).round() as u32, ch);
        if let Some(g) = self.glyphs.lock().expect("glyph cache").get(&key) {
            return g.clone();
        }
        let g = Arc::new(rasterize(em_px, ch));
        self.glyphs
            .lock()
            .expect("glyph cache")
            .insert(key, g.clone());
        g
    }

    /// Lays out `text` at an em of `em_px` pixels.
    pub fn line(&self, em_px: f32, text: &str) -> Line {
        let font = &fonts().text;
        let sf = font.as_scaled(em_scale(font, em_px));
        let mut pen = 0.0f32;
        let mut prev: Option<GlyphId> = None;
        let mut glyphs = Vec::new();
        for ch in text.chars() {
            let g = self.glyph(em_px, ch);
            if let Some(p) = prev {
                pen += sf.kern(p, g.id);
            }
            glyphs.push((g.clone(), pen.round() as i32));
            pen += g.advance;
            prev = Some(g.id);
        }
        Line {
            glyphs,
            width: pen.round() as i32,
        }
    }

    /// `text` laid out, shortened with an ellipsis if it is wider than `max_width`.
    pub fn fitted_line(&self, em_px: f32, text: &str, max_width: i32) -> Line {
        self.line(em_px, &self.shortened(em_px, text, max_width))
    }

    /// `text` broken between words into at most `max_lines` lines no wider than
    /// `max_width` at an em of `em_px`; the last line ends with an ellipsis if the rest is
    /// still too wide (so does a single word too wide on its own).
    pub fn wrap(&self, em_px: f32, text: &str, max_width: i32, max_lines: usize) -> Vec<String> {
        let fits = |s: &str| self.line(em_px, s).width <= max_width;
        let mut lines = Vec::new();
        let mut rest = text.trim();
        while lines.len() + 1 < max_lines && !fits(rest) {
            let word_ends = rest.match_indices(' ').map(|(i, _)| i).chain([rest.len()]);
            let first_word = word_ends.clone().next().unwrap_or(rest.len());
            let end = word_ends
                .take_while(|&end| fits(&rest[..end]))
                .last()
                .unwrap_or(first_word);
            lines.push(self.shortened(em_px, &rest[..end], max_width));
            rest = rest[end..].trim_start();
        }
        if !rest.is_empty() || lines.is_empty() {
            lines.push(self.shortened(em_px, rest, max_width));
        }
        lines
    }

    /// `text`, or as much of it as fits in `max_width` followed by an ellipsis.
    fn shortened(&self, em_px: f32, text: &str, max_width: i32) -> String {
        let chars: Vec<char> = text.chars().collect();
        (0..=chars.len())
            .rev()
            .map(|keep| {
                let kept: String = chars[..keep].iter().collect();
                if keep == chars.len() {
                    kept
                } else {
                    format!("{}…", kept.trim_end())
                }
            })
            .find(|s| self.line(em_px, s).width <= max_width)
            .unwrap_or_default()
    }
}

/// Levels of partial cover kept at the edges of text (besides none and full).
const TEXT_STEPS: f32 = 4.0;

/// A glyph's cover as a ramp level, rounded to one of [`TEXT_STEPS`] steps.
fn text_level(c: f32) -> u8 {
    let stepped = (c.clamp(0.0, 1.0) * TEXT_STEPS).round() / TEXT_STEPS;
    (stepped * (LEVELS - 1) as f32).round() as u8
}

/// Rasterises one glyph with `ab_glyph` (the rasteriser `imageproc`'s text drawing
/// uses) at a whole-pixel pen position, so that a glyph is the same wherever it is set.
fn rasterize(em_px: f32, ch: char) -> TextGlyph {
    let font = &fonts().text;
    let scale = em_scale(font, em_px);
    let id = font.glyph_id(ch);
    let advance = font.as_scaled(scale).h_advance(id);
    let glyph = id.with_scale_and_position(scale, ab_glyph::point(0.0, 0.0));
    match font.outline_glyph(glyph) {
        Some(og) => {
            let b = og.px_bounds();
            let (w, h) = (b.width() as usize, b.height() as usize);
            let mut alpha = vec![0u8; w * h];
            og.draw(|x, y, c| {
                let (x, y) = (x as usize, y as usize);
                if x < w && y < h {
                    alpha[y * w + x] = text_level(c);
                }
            });
            TextGlyph {
                left: b.min.x as i32,
                top: b.min.y as i32,
                w,
                h,
                alpha,
                id,
                advance,
            }
        }
        None => TextGlyph {
            left: 0,
            top: 0,
            w: 0,
            h: 0,
            alpha: Vec::new(),
            id,
            advance,
        },
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
    /// Width in pixels.
    pub fn width(&self) -> f32 {
        self.right - self.left
    }

    /// Height in pixels.
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

/// The height above the baseline of capital letters at an em of `em_px` pixels.
pub(crate) fn cap_height(em_px: f32) -> f32 {
    let font = &fonts().text;
    glyph_box(font, 'H', em_scale(font, em_px))
        .map(|b| -b.top)
        .unwrap_or(em_px * 0.7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_fonts_have_the_glyphs_we_draw() {
        let f = fonts();
        for c in '\u{2654}'..='\u{265F}' {
            assert_ne!(f.symbols.glyph_id(c).0, 0, "{c}");
        }
        assert_ne!(f.symbols.glyph_id('\u{1F0A1}').0, 0);
        assert_ne!(f.symbols.glyph_id('\u{1F0A0}').0, 0);
        for c in "abcdefgh12345678 Move·½…éßЖ".chars() {
            assert_ne!(f.text.glyph_id(c).0, 0, "{c}");
        }
    }

    #[test]
    fn long_text_is_shortened_with_an_ellipsis() {
        let cache = GlyphCache::default();
        let full = cache.line(20.0, "Bartholomew the Magnificent");
        let short = cache.fitted_line(20.0, "Bartholomew the Magnificent", full.width / 2);
        assert!(short.width <= full.width / 2);
        assert!(short.glyphs.len() > 3);
        let fits = cache.fitted_line(20.0, "Al", 1000);
        assert_eq!(fits.glyphs.len(), 2);
    }

    #[test]
    fn text_too_long_for_one_line_is_broken_between_words_and_kept_whole() {
        let cache = GlyphCache::default();
        let text = "Move 12 · Bartholomew: move all active pieces for the last turn (2 left)";
        let room = cache.line(20.0, text).width * 2 / 3;
        let lines = cache.wrap(20.0, text, room, 2);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines.join(" "), text, "nothing cut");
        assert!(lines.iter().all(|l| cache.line(20.0, l).width <= room));
        assert_eq!(cache.wrap(20.0, "Move 3", room, 2), ["Move 3"]);
        // Three lines' worth in two: the second ends with an ellipsis.
        let cut = cache.wrap(20.0, text, room / 2, 2);
        assert_eq!(cut.len(), 2);
        assert!(cut[1].ends_with('…'), "{cut:?}");
    }
}
