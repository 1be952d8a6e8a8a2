//! The rules of Secret Chesswords, one test per rule (`docs/rules/chesswords.md`).

use super::*;
use crate::variants::api::random::OsEntropy;
use crate::variants::api::{typed_commands, Apply, Audience, Span};
use ChesswordsAction as Action;

mod discards;

const W: Seat = Seat(0);
const B: Seat = Seat(1);

fn cards_of(list: &str) -> Vec<Card> {
    list.split_whitespace()
        .map(|c| Card::parse(c).unwrap())
        .collect()
}

/// A game from `fen` dealt the given hands and pile (top first).
fn setup(fen: &str, white: &str, black: &str, pile: &str) -> Chesswords {
    let mut g = Chesswords::new(Some(fen), 7, None).unwrap();
    g.state.hands = [cards_of(white), cards_of(black)];
    g.state.pile = cards_of(pile);
    g
}

/// [`setup`] for a game stored before discards were private.
fn setup_stored_before(fen: &str, white: &str, black: &str, pile: &str) -> Chesswords {
    let mut g = setup(fen, white, black, pile);
    g.state.secret_discards = false;
    g
}

/// Pawns facing each other: White's pawn a3 can take Black's pawn b4.
const PAWNS: &str = "5k/6/1p1p1p/P1P1P1/3P2/K5 w - - 0 1";

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// A word that fits the move `uci` of `g`: its two letters with an A between.
fn word_for(g: &Chesswords, uci: &str) -> String {
    let m = find_uci(g.position(), uci).unwrap();
    format!("{}A{}", g.letter(m.from), g.letter(m.to))
}

/// The notes' texts that name no player (not moves, not reveals), public or private.
fn texts(events: &[Event], public: bool) -> Vec<String> {
    events
        .iter()
        .filter(|e| !e.text.0.iter().any(|s| matches!(s, Span::Player(_))))
        .filter(|e| (e.to == Audience::Everyone) == public)
        .map(|e| typed_commands(&e.text.render(|s| side(s).to_string())))
        .collect()
}

/// The texts of the notes to `seat` alone.
fn whispers(events: &[Event], seat: Seat) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.to == Audience::Seat(seat))
        .map(|e| typed_commands(&e.text.render(|s| side(s).to_string())))
        .collect()
}

/// The clue giver clues and the mover plays `uci` with a fitting word.
fn clue_and_play(g: &mut Chesswords, uci: &str) -> Vec<Event> {
    let mover = g.mover();
    g.act(partner(mover), &Action::Clue("a hint".into()))
        .unwrap();
    let word = word_for(g, uci);
    g.act(
        mover,
        &Action::Play {
            word,
            mv: uci.into(),
        },
    )
    .unwrap()
}

#[test]
fn black_clues_first_then_white_moves_with_a_word() {
    let mut g = Chesswords::new(None, 1, None).unwrap();
    assert_eq!(g.awaiting(), vec![(B, prompts::give_clue())]);
    assert!(g.legal_moves(W).is_empty(), "no move before the clue");
    let e = g.parse_move(W, "Nd3").unwrap_err();
    assert!(e.text.contains("Black gives a clue"), "{e}");
    let e = g.act(W, &Action::Clue("mine".into())).unwrap_err();
    assert!(e.text.contains("Black gives a clue"), "{e}");
    let ev = g.act(B, &Action::Clue("  a sweet dish ".into())).unwrap();
    assert_eq!(texts(&ev, true), vec!["Black's clue: “a sweet dish”"]);
    assert_eq!(g.awaiting(), vec![(W, prompts::play_word())]);
    assert_eq!(
        g.legal_moves(W).len(),
        10,
        "six pawn moves, four knight moves"
    );
    let uci = g.parse_move(W, "Nd3").unwrap();
    assert_eq!(uci, "e1d3");
    let ev = g
        .act(
            W,
            &Action::Play {
                word: word_for(&g, "e1d3").to_lowercase(),
                mv: uci,
            },
        )
        .unwrap();
    assert!(ev[0].board && ev[0].text == Text::player(W, " played Nd3"));
    assert!(texts(&ev, true)[0].starts_with("with the word "));
    assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
}

#[test]
fn clues_are_one_line_of_one_to_a_hundred_characters() {
    let mut g = Chesswords::new(None, 1, None).unwrap();
    let before = g.snapshot().unwrap();
    for bad in ["", "   ", "two\nlines", &"x".repeat(101)] {
        let e = g.act(B, &Action::Clue(bad.into())).unwrap_err();
        assert!(e.text.contains("1 to 100 characters"), "{e}");
    }
    assert_eq!(g.snapshot().unwrap(), before);
    g.act(B, &Action::Clue("é".repeat(100))).unwrap();
}

#[test]
fn a_move_whose_letters_do_not_match_the_word_is_refused_and_changes_nothing() {
    let mut g = Chesswords::new(None, 3, None).unwrap();
    g.act(B, &Action::Clue("hint".into())).unwrap();
    let before = g.snapshot().unwrap();
    let (from, to) = (g.letter(sq("e1")), g.letter(sq("d3")));
    // A word with the right first letter and a wrong last one.
    let wrong_end = if to == 'Z' { 'Y' } else { 'Z' };
    let word = format!("{from}O{wrong_end}");
    let e = g
        .act(
            W,
            &Action::Play {
                word: word.clone(),
                mv: "e1d3".into(),
            },
        )
        .unwrap_err();
    assert!(
        e.text.starts_with(&format!(
            "the move goes from {from} to {to}, but '{word}' starts with {from} and ends with {wrong_end}"
        )),
        "{e}"
    );
    assert!(e.text.contains("letters XY MOVE"), "{e}");
    for word in ["x", "tw0", "two words"] {
        let e = g
            .act(
                W,
                &Action::Play {
                    word: word.into(),
                    mv: "e1d3".into(),
                },
            )
            .unwrap_err();
        assert!(e.text.contains("word"), "{e}");
    }
    assert_eq!(g.snapshot().unwrap(), before);
}

#[test]
fn naming_the_letters_costs_a_penalty_point_and_must_match() {
    let mut g = Chesswords::new(None, 3, None).unwrap();
    g.act(B, &Action::Clue("hint".into())).unwrap();
    let (from, to) = (g.letter(sq("b2")), g.letter(sq("b3")));
    let wrong = format!("{}{}", if from == 'Q' { 'R' } else { 'Q' }, to);
    let e = g
        .act(
            W,
            &Action::Letters {
                letters: wrong,
                mv: "b2b3".into(),
            },
        )
        .unwrap_err();
    assert!(e
        .text
        .starts_with(&format!("the move goes from {from} to {to}, not")));
    let e = g
        .act(
            W,
            &Action::Letters {
                letters: "abc".into(),
                mv: "b2b3".into(),
            },
        )
        .unwrap_err();
    assert!(e.text.contains("not two letters"), "{e}");
    assert_eq!(g.state.penalties, 0);
    let ev = g
        .act(
            W,
            &Action::Letters {
                letters: format!("{}{}", from.to_ascii_lowercase(), to),
                mv: "b2b3".into(),
            },
        )
        .unwrap();
    assert_eq!(g.state.penalties, 1);
    assert!(texts(&ev, true)[0].contains("one penalty point (1 in all)"));
}

#[test]
fn a_bare_move_after_a_clue_and_a_word_after_a_pass_are_refused_with_the_form() {
    let mut g = Chesswords::new(None, 2, None).unwrap();
    g.act(B, &Action::Clue("hint".into())).unwrap();
    let e = g.act(W, &Action::Move("b2b3".into())).unwrap_err();
    assert!(e.text.contains("play WORD MOVE"), "{e}");
    let mut g = Chesswords::new(None, 2, None).unwrap();
    let ev = g.act(B, &Action::Pass).unwrap();
    assert_eq!(texts(&ev, true), vec!["Black passes: White moves freely"]);
    assert_eq!(g.awaiting(), vec![(W, prompts::free_move())]);
    let word = word_for(&g, "b2b3");
    let e = g
        .act(
            W,
            &Action::Play {
                word,
                mv: "b2b3".into(),
            },
        )
        .unwrap_err();
    assert!(e.text.contains("Black passed, so you move freely"), "{e}");
    g.act(W, &Action::Move("b2b3".into())).unwrap();
    assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
}

#[test]
fn two_passes_in_a_row_end_play_and_nothing_marked_scores_at_once() {
    let mut g = Chesswords::new(None, 5, None).unwrap();
    g.act(B, &Action::Pass).unwrap();
    g.act(W, &Action::Move("b2b3".into())).unwrap();
    let ev = g.act(W, &Action::Pass).unwrap();
    let public = texts(&ev, true).join(" | ");
    assert!(public.contains("both players passed in a row"), "{public}");
    assert!(public.contains("No letters are marked"), "{public}");
    let o = g.outcome().unwrap();
    assert_eq!((o.result.as_str(), o.reason.name()), ("F", "passes"));
    assert_eq!(o.score, Some(vec![0, 0]));
    assert!(g.awaiting().is_empty());
}

#[test]
fn a_pass_then_a_clue_then_a_pass_does_not_end_play() {
    let mut g = Chesswords::new(None, 5, None).unwrap();
    g.act(B, &Action::Pass).unwrap();
    g.act(W, &Action::Move("b2b3".into())).unwrap();
    clue_and_play_after_clue(&mut g, "b5b4");
    g.act(B, &Action::Pass).unwrap();
    assert!(g.outcome().is_none());
    assert_eq!(g.awaiting(), vec![(W, prompts::free_move())]);
}

fn clue_and_play_after_clue(g: &mut Chesswords, uci: &str) {
    clue_and_play(g, uci);
}

/// Checkers placed on `squares` before play (as if by earlier discards), so that the
/// finale has the four letters two words need.
fn premark(g: &mut Chesswords, squares: &[&str]) {
    for s in squares {
        g.state.discards.push(Discarded {
            by: W,
            card: Card::parse("wQ").unwrap(),
            square: (*s).into(),
            ply: 0,
        });
    }
}

#[test]
fn a_mover_left_only_with_moves_onto_checkers_ends_play() {
    let mut g = setup("5k/6/6/6/6/K5 b - - 0 1", "wQ", "bQ", "");
    for s in ["a2", "b1", "b2"] {
        g.state.discards.push(Discarded {
            by: W,
            card: Card::parse("wQ").unwrap(),
            square: s.into(),
            ply: 0,
        });
    }
    assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
    g.act(W, &Action::Pass).unwrap();
    let ev = g.act(B, &Action::Move("f6e6".into())).unwrap();
    assert!(texts(&ev, true)
        .join(" ")
        .contains("the player to move has no move that does not end on a checker"));
    assert_eq!(g.state.play_end, Some(PlayEnd::NoMoves));
    // Three marked letters make no two words: no finale, the score at once.
    assert!(
        texts(&ev, true)
            .join(" ")
            .contains("Only 3 letters are marked"),
        "{:?}",
        texts(&ev, true)
    );
    assert!(g.is_over());
}

#[test]
fn chesswords_finale_needs_four_marked_letters() {
    for (marked, finale) in [(0, false), (1, false), (3, false), (4, true)] {
        let mut g = setup("5k/6/6/6/6/K4R w - - 0 1", "wQ", "bQ wN", "bN");
        premark(&mut g, &["c3", "c4", "d3", "d4"][..marked]);
        let ev = clue_and_play(&mut g, "f1f6");
        let public = texts(&ev, true).join(" | ");
        assert_eq!(g.awaiting(), vec![(B, prompts::last_discard())]);
        let ev = g.act(B, &Action::Discard("None".into())).unwrap();
        let public = format!("{public} | {}", texts(&ev, true).join(" | "));
        assert_eq!(g.state.phase == Phase::Words, finale, "{marked}: {public}");
        assert_eq!(g.is_over(), !finale, "{marked}: {public}");
        if !finale {
            assert!(public.contains("so there is no finale"), "{public}");
            // Each player has no words: minus every marked letter, plus the king.
            let o = g.outcome().unwrap();
            let each = 1 - marked as i32;
            assert_eq!(o.score, Some(vec![each, each]), "{public}");
        }
    }
}

#[test]
fn timeouts_a_clue_giver_passes_a_mover_ends_play() {
    let mut g = Chesswords::new(None, 9, None).unwrap();
    let ev = g.act(B, &Action::Timeout).unwrap();
    assert_eq!(
        texts(&ev, true),
        vec![
            "Black's time ran out: that is a pass",
            "Black passes: White moves freely"
        ]
    );
    assert!(g.act(B, &Action::Timeout).is_err(), "Black is not awaited");
    g.act(W, &Action::Move("b2b3".into())).unwrap();
    // White's time runs out on the clue: a second pass in a row.
    g.act(W, &Action::Timeout).unwrap();
    assert_eq!(g.outcome().unwrap().reason.name(), "passes");

    let mut g = Chesswords::new(None, 9, None).unwrap();
    g.act(B, &Action::Clue("hint".into())).unwrap();
    g.act(W, &Action::Timeout).unwrap();
    assert_eq!(g.state.play_end, Some(PlayEnd::Timeout));
    assert_eq!(g.outcome().unwrap().reason.name(), "timeout");
}

/// Four pawn captures, each followed by the holder's discard of a pawn: checkers on
/// a3, d4, e3, c3; then two passes. One of the moves names its letters (a penalty
/// point).
fn four_checkers() -> Chesswords {
    let mut g = setup(PAWNS, "wP wP wK bQ", "bP bP bK wQ", "bR wR bN wN wK bK");
    clue_and_play(&mut g, "a3b4");
    g.act(B, &Action::Discard("bP".into())).unwrap();
    g.act(W, &Action::Clue("hint".into())).unwrap();
    let m = find_uci(g.position(), "d4c3").unwrap();
    let letters = format!("{}{}", g.letter(m.from), g.letter(m.to));
    g.act(
        B,
        &Action::Letters {
            letters,
            mv: "d4c3".into(),
        },
    )
    .unwrap();
    g.act(W, &Action::Discard("wP".into())).unwrap();
    clue_and_play(&mut g, "e3f4");
    g.act(B, &Action::Discard("bP".into())).unwrap();
    clue_and_play(&mut g, "c3d2");
    g.act(W, &Action::Discard("wP".into())).unwrap();
    g.act(B, &Action::Pass).unwrap();
    g.act(W, &Action::Move("a1b1".into())).unwrap();
    g.act(W, &Action::Pass).unwrap();
    g
}

#[test]
fn the_scoring_worked_example_through_a_game() {
    let mut g = four_checkers();
    assert_eq!(g.checkers(), vec![sq("a3"), sq("d4"), sq("e3"), sq("c3")]);
    assert_eq!(g.state.penalties, 1);
    assert_eq!(g.state.phase, Phase::Words);
    let m: Vec<char> = g.marked_letters();
    let w = |a: usize, b: usize| format!("{}{}", m[a], m[b]);
    // Words that use letters not marked, or one too often, are refused.
    let e = g
        .act(W, &Action::Words(vec![w(0, 0), w(0, 0)]))
        .unwrap_err();
    assert!(e.text.contains("times") || e.text.contains("only"), "{e}");
    let e = g.act(W, &Action::Words(vec![w(0, 1)])).unwrap_err();
    assert!(e.text.contains("two words"), "{e}");
    // White: two words using all four letters. Black: one pair, two letters unused.
    let white = vec![w(0, 1), w(2, 3)];
    let ev = g.act(W, &Action::Words(white.clone())).unwrap();
    assert_eq!(texts(&ev, true), vec!["White has submitted their words"]);
    for word in &white {
        assert!(!texts(&ev, true).join(" ").contains(word.as_str()));
    }
    assert_eq!(g.awaiting(), vec![(B, prompts::submit_words())]);
    // White may replace the words until Black has submitted.
    let ev = g.act(W, &Action::Words(white.clone())).unwrap();
    assert!(texts(&ev, true).is_empty());
    let black = vec![w(0, 2), w(1, 3)];
    g.act(B, &Action::Words(black.clone())).unwrap();
    assert_eq!(g.awaiting(), vec![(W, prompts::clue_for_word())]);
    g.act(W, &Action::Clue("first".into())).unwrap();
    assert_eq!(g.awaiting(), vec![(B, prompts::guess())]);
    let ev = g.act(B, &Action::Guess(white[1].to_lowercase())).unwrap();
    assert!(texts(&ev, true)[0].ends_with("right!"));
    assert!(ev.iter().any(
        |e| e.text.0.first() == Some(&Span::Text("revealed: ".into()))
            && e.text.0.get(1) == Some(&Span::Player(W))
    ));
    g.act(B, &Action::Clue("second".into())).unwrap();
    let ev = g.act(W, &Action::Guess("zzz".into())).unwrap();
    assert!(texts(&ev, true)[0].ends_with("not one of the words"));
    // White: 2 × 2 = 4, no king, nothing unused. Black: not guessed, 0.
    // Total 4 + 0 - 1 penalty = 3: lost.
    let o = g.outcome().unwrap();
    assert_eq!(o.score, Some(vec![4, 0]));
    assert_eq!(o.result, "F");
    assert_eq!(o.reason.name(), "passes");
    assert!(texts(&ev, true)
        .join(" ")
        .contains("penalty points -1; total 3: below 50"));
    assert_eq!(
        g.view(Viewer::Public).board.caption.result.as_deref(),
        Some("Lost (F) · 3 points")
    );
}

/// A record's text with every run of white space one space (comments wrap at 80).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn chesswords_pgn_comments_give_what_was_said_and_the_words_only_once_over() {
    let mut g = four_checkers();
    let pgn = flat(&g.pgn_text(&[]));
    assert!(pgn.contains("{clue “a hint”, word "), "{pgn}");
    assert!(pgn.contains("{clue “hint”, letters "), "{pgn}");
    assert!(pgn.contains("(penalty point)}"), "{pgn}");
    assert!(pgn.contains("{after a pass}"), "{pgn}");
    // Words submitted but the game not over: they stay out of the record.
    let marked: String = g.marked_letters().iter().collect();
    let (a, b) = (marked[..2].to_string(), marked[2..4].to_string());
    g.act(W, &Action::Words(vec![a.clone(), b.clone()]))
        .unwrap();
    let pgn = flat(&g.pgn_text(&[]));
    assert!(
        !pgn.contains("finale") && !pgn.contains(&a.to_uppercase()),
        "{pgn}"
    );
    g.act(B, &Action::Words(vec![])).unwrap();
    g.act(W, &Action::Clue("{tricky}".into())).unwrap();
    assert!(!g.pgn_text(&[]).contains("finale"));
    g.act(B, &Action::Guess("nothing".into())).unwrap();
    assert!(g.is_over());
    let pgn = flat(&g.pgn_text(&[]));
    assert!(
        pgn.contains(&format!(
            "{{finale: White's words {} and {}, clue “(tricky)”, Black guessed ",
            a.to_uppercase(),
            b.to_uppercase()
        )),
        "{pgn}"
    );
    assert!(pgn.contains("(wrong); Black had no words}"), "{pgn}");
    for line in g.pgn_text(&[]).lines() {
        assert!(line.len() <= 80, "{line}");
    }
}

#[test]
fn a_player_without_words_gives_no_clue_and_loses_the_marked_letters() {
    let mut g = four_checkers();
    g.act(W, &Action::Words(vec![])).unwrap();
    let ev = g.act(B, &Action::Timeout).unwrap();
    let public = texts(&ev, true).join(" | ");
    assert!(public.contains("Black's time ran out: Black has no words"));
    assert!(public.contains("White has no words: Black has nothing to guess"));
    let o = g.outcome().unwrap();
    assert_eq!(o.score, Some(vec![-4, -4]));
}

#[test]
fn the_finale_timer_applies_to_the_last_discard_and_the_words_only() {
    let fen = "5k/6/6/6/6/K4R w - - 0 1";
    let mut g = Chesswords::new(Some(fen), 4, Some(3)).unwrap();
    g.state.hands = [cards_of("wQ"), cards_of("bK")];
    premark(&mut g, &["c3", "c4", "d3"]);
    assert_eq!(g.time_limit(B), None);
    clue_and_play(&mut g, "f1f6");
    assert_eq!((g.time_limit(W), g.time_limit(B)), (None, Some(180)));
    assert!(g.instructions(B).unwrap().ends_with("You have 3 minutes"));
    g.act(B, &Action::Discard("bK".into())).unwrap();
    assert_eq!(g.time_limit(W), Some(180));
    assert!(g.instructions(W).unwrap().contains("You have 3 minutes"));
    g.act(W, &Action::Words(vec![])).unwrap();
    assert_eq!(g.time_limit(W), None, "submitted");
    assert_eq!(g.time_limit(B), Some(180));
    for t in [0, 6] {
        let e = Chesswords::new(None, 4, Some(t)).unwrap_err();
        assert!(e.text.contains("1 to 5 minutes"), "{e}");
    }
}

#[test]
fn resigning_loses_the_game_and_abort_is_only_before_both_moved() {
    let mut g = Chesswords::new(None, 1, None).unwrap();
    assert!(g.can_abort());
    let ev = g.act(B, &Action::Resign).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.result.as_str(), o.reason.name()), ("F", "resignation"));
    assert!(texts(&ev, true)[0].ends_with("lose the game together (F)"));
    assert!(g.act(W, &Action::Pass).is_err());
    let mut g = Chesswords::new(None, 1, None).unwrap();
    g.act(B, &Action::Pass).unwrap();
    g.act(W, &Action::Move("b2b3".into())).unwrap();
    g.act(W, &Action::Clue("hint".into())).unwrap();
    g.act(
        B,
        &Action::Play {
            word: word_for(&g, "b5b4"),
            mv: "b5b4".into(),
        },
    )
    .unwrap();
    assert!(!g.can_abort());
    assert!(g.act(W, &Action::Abort).is_err());
    let offer: crate::variants::api::Action = serde_json::from_str(r#"{"Offer":"Draw"}"#).unwrap();
    let e = g.apply(W, &offer).unwrap_err();
    assert!(e.text.contains("not part of Secret Chesswords"), "{e}");
}

#[test]
fn snapshots_round_trip_and_replay_equals_the_snapshot() {
    let fen = "5k/6/1p1p1p/P1P1P1/3P2/K5 w - - 0 1";
    // The cards come from the operating system: the replay starts from the stored
    // starting state, as the referee's does.
    let os_deal = || cards::deal_from(&mut OsEntropy);
    let mut g = Chesswords::with_deal(Some(fen), 11, os_deal(), None).unwrap();
    let start = g.snapshot().unwrap();
    let mut log: Vec<(Seat, Action)> = Vec::new();
    let mut act = |g: &mut Chesswords, seat: Seat, a: Action| {
        g.act(seat, &a).unwrap();
        log.push((seat, a));
        // A holder with a card that fits discards the first.
        if let Some(open) = g.state.open_discard.clone() {
            if let Some(card) = g.discardable(&open).first() {
                let a = Action::Discard(card.short());
                g.act(open.holder, &a).unwrap();
                log.push((open.holder, a));
            }
        }
        let state: State = serde_json::from_value(g.snapshot().unwrap()).unwrap();
        let back = Chesswords::from_snapshot(&state).unwrap();
        assert_eq!(back.snapshot().unwrap(), g.snapshot().unwrap());
        assert_eq!(back.awaiting(), g.awaiting());
    };
    act(&mut g, B, Action::Pass);
    act(&mut g, W, Action::Move("a3b4".into()));
    act(&mut g, W, Action::Clue("hint".into()));
    let word = word_for(&g, "d4c3");
    act(
        &mut g,
        B,
        Action::Play {
            word,
            mv: "d4c3".into(),
        },
    );
    act(&mut g, B, Action::Pass);
    act(&mut g, W, Action::Move("e3e4".into()));
    act(&mut g, W, Action::Clue("hint".into()));
    let m = find_uci(g.position(), "c3d2").unwrap();
    let letters = format!("{}{}", g.letter(m.from), g.letter(m.to));
    act(
        &mut g,
        B,
        Action::Letters {
            letters,
            mv: "c3d2".into(),
        },
    );
    act(&mut g, B, Action::Clue("hint".into()));
    let word = word_for(&g, "a1b1");
    act(
        &mut g,
        W,
        Action::Play {
            word,
            mv: "a1b1".into(),
        },
    );
    let mut replayed =
        Chesswords::from_snapshot(&serde_json::from_value(start.clone()).unwrap()).unwrap();
    for (seat, a) in &log {
        replayed.act(*seat, a).unwrap();
    }
    assert_eq!(replayed.snapshot().unwrap(), g.snapshot().unwrap());
    // Not a fresh deal: the same settings deal other cards.
    let fresh = Chesswords::with_deal(Some(fen), 11, os_deal(), None).unwrap();
    assert_ne!(fresh.snapshot().unwrap(), start);
}

#[test]
fn a_game_stored_before_replays_from_the_deal_of_its_seed() {
    let mut g = Chesswords::new(Some(PAWNS), 3, None).unwrap();
    let dealt = cards::deal(3);
    g.state.secret_discards = false;
    let stored = serde_json::to_value(&g.state).unwrap();
    assert!(stored.get("secret_discards").is_none());
    assert_eq!(g.state.hands, dealt.hands);
    let mut log = Vec::new();
    for (seat, a) in [
        (B, Action::Pass),
        (W, Action::Move("a3b4".into())),
        (W, Action::Pass),
    ] {
        g.act(seat, &a).unwrap();
        log.push((seat, a));
        // Those games still ask for a choice between two kinds.
        if let Phase::Discard {
            holder, options, ..
        } = g.state.phase.clone()
        {
            let a = Action::Discard(options[0].short());
            g.act(holder, &a).unwrap();
            log.push((holder, a));
        }
    }
    let mut replayed = Chesswords::from_snapshot(&serde_json::from_value(stored).unwrap()).unwrap();
    for (seat, a) in &log {
        replayed.act(*seat, a).unwrap();
    }
    assert_eq!(replayed.snapshot().unwrap(), g.snapshot().unwrap());
    assert!(g.snapshot().unwrap().get("secret_discards").is_none());
}

#[test]
fn the_seed_draws_the_letters_and_the_operating_system_the_cards() {
    let os_deal = || cards::deal_from(&mut OsEntropy);
    let a = Chesswords::with_deal(None, 42, os_deal(), None).unwrap();
    let b = Chesswords::with_deal(None, 42, os_deal(), None).unwrap();
    assert_eq!(a.state.letters, LetterGrid::from_seed(42));
    assert_eq!(b.state.letters, a.state.letters);
    assert_ne!(
        (&a.state.hands, &a.state.pile),
        (&b.state.hands, &b.state.pile)
    );
    assert_ne!(a.state.hands, cards::deal(42).hands);
    // Reproducible only where every draw is seeded.
    let c = Chesswords::new(None, 42, None).unwrap();
    let d = Chesswords::new(None, 42, None).unwrap();
    assert_eq!(
        (&c.state.hands, &c.state.pile),
        (&d.state.hands, &d.state.pile)
    );
    let view = a.view(Viewer::Public);
    let letters = view.board.overlays.iter().find_map(|o| match o {
        Overlay::Letters(l) => Some(l.len()),
        _ => None,
    });
    assert_eq!(letters, Some(36));
    let fields = a.export_fields(Viewer::Public);
    assert_eq!(
        fields["letters"],
        serde_json::json!(a.state.letters.rows_from_top())
    );
    for key in ["hands", "pile", "words"] {
        assert!(!fields.contains_key(key), "{key}");
    }
}

/// Every card name, to look for in texts.
fn card_names() -> Vec<Card> {
    let mut all = cards::deck();
    all.dedup();
    all
}

#[test]
fn no_view_or_public_event_names_a_held_card_or_an_unrevealed_word() {
    let mut g = four_checkers();
    // Every public text so far was checked by the play; here: views and summaries.
    let m = g.marked_letters();
    let white = vec![format!("{}{}", m[0], m[1]), format!("{}{}", m[2], m[3])];
    g.act(W, &Action::Words(white.clone())).unwrap();
    for viewer in [Viewer::Public, Viewer::Seat(W), Viewer::Seat(B)] {
        let v = g.view(viewer);
        for card in card_names() {
            assert!(!v.diagram.contains(&card.name()), "{viewer:?}");
        }
        if viewer != Viewer::Seat(W) {
            for w in &white {
                assert!(!format!("{:?}", v).contains(&format!("{w} ")));
            }
        }
    }
    let summary = g.secret_summary(B).unwrap();
    assert!(summary.contains(&cards::hand_text(&g.state.hands[1])));
    for card in &g.state.hands[0] {
        if !g.state.hands[1].contains(card) {
            assert!(!summary.contains(&card.name()), "{summary}");
        }
    }
    assert!(!summary.contains(&white[0]));
    assert!(g.secret_summary(W).unwrap().contains(&white.join(" and ")));
}
