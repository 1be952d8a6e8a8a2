//! An analysis's evaluation graph, as Lichess draws it: White's winning chances over the
//! game, the area under the curve light (White's) and above it dark (Black's), a line
//! at equality (50 %), and each inaccuracy, mistake and blunder marked by a dot of its
//! colour (Lichess's blue, orange and red) on the curve; with axes a player reads: White's
//! winning chances at the side (100 %, 75 %, 50 %, 25 %, 0 %, the quarters dotted across)
//! and move numbers along the bottom. A palette image of a few colours, its labels in the
//! board images' font (glyphs kept once drawn), encoded by the project's PNG encoder.

use super::canvas::Canvas;
use super::fonts::{cap_height, GlyphCache};
use super::palette::Palette;
use super::theme::Rgb;
use super::Image;
use std::sync::OnceLock;

/// How bad a marked move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// An inaccuracy.
    Inaccuracy,
    /// A mistake.
    Mistake,
    /// A blunder.
    Blunder,
}

/// What a graph shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalGraph {
    /// White's winning chances in [-1, 1] at each position, the start first.
    pub chances: Vec<f64>,
    /// The marked moves: the position after each (its ply), and how bad it was.
    pub marks: Vec<(usize, Mark)>,
}

/// The plot's width in pixels.
pub const PLOT_W: usize = 600;
/// The plot's height in pixels.
pub const PLOT_H: usize = 160;
/// The margin left of the plot, for the chances' labels.
pub const LEFT: usize = 40;
/// The margin above the plot.
pub const TOP: usize = 8;
/// The margin below the plot, for the move numbers.
pub const BOTTOM: usize = 22;
/// The margin right of the plot.
const RIGHT: usize = 12;
/// The image's width in pixels.
pub const WIDTH: usize = LEFT + PLOT_W + RIGHT;
/// The image's height in pixels.
pub const HEIGHT: usize = TOP + PLOT_H + BOTTOM;

/// The labels' size in pixels (the em).
const EM: f32 = 11.0;
/// The most move numbers along the bottom.
const MOVE_LABELS: usize = 12;

/// The colours, in the palette's order: Black's area, White's, the 50 % line and the
/// quarters, the three marks, the curve, the margin, the labels.
const COLOURS: [Rgb; 9] = [
    Rgb(0x3a, 0x3a, 0x3a),
    Rgb(0xef, 0xef, 0xef),
    Rgb(0x9a, 0x9a, 0x9a),
    Rgb(0x56, 0xb4, 0xe9),
    Rgb(0xe6, 0x9f, 0x00),
    Rgb(0xdf, 0x53, 0x53),
    Rgb(0xd8, 0x5c, 0x00),
    Rgb(0x26, 0x24, 0x21),
    Rgb(0xc8, 0xc8, 0xc8),
];
const DARK: usize = 0;
const LIGHT: usize = 1;
const MIDDLE: usize = 2;
const INACCURACY: usize = 3;
const MISTAKE: usize = 4;
const BLUNDER: usize = 5;
const CURVE: usize = 6;
const MARGIN: usize = 7;
const LABEL: usize = 8;

/// White's winning chances labelled at the side, and their labels.
const CHANCE_LABELS: [(f64, &str); 5] = [
    (1.0, "100%"),
    (0.5, "75%"),
    (0.0, "50%"),
    (-0.5, "25%"),
    (-1.0, "0%"),
];

fn glyphs() -> &'static GlyphCache {
    static CACHE: OnceLock<GlyphCache> = OnceLock::new();
    CACHE.get_or_init(GlyphCache::default)
}

impl EvalGraph {
    /// The curve's height at plot column `x`: the chances interpolated between positions.
    fn chance_at(&self, x: usize) -> f64 {
        let n = self.chances.len();
        match n {
            0 => 0.0,
            1 => self.chances[0],
            _ => {
                let t = x as f64 * (n - 1) as f64 / (PLOT_W - 1) as f64;
                let i = (t.floor() as usize).min(n - 2);
                let f = t - i as f64;
                self.chances[i] * (1.0 - f) + self.chances[i + 1] * f
            }
        }
    }

    /// The plot row of chances `c`: the top for White's win, the bottom for Black's.
    pub fn row_of(c: f64) -> usize {
        let c = if c.is_finite() {
            c.clamp(-1.0, 1.0)
        } else {
            0.0
        };
        (((1.0 - c) / 2.0) * (PLOT_H - 1) as f64).round() as usize
    }

    /// The plot column of position `i`.
    pub fn column_of(&self, i: usize) -> usize {
        let n = self.chances.len().max(2);
        (i.min(n - 1) * (PLOT_W - 1)) / (n - 1)
    }

    /// The moves numbered along the bottom, each with the position it is shown at (the
    /// one after White's move): every move, or every 2nd, 5th, 10th, ... so that at most
    /// [`MOVE_LABELS`] are.
    pub fn move_labels(&self) -> Vec<(usize, usize)> {
        let plies = self.chances.len().saturating_sub(1);
        let moves = plies.div_ceil(2);
        let step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
            .into_iter()
            .find(|s| moves / s <= MOVE_LABELS)
            .unwrap_or(moves.max(1));
        (1..=moves)
            .filter(|m| m % step == 0 || (step > 1 && *m == 1))
            .map(|m| (m, 2 * m - 1))
            .collect()
    }

    /// The graph as an image.
    pub fn image(&self) -> Image {
        let mut pal = Palette::new();
        let ix: Vec<u8> = COLOURS.iter().map(|c| pal.exact(*c)).collect();
        pal.prepare_ramp(ix[MARGIN], ix[LABEL]);
        let mut canvas = Canvas::new(WIDTH, HEIGHT, ix[MARGIN]);
        let (left, top) = (LEFT as i32, TOP as i32);
        for x in 0..PLOT_W {
            let row = Self::row_of(self.chance_at(x));
            let cx = left + x as i32;
            canvas.fill(cx, top, 1, row, ix[DARK]);
            canvas.fill(cx, top + row as i32, 1, PLOT_H - row, ix[LIGHT]);
        }
        // The 50 % line across, the quarters dotted, a dotted line up from each move
        // numbered.
        for (c, _) in CHANCE_LABELS.into_iter().filter(|(c, _)| c.abs() < 1.0) {
            let y = top + Self::row_of(c) as i32;
            let solid = c == 0.0;
            for x in (0..PLOT_W).filter(|x| solid || x % 6 < 2) {
                canvas.fill(left + x as i32, y, 1, 1, ix[MIDDLE]);
            }
        }
        let labels = self.move_labels();
        for &(_, ply) in &labels {
            let x = left + self.column_of(ply) as i32;
            for y in (0..PLOT_H).filter(|y| y % 6 < 2) {
                canvas.fill(x, top + y as i32, 1, 1, ix[MIDDLE]);
            }
        }
        for x in 0..PLOT_W {
            let row = Self::row_of(self.chance_at(x));
            canvas.fill(left + x as i32, top + row as i32, 1, 1, ix[CURVE]);
        }
        self.draw_marks(&mut canvas, &ix);
        self.draw_axes(&mut canvas, &pal, &ix, &labels);
        Image::without_board(canvas, &pal)
    }

    /// Each marked move's dot, on the curve.
    fn draw_marks(&self, canvas: &mut Canvas, ix: &[u8]) {
        for &(ply, mark) in &self.marks {
            let Some(&c) = self.chances.get(ply) else {
                continue;
            };
            let colour = ix[match mark {
                Mark::Inaccuracy => INACCURACY,
                Mark::Mistake => MISTAKE,
                Mark::Blunder => BLUNDER,
            }];
            let cx = (LEFT + self.column_of(ply)) as i32;
            let cy = (TOP + Self::row_of(c)) as i32;
            for dy in -4i32..=4 {
                // The disc's row: as wide as a radius of four allows.
                let half = (0..=4)
                    .rev()
                    .find(|dx| dx * dx + dy * dy <= 16)
                    .unwrap_or(0);
                let y = cy + dy;
                if (TOP as i32..(TOP + PLOT_H) as i32).contains(&y) {
                    canvas.fill(cx - half, y, (2 * half + 1) as usize, 1, colour);
                }
            }
        }
    }

    /// The chances' labels and ticks at the side, the move numbers and ticks below.
    fn draw_axes(&self, canvas: &mut Canvas, pal: &Palette, ix: &[u8], moves: &[(usize, usize)]) {
        let g = glyphs();
        let half_cap = (cap_height(EM) / 2.0).round() as i32;
        for (c, label) in CHANCE_LABELS {
            let y = (TOP + Self::row_of(c)) as i32;
            canvas.fill(LEFT as i32 - 4, y, 4, 1, ix[LABEL]);
            let line = g.line(EM, label);
            let x = LEFT as i32 - 6 - line.width;
            // The top and bottom labels kept inside the image.
            let baseline = (y + half_cap).clamp(2 * half_cap + 1, HEIGHT as i32 - 2);
            canvas.text(x, baseline, &line, ix[LABEL], pal);
        }
        let below = (TOP + PLOT_H) as i32;
        let baseline = below + 6 + 2 * half_cap;
        for &(m, ply) in moves {
            let x = (LEFT + self.column_of(ply)) as i32;
            canvas.fill(x, below, 1, 4, ix[LABEL]);
            let line = g.line(EM, &m.to_string());
            canvas.text(x - line.width / 2, baseline, &line, ix[LABEL], pal);
        }
    }

    /// The graph as a PNG file.
    pub fn to_png(&self) -> Vec<u8> {
        self.image().to_png()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether any pixel of the rectangle (`x`, `y`, `w`, `h`) is of a colour not in
    /// `background`.
    fn drawn(img: &Image, (x, y, w, h): (usize, usize, usize, usize), background: &[Rgb]) -> bool {
        (y..y + h).any(|y| (x..x + w).any(|x| !background.contains(&img.rgb(x as u32, y as u32))))
    }

    #[test]
    fn the_curve_divides_white_below_from_black_above_and_marks_take_their_colour() {
        // Equal, then Black winning outright at the end, a blunder at the third ply.
        let g = EvalGraph {
            chances: vec![0.0, 0.0, 0.0, -1.0],
            marks: vec![(3, Mark::Blunder)],
        };
        let img = g.image();
        let at = |x: usize, y: usize| img.rgb((LEFT + x) as u32, (TOP + y) as u32);
        // At the start, the light area is the lower half.
        assert_eq!(at(0, PLOT_H - 1), COLOURS[LIGHT]);
        assert_eq!(at(1, 1), COLOURS[DARK]);
        // At the end Black has won: all dark but the curve at the bottom, marked red.
        assert_eq!(at(PLOT_W - 1, PLOT_H / 4 + 1), COLOURS[DARK]);
        assert_eq!(at(PLOT_W - 1, PLOT_H - 1), COLOURS[BLUNDER]);
        let png = g.to_png();
        assert_eq!(&png[1..4], b"PNG");
        assert!(png.len() < 30_000, "{} bytes", png.len());
    }

    #[test]
    fn the_axes_label_the_chances_at_the_side_and_the_moves_below() {
        // A game of 61 plies (31 moves), White slowly winning.
        let chances: Vec<f64> = (0..62).map(|i| f64::from(i) / 61.0).collect();
        let g = EvalGraph {
            chances,
            marks: vec![(20, Mark::Mistake)],
        };
        let img = g.image();
        assert_eq!((img.width(), img.height()), (WIDTH as u32, HEIGHT as u32));
        let margin = [COLOURS[MARGIN]];
        // Every chance label is drawn left of its row; nothing else is in that margin.
        for (c, _) in CHANCE_LABELS {
            let row = (TOP + EvalGraph::row_of(c)).clamp(6, HEIGHT - 7);
            assert!(drawn(&img, (0, row - 6, LEFT - 6, 12), &margin), "{c}");
        }
        // The 50 % line, drawn over White's area at the end.
        let middle = (TOP + EvalGraph::row_of(0.0)) as u32;
        assert_eq!(img.rgb((LEFT + PLOT_W - 1) as u32, middle), COLOURS[MIDDLE]);
        // Move numbers every 5 moves (and the first): 1, 5, 10, ..., 30.
        let labels: Vec<usize> = g.move_labels().iter().map(|(m, _)| *m).collect();
        assert_eq!(labels, [1, 5, 10, 15, 20, 25, 30]);
        for (m, ply) in g.move_labels() {
            let x = LEFT + g.column_of(ply);
            let under = (x.saturating_sub(6), TOP + PLOT_H + 5, 12, BOTTOM - 5);
            assert!(drawn(&img, under, &margin), "move {m}");
        }
        // Between two labels, below the plot, nothing.
        let between = LEFT + (g.column_of(1) + g.column_of(9)) / 2 - 3;
        assert!(!drawn(
            &img,
            (between, TOP + PLOT_H + 1, 6, BOTTOM - 1),
            &margin
        ));
        assert!(g.to_png().len() < 30_000);
    }

    #[test]
    fn a_short_game_numbers_every_move_and_an_empty_one_none() {
        let g = EvalGraph {
            chances: vec![0.0; 5],
            marks: Vec::new(),
        };
        assert_eq!(g.move_labels(), [(1, 1), (2, 3)]);
        assert!(EvalGraph::default().move_labels().is_empty());
        assert_eq!(EvalGraph::default().image().width(), WIDTH as u32);
    }
}
