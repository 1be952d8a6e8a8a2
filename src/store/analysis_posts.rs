//! An analysis's progress message (migration 0030): the outbox's updates of it, each
//! queued under the analysis's claim and superseding the updates of the same game not yet
//! delivered (only the latest is worth showing), and where its deliverer posted it, per
//! game and destination, so that a restarted analysis edits the same message.

use super::outbox::unix_now;
use super::{on_pool, Store, StoreError};
use sqlx::Row;

/// An update of an analysis's progress message, to queue in the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressUpdate {
    /// Where the message is (the service's destination keys).
    pub destinations: Vec<String>,
    /// What it says, for a reader that shows text.
    pub text: String,
    /// Where the analysis stands, as the service encodes it (JSON).
    pub progress: String,
}

/// Queues update `$update` (`&ProgressUpdate`) of game `$game_id`'s progress message in
/// transaction `$tx` at `$at`, marking the game's updates not yet delivered as delivered
/// (superseded): on either backend, inside [`on_pool`].
macro_rules! queue_progress {
    ($tx:ident, $game_id:expr, $update:expr, $at:expr) => {
        sqlx::query(
            "UPDATE outbox SET delivered_at = $2
             WHERE game_id = $1 AND progress IS NOT NULL AND delivered_at IS NULL",
        )
        .bind($game_id)
        .bind($at)
        .execute(&mut *$tx)
        .await?;
        for d in &$update.destinations {
            sqlx::query(
                "INSERT INTO outbox (game_id, destination, text, board, ending, created_at, progress)
                 VALUES ($1, $2, $3, 0, 0, $4, $5)",
            )
            .bind($game_id)
            .bind(d)
            .bind(&$update.text)
            .bind($at)
            .bind(&$update.progress)
            .execute(&mut *$tx)
            .await?;
        }
    };
}
pub(super) use queue_progress;

impl Store {
    /// Queues `update` of game `game_id`'s progress message, if this process still holds
    /// the game's analysis; `false`, and nothing written, when it does not.
    pub async fn queue_progress(
        &self,
        game_id: i64,
        update: &ProgressUpdate,
    ) -> Result<bool, StoreError> {
        let at = unix_now();
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let held = sqlx::query(
                "SELECT 1 FROM analyses WHERE game_id = $1 AND claimed_by = $2 AND status = 'queued'",
            )
            .bind(game_id)
            .bind(&*self.claimer)
            .fetch_optional(&mut *tx)
            .await?
            .is_some();
            if !held {
                return Ok(false);
            }
            queue_progress!(tx, game_id, update, at);
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Where game `game_id`'s progress message to `destination` was posted (the
    /// adapter's channel and message ids), if it was.
    pub async fn analysis_post(
        &self,
        game_id: i64,
        destination: &str,
    ) -> Result<Option<(String, String)>, StoreError> {
        Ok(on_pool!(self.pool, |p| sqlx::query(
            "SELECT channel, message FROM analysis_posts WHERE game_id = $1 AND destination = $2"
        )
        .bind(game_id)
        .bind(destination)
        .fetch_optional(p)
        .await?
        .map(|r| (r.get::<String, _>(0), r.get::<String, _>(1)))))
    }

    /// Keeps where game `game_id`'s progress message to `destination` was posted; a
    /// second post replaces the first.
    pub async fn record_analysis_post(
        &self,
        game_id: i64,
        destination: &str,
        (channel, message): (&str, &str),
    ) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            sqlx::query(
            "INSERT INTO analysis_posts (game_id, destination, channel, message) VALUES ($1, $2, $3, $4)
             ON CONFLICT (game_id, destination) DO UPDATE SET channel = $3, message = $4"
        )
        .bind(game_id)
        .bind(destination)
        .bind(channel)
        .bind(message)
        .execute(p)
        .await?
        .rows_affected()
        });
        Ok(())
    }

    /// Forgets where game `game_id`'s progress message to `destination` was posted (its
    /// analysis has ended: a later one posts its own).
    pub async fn forget_analysis_post(
        &self,
        game_id: i64,
        destination: &str,
    ) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| sqlx::query(
            "DELETE FROM analysis_posts WHERE game_id = $1 AND destination = $2"
        )
        .bind(game_id)
        .bind(destination)
        .execute(p)
        .await?
        .rows_affected());
        Ok(())
    }
}
