//! Players' own settings, kept on their `users` row (migrations 0010 and 0013), and the
//! digests sent to those who chose one (migration 0013).

use super::outbox::queue_messages;
use super::{inserted_once, on_pool, NewMessage, Store, StoreError};
use sqlx::Row;
use std::collections::HashMap;

/// A player's settings as their `users` row keeps them; the service reads them into its
/// `PlayerSettings` (`service::player_settings`), which says what they mean.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredSettings {
    /// Reminder hours before a deadline, as text (`"24,1"`, `""` for none); `None`: the
    /// server's.
    pub reminder_hours: Option<String>,
    /// Whether wins on time are claimed for them.
    pub auto_claim: bool,
    /// The hour (UTC) of their daily digest; `None`: no digest.
    pub digest_hour: Option<i64>,
    /// How private boards are turned for them (`own`, `white`); `None`: the server's way.
    pub orientation: Option<String>,
}

/// The settings in columns `first..first + 4` of `row` (reminder hours, auto-claim, digest
/// hour, orientation).
fn settings_at<R: Row>(row: &R, first: usize) -> StoredSettings
where
    usize: sqlx::ColumnIndex<R>,
    for<'r> Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<i64>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    StoredSettings {
        reminder_hours: row.get(first),
        auto_claim: row.get::<i64, _>(first + 1) != 0,
        digest_hour: row.get(first + 2),
        orientation: row.get(first + 3),
    }
}

/// The digest day of a player whose digest hour is `hour` at `at`: day `d`'s digest is
/// due at `d * 86400 + hour * 3600`.
pub fn digest_day(at: i64, hour: u8) -> i64 {
    (at - i64::from(hour) * 3600).div_euclid(86_400)
}

impl Store {
    /// The settings of `user`; the defaults for a user the store has not seen.
    pub async fn player_settings(&self, user: &str) -> Result<StoredSettings, StoreError> {
        let row = on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT reminder_hours, auto_claim, digest_hour, orientation FROM users WHERE id = $1",
            )
            .bind(user)
            .fetch_optional(p)
            .await?
            .map(|r| settings_at(&r, 0))
        });
        Ok(row.unwrap_or_default())
    }

    /// Of `users`, those who chose a digest or an orientation of private boards, with
    /// their settings, in one query: what a reply's messages are fitted to.
    pub async fn personal_settings(
        &self,
        users: &[&str],
    ) -> Result<HashMap<String, StoredSettings>, StoreError> {
        if users.is_empty() {
            return Ok(HashMap::new());
        }
        let marks: Vec<String> = (1..=users.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT id, reminder_hours, auto_claim, digest_hour, orientation FROM users \
             WHERE id IN ({}) AND (digest_hour IS NOT NULL OR orientation IS NOT NULL)",
            marks.join(", ")
        );
        Ok(on_pool!(self.pool, |p| {
            let mut q = sqlx::query(&sql);
            for u in users {
                q = q.bind(*u);
            }
            q.fetch_all(p)
                .await?
                .into_iter()
                .map(|r| (r.get::<String, _>(0), settings_at(&r, 1)))
                .collect()
        }))
    }

    /// Stores the settings of `user` (recording the user if new), and, in the same
    /// transaction `digest_done`, a digest day and the time, as a digest recorded (with
    /// no message), so that a digest just chosen starts at its next hour, not at once.
    pub async fn set_player_settings(
        &self,
        user: &str,
        settings: &StoredSettings,
        digest_done: Option<(i64, i64)>,
    ) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            sqlx::query(
                "INSERT INTO users (id, name, reminder_hours, auto_claim, digest_hour, orientation) \
                 VALUES ($1, $1, $2, $3, $4, $5) \
                 ON CONFLICT (id) DO UPDATE SET reminder_hours = excluded.reminder_hours, \
                 auto_claim = excluded.auto_claim, digest_hour = excluded.digest_hour, \
                 orientation = excluded.orientation",
            )
            .bind(user)
            .bind(&settings.reminder_hours)
            .bind(i64::from(settings.auto_claim))
            .bind(settings.digest_hour)
            .bind(&settings.orientation)
            .execute(&mut *tx)
            .await?;
            if let Some((day, at)) = digest_done {
                sqlx::query(
                    "INSERT INTO digests (user_id, day, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                )
                .bind(user)
                .bind(day)
                .bind(at)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
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

    /// The players whose digest is due at `at` and not yet recorded: each with their
    /// digest day ([`digest_day`]).
    pub async fn digests_due(&self, at: i64) -> Result<Vec<(String, i64)>, StoreError> {
        let rows: Vec<(String, i64)> = on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT u.id, u.digest_hour FROM users u WHERE u.digest_hour IS NOT NULL \
                 AND NOT EXISTS (SELECT 1 FROM digests d WHERE d.user_id = u.id \
                 AND d.day = ($1 - u.digest_hour * 3600) / 86400)",
            )
            .bind(at)
            .fetch_all(p)
            .await?
            .into_iter()
            .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1)))
            .collect()
        });
        Ok(rows
            .into_iter()
            .filter_map(|(u, h)| Some((u, digest_day(at, u8::try_from(h).ok()?))))
            .collect())
    }

    /// Records `user`'s digest of day `day` with its messages in the outbox, in one
    /// transaction; `false`, and nothing written, when that day's digest was recorded
    /// already (by another process, or before a restart).
    pub async fn record_digest(
        &self,
        user: &str,
        day: i64,
        at: i64,
        messages: &[NewMessage],
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let inserted =
                sqlx::query("INSERT INTO digests (user_id, day, at) VALUES ($1, $2, $3)")
                    .bind(user)
                    .bind(day)
                    .bind(at)
                    .execute(&mut *tx)
                    .await;
            if !inserted_once(inserted)? {
                return Ok(false);
            }
            queue_messages!(tx, None::<i64>, messages, at);
            tx.commit().await?;
            Ok(true)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::digest_day;

    #[test]
    fn a_digest_day_begins_at_its_hour() {
        let day = 20_000 * 86_400;
        assert_eq!(digest_day(day + 18 * 3600 - 1, 18), 19_999);
        assert_eq!(digest_day(day + 18 * 3600, 18), 20_000);
        assert_eq!(digest_day(day + 23 * 3600, 0), 20_000);
        assert_eq!(digest_day(day - 1, 0), 19_999);
    }
}
