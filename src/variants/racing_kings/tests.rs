//! Racing Kings: the move tree agrees with shakmaty's, and each rule of
//! `docs/rules/racing-kings.md` plays as written: no checks, the race to the eighth rank,
//! Black's reply that draws.

use super::*;
use crate::notation::fen::parse_fen;
use crate::notation::parse_move;
use crate::rules::{Color, EndReason, Game, GameResult};
use crate::variants::shakmaty_perft::assert_perft_agrees;

fn racing() -> Variant {
    Variant::of(&CONFIG)
}

fn game(fen: &str) -> Game {
    Game::from_position(parse_fen(racing(), fen).unwrap())
}

fn play(game: &mut Game, san: &str) {
    let m = parse_move(game.position(), san).unwrap_or_else(|e| panic!("{san}: {e}"));
    game.play(m).unwrap();
}

#[test]
fn perft_agrees_with_shakmaty() {
    assert_perft_agrees::<shakmaty::variant::RacingKings>(
        racing(),
        &[
            ("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", 4),
            ("8/2R5/6R1/1r6/3B4/4b3/k1b1NnBK/1r2N1Q1 w - - 1 14", 3),
            ("8/8/8/3n4/6RN/7B/krbnNBK1/qrb3RQ b - - 9 5", 3),
            ("6R1/8/6b1/4Rq2/2n5/1r2Q3/1k6/1rb1NBNK w - - 11 17", 3),
            ("8/8/2r1b2B/7N/7R/1n2qQ2/1k2B2K/4R3 w - - 5 26", 3),
            ("2r4Q/1r4N1/6R1/1B6/8/N3R3/5n2/k1b3K1 b - - 0 23", 3),
            ("8/6rN/8/8/4n1B1/B5NK/k2b1q2/1r1n3Q w - - 3 22", 3),
            ("8/1R6/6R1/2q5/1r6/4N3/k1bn1B1K/r1bnNB1Q b - - 13 7", 3),
            ("1B3R2/Q5R1/8/6q1/1k6/8/br2B2K/2r1N3 b - - 3 30", 3),
            ("8/8/8/8/2nB4/k7/1r1nN1RK/qrb1NBRQ b - - 4 7", 3),
            // Kings racing on the seventh: White arrives, Black may reply.
            ("8/1k4K1/8/8/8/8/8/8 w - - 0 1", 4),
            ("8/k6K/8/8/8/8/8/8 w - - 0 1", 4),
            // White has arrived; Black to move can reach the eighth rank or not.
            ("6K1/1k6/8/8/8/8/8/8 b - - 0 1", 3),
            ("6K1/8/1k6/8/8/8/8/8 b - - 0 1", 3),
            // Checks forbidden: the rook may not move onto the king's lines.
            ("8/8/8/3k4/8/8/8/R3K3 w - - 0 1", 3),
            ("8/8/2k5/8/8/4K3/3r4/8 w - - 0 1", 3),
        ],
    );
}

#[test]
fn a_move_may_not_give_check() {
    let g = game("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
    assert!(parse_move(g.position(), "Rd1").is_err());
    assert!(parse_move(g.position(), "Ra5").is_err());
    assert!(parse_move(g.position(), "Rc1").is_ok());
}

#[test]
fn the_first_king_home_wins_unless_black_arrives_on_the_next_move() {
    // White arrives and Black cannot follow: White wins after Black's move.
    let mut g = game("8/1k4K1/8/8/8/8/8/8 w - - 0 1");
    play(&mut g, "Kg8");
    assert_eq!(g.outcome(), None, "Black still has the move");
    play(&mut g, "Ka6");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::KingInGoal)
    );
    // When Black cannot reach the rank at all, White wins at once.
    let mut g = game("8/6K1/8/8/8/8/1k6/8 w - - 0 1");
    play(&mut g, "Kh8");
    assert_eq!(g.outcome().unwrap().result, GameResult::WhiteWins);
    // Black follows White: a draw.
    let mut g = game("8/1k4K1/8/8/8/8/8/8 w - - 0 1");
    play(&mut g, "Kg8");
    assert_eq!(g.outcome(), None);
    play(&mut g, "Kb8");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::BothKingsInGoal)
    );
    // Black arriving first wins at once.
    let mut g = game("8/1k6/8/8/8/8/6K1/8 b - - 0 1");
    play(&mut g, "Kc8");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::BlackWins, EndReason::KingInGoal)
    );
}

#[test]
fn a_move_that_wins_the_race_is_written_with_a_hash() {
    use crate::notation::san;
    let m = |g: &Game, s: &str| parse_move(g.position(), s).unwrap();
    // White arrives and Black cannot follow: won at once, `Kh8#` (Lichess, python-chess).
    let g = game("8/6K1/8/8/8/8/1k6/8 w - - 0 1");
    assert_eq!(san(g.position(), m(&g, "Kh8")), "Kh8#");
    // White arrives but Black may follow: nothing is won yet.
    let mut g = game("8/1k4K1/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(san(g.position(), m(&g, "Kg8")), "Kg8");
    play(&mut g, "Kg8");
    // Black's move that fails to follow ends the game, and python-chess marks it `#`
    // too; following draws, which has no mark.
    assert_eq!(san(g.position(), m(&g, "Ka6")), "Ka6#");
    assert_eq!(san(g.position(), m(&g, "Kb8")), "Kb8");
}

#[test]
fn a_king_can_always_race_so_a_timeout_loses() {
    let mut g = game("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1");
    let o = g.timeout(Color::White).unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::BlackWins, EndReason::Timeout)
    );
    let mut bare = game("8/8/8/8/8/8/k6K/8 w - - 0 1");
    assert_eq!(bare.outcome(), None, "bare kings race on");
    let o = bare.timeout(Color::Black).unwrap();
    assert_eq!(o.result, GameResult::WhiteWins);
}

#[test]
fn no_position_with_a_king_in_check_is_accepted() {
    assert!(parse_fen(racing(), "8/8/8/3k4/8/8/8/3RK3 w - - 0 1").is_err());
    assert!(parse_fen(racing(), "8/8/8/3k4/8/8/8/3RK3 b - - 0 1").is_err());
    assert!(
        parse_fen(racing(), "8/8/8/3k4/8/8/P7/4K3 w - - 0 1").is_err(),
        "no pawns"
    );
}
