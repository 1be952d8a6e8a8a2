//! `postal render` (draw one position to a PNG file) and `postal bench render` (time the
//! renderer).

use super::CliError;
use postal::notation::fen::parse_fen;
use postal::notation::{parse_move, MoveError};
use postal::render::{BoardView, Disc, Overlay, RenderOptions, Renderer, DEFAULT_BOARD_PX};
use postal::rules::{Color, Move, Position, Square, Variant};
use postal::variants::chesswords::letters::LetterGrid;
use std::path::Path;
use std::time::{Duration, Instant};

/// Reads `text` as a move of `pos`, in any notation the move reader knows.
fn find_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    parse_move(pos, text)
}

/// `postal render`: draws `variant` at `fen` (or its start), after `last_move` if given
/// (a legal move in that position, played and highlighted), with White at the bottom or,
/// with `flip`, Black; writes the PNG to `out`.
pub fn render(
    variant: Variant,
    fen: Option<&str>,
    last_move: Option<&str>,
    flip: bool,
    size: u32,
    out: &Path,
) -> Result<(), CliError> {
    let mut pos = match fen {
        Some(f) => parse_fen(variant, f)?,
        None => Position::start(variant),
    };
    let mut last = None;
    if let Some(text) = last_move {
        let m = find_move(&pos, text).map_err(|error| CliError::LastMove {
            text: text.to_string(),
            error,
        })?;
        pos = pos.after(m);
        last = Some(m);
    }
    let bottom = if flip { Color::Black } else { Color::White };
    let view = BoardView::from_position(&pos, last, bottom);
    let png = Renderer::default().render_png(&view, &RenderOptions { board_px: size });
    std::fs::write(out, &png).map_err(|error| CliError::Write {
        path: out.to_path_buf(),
        error,
    })?;
    eprintln!("wrote {} ({} bytes)", out.display(), png.len());
    Ok(())
}

/// One benchmark position: a variant and the moves (UCI) that lead to it from the start;
/// the last one is highlighted. A lettered case has a letter on every square (the grid
/// of seed 1) and a checker on each empty square it names, as in Secret Chesswords.
struct Case {
    name: &'static str,
    variant: Variant,
    moves: &'static [&'static str],
    checkers: Option<&'static [&'static str]>,
}

const CASES: [Case; 4] = [
    Case {
        // The closed Ruy Lopez after 9. h3: 26 pieces of every kind.
        name: "standard 8x8",
        variant: Variant::STANDARD,
        moves: &[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1",
            "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3",
        ],
        checkers: None,
    },
    Case {
        // Chess# after White places the king: both reserves drawn.
        name: "chess# 8x8",
        variant: Variant::CHESS_SHARP,
        moves: &["K@e1"],
        checkers: None,
    },
    Case {
        name: "los-alamos 6x6",
        variant: Variant::LOS_ALAMOS,
        moves: &["c2c3", "d5d4", "c3d4", "e6d4"],
        checkers: None,
    },
    Case {
        // Secret Chesswords after two captures, each marking a letter with a checker.
        name: "chesswords 6x6",
        variant: Variant::CHESSWORDS,
        moves: &["d2d3", "c5c4", "d3c4", "b5b4", "c2c3", "b4c3"],
        checkers: Some(&["d3", "b4"]),
    },
];

/// The view of a benchmark case: the position, and its letters and checkers if any.
fn case_view(case: &Case, pos: &Position, last: Option<Move>) -> BoardView {
    let view = BoardView::from_position(pos, last, Color::White).with_players("Alice", "Bob");
    let Some(checkers) = case.checkers else {
        return view;
    };
    let discs = checkers
        .iter()
        .filter_map(|name| Square::parse(name))
        .enumerate()
        .map(|(i, square)| Disc {
            square,
            color: if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            },
            label: None,
        })
        .collect();
    view.with_overlay(Overlay::Letters(LetterGrid::from_seed(1).letters()))
        .with_overlay(Overlay::Discs(discs))
}

/// The `q`-quantile of sorted durations.
fn quantile(sorted: &[Duration], q: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// The view of `case`'s position.
fn played(case: &Case) -> Result<BoardView, CliError> {
    let mut pos = Position::start(case.variant);
    let mut last = None;
    for text in case.moves {
        let m = find_move(&pos, text).map_err(|error| CliError::BenchMove {
            case: case.name,
            text: text.to_string(),
            error,
        })?;
        pos = pos.after(m);
        last = Some(m);
    }
    Ok(case_view(case, &pos, last))
}

/// The cases whose name starts with `only` (all without it).
fn chosen(only: Option<&str>) -> impl Iterator<Item = &'static Case> + '_ {
    CASES
        .iter()
        .filter(move |c| only.map_or(true, |o| c.name.starts_with(o)))
}

/// `postal bench render --cold`: the time to the first PNG of each position drawn by a
/// renderer with nothing prepared ([`Renderer::isolated`]: its size's assets, tiles and
/// codes made for it), `iterations` times; prints the first (in this process, which also
/// loads the fonts) and the median of the others.
pub fn bench_cold(
    size: Option<u32>,
    iterations: usize,
    only: Option<&str>,
) -> Result<(), CliError> {
    let options = RenderOptions {
        board_px: size.unwrap_or(DEFAULT_BOARD_PX),
    };
    let iterations = iterations.max(1);
    println!(
        "board size {} px, first image of a renderer with nothing prepared, {iterations} renderers",
        options.board_px
    );
    println!(
        "{:<16} {:>12} {:>12} {:>7}",
        "position", "first", "median", "bytes"
    );
    for case in chosen(only) {
        let view = played(case)?;
        let mut times = Vec::with_capacity(iterations);
        let mut bytes = 0;
        for _ in 0..iterations {
            let started = Instant::now();
            let png = Renderer::isolated(Default::default()).render_png(&view, &options);
            times.push(started.elapsed());
            bytes = png.len();
        }
        let first = times[0];
        let mut rest = times[1..].to_vec();
        rest.sort();
        let median = if rest.is_empty() {
            "-".to_string()
        } else {
            ms(quantile(&rest, 0.5))
        };
        println!(
            "{:<16} {:>12} {:>12} {:>7}",
            case.name,
            ms(first),
            median,
            bytes
        );
    }
    Ok(())
}

/// `postal bench render`: for two 8x8 positions and two 6x6 ones (one lettered as in
/// Secret Chesswords), prepares the assets once,
/// then draws and encodes the image `iterations` times on this thread and prints the
/// medians of drawing and of encoding, the median and 99th percentile of both together,
/// and the PNG's size. With `only`, just the positions whose name starts with it.
pub fn bench(size: Option<u32>, iterations: usize, only: Option<&str>) -> Result<(), CliError> {
    let size = size.unwrap_or(DEFAULT_BOARD_PX);
    let iterations = iterations.max(1);
    let renderer = Renderer::default();
    let options = RenderOptions { board_px: size };
    println!("board size {size} px, {iterations} images per position, one thread");
    println!(
        "{:<16} {:>9} {:>10} {:>9} {:>9} {:>9} {:>9} {:>7}",
        "position", "image", "setup", "draw", "encode", "median", "p99", "bytes"
    );
    for case in chosen(only) {
        let view = played(case)?;
        // Setup: the size's assets, and one image to fill the text glyph cache.
        let started = Instant::now();
        renderer.prepare(view.width, view.height, &options);
        std::hint::black_box(renderer.render(&view, &options).to_png());
        let setup = started.elapsed();
        let mut draw = Vec::with_capacity(iterations);
        let mut encode = Vec::with_capacity(iterations);
        let mut total = Vec::with_capacity(iterations);
        let mut bytes = 0;
        let mut dims = (0, 0);
        for _ in 0..iterations {
            let t0 = Instant::now();
            let image = renderer.render(&view, &options);
            let t1 = Instant::now();
            let png = image.to_png();
            let t2 = Instant::now();
            draw.push(t1 - t0);
            encode.push(t2 - t1);
            total.push(t2 - t0);
            bytes = png.len();
            dims = (image.width(), image.height());
            std::hint::black_box(png);
        }
        for times in [&mut draw, &mut encode, &mut total] {
            times.sort();
        }
        println!(
            "{:<16} {:>9} {:>10} {:>9} {:>9} {:>9} {:>9} {:>7}",
            case.name,
            format!("{}x{}", dims.0, dims.1),
            ms(setup),
            ms(quantile(&draw, 0.5)),
            ms(quantile(&encode, 0.5)),
            ms(quantile(&total, 0.5)),
            ms(quantile(&total, 0.99)),
            bytes
        );
    }
    Ok(())
}
