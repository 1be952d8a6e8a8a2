//! Players' vacations (migration 0011): one row per vacation, at most one per player not
//! settled (running, or ended with its deadlines not yet all extended).

use super::deadlines::RECHECK_GAMES_OF;
use super::{on_pool, Store, StoreError};
use sqlx::Row;

/// A player's vacation as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vacation {
    /// The player.
    pub user: String,
    /// When it started (seconds since the epoch).
    pub started_at: i64,
    /// When it ends unless it is ended earlier.
    pub planned_end: i64,
    /// When it ended; `None` while it runs.
    pub ended_at: Option<i64>,
    /// The days it counts against the allowance of the year it started.
    pub days: i64,
}

impl Vacation {
    /// When it ends or ended: its end, else its planned end.
    pub fn end(&self) -> i64 {
        self.ended_at.unwrap_or(self.planned_end)
    }
}

const COLUMNS: &str = "user_id, started_at, planned_end, ended_at, days";

/// A row of [`COLUMNS`] as a [`Vacation`] (a macro: each backend's row type is its own).
macro_rules! vacation {
    ($r:expr) => {
        Vacation {
            user: $r.get(0),
            started_at: $r.get(1),
            planned_end: $r.get(2),
            ended_at: $r.get(3),
            days: $r.get(4),
        }
    };
}

impl Store {
    /// `user`'s vacation not yet settled (running, or ended with deadlines still to
    /// extend), if any.
    pub async fn open_vacation(&self, user: &str) -> Result<Option<Vacation>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM vacations WHERE user_id = $1 AND settled = 0");
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(&sql)
                .bind(user)
                .fetch_optional(p)
                .await?
                .map(|r| vacation!(r))
        }))
    }

    /// The days `user`'s vacations started in `[from, to)` count, the running one's
    /// planned days included.
    pub async fn vacation_days(&self, user: &str, from: i64, to: i64) -> Result<i64, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT CAST(COALESCE(SUM(days), 0) AS BIGINT) FROM vacations \
                 WHERE user_id = $1 AND started_at >= $2 AND started_at < $3",
            )
            .bind(user)
            .bind(from)
            .bind(to)
            .fetch_one(p)
            .await?
            .get::<i64, _>(0)
        }))
    }

    /// Starts `user`'s vacation of `days` days at `at` (recording the user if new);
    /// `false` (nothing written) when they have one not settled.
    pub async fn start_vacation(&self, user: &str, at: i64, days: i64) -> Result<bool, StoreError> {
        self.ensure_user(user, user).await?;
        let inserted = on_pool!(self.pool, |p| {
            sqlx::query(
                "INSERT INTO vacations (user_id, started_at, planned_end, days) \
                 SELECT $1, $2, $3, $4 \
                 WHERE NOT EXISTS (SELECT 1 FROM vacations WHERE user_id = $1 AND settled = 0) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(user)
            .bind(at)
            .bind(at + days * 86_400)
            .bind(days)
            .execute(p)
            .await?
            .rows_affected()
        });
        Ok(inserted == 1)
    }

    /// Ends `user`'s running vacation that started at `started_at`, at `at`, counting
    /// `days`; `false` when it is not running (ended meanwhile).
    pub async fn end_vacation(
        &self,
        user: &str,
        started_at: i64,
        at: i64,
        days: i64,
    ) -> Result<bool, StoreError> {
        let n = on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let n = sqlx::query(
                "UPDATE vacations SET ended_at = $3, days = $4 \
                 WHERE user_id = $1 AND started_at = $2 AND ended_at IS NULL",
            )
            .bind(user)
            .bind(started_at)
            .bind(at)
            .bind(days)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            // Their deadlines run again: looked at by the next check.
            sqlx::query(RECHECK_GAMES_OF)
                .bind(user)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            n
        });
        Ok(n == 1)
    }

    /// Marks `user`'s ended vacation that started at `started_at` settled: every
    /// deadline it stopped has been extended.
    pub async fn settle_vacation(&self, user: &str, started_at: i64) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            sqlx::query(
                "UPDATE vacations SET settled = 1 \
                 WHERE user_id = $1 AND started_at = $2 AND ended_at IS NOT NULL",
            )
            .bind(user)
            .bind(started_at)
            .execute(&mut *tx)
            .await?;
            // The deadlines it stopped are looked at again by the next check.
            sqlx::query(RECHECK_GAMES_OF)
                .bind(user)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// The vacations to end or settle at `now`: running ones whose planned end has come,
    /// and ended ones not yet settled.
    pub async fn vacations_to_settle(&self, now: i64) -> Result<Vec<Vacation>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM vacations WHERE settled = 0 \
             AND (ended_at IS NOT NULL OR planned_end <= $1) ORDER BY started_at"
        );
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(&sql)
                .bind(now)
                .fetch_all(p)
                .await?
                .iter()
                .map(|r| vacation!(r))
                .collect()
        }))
    }

    /// The vacations not settled of the players among `users`.
    pub async fn open_vacations_of(&self, users: &[&str]) -> Result<Vec<Vacation>, StoreError> {
        let mut out = Vec::new();
        for u in users {
            out.extend(self.open_vacation(u).await?);
        }
        Ok(out)
    }
}
