//! Which game a command is about: the one named by its id, or the user's one game here;
//! and loading a stored game through the registry.

use super::{Fail, Incoming, Place, Service};
use crate::store::{GameRow, InPlay, StoreError};
use crate::variants::api::{GameRules, RefusalKind, RuleError, Seat, Viewer};
use crate::variants::Registry;

/// Loads a stored game from its snapshot through `registry`.
pub fn load_with(registry: &Registry, g: &GameRow) -> Result<Box<dyn GameRules>, RuleError> {
    let damaged = |e: String| {
        RuleError::of(
            RefusalKind::Unknown,
            format!("game #{} is damaged: {e}", g.id),
        )
    };
    let snap: serde_json::Value =
        serde_json::from_str(&g.snapshot).map_err(|e| damaged(e.to_string()))?;
    registry
        .load(&g.variant, &snap)
        .map_err(|e| damaged(e.text))
}

/// The games' ids as players write them: `#3, #7`.
pub(super) fn id_list(games: &[GameRow]) -> String {
    games
        .iter()
        .map(|g| format!("#{}", g.id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `g` was made in the channel of `place` (never true in a private message):
/// where an open challenge may be found and accepted.
pub(super) fn is_in_channel(g: &GameRow, place: &Place) -> bool {
    matches!(place, Place::Channel(c) if g.channel.as_deref() == Some(c.as_str()))
}

/// Whether `g` lives in `place`: its channel, or anywhere when the user writes privately.
pub(super) fn is_in(g: &GameRow, place: &Place) -> bool {
    match place {
        Place::Channel(c) => g.channel.as_deref() == Some(c),
        Place::Dm => true,
    }
}

/// Whether someone not seated in `g` may read it from where `inc` was typed: a game made
/// in private never; another game from a channel of its own server (a game of the
/// console, which has no servers, from the console), or, for a game stored before servers
/// were recorded, from its own channel. Never from a private message.
pub(super) fn is_readable_by_onlooker(g: &GameRow, inc: &Incoming) -> bool {
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
pub(super) fn player_seat(g: &GameRow, user: &str) -> Result<Seat, Fail> {
    g.seat_of(user).map(Seat).ok_or_else(|| {
        Fail::of(
            RefusalKind::NotYourGame,
            format!("game #{} is not your game", g.id),
        )
    })
}

impl Service {
    /// Takes game `id`'s lock and reads the game under it (with its lines and players'
    /// vacations) for an action of `user`'s: the held lock, the game and the user's seat;
    /// refused when there is no such game, it is not theirs, or it is not under way.
    pub(super) async fn lock_active(
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
        if in_play.game.status != "active" {
            return Err(Fail::of(
                RefusalKind::Over,
                format!("game #{id} is {}", in_play.game.status),
            ));
        }
        Ok((guard, in_play, seat))
    }

    /// Loads a stored game.
    pub(super) fn load(&self, g: &GameRow) -> Result<Box<dyn GameRules>, Fail> {
        Ok(load_with(&self.registry, g)?)
    }

    pub(super) async fn games_here(&self, inc: &Incoming) -> Result<Vec<GameRow>, StoreError> {
        self.games_at(&inc.user, &inc.place).await
    }

    /// The active games `user` plays in `place`.
    pub(super) async fn games_at(
        &self,
        user: &str,
        place: &Place,
    ) -> Result<Vec<GameRow>, StoreError> {
        let games = self.store.games_of(user, &["active"]).await?;
        Ok(games
            .into_iter()
            .filter(|g| g.seat_of(user).is_some())
            .filter(|g| is_in(g, place))
            .collect())
    }

    /// The active games made in private that `user` plays, for a bare move typed in a
    /// private message: all of them, or, when several are and exactly one awaits the
    /// user's move, that one.
    pub(super) async fn private_games(&self, user: &str) -> Result<Vec<GameRow>, StoreError> {
        let games: Vec<GameRow> = self
            .games_at(user, &Place::Dm)
            .await?
            .into_iter()
            .filter(|g| g.channel.is_none())
            .collect();
        if games.len() < 2 {
            return Ok(games);
        }
        let awaiting: Vec<&GameRow> = games
            .iter()
            .filter(|g| {
                let Some(seat) = g.seat_of(user).map(Seat) else {
                    return false;
                };
                self.load(g)
                    .is_ok_and(|rules| super::acting::movers(rules.as_ref()).contains(&seat))
            })
            .collect();
        Ok(match awaiting.as_slice() {
            [one] => vec![(*one).clone()],
            _ => games,
        })
    }

    /// For text that is not a command, typed where the user has no active game (a
    /// channel, or a private message for games made in private): when their latest game here is over, says so (a move typed after the end).
    pub(super) async fn game_over_here(
        &self,
        inc: &Incoming,
    ) -> Result<Option<String>, StoreError> {
        let games = self
            .store
            .games_of(&inc.user, &["finished", "aborted"])
            .await?;
        let Some(g) = games
            .iter()
            .filter(|g| g.seat_of(&inc.user).is_some() && is_in(g, &inc.place))
            // In a private message, only a game made in private.
            .filter(|g| inc.place != Place::Dm || g.channel.is_none())
            .max_by_key(|g| g.id)
        else {
            return Ok(None);
        };
        let how = match self.load(g) {
            Ok(rules) => match rules.outcome() {
                Some(o) => super::text::outcome_words(g, rules.as_ref(), &o),
                None => g.status.clone(),
            },
            Err(_) => g.status.clone(),
        };
        Ok(Some(format!(
            "game #{} is over ({how}), so `{}` was not played. Start another with `challenge @user [VARIANT]`, see yours with `games`, look back with `board {}` or `pgn {}`; type help for every command",
            g.id,
            inc.text.trim().chars().take(30).collect::<String>(),
            g.id,
            g.id
        )))
    }

    /// Suggestions for the move `user` is typing in `place`: the moves their seat may
    /// make now in game `id`, or else in the one game here where it is their turn, that
    /// begin with `typed` (ignoring case), at most `limit`. None when it is not their
    /// turn, or when several games here wait for them and `id` does not say which. Reads
    /// only; changes nothing.
    pub async fn move_suggestions(
        &self,
        user: &str,
        place: &Place,
        id: Option<i64>,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let games = match id {
            Some(id) => self.store.game(id).await?.into_iter().collect(),
            None => self.games_at(user, place).await?,
        };
        let mut options: Vec<Vec<String>> = games
            .iter()
            .filter(|g| g.status == "active")
            .filter_map(|g| {
                let seat = g.seat_of(user)?;
                let moves = self.load(g).ok()?.project(Viewer::Seat(Seat(seat))).legal;
                (!moves.is_empty()).then_some(moves)
            })
            .collect();
        if options.len() != 1 {
            return Ok(Vec::new());
        }
        let typed = typed.trim().to_lowercase();
        let mut moves: Vec<String> = options
            .swap_remove(0)
            .into_iter()
            .filter(|m| m.to_lowercase().starts_with(&typed))
            .collect();
        moves.sort();
        moves.truncate(limit);
        Ok(moves)
    }

    /// The game `id`, or the user's one game here among those of `statuses`.
    pub(super) async fn pick(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        statuses: &[&str],
    ) -> Result<GameRow, Fail> {
        if let Some(id) = id {
            let g =
                self.store.game(id).await?.ok_or_else(|| {
                    Fail::of(RefusalKind::Unknown, format!("there is no game #{id}"))
                })?;
            return Ok(g);
        }
        let games: Vec<GameRow> = self
            .store
            .games_of(&inc.user, statuses)
            .await?
            .into_iter()
            .filter(|g| g.seat_of(&inc.user).is_some())
            .filter(|g| is_in(g, &inc.place))
            .collect();
        match games.len() {
            0 => Err(Fail::of(RefusalKind::Unknown, "you have no game here")),
            1 => Ok(games.into_iter().next().expect("one game")),
            _ => Err(Fail::of(
                RefusalKind::Ambiguous,
                format!(
                    "you have {} games here ({}): say which, for example `{}`",
                    games.len(),
                    id_list(&games),
                    typed_with_id(&inc.text, games[0].id)
                ),
            )),
        }
    }

    /// The id of the user's active game here: `id` itself when given (the game is then
    /// read under its lock by the action), else the one game [`Service::pick`] finds.
    pub(super) async fn pick_id(&self, inc: &Incoming, id: Option<i64>) -> Result<i64, Fail> {
        match id {
            Some(id) => Ok(id),
            None => Ok(self.pick(inc, None, &["active"]).await?.id),
        }
    }

    /// A started game the user may look at (`board`, `moves`, `pgn`, `hand`), loaded: its
    /// players read it from anywhere, others only where [`is_readable_by_onlooker`] says.
    pub(super) async fn readable(
        &self,
        inc: &Incoming,
        id: Option<i64>,
    ) -> Result<(GameRow, Box<dyn GameRules>), Fail> {
        let g = self
            .pick(inc, id, &["active", "finished", "aborted"])
            .await?;
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

/// The command the user typed with a game id after its first word, as the example of a
/// "which game?" answer (`board` becomes `board 3`, `pick e4` becomes `pick 3 e4`); the
/// rest is cut short, so the answer never echoes unbounded input.
pub(super) fn typed_with_id(text: &str, id: i64) -> String {
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
