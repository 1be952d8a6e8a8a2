//! Persistence: sqlx over SQLite (WAL, foreign keys on), migrations from `/migrations`
//! embedded at compile time and applied on open. Runtime queries only.
//!
//! A game row holds the state snapshot and a version; every accepted action is appended
//! to the action log and the snapshot updated in one transaction, guarded by the version,
//! so a concurrent writer that lost the race changes nothing.

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};
use std::str::FromStr;
use std::time::Duration;

mod adapter;

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
    /// The seed of the game's random draws.
    pub seed: i64,
    /// The starting position as FEN, when it is not the variant's own start.
    pub start_fen: Option<String>,
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

/// A game about to be created.
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
    /// The RNG seed.
    pub seed: i64,
    /// The starting position as FEN, when it is not the variant's own start.
    pub start_fen: Option<String>,
    /// The initial snapshot.
    pub snapshot: String,
    /// The seats.
    pub seats: Vec<SeatRow>,
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

/// A change to a game, written in one transaction.
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
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

impl Store {
    /// Opens (creating if needed) the database at `url` (`sqlite://postal.db`,
    /// `postal.db`, or `sqlite::memory:`), applies the migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let memory = url.contains(":memory:");
        let url = if url.starts_with("sqlite:") {
            url.to_string()
        } else {
            format!("sqlite://{url}")
        };
        let opts = SqliteConnectOptions::from_str(&url)?
            .create_if_missing(true)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10))
            .journal_mode(if memory {
                SqliteJournalMode::Memory
            } else {
                SqliteJournalMode::Wal
            })
            .synchronous(SqliteSynchronous::Normal);
        let pool = SqlitePoolOptions::new()
            .max_connections(if memory { 1 } else { 4 })
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(opts)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(Store { pool })
    }

    /// Closes the pool.
    pub async fn close(&self) {
        self.pool.close().await;
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

    /// Creates a game in the `challenged` state; marks `event_id` processed.
    pub async fn create_game(
        &self,
        g: &NewGame,
        event_id: Option<&str>,
        at: i64,
    ) -> Result<i64, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some(e) = event_id {
            mark_event(&mut tx, e, at).await?;
        }
        let id: i64 = sqlx::query(
            "INSERT INTO games (variant, status, days_per_move, colour, challenger, channel, seed, start_fen, snapshot, version, created_at, updated_at)
             VALUES (?, 'challenged', ?, ?, ?, ?, ?, ?, ?, 0, ?, ?) RETURNING id",
        )
        .bind(&g.variant)
        .bind(g.days_per_move)
        .bind(&g.colour)
        .bind(&g.challenger)
        .bind(&g.channel)
        .bind(g.seed)
        .bind(&g.start_fen)
        .bind(&g.snapshot)
        .bind(at)
        .bind(at)
        .fetch_one(&mut *tx)
        .await?
        .get(0);
        for s in &g.seats {
            sqlx::query("INSERT INTO seats (game_id, seat, user_id, role) VALUES (?, ?, ?, ?)")
                .bind(id)
                .bind(s.seat as i64)
                .bind(&s.user)
                .bind(&s.role)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    /// Writes a change to a game in one transaction: the version check, the action, the
    /// snapshot, the status, the seats, the deadlines, the event id and the notice.
    pub async fn write(&self, game_id: i64, w: &Write) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some(e) = &w.event_id {
            mark_event(&mut tx, e, w.at).await?;
        }
        let (result, reason, score) = match &w.outcome {
            Some((r, why, s)) => (Some(r.clone()), Some(why.clone()), s.clone()),
            None => (None, None, None),
        };
        let done = sqlx::query(
            "UPDATE games SET status = ?, snapshot = ?, result = ?, reason = ?, score = ?, version = version + 1, updated_at = ?
             WHERE id = ? AND version = ?",
        )
        .bind(&w.status)
        .bind(&w.snapshot)
        .bind(result)
        .bind(reason)
        .bind(score)
        .bind(w.at)
        .bind(game_id)
        .bind(w.expected_version)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict);
        }
        if let Some((seat, author, json)) = &w.action {
            sqlx::query(
                "INSERT INTO actions (game_id, seq, seat, author, action, at, event_id)
                 VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?, ?, ?)",
            )
            .bind(game_id)
            .bind(game_id)
            .bind(*seat as i64)
            .bind(author)
            .bind(json)
            .bind(w.at)
            .bind(&w.event_id)
            .execute(&mut *tx)
            .await?;
        }
        if let Some(seats) = &w.seats {
            for s in seats {
                sqlx::query(
                    "UPDATE seats SET user_id = ?, role = ? WHERE game_id = ? AND seat = ?",
                )
                .bind(&s.user)
                .bind(&s.role)
                .bind(game_id)
                .bind(s.seat as i64)
                .execute(&mut *tx)
                .await?;
            }
        }
        // The game's deadlines become exactly `w.deadlines` (a kept deadline is passed
        // again with its old turn and time).
        sqlx::query("DELETE FROM deadlines WHERE game_id = ?")
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        for (seat, turn, due) in &w.deadlines {
            sqlx::query("INSERT INTO deadlines (game_id, seat, turn, due_at) VALUES (?, ?, ?, ?)")
                .bind(game_id)
                .bind(*seat as i64)
                .bind(turn)
                .bind(due)
                .execute(&mut *tx)
                .await?;
        }
        if let Some((seat, turn, kind)) = &w.notice {
            insert_notice(&mut tx, game_id, *seat, *turn, kind, w.at).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Records a notice (reminder) once; `false` if it had already been recorded.
    pub async fn record_notice(
        &self,
        game_id: i64,
        seat: u8,
        turn: i64,
        kind: &str,
        at: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        match insert_notice(&mut tx, game_id, seat, turn, kind, at).await {
            Ok(()) => {
                tx.commit().await?;
                Ok(true)
            }
            Err(StoreError::Duplicate) => Ok(false),
            Err(e) => Err(e),
        }
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
        match row {
            Some(r) => Ok(Some(self.with_seats(game_from_row(&r)).await?)),
            None => Ok(None),
        }
    }

    /// The games a user plays or is challenged to (or an open challenge in `channel`),
    /// in the given statuses, oldest first.
    pub async fn games_of(
        &self,
        user: &str,
        statuses: &[&str],
    ) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "{GAME_SELECT} WHERE id IN (SELECT game_id FROM seats WHERE user_id = ? OR user_id IS NULL) ORDER BY id"
        ))
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::new();
        for r in rows {
            let g = game_from_row(&r);
            if statuses.contains(&g.status.as_str()) {
                out.push(self.with_seats(g).await?);
            }
        }
        Ok(out)
    }

    async fn with_seats(&self, mut g: GameRow) -> Result<GameRow, StoreError> {
        let rows =
            sqlx::query("SELECT seat, user_id, role FROM seats WHERE game_id = ? ORDER BY seat")
                .bind(g.id)
                .fetch_all(&self.pool)
                .await?;
        g.seats = rows
            .iter()
            .map(|r| SeatRow {
                seat: r.get::<i64, _>(0) as u8,
                user: r.get(1),
                role: r.get(2),
            })
            .collect();
        Ok(g)
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

    /// A game's deadlines.
    pub async fn deadlines_of(&self, game_id: i64) -> Result<Vec<Deadline>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, seat, turn, due_at FROM deadlines WHERE game_id = ? ORDER BY seat",
        )
        .bind(game_id)
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

    /// Every game id, in order.
    pub async fn game_ids(&self) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

const GAME_SELECT: &str = "SELECT id, variant, status, days_per_move, colour, challenger, channel, seed, result, reason, score, snapshot, version, start_fen FROM games";

fn game_from_row(r: &sqlx::sqlite::SqliteRow) -> GameRow {
    GameRow {
        id: r.get(0),
        variant: r.get(1),
        status: r.get(2),
        days_per_move: r.get(3),
        colour: r.get(4),
        challenger: r.get(5),
        channel: r.get(6),
        seed: r.get(7),
        result: r.get(8),
        reason: r.get(9),
        score: r.get(10),
        snapshot: r.get(11),
        version: r.get(12),
        start_fen: r.get(13),
        seats: Vec::new(),
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

async fn insert_notice(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    game_id: i64,
    seat: u8,
    turn: i64,
    kind: &str,
    at: i64,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO notices (game_id, seat, turn, kind, at) VALUES (?, ?, ?, ?, ?)")
        .bind(game_id)
        .bind(seat as i64)
        .bind(turn)
        .bind(kind)
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
