//! Animated GIFs of whole games, for the end of a game and for `export --format gif`.
//!
//! Every position of the game is drawn with the same [`Renderer`], so every frame shares
//! one palette, which becomes the GIF's global colour table. The first frame is the whole
//! start position; each later frame covers only the rectangle that changed since the frame
//! before, and inside it leaves the pixels that did not change transparent, so a move
//! costs a few hundred bytes rather than a whole image.

use super::palette::MAX_COLORS;
use super::view::{result_text, BoardView};
use super::{Image, RenderOptions, Renderer};
use crate::rules::{Color, Game};
use std::borrow::Cow;

/// How a game is animated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GifOptions {
    /// Board size, as for single images.
    pub render: RenderOptions,
    /// The side at the bottom, for the whole animation (an animation never turns the
    /// board around).
    pub bottom: Color,
    /// The player of White, as shown.
    pub white: String,
    /// The player of Black, as shown.
    pub black: String,
    /// How long each position is shown, in milliseconds (GIF counts in hundredths of a
    /// second).
    pub frame_ms: u32,
    /// How long the last position is shown before the animation starts again.
    pub final_ms: u32,
}

impl Default for GifOptions {
    fn default() -> GifOptions {
        GifOptions {
            render: RenderOptions::default(),
            bottom: Color::White,
            white: "White".to_string(),
            black: "Black".to_string(),
            frame_ms: 1000,
            final_ms: 4000,
        }
    }
}

/// The index no image uses, shown as transparent in frames after the first.
const TRANSPARENT: u8 = MAX_COLORS as u8;

/// Every position of `game`, from the start to now: one frame per position, each showing
/// the move that led to it, the last one with the result banner if the game is over.
pub fn game_gif(renderer: &Renderer, game: &Game, options: &GifOptions) -> Vec<u8> {
    let moves = game.moves();
    let positions = game.positions();
    let mut views = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        let last = i.checked_sub(1).map(|k| moves[k]);
        let mut view = BoardView::from_position(pos, last, options.bottom)
            .with_players(options.white.clone(), options.black.clone());
        if i + 1 == positions.len() {
            if let Some(outcome) = game.outcome() {
                view.caption.to_move = None;
                view.caption.result = Some(result_text(&outcome));
            }
        }
        views.push(view);
    }
    views_gif(renderer, &views, options)
}

/// An animation of `views`, one frame each, for games whose frames show more than the
/// position (letters and checkers, for example); `options` give the size and timing.
pub fn views_gif(renderer: &Renderer, views: &[BoardView], options: &GifOptions) -> Vec<u8> {
    let frames: Vec<Image> = views
        .iter()
        .map(|view| renderer.render(view, &options.render))
        .collect();
    encode(&frames, options)
}

/// Hundredths of a second, as GIF wants them.
fn centis(ms: u32) -> u16 {
    (ms.div_ceil(10)).min(u16::MAX as u32) as u16
}

/// Encodes images drawn with one renderer at one size as an animation.
fn encode(frames: &[Image], options: &GifOptions) -> Vec<u8> {
    let Some(first) = frames.first() else {
        return Vec::new();
    };
    let width = frames.iter().map(Image::width).max().unwrap_or(0);
    let height = frames.iter().map(Image::height).max().unwrap_or(0);
    let mut table: Vec<u8> = first
        .palette()
        .iter()
        .flat_map(|c| [c.0, c.1, c.2])
        .collect();
    table.resize(256 * 3, 0);
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, width as u16, height as u16, &table)
            .expect("a GIF header fits in memory");
        enc.set_repeat(gif::Repeat::Infinite)
            .expect("writing to memory");
        let mut prev: Option<&Image> = None;
        for (i, image) in frames.iter().enumerate() {
            let delay = if i + 1 == frames.len() {
                options.final_ms
            } else {
                options.frame_ms
            };
            let mut frame = match prev {
                Some(p) if same_shape(p, image) => changes(p, image),
                _ => whole(image),
            };
            frame.delay = centis(delay);
            frame.dispose = gif::DisposalMethod::Keep;
            enc.write_frame(&frame).expect("writing to memory");
            prev = Some(image);
        }
    }
    out
}

fn same_shape(a: &Image, b: &Image) -> bool {
    a.width() == b.width() && a.height() == b.height() && a.palette() == b.palette()
}

/// A frame with the whole image.
fn whole(image: &Image) -> gif::Frame<'static> {
    gif::Frame {
        width: image.width() as u16,
        height: image.height() as u16,
        buffer: Cow::Owned(image.rows().flatten().copied().collect()),
        ..gif::Frame::default()
    }
}

/// A frame with only what changed from `prev` to `next`: the smallest rectangle holding
/// every changed pixel, transparent wherever the pixel stays as it was.
fn changes<'a>(prev: &Image, next: &Image) -> gif::Frame<'a> {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (y, (ra, rb)) in prev.rows().zip(next.rows()).enumerate() {
        if ra == rb {
            continue;
        }
        let first = ra.iter().zip(rb).position(|(p, q)| p != q).unwrap_or(0);
        let last = ra.iter().zip(rb).rposition(|(p, q)| p != q).unwrap_or(0);
        x0 = x0.min(first);
        x1 = x1.max(last + 1);
        y0 = y0.min(y);
        y1 = y + 1;
    }
    if x0 == usize::MAX {
        // Nothing changed: one transparent pixel keeps the frame's delay.
        return gif::Frame {
            width: 1,
            height: 1,
            transparent: Some(TRANSPARENT),
            buffer: Cow::Owned(vec![TRANSPARENT]),
            ..gif::Frame::default()
        };
    }
    let mut buffer = Vec::with_capacity((x1 - x0) * (y1 - y0));
    for y in y0..y1 {
        let (ra, rb) = (prev.row(y as u32), next.row(y as u32));
        buffer.extend(
            ra[x0..x1]
                .iter()
                .zip(&rb[x0..x1])
                .map(|(&p, &q)| if p == q { TRANSPARENT } else { q }),
        );
    }
    gif::Frame {
        left: x0 as u16,
        top: y0 as u16,
        width: (x1 - x0) as u16,
        height: (y1 - y0) as u16,
        transparent: Some(TRANSPARENT),
        buffer: Cow::Owned(buffer),
        ..gif::Frame::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, Variant};

    fn play(game: &mut Game, uci: &str) {
        let m = game
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.uci() == uci)
            .unwrap_or_else(|| panic!("{uci} is not legal"));
        game.play(m).unwrap();
    }

    /// A decoded GIF: each frame's rectangle, and the picture after the last frame.
    struct Decoded {
        rects: Vec<(u16, u16, u16, u16)>,
        canvas: Vec<u8>,
        size: (u16, u16),
    }

    fn decode(bytes: &[u8]) -> Decoded {
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::Indexed);
        let mut d = opts.read_info(bytes).expect("a GIF");
        let (w, h) = (d.width(), d.height());
        let mut canvas = vec![0u8; w as usize * h as usize];
        let mut rects = Vec::new();
        while let Some(f) = d.read_next_frame().expect("a frame") {
            rects.push((f.left, f.top, f.width, f.height));
            for y in 0..f.height as usize {
                for x in 0..f.width as usize {
                    let p = f.buffer[y * f.width as usize + x];
                    if Some(p) != f.transparent {
                        canvas[(f.top as usize + y) * w as usize + f.left as usize + x] = p;
                    }
                }
            }
        }
        Decoded {
            rects,
            canvas,
            size: (w, h),
        }
    }

    #[test]
    fn a_game_is_one_frame_per_position_and_later_frames_are_small() {
        let mut game = Game::new(Variant::STANDARD);
        for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            play(&mut game, uci);
        }
        let renderer = Renderer::default();
        let options = GifOptions {
            render: RenderOptions { board_px: 240 },
            ..GifOptions::default()
        };
        let bytes = game_gif(&renderer, &game, &options);
        let Decoded {
            rects,
            canvas,
            size: (w, h),
        } = decode(&bytes);
        assert_eq!(rects.len(), 5);
        assert_eq!((rects[0].0, rects[0].1), (0, 0));
        assert_eq!((rects[0].2, rects[0].3), (w, h));
        for r in &rects[1..] {
            assert!((r.2 as u32 * r.3 as u32) < (w as u32 * h as u32), "{r:?}");
        }
        // Replaying the frames gives exactly the last position's image.
        let mut view =
            BoardView::from_position(game.position(), game.moves().last().copied(), Color::White);
        view.caption.to_move = None;
        view.caption.result = Some("0-1 · Black wins by checkmate".to_string());
        let last = renderer.render(&view, &options.render);
        assert_eq!(canvas, last.rows().flatten().copied().collect::<Vec<u8>>());
    }

    #[test]
    fn a_game_without_moves_is_a_single_frame() {
        let game = Game::from_position(Position::start(Variant::LOS_ALAMOS));
        let options = GifOptions {
            render: RenderOptions { board_px: 180 },
            ..GifOptions::default()
        };
        let rects = decode(&game_gif(&Renderer::default(), &game, &options)).rects;
        assert_eq!(rects.len(), 1);
    }
}
