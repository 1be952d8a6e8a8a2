//! An analysis's evaluation graph, as Lichess draws it: White's winning chances over the
//! game, the area under the curve light (White's) and above it dark (Black's), a line
//! at equality, and each inaccuracy, mistake and blunder marked by a dot of its colour
//! (Lichess's blue, orange and red) on the curve. A palette image of a few colours,
//! encoded by the project's PNG encoder ([`super::encode::png`]).

use super::encode::png;
use super::theme::Rgb;

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

/// The image's width and height in pixels.
pub const WIDTH: usize = 640;
/// The image's height in pixels.
pub const HEIGHT: usize = 160;

const DARK: u8 = 0;
const LIGHT: u8 = 1;
const MIDDLE: u8 = 2;
const INACCURACY: u8 = 3;
const MISTAKE: u8 = 4;
const BLUNDER: u8 = 5;
const CURVE: u8 = 6;
const PALETTE: [Rgb; 7] = [
    Rgb(0x3a, 0x3a, 0x3a),
    Rgb(0xef, 0xef, 0xef),
    Rgb(0x9a, 0x9a, 0x9a),
    Rgb(0x56, 0xb4, 0xe9),
    Rgb(0xe6, 0x9f, 0x00),
    Rgb(0xdf, 0x53, 0x53),
    Rgb(0xd8, 0x5c, 0x00),
];

impl EvalGraph {
    /// The curve's height at column `x`: the chances interpolated between positions.
    fn chance_at(&self, x: usize) -> f64 {
        let n = self.chances.len();
        match n {
            0 => 0.0,
            1 => self.chances[0],
            _ => {
                let t = x as f64 * (n - 1) as f64 / (WIDTH - 1) as f64;
                let i = (t.floor() as usize).min(n - 2);
                let f = t - i as f64;
                self.chances[i] * (1.0 - f) + self.chances[i + 1] * f
            }
        }
    }

    /// The row of chances `c`: the top for White's win, the bottom for Black's.
    fn row_of(c: f64) -> usize {
        let c = if c.is_finite() {
            c.clamp(-1.0, 1.0)
        } else {
            0.0
        };
        (((1.0 - c) / 2.0) * (HEIGHT - 1) as f64).round() as usize
    }

    /// The column of position `i`.
    fn column_of(&self, i: usize) -> usize {
        let n = self.chances.len().max(2);
        (i.min(n - 1) * (WIDTH - 1)) / (n - 1)
    }

    /// The graph's pixels, row by row, as indices into its palette.
    pub fn pixels(&self) -> Vec<u8> {
        let mut px = vec![DARK; WIDTH * HEIGHT];
        for x in 0..WIDTH {
            let top = Self::row_of(self.chance_at(x));
            for y in top..HEIGHT {
                px[y * WIDTH + x] = LIGHT;
            }
            px[HEIGHT / 2 * WIDTH + x] = MIDDLE;
            px[top * WIDTH + x] = CURVE;
        }
        for &(ply, mark) in &self.marks {
            let Some(&c) = self.chances.get(ply) else {
                continue;
            };
            let colour = match mark {
                Mark::Inaccuracy => INACCURACY,
                Mark::Mistake => MISTAKE,
                Mark::Blunder => BLUNDER,
            };
            let (cx, cy) = (self.column_of(ply) as i64, Self::row_of(c) as i64);
            for dy in -4i64..=4 {
                for dx in -4i64..=4 {
                    let (x, y) = (cx + dx, cy + dy);
                    if dx * dx + dy * dy <= 16
                        && (0..WIDTH as i64).contains(&x)
                        && (0..HEIGHT as i64).contains(&y)
                    {
                        px[y as usize * WIDTH + x as usize] = colour;
                    }
                }
            }
        }
        px
    }

    /// The graph as a PNG file.
    pub fn to_png(&self) -> Vec<u8> {
        png(WIDTH as u32, HEIGHT as u32, &self.pixels(), &PALETTE)
    }

    /// The colour of the pixel at (`x`, `y`), for tests.
    pub fn colour_at(pixels: &[u8], x: usize, y: usize) -> Rgb {
        PALETTE[pixels[y * WIDTH + x] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_divides_white_below_from_black_above_and_marks_take_their_colour() {
        // Equal, then Black winning outright at the end, a blunder at the third ply.
        let g = EvalGraph {
            chances: vec![0.0, 0.0, 0.0, -1.0],
            marks: vec![(3, Mark::Blunder)],
        };
        let px = g.pixels();
        // At the start, the light area is the lower half.
        assert_eq!(EvalGraph::colour_at(&px, 0, HEIGHT - 1), PALETTE[1]);
        assert_eq!(EvalGraph::colour_at(&px, 0, 0), PALETTE[0]);
        // At the end Black has won: all dark but the curve at the bottom, marked red.
        assert_eq!(EvalGraph::colour_at(&px, WIDTH - 1, HEIGHT / 4), PALETTE[0]);
        assert_eq!(EvalGraph::colour_at(&px, WIDTH - 1, HEIGHT - 1), PALETTE[5]);
        let png = g.to_png();
        assert_eq!(&png[1..4], b"PNG");
        assert!(png.len() < 30_000, "{} bytes", png.len());
    }
}
