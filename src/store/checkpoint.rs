//! The background WAL checkpoint of a file database.
//!
//! SQLite's automatic checkpoint runs inside the commit that makes the WAL cross its size
//! (1,000 pages): that one command copies the WAL into the database file and syncs it,
//! and pays milliseconds the others do not (the long tail of a move's latency). The store
//! turns it off and runs a PASSIVE checkpoint from this task instead, every
//! [`EVERY`]: it copies what no reader still needs without blocking readers or writers,
//! and the WAL is reused from its start once all of it has been copied.
//!
//! Under steady writes with readers about, the WAL may never be wholly copied at the
//! moment a writer looks, and it then grows without end (hundreds of MB were seen, with
//! games left only in the WAL). So once it holds more than [`TRUNCATE_FRAMES`] frames
//! the task runs a TRUNCATE checkpoint, which waits (within the busy timeout) for the
//! readers of the moment, copies everything and empties the file; `journal_size_limit`
//! caps what a reset WAL keeps on disk; and [`super::Store::close`] truncates it too, so
//! that after a clean stop the database file alone holds every game.

use sqlx::SqlitePool;
use std::time::Duration;
use tokio::sync::watch;

/// How often the WAL is checkpointed.
pub const EVERY: Duration = Duration::from_millis(250);

/// The WAL's size, in frames (pages of 4 KiB), above which it is copied and truncated:
/// about 16 MB.
pub const TRUNCATE_FRAMES: i64 = 4_000;

/// What a reset WAL may keep on disk (`PRAGMA journal_size_limit`), in bytes.
pub const JOURNAL_SIZE_LIMIT: i64 = 16 * 1024 * 1024;

/// The running checkpoint task; it stops when this is dropped or told to stop.
#[derive(Debug)]
pub struct Checkpoint {
    stop: watch::Sender<bool>,
    /// The task, awaited by [`Checkpoint::stop`].
    task: std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Checkpoint {
    /// Starts checkpointing `pool`'s database every [`EVERY`].
    pub fn spawn(pool: SqlitePool) -> Checkpoint {
        let (stop, mut stopped) = watch::channel(false);
        let task = tokio::spawn(async move {
            let mut every = tokio::time::interval(EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = every.tick() => {}
                    // A stop request, or every store handle dropped.
                    _ = stopped.changed() => break,
                }
                if pool.is_closed() {
                    break;
                }
                if let Err(e) = checkpoint(&pool).await {
                    if pool.is_closed() {
                        break;
                    }
                    tracing::warn!(error = %e, "WAL checkpoint failed; trying again");
                }
            }
        });
        Checkpoint {
            stop,
            task: std::sync::Mutex::new(Some(task)),
        }
    }

    /// Stops the task and waits for the checkpoint in progress, if any, to end: a
    /// checkpoint that follows is not refused as busy because of this one.
    pub async fn stop(&self) {
        let _ = self.stop.send(true);
        let task = self.task.lock().ok().and_then(|mut t| t.take());
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}

/// One round: a PASSIVE checkpoint, then a TRUNCATE one if the WAL has grown past
/// [`TRUNCATE_FRAMES`].
async fn checkpoint(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    use sqlx::Row;
    // (busy, frames in the WAL, frames copied)
    let row = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(pool)
        .await?;
    let frames: i64 = row.try_get(1)?;
    if frames > TRUNCATE_FRAMES {
        truncate(pool).await?;
    }
    Ok(())
}

/// Copies the whole WAL into the database file and empties it, waiting (within the busy
/// timeout) for the readers of the moment. SQLite reports a checkpoint it could not
/// finish (a reader still on an old snapshot) in its first column rather than as an
/// error: it is tried again a few times before giving up with an error.
pub async fn truncate(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    use sqlx::Row;
    for attempt in 0..20 {
        let busy: i64 = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .fetch_one(pool)
            .await?
            .try_get(0)?;
        if busy == 0 {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(5 * (attempt + 1))).await;
    }
    Err(sqlx::Error::Protocol(
        "the WAL could not be emptied: a reader kept it busy".into(),
    ))
}
