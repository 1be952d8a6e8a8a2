//! King of the Hill: the move tree agrees with an independent implementation (shakmaty's),
//! and each rule of `docs/rules/king-of-the-hill.md` plays as written.

use super::*;
use crate::notation::fen::parse_fen;
use crate::rules::{perft, Color, EndReason, Game, GameResult};
use crate::variants::api::{Action, NewGame, Seat, VariantSpec};
use crate::variants::chess::ChessAction;

fn koth() -> Variant {
    Variant::of(&CONFIG)
}

/// Perft of `fen` to `depth` by shakmaty's King of the Hill.
fn shakmaty_perft(fen: &str, depth: u32) -> u64 {
    use shakmaty::fen::Fen;
    use shakmaty::variant::KingOfTheHill;
    use shakmaty::CastlingMode;
    let setup: Fen = fen.parse().unwrap();
    let pos: KingOfTheHill = setup.into_position(CastlingMode::Standard).unwrap();
    shakmaty::perft(&pos, depth)
}

#[test]
fn perft_agrees_with_shakmaty() {
    let cases: [(&str, u32); 12] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            3,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            3,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            3,
        ),
        // Bare kings next to the centre: every king walk may end the game.
        ("8/8/8/2k5/8/8/5K2/8 w - - 0 1", 5),
        ("8/8/2k5/8/8/5K2/8/8 b - - 0 1", 5),
        // A king one step from the centre, the step guarded or not.
        ("4k3/8/8/8/2K5/8/8/3r4 w - - 0 1", 4),
        ("4k3/8/3r4/8/2K5/8/8/8 w - - 0 1", 4),
        // A king in check beside the centre, and pawns about to promote.
        ("8/1P6/8/2k5/4Q3/8/6p1/K7 b - - 0 1", 4),
        ("r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1", 3),
    ];
    for (fen, depth) in cases {
        let ours = perft(&parse_fen(koth(), fen).unwrap(), depth);
        assert_eq!(ours, shakmaty_perft(fen, depth), "{fen} depth {depth}");
    }
}

#[test]
fn a_king_in_the_centre_is_the_end_and_no_move_follows() {
    let pos = parse_fen(koth(), "8/8/8/3k4/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(pos.goal_reached(), Some(Color::Black));
    assert!(pos.legal_moves().is_empty());
    // The same position in standard chess goes on.
    let standard = parse_fen(Variant::STANDARD, "8/8/8/3k4/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(standard.goal_reached(), None);
    assert!(!standard.legal_moves().is_empty());
}

#[test]
fn walking_the_king_into_the_centre_wins() {
    let mut game = Game::from_position(parse_fen(koth(), "4k3/8/8/8/8/4K3/8/8 w - - 0 1").unwrap());
    let m = crate::notation::parse_move(game.position(), "Ke4").unwrap();
    // Written with `#`, as Lichess and python-chess write a move that wins.
    assert_eq!(crate::notation::san(game.position(), m), "Ke4#");
    game.play(m).unwrap();
    let o = game.outcome().unwrap();
    assert_eq!(o.result, GameResult::WhiteWins);
    assert_eq!(o.reason, EndReason::KingInGoal);
    // A king move beside the centre wins nothing and has no mark; a check is `+`.
    let pos = parse_fen(koth(), "4k3/8/8/8/8/4K3/8/7Q w - - 0 1").unwrap();
    let m = crate::notation::parse_move(&pos, "Kf3").unwrap();
    assert_eq!(crate::notation::san(&pos, m), "Kf3");
    let m = crate::notation::parse_move(&pos, "Qh5").unwrap();
    assert_eq!(crate::notation::san(&pos, m), "Qh5+");
}

#[test]
fn a_king_cannot_step_into_the_centre_into_check() {
    // The rook on d8 guards d4 and d5.
    let pos = parse_fen(koth(), "3rk3/8/8/8/2K5/8/8/8 w - - 0 1").unwrap();
    assert!(crate::notation::parse_move(&pos, "Kd4").is_err());
    assert!(crate::notation::parse_move(&pos, "Kd5").is_err());
    let m = crate::notation::parse_move(&pos, "Kb5").unwrap();
    assert!(!pos.after(m).is_variant_end());
}

#[test]
fn bare_kings_play_on_and_a_timeout_loses() {
    // King against king is no draw: both can still reach the centre.
    let mut game = Game::from_position(parse_fen(koth(), "7k/8/8/8/8/8/8/K7 w - - 0 1").unwrap());
    assert_eq!(game.outcome(), None);
    let o = game.timeout(Color::White).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::BlackWins, EndReason::Timeout)
    );
    // In standard chess the same timeout draws against insufficient material.
    let mut standard =
        Game::from_position(parse_fen(Variant::STANDARD, "7k/8/8/8/8/8/8/K5Q1 w - - 0 1").unwrap());
    let o = standard.timeout(Color::White).unwrap();
    assert_eq!(o.reason, EndReason::TimeoutVsInsufficientMaterial);
}

#[test]
fn a_game_won_in_the_centre_is_stored_and_reloaded() {
    let setup = NewGame {
        fen: Some("4k3/8/8/8/8/4K3/8/8 w - - 0 1"),
        options: Default::default(),
        seed: 0,
        hidden_seed: None,
    };
    let mut game = SPEC.new_game(&setup).unwrap();
    game.apply(
        Seat(0),
        &Action::of(&ChessAction::Move("e3e4".into())).unwrap(),
    )
    .unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.result.as_str(), outcome.reason.name()),
        ("1-0", "king-in-goal")
    );
    let snapshot = game.snapshot().unwrap();
    assert_eq!(snapshot["outcome"][0], "KingInGoal");
    let back = SPEC.load(&snapshot).unwrap();
    assert_eq!(back.outcome(), Some(outcome));
    assert_eq!(back.snapshot().unwrap(), snapshot);
}
