//! Neighbour Chess Solitaire's rules, pure: pieces added where a piece card and a
//! position card send them (wrapping around the edges, or onto a free square nearest to
//! a taken one), then moved with the moves of their same-colour neighbours, one card of
//! either pile each, until they form one group. Every decision is in
//! `docs/rules/neighbour.md`.

use crate::render::LastMove;
use crate::rules::{Bitboard, Color, Piece, Role, Square};
use crate::variants::api::RuleError;
use crate::variants::solitaire::{self, Adjacency, At, Board, Ended, Pile, PlayingCard};
use serde::{Deserialize, Serialize};

/// Which neighbours make a group, and whose moves a piece may borrow: the eight squares
/// around ("neighbour" means the eight squares in this game).
pub const ADJACENCY: Adjacency = Adjacency::EightWay;

/// Where a piece held above `from` goes for `card`: a red card moves it that many
/// squares to the right, a black card that many up, wrapping around to the opposite
/// edge.
pub fn landing(from: Square, card: PlayingCard) -> Square {
    let n = card.rank % 8;
    if card.suit.is_red() {
        Square::new((from.file() + n) % 8, from.rank())
    } else {
        Square::new(from.file(), (from.rank() + n) % 8)
    }
}

/// The free squares a piece may take when `at` is taken: those among the eight around
/// it, or if all of those are taken, among the squares around them, and so on, without
/// wrapping around the edges (the free squares nearest to `at`, counting a king's
/// steps). Empty only on a full board.
pub fn nearest_free(occupied: Bitboard, at: Square) -> Bitboard {
    for distance in 1..8i8 {
        let ring = (0..64u8).map(Square::from_index).filter(|s| {
            let df = (s.file() as i8 - at.file() as i8).abs();
            let dr = (s.rank() as i8 - at.rank() as i8).abs();
            df.max(dr) == distance
        });
        let free = ring
            .filter(|s| !occupied.contains(*s))
            .fold(Bitboard::EMPTY, |b, s| b.with(s));
        if free.nonempty() {
            return free;
        }
    }
    Bitboard::EMPTY
}

/// A piece waiting to be placed because its landing square was taken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Its card.
    pub card: PlayingCard,
    /// The taken square it landed on.
    pub landing: At,
    /// The free squares it may take.
    pub choices: Vec<At>,
}

/// One action taken, for the highlight of the last one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// A piece was placed on `at`.
    Placed {
        /// Where.
        at: At,
    },
    /// Two cards were turned and the piece's landing square was taken.
    Turned,
    /// Adding stopped.
    Stopped,
    /// A piece moved.
    Moved {
        /// From.
        from: At,
        /// To.
        to: At,
    },
}

/// One attempt at Neighbour Chess Solitaire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Neighbour {
    /// The pieces on the board.
    pub board: Board,
    /// The piece cards still face down (secret order).
    pub pieces: Pile,
    /// The position cards still face down (secret order).
    pub positions: Pile,
    /// The piece cards turned up, in order.
    pub turned_pieces: Vec<PlayingCard>,
    /// The position cards turned up, in order.
    pub turned_positions: Vec<PlayingCard>,
    /// Cards spent on moves, face down and never seen.
    pub spent: u8,
    /// Where the last piece was added.
    pub last_added: Option<At>,
    /// A piece waiting for its square.
    pub pending: Option<Pending>,
    /// Whether adding has stopped and moving begun.
    pub moving: bool,
    /// What was done, in order.
    pub steps: Vec<Step>,
    /// The actions as the record writes them.
    pub record: Vec<String>,
    /// How the attempt ended.
    pub ended: Option<Ended>,
    /// The piece cards as dealt, top first. Secret while the attempt goes on; in the
    /// record once it is over. Empty for an attempt stored before the deal was kept.
    #[serde(default)]
    pub dealt_pieces: Vec<PlayingCard>,
    /// The position cards as dealt, top first (as [`Neighbour::dealt_pieces`]).
    #[serde(default)]
    pub dealt_positions: Vec<PlayingCard>,
    /// The deal kept secret even once the attempt is over, because other players still
    /// play it (`GameRules::keep_deal_secret`): a mark on a game read to be shown, never
    /// stored.
    #[serde(skip)]
    pub deal_kept: bool,
}

/// `white rook`.
pub fn name(p: Piece) -> String {
    format!("{} {}", p.color.name(), p.role.name())
}

/// Squares in board order, comma separated.
pub fn list(squares: impl IntoIterator<Item = Square>) -> String {
    squares
        .into_iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Neighbour {
    /// A new attempt from the two shuffled decks.
    pub fn deal(pieces: Vec<PlayingCard>, positions: Vec<PlayingCard>) -> Neighbour {
        Neighbour {
            board: Board::default(),
            dealt_pieces: pieces.clone(),
            dealt_positions: positions.clone(),
            pieces: Pile::new(pieces),
            positions: Pile::new(positions),
            turned_pieces: Vec::new(),
            turned_positions: Vec::new(),
            spent: 0,
            last_added: None,
            pending: None,
            moving: false,
            steps: Vec::new(),
            record: Vec::new(),
            ended: None,
            deal_kept: false,
        }
    }

    /// The points the attempt is worth now: the cards left in both piles.
    pub fn score(&self) -> i32 {
        (self.pieces.len() + self.positions.len()) as i32
    }

    /// Whether the attempt is over.
    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    fn check_open(&self) -> Result<(), RuleError> {
        match self.ended {
            Some(_) => Err(RuleError::over("the attempt is over")),
            None => Ok(()),
        }
    }

    fn check_adding(&self) -> Result<(), RuleError> {
        self.check_open()?;
        if self.moving {
            return Err(RuleError::new(concat!(
                "adding is over: move pieces now (",
                crate::variants::api::command_mark_str!("move FROM TO"),
                ")"
            )));
        }
        if let Some(p) = &self.pending {
            return Err(RuleError::new(format!(
                "first place the {}: {}, one of {}",
                p.card.piece().map(name).unwrap_or_default(),
                crate::variants::api::command_mark_str!("place SQUARE"),
                list(p.choices.iter().map(|a| a.0))
            )));
        }
        Ok(())
    }

    /// Turns up a piece card and a position card and moves the piece from above a1 (the
    /// first) or the last piece added; returns the two cards, where the piece landed,
    /// and the square it was placed on, if the landing square was free or only one
    /// square was nearest (otherwise it waits for [`Neighbour::place`]).
    pub fn add(&mut self) -> Result<(PlayingCard, PlayingCard, Square, Option<Square>), RuleError> {
        self.check_adding()?;
        if self.pieces.is_empty() || self.positions.is_empty() {
            return Err(RuleError::new("no cards are left to add a piece"));
        }
        let (Some(card), Some(position)) = (self.pieces.draw(), self.positions.draw()) else {
            return Err(RuleError::new("no cards are left to add a piece"));
        };
        self.turned_pieces.push(card);
        self.turned_positions.push(position);
        let from = self.last_added.map_or(Square::new(0, 0), |a| a.0);
        let at = landing(from, position);
        let letter = card.piece().map_or('?', solitaire::letter);
        let occupied = self.board.occupied();
        let choices = if occupied.contains(at) {
            nearest_free(occupied, at)
        } else {
            Bitboard::from_square(at)
        };
        if let Some(only) = choices.single() {
            self.record
                .push(format!("{card} {position}: {letter}@{only}"));
            self.put(card, only);
            return Ok((card, position, at, Some(only)));
        }
        self.record.push(format!("{card} {position}: {at} taken"));
        self.pending = Some(Pending {
            card,
            landing: At(at),
            choices: choices.map(At).collect(),
        });
        self.steps.push(Step::Turned);
        Ok((card, position, at, None))
    }

    /// Places the waiting piece on `at`, one of its nearest free squares.
    pub fn place(&mut self, at: Square) -> Result<Piece, RuleError> {
        self.check_open()?;
        let Some(p) = self.pending.clone() else {
            return Err(RuleError::new(
                "there is no piece to place: a piece waits for place only when its square is taken",
            ));
        };
        if !p.choices.contains(&At(at)) {
            return Err(RuleError::new(format!(
                "{at} is not among the free squares nearest to {}: place the piece on {}",
                p.landing.0,
                list(p.choices.iter().map(|a| a.0))
            )));
        }
        // The placement completes its addition's entry (`8♠ 3♥: f1 taken, n@e1`): one
        // numbered action, as the two cards turned were one.
        let letter = p.card.piece().map_or('?', solitaire::letter);
        match self.record.last_mut() {
            Some(entry) => entry.push_str(&format!(", {letter}@{at}")),
            None => self.record.push(format!("{letter}@{at}")),
        }
        self.pending = None;
        self.put(p.card, at);
        Ok(p.card.piece().unwrap_or(Piece {
            color: Color::White,
            role: Role::Pawn,
        }))
    }

    fn put(&mut self, card: PlayingCard, at: Square) {
        if let Some(piece) = card.piece() {
            self.board.put(at, piece);
        }
        self.last_added = Some(At(at));
        self.steps.push(Step::Placed { at: At(at) });
        if self.pieces.is_empty() {
            // The last piece card: adding is over.
            self.moving = true;
            self.settle();
        }
    }

    /// Stops adding pieces: from now on the pieces move.
    pub fn stop(&mut self) -> Result<(), RuleError> {
        self.check_adding()?;
        if self.board.occupied().count() < 2 {
            return Err(RuleError::new(
                "add at least two pieces before you stop: a lone piece has no neighbour to lend it a move",
            ));
        }
        self.moving = true;
        self.record.push("stop".into());
        self.steps.push(Step::Stopped);
        self.settle();
        Ok(())
    }

    /// The squares the piece on `from` may move to with the move of its same-colour
    /// neighbour on `lender` (sliders blocked as usual, only empty squares).
    pub fn borrowed(&self, from: Square, lender: Square) -> Bitboard {
        let (Some(p), Some(l)) = (self.board.piece_at(from), self.board.piece_at(lender)) else {
            return Bitboard::EMPTY;
        };
        if p.color != l.color || !ADJACENCY.around(from).contains(lender) {
            return Bitboard::EMPTY;
        }
        let occupied = self.board.occupied();
        let as_lender = Piece {
            color: p.color,
            role: l.role,
        };
        Board::attacks_from(as_lender, from, occupied) & !occupied
    }

    /// The same-colour neighbours of the piece on `from`.
    pub fn lenders(&self, from: Square) -> Bitboard {
        let Some(p) = self.board.piece_at(from) else {
            return Bitboard::EMPTY;
        };
        ADJACENCY
            .around(from)
            .filter(|s| self.board.piece_at(*s).is_some_and(|n| n.color == p.color))
            .fold(Bitboard::EMPTY, |b, s| b.with(s))
    }

    /// Every move the board allows now, as (from, to, lender), one per (from, to) with
    /// the first lender in square order.
    pub fn moves(&self) -> Vec<(Square, Square, Square)> {
        let mut out = Vec::new();
        for from in self.board.occupied() {
            let mut reached = Bitboard::EMPTY;
            for lender in self.lenders(from) {
                for to in self.borrowed(from, lender) & !reached {
                    out.push((from, to, lender));
                }
                reached |= self.borrowed(from, lender);
            }
        }
        out
    }

    /// Moves the piece on `from` to `to` with a same-colour neighbour's move (the one on
    /// `lender` if given), spending a card face down; returns the lender's square.
    pub fn play_move(
        &mut self,
        from: Square,
        to: Square,
        lender: Option<Square>,
    ) -> Result<Square, RuleError> {
        self.check_open()?;
        if !self.moving {
            return Err(RuleError::new(
                "you are still adding pieces: stop adding first (stop), then move",
            ));
        }
        let p = self
            .board
            .piece_at(from)
            .ok_or_else(|| RuleError::new(format!("there is no piece on {from}")))?;
        let lenders = self.lenders(from);
        if lenders.is_empty() {
            return Err(RuleError::new(format!(
                "the {} on {from} has no {} neighbour: a piece without a neighbour of its colour cannot move",
                name(p),
                p.color.name()
            )));
        }
        if let Some(l) = lender {
            if !lenders.contains(l) {
                return Err(RuleError::new(format!(
                    "{l} is not a {} neighbour of {from}: its {} neighbours are on {}",
                    p.color.name(),
                    p.color.name(),
                    list(lenders)
                )));
            }
        }
        if self.board.piece_at(to).is_some() {
            return Err(RuleError::new(format!(
                "{to} is taken: pieces do not capture in this solitaire"
            )));
        }
        let candidates = lender.map_or(lenders, Bitboard::from_square);
        let Some(by) = candidates
            .into_iter()
            .find(|l| self.borrowed(from, *l).contains(to))
        else {
            let reach = candidates
                .into_iter()
                .map(|l| self.borrowed(from, l))
                .fold(Bitboard::EMPTY, |a, b| a | b);
            let roles: Vec<String> = candidates
                .into_iter()
                .filter_map(|l| self.board.piece_at(l).map(|n| format!("{} {l}", n.role)))
                .collect();
            return Err(RuleError::new(format!(
                "no {} neighbour lends the {} on {from} a move to {to} (neighbours: {}); it may go to {}",
                p.color.name(),
                p.role,
                roles.join(", "),
                if reach.is_empty() {
                    "no square".to_string()
                } else {
                    list(reach)
                }
            )));
        };
        if self.positions.draw().is_none() && self.pieces.draw().is_none() {
            return Err(RuleError::new("no cards are left to spend on a move"));
        }
        self.spent += 1;
        let lent = self.board.piece_at(by).map_or('?', solitaire::letter);
        self.board.take(from);
        self.board.put(to, p);
        self.record
            .push(format!("{}{from}-{to} ({lent}{by})", solitaire::letter(p)));
        self.steps.push(Step::Moved {
            from: At(from),
            to: At(to),
        });
        self.settle();
        Ok(by)
    }

    /// Ends the attempt for a reason of the referee's (resignation, timeout, abort). An
    /// abort is refused once an action was taken (resign instead); before the first
    /// `add` no card has been seen, so it calls the attempt off with no result
    /// (`docs/rules/neighbour.md`, "A shown deal counts").
    pub fn end(&mut self, why: Ended) -> Result<(), RuleError> {
        self.check_open()?;
        let why = match why {
            Ended::Aborted | Ended::AbortedShown if !self.steps.is_empty() => {
                return Err(RuleError::new(
                    "the attempt has begun: resign to give it up",
                ));
            }
            Ended::Aborted | Ended::AbortedShown => {
                solitaire::abort_ending(!self.turned_pieces.is_empty())
            }
            other => other,
        };
        self.ended = Some(why);
        Ok(())
    }

    /// Whether `stop` now would lose the attempt at once: the pieces are apart and none
    /// could move (`docs/rules/neighbour.md`, "A losing stop is confirmed").
    pub fn stop_loses(&self) -> bool {
        let mut after = self.clone();
        after.moving = true;
        after.settle();
        matches!(after.ended, Some(Ended::Stuck | Ended::Exhausted))
    }

    /// The piles as dealt in the record's form, piece cards then position cards
    /// (`Q♠ 9♥ ... / 5♦ 2♥ ...`), once the attempt is over; `None` while it goes on (its
    /// secret) or when it was stored before the deal was kept.
    pub fn deal_words(&self) -> Option<String> {
        if !self.is_over() || self.dealt_pieces.is_empty() || self.deal_kept {
            return None;
        }
        Some(format!(
            "{} / {}",
            solitaire::card_words(&self.dealt_pieces),
            solitaire::card_words(&self.dealt_positions)
        ))
    }

    /// Once moving: won when the pieces form one group; lost when both piles are empty,
    /// or when no piece can move.
    fn settle(&mut self) {
        if !self.moving {
            return;
        }
        if self.board.connected(ADJACENCY) {
            self.ended = Some(Ended::Connected);
        } else if self.pieces.is_empty() && self.positions.is_empty() {
            self.ended = Some(Ended::Exhausted);
        } else if self.moves().is_empty() {
            self.ended = Some(Ended::Stuck);
        }
    }

    /// The squares of the last action, to highlight.
    pub fn last(&self) -> Option<LastMove> {
        self.steps.iter().rev().find_map(|s| match s {
            Step::Placed { at } => Some(LastMove::Drop { to: at.0 }),
            Step::Moved { from, to } => Some(LastMove::Move {
                from: from.0,
                to: to.0,
            }),
            _ => None,
        })
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
