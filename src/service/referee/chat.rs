//! Chat or input: whether a line typed without the command prefix where a game is
//! played (a Discord game thread) is meant for the referee. Players and onlookers talk
//! in a game's thread ("gg", "nice one", "thanks"); the referee answers only what reads
//! as a command, or as a move of a game the writer plays there, and leaves the rest alone
//! (docs/service.md, "Chat in a game's thread").

use super::{Place, Service};
use crate::service::command::{self, ParseError};
use crate::store::StoreError;
use crate::variants::api::{GameCommand, RefusalKind};

impl Service {
    /// Whether `text`, typed by `user` in `place` without the command prefix, is for the
    /// referee: a command of its grammar (even with wrong arguments, whose usage the
    /// answer shows), or text that one of the user's active games there reads as a move
    /// (legal or not: an illegal move or one out of turn gets its reason). Decided from
    /// the parser's and the rules' structured answers (a [`RefusalKind::Syntax`] reading
    /// is chat), never from the words. Someone without a game there is answered only for
    /// commands. Reads only.
    pub async fn is_for_referee(
        &self,
        user: &str,
        place: &Place,
        text: &str,
    ) -> Result<bool, StoreError> {
        let text = crate::service::input::clean(text);
        let text = text.trim();
        if text.is_empty() {
            return Ok(false);
        }
        match command::parse(text, &self.registry) {
            Ok(_) | Err(ParseError::Syntax(_)) => return Ok(true),
            Err(ParseError::Unknown(_)) => {}
        }
        let gc = GameCommand::new("move", text);
        for g in self.games_at(user, place).await? {
            let Ok(rules) = self.load(&g) else { continue };
            let plays_moves = self
                .registry
                .get(rules.variant())
                .is_ok_and(|spec| spec.commands().iter().any(|c| c.is_named("move")));
            if !plays_moves {
                continue;
            }
            // Read as the user's seat and as every seat awaited, so that whose turn it
            // is does not decide whether a move is a move.
            let mine = g.seat_of(user).map(crate::variants::api::Seat);
            let awaited = rules.awaiting().into_iter().map(|(s, _)| s);
            for seat in mine.into_iter().chain(awaited) {
                match rules.read(seat, &gc, self.env()) {
                    Ok(_) => return Ok(true),
                    Err(e) if matches!(e.kind, RefusalKind::Syntax | RefusalKind::NotYourTurn) => {}
                    Err(_) => return Ok(true),
                }
            }
        }
        Ok(false)
    }
}
