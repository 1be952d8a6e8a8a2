//! Which game a command is about: the one named by its id, or the user's one game here;
//! and loading a stored game through the registry.

use super::core::Core;
use super::marks::{command_mark, user_mark};
use super::{Button, Choice, Fail, Incoming, Place};
use crate::store::GameStatus;
use crate::store::{ActionRow, GameRow, InPlay, StoreError};
use crate::variants::api::{
    Action, GameCommand, GameRules, Placing, Reading, RefusalKind, RuleError, Seat, Viewer,
};
use crate::variants::Registry;

/// Loads a stored game from its snapshot through `registry`.
pub fn load_with(registry: &Registry, g: &GameRow) -> Result<Box<dyn GameRules>, RuleError> {
    let damaged = |e: String| {
        RuleError::of(
            RefusalKind::Unknown,
            format!("game #{} is damaged: {e}", g.id),
        )
    };
    registry
        .load_text(&g.variant, &g.snapshot)
        .map_err(|e| damaged(e.text))
}

/// Stored game `g` whole, for what shows every move of it (a PGN, an animation, the
/// numbered record): its action log `log` replayed from its start through `registry`, since
/// the snapshot a move loads holds only what the next move needs (a chess game's, no
/// moves). The replay is used only where it ends in the stored snapshot (compared as
/// JSON values): a game whose log does not replay (damaged), or replays to another state
/// (a game stored before its starting state was kept, which the snapshot of its own
/// variant still holds whole), is loaded from its snapshot instead.
pub fn whole_with(
    registry: &Registry,
    g: &GameRow,
    log: &[ActionRow],
) -> Result<Box<dyn GameRules>, RuleError> {
    let stored: Option<serde_json::Value> = serde_json::from_str(&g.snapshot).ok();
    crate::service::replay::read_log(g.id, log)
        .ok()
        .and_then(|actions| crate::service::replay::replay(registry, g, &actions).ok())
        .filter(|game| stored.is_some() && game.snapshot().ok() == stored)
        .map_or_else(|| load_with(registry, g), Ok)
}

/// That game `g` is over (`how` it ended), that `typed` (if given) was not played (as a
/// command, so that each reader sees it in the form it writes commands), and what the
/// user may do now.
fn over_words(g: &GameRow, how: String, typed: Option<&str>) -> String {
    let not_played = typed.map_or_else(String::new, |t| {
        format!(
            ", so {} was not played",
            command_mark(&t.trim().chars().take(30).collect::<String>())
        )
    });
    let c = command_mark;
    format!(
        "game #{} is over ({how}){not_played}. Start another with {}, see yours with {}, look back with {} or {}; {} lists every command",
        g.id,
        c("challenge"),
        c("games"),
        c(&format!("board {}", g.id)),
        c(&format!("pgn {}", g.id)),
        c("help"),
    )
}

/// The games' ids as players write them: `#3, #7`.
pub(in crate::service::referee) fn id_list(games: &[GameRow]) -> String {
    games
        .iter()
        .map(|g| format!("#{}", g.id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `g` was made in the channel of `place` (never true in a private message):
/// where an open challenge may be found and accepted.
pub(in crate::service::referee) fn is_in_channel(g: &GameRow, place: &Place) -> bool {
    matches!(place, Place::Channel(c) if g.channel.as_deref() == Some(c.as_str()))
}

/// Whether `g` lives in `place`: its channel, or anywhere when the user writes privately.
pub(in crate::service::referee) fn is_in(g: &GameRow, place: &Place) -> bool {
    match place {
        Place::Channel(c) => g.channel.as_deref() == Some(c),
        Place::Dm => true,
    }
}

/// Whether someone not seated in `g` may read it from where `inc` was typed: a game made
/// in private never; another game from a channel of its own server (a game of the
/// console, which has no servers, from the console), or, for a game stored before servers
/// were recorded, from its own channel. Never from a private message.
pub(in crate::service::referee) fn is_readable_by_onlooker(g: &GameRow, inc: &Incoming) -> bool {
    let Place::Channel(here) = &inc.place else {
        return false;
    };
    match (&g.channel, &g.server, &inc.server) {
        (None, _, _) => false,
        (Some(_), Some(theirs), Some(ours)) => theirs == ours,
        (Some(_), None, None) => true,
        (Some(channel), None, Some(_)) => channel == here,
        (Some(_), Some(_), None) => false,
    }
}

/// The seat of `user` in `g`, or the refusal that it is not their game.
pub(in crate::service::referee) fn player_seat(g: &GameRow, user: &str) -> Result<Seat, Fail> {
    g.seat_of(user).map(Seat).ok_or_else(|| {
        Fail::of(
            RefusalKind::NotYourGame,
            format!("game #{} is not your game", g.id),
        )
    })
}

impl Core {
    /// Whether `text` reads as a move of the game `rules`, legal or not: read by the
    /// variant's `move` command (a variant without one has no bare moves) as the seat
    /// `mine` and as every seat awaited, so that whose turn it is does not decide whether
    /// a move is a move, into anything but a [`RefusalKind::Syntax`] (or
    /// [`RefusalKind::NotYourTurn`]) refusal. Decided by the rules, never by the words.
    pub(in crate::service::referee) fn reads_as_move(
        &self,
        rules: &dyn GameRules,
        mine: Option<Seat>,
        text: &str,
    ) -> bool {
        let declared = self
            .registry
            .get(rules.variant())
            .is_ok_and(|spec| spec.commands().iter().any(|c| c.is_named("move")));
        if !declared {
            return false;
        }
        let gc = GameCommand::new("move", text);
        let awaited = rules.awaiting().into_iter().map(|(s, _)| s);
        mine.into_iter()
            .chain(awaited)
            .any(|seat| match rules.read(seat, &gc, self.env()) {
                Ok(_) => true,
                Err(e) => !matches!(e.kind, RefusalKind::Syntax | RefusalKind::NotYourTurn),
            })
    }

    /// Takes game `id`'s lock and reads the game under it (with its lines and players'
    /// vacations) for an action of `user`'s: the held lock, the game and the user's seat;
    /// refused when there is no such game, it is not theirs, or it is not under way.
    pub(in crate::service::referee) async fn lock_active(
        &self,
        id: i64,
        user: &str,
    ) -> Result<(tokio::sync::OwnedMutexGuard<()>, InPlay, Seat), Fail> {
        let guard = self.lock_for(id).lock_owned().await;
        let in_play = self
            .store
            .game_in_play(id)
            .await?
            .ok_or_else(|| Fail::of(RefusalKind::Unknown, format!("there is no game #{id}")))?;
        let seat = player_seat(&in_play.game, user)?;
        if in_play.game.status != GameStatus::Active {
            return Err(Fail::of(
                RefusalKind::Over,
                format!("game #{id} is {}", in_play.game.status),
            ));
        }
        Ok((guard, in_play, seat))
    }

    /// Loads a stored game.
    pub(in crate::service::referee) fn load(
        &self,
        g: &GameRow,
    ) -> Result<Box<dyn GameRules>, Fail> {
        Ok(load_with(&self.registry, g)?)
    }

    /// Stored game `g` whole, its log read and replayed ([`whole_with`]): for what shows
    /// every move of it.
    pub(in crate::service::referee) async fn whole(
        &self,
        g: &GameRow,
    ) -> Result<Box<dyn GameRules>, Fail> {
        let log = self.store.actions(g.id).await?;
        Ok(whole_with(&self.registry, g, &log)?)
    }

    pub(in crate::service::referee) async fn games_here(
        &self,
        inc: &Incoming,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.candidates(inc, &[GameStatus::Active]).await
    }

    /// The active games `user` plays in `place`.
    pub(in crate::service::referee) async fn games_at(
        &self,
        user: &str,
        place: &Place,
    ) -> Result<Vec<GameRow>, StoreError> {
        let games = self.store.games_of(user, &[GameStatus::Active]).await?;
        Ok(games
            .into_iter()
            .filter(|g| g.seat_of(user).is_some())
            .filter(|g| is_in(g, place))
            .collect())
    }

    /// The user's games of `statuses` where `inc` was given: in a channel, those played
    /// there (a game's thread holds one); for a private command given in a channel
    /// ([`Incoming::via`]) that is some game of theirs, the same; in a private message,
    /// all of them.
    pub(in crate::service::referee) async fn candidates(
        &self,
        inc: &Incoming,
        statuses: &[GameStatus],
    ) -> Result<Vec<GameRow>, StoreError> {
        let channel = self.deciding_channel(inc).await?;
        Ok(self
            .store
            .games_of(&inc.user, statuses)
            .await?
            .into_iter()
            .filter(|g| g.seat_of(&inc.user).is_some())
            .filter(|g| match &channel {
                Some(c) => g.channel.as_deref() == Some(c.as_str()),
                None => true,
            })
            .collect())
    }

    /// The channel whose games a command is about: where it was typed; for a private
    /// command given in a channel, that channel when it is the home of one of the user's
    /// games (any status: a finished game's thread still decides); otherwise none, and
    /// every game of the user's counts.
    async fn deciding_channel(&self, inc: &Incoming) -> Result<Option<String>, StoreError> {
        match (&inc.place, &inc.via) {
            (Place::Channel(c), _) => Ok(Some(c.clone())),
            (Place::Dm, None) => Ok(None),
            (Place::Dm, Some(c)) => {
                let home = self
                    .store
                    .games_of(&inc.user, ALL_STATUSES)
                    .await?
                    .iter()
                    .any(|g| g.channel.as_deref() == Some(c.as_str()));
                Ok(home.then(|| c.clone()))
            }
        }
    }

    /// For a command typed where the user has no live game: when their latest game here
    /// is over, says so (a move typed after the end).
    pub(in crate::service::referee) async fn game_over_here(
        &self,
        inc: &Incoming,
    ) -> Result<Option<String>, StoreError> {
        Ok(self
            .ended_here(inc)
            .await?
            .map(|g| over_words(&g, self.ended_how(&g), Some(&inc.text))))
    }

    /// For a line that is no command, typed where the user has no live game: when their
    /// latest game here is over, says so; and that the line was not played only when it
    /// reads as a move of that game ([`Service::was_a_move`]). Chat after the end (`gg`,
    /// `thanks`) was never meant to be played, and is not said to have been refused.
    pub(in crate::service::referee) async fn game_over_after(
        &self,
        inc: &Incoming,
    ) -> Result<Option<String>, StoreError> {
        let Some(g) = self.ended_here(inc).await? else {
            return Ok(None);
        };
        let typed = inc.text.trim();
        let played = self.was_a_move(&g, &inc.user, typed).await?;
        Ok(Some(over_words(
            &g,
            self.ended_how(&g),
            played.then_some(typed),
        )))
    }

    /// The user's latest game here that is over, if any.
    async fn ended_here(&self, inc: &Incoming) -> Result<Option<GameRow>, StoreError> {
        let games = self
            .candidates(inc, &[GameStatus::Finished, GameStatus::Aborted])
            .await?;
        Ok(games.into_iter().max_by_key(|g| g.id))
    }

    /// How the game `g`, over, ended, in words (`alice (White) wins by checkmate (1-0)`).
    fn ended_how(&self, g: &GameRow) -> String {
        match self.load(g) {
            Ok(rules) => match rules.outcome() {
                Some(o) => super::text::outcome_words(g, rules.as_ref(), &o),
                None => g.status.to_string(),
            },
            Err(_) => g.status.to_string(),
        }
    }

    /// Whether `text`, typed by `user` after game `g` ended, would have been a move of it:
    /// whether it reads as one ([`Service::reads_as_move`]) in the game as it was before
    /// the action that ended it (replayed from its log; the clock entries after that
    /// change nothing). Where the game cannot be replayed, it counts as a move.
    async fn was_a_move(&self, g: &GameRow, user: &str, text: &str) -> Result<bool, StoreError> {
        let log = self.store.actions(g.id).await?;
        let Ok(actions) = crate::service::replay::read_log(g.id, &log) else {
            return Ok(true);
        };
        let end = actions
            .iter()
            .rposition(|(_, a)| a.vacation_entry().is_none())
            .unwrap_or(0);
        let Ok(before) = crate::service::replay::replay(&self.registry, g, &actions[..end]) else {
            return Ok(true);
        };
        let mine = g.seat_of(user).map(Seat);
        Ok(self.reads_as_move(before.as_ref(), mine, text))
    }

    /// The game `id`; or, when the command names none, the game the place decides
    /// ([`Service::pick_here`]). A public action typed in a private message
    /// ([`guards_channel_games`]) goes first to the game made in private it is for
    /// ([`Service::private_pick`]); a game played in a channel is never acted on by such a
    /// guess: the player is asked, with a button naming the game and the command
    /// ([`Service::offer_from_dm`]).
    pub(in crate::service::referee) async fn pick(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        statuses: &[GameStatus],
        fit: Fit<'_>,
    ) -> Result<GameRow, Fail> {
        if let Some(id) = id {
            let g =
                self.store.game(id).await?.ok_or_else(|| {
                    Fail::of(RefusalKind::Unknown, format!("there is no game #{id}"))
                })?;
            return Ok(g);
        }
        let guarded = guards_channel_games(&self.registry, inc, &fit);
        if guarded {
            if let Some(g) = self.private_pick(inc, &fit).await? {
                return Ok(g);
            }
        }
        let g = self.pick_here(inc, statuses, fit).await?;
        if guarded && g.channel.is_some() {
            return Err(Fail::Choose(self.offer_from_dm(inc, &fit, &g)));
        }
        Ok(g)
    }

    /// For a public action typed in a private message: the user's live game made in
    /// private that it is for. Of those it fits now, the one awaiting the user (or the
    /// one it fits); when it fits none of them, the one that awaits the user, which then
    /// says why not. `None` when no such game, or several, decide it.
    async fn private_pick(
        &self,
        inc: &Incoming,
        fit: &Fit<'_>,
    ) -> Result<Option<GameRow>, StoreError> {
        let private: Vec<GameRow> = self
            .candidates(inc, &[GameStatus::Active])
            .await?
            .into_iter()
            .filter(|g| g.channel.is_none())
            .collect();
        let fits: Vec<(&GameRow, bool)> = private
            .iter()
            .filter_map(|g| self.fits(inc, g, fit).map(|awaits| (g, awaits)))
            .collect();
        let awaiting = fits.iter().any(|(_, awaits)| *awaits);
        let fitting: Vec<&GameRow> = fits
            .into_iter()
            .filter(|(_, awaits)| *awaits || !awaiting)
            .map(|(g, _)| g)
            .collect();
        match fitting.as_slice() {
            [one] => return Ok(Some((*one).clone())),
            [] => {}
            _ => return Ok(None),
        }
        let waiting: Vec<&GameRow> = private.iter().filter(|g| self.awaits(inc, g)).collect();
        Ok(match waiting.as_slice() {
            [one] => Some((*one).clone()),
            _ => None,
        })
    }

    /// Whether live game `g` awaits the user of `inc` now.
    fn awaits(&self, inc: &Incoming, g: &GameRow) -> bool {
        let Some(seat) = g.seat_of(&inc.user).map(Seat) else {
            return false;
        };
        self.load(g)
            .is_ok_and(|rules| rules.awaiting().iter().any(|(s, _)| *s == seat))
    }

    /// The question asked instead of acting on game `g`, played in a channel, by a
    /// command typed in a private message that does not name it: what the command would
    /// do there, and a button that does it (`move 2 Nd3`, for the user alone).
    fn offer_from_dm(&self, inc: &Incoming, fit: &Fit<'_>, g: &GameRow) -> Choice {
        let what = match fit {
            Fit::Command(gc) if gc.word == "move" => format!("play {}", gc.args.join(" ")),
            _ => shown(fit, inc),
        };
        let what: String = what.trim().chars().filter(|c| *c != '`').take(40).collect();
        let others = |show: &dyn Fn(&str) -> String| self.others_in(g, &inc.user, "vs", show);
        let game = format!("#{} {}", g.id, self.display_name(&g.variant));
        let command = example(fit, inc, g.id);
        Choice {
            games: vec![g.id],
            text: format!(
                "a command typed in a private message acts only on a game made in private unless it names its game; {game}{} is played in its channel: {what} there? Press the button, or name the game: {}",
                others(&user_mark),
                command_mark(&command)
            ),
            buttons: vec![Button {
                // A button's label cannot hold a mention: names as Discord shows them.
                label: format!("{what} in {game}{}", others(&|u| self.name_of(u))),
                command,
                for_user: Some(inc.user.clone()),
                primary: true,
                danger: false,
                keep: false,
            }],
        }
    }

    /// The game the place decides ([`Service::candidates`] among those of `statuses`):
    /// the one game there; of several, the one live game that `fit` says the command fits
    /// now; where several fit, the user is asked which ([`Fail::Choose`], a button per
    /// game; finished games are never offered). With no game here, a game over here is
    /// named as over.
    async fn pick_here(
        &self,
        inc: &Incoming,
        statuses: &[GameStatus],
        fit: Fit<'_>,
    ) -> Result<GameRow, Fail> {
        let mut here = self.candidates(inc, statuses).await?;
        if here.len() == 1 {
            return Ok(here.swap_remove(0));
        }
        if here.is_empty() {
            return Err(match self.game_over_here(inc).await? {
                Some(text) if !statuses.contains(&GameStatus::Finished) => {
                    Fail::of(RefusalKind::Over, text)
                }
                _ => self.offer_from_server(inc, &fit).await?,
            });
        }
        let live: Vec<GameRow> = here
            .iter()
            .filter(|g| g.status == GameStatus::Active)
            .cloned()
            .collect();
        let pool = if live.is_empty() { here } else { live };
        if pool.len() == 1 {
            return Ok(pool.into_iter().next().expect("one game"));
        }
        let fitting = self.fitting(inc, &pool, &fit);
        match fitting.len() {
            1 => Ok(fitting.into_iter().next().expect("one game")),
            0 => self.none_fits(inc, &fit, pool),
            _ => Err(Fail::Choose(self.choice(inc, &fit, &fitting, WHICH))),
        }
    }

    /// Of the games of `pool` that the command `fit` describes fits, those that await the
    /// user, if any (a pick that could still be changed in one game is for the game that
    /// awaits it); a look at a board or a hand is for any game alike.
    fn fitting(&self, inc: &Incoming, pool: &[GameRow], fit: &Fit<'_>) -> Vec<GameRow> {
        let fits: Vec<(&GameRow, bool)> = pool
            .iter()
            .filter_map(|g| self.fits(inc, g, fit).map(|awaits| (g, awaits)))
            .collect();
        let awaiting = matches!(fit, Fit::Command(_)) && fits.iter().any(|(_, awaits)| *awaits);
        fits.into_iter()
            .filter(|(_, awaits)| *awaits || !awaiting)
            .map(|(g, _)| g.clone())
            .collect()
    }

    /// For a game's command given in a channel of a server that holds no game of the
    /// user's (not a game's thread): the question "which game?" over the user's live games
    /// of that server that the command fits, a button each, those awaiting the user first
    /// and each by its nearest deadline; never acted on by a guess, even where one game
    /// fits. Where none fits, or outside a server's channel: that the user has no game
    /// here.
    async fn offer_from_server(&self, inc: &Incoming, fit: &Fit<'_>) -> Result<Fail, StoreError> {
        let none = || Fail::of(RefusalKind::Unknown, "you have no game here");
        let (Place::Channel(channel), Some(server)) = (&inc.place, &inc.server) else {
            return Ok(none());
        };
        if self.store.is_game_thread(channel).await? {
            return Ok(none());
        }
        let live: Vec<GameRow> = self
            .store
            .games_of(&inc.user, &[GameStatus::Active])
            .await?
            .into_iter()
            .filter(|g| g.seat_of(&inc.user).is_some() && g.server.as_ref() == Some(server))
            .collect();
        let mut games = self.fitting(inc, &live, fit);
        if games.is_empty() {
            return Ok(none());
        }
        games.sort_by_cached_key(|g| {
            let due = g.deadlines.iter().map(|d| d.due_at).min();
            (!self.awaits(inc, g), due.unwrap_or(i64::MAX), g.id)
        });
        Ok(Fail::Choose(self.choice(inc, fit, &games, ELSEWHERE)))
    }

    /// When a command fits none of the user's games here, `pool`: the one game that has
    /// the command at all (it says why not now), else a refusal naming the games.
    fn none_fits(
        &self,
        inc: &Incoming,
        fit: &Fit<'_>,
        pool: Vec<GameRow>,
    ) -> Result<GameRow, Fail> {
        if let Fit::Command(gc) = fit {
            let has = |g: &&GameRow| {
                self.registry
                    .get(&g.variant)
                    .is_ok_and(|s| s.commands().iter().any(|c| c.is_named(&gc.word)))
            };
            let having: Vec<&GameRow> = pool.iter().filter(has).collect();
            match having.as_slice() {
                [one] => return Ok((*one).clone()),
                [] => {
                    return Err(Fail::of(
                        RefusalKind::NotHere,
                        format!(
                            "none of your games here ({}) has a `{}` command; {} lists a variant's commands",
                            id_list(&pool),
                            gc.word.chars().take(20).collect::<String>(),
                            command_mark("rules VARIANT")
                        ),
                    ))
                }
                _ => {}
            }
        }
        Err(Fail::of(
            RefusalKind::Ambiguous,
            format!(
                "none of your {} games here ({}) takes `{}` now; name one to hear why, for example `{}`",
                pool.len(),
                id_list(&pool),
                shown(fit, inc),
                example(fit, inc, pool[0].id)
            ),
        ))
    }

    /// Whether the command `fit` describes fits live game `g` of the user's now: `None`
    /// when it does not, else whether the game awaits the user.
    fn fits(&self, inc: &Incoming, g: &GameRow, fit: &Fit<'_>) -> Option<bool> {
        if g.status != GameStatus::Active {
            return None;
        }
        let seat = g.seat_of(&inc.user).map(Seat)?;
        let mut rules = self.load(g).ok()?;
        let awaits = rules.awaiting().iter().any(|(s, _)| *s == seat);
        let fits = match fit {
            Fit::Live => true,
            Fit::Holding => rules.project(Viewer::Seat(seat)).holdings.is_some(),
            Fit::Action(action) => rules.apply(seat, action).is_ok(),
            Fit::Command(gc) => {
                let declared = self.registry.get(&g.variant).is_ok_and(|s| {
                    s.commands()
                        .iter()
                        .any(|c| c.is_named(&gc.word) && c.takes(gc.args.len()))
                });
                // Tried on a copy of the game just loaded: accepted there, it would be
                // accepted here.
                declared
                    && match rules.read(seat, gc, self.env()) {
                        Ok(Reading::Act(action) | Reading::Noted { action, .. }) => {
                            rules.apply(seat, &action).is_ok()
                        }
                        Ok(Reading::ClaimTimeout { .. }) => true,
                        Err(_) => false,
                    }
            }
        };
        fits.then_some(awaits)
    }

    /// The other players of `g` as `user` sees them ([`super::text::others_of`]): its
    /// opponents after `joiner`, and in a game of teams the partners apart.
    fn others_in(
        &self,
        g: &GameRow,
        user: &str,
        joiner: &str,
        show: &dyn Fn(&str) -> String,
    ) -> String {
        let teams = self
            .registry
            .find(&g.variant)
            .is_some_and(|v| v.seats().placing == Placing::Teams);
        super::text::others_of(g, user, teams, joiner, show)
    }

    /// The question "which game?" for a command that fits each of `games`: the games with
    /// their variant and the other players, and a button per game that sends the command
    /// with its id (for the user alone).
    fn choice(&self, inc: &Incoming, fit: &Fit<'_>, games: &[GameRow], ask: Asking) -> Choice {
        // A game as `#3 Booster Chess` and the other players, each shown by `show`.
        let line = |g: &GameRow, joiner: &str, show: &dyn Fn(&str) -> String| {
            let game = format!("#{} {}", g.id, self.display_name(&g.variant));
            format!("{game}{}", self.others_in(g, &inc.user, joiner, show))
        };
        let described: Vec<String> = games.iter().map(|g| line(g, "with", &user_mark)).collect();
        let buttons = games
            .iter()
            .take(CHOICE_BUTTONS)
            .map(|g| Button {
                // A button's label cannot hold a mention: names as Discord shows them.
                label: line(g, "vs", &|u| self.name_of(u)),
                command: example(fit, inc, g.id),
                for_user: Some(inc.user.clone()),
                primary: false,
                danger: false,
                keep: false,
            })
            .collect();
        Choice {
            games: games.iter().take(CHOICE_BUTTONS).map(|g| g.id).collect(),
            text: format!(
                "{} {} fits {} of your games{}: {}. Name it, like {}",
                ask.lead,
                command_mark(&shown(fit, inc)),
                games.len(),
                ask.place,
                described.join("; "),
                command_mark(&example(fit, inc, games[0].id))
            ),
            buttons,
        }
    }

    /// The id of the user's active game here: `id` itself when given (the game is then
    /// read under its lock by the action), else the one game [`Service::pick`] finds for
    /// what `fit` describes.
    pub(in crate::service::referee) async fn pick_id(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        fit: Fit<'_>,
    ) -> Result<i64, Fail> {
        match id {
            Some(id) => Ok(id),
            None => Ok(self.pick(inc, None, &[GameStatus::Active], fit).await?.id),
        }
    }

    /// A started game the user may look at (`board`, `moves`, `pgn`, `hand`), loaded: its
    /// players read it from anywhere, others only where [`is_readable_by_onlooker`] says.
    pub(in crate::service::referee) async fn readable(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        fit: Fit<'_>,
    ) -> Result<(GameRow, Box<dyn GameRules>), Fail> {
        let g = self.pick(inc, id, ALL_STARTED, fit).await?;
        if g.seat_of(&inc.user).is_none() && !is_readable_by_onlooker(&g, inc) {
            let why = if g.channel.is_none() {
                format!("game #{} is not your game", g.id)
            } else {
                format!(
                    "game #{} is played elsewhere: only its players can read it from here",
                    g.id
                )
            };
            return Err(Fail::of(RefusalKind::NotYourGame, why));
        }
        let rules = self.load(&g)?;
        Ok((g, rules))
    }
}

/// Whether a command given as `inc` that names no game, asking `fit` of it, is a public
/// action typed in a private message: a variant's command that is not secret, or a
/// referee action (`resign`, `abort`). Such a command never acts on a game played in a
/// channel by a guess ([`Service::pick`]); a secret one goes, wherever its game is
/// played, to the one game awaiting it, and a look at a board to any game.
fn guards_channel_games(registry: &Registry, inc: &Incoming, fit: &Fit<'_>) -> bool {
    if inc.place != Place::Dm || inc.via.is_some() {
        return false;
    }
    match fit {
        Fit::Command(gc) => !registry
            .declarations(&gc.word)
            .first()
            .is_some_and(|c| c.secret),
        Fit::Action(_) => true,
        Fit::Live | Fit::Holding => false,
    }
}

/// What a command asks of the game it is for, so that among a player's games here the
/// one it fits can be found when the command names none ([`Service::pick`]).
#[derive(Clone, Copy)]
pub(in crate::service::referee) enum Fit<'a> {
    /// Any live game (`board`, `takeback`, `conditional`).
    Live,
    /// A live game where the player's seat holds something (`hand`).
    Holding,
    /// A live game that would accept this variant command from the player's seat now.
    Command(&'a GameCommand),
    /// A live game that would accept this referee action of the player's seat now
    /// (`resign`, `abort`).
    Action(&'a Action),
}

/// Which game a command is about, for an adapter that must know before running it
/// ([`Service::game_to_resign`]).
#[derive(Clone, Debug)]
pub enum Resolved {
    /// This game.
    Game(i64),
    /// None: the refusal to show.
    Refused(RuleError),
    /// Several: the question to ask.
    Choose(Choice),
}

/// How a "which game?" question begins, and where the games it names are.
#[derive(Clone, Copy)]
struct Asking {
    lead: &'static str,
    place: &'static str,
}

/// The question among the user's games where a command was given.
const WHICH: Asking = Asking {
    lead: "which game?",
    place: "",
};

/// The question among the user's games of a server, for a command given in a channel
/// of it that holds none ([`Service::offer_from_server`]).
const ELSEWHERE: Asking = Asking {
    lead: "you have no game here, but",
    place: " on this server",
};

/// The most games a "which game?" question offers as buttons (Discord's 25 per message).
const CHOICE_BUTTONS: usize = 25;

/// Every status a game may have.
const ALL_STATUSES: &[GameStatus] = &GameStatus::ALL;

/// The statuses of a game that started.
const ALL_STARTED: &[GameStatus] = &GameStatus::STARTED;

/// The command as the user gave it, cut short for quoting (a bare move as `move e4`).
fn shown(fit: &Fit<'_>, inc: &Incoming) -> String {
    match fit {
        Fit::Command(gc) => {
            let text = format!("{} {}", gc.word, gc.args.join(" "));
            text.trim().chars().take(40).collect()
        }
        _ => inc.text.trim().chars().take(40).collect(),
    }
}

/// The command with game `id` after its first word, as the example of a "which game?"
/// answer and the command of its buttons.
fn example(fit: &Fit<'_>, inc: &Incoming, id: i64) -> String {
    match fit {
        Fit::Command(gc) => typed_with_id(&format!("{} {}", gc.word, gc.args.join(" ")), id),
        _ => typed_with_id(&inc.text, id),
    }
}

/// The command the user typed with a game id after its first word, as the example of a
/// "which game?" answer (`board` becomes `board 3`, `pick e4` becomes `pick 3 e4`); the
/// rest is cut short, so the answer never echoes unbounded input.
pub(in crate::service::referee) fn typed_with_id(text: &str, id: i64) -> String {
    let text = text.trim();
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let word: String = word.chars().take(20).collect();
    let rest: String = rest.trim().chars().take(30).collect();
    if word.is_empty() {
        format!("move {id} e4")
    } else if rest.is_empty() {
        format!("{word} {id}")
    } else {
        format!("{word} {id} {rest}")
    }
}

#[cfg(test)]
mod typed_tests {
    use super::typed_with_id;

    #[test]
    fn which_game_answers_suggest_the_command_typed() {
        assert_eq!(typed_with_id("board", 3), "board 3");
        assert_eq!(typed_with_id("pgn", 3), "pgn 3");
        assert_eq!(typed_with_id(" pick e4 ", 3), "pick 3 e4");
        assert_eq!(typed_with_id("draw offer", 12), "draw 12 offer");
        assert!(typed_with_id(&"x".repeat(500), 1).len() < 40);
    }
}
