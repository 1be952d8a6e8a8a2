//! Engine analyses of finished games (migration 0025): a request stored before it is
//! acknowledged, claimed by one process at a time as the outbox is (`claimed_by` until
//! `claimed_until`; on PostgreSQL `FOR UPDATE SKIP LOCKED`, so two processes never take
//! one), each position's evaluation stored as it is made under the claim, renewed at
//! each, and the end written with its report in the outbox in one transaction. A
//! process that dies holding an analysis loses its claim when the lease runs out, and
//! whoever claims it next goes on from the positions stored.

use super::analysis_posts::{queue_progress, ProgressUpdate};
use super::outbox::{unix_now, NewMessage};
use super::{on_pool, Backend, Store, StoreError};
use sqlx::Row;

/// Where an analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisStatus {
    /// Waiting, or being made by the process that holds it.
    Queued,
    /// Made: its positions are all stored.
    Done,
    /// Given up (the engine failed every retry); asking again queues it again.
    Failed,
}

impl AnalysisStatus {
    fn of(text: &str) -> AnalysisStatus {
        match text {
            "done" => AnalysisStatus::Done,
            "failed" => AnalysisStatus::Failed,
            _ => AnalysisStatus::Queued,
        }
    }
}

/// An analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRow {
    /// The game.
    pub game_id: i64,
    /// Where it stands.
    pub status: AnalysisStatus,
    /// Where its report goes (the service's destination key).
    pub destination: String,
    /// Why it failed, for a failed one.
    pub error: Option<String>,
    /// How many positions are evaluated so far.
    pub positions: i64,
}

/// One position's stored evaluation, from White's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPosition {
    /// Plies into the game (0, the start).
    pub ply: i64,
    /// Whether `value` is a mate distance (else centipawns).
    pub mate: bool,
    /// Centipawns, or moves to mate (negative: Black mates).
    pub value: i64,
    /// The engine's line from it, UCI moves separated by spaces.
    pub line: String,
}

const ROW: &str = "SELECT a.game_id, a.status, a.destination, a.error,
    (SELECT COUNT(*) FROM analysis_positions p WHERE p.game_id = a.game_id)
    FROM analyses a";

fn row_of(r: &impl RowLike) -> AnalysisRow {
    AnalysisRow {
        game_id: r.int(0),
        status: AnalysisStatus::of(&r.text(1)),
        destination: r.text(2),
        error: r.opt_text(3),
        positions: r.int(4),
    }
}

/// The columns read from either backend's row.
trait RowLike {
    fn int(&self, i: usize) -> i64;
    fn text(&self, i: usize) -> String;
    fn opt_text(&self, i: usize) -> Option<String>;
}

macro_rules! row_like {
    ($t:ty) => {
        impl RowLike for $t {
            fn int(&self, i: usize) -> i64 {
                self.get(i)
            }
            fn text(&self, i: usize) -> String {
                self.get(i)
            }
            fn opt_text(&self, i: usize) -> Option<String> {
                self.get(i)
            }
        }
    };
}
row_like!(sqlx::sqlite::SqliteRow);
row_like!(sqlx::postgres::PgRow);

impl Store {
    /// Stores a request for game `game_id`'s analysis, its report for `destination`,
    /// unless one is stored already; a failed one is queued again. Returns the analysis
    /// as it now stands (an analysis done stays done).
    pub async fn request_analysis(
        &self,
        game_id: i64,
        destination: &str,
        at: i64,
    ) -> Result<AnalysisRow, StoreError> {
        on_pool!(self.pool, |p| {
            sqlx::query(
                "INSERT INTO analyses (game_id, status, destination, requested_at)
                 VALUES ($1, 'queued', $2, $3) ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(game_id)
            .bind(destination)
            .bind(at)
            .execute(p)
            .await?;
            sqlx::query(
                "UPDATE analyses SET status = 'queued', error = NULL, requested_at = $2,
                 destination = $3, claimed_by = NULL, claimed_until = NULL
                 WHERE game_id = $1 AND status = 'failed'",
            )
            .bind(game_id)
            .bind(at)
            .bind(destination)
            .execute(p)
            .await?;
        });
        self.analysis(game_id)
            .await?
            .ok_or_else(|| StoreError::Refused("the analysis was not stored".into()))
    }

    /// Game `game_id`'s analysis, if one was asked for.
    pub async fn analysis(&self, game_id: i64) -> Result<Option<AnalysisRow>, StoreError> {
        let sql = format!("{ROW} WHERE a.game_id = $1");
        Ok(on_pool!(self.pool, |p| sqlx::query(&sql)
            .bind(game_id)
            .fetch_optional(p)
            .await?
            .map(|r| row_of(&r))))
    }

    /// Claims the oldest queued analysis nobody holds (or whose holder's claim ran out,
    /// or this process's own) for `lease_seconds`, and returns it.
    pub async fn claim_analysis(
        &self,
        lease_seconds: i64,
    ) -> Result<Option<AnalysisRow>, StoreError> {
        let now = unix_now();
        let lock = match self.backend() {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        };
        let sql = format!(
            "UPDATE analyses SET claimed_by = $1, claimed_until = $2 + $3
             WHERE game_id = (SELECT game_id FROM analyses WHERE status = 'queued'
               AND (claimed_by IS NULL OR claimed_by = $1 OR claimed_until <= $2)
               ORDER BY requested_at, game_id LIMIT 1{lock})
             RETURNING game_id"
        );
        let id: Option<i64> = on_pool!(self.pool, |p| sqlx::query(&sql)
            .bind(&*self.claimer)
            .bind(now)
            .bind(lease_seconds.max(1))
            .fetch_optional(p)
            .await?
            .map(|r| r.get(0)));
        match id {
            Some(id) => self.analysis(id).await,
            None => Ok(None),
        }
    }

    /// The evaluations stored for game `game_id`, by ply.
    pub async fn analysis_positions(
        &self,
        game_id: i64,
    ) -> Result<Vec<StoredPosition>, StoreError> {
        Ok(on_pool!(self.pool, |p| sqlx::query(
            "SELECT ply, kind, value, line FROM analysis_positions WHERE game_id = $1 ORDER BY ply"
        )
        .bind(game_id)
        .fetch_all(p)
        .await?
        .iter()
        .map(|r| StoredPosition {
            ply: r.get(0),
            mate: r.get::<String, _>(1) == "mate",
            value: r.get(2),
            line: r.get(3),
        })
        .collect()))
    }

    /// Stores one position's evaluation of an analysis this process holds, and renews
    /// the claim for `lease_seconds`; `false`, and nothing written, when the claim was
    /// lost (another process took the analysis after this one's lease ran out).
    pub async fn save_position(
        &self,
        game_id: i64,
        position: &StoredPosition,
        lease_seconds: i64,
    ) -> Result<bool, StoreError> {
        let now = unix_now();
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let held = sqlx::query(
                "UPDATE analyses SET claimed_until = $3 + $4
                 WHERE game_id = $1 AND claimed_by = $2 AND status = 'queued'",
            )
            .bind(game_id)
            .bind(&*self.claimer)
            .bind(now)
            .bind(lease_seconds.max(1))
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if held == 0 {
                return Ok(false);
            }
            sqlx::query(
                "INSERT INTO analysis_positions (game_id, ply, kind, value, line)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, ply) DO NOTHING",
            )
            .bind(game_id)
            .bind(position.ply)
            .bind(if position.mate { "mate" } else { "cp" })
            .bind(position.value)
            .bind(&position.line)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Ends an analysis this process holds, done or failed (`error`), with the last
    /// update of its progress message and the messages that report it queued in the
    /// outbox (each marked as an analysis's report), in one transaction; `false`, and
    /// nothing written, when the claim was lost.
    pub async fn finish_analysis(
        &self,
        game_id: i64,
        error: Option<&str>,
        (progress, messages): (Option<&ProgressUpdate>, &[NewMessage]),
        at: i64,
    ) -> Result<bool, StoreError> {
        let status = if error.is_some() { "failed" } else { "done" };
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let held = sqlx::query(
                "UPDATE analyses SET status = $3, error = $4, finished_at = $5,
                 claimed_by = NULL, claimed_until = NULL
                 WHERE game_id = $1 AND claimed_by = $2 AND status = 'queued'",
            )
            .bind(game_id)
            .bind(&*self.claimer)
            .bind(status)
            .bind(error)
            .bind(at)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if held == 0 {
                return Ok(false);
            }
            if let Some(update) = progress {
                queue_progress!(tx, game_id, update, at);
            }
            for m in messages {
                sqlx::query(
                    "INSERT INTO outbox (game_id, destination, text, board, ending, created_at, analysis)
                     VALUES ($1, $2, $3, 0, 0, $4, $5)",
                )
                .bind(game_id)
                .bind(&m.destination)
                .bind(&m.text)
                .bind(at)
                .bind(i64::from(error.is_none()))
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Gives back the analyses this process holds, for another to go on with.
    pub(super) async fn release_analyses(&self) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| sqlx::query(
            "UPDATE analyses SET claimed_by = NULL, claimed_until = NULL
             WHERE claimed_by = $1 AND status = 'queued'",
        )
        .bind(&*self.claimer)
        .execute(p)
        .await?
        .rows_affected());
        Ok(())
    }
}
