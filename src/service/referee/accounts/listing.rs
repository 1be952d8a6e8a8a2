//! `games`: a user's games of this server, live ones with whose turn it is and the
//! deadline, or the most recent finished ones; the list also as a card ([`Card::Games`]):
//! each game with where it is played, whether it awaits the player and its deadline, so an
//! adapter may order it, link it and show its time its own way.

use super::parts::Accounts;
use super::text::{awaited_users, counters, status_line, turn_line};
use super::vacation::{away_note, stopped_by};
use super::{Card, Fail, GameList, Incoming, ListedGame, Outbound, Reply};
use crate::store::GameStatus;
use crate::store::{Deadline, GameRow};
use crate::variants::api::{GameRules, Placing};

/// How many finished games `games finished` lists, the most recent first.
pub const FINISHED_LISTED: i64 = 10;

impl Accounts<'_> {
    /// `games`: the user's pending and active games of this server (all of them in a
    /// private message or the console), whose turn and by when.
    pub(crate) async fn list_games(&self, inc: &Incoming, r: &mut Reply) -> Result<(), Fail> {
        let games = self
            .store
            .games_of(&inc.user, &[GameStatus::Challenged, GameStatus::Active])
            .await?;
        let mut listed = Vec::new();
        for g in games.iter().filter(|g| here(g, inc)) {
            let rules = self.load(g)?;
            let against = self.against(g, rules.as_ref(), &inc.user)?;
            let mut item = self.item(g, against);
            if g.status == GameStatus::Challenged {
                item.state = "challenge pending".to_string();
                item.pending = true;
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
                item.state = format!(
                    "{}{}{overdue}{}",
                    turn_line(g, rules.as_ref(), &shown),
                    counters(rules.as_ref()),
                    away_note(&away)
                );
                item.turn = awaited_users(g, rules.as_ref()).contains(&inc.user);
                item.due = shown.iter().map(|d| d.due_at).min();
            }
            listed.push((line(g, &item), item));
        }
        say_list(r, listed, false, "you have no games");
        Ok(())
    }

    /// `games finished`: the user's last [`FINISHED_LISTED`] finished or aborted games of
    /// this server (of anywhere in a private message or the console), the most recently
    /// ended first, each with its result.
    pub(crate) async fn list_finished(&self, inc: &Incoming, r: &mut Reply) -> Result<(), Fail> {
        let games = self
            .store
            .ended_games_of(&inc.user, inc.server.as_deref(), FINISHED_LISTED)
            .await?;
        let mut listed = Vec::new();
        for g in &games {
            let rules = self.load(g)?;
            let against = self.against(g, rules.as_ref(), &inc.user)?;
            let mut item = self.item(g, against);
            item.state = status_line(g, rules.as_ref());
            listed.push((line(g, &item), item));
        }
        say_list(r, listed, true, "you have no finished games");
        Ok(())
    }

    /// Game `g` as a list shows it, `against` the other players: its state to be said.
    fn item(&self, g: &GameRow, against: String) -> ListedGame {
        ListedGame {
            game: g.id,
            variant: self.display_name(&g.variant),
            against,
            state: String::new(),
            pending: false,
            turn: false,
            due: None,
            server: g.server.clone(),
            channel: g.channel.clone(),
        }
    }

    /// ` vs bob`, ` with carol vs bob, dave` (a team game's partners play with the user),
    /// or nothing for a game of one.
    pub(crate) fn against(
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

/// Game `g`'s line in the text: `#12 standard vs @bob: ...` (the variant by its id, as
/// typed).
fn line(g: &GameRow, item: &ListedGame) -> String {
    format!("#{} {}{}: {}", g.id, g.variant, item.against, item.state)
}

/// Answers with the lines of `listed` (joined by ` | ` in the text), or `none`; the games
/// as a card ([`Card::Games`]).
fn say_list(r: &mut Reply, listed: Vec<(String, ListedGame)>, finished: bool, none: &str) {
    let (lines, games): (Vec<String>, Vec<ListedGame>) = listed.into_iter().unzip();
    let text = match lines.is_empty() {
        true => none.to_string(),
        false => lines.join(" | "),
    };
    r.out.push(Outbound {
        to: r.origin.clone(),
        text,
        card: Some(Card::Games(GameList { finished, games })),
        ..Outbound::default()
    });
}
