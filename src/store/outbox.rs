//! The outbox of the deadline check (migration 0004): each reminder, "time has run out"
//! and timeout message is stored in the same transaction as the notice or the game's
//! change that caused it, and stays until its deliverer marks it delivered. A process
//! that stops between the two finds it undelivered at the next start and sends it then.
//! Processes sharing a database claim messages before delivering them (migration 0007),
//! so each message has one deliverer at a time. A message that announces the end of its
//! game says so (migration 0009), so that whoever delivers it, after any restart, treats
//! it as the end it is. A tournament's round is announced from it too, queued in the
//! transaction that starts the round (migration 0020): each game's announcement marked
//! as opening the game, and the standings table posted with it.

use super::{inserted_once, on_pool, Backend, Store, StoreError};
use sqlx::Row;

/// Puts `messages` (`&[NewMessage]`) about game `game_id` (`Option<i64>`) in the outbox,
/// in transaction `tx`, as made at `at`: on either backend, inside [`on_pool`].
macro_rules! queue_messages {
    ($tx:ident, $game_id:expr, $messages:expr, $at:expr) => {
        for m in $messages {
            sqlx::query(
                "INSERT INTO outbox (game_id, destination, text, board, ending, created_at, claim_seat) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind($game_id)
            .bind(&m.destination)
            .bind(&m.text)
            .bind(i64::from(m.board))
            .bind(i64::from(m.ending))
            .bind($at)
            .bind(m.claim_seat.map(i64::from))
            .execute(&mut *$tx)
            .await?;
        }
    };
}
pub(super) use queue_messages;

/// A new claimer's name: 16 hex digits from the operating system's entropy (the process
/// id and the time if it gives none), unique among the processes sharing a database.
pub(super) fn new_claimer() -> String {
    let mut bytes = [0u8; 8];
    if getrandom::getrandom(&mut bytes).is_err() {
        let fallback = (u64::from(std::process::id()) << 32) ^ unix_now() as u64;
        bytes = fallback.to_le_bytes();
    }
    format!("{:016x}", u64::from_le_bytes(bytes))
}

/// Seconds since the epoch by the system clock, the clock of `postal run`.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// A message to put in the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMessage {
    /// Where it goes, as the service encodes it (`channel:ID`, `dm:USER`).
    pub destination: String,
    /// The text.
    pub text: String,
    /// Whether the game's public board, as stored, goes with it.
    pub board: bool,
    /// Whether it announces the end of its game (a timeout's message to the game's place).
    pub ending: bool,
    /// The seat whose time has run out, on the notice that the others may claim the win
    /// (migration 0028): its deliverer offers them the Claim button while the game is live.
    /// Stored by [`Store::record_notice`]; the game's own writes queue none.
    pub claim_seat: Option<u8>,
}

/// A message in the outbox, not yet delivered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedMessage {
    /// The outbox id, which [`Store::mark_delivered`] takes.
    pub id: i64,
    /// The game it is about.
    pub game_id: Option<i64>,
    /// Where it goes (`channel:ID`, `dm:USER`).
    pub destination: String,
    /// The text.
    pub text: String,
    /// Whether the game's public board goes with it.
    pub board: bool,
    /// Whether it announces the end of its game.
    pub ending: bool,
    /// Whether it announces its game, started by the referee (a tournament's round,
    /// migration 0020): the adapter opens the game's thread.
    pub started: bool,
    /// The standings table posted with it (JSON), if any.
    pub standings: Option<String>,
    /// Whether it reports its game's engine analysis (migration 0025): its deliverer
    /// attaches the analysis's graph.
    pub analysis: bool,
    /// Whether it asks for its game's thread to be named again, with no text (migration
    /// 0026): a player of the game was forgotten.
    pub retitle: bool,
    /// The seat whose time has run out, on the notice that the others may claim the win
    /// ([`NewMessage::claim_seat`]).
    pub claim_seat: Option<u8>,
    /// Where an analysis stands, on a message that updates its progress message (JSON,
    /// migration 0030): its deliverer edits the message it posted before for the game.
    pub progress: Option<String>,
}

impl Store {
    /// Records a notice (a reminder, or "time has run out") once, with the messages it
    /// sends, in one transaction; `false`, and nothing written, if it was already
    /// recorded.
    pub async fn record_notice(
        &self,
        game_id: i64,
        (seat, turn, kind): (u8, i64, &str),
        at: i64,
        messages: &[NewMessage],
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let inserted = sqlx::query(
                "INSERT INTO notices (game_id, seat, turn, kind, at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(game_id)
            .bind(seat as i64)
            .bind(turn)
            .bind(kind)
            .bind(at)
            .execute(&mut *tx)
            .await;
            if !inserted_once(inserted)? {
                return Ok(false);
            }
            queue_messages!(tx, Some(game_id), messages, at);
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Claims the outbox's undelivered messages for this process for `lease_seconds` and
    /// returns them, oldest first: those nobody holds, those this process holds already
    /// (its claim is renewed), and those whose holder's claim has run out (a process that
    /// died holding them). Two processes on one database never hold one message at once,
    /// so each is handed to one deliverer; a holder that stops cleanly releases what it
    /// holds ([`Store::close`]). Claims run on the system clock, whatever clock the
    /// deadlines follow.
    pub async fn claim_undelivered(
        &self,
        lease_seconds: i64,
    ) -> Result<Vec<QueuedMessage>, StoreError> {
        let now = unix_now();
        let sql = match self.backend() {
            Backend::Sqlite => {
                "UPDATE outbox SET claimed_by = $1, claimed_until = $2 + $3
                 WHERE delivered_at IS NULL
                   AND (claimed_by IS NULL OR claimed_by = $1 OR claimed_until <= $2)
                 RETURNING id, game_id, destination, text, board, ending, started, standings, analysis, retitle, claim_seat, progress"
            }
            // Rows another process is claiming at this moment are skipped, not waited
            // for: no claimer waits on another, and none can deadlock with another.
            Backend::Postgres => {
                "UPDATE outbox SET claimed_by = $1, claimed_until = $2 + $3
                 WHERE id IN (SELECT id FROM outbox WHERE delivered_at IS NULL
                   AND (claimed_by IS NULL OR claimed_by = $1 OR claimed_until <= $2)
                   FOR UPDATE SKIP LOCKED)
                 RETURNING id, game_id, destination, text, board, ending, started, standings, analysis, retitle, claim_seat, progress"
            }
        };
        let mut rows = on_pool!(self.pool, |p| sqlx::query(sql)
            .bind(&*self.claimer)
            .bind(now)
            .bind(lease_seconds.max(1))
            .fetch_all(p)
            .await?
            .iter()
            .map(|r| QueuedMessage {
                id: r.get(0),
                game_id: r.get(1),
                destination: r.get(2),
                text: r.get(3),
                board: r.get::<i64, _>(4) != 0,
                ending: r.get::<i64, _>(5) != 0,
                started: r.get::<i64, _>(6) != 0,
                standings: r.get(7),
                analysis: r.get::<i64, _>(8) != 0,
                retitle: r.get::<i64, _>(9) != 0,
                claim_seat: r
                    .get::<Option<i64>, _>(10)
                    .and_then(|s| u8::try_from(s).ok()),
                progress: r.get(11),
            })
            .collect::<Vec<_>>());
        rows.sort_by_key(|q| q.id);
        Ok(rows)
    }

    /// Gives back the undelivered messages this process holds, for another to deliver.
    pub(super) async fn release_claims(&self) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| sqlx::query(
            "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
             WHERE claimed_by = $1 AND delivered_at IS NULL",
        )
        .bind(&*self.claimer)
        .execute(p)
        .await?
        .rows_affected());
        Ok(())
    }

    /// Withdraws game `game_id`'s outbox messages not yet delivered whose text is `text`:
    /// marks them delivered at `at` without their being delivered, so that a notice that
    /// has stopped being true by the time it would go out (a vacation already over) is
    /// never sent. Returns how many were withdrawn. A message a deliverer holds already
    /// may still be delivered by it.
    pub async fn withdraw_undelivered(
        &self,
        game_id: i64,
        text: &str,
        at: i64,
    ) -> Result<u64, StoreError> {
        Ok(on_pool!(self.pool, |p| sqlx::query(
            "UPDATE outbox SET delivered_at = $1 \
             WHERE game_id = $2 AND text = $3 AND delivered_at IS NULL"
        )
        .bind(at)
        .bind(game_id)
        .bind(text)
        .execute(p)
        .await?
        .rows_affected()))
    }

    /// Marks an outbox message delivered (at `at`); marking it again changes nothing.
    pub async fn mark_delivered(&self, id: i64, at: i64) -> Result<(), StoreError> {
        on_pool!(self.pool, |p| sqlx::query(
            "UPDATE outbox SET delivered_at = $1 WHERE id = $2 AND delivered_at IS NULL"
        )
        .bind(at)
        .bind(id)
        .execute(p)
        .await?
        .rows_affected());
        Ok(())
    }
}
