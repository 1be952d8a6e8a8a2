//! Chess# (rules 2-12 of the seed): one test per rule of docs/rules/chess-sharp.md.

use crate::common;
use common::*;
use postal::rules::{Claim, ClaimError, Color, EndReason, Game, GameResult, Position, Variant};

const V: Variant = Variant::CHESS_SHARP;

#[test]
fn game_starts_with_only_pawns_on_the_board_and_the_rest_in_reserve() {
    let p = Position::start(V);
    assert_eq!(p.occupied().count(), 16);
    assert_eq!(p.by_role(postal::rules::Role::Pawn).count(), 16);
    for c in Color::ALL {
        assert_eq!(p.reserve(c), &[0, 2, 2, 2, 1, 1]);
    }
}

#[test]
fn pieces_move_only_after_the_king_is_placed() {
    let p = Position::start(V);
    assert!(!legal(&p, "e2e3"), "pawns wait for the king");
    assert!(p.legal_moves().iter().all(|m| m.is_drop()));
    let mut g = Game::new(V);
    play(&mut g, "K@g1 R@a8");
    assert!(legal(g.position(), "e2e3"));
    assert!(
        !legal(&g.position().after(mv(g.position(), "e2e3")), "e7e6"),
        "Black's king is still in reserve"
    );
}

#[test]
fn drops_go_on_empty_squares_of_the_own_first_rank() {
    let p = Position::start(V);
    assert_eq!(
        p.legal_moves().len(),
        32,
        "4 roles x 8 squares (the queen waits)"
    );
    assert!(!legal(&p, "N@d3"));
    assert!(!legal(&p, "N@d8"));
    let mut g = Game::new(V);
    play(&mut g, "N@d1");
    assert!(legal(g.position(), "N@d8"));
    assert!(!legal(g.position(), "N@d1"));
    play(&mut g, "N@d8");
    assert!(!legal(g.position(), "K@d1"), "d1 is occupied");
}

#[test]
fn queen_is_placed_last() {
    let p = pos(
        V,
        "8/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[Qkqrrbbnn] w - - 0 1",
    );
    assert!(legal(&p, "Q@d1"), "the queen is the only piece left");
    let p = pos(
        V,
        "8/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBN1[QRkqrrbbnn] w - - 0 1",
    );
    assert!(!legal(&p, "Q@d1"));
    assert!(legal(&p, "R@d1"));
}

#[test]
fn king_may_be_placed_on_an_attacked_square_and_pieces_may_give_check_when_placed() {
    let p = pos(
        V,
        "4r3/pppp1ppp/8/8/8/8/PPPP1PPP/8[KQRRBBNNkqrbbnn] w - - 0 1",
    );
    assert!(legal(&p, "K@e1"));
    let p = pos(
        V,
        "4k3/pppp1ppp/8/8/8/8/PPPP1PPP/4K3[QRRBBNNqrrbbnn] w - - 0 1",
    );
    assert!(legal(&p, "R@e1") || legal(&p, "R@a1"));
}

#[test]
fn check_does_not_restrict_moves() {
    // The white rook on e2 is pinned by the black rook on e8, and the king may walk into check.
    let p = pos(V, "4r2k/8/8/8/8/8/4R3/4K3[] w - - 0 1");
    assert!(legal(&p, "e2a2"), "a pinned piece may move away");
    let p = pos(V, "3r3k/8/8/8/8/8/8/4K3[] w - - 0 1");
    assert!(legal(&p, "e1d2"), "the king may move into check");
}

#[test]
fn capturing_the_king_wins_ten_to_nil() {
    let mut g = game(V, "4r2k/8/8/8/8/8/4R3/4K3[] w - - 0 1");
    play(&mut g, "e2a2 e8e1");
    let o = g.outcome().expect("the king is captured");
    assert_eq!(
        (o.result, o.reason, o.score),
        (
            GameResult::BlackWins,
            EndReason::KingCaptured,
            Some([0, 10])
        )
    );
    assert!(g.legal_moves().is_empty());
}

#[test]
fn no_castling() {
    let p = pos(V, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[] w - - 0 1");
    assert!(!legal(&p, "e1g1") && !legal(&p, "e1c1"));
    assert!(postal::notation::fen::parse_fen(
        V,
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[] w KQkq - 0 1"
    )
    .is_err());
}

#[test]
fn pawns_move_one_square_only() {
    let p = pos(V, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[] w - - 0 1");
    assert!(legal(&p, "e2e3"));
    assert!(!legal(&p, "e2e4"));
    assert!(
        postal::notation::fen::parse_fen(V, "4k3/pppp1ppp/8/8/4p3/8/PPPPPPPP/4K3[] w - e6 0 1")
            .is_err(),
        "no en passant"
    );
}

#[test]
fn promotion_is_to_queen_only() {
    let p = pos(V, "7k/P7/8/8/8/8/8/4K3[] w - - 0 1");
    assert!(legal(&p, "a7a8q"));
    for r in ["r", "b", "n"] {
        assert!(!legal(&p, &format!("a7a8{r}")));
    }
}

#[test]
fn seed_example_opening_is_legal() {
    let mut g = Game::new(V);
    play(
        &mut g,
        "B@a1 K@a8 R@b1 e7e6 B@c1 e6e5 N@d1 R@e8 N@e1 e8e7 R@f1 R@e8",
    );
    assert!(!g.is_over());
    assert_eq!(g.moves().len(), 12);
}

#[test]
fn stalemate_claim_is_valid_when_every_move_leaves_the_king_attacked() {
    // White: Ka1, pawn a2 blocked by a3; Black's rook on b8 covers b1 and b2.
    let mut g = game(V, "1r5k/8/8/8/8/p7/P7/K7[] w - - 0 1");
    let o = g.claim(Color::White, Claim::Stalemate, None).unwrap();
    assert_eq!(
        (o.result, o.reason, o.score),
        (
            GameResult::BlackWins,
            EndReason::StalemateClaim,
            Some([2, 8])
        )
    );
}

#[test]
fn stalemate_claim_is_refused_when_a_safe_move_exists_and_changes_nothing() {
    let mut g = game(V, "1r5k/8/8/8/8/p7/P7/K6R[] w - - 0 1");
    let err = g.claim(Color::White, Claim::Stalemate, None).unwrap_err();
    assert!(matches!(err, ClaimError::SafeMoveExists(_)), "{err}");
    assert!(!g.is_over());
    assert_eq!(g.moves().len(), 0);
}

#[test]
fn stalemate_claim_is_refused_when_the_king_is_attacked() {
    let mut g = game(V, "r6k/8/8/8/8/8/8/K7[] w - - 0 1");
    let err = g.claim(Color::White, Claim::Stalemate, None).unwrap_err();
    assert!(err.to_string().contains("attacked"));
}

#[test]
fn stalemate_claim_is_refused_before_the_king_is_placed_and_out_of_turn() {
    let mut g = Game::new(V);
    assert!(g
        .claim(Color::White, Claim::Stalemate, None)
        .unwrap_err()
        .to_string()
        .contains("not on the board"));
    assert_eq!(
        g.claim(Color::Black, Claim::Stalemate, None),
        Err(ClaimError::NotYourTurn)
    );
}

#[test]
fn stalemate_claim_by_black_scores_eight_to_two() {
    let mut g = game(V, "k7/p7/P7/8/8/8/8/1R5K[] b - - 0 1");
    let o = g.claim(Color::Black, Claim::Stalemate, None).unwrap();
    assert_eq!(o.score, Some([8, 2]));
    assert_eq!(o.result, GameResult::WhiteWins);
}

#[test]
fn a_player_with_no_move_at_all_is_stalemated_automatically() {
    let g = game(V, "k7/8/8/8/8/8/8/rrrrrrrr[K] w - - 0 1");
    let o = g.outcome().expect("White cannot place the king anywhere");
    assert_eq!(
        (o.reason, o.score),
        (EndReason::StalemateClaim, Some([2, 8]))
    );
}

#[test]
fn impasse_is_automatic_after_fifty_moves_each_without_pawn_move_or_capture() {
    let mut g = game(V, "k7/8/8/8/8/8/8/K6R[] w - - 99 60");
    assert!(!g.is_over());
    play(&mut g, "h1h2");
    let o = g.outcome().unwrap();
    assert_eq!((o.reason, o.score), (EndReason::Impasse, Some([7, 3])));
}

#[test]
fn drops_do_not_reset_the_impasse_count() {
    let mut g = game(V, "k7/8/8/8/8/8/8/K7[Nn] w - - 99 60");
    play(&mut g, "N@b1");
    assert_eq!(g.outcome().unwrap().reason, EndReason::Impasse);
}

#[test]
fn pawn_moves_and_captures_reset_the_impasse_count() {
    let mut g = game(V, "k7/7p/8/8/8/8/P7/K6R[] w - - 98 60");
    play(&mut g, "a2a3");
    assert_eq!(g.position().halfmoves(), 0);
    play(&mut g, "h7h6 h1h6");
    assert_eq!(g.position().halfmoves(), 0);
}

#[test]
fn impasse_claim_says_how_many_moves_remain() {
    let mut g = game(V, "k7/8/8/8/8/8/8/K6R[] w - - 60 60");
    let err = g.claim(Color::White, Claim::Impasse, None).unwrap_err();
    assert!(err.to_string().contains("40 more plies"), "{err}");
}

#[test]
fn impasse_scoring_counts_material_on_the_board_only() {
    let mut equal = game(V, "k7/8/8/8/8/8/8/K7[Q] w - - 0 1");
    assert_eq!(
        equal.agree_to_end().unwrap().score,
        Some([4, 6]),
        "the reserve queen does not count"
    );
    let mut black_more = game(V, "kn6/8/8/8/8/8/P7/K7[] w - - 0 1");
    assert_eq!(black_more.agree_to_end().unwrap().score, Some([3, 7]));
    let mut white_more = game(V, "k7/8/8/8/8/8/P7/K7[] w - - 0 1");
    assert_eq!(white_more.agree_to_end().unwrap().score, Some([7, 3]));
}

#[test]
fn material_values_are_one_three_three_five_nine() {
    let p = pos(V, "k7/8/8/8/8/8/PNBRQ3/K7[] w - - 0 1");
    assert_eq!(p.material(Color::White), 1 + 3 + 3 + 5 + 9);
}

#[test]
fn fast_fifty_is_an_impasse_by_agreement() {
    let mut g = Game::new(V);
    let o = g.agree_to_end().unwrap();
    assert_eq!(
        (o.reason, o.score, o.result),
        (EndReason::FastFifty, Some([4, 6]), GameResult::BlackWins)
    );
}

#[test]
fn resignation_and_timeout_score_ten_to_nil() {
    let mut g = Game::new(V);
    assert_eq!(g.resign(Color::White).unwrap().score, Some([0, 10]));
    let mut g = game(V, "k7/8/8/8/8/8/8/K7[] w - - 0 1");
    let o = g.timeout(Color::Black).unwrap();
    assert_eq!(
        (o.reason, o.score),
        (EndReason::Timeout, Some([10, 0])),
        "no insufficient-material draw in Chess#"
    );
}

#[test]
fn there_are_no_draws() {
    let mut g = game(V, "k7/8/8/8/8/8/8/K7[] w - - 0 1");
    assert!(!g.is_over(), "bare kings are not a dead draw");
    assert!(matches!(
        g.claim(Color::White, Claim::ThreefoldRepetition, None),
        Err(ClaimError::NotInVariant(_))
    ));
    assert!(matches!(
        g.claim(Color::White, Claim::FiftyMoveRule, None),
        Err(ClaimError::NotInVariant(_))
    ));
    for _ in 0..5 {
        play(&mut g, "a1a2 a8a7 a2a1 a7a8");
    }
    assert!(!g.is_over(), "no repetition rule");
}

/// Why no engine analyses Chess# (docs/rules/implementation/chess-sharp.md): Debian's
/// Fairy-Stockfish 11.1, taught Chess# through `VariantPath` with the golden data's
/// variant file, generates at the start moves Chess# forbids (a pawn moving before the
/// king is in, the queen dropped first), so its evaluations are of another game.
#[test]
fn fairy_stockfish_taught_chess_sharp_plays_moves_chess_sharp_forbids() {
    use std::io::Write;
    let engine = std::path::Path::new("/usr/games/fairy-stockfish");
    assert!(engine.is_file(), "apt-get install fairy-stockfish");
    let ini = common::root().join("tools/golden/chess_sharp.ini");
    let start = "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1";
    let mut child = std::process::Command::new(engine)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!(
        "uci\nsetoption name VariantPath value {}\nsetoption name UCI_Variant value chesssharp\nisready\nposition fen {start}\ngo perft 1\nquit\n",
        ini.display()
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let engine_moves: Vec<&str> = text.lines().filter_map(|l| l.strip_suffix(": 1")).collect();
    assert!(engine_moves.len() > 20, "{text}");
    let p = pos(V, start);
    for forbidden in ["e2e3", "Q@d1"] {
        assert!(engine_moves.contains(&forbidden), "{text}");
        assert!(!legal(&p, forbidden), "{forbidden}");
    }
}
