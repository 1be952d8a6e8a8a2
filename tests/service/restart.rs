//! Restarting the referee against a file database: a game played half before and half
//! after a restart keeps a gapless action log equal to its snapshot, a chat event seen
//! before the restart is still applied only once, and the clock's reminders and timeouts
//! are neither skipped nor repeated when the process stops between two deadline checks,
//! and a Double Move Chess game keeps its tokens across a restart.

use crate::common;

use common::service::{both_move, check_log, incoming, open, say, start_game, TempDir, T0};
use postal::service::referee::{Destination, Outbound, Queued, Service, Settings};
use postal::store::Store;

const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

/// Morphy's Opera Game (Paris 1858), which ends in mate on the 33rd ply.
const OPERA: [&str; 33] = [
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3",
    "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7",
    "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
];

fn player(ply: usize) -> &'static str {
    if ply % 2 == 0 {
        "alice"
    } else {
        "bob"
    }
}

fn texts(out: &[Outbound]) -> Vec<String> {
    out.iter().map(|o| o.text.clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_survives_a_restart_with_a_gapless_log() {
    let dir = TempDir::new("restart");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    for (ply, san) in OPERA.iter().enumerate().take(16) {
        let out = say(
            &svc,
            &format!("m{ply}"),
            player(ply),
            &format!("move 1 {san}"),
            T0,
        )
        .await;
        assert!(
            texts(&out)[0].contains("played"),
            "{san}: {:?}",
            texts(&out)
        );
    }
    assert_eq!(check_log(svc.store(), 1).await, 16);
    svc.store().close().await;
    drop(svc);

    let svc = open(&db).await;
    // The last move before the restart, delivered again by the chat service.
    assert!(say(&svc, "m15", "bob", "move 1 c6", T0).await.is_empty());
    assert_eq!(check_log(svc.store(), 1).await, 16);
    for (ply, san) in OPERA.iter().enumerate().skip(16) {
        let out = say(
            &svc,
            &format!("m{ply}"),
            player(ply),
            &format!("move 1 {san}"),
            T0,
        )
        .await;
        assert!(
            texts(&out)[0].contains("played"),
            "{san}: {:?}",
            texts(&out)
        );
    }
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(
        (g.status.as_str(), g.result.as_deref(), g.reason.as_deref()),
        ("finished", Some("1-0"), Some("checkmate"))
    );
    assert_eq!(check_log(svc.store(), 1).await, 33);
    svc.store().close().await;
}

/// Runs the deadline check at `at` on a freshly opened service, delivers what it returns
/// (marking each delivered), then stops it: every check is a separate process lifetime.
async fn tick_once(db: &str, at: i64) -> Vec<String> {
    let svc = open(db).await;
    let queued = svc.tick(at).await.unwrap();
    for q in &queued {
        svc.delivered(q.id, at).await.unwrap();
    }
    svc.store().close().await;
    queued.into_iter().map(|q| q.message.text).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_and_timeouts_are_neither_skipped_nor_repeated_across_restarts() {
    let dir = TempDir::new("clock");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    start_game(&svc, "carol", "dave", "chess-sharp days:3", T0).await;
    both_move(&svc, 1, ("alice", "bob"), ["e4", "e5"], T0).await;
    both_move(&svc, 2, ("carol", "dave"), ["K@e1", "K@e8"], T0).await;
    svc.store().close().await;
    drop(svc);
    let due = T0 + 3 * DAY;

    // Nothing is due yet.
    assert!(tick_once(&db, T0 + DAY).await.is_empty());
    // The 24 h reminders, once each, however often the process restarts.
    let first = tick_once(&db, due - 23 * HOUR).await;
    assert_eq!(first.len(), 2, "{first:?}");
    assert!(
        first.iter().all(|t| t.contains("less than 24 h")),
        "{first:?}"
    );
    assert!(tick_once(&db, due - 23 * HOUR).await.is_empty());
    assert!(tick_once(&db, due - 2 * HOUR).await.is_empty());
    // The process was down when the 1 h reminders fell due: they are sent on the next
    // check after the restart, not skipped.
    let second = tick_once(&db, due - 30 * 60).await;
    assert_eq!(second.len(), 2, "{second:?}");
    assert!(
        second.iter().all(|t| t.contains("less than 1 h")),
        "{second:?}"
    );
    assert!(tick_once(&db, due - 10 * 60).await.is_empty());
    // Time runs out: standard chess ends at once, Chess# tells the opponent to claim.
    let third = tick_once(&db, due + 60).await;
    assert_eq!(third.len(), 2, "{third:?}");
    assert!(third
        .iter()
        .any(|t| t.contains("game #1: alice's time ran out")));
    assert!(third
        .iter()
        .any(|t| t.contains("game #2: carol's time has run out")));
    assert!(tick_once(&db, due + 120).await.is_empty());
    assert!(tick_once(&db, due + DAY).await.is_empty());

    let svc = open(&db).await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(
        (g.status.as_str(), g.reason.as_deref()),
        ("finished", Some("timeout"))
    );
    assert_eq!(
        check_log(svc.store(), 1).await,
        3,
        "two moves and one timeout in the log"
    );
    // The Chess# claim, after yet another restart, is accepted once.
    let out = say(&svc, "t1", "dave", "claim time", due + DAY).await;
    assert!(
        texts(&out)[0].contains("dave (Black) wins on time (0-1)"),
        "{:?}",
        texts(&out)
    );
    // A command for a game that is over says so, and which game (issue 31).
    let again = say(&svc, "t2", "dave", "claim time", due + DAY).await;
    assert!(
        again[0].text.contains("game #2 is over"),
        "{}",
        again[0].text
    );
    assert_eq!(check_log(svc.store(), 2).await, 3);
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_recorded_but_not_delivered_before_a_stop_is_delivered_once_after() {
    let dir = TempDir::new("outbox");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard days:1", T0).await;
    both_move(&svc, 1, ("alice", "bob"), ["e4", "e5"], T0).await;
    // The check records the timeout and its message; the process stops before the
    // message is handed over (nothing is marked delivered).
    let queued = svc.tick(T0 + DAY + 60).await.unwrap();
    assert_eq!(queued.len(), 1, "{:?}", texts_of(&queued));
    assert!(queued[0].message.text.contains("alice's time ran out"));
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.reason.as_deref(), Some("timeout"));
    svc.store().close().await;
    drop(svc);

    // After the restart the first check hands it over, with the final board, once.
    let svc = open(&db).await;
    let again = svc.tick(T0 + DAY + 120).await.unwrap();
    assert_eq!(texts_of(&again), texts_of(&queued));
    assert!(
        again[0].message.image.is_some(),
        "the timeout shows the board"
    );
    svc.delivered(again[0].id, T0 + DAY + 120).await.unwrap();
    assert!(svc.tick(T0 + DAY + 180).await.unwrap().is_empty());
    svc.store().close().await;
    drop(svc);
    assert!(tick_once(&db, T0 + 2 * DAY).await.is_empty());
    let svc = open(&db).await;
    assert_eq!(
        check_log(svc.store(), 1).await,
        3,
        "two moves and one timeout in the log"
    );
    svc.store().close().await;
}

/// The commands of a message's buttons.
fn commands(m: &Outbound) -> Vec<String> {
    m.buttons.iter().map(|b| b.command.clone()).collect()
}

/// A game ended by the deadline check queues its end as an end: after a restart between
/// the queueing and the delivery, the message still announces the end of its game (an
/// adapter attaches the record and the animation) and carries the Rematch button, as the
/// end by a resignation does; a reminder queued before it is no end. For a game made in
/// private, each player's copy is the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_queued_before_a_restart_is_still_the_end_of_its_game() {
    let dir = TempDir::new("outbox-ending");
    let db = dir.db();
    let svc = open(&db).await;
    // Game 1 in #games, two days a move; game 2 ends by resignation, for comparison.
    start_game(&svc, "alice", "bob", "standard days:2", T0).await;
    start_game(&svc, "carol", "dave", "standard days:2", T0).await;
    both_move(&svc, 1, ("alice", "bob"), ["e4", "e5"], T0).await;
    both_move(&svc, 2, ("carol", "dave"), ["e4", "e5"], T0).await;
    let resigned = say(&svc, "resign-2", "carol", "resign 2", T0 + 10).await;
    let by_move: Vec<&Outbound> = resigned.iter().filter(|o| o.ending).collect();
    assert_eq!(by_move.len(), 1, "{resigned:?}");
    assert_eq!(commands(by_move[0]), ["rematch #2", "analyse 2"]);
    // Game 3, made in private between erin and frank.
    let private = |n: i64, user: &str, text: &str| incoming(n, user, true, text.to_string());
    svc.handle(private(
        100,
        "erin",
        "challenge @frank standard days:2 colour:white",
    ))
    .await
    .unwrap();
    let out = svc.handle(private(101, "frank", "accept 3")).await.unwrap();
    assert!(out[0].text.contains("accepted"), "{out:?}");
    svc.handle(private(102, "erin", "move 3 e4")).await.unwrap();
    svc.handle(private(103, "frank", "move 3 e5"))
        .await
        .unwrap();

    // A day in: the reminders are queued and delivered, none is an end.
    let reminders = svc.tick(T0 + DAY + 200).await.unwrap();
    assert_eq!(reminders.len(), 2, "{:?}", texts_of(&reminders));
    for q in &reminders {
        assert!(q.message.text.contains("reminder"), "{}", q.message.text);
        assert!(!q.message.ending && q.message.buttons.is_empty());
        svc.delivered(q.id, T0 + DAY + 200).await.unwrap();
    }
    // Two days in: both games time out; the process stops before delivering.
    svc.check_deadlines(T0 + 2 * DAY + 200).await.unwrap();
    svc.store().close().await;
    drop(svc);

    let svc = open(&db).await;
    let queued: Vec<Queued> = svc.claim_undelivered().await.unwrap();
    let to = |q: &Queued| (q.message.game, q.message.to.clone());
    assert_eq!(
        queued.iter().map(to).collect::<Vec<_>>(),
        [
            (Some(1), Destination::Channel("games".into())),
            (Some(3), Destination::Dm("erin".into())),
            (Some(3), Destination::Dm("frank".into())),
        ],
        "{:?}",
        texts_of(&queued)
    );
    for q in &queued {
        let m = &q.message;
        let id = m.game.unwrap();
        assert!(
            m.text.contains("time ran out") && m.text.contains("game over"),
            "{}",
            m.text
        );
        assert!(m.ending, "an end after the restart: {}", m.text);
        assert!(m.image.is_some(), "with the final board");
        assert_eq!(
            commands(m),
            [format!("rematch #{id}"), format!("analyse {id}")]
        );
    }
    // The record the adapter attaches is the finished game's.
    let (name, pgn) = svc.record(1).await.unwrap().unwrap();
    assert_eq!(name, "game-1.pgn");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    // The button does what it says: Bob challenges Alice again.
    let again = say(
        &svc,
        "rematch-1",
        "bob",
        &commands(&queued[0].message)[0],
        T0 + 3 * DAY,
    )
    .await;
    assert!(again[0].text.contains("challenges"), "{again:?}");
    svc.store().close().await;
}

fn texts_of(queued: &[postal::service::referee::Queued]) -> Vec<String> {
    queued.iter().map(|q| q.message.text.clone()).collect()
}

/// `a{n}` challenges `p{n}` to a game with colours drawn at random, as event `c{n}`.
async fn challenge(svc: &Service, n: usize) {
    let out = svc
        .handle(postal::service::referee::Incoming {
            event_id: format!("c{n}"),
            user: format!("a{n}"),
            place: postal::service::referee::Place::Channel("games".into()),
            via: None,
            server: None,
            text: format!("challenge @p{n} standard"),
            at: T0,
        })
        .await
        .unwrap();
    assert!(
        out[0].text.contains(&format!("challenges @p{n}")),
        "{}",
        out[0].text
    );
}

/// The seeds of games `ids` as stored.
async fn seeds(svc: &Service, ids: std::ops::RangeInclusive<i64>) -> Vec<i64> {
    let mut out = Vec::new();
    for id in ids {
        out.push(svc.store().game(id).await.unwrap().unwrap().seed);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_made_after_a_restart_do_not_repeat_the_random_draws_of_the_first_process() {
    let dir = TempDir::new("seeds");
    let settings = Settings {
        seed: Some(42),
        ..Settings::default()
    };
    let start = |db: String| {
        let settings = settings.clone();
        async move { Service::new(Store::open(&db).await.unwrap(), settings) }
    };
    let svc = start(dir.db()).await;
    for n in 0..8 {
        challenge(&svc, n).await;
    }
    let first = seeds(&svc, 1..=8).await;
    svc.store().close().await;
    drop(svc);
    let svc = start(dir.db()).await;
    for n in 8..16 {
        challenge(&svc, n).await;
    }
    let second = seeds(&svc, 9..=16).await;
    // A new process with the same --seed: new seeds, and colour draws that are not
    // the first process's over again.
    assert!(
        second.iter().all(|s| !first.contains(s)),
        "{first:?} {second:?}"
    );
    let colours = |s: &[i64]| s.iter().map(|x| x & 1).collect::<Vec<_>>();
    assert_ne!(colours(&first), colours(&second));
    for (id, seed) in (1..=16).zip(first.iter().chain(&second)) {
        assert_eq!(
            svc.game_seed(id),
            *seed,
            "game #{id}'s seed is derived from its id"
        );
    }
    svc.store().close().await;
    // Reproducible: the same seed on a new database gives game #1 the same draw.
    let other = TempDir::new("seeds2");
    let svc = start(other.db()).await;
    challenge(&svc, 0).await;
    assert_eq!(seeds(&svc, 1..=1).await, first[..1]);
    svc.store().close().await;
}

/// A Double Move Chess game (the transcript's), with each side's tokens spent before and
/// after a restart: the tokens left survive it, and the log replays to the snapshot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn double_move_tokens_survive_a_restart() {
    // (user, command); `double 1 A B` spends a token.
    const GAME: [(&str, &str); 31] = [
        ("alice", "move 1 e4"),
        ("bob", "move 1 e5"),
        ("alice", "move 1 Nf3"),
        ("bob", "move 1 Nc6"),
        ("alice", "move 1 Bc4"),
        ("bob", "move 1 Bc5"),
        ("alice", "move 1 c3"),
        ("bob", "move 1 Nf6"),
        ("alice", "move 1 d3"),
        ("bob", "move 1 d6"),
        ("alice", "move 1 O-O"),
        ("bob", "move 1 O-O"),
        ("alice", "move 1 h3"),
        ("bob", "move 1 h6"),
        ("alice", "move 1 Re1"),
        ("bob", "move 1 a6"),
        ("alice", "double 1 Nbd2 Nf1"),
        ("bob", "double 1 Nd4 Nxf3+"),
        ("alice", "move 1 cxd4"),
        ("bob", "move 1 exd4"),
        ("alice", "double 1 e5 exf6"),
        // The restart comes here: White has 2 tokens left, Black 3.
        ("bob", "move 1 Qxf6"),
        ("alice", "move 1 Qh5"),
        ("bob", "move 1 Be6"),
        ("alice", "double 1 Qg4 Bxh6"),
        ("bob", "move 1 Qf4"),
        ("alice", "double 1 a3 a4"),
        ("bob", "double 1 a5 b6"),
        ("alice", "double 1 b3 b4"),
        ("alice", "move 1 Qxg7#"),
        ("alice", "games"),
    ];
    let dir = TempDir::new("restart-dm");
    let db = dir.db();
    let svc = open(&db).await;
    say(
        &svc,
        "c",
        "alice",
        "challenge @bob double-move colour:white",
        T0,
    )
    .await;
    say(&svc, "a", "bob", "accept", T0).await;
    let tokens = |g: &postal::store::GameRow| -> serde_json::Value {
        serde_json::from_str::<serde_json::Value>(&g.snapshot).unwrap()["tokens_left"].clone()
    };
    for (i, (user, text)) in GAME.iter().enumerate().take(21) {
        let out = say(&svc, &format!("m{i}"), user, text, T0).await;
        assert!(
            texts(&out)[0].contains("played"),
            "{text}: {:?}",
            texts(&out)
        );
    }
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(tokens(&g), serde_json::json!([2, 3]));
    let logged = check_log(svc.store(), 1).await;
    svc.store().close().await;
    drop(svc);

    let svc = open(&db).await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(tokens(&g), serde_json::json!([2, 3]));
    let board = say(&svc, "b", "alice", "board 1", T0).await;
    assert!(
        texts(&board)[0].contains("double-move tokens left: White 2, Black 3"),
        "{:?}",
        texts(&board)
    );
    // The double move before the restart, delivered again, is applied once.
    assert!(say(&svc, "m20", "alice", "double 1 e5 exf6", T0)
        .await
        .is_empty());
    assert_eq!(check_log(svc.store(), 1).await, logged);
    for (i, (user, text)) in GAME.iter().enumerate().skip(21) {
        let out = texts(&say(&svc, &format!("m{i}"), user, text, T0).await);
        match i {
            28 => assert!(out[0].contains("no double-move tokens left"), "{out:?}"),
            30 => assert!(out[0].contains("you have no games"), "{out:?}"),
            _ => assert!(out[0].contains("played"), "{text}: {out:?}"),
        }
    }
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(
        (g.status.as_str(), g.reason.as_deref()),
        ("finished", Some("checkmate"))
    );
    assert_eq!(tokens(&g), serde_json::json!([0, 2]));
    assert_eq!(check_log(svc.store(), 1).await, 29);
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_delivery_of_the_bare_move_that_ended_a_game_is_answered_with_nothing() {
    let svc = open("sqlite::memory:").await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    let moves = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];
    for (ply, san) in moves.iter().enumerate() {
        let out = say(&svc, &format!("m{ply}"), player(ply), san, T0).await;
        assert!(texts(&out)[0].contains("played"), "{:?}", texts(&out));
    }
    // The chat service delivers the mating move again: no "the game is over" reply.
    assert!(say(&svc, "m6", "alice", "Qxf7#", T0).await.is_empty());
    // A new message with the same text is answered.
    let out = say(&svc, "m7", "alice", "Qxf7#", T0).await;
    assert!(
        texts(&out)[0].contains("wins by checkmate (1-0)), so"),
        "{:?}",
        texts(&out)
    );
    assert_eq!(check_log(svc.store(), 1).await, 7);
}

/// A game stored before the variant platform (no options, no starting state; the action
/// log in the JSON of the old closed enum) loads, replays and plays on unchanged.
#[tokio::test]
async fn a_game_stored_before_the_platform_loads_and_replays() {
    let dir = TempDir::new("pre-platform");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "chess-sharp", T0).await;
    for (i, (user, text)) in [
        ("alice", "K@e1"),
        ("bob", "k@e8"),
        ("alice", "fastfifty propose"),
    ]
    .into_iter()
    .enumerate()
    {
        say(&svc, &format!("p{i}"), user, text, T0 + i as i64).await;
    }
    // What the previous release stored: these exact entries, and no starting state.
    let log: Vec<String> = svc
        .store()
        .actions(1)
        .await
        .unwrap()
        .into_iter()
        .map(|a| a.action)
        .collect();
    svc.store().close().await;
    assert_eq!(
        log,
        [
            r#"{"Move":"K@e1"}"#,
            r#"{"Move":"K@e8"}"#,
            r#"{"Offer":"FastFifty"}"#
        ]
    );
    common::sql::execute(
        &db,
        "UPDATE games SET start_snapshot = NULL, options = '{}'",
        &[],
    )
    .await;
    let svc = open(&db).await;
    assert_eq!(check_log(svc.store(), 1).await, 3);
    let out = say(&svc, "p9", "bob", "fastfifty accept", T0 + 9).await;
    assert!(texts(&out)[0].contains("game over: "), "{out:?}");
    assert_eq!(check_log(svc.store(), 1).await, 4);
    svc.store().close().await;
}

/// A game set up as its variant sets it up from the game's row alone (its position, a
/// `fen:` one included, options and seed) stores no starting state: the replay sets it up
/// again, and both games replay to their snapshots after a restart.
#[tokio::test]
async fn a_starting_state_is_stored_only_where_the_row_does_not_give_it() {
    let dir = TempDir::new("start-state");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    start_game(
        &svc,
        "carol",
        "dave",
        "standard fen:\"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"",
        T0,
    )
    .await;
    for (id, event, user, san) in [
        (1, "s1", "alice", "e4"),
        (1, "s2", "bob", "e5"),
        (2, "s3", "carol", "e4"),
    ] {
        let out = say(&svc, event, user, &format!("move {id} {san}"), T0 + 1).await;
        assert!(
            texts(&out)[0].contains("played"),
            "{san}: {:?}",
            texts(&out)
        );
    }
    svc.store().close().await;
    drop(svc);
    let svc = open(&db).await;
    let plain = svc.store().game(1).await.unwrap().unwrap();
    let from_fen = svc.store().game(2).await.unwrap().unwrap();
    assert_eq!(plain.start_snapshot, None);
    assert!(from_fen.start_fen.is_some());
    assert_eq!(check_log(svc.store(), 1).await, 2);
    assert_eq!(check_log(svc.store(), 2).await, 1);
    svc.store().close().await;
}
