//! Horde: the move tree agrees with shakmaty's, and each rule of `docs/rules/horde.md`
//! plays as written: the kingless horde, its first-rank double steps, Black's win by
//! taking everything, the fortress draw and Lichess's timeout table.

use super::*;
use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::parse_move;
use crate::rules::{
    EndReason, EndValue, Endings, Extinction, Game, GameResult, Position, Role, VariantConfig,
    FIDE_CHESS, FIDE_ENDINGS,
};
use crate::variants::shakmaty_perft::assert_perft_agrees;

fn horde() -> Variant {
    Variant::of(&CONFIG)
}

fn game(fen: &str) -> Game {
    Game::from_position(parse_fen(horde(), fen).unwrap())
}

fn play(game: &mut Game, san: &str) {
    let m = parse_move(game.position(), san).unwrap_or_else(|e| panic!("{san}: {e}"));
    game.play(m).unwrap();
}

#[test]
fn perft_agrees_with_shakmaty() {
    assert_perft_agrees::<shakmaty::variant::Horde>(
        horde(),
        &[
            (
                "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
                4,
            ),
            (
                "3q1b1r/2pkp1p1/Pr3P1p/P2PPP2/1P3PPP/PpPPPPPP/PPPPPPP1/PPPPPPPP w - - 0 14",
                3,
            ),
            (
                "2q2b2/1rp1pk2/Pp1p1r2/3PPP2/PPP2PPQ/PPPPP1PP/PPPPPP2/PPPPPPPP b - - 0 22",
                3,
            ),
            (
                "rn1qk3/p4p1r/2ppBb2/1PPPPP1P/PPP1P1PP/1PPP1PPP/PPPPPP1P/PPPPPPPP b q - 0 14",
                3,
            ),
            (
                "rnbqkbnr/p1pppp2/6Pp/pPP2PP1/PPPPPPPP/1PPPPPP1/PPPPPPPP/PPPPPPPP b kq - 0 5",
                3,
            ),
            (
                "3k2R1/rp5B/p1n1PP2/P1P1p1b1/1PP3P1/PPPPPPPP/PPPPPPPP/PPPPPPPP b - - 0 18",
                3,
            ),
            (
                "rnb2b1r/1p1kpp1p/pP3PPn/2PpPPP1/qP4PP/PPPPPPPP/PPPPPPP1/PPPPPPPP w - - 0 12",
                3,
            ),
            (
                "1r2bk2/p4p1p/p1Q2PrP/P4PpP/P2PP2P/PPPPPPP1/1PP1PPPP/PPPPPPPP w - - 1 24",
                3,
            ),
            (
                "1n3bnr/1Bk3p1/Pq1p1pP1/P1PPpP1p/PPPPPPPP/1PPPPP1P/1PP1PPPP/PP1PPPPP b - - 2 20",
                3,
            ),
            (
                "rnbqk1nr/pppp2pp/2P1pp2/1PP2PPP/PP1PPPP1/1PPPPPPP/PPPPPPPP/PPPPPPPP b kq - 0 4",
                3,
            ),
            // First-rank pawns with room to step two squares, and en passant after a
            // second-rank double step.
            ("4k3/8/8/8/8/8/8/P1P1P1P1 w - - 0 1", 4),
            ("4k3/8/8/8/1p6/8/P1P5/P7 w - - 0 1", 4),
            ("4k3/8/8/8/pP6/8/8/8 b - b3 0 1", 3),
            // A few pieces left for the horde; Black about to take the last one.
            ("4k3/8/8/8/8/8/3q4/3N4 b - - 0 1", 3),
            ("r3k2r/8/8/8/8/8/8/1Q1N4 b kq - 0 1", 3),
            ("4k3/4P3/8/8/8/8/8/8 w - - 0 1", 4),
        ],
    );
}

#[test]
fn the_horde_steps_two_from_its_first_rank_without_en_passant() {
    let mut g = game("4k3/8/8/8/8/1p6/8/P1P5 w - - 0 1");
    play(&mut g, "c3");
    // No en-passant square is opened by a first-rank double step.
    assert!(
        to_fen(g.position()).ends_with(" b - - 0 1"),
        "{}",
        to_fen(g.position())
    );
    assert!(parse_move(g.position(), "bxc2").is_err());
    // The start has no white king, and no king may be added.
    assert!(parse_fen(horde(), "4k3/8/8/8/8/8/8/P3K3 w - - 0 1").is_err());
}

#[test]
fn taking_the_last_white_piece_wins_for_black() {
    let mut g = game("4k3/8/8/8/8/8/3q4/3N4 b - - 0 1");
    play(&mut g, "Qxd1");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::BlackWins, EndReason::AllPiecesCaptured)
    );
}

#[test]
fn the_horde_wins_by_checkmate() {
    let mut g = game("k7/8/1Q6/8/8/8/8/2R5 w - - 0 1");
    play(&mut g, "Rc8#");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::Checkmate)
    );
}

#[test]
fn a_fortress_is_drawn_at_once() {
    // The horde's pawn is blocked and Black's king can only shuffle: whatever Black
    // plays, the horde cannot move.
    let g = game("8/8/8/8/8/p7/P7/k7 w - - 0 1");
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.outcome().unwrap().reason, EndReason::Stalemate);
    // Black to move, but no black move frees the pawn: drawn at once (Lichess looks
    // one move ahead).
    let g = game("7k/8/8/8/8/p7/P7/8 b - - 0 1");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::InsufficientMaterial)
    );
    // A pawn that can still move is no fortress.
    let g = game("7k/8/8/8/8/p7/P7/1P6 b - - 0 1");
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_horde_that_en_passant_can_take_is_no_fortress() {
    // Issue 56: after 1. e4 the horde cannot move, and every black move but one leaves
    // it stuck; but dxe3 (en passant) is not a king move, so Lichess plays on, and it
    // takes the last white piece.
    let mut g = game("7k/8/8/4p3/3p4/8/4P3/8 w - - 0 1");
    play(&mut g, "e4");
    assert_eq!(g.outcome(), None);
    play(&mut g, "dxe3");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::BlackWins, EndReason::AllPiecesCaptured)
    );
}

#[test]
fn taking_the_last_white_piece_is_written_with_a_hash() {
    let g = game("8/8/8/8/8/1P6/2k5/8 b - - 0 1");
    let m = parse_move(g.position(), "Kxb3").unwrap();
    assert_eq!(crate::notation::san(g.position(), m), "Kxb3#");
}

#[test]
fn a_rook_that_can_move_keeps_the_game_going_until_the_horde_is_stalemated() {
    // Issue 56: the horde's pawns are blocked, but Black's rook can move, so Lichess
    // does not draw at once; the draw comes a ply later, by stalemate.
    let mut g = game("8/8/8/8/p6p/P6P/8/r6k b - - 0 1");
    assert_eq!(g.outcome(), None);
    play(&mut g, "Rb1");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::Stalemate)
    );
}

#[test]
fn a_horde_stuck_only_while_black_can_move_a_piece_other_than_the_king_plays_on() {
    // The same blocked pawn, but Black has a second pawn that can move (b2): however
    // little it changes, it is not a king move, so Lichess plays on.
    let g = game("7k/8/8/8/8/p7/P7/8 b - - 0 1");
    assert_eq!(g.outcome().unwrap().reason, EndReason::InsufficientMaterial);
    let g = game("7k/8/8/8/8/pp6/P7/8 b - - 0 1");
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_timeout_draws_only_where_the_side_left_could_never_win() {
    // Black, with its king, can always take the horde: White's timeout loses.
    let mut g = game("4k3/8/8/8/8/8/8/N7 w - - 0 1");
    let o = g.timeout(crate::rules::Color::White).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::BlackWins, EndReason::Timeout)
    );
    // A lone knight cannot mate a lone king: Black's timeout draws.
    let mut g = game("4k3/8/8/8/8/8/8/N7 b - - 0 1");
    let o = g.timeout(crate::rules::Color::Black).unwrap();
    assert_eq!(o.reason, EndReason::TimeoutVsInsufficientMaterial);
    // Two pawns can promote and mate: Black's timeout loses.
    let mut g = game("4k3/8/8/8/8/8/PP6/8 b - - 0 1");
    let o = g.timeout(crate::rules::Color::Black).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::Timeout)
    );
}

#[test]
fn lichess_timeout_table_cases() {
    use crate::rules::Color::White;
    let could = |fen: &str| {
        let pos: Position = parse_fen(horde(), fen).unwrap();
        crate::rules::game::could_win(&pos, White)
    };
    // A lone queen mates only with Black's own pieces boxing the king in.
    assert!(!could("4k3/8/8/8/8/8/8/Q7 b - - 0 1"));
    assert!(could("4k3/4p3/8/8/8/8/8/Q7 b - - 0 1"));
    // Two knights mate only a king obstructed by a minor piece or pawn.
    assert!(!could("4k3/8/8/8/8/8/8/NN6 b - - 0 1"));
    assert!(could("4k3/4n3/8/8/8/8/8/NN6 b - - 0 1"));
    // Four pieces always could.
    assert!(could("4k3/8/8/8/8/8/8/NNNN4 b - - 0 1"));
}

/// Extinction chess, a throw-away variant made of configuration alone: the king is an
/// ordinary piece, and a side that loses every piece of any one kind loses.
static EXTINCTION: VariantConfig = VariantConfig {
    id: "extinction-test",
    display_name: "Extinction chess",
    king_rule: crate::rules::KingRule::Ordinary,
    endings: Endings {
        extinction: Some(Extinction {
            roles: &Role::ALL,
            value: EndValue::Loss,
        }),
        ..FIDE_ENDINGS
    },
    promotion: &[
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
    ],
    check_marks: false,
    uci_variant: None,
    opening_names: false,
    ..FIDE_CHESS
};

#[test]
fn an_extinction_made_of_configuration_ends_when_a_kind_is_gone() {
    let extinction = Variant::of(&EXTINCTION);
    let fen = "rnbqk3/7p/N4n2/4P3/8/8/8/RNBQK3 w - - 0 1";
    let mut g = Game::from_position(parse_fen(extinction, fen).unwrap());
    g.play(parse_move(g.position(), "exf6").unwrap()).unwrap();
    assert!(g.outcome().is_none(), "Black still has a knight on b8");
    g.play(parse_move(g.position(), "h6").unwrap()).unwrap();
    g.play(parse_move(g.position(), "Nxb8").unwrap()).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::KindExtinct)
    );
    assert_eq!(o.reason.words(), "the extinction of a kind of piece");
    assert!(g.legal_moves().is_empty());
}
