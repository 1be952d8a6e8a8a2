//! Chat or input: whether a line typed in a server is meant for the referee. Servers
//! share the command prefix among many bots (`!play` is a music bot's, `!rank` a
//! levelling bot's), and players and onlookers talk in a game's thread ("gg", "nice
//! one", "thanks"); the referee answers only what reads as one of its own commands, or
//! as a command or move of a game the writer plays there, and leaves the rest alone
//! (docs/service.md, "Chat in a game's thread", and docs/discord.md, "Only our
//! commands").

use super::parts::Play;
use super::Place;
use crate::service::command;
use crate::store::StoreError;
use crate::store::{GameRow, GameStatus};
use crate::variants::api::{GameCommand, RefusalKind, Seat};

impl Play<'_> {
    /// What [`Service::runs_privately`](super::Service::runs_privately) does.
    pub(crate) fn runs_privately(&self, text: &str) -> bool {
        command::runs_privately(text, &self.registry)
    }

    /// What [`Service::is_declared_command`](super::Service::is_declared_command) does.
    pub(crate) fn is_declared_command(&self, text: &str) -> bool {
        command::is_declared_command(text, &self.registry)
    }

    /// What [`Service::is_for_referee`](super::Service::is_for_referee) does.
    pub(crate) async fn is_for_referee(
        &self,
        user: &str,
        place: &Place,
        text: &str,
    ) -> Result<bool, StoreError> {
        let text = crate::service::input::clean(text);
        let text = text.trim();
        let Some(word) = text.split_whitespace().next() else {
            return Ok(false);
        };
        let word = word.to_lowercase();
        if command::is_referee_command(&word) {
            return Ok(true);
        }
        let games = self.games_at(user, place).await?;
        let declares = |variant: &str, word: &str| {
            self.registry
                .get(variant)
                .is_ok_and(|spec| spec.commands().iter().any(|c| c.is_named(word)))
        };
        if !self.registry.declarations(&word).is_empty() {
            // A variant's command: for us where it names a game of the user's, or where a
            // game here has it.
            if let Ok(command::Command::Game(Some(id), _)) = command::parse(text, &self.registry) {
                let named = self.store.game(id).await?;
                if named.is_some_and(|g| g.seat_of(user).is_some()) {
                    return Ok(true);
                }
            }
            // A game over there counts too: the answer says it is over.
            let started = self
                .store
                .games_of(
                    user,
                    &[
                        GameStatus::Active,
                        GameStatus::Finished,
                        GameStatus::Aborted,
                    ],
                )
                .await?;
            // Another name of a command (`play` for `move`), a word other bots use too, is
            // ours only where the game reads what follows as that command, legal or not:
            // a music bot's `!play Despacito` in a game's thread is left alone.
            let rest = text[text.find(char::is_whitespace).unwrap_or(text.len())..].trim();
            return Ok(started
                .iter()
                .filter(|g| g.seat_of(user).is_some() && super::lookup::is_in(g, place))
                .filter(|g| declares(&g.variant, &word))
                .any(|g| self.reads_as_named(g, user, &word, rest)));
        }
        for g in games {
            let Ok(rules) = self.load(&g) else { continue };
            if self.reads_as_move(rules.as_ref(), g.seat_of(user).map(Seat), text) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether `word rest`, a command game `g`'s variant declares, typed by `user`, is
    /// that command: under its own name always; under another of its names (an alias)
    /// only when the game reads `rest` as its arguments with no [`RefusalKind::Syntax`]
    /// refusal (an illegal move or one out of turn is still the command, to be answered; in a
    /// game over, no alias is).
    fn reads_as_named(&self, g: &GameRow, user: &str, word: &str, rest: &str) -> bool {
        let Ok(spec) = self.registry.get(&g.variant) else {
            return false;
        };
        let Some(declared) = spec.commands().iter().find(|c| c.is_named(word)) else {
            return false;
        };
        // Under its own name, or with a square among its words (`card 7h on f6`, a card
        // the player does not hold): the game's, to be answered; a music bot's words name
        // no square.
        if declared.name == word
            || rest
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(names_square)
        {
            return true;
        }
        let Ok(rules) = self.load(g) else {
            return true;
        };
        let gc = GameCommand::new(declared.name, rest);
        let awaited = rules.awaiting().into_iter().map(|(s, _)| s);
        g.seat_of(user)
            .map(Seat)
            .into_iter()
            .chain(awaited)
            .any(|seat| match rules.read(seat, &gc, self.env()) {
                Ok(_) => true,
                // A game over reads nothing: whether the words were a move is unknown.
                Err(e) => !matches!(
                    e.kind,
                    RefusalKind::Syntax | RefusalKind::NotYourTurn | RefusalKind::Over
                ),
            })
    }

    /// What [`Service::is_for_referee_unprefixed`](super::Service::is_for_referee_unprefixed) does.
    pub(crate) async fn is_for_referee_unprefixed(
        &self,
        user: &str,
        place: &Place,
        text: &str,
    ) -> Result<bool, StoreError> {
        if !self.is_for_referee(user, place, text).await? {
            return Ok(false);
        }
        let cleaned = crate::service::input::clean(text);
        let own_game = matches!(
            command::parse(cleaned.trim(), &self.registry),
            Ok(command::Command::Resign(None)
                | command::Command::Abort(None)
                | command::Command::Takeback(None, _)
                | command::Command::Rematch(None)
                | command::Command::Hand(None)
                | command::Command::Conditional(None, _))
        );
        if !own_game {
            return Ok(true);
        }
        Ok(self
            .store
            .games_of(user, &GameStatus::ALL)
            .await?
            .iter()
            .any(|g| g.seat_of(user).is_some() && super::lookup::is_in(g, place)))
    }
}

/// Whether `word` is written as a board's square: a file letter then a rank of one or
/// two digits (`f6`, `b10`).
fn names_square(word: &str) -> bool {
    let mut chars = word.chars();
    let file = chars.next().is_some_and(|c| c.is_ascii_lowercase());
    let rank: String = chars.collect();
    file && (1..=2).contains(&rank.len())
        && rank.chars().all(|c| c.is_ascii_digit())
        && !rank.starts_with('0')
}
