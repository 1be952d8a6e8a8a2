//! The rules of `docs/rules/cloak-and-dagger.md`, one test per rule.

use super::board::{arrangement_number, parse_arrangement, Board, Man, SET_ORDER};
use super::state::{Cloak, CloakAction, CloakEnd, Ended, Step};
use crate::rules::{Color, Role, Square};
use crate::variants::api::{
    Apply, Env, GameCommand, GameRules, Reading, RefusalKind, RuleError, Seat, Viewer,
};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// A game whose back ranks are set up as given.
fn game(white: &str, black: &str) -> Cloak {
    let mut g = Cloak::new([SET_ORDER, SET_ORDER]);
    g.act(Seat(0), CloakAction::Setup(Some(white.into())))
        .unwrap();
    g.act(Seat(1), CloakAction::Setup(Some(black.into())))
        .unwrap();
    g
}

/// Types `text` as `seat`'s command and applies it.
fn run(g: &mut Cloak, seat: u8, text: &str) -> Result<String, RuleError> {
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    let Reading::Act(a) = g.read(Seat(seat), &GameCommand::new(word, rest), Env::default())? else {
        panic!("not an action")
    };
    let notes = g.apply(Seat(seat), &a)?;
    Ok(notes
        .iter()
        .map(|n| n.text.render(|s| format!("seat{}", s.0)))
        .collect::<Vec<_>>()
        .join(" | "))
}

/// An empty board with the given men (colour, role, checker number, cloaked).
fn position(g: &mut Cloak, men: &[(&str, Color, Role, u8, bool)]) {
    g.board = Board::default();
    for (s, color, role, id, cloaked) in men {
        g.board.set(
            sq(s),
            Some(Man {
                color: *color,
                role: *role,
                id: *id,
                cloaked: *cloaked,
            }),
        );
    }
}

use Color::{Black as B, White as W};

#[test]
fn chess960_setup_limits_king_between_rooks_bishops_on_opposite_colours_standard_set() {
    assert!(parse_arrangement("RNBQKBNR").is_ok());
    assert!(parse_arrangement("nrkbbqrn").is_ok());
    let err = |t: &str| parse_arrangement(t).unwrap_err().to_string();
    assert!(err("KRRQBBNN").contains("between the two rooks"));
    assert!(
        err("RKRQBNBN").contains("between the two rooks") || err("RKRQBNBN").contains("opposite")
    );
    assert!(err("RNBQBKNR").contains("opposite colours"));
    assert!(err("RNBQKBNQ").contains("one king, one queen"));
    assert!(err("RNBQKBN").contains("eight letters"));
    assert!(err("RNBQKBNP").contains("not one of"));
    // The 960 numbered arrangements are all different and all keep the limits.
    let mut seen = std::collections::HashSet::new();
    for n in 0..960 {
        let a = arrangement_number(n);
        assert!(super::board::check_arrangement(&a).is_ok(), "{n}");
        assert!(seen.insert(a), "{n} repeats");
    }
    // A set-up that breaks them is refused as badly written and changes nothing.
    let mut g = Cloak::new([SET_ORDER, SET_ORDER]);
    let before = g.clone();
    let e = run(&mut g, 0, "setup RNBQBKNR").unwrap_err();
    assert_eq!(e.kind, RefusalKind::Syntax);
    assert_eq!(g, before);
}

#[test]
fn setup_random_takes_the_back_rank_drawn_in_secret_and_play_waits_for_both() {
    let drawn = arrangement_number(517);
    let mut g = Cloak::new([drawn, SET_ORDER]);
    assert_eq!(g.awaiting().len(), 2);
    run(&mut g, 0, "setup random").unwrap();
    assert_eq!(g.arrangement(0), Some(drawn));
    assert_eq!(g.awaiting().len(), 1);
    assert!(run(&mut g, 0, "setup RNBQKBNR").is_err());
    assert_eq!(
        run(&mut g, 0, "move e4").unwrap_err().kind,
        RefusalKind::NotYourTurn
    );
    run(&mut g, 1, "setup RNBQKBNR").unwrap();
    assert_eq!(g.step(), Step::Start);
}

#[test]
fn chess960_castling_with_the_king_on_every_file() {
    for kf in 1..7u8 {
        // A back rank with the king on this file, the other men taken off but the rooks.
        // The rooks in the corners: another man between would block (tested below).
        let n = (0..960)
            .find(|n| {
                let a = arrangement_number(*n);
                a[kf as usize] == Role::King && a[0] == Role::Rook && a[7] == Role::Rook
            })
            .unwrap();
        let a = arrangement_number(n);
        let text: String = a.iter().map(|r| r.upper_char()).collect();
        let mut g = game(&text, "RNBQKBNR");
        for f in 0..8u8 {
            let s = Square::new(f, 0);
            if !matches!(
                g.board.get(s).map(|m| m.role),
                Some(Role::King | Role::Rook)
            ) {
                g.board.set(s, None);
            }
        }
        for (castle, king, rook) in [("O-O", "g1", "f1"), ("O-O-O", "c1", "d1")] {
            let mut h = g.clone();
            run(&mut h, 0, &format!("move {castle}"))
                .unwrap_or_else(|e| panic!("{text} {castle}: {e}"));
            let rank: Vec<_> = h.board.men().filter(|(s, _)| s.rank() == 0).collect();
            assert_eq!(
                h.board.get(sq(king)).map(|m| m.role),
                Some(Role::King),
                "{text} {castle} {rank:?}"
            );
            assert_eq!(
                h.board.get(sq(rook)).map(|m| m.role),
                Some(Role::Rook),
                "{text} {castle} {rank:?}"
            );
            assert_eq!(
                h.board.men().filter(|(s, _)| s.rank() == 0).count(),
                3,
                "{text} {castle}: the king and both rooks"
            );
            // Castling shows both men for what they are.
            let rec = h.projection(Viewer::Public).record;
            assert_eq!(rec.last().unwrap(), castle);
        }
        // A man between them blocks castling.
        let mut h = g.clone();
        let blocker = if kf == 6 { "f1" } else { "g1" };
        h.board.set(
            sq(blocker),
            Some(Man {
                color: W,
                role: Role::Knight,
                id: 0,
                cloaked: false,
            }),
        );
        assert!(run(&mut h, 0, "move O-O").is_err(), "{text}: blocked");
    }
}

#[test]
fn cloaked_king_may_move_into_stay_in_and_castle_out_of_check() {
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    // White's cloaked king on e1 and rook h1; Black's uncloaked rook on e8 gives check.
    position(
        &mut g,
        &[
            ("e1", W, Role::King, 5, true),
            ("h1", W, Role::Rook, 8, true),
            ("a2", W, Role::Pawn, 0, false),
            ("e8", B, Role::Rook, 1, false),
            ("f8", B, Role::Rook, 8, false),
            ("a8", B, Role::King, 5, true),
        ],
    );
    g.known[1][1] = true;
    g.known[1][8] = true;
    // Stays in check: another move is allowed.
    run(&mut g.clone(), 0, "move a3").unwrap();
    // Moves into check (f2 is attacked by the rook on f8).
    run(&mut g.clone(), 0, "move e1f2").unwrap();
    // Castles out of check, through and onto attacked squares.
    let mut h = g.clone();
    run(&mut h, 0, "move O-O").unwrap();
    assert_eq!(h.board.get(sq("g1")).unwrap().role, Role::King);
}

#[test]
fn a_guess_at_a_pawn_and_a_wrong_bonus_move_say_why_in_the_movers_terms() {
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    let e = run(&mut g.clone(), 0, "guess pawn 3").unwrap_err();
    assert!(e.text.starts_with("a pawn is never cloaked"), "{}", e.text);
    // Black owes a bonus move: the example names Black's second rank.
    g.turn = 1;
    g.step = Step::Owed;
    let e = run(&mut g, 1, "move Nf6").unwrap_err();
    assert!(e.text.contains("(P@b7)"), "{}", e.text);
}

#[test]
fn a_king_guessed_right_but_not_uncloaked_may_still_move_into_check() {
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    position(
        &mut g,
        &[
            ("e1", W, Role::King, 5, true),
            ("a2", W, Role::Pawn, 0, false),
            ("f8", B, Role::Rook, 8, false),
            ("a8", B, Role::King, 5, true),
        ],
    );
    g.known[1][8] = true;
    // Black guessed White's king right: its identity is public, the checker cloaked.
    g.known[0][5] = true;
    run(&mut g.clone(), 0, "move e1f2").unwrap();
    // Once its owner uncloaks it, it may not.
    let mut h = g.clone();
    run(&mut h, 0, "uncloak 5").unwrap();
    assert!(run(&mut h, 0, "move e1f2").is_err());
}

#[test]
fn uncloaked_king_may_not_move_into_or_stay_in_check_or_castle_through_it() {
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    position(
        &mut g,
        &[
            ("e1", W, Role::King, 5, false),
            ("h1", W, Role::Rook, 8, true),
            ("a2", W, Role::Pawn, 0, false),
            ("e8", B, Role::Rook, 1, false),
            ("f8", B, Role::Rook, 8, false),
            ("a8", B, Role::King, 5, true),
            ("d8", B, Role::Queen, 4, true),
        ],
    );
    g.known[0][5] = true;
    g.known[1][1] = true;
    g.known[1][8] = true;
    for (m, why) in [
        ("a3", "stays in check"),
        ("e1f2", "into check"),
        ("O-O", "castles out of check"),
    ] {
        let e = run(&mut g.clone(), 0, &format!("move {m}")).unwrap_err();
        assert_eq!(e.kind, RefusalKind::Illegal, "{why}");
        assert!(e.text.contains("uncloaked king"), "{why}: {}", e.text);
    }
    run(&mut g.clone(), 0, "move e1d2").unwrap();
    // Only pieces of public identity give check: the cloaked queen on d8 does not
    // count, so d1 (on her file) is allowed, as the mover cannot know.
    run(&mut g.clone(), 0, "move e1d1").unwrap();
    // Uncloaking the king counts from the moment it is asked for this turn.
    let mut h = game("RNBQKBNR", "RNBQKBNR");
    position(
        &mut h,
        &[
            ("e1", W, Role::King, 5, true),
            ("a2", W, Role::Pawn, 0, false),
            ("f8", B, Role::Rook, 8, false),
            ("a8", B, Role::King, 5, true),
        ],
    );
    h.known[1][8] = true;
    run(&mut h, 0, "uncloak 5").unwrap();
    assert!(run(&mut h.clone(), 0, "move e1f2").is_err());
    run(&mut h, 0, "move e1d2").unwrap();
    assert!(!h.board.get(sq("d2")).unwrap().cloaked);
    assert!(h.known[0][5]);
}

#[test]
fn capturing_the_king_wins_and_announces_it() {
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    position(
        &mut g,
        &[
            ("e1", W, Role::King, 5, true),
            ("c3", W, Role::Knight, 2, true),
            ("d5", B, Role::King, 5, true),
            ("a8", B, Role::Rook, 1, true),
        ],
    );
    let said = run(&mut g, 0, "move c3d5").unwrap();
    assert!(said.contains("checker 5 was the king"), "{said}");
    assert_eq!(
        g.ended(),
        Some(Ended::Rules(CloakEnd::KingCaptured(Seat(0))))
    );
    assert_eq!(g.outcome().unwrap().result, "1-0");
    assert!(g.awaiting().is_empty());
}

#[test]
fn checkmate_of_an_uncloaked_king_by_a_known_piece_ends_the_game() {
    // The fool's mate, with White's king uncloaked and Black's queen uncloaked as it
    // gives mate.
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    run(&mut g, 0, "uncloak 5").unwrap();
    run(&mut g, 0, "move f3").unwrap();
    run(&mut g, 1, "move e5").unwrap();
    run(&mut g, 0, "move g4").unwrap();
    run(&mut g, 1, "uncloak 4").unwrap();
    let said = run(&mut g, 1, "move Qh4").unwrap();
    assert!(said.contains("checkmate"), "{said}");
    assert_eq!(g.ended(), Some(Ended::Rules(CloakEnd::Checkmate(Seat(1)))));
    // Cloaked, the same queen move is no mate: the king does not know.
    let mut h = game("RNBQKBNR", "RNBQKBNR");
    run(&mut h, 0, "uncloak 5").unwrap();
    for (s, m) in [(0, "f3"), (1, "e5"), (0, "g4"), (1, "d8h4")] {
        run(&mut h, s, &format!("move {m}")).unwrap();
    }
    assert_eq!(h.ended(), None);
}

#[test]
fn a_right_guess_earns_a_bonus_pawn_move_after_the_regular_move() {
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    let said = run(&mut g, 0, "guess knight 2").unwrap();
    assert!(said.contains("right"), "{said}");
    assert!(g.known[1][2]);
    assert!(run(&mut g, 0, "guess queen 4").is_err(), "one guess a turn");
    run(&mut g, 0, "move e4").unwrap();
    assert_eq!(g.step(), Step::Bonus);
    // The bonus is a pawn move: a knight's move is refused.
    assert!(run(&mut g.clone(), 0, "move g1f3").is_err());
    run(&mut g, 0, "move d4").unwrap();
    assert_eq!(g.to_move(), Seat(1));
    let rec = g.projection(Viewer::Public).record;
    assert_eq!(rec[0], "{?2=N yes} e2-e4 +d2-d4");
    // The guess comes at the start of the turn only.
    run(&mut g, 1, "move e5").unwrap();
    run(&mut g, 0, "move a3").unwrap();
    run(&mut g, 1, "move a6").unwrap();
    assert_eq!(g.to_move(), Seat(0));
}

#[test]
fn a_wrong_guess_gives_the_opponent_a_bonus_move_before_their_turn_which_may_drop_a_pawn() {
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    for (s, m) in [(0, "e4"), (1, "d5"), (0, "exd5")] {
        run(&mut g, s, &format!("move {m}")).unwrap();
    }
    assert_eq!(g.hand[1], 1, "Black's captured pawn may come back");
    let said = run(&mut g, 1, "guess queen 1").unwrap();
    assert!(said.contains("wrong"), "{said}");
    assert!(g.owed[0]);
    run(&mut g, 1, "move e6").unwrap();
    // White is owed a bonus move before the turn.
    assert_eq!(g.step(), Step::Owed);
    assert!(run(&mut g.clone(), 0, "guess knight 2").is_err());
    assert!(
        run(&mut g.clone(), 0, "move g1f3").is_err(),
        "not a pawn move"
    );
    run(&mut g, 0, "move d4").unwrap();
    assert_eq!(g.step(), Step::Start);
    assert!(!g.owed[0]);
    // Black, owed nothing, now guesses right and drops the pawn back as its bonus.
    run(&mut g, 0, "move d5e6").unwrap();
    run(&mut g, 1, "guess king 5").unwrap();
    run(&mut g, 1, "move f7e6").unwrap();
    assert_eq!(g.hand[1], 2);
    assert!(
        run(&mut g.clone(), 1, "move P@d5").is_err(),
        "only on the second rank"
    );
    run(&mut g, 1, "move P@d7").unwrap();
    assert_eq!(g.hand[1], 1);
    assert_eq!(g.board.get(sq("d7")).unwrap().role, Role::Pawn);
    // A wrong guess is crossed on the grid; guessing it again is refused.
    assert!(g
        .grid(Color::White)
        .lines()
        .nth(2)
        .unwrap()
        .starts_with("Q  X"));
    run(&mut g, 0, "move a3").unwrap();
    run(&mut g, 1, "move a6").unwrap();
    assert!(run(&mut g, 0, "guess queen 1").is_ok());
}

#[test]
fn a_bonus_move_may_be_skipped_and_none_possible_is_skipped_by_itself() {
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    run(&mut g, 0, "guess rook 2").unwrap();
    run(&mut g, 0, "move e4").unwrap();
    assert_eq!(g.step(), Step::Owed);
    assert!(run(&mut g, 1, "move e5").is_ok());
    assert_eq!(g.step(), Step::Start);
    run(&mut g, 1, "skip").unwrap_err();
    run(&mut g, 1, "move d6").unwrap();
}

#[test]
fn a_captured_checker_is_announced_to_everyone_and_its_moves_read_as_its_piece() {
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    for (s, m) in [(0, "b1c3"), (1, "d5"), (0, "e4"), (1, "c8g4")] {
        run(&mut g, s, &format!("move {m}")).unwrap();
    }
    let public = g.projection(Viewer::Public).record;
    assert_eq!(public[0], "2:b1-c3");
    assert_eq!(g.projection(Viewer::Seat(Seat(0))).record[0], "Nb1-c3");
    let said = run(&mut g, 0, "move c3d5").unwrap();
    assert!(said.contains("2:c3xd5"), "{said}");
    let said = run(&mut g, 1, "move d8d5").unwrap();
    assert!(said.contains("checker 2 was the knight"), "{said}");
    let public = g.projection(Viewer::Public).record;
    assert_eq!(public[0], "Nb1-c3");
    assert_eq!(public[5], "4:d8xd5{2=N}");
}

#[test]
fn a_role_whose_every_checker_is_known_is_ruled_out_for_the_others_on_the_grid() {
    let mut g = game("RNBQKBNR", "RNBQKBNR");
    // White guesses Black's king right (checker 5), then the queen (checker 4).
    run(&mut g, 0, "guess king 5").unwrap();
    run(&mut g, 0, "move e4").unwrap();
    run(&mut g, 0, "move d4").unwrap(); // the bonus move of a right guess
    run(&mut g, 1, "move e5").unwrap();
    let row = |g: &Cloak, n: usize| g.grid(Color::Black).lines().nth(n).unwrap().to_string();
    assert_eq!(
        row(&g, 1),
        "K  X X X X O X X X",
        "one king: the others are not it"
    );
    assert!(
        row(&g, 2).contains('.'),
        "the queen is still open: {}",
        row(&g, 2)
    );
    run(&mut g, 0, "guess queen 4").unwrap();
    assert_eq!(row(&g, 2), "Q  X X X O X X X X");
    // Rooks: one known is not yet all of them.
    assert_eq!(row(&g, 3), "R  . . . X X . . .");
}
