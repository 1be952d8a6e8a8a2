//! Pruning the keys of chat events (`events`, migration 0024) once Discord can no longer
//! deliver their events again. A key's only use is to stop a second delivery of its
//! event; Discord redelivers an event only within minutes of sending it (a gateway
//! session resumed, an interaction's token, which lives 15 minutes), so a key days old
//! guards nothing and costs a finished game a third of its bytes.

use super::event_key::{discord_bound, discord_millis, INTERACTION, MESSAGE};
use super::{on_pool, Store, StoreError};
use sqlx::Row;

impl Store {
    /// Deletes the keys of Discord events (messages and interactions) made more than
    /// `age_ms` milliseconds before the newest such key stored, by the times their
    /// snowflakes carry. Measured against the newest key rather than this machine's clock,
    /// so that a clock set wrong deletes nothing a redelivery could still need. Keys of
    /// other ids (the console's, a test's) carry no time and are kept. How many went.
    pub async fn prune_event_keys(&self, age_ms: i64) -> Result<u64, StoreError> {
        let mut newest = None;
        for tag in [MESSAGE, INTERACTION] {
            let key: Option<Vec<u8>> = on_pool!(self.pool, |p| sqlx::query(
                "SELECT key FROM events WHERE key > $1 AND key < $2 ORDER BY key DESC LIMIT 1"
            )
            .bind(vec![tag])
            .bind(vec![tag + 1])
            .fetch_optional(p)
            .await?
            .map(|r| r.get::<Vec<u8>, _>(0)));
            newest = newest.max(key.as_deref().and_then(discord_millis));
        }
        let Some(cutoff) = newest.map(|n| n - age_ms).filter(|c| *c > 0) else {
            return Ok(0);
        };
        let mut gone = 0;
        for tag in [MESSAGE, INTERACTION] {
            gone += on_pool!(self.pool, |p| sqlx::query(
                "DELETE FROM events WHERE key > $1 AND key < $2"
            )
            .bind(vec![tag])
            .bind(discord_bound(tag, cutoff))
            .execute(p)
            .await?
            .rows_affected());
        }
        Ok(gone)
    }
}
