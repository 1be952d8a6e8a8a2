//! Players' own settings, kept on their `users` row (migrations 0010 and 0013), and the
//! digests sent to those who chose one (migration 0013).

use super::deadlines::RECHECK_GAMES_OF;
use super::outbox::queue_messages;
use super::{on_pool, NewMessage, Store, StoreError};
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
                "INSERT INTO users (id, name, reminder_hours, auto_claim, digest_hour, orientation, digest_next) \
                 VALUES ($1, $1, $2, $3, $4, $5, CASE WHEN $4 IS NULL THEN NULL ELSE 0 END) \
                 ON CONFLICT (id) DO UPDATE SET reminder_hours = excluded.reminder_hours, \
                 auto_claim = excluded.auto_claim, digest_hour = excluded.digest_hour, \
                 orientation = excluded.orientation, digest_next = excluded.digest_next",
            )
            .bind(user)
            .bind(&settings.reminder_hours)
            .bind(i64::from(settings.auto_claim))
            .bind(settings.digest_hour)
            .bind(&settings.orientation)
            .execute(&mut *tx)
            .await?;
            // Their deadlines and their opponents' are looked at again by the next check:
            // the reminder hours and the auto-claim are what it decides on.
            sqlx::query(RECHECK_GAMES_OF)
                .bind(user)
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

    /// The players whose digest is due at `at` and not yet recorded, at most `limit`,
    /// each with their digest day ([`digest_day`]): a range of the index of the next
    /// digests' times (`users.digest_next`, migration 0019), whatever the number of
    /// players. Those whose time came but whose day's digest is recorded already (their
    /// settings changed, or another process sent it) are moved on to their next day first.
    pub async fn digests_due(&self, at: i64, limit: i64) -> Result<Vec<(String, i64)>, StoreError> {
        let rows: Vec<(String, i64)> = on_pool!(self.pool, |p| {
            sqlx::query(
                "UPDATE users SET digest_next = (($1 - digest_hour * 3600) / 86400 + 1) * 86400 + digest_hour * 3600 \
                 WHERE digest_next IS NOT NULL AND digest_next <= $1 AND digest_hour IS NOT NULL \
                 AND EXISTS (SELECT 1 FROM digests d WHERE d.user_id = users.id \
                 AND d.day = ($1 - users.digest_hour * 3600) / 86400)",
            )
            .bind(at)
            .execute(p)
            .await?;
            sqlx::query(super::deadlines::DIGESTS_DUE)
                .bind(at)
                .bind(limit)
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

    /// Records `user`'s digest of day `day` with its messages in the outbox, and the time
    /// of their next digest (the next day's), in one transaction; `false`, and no digest
    /// nor message written, when that day's digest was recorded already (by another
    /// process, or before a restart).
    pub async fn record_digest(
        &self,
        user: &str,
        day: i64,
        at: i64,
        messages: &[NewMessage],
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            // Not an error when recorded already (PostgreSQL would abort the transaction,
            // which still moves the player's next digest on below).
            let written = sqlx::query(
                "INSERT INTO digests (user_id, day, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            )
            .bind(user)
            .bind(day)
            .bind(at)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if written {
                queue_messages!(tx, None::<i64>, messages, at);
            }
            // The next digest is due on the next day, whether this one is written now or
            // was before.
            sqlx::query(
                "UPDATE users SET digest_next = ($2 + 1) * 86400 + digest_hour * 3600 \
                 WHERE id = $1 AND digest_hour IS NOT NULL",
            )
            .bind(user)
            .bind(day)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(written)
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
