//! Persistence: sqlx over SQLite (WAL, foreign keys on) for one machine, or over a
//! PostgreSQL server that several processes share ([`Backend`], chosen by the URL);
//! migrations from `/migrations` (SQLite) and `/migrations/postgres` embedded at compile
//! time and applied on open. Runtime queries only, written once for both backends.
//!
//! A game row holds the state snapshot and a version; every accepted action is appended
//! to the action log and the snapshot updated in one transaction, guarded by the version,
//! so a concurrent writer that lost the race changes nothing.

use pool::{on_pool, Pool};
use sqlx::Row;
use std::sync::Arc;

pub use recorded::recording_events;

mod adapter;
mod analyses;
mod analysis_posts;
mod checkpoint;
mod competition;
mod conditional;
mod copy;
mod deadlines;
mod engine_turns;
mod event_key;
mod event_prune;
mod forget;
mod game_log;
mod game_writes;
mod in_play;
mod migrations;
mod new_game;
mod open;
mod open_lock;
mod outbox;
mod packing;
mod player_settings;
mod pool;
mod reads;
mod recorded;
mod redact;
mod rows;
mod server_settings;
mod sqlite_config;
mod standings;
mod status;
mod tournaments;
mod vacations;
mod write_sql;

pub use adapter::LAPSING_KEPT;
pub use analyses::{AnalysisRow, AnalysisStatus, StoredPosition};
pub use analysis_posts::ProgressUpdate;
pub use conditional::ConditionalLine;
pub use copy::{Copied, TABLES};
pub use deadlines::{DeadlineToCheck, CHALLENGES_MADE_BEFORE, DEADLINES_TO_CHECK, DIGESTS_DUE};
pub use engine_turns::EngineTurn;
pub use event_key::{discord_bound, discord_millis, event_id, event_key};
pub use forget::{Forgetting, Forgotten, Relabel};
pub use in_play::{in_play_sql, InPlay};
pub use open::{database_file, database_name, PAGE_SIZE};
pub use outbox::{unix_now, NewMessage, QueuedMessage};
pub use player_settings::{digest_day, StoredSettings};
pub use pool::Backend;
pub use redact::{redact_url, scrub, HIDDEN};
pub use rows::{
    ActionRow, Deadline, Drawn, GameRow, NewAction, NewDeadline, NewGame, NewNotice, SeatRow,
    StoredOutcome, Write,
};
pub use server_settings::StoredServerSettings;
pub use standings::FinishedGame;
pub use status::{GameStatus, UnknownStatus};
pub use tournaments::{
    game_mark, BoardRow, EntrantRow, NewBoard, NewTournament, RoundMessage, RoundStep,
    TournamentRow, TournamentState,
};
pub use vacations::Vacation;
pub use write_sql::write_statement;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database said no.
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// Migrations could not be applied.
    #[error("migration error: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The game changed since it was read (another writer won).
    #[error("the game changed meanwhile; try again")]
    Conflict,
    /// This chat event was already applied.
    #[error("duplicate event")]
    Duplicate,
    /// A request the store cannot carry out, and why.
    #[error("{0}")]
    Refused(String),
    /// The database could not be opened; the text names its file.
    #[error("{0}")]
    Open(String),
    /// The challenger has as many challenges waiting for an answer as they may.
    #[error("too many challenges waiting for an answer")]
    OverLimit,
    /// A game's stored log holds a line that is not an entry ([`game_log`]): damage to
    /// the database, never written by this store.
    #[error("game #{game}: its stored log is damaged at entry {entry}: {why}")]
    DamagedLog {
        /// The game.
        game: i64,
        /// The damaged entry's number, from 1.
        entry: usize,
        /// What is wrong with it.
        why: &'static str,
    },
    /// The challenger already has a live game (this id) of a variant that allows one at a
    /// time ([`NewGame::one_live`]).
    #[error("game #{0} of this variant is still under way")]
    LiveGame(i64),
}

impl StoreError {
    /// Whether this is the database not answering (its connection lost or refused, the
    /// server shutting down, a pool with no connection to give, SQLite's file locked
    /// past the busy timeout) rather than a refusal of the request: worth trying again
    /// in a moment.
    pub fn is_unavailable(&self) -> bool {
        let StoreError::Db(e) = self else {
            return false;
        };
        match e {
            sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed => true,
            sqlx::Error::Database(d) => {
                let code = d.code();
                let code = code.as_deref().unwrap_or("");
                // PostgreSQL: connection exceptions (class 08), the server shutting
                // down or not yet accepting connections (57P01-57P03); SQLite: the file
                // busy or locked.
                code.starts_with("08")
                    || matches!(
                        code,
                        "57P01" | "57P02" | "57P03" | "5" | "6" | "261" | "517"
                    )
            }
            _ => false,
        }
    }
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: Pool,
    /// The background WAL checkpoint of a file database; stops with the last clone.
    checkpoint: Option<Arc<checkpoint::Checkpoint>>,
    /// This process's name when it claims outbox messages to deliver (random, unique).
    claimer: Arc<str>,
    /// Opened for reading alone ([`Store::open_read_only`]).
    read_only: bool,
}

impl Store {
    /// Whether a chat event id was already processed: its key is in `events` (migration
    /// 0024), where every event that changed something is kept once. Its answer is what [`recording_events`] reports from
    /// then on: the stored truth, over an event marked in a transaction that was undone.
    pub async fn event_seen(&self, event_id: &str) -> Result<bool, StoreError> {
        let seen = on_pool!(self.pool, |p| sqlx::query(
            "SELECT 1 FROM events WHERE key = $1"
        )
        .bind(event_key(event_id))
        .fetch_optional(p)
        .await?
        .is_some());
        recorded::set(seen);
        Ok(seen)
    }

    /// Records a user (and their latest display name).
    pub async fn ensure_user(&self, id: &str, name: &str) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            sqlx::query(
            "INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = excluded.name",
        )
        .bind(id)
        .bind(name)
        .execute(p)
        .await?
        .rows_affected()
        });
        Ok(())
    }

    /// Creates a game in the `challenged` state and marks `event_id` processed, in one
    /// transaction. `draw` is given the new game's id and returns the seed of its random
    /// draws, its seats (drawn from that seed) and, for a game whose setup depends on the
    /// seed, its snapshot (replacing `g.snapshot`); seed and seats are stored with it and
    /// returned with the id. An error of `draw` (a snapshot that could not be written)
    /// undoes the whole transaction.
    // Long because it is one transaction's straight line of statements, inside `on_pool!`.
    pub async fn create_game(
        &self,
        g: &NewGame,
        event_id: Option<&str>,
        at: i64,
        draw: impl FnOnce(i64) -> Result<Drawn, StoreError>,
    ) -> Result<(i64, i64, Vec<SeatRow>), StoreError> {
        let postgres = self.backend() == Backend::Postgres;
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            if let Some(e) = event_id {
                marked(
                    sqlx::query(MARK_EVENT)
                        .bind(event_key(e))
                        .execute(&mut *tx)
                        .await
                        .map(|r| r.rows_affected()),
                )?;
            }
            sqlx::query("INSERT INTO users (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING")
                .bind(&g.challenger)
                .bind(&g.challenger)
                .execute(&mut *tx)
                .await?;
            if postgres {
                // PostgreSQL counts with the snapshot of the statement: the challenger's
                // row, locked until this transaction ends, makes their challenges take
                // turns. (SQLite's INSERT below holds the database's write lock itself.)
                sqlx::query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE")
                    .bind(&g.challenger)
                    .execute(&mut *tx)
                    .await?;
            }
            if g.one_live {
                // One live game of the variant per player: checked after the challenger's
                // write above, which makes their challenges take turns on both backends
                // (PostgreSQL's row lock; SQLite's write lock, taken by the first write).
                let live: Option<i64> = sqlx::query(
                    "SELECT games.id FROM games JOIN seats ON seats.game_id = games.id
                     WHERE seats.user_id = $1 AND games.variant = $2 AND games.status IN ('challenged', 'active')
                     ORDER BY games.id LIMIT 1",
                )
                .bind(&g.challenger)
                .bind(&g.variant)
                .fetch_optional(&mut *tx)
                .await?
                .map(|r| r.get(0));
                if let Some(live) = live {
                    return Err(StoreError::LiveGame(live));
                }
            }
            let Some((id, seed, seats)) =
                new_game::insert_game!(tx, g, false, g.max_open, at, draw)
            else {
                return Err(StoreError::OverLimit);
            };
            tx.commit().await?;
            Ok((id, seed, seats))
        })
    }

    /// Whether a notice was recorded.
    pub async fn has_notice(
        &self,
        game_id: i64,
        seat: u8,
        turn: i64,
        kind: &str,
    ) -> Result<bool, StoreError> {
        let found = on_pool!(self.pool, |p| {
            sqlx::query(
            "SELECT 1 FROM notices WHERE game_id = $1 AND seat = $2 AND turn = $3 AND kind = $4",
        )
        .bind(game_id)
        .bind(seat as i64)
        .bind(turn)
        .bind(kind)
        .fetch_optional(p)
        .await?
        .is_some()
        });
        Ok(found)
    }

    /// Asks the database a question that reads it, for the health check: `Ok` when it
    /// answers.
    pub async fn ping(&self) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            sqlx::query("SELECT 1 FROM games LIMIT 1")
                .fetch_optional(p)
                .await?
                .is_some()
        });
        Ok(())
    }

    /// The database this store runs on.
    pub fn backend(&self) -> Backend {
        self.pool.backend()
    }
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// Whether an insert of a marker row (a notice, a digest) wrote it: `false` when the row
/// was there already, so that what it marks is done once; other errors pass through.
fn inserted_once<T>(result: Result<T, sqlx::Error>) -> Result<bool, StoreError> {
    match result {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Records a chat event as applied, by its key ([`event_key`], bound as `$1`), inside the
/// transaction that applies it: a second delivery of the event then fails this insert
/// ([`key_error`], [`marked`]).
pub(super) const MARK_EVENT: &str = "INSERT INTO events (key) VALUES ($1)";

/// The outcome of a [`MARK_EVENT`] insert: [`StoreError::Duplicate`] when the event was
/// seen before, in either table. Notes the event recorded ([`recording_events`]).
fn marked(rows_affected: Result<u64, sqlx::Error>) -> Result<(), StoreError> {
    let result = match rows_affected.map_err(key_error) {
        Ok(0) | Err(StoreError::Duplicate) => Err(StoreError::Duplicate),
        Ok(_) => Ok(()),
        Err(e) => return Err(e),
    };
    // Either way the event is stored: by this transaction or by an earlier delivery. (A
    // transaction undone after it ends the command in an error, or in a refusal, which
    // looks the event up before answering: `Store::event_seen` then has the last word.)
    recorded::note();
    result
}

/// The error of inserting a key: [`StoreError::Duplicate`] if it was there already.
fn key_error(e: sqlx::Error) -> StoreError {
    if is_unique_violation(&e) {
        StoreError::Duplicate
    } else {
        StoreError::Db(e)
    }
}
