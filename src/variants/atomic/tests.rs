//! Atomic: the move tree agrees with an independent implementation (shakmaty's), and
//! each rule of `docs/rules/atomic.md` plays as written.

use super::*;
use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::{parse_move, san, MoveError};
use crate::rules::{perft, Color, EndReason, Game, GameResult, Role, Square};
use crate::variants::api::{Action, NewGame, Seat, VariantSpec};
use crate::variants::chess::ChessAction;

fn atomic() -> Variant {
    Variant::of(&CONFIG)
}

fn game(fen: &str) -> Game {
    Game::from_position(parse_fen(atomic(), fen).unwrap())
}

fn play(game: &mut Game, typed: &str) {
    let m = parse_move(game.position(), typed).unwrap_or_else(|e| panic!("{typed}: {e}"));
    game.play(m).unwrap();
}

fn refusal(fen: &str, typed: &str) -> String {
    match parse_move(&parse_fen(atomic(), fen).unwrap(), typed) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{typed}: {other:?}"),
    }
}

/// Perft of `fen` to `depth` by shakmaty's Atomic.
fn shakmaty_perft(fen: &str, depth: u32) -> u64 {
    use shakmaty::fen::Fen;
    use shakmaty::variant::Atomic;
    use shakmaty::CastlingMode;
    let setup: Fen = fen.parse().unwrap();
    let pos: Atomic = setup.into_position(CastlingMode::Standard).unwrap();
    shakmaty::perft(&pos, depth)
}

#[test]
fn perft_agrees_with_shakmaty() {
    let cases: [(&str, u32); 16] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
        ),
        // Random play from the start (python-chess, seeds 1 to 4 and 6).
        (
            "rnbqkb1r/p1ppp1p1/5n2/5p1p/2P3P1/7P/PP1PPP2/1RBQKBNR w Kkq - 2 7",
            3,
        ),
        (
            "r1bqkbnr/3p1ppp/8/ppp5/1nP2PPN/P2Q3P/1PN1P3/R1B1KB1R w KQkq - 0 13",
            3,
        ),
        (
            "2bqr3/r1ppbkp1/6n1/4p2p/2P1PP2/P7/3B3P/1R2K1NR w K - 0 19",
            3,
        ),
        (
            "4rb2/1kN1n1p1/1p3qPr/p1pppp1p/2PP4/1P2PNR1/3K1P1P/2B1Q3 w - - 4 26",
            3,
        ),
        ("3kr1nr/8/npp2qp1/4pp1p/2P4P/Q2P1PRB/4K3/2N5 w - - 0 46", 3),
        // En passant exploding around its target square.
        ("8/8/8/2k5/3pP3/8/8/4K3 b - e3 0 1", 5),
        // Castling through squares next to the enemy king, attacked or not.
        ("8/8/8/8/8/8/5k2/R3K2R w KQ - 0 1", 4),
        ("5r2/8/8/8/8/8/6k1/R3K2R w KQ - 0 1", 4),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 4),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
        ),
        // Escaping by exploding the enemy king; kings side by side.
        ("4k3/4q3/8/8/8/8/4R3/4K3 w - - 0 1", 4),
        ("8/8/8/3k4/3K4/8/8/3r4 w - - 0 1", 5),
        // A promotion by capture next to a king; early explosions near the kings.
        ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", 4),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            4,
        ),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            4,
        ),
    ];
    for (fen, depth) in cases {
        let pos = parse_fen(atomic(), fen).unwrap();
        assert_eq!(to_fen(&pos), fen, "written back as python-chess writes it");
        assert_eq!(
            perft(&pos, depth),
            shakmaty_perft(fen, depth),
            "{fen} depth {depth}"
        );
    }
}

#[test]
fn a_capture_explodes_every_piece_but_pawns_around_the_target() {
    // Nxd7: the knight and the bishop it takes go, with the queen and the king beside d7;
    // the pawns beside it stay.
    let mut g = game("r2qk2r/2pbp3/8/4N3/8/8/8/4K2R w Kkq - 0 1");
    play(&mut g, "Nxd7");
    let at = |sq: &str| {
        let sq = Square::parse(sq).unwrap();
        g.position().piece_at(sq).map(|p| p.role)
    };
    for gone in ["d7", "d8", "e8", "e5"] {
        assert_eq!(at(gone), None, "{gone}");
    }
    assert_eq!(at("c7"), Some(Role::Pawn));
    assert_eq!(at("e7"), Some(Role::Pawn));
    assert_eq!(at("a8"), Some(Role::Rook));
    // The black king on e8 was next to d7: it exploded, and White has won.
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::KingExploded)
    );
}

#[test]
fn an_exploded_rook_loses_its_castling_right() {
    // Bxg2 explodes the rook on h1 beside g2: White can no longer castle.
    let mut g = game("r3k2r/8/2b5/8/8/8/6P1/4K2R b Kkq - 0 1");
    play(&mut g, "Bxg2");
    assert_eq!(to_fen(g.position()), "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 2");
}

#[test]
fn exploding_the_enemy_king_wins_even_out_of_check_and_is_marked_mate() {
    // White is in check from the bishop on b4, and takes the queen next to the black king.
    let mut g = game("4k3/4q3/8/8/1b6/8/4R3/4K3 w - - 0 1");
    assert!(g.position().is_check());
    let m = parse_move(g.position(), "Rxe7").unwrap();
    assert_eq!(san(g.position(), m), "Rxe7#");
    g.play(m).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::KingExploded)
    );
    assert_eq!(to_fen(g.position()), "8/8/8/8/1b6/8/8/4K3 b - - 0 1");
}

#[test]
fn a_king_may_not_capture_and_no_move_may_explode_its_own_king() {
    assert_eq!(
        refusal("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "Kxd2"),
        "a king may not capture: the explosion would destroy it"
    );
    assert_eq!(
        refusal("4k3/8/8/8/8/8/3p4/3QK3 w - - 0 1", "Qxd2"),
        "the explosion on d2 would destroy your own king"
    );
}

#[test]
fn kings_that_touch_cannot_give_check() {
    // The rook on d1 looks at the white king on d4, but the kings touch: no check.
    let pos = parse_fen(atomic(), "8/8/8/3k4/3K4/8/8/3r4 w - - 0 1").unwrap();
    assert!(!pos.is_check());
    // Stepping away from the black king walks into the rook's check: refused.
    assert!(parse_move(&pos, "Kc3").is_ok());
    assert_eq!(
        refusal("8/8/8/3k4/3K4/8/8/3r4 w - - 0 1", "Kd3"),
        "it would leave your king in check"
    );
    // The same position is impossible in standard chess (the kings touch).
    assert!(parse_fen(Variant::STANDARD, "8/8/8/3k4/3K4/8/8/3r4 w - - 0 1").is_err());
}

#[test]
fn en_passant_explodes_around_the_square_the_pawn_lands_on() {
    let mut g = game("8/8/8/2k5/3pP3/8/3N4/4K3 b - e3 0 1");
    play(&mut g, "dxe3");
    // The pawns of d4 and e4 are gone (taking and taken); the knight on d2, next to e3,
    // exploded; the white king on e1 is two squares away and stays.
    assert_eq!(to_fen(g.position()), "8/8/8/2k5/8/8/8/4K3 w - - 0 2");
    assert_eq!(
        g.outcome().map(|o| o.reason),
        Some(EndReason::InsufficientMaterial)
    );
}

#[test]
fn insufficient_material_as_lichess_decides_it() {
    let reason = |fen: &str| game(fen).outcome().map(|o| o.reason);
    let draw = Some(EndReason::InsufficientMaterial);
    // A bare king against king and rook, bishop, knight or two knights.
    assert_eq!(reason("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), draw);
    assert_eq!(reason("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), draw);
    assert_eq!(reason("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"), draw);
    // King and queen, or three knights, can still win.
    assert_eq!(reason("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), None);
    assert_eq!(reason("4k3/8/8/8/8/8/8/1NN1KN2 w - - 0 1"), None);
    // A bishop each on opposite colours draws; on the same colour it does not.
    assert_eq!(reason("3bk3/8/8/8/8/8/8/4KB2 w - - 0 1"), draw);
    assert_eq!(reason("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1"), None);
    // Pawns locked against each other, with the kings unable to take them.
    assert_eq!(reason("4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1"), draw);
    assert_eq!(reason("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"), None);
}

#[test]
fn a_timeout_draws_only_against_a_bare_king() {
    let o = game("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
        .timeout(Color::Black)
        .unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::Timeout)
    );
    let o = game("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
        .timeout(Color::White)
        .unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::TimeoutVsInsufficientMaterial)
    );
}

#[test]
fn a_game_won_by_an_explosion_is_stored_and_reloaded() {
    let setup = NewGame {
        fen: Some("4k3/4q3/8/8/8/8/4R3/4K3 w - - 0 1"),
        options: Default::default(),
        seed: 0,
        hidden_seed: None,
    };
    let mut game = SPEC.new_game(&setup).unwrap();
    game.apply(
        Seat(0),
        &Action::of(&ChessAction::Move("e2e7".into())).unwrap(),
    )
    .unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.result.as_str(), outcome.reason.name()),
        ("1-0", "king-exploded")
    );
    let snapshot = game.snapshot().unwrap();
    assert_eq!(snapshot["outcome"][0], "KingExploded");
    let back = SPEC.load(&snapshot).unwrap();
    assert_eq!(back.outcome(), Some(outcome));
    assert_eq!(back.snapshot().unwrap(), snapshot);
}
