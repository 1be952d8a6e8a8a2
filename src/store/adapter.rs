//! Queries for the chat adapters: moving a game to its own thread, the private messages
//! held for users who cannot be reached privately (migration 0003), where challenges were
//! posted (0014) and the messages whose buttons lapse (0029).

use super::{on_pool, GameRow, Store, StoreError};
use sqlx::Row;

/// The most messages with lapsing buttons kept for one game in one channel
/// ([`Store::keep_lapsing`]).
pub const LAPSING_KEPT: i64 = 16;

impl Store {
    /// The active games whose home is `channel` and that have no thread of their own
    /// yet (a rematch started in its first game's thread gets one too).
    pub async fn games_needing_thread(&self, channel: &str) -> Result<Vec<GameRow>, StoreError> {
        let ids: Vec<i64> = on_pool!(self.pool, |p| sqlx::query(
            "SELECT id FROM games WHERE status = 'active' AND channel = $1 \
             AND id NOT IN (SELECT game_id FROM game_threads) ORDER BY id",
        )
        .bind(channel)
        .fetch_all(p)
        .await?
        .iter()
        .map(|r| r.get::<i64, _>(0))
        .collect());
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(g) = self.game(id).await? {
                games.push(g);
            }
        }
        Ok(games)
    }

    /// Whether `channel` is a game's thread.
    pub async fn is_game_thread(&self, channel: &str) -> Result<bool, StoreError> {
        Ok(on_pool!(self.pool, |p| sqlx::query(
            "SELECT 1 FROM game_threads WHERE thread = $1"
        )
        .bind(channel)
        .fetch_optional(p)
        .await?
        .is_some()))
    }

    /// The channel a thread opens from: the channel of the game whose thread `channel`
    /// is, followed up to a channel that is no game's thread; `channel` itself when it is
    /// none.
    pub async fn thread_parent(&self, channel: &str) -> Result<String, StoreError> {
        let mut at = channel.to_string();
        // Each game's thread was opened from a channel or an earlier game's thread.
        for _ in 0..64 {
            let parent: Option<String> = on_pool!(self.pool, |p| sqlx::query(
                "SELECT parent FROM game_threads WHERE thread = $1"
            )
            .bind(&at)
            .fetch_optional(p)
            .await?
            .map(|r| r.get::<String, _>(0)));
            match parent {
                Some(p) => at = p,
                None => break,
            }
        }
        Ok(at)
    }

    /// The thread game `id` was given and the channel it was opened from, if any.
    pub async fn thread_of(&self, id: i64) -> Result<Option<(String, String)>, StoreError> {
        Ok(on_pool!(self.pool, |p| sqlx::query(
            "SELECT thread, parent FROM game_threads WHERE game_id = $1"
        )
        .bind(id)
        .fetch_optional(p)
        .await?
        .map(|r| (r.get::<String, _>(0), r.get::<String, _>(1)))))
    }

    /// Moves game `id` from `parent` to its own `thread`: its messages go there from now on.
    pub async fn move_to_thread(
        &self,
        id: i64,
        parent: &str,
        thread: &str,
    ) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            sqlx::query("INSERT INTO game_threads (game_id, thread, parent) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(thread)
                .bind(parent)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE games SET channel = $1 WHERE id = $2")
                .bind(thread)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Records that game `id`'s challenge was posted as `message` in `channel` (a channel
    /// or a private-message channel) with `text`; a second post there replaces the first.
    pub async fn record_challenge_post(
        &self,
        id: i64,
        channel: &str,
        message: &str,
        text: &str,
    ) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            sqlx::query(
            "INSERT INTO challenge_posts (game_id, channel, message, text) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id, channel) DO UPDATE SET message = $3, text = $4"
        )
        .bind(id)
        .bind(channel)
        .bind(message)
        .bind(text)
        .execute(p)
        .await
        .map(|_| ())?
        });
        Ok(())
    }

    /// Takes the posts of game `id`'s challenge (channel, message, text), forgetting
    /// them: each is edited once.
    pub async fn take_challenge_posts(
        &self,
        id: i64,
    ) -> Result<Vec<(String, String, String)>, StoreError> {
        Ok(on_pool!(self.pool, |p| sqlx::query(
            "DELETE FROM challenge_posts WHERE game_id = $1 RETURNING channel, message, text"
        )
        .bind(id)
        .fetch_all(p)
        .await?
        .iter()
        .map(|r| (
            r.get::<String, _>(0),
            r.get::<String, _>(1),
            r.get::<String, _>(2)
        ))
        .collect()))
    }

    /// Keeps `message` of game `id` in `channel` as one whose buttons lapse when the
    /// game moves on there; of a game's such messages in one channel only the newest
    /// [`LAPSING_KEPT`] are kept (an older one's buttons are refused when pressed late).
    pub async fn keep_lapsing(
        &self,
        id: i64,
        channel: &str,
        message: &str,
    ) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            sqlx::query(
                "INSERT INTO lapsing_buttons (game_id, channel, message) VALUES ($1, $2, $3) \
                 ON CONFLICT (game_id, channel, message) DO NOTHING",
            )
            .bind(id)
            .bind(channel)
            .bind(message)
            .execute(p)
            .await?;
            // Snowflakes: the longer, then the greater, is the newer.
            sqlx::query(
                "DELETE FROM lapsing_buttons WHERE game_id = $1 AND channel = $2 \
                 AND message NOT IN (SELECT message FROM lapsing_buttons \
                 WHERE game_id = $1 AND channel = $2 \
                 ORDER BY length(message) DESC, message DESC LIMIT $3)",
            )
            .bind(id)
            .bind(channel)
            .bind(LAPSING_KEPT)
            .execute(p)
            .await?;
        });
        Ok(())
    }

    /// Takes game `id`'s messages whose buttons lapse (channel, message), forgetting
    /// them, so that each is edited once: those in `channel`, or in every channel
    /// (`None`, the game is over). Only reads where there is none (the usual case, which
    /// then takes no write lock).
    pub async fn take_lapsing(
        &self,
        id: i64,
        channel: Option<&str>,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let filter = match channel {
            Some(_) => "game_id = $1 AND channel = $2",
            None => "game_id = $1 AND $2 = ''",
        };
        let channel = channel.unwrap_or("");
        let any = on_pool!(self.pool, |p| sqlx::query(&format!(
            "SELECT 1 FROM lapsing_buttons WHERE {filter} LIMIT 1"
        ))
        .bind(id)
        .bind(channel)
        .fetch_optional(p)
        .await?
        .is_some());
        if !any {
            return Ok(Vec::new());
        }
        Ok(on_pool!(self.pool, |p| sqlx::query(&format!(
            "DELETE FROM lapsing_buttons WHERE {filter} RETURNING channel, message"
        ))
        .bind(id)
        .bind(channel)
        .fetch_all(p)
        .await?
        .iter()
        .map(|r| (r.get::<String, _>(0), r.get::<String, _>(1)))
        .collect()))
    }

    /// Keeps a private message for `user`, to be fetched later.
    pub async fn hold_message(&self, user: &str, text: &str, at: i64) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| sqlx::query(
            "INSERT INTO held_messages (user_id, text, at) VALUES ($1, $2, $3)"
        )
        .bind(user)
        .bind(text)
        .bind(at)
        .execute(p)
        .await?
        .rows_affected());
        Ok(())
    }

    /// Takes (and deletes) the private messages held for `user`, oldest first.
    pub async fn take_held(&self, user: &str) -> Result<Vec<String>, StoreError> {
        // One statement: two processes taking at once cannot both get a message.
        Ok(on_pool!(self.pool, |p| sqlx::query(
            "DELETE FROM held_messages WHERE user_id = $1 RETURNING id, text"
        )
        .bind(user)
        .fetch_all(p)
        .await?
        .iter()
        .map(|r| (r.get::<i64, _>(0), r.get::<String, _>(1)))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_values()
        .collect()))
    }

    /// Records that `user` refuses private messages (or, with `closed` false, that they
    /// interacted again and may be tried).
    pub async fn set_dm_closed(&self, user: &str, closed: bool, at: i64) -> Result<(), StoreError> {
        if closed {
            on_pool!(self.pool, |p| {
                sqlx::query(
                "INSERT INTO dm_closed (user_id, at) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING",
            )
            .bind(user)
            .bind(at)
            .execute(p)
            .await?
            .rows_affected()
            });
        } else {
            on_pool!(self.pool, |p| sqlx::query(
                "DELETE FROM dm_closed WHERE user_id = $1"
            )
            .bind(user)
            .execute(p)
            .await?
            .rows_affected());
        }
        Ok(())
    }

    /// Whether `user` refused private messages and has not interacted since.
    pub async fn dm_closed(&self, user: &str) -> Result<bool, StoreError> {
        Ok(on_pool!(self.pool, |p| sqlx::query(
            "SELECT 1 FROM dm_closed WHERE user_id = $1"
        )
        .bind(user)
        .fetch_optional(p)
        .await?
        .is_some()))
    }
}
