//! The WAL stays bounded (issue 14): a sustained burst of writes while readers keep
//! reading leaves the `-wal` file under the documented bound (the store's background task
//! truncates it past `TRUNCATE_FRAMES`, about 16 MB, a writer past twice that even when
//! the task gets no CPU, and `journal_size_limit` caps a reset one); after a
//! clean stop the database file alone holds every action; and `postal backup` copies a
//! database in use, refusing to overwrite a file or to create a database.

use crate::common;

use common::service::{open, say, TempDir, T0};
use postal::store::{GameStatus, NewAction, Store, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Writes per game.
const WRITES: i64 = 3_000;
/// Games written at once.
const GAMES: i64 = 2;
/// The padding of each write's snapshot, so that a burst writes hundreds of MB through
/// the WAL.
const PAD: usize = 60_000;
/// The bound the README documents for the WAL of a running bot: 8,000 frames of 4 KiB
/// (and a 24-byte header) past which a writer empties it, plus one commit per connection,
/// rounded up.
const WAL_BOUND: u64 = 40 * 1024 * 1024;

fn wal_size(db: &str) -> u64 {
    std::fs::metadata(format!("{db}-wal")).map_or(0, |m| m.len())
}

/// Games 1 to [`GAMES`], between alice and bob, started.
async fn start_games(svc: &postal::service::referee::Service) {
    for g in 1..=GAMES {
        say(svc, &format!("c{g}"), "alice", "challenge @bob", T0).await;
        say(svc, &format!("a{g}"), "bob", &format!("accept {g}"), T0).await;
    }
}

/// `writes` writes of a big snapshot to each game at once, while readers keep reading;
/// returns the largest size of `db`'s WAL seen meanwhile, checking that the burst was big
/// enough to mean something.
async fn burst(store: &Store, db: &str, writes: i64) -> u64 {
    // Readers that never stop while the writes go on.
    let reading = Arc::new(AtomicBool::new(true));
    let mut readers = Vec::new();
    for r in 0..3 {
        let (store, reading) = (store.clone(), Arc::clone(&reading));
        readers.push(tokio::spawn(async move {
            let mut n = 0u64;
            while reading.load(Ordering::Relaxed) {
                store.game(1 + r % GAMES).await.unwrap();
                n += 1;
            }
            n
        }));
    }
    let snapshot = format!("{{\"pad\":\"{}\"}}", "x".repeat(PAD));
    let mut largest = 0;
    let mut writers = Vec::new();
    for g in 1..=GAMES {
        let (store, snapshot) = (store.clone(), snapshot.clone());
        writers.push(tokio::spawn(async move {
            let version = store.game(g).await.unwrap().unwrap().version;
            for i in 0..writes {
                let w = Write {
                    expected_version: version + i,
                    action: Some(NewAction {
                        seat: 0,
                        author: "alice".into(),
                        json: format!("{{\"n\":{i}}}"),
                    }),
                    at: T0 + i,
                    status: GameStatus::Active,
                    snapshot: snapshot.clone(),
                    ..Write::default()
                };
                store.write(g, &w).await.unwrap();
            }
        }));
    }
    while writers.iter().any(|w| !w.is_finished()) {
        largest = largest.max(wal_size(db));
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    for w in writers {
        w.await.unwrap();
    }
    reading.store(false, Ordering::Relaxed);
    for r in readers {
        assert!(r.await.unwrap() > 0, "a reader read");
    }
    let written = (writes * GAMES) as u64 * PAD as u64;
    // SQLite leaves an overflow page whose content is unchanged alone, so the WAL sees
    // less than this; without any checkpoint it grows to about half of it.
    eprintln!(
        "wrote snapshots of {} MB in all; the WAL peaked at {} MB",
        written >> 20,
        largest >> 20
    );
    assert!(
        written > 2 * WAL_BOUND,
        "the burst is big enough to mean something"
    );
    largest
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_wal_stays_bounded_and_a_clean_stop_leaves_every_game_in_the_file() {
    let dir = TempDir::new("wal");
    let db = dir.db();
    let svc = open(&db).await;
    start_games(&svc).await;
    let store = svc.store().clone();
    let largest = burst(&store, &db, WRITES).await;
    assert!(
        largest < WAL_BOUND,
        "the WAL grew to {largest} bytes (bound {WAL_BOUND})"
    );
    // A clean stop: the database file alone holds every action.
    store.close().await;
    assert_eq!(wal_size(&db), 0, "the WAL is empty after a clean stop");
    let alone = TempDir::new("wal-alone");
    std::fs::copy(&db, alone.db()).unwrap();
    let copy = Store::open(&alone.db()).await.unwrap();
    for g in 1..=GAMES {
        assert_eq!(copy.actions(g).await.unwrap().len() as i64, WRITES);
    }
    copy.close().await;
}

/// The bound does not depend on the background checkpoint task getting CPU: the store is
/// opened on a runtime of its own that is then never driven, so its checkpoint task,
/// spawned there, never runs again (as on a machine whose CPU went elsewhere), while the
/// store is used from this test's runtime. The writers alone keep the WAL bounded.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_writers_keep_the_wal_bounded_when_the_checkpoint_task_gets_no_cpu() {
    let dir = TempDir::new("wal-starved");
    // A SQLite file whatever the suite's backend: the WAL is SQLite's.
    let db = dir.0.join("postal.db").display().to_string();
    let (starved, svc) = {
        let db = db.clone();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let svc = rt.block_on(async {
                let svc = open(&db).await;
                start_games(&svc).await;
                // The task's round in progress, if any, ends.
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                svc
            });
            (rt, svc)
        })
        .join()
        .unwrap()
    };
    let store = svc.store().clone();
    let largest = burst(&store, &db, WRITES / 2).await;
    assert!(
        largest < WAL_BOUND,
        "the WAL grew to {largest} bytes with the checkpoint task starved (bound {WAL_BOUND})"
    );
    // The task gets CPU again, so that the store closes (stopping it).
    tokio::task::spawn_blocking(move || starved.block_on(store.close()))
        .await
        .unwrap();
    assert_eq!(wal_size(&db), 0, "the WAL is empty after a clean stop");
}

#[tokio::test]
async fn a_backup_copies_a_database_in_use_and_never_overwrites_or_creates() {
    let dir = TempDir::new("backup");
    let db = dir.db();
    let svc = open(&db).await;
    say(&svc, "c", "alice", "challenge @bob colour:white", T0).await;
    say(&svc, "a", "bob", "accept", T0).await;
    say(&svc, "m", "alice", "e4", T0).await;
    // The bot is still running (its store open, the move perhaps only in the WAL).
    let out = dir.0.join("backup.db");
    postal::console::backup(&db, &out).await.unwrap();
    let copy = Store::open(&out.to_string_lossy()).await.unwrap();
    assert_eq!(copy.actions(1).await.unwrap().len(), 1);
    copy.close().await;
    let e = postal::console::backup(&db, &out).await.unwrap_err();
    assert!(
        matches!(e, postal::console::BackupError::Write { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("exists already"), "{e}");
    let missing = dir.0.join("missing.db");
    let e = postal::console::backup(&missing.to_string_lossy(), &dir.0.join("b2.db"))
        .await
        .unwrap_err();
    assert!(
        matches!(e, postal::console::BackupError::NoDatabase(_)),
        "{e}"
    );
    assert!(!missing.exists(), "no database was created");
    svc.store().close().await;
}
