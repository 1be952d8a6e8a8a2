//! The engine's turns in games against the bot (migration 0027). A turn is queued by the
//! write that commits the human's move: the deadline it gives the engine's seat (a seat
//! held by the bot's own user). A process claims one turn at a time here, as analyses are
//! claimed (`claimed_by` until `claimed_until`; the claim is one statement, an upsert
//! that takes the row only where nobody holds that turn, so two processes never both
//! take it), computes the move and plays it with the turn's event id, so that even a
//! claim that ran out while the move was computed cannot play it twice.

use super::outbox::unix_now;
use super::{on_pool, Store, StoreError};
use sqlx::Row;

/// An engine's turn waiting for its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineTurn {
    /// The game.
    pub game_id: i64,
    /// The engine's seat.
    pub seat: u8,
    /// The turn (its deadline's), which names the move once.
    pub turn: i64,
}

/// How many waiting turns one claim looks at before it gives up for now.
const CANDIDATES: i64 = 16;

impl Store {
    /// Claims for `lease_seconds` the engine's turn that has waited longest, in a live
    /// game where `engine_user` holds a seat that has a deadline, and that nobody holds
    /// (or whose claim ran out: a turn whose engine failed is tried again once its
    /// claim runs out, by any process); `None` when there is none.
    pub async fn claim_engine_turn(
        &self,
        engine_user: &str,
        lease_seconds: i64,
    ) -> Result<Option<EngineTurn>, StoreError> {
        let now = unix_now();
        let waiting: Vec<EngineTurn> = on_pool!(self.pool, |p| sqlx::query(
            "SELECT d.game_id, d.seat, d.turn FROM deadlines d
             JOIN seats s ON s.game_id = d.game_id AND s.seat = d.seat
             JOIN games g ON g.id = d.game_id
             WHERE s.user_id = $1 AND g.status = 'active'
               AND NOT EXISTS (SELECT 1 FROM engine_turns e WHERE e.game_id = d.game_id
                 AND e.turn = d.turn AND e.claimed_until > $2)
             ORDER BY d.due_at, d.game_id LIMIT $3"
        )
        .bind(engine_user)
        .bind(now)
        .bind(CANDIDATES)
        .fetch_all(p)
        .await?
        .iter()
        .map(|r| EngineTurn {
            game_id: r.get(0),
            seat: r.get::<i64, _>(1) as u8,
            turn: r.get(2),
        })
        .collect());
        for t in waiting {
            let taken: Option<i64> = on_pool!(self.pool, |p| sqlx::query(
                "INSERT INTO engine_turns (game_id, turn, claimed_by, claimed_until)
                 VALUES ($1, $2, $3, $4 + $5)
                 ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn,
                   claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until
                 WHERE engine_turns.turn <> excluded.turn
                   OR engine_turns.claimed_until <= $4
                 RETURNING game_id"
            )
            .bind(t.game_id)
            .bind(t.turn)
            .bind(&*self.claimer)
            .bind(now)
            .bind(lease_seconds.max(1))
            .fetch_optional(p)
            .await?
            .map(|r| r.get(0)));
            if taken.is_some() {
                return Ok(Some(t));
            }
        }
        Ok(None)
    }

    /// Gives back the engine's turns this process holds, for another to play at once.
    pub(super) async fn release_engine_turns(&self) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| sqlx::query(
            "UPDATE engine_turns SET claimed_until = 0 WHERE claimed_by = $1"
        )
        .bind(&*self.claimer)
        .execute(p)
        .await?
        .rows_affected());
        Ok(())
    }
}
