//! Takebacks by agreement, as the action log records them: a player proposes taking back
//! their last action, the opponent accepts or declines. The entries are the referee's
//! own actions (`{"Takeback":"Offer"}`, `{"Takeback":"Accept"}`,
//! `{"Takeback":"Decline"}`): no variant applies them. [`Takebacks`] follows a log entry by
//! entry and says what each one does, so that the referee deciding a proposal and every
//! replay of a log ([`crate::variants::Registry::replay`]) read a log the same way.

use super::{Action, RuleError, Seat};
use serde::{Deserialize, Serialize};

/// One step of a takeback, as the log records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TakebackStep {
    /// The seat proposes taking back its last action.
    Offer,
    /// The seat accepts its opponent's proposal: that action is taken back.
    Accept,
    /// The seat declines its opponent's proposal.
    Decline,
}

/// The log entry of a takeback step.
/// Read only: the entry is written out by hand.
#[derive(Deserialize)]
enum Entry {
    Takeback(TakebackStep),
}

impl Action {
    /// The referee's log entry of a takeback step.
    pub fn takeback(step: TakebackStep) -> Action {
        // Written out rather than serialised, so that it cannot fail to be written.
        let step = match step {
            TakebackStep::Offer => "Offer",
            TakebackStep::Accept => "Accept",
            TakebackStep::Decline => "Decline",
        };
        Action::referees(serde_json::json!({ "Takeback": step }))
    }

    /// The takeback step this entry records, if it records one.
    pub fn takeback_step(&self) -> Option<TakebackStep> {
        match serde_json::from_value::<Entry>(self.json().clone()) {
            Ok(Entry::Takeback(step)) => Some(step),
            Err(_) => None,
        }
    }

    /// Whether the entry is one the referee makes rather than a variant's own (resign,
    /// abort, timeout, a takeback step): such an entry is never a move to take back.
    pub fn is_referees(&self) -> bool {
        self.takeback_step().is_some()
            || self.vacation_entry().is_some()
            || self.adjudication_entry().is_some()
            || [Action::resign(), Action::abort(), Action::timeout()].contains(self)
    }
}

/// Where a game's takebacks stand after some of its log: whose action the last entry is
/// (when it is a variant's own action), and whose proposal is pending (when the last
/// entry is a proposal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Takebacks {
    /// The seat whose own action is the log's last entry: the one seat that may propose
    /// taking it back.
    pub last_actor: Option<Seat>,
    /// The seat whose proposal is the log's last entry, awaiting its opponent's answer. It
    /// lapses with any other entry.
    pub pending: Option<Seat>,
}

/// What one log entry does, as [`Takebacks::step`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A variant's own action or a referee's resign, abort or timeout: applied to the game.
    Apply,
    /// A proposal or a refusal: the game is unchanged.
    Nothing,
    /// An acceptance: the last action applied is taken back (the game is rebuilt from
    /// its log without it).
    TakeBack,
}

impl Takebacks {
    /// The state after the entries of `log`, each a seat and its action; the first entry
    /// that breaks the rules below is refused.
    pub fn after<'a>(
        log: impl IntoIterator<Item = (Seat, &'a Action)>,
    ) -> Result<Takebacks, RuleError> {
        let mut t = Takebacks::default();
        for (seat, action) in log {
            t.step(seat, action)?;
        }
        Ok(t)
    }

    /// Whether `seat` may propose now, or why not (the game's own wording).
    pub fn may_offer(&self, seat: Seat) -> Result<(), RuleError> {
        match self.pending {
            Some(s) if s == seat => {
                return Err(RuleError::new(
                    "you have already proposed a takeback: wait for the answer",
                ))
            }
            Some(_) => {
                return Err(RuleError::new(concat!(
                    "your opponent has proposed a takeback: answer it first (",
                    crate::variants::api::command_mark_str!("takeback accept"),
                    " or ",
                    crate::variants::api::command_mark_str!("takeback decline"),
                    ")"
                )))
            }
            None => {}
        }
        if self.last_actor != Some(seat) {
            return Err(RuleError::new(
                "you may propose a takeback only right after your own move, before anything else happens in the game",
            ));
        }
        Ok(())
    }

    /// Whether `seat` may answer a proposal now, or why not.
    pub fn may_answer(&self, seat: Seat) -> Result<Seat, RuleError> {
        match self.pending {
            Some(s) if s == seat => Err(RuleError::new(
                "you cannot answer your own takeback proposal",
            )),
            Some(s) => Ok(s),
            None => Err(RuleError::new("there is no takeback proposal to answer")),
        }
    }

    /// Follows one more entry, `seat`'s `action`, and says what it does to the game; a
    /// takeback step out of turn is refused and changes nothing. A clock entry (a deadline
    /// extended for a vacation) changes neither the game nor the takebacks: a proposal
    /// stays pending across it and the last mover may still propose.
    pub fn step(&mut self, seat: Seat, action: &Action) -> Result<Effect, RuleError> {
        if action.vacation_entry().is_some() {
            return Ok(Effect::Nothing);
        }
        let effect = match action.takeback_step() {
            None => {
                self.last_actor = (!action.is_referees()).then_some(seat);
                self.pending = None;
                return Ok(Effect::Apply);
            }
            Some(TakebackStep::Offer) => {
                self.may_offer(seat)?;
                self.pending = Some(seat);
                Effect::Nothing
            }
            Some(TakebackStep::Accept) => {
                self.may_answer(seat)?;
                Effect::TakeBack
            }
            Some(TakebackStep::Decline) => {
                self.may_answer(seat)?;
                Effect::Nothing
            }
        };
        if action.takeback_step() != Some(TakebackStep::Offer) {
            self.pending = None;
        }
        self.last_actor = None;
        Ok(effect)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv() -> Action {
        Action::of(&serde_json::json!({"Move": "e2e4"})).unwrap()
    }

    /// What `seat`'s `action` would do after `t`, leaving `t` as it is.
    fn try_step(t: Takebacks, seat: Seat, action: &Action) -> Result<Effect, RuleError> {
        let mut t = t;
        t.step(seat, action)
    }

    #[test]
    fn takeback_entries_are_the_referees_and_read_back() {
        let offer = Action::takeback(TakebackStep::Offer);
        assert_eq!(
            serde_json::to_string(&offer).unwrap(),
            r#"{"Takeback":"Offer"}"#
        );
        assert_eq!(offer.takeback_step(), Some(TakebackStep::Offer));
        assert_eq!(offer.name(), "takeback");
        assert!(offer.is_referees() && Action::timeout().is_referees());
        assert!(!mv().is_referees());
        assert_eq!(mv().takeback_step(), None);
    }

    #[test]
    fn only_the_last_actor_proposes_and_only_the_opponent_answers() {
        let (w, b) = (Seat(0), Seat(1));
        let offer = Action::takeback(TakebackStep::Offer);
        let accept = Action::takeback(TakebackStep::Accept);
        let decline = Action::takeback(TakebackStep::Decline);
        let mut t = Takebacks::default();
        assert!(try_step(t, w, &offer).is_err(), "nothing to take back");
        assert_eq!(t.step(w, &mv()).unwrap(), Effect::Apply);
        assert!(try_step(t, b, &offer).is_err(), "not black's move");
        assert!(try_step(t, b, &accept).is_err(), "nothing to answer");
        assert_eq!(t.step(w, &offer).unwrap(), Effect::Nothing);
        assert!(try_step(t, w, &offer).is_err(), "a second proposal");
        assert!(try_step(t, w, &accept).is_err(), "accepting one's own");
        assert_eq!(try_step(t, b, &accept).unwrap(), Effect::TakeBack);
        let mut declined = t;
        assert_eq!(declined.step(b, &decline).unwrap(), Effect::Nothing);
        assert!(try_step(declined, w, &offer).is_err(), "one per move");
        // Lapsed: the opponent moved instead.
        t.step(b, &mv()).unwrap();
        assert_eq!(t.pending, None);
        assert!(try_step(t, w, &accept).is_err());
        assert!(t.step(w, &Action::timeout()).is_ok());
        assert!(t.step(w, &offer).is_err(), "a timeout is no move");
        // A clock entry is transparent: the last mover still may propose.
        let mut t = Takebacks::default();
        t.step(w, &mv()).unwrap();
        let clock = Action::vacation(crate::variants::api::VacationEntry {
            from: 1,
            to: 2,
            seconds: 1,
        });
        assert_eq!(t.step(b, &clock).unwrap(), Effect::Nothing);
        assert_eq!(t.step(w, &offer).unwrap(), Effect::Nothing);
        assert_eq!(t.step(b, &clock).unwrap(), Effect::Nothing);
        assert_eq!(t.pending, Some(w), "a proposal stays pending across it");
    }
}
