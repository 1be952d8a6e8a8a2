//! What the deadline check reads, as range queries on indexes of due times (migration
//! 0019), so that a check costs what is due rather than what is stored: each deadline
//! keeps the time it must next be looked at (`deadlines.check_at`: a reminder's hour, the
//! deadline itself, or `NULL` once nothing more can come of it until something changes),
//! each player with a daily digest the time of their next one (`users.digest_next`), and
//! the open challenges are found by the time they were made.
//!
//! `check_at` is kept right by every write that could change what looking at a deadline
//! finds, in that write's transaction: a game's write (`Store::write`) sets it
//! to the write's time for the deadlines it stores; a player's settings (reminder hours,
//! auto-claim) and the end of their vacation set it to 0, "at the next check", for the
//! deadlines of their games. The check itself moves it on ([`Store::set_deadline_check`])
//! after looking, under the game's lock.

use super::{on_pool, Deadline, Store, StoreError};
use sqlx::Row;

/// A deadline whose time to be looked at has come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlineToCheck {
    /// The deadline.
    pub deadline: Deadline,
    /// The time it was to be looked at, which [`Store::set_deadline_check`] checks it
    /// still holds.
    pub check_at: i64,
    /// The player in its seat.
    pub user: Option<String>,
}

/// Sets `check_at` to 0 (looked at by the next check) for every deadline of the games
/// where the user `$1` holds a seat: their settings or their vacation, or an opponent's,
/// may change what the check finds.
pub(super) const RECHECK_GAMES_OF: &str = "UPDATE deadlines SET check_at = 0
    WHERE game_id IN (SELECT game_id FROM seats WHERE user_id = $1)";

/// The deadlines whose time to be looked at has come by `$1`, at most `$2`, the earliest
/// first: one range of the index `deadlines_to_check`. Public, with [`DIGESTS_DUE`] and
/// [`CHALLENGES_MADE_BEFORE`], so that a test can hold each plan to its index.
pub const DEADLINES_TO_CHECK: &str = "SELECT d.game_id, d.seat, d.turn, d.due_at, d.check_at,
        (SELECT s.user_id FROM seats s WHERE s.game_id = d.game_id AND s.seat = d.seat)
     FROM deadlines d WHERE d.check_at IS NOT NULL AND d.check_at <= $1
     ORDER BY d.check_at LIMIT $2";

/// The players whose next digest is due by `$1`, at most `$2`, the earliest first: one
/// range of the index `users_digest_next`.
pub const DIGESTS_DUE: &str = "SELECT id, digest_hour FROM users
     WHERE digest_next IS NOT NULL AND digest_next <= $1 AND digest_hour IS NOT NULL
     ORDER BY digest_next LIMIT $2";

/// The challenges waiting for an answer made at or before `$1`, oldest first: one range
/// of the index `games_challenged_at`.
pub const CHALLENGES_MADE_BEFORE: &str = "SELECT id FROM games
     WHERE status = 'challenged' AND created_at <= $1 ORDER BY created_at, id";

impl Store {
    /// At most `limit` deadlines whose time to be looked at has come by `now`, the
    /// earliest first: one range of the index `deadlines_to_check`, whatever the number of
    /// games stored.
    pub async fn deadlines_to_check(
        &self,
        now: i64,
        limit: i64,
    ) -> Result<Vec<DeadlineToCheck>, StoreError> {
        Ok(on_pool!(self.pool, |p| sqlx::query(DEADLINES_TO_CHECK)
            .bind(now)
            .bind(limit)
            .fetch_all(p)
            .await?
            .iter()
            .map(|r| DeadlineToCheck {
                deadline: Deadline {
                    game_id: r.get(0),
                    seat: r.get::<i64, _>(1) as u8,
                    turn: r.get(2),
                    due_at: r.get(3),
                },
                check_at: r.get(4),
                user: r.get(5),
            })
            .collect()))
    }

    /// After deadline `d` was looked at: it is next looked at `next` (`None`: not until a
    /// write or a player's change sets it again). Changes nothing when the deadline was
    /// replaced or set again meanwhile (it no longer holds `check_at`); `false` then.
    pub async fn set_deadline_check(
        &self,
        d: &Deadline,
        check_at: i64,
        next: Option<i64>,
    ) -> Result<bool, StoreError> {
        let n = on_pool!(self.pool, |p| sqlx::query(
            "UPDATE deadlines SET check_at = $1
             WHERE game_id = $2 AND seat = $3 AND turn = $4 AND due_at = $5 AND check_at = $6",
        )
        .bind(next)
        .bind(d.game_id)
        .bind(d.seat as i64)
        .bind(d.turn)
        .bind(d.due_at)
        .bind(check_at)
        .execute(p)
        .await?
        .rows_affected());
        Ok(n == 1)
    }

    /// Brings every deadline's next look forward to at most `horizon` seconds before it
    /// falls (and those set aside, `NULL`, to `now`), so that reminders of hours the
    /// operator's settings add (read at start, not stored) are not missed: what a process
    /// does once when its deadline task starts. Returns how many were changed.
    pub async fn recheck_deadlines(&self, now: i64, horizon: i64) -> Result<u64, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
            "UPDATE deadlines SET check_at = CASE WHEN check_at IS NULL THEN $1 ELSE due_at - $2 END
             WHERE check_at IS NULL OR check_at > due_at - $2",
        )
        .bind(now)
        .bind(horizon)
        .execute(p)
        .await?
        .rows_affected()
        }))
    }

    /// The ids of the challenges still waiting for an answer that were made at or
    /// before `made_by`, oldest first: a range of the index of open challenges by the
    /// time they were made.
    pub async fn challenges_made_before(&self, made_by: i64) -> Result<Vec<i64>, StoreError> {
        Ok(on_pool!(self.pool, |p| sqlx::query(CHALLENGES_MADE_BEFORE)
            .bind(made_by)
            .fetch_all(p)
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect()))
    }
}
