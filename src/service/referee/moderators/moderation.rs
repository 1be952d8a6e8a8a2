//! A server's moderators' tools (`moderate ...`): a stuck game aborted or adjudicated, or
//! a player's open challenges ended. A moderator holds Manage Server or the role the
//! server's settings name, as the adapter read it from the platform; anyone else is
//! refused ([`RefusalKind::NotAllowed`]) and nothing changes. A game's ending is the
//! referee's log entry [`Action::adjudication`], applied through the game's ordinary
//! commit (the game wrapped in [`Adjudicable`]) under the game's lock: it is in the
//! game's log, with the moderator as its author, and in its record (the result, the
//! `Termination` and the reason), and the game's thread is told who did it and why.

use super::commit::prepare;
use super::marks::{user_at_mark, user_mark};
use super::messages::{Fail, Incoming, Member, Reply};
use super::parts::{Moderators, Seating};
use crate::service::moderation::Moderation;
use crate::store::{GameRow, GameStatus, Write};
use crate::variants::api::{Action, Adjudicable, Note, Placing, RefusalKind, Seat, Text};

/// The refusal of a member who is not one of the server's moderators.
const NOT_MODERATOR: &str = "only this server's moderators (members with Manage Server, or the role its settings name) may do this; nothing was done";

impl Moderators<'_> {
    /// `moderate ...` by `member`: checked, then done.
    pub(crate) async fn moderate(
        &self,
        inc: &Incoming,
        member: &Member,
        m: Moderation,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        if !self.servers().is_moderator(inc, member).await? {
            return Err(Fail::of(RefusalKind::NotAllowed, NOT_MODERATOR));
        }
        match m {
            Moderation::Challenges { user } => self.end_challenges(inc, &user, r).await,
            Moderation::Abort { game, reason } => {
                self.end_game(inc, game, crate::variants::api::ABORTED, &reason, r)
                    .await
            }
            Moderation::Adjudicate {
                game,
                result,
                reason,
            } => self.end_game(inc, game, result, &reason, r).await,
        }
    }

    /// Game `id` of this server ended by the moderator with `result` for `reason`, under
    /// its lock, committed before anyone is told.
    async fn end_game(
        &self,
        inc: &Incoming,
        id: i64,
        result: &str,
        reason: &str,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let lock = self.lock_for(id);
        let _guard = lock.lock().await;
        let g = self.seating().game_row(id).await?;
        if g.server.is_none() || g.server != inc.server {
            return Err(Fail::of(
                RefusalKind::NotYourGame,
                format!("game #{id} is not a game of this server: its own server's moderators look after it"),
            ));
        }
        if g.seat_of(&inc.user).is_some() {
            // Nobody rules on their own game (it would be rated): another moderator may.
            return Err(Fail::of(
                RefusalKind::NotAllowed,
                format!("game #{id} is your own game: a moderator does not rule on a game they play; another moderator may, and nothing was done"),
            ));
        }
        if g.status != GameStatus::Active {
            return Err(Fail::of(
                RefusalKind::Over,
                format!(
                    "game #{id} is {}: only a game under way can be aborted or adjudicated",
                    g.status
                ),
            ));
        }
        let rules = self.load(&g)?;
        let plan = rules.seats();
        let aborting = result == crate::variants::api::ABORTED;
        if !aborting && (plan.placing == Placing::Alone || plan.sides.is_empty()) {
            return Err(Fail::of(
                RefusalKind::Illegal,
                format!("game #{id} is played alone: it can be aborted, not adjudicated"),
            ));
        }
        let Some(action) = Action::adjudication(result, reason) else {
            return Err(Fail::of(
                RefusalKind::Syntax,
                crate::service::moderation::USAGE,
            ));
        };
        let rules = Adjudicable::wrap(rules);
        let (w, mut done) = prepare(
            &g,
            rules,
            Seat(0),
            &inc.user,
            action,
            inc.at,
            Some(inc.event_id.clone()),
        )?;
        self.write(&g, &w).await?;
        let what = if aborting { "aborted" } else { "adjudicated" };
        done.notes.insert(
            0,
            Note::public(Text::plain(format!(
                "moderator {} {what} the game",
                user_mark(&inc.user)
            ))),
        );
        self.accounts().announce_rated(&g, &done, r).await;
        // Where the moderator asked, if not in the game's place: what was done.
        if !r.out.iter().any(|o| o.to == r.origin) {
            r.say(format!("game #{id} is {what}; its thread is told why"));
        }
        Ok(())
    }

    /// Every open challenge `user` made on this server, cancelled, each under its game's
    /// lock, and each challenge's message told.
    async fn end_challenges(&self, inc: &Incoming, user: &str, r: &mut Reply) -> Result<(), Fail> {
        let theirs: Vec<GameRow> = self
            .store
            .games_of(user, &[GameStatus::Challenged])
            .await?
            .into_iter()
            .filter(|g| g.challenger == user && g.server.is_some() && g.server == inc.server)
            .collect();
        if theirs.is_empty() {
            return Err(Fail::of(
                RefusalKind::Unknown,
                format!(
                    "{} has no open challenge on this server; nothing was done",
                    user_at_mark(user)
                ),
            ));
        }
        let mut ended = Vec::new();
        // The command's event is recorded with its first write only: one event, one id.
        let mut event = Some(inc.event_id.clone());
        for g in theirs {
            let lock = self.lock_for(g.id);
            let _guard = lock.lock().await;
            // As it is now, under the lock: still a pending challenge.
            let g = self.seating().game_row(g.id).await?;
            if g.status != GameStatus::Challenged {
                continue;
            }
            let w = Write {
                expected_version: g.version,
                at: inc.at,
                event_id: event.take(),
                status: GameStatus::Cancelled,
                snapshot: g.snapshot.clone(),
                ..Write::default()
            };
            self.write(&g, &w).await?;
            let how = format!("cancelled by moderator {}", user_mark(&inc.user));
            let text = format!("game #{}: the challenge is {how}", g.id);
            Seating::tell_challenge(&g, text, Some(how), r);
            ended.push(format!("#{}", g.id));
        }
        r.say(format!(
            "moderator {} ended {}'s open challenges: {}",
            user_mark(&inc.user),
            user_at_mark(user),
            if ended.is_empty() {
                "none were still open".to_string()
            } else {
                ended.join(", ")
            }
        ));
        Ok(())
    }
}
