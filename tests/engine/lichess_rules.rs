//! The Lichess variants' draw and timeout rules as Lichess (scalachess) rules them
//! (issue 56): the fifty-move rule draws by itself in every Lichess variant but
//! Crazyhouse, while standard chess keeps FIDE's claim at fifty and draw at seventy-five;
//! Chess960's timeouts follow Lichess's table of mating material; a castling right in a
//! variant without castling is refused for that reason.

use crate::common::{game, mv, play, pos};
use postal::notation::fen::parse_fen;
use postal::rules::{Claim, Color, EndReason, GameResult, Variant};
use postal::variants::Registry;

/// The engine's variant of a registry id.
fn variant(id: &str) -> Variant {
    Registry::builtin()
        .board_variant(id)
        .unwrap_or_else(|e| panic!("{id}: {}", e.text))
}

/// Each Lichess variant with the automatic fifty-move draw: a position one ply short of
/// fifty moves without a capture or pawn move, and a quiet move from it.
const FIFTY: &[(&str, &str, &str)] = &[
    ("chess960", "4k3/8/8/8/8/8/8/Q3K3 w - - 99 80", "a1a2"),
    (
        "king-of-the-hill",
        "4k3/8/8/8/8/8/8/Q3K3 w - - 99 80",
        "a1a2",
    ),
    (
        "three-check",
        "4k3/8/8/8/8/8/8/Q3K3 w - - 3+3 99 80",
        "a1a2",
    ),
    ("antichess", "4k3/8/8/8/8/8/8/Q3K3 w - - 99 80", "a1a2"),
    ("atomic", "4k3/8/8/8/8/8/8/Q3K3 w - - 99 80", "a1a2"),
    ("horde", "4k3/8/8/8/8/8/8/Q7 w - - 99 80", "a1a2"),
    ("racing-kings", "8/8/8/8/8/8/k6K/8 w - - 99 80", "h2h1"),
];

#[test]
fn fifty_moves_without_a_capture_or_pawn_move_draw_by_themselves_in_lichess_variants() {
    for &(id, fen, quiet) in FIFTY {
        let mut g = game(variant(id), fen);
        assert_eq!(g.outcome(), None, "{id}: 99 plies play on");
        play(&mut g, quiet);
        let o = g
            .outcome()
            .unwrap_or_else(|| panic!("{id}: no draw at 100 plies"));
        assert_eq!(
            (o.result, o.reason),
            (GameResult::Draw, EndReason::FiftyMoveRule),
            "{id}"
        );
    }
}

#[test]
fn a_claim_naming_the_fiftieth_move_still_draws_where_the_rule_is_automatic() {
    let mut g = game(variant("atomic"), "4k3/8/8/8/8/8/8/Q3K3 w - - 99 80");
    let m = mv(g.position(), "a1a2");
    let o = g
        .claim(Color::White, Claim::FiftyMoveRule, Some(m))
        .unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::FiftyMoveRule)
    );
    // Without the move, 99 plies are not enough.
    let mut g = game(variant("atomic"), "4k3/8/8/8/8/8/8/Q3K3 w - - 99 80");
    assert!(g.claim(Color::White, Claim::FiftyMoveRule, None).is_err());
}

#[test]
fn a_mate_or_a_goal_on_the_hundredth_ply_stands() {
    let mut g = game(variant("chess960"), "k7/8/1K6/8/8/8/8/7R w - - 99 80");
    play(&mut g, "h1h8");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::Checkmate)
    );
    let mut g = game(
        variant("king-of-the-hill"),
        "7k/8/8/8/8/4K3/8/8 w - - 99 80",
    );
    play(&mut g, "e3e4");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::KingInGoal)
    );
}

#[test]
fn crazyhouse_has_no_move_limit_and_standard_chess_keeps_fides() {
    // Crazyhouse, as on Lichess: nothing ends at 100 or 150 plies, nor can be claimed.
    let mut g = game(variant("crazyhouse"), "4k3/8/8/8/8/8/8/Q3K3[] w - - 149 80");
    play(&mut g, "a1a2");
    assert_eq!(g.outcome(), None);
    assert!(g.claim(Color::Black, Claim::FiftyMoveRule, None).is_err());
    // Standard chess: a claim at fifty, a draw by itself at seventy-five.
    let mut g = game(Variant::STANDARD, "4k3/8/8/8/8/8/8/Q3K3 w - - 99 80");
    play(&mut g, "a1a2");
    assert_eq!(g.outcome(), None);
    let o = g.claim(Color::Black, Claim::FiftyMoveRule, None).unwrap();
    assert_eq!(o.reason, EndReason::FiftyMoveRule);
    let mut g = game(Variant::STANDARD, "4k3/8/8/8/8/8/8/Q3K3 w - - 149 80");
    play(&mut g, "a1a2");
    assert_eq!(g.outcome().unwrap().reason, EndReason::SeventyFiveMoveRule);
}

/// A flag in Chess960 and in standard chess: the result there and the result here.
fn flag(id: &str, fen: &str, loser: Color) -> (GameResult, EndReason) {
    let v = if id == "standard" {
        Variant::STANDARD
    } else {
        variant(id)
    };
    let o = game(v, fen).timeout(loser).unwrap();
    (o.result, o.reason)
}

#[test]
fn chess960_timeouts_follow_lichess_table_where_standard_chess_follows_fide() {
    let draw = (GameResult::Draw, EndReason::TimeoutVsInsufficientMaterial);
    let black_wins = (GameResult::BlackWins, EndReason::Timeout);
    // K+Q against K+N, White flags: Lichess (and python-chess) draw, since a lone knight
    // cannot win on its table; FIDE counts the mate with the queen blocking her king.
    let queen_knight = "4k3/8/8/8/8/8/8/n3K2Q w - - 0 1";
    assert_eq!(flag("chess960", queen_knight, Color::White), draw);
    assert_eq!(flag("standard", queen_knight, Color::White), black_wins);
    // K+R against K+B, the same.
    let rook_bishop = "4k3/8/8/8/8/8/8/b3K2R w - - 0 1";
    assert_eq!(flag("chess960", rook_bishop, Color::White), draw);
    assert_eq!(flag("standard", rook_bishop, Color::White), black_wins);
    // K+R against K+N: the knight can win on Lichess's table.
    let rook_knight = "4k3/8/8/8/8/8/8/n3K2R w - - 0 1";
    assert_eq!(flag("chess960", rook_knight, Color::White), black_wins);
    // A bishop against a pawn can win (the pawn can block); against bishops of both
    // colours too.
    assert_eq!(
        flag("chess960", "4k3/8/8/8/8/8/P7/b3K3 w - - 0 1", Color::White),
        black_wins
    );
    assert_eq!(
        flag("chess960", "4k3/8/8/8/8/8/8/b3KB2 w - - 0 1", Color::White),
        black_wins
    );
    // A bare king never wins.
    assert_eq!(
        flag("chess960", "4k3/8/8/8/8/8/8/4K2Q b - - 0 1", Color::White),
        (GameResult::Draw, EndReason::TimeoutVsInsufficientMaterial)
    );
}

#[test]
fn a_castling_right_where_there_is_no_castling_is_refused_for_that_reason() {
    for (id, name) in [("antichess", "Antichess"), ("racing-kings", "Racing Kings")] {
        let fen = if id == "antichess" {
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        } else {
            "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w K - 0 1"
        };
        let err = parse_fen(variant(id), fen).unwrap_err().to_string();
        assert!(
            err.contains(&format!("{name} has no castling")),
            "{id}: {err}"
        );
        // Without the rights the same position is fine.
        pos(
            variant(id),
            &fen.replace(" KQkq ", " - ").replace(" K ", " - "),
        );
    }
}
