//! Committing an action: the write that records it, the game's deadlines after it, and
//! the outbox messages it stores.
//! Shared by every part that changes a game (moves, conditional moves, takebacks, the
//! deadline check); it depends on none of them.

use super::marks::DAY;
use super::messages::{Destination, Fail};
use crate::store::GameStatus;
use crate::store::NewAction;
use crate::store::NewDeadline;
use crate::store::StoredOutcome;
use crate::store::{Deadline, GameRow, NewMessage, Write};
use crate::variants::api::{to_stored_text, Action, GameRules, Note, Prompt, RuleError, Seat};

/// An action applied (and, once its write is done, committed): what happened, the game's
/// new state, and its deadlines now.
pub(super) struct Committed {
    /// What the game said happened.
    pub notes: Vec<Note>,
    /// The game after the action.
    pub rules: Box<dyn GameRules>,
    /// The deadlines now.
    pub deadlines: Vec<Deadline>,
    /// Who was awaited, for what, before the action (new secret prompts are sent
    /// privately).
    pub before: Vec<(Seat, Prompt)>,
    /// Whether the game was over before (so its end is announced once).
    pub was_over: bool,
}

/// The status of a game whose rules are `rules`: aborted, finished or under way.
fn status_of(rules: &dyn GameRules) -> GameStatus {
    if rules.aborted() {
        GameStatus::Aborted
    } else if rules.outcome().is_some() {
        GameStatus::Finished
    } else {
        GameStatus::Active
    }
}

/// How the game of `rules` ended, as the store keeps it, if it has.
fn stored_outcome(rules: &dyn GameRules) -> Result<Option<StoredOutcome>, RuleError> {
    rules
        .outcome()
        .map(|o| {
            let score = o
                .score
                .as_ref()
                .map(|s| to_stored_text("the score", s))
                .transpose()?;
            Ok(StoredOutcome {
                result: o.result.clone(),
                reason: o.reason.name().to_string(),
                score,
            })
        })
        .transpose()
}

/// Applies one action to `rules`, the state of `g`, and returns the write that commits it
/// with what happened and the new state.
#[allow(clippy::too_many_arguments)]
pub(super) fn prepare(
    g: &GameRow,
    mut rules: Box<dyn GameRules>,
    seat: Seat,
    author: &str,
    action: Action,
    at: i64,
    event_id: Option<String>,
) -> Result<(Write, Committed), Fail> {
    let awaited_before = rules.awaiting();
    let was_over = rules.is_over();
    let before: Vec<Seat> = movers(rules.as_ref());
    let notes = rules.apply(seat, &action)?;
    let status = status_of(rules.as_ref());
    let outcome = stored_outcome(rules.as_ref())?;
    let old = &g.deadlines;
    let turn = g.version + 1;
    let deadlines = if status == GameStatus::Active {
        movers(rules.as_ref())
            .into_iter()
            .map(|s| match old.iter().find(|d| d.seat == s.0) {
                Some(d) if before.contains(&s) && s != seat => NewDeadline::from(d),
                _ => NewDeadline {
                    seat: s.0,
                    turn,
                    due_at: at + time_for(g, rules.as_ref(), s),
                },
            })
            .collect()
    } else {
        Vec::new()
    };
    let w = Write {
        expected_version: g.version,
        action: Some(NewAction {
            seat: seat.0,
            author: author.to_string(),
            json: action.json().to_string(),
        }),
        at,
        event_id,
        status,
        snapshot: rules.snapshot_text()?,
        outcome,
        seats: None,
        deadlines,
        notice: None,
        messages: Vec::new(),
    };
    let deadlines = deadlines_of(g.id, &w.deadlines);
    Ok((
        w,
        Committed {
            notes,
            rules,
            deadlines,
            before: awaited_before,
            was_over,
        },
    ))
}

/// Game `g` as write `w` leaves it, before it is committed: for an answer computed in
/// the same transaction (an engine's move and its opponent's conditional answer, a
/// takeback proposed to the engine and its acceptance).
pub(super) fn row_after(g: &GameRow, w: &Write) -> GameRow {
    GameRow {
        version: g.version + 1,
        status: w.status,
        snapshot: w.snapshot.clone(),
        deadlines: deadlines_of(g.id, &w.deadlines),
        ..g.clone()
    }
}

/// The deadlines of game `id` that a write's `deadlines` set.
fn deadlines_of(id: i64, deadlines: &[NewDeadline]) -> Vec<Deadline> {
    deadlines
        .iter()
        .map(|d| Deadline {
            game_id: id,
            seat: d.seat,
            turn: d.turn,
            due_at: d.due_at,
        })
        .collect()
}

/// Seconds `seat` has to act in `g` from now: what the variant sets for the prompt, or
/// the game's days per move.
pub(super) fn time_for(g: &GameRow, rules: &dyn GameRules, seat: Seat) -> i64 {
    rules.time_limit(seat).unwrap_or(g.days_per_move * DAY)
}

/// The seats that hold the game up, each of which gets a deadline: every awaited seat
/// whose prompt is a turn; when only answers to an offer are awaited (the offer was made
/// to the side to move), the first awaited seat.
pub(super) fn movers(rules: &dyn GameRules) -> Vec<Seat> {
    let awaiting = rules.awaiting();
    let mut seats: Vec<Seat> = awaiting
        .iter()
        .filter(|(_, p)| p.turn)
        .map(|(s, _)| *s)
        .collect();
    if seats.is_empty() {
        seats.extend(awaiting.first().map(|(s, _)| *s));
    }
    seats.dedup();
    seats
}

/// An outbox message to `to`, which does not announce the end of a game.
pub(super) fn new_message(to: &Destination, text: &str, board: bool) -> NewMessage {
    NewMessage {
        destination: destination_key(to),
        text: text.to_string(),
        board,
        ending: false,
        claim_seat: None,
    }
}

/// How a destination is stored in the outbox: `channel:ID` or `dm:USER`.
pub(super) fn destination_key(to: &Destination) -> String {
    match to {
        Destination::Channel(c) => format!("channel:{c}"),
        Destination::Dm(u) => format!("dm:{u}"),
    }
}

/// How a destination is stored in the outbox for a notice that calls on nobody (a
/// player's vacation told to each of their games' threads, which would otherwise ping
/// everyone in every game): [`destination_key`] after `quiet:`.
pub(super) fn quiet_destination_key(to: &Destination) -> String {
    format!("{QUIET}{}", destination_key(to))
}

/// What [`quiet_destination_key`] puts first.
const QUIET: &str = "quiet:";

/// Whether an outbox message stored for `key` calls on its game's players (every
/// notice but those stored with [`quiet_destination_key`]).
pub(super) fn calls_on_players(key: &str) -> bool {
    !key.starts_with(QUIET)
}

/// The destination stored as `key`.
pub(super) fn destination_from_key(key: &str) -> Option<Destination> {
    let key = key.strip_prefix(QUIET).unwrap_or(key);
    if let Some(c) = key.strip_prefix("channel:") {
        Some(Destination::Channel(c.to_string()))
    } else {
        key.strip_prefix("dm:")
            .map(|u| Destination::Dm(u.to_string()))
    }
}
