//! The deadline check's reads as ranges of indexes of due times (migration 0019), on both
//! backends: each plan, asked of the database over thousands of rows, reads its index
//! (SQLite's `EXPLAIN QUERY PLAN`, PostgreSQL's `EXPLAIN`), and each deadline's time to be
//! looked at is kept right by the writes that change it.

use crate::common;

use common::postgres::Schema;
use common::service::TempDir;
use postal::store::{
    Drawn, GameStatus, NewDeadline, NewGame, SeatRow, Store, StoredSettings, Write,
    CHALLENGES_MADE_BEFORE, DEADLINES_TO_CHECK, DIGESTS_DUE,
};
use sqlx::{Connection, Row};

on_both_backends!(
    the_deadline_checks_reads_are_ranges_of_their_indexes,
    a_deadlines_time_to_look_is_kept_by_every_write_that_changes_it,
);

/// How many games the plan test stores: enough that reading every row would cost a
/// planner more than the index.
const GAMES: i64 = 5000;

/// `sql` with its parameters `$1`, `$2` written out as `now` and a limit of 10.
fn with_values(sql: &str, now: i64) -> String {
    sql.replace("$1", &now.to_string()).replace("$2", "10")
}

/// The plan the database chooses for `sql`, as one text.
async fn plan(url: &str, sql: &str) -> String {
    if url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        let rows = sqlx::query(&format!("EXPLAIN {sql}"))
            .fetch_all(&mut c)
            .await
            .unwrap();
        c.close().await.unwrap();
        rows.iter()
            .map(|r| r.get::<String, _>(0))
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        let path = url.strip_prefix("sqlite://").unwrap_or(url);
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite:{path}"))
            .await
            .unwrap();
        let rows = sqlx::query(&format!("EXPLAIN QUERY PLAN {sql}"))
            .fetch_all(&mut c)
            .await
            .unwrap();
        c.close().await.unwrap();
        rows.iter()
            .map(|r| r.get::<String, _>(3))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Stores [`GAMES`] games as raw rows: all active with a deadline (most far off), every
/// tenth player with a digest, one game in a hundred an open challenge.
async fn store_many_games(url: &str) {
    let numbers = format!(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {GAMES})"
    );
    let rows = [
        format!(
            "{numbers} INSERT INTO users (id, name, digest_hour, digest_next)
             SELECT 'u' || i, 'u' || i, CASE WHEN i % 10 = 0 THEN 18 END,
                 CASE WHEN i % 10 = 0 THEN 1000000 + i END FROM n"
        ),
        format!(
            "{numbers} INSERT INTO games (id, variant, status, days_per_move, colour, challenger,
                 channel, seed, snapshot, created_at, updated_at)
             SELECT i, 'standard', CASE WHEN i % 100 = 0 THEN 'challenged' ELSE 'active' END,
                 3, 'white', 'u' || i, 'games', i, '{{}}', 1000 + i, 1000 + i FROM n"
        ),
        format!(
            "{numbers} INSERT INTO seats (game_id, seat, user_id, role, accepted)
             SELECT i, 0, 'u' || i, 'white', 1 FROM n"
        ),
        format!(
            "{numbers} INSERT INTO deadlines (game_id, seat, turn, due_at, check_at)
             SELECT i, 0, 1, 1000000 + i, 900000 + i FROM n WHERE i % 100 <> 0"
        ),
        "ANALYZE".to_string(),
    ];
    for sql in rows {
        common::sql::execute(url, &sql, &[]).await;
    }
}

/// Each of the deadline check's reads is planned as a range of its index, not a scan of
/// the table; and what it reads is the earliest due, in order.
async fn the_deadline_checks_reads_are_ranges_of_their_indexes(url: String) {
    let store = Store::open(&url).await.unwrap();
    store_many_games(&url).await;
    for (sql, now, index) in [
        (DEADLINES_TO_CHECK, 900_020, "deadlines_to_check"),
        (DIGESTS_DUE, 1_000_020, "users_digest_next"),
        (CHALLENGES_MADE_BEFORE, 1_200, "games_challenged_at"),
    ] {
        let plan = plan(&url, &with_values(sql, now)).await;
        // A range of the index: SQLite searches it with a bound (not `SCAN ... USING
        // INDEX`, a walk of all of it); PostgreSQL scans it with an index condition.
        let ranged = plan.lines().any(|l| {
            (l.contains("SEARCH") && l.contains(index) && l.contains('<'))
                || (l.contains("Index") && l.contains(index))
        }) && (!url.starts_with("postgres") || plan.contains("Index Cond"));
        assert!(ranged, "{index} not searched:\n{plan}");
        for table in ["deadlines", "users", "games"] {
            assert!(
                !plan.contains(&format!("Seq Scan on {table}")),
                "{table} scanned:\n{plan}"
            );
        }
        assert!(
            !plan.lines().any(|l| l.trim_start().starts_with("SCAN")),
            "{plan}"
        );
    }
    let due = store.deadlines_to_check(900_020, 10).await.unwrap();
    let games: Vec<i64> = due.iter().map(|d| d.deadline.game_id).collect();
    assert_eq!(games, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert_eq!(due[0].user.as_deref(), Some("u1"));
    assert_eq!(due[0].check_at, 900_001);
    let digests = store.digests_due(1_000_020, 10).await.unwrap();
    assert_eq!(
        digests.iter().map(|(u, _)| u.as_str()).collect::<Vec<_>>(),
        ["u10", "u20"]
    );
    let open = store.challenges_made_before(1_200).await.unwrap();
    assert_eq!(open, [100, 200]);
    store.close().await;
}

/// A game's write sets its deadlines' time to be looked at to the write's time; the check
/// moves it on only while the deadline is the one it read; a player's change of settings
/// brings their games' deadlines back to the next check.
async fn a_deadlines_time_to_look_is_kept_by_every_write_that_changes_it(url: String) {
    let store = Store::open(&url).await.unwrap();
    store.ensure_user("bob", "bob").await.unwrap();
    let game = NewGame {
        variant: "standard".into(),
        days_per_move: 3,
        colour: "white".into(),
        challenger: "alice".into(),
        channel: Some("games".into()),
        server: None,
        max_open: 10,
        one_live: false,
        start_fen: None,
        options: "{}".into(),
        snapshot: "{}".into(),
    };
    let seat = |seat: u8, user: &str| SeatRow {
        seat,
        user: Some(user.into()),
        role: if seat == 0 { "white" } else { "black" }.into(),
        accepted: true,
    };
    let (id, _, _) = store
        .create_game(&game, Some("e0"), 10, |_| {
            Ok(Drawn {
                seed: 1,
                seats: vec![seat(0, "alice"), seat(1, "bob")],
                ..Drawn::default()
            })
        })
        .await
        .unwrap();
    let write = |version: i64, at: i64, due_at: i64| Write {
        expected_version: version,
        at,
        event_id: Some(format!("e{}", version + 1)),
        status: GameStatus::Active,
        snapshot: "{}".into(),
        deadlines: vec![NewDeadline {
            seat: 0,
            turn: version + 1,
            due_at,
        }],
        ..Write::default()
    };
    store.write(id, &write(0, 100, 5000)).await.unwrap();
    // Not before the write's time; at it, once.
    assert!(store.deadlines_to_check(99, 10).await.unwrap().is_empty());
    let due = store.deadlines_to_check(100, 10).await.unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(
        (due[0].check_at, due[0].user.as_deref()),
        (100, Some("alice"))
    );
    // Moved on to a reminder's hour: not read again before it.
    let d = &due[0];
    assert!(store
        .set_deadline_check(&d.deadline, d.check_at, Some(1400))
        .await
        .unwrap());
    assert!(store.deadlines_to_check(1399, 10).await.unwrap().is_empty());
    assert_eq!(store.deadlines_to_check(1400, 10).await.unwrap().len(), 1);
    // Set aside once passed; a move meanwhile replaces it, and the check's late update
    // of the one it read changes nothing.
    let read = store.deadlines_to_check(1400, 10).await.unwrap()[0].clone();
    store.write(id, &write(1, 1500, 9000)).await.unwrap();
    assert!(!store
        .set_deadline_check(&read.deadline, read.check_at, None)
        .await
        .unwrap());
    let now = store.deadlines_to_check(1500, 10).await.unwrap();
    assert_eq!((now.len(), now[0].deadline.turn), (1, 2));
    assert!(store
        .set_deadline_check(&now[0].deadline, now[0].check_at, None)
        .await
        .unwrap());
    assert!(store
        .deadlines_to_check(i64::MAX, 10)
        .await
        .unwrap()
        .is_empty());
    // The opponent's settings (an auto-claim, say) bring it back to the next check.
    let settings = StoredSettings {
        auto_claim: true,
        ..StoredSettings::default()
    };
    store
        .set_player_settings("bob", &settings, None)
        .await
        .unwrap();
    let again = store.deadlines_to_check(0, 10).await.unwrap();
    assert_eq!((again.len(), again[0].check_at), (1, 0));
    // The operator's hours, read at start: every deadline looked at again in time.
    store
        .set_deadline_check(&again[0].deadline, 0, None)
        .await
        .unwrap();
    assert_eq!(store.recheck_deadlines(2000, 48 * 3600).await.unwrap(), 1);
    assert_eq!(store.deadlines_to_check(2000, 10).await.unwrap().len(), 1);
    store.close().await;
}
