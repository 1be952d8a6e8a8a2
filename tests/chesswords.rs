//! Secret Chesswords played to the end by a random pair of partners, for many seeds, by
//! the rules alone and through the referee: no public message and nothing sent to the
//! other player names a card a player holds before it is discarded, nor a secret word
//! before its reveal; every refusal changes nothing; the snapshot reloads to the same game
//! and the replay of the actions equals it.

mod common;

use common::disguise::{check_action_alike, check_every_disguise, disguises_of_others};

use postal::rules::Square;
use postal::variants::api::random::{Random, SeededRng};
use postal::variants::api::{Audience, GameRules, NewGame, Note, Options, Seat, Span, Viewer};
use postal::variants::chesswords::cards::{deck, qualifying, Card};
use postal::variants::chesswords::game::{Chesswords, OpenDiscard, Phase, State};
use postal::variants::chesswords::ChesswordsAction as Action;
use postal::variants::Registry;
use std::collections::HashSet;

/// An action as the log stores it.
fn logged(action: &Action) -> postal::variants::api::Action {
    postal::variants::api::Action::of(action)
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

/// The kinds of card (ten: five roles of each colour).
fn kinds() -> Vec<Card> {
    let mut all = deck();
    all.dedup();
    all
}

/// The upper-case alphabetic tokens of a text.
fn tokens(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|t| !t.is_empty())
        .map(str::to_ascii_uppercase)
        .collect()
}

/// The card kinds a text names.
fn named(text: &str) -> Vec<Card> {
    let lower = text.to_lowercase();
    kinds()
        .into_iter()
        .filter(|c| lower.contains(&c.name()))
        .collect()
}

fn state(g: &Chesswords) -> State {
    g.state().clone()
}

/// The kinds of card the holder of `open` may discard, in hand order.
fn fitting(s: &State, open: &OpenDiscard) -> Vec<Card> {
    qualifying(
        &s.hands[open.holder.0 as usize],
        open.captured.color,
        open.captured.role,
        open.capturer.role,
    )
}

/// What a random pair of partners does now, given the game (the driver plays both seats
/// and may look at their secrets, as each player knows their own).
fn choose(g: &Chesswords, rng: &mut SeededRng, plies: usize) -> (Seat, Action) {
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
    let action = match prompt.kind {
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
            .snapshot();
        assert_eq!(start, g.snapshot());
        let mut rng = SeededRng::new(seed);
        let mut log: Vec<(Seat, postal::variants::api::Action)> = Vec::new();
        let mut typed: HashSet<String> = HashSet::new();
        let mut revealed = [false, false];
        let mut steps = 0;
        while !g.is_over() {
            steps += 1;
            assert!(steps < 500, "seed {seed}: the game does not end");
            for (seat, action) in refusals(&g) {
                let before = g.snapshot();
                assert!(
                    g.apply(seat, &action).is_err(),
                    "{seed}: {action:?} accepted"
                );
                assert_eq!(g.snapshot(), before, "{seed}: a refusal changed the game");
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
                .load("chesswords", &g.snapshot())
                .unwrap();
            assert_eq!(back.snapshot(), g.snapshot());
            assert_eq!(back.awaiting(), g.awaiting());
        }
        let replayed = Registry::builtin()
            .replay("chesswords", Some(&start), &setup, &log)
            .unwrap();
        assert_eq!(replayed.snapshot(), g.snapshot(), "seed {seed}");
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
        "[Result \"*\"]",
        "[Variant \"chesswords\"]",
        "[Grade \"F\"]",
        "[Score \"0\"]",
        "[Termination \"normal\"]",
        "[PostalReason \"passes\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} missing:\n{pgn}");
    }
    assert!(pgn.contains("1. b3 {after a pass} *"), "{pgn}");
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

/// Through the referee: `alice` (White) and `bob` (Black) play by commands in `#games` and
/// in private messages; every message the channel or the other player receives is checked
/// against the hands and words of the stored game.
#[test]
fn through_the_referee_no_message_shows_a_held_card_or_an_unrevealed_word() {
    use common::service::check_log;
    use postal::service::referee::{Destination, Outbound, Service, Settings};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let users = ["alice", "bob"];
    let mut discards = 0;
    for seed in 1..=12u64 {
        rt.block_on(async {
            let store = postal::store::Store::open("sqlite::memory:").await.unwrap();
            let settings = Settings {
                seed: Some(seed),
                ..Default::default()
            };
            let svc = Service::new(store, settings);
            let mut n = 0;
            let mut send = |user: &str, private: bool, text: String| {
                n += 1;
                let inc = common::service::incoming(n, user, private, text);
                let svc = &svc;
                async move { svc.handle(inc).await.unwrap() }
            };
            let stored = |svc: &Service| {
                let svc = svc.store().clone();
                async move {
                    let g = svc.game(1).await.unwrap().unwrap();
                    let state: State = serde_json::from_str(&g.snapshot).unwrap();
                    (state, g.status)
                }
            };
            send(
                "alice",
                false,
                "challenge @bob chesswords colour:white".into(),
            )
            .await;
            let start = send("bob", false, "accept".into()).await;
            let (mut before, _) = stored(&svc).await;
            // The start: each hand goes to its own player only.
            check_messages(
                &start,
                &before,
                &before,
                &users,
                &HashSet::new(),
                [false; 2],
            );
            let mut rng = SeededRng::new(seed);
            let mut typed: HashSet<String> = HashSet::new();
            let mut revealed = [false, false];
            for step in 0..400 {
                let game = Chesswords::from_snapshot(&before).unwrap();
                if game.is_over() {
                    break;
                }
                assert!(step < 399, "seed {seed}: the game does not end");
                let (seat, action) = choose(&game, &mut rng, before.moves.len());
                if action == Action::Timeout {
                    continue;
                }
                let (text, private) = command_for(&game, seat, &action);
                if !private {
                    typed.extend(tokens(&text));
                }
                let outs = send(users[seat.0 as usize], private, text.clone()).await;
                let (after, _) = stored(&svc).await;
                assert_ne!(
                    after, before,
                    "seed {seed}: {text} by {seat:?} did nothing: {outs:?}"
                );
                for o in &outs {
                    if o.text.contains("revealed:") {
                        typed.extend(tokens(&o.text));
                    }
                }
                for (i, r) in revealed.iter_mut().enumerate() {
                    *r = after.finale[i].guessed.is_some();
                }
                discards += after.discards.len() - before.discards.len();
                check_messages(&outs, &before, &after, &users, &typed, revealed);
                before = after;
            }
            let (_, status) = stored(&svc).await;
            assert_eq!(status, "finished", "seed {seed}");
            check_log(svc.store(), 1).await;
            // Once over, `hand` still answers privately and only with one's own hand.
            let outs = send("bob", false, "hand".into()).await;
            assert!(outs.iter().all(|o| o.to == Destination::Dm("bob".into())));
            let _: &[Outbound] = &outs;
        });
    }
    assert!(discards > 10, "too few discards to mean much: {discards}");
}

/// The command a player types for `action`, and whether it is sent privately.
fn command_for(game: &Chesswords, seat: Seat, action: &Action) -> (String, bool) {
    let san = |uci: &str| {
        game.project(Viewer::Seat(seat))
            .legal
            .into_iter()
            .find(|m| game.parse_move(seat, m).ok().as_deref() == Some(uci))
            .unwrap()
    };
    match action {
        Action::Clue(t) => (format!("clue {t}"), false),
        Action::Pass => ("pass".into(), false),
        Action::Move(uci) => (san(uci), false),
        Action::Play { word, mv } => (format!("play {word} {}", san(mv)), false),
        Action::Letters { letters, mv } => (format!("letters {letters} {}", san(mv)), false),
        Action::Discard(card) => (format!("discard {card}"), true),
        Action::Words(w) if w.is_empty() => ("words none".into(), true),
        Action::Words(w) => (format!("words {}", w.join(" ")), true),
        Action::Guess(w) => (format!("guess {w}"), false),
        other => panic!("no command for {other:?}"),
    }
}

/// Checks what one command produced: public messages (and their boards) name only the
/// cards this command discarded and no unrevealed word; a player's private messages name
/// only their own cards and words besides.
fn check_messages(
    outs: &[postal::service::referee::Outbound],
    before: &State,
    after: &State,
    users: &[&str; 2],
    public_words: &HashSet<String>,
    revealed: [bool; 2],
) {
    use postal::service::referee::Destination;
    let discarded: Vec<Card> = after.discards[before.discards.len()..]
        .iter()
        .map(|d| d.card)
        .collect();
    for o in outs {
        let to = match &o.to {
            Destination::Dm(u) => users.iter().position(|x| x == u).map(|i| Seat(i as u8)),
            _ => None,
        };
        let shown = format!(
            "{} {}",
            o.text,
            o.image
                .as_ref()
                .map(|v| v.diagram.clone())
                .unwrap_or_default()
        );
        for card in named(&shown) {
            let own = to.is_some_and(|s| after.hands[s.0 as usize].contains(&card));
            assert!(
                discarded.contains(&card) || own,
                "{shown:?} to {:?} names the {card}",
                o.to
            );
        }
        for (i, words) in after.words.iter().enumerate() {
            if revealed[i] || to == Some(Seat(i as u8)) {
                continue;
            }
            for w in words.iter().flatten() {
                let recipients_own =
                    to.is_some_and(|s| after.words[s.0 as usize].iter().flatten().any(|x| x == w));
                assert!(
                    !tokens(&shown).contains(w) || public_words.contains(w) || recipients_own,
                    "{shown:?} to {:?} leaks {w}",
                    o.to
                );
            }
        }
    }
}

/// `postal export` of the transcript's game: the letter grid and the checkers during play,
/// the seed, the hands, the pile, the deal and the words only once the game is over.
#[test]
fn export_shows_letters_and_checkers_and_secrets_only_at_the_end() {
    let dir = common::service::TempDir::new("chesswords-export");
    let db = dir.db();
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/transcripts/chesswords-game.txt"),
    )
    .unwrap();
    let lines: Vec<&str> = script.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("alice> words"))
        .unwrap();
    let play = |part: &[&str]| {
        let opts = postal::console::Options {
            db: db.clone(),
            settings: postal::service::settings::Settings {
                seed: Some(1),
                ..Default::default()
            },
            images: None,
            registry: Registry::builtin(),
        };
        let text = part.join("\n") + "\n";
        let mut out = Vec::new();
        postal::console::block_on(postal::console::run(&opts, text.as_bytes(), &mut out))
            .unwrap()
            .unwrap();
    };
    let export = || -> serde_json::Value {
        let bytes = postal::console::block_on(postal::console::export(&db, 1, "json"))
            .unwrap()
            .unwrap();
        serde_json::from_slice(&bytes).unwrap()
    };
    play(&lines[..at]);
    let during = export();
    assert_eq!(
        during["letters"],
        serde_json::json!(["WARMED", "GNIDOC", "BUREAY", "ICENOD", "PATHES", "YEGNIH"])
    );
    assert_eq!(
        during["checkers"],
        serde_json::json!(["b3", "d5", "c4", "e2", "e5"])
    );
    for key in ["seed", "hands", "pile", "words"] {
        assert!(
            during.get(key).is_none(),
            "{key} exported during the finale"
        );
    }
    play(&lines[at..]);
    let after = export();
    assert_eq!(after["result"], "F");
    assert_eq!(after["score"], serde_json::json!([7, 7]));
    assert_eq!(
        after["words"],
        serde_json::json!({"white": ["COD", "RE"], "black": ["DOC", "RE"]})
    );
    assert_eq!(
        after["hands"],
        serde_json::json!({"white": ["bQ", "bN", "bP", "bR"], "black": ["bN", "bR", "wN", "wP"]})
    );
    assert_eq!(after["pile"], serde_json::json!(["wP"]));
    assert!(after["seed"].is_i64(), "{after}");
}

/// The finale timer through the referee's clock (rules 8 and 10): once play ends on a
/// king's capture, the holder has `timer:N` minutes to decide on its discard, not the days
/// per move. With the one letter that discard marks, two words cannot be made (rule 9):
/// the game is scored at once, with no deadline for words nobody could send. (The words'
/// own `timer:N` deadline is the unit test
/// `the_finale_timer_applies_to_the_last_discard_and_the_words_only`.)
#[test]
fn the_finale_timer_runs_on_the_referees_clock() {
    use common::service::{check_log, say, T0};
    use postal::service::referee::{Incoming, Place, Service, Settings};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        // Seed 3 deals Black the white knight.
        let settings = Settings {
            seed: Some(3),
            ..Settings::default()
        };
        let store = postal::store::Store::open("sqlite::memory:").await.unwrap();
        let svc = Service::new(store, settings);
        // White's knight can take Black's king at once.
        let challenge =
            "challenge @bob chesswords colour:white timer:1 fen:\"3k2/6/4N1/6/6/K5 w - - 0 1\"";
        say(&svc, "c", "alice", challenge, T0).await;
        say(&svc, "a", "bob", "accept", T0).await;
        let letter = {
            let g = svc.store().game(1).await.unwrap().unwrap();
            let state: State = serde_json::from_str(&g.snapshot).unwrap();
            let e4 = Square::parse("e4").unwrap();
            state
                .letters
                .letters()
                .into_iter()
                .find(|(s, _)| *s == e4)
                .unwrap()
                .1
        };
        say(&svc, "p", "bob", "pass", T0 + 10).await;
        let out = say(&svc, "m", "alice", "Nxd6", T0 + 20).await;
        let text = &out[0].text;
        assert!(
            text.contains("play is over: a king was captured. Black may still discard"),
            "{text}"
        );
        let g = svc.store().game(1).await.unwrap().unwrap();
        let due: Vec<(u8, i64)> = g.deadlines.iter().map(|d| (d.seat, d.due_at)).collect();
        assert_eq!(due, vec![(1, T0 + 80)], "a minute for Black's decision");
        let out = svc
            .handle(Incoming {
                event_id: "d".into(),
                user: "bob".into(),
                place: Place::Dm,
                server: None,
                text: "discard wN".into(),
                at: T0 + 30,
            })
            .await
            .unwrap();
        let text = &out[0].text;
        assert!(
            text.contains("Black discards the white knight: a checker on e4"),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "Only 1 letter is marked ({letter}), too few for two words, so there is no finale"
            )),
            "{text}"
        );
        assert!(
            text.contains("game over: capture of the king: grade F, the game is lost"),
            "{text}"
        );
        let g = svc.store().game(1).await.unwrap().unwrap();
        assert!(
            g.deadlines.is_empty(),
            "nobody is awaited: {:?}",
            g.deadlines
        );
        let later = svc.tick(T0 + 91).await.unwrap();
        assert!(
            later
                .iter()
                .all(|q| !q.message.text.contains("time ran out")),
            "{later:?}"
        );
        let g = svc.store().game(1).await.unwrap().unwrap();
        assert_eq!(g.status, "finished");
        check_log(svc.store(), 1).await;
    });
}

/// The operator's word list (`games.chesswords_words`) refuses finale words it lacks, and
/// changes nothing; a list that cannot be read refuses every word with the reason. The game
/// is the transcript's, played up to its finale.
#[test]
fn the_operators_word_list_checks_the_finale_words() {
    let script = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/transcripts/chesswords-game.txt"),
    )
    .unwrap();
    let upto: String = script
        .lines()
        .take_while(|l| !l.starts_with("alice> words"))
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = std::env::temp_dir().join(format!("postal-wordlist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("words.txt");
    std::fs::write(&list, "# a small list\ncod\nre\nDOC\n\n").unwrap();
    let run = |path: &std::path::Path, tail: &str| {
        let opts = postal::console::Options {
            db: "sqlite::memory:".into(),
            settings: postal::service::settings::Settings {
                seed: Some(1),
                chesswords_words: Some(path.display().to_string()),
                ..Default::default()
            },
            images: None,
            registry: Registry::builtin(),
        };
        let mut out = Vec::new();
        let script = format!("{upto}{tail}");
        postal::console::block_on(postal::console::run(&opts, script.as_bytes(), &mut out))
            .unwrap()
            .unwrap();
        String::from_utf8(out).unwrap()
    };
    let out = run(&list, "alice> words rod re\nalice> words doc re\n");
    assert!(
        out.contains("[dm alice] 'rod' is not in this server's word list; nothing was recorded"),
        "{out}"
    );
    assert!(out.contains("your words: DOC and RE"), "{out}");
    assert_eq!(
        out.matches("White has submitted their words").count(),
        1,
        "{out}"
    );
    let out = run(&dir.join("missing.txt"), "alice> words doc re\n");
    assert!(
        out.contains("the word list for finale words cannot be read"),
        "{out}"
    );
    assert!(!out.contains("White has submitted their words"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Game #1 of a fresh database: `alice` (White) challenges `bob` to `options` and bob
/// accepts, through the referee as the bot runs it; returns the stored game.
async fn started(
    settings: postal::service::settings::Settings,
    options: &str,
) -> (postal::service::referee::Service, postal::store::GameRow) {
    use common::service::{say, T0};
    use postal::service::referee::Service;
    let store = postal::store::Store::open(&settings.database_url)
        .await
        .unwrap();
    let svc = Service::new(store, settings);
    let challenge = format!("challenge @bob chesswords colour:white {options}");
    say(&svc, "c", "alice", &challenge, T0).await;
    let out = say(&svc, "a", "bob", "accept", T0).await;
    assert!(out[0].text.contains("accepted"), "{out:?}");
    let g = svc.store().game(1).await.unwrap().unwrap();
    (svc, g)
}

/// What must not be public in a live game: its seed, and every card (a discarded card is
/// public only in the announcement of its discard, which `public_text` strips).
fn assert_no_secret(what: &str, text: &str, seed: i64) {
    assert!(
        !text.contains(&seed.to_string()),
        "{what} shows the game's seed {seed}: {text}"
    );
    for card in kinds() {
        assert!(
            !text.contains(&card.name()) && !text.contains(&card.short()),
            "{what} names the {card}: {text}"
        );
    }
}

/// A public message as scanned: its text without the announcements of discards, its
/// text diagram and the board view its image is drawn from.
fn public_text(o: &postal::service::referee::Outbound) -> String {
    let mut text = o.text.clone();
    for card in kinds() {
        text = text.replace(&format!("discards the {card}"), "discards a card");
    }
    if let Some(v) = &o.image {
        text.push_str(&format!("\n{}\n{:?}", v.diagram, v.board));
    }
    text
}

/// Issue 13, point 5: through the referee with the bot's settings (no seed), nothing
/// public shows a live game's seed or any card held or in the pile: no channel message
/// or board, no `board` or `pgn` answer, no `postal export` as JSON or PGN. Once the game
/// is over the export shows them, so the scan looks where they would be.
#[test]
fn nothing_public_about_a_live_game_shows_its_seed_or_its_cards() {
    use common::service::{check_log, TempDir, T0};
    use postal::service::referee::{Destination, Incoming, Place, Settings};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let users = ["alice", "bob"];
    let mut scanned = 0;
    let mut discards = 0;
    // The cards are the operating system's: games until a few discards were announced.
    let mut round = 0u64;
    while round < 3 || discards < 3 {
        round += 1;
        assert!(round <= 30, "too few discards to mean much: {discards}");
        let dir = TempDir::new("chesswords-leaks");
        let db = dir.db();
        let settings = Settings {
            database_url: db.clone(),
            ..Settings::default()
        };
        assert_eq!(settings.seed, None);
        rt.block_on(async {
            let (svc, g) = started(settings, "timer:2").await;
            let seed = g.seed;
            let mut n = 0;
            let mut rng = SeededRng::new(round);
            loop {
                let g = svc.store().game(1).await.unwrap().unwrap();
                // The exports of the game as it stands.
                let export = |format: &'static str| {
                    let db = db.clone();
                    async move {
                        let bytes = postal::console::export(&db, 1, format).await.unwrap();
                        String::from_utf8(bytes).unwrap()
                    }
                };
                let json = export("json").await;
                let mut fields: serde_json::Value = serde_json::from_str(&json).unwrap();
                if g.status != "active" {
                    // Over: now the seed and the cards are shown.
                    assert_eq!(fields["seed"], serde_json::json!(seed), "{json}");
                    assert!(fields.get("hands").is_some() && fields.get("pile").is_some());
                    break;
                }
                for key in ["seed", "hands", "pile"] {
                    assert!(fields.get(key).is_none(), "{key} in the export: {json}");
                }
                fields.as_object_mut().unwrap().remove("discards");
                assert_no_secret("the JSON export", &fields.to_string(), seed);
                assert_no_secret("the PGN export", &export("pgn").await, seed);
                let state: State = serde_json::from_str(&g.snapshot).unwrap();
                let game = Chesswords::from_snapshot(&state).unwrap();
                let (seat, action) = choose(&game, &mut rng, state.moves.len());
                if action == Action::Timeout {
                    continue;
                }
                let (text, private) = command_for(&game, seat, &action);
                let mut lines = vec![(users[seat.0 as usize], private, text)];
                if n % 7 == 0 {
                    lines.push(("alice", false, "board".into()));
                    lines.push(("bob", false, "pgn".into()));
                }
                for (user, private, text) in lines {
                    n += 1;
                    let outs = svc
                        .handle(Incoming {
                            event_id: format!("e{n}"),
                            user: user.into(),
                            place: if private {
                                Place::Dm
                            } else {
                                Place::Channel("games".into())
                            },
                            server: None,
                            text,
                            at: T0 + n,
                        })
                        .await
                        .unwrap();
                    for o in outs
                        .iter()
                        .filter(|o| matches!(o.to, Destination::Channel(_)))
                    {
                        assert_no_secret("a channel message", &public_text(o), seed);
                        scanned += 1;
                    }
                }
                assert!(n < 2000, "the game does not end");
            }
            let g = svc.store().game(1).await.unwrap().unwrap();
            let state: State = serde_json::from_str(&g.snapshot).unwrap();
            discards += state.discards.len();
            check_log(svc.store(), 1).await;
            svc.store().close().await;
        });
    }
    assert!(scanned > 100, "too few messages to mean much: {scanned}");
}

/// Issue 13, point 6, through the referee: the same public moves with two deals, one in
/// which Black holds a card that the captures let them discard and one in which Black
/// holds none. Black never discards, and at the end of play (a king captured) answers
/// `discard none` privately in both. Everything the channel and White receive, and the
/// exports of the live game, are the same in both games: only Black's own messages
/// differ.
#[test]
fn what_others_see_does_not_depend_on_whether_a_card_qualifies() {
    use common::service::{check_log, TempDir, T0};
    use postal::service::referee::{Destination, Service, Settings};
    use postal::store::Write;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // White's pawn a3 takes b4, Black's pawn moves, White's rook takes the king on e6.
    let fen = "fen:\"4k1/5p/1p4/P5/6/K3R1 w - - 0 1\"";
    let play = |black: &str| {
        let dir = TempDir::new("chesswords-same");
        let db = dir.db();
        let settings = Settings {
            database_url: db.clone(),
            seed: Some(5),
            ..Settings::default()
        };
        rt.block_on(async {
            let store = postal::store::Store::open(&db).await.unwrap();
            let svc = Service::new(store, settings);
            let mut n = 0;
            let mut seen: Vec<String> = Vec::new();
            let mut bobs: Vec<String> = Vec::new();
            let mut send = |user: &'static str, private: bool, text: String| {
                n += 1;
                let inc = common::service::incoming(n, user, private, text);
                let svc = &svc;
                async move { svc.handle(inc).await.unwrap() }
            };
            send(
                "alice",
                false,
                format!("challenge @bob chesswords colour:white {fen}"),
            )
            .await;
            // Deal the cards of this test before the game starts.
            let g = svc.store().game(1).await.unwrap().unwrap();
            let mut state: State = serde_json::from_str(&g.snapshot).unwrap();
            let cards = |list: &str| -> Vec<Card> {
                list.split_whitespace()
                    .map(|c| Card::parse(c).unwrap())
                    .collect()
            };
            state.hands = [cards("wK wQ wR bQ"), cards(black)];
            state.pile = cards("bR wR bN wN");
            let w = Write {
                expected_version: g.version,
                at: T0,
                status: g.status.clone(),
                snapshot: serde_json::to_string(&state).unwrap(),
                ..Write::default()
            };
            svc.store().write(1, &w).await.unwrap();
            // The game starts from this deal: its log replays from it.
            common::sql::execute(
                &db,
                "UPDATE games SET start_snapshot = snapshot WHERE id = 1",
                &[],
            )
            .await;
            let letter = |sq: &str| {
                let sq = Square::parse(sq).unwrap();
                state
                    .letters
                    .letters()
                    .into_iter()
                    .find(|(q, _)| *q == sq)
                    .unwrap()
                    .1
            };
            let word = |from: &str, to: &str| format!("{}ee{}", letter(from), letter(to));
            let lines = [
                ("bob", false, "accept".to_string()),
                ("bob", false, "clue a hint".into()),
                ("alice", false, format!("play {} axb4", word("a3", "b4"))),
                ("alice", false, "board".into()),
                ("alice", false, "games".into()),
                ("alice", false, "clue another".into()),
                ("bob", false, format!("play {} f4", word("f5", "f4"))),
                ("bob", false, "clue the last".into()),
                ("alice", false, format!("play {} Rxe6", word("e1", "e6"))),
                ("alice", false, "games".into()),
                ("bob", true, "discard none".into()),
            ];
            for (user, private, text) in lines {
                for o in send(user, private, text).await {
                    let shown = format!(
                        "{:?} {} {:?}",
                        o.to,
                        o.text,
                        o.image.as_ref().map(|v| (&v.diagram, &v.board))
                    );
                    if o.to == Destination::Dm("bob".into()) {
                        bobs.push(shown);
                    } else {
                        seen.push(shown);
                    }
                }
                let g = svc.store().game(1).await.unwrap().unwrap();
                if g.status == "active" {
                    for format in ["json", "pgn"] {
                        let bytes = postal::console::export(&db, 1, format).await.unwrap();
                        seen.push(String::from_utf8(bytes).unwrap());
                    }
                }
            }
            let g = svc.store().game(1).await.unwrap().unwrap();
            assert_eq!(g.status, "finished");
            check_log(svc.store(), 1).await;
            svc.store().close().await;
            (seen, bobs)
        })
    };
    // Black may discard a black pawn after axb4 and the black king after Rxe6 in the
    // first deal, nothing in the second.
    let (fits, fits_bob) = play("bP bK bQ wN");
    let (none, none_bob) = play("bQ bR wN wQ");
    assert_eq!(fits.len(), none.len());
    for (a, b) in fits.iter().zip(&none) {
        assert_eq!(a, b);
    }
    assert!(
        fits.iter().any(|t| t.contains("a king was captured")),
        "{fits:?}"
    );
    // Black alone was told what each capture allowed.
    assert!(fits_bob
        .iter()
        .any(|t| t.contains("lets you discard the black pawn (bP)")));
    assert!(!none_bob.iter().any(|t| t.contains("lets you discard the")));
    assert_ne!(fits_bob, none_bob);
    // As many private messages either way: even their traffic tells nothing.
    assert_eq!(fits_bob.len(), none_bob.len(), "{fits_bob:?} {none_bob:?}");
}

/// A game stored by the version before deals were hidden draws and discards private
/// (`tests/data/chesswords-stored-before.json`: the console transcript's game up to
/// White's choice between two discards, as that version wrote it, without a starting
/// state) loads unchanged, its log replays to its snapshot from the deal of its seed, and
/// it goes on under the discard rules it began with.
#[test]
fn a_game_stored_before_loads_replays_and_keeps_its_discard_rules() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("data/chesswords-stored-before.json")).unwrap();
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
    assert_eq!(&g.snapshot(), stored, "it loads unchanged");
    // The transcript's game was challenged with timer:3.
    let setup = NewGame {
        seed: fixture["seed"].as_u64().unwrap(),
        options: Options::from([("timer".to_string(), "3".to_string())]),
        ..NewGame::default()
    };
    let replayed = registry.replay("chesswords", None, &setup, &log).unwrap();
    assert_eq!(&replayed.snapshot(), stored);
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
    let state: State = serde_json::from_value(g.snapshot()).unwrap();
    assert!(!state.secret_discards);
    let replayed = registry.replay("chesswords", None, &setup, &log).unwrap();
    assert_eq!(replayed.snapshot(), g.snapshot());
}
