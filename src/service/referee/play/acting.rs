//! Applying an action: the game's command is read and applied under the game's lock,
//! on the state that is written, and committed in one version-checked write before
//! anyone is told.

use super::commit::prepare;
use super::conditional::Played;
use super::parts::Play;
use super::{lookup, Destination, Fail, Incoming, Outbound, Reply};
use crate::store::GameStatus;
use crate::store::{GameRow, InPlay, StoreError};
use crate::variants::api::{
    command_mark, usage_mark, Action, GameCommand, GameRules, Note, Reading, RefusalKind, Seat,
    Text, VariantSpec,
};

impl Play<'_> {
    /// One of the variants' commands: refused in public when it is secret, else read by
    /// the game it is for and applied.
    pub(crate) async fn game_command(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        gc: GameCommand,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let secret = self
            .registry
            .declarations(&gc.word)
            .first()
            .is_some_and(|c| c.secret);
        if secret && inc.place != super::Place::Dm {
            return self.secret_in_public(inc, id, &gc, r).await;
        }
        let id = self.pick_id(inc, id, lookup::Fit::Command(&gc)).await?;
        let env = self.env();
        self.act(inc, id, r, |g, rules| {
            let seat = lookup::player_seat(g, &inc.user)?;
            let spec = self.registry.get(rules.variant())?;
            let Some(declared) = spec.commands().iter().find(|c| c.is_named(&gc.word)) else {
                return Err(Fail::of(
                    RefusalKind::NotHere,
                    match gc.word.as_str() {
                        "move" => format!(
                            "{} has no plain moves: its commands are {} ({} for one)",
                            spec.display_name(),
                            command_names(spec.commands()),
                            usage_mark("help COMMAND")
                        ),
                        word => not_part_of(word, spec),
                    },
                ));
            };
            if !declared.takes(gc.args.len()) {
                return Err(declared.usage_error().into());
            }
            Ok(match rules.read(seat, &gc, env)? {
                Reading::Act(action) => (seat, action, None, None),
                Reading::Noted { action, note } => (seat, action, None, Some(note)),
                Reading::ClaimTimeout { late } => (late, Action::timeout(), Some(late), None),
            })
        })
        .await
    }

    /// A secret command typed where others read: refused privately, never acted on nor
    /// repeated in public; or, where the user's games here have no such command (`pick`
    /// in a standard game), refused as not part of their game rather than as secret.
    async fn secret_in_public(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        gc: &GameCommand,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let here = match id {
            Some(id) => self.store.game(id).await?.into_iter().collect(),
            None => self.games_here(inc).await?,
        };
        let spec_of = |g: &GameRow| self.registry.get(&g.variant).ok();
        if let Some(spec) = here.first().and_then(spec_of) {
            let lacks = |g: &GameRow| {
                spec_of(g).is_some_and(|s| !s.commands().iter().any(|c| c.is_named(&gc.word)))
            };
            if here.iter().all(lacks) {
                return Err(Fail::of(RefusalKind::NotHere, not_part_of(&gc.word, spec)));
            }
        }
        r.out.push(Outbound {
            to: Destination::Dm(inc.user.clone()),
            text: format!(
                "{} is secret: send it to me in a private message; nothing was done",
                command_mark(&gc.word.chars().take(20).collect::<String>())
            ),
            refusal: Some(RefusalKind::Secret),
            ..Outbound::default()
        });
        Ok(())
    }

    /// A referee action of the user's own seat (resign, abort).
    pub(crate) async fn act_simple(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        action: Action,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let id = self.pick_id(inc, id, lookup::Fit::Action(&action)).await?;
        self.act(inc, id, r, |g, _| {
            Ok((lookup::player_seat(g, &inc.user)?, action, None, None))
        })
        .await
    }

    /// Under game `id`'s lock: reads the game once, lets `decide` choose the seat and the
    /// action from the game as it is now (and, for a claim of the opponent's time, the
    /// seat whose deadline must have passed; and a note on how the text was read, told
    /// with the announcement), applies and commits it, then produces the messages from
    /// the state in hand.
    async fn act(
        &self,
        inc: &Incoming,
        id: i64,
        r: &mut Reply,
        decide: impl FnOnce(&GameRow, &dyn GameRules) -> Result<Decided, Fail>,
    ) -> Result<(), Fail> {
        // Whether the mover had a vacation not settled, as read under the lock.
        let away = {
            let lock = self.lock_for(id);
            let _guard = lock.lock().await;
            // The game, whether it has conditional lines and its players' vacations: one
            // read, under the lock, of what every check below decides on.
            let in_play =
                self.store.game_in_play(id).await?.ok_or_else(|| {
                    Fail::of(RefusalKind::Unknown, format!("there is no game #{id}"))
                })?;
            let g = &in_play.game;
            let rules = self.load(g)?;
            let (seat, action, late, note) = decide(g, rules.as_ref())?;
            if g.status != GameStatus::Active {
                return Err(Fail::of(
                    RefusalKind::Over,
                    format!("game #{id} is {}", g.status),
                ));
            }
            if let Some(late) = late {
                // Checked here, under the lock, on the deadlines about to be replaced.
                overdue(&in_play, late, inc.at)?;
            }
            let lapsed = self.lapsing(g).await?;
            let (action, note) = self.abort_noted(g, seat, action, note).await?;
            let (w, mut done) = prepare(
                g,
                rules,
                seat,
                &inc.user,
                action.clone(),
                inc.at,
                Some(inc.event_id.clone()),
            )?;
            self.write(g, &w).await?;
            self.telemetry.move_accepted(&g.variant);
            if super::engine_seat::engine_of(g).is_some() {
                // The engine's task wakes for its turn, committed by this write.
                self.engine_news.queued_now();
            }
            done.notes.extend(lapsed);
            done.notes
                .extend(note.map(|n| Note::public(Text::plain(n))));
            let first = r.out.len();
            self.accounts().announce_rated(g, &done, r).await;
            self.acknowledge_elsewhere(inc, g, first, r);
            // The opponent's stored answer, if one expects this action: committed too
            // before anything is sent, still under the game's lock.
            if in_play.has_lines {
                let played = Played {
                    game: g,
                    actor: seat,
                    action: &action,
                    done: &done,
                    at: inc.at,
                    first,
                };
                self.answer_conditionally(played, r).await;
            }
            in_play.vacation_of(&inc.user).is_some()
        };
        // An accepted action of a player on vacation ends it (docs/service.md, "Vacation"):
        // the game's lock is released first, as the end takes each of their games' locks.
        // A mover who had none when the action was decided has none to end.
        if away {
            r.out.extend(
                self.accounts()
                    .back_from_vacation(&inc.user, inc.at)
                    .await?,
            );
        }
        Ok(())
    }
}

impl Play<'_> {
    /// [`Service::abort_if_unplayed`], with the note told with the announcement: the
    /// abort's own when the action became one, else `note`.
    async fn abort_noted(
        &self,
        g: &GameRow,
        seat: Seat,
        action: Action,
        note: Option<String>,
    ) -> Result<(Action, Option<String>), StoreError> {
        let asked = action.clone();
        let action = self.abort_if_unplayed(g, seat, action).await?;
        let note = match action != asked {
            true => Some(UNPLAYED.to_string()),
            false => note,
        };
        Ok((action, note))
    }

    /// Lichess's rule for a game that never really started: a resignation or a timeout
    /// (an automatic one, or a claim) before both players have moved is an abort, so the
    /// game is called off unrated rather than won. The variant's own abort decides what
    /// "before both moved" is (it is refused once each side has had its turn); games of
    /// one seat and tournaments' games (paired by the tournament, whose score counts a
    /// forfeit) keep `action`. Reads the game again only for those two actions.
    pub(crate) async fn abort_if_unplayed(
        &self,
        g: &GameRow,
        seat: Seat,
        action: Action,
    ) -> Result<Action, StoreError> {
        let ends = action == Action::resign() || action == Action::timeout();
        if !ends || g.seats.len() < 2 || self.store.tournament_of_game(g.id).await?.is_some() {
            return Ok(action);
        }
        let abortable = self
            .load(g)
            .is_ok_and(|mut trial| trial.apply(seat, &Action::abort()).is_ok());
        Ok(if abortable { Action::abort() } else { action })
    }
}

/// Why a resignation or a claim became an abort ([`Service::abort_if_unplayed`]).
const UNPLAYED: &str =
    "before both players have moved, this calls the game off: no result, no rating change";

/// What an action's caller decided: the seat acting, the action, the seat whose deadline
/// must have passed (a claim of time) and a note on how the typed text was read.
type Decided = (Seat, Action, Option<Seat>, Option<String>);

/// The names of a variant's commands, for a refusal.
fn command_names(commands: &[crate::variants::api::CommandSpec]) -> String {
    commands
        .iter()
        .map(|c| c.name)
        .chain(["resign", "board"])
        .collect::<Vec<_>>()
        .join(", ")
}

/// The refusal of `word`, a command that variant `spec` does not have, naming the ones
/// it has (the word cut to 20 characters).
fn not_part_of(word: &str, spec: &dyn VariantSpec) -> String {
    format!(
        "{} is not part of {}: its commands are {} ({} for one)",
        command_mark(&word.chars().take(20).collect::<String>()),
        spec.display_name(),
        command_names(spec.commands()),
        usage_mark("help COMMAND")
    )
}

/// Checks a claim of the opponent's time: seat `late`'s deadline in `in_play` has passed
/// at `at`, and no vacation stops it.
fn overdue(in_play: &InPlay, late: Seat, at: i64) -> Result<(), Fail> {
    let overdue = in_play
        .game
        .deadlines
        .iter()
        .find(|d| d.seat == late.0 && d.due_at <= at);
    let Some(overdue) = overdue else {
        let running = in_play.game.deadlines.iter().find(|d| d.seat == late.0);
        let why = match running {
            Some(d) => format!(
                "your opponent's time has not run out: they have until {}",
                super::marks::time_mark(d.due_at)
            ),
            // Their turn is over: whatever time of theirs ran out, they moved before
            // anyone claimed it, and a move made before a claim stands.
            None => "your opponent is not on the move, so no time of theirs is running out: \
                     a move made before a claim stands, even a late one"
                .to_string(),
        };
        return Err(Fail::of(RefusalKind::Illegal, why));
    };
    if let Some(v) = super::vacation::stopping_in(in_play, overdue) {
        return Err(Fail::of(
            RefusalKind::Illegal,
            format!(
                "{} is on vacation until {}: their clock is stopped, and their time has not run out",
                v.user,
                super::marks::time_mark(v.planned_end)
            ),
        ));
    }
    Ok(())
}
