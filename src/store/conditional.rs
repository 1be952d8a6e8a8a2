//! Players' stored conditional moves (migration 0012): each a line of a game, private to
//! the player who stored it, as JSON arrays of the game's actions and of the moves as
//! typed, with the game's version it applies at.

use super::{on_pool, Store, StoreError};
use sqlx::Row;

/// One stored line of conditional moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionalLine {
    /// Its id.
    pub id: i64,
    /// The game's version the line applies at (the opponent's action is expected next).
    pub version: i64,
    /// The actions as a JSON array: the opponent's expected move, the answer, and so on.
    pub actions: String,
    /// The same moves as typed, a JSON array of strings.
    pub typed: String,
}

impl Store {
    /// `user`'s lines for game `game_id`, in the order they were stored.
    pub async fn conditional_lines(
        &self,
        game_id: i64,
        user: &str,
    ) -> Result<Vec<ConditionalLine>, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT id, version, actions, typed FROM conditional_lines \
                 WHERE game_id = $1 AND user_id = $2 ORDER BY id",
            )
            .bind(game_id)
            .bind(user)
            .fetch_all(p)
            .await?
            .into_iter()
            .map(|r| ConditionalLine {
                id: r.get(0),
                version: r.get(1),
                actions: r.get(2),
                typed: r.get(3),
            })
            .collect()
        }))
    }

    /// Stores a line of `user`'s for game `game_id` at its `version`.
    pub async fn add_conditional_line(
        &self,
        game_id: i64,
        user: &str,
        version: i64,
        actions: &str,
        typed: &str,
    ) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            sqlx::query(
                "INSERT INTO conditional_lines (game_id, user_id, version, actions, typed) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(game_id)
            .bind(user)
            .bind(version)
            .bind(actions)
            .bind(typed)
            .execute(p)
            .await?
            .rows_affected()
        });
        Ok(())
    }

    /// Replaces what is left of line `id` (after its first pair was played) and the
    /// version it now applies at.
    pub async fn advance_conditional_line(
        &self,
        id: i64,
        version: i64,
        actions: &str,
        typed: &str,
    ) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            sqlx::query(
                "UPDATE conditional_lines SET version = $2, actions = $3, typed = $4 WHERE id = $1",
            )
            .bind(id)
            .bind(version)
            .bind(actions)
            .bind(typed)
            .execute(p)
            .await?
            .rows_affected()
        });
        Ok(())
    }

    /// Deletes the lines whose ids are given.
    pub async fn delete_conditional_lines(&self, ids: &[i64]) -> Result<(), StoreError> {
        for id in ids {
            on_pool!(self.pool, |p| {
                sqlx::query("DELETE FROM conditional_lines WHERE id = $1")
                    .bind(*id)
                    .execute(p)
                    .await?
                    .rows_affected()
            });
        }
        Ok(())
    }

    /// Deletes every line of game `game_id` (of `user` alone when given); returns how many
    /// there were.
    pub async fn clear_conditional_lines(
        &self,
        game_id: i64,
        user: Option<&str>,
    ) -> Result<u64, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "DELETE FROM conditional_lines WHERE game_id = $1 AND ($2 IS NULL OR user_id = $2)",
            )
            .bind(game_id)
            .bind(user)
            .execute(p)
            .await?
            .rows_affected()
        }))
    }
}
