//! Los Alamos chess: one test per rule of docs/rules/los-alamos.md.

use crate::common;
use common::*;
use postal::notation::fen::parse_fen;
use postal::rules::{Claim, Color, EndReason, Game, GameResult, Position, Role, Variant};

const V: Variant = Variant::LOS_ALAMOS;

#[test]
fn board_is_six_by_six_with_rnqknr_behind_six_pawns() {
    let p = Position::start(V);
    assert_eq!(p.occupied().count(), 24);
    assert_eq!(
        postal::notation::fen::board_fen(&p),
        "rnqknr/pppppp/6/6/PPPPPP/RNQKNR"
    );
    assert!(parse_fen(V, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1").is_err());
    // No move ever leaves the 6x6 board.
    let p = pos(V, "5k/6/6/6/6/R4K w - - 0 1");
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| m.to.file() < 6 && m.to.rank() < 6));
    assert_eq!(
        p.legal_moves()
            .iter()
            .filter(|m| m.role == Role::Rook)
            .count(),
        9
    );
}

#[test]
fn there_are_no_bishops() {
    assert!(parse_fen(V, "rnbknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1").is_err());
    let p = pos(V, "3k2/P5/6/6/6/3K2 w - - 0 1");
    assert!(!legal(&p, "a5a6b"));
}

#[test]
fn pawns_move_one_square_only() {
    let p = Position::start(V);
    assert!(legal(&p, "c2c3"));
    assert!(!legal(&p, "c2c4"));
}

#[test]
fn there_is_no_en_passant() {
    assert!(parse_fen(V, "rnqknr/pp1ppp/6/1Pp3/6/RNQKNR w - c5 0 1").is_err());
    let mut g = Game::new(V);
    play(&mut g, "b2b3 c5c4");
    assert_eq!(g.position().ep_square(), None);
    assert!(g
        .legal_moves()
        .iter()
        .all(|m| m.kind != postal::rules::MoveKind::EnPassant));
}

#[test]
fn there_is_no_castling() {
    let p = pos(V, "r2k1r/6/6/6/6/R2K1R w - - 0 1");
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| !matches!(m.kind, postal::rules::MoveKind::Castle(_))));
    assert!(parse_fen(V, "r2k1r/6/6/6/6/R2K1R w KQkq - 0 1").is_err());
}

#[test]
fn promotion_is_to_queen_rook_or_knight() {
    let p = pos(V, "3k2/P5/6/6/6/3K2 w - - 0 1");
    for (r, ok) in [("q", true), ("r", true), ("n", true), ("b", false)] {
        assert_eq!(legal(&p, &format!("a5a6{r}")), ok, "{r}");
    }
}

#[test]
fn checkmate_wins() {
    let mut g = game(V, "3k2/6/3K2/6/6/R5 w - - 0 1");
    play(&mut g, "a1a6");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::Checkmate)
    );
}

#[test]
fn check_must_be_answered() {
    let p = pos(V, "3k2/6/6/6/6/r2K2 w - - 0 1");
    assert!(p.is_check());
    assert!(p.legal_moves().iter().all(|m| m.role == Role::King));
}

#[test]
fn stalemate_is_a_draw() {
    let mut g = game(V, "5k/6/6/6/4Q1/K5 w - - 0 1");
    play(&mut g, "e2e4");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::Stalemate)
    );
}

#[test]
fn insufficient_material_king_and_knight_against_king() {
    let g = game(V, "5k/6/6/6/6/KN4 w - - 0 1");
    assert_eq!(
        g.outcome().map(|o| o.reason),
        Some(EndReason::InsufficientMaterial)
    );
}

#[test]
fn fide_draw_rules_apply() {
    let mut g = Game::new(V);
    play(&mut g, "b1c3 b6c4 c3b1 c4b6 b1c3 b6c4 c3b1 c4b6");
    let o = g
        .claim(Color::White, Claim::ThreefoldRepetition, None)
        .unwrap();
    assert_eq!(o.reason, EndReason::ThreefoldRepetition);
    let mut g = game(V, "5k/6/6/6/6/R4K w - - 149 90");
    play(&mut g, "a1a2");
    assert_eq!(g.outcome().unwrap().reason, EndReason::SeventyFiveMoveRule);
}
