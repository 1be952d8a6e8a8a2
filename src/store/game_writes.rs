//! Writing a change to a game: an insert into the `game_writes` view, whose triggers
//! (migration 0004, last rewritten by 0024) check the version, record the event's key in
//! `events` and write the game row, the action, the seats, the deadlines, the notice and
//! the outbox messages: all of it or, on any failure, none of it. [`Store::write`] writes
//! one change as one statement; [`Store::write_all`] writes several changes of one game,
//! each computed from the version the one before leaves, in one transaction (an action
//! and the answer it gets at once: the engine's move and its opponent's conditional
//! answer, a takeback proposed to the engine and its acceptance).

use super::pool::on_pool;
use super::{event_key, is_unique_violation, outbox, packing, recorded, Store, StoreError, Write};

/// The statement of one write; its parameters are [`Bound`]'s, in order.
const INSERT: &str =
    "INSERT INTO game_writes (game_id, expected_version, at, event_id, status, snapshot,
     result, reason, score, action_seat, action_author, action, seats, deadlines,
     notice_seat, notice_turn, notice_kind, messages, action_move)
 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)";

/// A [`Write`]'s values as [`INSERT`] binds them.
struct Bound<'w> {
    w: &'w Write,
    result: Option<&'w str>,
    reason: Option<&'w str>,
    score: Option<&'w str>,
    action_seat: Option<i64>,
    author: Option<&'w str>,
    action_move: Option<&'w str>,
    action: Option<&'w str>,
    seats: Option<String>,
    deadlines: String,
    notice_seat: Option<i64>,
    notice_turn: Option<i64>,
    notice_kind: Option<&'w str>,
    messages: String,
}

impl<'w> Bound<'w> {
    /// The values of `w`, or why it cannot be written.
    fn of(w: &'w Write) -> Result<Bound<'w>, StoreError> {
        // The log keeps an entry a line ([`super::game_log`]); JSON as serde writes it
        // never holds a line break, and a move's bare text none either ([`packing::pack`]).
        if w.action.as_ref().is_some_and(|a| a.json.contains('\n')) {
            return Err(StoreError::Refused(
                "an action's JSON holds a line break".into(),
            ));
        }
        let (result, reason, score) = match &w.outcome {
            Some(o) => (
                Some(o.result.as_str()),
                Some(o.reason.as_str()),
                o.score.as_deref(),
            ),
            None => (None, None, None),
        };
        let (action_seat, author, (action_move, action)) = match &w.action {
            Some(a) => (
                Some(a.seat as i64),
                Some(a.author.as_str()),
                packing::pack(&a.json),
            ),
            None => (None, None, (None, None)),
        };
        let seats = w.seats.as_ref().map(|seats| {
            serde_json::Value::from_iter(
                seats
                    .iter()
                    .map(|s| serde_json::json!([s.seat, s.user, s.role, i64::from(s.accepted)])),
            )
            .to_string()
        });
        let deadlines = serde_json::Value::from_iter(
            w.deadlines
                .iter()
                .map(|d| serde_json::json!([d.seat, d.turn, d.due_at])),
        )
        .to_string();
        let (notice_seat, notice_turn, notice_kind) = match &w.notice {
            Some(n) => (Some(n.seat as i64), Some(n.turn), Some(n.kind.as_str())),
            None => (None, None, None),
        };
        Ok(Bound {
            w,
            result,
            reason,
            score,
            action_seat,
            author,
            action_move,
            action,
            seats,
            deadlines,
            notice_seat,
            notice_turn,
            notice_kind,
            messages: outbox::messages_json(&w.messages),
        })
    }
}

/// Runs [`INSERT`] for game `$id` with the values of `$b` (a [`Bound`]) on `$on` (a pool
/// or a transaction), written once for both backends.
macro_rules! insert_write {
    ($id:expr, $b:expr, $on:expr) => {{
        let b = $b;
        sqlx::query(INSERT)
            .bind($id)
            .bind(b.w.expected_version)
            .bind(b.w.at)
            .bind(b.w.event_id.as_deref().map(event_key))
            .bind(b.w.status.as_str())
            .bind(&b.w.snapshot)
            .bind(b.result)
            .bind(b.reason)
            .bind(b.score)
            .bind(b.action_seat)
            .bind(b.author)
            .bind(b.action)
            .bind(&b.seats)
            .bind(&b.deadlines)
            .bind(b.notice_seat)
            .bind(b.notice_turn)
            .bind(b.notice_kind)
            .bind(&b.messages)
            .bind(b.action_move)
            .execute($on)
            .await
            .map(|r| r.rows_affected())
            .map_err(write_error)
    }};
}

impl Store {
    /// Writes a change to a game as one statement (see the module): all of it or none. A
    /// version other than `w.expected_version` is [`StoreError::Conflict`]; an event id
    /// (or notice) already recorded is [`StoreError::Duplicate`].
    pub async fn write(&self, game_id: i64, w: &Write) -> Result<(), StoreError> {
        let b = Bound::of(w)?;
        let written = on_pool!(self.pool, |p| insert_write!(game_id, &b, p));
        note_event(&written, w);
        written.map(|_| ())
    }

    /// Writes `writes` to one game, in order, in one transaction: each computed from the
    /// version the one before leaves (its `expected_version` one more), so that all of
    /// them are stored or, when any is refused ([`Store::write`]'s errors), none.
    pub async fn write_all(&self, game_id: i64, writes: &[Write]) -> Result<(), StoreError> {
        let bound = writes
            .iter()
            .map(Bound::of)
            .collect::<Result<Vec<_>, _>>()?;
        let written = on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let mut written = Ok(0);
            for b in &bound {
                written = insert_write!(game_id, b, &mut *tx);
                if written.is_err() {
                    break;
                }
            }
            if written.is_ok() {
                tx.commit().await?;
            }
            written
        });
        match &written {
            Ok(_) => writes.iter().for_each(|w| note_event(&written, w)),
            Err(_) => writes.iter().take(1).for_each(|w| note_event(&written, w)),
        }
        written.map(|_| ())
    }
}

/// Notes, for the running command, that the event of write `w` is stored: written now,
/// or found written by the event's earlier delivery.
fn note_event(written: &Result<u64, StoreError>, w: &Write) {
    match (written, &w.event_id) {
        (Ok(_), Some(_)) => recorded::note(),
        // The event's earlier delivery stored it (unless the duplicate was the
        // notice, which a write carrying one may also be refused for).
        (Err(StoreError::Duplicate), Some(_)) if w.notice.is_none() => recorded::note(),
        _ => {}
    }
}

/// The error of a write: the trigger's version check, a key seen before, or another
/// database failure.
fn write_error(e: sqlx::Error) -> StoreError {
    match &e {
        sqlx::Error::Database(d) if d.message().contains("postal: version conflict") => {
            StoreError::Conflict
        }
        sqlx::Error::Database(d) if d.message().contains("postal: duplicate event") => {
            StoreError::Duplicate
        }
        _ if is_unique_violation(&e) => StoreError::Duplicate,
        _ => StoreError::Db(e),
    }
}
