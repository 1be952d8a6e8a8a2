//! A game resumed from a stored state rather than re-played from its start: the position,
//! the last turn and the repetition window are what the next move needs, so loading a game
//! costs the same at ply 240 as at ply 2. A move is stored as a number ([`Move::code`])
//! that keeps every field the position does not tell (the captured role, the kind).

use super::double_move::Turn;
use super::game::Game;
use super::position::Position;
use super::types::{CastlingSide, Move, MoveKind, Role, Square};

impl Game {
    /// The game at position `now`, reached from `start` by `plies` moves of which the last
    /// turn was `last`, with `window` the repetition window's hashes before the current
    /// position ([`Game::repetition_window`] without its last). Its automatic ending is
    /// tested once, as after [`Game::settle`]. The game is not complete
    /// ([`Game::is_complete`]) unless `plies` is 0.
    ///
    /// What a position's FEN does not hold is restored from the last turn, as playing it
    /// set it: the en-passant square of a double step (written in FEN only when a capture
    /// is legal) and Double Move Chess's piece that moved twice (rule 5).
    pub fn resume(
        start: Position,
        mut now: Position,
        plies: usize,
        last: Option<Turn>,
        window: Vec<u64>,
    ) -> Game {
        if let Some(turn) = last {
            let m = match turn {
                Turn::Single(m) | Turn::Double(_, m) => m,
            };
            let height = now.config().height;
            let from_second = m.from.rank() == 1 || m.from.rank() == height - 2;
            if m.role == Role::Pawn
                && !m.is_drop()
                && m.from.rank().abs_diff(m.to.rank()) == 2
                && from_second
            {
                now.ep_square = Some(Square::new(
                    m.from.file(),
                    (m.from.rank() + m.to.rank()) / 2,
                ));
            }
            if let Turn::Double(a, b) = turn {
                if b.from == a.to && !b.is_drop() {
                    now.twice_moved = Some((a.to, b.to));
                }
            }
        }
        let mut game = Game {
            start,
            positions: vec![now],
            hashes: window,
            moves: Vec::new(),
            elided: plies,
            before: last,
            outcome: None,
        };
        if !game.variant().config().draws.repetition {
            game.hashes.clear();
        }
        game.hash_current();
        game.settle();
        game
    }
}

impl Move {
    /// The move as one number, every field kept: [`Move::from_code`] reads it back.
    pub fn code(&self) -> u32 {
        let role = |r: Option<Role>| r.map_or(0, |r| r.index() as u32 + 1);
        let kind = match self.kind {
            MoveKind::Normal => 0,
            MoveKind::EnPassant => 1,
            MoveKind::Castle(CastlingSide::KingSide) => 2,
            MoveKind::Castle(CastlingSide::QueenSide) => 3,
            MoveKind::Drop => 4,
            MoveKind::CaptureTwiceMoved => 5,
        };
        self.from.index() as u32
            | (self.to.index() as u32) << 6
            | (self.role.index() as u32) << 12
            | role(self.capture) << 15
            | role(self.promotion) << 18
            | kind << 21
    }

    /// The move whose [`Move::code`] is `code`, if it is one.
    pub fn from_code(code: u32) -> Option<Move> {
        let role = |bits: u32| -> Option<Option<Role>> {
            match bits {
                0 => Some(None),
                1..=6 => Some(Some(Role::from_index(bits as usize - 1))),
                _ => None,
            }
        };
        let square = |bits: u32| Square::from_index((bits & 63) as u8);
        let kind = match code >> 21 {
            0 => MoveKind::Normal,
            1 => MoveKind::EnPassant,
            2 => MoveKind::Castle(CastlingSide::KingSide),
            3 => MoveKind::Castle(CastlingSide::QueenSide),
            4 => MoveKind::Drop,
            5 => MoveKind::CaptureTwiceMoved,
            _ => return None,
        };
        let moving = (code >> 12) & 7;
        if moving >= 6 {
            return None;
        }
        Some(Move {
            from: square(code),
            to: square(code >> 6),
            role: Role::from_index(moving as usize),
            capture: role((code >> 15) & 7)?,
            promotion: role((code >> 18) & 7)?,
            kind,
        })
    }
}
