//! Three-check: the move tree agrees with shakmaty's, the checks are counted, written and
//! read as python-chess and Lichess write them, and each rule of
//! `docs/rules/three-check.md` plays as written.

use super::*;
use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::parse_move;
use crate::rules::{Color, EndReason, Endings, Game, GameResult, VariantConfig};
use crate::variants::shakmaty_perft::assert_perft_agrees;

fn three_check() -> Variant {
    Variant::of(&CONFIG)
}

#[test]
fn perft_agrees_with_shakmaty() {
    assert_perft_agrees::<shakmaty::variant::ThreeCheck>(
        three_check(),
        &[
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
                4,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3+3 0 1",
                3,
            ),
            // One check short of the win: every checking move ends the game.
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 1+3 2 3",
                3,
            ),
            (
                "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+1 0 3",
                3,
            ),
            ("4k3/8/8/8/8/8/3Q4/4K3 w - - 1+1 0 1", 4),
            ("4k3/8/8/8/8/8/8/R3K2R w KQ - 2+1 0 1", 3),
            (
                "r3kb2/p1p1ppnr/n2q2p1/3p3P/1p1P4/2P1N2b/PP1KPP2/RNBQ1B1R w q - 3+3 0 14",
                3,
            ),
            (
                "2bqkbn1/r2p2p1/2p1n1p1/p1rP2p1/Pp3p1P/2N2P2/1PP1P1R1/R2QKB2 b - - 3+3 0 22",
                3,
            ),
            (
                "r2qk1nr/p1pbp2p/3pN2b/n4p2/Pp3P2/BP1P2P1/2P1P2P/1R1QKBNR b Kkq - 3+3 1 11",
                3,
            ),
            (
                "rn4nr/2p1kp2/3pp2p/3Q1p2/PP1Pb2N/2N3bK/RB2P2P/7R w - - 2+2 7 28",
                3,
            ),
            (
                "rnbqkbr1/p1ppn3/p3p1p1/7p/5p1P/4PPPQ/PPPP4/RNB2KNR b q - 3+3 1 9",
                3,
            ),
            (
                "rnbqkb1r/3pppp1/2p4p/pp3P2/P2P4/5Nn1/RPP1P1PP/1NBQKB1R w Kkq - 3+3 0 8",
                3,
            ),
            (
                "r1bk2nr/5pBp/pp2p3/n5NP/2pP1PP1/b7/P1P1P3/RNQ1KB2 w - - 3+3 2 24",
                3,
            ),
            (
                "rnb1kb1r/ppp1pppp/3q1n2/3p4/1P1P4/P4P2/2P1P1PP/RNBQKBNR b KQkq - 3+3 0 4",
                3,
            ),
            (
                "r2qbbn1/pBp1p2r/1pnp1kp1/5pNP/3P4/4P3/PPPB1PQP/RN2K2R b KQ - 2+3 3 13",
                3,
            ),
            // A double check counts once.
            ("4k3/8/8/4N3/8/8/8/4R1K1 w - - 1+1 0 1", 3),
        ],
    );
}

#[test]
fn checks_are_counted_and_written_as_python_chess_writes_them() {
    let mut game = Game::new(three_check());
    assert_eq!(
        to_fen(game.position()),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"
    );
    for san in ["e4", "e5", "Bc4", "Nc6", "Bxf7+"] {
        game.play(parse_move(game.position(), san).unwrap())
            .unwrap();
    }
    assert_eq!(game.position().checks_given(), [1, 0]);
    assert!(
        to_fen(game.position()).contains(" 2+3 0 3"),
        "{}",
        to_fen(game.position())
    );
    // Lichess's form (checks given, after the move number) reads as the same position.
    let lichess = parse_fen(
        three_check(),
        "r1bqkbnr/pppp1Bpp/2n5/4p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 0 3 +1+0",
    )
    .unwrap();
    assert_eq!(lichess, *game.position());
    for bad in [
        "4k3/8/8/8/8/8/8/4K3 w - - 4+3 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - x+3 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 +4+0",
    ] {
        assert!(parse_fen(three_check(), bad).is_err(), "{bad}");
    }
    // Standard chess has no such field.
    assert!(parse_fen(Variant::STANDARD, "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1").is_err());
}

#[test]
fn the_third_check_wins_at_once() {
    let mut game = Game::from_position(
        parse_fen(three_check(), "4k3/8/8/8/8/8/3Q4/4K3 w - - 1+3 0 1").unwrap(),
    );
    game.play(parse_move(game.position(), "Qd7+").unwrap())
        .unwrap();
    let o = game.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::CheckLimit(3))
    );
    assert!(game.legal_moves().is_empty());
    // The same check in standard chess is only a check.
    let mut standard = Game::from_position(
        parse_fen(Variant::STANDARD, "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1").unwrap(),
    );
    standard
        .play(parse_move(standard.position(), "Qd7+").unwrap())
        .unwrap();
    assert_eq!(standard.outcome(), None);
}

#[test]
fn repetition_counts_the_checks_too() {
    // The same placement with a check more given is another position.
    let a = parse_fen(three_check(), "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1").unwrap();
    let b = parse_fen(three_check(), "4k3/8/8/8/8/8/8/R3K3 w - - 2+3 0 1").unwrap();
    assert_ne!(a.zobrist_hash(), b.zobrist_hash());
}

#[test]
fn only_bare_kings_are_dead_and_a_timeout_against_a_bare_king_draws() {
    // A lone knight can still give three checks: no draw, and the timeout loses.
    let mut knight = Game::from_position(
        parse_fen(three_check(), "4k3/8/8/8/8/8/8/N3K3 b - - 3+3 0 1").unwrap(),
    );
    assert_eq!(knight.outcome(), None);
    let o = knight.timeout(Color::Black).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::Timeout)
    );
    // Against a bare king the timeout draws.
    let mut bare = Game::from_position(
        parse_fen(three_check(), "4k3/8/8/8/8/8/8/N3K3 w - - 3+3 0 1").unwrap(),
    );
    let o = bare.timeout(Color::White).unwrap();
    assert_eq!(o.reason, EndReason::TimeoutVsInsufficientMaterial);
    // Taking the last piece leaves bare kings: a draw at once.
    let mut kings = Game::from_position(
        parse_fen(three_check(), "4k3/8/8/8/8/8/3n4/4K3 w - - 3+3 0 1").unwrap(),
    );
    kings
        .play(parse_move(kings.position(), "Kxd2").unwrap())
        .unwrap();
    let o = kings.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::InsufficientMaterial)
    );
}

/// Five-check, a throw-away variant made of configuration alone: Three-check's with the
/// limit at five.
static FIVE_CHECK: VariantConfig = VariantConfig {
    id: "five-check-test",
    display_name: "Five-check",
    start_fen: "4k3/8/8/8/8/8/3Q4/4K3 w - - 5+5 0 1",
    endings: Endings {
        check_limit: Some(5),
        ..CONFIG.endings
    },
    ..CONFIG
};

#[test]
fn a_five_check_made_of_configuration_wins_at_the_fifth_check_and_says_so() {
    let five = Variant::of(&FIVE_CHECK);
    let mut game = Game::new(five);
    for san in ["Qd7+", "Kf8", "Qd8+", "Kf7", "Qd7+", "Kf8", "Qd8+", "Kf7"] {
        game.play(parse_move(game.position(), san).unwrap())
            .unwrap();
        assert!(game.outcome().is_none(), "{san}");
    }
    assert_eq!(game.position().checks_given(), [4, 0]);
    game.play(parse_move(game.position(), "Qd7+").unwrap())
        .unwrap();
    let o = game.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::CheckLimit(5))
    );
    assert_eq!(o.reason.name(), "five-checks");
    let banner = crate::render::view::result_text(&o);
    assert!(
        banner.contains("wins by giving the fifth check"),
        "{banner}"
    );
    // Its words come from its number; Three-check keeps its own.
    assert!(!banner.contains("third"), "{banner}");
    // The message of its end says the same, and its record names it.
    let ending = crate::variants::chess::game_outcome(&o);
    assert_eq!(
        ending.describe(&["alice (White)".into(), "bob (Black)".into()]),
        "alice (White) wins by giving the fifth check (1-0)"
    );
    assert_eq!(ending.reason.name(), "five-checks");
    assert_eq!(EndReason::CheckLimit(3).name(), "three-checks");
}
