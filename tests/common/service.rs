//! Helpers for driving the referee [`Service`] in tests: a scratch database file, sending
//! lines as users, and checking a game's snapshot against the replay of its action log.

use super::postgres::Schema;
use postal::service::referee::{Destination, Incoming, Outbound, Place, Service, Settings};
use postal::service::replay::check_replay;
use postal::store::Store;
use postal::variants::Registry;
use std::path::PathBuf;

/// 2026-01-01 00:00 UTC, the tests' epoch.
pub const T0: i64 = 1_767_225_600;

/// A fresh directory under the system temp dir, removed when dropped; with
/// `POSTAL_TEST_BACKEND=postgres`, also a fresh PostgreSQL schema (of the server
/// `POSTAL_TEST_POSTGRES` names) that [`TempDir::db`] names instead of a file, so that a
/// suite runs unchanged on PostgreSQL.
pub struct TempDir(pub PathBuf, Option<Schema>);

/// The variable that runs the service suites on PostgreSQL.
pub const BACKEND_VAR: &str = "POSTAL_TEST_BACKEND";

impl TempDir {
    /// A new empty directory whose name includes `tag`, the process id and the time.
    pub fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("postal-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let schema = match std::env::var(BACKEND_VAR).as_deref() {
            Ok("postgres") => {
                let base = std::env::var(super::postgres::VAR).unwrap_or_else(|_| {
                    panic!("{BACKEND_VAR}=postgres needs {}", super::postgres::VAR)
                });
                Some(Schema::new(&base))
            }
            _ => None,
        };
        TempDir(dir, schema)
    }

    /// The database of this test: the file `postal.db` in this directory, as a path
    /// string, or the PostgreSQL schema's URL (see [`TempDir`]).
    pub fn db(&self) -> String {
        match &self.1 {
            Some(schema) => schema.url(),
            None => self.0.join("postal.db").display().to_string(),
        }
    }

    /// Whether [`TempDir::db`] names a PostgreSQL database.
    pub fn on_postgres(&self) -> bool {
        self.1.is_some()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The default settings with a seed, so that every draw of a test is reproducible (as
/// the console's `--seed` makes them); the seed the tests always had.
pub fn seeded() -> Settings {
    Settings {
        seed: Some(0x5eed),
        ..Settings::default()
    }
}

/// Opens the database at `url` and a service over it with [`seeded`] settings.
pub async fn open(url: &str) -> Service {
    Service::new(Store::open(url).await.unwrap(), seeded())
}

/// Chat event `e{n}` from `user` at `T0 + n`: a private message, or a line in `#games`.
pub fn incoming(n: i64, user: &str, private: bool, text: String) -> Incoming {
    Incoming {
        event_id: format!("e{n}"),
        user: user.into(),
        place: if private {
            Place::Dm
        } else {
            Place::Channel("games".into())
        },
        via: None,
        server: None,
        text,
        at: T0 + n,
    }
}

/// `user` types `text` in `#games` at `at`, as chat event `event`.
pub async fn say(svc: &Service, event: &str, user: &str, text: &str, at: i64) -> Vec<Outbound> {
    svc.handle(Incoming {
        event_id: event.into(),
        user: user.into(),
        place: Place::Channel("games".into()),
        via: None,
        server: None,
        text: text.into(),
        at,
    })
    .await
    .unwrap()
}

/// `user` sends `text` to the bot privately at `at`, as chat event `event`.
pub async fn dm(svc: &Service, event: &str, user: &str, text: &str, at: i64) -> Vec<Outbound> {
    svc.handle(Incoming {
        event_id: event.into(),
        user: user.into(),
        place: Place::Dm,
        via: None,
        server: None,
        text: text.into(),
        at,
    })
    .await
    .unwrap()
}

/// Runs one deadline check at `now` in a fresh process on `db`, marks everything
/// delivered, and returns (recipient, text) of each message: a user for a private
/// message, `#CHANNEL` for a channel.
pub async fn tick_once(db: &str, now: i64) -> Vec<(String, String)> {
    let svc = open(db).await;
    let queued = svc.tick(now).await.unwrap();
    for q in &queued {
        svc.delivered(q.id, now).await.unwrap();
    }
    svc.store().close().await;
    queued
        .into_iter()
        .map(|q| {
            let to = match q.message.to {
                Destination::Dm(u) => u,
                Destination::Channel(c) => format!("#{c}"),
            };
            (to, q.message.text)
        })
        .collect()
}

/// `white` challenges `black` in `#games` to a game of `options` (variant, `days:N`), playing
/// White, and `black` accepts, both at `at` (events `challenge-WHITE-BLACK` and
/// `accept-WHITE-BLACK`).
pub async fn start_game(svc: &Service, white: &str, black: &str, options: &str, at: i64) {
    let challenge = format!("challenge @{black} {options} colour:white");
    let out = say(
        svc,
        &format!("challenge-{white}-{black}"),
        white,
        &challenge,
        at,
    )
    .await;
    assert!(out[0].text.contains("challenges"), "{}", out[0].text);
    let out = say(svc, &format!("accept-{white}-{black}"), black, "accept", at).await;
    assert!(out[0].text.contains("accepted"), "{}", out[0].text);
}

/// Plays game `id`'s first move of each side, `moves[0]` by `white` and `moves[1]` by
/// `black`, at `at`: from then on a resignation or a timeout is a result, not an abort
/// (a game neither side has moved in is called off).
pub async fn both_move(
    svc: &Service,
    id: i64,
    (white, black): (&str, &str),
    moves: [&str; 2],
    at: i64,
) {
    for (who, mv) in [(white, moves[0]), (black, moves[1])] {
        let out = say(
            svc,
            &format!("first-{id}-{who}"),
            who,
            &format!("move {id} {mv}"),
            at,
        )
        .await;
        assert!(out[0].text.contains("played"), "{mv}: {}", out[0].text);
    }
}

/// Checks game `id`'s action log (seq 1..n, no gap) and that the
/// stored snapshot equals the replay of the log; returns the log's length.
pub async fn check_log(store: &Store, id: i64) -> usize {
    let g = store.game(id).await.unwrap().unwrap();
    let rows = store.actions(id).await.unwrap();
    if let Err(e) = check_replay(&Registry::builtin(), &g, &rows) {
        panic!("{e}");
    }
    rows.len()
}

/// Runs `script` through the console (`postal console --script`, seed 1) on `db` with the
/// variants of `registry`, writing images into `images`; returns what it printed.
pub fn console_with(
    registry: Registry,
    db: &str,
    images: &std::path::Path,
    script: &str,
) -> String {
    let opts = postal::console::Options {
        db: db.into(),
        settings: Settings {
            seed: Some(1),
            ..Default::default()
        },
        images: Some(images.to_path_buf()),
        registry,
    };
    let mut out = Vec::new();
    postal::console::block_on(postal::console::run(&opts, script.as_bytes(), &mut out))
        .unwrap()
        .unwrap();
    String::from_utf8(out).unwrap()
}

/// [`console_with`] the built-in variants.
pub fn console(db: &str, images: &std::path::Path, script: &str) -> String {
    console_with(Registry::builtin(), db, images, script)
}
