//! A tournament's round announced from the outbox: its messages (the standings, each
//! game's opening, a bye, a forfeit, the final standings) are built before the round is
//! written and queued in the same transaction
//! ([`crate::store::Store::start_rounds_announced`]), so that they exist once the round
//! has started, whichever path started it (a command, or the deadline task's sweep) and
//! whatever becomes of the process afterwards. At delivery
//! ([`Service::claim_undelivered`]) a game's announcement is written out from the game
//! as stored, marked [`Outbound::started`] (an adapter that gives games threads opens
//! its thread) and calling on its players, and the standings carry their table.
//!
//! A command that queued such messages wakes the deadline task
//! ([`Service::outbox_news`]), which delivers them at once instead of at its next
//! interval.

use super::commit::destination_key;
use super::marks::user_mark;
use super::messages::{Destination, Outbound, Reply};
use super::parts::Events;
use crate::render::table::Table;
use crate::store::{GameRow, NewBoard, RoundMessage};
use std::sync::atomic::Ordering;

/// Where a tournament's messages go: its channel, or (a tournament made without one)
/// where the command came from.
pub(crate) fn tournament_place(channel: Option<&String>, r: &Reply) -> Destination {
    match channel {
        Some(c) => Destination::Channel(c.clone()),
        None => r.origin.clone(),
    }
}

/// The standings `table` to post at `to` with `text`, as queued.
pub(crate) fn standings_message(to: &Destination, text: String, table: &Table) -> RoundMessage {
    RoundMessage {
        board: None,
        destination: destination_key(to),
        text,
        standings: serde_json::to_string(table).ok(),
    }
}

/// The announcements of `boards` (a round's, or every round's when they start together),
/// to `to`, headed by the tournament `name`, the round and the board: each game's (its
/// text the heading; the rest is written at delivery from the game as stored), each
/// bye and each board forfeited before it is played. `users` are the players by number,
/// as the boards name them.
pub(crate) fn board_messages(
    to: &Destination,
    name: &str,
    boards: &[(i64, NewBoard)],
    users: &[String],
) -> Vec<RoundMessage> {
    let user = |p: i64| user_mark(users.get(p as usize).map_or("?", String::as_str));
    boards
        .iter()
        .enumerate()
        .map(|(i, (round, b))| {
            let heading = format!("{name}, round {round}, board {}: ", b.board);
            let (board, text) = match (&b.game, b.black) {
                (Some(_), _) => (Some(i), heading),
                (None, None) => (None, format!("{heading}{} has the bye", user(b.white))),
                (None, Some(black)) => {
                    let withdrew = match b.forfeit.as_deref() {
                        Some("white") => user(black),
                        Some("black") => user(b.white),
                        _ => "both".to_string(),
                    };
                    let text = format!(
                        "{heading}{} against {} is forfeited ({withdrew} withdrew)",
                        user(b.white),
                        user(black)
                    );
                    (None, text)
                }
            };
            RoundMessage {
                board,
                destination: destination_key(to),
                text,
                standings: None,
            }
        })
        .collect()
}

impl Events<'_> {
    /// What [`Service::outbox_news`](super::Service::outbox_news) does.
    pub(crate) async fn outbox_news(&self) {
        self.outbox_news.notify.notified().await;
        self.outbox_news.queued.store(false, Ordering::SeqCst);
    }

    /// What [`Service::delivering`](super::Service::delivering) does.
    pub(crate) async fn delivering<F: std::future::Future>(&self, work: F) -> F::Output {
        self.outbox_news.holding(work).await
    }

    /// What [`Service::take_outbox_news`](super::Service::take_outbox_news) does.
    pub(crate) fn take_outbox_news(&self) -> bool {
        self.outbox_news.queued.swap(false, Ordering::SeqCst)
    }

    /// The announcement of game `g`, started by the referee, queued as `heading` to
    /// `to`: its players, its variant and whose turn it is, with its board, calling on
    /// its players, and marked as opening the game ([`Outbound::started`]). `None` for a
    /// game that cannot be read.
    pub(crate) fn opening_from_outbox(
        &self,
        g: &GameRow,
        heading: &str,
        to: &Destination,
    ) -> Option<Outbound> {
        let mut r = Reply {
            out: Vec::new(),
            origin: to.clone(),
            plain: Vec::new(),
        };
        self.seating()
            .announce_opening(g, None, heading, &mut r)
            .ok()?;
        let mut o = r.out.into_iter().next()?;
        o.to = to.clone();
        o.started = true;
        Some(o)
    }
}

/// The standings table queued with an outbox message, if it carries one.
pub(crate) fn queued_table(json: Option<&str>) -> Option<Table> {
    json.and_then(|j| serde_json::from_str(j).ok())
}

/// A queued standings table (its players written as their marks, [`super::marks::user_mark`])
/// with each player written by `name`, and the message's text written again from it (the
/// title, then the table as monospaced text), as it was queued: the padding fits the
/// names. A table queued by an earlier release, with names in place of marks, is as it was.
pub(crate) fn named_standings(mut table: Table, name: impl Fn(&str) -> String) -> (Table, String) {
    for cell in table.rows.iter_mut().flatten() {
        *cell = super::marks::render_users(cell, |key, _| name(key));
    }
    let text = format!("{}\n```\n{}```", table.title, table_text(&table));
    (table, text)
}

/// A table as monospaced text: columns padded to their widest cell (an adapter shows a
/// table it lays out its own way with it).
pub fn table_text(table: &crate::render::table::Table) -> String {
    let t = crate::tournament::TextTable {
        header: table.header.clone(),
        rows: table.rows.clone(),
    };
    t.to_text()
}
