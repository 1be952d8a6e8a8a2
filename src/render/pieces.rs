//! Chess pieces drawn from the Noto Sans Symbols 2 glyphs: white pieces filled white with
//! dark outlines, black pieces filled dark with light inner lines, both with a thickened
//! outer contour so that each reads on light and dark squares, at full size and small.

use super::fonts::{fonts, glyph_box};
use super::raster::{quantize, Layer, Mask};
use super::theme::Theme;
use crate::rules::{Color, Role};
use ab_glyph::PxScale;

/// Levels of partial cover kept at the edges of a piece (besides none and full).
const EDGE_STEPS: u32 = 4;

/// The glyph of a piece drawn as an outline (U+2654 white king .. U+2659 white pawn).
fn outline_char(role: Role) -> char {
    char::from_u32(0x2654 + glyph_offset(role)).expect("chess symbol")
}

/// The glyph of a piece drawn filled (U+265A black king .. U+265F black pawn).
fn solid_char(role: Role) -> char {
    char::from_u32(0x265A + glyph_offset(role)).expect("chess symbol")
}

fn glyph_offset(role: Role) -> u32 {
    match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    }
}

/// The scale at which the largest piece glyph fills `fraction` of a `size`-pixel box.
fn piece_scale(size: usize, fraction: f32) -> PxScale {
    let font = &fonts().symbols;
    let probe = PxScale::from(100.0);
    let mut largest: f32 = 1.0;
    for role in Role::ALL {
        for ch in [outline_char(role), solid_char(role)] {
            if let Some(b) = glyph_box(font, ch, probe) {
                largest = largest.max(b.width()).max(b.height());
            }
        }
    }
    PxScale::from(100.0 * size as f32 * fraction / largest)
}

/// A piece centred in a transparent `size` x `size` layer, the largest piece taking
/// `fraction` of the box.
pub(crate) fn piece_layer(
    theme: &Theme,
    color: Color,
    role: Role,
    size: usize,
    fraction: f32,
) -> Layer {
    let font = &fonts().symbols;
    let scale = piece_scale(size, fraction);
    let outline = outline_char(role);
    let solid = solid_char(role);
    let b = glyph_box(font, outline, scale).expect("piece glyphs have outlines");
    // Centre the glyph's ink in the box; both glyphs of a piece share their origin.
    let x = (size as f32 - b.width()) / 2.0 - b.left;
    let y = (size as f32 - b.height()) / 2.0 - b.top;
    let mut lines = Mask::new(size, size);
    lines.glyph(font, outline, scale, x, y);
    let mut body = Mask::new(size, size);
    body.glyph(font, solid, scale, x, y);

    // The whole silhouette: the union of both glyphs with its holes filled.
    let mut union = lines.clone();
    union.union(&body);
    let silhouette = union.filled();
    // A contour a little thicker than the font's hairline, so the shape holds at 25%.
    let stroke = (size as f32 / 70.0).max(0.6);
    let mut contour = silhouette.dilated(stroke);
    contour.subtract(&silhouette);

    // Edges keep a few levels of partial cover: smooth enough at every size, and few
    // enough colours that the PNG stays small.
    let [silhouette, lines, body, contour] = [&silhouette, &lines, &body, &contour].map(|m| {
        let mut cover = m.cover();
        quantize(&mut cover, EDGE_STEPS);
        cover
    });
    let mut layer = Layer::new(size, size);
    match color {
        Color::White => {
            layer.paint_cover(&silhouette, theme.piece_white, 1.0);
            layer.paint_cover(&lines, theme.ink, 1.0);
        }
        Color::Black => {
            layer.paint_cover(&silhouette, theme.piece_black, 1.0);
            // The inner lines: inside the silhouette, where the solid glyph leaves gaps.
            let mut detail = silhouette.clone();
            for (d, b) in detail.iter_mut().zip(body.iter()) {
                *d = if *d == 255 { 255 - b } else { 0 };
            }
            layer.paint_cover(&detail, theme.piece_white, 1.0);
        }
    }
    layer.paint_cover(&contour, theme.ink, 1.0);
    layer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::palette::Palette;
    use crate::render::theme::Rgb;

    fn luminance(c: Rgb) -> u32 {
        (c.0 as u32 * 3 + c.1 as u32 * 6 + c.2 as u32) / 10
    }

    #[test]
    fn white_pieces_are_light_and_black_pieces_dark() {
        let theme = Theme::default();
        let mut pal = Palette::new();
        let grey = Rgb(128, 128, 128);
        // The share of a piece's pixels that are brighter than mid grey.
        let mut bright_share = |color, role| {
            let tile = piece_layer(&theme, color, role, 90, 0.86).over(grey, &mut pal);
            let covered: Vec<u32> = tile
                .iter()
                .map(|&i| pal.rgb(i))
                .filter(|&c| c != grey)
                .map(luminance)
                .collect();
            assert!(
                covered.len() > 600,
                "{color} {role} covers {} px",
                covered.len()
            );
            covered.iter().filter(|&&l| l > 128).count() as f32 / covered.len() as f32
        };
        for role in Role::ALL {
            let white = bright_share(Color::White, role);
            let black = bright_share(Color::Black, role);
            // Outlines and inner lines are dark on both, so even a white piece is not
            // mostly light; what matters is that the two are far apart.
            assert!(white > 0.25, "white {role}: {white}");
            assert!(black < 0.25, "black {role}: {black}");
            assert!(white - black > 0.15, "{role}: {white} against {black}");
        }
    }

    #[test]
    fn pieces_stay_inside_their_square() {
        let theme = Theme::default();
        let mut pal = Palette::new();
        let bg = Rgb(1, 2, 3);
        let tile = piece_layer(&theme, Color::White, Role::King, 50, 0.86).over(bg, &mut pal);
        let edge = (0..50).flat_map(|i| [i, 49 * 50 + i, i * 50, i * 50 + 49]);
        assert!(edge.into_iter().all(|i| pal.rgb(tile[i]) == bg));
    }
}
