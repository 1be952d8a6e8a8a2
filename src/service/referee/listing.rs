//! `games`: a user's games of this server, live ones with whose turn it is and the
//! deadline, or the most recent finished ones; each line carried with where its game is
//! played ([`Listed`]), so an adapter may link it.

use super::text::{counters, status_line, turn_line};
use super::vacation::{away_note, stopped_by};
use super::{Fail, Incoming, Outbound, Reply, Service};
use crate::store::GameStatus;
use crate::store::{Deadline, GameRow};
use crate::variants::api::{GameRules, Placing};

/// How many finished games `games finished` lists, the most recent first.
pub const FINISHED_LISTED: i64 = 10;

use super::Listed;

impl Service {
    /// `games`: the user's pending and active games of this server (all of them in a
    /// private message or the console), whose turn and by when.
    pub(super) async fn list_games(&self, inc: &Incoming, r: &mut Reply) -> Result<(), Fail> {
        let games = self
            .store
            .games_of(&inc.user, &[GameStatus::Challenged, GameStatus::Active])
            .await?;
        let mut listed = Vec::new();
        for g in games.iter().filter(|g| here(g, inc)) {
            let rules = self.load(g)?;
            let against = self.against(g, rules.as_ref(), &inc.user)?;
            let line = if g.status == GameStatus::Challenged {
                format!("#{} {}{against}: challenge pending", g.id, rules.variant())
            } else {
                // Where a timeout must be claimed (Chess#), a deadline past says so.
                // A deadline a vacation stops has not run out, whatever the time says.
                let away = self.players_vacations(g).await?;
                let mut overdue = String::new();
                if !rules.timeout_is_automatic() {
                    for d in g.deadlines.iter().filter(|d| d.due_at <= inc.at) {
                        if stopped_by(&away, g, d).is_none() {
                            overdue.push_str(&format!(
                                " ({}'s time has run out: the opponent may {})",
                                super::marks::user_mark(g.user_at(d.seat).unwrap_or("?")),
                                super::marks::command_mark(&format!("claim {} time", g.id))
                            ));
                        }
                    }
                }
                // A deadline a running vacation stops is shown without its time, which
                // will not apply (it moves on when the vacation ends): the note says why.
                let shown: Vec<Deadline> = g
                    .deadlines
                    .iter()
                    .filter(|d| !stopped_by(&away, g, d).is_some_and(|v| v.ended_at.is_none()))
                    .cloned()
                    .collect();
                format!(
                    "#{} {}{against}: {}{}{overdue}{}",
                    g.id,
                    rules.variant(),
                    turn_line(g, rules.as_ref(), &shown),
                    counters(rules.as_ref()),
                    away_note(&away)
                )
            };
            listed.push(entry(g, line));
        }
        say_list(r, listed, "you have no games");
        Ok(())
    }

    /// `games finished`: the user's last [`FINISHED_LISTED`] finished or aborted games of
    /// this server (of anywhere in a private message or the console), the most recently
    /// ended first, each with its result.
    pub(super) async fn list_finished(&self, inc: &Incoming, r: &mut Reply) -> Result<(), Fail> {
        let games = self
            .store
            .ended_games_of(&inc.user, inc.server.as_deref(), FINISHED_LISTED)
            .await?;
        let mut listed = Vec::new();
        for g in &games {
            let rules = self.load(g)?;
            let against = self.against(g, rules.as_ref(), &inc.user)?;
            let line = format!(
                "#{} {}{against}: {}",
                g.id,
                rules.variant(),
                status_line(g, rules.as_ref())
            );
            listed.push(entry(g, line));
        }
        say_list(r, listed, "you have no finished games");
        Ok(())
    }

    /// ` vs bob`, ` with carol vs bob, dave` (a team game's partners play with the user),
    /// or nothing for a game of one.
    pub(super) fn against(
        &self,
        g: &GameRow,
        rules: &dyn GameRules,
        user: &str,
    ) -> Result<String, Fail> {
        let teams = self.registry.get(rules.variant())?.seats().placing == Placing::Teams;
        Ok(super::text::others_of(
            g,
            user,
            teams,
            "vs",
            &super::marks::user_mark,
        ))
    }
}

/// Whether `g` belongs where the user asked: in a server, a game of that server; in a
/// private message or the console, any game.
fn here(g: &GameRow, inc: &Incoming) -> bool {
    inc.server.is_none() || g.server == inc.server
}

fn entry(g: &GameRow, line: String) -> Listed {
    Listed {
        game: g.id,
        line,
        server: g.server.clone(),
        channel: g.channel.clone(),
    }
}

/// Answers with the lines of `listed` (joined by ` | ` in the text), or `none`.
fn say_list(r: &mut Reply, listed: Vec<Listed>, none: &str) {
    let text = if listed.is_empty() {
        none.to_string()
    } else {
        listed
            .iter()
            .map(|l| l.line.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    r.out.push(Outbound {
        to: r.origin.clone(),
        text,
        listing: listed,
        ..Outbound::default()
    });
}
