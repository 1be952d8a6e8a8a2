//! The background WAL checkpoint of a file database.
//!
//! SQLite's automatic checkpoint runs inside the commit that makes the WAL cross its size
//! (1,000 pages): that one command copies the WAL into the database file and syncs it,
//! and pays milliseconds the others do not (the long tail of a move's latency). The store
//! turns it off and runs a PASSIVE checkpoint from this task instead, every
//! [`EVERY`]: it copies what no reader still needs without blocking readers or writers,
//! and the WAL is reused from its start once all of it has been copied.

use sqlx::SqlitePool;
use std::time::Duration;
use tokio::sync::watch;

/// How often the WAL is checkpointed.
pub const EVERY: Duration = Duration::from_millis(250);

/// The running checkpoint task; it stops when this is dropped or told to stop.
#[derive(Debug)]
pub struct Checkpoint {
    stop: watch::Sender<bool>,
}

impl Checkpoint {
    /// Starts checkpointing `pool`'s database every [`EVERY`].
    pub fn spawn(pool: SqlitePool) -> Checkpoint {
        let (stop, mut stopped) = watch::channel(false);
        tokio::spawn(async move {
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
                if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                    .execute(&pool)
                    .await
                {
                    if pool.is_closed() {
                        break;
                    }
                    tracing::warn!(error = %e, "WAL checkpoint failed; trying again");
                }
            }
        });
        Checkpoint { stop }
    }

    /// Asks the task to stop after the checkpoint in progress, if any.
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }
}
