//! Takebacks by agreement: `takeback [ID]` proposes taking back the proposer's last
//! action, `takeback [ID] accept|decline` answers it. Only in a game made with
//! `takebacks:on` (a two-player variant that declares it has no hidden information,
//! never rated). Every step is a referee's entry in the game's log
//! ([`crate::variants::api::Takebacks`] says which are allowed); an acceptance rebuilds
//! the game from its log without the action, as every replay of the log does.

use super::commit::{self, Committed};
use super::parts::Play;
use super::{Button, Fail, Incoming, Reply};
use crate::service::replay::ReplayError;
use crate::store::GameStatus;
use crate::store::NewAction;
use crate::store::NewDeadline;
use crate::store::{Deadline, GameRow, Write};
use crate::variants::api::{
    Action, GameRules, Note, Options, RefusalKind, RuleError, Seat, TakebackStep, Takebacks, Text,
};

/// The referee's option of a challenge that allows takebacks (`takebacks:on`).
pub(crate) const OPTION: &str = "takebacks";

/// Whether game `g` was made with `takebacks:on`.
pub(crate) fn allowed(g: &GameRow) -> bool {
    // Options that do not name it are not read (every move asks).
    g.options.contains(OPTION)
        && serde_json::from_str::<Options>(&g.options)
            .is_ok_and(|o| o.get(OPTION).is_some_and(|v| v == "on"))
}

/// What a challenge's `takebacks:` option and its `rated:` choice decide together, for a
/// variant whose declaration is `declared` and whose seats are two sides (`sides`):
/// whether takebacks are on, and the game's rated choice. `takebacks:on` makes a game of
/// a rated variant unrated when `rated:` is not given, and is refused with `rated:yes`
/// and where the variant has no takebacks.
pub(crate) fn choice(
    asked: Option<&str>,
    declared: Result<(), &'static str>,
    sides: bool,
    name: &str,
    rated_asked: Option<&str>,
    rated: Option<bool>,
) -> Result<(bool, Option<bool>), Fail> {
    let on = match asked {
        None | Some("off") => return Ok((false, rated)),
        Some("on") => true,
        Some(_) => return Err(Fail::of(RefusalKind::Syntax, "takebacks: is on or off")),
    };
    if !sides {
        return Err(Fail::of(
            RefusalKind::Illegal,
            format!("{name} has no takebacks: a takeback is agreed between two players"),
        ));
    }
    if let Err(why) = declared {
        return Err(Fail::of(
            RefusalKind::Illegal,
            format!("{name} has no takebacks: {why}"),
        ));
    }
    if rated_asked == Some("yes") {
        return Err(Fail::of(
            RefusalKind::Illegal,
            "a rated game has no takebacks: leave out rated:yes (a game with takebacks:on is unrated) or takebacks:on",
        ));
    }
    Ok((on, rated.map(|_| false)))
}

/// What an accepted takeback leaves: the note saying so, the game rebuilt without the
/// move, and its deadlines.
type TakenBack = (Note, Box<dyn GameRules>, Vec<Deadline>);

/// One takeback step, ready to commit: the write, what it tells, the game after it and
/// its deadlines.
struct Step {
    write: Write,
    notes: Vec<Note>,
    after: Box<dyn GameRules>,
    deadlines: Vec<Deadline>,
}

impl Play<'_> {
    /// `takeback [ID] [accept|decline]`: a proposal, or the opponent's answer to one,
    /// checked and committed under the game's lock.
    pub(crate) async fn takeback(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        step: TakebackStep,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let id = self.pick_id(inc, id, super::lookup::Fit::Live).await?;
        let away = self.takeback_locked(inc, id, step, r).await?;
        // An accepted step of a player on vacation ends it, once the game's lock is free.
        if away {
            r.out.extend(
                self.accounts()
                    .back_from_vacation(&inc.user, inc.at)
                    .await?,
            );
        }
        Ok(())
    }

    /// [`Service::takeback`] under game `id`'s lock; whether the user had a vacation not
    /// settled when the step was decided. In a game against the bot, a proposal and the
    /// engine's acceptance are committed together ([`Service::engine_accepts`]).
    async fn takeback_locked(
        &self,
        inc: &Incoming,
        id: i64,
        step: TakebackStep,
        r: &mut Reply,
    ) -> Result<bool, Fail> {
        let (_guard, in_play, seat) = self.lock_active(id, &inc.user).await?;
        let g = &in_play.game;
        if !allowed(g) {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!("game #{id} has no takebacks: they are allowed only in a game whose challenge says takebacks:on"),
            ));
        }
        // The texts name the game: `game #12: its log does not replay: ...`.
        let damaged = |e: ReplayError| Fail::of(RefusalKind::Unknown, e.to_string());
        let log = crate::service::replay::read_log(id, &self.store.actions(id).await?)
            .map_err(damaged)?;
        let rules = self.load(g)?;
        let awaited_before = rules.awaiting();
        let done = self.takeback_step(inc, g, rules, seat, step, &log)?;
        let answer = match step {
            TakebackStep::Offer => self.engine_accepts(inc, g, seat, &done, log),
            _ => None,
        };
        match &answer {
            Some((_, second)) => {
                self.write_all(g, &[done.write.clone(), second.write.clone()])
                    .await?
            }
            None => self.write(g, &done.write).await?,
        }
        let first = r.out.len();
        let offered = Committed {
            notes: done.notes,
            rules: done.after,
            deadlines: done.deadlines,
            before: awaited_before,
            was_over: false,
        };
        self.announce(g, &offered, r);
        match answer {
            Some((after_offer, second)) => {
                let before = offered.rules.awaiting();
                let accepted = Committed {
                    notes: second.notes,
                    rules: second.after,
                    deadlines: second.deadlines,
                    before,
                    was_over: false,
                };
                self.announce(&after_offer, &accepted, r);
            }
            None if step == TakebackStep::Offer => {
                let opponent = Seat(1 - seat.0.min(1));
                let buttons = answer_buttons(id, g.user_at(opponent.0));
                for m in &mut r.out[first..] {
                    if m.game == Some(id) {
                        m.buttons.extend(buttons.iter().cloned());
                    }
                }
            }
            None => {}
        }
        Ok(in_play.vacation_of(&inc.user).is_some())
    }

    /// In a game against the bot, the engine's acceptance of the takeback `offer` that
    /// `seat` proposes in `g` (whose log is `log`), as Lichess's computer accepts it: the
    /// game as the proposal leaves it and the acceptance's step, to commit with the
    /// proposal in one transaction, so that no proposal is ever left unanswered; `None`
    /// in a game between people (or should the acceptance be refused: the proposal then
    /// stands alone).
    fn engine_accepts(
        &self,
        inc: &Incoming,
        g: &GameRow,
        seat: Seat,
        offer: &Step,
        mut log: Vec<(Seat, Action)>,
    ) -> Option<(GameRow, Step)> {
        let bot = self.engine_user()?;
        let engine = super::engine_seat::engine_of(g)?;
        if g.user_at(engine.seat) != Some(bot) || engine.seat == seat.0 {
            return None;
        }
        let after_offer = commit::row_after(g, &offer.write);
        let answer = Incoming {
            user: bot.to_string(),
            event_id: format!("engine:{}:takeback:{}", g.id, after_offer.version),
            ..inc.clone()
        };
        log.push((seat, Action::takeback(TakebackStep::Offer)));
        let step = self
            .load(&after_offer)
            .and_then(|rules| {
                self.takeback_step(
                    &answer,
                    &after_offer,
                    rules,
                    Seat(engine.seat),
                    TakebackStep::Accept,
                    &log,
                )
            })
            .inspect_err(|e| {
                tracing::warn!(game = g.id, "the engine did not accept a takeback: {e:?}")
            })
            .ok()?;
        Some((after_offer, step))
    }

    /// Takeback step `step` of `seat` (`inc`'s user) in game `g`, now `rules`, whose log
    /// is `log`: checked against the takebacks the log allows, and made ready to commit.
    fn takeback_step(
        &self,
        inc: &Incoming,
        g: &GameRow,
        rules: Box<dyn GameRules>,
        seat: Seat,
        step: TakebackStep,
        log: &[(Seat, Action)],
    ) -> Result<Step, Fail> {
        let state = Takebacks::after(log.iter().map(|(s, a)| (*s, a)))?;
        let entry = Action::takeback(step);
        let opponent = Seat(1 - seat.0.min(1));
        let (notes, after, deadlines) = match step {
            TakebackStep::Offer => {
                state.may_offer(seat)?;
                let text = Text::player(seat, " proposes taking back their last move; ")
                    .push_player(opponent)
                    .push(": takeback accept or decline");
                (vec![Note::public(text)], rules, g.deadlines.clone())
            }
            TakebackStep::Decline => {
                let proposer = state.may_answer(seat)?;
                let text =
                    Text::player(seat, " declines the takeback proposed by ").push_player(proposer);
                (vec![Note::public(text)], rules, g.deadlines.clone())
            }
            TakebackStep::Accept => {
                let proposer = state.may_answer(seat)?;
                let mut all = log.to_vec();
                all.push((seat, entry.clone()));
                let (note, rebuilt, deadlines) =
                    self.taken_back(inc, g, rules.as_ref(), seat, proposer, &all)?;
                (vec![note], rebuilt, deadlines)
            }
        };
        if after.is_over() {
            // A game is rebuilt only from before an action that followed: never over.
            return Err(Fail::Refuse(RuleError::new(
                "the game would be over: nothing was done",
            )));
        }
        let write = takeback_write(g, inc, seat, &entry, after.as_ref(), &deadlines)?;
        Ok(Step {
            write,
            notes,
            after,
            deadlines,
        })
    }

    /// The takeback that `seat` accepts from `proposer` in game `g`, now `rules`, whose
    /// log with the acceptance is `all`: the note, the game rebuilt from before the move
    /// taken back, and the deadlines (the proposer is to move again, with a fresh
    /// deadline; a seat awaited before and still keeps its own).
    fn taken_back(
        &self,
        inc: &Incoming,
        g: &GameRow,
        rules: &dyn GameRules,
        seat: Seat,
        proposer: Seat,
        all: &[(Seat, Action)],
    ) -> Result<TakenBack, Fail> {
        let damaged = |e: ReplayError| Fail::of(RefusalKind::Unknown, e.to_string());
        let rebuilt = crate::service::replay::replay(&self.registry, g, all).map_err(damaged)?;
        let before = commit::movers(rules);
        let deadlines = commit::movers(rebuilt.as_ref())
            .into_iter()
            .map(|s| match g.deadlines.iter().find(|d| d.seat == s.0) {
                Some(d) if s != proposer && before.contains(&s) => d.clone(),
                _ => Deadline {
                    game_id: g.id,
                    seat: s.0,
                    turn: g.version + 1,
                    due_at: inc.at + commit::time_for(g, rebuilt.as_ref(), s),
                },
            })
            .collect();
        let mut note = Note::public(
            Text::player(seat, " accepts the takeback proposed by ")
                .push_player(proposer)
                .push(": their last move is taken back"),
        );
        note.board = true;
        Ok((note, rebuilt, deadlines))
    }

    /// The note that a pending takeback proposal lapsed, when `g` (which allows
    /// takebacks) has one that the action about to be applied ends; read under the game's
    /// lock.
    pub(crate) async fn lapsing(&self, g: &GameRow) -> Result<Option<Note>, Fail> {
        if !allowed(g) {
            return Ok(None);
        }
        let log = crate::service::replay::read_log(g.id, &self.store.actions(g.id).await?)
            .map_err(|e| Fail::of(RefusalKind::Unknown, e.to_string()))?;
        let state = Takebacks::after(log.iter().map(|(s, a)| (*s, a)))?;
        Ok(state
            .pending
            .map(|p| Note::public(Text::player(p, "'s takeback proposal lapses"))))
    }
}

/// The buttons under a proposal, for the opponent (`user`) alone.
fn answer_buttons(id: i64, user: Option<&str>) -> Vec<Button> {
    [
        ("Accept takeback", "accept", true),
        ("Decline takeback", "decline", false),
    ]
    .into_iter()
    .map(|(label, word, primary)| Button {
        label: label.into(),
        command: format!("takeback #{id} {word}"),
        for_user: user.map(str::to_string),
        primary,
        danger: false,
        keep: false,
    })
    .collect()
}

/// The write that commits takeback `entry` by `seat` of `inc`'s user to game `g`: the
/// game `after` it, still active, with its `deadlines`.
fn takeback_write(
    g: &GameRow,
    inc: &Incoming,
    seat: Seat,
    entry: &Action,
    after: &dyn GameRules,
    deadlines: &[Deadline],
) -> Result<Write, Fail> {
    Ok(Write {
        expected_version: g.version,
        action: Some(NewAction {
            seat: seat.0,
            author: inc.user.clone(),
            json: entry.json().to_string(),
        }),
        at: inc.at,
        event_id: Some(inc.event_id.clone()),
        status: GameStatus::Active,
        snapshot: after.snapshot_text()?,
        deadlines: deadlines.iter().map(NewDeadline::from).collect(),
        ..Write::default()
    })
}
