//! Double Move Chess on the one engine: each player's tokens, the double move (two moves
//! of the same side in one turn) with its restrictions, and rule 5's capture "en passant"
//! of a piece that moved twice. The rules are numbered as in `docs/rules/double-move.md`.
//!
//! A double move is two ordinary legal moves. Between them the position is an
//! *intermediate* one: the first half played, the same side still to move, a token spent,
//! no en-passant square (the first half is the ply right after the opponent's move, so
//! the right to take a pawn en passant lapses with it, and nobody may take the mover's
//! pawn before the second half). The second half is any legal move there. Rule 5's
//! capture is a legal move of [`Position::legal_moves`] of kind
//! [`MoveKind::CaptureTwiceMoved`], offered on the opponent's next move only.

use super::movegen::MoveList;
use super::position::{Position, PositionError};
use super::types::{Color, Move, MoveKind, Role, Square};
use std::fmt;

/// Why a double move is refused. The position is unchanged and the token kept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DoubleMoveError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// The variant has no double moves.
    #[error("there are no double moves in {0}")]
    NotInVariant(&'static str),
    /// Rule 7: every token is spent.
    #[error("you have no double-move tokens left (each player has {0})")]
    NoTokens(u8),
    /// Rule 1: before the player's move 9.
    #[error("no double move before your move {first}: this is your move {now}")]
    TooEarly {
        /// The first move number allowed.
        first: u32,
        /// The move number now.
        now: u32,
    },
    /// Rule 4: the player's king is in check.
    #[error("no double move while your king is in check")]
    InCheck,
    /// Rule 3: the first half captures.
    #[error("the first move of a double move may not capture ({0} captures)")]
    FirstCaptures(String),
    /// Rule 2: the first half gives check.
    #[error("the first move of a double move may not give check ({0} gives check)")]
    FirstChecks(String),
    /// The first half is not a legal move.
    #[error("the first move, {0}, is not legal here")]
    FirstIllegal(String),
    /// The second half is not legal after the first.
    #[error("the second move, {0}, is not legal after the first")]
    SecondIllegal(String),
}

/// A whole turn of Double Move Chess: one move, or a double move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// One move (rule 5's capture included).
    Single(Move),
    /// Two moves of the same side, the second played after the first.
    Double(Move, Move),
}

impl Turn {
    /// The canonical text: the move's UCI, or both halves' UCI separated by a space.
    pub fn uci(&self) -> String {
        match self {
            Turn::Single(m) => m.uci(),
            Turn::Double(a, b) => format!("{} {}", a.uci(), b.uci()),
        }
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uci())
    }
}

impl Position {
    /// The double-move tokens each side has left, White's then Black's (none in variants
    /// without double moves).
    pub fn tokens(&self) -> [u8; 2] {
        self.tokens
    }

    /// This position with the given tokens left (at most the variant's number).
    pub fn with_tokens(mut self, tokens: [u8; 2]) -> Result<Position, PositionError> {
        let most = self.config().double_move.map_or(0, |d| d.tokens);
        if tokens.iter().any(|&t| t > most) {
            return Err(PositionError::BadTokens(self.variant, most));
        }
        self.tokens = tokens;
        Ok(self)
    }

    /// Whether this is the intermediate position of a double move: the first half played
    /// and the same side to move again.
    pub fn is_between_halves(&self) -> bool {
        self.first_half_at.is_some()
    }

    /// After a double move of one piece: the square it stopped on between its moves and
    /// the square it stands on. Rule 5's capture onto the first is offered while this is set.
    pub fn twice_moved(&self) -> Option<(Square, Square)> {
        self.twice_moved
    }

    /// Adds rule 5's captures to `moves`: each piece of the side to move that attacks the
    /// square where the twice-moved piece stopped may move there, taking that piece from
    /// the square it moved on to, provided its own king is then safe. A pawn captures
    /// diagonally as it always does, and promotes on the last rank.
    pub(super) fn push_twice_moved_captures(&self, moves: &mut MoveList) {
        let Some((stop, at)) = self.twice_moved else {
            return;
        };
        let us = self.turn;
        let Some(victim) = self.piece_at(at).filter(|p| p.color != us) else {
            return;
        };
        if self.piece_at(stop).is_some() {
            return;
        }
        let last_rank = if us == Color::White {
            self.config().height - 1
        } else {
            0
        };
        for from in self.attackers_to(stop, us, self.occupied()) {
            let Some(role) = self.role_at(from) else {
                continue;
            };
            let promotions: &[Role] = if role == Role::Pawn && stop.rank() == last_rank {
                self.config().promotion
            } else {
                &[]
            };
            let options = promotions
                .iter()
                .map(|&p| Some(p))
                .chain(promotions.is_empty().then_some(None));
            for promotion in options {
                let m = Move {
                    from,
                    to: stop,
                    role,
                    capture: Some(victim.role),
                    promotion,
                    kind: MoveKind::CaptureTwiceMoved,
                };
                if !self.after(m).king_attacked(us) && !moves.is_full() {
                    moves.push(m);
                }
            }
        }
    }

    /// Whether rule 5's capture is available to the side to move.
    pub fn has_twice_moved_capture(&self) -> bool {
        let mut moves = MoveList::new();
        self.push_twice_moved_captures(&mut moves);
        !moves.is_empty()
    }

    /// Why `first`, a legal move here, may not start a double move (rules 1 to 4 and 7),
    /// or `None` when it may.
    pub fn double_move_refusal(&self, first: Move) -> Option<DoubleMoveError> {
        let Some(dm) = self.config().double_move else {
            return Some(DoubleMoveError::NotInVariant(
                self.variant.display_name(),
            ));
        };
        if self.is_between_halves() {
            return Some(DoubleMoveError::FirstIllegal(first.uci()));
        }
        if self.tokens[self.turn.index()] == 0 {
            return Some(DoubleMoveError::NoTokens(dm.tokens));
        }
        if self.fullmoves < dm.first_move {
            return Some(DoubleMoveError::TooEarly {
                first: dm.first_move,
                now: self.fullmoves,
            });
        }
        if self.is_check() {
            return Some(DoubleMoveError::InCheck);
        }
        let text = crate::notation::san(self, first);
        if first.capture.is_some() {
            return Some(DoubleMoveError::FirstCaptures(text));
        }
        if self.after(first).is_check() {
            return Some(DoubleMoveError::FirstChecks(text));
        }
        None
    }

    /// The intermediate position after `first`, the first half of a double move, which
    /// must be legal here and allowed by [`Position::double_move_refusal`].
    pub fn first_half(&self, first: Move) -> Position {
        let mut next = self.after(first);
        next.turn = self.turn;
        next.fullmoves = self.fullmoves;
        next.ep_square = None;
        next.twice_moved = None;
        next.tokens[self.turn.index()] -= 1;
        next.first_half_at = Some(first.to);
        next
    }

    /// Checks a whole double move and returns its intermediate position and the position
    /// after it. Nothing changes on a refusal.
    pub fn double_move(
        &self,
        first: Move,
        second: Move,
    ) -> Result<(Position, Position), DoubleMoveError> {
        if self.config().double_move.is_none() {
            return Err(DoubleMoveError::NotInVariant(self.variant.display_name()));
        }
        if !self.is_legal(&first) {
            return Err(DoubleMoveError::FirstIllegal(first.uci()));
        }
        if let Some(e) = self.double_move_refusal(first) {
            return Err(e);
        }
        let middle = self.first_half(first);
        if !middle.is_legal(&second) {
            return Err(DoubleMoveError::SecondIllegal(second.uci()));
        }
        let end = middle.after(second);
        Ok((middle, end))
    }

    /// Every double move allowed here, in generation order of the first half, then of the
    /// second.
    pub fn double_moves(&self) -> Vec<(Move, Move)> {
        let mut out = Vec::new();
        if self.config().double_move.is_none() || self.tokens[self.turn.index()] == 0 {
            return out;
        }
        for first in self.legal_moves() {
            if self.double_move_refusal(first).is_none() {
                let middle = self.first_half(first);
                out.extend(middle.legal_moves().iter().map(|&second| (first, second)));
            }
        }
        out
    }

    /// Every turn open to the side to move: each legal move, then each double move.
    pub fn turns(&self) -> Vec<Turn> {
        let mut out: Vec<Turn> = self.legal_moves().iter().map(|&m| Turn::Single(m)).collect();
        out.extend(self.double_moves().into_iter().map(|(a, b)| Turn::Double(a, b)));
        out
    }

    /// The position after a turn that must be open here (one of [`Position::turns`]).
    pub fn after_turn(&self, turn: Turn) -> Position {
        match turn {
            Turn::Single(m) => self.after(m),
            Turn::Double(a, b) => self.first_half(a).after(b),
        }
    }
}

/// Perft for Double Move Chess: the number of turn sequences of `depth` turns, where the
/// options at each node are every legal move (rule 5's capture included) and every
/// allowed double move, each counted once. At depth 1 that is the number of single moves
/// plus the number of (first half, second half) pairs.
pub fn perft_turns(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let doubles: u64 = if pos.config().double_move.is_some()
                && pos.tokens[pos.turn.index()] > 0
            {
                pos.legal_moves()
                    .iter()
                    .filter(|&&m| pos.double_move_refusal(m).is_none())
                    .map(|&m| pos.first_half(m).count_legal_moves() as u64)
                    .sum()
            } else {
                0
            };
            pos.count_legal_moves() as u64 + doubles
        }
        _ => pos
            .turns()
            .into_iter()
            .map(|t| perft_turns(&pos.after_turn(t), depth - 1))
            .sum(),
    }
}

/// [`perft_turns`] split by root option: each turn's canonical text (`e2e4`, or
/// `g1f3 f3g5` for a double move) with its count, single moves first.
pub fn divide_turns(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.turns()
        .into_iter()
        .map(|t| (t.uci(), perft_turns(&pos.after_turn(t), depth - 1)))
        .collect()
}
