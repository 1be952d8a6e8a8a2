//! Best-score competitions (migration 0021): a tournament of a one-seat variant marked
//! in `competitions`, its deals' secret seeds in `competition_deals`, and the question
//! the deadline task asks of them (whose next deal is due). Its entrants and their games
//! are the tournament's own rows (`tournament_entrants`, `tournament_boards`: round =
//! deal, board = the entrant's place); starting deals is [`Store::start_rounds`].
//!
//! A deal's seed tells every card of the deal: it is read only to deal the entrants'
//! games, and nothing here hands it to anything that is shown.

use super::{on_pool, NewTournament, Store, StoreError};
use sqlx::Row;

impl Store {
    /// Stores a new best-score competition in sign-up, with `deals` deals, made by chat
    /// event `event` (marked applied in the same transaction, as
    /// [`Store::create_tournament`] does: a second delivery of the event makes nothing):
    /// the tournament row (its `format` kept as `round-robin`, which migration 0018's
    /// check allows, and read back as `competition`) and its mark, in one transaction.
    /// Its id.
    pub async fn create_competition(
        &self,
        t: &NewTournament,
        deals: i64,
        event: Option<&str>,
        at: i64,
    ) -> Result<i64, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            super::tournaments::mark_event!(tx, event);
            let id: i64 = sqlx::query(
                "INSERT INTO tournaments (server, channel, creator, format, double_round, rounds, \
                 variant, options, days_per_move, rated, player_limit, signup_until, mode, state, \
                 current_round, version, created_at, updated_at) \
                 VALUES ($1, $2, $3, 'round-robin', 0, $4, $5, $6, $7, $8, $9, $10, 'sequential', \
                 'signup', 0, 0, $11, $11) RETURNING id",
            )
            .bind(&t.server)
            .bind(&t.channel)
            .bind(&t.creator)
            .bind(deals)
            .bind(&t.variant)
            .bind(&t.options)
            .bind(t.days_per_move)
            .bind(i64::from(t.rated))
            .bind(t.player_limit)
            .bind(t.signup_until)
            .bind(at)
            .fetch_one(&mut *tx)
            .await?
            .get(0);
            sqlx::query("INSERT INTO competitions (tournament_id) VALUES ($1)")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(id)
        })
    }

    /// The secret seeds of competition `id`'s deals, by deal from 1: those stored, or,
    /// where none is yet, `drawn`'s (stored now). Two processes starting the competition
    /// at once both get the seeds stored first, so every entrant gets the same deals
    /// whichever starts them. The seeds are stored as the 64 bits drawn.
    pub async fn deal_seeds(&self, id: i64, drawn: &[u64]) -> Result<Vec<u64>, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            for (i, seed) in drawn.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO competition_deals (tournament_id, deal, seed) VALUES ($1, $2, $3) \
                     ON CONFLICT (tournament_id, deal) DO NOTHING",
                )
                .bind(id)
                .bind(i as i64 + 1)
                .bind(*seed as i64)
                .execute(&mut *tx)
                .await?;
            }
            let seeds = sqlx::query(
                "SELECT seed FROM competition_deals WHERE tournament_id = $1 ORDER BY deal",
            )
            .bind(id)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| r.get::<i64, _>(0) as u64)
            .collect();
            tx.commit().await?;
            seeds
        }))
    }

    /// The ids of running competitions where an entrant still in has no game under way
    /// and deals left to play: their next deal is due (the attempt before it ended by a
    /// timeout, or a process stopped before dealing it). Read by the deadline task.
    pub async fn competitions_to_advance(&self) -> Result<Vec<i64>, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT t.id FROM tournaments t JOIN competitions c ON c.tournament_id = t.id \
                 WHERE t.state = 'running' AND EXISTS (SELECT 1 FROM tournament_entrants e \
                  WHERE e.tournament_id = t.id AND e.withdrawn_at IS NULL \
                  AND (SELECT count(*) FROM tournament_boards b \
                       WHERE b.tournament_id = t.id AND b.white = e.seed) < t.rounds \
                  AND NOT EXISTS (SELECT 1 FROM tournament_boards b JOIN games g ON g.id = b.game_id \
                       WHERE b.tournament_id = t.id AND b.white = e.seed AND b.forfeit IS NULL \
                       AND g.status IN ('challenged', 'active'))) \
                 ORDER BY t.id",
            )
            .fetch_all(p)
            .await?
            .iter()
            .map(|r| r.get::<i64, _>(0))
            .collect()
        }))
    }

    /// Whether game `id` is an attempt of a best-score competition whose deals are still
    /// in play: the competition not yet over (in sign-up, running or paused), or one of
    /// its attempts still under way. Every entrant plays the same deals, so an attempt's
    /// cards are then kept from everyone, its own player included (docs/tournaments.md).
    pub async fn deal_in_play(&self, id: i64) -> Result<bool, StoreError> {
        let n: i64 = on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT count(*) FROM tournament_boards b \
                 JOIN competitions c ON c.tournament_id = b.tournament_id \
                 JOIN tournaments t ON t.id = b.tournament_id \
                 WHERE b.game_id = $1 AND (t.state IN ('signup', 'running', 'paused') \
                  OR EXISTS (SELECT 1 FROM tournament_boards o JOIN games g ON g.id = o.game_id \
                      WHERE o.tournament_id = t.id AND o.forfeit IS NULL \
                      AND g.status IN ('challenged', 'active')))",
            )
            .bind(id)
            .fetch_one(p)
            .await?
            .get(0)
        });
        Ok(n > 0)
    }
}
