//! Secret Chesswords played to the end by a random pair of partners, for many seeds, by
//! the rules alone and through the referee: no public message and nothing sent to the
//! other player names a card a player holds before it is discarded, nor a secret word
//! before its reveal; every refusal changes nothing; the snapshot reloads to the same game
//! and the replay of the actions equals it. Also the animation, the PGN and the export of
//! a game in progress, and a game stored by the version before.
//!
//! Through the referee: `chesswords_secrets.rs` (what messages and exports show) and
//! `chesswords_finale.rs` (the finale's timer, word list and export).

use crate::common;

use common::chesswords::{choose, fitting, kinds, named, state, tokens};
use common::disguise::{check_action_alike, check_every_disguise, disguises_of_others};

use postal::variants::api::random::SeededRng;
use postal::variants::api::{
    Apply, Audience, GameRules, NewGame, Note, Options, Seat, Span, Viewer,
};
use postal::variants::chesswords::cards::{deck, Card};
use postal::variants::chesswords::game::{Chesswords, Phase, State};
use postal::variants::chesswords::ChesswordsAction as Action;
use postal::variants::Registry;
use std::collections::HashSet;

/// An action as the log stores it.
fn logged(action: &Action) -> postal::variants::api::Action {
    postal::variants::api::Action::of(action).unwrap()
}

/// A note as its audience reads it (`None`: everyone), players named by their side.
fn read_note(g: &Chesswords, note: &Note) -> (Option<Seat>, String) {
    let to = match note.to {
        Audience::Everyone => None,
        Audience::Seat(s) => Some(s),
    };
    (to, note.text.render(|s| g.seat_name(s).to_string()))
}

/// The seat whose words a note reveals (`revealed: White had the words ...`).
fn revealed_by(note: &Note) -> Option<Seat> {
    match note.text.0.as_slice() {
        [Span::Text(t), Span::Player(s), ..] if t == "revealed: " => Some(*s),
        _ => None,
    }
}

/// Actions that must be refused now, each changing nothing.
fn refusals(g: &Chesswords) -> Vec<(Seat, postal::variants::api::Action)> {
    let awaited: Vec<Seat> = g.awaiting().into_iter().map(|(s, _)| s).collect();
    let idle: Vec<Seat> = [Seat(0), Seat(1)]
        .into_iter()
        .filter(|s| !awaited.contains(s))
        .collect();
    // An action of another variant (a draw offer) is refused too.
    let offer = serde_json::from_str(r#"{"Offer":"Draw"}"#).unwrap();
    let mut out = vec![(Seat(0), offer), (Seat(2), logged(&Action::Pass))];
    let holder = g.state().open_discard.as_ref().map(|o| o.holder);
    for s in idle {
        out.push((s, logged(&Action::Timeout)));
        out.push((s, logged(&Action::Guess("word".into()))));
        if holder != Some(s) {
            out.push((s, logged(&Action::Discard("wP".into()))));
        }
    }
    // The holder of an open discard: a card that does not fit, and `none` in play.
    if let Some(open) = &g.state().open_discard {
        let fits = fitting(g.state(), open);
        if let Some(card) = deck().into_iter().find(|c| !fits.contains(c)) {
            out.push((open.holder, logged(&Action::Discard(card.short()))));
        }
        if !matches!(g.state().phase, Phase::LastDiscard { .. }) {
            out.push((open.holder, logged(&Action::Discard("none".into()))));
        }
    }
    if let [(seat, prompt)] = g.awaiting().as_slice() {
        if prompt.kind == "play" {
            let moves = g.project(Viewer::Seat(*seat)).legal;
            let uci = g.parse_move(*seat, &moves[0]).unwrap();
            // A bare move after a clue, and a word whose letters cannot fit (Q is on no
            // plank).
            out.push((*seat, logged(&Action::Move(uci.clone()))));
            out.push((
                *seat,
                logged(&Action::Play {
                    word: "QQ".into(),
                    mv: uci,
                }),
            ));
        }
    }
    out
}

#[test]
fn random_games_keep_every_secret_and_replay_to_their_snapshot() {
    let mut finished = 0;
    let mut discards = 0;
    let mut reveals = 0;
    let mut disguised_states = 0;
    for seed in 0..60u64 {
        let timer_minutes = (seed % 3 == 0).then_some(2);
        let game_seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut g = Chesswords::new(None, game_seed, timer_minutes).unwrap();
        let mut options = Options::new();
        if let Some(t) = timer_minutes {
            options.insert("timer".into(), t.to_string());
        }
        // Every draw reproducible: the cards from the same seed as the letters.
        let setup = NewGame {
            options,
            seed: game_seed,
            hidden_seed: Some(game_seed),
            ..NewGame::default()
        };
        // The state as set up, which the referee stores for the log to replay from.
        let start = Registry::builtin()
            .new_game("chesswords", &setup)
            .unwrap()
            .snapshot()
            .unwrap();
        assert_eq!(start, g.snapshot().unwrap());
        let mut rng = SeededRng::new(seed);
        let mut log: Vec<(Seat, postal::variants::api::Action)> = Vec::new();
        let mut typed: HashSet<String> = HashSet::new();
        let mut revealed = [false, false];
        let mut steps = 0;
        while !g.is_over() {
            steps += 1;
            assert!(steps < 500, "seed {seed}: the game does not end");
            for (seat, action) in refusals(&g) {
                let before = g.snapshot().unwrap();
                assert!(
                    g.apply(seat, &action).is_err(),
                    "{seed}: {action:?} accepted"
                );
                assert_eq!(
                    g.snapshot().unwrap(),
                    before,
                    "{seed}: a refusal changed the game"
                );
            }
            let (seat, action) = choose(&g, &mut rng, state(&g).moves.len());
            let before = state(&g);
            // The leak walker's checks, deep into games it cannot reach by itself: what
            // others see does not depend on a hand (tests/common/disguise.rs).
            let at = format!("seed {seed} step {steps}");
            disguised_states += check_every_disguise(&g, &at);
            let disguised = disguises_of_others(&g, seat, &logged(&action));
            let events = g
                .act(seat, &action)
                .unwrap_or_else(|e| panic!("seed {seed}: {action:?} by {seat:?}: {e}"));
            check_action_alike(
                &g,
                seat,
                &logged(&action),
                &Ok(events.clone()),
                disguised,
                &at,
            );
            log.push((seat, logged(&action)));
            // What players typed where everyone reads it is public.
            match &action {
                Action::Clue(t) | Action::Guess(t) => typed.extend(tokens(t)),
                Action::Play { word, .. } => typed.extend(tokens(word)),
                _ => {}
            }
            let after = state(&g);
            let discarded: Vec<Card> = after.discards[before.discards.len()..]
                .iter()
                .map(|d| d.card)
                .collect();
            discards += discarded.len();
            for e in &events {
                if let Some(s) = revealed_by(e) {
                    revealed[s.0 as usize] = true;
                    reveals += 1;
                    // A revealed word is public, even where the partner has it too.
                    typed.extend(tokens(&read_note(&g, e).1));
                }
            }
            // The notes, and the end the referee announces from the outcome.
            let ending = g.outcome().filter(|_| before.outcome.is_none());
            let said = events
                .iter()
                .map(|e| read_note(&g, e))
                .chain(ending.map(|o| (None, o.to_string())));
            for (to, text) in said {
                // Cards: a public text names only what this action discarded; a private
                // one also what its own seat holds.
                for card in named(&text) {
                    let own = to.is_some_and(|s| after.hands[s.0 as usize].contains(&card));
                    assert!(
                        discarded.contains(&card) || own,
                        "seed {seed}: {text:?} to {to:?} names the {card}"
                    );
                }
                // Words: a secret word appears only to its owner, or once revealed, or
                // when someone typed it in public.
                for (i, words) in after.words.iter().enumerate() {
                    let owner = Seat(i as u8);
                    if revealed[i] || to == Some(owner) {
                        continue;
                    }
                    for w in words.iter().flatten() {
                        let recipients_own = to.is_some_and(|s| {
                            after.words[s.0 as usize].iter().flatten().any(|x| x == w)
                        });
                        assert!(
                            !tokens(&text).contains(w) || typed.contains(w) || recipients_own,
                            "seed {seed}: {text:?} to {to:?} leaks {w}"
                        );
                    }
                }
            }
            // Views show no hand, no unrevealed word; summaries only their own seat's.
            for viewer in [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1))] {
                let v = g.project(viewer);
                assert!(named(&v.diagram).is_empty(), "seed {seed}: {}", v.diagram);
                assert!(named(&v.record.join(" ")).is_empty(), "seed {seed}");
            }
            assert_eq!(g.project(Viewer::Public).holdings, None);
            assert_eq!(g.project(Viewer::Public).instructions, None);
            for s in [Seat(0), Seat(1)] {
                let summary = g.project(Viewer::Seat(s)).holdings.unwrap();
                for card in named(&summary) {
                    assert!(after.hands[s.0 as usize].contains(&card), "{summary}");
                }
                let other = &after.words[1 - s.0 as usize];
                for w in other.iter().flatten() {
                    assert!(
                        !tokens(&summary).contains(w)
                            || after.words[s.0 as usize]
                                .iter()
                                .flatten()
                                .any(|own| own == w),
                        "{summary}"
                    );
                }
                if let Some(text) = g.project(Viewer::Seat(s)).instructions {
                    for card in named(&text) {
                        assert!(after.hands[s.0 as usize].contains(&card), "{text}");
                    }
                }
            }
            // The snapshot reloads to the same game.
            let back = Registry::builtin()
                .load("chesswords", &g.snapshot().unwrap())
                .unwrap();
            assert_eq!(back.snapshot().unwrap(), g.snapshot().unwrap());
            assert_eq!(back.awaiting(), g.awaiting());
        }
        let replayed = Registry::builtin()
            .replay("chesswords", Some(&start), &setup, &log)
            .unwrap();
        assert_eq!(
            replayed.snapshot().unwrap(),
            g.snapshot().unwrap(),
            "seed {seed}"
        );
        let o = g.outcome().unwrap();
        assert!(["A", "B", "C", "D", "F"].contains(&o.result.as_str()));
        let fields = g.export_fields(Viewer::Public);
        assert!(fields.contains_key("hands") && fields.contains_key("words"));
        finished += 1;
    }
    eprintln!(
        "{finished} games, {discards} discards, {reveals} reveals, {disguised_states} disguises"
    );
    assert_eq!(finished, 60);
    assert!(
        disguised_states > 1000,
        "too few disguises: {disguised_states}"
    );
    assert!(discards > 30, "too few discards to mean much: {discards}");
    assert!(reveals > 5, "too few reveals to mean much: {reveals}");
}

#[test]
fn the_animation_shows_every_position_and_the_pgn_the_grade() {
    let mut g = Chesswords::new(None, 21, None).unwrap();
    g.act(Seat(1), &Action::Pass).unwrap();
    g.act(Seat(0), &Action::Move("b2b3".into())).unwrap();
    g.act(Seat(0), &Action::Pass).unwrap();
    let gif = g
        .animation(
            Viewer::Public,
            &postal::render::Renderer::default(),
            &["alice", "bob"],
        )
        .unwrap();
    assert!(gif.starts_with(b"GIF89a"), "a GIF");
    let pgn = g.pgn(Viewer::Public, &[("White".into(), "alice".into())]);
    for tag in [
        "[Result \"1/2-1/2\"]",
        "[Variant \"chesswords\"]",
        "[Grade \"F\"]",
        "[Score \"0\"]",
        "[Termination \"normal\"]",
        "[PostalReason \"passes\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} missing:\n{pgn}");
    }
    assert!(pgn.contains("1. b3 {after a pass} 1/2-1/2"), "{pgn}");
}

#[test]
fn a_game_in_progress_exports_no_secret() {
    let mut g = Chesswords::new(None, 3, None).unwrap();
    g.act(Seat(1), &Action::Pass).unwrap();
    for viewer in [Viewer::Public, Viewer::Seat(Seat(0)), Viewer::Seat(Seat(1))] {
        let fields = g.export_fields(viewer);
        assert_eq!(fields["letters"].as_array().map(Vec::len), Some(6));
        for key in ["hands", "pile", "words"] {
            assert!(!fields.contains_key(key), "{key} exported during play");
        }
        let json = serde_json::to_string(&fields).unwrap();
        for card in kinds() {
            assert!(!json.contains(&card.short()), "{json}");
        }
    }
}

/// A game stored by the version before deals were hidden draws and discards private
/// (`tests/data/chesswords-stored-before.json`: the console transcript's game up to
/// White's choice between two discards, as that version wrote it, without a starting
/// state) loads unchanged, its log replays to its snapshot from the deal of its seed, and
/// it goes on under the discard rules it began with.
#[test]
fn a_game_stored_before_loads_replays_and_keeps_its_discard_rules() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../data/chesswords-stored-before.json")).unwrap();
    let stored = &fixture["snapshot"];
    let mut log: Vec<(Seat, postal::variants::api::Action)> = fixture["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let seat = Seat(a[0].as_u64().unwrap() as u8);
            (seat, serde_json::from_str(a[1].as_str().unwrap()).unwrap())
        })
        .collect();
    assert!(
        stored.get("secret_discards").is_none(),
        "a snapshot of the version before"
    );
    let registry = Registry::builtin();
    let mut g = registry.load("chesswords", stored).unwrap();
    assert_eq!(&g.snapshot().unwrap(), stored, "it loads unchanged");
    // The transcript's game was challenged with timer:3.
    let setup = NewGame {
        seed: fixture["seed"].as_u64().unwrap(),
        options: Options::from([("timer".to_string(), "3".to_string())]),
        ..NewGame::default()
    };
    let replayed = registry.replay("chesswords", None, &setup, &log).unwrap();
    assert_eq!(&replayed.snapshot().unwrap(), stored);
    // White chooses between two kinds while the game waits, as then.
    assert_eq!(g.awaiting().len(), 1);
    assert_eq!(g.awaiting()[0].0, Seat(0));
    assert_eq!(g.awaiting()[0].1.kind, "discard");
    let mut step = |g: &mut Box<dyn GameRules>, seat: u8, action: Action| {
        let notes = g.apply(Seat(seat), &logged(&action)).unwrap();
        log.push((Seat(seat), logged(&action)));
        notes
            .into_iter()
            .filter(|n| n.to == Audience::Everyone)
            .map(|n| {
                n.text
                    .render(|s| ["White", "Black"][s.0 as usize].to_string())
            })
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let said = step(&mut g, 0, Action::Discard("bP".into()));
    assert!(
        said.starts_with("White discards the black pawn: a checker on d5"),
        "{said}"
    );
    step(&mut g, 1, Action::Pass);
    step(&mut g, 0, Action::Move("d2d3".into()));
    step(&mut g, 0, Action::Clue("consumed".into()));
    // Black's pawn takes: White holds pawns of both colours and chooses again.
    let said = step(
        &mut g,
        1,
        Action::Letters {
            letters: "rn".into(),
            mv: "c4d3".into(),
        },
    );
    assert!(
        said.contains("White may discard one of two kinds of card"),
        "{said}"
    );
    step(&mut g, 0, Action::Discard("wP".into()));
    step(&mut g, 1, Action::Clue("consumed".into()));
    // White's pawn takes: Black's one qualifying kind is discarded at once, as then.
    let said = step(
        &mut g,
        0,
        Action::Play {
            word: "eaten".into(),
            mv: "e2d3".into(),
        },
    );
    assert!(
        said.contains("Black discards the white pawn: a checker on e2"),
        "{said}"
    );
    let state: State = serde_json::from_value(g.snapshot().unwrap()).unwrap();
    assert!(!state.secret_discards);
    let replayed = registry.replay("chesswords", None, &setup, &log).unwrap();
    assert_eq!(replayed.snapshot().unwrap(), g.snapshot().unwrap());
}
