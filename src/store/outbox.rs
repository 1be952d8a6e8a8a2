//! The outbox of the deadline check (migration 0004): each reminder, "time has run out"
//! and timeout message is stored in the same transaction as the notice or the game's
//! change that caused it, and stays until its deliverer marks it delivered. A process
//! that stops between the two finds it undelivered at the next start and sends it then.

use super::{is_unique_violation, Store, StoreError};
use sqlx::Row;

/// A message to put in the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMessage {
    /// Where it goes, as the service encodes it (`channel:ID`, `dm:USER`).
    pub destination: String,
    /// The text.
    pub text: String,
    /// Whether the game's public board, as stored, goes with it.
    pub board: bool,
}

/// A message in the outbox, not yet delivered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedMessage {
    /// The outbox id, which [`Store::mark_delivered`] takes.
    pub id: i64,
    /// The game it is about.
    pub game_id: Option<i64>,
    /// Where it goes (`channel:ID`, `dm:USER`).
    pub destination: String,
    /// The text.
    pub text: String,
    /// Whether the game's public board goes with it.
    pub board: bool,
}

/// The messages as the JSON array the `game_writes` trigger reads.
pub(super) fn messages_json(messages: &[NewMessage]) -> String {
    serde_json::Value::from_iter(
        messages
            .iter()
            .map(|m| serde_json::json!([m.destination, m.text, i64::from(m.board)])),
    )
    .to_string()
}

impl Store {
    /// Records a notice (a reminder, or "time has run out") once, with the messages it
    /// sends, in one transaction; `false`, and nothing written, if it was already
    /// recorded.
    pub async fn record_notice(
        &self,
        game_id: i64,
        (seat, turn, kind): (u8, i64, &str),
        at: i64,
        messages: &[NewMessage],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO notices (game_id, seat, turn, kind, at) VALUES (?, ?, ?, ?, ?)",
        )
        .bind(game_id)
        .bind(seat as i64)
        .bind(turn)
        .bind(kind)
        .bind(at)
        .execute(&mut *tx)
        .await;
        match inserted {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => return Ok(false),
            Err(e) => return Err(e.into()),
        }
        sqlx::query(
            "INSERT INTO outbox (game_id, destination, text, board, created_at)
             SELECT ?, value ->> 0, value ->> 1, value ->> 2, ? FROM json_each(?)",
        )
        .bind(game_id)
        .bind(at)
        .bind(messages_json(messages))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The outbox's undelivered messages, oldest first.
    pub async fn undelivered(&self) -> Result<Vec<QueuedMessage>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, game_id, destination, text, board FROM outbox
             WHERE delivered_at IS NULL ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| QueuedMessage {
                id: r.get(0),
                game_id: r.get(1),
                destination: r.get(2),
                text: r.get(3),
                board: r.get::<i64, _>(4) != 0,
            })
            .collect())
    }

    /// Marks an outbox message delivered (at `at`); marking it again changes nothing.
    pub async fn mark_delivered(&self, id: i64, at: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL")
            .bind(at)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
