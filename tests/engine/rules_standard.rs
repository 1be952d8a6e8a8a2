//! Standard chess (FIDE): one test per rule of docs/rules/standard.md.

use crate::common;
use common::*;
use postal::rules::{Claim, ClaimError, Color, EndReason, Game, GameResult, Variant};

const V: Variant = Variant::STANDARD;

#[test]
fn start_position_has_twenty_moves() {
    assert_eq!(postal::rules::Position::start(V).legal_moves().len(), 20);
}

#[test]
fn castling_kingside_and_queenside_move_king_and_rook() {
    let p = pos(V, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let after = p.after(mv(&p, "e1g1"));
    assert_eq!(
        postal::notation::fen::board_fen(&after),
        "r3k2r/8/8/8/8/8/8/R4RK1"
    );
    let after = p.after(mv(&p, "e1c1"));
    assert_eq!(
        postal::notation::fen::board_fen(&after),
        "r3k2r/8/8/8/8/8/8/2KR3R"
    );
}

#[test]
fn castling_needs_the_right() {
    let p = pos(V, "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
    assert!(!legal(&p, "e1g1"));
    assert!(legal(&p, "e1c1"));
}

#[test]
fn castling_right_is_lost_when_king_or_rook_moves_or_rook_is_captured() {
    let mut g = game(V, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "h1h2 a8a7 h2h1 a7a8");
    assert!(!legal(g.position(), "e1g1"));
    assert!(legal(g.position(), "e1c1"));
    let mut g = game(V, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "e1d1 e8d8 d1e1 d8e8");
    assert!(!legal(g.position(), "e1g1") && !legal(g.position(), "e1c1"));
    let mut g = game(V, "r3k2r/8/1N6/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "b6a8");
    assert!(!legal(g.position(), "e8c8"));
    assert!(legal(g.position(), "e8g8"));
}

#[test]
fn castling_needs_empty_squares_between_king_and_rook() {
    let p = pos(V, "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1");
    assert!(!legal(&p, "e1g1"));
    assert!(!legal(&p, "e1c1"));
}

#[test]
fn castling_is_not_allowed_out_of_check() {
    let p = pos(V, "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
    assert!(!legal(&p, "e1g1") && !legal(&p, "e1c1"));
}

#[test]
fn castling_may_not_pass_through_or_land_on_an_attacked_square() {
    let through = pos(V, "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
    assert!(!legal(&through, "e1g1"));
    let onto = pos(V, "r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1");
    assert!(!legal(&onto, "e1g1"));
    // The b1 square may be attacked for queen-side castling: only the king's path counts.
    let b_file = pos(V, "r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1");
    assert!(legal(&b_file, "e1c1"));
}

#[test]
fn en_passant_captures_the_pawn_that_just_made_its_double_step() {
    let mut g = game(V, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut g, "d7d5");
    let m = mv(g.position(), "e5d6");
    let after = g.position().after(m);
    assert_eq!(
        postal::notation::fen::board_fen(&after),
        "4k3/8/3P4/8/8/8/8/4K3"
    );
}

#[test]
fn en_passant_is_only_possible_immediately() {
    let mut g = game(V, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut g, "d7d5 e1e2 e8e7");
    assert!(!legal(g.position(), "e5d6"));
}

#[test]
fn en_passant_that_exposes_the_king_on_the_rank_is_illegal() {
    let p = pos(V, "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1");
    assert!(!legal(&p, "e5d6"));
}

#[test]
fn promotion_offers_queen_rook_bishop_and_knight() {
    let p = pos(V, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for role in ["q", "r", "b", "n"] {
        assert!(legal(&p, &format!("a7a8{role}")), "{role}");
    }
    assert!(!legal(&p, "a7a8"));
    assert!(!legal(&p, "a7a8k"));
}

#[test]
fn check_must_be_answered() {
    let p = pos(V, "4k3/8/8/8/8/8/3PPP2/r3K3 w - - 0 1");
    let moves: Vec<String> = p.legal_moves().iter().map(|m| m.uci()).collect();
    assert!(p.is_check());
    assert!(moves.iter().all(|m| m.starts_with("e1")), "{moves:?}");
}

#[test]
fn pinned_piece_may_only_move_along_the_pin() {
    let p = pos(V, "4k3/4r3/8/8/8/4R3/8/4K3 w - - 0 1");
    assert!(legal(&p, "e3e7"));
    assert!(legal(&p, "e3e5"));
    assert!(!legal(&p, "e3d3"));
}

#[test]
fn king_may_not_move_into_check() {
    // The rook on d1 gives check along the rank; stepping back along that rank stays in check.
    let p = pos(V, "4k3/8/8/8/8/8/8/3rK3 w - - 0 1");
    assert!(legal(&p, "e1d1"), "the undefended rook may be captured");
    assert!(legal(&p, "e1e2"));
    assert!(!legal(&p, "e1f1"));
    // A defended piece may not be captured by the king.
    let p = pos(V, "3rk3/8/8/8/8/8/8/3rK3 w - - 0 1");
    assert!(!legal(&p, "e1d1"));
    assert!(!legal(&p, "e1d2"));
}

#[test]
fn checkmate_wins() {
    let mut g = Game::new(V);
    play(&mut g, "f2f3 e7e5 g2g4 d8h4");
    let o = g.outcome().expect("fool's mate ends the game");
    assert_eq!(o.result, GameResult::BlackWins);
    assert_eq!(o.reason, EndReason::Checkmate);
    assert!(o.score.is_none());
    assert!(g.legal_moves().is_empty());
}

#[test]
fn stalemate_is_a_draw() {
    let mut g = game(V, "7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    play(&mut g, "g6f7");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::Stalemate)
    );
}

#[test]
fn threefold_repetition_is_a_claim() {
    let mut g = Game::new(V);
    play(&mut g, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    // Black to move; playing f6g8 would make the start position appear a third time.
    assert_eq!(g.repetitions(), 2);
    assert!(!g.is_over());
    let err = g.claim(Color::Black, Claim::ThreefoldRepetition, None);
    assert!(matches!(err, Err(ClaimError::Invalid(_))));
    assert!(!g.is_over(), "an invalid claim changes nothing");
    play(&mut g, "f6g8");
    assert_eq!(g.repetitions(), 3);
    assert!(!g.is_over(), "threefold is not automatic");
    assert!(matches!(
        g.claim(Color::Black, Claim::ThreefoldRepetition, None),
        Err(ClaimError::NotYourTurn)
    ));
    let o = g
        .claim(Color::White, Claim::ThreefoldRepetition, None)
        .unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::ThreefoldRepetition)
    );
}

#[test]
fn threefold_repetition_may_be_claimed_with_the_intended_move() {
    let mut g = Game::new(V);
    play(&mut g, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    let m = mv(g.position(), "f6g8");
    let o = g
        .claim(Color::Black, Claim::ThreefoldRepetition, Some(m))
        .unwrap();
    assert_eq!(o.reason, EndReason::ThreefoldRepetition);
    assert_eq!(g.moves().len(), 8, "the intended move is played");
}

#[test]
fn repetition_counts_castling_rights_and_side_to_move() {
    // The king's trip loses the castling rights, so the position after returning differs.
    let mut g = game(V, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "e1f1 e8f8 f1e1 f8e8");
    assert_eq!(g.repetitions(), 1);
}

#[test]
fn fifty_move_rule_is_a_claim() {
    let mut g = game(V, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    let err = g.claim(Color::White, Claim::FiftyMoveRule, None);
    assert!(matches!(err, Err(ClaimError::Invalid(_))));
    play(&mut g, "a1a2");
    assert!(!g.is_over(), "the fifty-move rule is not automatic");
    let o = g.claim(Color::Black, Claim::FiftyMoveRule, None).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::FiftyMoveRule)
    );
}

#[test]
fn fifty_move_rule_may_be_claimed_with_the_intended_move() {
    let mut g = game(V, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    let m = mv(g.position(), "a1a2");
    let o = g
        .claim(Color::White, Claim::FiftyMoveRule, Some(m))
        .unwrap();
    assert_eq!(o.reason, EndReason::FiftyMoveRule);
    // A pawn move or capture as the intended move resets the count: no claim.
    let mut g = game(V, "4k3/8/8/8/8/8/P7/R3K3 w - - 99 80");
    let m = mv(g.position(), "a2a3");
    assert!(g
        .claim(Color::White, Claim::FiftyMoveRule, Some(m))
        .is_err());
    assert_eq!(g.moves().len(), 0);
}

#[test]
fn fivefold_repetition_ends_the_game_automatically() {
    let mut g = Game::new(V);
    for _ in 0..4 {
        play(&mut g, "g1f3 g8f6 f3g1 f6g8");
    }
    let o = g.outcome().expect("fifth occurrence ends the game");
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::FivefoldRepetition)
    );
}

#[test]
fn seventy_five_move_rule_ends_the_game_automatically() {
    let mut g = game(V, "4k3/8/8/8/8/8/8/R3K3 w - - 149 80");
    play(&mut g, "a1a2");
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::SeventyFiveMoveRule);
}

#[test]
fn checkmate_on_the_seventy_fifth_move_stands() {
    let mut g = game(V, "7k/8/6K1/8/8/8/8/R7 w - - 149 80");
    play(&mut g, "a1a8");
    assert_eq!(g.outcome().unwrap().reason, EndReason::Checkmate);
}

#[test]
fn insufficient_material_king_against_king() {
    let mut g = game(V, "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
    play(&mut g, "e1d2");
    assert_eq!(g.outcome().unwrap().reason, EndReason::InsufficientMaterial);
}

#[test]
fn insufficient_material_king_and_minor_against_king() {
    for fen in [
        "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3BK3 w - - 0 1",
        "3bk3/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        let g = game(V, fen);
        assert_eq!(
            g.outcome().map(|o| o.reason),
            Some(EndReason::InsufficientMaterial),
            "{fen}"
        );
    }
}

#[test]
fn insufficient_material_bishops_on_one_colour() {
    // c1 and f8 are both dark... c1 is dark, f8 is dark: same colour.
    let same = game(V, "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert_eq!(
        same.outcome().map(|o| o.reason),
        Some(EndReason::InsufficientMaterial)
    );
    let opposite = game(V, "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert!(opposite.outcome().is_none());
    let two_knights = game(V, "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1");
    assert!(
        two_knights.outcome().is_none(),
        "K+N+N is not automatically dead"
    );
}

#[test]
fn timeout_loses_unless_the_opponent_cannot_mate() {
    let mut g = Game::new(V);
    let o = g.timeout(Color::White).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::BlackWins, EndReason::Timeout)
    );
    let mut g = game(V, "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    let o = g.timeout(Color::White).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::TimeoutVsInsufficientMaterial)
    );
}

/// The result when `loser` runs out of time in `fen`.
fn timeout_result(fen: &str, loser: Color) -> (GameResult, EndReason) {
    let o = game(V, fen).timeout(loser).unwrap();
    (o.result, o.reason)
}

#[test]
fn timeout_against_a_side_that_could_be_helped_to_mate_loses() {
    let lost = |winner| match winner {
        Color::White => (GameResult::WhiteWins, EndReason::Timeout),
        Color::Black => (GameResult::BlackWins, EndReason::Timeout),
    };
    let drawn = (GameResult::Draw, EndReason::TimeoutVsInsufficientMaterial);
    // K+Q (White) against K+N (Black): the knight can mate, the queen blocking its own
    // king; the side with the queen who runs out of time loses, and so does the other.
    let q_vs_n = "4k1n1/8/8/8/8/8/8/Q3K3 w - - 0 1";
    assert_eq!(timeout_result(q_vs_n, Color::White), lost(Color::Black));
    assert_eq!(timeout_result(q_vs_n, Color::Black), lost(Color::White));
    // K+R against a bare king: the bare king can never mate.
    let r_vs_k = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    assert_eq!(timeout_result(r_vs_k, Color::White), drawn);
    assert_eq!(timeout_result(r_vs_k, Color::Black), lost(Color::White));
    // K+N against K+P, both ways: the pawn can promote, and it can block for the knight.
    let n_vs_p = "4k3/4p3/8/8/8/8/8/1N2K3 w - - 0 1";
    assert_eq!(timeout_result(n_vs_p, Color::White), lost(Color::Black));
    assert_eq!(timeout_result(n_vs_p, Color::Black), lost(Color::White));
    // K+B against K+N: the knight can shut the king in for the bishop, and the other way.
    let b_vs_n = "4k1n1/8/8/8/8/8/8/2B1K3 w - - 0 1";
    assert_eq!(timeout_result(b_vs_n, Color::White), lost(Color::Black));
    assert_eq!(timeout_result(b_vs_n, Color::Black), lost(Color::White));
    // K+N+N against a bare king: a mate exists (with the lone king's help).
    let nn_vs_k = "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1";
    assert_eq!(timeout_result(nn_vs_k, Color::Black), lost(Color::White));
    assert_eq!(timeout_result(nn_vs_k, Color::White), drawn);
}

#[test]
fn could_checkmate_is_false_only_where_no_mate_can_arise() {
    use postal::rules::game::could_checkmate;
    let can = |fen: &str, c| could_checkmate(&pos(V, fen), c);
    // A lone king, whatever the other side has.
    assert!(!can("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", Color::Black));
    // K+N against a bare king, but not against anything more.
    assert!(!can("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", Color::White));
    assert!(can("4k3/7p/8/8/8/8/8/1N2K3 w - - 0 1", Color::White));
    assert!(can("4k3/8/8/8/8/8/8/1N2K2q w - - 0 1", Color::White));
    // Bishops all on one colour, everywhere: dead (c1 and f8 are both dark).
    assert!(!can("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::White));
    assert!(!can("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::Black));
    // Opposite-coloured bishops (c1 dark, g8 light): a helpmate exists.
    assert!(can("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::White));
    // K+B against K+R: the rook can block its own king.
    assert!(can("4k2r/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::White));
}

#[test]
fn resignation_and_agreement_end_the_game() {
    let mut g = Game::new(V);
    assert_eq!(
        g.resign(Color::Black).unwrap().result,
        GameResult::WhiteWins
    );
    assert!(g
        .play(mv(&postal::rules::Position::start(V), "e2e4"))
        .is_err());
    let mut g = Game::new(V);
    let o = g.agree_to_end().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::Agreement)
    );
}

#[test]
fn stalemate_claim_does_not_exist_in_standard_chess() {
    let mut g = Game::new(V);
    assert!(matches!(
        g.claim(Color::White, Claim::Stalemate, None),
        Err(ClaimError::NotInVariant(_))
    ));
}
