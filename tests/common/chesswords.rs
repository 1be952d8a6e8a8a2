//! Secret Chesswords in tests: a random pair of partners to drive a game, and reading a
//! text for the cards and words it names.

use postal::rules::Square;
use postal::variants::api::random::{Random, SeededRng};
use postal::variants::api::{GameRules, Seat, Viewer};
use postal::variants::chesswords::cards::{deck, qualifying, Card};
use postal::variants::chesswords::game::{Chesswords, OpenDiscard, Phase, State};
use postal::variants::chesswords::ChesswordsAction as Action;
use std::collections::HashSet;

/// The kinds of card (ten: five roles of each colour).
pub fn kinds() -> Vec<Card> {
    let mut all = deck();
    all.dedup();
    all
}

/// The upper-case alphabetic tokens of a text.
pub fn tokens(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|t| !t.is_empty())
        .map(str::to_ascii_uppercase)
        .collect()
}

/// The card kinds a text names.
pub fn named(text: &str) -> Vec<Card> {
    let lower = text.to_lowercase();
    kinds()
        .into_iter()
        .filter(|c| lower.contains(&c.name()))
        .collect()
}

/// A copy of the game's state.
pub fn state(g: &Chesswords) -> State {
    g.state().clone()
}

/// The kinds of card the holder of `open` may discard, in hand order.
pub fn fitting(s: &State, open: &OpenDiscard) -> Vec<Card> {
    qualifying(
        &s.hands[open.holder.0 as usize],
        open.captured.color,
        open.captured.role,
        open.capturer.role,
    )
}

/// What a random pair of partners does now, given the game (the driver plays both seats
/// and may look at their secrets, as each player knows their own).
pub fn choose(g: &Chesswords, rng: &mut SeededRng, plies: usize) -> (Seat, Action) {
    // In play, a holder whose cards fit the open discard usually discards, whoever is
    // awaited.
    if let (Some(open), false) = (
        &g.state().open_discard,
        matches!(g.state().phase, Phase::LastDiscard { .. }),
    ) {
        let options = fitting(g.state(), open);
        if !options.is_empty() && rng.below(3) != 0 {
            let card = options[rng.below(options.len() as u64) as usize];
            return (open.holder, Action::Discard(card.short()));
        }
    }
    let awaiting = g.awaiting();
    let (seat, prompt) = awaiting[rng.below(awaiting.len() as u64) as usize].clone();
    // Now and then the awaited seat's time runs out.
    if rng.below(60) == 0 {
        return (seat, Action::Timeout);
    }
    let s = state(g);
    let letter = |sq: &str| {
        let sq = Square::parse(sq).unwrap();
        s.letters
            .letters()
            .into_iter()
            .find(|(q, _)| *q == sq)
            .unwrap()
            .1
    };
    let action = match prompt.kind.as_str() {
        "clue" => {
            if plies > 80 || rng.below(6) == 0 {
                Action::Pass
            } else {
                Action::Clue(format!("hint number {}", rng.below(100)))
            }
        }
        "finale-clue" => Action::Clue("think of a fruit".into()),
        "play" | "move" => {
            let moves = g.project(Viewer::Seat(seat)).legal;
            let san = &moves[rng.below(moves.len() as u64) as usize];
            let uci = g.parse_move(seat, san).unwrap();
            if prompt.kind == "move" {
                Action::Move(uci)
            } else {
                let (from, to) = (letter(&uci[0..2]), letter(&uci[2..4]));
                if rng.below(5) == 0 {
                    Action::Letters {
                        letters: format!("{from}{to}"),
                        mv: uci,
                    }
                } else {
                    Action::Play {
                        word: format!("{from}ee{to}"),
                        mv: uci,
                    }
                }
            }
        }
        "last-discard" => {
            let open = s.open_discard.clone().expect("the last discard is open");
            let options = fitting(&s, &open);
            if options.is_empty() || rng.below(4) == 0 {
                Action::Discard("none".into())
            } else {
                Action::Discard(options[rng.below(options.len() as u64) as usize].short())
            }
        }
        "words" => {
            let marked = g.marked_letters();
            if marked.len() >= 4 && rng.below(4) != 0 {
                let w = |a: usize, b: usize| format!("{}{}", marked[a], marked[b]);
                // The partners build different words (the same letters, reversed).
                if seat == Seat(0) {
                    Action::Words(vec![w(0, 1), w(2, 3)])
                } else {
                    Action::Words(vec![w(1, 0), w(3, 2)])
                }
            } else {
                Action::Words(Vec::new())
            }
        }
        "guess" => {
            let giver = Seat(1 - seat.0);
            let words = s.words[giver.0 as usize].clone().unwrap_or_default();
            match words.first() {
                Some(w) if rng.coin() => Action::Guess(w.to_lowercase()),
                _ => Action::Guess("zzzz".into()),
            }
        }
        other => panic!("unexpected prompt {other}"),
    };
    (seat, action)
}
