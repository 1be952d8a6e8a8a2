//! The compact action log (migrations 0022 and 0024) on both backends: every action reads
//! back byte for byte, with its time and author, whatever form it is kept in; a chat event
//! seen before is refused by every kind of write, each event stored once, as its key; and a
//! new SQLite database has pages of [`PAGE_SIZE`] bytes; and writes committed together
//! ([`Store::write_all`]: an action and the answer it gets at once) are stored all or none.

use crate::backends::{challenge, change};
use crate::common;

use common::postgres::Schema;
use common::service::TempDir;
use postal::store::{GameStatus, NewAction, Store, StoreError, Write, PAGE_SIZE};
use sqlx::{Connection, Row};

on_both_backends!(
    every_action_reads_back_as_it_was_written,
    a_seen_event_is_refused_by_every_kind_of_write,
    a_long_log_is_kept_in_parts_that_fit_a_page,
    writes_committed_together_are_stored_all_or_none,
);

/// A write of action `json` by alice from `version`, with event `event`, at `at`.
fn acting(version: i64, json: &str, event: &str, at: i64) -> Write {
    Write {
        action: Some(NewAction {
            seat: (version % 2) as u8,
            author: "alice".into(),
            json: json.into(),
        }),
        at,
        seats: None,
        messages: Vec::new(),
        ..change(version, event)
    }
}

/// A write from `version` that changes the game without an action, with event `event`.
fn without_action(version: i64, event: &str) -> Write {
    Write {
        action: None,
        ..acting(version, "\"x\"", event, 30)
    }
}

/// Game `id`'s log as stored (`game_logs.log`), and its authors kept apart
/// (`action_authors`: seq and author).
async fn stored(url: &str, id: i64) -> (String, Vec<(i64, String)>) {
    let log = format!("SELECT log FROM game_logs WHERE game_id = {id} ORDER BY part");
    let authors =
        format!("SELECT seq, author FROM action_authors WHERE game_id = {id} ORDER BY seq");
    if url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        let log = sqlx::query(&log).fetch_all(&mut c).await.unwrap();
        let log = log.iter().map(|r| r.get::<String, _>(0)).collect();
        let authors = sqlx::query(&authors).fetch_all(&mut c).await.unwrap();
        (log, authors.iter().map(|r| (r.get(0), r.get(1))).collect())
    } else {
        let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
        let log = sqlx::query(&log).fetch_all(&mut c).await.unwrap();
        let log = log.iter().map(|r| r.get::<String, _>(0)).collect();
        let authors = sqlx::query(&authors).fetch_all(&mut c).await.unwrap();
        (log, authors.iter().map(|r| (r.get(0), r.get(1))).collect())
    }
}

async fn every_action_reads_back_as_it_was_written(url: String) {
    let store = Store::open(&url).await.unwrap();
    // Created at 10 (`challenge`).
    let id = challenge(&store, "e0").await;
    let actions = [
        r#"{"Move":"e2e4"}"#,
        r#""Resign""#,
        r#"{"Move":"a\"b"}"#,
        r#"{"Move":"e7e8=Q"}"#,
        r#"{"Offer":"Draw"}"#,
        r#"{"Move":"♞f3"}"#,
    ];
    for (n, json) in actions.iter().enumerate() {
        let w = acting(n as i64, json, &format!("a{n}"), 1_767_225_600 + n as i64);
        store.write(id, &w).await.unwrap();
    }
    let log = store.actions(id).await.unwrap();
    assert_eq!(
        log.iter()
            .map(|r| (r.seq, r.action.as_str(), r.at, r.author.as_str()))
            .collect::<Vec<_>>(),
        actions
            .iter()
            .enumerate()
            .map(|(n, json)| (n as i64 + 1, *json, 1_767_225_600 + n as i64, "alice",))
            .collect::<Vec<_>>()
    );
    store.close().await;
    // A move keeps its text alone, anything else its JSON; the time counts from the
    // game's creation; an entry a line, `{seat}{kind}{at} {text}`. Alice holds seat 0: her
    // actions for seat 1 keep her name apart.
    let (log, authors) = stored(&url, id).await;
    assert_eq!(
        log,
        concat!(
            "0m1767225590 e2e4\n",
            "1j1767225591 \"Resign\"\n",
            "0j1767225592 {\"Move\":\"a\\\"b\"}\n",
            "1m1767225593 e7e8=Q\n",
            "0j1767225594 {\"Offer\":\"Draw\"}\n",
            "1m1767225595 ♞f3\n",
        )
    );
    let alice = |seq: i64| (seq, "alice".to_string());
    assert_eq!(authors, [alice(2), alice(4), alice(6)]);
}

/// A game of 300 actions keeps its log in parts of at most 768 bytes and one entry (a
/// move rewrites its last part alone, whatever the game's length), and reads back whole:
/// every entry in order, with its author, numbered across the parts.
async fn a_long_log_is_kept_in_parts_that_fit_a_page(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    let json = |n: usize| match n % 3 {
        0 => format!(r#"{{"Move":"e2e4{n}"}}"#),
        1 => format!(r#"{{"Offer":"Draw{n}"}}"#),
        _ => format!(r#"{{"Move":"N@f{n}"}}"#),
    };
    for n in 0..300 {
        let w = acting(
            n as i64,
            &json(n),
            &format!("a{n}"),
            1_767_225_600 + n as i64,
        );
        store.write(id, &w).await.unwrap();
    }
    let log = store.actions(id).await.unwrap();
    assert_eq!(log.len(), 300);
    for (n, row) in log.iter().enumerate() {
        assert_eq!(
            (row.seq, row.action.clone(), row.at, row.author.as_str()),
            (n as i64 + 1, json(n), 1_767_225_600 + n as i64, "alice"),
        );
    }
    store.close().await;
    let (whole, authors) = stored(&url, id).await;
    assert_eq!(authors.len(), 150, "alice's actions for seat 1");
    assert!(authors.iter().all(|(seq, _)| seq % 2 == 0));
    let parts: Vec<i64> = if url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(&url).await.unwrap();
        sqlx::query_scalar("SELECT length(log)::BIGINT FROM game_logs ORDER BY part")
            .fetch_all(&mut c)
            .await
            .unwrap()
    } else {
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        sqlx::query_scalar("SELECT length(log) FROM game_logs ORDER BY part")
            .fetch_all(&mut c)
            .await
            .unwrap()
    };
    assert!(parts.len() > 4, "{parts:?}");
    assert!(parts.iter().all(|&n| n < 768 + 40), "{parts:?}");
    assert_eq!(parts.iter().sum::<i64>(), whole.chars().count() as i64);
}

async fn a_seen_event_is_refused_by_every_kind_of_write(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    store
        .write(id, &acting(0, r#"{"Move":"e2e4"}"#, "m1", 20))
        .await
        .unwrap();
    store.write(id, &without_action(1, "n1")).await.unwrap();
    let before = store.game(id).await.unwrap().unwrap();
    for (what, w) in [
        (
            "a move with a move's event",
            acting(2, r#"{"Move":"e7e5"}"#, "m1", 40),
        ),
        (
            "another action with a move's event",
            acting(2, r#""Resign""#, "m1", 40),
        ),
        (
            "a change without action with a move's event",
            without_action(2, "m1"),
        ),
        (
            "a move with a change's event",
            acting(2, r#"{"Move":"e7e5"}"#, "n1", 40),
        ),
        ("a change with a change's event", without_action(2, "n1")),
        (
            "a move with the challenge's event",
            acting(2, r#"{"Move":"e7e5"}"#, "e0", 40),
        ),
        (
            "a change with the challenge's event",
            without_action(2, "e0"),
        ),
    ] {
        assert!(
            matches!(store.write(id, &w).await, Err(StoreError::Duplicate)),
            "{what}"
        );
    }
    let after = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        (after.version, after.snapshot, after.status),
        (before.version, before.snapshot, GameStatus::Active)
    );
    assert_eq!(store.actions(id).await.unwrap().len(), 1);
    for seen in ["e0", "m1", "n1"] {
        assert!(store.event_seen(seen).await.unwrap(), "{seen}");
    }
    assert!(!store.event_seen("m2").await.unwrap());
    // A new event is taken.
    store
        .write(id, &acting(2, r#"{"Move":"e7e5"}"#, "m2", 40))
        .await
        .unwrap();
    assert!(store.event_seen("m2").await.unwrap());
    store.close().await;
    // Each event is stored once, as its key in `events`.
    if !url.starts_with("postgres") {
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        let marked: Vec<Vec<u8>> = sqlx::query_scalar("SELECT key FROM events ORDER BY key")
            .fetch_all(&mut c)
            .await
            .unwrap();
        assert_eq!(
            marked,
            ["e0", "m1", "m2", "n1"].map(postal::store::event_key)
        );
    }
}

#[tokio::test]
async fn a_new_sqlite_database_has_small_pages() {
    let dir = TempDir::new("small-pages");
    let url = dir.db();
    Store::open(&url).await.unwrap().close().await;
    let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
    let size: i64 = sqlx::query_scalar("PRAGMA page_size")
        .fetch_one(&mut c)
        .await
        .unwrap();
    assert_eq!(size, i64::from(PAGE_SIZE));
}

/// [`Store::write_all`]: two writes in one transaction are both stored, in order, each
/// from the version the one before leaves; when the second is refused (a stale version,
/// an event seen before), the first is not stored either: the game, its log, its events
/// and its outbox are as they were.
async fn writes_committed_together_are_stored_all_or_none(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    let offer = acting(0, r#"{"Takeback":"Offer"}"#, "t1", 1_767_225_600);
    let accept = acting(1, r#"{"Takeback":"Accept"}"#, "t2", 1_767_225_600);
    store.write_all(id, &[offer, accept]).await.unwrap();
    let log = store.actions(id).await.unwrap();
    assert_eq!(
        log.iter().map(|r| r.action.as_str()).collect::<Vec<_>>(),
        [r#"{"Takeback":"Offer"}"#, r#"{"Takeback":"Accept"}"#]
    );
    let before = store.game(id).await.unwrap().unwrap();
    assert_eq!(before.version, 2);
    // The second write is stale (it expects version 2 again): neither is stored.
    let first = Write {
        messages: vec![postal::store::NewMessage {
            destination: "channel:games".into(),
            text: "a move".into(),
            board: false,
            ending: false,
            claim_seat: None,
        }],
        ..acting(2, r#"{"Move":"e2e4"}"#, "m1", 1_767_225_601)
    };
    let stale = acting(2, r#"{"Move":"e7e5"}"#, "m2", 1_767_225_601);
    assert!(matches!(
        store.write_all(id, &[first.clone(), stale]).await,
        Err(StoreError::Conflict)
    ));
    // The second one's event was seen before: neither is stored.
    let seen = acting(3, r#"{"Move":"e7e5"}"#, "t1", 1_767_225_601);
    assert!(matches!(
        store.write_all(id, &[first, seen]).await,
        Err(StoreError::Duplicate)
    ));
    let after = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        (after.version, after.snapshot, after.deadlines),
        (before.version, before.snapshot, before.deadlines)
    );
    assert_eq!(store.actions(id).await.unwrap().len(), 2);
    assert!(!store.event_seen("m1").await.unwrap());
    assert!(store.claim_undelivered(120).await.unwrap().is_empty());
    store.close().await;
}
