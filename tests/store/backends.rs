//! The store's behaviour on both backends: every test here runs on a SQLite file and on
//! PostgreSQL (a fresh schema of the server `POSTAL_TEST_POSTGRES` names; skipped, with
//! a message naming the variable, without one). Two `Store`s opened on one database stand
//! for two processes sharing it.

use crate::common;

use common::postgres::Schema;
use common::service::TempDir;
use postal::store::{
    Backend, Drawn, GameStatus, NewAction, NewDeadline, NewGame, NewMessage, SeatRow, Store,
    StoreError, StoredOutcome, StoredServerSettings, Write, TABLES,
};

/// Runs `body` on a fresh SQLite file and on a fresh PostgreSQL schema.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let dir = super::TempDir::new(stringify!($name));
                    super::$name(dir.db()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some(schema) = super::Schema::for_test(stringify!($name)) {
                        super::$name(schema.url()).await;
                    }
                }
            )*
        }
    };
}

on_both_backends!(
    a_write_stores_every_part_in_one_statement,
    a_stale_version_or_a_seen_event_changes_nothing,
    a_notice_and_its_messages_are_recorded_once,
    reads_find_games_by_user_channel_and_deadline,
    adapter_bookkeeping_threads_held_messages_closed_dms,
    the_schema_has_every_table_and_column,
    of_concurrent_writes_from_one_version_exactly_one_wins,
    concurrent_challenges_never_pass_the_limit,
    two_processes_never_hold_one_outbox_message,
    a_copy_to_the_other_backend_and_back_keeps_every_row,
    a_read_only_store_reads_and_refuses_to_be_created,
    an_undelivered_timeout_of_an_earlier_version_is_marked_an_end,
    of_concurrent_server_settings_writes_from_one_version_exactly_one_wins,
);

pub(crate) fn new_game(challenger: &str, channel: &str) -> NewGame {
    NewGame {
        variant: "standard".into(),
        days_per_move: 3,
        colour: "white".into(),
        challenger: challenger.into(),
        channel: Some(channel.into()),
        server: Some("guild".into()),
        max_open: 10,
        one_live: false,
        start_fen: None,
        options: "{}".into(),
        snapshot: "{}".into(),
    }
}

fn seats(white: &str, black: Option<&str>) -> Vec<SeatRow> {
    vec![
        SeatRow {
            seat: 0,
            user: Some(white.into()),
            role: "white".into(),
            accepted: true,
        },
        SeatRow {
            seat: 1,
            user: black.map(Into::into),
            role: "black".into(),
            accepted: false,
        },
    ]
}

/// A challenge by alice in `games`, black's seat open; its id. (Bob, who takes the seat
/// in [`change`], is a known user, as the service makes every player.)
pub(crate) async fn challenge(store: &Store, event: &str) -> i64 {
    store.ensure_user("bob", "Bob").await.unwrap();
    let (id, seed, _) = store
        .create_game(&new_game("alice", "games"), Some(event), 10, |id| {
            Ok(Drawn {
                seed: id * 7,
                seats: seats("alice", None),
                ..Drawn::default()
            })
        })
        .await
        .unwrap();
    assert_eq!(seed, id * 7);
    id
}

pub(crate) fn change(version: i64, event: &str) -> Write {
    Write {
        expected_version: version,
        action: Some(NewAction {
            seat: 0,
            author: "alice".into(),
            json: "\"x\"".into(),
        }),
        at: 20,
        event_id: Some(event.into()),
        status: GameStatus::Active,
        snapshot: format!("{{\"v\":{}}}", version + 1),
        outcome: None,
        seats: Some(vec![SeatRow {
            seat: 1,
            user: Some("bob".into()),
            role: "black".into(),
            accepted: true,
        }]),
        deadlines: vec![NewDeadline {
            seat: 1,
            turn: version + 1,
            due_at: 1000,
        }],
        notice: None,
        messages: vec![NewMessage {
            destination: "dm:bob".into(),
            text: "hello".into(),
            board: true,
            ending: true,
            claim_seat: None,
        }],
    }
}

async fn a_write_stores_every_part_in_one_statement(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    store.write(id, &change(0, "e1")).await.unwrap();
    let g = store.game(id).await.unwrap().unwrap();
    assert_eq!((g.version, g.status.as_str()), (1, "active"));
    assert_eq!((g.user_at(1), g.seats[1].accepted), (Some("bob"), true));
    assert_eq!(g.server.as_deref(), Some("guild"));
    assert_eq!(
        g.deadlines
            .iter()
            .map(|d| (d.game_id, d.seat, d.turn, d.due_at))
            .collect::<Vec<_>>(),
        vec![(id, 1, 1, 1000)]
    );
    let log = store.actions(id).await.unwrap();
    assert_eq!((log.len(), log[0].author.as_str()), (1, "alice"));
    assert!(store.event_seen("e1").await.unwrap());
    let q = store.claim_undelivered(120).await.unwrap();
    assert_eq!(
        (
            q.len(),
            q[0].game_id,
            q[0].text.as_str(),
            q[0].board,
            q[0].ending
        ),
        (1, Some(id), "hello", true, true)
    );
    store.mark_delivered(q[0].id, 30).await.unwrap();
    assert!(store.claim_undelivered(120).await.unwrap().is_empty());
    // No seats given: the seats stay as they are; no deadlines: none left.
    let w = Write {
        seats: None,
        deadlines: Vec::new(),
        messages: Vec::new(),
        outcome: Some(StoredOutcome {
            result: "1-0".into(),
            reason: "resignation".into(),
            score: None,
        }),
        status: GameStatus::Finished,
        ..change(1, "e2")
    };
    store.write(id, &w).await.unwrap();
    let g = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        (
            g.version,
            g.user_at(1),
            g.deadlines.len(),
            g.result.as_deref()
        ),
        (2, Some("bob"), 0, Some("1-0"))
    );
    assert_eq!(store.actions(id).await.unwrap().len(), 2);
    store.close().await;
}

async fn a_stale_version_or_a_seen_event_changes_nothing(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    store.write(id, &change(0, "e1")).await.unwrap();
    let before = store.game(id).await.unwrap().unwrap();
    assert!(matches!(
        store.write(id, &change(0, "e2")).await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store.write(id, &change(1, "e1")).await,
        Err(StoreError::Duplicate)
    ));
    assert!(matches!(
        store.write(id, &change(1, "e0")).await,
        Err(StoreError::Duplicate)
    ));
    // A challenge whose event was seen is refused too, and creates nothing.
    let again = store
        .create_game(&new_game("alice", "games"), Some("e1"), 11, |_| {
            Ok(Drawn::default())
        })
        .await;
    assert!(matches!(again, Err(StoreError::Duplicate)));
    let after = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        (after.version, after.snapshot, after.deadlines),
        (before.version, before.snapshot, before.deadlines)
    );
    assert_eq!(store.actions(id).await.unwrap().len(), 1);
    assert!(!store.event_seen("e2").await.unwrap());
    assert_eq!(store.claim_undelivered(120).await.unwrap().len(), 1);
    assert_eq!(store.game_ids().await.unwrap(), vec![id]);
    store.close().await;
}

async fn a_notice_and_its_messages_are_recorded_once(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    let m = NewMessage {
        destination: "channel:games".into(),
        text: "reminder".into(),
        board: false,
        ending: false,
        claim_seat: None,
    };
    let twice = [
        m.clone(),
        NewMessage {
            board: true,
            ending: true,
            ..m
        },
    ];
    let first = store
        .record_notice(id, (0, 1, "remind-24h"), 50, &twice)
        .await
        .unwrap();
    let again = store
        .record_notice(id, (0, 1, "remind-24h"), 60, &twice)
        .await
        .unwrap();
    assert!(first && !again);
    assert!(store.has_notice(id, 0, 1, "remind-24h").await.unwrap());
    assert!(!store.has_notice(id, 0, 2, "remind-24h").await.unwrap());
    let q = store.claim_undelivered(120).await.unwrap();
    assert_eq!(
        q.iter()
            .map(|m| (m.destination.as_str(), m.board, m.ending))
            .collect::<Vec<_>>(),
        vec![
            ("channel:games", false, false),
            ("channel:games", true, true)
        ]
    );
    store.close().await;
}

async fn reads_find_games_by_user_channel_and_deadline(url: String) {
    let store = Store::open(&url).await.unwrap();
    let open = challenge(&store, "e0").await;
    let played = challenge(&store, "e1").await;
    store.write(played, &change(0, "e2")).await.unwrap();
    assert_eq!(
        store
            .games_of("bob", &[GameStatus::Active])
            .await
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>(),
        vec![played]
    );
    let alice: Vec<i64> = store
        .games_of("alice", &[GameStatus::Challenged, GameStatus::Active])
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(alice, vec![open, played]);
    assert!(store.games_of("alice", &[]).await.unwrap().is_empty());
    let waiting: Vec<i64> = store
        .open_challenges("games", 10)
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(waiting, vec![open]);
    assert!(store
        .open_challenges("elsewhere", 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(store.deadlines_before(999).await.unwrap().len(), 0);
    assert_eq!(
        store.deadlines_before(1000).await.unwrap()[0].game_id,
        played
    );
    assert_eq!(store.challenges_made_before(10).await.unwrap(), vec![open]);
    assert!(store.challenges_made_before(9).await.unwrap().is_empty());
    assert!(store.game(played + 100).await.unwrap().is_none());
    store.close().await;
}

async fn adapter_bookkeeping_threads_held_messages_closed_dms(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    store.write(id, &change(0, "e1")).await.unwrap();
    assert_eq!(
        store
            .games_needing_thread("games")
            .await
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>(),
        vec![id]
    );
    store.move_to_thread(id, "games", "thread-1").await.unwrap();
    assert!(store
        .games_needing_thread("games")
        .await
        .unwrap()
        .is_empty());
    assert!(store.is_game_thread("thread-1").await.unwrap());
    assert_eq!(
        store.thread_of(id).await.unwrap(),
        Some(("thread-1".to_string(), "games".to_string()))
    );
    assert_eq!(
        store.game(id).await.unwrap().unwrap().channel.as_deref(),
        Some("thread-1")
    );
    store.hold_message("bob", "first", 1).await.unwrap();
    store.hold_message("bob", "second", 2).await.unwrap();
    store.hold_message("carol", "other", 3).await.unwrap();
    assert_eq!(
        store.take_held("bob").await.unwrap(),
        vec!["first", "second"]
    );
    assert!(store.take_held("bob").await.unwrap().is_empty());
    store.set_dm_closed("bob", true, 5).await.unwrap();
    store.set_dm_closed("bob", true, 6).await.unwrap();
    assert!(store.dm_closed("bob").await.unwrap());
    store.set_dm_closed("bob", false, 7).await.unwrap();
    assert!(!store.dm_closed("bob").await.unwrap());
    store.close().await;
}

async fn the_schema_has_every_table_and_column(url: String) {
    let store = Store::open(&url).await.unwrap();
    let described = store.described_columns().await.unwrap();
    for (t, (name, columns)) in TABLES.iter().zip(&described) {
        let expected: Vec<&str> = t.columns.iter().map(|(c, _)| *c).collect();
        assert_eq!(
            (
                name.as_str(),
                columns.iter().map(String::as_str).collect::<Vec<_>>()
            ),
            (t.name, expected),
            "{:?}: table {} differs from the shared schema",
            store.backend(),
            t.name
        );
    }
    store.close().await;
}

async fn of_concurrent_writes_from_one_version_exactly_one_wins(url: String) {
    let a = Store::open(&url).await.unwrap();
    let b = Store::open(&url).await.unwrap();
    let id = challenge(&a, "e0").await;
    for round in 0..5i64 {
        let mut tasks = Vec::new();
        for (n, store) in [&a, &b, &a, &b].into_iter().enumerate() {
            let store = store.clone();
            let w = change(round, &format!("r{round}-{n}"));
            tasks.push(tokio::spawn(async move { store.write(id, &w).await }));
        }
        let mut won = 0;
        for t in tasks {
            match t.await.unwrap() {
                Ok(()) => won += 1,
                Err(StoreError::Conflict) => {}
                Err(e) => panic!("round {round}: {e}"),
            }
        }
        assert_eq!(won, 1, "round {round}");
    }
    let g = b.game(id).await.unwrap().unwrap();
    assert_eq!(g.version, 5);
    let log = a.actions(id).await.unwrap();
    assert_eq!(
        log.iter().map(|r| r.seq).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
    a.close().await;
    b.close().await;
}

/// Two processes changing one server's settings from the same read: exactly one write
/// lands each round, the other is told so (and the service reads again), and the version
/// counts the writes that landed.
async fn of_concurrent_server_settings_writes_from_one_version_exactly_one_wins(url: String) {
    const SERVER: &str = "300000000000000003";
    let a = Store::open(&url).await.unwrap();
    let b = Store::open(&url).await.unwrap();
    assert_eq!(a.server_settings(SERVER).await.unwrap(), None);
    for round in 0..4i64 {
        let mut tasks = Vec::new();
        for (n, store) in [&a, &b, &a, &b].into_iter().enumerate() {
            let store = store.clone();
            let s = StoredServerSettings {
                prefix: format!("?{n}"),
                text_commands: n % 2 == 0,
                channels: String::new(),
                days: Some(round + 1),
                options: "{}".into(),
                moderator_role: None,
                version: round,
            };
            tasks.push(tokio::spawn(async move {
                store.set_server_settings(SERVER, &s, 1_000 + round).await
            }));
        }
        let mut won = 0;
        for t in tasks {
            if t.await.unwrap().unwrap() {
                won += 1;
            }
        }
        assert_eq!(won, 1, "round {round}");
        let stored = b.server_settings(SERVER).await.unwrap().unwrap();
        assert_eq!((stored.version, stored.days), (round + 1, Some(round + 1)));
    }
    a.close().await;
    b.close().await;
}

async fn concurrent_challenges_never_pass_the_limit(url: String) {
    let a = Store::open(&url).await.unwrap();
    let b = Store::open(&url).await.unwrap();
    let mut tasks = Vec::new();
    for n in 0..12 {
        let store = if n % 2 == 0 { a.clone() } else { b.clone() };
        tasks.push(tokio::spawn(async move {
            let g = NewGame {
                max_open: 3,
                ..new_game("alice", "games")
            };
            store
                .create_game(&g, Some(&format!("c{n}")), 10, |id| {
                    Ok(Drawn {
                        seed: id,
                        seats: seats("alice", Some("bob")),
                        ..Drawn::default()
                    })
                })
                .await
        }));
    }
    let mut made = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => made += 1,
            Err(StoreError::OverLimit) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(made, 3);
    assert_eq!(a.game_ids().await.unwrap().len(), 3);
    a.close().await;
    b.close().await;
}

async fn two_processes_never_hold_one_outbox_message(url: String) {
    let a = Store::open(&url).await.unwrap();
    let b = Store::open(&url).await.unwrap();
    let id = challenge(&a, "e0").await;
    let messages: Vec<NewMessage> = (0..40)
        .map(|n| NewMessage {
            destination: format!("dm:user{n}"),
            text: format!("message {n}"),
            board: false,
            ending: false,
            claim_seat: None,
        })
        .collect();
    a.record_notice(id, (0, 1, "timeout"), 5, &messages)
        .await
        .unwrap();
    let (qa, qb) = tokio::join!(a.claim_undelivered(120), b.claim_undelivered(120));
    let (qa, qb) = (qa.unwrap(), qb.unwrap());
    assert_eq!(qa.len() + qb.len(), 40, "every message is claimed once");
    assert!(qa.iter().all(|m| !qb.iter().any(|n| n.id == m.id)));
    // What one holds the other cannot take: claiming again, a process gets back its own
    // share only (on PostgreSQL, rows locked by the other claim at that moment are
    // skipped, so both claims may have taken a share); released, it can.
    let ids = |q: &[_]| -> Vec<i64> {
        q.iter()
            .map(|m: &postal::store::QueuedMessage| m.id)
            .collect()
    };
    let (holder, other, others_share) = if qa.is_empty() {
        (&b, &a, ids(&qa))
    } else {
        (&a, &b, ids(&qb))
    };
    assert_eq!(
        ids(&other.claim_undelivered(120).await.unwrap()),
        others_share
    );
    holder.close().await;
    assert_eq!(other.claim_undelivered(120).await.unwrap().len(), 40);
    // A claim whose lease ran out is taken over by another process.
    let c = Store::open(&url).await.unwrap();
    assert!(c.claim_undelivered(120).await.unwrap().is_empty());
    let d = Store::open(&url).await.unwrap();
    let held = other.claim_undelivered(-5).await.unwrap();
    assert_eq!(held.len(), 40);
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(d.claim_undelivered(120).await.unwrap().len(), 40);
    for s in [other, &c, &d] {
        s.close().await;
    }
}

async fn a_copy_to_the_other_backend_and_back_keeps_every_row(url: String) {
    let source = Store::open(&url).await.unwrap();
    let id = challenge(&source, "e0").await;
    source.write(id, &change(0, "e1")).await.unwrap();
    source.write(id, &change(1, "e2")).await.unwrap();
    source
        .move_to_thread(id, "games", "thread-1")
        .await
        .unwrap();
    source.hold_message("bob", "held", 3).await.unwrap();
    source.set_dm_closed("bob", true, 4).await.unwrap();
    source
        .record_notice(id, (1, 2, "remind-1h"), 5, &[])
        .await
        .unwrap();
    let counts = source.row_counts().await.unwrap();
    // To the other backend when there is one; to another file of the same otherwise.
    let dir = TempDir::new("copy");
    let schema = match source.backend() {
        Backend::Postgres => None,
        Backend::Sqlite => Schema::for_test("copying SQLite into PostgreSQL"),
    };
    let other_url = match (&schema, source.backend()) {
        (Some(s), _) => s.url(),
        _ => dir.db(),
    };
    let other = Store::open(&other_url).await.unwrap();
    assert_eq!(source.copy_into(&other).await.unwrap(), counts);
    assert_eq!(other.row_counts().await.unwrap(), counts);
    // A second copy into a database with rows is refused, and changes nothing.
    assert!(matches!(
        source.copy_into(&other).await,
        Err(StoreError::Refused(_))
    ));
    assert_eq!(other.row_counts().await.unwrap(), counts);
    let (g, h) = (
        source.game(id).await.unwrap().unwrap(),
        other.game(id).await.unwrap().unwrap(),
    );
    assert_eq!(format!("{g:?}"), format!("{h:?}"));
    assert_eq!(
        source.actions(id).await.unwrap(),
        other.actions(id).await.unwrap()
    );
    // New rows in the copy take new ids (the sequences moved past the copied ones).
    let next = challenge(&other, "e9").await;
    assert!(next > id);
    let back = TempDir::new("copy-back");
    let round_trip = Store::open(&back.db()).await.unwrap();
    other.copy_into(&round_trip).await.unwrap();
    assert_eq!(
        format!("{:?}", round_trip.game(id).await.unwrap().unwrap()),
        format!("{g:?}")
    );
    for s in [&source, &other, &round_trip] {
        s.close().await;
    }
}

async fn a_read_only_store_reads_and_refuses_to_be_created(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    let reader = Store::open_read_only(&url).await.unwrap();
    assert_eq!(reader.game(id).await.unwrap().unwrap().id, id);
    assert!(reader.ensure_user("carol", "carol").await.is_err());
    reader.close().await;
    store.close().await;
    if let Some(fresh) = Schema::for_test("a read-only PostgreSQL schema") {
        // A database postal never wrote is not a postal database.
        let e = Store::open_read_only(&fresh.url()).await.unwrap_err();
        assert!(e.to_string().contains("not a postal database"), "{e}");
    }
}

/// Applies the migrations numbered below `below` of this backend's folder to `url`, as an
/// earlier version of the bot would have.
async fn migrate_below(url: &str, below: u32) {
    let postgres = url.starts_with("postgres");
    let source = crate::common::root().join(if postgres {
        "migrations/postgres"
    } else {
        "migrations"
    });
    let dir = TempDir::new("old-migrations");
    for entry in std::fs::read_dir(&source).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let number = name.split('_').next().and_then(|n| n.parse::<u32>().ok());
        if name.ends_with(".sql") && number.is_some_and(|n| n < below) {
            std::fs::copy(&path, dir.0.join(&name)).unwrap();
        }
    }
    let migrator = sqlx::migrate::Migrator::new(dir.0.as_path()).await.unwrap();
    if postgres {
        let pool = sqlx::PgPool::connect(url).await.unwrap();
        migrator.run(&pool).await.unwrap();
        pool.close().await;
    } else {
        let options = url
            .parse::<sqlx::sqlite::SqliteConnectOptions>()
            .unwrap()
            .create_if_missing(true);
        let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
        migrator.run(&pool).await.unwrap();
        pool.close().await;
    }
}

/// A timeout's message queued by a version before migration 0009 (which marks an outbox
/// message as the end of its game) and not yet delivered is marked as an end by the
/// migration: before it, only a timeout's public message carried the board, and a
/// timeout ends its game. A board of a game still going, a message without the board and
/// a delivered message are left unmarked.
async fn an_undelivered_timeout_of_an_earlier_version_is_marked_an_end(url: String) {
    migrate_below(&url, 9).await;
    let rows = [
        "INSERT INTO users (id, name) VALUES ('alice', 'alice'), ('bob', 'bob')",
        "INSERT INTO games (id, variant, status, days_per_move, colour, challenger, channel,
            seed, snapshot, created_at, updated_at)
         VALUES (1, 'standard', 'finished', 1, 'white', 'alice', 'games', 1, '{}', 1, 2),
                (2, 'standard', 'active', 1, 'white', 'alice', 'games', 1, '{}', 1, 2)",
        "INSERT INTO outbox (game_id, destination, text, board, created_at, delivered_at)
         VALUES (1, 'channel:games', 'time ran out', 1, 3, NULL),
                (1, 'dm:alice', 'private', 0, 3, NULL),
                (2, 'channel:games', 'a board', 1, 3, NULL),
                (1, 'channel:games', 'sent', 1, 3, 4)",
    ];
    for sql in rows {
        common::sql::execute(&url, sql, &[]).await;
    }
    let store = Store::open(&url).await.unwrap();
    let q = store.claim_undelivered(120).await.unwrap();
    assert_eq!(
        q.iter()
            .map(|m| (m.text.as_str(), m.board, m.ending))
            .collect::<Vec<_>>(),
        [
            ("time ran out", true, true),
            ("private", false, false),
            ("a board", true, false),
        ]
    );
    store.close().await;
}

/// Every chat event that changed something (a challenge, a move, a change without an
/// action) is stored once, as its key in `events` and nowhere else; every one of them is
/// seen, and is refused by a write that carries it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_actions_event_is_stored_once() {
    let dir = TempDir::new("an_actions_event_is_stored_once");
    let db = dir.db();
    if db.starts_with("postgres") {
        return;
    }
    let store = Store::open(&db).await.unwrap();
    let id = challenge(&store, "e0").await;
    store.write(id, &change(0, "e1")).await.unwrap();
    let w = Write {
        action: None,
        ..change(1, "e2")
    };
    store.write(id, &w).await.unwrap();
    for e in ["e0", "e1", "e2"] {
        assert!(store.event_seen(e).await.unwrap(), "{e}");
    }
    let again = Write {
        action: None,
        ..change(2, "e1")
    };
    assert!(matches!(
        store.write(id, &again).await,
        Err(StoreError::Duplicate)
    ));
    assert!(matches!(
        store.write(id, &change(2, "e2")).await,
        Err(StoreError::Duplicate)
    ));
    store.close().await;
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{db}"))
        .await
        .unwrap();
    let marked: Vec<Vec<u8>> = sqlx::query_scalar("SELECT key FROM events ORDER BY key")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(marked, ["e0", "e1", "e2"].map(postal::store::event_key));
    pool.close().await;
}
