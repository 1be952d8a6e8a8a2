//! Persistence: sqlx over SQLite (WAL, foreign keys on), migrations from `/migrations`
//! embedded at compile time and applied on open. Runtime queries only.
//!
//! A game row holds the state snapshot and a version; every accepted action is appended
//! to the action log and the snapshot updated in one transaction, guarded by the version,
//! so a concurrent writer that lost the race changes nothing.

use sqlx::{Row, SqlitePool};
use std::sync::Arc;

mod adapter;
mod checkpoint;
mod open;
mod outbox;
mod reads;
mod rows;

pub use open::database_file;
pub use outbox::{unix_now, NewMessage, QueuedMessage};
pub use rows::{ActionRow, Deadline, Drawn, GameRow, NewGame, SeatRow, Write};

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
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
    /// The background WAL checkpoint of a file database; stops with the last clone.
    checkpoint: Option<Arc<checkpoint::Checkpoint>>,
    /// This process's name when it claims outbox messages to deliver (random, unique).
    claimer: Arc<str>,
    /// Opened for reading alone ([`Store::open_read_only`]).
    read_only: bool,
}

impl Store {
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
            // A player is recorded with the game that seats them, in its transaction
            // (the challenger already is, before the limit is counted).
            if let Some(user) = s.user.as_ref().filter(|u| **u != g.challenger) {
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
