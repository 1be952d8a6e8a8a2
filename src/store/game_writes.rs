//! Writing a change to a game: the version-checked update of its row, the event's key in
//! `events`, the seats, the action's line in the log, the deadlines, the notice and the
//! outbox messages, as plain statements in one transaction ([`super::write_sql`]): all of
//! it or, on any failure, none of it. [`Store::write`] writes one change;
//! [`Store::write_all`] writes several changes of one game, each computed from the version
//! the one before leaves, in one transaction (an action and the answer it gets at once:
//! the engine's move and its opponent's conditional answer, a takeback proposed to the
//! engine and its acceptance). On PostgreSQL a change is one statement, so one change is
//! one round trip, committed on its own.

use super::write_sql::{Arg, Parts, Statement};
use super::{is_unique_violation, recorded, Store, StoreError, Write};
use futures_util::StreamExt;
use sqlx::pool::PoolConnection;
use sqlx::{Either, Executor, Sqlite};

/// Binds `$args` (`&[Arg]`) to query `$q` in order, on either backend (inside
/// `on_pool!`).
macro_rules! bind_args {
    ($q:expr, $args:expr) => {{
        let mut q = $q;
        for a in $args {
            q = match a {
                Arg::Int(v) => q.bind(*v),
                Arg::Text(v) => q.bind(*v),
                Arg::OptText(v) => q.bind(*v),
                Arg::Bytes(v) => q.bind(v.as_slice()),
            };
        }
        q
    }};
}

/// Writes each of `$parts` (`&[Parts]`) to game `$id` with PostgreSQL's statement
/// ([`Statement::postgres`]) on `$on`: [`StoreError::Conflict`] when one finds another
/// version than it expects.
macro_rules! write_postgres {
    ($on:expr, $id:expr, $parts:expr) => {{
        for part in $parts {
            let q = Statement::postgres($id, part);
            let updated: i64 = bind_args!(sqlx::query_scalar(&*q.text), &q.args)
                .fetch_one(&mut *$on)
                .await
                .map_err(write_error)?;
            if updated == 0 {
                return Err(StoreError::Conflict);
            }
        }
    }};
}

impl Store {
    /// Writes a change to a game in one transaction, as plain statements
    /// ([`super::write_sql`]): all of it or none. A version other than
    /// `w.expected_version` (or no such game) is [`StoreError::Conflict`]; an event id (or
    /// notice) already recorded is [`StoreError::Duplicate`].
    pub async fn write(&self, game_id: i64, w: &Write) -> Result<(), StoreError> {
        self.write_all(game_id, std::slice::from_ref(w)).await
    }

    /// Writes `writes` to one game, in order, in one transaction: each computed from the
    /// version the one before leaves (its `expected_version` one more), so that all of
    /// them are stored or, when any is refused ([`Store::write`]'s errors), none.
    pub async fn write_all(&self, game_id: i64, writes: &[Write]) -> Result<(), StoreError> {
        let parts = writes
            .iter()
            .map(Parts::of)
            .collect::<Result<Vec<_>, _>>()
            .map_err(StoreError::Refused)?;
        let written = match &self.pool {
            super::pool::Pool::Sqlite(p) => {
                let conn = p.acquire().await?;
                write_sqlite(conn, game_id, &parts).await
            }
            super::pool::Pool::Postgres(p) => {
                async {
                    if let [one] = parts.as_slice() {
                        // One statement: its own transaction, one round trip.
                        let mut c = p.acquire().await?;
                        write_postgres!(c, game_id, std::slice::from_ref(one));
                        return Ok(());
                    }
                    let mut tx = p.begin().await?;
                    write_postgres!(tx, game_id, &parts);
                    tx.commit().await?;
                    Ok(())
                }
                .await
            }
        };
        match &written {
            Ok(_) => writes.iter().for_each(|w| note_event(&written, w)),
            Err(_) => writes.iter().take(1).for_each(|w| note_event(&written, w)),
        }
        written
    }
}

/// SQLite's writes `parts` of game `game_id` on `conn`, sent at once, `BEGIN` to `COMMIT`
/// ([`Statement::sqlite`]); on any failure the transaction is rolled back. Until it is
/// settled (committed, or rolled back) the connection is closed rather than given back to
/// the pool if this future is dropped: it may be inside the transaction.
async fn write_sqlite(
    conn: PoolConnection<Sqlite>,
    game_id: i64,
    parts: &[Parts<'_>],
) -> Result<(), StoreError> {
    let mut unsettled = Unsettled(Some(conn));
    let Some(conn) = unsettled.0.as_mut() else {
        return Err(StoreError::Refused("no connection".into()));
    };
    let q = Statement::sqlite(game_id, parts);
    let checks = Statement::sqlite_checks(parts);
    let mut results = conn.fetch_many(bind_args!(sqlx::query(&q.text), &q.args));
    let (mut n, mut outcome) = (0, Ok(()));
    while let Some(result) = results.next().await {
        match result {
            // No game to update: nothing is written (each statement names the game).
            Ok(Either::Left(done)) if checks.contains(&n) && done.rows_affected() == 0 => {
                outcome = Err(StoreError::Conflict);
            }
            Ok(_) => {}
            Err(e) => {
                if outcome.is_ok() {
                    outcome = Err(write_error(e));
                }
                break;
            }
        }
        n += 1;
    }
    drop(results);
    if outcome.is_err() {
        // Refused by a statement (or no game): the transaction, left open, is undone. (A
        // failure that SQLite undid itself leaves none, and this one fails: no matter.)
        let _ = conn.execute("ROLLBACK").await;
    }
    unsettled.0.take();
    outcome
}

/// A connection whose transaction may be open: closed when dropped, rather than given
/// back to the pool, unless taken out first.
struct Unsettled(Option<PoolConnection<Sqlite>>);

impl Drop for Unsettled {
    fn drop(&mut self) {
        if let Some(conn) = self.0.as_mut() {
            conn.close_on_drop();
        }
    }
}

/// Notes, for the running command, that the event of write `w` is stored: written now,
/// or found written by the event's earlier delivery.
fn note_event(written: &Result<(), StoreError>, w: &Write) {
    match (written, &w.event_id) {
        (Ok(_), Some(_)) => recorded::note(),
        // The event's earlier delivery stored it (unless the duplicate was the
        // notice, which a write carrying one may also be refused for).
        (Err(StoreError::Duplicate), Some(_)) if w.notice.is_none() => recorded::note(),
        _ => {}
    }
}

/// The error of a write's statement: another version of the game than the one expected
/// (SQLite's version check, [`super::write_sql`]), a key seen before (the event's, or the
/// notice's), or another database failure.
fn write_error(e: sqlx::Error) -> StoreError {
    if matches!(&e, sqlx::Error::Database(d)
        if d.message().contains("NOT NULL constraint failed: games.version"))
    {
        StoreError::Conflict
    } else if is_unique_violation(&e) {
        StoreError::Duplicate
    } else {
        StoreError::Db(e)
    }
}
