//! Discards (rules 6 and 8): a capture opens a discard to the captured piece's owner,
//! who may discard privately until their next public action, or decide as play ends;
//! games stored before discards were private keep the rules they began with.

use super::*;
use crate::variants::chesswords::prompts::say::*;

impl Chesswords {
    /// A capture opens a discard to the partner (rule 6), told to the partner privately
    /// and to nobody else; then play goes on or ends.
    pub(super) fn after_move(&mut self, mover: Seat, m: Move, events: &mut Vec<Event>) {
        if !self.state.secret_discards {
            return self.after_move_before_secret_discards(mover, m, events);
        }
        if let Some(captured) = m.capture {
            let holder = partner(mover);
            if captured == Role::King {
                self.state.king_captured = true;
            }
            self.state.open_discard = Some(OpenDiscard {
                holder,
                captured: Card {
                    color: color_of_seat(holder),
                    role: captured,
                },
                capturer: Card {
                    color: color_of_seat(mover),
                    role: m.role,
                },
                square: m.from.to_string(),
            });
        }
        self.continue_play(events);
        // In play the holder is told privately what they may discard (at the end of play
        // the prompt of rule 8 tells them), after every capture, whether or not a card
        // fits: even the coming and going of private messages tells nothing.
        if let (Some(open), Phase::Clue) = (&self.state.open_discard, &self.state.phase) {
            let options = self.discardable(open);
            let what = if options.is_empty() {
                format!(
                    "with their {} would let you discard a card of either piece, and you hold \
                     neither",
                    open.capturer.role.name()
                )
            } else {
                format!(
                    "lets you discard {}, if you wish: send me {DISCARD} privately before \
                     your next move",
                    card_choice(&options)
                )
            };
            events.push(whisper(
                open.holder,
                format!(
                    "{}'s capture of your {} {what}. Your hand: {}",
                    side(mover),
                    open.captured.role.name(),
                    cards::hand_text(&self.state.hands[open.holder.0 as usize])
                ),
            ));
        }
    }

    /// The kinds of card in the holder's hand that `open` lets them discard, in hand order.
    pub(super) fn discardable(&self, open: &OpenDiscard) -> Vec<Card> {
        cards::qualifying(
            &self.state.hands[open.holder.0 as usize],
            open.captured.color,
            open.captured.role,
            open.capturer.role,
        )
    }

    /// A public action of `seat` closes the discard open to them (rule 6).
    pub(super) fn close_discard_of(&mut self, seat: Seat) {
        if self
            .state
            .open_discard
            .as_ref()
            .is_some_and(|o| o.holder == seat)
        {
            self.state.open_discard = None;
        }
    }

    /// `discard CARD` (or `discard none` as play ends) under rules 6 and 8, sent privately:
    /// a refusal goes only to the sender, and only a discard is announced.
    pub(super) fn discard_secretly(
        &mut self,
        seat: Seat,
        text: &str,
    ) -> Result<Vec<Event>, RuleError> {
        let none = text.trim().eq_ignore_ascii_case("none");
        let open = match (&self.state.phase, &self.state.open_discard) {
            (Phase::Clue | Phase::Move { .. } | Phase::LastDiscard { .. }, Some(o))
                if o.holder == seat =>
            {
                o.clone()
            }
            _ => {
                return Err(RuleError::new(
                    "you have no discard open: when your partner captures one of your pieces \
                     you may discard a matching card, until your next move",
                ))
            }
        };
        let last = matches!(self.state.phase, Phase::LastDiscard { .. });
        let mut events = Vec::new();
        if none {
            if !last {
                return Err(RuleError::new(
                    "there is nothing to decline: you may discard until your next move, and \
                     keep your cards by simply moving",
                ));
            }
        } else {
            let card = Card::parse(text).map_err(|e| RuleError::new(e.to_string()))?;
            let options = self.discardable(&open);
            if !options.contains(&card) {
                let keep = match last {
                    true => format!(" (or {DISCARD_NONE})"),
                    false => String::new(),
                };
                return Err(RuleError::new(match options.first() {
                    None => format!(
                        "no card in your hand fits: the capture of your {} by their {} lets you \
                         discard a card of either piece, and you hold neither{}",
                        open.captured.role.name(),
                        open.capturer.role.name(),
                        match last {
                            true => format!(": {DISCARD_NONE}"),
                            false => String::new(),
                        }
                    ),
                    Some(first) => format!(
                        "you may discard {}: {}{keep}",
                        card_choice(&options),
                        command_mark(&format!("discard {}", first.short()))
                    ),
                }));
            }
            let square =
                Square::parse(&open.square).ok_or_else(|| RuleError::new("bad checker square"))?;
            self.discard(seat, card, square, &mut events);
        }
        self.state.open_discard = None;
        if last {
            self.begin_finale(&mut events);
        } else if self.playable_moves().is_empty() {
            // The new checker leaves the player to move without a move.
            self.end_play(PlayEnd::NoMoves, &mut events);
        }
        Ok(events)
    }

    /// Games stored before discards were private: a capture's one qualifying kind of card
    /// is discarded at once, and a choice between two is asked while the game waits.
    pub(super) fn after_move_before_secret_discards(
        &mut self,
        mover: Seat,
        m: Move,
        events: &mut Vec<Event>,
    ) {
        if let Some(captured) = m.capture {
            let holder = partner(mover);
            if captured == Role::King {
                self.state.king_captured = true;
            }
            let hand = &self.state.hands[holder.0 as usize];
            let options = cards::qualifying(hand, color_of_seat(holder), captured, m.role);
            match options.as_slice() {
                [] => {}
                [only] => self.discard(holder, *only, m.from, events),
                _ => {
                    events.push(said(format!(
                        "{} may discard one of two kinds of card and is choosing (privately)",
                        side(holder)
                    )));
                    self.state.phase = Phase::Discard {
                        holder,
                        options,
                        square: m.from.to_string(),
                    };
                    return;
                }
            }
        }
        self.continue_play(events);
    }

    /// Discards `card` from `holder`'s hand, places a checker on `square` and draws.
    pub(super) fn discard(
        &mut self,
        holder: Seat,
        card: Card,
        square: Square,
        events: &mut Vec<Event>,
    ) {
        let h = holder.0 as usize;
        if let Some(i) = self.state.hands[h].iter().position(|c| *c == card) {
            self.state.hands[h].remove(i);
        }
        self.state.discards.push(Discarded {
            by: holder,
            card,
            square: square.to_string(),
            ply: self.state.moves.len(),
        });
        // The new checker changes the board: it is posted again with the news.
        events.push(Note::moved(Text::plain(format!(
            "{} discards the {card}: a checker on {square} marks the letter {}",
            side(holder),
            self.letter(square)
        ))));
        if self.state.pile.is_empty() {
            events.push(said(format!(
                "the pile is empty: {} draws nothing",
                side(holder)
            )));
            // The holder's hand as it is now, as after a draw (the pile's emptiness is
            // public, so this message tells nobody anything).
            events.push(whisper(
                holder,
                format!(
                    "you drew nothing; your hand: {}",
                    cards::hand_text(&self.state.hands[h])
                ),
            ));
        } else {
            let drawn = self.state.pile.remove(0);
            self.state.hands[h].push(drawn);
            events.push(said(format!(
                "{} draws a card ({} left in the pile)",
                side(holder),
                self.state.pile.len()
            )));
            events.push(whisper(
                holder,
                format!(
                    "you drew the {drawn}; your hand: {}",
                    cards::hand_text(&self.state.hands[h])
                ),
            ));
        }
    }

    pub(super) fn choose_discard(
        &mut self,
        seat: Seat,
        text: &str,
    ) -> Result<Vec<Event>, RuleError> {
        let (options, square) = match &self.state.phase {
            Phase::Discard {
                holder,
                options,
                square,
            } if *holder == seat => (options.clone(), square.clone()),
            _ => return self.refuse("there is no discard for you to choose"),
        };
        let card = Card::parse(text).map_err(|e| RuleError::new(e.to_string()))?;
        if !options.contains(&card) {
            return Err(RuleError::new(format!(
                "you may discard {}: discard {}",
                options
                    .iter()
                    .map(|c| format!("the {c} ({})", c.short()))
                    .collect::<Vec<_>>()
                    .join(" or "),
                options[0].short()
            )));
        }
        let square = Square::parse(&square).ok_or_else(|| RuleError::new("bad checker square"))?;
        let mut events = Vec::new();
        self.discard(seat, card, square, &mut events);
        self.continue_play(&mut events);
        Ok(events)
    }
}
