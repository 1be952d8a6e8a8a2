//! Games against the bot (issue 60) with the real engines Debian installs, at a small
//! budget: a challenge naming the bot starts the game at once, never rated; the engine's
//! turn is queued by the human's move and played through the referee (its moves legal by
//! the project's own rules, its name and level in the record); it mates, resigns a lost
//! game and accepts a draw in a dead-equal one; Fairy-Stockfish plays Crazyhouse and
//! King of the Hill; takebacks are accepted where the challenge allows them, in the
//! proposal's own transaction; a player's conditional line answers the engine's move in
//! the transaction that commits it, and the engine then moves again; challenges
//! the bot cannot play are refused with why; a turn whose process died is played by the
//! next; two processes on one database play each turn once; and a game between people
//! played beside them hears nothing of the engine.

use crate::common;

use common::service::{dm, say, seeded, TempDir, T0};
use postal::engines::EngineSettings;
use postal::service::referee::{Outbound, Service, Settings};
use postal::store::Store;
use postal::variants::api::RefusalKind;

/// The bot's user in these tests.
const BOT: &str = "postal";

fn small() -> EngineSettings {
    EngineSettings {
        nodes: 2_000,
        timeout_seconds: 10,
        retries: 1,
        ..EngineSettings::default()
    }
}

async fn service_with(db: &str, engines: EngineSettings) -> Service {
    let svc = Service::new(
        Store::open(db).await.unwrap(),
        Settings {
            engines,
            ..seeded()
        },
    );
    svc.set_engine_user(BOT);
    svc
}

async fn service(db: &str) -> Service {
    service_with(db, small()).await
}

/// Plays every engine turn waiting and returns the messages the outbox then holds.
async fn engine_plays(svc: &Service, at: i64) -> Vec<Outbound> {
    while svc.play_engine_next(at).await.unwrap().is_some() {}
    let queued = svc.claim_undelivered().await.unwrap();
    for q in &queued {
        svc.delivered(q.id, at).await.unwrap();
    }
    queued.into_iter().map(|q| q.message).collect()
}

/// Challenges the bot and checks that the game starts at once.
async fn challenge_bot(svc: &Service, who: &str, terms: &str) -> Vec<Outbound> {
    let out = say(
        svc,
        &format!("c-{who}-{terms}"),
        who,
        &format!("challenge @{BOT} {terms}"),
        T0,
    )
    .await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
    assert!(out[0].text.contains("against"), "{}", out[0].text);
    out
}

/// Plays the first of `candidates` the game accepts, as `who` in game `id`.
async fn play_any(svc: &Service, who: &str, id: i64, n: usize, candidates: &[&str]) -> bool {
    for (k, m) in candidates.iter().enumerate() {
        let out = say(
            svc,
            &format!("h{id}-{n}-{k}"),
            who,
            &format!("move {id} {m}"),
            T0 + 10,
        )
        .await;
        if out
            .first()
            .is_some_and(|o| o.refusal.is_none() && o.text.contains("played"))
        {
            return true;
        }
    }
    false
}

async fn status(svc: &Service, id: i64) -> (String, Option<String>) {
    let g = svc.store().game(id).await.unwrap().unwrap();
    (g.status.to_string(), g.result)
}

fn engines_present() -> bool {
    let d = EngineSettings::default();
    d.stockfish.unwrap().is_file() && d.fairy_stockfish.unwrap().is_file()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn level_8_mates_at_once_and_the_record_names_it_unrated() {
    assert!(engines_present());
    let dir = TempDir::new("engine-mate");
    let svc = service(&dir.db()).await;
    // The engine is White, to move, with a mate in one on the back rank.
    challenge_bot(
        &svc,
        "alice",
        "standard level:8 colour:black fen:\"6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1\"",
    )
    .await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert!(g.options.contains("\"rated\":\"no\""), "{}", g.options);
    assert!(g.seats.iter().all(|s| s.accepted));
    let posted = engine_plays(&svc, T0 + 1).await;
    assert!(posted.iter().any(|o| o.text.contains("Rd8#")), "{posted:?}");
    assert_eq!(
        status(&svc, 1).await,
        ("finished".into(), Some("1-0".into()))
    );
    let out = say(&svc, "pgn", "alice", "pgn 1", T0 + 2).await;
    assert!(
        out[0].text.contains("[White \"Postal (level 8)\"]"),
        "{}",
        out[0].text
    );
    assert!(!out[0].text.contains("WhiteElo"), "{}", out[0].text);
    // Nothing was sent to the bot itself.
    assert!(posted
        .iter()
        .all(|o| o.to != postal::service::referee::Destination::Dm(BOT.into())));
}

/// Moves a human can try in order, one of which is legal in most positions of a game's
/// first moves.
const TRIES: &[&str] = &[
    "e4", "d4", "Nf3", "Nc3", "c3", "g3", "b3", "a3", "h3", "Ke2", "Kd1", "Kf1", "Kd2", "Kf2",
    "Ke1", "Qe2", "Qd3", "Qxd8", "Kxd2", "Kxe2", "Kxf2", "Qxe2", "Kxe1", "Kxd1", "Kxf1",
];

/// The same for Black.
const TRIES_BLACK: &[&str] = &[
    "e5", "d5", "Nf6", "Nc6", "c6", "g6", "b6", "a6", "h6", "Ke7", "Kd8", "Kf8", "Kd7", "Kf7",
    "Ke8", "Qe7", "Qd6", "Qxd1", "Kxd7", "Kxe7", "Kxf7", "Qxe7", "Kxe8", "Kxd8", "Kxf8",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_at_level_1_each_engine_move_legal_ends_in_a_result() {
    assert!(engines_present());
    let dir = TempDir::new("engine-level1");
    let svc = service(&dir.db()).await;
    challenge_bot(&svc, "alice", "standard level:1 colour:white").await;
    let mut moves = 0;
    for n in 0..12 {
        if status(&svc, 1).await.0 != "active" {
            break;
        }
        if !play_any(&svc, "alice", 1, n, TRIES).await {
            break;
        }
        let posted = engine_plays(&svc, T0 + 20).await;
        assert!(!posted.is_empty(), "the engine answers every move");
        moves += 1;
    }
    assert!(moves >= 2, "a few moves each were played");
    if status(&svc, 1).await.0 == "active" {
        let out = say(&svc, "resign", "alice", "resign 1", T0 + 30).await;
        assert!(out[0].text.contains("resign"), "{}", out[0].text);
    }
    assert_eq!(status(&svc, 1).await.0, "finished");
    // Every move, the engine's too, replays by the project's own rules.
    let g = svc.store().game(1).await.unwrap().unwrap();
    let log = svc.store().actions(1).await.unwrap();
    let rules = postal::service::referee::whole_with(svc.registry(), &g, &log).unwrap();
    let record = rules.engine_record().unwrap();
    assert!(record.moves.len() >= 4, "{:?}", record.moves);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_resigns_a_lost_game_and_accepts_a_dead_equal_draw() {
    assert!(engines_present());
    let dir = TempDir::new("engine-resign");
    let svc = service(&dir.db()).await;
    // A bare king against a queen and a rook: the engine, Black, resigns on its turn.
    challenge_bot(
        &svc,
        "alice",
        "standard level:8 colour:white fen:\"7k/8/8/8/8/8/Q7/1R4K1 w - - 0 1\"",
    )
    .await;
    assert!(play_any(&svc, "alice", 1, 0, &["Qa7"]).await);
    let posted = engine_plays(&svc, T0 + 20).await;
    assert!(
        posted.iter().any(|o| o.text.contains("resign")),
        "{posted:?}"
    );
    assert_eq!(
        status(&svc, 2 - 1).await,
        ("finished".into(), Some("1-0".into()))
    );
    // Kings and one pawn each, blocked: dead equal. A draw offered, then a move: the
    // engine, to move, accepts.
    challenge_bot(
        &svc,
        "bob",
        "standard level:8 colour:white fen:\"4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1\"",
    )
    .await;
    let out = say(&svc, "offer", "bob", "draw 2 offer", T0 + 30).await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
    assert!(play_any(&svc, "bob", 2, 0, &["Kd2"]).await);
    let posted = engine_plays(&svc, T0 + 40).await;
    assert!(posted.iter().any(|o| o.text.contains("draw")), "{posted:?}");
    assert_eq!(
        status(&svc, 2).await,
        ("finished".into(), Some("1/2-1/2".into()))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fairy_stockfish_plays_crazyhouse_and_king_of_the_hill() {
    assert!(engines_present());
    let dir = TempDir::new("engine-fairy");
    let svc = service(&dir.db()).await;
    challenge_bot(&svc, "alice", "crazyhouse level:4 colour:white").await;
    challenge_bot(&svc, "bob", "king-of-the-hill level:2 colour:black").await;
    // The engine opens game 2 as White.
    let posted = engine_plays(&svc, T0 + 1).await;
    assert!(
        posted
            .iter()
            .any(|o| o.game == Some(2) && o.text.contains("played")),
        "{posted:?}"
    );
    for n in 0..3 {
        for (id, who, tries) in [(1, "alice", TRIES), (2, "bob", TRIES_BLACK)] {
            if status(&svc, id).await.0 == "active" && !play_any(&svc, who, id, n, tries).await {
                say(
                    &svc,
                    &format!("resign-{id}"),
                    who,
                    &format!("resign {id}"),
                    T0 + 30,
                )
                .await;
            }
        }
        engine_plays(&svc, T0 + 20).await;
    }
    let mut most = 0;
    for (id, who) in [(1, "alice"), (2, "bob")] {
        let g = svc.store().game(id).await.unwrap().unwrap();
        let seat = 1 - g.seat_of(who).unwrap();
        let by_engine = svc
            .store()
            .actions(id)
            .await
            .unwrap()
            .iter()
            .filter(|a| a.seat == seat && a.author != "referee")
            .count();
        assert!(by_engine >= 1, "game {id}: the engine moved");
        most = most.max(by_engine);
    }
    assert!(most >= 2, "the engine answered moves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_are_accepted_by_the_engine_where_the_challenge_allows_them() {
    assert!(engines_present());
    let dir = TempDir::new("engine-takeback");
    let svc = service(&dir.db()).await;
    challenge_bot(&svc, "alice", "standard level:3 colour:white takebacks:on").await;
    assert!(play_any(&svc, "alice", 1, 0, &["e4"]).await);
    engine_plays(&svc, T0 + 20).await;
    assert!(play_any(&svc, "alice", 1, 1, TRIES).await);
    let before = svc.store().game(1).await.unwrap().unwrap().version;
    let out = say(&svc, "tb", "alice", "takeback 1", T0 + 30).await;
    assert!(out.iter().any(|o| o.text.contains("accepts")), "{out:?}");
    // No buttons: the proposal is answered at once.
    assert!(out.iter().all(|o| o.buttons.is_empty()), "{out:?}");
    let after = svc.store().game(1).await.unwrap().unwrap();
    // The proposal and the engine's acceptance: two entries of the log, committed in
    // one transaction (`Store::write_all`, whose all-or-none is tested in
    // tests/store/packed_log.rs), so that no proposal waits for an answer that a kill
    // between two writes would have lost.
    assert_eq!(after.version, before + 2);
    let log = svc.store().actions(1).await.unwrap();
    let last: Vec<(&str, &str)> = log[log.len() - 2..]
        .iter()
        .map(|a| (a.author.as_str(), a.action.as_str()))
        .collect();
    assert_eq!(
        last,
        [
            ("alice", r#"{"Takeback":"Offer"}"#),
            (BOT, r#"{"Takeback":"Accept"}"#)
        ]
    );
    // Alice's move is taken back: she is to move again.
    assert!(after
        .deadlines
        .iter()
        .any(|d| Some(d.seat) == after.seat_of("alice")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_the_bot_cannot_play_are_refused_with_why_and_change_nothing() {
    let dir = TempDir::new("engine-refused");
    let svc = service(&dir.db()).await;
    let refused = |out: &[Outbound], kind: RefusalKind, words: &str| {
        assert_eq!(out[0].refusal, Some(kind), "{}", out[0].text);
        assert!(out[0].text.contains(words), "{}", out[0].text);
    };
    refused(
        &say(
            &svc,
            "r1",
            "alice",
            "challenge @postal standard level:9",
            T0,
        )
        .await,
        RefusalKind::Syntax,
        "level:",
    );
    refused(
        &say(&svc, "r2", "alice", "challenge @bob standard level:3", T0).await,
        RefusalKind::Syntax,
        "against the bot",
    );
    refused(
        &say(
            &svc,
            "r3",
            "alice",
            "challenge @postal standard rated:yes",
            T0,
        )
        .await,
        RefusalKind::Illegal,
        "never rated",
    );
    refused(
        &say(&svc, "r4", "alice", "challenge @postal chess-sharp", T0).await,
        RefusalKind::NotHere,
        "no engine",
    );
    refused(
        &say(&svc, "r5", "alice", "challenge @postal cloak", T0).await,
        RefusalKind::NotHere,
        "plain sight",
    );
    refused(
        &say(
            &svc,
            "r6",
            "alice",
            "challenge @postal @bob @carol split-brain",
            T0,
        )
        .await,
        RefusalKind::Syntax,
        "alone",
    );
    assert!(
        svc.store().game(1).await.unwrap().is_none(),
        "nothing was stored"
    );
    // Without engines on this server.
    let none = TempDir::new("engine-none");
    let bare = service_with(
        &none.db(),
        EngineSettings {
            stockfish: None,
            fairy_stockfish: None,
            ..small()
        },
    )
    .await;
    let out = say(&bare, "r8", "alice", "challenge @postal crazyhouse", T0).await;
    refused(&out, RefusalKind::NotHere, "no engine for Crazyhouse");
    assert!(bare.store().game(1).await.unwrap().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_whose_process_died_is_played_by_the_next() {
    assert!(engines_present());
    let dir = TempDir::new("engine-restart");
    let db = dir.db();
    let first = service(&db).await;
    challenge_bot(&first, "alice", "standard level:5 colour:white").await;
    assert!(play_any(&first, "alice", 1, 0, &["e4"]).await);
    // The next process is started first: its start (migrations on PostgreSQL) may take
    // longer than the claim's lease on a loaded machine.
    let second = service(&db).await;
    // The first process claims the engine's turn and dies holding it. The lease is two
    // seconds: stored in whole seconds, a one-second lease may run out at once.
    let turn = first
        .store()
        .claim_engine_turn(BOT, 2)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(turn.game_id, 1);
    drop(first);
    assert_eq!(
        second.play_engine_next(T0 + 20).await.unwrap(),
        None,
        "held"
    );
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    assert_eq!(second.play_engine_next(T0 + 20).await.unwrap(), Some(1));
    assert_eq!(second.store().actions(1).await.unwrap().len(), 2);
    // Played once: nothing waits any more.
    assert_eq!(second.play_engine_next(T0 + 20).await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_database_play_each_engine_turn_once() {
    assert!(engines_present());
    let dir = TempDir::new("engine-two");
    let db = dir.db();
    let a = service(&db).await;
    let players = ["alice", "bob", "carol", "dave"];
    for (n, who) in players.iter().enumerate() {
        challenge_bot(&a, who, "standard level:6 colour:white").await;
        assert!(play_any(&a, who, n as i64 + 1, 0, &["e4"]).await);
    }
    let b = service(&db).await;
    let work = |svc: Service| async move {
        let mut played = Vec::new();
        while let Some(id) = svc.play_engine_next(T0 + 20).await.unwrap() {
            played.push(id);
        }
        (svc, played)
    };
    let ((a, mut by_a), (_b, by_b)) = tokio::join!(work(a), work(b));
    by_a.extend(by_b);
    by_a.sort();
    assert_eq!(by_a, [1, 2, 3, 4], "each turn taken once");
    for id in 1..=4 {
        assert_eq!(a.store().actions(id).await.unwrap().len(), 2, "game {id}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conditional_line_answers_the_engines_move_and_the_engine_moves_again() {
    assert!(engines_present());
    let dir = TempDir::new("engine-conditional");
    let svc = service(&dir.db()).await;
    // Alice (White) offers her rook on e8; Black, the engine, has six replies (the king is
    // shut in by its own rook and pawns), and Alice stores an answer to each.
    challenge_bot(
        &svc,
        "alice",
        "standard level:8 colour:white fen:\"6rk/6pp/8/8/8/8/PP4PP/4R1K1 w - - 0 1\"",
    )
    .await;
    assert!(play_any(&svc, "alice", 1, 0, &["Re8"]).await);
    for (n, reply) in ["Rxe8", "Rf8", "g6", "g5", "h6", "h5"].iter().enumerate() {
        let out = dm(
            &svc,
            &format!("line{n}"),
            "alice",
            &format!("conditional 1 {reply} Kf2"),
            T0 + 11,
        )
        .await;
        assert!(out[0].text.contains("stored"), "{}", out[0].text);
    }
    let posted = engine_plays(&svc, T0 + 20).await;
    let log = svc.store().actions(1).await.unwrap();
    let authors: Vec<&str> = log.iter().map(|a| a.author.as_str()).collect();
    // Re8, the engine's reply, Alice's answer Kf2, and the engine's next move: the answer
    // gave the engine its next turn.
    assert_eq!(authors, ["alice", BOT, "alice", BOT], "{log:?}");
    assert!(log[2].action.contains("g1f2"), "{log:?}");
    assert!(
        posted
            .iter()
            .any(|o| o.text.contains("alice (White) played Kf2 (conditional)")),
        "{posted:?}"
    );
    // One board for the move and its answer, drawn once both are played.
    let boards = posted.iter().filter(|o| o.image.is_some()).count();
    assert_eq!(
        boards, 2,
        "the answer's and the engine's next move's: {posted:?}"
    );
    // Alice's lines are used up or dropped.
    let out = dm(&svc, "list", "alice", "conditional 1 list", T0 + 21).await;
    assert!(
        out[0].text.contains("no conditional lines"),
        "{}",
        out[0].text
    );
    assert_eq!(status(&svc, 1).await.0, "active");
}

/// Issue 60's fairness check: a game between people played while games against the bot
/// run hears nothing of the engine. Every message about it, or to its players, is
/// inspected; the engine plays only the bot's games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_between_people_hears_nothing_of_the_engine_games_beside_it() {
    use postal::service::referee::Destination;
    assert!(engines_present());
    let dir = TempDir::new("engine-fair");
    let svc = service(&dir.db()).await;
    challenge_bot(&svc, "alice", "standard level:3 colour:white").await;
    challenge_bot(&svc, "dave", "standard level:5 colour:black").await;
    let mut seen = say(
        &svc,
        "c-h",
        "bob",
        "challenge @carol standard colour:white",
        T0,
    )
    .await;
    seen.extend(say(&svc, "a-h", "carol", "accept 3", T0).await);
    let mut engine_games = Vec::new();
    while let Some(id) = svc.play_engine_next(T0 + 5).await.unwrap() {
        engine_games.push(id);
    }
    for n in 0..6 {
        if status(&svc, 3).await.0 != "active" {
            break;
        }
        play_any(&svc, "alice", 1, n, TRIES).await;
        assert!(play_seen(&svc, "bob", (3, n), TRIES, &mut seen).await);
        play_any(&svc, "dave", 2, n, TRIES_BLACK).await;
        assert!(play_seen(&svc, "carol", (3, n), TRIES_BLACK, &mut seen).await);
        while let Some(id) = svc.play_engine_next(T0 + 20).await.unwrap() {
            engine_games.push(id);
        }
        let queued = svc.claim_undelivered().await.unwrap();
        for q in &queued {
            svc.delivered(q.id, T0 + 20).await.unwrap();
        }
        seen.extend(queued.into_iter().map(|q| q.message));
    }
    for who in ["bob", "carol"] {
        seen.extend(say(&svc, &format!("b-{who}"), who, "board 3", T0 + 30).await);
        seen.extend(dm(&svc, &format!("g-{who}"), who, "games", T0 + 30).await);
    }
    assert!(
        !engine_games.is_empty(),
        "the engine played beside the game"
    );
    assert!(
        engine_games.iter().all(|&id| id == 1 || id == 2),
        "the engine plays only the bot's games: {engine_games:?}"
    );
    let to_players =
        |o: &Outbound| matches!(&o.to, Destination::Dm(u) if u == "bob" || u == "carol");
    let about = seen
        .iter()
        .filter(|o| o.game == Some(3) || to_players(o))
        .collect::<Vec<_>>();
    assert!(about.len() >= 12, "the game was played and looked at");
    for o in about {
        let text = o.text.to_lowercase();
        for word in [
            "engine",
            "stockfish",
            "level",
            "evaluation",
            "best move",
            "analys",
        ] {
            assert!(
                !text.contains(word),
                "{word:?} reached the human game: {}",
                o.text
            );
        }
        assert!(o.graph.is_none() && o.progress.is_none(), "{}", o.text);
    }
}

/// [`play_any`], keeping every answer in `seen`.
async fn play_seen(
    svc: &Service,
    who: &str,
    (id, n): (i64, usize),
    candidates: &[&str],
    seen: &mut Vec<Outbound>,
) -> bool {
    for (k, m) in candidates.iter().enumerate() {
        let event = format!("s{id}-{n}-{k}");
        let out = say(svc, &event, who, &format!("move {id} {m}"), T0 + 10).await;
        let played =
            (out.first()).is_some_and(|o| o.refusal.is_none() && o.text.contains("played"));
        seen.extend(out);
        if played {
            return true;
        }
    }
    false
}
