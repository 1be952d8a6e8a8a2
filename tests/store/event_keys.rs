//! Migration 0024 converts what was stored before it: the event ids into the keys the
//! store computes ([`event_key`]), and the action log's rows into a game's lines. Its own
//! statements, run on both backends, give exactly the keys of `src/store/event_key.rs`, as
//! bytes, over ids of every form (an event applied before an upgrade is still refused when
//! delivered again after it), and each game's entries in order, the authors apart.

use crate::common;

use common::postgres::Schema;
use common::service::TempDir;
use postal::store::event_key;
use sqlx::Connection;

on_both_backends!(
    the_migration_gives_the_keys_the_store_computes,
    the_migration_writes_each_games_log_in_order,
    discord_event_keys_older_than_the_age_are_pruned_and_others_kept,
);

/// Ids of every form: Discord's, numbers at the edges of 64 bits, snowflakes written
/// another way (a sign, leading zeros, letters, empty), other adapters' ids, non-ASCII text.
const IDS: &[&str] = &[
    "msg:1234567890123456789",
    "int:1312000000000000000",
    "msg:0",
    "int:1",
    "msg:9223372036854775807",
    "msg:9223372036854775808",
    "int:18446744073709551615",
    "msg:99999999999999999999",
    "msg:007",
    "msg:-5",
    "msg:+5",
    "msg: 5",
    "msg:12a",
    "msg:1e5",
    "int:0x10",
    "msg:",
    "MSG:5",
    "console-1f-3",
    "bench-1",
    "e0",
    "héllo ♞",
    "",
];

/// The statement of migration `sql` that fills `table`: from its `INSERT` to its `;`.
fn conversion<'a>(sql: &'a str, table: &str) -> &'a str {
    let start = [
        format!("INSERT INTO {table} ("),
        format!("INSERT OR IGNORE INTO {table} ("),
    ]
    .iter()
    .filter_map(|s| sql.find(s.as_str()))
    .min()
    .expect("the migration fills the table");
    let len = sql[start..].find(';').expect("the insert ends");
    &sql[start..start + len]
}

/// The migration's text for the backend of `url`.
fn migration(url: &str) -> &'static str {
    if url.starts_with("postgres") {
        include_str!("../../migrations/postgres/0024_event_keys.sql")
    } else {
        include_str!("../../migrations/0024_event_keys.sql")
    }
}

/// Runs `statements` on the database at `url`, then `query`, returning its rows.
async fn run<T>(url: &str, statements: &[String], query: &str) -> Vec<T>
where
    T: Send + Unpin,
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>,
    T: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>,
{
    if url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        for s in statements {
            sqlx::query(s).execute(&mut c).await.unwrap();
        }
        sqlx::query_as(query).fetch_all(&mut c).await.unwrap()
    } else {
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{url}?mode=rwc"))
            .await
            .unwrap();
        for s in statements {
            sqlx::query(s).execute(&mut c).await.unwrap();
        }
        sqlx::query_as(query).fetch_all(&mut c).await.unwrap()
    }
}

async fn the_migration_writes_each_games_log_in_order(url: String) {
    let sql = migration(&url);
    let statements = vec![
        "CREATE TABLE actions (game_id BIGINT, seq BIGINT, seat BIGINT, author TEXT, \
         action TEXT, at BIGINT, mv TEXT)"
            .to_string(),
        // Out of order, two games, every kind of entry.
        r#"INSERT INTO actions VALUES
            (1, 2, 1, NULL, NULL, 86400, 'e7e5'),
            (2, 1, 0, 'referee', '"Timeout"', 5, NULL),
            (1, 1, 0, NULL, NULL, 0, 'e2e4'),
            (1, 3, 0, 'Former player 1', '{"Clue":["a b",2]}', 90000, NULL),
            (1, 4, 1, NULL, NULL, 90001, '♞f3')"#
            .to_string(),
        "CREATE TABLE game_logs (game_id BIGINT, part BIGINT, log TEXT NOT NULL)".into(),
        "CREATE TABLE action_authors (game_id BIGINT, seq BIGINT, author TEXT NOT NULL)".into(),
        conversion(sql, "game_logs").to_string(),
        conversion(sql, "action_authors").to_string(),
    ];
    let logs: Vec<(i64, String)> = run(
        &url,
        &statements,
        "SELECT game_id, log FROM game_logs WHERE part = 0 ORDER BY game_id",
    )
    .await;
    assert_eq!(
        logs,
        [
            (
                1,
                "0m0 e2e4\n1m86400 e7e5\n0j90000 {\"Clue\":[\"a b\",2]}\n1m90001 ♞f3\n".to_string()
            ),
            (2, "0j5 \"Timeout\"\n".to_string()),
        ]
    );
    let authors: Vec<(i64, i64, String)> = run(
        &url,
        &[],
        "SELECT game_id, seq, author FROM action_authors ORDER BY game_id, seq",
    )
    .await;
    assert_eq!(
        authors,
        [
            (1, 3, "Former player 1".to_string()),
            (2, 1, "referee".to_string())
        ]
    );
}

async fn the_migration_gives_the_keys_the_store_computes(url: String) {
    // Half the ids as actions' events, half as other events, one in both.
    let (actions, others) = IDS.split_at(IDS.len() / 2);
    let mut want: Vec<Vec<u8>> = IDS.iter().map(|id| event_key(id)).collect();
    want.sort();
    want.dedup();
    assert_eq!(want.len(), IDS.len(), "the ids' keys are distinct");
    let inserts = |table: &str, ids: &[&str]| {
        ids.iter()
            .map(|id| {
                format!(
                    "INSERT INTO {table} (event_id) VALUES ('{}')",
                    id.replace('\'', "''")
                )
            })
            .collect::<Vec<_>>()
    };
    let mut setup = vec![
        "CREATE TABLE actions (event_id TEXT)".to_string(),
        "CREATE TABLE processed_events (event_id TEXT)".to_string(),
    ];
    setup.extend(inserts("actions", actions));
    setup.extend(inserts("processed_events", others));
    setup.extend(inserts("processed_events", &actions[..1]));
    // The key's column as each backend's migration makes it, and how its type is read.
    let (table, kind) = if url.starts_with("postgres") {
        ("CREATE TABLE events (key BYTEA PRIMARY KEY)", "'blob'")
    } else {
        (
            "CREATE TABLE events (key BLOB PRIMARY KEY) WITHOUT ROWID",
            "typeof(key)",
        )
    };
    setup.push(table.into());
    setup.push(conversion(migration(&url), "events").into());
    let query = format!("SELECT key, {kind} FROM events ORDER BY key");
    let got: Vec<(Vec<u8>, String)> = run(&url, &setup, &query).await;
    for (key, kind) in &got {
        assert_eq!(kind, "blob", "{key:?} is stored as {kind}");
    }
    let got: Vec<Vec<u8>> = got.into_iter().map(|(k, _)| k).collect();
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(
            g,
            w,
            "{:?} is converted to {g:?}",
            postal::store::event_id(w)
        );
    }
    assert_eq!(got.len(), want.len());
}

/// The snowflake of an event made `ms` milliseconds after Discord's epoch (2015-01-01),
/// the `seq`th of that millisecond.
fn snowflake(ms: i64, seq: i64) -> i64 {
    (ms << 22) | seq
}

async fn discord_event_keys_older_than_the_age_are_pruned_and_others_kept(url: String) {
    let store = postal::store::Store::open(&url).await.unwrap();
    const DAY: i64 = 86_400_000;
    // The newest event, late 2023 by Discord's clock; this machine's clock plays no part.
    let newest = 1_700_000_000_000 - 1_420_070_400_000;
    let old = [
        format!("msg:{}", snowflake(newest - 5 * DAY, 0)),
        format!("int:{}", snowflake(newest - 3 * DAY - 1, 4095)),
    ];
    let kept = [
        format!("msg:{}", snowflake(newest - 3 * DAY + 1, 0)),
        format!("int:{}", snowflake(newest - 3_600_000, 7)),
        format!("msg:{}", snowflake(newest, 1)),
        // No time to read: kept whatever their age.
        "console-1f-3".to_string(),
        "e0".to_string(),
        "msg:007".to_string(),
    ];
    for id in old.iter().chain(&kept) {
        let hex: String = event_key(id).iter().map(|b| format!("{b:02x}")).collect();
        let value = match url.starts_with("postgres") {
            true => format!("decode('{hex}', 'hex')"),
            false => format!("x'{hex}'"),
        };
        common::sql::execute(
            &url,
            &format!("INSERT INTO events (key) VALUES ({value})"),
            &[],
        )
        .await;
    }
    assert_eq!(store.prune_event_keys(3 * DAY).await.unwrap(), 2);
    for id in &old {
        assert!(!store.event_seen(id).await.unwrap(), "{id} is kept");
    }
    for id in &kept {
        assert!(store.event_seen(id).await.unwrap(), "{id} is pruned");
    }
    // Nothing more is that old; an empty table has nothing to prune.
    assert_eq!(store.prune_event_keys(3 * DAY).await.unwrap(), 0);
    common::sql::execute(&url, "DELETE FROM events", &[]).await;
    assert_eq!(store.prune_event_keys(3 * DAY).await.unwrap(), 0);
    store.close().await;
}
