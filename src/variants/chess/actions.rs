//! Applying an action: moves, resignation, offers and their answers, claims, timeouts and
//! aborts, with the notes each gives.

use super::{
    color_of, find_turn_among, find_uci, seat_of, text, ChessAction, ChessRules, ClaimKind,
    OfferKind,
};
use crate::notation::openings::left_book;
use crate::notation::pgn::turn_san;
use crate::notation::san;
use crate::notation::san::san_among_legal;
use crate::rules::{Claim, Color, DoubleMoveError, EndReason, IllegalMove, Outcome, Turn};
use crate::variants::api::{
    answer_offer, make_offer, refuse_if_over, GameRules, Note, RuleError, Seat, Text,
};

impl ChessRules {
    pub(super) fn over_check(&self) -> Result<(), RuleError> {
        refuse_if_over(self.outcome.is_some(), self.aborted)
    }

    fn end(&mut self, o: Outcome) {
        self.outcome = Some(o);
        self.offer = None;
    }

    fn play_move(&mut self, color: Color, text: &str) -> Result<Vec<Note>, RuleError> {
        if self.game.turn() != color {
            return Err(RuleError::not_your_turn("it is not your turn"));
        }
        let pos = *self.game.position();
        // The legal moves listed once: the move is found among them, written in SAN
        // against them and played as one of them (each listed them again).
        let legal = pos.legal_moves();
        let turn = find_turn_among(&pos, &legal, text)?;
        let written = match turn {
            Turn::Single(m) => san_among_legal(&pos, m, &legal),
            Turn::Double(..) => turn_san(&pos, turn),
        };
        let said = text::describe_turn(&pos, turn, &written);
        let plies_before = self.game.plies();
        let outcome = match turn {
            Turn::Single(m) => self.game.play_legal(m).map_err(|e| match e {
                IllegalMove::GameOver => DoubleMoveError::GameOver,
                IllegalMove::NotLegal => DoubleMoveError::FirstIllegal(m.uci()),
            }),
            Turn::Double(..) => self.game.play_turn(turn),
        };
        outcome.map_err(|e| RuleError::new(text::double_move_refusal(&pos, &e)))?;
        let mut notes = vec![played(seat_of(color), &said)];
        if let Some(opening) =
            left_book(self.game.start(), &pos, plies_before, self.game.position())
        {
            notes.push(Note::public(Text::plain(format!(
                "Opening: {} {}",
                opening.eco, opening.name
            ))));
        }
        if let Some((by, kind)) = self.offer {
            if by != color {
                // Moving instead of answering declines the opponent's offer.
                self.offer = None;
                notes.push(lapsed(kind));
            }
        }
        if let Some(o) = self.game.outcome() {
            self.end(o);
        }
        Ok(notes)
    }

    fn offer_allowed(&self, kind: OfferKind) -> Result<(), RuleError> {
        match kind {
            OfferKind::Draw if !self.has_draws() => Err(RuleError::new(format!(
                "{} has no draws",
                self.game.variant().display_name()
            ))),
            OfferKind::FastFifty if !self.is_sharp() => Err(RuleError::new(format!(
                "fast-fifty exists only in Chess#, not in {}",
                self.game.variant().display_name()
            ))),
            _ => Ok(()),
        }
    }
}

/// The note of a move.
fn played(seat: Seat, san: &str) -> Note {
    Note::moved(Text::player(seat, format!(" played {san}")))
}

/// The note of an offer that lapsed because the side it was made to played on (in
/// Split-Brain Chess the move is the team's, so no one partner "declined").
fn lapsed(kind: OfferKind) -> Note {
    Note::public(Text::plain(format!(
        "the {} proposal lapses as play goes on",
        kind.word()
    )))
}

impl ChessRules {
    /// Whether an abort is still allowed: before each side has moved.
    pub fn can_abort(&self) -> bool {
        !self.is_over() && self.game.plies() < 2
    }

    /// Applies an action of the variant's own type.
    pub(super) fn act(&mut self, seat: Seat, action: ChessAction) -> Result<Vec<Note>, RuleError> {
        let color = color_of(seat)?;
        self.over_check()?;
        let mut notes = Vec::new();
        match action {
            ChessAction::Move(uci) => return self.play_move(color, &uci),
            ChessAction::Resign => {
                let o = self
                    .game
                    .resign(color)
                    .map_err(|e| RuleError::new(e.to_string()))?;
                self.end(o);
                notes.push(Note::public(Text::player(seat, " resigns")));
            }
            ChessAction::Offer(kind) => {
                self.offer_allowed(kind)?;
                // Refused in the words of the open proposal, if there is one.
                let words = self.offer.map_or(kind, |(_, k)| k).words();
                let mut open = self.offer.map(|(by, _)| seat_of(by));
                notes.push(make_offer(&mut open, seat, words)?);
                self.offer = Some((color, kind));
            }
            ChessAction::Accept(kind) | ChessAction::Decline(kind) => {
                self.offer_allowed(kind)?;
                let accept = matches!(action, ChessAction::Accept(_));
                let mut open = self
                    .offer
                    .filter(|(_, k)| *k == kind)
                    .map(|(by, _)| seat_of(by));
                let note = answer_offer(&mut open, seat, accept, kind.words())?;
                if accept {
                    let o = self
                        .game
                        .agree_to_end()
                        .map_err(|e| RuleError::new(e.to_string()))?;
                    self.end(o);
                } else {
                    self.offer = None;
                }
                notes.extend(note);
            }
            ChessAction::Claim(kind, intended) => {
                return self.claim(color, kind, intended.as_deref())
            }
            ChessAction::Timeout => {
                // `seat` is the side whose time ran out.
                let o = self
                    .game
                    .timeout(color)
                    .map_err(|e| RuleError::new(e.to_string()))?;
                self.end(o);
            }
            ChessAction::Abort => {
                if !self.can_abort() {
                    return Err(RuleError::new(
                        "both sides have moved: the game can no longer be aborted (resign instead)",
                    ));
                }
                self.aborted = true;
                self.offer = None;
            }
        }
        Ok(notes)
    }

    /// A claim by `color`, with the move it intends (a draw claim may name one).
    fn claim(
        &mut self,
        color: Color,
        kind: ClaimKind,
        intended: Option<&str>,
    ) -> Result<Vec<Note>, RuleError> {
        let claim = match kind {
            ClaimKind::Stalemate => Claim::Stalemate,
            ClaimKind::Impasse => Claim::Impasse,
            ClaimKind::Draw => return self.claim_draw(color, intended),
            ClaimKind::Time => {
                return Err(RuleError::new(
                    "a time claim is judged by the referee's clock",
                ))
            }
        };
        if intended.is_some() {
            return Err(RuleError::new("this claim takes no move"));
        }
        let before = *self.game.position();
        let o = self
            .game
            .claim(color, claim, None)
            .map_err(|e| RuleError::new(text::claim_refusal(&before, &e)))?;
        self.end(o);
        let what = match claim {
            Claim::Stalemate => " claims to be stalemated",
            _ => " claims an impasse",
        };
        Ok(vec![Note::public(Text::player(seat_of(color), what))])
    }

    /// A draw claim: threefold repetition first, then the fifty-move rule, on the
    /// position now or after the intended move.
    fn claim_draw(&mut self, color: Color, intended: Option<&str>) -> Result<Vec<Note>, RuleError> {
        if !self.has_draws() {
            return Err(RuleError::new(format!(
                "{} has no draws",
                self.game.variant().display_name()
            )));
        }
        if intended.is_some_and(|u| u.contains(' ')) {
            return Err(RuleError::new(
                "a draw claim may name a single move, not a double move",
            ));
        }
        let m = match intended {
            Some(u) => Some(
                find_uci(self.game.position(), u)
                    .ok_or_else(|| RuleError::new("the move named with the claim is not legal"))?,
            ),
            None => None,
        };
        let before = *self.game.position();
        let mut trial = self.game.clone();
        // A refused claim tells both counts: the repetitions and the fifty-move count.
        let res = trial
            .claim(color, Claim::ThreefoldRepetition, m)
            .or_else(|e1| {
                let mut t2 = self.game.clone();
                match t2.claim(color, Claim::FiftyMoveRule, m) {
                    Ok(o) => {
                        trial = t2;
                        Ok(o)
                    }
                    Err(e2) if e2.to_string() == e1.to_string() => Err(e1.to_string()),
                    Err(e2) => Err(format!("no draw to claim: {e1}; {e2}")),
                }
            })
            .map_err(RuleError::new)?;
        self.game = trial;
        let mut notes = Vec::new();
        if let Some(m) = m {
            notes.push(played(seat_of(color), &san(&before, m)));
        }
        let by = match res.reason {
            EndReason::FiftyMoveRule => "the fifty-move rule",
            _ => "threefold repetition",
        };
        notes.push(Note::public(Text::player(
            seat_of(color),
            format!(" claims a draw by {by}"),
        )));
        self.end(res);
        Ok(notes)
    }
}
