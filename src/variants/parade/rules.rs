//! Parade Chess Solitaire's rules, pure: the setup from the first pile with appendix A's
//! gaps, the two actions a card of the second pile buys (a move ordered by a piece of
//! the other colour, or an added piece), the sixteen negative points after the cards run
//! out, and the end. Every decision is in `docs/rules/parade.md`.

use crate::render::LastMove;
use crate::rules::{Bitboard, Color, Piece, Role, Square};
use crate::variants::api::RuleError;
use crate::variants::solitaire::{self, Adjacency, At, Board, Ended, Pile, PlayingCard};
use serde::{Deserialize, Serialize};

/// How many cards are dealt to each pile: the setup's and the hand's.
pub const PILE: usize = 8;
/// How many negative points the player may count after the hand runs out (the seed:
/// "pick up all 16 cards"); an attempt still apart after the last is lost.
pub const OVERTIME: u8 = 16;
/// Which neighbours make a group: "diagonal neighbours don't count".
pub const ADJACENCY: Adjacency = Adjacency::Orthogonal;

/// The empty squares left before a piece is placed (appendix A).
pub fn gap(role: Role) -> u8 {
    match role {
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 5,
        Role::King => 6,
        Role::Pawn => 0,
    }
}

/// Where a piece with `gap` empty squares before it is placed: counting in reading order
/// (a1 to h1, a2 to h2, ...) from after the occupied square on the highest rank and the
/// rightmost file of that rank (from a1 on an empty board), `gap` empty squares are left
/// and the piece goes on the next empty one. Past h8 the count goes on from a1, and
/// occupied squares are skipped, not counted (the gap is of empty squares): there is
/// always room, as at most 16 of the 64 squares are taken.
pub fn placing_square(board: &Board, gap: u8) -> Square {
    let occupied = board.occupied();
    let last = (0..64u8)
        .rev()
        .find(|&i| occupied.contains(Square::from_index(i)));
    let mut i = last.map_or(0, |l| (l + 1) % 64);
    let mut skipped = 0;
    loop {
        let sq = Square::from_index(i);
        if !occupied.contains(sq) {
            if skipped == gap {
                return sq;
            }
            skipped += 1;
        }
        i = (i + 1) % 64;
    }
}

/// One action taken, as the record keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// The piece on `mover` lifted the piece on `from` and put it on `to`.
    Move {
        /// The ordering piece's square.
        mover: At,
        /// Where the moved piece stood.
        from: At,
        /// Where it was put.
        to: At,
    },
    /// A card was turned up and its piece added on `at`.
    Add {
        /// The card turned.
        card: PlayingCard,
        /// Where its piece was placed.
        at: At,
    },
}

/// One attempt at Parade Chess Solitaire: the board, the face-down hand, the turned-up
/// cards, the negative points counted, and what was done.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parade {
    /// The pieces on the board.
    pub board: Board,
    /// The second pile: the cards still to spend, face down (secret order).
    pub hand: Pile,
    /// The cards turned face up: the setup's eight, then every added piece's.
    pub turned: Vec<PlayingCard>,
    /// How many cards were spent on moves, face down and never seen.
    pub spent: u8,
    /// Negative points counted since the hand ran out.
    pub overtime: u8,
    /// The actions, in order.
    pub steps: Vec<Step>,
    /// The actions as the record writes them: `Nd3: c1-b2`, `8♦: N@g4`.
    pub record: Vec<String>,
    /// How the attempt ended.
    pub ended: Option<Ended>,
    /// The sixteen cards as dealt: the setup pile's eight, then the hand's, top first.
    /// Secret while the attempt goes on; in the record once it is over. Empty for an
    /// attempt stored before the deal was kept.
    #[serde(default)]
    pub deal: Vec<PlayingCard>,
    /// The deal kept secret even once the attempt is over, because other players still
    /// play it (`GameRules::keep_deal_secret`): a mark on a game read to be shown, never
    /// stored.
    #[serde(skip)]
    pub deal_kept: bool,
}

impl Parade {
    /// A new attempt from the shuffled 16 cards: the first eight are turned up one at a
    /// time and their pieces placed with their gaps; the other eight are the hand.
    pub fn deal(deck: Vec<PlayingCard>) -> Parade {
        let mut cards = deck.clone();
        let hand = cards.split_off(PILE.min(cards.len()));
        let mut game = Parade {
            board: Board::default(),
            hand: Pile::new(hand),
            turned: Vec::new(),
            spent: 0,
            overtime: 0,
            steps: Vec::new(),
            record: Vec::new(),
            ended: None,
            deal: deck,
            deal_kept: false,
        };
        for card in cards {
            game.place(card);
        }
        game.settle();
        game
    }

    /// Turns `card` up and places its piece with its gap; returns the square.
    fn place(&mut self, card: PlayingCard) -> Square {
        let piece = card.piece().unwrap_or(Piece {
            color: Color::White,
            role: Role::Pawn,
        });
        let at = placing_square(&self.board, gap(piece.role));
        self.board.put(at, piece);
        self.turned.push(card);
        at
    }

    /// The points the attempt is worth now: the cards left in hand, or minus the negative
    /// points counted once it ran out.
    pub fn score(&self) -> i32 {
        self.hand.len() as i32 - self.overtime as i32
    }

    /// Whether an action may still be taken.
    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// Whether the hand has run out and moves now count negative points.
    pub fn in_overtime(&self) -> bool {
        self.hand.is_empty()
    }

    /// The squares the piece on `from` may be put on by the piece on `mover`, or why it
    /// may not be moved by it: the two must be of opposite colours, the mover must attack
    /// `from`, and the piece goes to another square the mover attacks once the piece is
    /// lifted (a slider then sees past it), which must be empty (Parade has no captures).
    pub fn targets(&self, mover: Square, from: Square) -> Result<Bitboard, RuleError> {
        if mover == from {
            return Err(RuleError::new(format!(
                "the piece on {mover} cannot move itself: name a piece of the other colour that it attacks"
            )));
        }
        let m = self
            .board
            .piece_at(mover)
            .ok_or_else(|| RuleError::new(format!("there is no piece on {mover}")))?;
        let p = self
            .board
            .piece_at(from)
            .ok_or_else(|| RuleError::new(format!("there is no piece on {from}")))?;
        if m.color == p.color {
            return Err(RuleError::new(format!(
                "the {} on {mover} and the {} on {from} are both {}: a piece moves only pieces of the other colour",
                m.role,
                p.role,
                m.color.name()
            )));
        }
        let occupied = self.board.occupied();
        if !Board::attacks_from(m, mover, occupied).contains(from) {
            return Err(RuleError::new(format!(
                "the {} on {mover} does not attack {from}: it moves only pieces on squares it attacks",
                name(m)
            )));
        }
        let lifted = occupied.without(from);
        Ok(Board::attacks_from(m, mover, lifted) & !lifted & !Bitboard::from_square(from))
    }

    /// Every move the board allows, as (mover, piece, target), in square order.
    pub fn moves(&self) -> Vec<(Square, Square, Square)> {
        let occupied = self.board.occupied();
        let mut out = Vec::new();
        for mover in occupied {
            for from in occupied {
                if let Ok(targets) = self.targets(mover, from) {
                    out.extend(targets.map(|to| (mover, from, to)));
                }
            }
        }
        out
    }

    /// Checks and makes a move, spending a card face down (or, with the hand empty,
    /// counting a negative point); returns the moved piece.
    pub fn play_move(
        &mut self,
        mover: Square,
        from: Square,
        to: Square,
    ) -> Result<Piece, RuleError> {
        self.check_open()?;
        let targets = self.targets(mover, from)?;
        if !targets.contains(to) {
            let m = self.board.piece_at(mover).map(name).unwrap_or_default();
            let why = if self.board.piece_at(to).is_some() && to != mover {
                format!("{to} is taken: a piece is put only on an empty square")
            } else {
                format!("the {m} on {mover} does not attack {to} once the piece is lifted")
            };
            return Err(RuleError::new(if targets.is_empty() {
                format!("{why}; it cannot put the piece from {from} anywhere")
            } else {
                format!(
                    "{why}; it may put the piece from {from} on {}",
                    list(targets)
                )
            }));
        }
        if self.hand.draw().is_some() {
            self.spent += 1;
        } else {
            self.overtime += 1;
        }
        let piece = self.board.take(from).unwrap_or(Piece {
            color: Color::White,
            role: Role::Pawn,
        });
        self.board.put(to, piece);
        let m = self.board.piece_at(mover).map_or('?', solitaire::letter);
        self.record.push(format!("{m}{mover}: {from}-{to}"));
        self.steps.push(Step::Move {
            mover: At(mover),
            from: At(from),
            to: At(to),
        });
        self.settle();
        Ok(piece)
    }

    /// Turns the top card of the hand up and adds its piece; returns the card and where
    /// the piece went.
    pub fn add(&mut self) -> Result<(PlayingCard, Square), RuleError> {
        self.check_open()?;
        let Some(card) = self.hand.draw() else {
            return Err(RuleError::new(
                "no cards are left to add a piece: you may only move, each move counting a negative point",
            ));
        };
        let at = self.place(card);
        let letter = card.piece().map_or('?', solitaire::letter);
        self.record.push(format!("{card}: {letter}@{at}"));
        self.steps.push(Step::Add { card, at: At(at) });
        self.settle();
        Ok((card, at))
    }

    /// Ends the attempt for a reason of the referee's (resignation, timeout, abort). An
    /// abort is refused once an action was taken (resign instead), and before that it is
    /// a lost attempt all the same: the setup is shown from the deal on, and a shown deal
    /// counts (`docs/rules/parade.md`, "A shown deal counts").
    pub fn end(&mut self, why: Ended) -> Result<(), RuleError> {
        self.check_open()?;
        let why = match why {
            Ended::Aborted | Ended::AbortedShown if !self.steps.is_empty() => {
                return Err(RuleError::new(
                    "the attempt has begun: resign to give it up",
                ));
            }
            Ended::Aborted | Ended::AbortedShown => solitaire::abort_ending(true),
            other => other,
        };
        self.ended = Some(why);
        Ok(())
    }

    /// The deal in the record's form, setup pile then hand (`Q♠ 9♥ ... / K♠ 8♣ ...`),
    /// once the attempt is over; `None` while it goes on (its secret) or when it was
    /// stored before the deal was kept.
    pub fn deal_words(&self) -> Option<String> {
        if !self.is_over() || self.deal.is_empty() || self.deal_kept {
            return None;
        }
        let (setup, hand) = self.deal.split_at(PILE.min(self.deal.len()));
        Some(format!(
            "{} / {}",
            solitaire::card_words(setup),
            solitaire::card_words(hand)
        ))
    }

    fn check_open(&self) -> Result<(), RuleError> {
        match self.ended {
            Some(_) => Err(RuleError::over("the attempt is over")),
            None => Ok(()),
        }
    }

    /// Ends the attempt where the board or the cards say so: won once the pieces form
    /// one group; lost after the sixteenth negative point, or when the hand is empty and
    /// no move is left.
    fn settle(&mut self) {
        if self.board.connected(ADJACENCY) {
            self.ended = Some(Ended::Connected);
        } else if self.overtime >= OVERTIME {
            self.ended = Some(Ended::Exhausted);
        } else if self.in_overtime() && self.moves().is_empty() {
            self.ended = Some(Ended::Stuck);
        }
    }

    /// The squares of the last action, to highlight.
    pub fn last(&self) -> Option<LastMove> {
        match self.steps.last()? {
            Step::Move { from, to, .. } => Some(LastMove::Move {
                from: from.0,
                to: to.0,
            }),
            Step::Add { at, .. } => Some(LastMove::Drop { to: at.0 }),
        }
    }
}

/// `white bishop`.
pub fn name(p: Piece) -> String {
    format!("{} {}", p.color.name(), p.role.name())
}

/// Squares in board order, comma separated.
pub fn list(squares: Bitboard) -> String {
    squares
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
