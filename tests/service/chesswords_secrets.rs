//! Secret Chesswords through the referee: no message the channel or the other player
//! receives shows a held card or an unrevealed word, nothing public about a live game
//! (messages, boards, `board` and `pgn` answers, exports) shows its seed or its cards,
//! and what others see does not depend on whether a card qualifies for a discard.

use crate::common;

use common::chesswords::{choose, kinds, named, tokens};

use postal::rules::Square;
use postal::variants::api::random::SeededRng;
use postal::variants::api::{GameRules, Seat, Viewer};
use postal::variants::chesswords::cards::Card;
use postal::variants::chesswords::game::{Chesswords, State};
use postal::variants::chesswords::ChesswordsAction as Action;
use std::collections::HashSet;

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
    use common::service::{check_log, incoming, TempDir};
    use postal::service::referee::{Destination, Settings};
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
                    let outs = svc.handle(incoming(n, user, private, text)).await.unwrap();
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
                status: g.status,
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
