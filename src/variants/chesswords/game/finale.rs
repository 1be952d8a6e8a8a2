//! The end of play and the finale (rules 8 to 12): secret words, clues, guesses,
//! reveals and the score; and what a timeout does in every phase.

use super::*;
use crate::variants::chesswords::prompts::say::*;

/// The fewest marked letters that two finale words can be made of: each word has at
/// least two letters and each marked letter is used at most once (rule 9).
pub const FINALE_LETTERS: usize = 4;

impl Chesswords {
    /// After a move and its discard: play ends on a captured king or a mover without
    /// moves; otherwise the next clue.
    pub(super) fn continue_play(&mut self, events: &mut Vec<Event>) {
        if self.state.king_captured {
            self.end_play(PlayEnd::KingCaptured, events);
        } else if self.playable_moves().is_empty() {
            self.end_play(PlayEnd::NoMoves, events);
        } else {
            self.state.phase = Phase::Clue;
        }
    }

    /// Play is over: the holder of a discard still open decides on it (rule 8), then the
    /// finale.
    pub(super) fn end_play(&mut self, why: PlayEnd, events: &mut Vec<Event>) {
        self.state.play_end = Some(why);
        if let Some(open) = &self.state.open_discard {
            events.push(said(format!(
                "play is over: {}. {} may still discard for {}'s last capture and decides \
                 privately ({DISCARD} or {DISCARD_NONE}) before the finale",
                why.words(),
                side(open.holder),
                side(partner(open.holder))
            )));
            self.state.phase = Phase::LastDiscard {
                holder: open.holder,
            };
            return;
        }
        self.begin_finale(events);
    }

    /// The finale's words, or the score at once when fewer letters are marked than two
    /// words need ([`FINALE_LETTERS`]): nobody could send words, so nobody waits for them.
    pub(super) fn begin_finale(&mut self, events: &mut Vec<Event>) {
        let why = self.state.play_end.unwrap_or(PlayEnd::NoMoves);
        let marked = self.marked_letters().len();
        if marked < FINALE_LETTERS {
            let few = match marked {
                0 => "No letters are marked".to_string(),
                1 => format!(
                    "Only 1 letter is marked ({}), too few for two words",
                    self.marked_text()
                ),
                n => format!(
                    "Only {n} letters are marked ({}), too few for two words",
                    self.marked_text()
                ),
            };
            events.push(said(format!(
                "play is over: {}. {few}, so there is no finale",
                why.words()
            )));
            self.score(events);
            return;
        }
        let timer = match self.state.timer_minutes {
            Some(t) => format!(" within {}", plural(t as usize, "minute")),
            None => String::new(),
        };
        events.push(said(format!(
            "play is over: {}. The marked letters are {}. Each player sends me two words \
             made from them privately{timer}: {WORDS} (or {WORDS_NONE})",
            why.words(),
            self.marked_text()
        )));
        self.state.phase = Phase::Words;
    }

    // ----- the finale -----

    pub(super) fn submit_words(
        &mut self,
        seat: Seat,
        words: &[String],
    ) -> Result<Vec<Event>, RuleError> {
        if self.state.phase != Phase::Words {
            return self.refuse("words are not asked for");
        }
        let words: Vec<String> = match words {
            [] => Vec::new(),
            [a, b] => vec![
                score::word_form(a).map_err(|e| RuleError::new(e.to_string()))?,
                score::word_form(b).map_err(|e| RuleError::new(e.to_string()))?,
            ],
            _ => {
                return Err(RuleError::new(format!(
                    "send two words: {WORDS} (or {WORDS_NONE})"
                )))
            }
        };
        let unused = score::letters_unused(&words, &self.marked_letters())
            .map_err(|e| RuleError::new(e.to_string()))?;
        let first = self.state.words[seat.0 as usize].is_none();
        let mut events = vec![whisper(
            seat,
            if words.is_empty() {
                "you submitted no words".to_string()
            } else {
                format!(
                    "your words: {} and {} ({} of the marked letters unused)",
                    words[0], words[1], unused
                )
            },
        )];
        self.state.words[seat.0 as usize] = Some(words);
        if first {
            events.push(said(format!("{} has submitted their words", side(seat))));
        }
        if self.state.words.iter().all(Option::is_some) {
            self.finale_turn(SEATS[0], &mut events);
        } else {
            events.push(whisper(
                seat,
                "you may replace them until your partner has submitted",
            ));
        }
        Ok(events)
    }

    /// The finale turn of `giver`, or of the next player with words, or the score.
    pub(super) fn finale_turn(&mut self, giver: Seat, events: &mut Vec<Event>) {
        for g in SEATS.into_iter().filter(|s| s.0 >= giver.0) {
            let has_words = self.state.words[g.0 as usize]
                .as_ref()
                .is_some_and(|w| !w.is_empty());
            if has_words {
                events.push(said(format!(
                    "{}: give a clue for one of your words ({CLUE})",
                    side(g)
                )));
                self.state.phase = Phase::FinaleClue { giver: g };
                return;
            }
            events.push(said(format!(
                "{} has no words: {} has nothing to guess",
                side(g),
                side(partner(g))
            )));
            self.state.finale[g.0 as usize].guessed = Some(false);
        }
        self.score(events);
    }

    pub(super) fn guess(&mut self, seat: Seat, text: &str) -> Result<Vec<Event>, RuleError> {
        let giver = match self.state.phase {
            Phase::FinaleGuess { giver } if seat == partner(giver) => giver,
            _ => return self.refuse("you cannot guess"),
        };
        let word = score::word_form(text).map_err(|e| RuleError::new(e.to_string()))?;
        let right = self.words_of(giver).contains(&word);
        let mut events = vec![said(format!(
            "{} guesses {word}: {}",
            side(seat),
            if right {
                "right!"
            } else {
                "not one of the words"
            }
        ))];
        let turn = &mut self.state.finale[giver.0 as usize];
        turn.guess = Some(word);
        turn.guessed = Some(right);
        self.reveal(giver, &mut events);
        Ok(events)
    }

    pub(super) fn words_of(&self, seat: Seat) -> Vec<String> {
        self.state.words[seat.0 as usize]
            .clone()
            .unwrap_or_default()
    }

    /// Reveals `giver`'s words and moves on to the next finale turn.
    pub(super) fn reveal(&mut self, giver: Seat, events: &mut Vec<Event>) {
        let words = self.words_of(giver);
        events.push(Note::public(
            Text::plain("revealed: ")
                .push_player(giver)
                .push(format!(" had the words {}", words.join(" and "))),
        ));
        match giver.0 {
            0 => self.finale_turn(SEATS[1], events),
            _ => self.score(events),
        }
    }

    /// Each player's score (rule 12).
    pub fn scores(&self) -> [PlayerScore; 2] {
        let marked = self.marked_letters();
        SEATS.map(|s| {
            score::player_score(
                &self.words_of(s),
                self.state.finale[s.0 as usize].guessed == Some(true),
                self.state.king_captured,
                &marked,
            )
        })
    }

    pub(super) fn score(&mut self, events: &mut Vec<Event>) {
        let scores = self.scores();
        let total = score::game_total(&scores, self.state.penalties);
        let grade = score::grade(total);
        let part = |s: Seat| {
            let p = scores[s.0 as usize];
            let words = self.words_of(s);
            let product = if p.product > 0 {
                format!(
                    "{} guessed: {}",
                    words.join(" and "),
                    words
                        .iter()
                        .map(|w| w.len().to_string())
                        .collect::<Vec<_>>()
                        .join(" × ")
                )
            } else {
                "no word guessed: 0".to_string()
            };
            let king = if p.king_bonus > 0 {
                format!(", king +{}", p.king_bonus)
            } else {
                String::new()
            };
            let unused = if p.unused > 0 {
                format!(", unused letters -{}", p.unused)
            } else {
                String::new()
            };
            format!("{} {} ({product}{king}{unused})", side(s), p.total())
        };
        let penalties = match self.state.penalties {
            0 => "no penalty points".to_string(),
            n => format!("penalty points -{n}"),
        };
        events.push(said(format!(
            "score: {}; {}; {penalties}; total {total}: {}",
            part(SEATS[0]),
            part(SEATS[1]),
            if grade.is_win() {
                format!("grade {}", grade.letter())
            } else {
                "below 50, the game is lost (F)".to_string()
            }
        )));
        let outcome = GameOutcome {
            result: grade.letter().to_string(),
            reason: self.state.play_end.unwrap_or(PlayEnd::NoMoves).reason(),
            score: Some(scores.iter().map(PlayerScore::total).collect()),
        };
        self.state.phase = Phase::Over;
        self.state.outcome = Some(NamedOutcome::from(&outcome));
    }

    // ----- time -----

    /// `seat`'s time ran out (rule 13): a clue giver passes, a mover ends play (losing a
    /// discard still open to them), a holder deciding on the last discard discards nothing
    /// (in games stored before: a discard chooser discards the first of the options), a
    /// player without words has none, a finale clue or guess scores that word 0.
    pub(super) fn timeout(&mut self, seat: Seat) -> Result<Vec<Event>, RuleError> {
        let late = format!("{}'s time ran out", side(seat));
        match self.state.phase.clone() {
            Phase::Clue if seat == partner(self.mover()) => {
                let mut events = vec![said(format!("{late}: that is a pass"))];
                events.extend(self.pass(seat)?);
                Ok(events)
            }
            Phase::Move { .. } if seat == self.mover() => {
                let mut events = Vec::new();
                events.push(said(late));
                self.close_discard_of(seat);
                self.end_play(PlayEnd::Timeout, &mut events);
                Ok(events)
            }
            Phase::LastDiscard { holder } if holder == seat => {
                let mut events = vec![said(format!("{late}: no discard"))];
                self.state.open_discard = None;
                self.begin_finale(&mut events);
                Ok(events)
            }
            Phase::Discard {
                holder, options, ..
            } if holder == seat => {
                let mut events = vec![said(format!(
                    "{late}: the first qualifying card in the hand is discarded"
                ))];
                events.extend(self.choose_discard(seat, &options[0].short())?);
                Ok(events)
            }
            Phase::Words if self.state.words[seat.0 as usize].is_none() => {
                let mut events = vec![said(format!("{late}: {} has no words", side(seat)))];
                self.state.words[seat.0 as usize] = Some(Vec::new());
                if self.state.words.iter().all(Option::is_some) {
                    self.finale_turn(SEATS[0], &mut events);
                }
                Ok(events)
            }
            Phase::FinaleClue { giver } if giver == seat => {
                let mut events = vec![said(format!(
                    "{late}: no clue, so {} has nothing to guess",
                    side(partner(seat))
                ))];
                self.state.finale[seat.0 as usize].guessed = Some(false);
                self.reveal(seat, &mut events);
                Ok(events)
            }
            Phase::FinaleGuess { giver } if partner(giver) == seat => {
                let mut events = vec![said(format!("{late}: no guess"))];
                self.state.finale[giver.0 as usize].guessed = Some(false);
                self.reveal(giver, &mut events);
                Ok(events)
            }
            _ => Err(RuleError::new(format!(
                "{} is not being waited for: {}",
                side(seat),
                self.waiting_for()
            ))),
        }
    }
}
