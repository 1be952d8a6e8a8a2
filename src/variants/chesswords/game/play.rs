//! A turn of play (rules 5 and 7): the partner's clue or pass, and the mover's move
//! named by a word or by its two letters; and [`Chesswords::act`], which applies an
//! action of any phase on a copy so that a refusal changes nothing.

use super::*;
use crate::variants::chesswords::prompts::say::*;

/// A clue as typed, trimmed, or why it is not one (rule 5: 1 to 100 characters on one
/// line).
fn clue_text(text: &str) -> Result<String, RuleError> {
    let clue = text.trim();
    if clue.is_empty() || clue.contains(['\n', '\r']) || clue.chars().count() > MAX_CLUE {
        return Err(RuleError::new(format!(
            "a clue is 1 to {MAX_CLUE} characters on one line: {CLUE} (or {PASS})"
        )));
    }
    Ok(clue.to_string())
}

/// Two letters, as typed for `letters XY MOVE`, in upper case.
fn two_letters(text: &str) -> Result<(char, char), RuleError> {
    let letters: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    match letters.as_slice() {
        [a, b] if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
            Ok((a.to_ascii_uppercase(), b.to_ascii_uppercase()))
        }
        _ => Err(RuleError::new(format!(
            "'{}' is not two letters: name the move's first and last letters, e.g. {LETTERS_EXAMPLE}",
            text.chars().take(20).collect::<String>()
        ))),
    }
}

impl Chesswords {
    fn clue(&mut self, seat: Seat, text: &str) -> Result<Vec<Event>, RuleError> {
        match self.state.phase {
            Phase::Clue if seat == partner(self.mover()) => {
                let clue = clue_text(text)?;
                let events = vec![said(format!("{}'s clue: “{clue}”", side(seat)))];
                self.close_discard_of(seat);
                self.state.last_pass = false;
                self.state.phase = Phase::Move { clue: Some(clue) };
                Ok(events)
            }
            Phase::FinaleClue { giver } if seat == giver => {
                let clue = clue_text(text)?;
                let events = vec![said(format!(
                    "{}'s clue for one of their words: “{clue}”. {}: {GUESS}",
                    side(seat),
                    side(partner(seat))
                ))];
                self.state.finale[seat.0 as usize].clue = Some(clue);
                self.state.phase = Phase::FinaleGuess { giver };
                Ok(events)
            }
            _ => self.refuse("you cannot give a clue"),
        }
    }

    pub(super) fn pass(&mut self, seat: Seat) -> Result<Vec<Event>, RuleError> {
        if self.state.phase != Phase::Clue || seat != partner(self.mover()) {
            return match self.state.phase {
                Phase::FinaleClue { giver } if giver == seat => Err(RuleError::new(format!(
                    "in the finale there is no passing: give a clue for one of your words \
                     ({CLUE})",
                ))),
                _ => self.refuse("you cannot pass"),
            };
        }
        let mut events = Vec::new();
        self.close_discard_of(seat);
        if self.state.last_pass {
            events.push(said(format!(
                "{} passes after {}'s pass",
                side(seat),
                side(partner(seat))
            )));
            self.end_play(PlayEnd::Passes, &mut events);
        } else {
            events.push(said(format!(
                "{} passes: {} moves freely",
                side(seat),
                side(partner(seat))
            )));
            self.state.last_pass = true;
            self.state.phase = Phase::Move { clue: None };
        }
        Ok(events)
    }

    /// The mover's move, checked against what the turn's first half allows: a word after
    /// a clue (`Some(Ok(word))`), two letters (`Some(Err(letters))`), nothing after a
    /// pass (`None`).
    fn play(
        &mut self,
        seat: Seat,
        said_with: Option<Result<&str, &str>>,
        uci: &str,
    ) -> Result<Vec<Event>, RuleError> {
        let clue = match &self.state.phase {
            Phase::Move { clue } if seat == self.mover() => clue.clone(),
            _ => return self.refuse("you cannot move"),
        };
        match (&clue, &said_with) {
            (Some(_), None) => {
                return Err(RuleError::new(format!(
                    "after a clue say the word you guessed with your move: {PLAY} (or \
                     {LETTERS} for a penalty point)",
                )))
            }
            (None, Some(_)) => {
                return Err(RuleError::new(format!(
                    "{} passed, so you move freely: {MOVE} (no word or letters)",
                    side(partner(seat))
                )))
            }
            _ => {}
        }
        let m = self.find_move(uci)?;
        let (from, to) = (self.letter(m.from), self.letter(m.to));
        let record = view::said_with_move(clue.as_deref(), said_with);
        let note = match said_with {
            None => None,
            Some(Ok(word)) => {
                let word = score::word_form(word).map_err(|e| RuleError::new(e.to_string()))?;
                score::played_word(&word).map_err(|e| RuleError::new(e.to_string()))?;
                score::matches_move(&word, from, to).map_err(|e| {
                    RuleError::new(format!(
                        "{e}: choose a move from {}… to …{} of your word, or name the \
                         letters ({LETTERS}, one penalty point)",
                        &word[..1],
                        &word[word.len() - 1..]
                    ))
                })?;
                Some(format!("with the word {word} ({from} to {to})"))
            }
            Some(Err(letters)) => {
                let (a, b) = two_letters(letters)?;
                if (a, b) != (from, to) {
                    return Err(RuleError::new(format!(
                        "the move goes from {from} to {to}, not from {a} to {b}"
                    )));
                }
                Some(format!(
                    "naming the letters {from} and {to}: one penalty point ({} in all)",
                    self.state.penalties + 1
                ))
            }
        };
        let before = *self.position();
        self.close_discard_of(seat);
        self.game
            .play(m)
            .map_err(|e| RuleError::new(e.to_string()))?;
        self.state.moves.push(m.uci());
        if self.state.keeps_said {
            self.state.said.push((self.state.moves.len() - 1, record));
        }
        if matches!(said_with, Some(Err(_))) {
            self.state.penalties += 1;
        }
        let mut events = vec![Note::moved(Text::player(
            seat,
            format!(" played {}", san(&before, m)),
        ))];
        events.extend(note.map(said));
        self.after_move(seat, m, &mut events);
        Ok(events)
    }
}

impl Chesswords {
    /// Applies an action of the variant's own type. On error nothing changed.
    pub fn act(&mut self, seat: Seat, action: &ChesswordsAction) -> Result<Vec<Event>, RuleError> {
        color_of(seat)?;
        if self.state.aborted {
            return Err(RuleError::over("the game was aborted"));
        }
        if self.state.phase == Phase::Over {
            return Err(RuleError::over("the game is over"));
        }
        // Work on a copy so that a refusal anywhere changes nothing.
        let mut next = self.clone();
        let events = match action {
            ChesswordsAction::Clue(text) => next.clue(seat, text),
            ChesswordsAction::Pass => next.pass(seat),
            ChesswordsAction::Play { word, mv } => next.play(seat, Some(Ok(word)), mv),
            ChesswordsAction::Letters { letters, mv } => next.play(seat, Some(Err(letters)), mv),
            ChesswordsAction::Move(mv) => next.play(seat, None, mv),
            ChesswordsAction::Discard(card) if self.state.secret_discards => {
                next.discard_secretly(seat, card)
            }
            ChesswordsAction::Discard(card) => next.choose_discard(seat, card),
            ChesswordsAction::Words(words) => next.submit_words(seat, words),
            ChesswordsAction::Guess(word) => next.guess(seat, word),
            ChesswordsAction::Timeout => next.timeout(seat),
            ChesswordsAction::Resign => {
                let outcome = GameOutcome::new(score::Grade::Lost.letter(), EndReason::Resignation);
                next.state.phase = Phase::Over;
                next.state.outcome = Some(NamedOutcome::from(&outcome));
                Ok(vec![said(format!(
                    "{} resigns: the partners lose the game together (F)",
                    side(seat)
                ))])
            }
            ChesswordsAction::Abort => {
                if !self.can_abort() {
                    return Err(RuleError::new(
                        "both sides have moved: the game can no longer be aborted (resign instead)",
                    ));
                }
                next.state.aborted = true;
                next.state.phase = Phase::Over;
                Ok(Vec::new())
            }
        }?;
        *self = next;
        Ok(events)
    }

    /// Reads a move typed by `seat` into its UCI: only the mover, in a turn's move, and
    /// not onto a checker.
    pub fn parse_move(&self, seat: Seat, text: &str) -> Result<String, RuleError> {
        color_of(seat)?;
        if self.is_over() {
            return Err(RuleError::over("the game is over"));
        }
        if !matches!(self.state.phase, Phase::Move { .. }) || seat != self.mover() {
            return self.refuse("you cannot move");
        }
        let m = parse_move(self.position(), text).map_err(RuleError::from)?;
        Ok(self.find_move(&m.uci())?.uci())
    }
}
