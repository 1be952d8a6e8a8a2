//! Board images: golden images compared pixel by pixel with a small tolerance, and
//! assertions about what the images mean (a known piece's square is not empty, the
//! highlighted squares are not their usual colour, the board turns with the viewer).
//!
//! The golden images are in `tests/golden/`. After an intended change to the look,
//! regenerate them with `POSTAL_BLESS=1 cargo test --profile ci --test engine -- render::` and look at
//! every changed image before committing it. `POSTAL_SAMPLES=DIR cargo test --profile ci
//! --test engine -- render:: --ignored` writes a gallery of every feature at the default size.

use postal::notation::fen::parse_fen;
use postal::render::gif::{game_gif, GifOptions};
use postal::render::{
    BoardCorner, BoardView, Card, CardRow, Disc, Image, Overlay, PublicOrientation, RenderOptions,
    Renderer, Rgb, Suit, Theme, Viewer,
};
use postal::rules::{Color, Game, Move, Position, Square, Variant};
use postal::variants::chesswords::letters::LetterGrid;
use std::path::PathBuf;
use std::sync::OnceLock;

mod goals;
mod table;

/// Board size of the golden images: small, so the committed files are small.
const GOLDEN_PX: u32 = 360;

/// One renderer for every test, so each size's assets are prepared once.
fn renderer() -> &'static Renderer {
    static R: OnceLock<Renderer> = OnceLock::new();
    R.get_or_init(Renderer::default)
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

fn legal(pos: &Position, uci: &str) -> Move {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| m.uci() == uci)
        .unwrap_or_else(|| panic!("{uci} is not legal"))
}

/// The position after playing `moves` (UCI) from the start, and the last move.
fn after(variant: Variant, moves: &str) -> (Position, Option<Move>) {
    let mut pos = Position::start(variant);
    let mut last = None;
    for uci in moves.split_whitespace() {
        let m = legal(&pos, uci);
        pos = pos.after(m);
        last = Some(m);
    }
    (pos, last)
}

fn draw(view: &BoardView, px: u32) -> Image {
    renderer().render(view, &RenderOptions { board_px: px })
}

/// A decoded PNG: width, height and RGB pixels.
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<Rgb>) {
    let mut d = png::Decoder::new(std::io::Cursor::new(bytes));
    d.set_transformations(png::Transformations::EXPAND);
    let mut r = d.read_info().expect("a PNG");
    let mut buf = vec![0; r.output_buffer_size().expect("a size")];
    let info = r.next_frame(&mut buf).expect("PNG data");
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let channels = info.color_type.samples();
    let px = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|c| Rgb(c[0], c[1], c[2]))
        .collect();
    (info.width, info.height, px)
}

fn rgb_pixels(image: &Image) -> Vec<Rgb> {
    image
        .rows()
        .flatten()
        .map(|&i| image.palette()[i as usize])
        .collect()
}

/// Compares an image with its golden file, or writes the file when blessing.
fn golden(name: &str, image: &Image) {
    let path = crate::common::root()
        .to_path_buf()
        .join("tests/golden")
        .join(format!("{name}.png"));
    let png = image.to_png();
    // The PNG itself must decode to exactly the image drawn.
    let (w, h, decoded) = decode_png(&png);
    assert_eq!((w, h), (image.width(), image.height()));
    assert!(
        decoded == rgb_pixels(image),
        "{name}: the PNG is not the image"
    );
    if std::env::var_os("POSTAL_BLESS").is_some() {
        std::fs::write(&path, &png).unwrap();
        return;
    }
    let expected = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with POSTAL_BLESS=1 to create it)",
            path.display()
        )
    });
    let (ew, eh, want) = decode_png(&expected);
    assert_eq!(
        (w, h),
        (ew, eh),
        "{name}: size differs from the golden image"
    );
    // Anti-aliased edges may round differently from one platform's floating point to
    // another: allow a small difference per channel, and a few pixels beyond it.
    const TOLERANCE: i32 = 24;
    let off = decoded
        .iter()
        .zip(&want)
        .filter(|(a, b)| {
            (a.0 as i32 - b.0 as i32).abs() > TOLERANCE
                || (a.1 as i32 - b.1 as i32).abs() > TOLERANCE
                || (a.2 as i32 - b.2 as i32).abs() > TOLERANCE
        })
        .count();
    assert!(
        off * 1000 <= decoded.len(),
        "{name}: {off} of {} pixels differ from {} (POSTAL_BLESS=1 regenerates it)",
        decoded.len(),
        path.display()
    );
}

/// Pixels of a square that are not the given colour, as a share of the square.
fn share_not(image: &Image, square: Square, color: Rgb) -> f64 {
    let r = image.square_rect(square).unwrap();
    let mut n = 0;
    for y in r.y..r.y + r.h {
        for x in r.x..r.x + r.w {
            if image.rgb(x, y) != color {
                n += 1;
            }
        }
    }
    n as f64 / (r.w * r.h) as f64
}

/// The colour at a square's top left corner, where no piece reaches.
fn corner(image: &Image, square: Square) -> Rgb {
    let r = image.square_rect(square).unwrap();
    image.rgb(r.x + 1, r.y + 1)
}

/// The usual colour of a square.
fn plain(theme: &Theme, square: Square) -> Rgb {
    if square.is_dark() {
        theme.dark
    } else {
        theme.light
    }
}

fn check_position() -> (Position, Option<Move>) {
    // 1. e4 d5 2. Bb5+: a last move and a check.
    after(Variant::STANDARD, "e2e4 d7d5 f1b5")
}

#[test]
fn golden_standard_start() {
    let view = BoardView::from_position(&Position::start(Variant::STANDARD), None, Color::White);
    golden("standard-start", &draw(&view, GOLDEN_PX));
}

#[test]
fn golden_chess_sharp_start_with_reserves() {
    let view = BoardView::from_position(&Position::start(Variant::CHESS_SHARP), None, Color::White);
    golden("chess-sharp-start", &draw(&view, GOLDEN_PX));
}

#[test]
fn golden_los_alamos_start() {
    let view = BoardView::from_position(&Position::start(Variant::LOS_ALAMOS), None, Color::White);
    golden("los-alamos-start", &draw(&view, GOLDEN_PX));
}

#[test]
fn golden_last_move_and_check() {
    let (pos, last) = check_position();
    let view = BoardView::from_position(&pos, last, Color::White).with_players("Alice", "Bob");
    golden("check-white", &draw(&view, GOLDEN_PX));
}

#[test]
fn golden_last_move_and_check_from_blacks_side() {
    let (pos, last) = check_position();
    let view = BoardView::from_position(&pos, last, Color::Black).with_players("Alice", "Bob");
    golden("check-black", &draw(&view, GOLDEN_PX));
}

#[test]
fn golden_finished_game_with_overlays() {
    let mut game = Game::new(Variant::STANDARD);
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let m = legal(game.position(), uci);
        game.play(m).unwrap();
    }
    let view = BoardView::from_game(&game, Viewer::Public, PublicOrientation::SideToMove)
        .with_players("Alice", "Bob")
        .with_overlay(Overlay::Tokens {
            side: Color::White,
            used: 1,
            total: 4,
        })
        .with_overlay(Overlay::Tokens {
            side: Color::Black,
            used: 3,
            total: 4,
        })
        .with_overlay(Overlay::Letters(vec![(sq("a1"), 'q'), (sq("d4"), 'K')]))
        .with_overlay(Overlay::Discs(vec![
            Disc {
                square: sq("c4"),
                color: Color::White,
                label: Some("7".into()),
            },
            Disc {
                square: sq("f5"),
                color: Color::Black,
                label: Some("3".into()),
            },
            Disc {
                square: sq("b1"),
                color: Color::Black,
                label: Some("2".into()),
            },
        ]))
        .with_overlay(Overlay::CornerMarker(BoardCorner {
            high_file: true,
            high_rank: true,
        }))
        .with_overlay(Overlay::Cards(CardRow {
            label: "Bob's hand".into(),
            cards: vec![
                Card::Face {
                    rank: 1,
                    suit: Suit::Spades,
                },
                Card::Face {
                    rank: 12,
                    suit: Suit::Hearts,
                },
                Card::Face {
                    rank: 10,
                    suit: Suit::Diamonds,
                },
                Card::Back,
            ],
        }));
    golden("finished-overlays", &draw(&view, GOLDEN_PX));
}

/// Secret Chesswords after 1. d3 c4 2. dxc4 b4 3. c3 bxc3: a letter on every square
/// (the grid of seed 8) and a checker on each capturing piece's starting square.
fn chesswords_view() -> BoardView {
    let (pos, last) = after(Variant::LOS_ALAMOS, "d2d3 c5c4 d3c4 b5b4 c2c3 b4c3");
    let grid = LetterGrid::from_seed(8);
    BoardView::from_position(&pos, last, Color::White)
        .with_players("Alice", "Bob")
        .with_overlay(Overlay::Letters(grid.letters()))
        .with_overlay(Overlay::Discs(vec![
            Disc {
                square: sq("d3"),
                color: Color::White,
                label: None,
            },
            Disc {
                square: sq("b4"),
                color: Color::Black,
                label: None,
            },
        ]))
}

#[test]
fn golden_chesswords_letters() {
    golden("chesswords-letters", &draw(&chesswords_view(), GOLDEN_PX));
}

#[test]
fn letters_are_large_on_empty_squares_and_badges_beside_pieces() {
    let plain_view = |letters: bool| {
        let (pos, last) = after(Variant::LOS_ALAMOS, "d2d3 c5c4 d3c4 b5b4 c2c3 b4c3");
        let view = BoardView::from_position(&pos, last, Color::White);
        if letters {
            view.with_overlay(Overlay::Letters(LetterGrid::from_seed(8).letters()))
        } else {
            view
        }
    };
    let (with, without) = (draw(&plain_view(true), 480), draw(&plain_view(false), 480));
    // The pixels of a part of a square, given in fractions of its side.
    let part = |image: &Image, s: Square, from: f32, to: f32| {
        let r = image.square_rect(s).unwrap();
        let at = |f: f32| (f * r.w as f32) as u32;
        let mut v = Vec::new();
        for y in at(from)..at(to) {
            for x in at(from)..at(to) {
                v.push(image.rgb(r.x + x, r.y + y));
            }
        }
        v
    };
    let middle = |image: &Image, s: Square| part(image, s, 0.4, 0.7);
    let badge = |image: &Image, s: Square| part(image, s, 0.06, 0.18);
    let (empty, occupied) = (sq("e3"), sq("a1"));
    // An empty square's letter is in its middle, and there is no badge.
    assert!(middle(&with, empty) != middle(&without, empty));
    assert!(badge(&with, empty) == badge(&without, empty));
    // An occupied square's middle is the piece, unchanged; its letter is on the badge.
    assert!(middle(&with, occupied) == middle(&without, occupied));
    assert!(badge(&with, occupied) != badge(&without, occupied));
    // The large letter is faint: no pixel of it is as dark as the ink.
    let ink = Theme::default().ink;
    assert!(middle(&with, empty).iter().all(|&p| p != ink));
}

#[test]
fn a_checker_without_a_label_shows_the_letter_of_its_square() {
    let with = draw(&chesswords_view(), 480);
    let mut view = chesswords_view();
    view.overlays.retain(|o| !matches!(o, Overlay::Letters(_)));
    let without = draw(&view, 480);
    let centre = |image: &Image, s: Square| {
        let r = image.square_rect(s).unwrap();
        (r.y + r.h * 2 / 5..r.y + r.h * 3 / 5)
            .flat_map(|y| (r.x + r.w * 2 / 5..r.x + r.w * 3 / 5).map(move |x| (x, y)))
            .map(|(x, y)| image.rgb(x, y))
            .collect::<Vec<_>>()
    };
    for s in [sq("d3"), sq("b4")] {
        assert!(centre(&with, s) != centre(&without, s), "{s}");
    }
    // A square without a checker or a letter is the same in both.
    assert!(centre(&with, sq("c4")) == centre(&without, sq("c4")));
}

/// Double Move Chess, 14. a3,a4 of the transcript game: White has spent all four tokens,
/// Black two; each player's row shows four tokens, the spent ones crossed out.
fn double_move_view() -> BoardView {
    let pos = parse_fen(
        Variant::DOUBLE_MOVE,
        "r4rk1/2p2pp1/1p1pb2B/p1b5/P1Bp1qQ1/3P3P/1P3PP1/R3RNK1 w - - 0 15 0+2",
    )
    .unwrap();
    BoardView::from_position(&pos, None, Color::White).with_players("alice", "bob")
}

#[test]
fn golden_double_move_tokens() {
    golden("double-move-tokens", &draw(&double_move_view(), GOLDEN_PX));
}

/// Rule 8 of Double Move Chess: the tokens are in plain view. Spending a token changes
/// the image only in that player's row, beside the board, never on it.
#[test]
fn double_move_tokens_are_drawn_in_each_players_row() {
    let view = double_move_view();
    let tokens: Vec<&Overlay> = view
        .overlays
        .iter()
        .filter(|o| matches!(o, Overlay::Tokens { .. }))
        .collect();
    assert_eq!(
        tokens,
        [
            &Overlay::Tokens {
                side: Color::White,
                used: 4,
                total: 4
            },
            &Overlay::Tokens {
                side: Color::Black,
                used: 2,
                total: 4
            }
        ]
    );
    let spent = draw(&view, 480);
    let mut fresh_view = view.clone();
    fresh_view.overlays.clear();
    for side in Color::ALL {
        fresh_view.overlays.push(Overlay::Tokens {
            side,
            used: 0,
            total: 4,
        });
    }
    let fresh = draw(&fresh_view, 480);
    let mut none_view = view.clone();
    none_view.overlays.clear();
    let none = draw(&none_view, 480);
    let (a, b, c) = (rgb_pixels(&spent), rgb_pixels(&fresh), rgb_pixels(&none));
    let width = spent.width() as usize;
    let board = spent.square_rect(sq("a8")).unwrap();
    let board_bottom = spent.square_rect(sq("a1")).unwrap();
    let rows_differing = |x: &[Rgb], y: &[Rgb]| -> Vec<usize> {
        let mut rows: Vec<usize> = (0..x.len())
            .filter(|&i| x[i] != y[i])
            .map(|i| i / width)
            .collect();
        rows.dedup();
        rows
    };
    let spent_vs_fresh = rows_differing(&a, &b);
    assert!(
        !spent_vs_fresh.is_empty(),
        "spent tokens are drawn differently"
    );
    assert!(
        !rows_differing(&b, &c).is_empty(),
        "tokens are drawn at all"
    );
    for row in spent_vs_fresh {
        let on_board = row as u32 >= board.y && (row as u32) < board_bottom.y + board_bottom.h;
        assert!(!on_board, "row {row} of the board changed");
    }
}

#[test]
fn a_known_piece_is_drawn_and_an_empty_square_is_not() {
    let theme = Theme::default();
    let view = BoardView::from_position(&Position::start(Variant::STANDARD), None, Color::White);
    let image = draw(&view, 480);
    for name in ["e1", "d8", "a2", "h7", "b1", "g8"] {
        let s = sq(name);
        let share = share_not(&image, s, plain(&theme, s));
        assert!(
            share > 0.15,
            "{name}: only {share:.3} of the square is not its colour"
        );
    }
    for name in ["e4", "d5", "a3", "h6"] {
        let s = sq(name);
        assert_eq!(
            share_not(&image, s, plain(&theme, s)),
            0.0,
            "{name} is not empty"
        );
    }
}

#[test]
fn the_last_move_and_the_check_are_highlighted() {
    let theme = Theme::default();
    let (pos, last) = check_position();
    let image = draw(&BoardView::from_position(&pos, last, Color::White), 480);
    for name in ["f1", "b5"] {
        let s = sq(name);
        let c = corner(&image, s);
        assert_ne!(c, plain(&theme, s), "{name} is not highlighted");
        let want = if s.is_dark() {
            theme.dark_last
        } else {
            theme.light_last
        };
        assert_eq!(c, want, "{name}");
    }
    let e8 = sq("e8");
    assert_ne!(corner(&image, e8), plain(&theme, e8));
    assert_eq!(corner(&image, e8), theme.light_check);
    for name in ["e4", "d5", "a1", "c6"] {
        let s = sq(name);
        assert_eq!(
            corner(&image, s),
            plain(&theme, s),
            "{name} should be plain"
        );
    }
}

#[test]
fn a_drop_highlights_only_its_square() {
    let theme = Theme::default();
    let (pos, last) = after(Variant::CHESS_SHARP, "K@e1");
    let image = draw(&BoardView::from_position(&pos, last, Color::White), 480);
    assert_eq!(corner(&image, sq("e1")), theme.dark_last);
    let highlighted = (0..64)
        .map(Square::from_index)
        .filter(|&s| {
            let c = corner(&image, s);
            c == theme.light_last || c == theme.dark_last
        })
        .count();
    assert_eq!(highlighted, 1);
}

#[test]
fn the_board_turns_with_the_side_at_the_bottom() {
    let pos = Position::start(Variant::STANDARD);
    let white = draw(&BoardView::from_position(&pos, None, Color::White), 480);
    let black = draw(&BoardView::from_position(&pos, None, Color::Black), 480);
    let (a1w, h8w) = (
        white.square_rect(sq("a1")).unwrap(),
        white.square_rect(sq("h8")).unwrap(),
    );
    assert!(a1w.x < h8w.x && a1w.y > h8w.y, "White: a1 is bottom left");
    let (a1b, h8b) = (
        black.square_rect(sq("a1")).unwrap(),
        black.square_rect(sq("h8")).unwrap(),
    );
    assert!(a1b.x > h8b.x && a1b.y < h8b.y, "Black: a1 is top right");
    // The same square holds the same pixels wherever it is drawn.
    let same = |s: Square| {
        let (rw, rb) = (white.square_rect(s).unwrap(), black.square_rect(s).unwrap());
        (0..rw.h).all(|y| {
            (0..rw.w).all(|x| white.rgb(rw.x + x, rw.y + y) == black.rgb(rb.x + x, rb.y + y))
        })
    };
    assert!(same(sq("e1")) && same(sq("d8")) && same(sq("c3")));
}

#[test]
fn every_board_size_draws() {
    for variant in crate::common::board_variants() {
        let view = BoardView::from_position(&Position::start(variant), None, Color::White);
        for px in [96, 200, 333, 720, 1000] {
            let image = draw(&view, px);
            let (w, h, _) = decode_png(&image.to_png());
            assert_eq!((w, h), (image.width(), image.height()), "{variant} at {px}");
            let r = image.square_rect(sq("a1")).unwrap();
            assert!(r.x + r.w <= w && r.y + r.h <= h);
        }
    }
}

#[test]
fn an_eight_by_eight_board_at_720_pixels_fits_in_30_kilobytes() {
    let (pos, last) = after(
        Variant::STANDARD,
        "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3",
    );
    let view = BoardView::from_position(&pos, last, Color::White).with_players("Alice", "Bob");
    let png = draw(&view, 720).to_png();
    assert!(png.len() <= 30 * 1024, "{} bytes", png.len());
}

#[test]
fn a_whole_game_animates() {
    let mut game = Game::new(Variant::LOS_ALAMOS);
    for uci in ["c2c3", "d5d4", "c3d4", "e6d4"] {
        let m = legal(game.position(), uci);
        game.play(m).unwrap();
    }
    let options = GifOptions {
        render: RenderOptions { board_px: 240 },
        ..GifOptions::default()
    };
    let bytes = game_gif(renderer(), &game, &options);
    let mut d = gif::DecodeOptions::new()
        .read_info(bytes.as_slice())
        .unwrap();
    let mut frames = 0;
    while d.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, game.moves().len() + 1);
}

#[test]
fn a_fen_with_reserves_draws_its_reserves() {
    let theme = Theme::default();
    let pos = parse_fen(
        Variant::CHESS_SHARP,
        "8/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[Qrnbqkbnr] w - - 0 1",
    )
    .unwrap();
    let image = draw(&BoardView::from_position(&pos, None, Color::White), 480);
    // The lower player's row holds a tray (White's queen), the upper one too (Black's
    // eight pieces).
    let tray = |y0: u32, y1: u32| {
        (y0..y1).any(|y| (0..image.width()).any(|x| image.rgb(x, y) == theme.tray))
    };
    let board = image.square_rect(sq("a8")).unwrap();
    let bottom = image.square_rect(sq("a1")).unwrap();
    assert!(tray(0, board.y));
    assert!(tray(bottom.y + bottom.h + 20, image.height()));
}

/// Crazyhouse: each side's pocket is drawn in a tray on its own side of the board (more
/// of the tray's colour in that player's row than with an empty pocket, and none more on
/// the other side); with Black at the bottom the trays change places.
#[test]
fn crazyhouse_pockets_show_for_both_sides() {
    let theme = Theme::default();
    let zh = postal::variants::Registry::builtin()
        .board_variant("crazyhouse")
        .unwrap();
    // The pixels of the tray's colour above the board and below it.
    let trays = |pocket: &str, bottom: Color| {
        let fen = format!("r1bqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKB1R[{pocket}] w KQkq - 0 4");
        let pos = parse_fen(zh, &fen).unwrap();
        let image = draw(&BoardView::from_position(&pos, None, bottom), 480);
        let tray = |y0: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (0..image.width()).map(move |x| (x, y)))
                .filter(|&(x, y)| image.rgb(x, y) == theme.tray)
                .count()
        };
        let (a8, a1) = (sq("a8"), sq("a1"));
        let (top, low) = match bottom {
            Color::White => (a8, a1),
            Color::Black => (a1, a8),
        };
        let board_top = image.square_rect(top).unwrap();
        let board_low = image.square_rect(low).unwrap();
        (
            tray(0, board_top.y),
            tray(board_low.y + board_low.h, image.height()),
        )
    };
    let (top, low) = trays("", Color::White);
    let (white_top, white_low) = trays("NP", Color::White);
    assert!(white_top == top && white_low > low, "White's pocket below");
    let (black_top, black_low) = trays("np", Color::White);
    assert!(black_top > top && black_low == low, "Black's pocket above");
    let (both_top, both_low) = trays("Pn", Color::White);
    assert!(both_top > top && both_low > low, "both pockets");
    let (turned_top, turned_low) = trays("NP", Color::Black);
    let (empty_top, empty_low) = trays("", Color::Black);
    assert!(
        turned_top > empty_top && turned_low == empty_low,
        "White's pocket above"
    );
}

/// Writes every feature at the default size to `POSTAL_SAMPLES`, for looking at.
#[test]
#[ignore]
fn write_samples() {
    let Some(dir) = std::env::var_os("POSTAL_SAMPLES") else {
        return;
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let opts = RenderOptions::default();
    let write = |name: &str, view: &BoardView| {
        let png = renderer().render_png(view, &opts);
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    };
    for variant in crate::common::board_variants() {
        let view = BoardView::from_position(&Position::start(variant), None, Color::White);
        write(&format!("{variant}-start"), &view);
    }
    let (pos, last) = check_position();
    write(
        "check",
        &BoardView::from_position(&pos, last, Color::White).with_players("Alice", "Bob"),
    );
    write(
        "check-black",
        &BoardView::from_position(&pos, last, Color::Black).with_players("Alice", "Bob"),
    );
    let mut game = Game::new(Variant::STANDARD);
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let m = legal(game.position(), uci);
        game.play(m).unwrap();
    }
    let view = BoardView::from_game(&game, Viewer::Public, PublicOrientation::SideToMove)
        .with_players("Alexandra Konstantinopoulou", "Bob")
        .with_overlay(Overlay::Tokens {
            side: Color::White,
            used: 1,
            total: 4,
        })
        .with_overlay(Overlay::Tokens {
            side: Color::Black,
            used: 3,
            total: 4,
        })
        .with_overlay(Overlay::Letters(vec![(sq("a1"), 'q'), (sq("d4"), 'K')]))
        .with_overlay(Overlay::Discs(vec![
            Disc {
                square: sq("c4"),
                color: Color::White,
                label: Some("7".into()),
            },
            Disc {
                square: sq("f5"),
                color: Color::Black,
                label: Some("3".into()),
            },
            Disc {
                square: sq("b1"),
                color: Color::Black,
                label: Some("2".into()),
            },
        ]))
        .with_overlay(Overlay::CornerMarker(BoardCorner {
            high_file: true,
            high_rank: true,
        }))
        .with_overlay(Overlay::Cards(CardRow {
            label: "Bob's hand".into(),
            cards: vec![
                Card::Face {
                    rank: 1,
                    suit: Suit::Spades,
                },
                Card::Face {
                    rank: 12,
                    suit: Suit::Hearts,
                },
                Card::Face {
                    rank: 10,
                    suit: Suit::Diamonds,
                },
                Card::Back,
            ],
        }));
    write("finished-overlays", &view);
    write("chesswords-letters", &chesswords_view());
    let gif = game_gif(renderer(), &game, &GifOptions::default());
    std::fs::write(dir.join("game.gif"), gif).unwrap();
}
