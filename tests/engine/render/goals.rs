//! A variant's data on the image, drawn from the view `BoardView::from_position` fills:
//! the goal region framed on its squares (King of the Hill, Racing Kings), and the checks
//! each side has given in that player's row (Three-check).

use super::*;
use postal::variants::{king_of_the_hill, racing_kings, three_check};

/// The size of these images: the one most image tests here draw at, so its assets are
/// prepared once.
const PX: u32 = 480;

/// The squares holding any pixel that differs between two images of one board shape, and
/// whether every differing pixel lies on one of them (none in the rows beside the board).
fn differing_squares(a: &Image, b: &Image) -> (Vec<Square>, bool) {
    let (pa, pb) = (rgb_pixels(a), rgb_pixels(b));
    assert_eq!(pa.len(), pb.len(), "the images have one size");
    let on_squares: usize = (0..64)
        .map(Square::from_index)
        .filter_map(|s| a.square_rect(s))
        .map(|r| {
            (r.y..r.y + r.h)
                .flat_map(|y| (r.x..r.x + r.w).map(move |x| (x, y)))
                .filter(|&(x, y)| a.rgb(x, y) != b.rgb(x, y))
                .count()
        })
        .sum();
    let all = (0..pa.len()).filter(|&i| pa[i] != pb[i]).count();
    let squares = (0..64)
        .map(Square::from_index)
        .filter(|&s| {
            let r = a.square_rect(s).unwrap();
            (r.y..r.y + r.h).any(|y| (r.x..r.x + r.w).any(|x| a.rgb(x, y) != b.rgb(x, y)))
        })
        .collect();
    (squares, all == on_squares)
}

/// How many pixels of a square are exactly `color`.
fn count_color(image: &Image, square: Square, color: Rgb) -> usize {
    let r = image.square_rect(square).unwrap();
    (r.y..r.y + r.h)
        .flat_map(|y| (r.x..r.x + r.w).map(move |x| (x, y)))
        .filter(|&(x, y)| image.rgb(x, y) == color)
        .count()
}

fn names(squares: &[Square]) -> Vec<String> {
    squares.iter().map(|s| s.to_string()).collect()
}

/// King of the Hill's start differs from standard chess's on the four centre squares
/// only: each is framed in the accent, its middle left as it was.
#[test]
fn the_centre_of_king_of_the_hill_is_framed() {
    let theme = Theme::default();
    let koth = Variant::of(&king_of_the_hill::CONFIG);
    for bottom in Color::ALL {
        let hill = draw(
            &BoardView::from_position(&Position::start(koth), None, bottom),
            PX,
        );
        let standard = draw(
            &BoardView::from_position(&Position::start(Variant::STANDARD), None, bottom),
            PX,
        );
        let (differ, only_there) = differing_squares(&hill, &standard);
        let mut want = ["d4", "e4", "d5", "e5"].map(sq).to_vec();
        want.sort_by_key(|s| s.index());
        assert_eq!(names(&differ), names(&want), "{bottom:?} at the bottom");
        assert!(only_there, "nothing but the centre changed");
        for s in want {
            let accent = count_color(&hill, s, theme.accent);
            let r = hill.square_rect(s).unwrap();
            assert!(
                accent * 10 > (r.w * r.h) as usize,
                "{s}: {accent} pixels of the accent"
            );
            let (cx, cy) = r.center();
            assert_eq!(hill.rgb(cx, cy), plain(&theme, s), "{s}'s middle");
            assert_eq!(corner(&hill, s), plain(&theme, s), "{s}'s corner");
        }
    }
}

/// The frame is drawn under a piece and beside the last move's colour: after 1. e4 the
/// pawn's square keeps the last move's colour, the frame and the pawn.
#[test]
fn a_goal_square_shows_the_last_move_and_the_frame_together() {
    let theme = Theme::default();
    let koth = Variant::of(&king_of_the_hill::CONFIG);
    let (pos, last) = after(koth, "e2e4");
    let hill = draw(&BoardView::from_position(&pos, last, Color::White), PX);
    let (pos, last) = after(Variant::STANDARD, "e2e4");
    let standard = draw(&BoardView::from_position(&pos, last, Color::White), PX);
    let e4 = sq("e4");
    assert_eq!(corner(&hill, e4), theme.light_last);
    assert!(count_color(&hill, e4, theme.accent) > 0, "e4 is framed");
    assert_eq!(count_color(&standard, e4, theme.accent), 0);
    // The pawn is drawn as on the standard board: the middle of the square is the same.
    let r = hill.square_rect(e4).unwrap();
    let (cx, cy) = r.center();
    for dy in 0..r.h / 4 {
        assert_eq!(hill.rgb(cx, cy + dy), standard.rgb(cx, cy + dy));
    }
    // e2, the last move's other square, is no goal.
    assert_eq!(count_color(&hill, sq("e2"), theme.accent), 0);
}

/// Racing Kings' goal is the eighth rank: the view without its goal overlay differs from
/// the view with it on the eight squares of rank 8 and nowhere else, whichever side is
/// at the bottom.
#[test]
fn the_eighth_rank_of_racing_kings_is_framed() {
    let racing = Variant::of(&racing_kings::CONFIG);
    for bottom in Color::ALL {
        let view = BoardView::from_position(&Position::start(racing), None, bottom);
        let mut bare = view.clone();
        bare.overlays.retain(|o| !matches!(o, Overlay::Goal(_)));
        assert_eq!(bare.overlays.len() + 1, view.overlays.len());
        let (differ, only_there) = differing_squares(&draw(&view, PX), &draw(&bare, PX));
        let mut want: Vec<Square> = (0..8).map(|f| Square::new(f, 7)).collect();
        want.sort_by_key(|s| s.index());
        assert_eq!(names(&differ), names(&want), "{bottom:?} at the bottom");
        assert!(only_there);
    }
}

fn goals(view: &BoardView) -> Vec<Vec<String>> {
    view.overlays
        .iter()
        .filter_map(|o| match o {
            Overlay::Goal(squares) => Some(names(squares)),
            _ => None,
        })
        .collect()
}

fn checks(view: &BoardView) -> Vec<(Color, u8, u8)> {
    view.overlays
        .iter()
        .filter_map(|o| match *o {
            Overlay::Checks { side, given, limit } => Some((side, given, limit)),
            _ => None,
        })
        .collect()
}

/// The view lists King of the Hill's four centre squares and Racing Kings' eighth rank
/// as goals, and Three-check's checks given for each side, as play counts them.
#[test]
fn the_views_list_the_goal_squares_and_the_checks_given() {
    let koth = Variant::of(&king_of_the_hill::CONFIG);
    let v = BoardView::from_position(&Position::start(koth), None, Color::White);
    assert_eq!(goals(&v), [["d4", "e4", "d5", "e5"]]);
    assert!(checks(&v).is_empty());
    let racing = Variant::of(&racing_kings::CONFIG);
    let v = BoardView::from_position(&Position::start(racing), None, Color::Black);
    assert_eq!(
        goals(&v),
        [["a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"]]
    );
    let three = Variant::of(&three_check::CONFIG);
    let v = BoardView::from_position(&Position::start(three), None, Color::White);
    assert!(goals(&v).is_empty());
    assert_eq!(checks(&v), [(Color::White, 0, 3), (Color::Black, 0, 3)]);
    // 1. e4 d5 2. Bb5+ c6 3. Bxc6+: two checks by White.
    let (pos, _) = after(three, "e2e4 d7d5 f1b5 c7c6 b5c6");
    let v = BoardView::from_position(&pos, None, Color::White);
    assert_eq!(checks(&v), [(Color::White, 2, 3), (Color::Black, 0, 3)]);
}

/// The rows of two images that differ.
fn rows_differing(a: &Image, b: &Image) -> Vec<u32> {
    (0..a.height()).filter(|&y| a.row(y) != b.row(y)).collect()
}

/// Pixels of the check colour in the rows `rows`.
fn check_marks(image: &Image, rows: std::ops::Range<u32>) -> usize {
    let red = Theme::default().dark_check;
    rows.flat_map(|y| (0..image.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| image.rgb(x, y) == red)
        .count()
}

/// Three-check: a check given changes the image in the giver's row only (White's below
/// the board, Black's above it), and each check given adds a mark in the check colour.
#[test]
fn the_checks_given_are_drawn_in_each_players_row() {
    let three = Variant::of(&three_check::CONFIG);
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let image = |remaining: &str| {
        let pos = parse_fen(three, &format!("{board} {remaining} 0 1")).unwrap();
        draw(&BoardView::from_position(&pos, None, Color::White), PX)
    };
    let none = image("3+3");
    let (white_one, white_two, black_one) = (image("2+3"), image("1+3"), image("3+2"));
    let top = none.square_rect(sq("a8")).unwrap().y;
    let a1 = none.square_rect(sq("a1")).unwrap();
    let below = a1.y + a1.h;

    let white_rows = rows_differing(&none, &white_one);
    assert!(!white_rows.is_empty(), "White's check is drawn");
    assert!(
        white_rows.iter().all(|&y| y >= below),
        "only White's row, below the board, changed: {white_rows:?}"
    );
    let black_rows = rows_differing(&none, &black_one);
    assert!(!black_rows.is_empty(), "Black's check is drawn");
    assert!(
        black_rows.iter().all(|&y| y < top),
        "only Black's row, above the board, changed: {black_rows:?}"
    );

    let rows = below..none.height();
    let (zero, one, two) = (
        check_marks(&none, rows.clone()),
        check_marks(&white_one, rows.clone()),
        check_marks(&white_two, rows),
    );
    assert_eq!(zero, 0, "no check given, no mark filled");
    assert!(one > 0 && two > one + one / 2, "{zero} {one} {two}");
}

/// King of the Hill after 1. e4 d5 2. Bb5+, with Three-check's marks added by hand (one
/// check given by White): the goal's frame with and without a piece and the last move,
/// the check, and the marks in each row.
#[test]
fn golden_goal_and_checks() {
    let koth = Variant::of(&king_of_the_hill::CONFIG);
    let (pos, last) = after(koth, "e2e4 d7d5 f1b5");
    let view = BoardView::from_position(&pos, last, Color::White)
        .with_players("alice", "bob")
        .with_overlay(Overlay::Checks {
            side: Color::White,
            given: 1,
            limit: 3,
        })
        .with_overlay(Overlay::Checks {
            side: Color::Black,
            given: 0,
            limit: 3,
        });
    golden("goal-and-checks", &draw(&view, GOLDEN_PX));
}
