//! Persistence: sqlx over SQLite (WAL, foreign keys on), migrations from `/migrations`
//! embedded at compile time and applied on open. Runtime queries only.
//!
//! A game row holds the state snapshot and a version; every accepted action is appended
//! to the action log and the snapshot updated in one transaction, guarded by the version,
//! so a concurrent writer that lost the race changes nothing.

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

mod adapter;
mod checkpoint;
mod outbox;

pub use outbox::{unix_now, NewMessage, QueuedMessage};

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
    /// The challenger has as many challenges waiting for an answer as they may.
    #[error("too many challenges waiting for an answer")]
    OverLimit,
}

/// A seat of a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat index.
    pub seat: u8,
    /// The user holding it; `None` for the open seat of an open challenge.
    pub user: Option<String>,
    /// The seat's role (`white`, `black`).
    pub role: String,
    /// Whether the seat's player has agreed to play (the challenger has; an invited
    /// player once they accept). A game starts when every seat has.
    pub accepted: bool,
}

/// A stored game.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game id players use (`#12`).
    pub id: i64,
    /// The variant's command name.
    pub variant: String,
    /// `challenged`, `active`, `finished`, `aborted`, `declined` or `cancelled`.
    pub status: String,
    /// Days per move.
    pub days_per_move: i64,
    /// The colour the challenger asked for (`white`, `black`, `random`).
    pub colour: String,
    /// The user who made the challenge.
    pub challenger: String,
    /// The channel the game lives in; `None` for a game made in private.
    pub channel: Option<String>,
    /// The server (Discord guild) it was made in; `None` for a game made in private, in
    /// the console, or stored before servers were recorded.
    pub server: Option<String>,
    /// The seed of the game's random draws.
    pub seed: i64,
    /// The starting position as FEN, when it is not the variant's own start.
    pub start_fen: Option<String>,
    /// The options the variant validated, as a JSON object (`{"timer":"3"}`).
    pub options: String,
    /// The state as it was set up, before any action (JSON); `None` for games stored
    /// before it was kept.
    pub start_snapshot: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: Option<String>,
    /// The end reason's name.
    pub reason: Option<String>,
    /// The score as JSON (`[10,0]`), where the variant scores.
    pub score: Option<String>,
    /// The state snapshot as JSON.
    pub snapshot: String,
    /// How many writes the game has had.
    pub version: i64,
    /// The seats.
    pub seats: Vec<SeatRow>,
    /// The deadlines of the seats the game awaits, by seat.
    pub deadlines: Vec<Deadline>,
}

impl GameRow {
    /// The user in `seat`.
    pub fn user_at(&self, seat: u8) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.seat == seat)
            .and_then(|s| s.user.as_deref())
    }

    /// The seat of `user`, if they play in this game.
    pub fn seat_of(&self, user: &str) -> Option<u8> {
        self.seats
            .iter()
            .find(|s| s.user.as_deref() == Some(user))
            .map(|s| s.seat)
    }
}

/// A game about to be created. Its seed and seats are drawn once its id is known (see
/// [`Store::create_game`]).
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The variant's command name.
    pub variant: String,
    /// Days per move.
    pub days_per_move: i64,
    /// The colour asked for.
    pub colour: String,
    /// Who challenged.
    pub challenger: String,
    /// The game's channel, if any.
    pub channel: Option<String>,
    /// The server (Discord guild) it is made in, if any.
    pub server: Option<String>,
    /// The starting position as FEN, when it is not the variant's own start.
    pub start_fen: Option<String>,
    /// The variant's options, as a JSON object.
    pub options: String,
    /// The initial snapshot.
    pub snapshot: String,
    /// The most challenges the challenger may have waiting for an answer, this one
    /// included; checked in the transaction that creates it ([`StoreError::OverLimit`]).
    pub max_open: i64,
}

/// What [`Store::create_game`] draws once the game's id is known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    /// The seed of the game's public draws.
    pub seed: i64,
    /// The seats, in order.
    pub seats: Vec<SeatRow>,
    /// The snapshot of the game as set up with the seed, replacing the one given.
    pub snapshot: Option<String>,
    /// For a game whose every seat is taken at once (a game of one): its first deadlines,
    /// `(seat, due time)`; it is stored active.
    pub start: Option<Vec<(u8, i64)>>,
}

/// One entry of the action log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRow {
    /// Position in the log, from 1, without gaps.
    pub seq: i64,
    /// The seat the action applies to.
    pub seat: u8,
    /// Who sent it (`referee` for automatic timeouts).
    pub author: String,
    /// The action as JSON.
    pub action: String,
    /// When, in seconds since the epoch.
    pub at: i64,
    /// The chat event that carried it.
    pub event_id: Option<String>,
}

/// A change to a game, written in one statement (see migration 0004): all of it or none.
#[derive(Clone, Debug, Default)]
pub struct Write {
    /// The version the change was computed from.
    pub expected_version: i64,
    /// The action to append: seat, author, JSON.
    pub action: Option<(u8, String, String)>,
    /// The time of the change.
    pub at: i64,
    /// The chat event id to mark processed.
    pub event_id: Option<String>,
    /// The new status.
    pub status: String,
    /// The new snapshot.
    pub snapshot: String,
    /// Result, reason, score JSON.
    pub outcome: Option<(String, String, Option<String>)>,
    /// New seats (accepting a challenge fills a seat).
    pub seats: Option<Vec<SeatRow>>,
    /// Deadlines that replace the game's: seat, turn, due time.
    pub deadlines: Vec<(u8, i64, i64)>,
    /// A notice recorded with the change (game seat, turn, kind).
    pub notice: Option<(u8, i64, String)>,
    /// Messages put in the outbox with the change (a timeout's announcement).
    pub messages: Vec<NewMessage>,
}

/// A deadline of an active game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// The game.
    pub game_id: i64,
    /// The awaited seat.
    pub seat: u8,
    /// Which turn (the game's version when it was set).
    pub turn: i64,
    /// When time runs out.
    pub due_at: i64,
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
    /// The background WAL checkpoint of a file database; stops with the last clone.
    checkpoint: Option<Arc<checkpoint::Checkpoint>>,
    /// This process's name when it claims outbox messages to deliver (random, unique).
    claimer: Arc<str>,
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

impl Store {
    /// Opens (creating if needed) the database at `url` (`sqlite://postal.db`,
    /// `postal.db`, or `sqlite::memory:`), applies the migrations.
    ///
    /// A file database is in WAL mode with the automatic checkpoint off: a background task
    /// checkpoints it every quarter of a second, so that no command waits for one. Must be
    /// called within a Tokio runtime.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let memory = url.contains(":memory:");
        let url = if url.starts_with("sqlite:") {
            url.to_string()
        } else {
            format!("sqlite://{url}")
        };
        let mut opts = SqliteConnectOptions::from_str(&url)?
            .create_if_missing(true)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10))
            .journal_mode(if memory {
                SqliteJournalMode::Memory
            } else {
                SqliteJournalMode::Wal
            })
            .synchronous(SqliteSynchronous::Normal);
        if !memory {
            opts = opts.pragma("wal_autocheckpoint", "0").pragma(
                "journal_size_limit",
                checkpoint::JOURNAL_SIZE_LIMIT.to_string(),
            );
        }
        // An in-process SQLite connection cannot go stale, so it is not pinged on every
        // acquire (that ping is a round trip to the connection's thread).
        let pool = SqlitePoolOptions::new()
            .max_connections(if memory { 1 } else { 4 })
            .test_before_acquire(false)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(opts)
            .await?;
        MIGRATOR.run(&pool).await?;
        let checkpoint = (!memory).then(|| Arc::new(checkpoint::Checkpoint::spawn(pool.clone())));
        Ok(Store {
            pool,
            checkpoint,
            claimer: outbox::new_claimer().into(),
        })
    }

    /// Releases the outbox messages this process claimed and did not deliver (another
    /// process may take them at once), stops the background checkpoint, copies the whole
    /// WAL into the database file and empties it, and closes the pool: after a clean stop
    /// the database file alone holds
    /// every game (a copy of it is a backup; `postal backup` makes one while running).
    pub async fn close(&self) {
        if let Err(e) = self.release_claims().await {
            tracing::warn!(error = %e, "the outbox messages claimed could not be released");
        }
        if let Some(c) = &self.checkpoint {
            c.stop();
            if let Err(e) = checkpoint::truncate(&self.pool).await {
                tracing::warn!(error = %e, "the last WAL checkpoint failed");
            }
        }
        self.pool.close().await;
    }

    /// Writes a consistent copy of the whole database to the new file `path`
    /// (`VACUUM INTO`), while it is in use: the way to back up a running bot.
    pub async fn backup(&self, path: &str) -> Result<(), StoreError> {
        if std::path::Path::new(path).exists() {
            return Err(StoreError::Refused(format!(
                "{path} exists already: a backup is written to a new file"
            )));
        }
        sqlx::query("VACUUM INTO ?")
            .bind(path)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whether a chat event id was already processed.
    pub async fn event_seen(&self, event_id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 FROM processed_events WHERE event_id = ?")
            .bind(event_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Records a user (and their latest display name).
    pub async fn ensure_user(&self, id: &str, name: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO users (id, name) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name",
        )
        .bind(id)
        .bind(name)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Creates a game in the `challenged` state and marks `event_id` processed, in one
    /// transaction. `draw` is given the new game's id and returns the seed of its random
    /// draws, its seats (drawn from that seed) and, for a game whose setup depends on the
    /// seed, its snapshot (replacing `g.snapshot`); seed and seats are stored with it and
    /// returned with the id.
    pub async fn create_game(
        &self,
        g: &NewGame,
        event_id: Option<&str>,
        at: i64,
        draw: impl FnOnce(i64) -> Drawn,
    ) -> Result<(i64, i64, Vec<SeatRow>), StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some(e) = event_id {
            mark_event(&mut tx, e, at).await?;
        }
        sqlx::query("INSERT INTO users (id, name) VALUES (?, ?) ON CONFLICT(id) DO NOTHING")
            .bind(&g.challenger)
            .bind(&g.challenger)
            .execute(&mut *tx)
            .await?;
        // The limit is counted by the statement that inserts, which holds the database's
        // write lock: two challenges at once cannot both pass it.
        let id: Option<i64> = sqlx::query(
            "INSERT INTO games (variant, status, days_per_move, colour, challenger, channel, server, seed, start_fen, options, snapshot, version, created_at, updated_at)
             SELECT ?1, 'challenged', ?2, ?3, ?4, ?5, ?6, 0, ?7, ?8, ?9, 0, ?10, ?10
             WHERE (SELECT count(*) FROM games WHERE challenger = ?4 AND status = 'challenged') < ?11
             RETURNING id",
        )
        .bind(&g.variant)
        .bind(g.days_per_move)
        .bind(&g.colour)
        .bind(&g.challenger)
        .bind(&g.channel)
        .bind(&g.server)
        .bind(&g.start_fen)
        .bind(&g.options)
        .bind(&g.snapshot)
        .bind(at)
        .bind(g.max_open)
        .fetch_optional(&mut *tx)
        .await?
        .map(|r| r.get(0));
        let Some(id) = id else {
            return Err(StoreError::OverLimit);
        };
        let Drawn {
            seed,
            seats,
            snapshot,
            start,
        } = draw(id);
        sqlx::query(
            "UPDATE games SET seed = ?, snapshot = coalesce(?, snapshot), start_snapshot = coalesce(?, snapshot) WHERE id = ?",
        )
            .bind(seed)
            .bind(&snapshot)
            .bind(&snapshot)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if let Some(deadlines) = &start {
            // Started at once: the first write of an accepted challenge, in the same
            // transaction as the game.
            sqlx::query("UPDATE games SET status = 'active', version = 1 WHERE id = ?")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            for (seat, due_at) in deadlines {
                sqlx::query(
                    "INSERT INTO deadlines (game_id, seat, turn, due_at) VALUES (?, ?, 1, ?)",
                )
                .bind(id)
                .bind(*seat as i64)
                .bind(due_at)
                .execute(&mut *tx)
                .await?;
            }
        }
        for s in &seats {
            // A player is recorded with the game that seats them, in its transaction.
            if let Some(user) = &s.user {
                sqlx::query(
                    "INSERT INTO users (id, name) VALUES (?, ?) ON CONFLICT(id) DO NOTHING",
                )
                .bind(user)
                .bind(user)
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query(
                "INSERT INTO seats (game_id, seat, user_id, role, accepted) VALUES (?, ?, ?, ?, ?)",
            )
            .bind(id)
            .bind(s.seat as i64)
            .bind(&s.user)
            .bind(&s.role)
            .bind(s.accepted)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok((id, seed, seats))
    }

    /// Writes a change to a game as one statement, an insert into the `game_writes` view
    /// whose trigger (migration 0004) checks the version and writes the event id, the
    /// game row, the action, the seats, the deadlines, the notice and the outbox
    /// messages: all of it or, on any failure, none of it. A version other than
    /// `w.expected_version` is [`StoreError::Conflict`]; an event id (or notice) already
    /// recorded is [`StoreError::Duplicate`].
    pub async fn write(&self, game_id: i64, w: &Write) -> Result<(), StoreError> {
        let (result, reason, score) = match &w.outcome {
            Some((r, why, s)) => (Some(r.as_str()), Some(why.as_str()), s.as_deref()),
            None => (None, None, None),
        };
        let (action_seat, author, action) = match &w.action {
            Some((seat, author, json)) => (
                Some(*seat as i64),
                Some(author.as_str()),
                Some(json.as_str()),
            ),
            None => (None, None, None),
        };
        let seats = w.seats.as_ref().map(|seats| {
            serde_json::Value::from_iter(
                seats
                    .iter()
                    .map(|s| serde_json::json!([s.seat, s.user, s.role, s.accepted])),
            )
            .to_string()
        });
        let deadlines = serde_json::Value::from_iter(
            w.deadlines
                .iter()
                .map(|(seat, turn, due)| serde_json::json!([seat, turn, due])),
        )
        .to_string();
        let messages = outbox::messages_json(&w.messages);
        let (notice_seat, notice_turn, notice_kind) = match &w.notice {
            Some((seat, turn, kind)) => (Some(*seat as i64), Some(*turn), Some(kind.as_str())),
            None => (None, None, None),
        };
        sqlx::query(
            "INSERT INTO game_writes (game_id, expected_version, at, event_id, status, snapshot,
                 result, reason, score, action_seat, action_author, action, seats, deadlines,
                 notice_seat, notice_turn, notice_kind, messages)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(game_id)
        .bind(w.expected_version)
        .bind(w.at)
        .bind(&w.event_id)
        .bind(&w.status)
        .bind(&w.snapshot)
        .bind(result)
        .bind(reason)
        .bind(score)
        .bind(action_seat)
        .bind(author)
        .bind(action)
        .bind(seats)
        .bind(deadlines)
        .bind(notice_seat)
        .bind(notice_turn)
        .bind(notice_kind)
        .bind(messages)
        .execute(&self.pool)
        .await
        .map_err(write_error)?;
        Ok(())
    }

    /// Whether a notice was recorded.
    pub async fn has_notice(
        &self,
        game_id: i64,
        seat: u8,
        turn: i64,
        kind: &str,
    ) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT 1 FROM notices WHERE game_id = ? AND seat = ? AND turn = ? AND kind = ?",
        )
        .bind(game_id)
        .bind(seat as i64)
        .bind(turn)
        .bind(kind)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// One game, with its seats.
    pub async fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(&format!("{GAME_SELECT} WHERE id = ?"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| game_from_row(&r)).transpose()
    }

    /// The games `user` has a seat in (playing, or named in a challenge), in the given
    /// statuses, oldest first. Only the user's own: open challenges are found by
    /// [`Store::open_challenges`], in their channel.
    pub async fn games_of(
        &self,
        user: &str,
        statuses: &[&str],
    ) -> Result<Vec<GameRow>, StoreError> {
        if statuses.is_empty() {
            return Ok(Vec::new());
        }
        let marks = vec!["?"; statuses.len()].join(", ");
        let sql = format!(
            "{GAME_SELECT} WHERE id IN (SELECT game_id FROM seats WHERE user_id = ?) AND status IN ({marks}) ORDER BY id"
        );
        let mut q = sqlx::query(&sql).bind(user);
        for s in statuses {
            q = q.bind(*s);
        }
        let rows = q.fetch_all(&self.pool).await?;
        rows.iter().map(game_from_row).collect()
    }

    /// The open challenges (with a seat anyone may take) made in `channel`, oldest first,
    /// at most `limit`.
    pub async fn open_challenges(
        &self,
        channel: &str,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "{GAME_SELECT} WHERE status = 'challenged' AND channel = ? AND id IN (SELECT game_id FROM seats WHERE user_id IS NULL) ORDER BY id LIMIT ?"
        ))
        .bind(channel)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_from_row).collect()
    }

    /// A game's action log in order.
    pub async fn actions(&self, game_id: i64) -> Result<Vec<ActionRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, seat, author, action, at, event_id FROM actions WHERE game_id = ? ORDER BY seq",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| ActionRow {
                seq: r.get(0),
                seat: r.get::<i64, _>(1) as u8,
                author: r.get(2),
                action: r.get(3),
                at: r.get(4),
                event_id: r.get(5),
            })
            .collect())
    }

    /// Deadlines of active games that fall before `until`, soonest first.
    pub async fn deadlines_before(&self, until: i64) -> Result<Vec<Deadline>, StoreError> {
        let rows = sqlx::query(
            "SELECT d.game_id, d.seat, d.turn, d.due_at FROM deadlines d JOIN games g ON g.id = d.game_id
             WHERE g.status = 'active' AND d.due_at <= ? ORDER BY d.due_at, d.game_id",
        )
        .bind(until)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| Deadline {
                game_id: r.get(0),
                seat: r.get::<i64, _>(1) as u8,
                turn: r.get(2),
                due_at: r.get(3),
            })
            .collect())
    }

    /// The ids of the challenges still waiting for an answer that were made at or
    /// before `made_by`, oldest first.
    pub async fn challenges_made_before(&self, made_by: i64) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'challenged' AND created_at <= ? ORDER BY id",
        )
        .bind(made_by)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Every game id, in order.
    pub async fn game_ids(&self) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

/// A game row with its seats and deadlines as JSON arrays: one statement, one round trip.
const GAME_SELECT: &str = "SELECT id, variant, status, days_per_move, colour, challenger, channel, seed, result, reason, score, snapshot, version, start_fen, options, start_snapshot,
    (SELECT json_group_array(json_array(seat, user_id, role, accepted) ORDER BY seat) FROM seats WHERE game_id = games.id),
    (SELECT json_group_array(json_array(seat, turn, due_at) ORDER BY seat) FROM deadlines WHERE game_id = games.id),
    server
    FROM games";

fn game_from_row(r: &sqlx::sqlite::SqliteRow) -> Result<GameRow, StoreError> {
    let id: i64 = r.get(0);
    let bad = |e: serde_json::Error| StoreError::Db(sqlx::Error::Decode(Box::new(e)));
    let seats: Vec<(u8, Option<String>, String, u8)> =
        serde_json::from_str(r.get::<&str, _>(16)).map_err(bad)?;
    let deadlines: Vec<(u8, i64, i64)> = serde_json::from_str(r.get::<&str, _>(17)).map_err(bad)?;
    Ok(GameRow {
        id,
        variant: r.get(1),
        status: r.get(2),
        days_per_move: r.get(3),
        colour: r.get(4),
        challenger: r.get(5),
        channel: r.get(6),
        server: r.get(18),
        seed: r.get(7),
        result: r.get(8),
        reason: r.get(9),
        score: r.get(10),
        snapshot: r.get(11),
        version: r.get(12),
        start_fen: r.get(13),
        options: r.get(14),
        start_snapshot: r.get(15),
        seats: seats
            .into_iter()
            .map(|(seat, user, role, accepted)| SeatRow {
                seat,
                user,
                role,
                accepted: accepted != 0,
            })
            .collect(),
        deadlines: deadlines
            .into_iter()
            .map(|(seat, turn, due_at)| Deadline {
                game_id: id,
                seat,
                turn,
                due_at,
            })
            .collect(),
    })
}

/// The error of a [`Store::write`]: the trigger's version check, a key seen before, or
/// another database failure.
fn write_error(e: sqlx::Error) -> StoreError {
    match &e {
        sqlx::Error::Database(d) if d.message().contains("postal: version conflict") => {
            StoreError::Conflict
        }
        _ if is_unique_violation(&e) => StoreError::Duplicate,
        _ => StoreError::Db(e),
    }
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

async fn mark_event(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    event_id: &str,
    at: i64,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO processed_events (event_id, at) VALUES (?, ?)")
        .bind(event_id)
        .bind(at)
        .execute(&mut **tx)
        .await
        .map_err(|e| {
            if is_unique_violation(&e) {
                StoreError::Duplicate
            } else {
                StoreError::Db(e)
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn store_with_game() -> (Store, i64) {
        let store = Store::open("sqlite::memory:").await.unwrap();
        for u in ["alice", "bob"] {
            store.ensure_user(u, u).await.unwrap();
        }
        let g = NewGame {
            variant: "standard".into(),
            days_per_move: 3,
            colour: "white".into(),
            challenger: "alice".into(),
            channel: Some("games".into()),
            server: None,
            max_open: 10,
            start_fen: None,
            options: "{}".into(),
            snapshot: "{}".into(),
        };
        let seats = vec![
            SeatRow {
                seat: 0,
                user: Some("alice".into()),
                role: "white".into(),
                accepted: true,
            },
            SeatRow {
                seat: 1,
                user: None,
                role: "black".into(),
                accepted: false,
            },
        ];
        let (id, seed, _) = store
            .create_game(&g, Some("e0"), 10, |id| Drawn {
                seed: id * 7,
                seats,
                ..Drawn::default()
            })
            .await
            .unwrap();
        assert_eq!(seed, id * 7);
        (store, id)
    }

    fn change(version: i64, event: &str) -> Write {
        Write {
            expected_version: version,
            action: Some((0, "alice".into(), "\"x\"".into())),
            at: 20,
            event_id: Some(event.into()),
            status: "active".into(),
            snapshot: format!("{{\"v\":{}}}", version + 1),
            outcome: None,
            seats: Some(vec![SeatRow {
                seat: 1,
                user: Some("bob".into()),
                role: "black".into(),
                accepted: true,
            }]),
            deadlines: vec![(1, version + 1, 1000)],
            notice: None,
            messages: vec![NewMessage {
                destination: "dm:bob".into(),
                text: "hello".into(),
                board: true,
            }],
        }
    }

    #[tokio::test]
    async fn a_write_stores_every_part_in_one_statement() {
        let (store, id) = store_with_game().await;
        store.write(id, &change(0, "e1")).await.unwrap();
        let g = store.game(id).await.unwrap().unwrap();
        assert_eq!((g.version, g.status.as_str()), (1, "active"));
        assert_eq!(g.user_at(1), Some("bob"));
        assert_eq!(
            g.deadlines,
            vec![Deadline {
                game_id: id,
                seat: 1,
                turn: 1,
                due_at: 1000
            }]
        );
        let log = store.actions(id).await.unwrap();
        assert_eq!((log.len(), log[0].event_id.as_deref()), (1, Some("e1")));
        assert!(store.event_seen("e1").await.unwrap());
        let q = store.claim_undelivered(120).await.unwrap();
        assert_eq!(
            (q.len(), q[0].game_id, q[0].text.as_str(), q[0].board),
            (1, Some(id), "hello", true)
        );
        store.mark_delivered(q[0].id, 30).await.unwrap();
        assert!(store.claim_undelivered(120).await.unwrap().is_empty());
        // No seats given: the seats stay as they are; no deadlines: none left.
        let w = Write {
            seats: None,
            deadlines: Vec::new(),
            messages: Vec::new(),
            ..change(1, "e2")
        };
        store.write(id, &w).await.unwrap();
        let g = store.game(id).await.unwrap().unwrap();
        assert_eq!(
            (g.version, g.user_at(1), g.deadlines.len()),
            (2, Some("bob"), 0)
        );
        assert_eq!(store.actions(id).await.unwrap().len(), 2);
    }

    #[tokio::test]
    async fn a_stale_version_or_a_seen_event_changes_nothing() {
        let (store, id) = store_with_game().await;
        store.write(id, &change(0, "e1")).await.unwrap();
        let before = store.game(id).await.unwrap().unwrap();
        assert!(matches!(
            store.write(id, &change(0, "e2")).await,
            Err(StoreError::Conflict)
        ));
        assert!(matches!(
            store.write(id, &change(1, "e1")).await,
            Err(StoreError::Duplicate)
        ));
        assert!(matches!(
            store.write(id, &change(1, "e0")).await,
            Err(StoreError::Duplicate)
        ));
        let after = store.game(id).await.unwrap().unwrap();
        assert_eq!(
            (after.version, after.snapshot, after.deadlines),
            (before.version, before.snapshot, before.deadlines)
        );
        assert_eq!(store.actions(id).await.unwrap().len(), 1);
        assert!(!store.event_seen("e2").await.unwrap());
        assert_eq!(store.claim_undelivered(120).await.unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_notice_and_its_messages_are_recorded_once() {
        let (store, id) = store_with_game().await;
        let m = NewMessage {
            destination: "channel:games".into(),
            text: "reminder".into(),
            board: false,
        };
        let first = store
            .record_notice(id, (0, 1, "remind-24h"), 50, std::slice::from_ref(&m))
            .await
            .unwrap();
        let again = store
            .record_notice(id, (0, 1, "remind-24h"), 60, std::slice::from_ref(&m))
            .await
            .unwrap();
        assert!(first && !again);
        assert!(store.has_notice(id, 0, 1, "remind-24h").await.unwrap());
        let q = store.claim_undelivered(120).await.unwrap();
        assert_eq!(q.len(), 1);
        assert_eq!(
            (q[0].destination.as_str(), q[0].board),
            ("channel:games", false)
        );
    }
}
