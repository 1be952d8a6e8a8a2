//! Antichess: the move tree agrees with an independent implementation (shakmaty's), and
//! each rule of `docs/rules/antichess.md` plays as written.

use super::*;
use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::{parse_move, san, MoveError};
use crate::rules::{perft, Color, EndReason, Game, GameResult};
use crate::variants::api::{Action, NewGame, Seat, VariantSpec};
use crate::variants::chess::ChessAction;

fn anti() -> Variant {
    Variant::of(&CONFIG)
}

fn game(fen: &str) -> Game {
    Game::from_position(parse_fen(anti(), fen).unwrap())
}

fn play(game: &mut Game, typed: &str) {
    let m = parse_move(game.position(), typed).unwrap_or_else(|e| panic!("{typed}: {e}"));
    game.play(m).unwrap();
}

/// Perft of `fen` to `depth` by shakmaty's Antichess.
fn shakmaty_perft(fen: &str, depth: u32) -> u64 {
    use shakmaty::fen::Fen;
    use shakmaty::variant::Antichess;
    use shakmaty::CastlingMode;
    let setup: Fen = fen.parse().unwrap();
    let pos: Antichess = setup.into_position(CastlingMode::Standard).unwrap();
    shakmaty::perft(&pos, depth)
}

#[test]
fn perft_agrees_with_shakmaty() {
    let cases: [(&str, u32); 16] = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", 4),
        // Random play from the start (python-chess, seeds 1 to 4).
        ("1nbqkbnr/2pp2pp/5p2/8/5p2/7P/RPPPP1P1/2BQKBNR w - - 0 7", 4),
        (
            "r1b1k3/p1ppnp2/1p2p3/7r/PP6/4P3/2PP1KP1/R1B2B2 w - - 0 13",
            4,
        ),
        ("r3k3/p4p2/b2P4/P7/8/2P4r/1B1P2P1/RN4R1 w - - 1 19", 5),
        ("r5nr/n4p1p/3k4/p2p1PP1/8/b2P1P1P/8/4K3 w - - 1 26", 4),
        // A forced en-passant capture, and one alone on the board.
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w - f6 0 3",
            4,
        ),
        ("8/8/8/3pP3/8/8/8/8 w - d6 0 1", 5),
        // Promotions, to a king too, quiet and capturing.
        ("8/1P6/8/8/8/8/6p1/8 w - - 0 1", 5),
        ("1n6/P7/8/8/8/8/7p/6N1 w - - 0 1", 4),
        // No kings, and two kings a side.
        ("4r3/8/8/8/8/8/8/4R3 w - - 0 1", 5),
        ("K6K/8/8/8/8/8/8/k6k w - - 0 1", 5),
        ("8/2k5/8/8/8/8/5K2/8 b - - 0 1", 5),
        // Bishops and knights that must or cannot meet.
        ("8/8/8/8/8/2b5/8/4B3 w - - 0 1", 5),
        ("8/8/8/4n3/8/8/8/1N6 w - - 0 1", 5),
        // The side to move has no piece: the game is over, no move.
        ("8/8/8/8/8/8/P7/8 b - - 0 1", 2),
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1", 4),
    ];
    for (fen, depth) in cases {
        let pos = parse_fen(anti(), fen).unwrap();
        assert_eq!(to_fen(&pos), fen, "written back as python-chess writes it");
        assert_eq!(
            perft(&pos, depth),
            shakmaty_perft(fen, depth),
            "{fen} depth {depth}"
        );
    }
}

#[test]
fn a_capture_is_compulsory_and_a_quiet_move_is_refused_saying_so() {
    let pos = parse_fen(
        anti(),
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2",
    )
    .unwrap();
    let legal = pos.legal_moves();
    assert_eq!(legal.len(), 1);
    assert_eq!(san(&pos, legal[0]), "exd5");
    match parse_move(&pos, "Nf3") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert_eq!(reason, "a capture is compulsory: you must play exd5")
        }
        other => panic!("{other:?}"),
    }
    // With several captures, some are named.
    let pos = parse_fen(anti(), "8/8/8/2p1p3/3P4/8/8/8 w - - 0 1").unwrap();
    match parse_move(&pos, "d5") {
        Err(MoveError::Illegal { reason, .. }) => assert_eq!(
            reason,
            "a capture is compulsory: you must take with one of dxc5, dxe5"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_king_is_an_ordinary_piece_captured_without_ending_the_game() {
    // The rook takes the king; Black plays on with its rook, and no move gives check.
    let mut g = game("4k3/8/8/8/8/8/r7/4R3 w - - 0 1");
    play(&mut g, "Rxe8");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.position().pieces(Color::Black, Role::King).count(), 0);
    assert!(!g.position().is_check());
    // There is no castling, and the king may walk into any attack.
    let pos = parse_fen(anti(), "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap();
    assert!(parse_fen(anti(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").is_err());
    match parse_move(&pos, "O-O") {
        Err(MoveError::Illegal { reason, .. }) => {
            assert_eq!(reason, "there is no castling in Antichess")
        }
        other => panic!("{other:?}"),
    }
    let pos = parse_fen(anti(), "3r4/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert!(parse_move(&pos, "Kd1").is_ok());
}

#[test]
fn a_pawn_promotes_to_a_king_written_k() {
    let pos = parse_fen(anti(), "8/1P6/8/8/8/8/8/7r w - - 0 1").unwrap();
    let m = parse_move(&pos, "b8=K").unwrap();
    assert_eq!(m.promotion, Some(Role::King));
    assert_eq!(san(&pos, m), "b8=K");
    let after = pos.after(m);
    assert_eq!(after.pieces(Color::White, Role::King).count(), 1);
}

#[test]
fn kingless_and_many_king_positions_are_valid_only_here() {
    for fen in [
        "4r3/8/8/8/8/8/8/4R3 w - - 0 1",
        "K6K/8/8/8/8/8/8/k6k w - - 0 1",
    ] {
        assert!(parse_fen(anti(), fen).is_ok(), "{fen}");
        assert!(parse_fen(Variant::STANDARD, fen).is_err(), "{fen}");
    }
}

#[test]
fn losing_the_last_piece_wins() {
    // Black's last piece must take White's last piece, which leaves White none: White wins.
    let mut g = game("8/8/8/8/8/8/1p6/2R5 b - - 0 1");
    let m = parse_move(g.position(), "bxc1=Q").unwrap();
    assert_eq!(san(g.position(), m), "bxc1=Q#");
    g.play(m).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::AllPiecesLost)
    );
}

#[test]
fn being_stalemated_wins() {
    // White's pawn is blocked and White has nothing else: no legal move, White wins.
    let mut g = game("8/8/8/8/p7/8/P7/8 b - - 0 1");
    play(&mut g, "a3");
    assert_eq!(g.legal_moves().len(), 0);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::Stalemated)
    );
}

#[test]
fn bishops_of_opposite_colours_that_can_never_meet_draw() {
    // White's bishop on light squares, Black's on dark: neither can ever be taken.
    let g = game("8/8/8/8/8/8/8/2b2B2 w - - 0 1");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::InsufficientMaterial)
    );
    // Same-coloured bishops can meet: play goes on.
    assert_eq!(game("8/8/8/8/8/8/8/1b3B2 w - - 0 1").outcome(), None);
    // Blocked pawns out of the bishops' reach keep the draw; a pawn that can move does not.
    let blocked = game("8/8/8/4p3/4P3/8/8/2b2B2 w - - 0 1");
    assert_eq!(
        blocked.outcome().map(|o| o.reason),
        Some(EndReason::InsufficientMaterial)
    );
    assert_eq!(game("8/8/8/8/4P3/8/8/2b2B2 w - - 0 1").outcome(), None);
}

#[test]
fn a_timeout_with_one_knight_each_draws_for_the_side_that_cannot_win() {
    // Knights on squares of one colour: only the side to move can win. White to move
    // runs out of time: Black could never win, so it is a draw.
    let same = "8/8/8/8/4n3/8/8/1N6 w - - 0 1";
    let o = game(same).timeout(Color::White).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::TimeoutVsInsufficientMaterial)
    );
    // Knights on squares of different colours: the side not to move can win.
    let different = "8/8/8/4n3/8/8/8/1N6 w - - 0 1";
    let o = game(different).timeout(Color::White).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::BlackWins, EndReason::Timeout)
    );
    // Anything else: the timeout loses.
    let o = Game::new(anti()).timeout(Color::White).unwrap();
    assert_eq!(o.reason, EndReason::Timeout);
}

#[test]
fn a_game_won_by_losing_everything_is_stored_and_reloaded() {
    let setup = NewGame {
        fen: Some("8/8/8/8/8/8/1p6/2R5 b - - 0 1"),
        options: Default::default(),
        seed: 0,
        hidden_seed: None,
    };
    let mut game = SPEC.new_game(&setup).unwrap();
    game.apply(
        Seat(1),
        &Action::of(&ChessAction::Move("b2c1k".into())).unwrap(),
    )
    .unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(
        (outcome.result.as_str(), outcome.reason.name()),
        ("1-0", "all-pieces-lost")
    );
    let snapshot = game.snapshot().unwrap();
    assert_eq!(snapshot["outcome"][0], "AllPiecesLost");
    let back = SPEC.load(&snapshot).unwrap();
    assert_eq!(back.outcome(), Some(outcome));
    assert_eq!(back.snapshot().unwrap(), snapshot);
}
