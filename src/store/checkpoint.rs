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
//!
//! A task that gets no CPU (a busy machine) checkpoints nothing, so the bound is also
//! held by the writers themselves: SQLite tells every connection, after each commit, how
//! many frames the WAL holds (the hook its own automatic checkpoint uses, which is off);
//! a commit that leaves more than [`WRITER_TRUNCATE_FRAMES`] runs the TRUNCATE checkpoint
//! before its command returns ([`bound_wal`]). An ordinary commit pays one comparison.

use libsqlite3_sys as ffi;
use sqlx::sqlite::LockedSqliteHandle;
use sqlx::SqlitePool;
use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// How often the WAL is checkpointed.
pub const EVERY: Duration = Duration::from_millis(250);

/// The WAL's size, in frames (pages of 4 KiB), above which it is copied and truncated:
/// about 16 MB.
pub const TRUNCATE_FRAMES: i64 = 4_000;

/// The WAL's size, in frames, above which the writer whose commit took it there empties
/// it itself: about 33 MB. Twice [`TRUNCATE_FRAMES`], so that the background task does
/// it whenever it gets to run, and a writer only when the task is behind.
pub const WRITER_TRUNCATE_FRAMES: i32 = 2 * TRUNCATE_FRAMES as i32;

/// How long a writer waits for the checkpoint another connection is running to end
/// before leaving the WAL to the next commit (the connections' busy timeout).
pub const WRITER_WAIT: Duration = Duration::from_secs(10);

/// How long writers leave the WAL alone after one of them could not empty it (a reader
/// kept a snapshot for all of [`WRITER_WAIT`]): each commit would otherwise wait as long.
pub const WRITER_BACKOFF: Duration = Duration::from_secs(1);

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

/// Until when (milliseconds since the Unix epoch) writers leave the WAL alone, after one
/// of them failed to empty it ([`WRITER_BACKOFF`]). One for the process: the hook has no
/// state of its own that could be freed with its connection.
static WRITERS_WAIT_UNTIL: AtomicU64 = AtomicU64::new(0);

fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Makes the connection behind `handle` empty the WAL (a TRUNCATE checkpoint) after any
/// of its commits that leaves more than [`WRITER_TRUNCATE_FRAMES`] frames in it, before
/// the command that committed returns. Installed on every connection of a file
/// database's pool, after `wal_autocheckpoint` (which would replace the hook) is set.
pub fn bound_wal(handle: &mut LockedSqliteHandle<'_>) {
    // SAFETY: the handle is locked (sqlx's worker makes no call on it meanwhile) and
    // valid; the hook takes no state (a null argument) and lives as long as the program.
    unsafe {
        ffi::sqlite3_wal_hook(
            handle.as_raw_handle().as_ptr(),
            Some(after_commit),
            std::ptr::null_mut(),
        );
    }
}

/// SQLite's WAL hook: called on the committing connection after each commit, the write
/// lock released, with the frames the WAL of database `name` now holds. Always answers
/// `SQLITE_OK` (the commit has happened; an error would only fail its statement).
unsafe extern "C" fn after_commit(
    _state: *mut c_void,
    db: *mut ffi::sqlite3,
    name: *const c_char,
    frames: c_int,
) -> c_int {
    if frames > WRITER_TRUNCATE_FRAMES && now_millis() >= WRITERS_WAIT_UNTIL.load(Ordering::Relaxed)
    {
        // SAFETY: SQLite passes a valid connection and database name, and allows a
        // checkpoint from this hook (its own automatic checkpoint runs from it).
        unsafe { truncate_now(db, name) };
    }
    ffi::SQLITE_OK
}

/// A TRUNCATE checkpoint of `db`'s database `name`, from the committing connection. The
/// checkpoint waits (within the busy timeout) for the write lock and for the readers of
/// the moment; another connection's checkpoint in progress is refused at once as busy,
/// so that one is waited for here, up to [`WRITER_WAIT`].
///
/// # Safety
/// `db` and `name` must be valid, as SQLite passes them to the WAL hook.
unsafe fn truncate_now(db: *mut ffi::sqlite3, name: *const c_char) {
    let start = Instant::now();
    loop {
        let (mut log, mut copied) = (0, 0);
        // SAFETY: the caller's.
        let rc = unsafe {
            ffi::sqlite3_wal_checkpoint_v2(
                db,
                name,
                ffi::SQLITE_CHECKPOINT_TRUNCATE,
                &mut log,
                &mut copied,
            )
        };
        if rc != ffi::SQLITE_BUSY {
            if rc != ffi::SQLITE_OK {
                tracing::warn!(code = rc, "a writer's WAL checkpoint failed");
            }
            return;
        }
        if start.elapsed() >= WRITER_WAIT {
            tracing::warn!("a reader kept the WAL busy; writers leave it for a while");
            let until = now_millis() + WRITER_BACKOFF.as_millis() as u64;
            WRITERS_WAIT_UNTIL.store(until, Ordering::Relaxed);
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
