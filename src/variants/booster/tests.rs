//! Booster Chess rule tests, one per rule of the rulebook (and per decision of
//! `docs/rules/booster.md`).

use super::cards::Card;
use super::fen;
use super::position::{Pos, Step};
use super::state::{Booster, BoosterAction, BoosterEnd, Ended, Part, Phase};
use crate::rules::{Color, MoveKind, Role, Square};
use crate::variants::api::random::SeededRng;
use crate::variants::api::{RuleError, Seat};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn pos(f: &str) -> Pos {
    fen::parse(f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

/// The UCIs of the legal normal moves from `from`.
fn moves_from(p: &Pos, from: &str) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from == sq(from))
        .map(|m| {
            m.to.to_string()
                + &m.promotion
                    .map_or(String::new(), |r| r.lower_char().to_string())
        })
        .collect();
    v.sort();
    v
}

fn play(p: &mut Pos, uci: &str) {
    let m = p
        .legal_moves()
        .into_iter()
        .find(|m| m.uci() == uci)
        .unwrap_or_else(|| panic!("{uci} is not legal"));
    p.play_move(&m);
}

fn steps(p: &Pos, at: &str) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_steps(sq(at))
        .iter()
        .map(|s| super::state::step_text(*s))
        .collect();
    v.sort();
    v
}

#[test]
fn the_start_position_counts_as_standard_chess() {
    let p = Pos::start();
    assert_eq!(p.perft(1), 20);
    assert_eq!(p.perft(2), 400);
    assert_eq!(p.perft(3), 8902);
    assert!(p.checkers_balance());
}

#[test]
fn a_boosted_piece_may_take_one_king_step_per_checker() {
    let mut p = pos("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 b1:w2");
    play(&mut p, "b1c3");
    assert_eq!(p.boost(sq("c3")), 2, "the piece carries its checkers");
    assert_eq!(
        steps(&p, "c3"),
        ["b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"]
    );
    p.play_step(
        sq("c3"),
        Step {
            to: sq("d4"),
            promotion: None,
        },
    );
    assert_eq!(p.boost(sq("d4")), 1, "a spent booster stays behind");
    assert_eq!(p.reserve(Color::White), 5, "and goes back to its owner");
    p.play_step(
        sq("d4"),
        Step {
            to: sq("e5"),
            promotion: None,
        },
    );
    assert_eq!(p.stack(sq("e5")), 0);
    assert!(
        p.legal_steps(sq("e5")).is_empty(),
        "no checker left, no step"
    );
    assert_eq!(p.reserve(Color::White), 6);
    assert!(p.checkers_balance());
}

#[test]
fn a_hobbled_piece_moves_like_a_pawn_without_a_double_step() {
    // A hobbled rook on a2: one square forward, diagonal captures forward, never two.
    let p = pos("4k3/8/8/8/8/1n6/R7/4K3 w - - 0 1 a2:b1");
    assert!(p.hobbled(sq("a2")));
    assert_eq!(moves_from(&p, "a2"), ["a3", "b3"]);
    // A hobbled knight may not jump; a hobbled king moves like a pawn too.
    let p = pos("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 b1:b1,e1:b2");
    assert_eq!(moves_from(&p, "b1"), ["b2"]);
    assert_eq!(moves_from(&p, "e1"), ["e2"]);
}

#[test]
fn a_hobbled_pawn_cannot_move() {
    let p = pos("4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1 e2:b1");
    assert!(
        moves_from(&p, "e2").is_empty(),
        "no push, no double step, no capture"
    );
}

#[test]
fn opposite_checkers_cancel_in_pairs_at_once() {
    // The white knight on two white checkers takes a black bishop on three black ones:
    // two pairs cancel, one black checker stays and the knight is hobbled.
    let mut p = pos("4k3/8/8/8/8/2b5/8/1N2K3 w - - 0 1 b1:w2,c3:b3");
    assert_eq!((p.reserve(Color::White), p.reserve(Color::Black)), (4, 3));
    play(&mut p, "b1c3");
    assert_eq!(p.stack(sq("c3")), -1);
    assert!(p.hobbled(sq("c3")));
    assert_eq!((p.reserve(Color::White), p.reserve(Color::Black)), (6, 5));
    assert!(
        p.legal_steps(sq("c3")).is_empty(),
        "hobbled now: no booster step"
    );
    assert!(p.checkers_balance());
}

#[test]
fn a_card_checker_on_an_opposite_stack_cancels_a_pair() {
    let mut p = pos("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 b1:b2");
    p.add_checker(sq("b1"), Color::White);
    assert_eq!(p.stack(sq("b1")), -1);
    assert_eq!((p.reserve(Color::White), p.reserve(Color::Black)), (6, 5));
}

#[test]
fn a_capturing_piece_takes_over_the_captured_stack() {
    // Taking a hobbled piece (white checkers under a black rook) leaves the capturer
    // boosted.
    let mut p = pos("4k3/8/8/8/8/8/r7/R3K3 w - - 0 1 a2:w2");
    play(&mut p, "a1a2");
    assert_eq!(p.stack(sq("a2")), 2);
    assert_eq!(p.boost(sq("a2")), 2);
    // It was not boosted when it began to move: no steps this turn (decision).
    let before = pos("4k3/8/8/8/8/8/r7/R3K3 w - - 0 1 a2:w2");
    let take = before
        .legal_moves()
        .into_iter()
        .find(|m| m.uci() == "a1a2")
        .unwrap();
    assert!(!before.may_step_after(&take));
}

#[test]
fn a_hobble_checker_falls_off_on_the_far_rank() {
    // A hobbled white knight on e7 steps forward like a pawn to e8: the black checker is
    // removed and returned to Black.
    let mut p = pos("k7/4N3/8/8/8/8/8/4K3 w - - 0 1 e7:b1");
    assert_eq!(p.reserve(Color::Black), 5);
    play(&mut p, "e7e8");
    assert_eq!(p.stack(sq("e8")), 0);
    assert_eq!(p.reserve(Color::Black), 6);
    assert_eq!(p.piece(sq("e8")).map(|q| q.role), Some(Role::Knight));
}

#[test]
fn a_boosted_knight_two_steps_away_gives_check() {
    let plain = pos("8/3k4/8/8/3N4/8/8/4K3 b - - 0 1");
    assert!(!plain.in_check(Color::Black));
    let boosted = pos("8/3k4/8/8/3N4/8/8/4K3 b - - 0 1 d4:w1");
    assert!(boosted.in_check(Color::Black), "Nc6 then a step to d7");
    // The king must leave the whole reach: d7 and every square the knight reaches.
    for m in boosted.legal_moves() {
        let mut after = boosted.clone();
        after.play_move(&m);
        assert!(!after.in_check(Color::Black), "{}", m.uci());
    }
    assert!(!moves_from(&boosted, "d7").contains(&"d6".to_string()));
    // A side may not set up such a position with the checked side not to move.
    assert!(fen::parse("8/3k4/8/8/3N4/8/8/4K3 w - - 0 1 d4:w1").is_err());
}

#[test]
fn a_hobbled_piece_attacks_only_diagonally_forward() {
    // A hobbled black queen on d5 attacks c4 and e4 only.
    let p = pos("4k3/8/8/3q4/8/8/8/K7 w - - 0 1 d5:w1");
    assert!(p.attacked(sq("e4"), Color::Black));
    assert!(!p.attacked(sq("d1"), Color::Black));
    assert!(!p.attacked(sq("a5"), Color::Black));
}

#[test]
fn a_pinned_piece_may_not_leave_the_line_even_if_a_step_could_block_again() {
    // The boosted rook on e2 is pinned by the rook on e8: Rd2 then a step back to e3
    // would block the check again, but the move itself reveals it.
    let p = pos("4r2k/8/8/8/8/8/4R3/4K3 w - - 0 1 e2:w1");
    let from_e2 = moves_from(&p, "e2");
    assert!(!from_e2.contains(&"d2".to_string()));
    assert!(from_e2.contains(&"e5".to_string()));
    // Along the line it may move, and step while its king stays covered.
    let mut q = p.clone();
    play(&mut q, "e2e5");
    let s = steps(&q, "e5");
    assert!(
        !s.contains(&"d5".to_string()) && !s.contains(&"f6".to_string()),
        "{s:?}"
    );
    assert!(s.contains(&"e6".to_string()) && s.contains(&"e4".to_string()));
}

#[test]
fn a_step_may_not_reveal_a_check_either() {
    // The boosted knight blocks the bishop's diagonal after Nd2: stepping away from it
    // would leave the king attacked.
    let mut p = pos("4k3/8/8/b7/8/8/8/1N2K3 w - - 0 1 b1:w1");
    play(&mut p, "b1d2");
    let s = steps(&p, "d2");
    assert!(!s.contains(&"d3".to_string()), "{s:?}");
    assert!(s.contains(&"c3".to_string()), "c3 still blocks: {s:?}");
}

#[test]
fn castling_is_refused_when_the_king_or_the_rook_is_boosted() {
    let free = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(moves_from(&free, "e1").contains(&"g1".to_string()));
    for stacks in ["e1:w1", "h1:w1", "e1:b1"] {
        let p = pos(&format!("4k3/8/8/8/8/8/8/4K2R w K - 0 1 {stacks}"));
        assert!(
            !moves_from(&p, "e1").contains(&"g1".to_string()),
            "{stacks}"
        );
    }
}

#[test]
fn castling_is_refused_through_squares_a_booster_move_attacks() {
    // The black knight on h4 attacks g2 and f3 normally; boosted, it reaches f1 and g1.
    let plain = pos("4k3/8/8/8/7n/8/8/4K2R w K - 0 1");
    assert!(moves_from(&plain, "e1").contains(&"g1".to_string()));
    let boosted = pos("4k3/8/8/8/7n/8/8/4K2R w K - 0 1 h4:b1");
    assert!(!boosted.in_check(Color::White));
    assert!(!moves_from(&boosted, "e1").contains(&"g1".to_string()));
}

#[test]
fn en_passant_only_after_a_regular_double_step() {
    let start = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 d7:b1");
    // A regular double step: en passant is open.
    let mut p = start.clone();
    play(&mut p, "d7d5");
    p.pass_turn();
    let ep = p
        .legal_moves()
        .into_iter()
        .find(|m| m.kind == MoveKind::EnPassant);
    assert_eq!(ep.map(|m| m.uci()), Some("e5d6".into()));
    // A single step then a booster step to d5: no en passant.
    let mut p = start.clone();
    play(&mut p, "d7d6");
    p.play_step(
        sq("d6"),
        Step {
            to: sq("d5"),
            promotion: None,
        },
    );
    p.pass_turn();
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| m.kind != MoveKind::EnPassant));
}

#[test]
fn a_booster_step_never_captures_en_passant() {
    let mut p = pos("4k3/3p4/8/4P3/8/1N6/8/4K3 b - - 0 1 b3:w1");
    play(&mut p, "d7d5");
    p.pass_turn();
    play(&mut p, "b3c5");
    assert!(steps(&p, "c5").contains(&"d6".to_string()));
    p.play_step(
        sq("c5"),
        Step {
            to: sq("d6"),
            promotion: None,
        },
    );
    assert!(p.piece(sq("d5")).is_some(), "the pawn on d5 is still there");
    assert!(p.checkers_balance());
}

#[test]
fn a_pawn_promotes_on_the_back_rank_and_may_keep_stepping() {
    let mut p = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1 e7:w2");
    play(&mut p, "e7e8q");
    assert_eq!(p.piece(sq("e8")).map(|q| q.role), Some(Role::Queen));
    assert_eq!(p.boost(sq("e8")), 2);
    assert!(steps(&p, "e8").contains(&"d7".to_string()));
    // A pawn stepping onto its last rank promotes there.
    let mut p = pos("k7/8/3P4/8/8/8/8/4K3 w - - 0 1 d6:w1");
    play(&mut p, "d6d7");
    let s = steps(&p, "d7");
    assert!(
        s.contains(&"e8=N".to_string()) && s.contains(&"e8=Q".to_string()),
        "{s:?}"
    );
    assert!(!s.contains(&"e8".to_string()));
    p.play_step(
        sq("d7"),
        Step {
            to: sq("e8"),
            promotion: Some(Role::Knight),
        },
    );
    assert_eq!(p.piece(sq("e8")).map(|q| q.role), Some(Role::Knight));
}

#[test]
fn checkmate_counts_booster_reach() {
    // Bare kings: the white king on f6 with one checker reaches every square around h8.
    let g = game("7k/8/5K2/8/8/8/8/8 b - - 0 1 f6:w1");
    assert_eq!(g.ended(), Some(Ended::Rules(BoosterEnd::Mated(Seat(1)))));
    let g = game("7k/8/5K2/8/8/8/8/8 b - - 0 1");
    assert_eq!(g.ended(), None);
}

fn game(f: &str) -> Booster {
    Booster::new(pos(f), &mut SeededRng::new(7), Some(f.into()))
}

fn card(s: &str) -> Card {
    Card::parse(s).unwrap()
}

/// A game whose hands are set by the test.
fn game_with_hands(f: &str, white: &[&str], black: &[&str]) -> Booster {
    let mut g = game(f);
    g.hands = [
        white.iter().map(|c| card(c)).collect(),
        black.iter().map(|c| card(c)).collect(),
    ];
    g
}

fn turn(g: &mut Booster, seat: u8, parts: Vec<Part>) -> Result<String, RuleError> {
    let mut next = g.clone();
    let r = next.act(Seat(seat), &BoosterAction::Turn(parts));
    match r {
        Ok(notes) => {
            *g = next;
            Ok(format!("{notes:?}"))
        }
        Err(e) => Err(e),
    }
}

fn mv(u: &str) -> Part {
    Part::Move(u.into())
}

fn play_card(c: &str, on: &str) -> Part {
    Part::Card {
        card: card(c),
        on: on.into(),
    }
}

#[test]
fn a_card_adds_a_checker_under_a_matching_piece_only() {
    let f = "4k3/8/8/8/8/8/8/1N2K1B1 w - - 0 1";
    let mut g = game_with_hands(f, &["8h", "9s", "6s"], &[]);
    let e = turn(&mut g, 0, vec![mv("e1d1"), play_card("8h", "g1")]).unwrap_err();
    assert!(e.text.contains("does not match"), "{e}");
    turn(&mut g, 0, vec![mv("e1d1"), play_card("8h", "b1")]).unwrap();
    assert_eq!(g.position().stack(sq("b1")), 1);
    assert_eq!(
        g.hand(Color::White).len(),
        5,
        "drew back up to five checkers in front"
    );
    assert_eq!(g.discards(), [card("8h")]);
}

#[test]
fn a_card_with_no_matching_piece_left_works_like_a_checker_card() {
    // No black bishop is left: the 9 of spades goes under any black piece.
    let f = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let mut g = game_with_hands(f, &["9s"], &[]);
    turn(&mut g, 0, vec![mv("e1d1"), play_card("9s", "e8")]).unwrap();
    assert!(g.position().hobbled(sq("e8")));
}

#[test]
fn a_hobble_checker_cannot_be_added_on_the_far_rank_of_its_piece() {
    // The black king on a1 stands on its far rank: a white checker would fall off.
    let mut g = game_with_hands("8/8/8/8/8/8/8/k3K3 w - - 0 1", &["Ks"], &[]);
    let e = turn(&mut g, 0, vec![mv("e1e2"), play_card("Ks", "a1")]).unwrap_err();
    assert!(e.text.contains("far rank"), "{e}");
    // On e8 the same card hobbles it.
    let mut g = game_with_hands("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &["Ks"], &[]);
    turn(&mut g, 0, vec![mv("e1d1"), play_card("Ks", "e8")]).unwrap();
    assert!(g.position().hobbled(sq("e8")));
}

#[test]
fn the_turn_waits_for_steps_and_cards_and_ends_with_done() {
    let f = "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 b1:w1";
    let mut g = game_with_hands(f, &["6h"], &["6s"]);
    turn(&mut g, 0, vec![mv("b1c3")]).unwrap();
    assert_eq!(g.phase(), Phase::Steps(sq("c3").index() as u8));
    let e = turn(&mut g, 0, vec![Part::Step("e5".into())]).unwrap_err();
    assert!(e.text.contains("next to c3"), "{e}");
    turn(&mut g, 0, vec![Part::Step("d4".into())]).unwrap();
    assert_eq!(g.phase(), Phase::Card, "no checker left, a card to play");
    turn(&mut g, 0, vec![Part::Done]).unwrap();
    assert_eq!(g.turn(), Color::Black);
    assert_eq!(
        g.hand(Color::White).len(),
        6,
        "the spent checker came back: a card drawn"
    );
}

#[test]
fn the_discard_pile_is_reshuffled_secretly_and_the_same_on_replay() {
    let f = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1:w1";
    let mut g = game_with_hands(f, &[], &[]);
    let mut discard = g.pile.clone();
    discard.truncate(20);
    g.pile.drain(..20);
    g.discard = discard;
    g.pile.truncate(2);
    // White spends the checker: the hand of 0 wants 6 cards, the pile holds 2.
    let before = g.clone();
    turn(
        &mut g,
        0,
        vec![mv("e1d1"), Part::Step("c1".into()), Part::Done],
    )
    .unwrap();
    assert_eq!(g.hand(Color::White).len(), 6);
    assert_eq!(g.reshuffles, 1);
    assert_eq!(g.pile.len(), 16);
    let mut again = before.clone();
    turn(
        &mut again,
        0,
        vec![mv("e1d1"), Part::Step("c1".into()), Part::Done],
    )
    .unwrap();
    assert_eq!(again, g, "the same seed, the same reshuffle");
    let mut other = before;
    other.secret ^= 1;
    turn(
        &mut other,
        0,
        vec![mv("e1d1"), Part::Step("c1".into()), Part::Done],
    )
    .unwrap();
    assert_ne!(other.pile, g.pile, "another secret, another order");
}

#[test]
fn threefold_repetition_counts_stacks_and_checkers_in_front() {
    let f = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let mut g = game_with_hands(f, &[], &[]);
    for _ in 0..2 {
        turn(&mut g, 0, vec![mv("e1d1"), Part::Done]).unwrap();
        turn(&mut g, 1, vec![mv("e8d8"), Part::Done]).unwrap();
        turn(&mut g, 0, vec![mv("d1e1"), Part::Done]).unwrap();
        assert_eq!(g.ended(), None);
        turn(&mut g, 1, vec![mv("d8e8"), Part::Done]).unwrap();
    }
    assert_eq!(g.ended(), Some(Ended::Rules(BoosterEnd::Repetition)));
}

// Messages that say what they mean (issue 38).

/// The refusal of `line` typed by White in the position `f`.
fn refusal(f: &str, line: &str) -> String {
    match super::read::read_line(&game(f), Seat(0), line) {
        Ok(parts) => {
            let mut g = game(f);
            turn(&mut g, 0, parts).expect_err(line).text
        }
        Err(e) => e.text,
    }
}

#[test]
fn a_bare_done_and_a_mate_are_announced_as_sentences() {
    // The pawn steps onto f8 as a queen with one checker left: the bare `done` ends the
    // turn, and the boosted queen's reach mates.
    // Five cards in hand for five checkers in front: nothing is drawn.
    let five = ["6h", "6d", "2h", "3h", "4h"];
    let mut g = game_with_hands("k7/8/6P1/8/8/8/8/4K3 w - - 0 1 g6:w2", &five, &[]);
    turn(&mut g, 0, vec![mv("g6g7"), Part::Step("f8q".into())]).unwrap();
    let said = turn(&mut g, 0, vec![Part::Done]).unwrap();
    assert!(
        said.contains("\" ends the turn; checkmates Black\""),
        "{said}"
    );
    // A bare `done` with nothing drawn still says what the player did.
    let six = ["6h", "6d", "2h", "3h", "4h", "5h"];
    let mut g = game_with_hands("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &six, &[]);
    turn(&mut g, 0, vec![mv("e1d1")]).unwrap();
    let said = turn(&mut g, 0, vec![Part::Done]).unwrap();
    assert!(said.contains("\" ends the turn\""), "{said}");
    // A check is said by the mover too.
    let mut g = game_with_hands("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &["6h"], &[]);
    let said = turn(&mut g, 0, vec![mv("a1a8"), Part::Done]).unwrap();
    assert!(
        said.contains("plays Ra8; draws 5 cards; gives check to Black"),
        "{said}"
    );
}

#[test]
fn castling_refusals_give_the_reason_of_rule_12() {
    let cases = [
        (
            "r3k2r/8/8/8/7n/8/8/R3K2R w KQkq - 0 1 h4:b1,a1:w1",
            "O-O",
            "you may not castle O-O: the king would cross f1, which the boosted black knight on h4 attacks (booster reach counts)",
        ),
        (
            "r3k2r/8/8/8/7n/8/8/R3K2R w KQkq - 0 1 h4:b1,a1:w1",
            "0-0-0",
            "the rook on a1 stands on 1 white checker (boosted): a rook on any checker never castles",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 e1:w1",
            "O-O",
            "your king stands on 1 white checker (boosted): a king on any checker never castles",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 e1:b2",
            "e1g1",
            "your king stands on 2 black checkers (hobbled)",
        ),
        (
            "4k3/8/8/8/8/8/8/4KB1R w K - 0 1",
            "O-O",
            "f1 is not empty: every square between the king and the rook must be",
        ),
        (
            "4k3/8/8/8/8/8/4r3/4K2R w K - 0 1",
            "O-O",
            "your king is in check from the black rook on e2 (booster reach counts): no castling out of check",
        ),
        (
            "4k1r1/8/8/8/8/8/8/4K2R w K - 0 1",
            "O-O",
            "the king would land on g1, which the black rook on g8 attacks",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
            "O-O",
            "your king or the rook of h1 has moved",
        ),
    ];
    for (f, line, why) in cases {
        let e = refusal(f, line);
        assert!(e.contains(why), "{f} {line}: {e}");
        assert!(!e.contains("is not a move of yours"), "{e}");
    }
    // A move that is no castling keeps the plain answer.
    let e = refusal("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "Nf3");
    assert!(e.contains("'Nf3' is not a move of yours here"), "{e}");
}

#[test]
fn a_step_after_the_checkers_are_spent_says_they_are_spent() {
    // The rook carries two checkers: two steps, and a third is one too many, whether the
    // turn then waits for a card or ends by itself (no card in hand).
    let f = "4k3/8/8/8/8/8/8/4K2R w - - 0 1 h1:w2";
    for hand in [&["6h"][..], &[]] {
        let mut g = game_with_hands(f, hand, &[]);
        let line = super::read::read_line(&g, Seat(0), "Rh5 boost h4 h3 h2").unwrap();
        let e = turn(&mut g, 0, line).unwrap_err();
        assert!(
            e.text.starts_with(
                "the rook on h3 has spent its checkers: it took 2 steps, one checker each"
            ),
            "{hand:?}: {e}"
        );
        assert!(e.text.contains("Nothing of that line was played"), "{e}");
        assert_eq!(g.phase(), Phase::Move, "nothing was played");
    }
    // A piece on no checker of its own never steps.
    let e = refusal("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "Rh5 boost h4");
    assert!(
        e.starts_with("the white rook on h5 stands on none of your checkers"),
        "{e}"
    );
}

#[test]
fn a_refused_line_plays_nothing_and_asks_for_it_whole_again() {
    let f = "k7/8/6P1/8/8/8/8/4K3 w - - 0 1 g6:w2";
    let mut g = game_with_hands(f, &["6h"], &[]);
    let line = super::read::read_line(&g, Seat(0), "g7 boost f8").unwrap();
    let e = turn(&mut g, 0, line).unwrap_err();
    assert_eq!(
        e.text,
        "the pawn promotes on f8: say to which piece, like f8=Q. Nothing of that line was played: send it again whole, like `g7 boost f8=Q`"
    );
    assert_eq!(g.phase(), Phase::Move);
    assert_eq!(
        g.position().piece(sq("g6")).map(|p| p.role),
        Some(Role::Pawn)
    );
    // The line as the refusal writes it is accepted.
    let line = super::read::read_line(&g, Seat(0), "g7 boost f8=Q").unwrap();
    turn(&mut g, 0, line).unwrap();
    assert_eq!(
        g.position().piece(sq("f8")).map(|p| p.role),
        Some(Role::Queen)
    );
}

#[test]
fn a_turn_may_end_in_the_line_of_its_move() {
    use crate::variants::api::GameRules;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let g = game_with_hands(start, &["6h"], &[]);
    for line in ["e4 done", "e4 .", "move e4 ."] {
        assert_eq!(
            super::read::read_line(&g, Seat(0), line).unwrap(),
            [mv("e2e4"), Part::Done],
            "{line}"
        );
    }
    let mut g = g;
    turn(&mut g, 0, vec![mv("e2e4"), Part::Done]).unwrap();
    assert_eq!(g.turn(), Color::Black);
    // The prompt says so.
    let (_, prompt) = &g.awaiting()[0];
    let ask = crate::variants::api::typed_commands(&prompt.ask);
    assert!(ask.contains("`move e4 done`"), "{ask}");
}
