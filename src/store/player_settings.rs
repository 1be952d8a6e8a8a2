//! Players' own settings, kept on their `users` row (migration 0010).

use super::{on_pool, Store, StoreError};
use crate::service::player_settings::PlayerSettings;
use sqlx::Row;

impl Store {
    /// The settings of `user`; the defaults for a user the store has not seen.
    pub async fn player_settings(&self, user: &str) -> Result<PlayerSettings, StoreError> {
        let row = on_pool!(self.pool, |p| {
            sqlx::query("SELECT reminder_hours, auto_claim FROM users WHERE id = $1")
                .bind(user)
                .fetch_optional(p)
                .await?
                .map(|r| (r.get::<Option<String>, _>(0), r.get::<i64, _>(1) != 0))
        });
        Ok(row.map_or_else(PlayerSettings::default, |(h, a)| {
            PlayerSettings::from_stored(h.as_deref(), a)
        }))
    }

    /// Stores the settings of `user` (recording the user if new).
    pub async fn set_player_settings(
        &self,
        user: &str,
        settings: &PlayerSettings,
    ) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            sqlx::query(
                "INSERT INTO users (id, name, reminder_hours, auto_claim) VALUES ($1, $1, $2, $3) \
                 ON CONFLICT (id) DO UPDATE SET reminder_hours = excluded.reminder_hours, \
                 auto_claim = excluded.auto_claim",
            )
            .bind(user)
            .bind(settings.stored_hours())
            .bind(i64::from(settings.auto_claim))
            .execute(p)
            .await?
            .rows_affected()
        });
        Ok(())
    }

    /// Every reminder-hours setting players chose (as stored), so that the deadline check
    /// looks far enough ahead for the most distant.
    pub async fn chosen_reminder_hours(&self) -> Result<Vec<String>, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT DISTINCT reminder_hours FROM users WHERE reminder_hours IS NOT NULL AND reminder_hours <> ''",
            )
            .fetch_all(p)
            .await?
            .into_iter()
            .map(|r| r.get::<String, _>(0))
            .collect()
        }))
    }
}
