//! The lifecycle every game of two seats shares: a draw offer and its answer,
//! resignation, a timeout, an abort, and how the game ended.
//!
//! A variant keeps a [`Duel`] in its state (the open offer and the ending), lets its
//! action type carry a [`DuelAction`] (stored as the strings `"Offer"`, `"Accept"`,
//! `"Decline"`, `"Resign"`, `"Timeout"` and `"Abort"`) and its ending type its own
//! endings in an [`Ended::Rules`], and hands the lifecycle's actions to [`Duel::act`]
//! with its hooks (whether it may still be aborted, whether a side could never win):
//! their refusals and notes are then the same in every such variant, in the words of its
//! [`DuelWords`].
//! A variant whose engine keeps its own ending (chess) shares the offers alone:
//! [`make_offer`], [`answer_offer`] and [`refuse_if_over`].

use super::marks::command_mark_str;
use super::{CommandSpec, GameCommand, GameOutcome, Note, RuleError, Seat, Text};
use crate::rules::EndReason;
use serde::{Deserialize, Serialize};

/// An action of the lifecycle, as a variant's action type carries it (untagged, so
/// that it is stored as the bare name: `"Resign"`). The last three are also the
/// referee's own [`Action`](super::Action)s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DuelAction {
    /// Offer a draw.
    Offer,
    /// Accept the opponent's draw offer.
    Accept,
    /// Decline the opponent's draw offer.
    Decline,
    /// The seat resigns.
    Resign,
    /// The referee: this seat's time has run out.
    Timeout,
    /// The game is called off before each side has had a turn.
    Abort,
}

impl DuelAction {
    /// The answer of the `draw` command (`draw offer|accept|decline`) as an action;
    /// `usage`'s refusal for any other answer.
    pub fn read_draw(c: &GameCommand, usage: &CommandSpec) -> Result<DuelAction, RuleError> {
        match c.arg(0).as_str() {
            "offer" => Ok(DuelAction::Offer),
            "accept" => Ok(DuelAction::Accept),
            "decline" => Ok(DuelAction::Decline),
            _ => Err(usage.usage_error()),
        }
    }
}

/// How a game of two seats ended: by the variant's own rules (`R`: a checkmate, a
/// score), or in one of the ways every such game may end. Stored as the variant's
/// endings always were: `{"Resigned":1}`, `"Agreed"`, and the variant's own
/// (`"Stalemate"`, `{"Mated":0}`) untagged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ended<R> {
    /// This seat resigned.
    Resigned(Seat),
    /// This seat's time ran out.
    TimedOut(Seat),
    /// This seat's time ran out, but its opponent could never have won (insufficient
    /// material): drawn.
    TimedOutDrawn(Seat),
    /// Drawn by agreement.
    Agreed,
    /// Called off: the game has no outcome.
    Aborted,
    /// By the variant's own rules.
    #[serde(untagged)]
    Rules(R),
}

/// The result of a game of two seats that `seat` won: `1-0` or `0-1`.
pub fn won_by(seat: Seat) -> &'static str {
    if seat.0 == 0 {
        "1-0"
    } else {
        "0-1"
    }
}

/// The result of a game of two seats that `seat` lost.
pub fn lost_by(seat: Seat) -> &'static str {
    won_by(Seat(seat.0 ^ 1))
}

impl<R> Ended<R> {
    /// The outcome in the referee's form, the variant's own endings by `rules`; `None`
    /// for an aborted game.
    pub fn outcome(self, rules: impl FnOnce(R) -> GameOutcome) -> Option<GameOutcome> {
        let (result, reason) = match self {
            Ended::Rules(r) => return Some(rules(r)),
            Ended::Aborted => return None,
            Ended::Resigned(s) => (lost_by(s), EndReason::Resignation),
            Ended::TimedOut(s) => (lost_by(s), EndReason::Timeout),
            Ended::TimedOutDrawn(_) => ("1/2-1/2", EndReason::TimeoutVsInsufficientMaterial),
            Ended::Agreed => ("1/2-1/2", EndReason::Agreement),
        };
        Some(GameOutcome::new(result, reason))
    }
}

/// A note the lifecycle gives, after the player's name: its words, and whether it shows
/// the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Said {
    /// The words after the player's name (` resigns`).
    pub words: &'static str,
    /// Whether the message shows the board ([`Note::moved`]).
    pub board: bool,
}

impl Said {
    /// A public note without the board.
    pub const fn public(words: &'static str) -> Said {
        Said {
            words,
            board: false,
        }
    }

    /// A public note shown with the board.
    pub const fn moved(words: &'static str) -> Said {
        Said { words, board: true }
    }

    /// The note, naming the player of `seat`.
    pub fn note(self, seat: Seat) -> Note {
        let text = Text::player(seat, self.words);
        if self.board {
            Note::moved(text)
        } else {
            Note::public(text)
        }
    }
}

/// What a variant's refusals and notes say about one kind of offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OfferWords {
    /// The refusal of an offer by the seat whose offer is open.
    pub already_made: &'static str,
    /// The refusal of an offer while the opponent's is open.
    pub answer_first: &'static str,
    /// The refusal of an answer to one's own offer.
    pub own: &'static str,
    /// The refusal of an answer when no offer is open.
    pub none: &'static str,
    /// The note of an offer.
    pub made: Said,
    /// The note of an acceptance, where the game's end does not say it.
    pub accepted: Option<Said>,
    /// The note of an offer declined.
    pub declined: Said,
}

/// A draw offer's words in most variants.
pub const DRAW_OFFER: OfferWords = OfferWords {
    already_made: "you have already offered a draw",
    answer_first: concat!(
        "your opponent has offered a draw: answer it first (",
        command_mark_str!("draw accept"),
        " or ",
        command_mark_str!("draw decline"),
        ")"
    ),
    own: "you cannot answer your own draw offer",
    none: "there is no draw offer to answer",
    made: Said::public(concat!(
        " offers a draw: ",
        command_mark_str!("draw accept"),
        " or ",
        command_mark_str!("draw decline")
    )),
    accepted: None,
    declined: Said::public(" declines the draw"),
};

/// What a variant's lifecycle says, and how its endings treat an open offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelWords {
    /// The draw offer's words.
    pub offer: OfferWords,
    /// The note of a resignation.
    pub resigned: Said,
    /// The note of a timeout, if the game's end does not say it.
    pub timed_out: Option<Said>,
    /// The note of an abort, if the game's end does not say it.
    pub aborted: Option<Said>,
    /// The refusal of an abort once each side has had a turn.
    pub too_late: &'static str,
    /// Whether an ending closes the open offer. A variant whose games were stored with
    /// the offer kept after the end keeps it, so that those games replay the same.
    pub ending_closes_offer: bool,
}

/// The lifecycle's words in most variants.
pub const DUEL_WORDS: DuelWords = DuelWords {
    offer: DRAW_OFFER,
    resigned: Said::public(" resigns"),
    timed_out: None,
    aborted: None,
    too_late: "both sides have had a turn: the game can no longer be aborted (resign instead)",
    ending_closes_offer: true,
};

/// Refuses any action of a game that is over: aborted, or ended.
pub fn refuse_if_over(over: bool, aborted: bool) -> Result<(), RuleError> {
    if aborted {
        Err(RuleError::over("the game was aborted"))
    } else if over {
        Err(RuleError::over("the game is over"))
    } else {
        Ok(())
    }
}

/// Makes `seat`'s offer where `open` is the seat whose offer is open: refused in the
/// words of the open offer when there is one, else recorded; its note in `words`.
pub fn make_offer(
    open: &mut Option<Seat>,
    seat: Seat,
    words: &OfferWords,
) -> Result<Note, RuleError> {
    match *open {
        Some(by) if by == seat => Err(RuleError::new(words.already_made)),
        Some(_) => Err(RuleError::new(words.answer_first)),
        None => {
            *open = Some(seat);
            Ok(words.made.note(seat))
        }
    }
}

/// Answers the offer `open` (the seat that made it) as `seat`, closing it: refused when
/// there is none or it is `seat`'s own. The note of the answer, if it has one; the
/// caller ends the game on an acceptance.
pub fn answer_offer(
    open: &mut Option<Seat>,
    seat: Seat,
    accept: bool,
    words: &OfferWords,
) -> Result<Option<Note>, RuleError> {
    match *open {
        Some(by) if by != seat => {}
        Some(_) => return Err(RuleError::new(words.own)),
        None => return Err(RuleError::new(words.none)),
    }
    *open = None;
    Ok(if accept {
        words.accepted.map(|s| s.note(seat))
    } else {
        Some(words.declined.note(seat))
    })
}

/// Where a game of two seats stands in its lifecycle: the seat whose draw offer is
/// open, and how the game ended. Stored as the two fields `offer` and `ended`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duel<R> {
    /// The seat whose draw offer is open.
    pub offer: Option<Seat>,
    /// How the game ended, if it has.
    pub ended: Option<Ended<R>>,
}

impl<R> Default for Duel<R> {
    fn default() -> Self {
        Duel {
            offer: None,
            ended: None,
        }
    }
}

impl<R: Copy> Duel<R> {
    /// Whether the game is over (ended or aborted).
    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// Whether the game was called off.
    pub fn aborted(&self) -> bool {
        matches!(self.ended, Some(Ended::Aborted))
    }

    /// Refuses any action once the game is over.
    pub fn check_open(&self) -> Result<(), RuleError> {
        refuse_if_over(self.is_over(), self.aborted())
    }

    /// The seat the open offer waits for.
    pub fn offered_to(&self) -> Option<Seat> {
        self.offer.map(|by| Seat(by.0 ^ 1))
    }

    /// `mover` played on: the opponent's open offer lapses. Whether it did.
    pub fn play_on(&mut self, mover: Seat) -> bool {
        let lapses = self.offer.is_some_and(|by| by != mover);
        if lapses {
            self.offer = None;
        }
        lapses
    }

    /// The outcome in the referee's form, the variant's own endings by `rules`; `None`
    /// while the game goes on and once it is aborted.
    pub fn outcome(&self, rules: impl FnOnce(R) -> GameOutcome) -> Option<GameOutcome> {
        self.ended?.outcome(rules)
    }

    /// Ends the game `how`, closing the open offer where the variant's `words` say an
    /// ending does.
    pub fn finish(&mut self, how: Ended<R>, words: &DuelWords) {
        self.ended = Some(how);
        if words.ending_closes_offer {
            self.offer = None;
        }
    }

    /// Applies a lifecycle action of `seat` in a variant that says it in `words`:
    /// refused for a seat beyond the two and once the game is over, and an abort unless
    /// the game is still `abortable` (before each side has had a turn). On a timeout,
    /// `could_never_win` is the variant's rule of insufficient material: whether a seat
    /// could never win whatever it played, when its opponent's running out of time is a
    /// draw (`|_| false` where a seat always could). On error nothing changed.
    pub fn act(
        &mut self,
        seat: Seat,
        action: DuelAction,
        words: &DuelWords,
        abortable: bool,
        could_never_win: impl FnOnce(Seat) -> bool,
    ) -> Result<Vec<Note>, RuleError> {
        seat.side()?;
        self.check_open()?;
        let said = |s: Option<Said>| s.map(|s| s.note(seat)).into_iter().collect();
        match action {
            DuelAction::Offer => Ok(vec![make_offer(&mut self.offer, seat, &words.offer)?]),
            DuelAction::Accept | DuelAction::Decline => {
                let accept = action == DuelAction::Accept;
                let note = answer_offer(&mut self.offer, seat, accept, &words.offer)?;
                if accept {
                    self.finish(Ended::Agreed, words);
                }
                Ok(note.into_iter().collect())
            }
            DuelAction::Resign => {
                self.finish(Ended::Resigned(seat), words);
                Ok(said(Some(words.resigned)))
            }
            DuelAction::Timeout => {
                let how = if could_never_win(Seat(seat.0 ^ 1)) {
                    Ended::TimedOutDrawn(seat)
                } else {
                    Ended::TimedOut(seat)
                };
                self.finish(how, words);
                Ok(said(words.timed_out))
            }
            DuelAction::Abort => {
                if !abortable {
                    return Err(RuleError::new(words.too_late));
                }
                self.finish(Ended::Aborted, words);
                Ok(said(words.aborted))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy's own ending.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    enum Own {
        Mated(Seat),
        Stalemate,
    }

    /// A toy game: its lifecycle, its turns so far, and the seat left with a bare king.
    #[derive(Default)]
    struct Toy {
        duel: Duel<Own>,
        turns: u8,
        bare: Option<Seat>,
    }

    impl Toy {
        fn act_duel(&mut self, seat: Seat, action: DuelAction) -> Result<Vec<Note>, RuleError> {
            let bare = self.bare;
            self.duel
                .act(seat, action, &DUEL_WORDS, self.turns < 2, |s| {
                    bare == Some(s)
                })
        }
    }

    fn own(e: Own) -> GameOutcome {
        match e {
            Own::Mated(s) => GameOutcome::new(lost_by(s), EndReason::Checkmate),
            Own::Stalemate => GameOutcome::new("1/2-1/2", EndReason::Stalemate),
        }
    }

    #[test]
    fn endings_are_stored_with_the_variants_own_untagged() {
        let forms: [(Ended<Own>, &str); 6] = [
            (Ended::Resigned(Seat(1)), r#"{"Resigned":1}"#),
            (Ended::TimedOut(Seat(0)), r#"{"TimedOut":0}"#),
            (Ended::Agreed, r#""Agreed""#),
            (Ended::Aborted, r#""Aborted""#),
            (Ended::Rules(Own::Stalemate), r#""Stalemate""#),
            (Ended::Rules(Own::Mated(Seat(0))), r#"{"Mated":0}"#),
        ];
        for (e, text) in forms {
            assert_eq!(serde_json::to_string(&e).unwrap(), text);
            assert_eq!(serde_json::from_str::<Ended<Own>>(text).unwrap(), e);
        }
        assert!(serde_json::from_str::<Ended<Own>>(r#""Scored""#).is_err());
        let a: DuelAction = serde_json::from_str(r#""Resign""#).unwrap();
        assert_eq!(a, DuelAction::Resign);
    }

    #[test]
    fn outcomes_name_the_winner_by_seat() {
        let say = |e: Ended<Own>| e.outcome(own).map(|o| o.to_string());
        assert_eq!(say(Ended::Resigned(Seat(0))).unwrap(), "0-1 by resignation");
        assert_eq!(say(Ended::TimedOut(Seat(1))).unwrap(), "1-0 by timeout");
        assert_eq!(
            say(Ended::TimedOutDrawn(Seat(1))).unwrap(),
            "1/2-1/2 by timeout-vs-insufficient-material"
        );
        assert_eq!(say(Ended::Agreed).unwrap(), "1/2-1/2 by agreement");
        assert_eq!(
            say(Ended::Rules(Own::Mated(Seat(1)))).unwrap(),
            "1-0 by checkmate"
        );
        assert_eq!(say(Ended::Aborted), None);
    }

    #[test]
    fn offers_are_made_answered_and_refused_in_the_variants_words() {
        let mut g = Toy::default();
        let text = |r: Result<Vec<Note>, RuleError>| match r {
            Ok(n) => n
                .iter()
                .map(|n| n.text.render(|s| format!("P{}", s.0)))
                .collect::<Vec<_>>()
                .join("|"),
            Err(e) => format!("refused: {}", e.text),
        };
        assert_eq!(
            text(g.act_duel(Seat(1), DuelAction::Accept)),
            "refused: there is no draw offer to answer"
        );
        assert_eq!(
            text(g.act_duel(Seat(0), DuelAction::Offer)),
            "P0 offers a draw: \u{E003}draw accept\u{E004} or \u{E003}draw decline\u{E004}"
        );
        assert_eq!(
            text(g.act_duel(Seat(0), DuelAction::Offer)),
            "refused: you have already offered a draw"
        );
        assert!(text(g.act_duel(Seat(1), DuelAction::Offer)).contains("answer it first"));
        assert_eq!(
            text(g.act_duel(Seat(0), DuelAction::Decline)),
            "refused: you cannot answer your own draw offer"
        );
        assert_eq!(g.duel.offered_to(), Some(Seat(1)));
        assert_eq!(
            text(g.act_duel(Seat(1), DuelAction::Decline)),
            "P1 declines the draw"
        );
        assert_eq!(g.duel.offer, None);
        g.act_duel(Seat(1), DuelAction::Offer).unwrap();
        assert!(!g.duel.play_on(Seat(1)));
        assert!(g.duel.play_on(Seat(0)));
        g.act_duel(Seat(1), DuelAction::Offer).unwrap();
        assert_eq!(text(g.act_duel(Seat(0), DuelAction::Accept)), "");
        assert_eq!(g.duel.ended, Some(Ended::Agreed));
        assert_eq!(
            text(g.act_duel(Seat(0), DuelAction::Resign)),
            "refused: the game is over"
        );
        assert!(g.act_duel(Seat(2), DuelAction::Resign).is_err());
    }

    #[test]
    fn resignation_timeout_and_abort_end_the_game_and_close_the_offer() {
        let mut g = Toy::default();
        g.act_duel(Seat(0), DuelAction::Offer).unwrap();
        let n = g.act_duel(Seat(1), DuelAction::Resign).unwrap();
        assert_eq!(n[0].text.render(|s| format!("P{}", s.0)), "P1 resigns");
        assert_eq!(
            g.duel,
            Duel {
                offer: None,
                ended: Some(Ended::Resigned(Seat(1)))
            }
        );
        let mut g = Toy::default();
        assert!(g.act_duel(Seat(0), DuelAction::Timeout).unwrap().is_empty());
        assert_eq!(g.duel.ended, Some(Ended::TimedOut(Seat(0))));
        // The opponent of the seat out of time has a bare king: drawn.
        let mut g = Toy {
            bare: Some(Seat(1)),
            ..Toy::default()
        };
        g.act_duel(Seat(0), DuelAction::Timeout).unwrap();
        assert_eq!(g.duel.ended, Some(Ended::TimedOutDrawn(Seat(0))));
        let mut g = Toy {
            turns: 2,
            ..Toy::default()
        };
        let e = g.act_duel(Seat(0), DuelAction::Abort).unwrap_err();
        assert!(e.text.starts_with("both sides have had a turn"));
        g.turns = 1;
        g.act_duel(Seat(0), DuelAction::Abort).unwrap();
        assert!(g.duel.aborted());
        assert_eq!(
            g.act_duel(Seat(0), DuelAction::Abort).unwrap_err().text,
            "the game was aborted"
        );
        assert_eq!(g.duel.outcome(own), None);
    }
}
