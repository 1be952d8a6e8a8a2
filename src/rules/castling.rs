//! Castling: which rook castles on each side, where the king and the rook land, and
//! the castling moves of a king that is not in check (the standard rules and Chess960's).

use super::attacks;
use super::bitboard::Bitboard;
use super::movegen::MoveSink;
use super::position::Position;
use super::types::{CastlingSide, Color, Move, MoveKind, Role, Square};

impl Position {
    /// The squares where the king ends and the rook ends for a castling of `color`.
    pub fn castle_targets(&self, color: Color, side: CastlingSide) -> (Square, Square) {
        let rank = if color == Color::White {
            0
        } else {
            self.config().height - 1
        };
        match side {
            CastlingSide::KingSide => (Square::new(6, rank), Square::new(5, rank)),
            CastlingSide::QueenSide => (Square::new(2, rank), Square::new(3, rank)),
        }
    }

    /// The rook that castles to `side` for `color`, if the right remains: on the side
    /// of the king (the e-file's, but for Chess960 castling).
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let king_file = if self.config().chess960_castling {
            self.king_of(color)?.file()
        } else {
            4
        };
        self.castling_rook_beside(color, side, king_file)
    }

    /// The rook that castles to `side` for `color` with its king on `king_file`, if the
    /// right remains.
    #[inline]
    pub(super) fn castling_rook_beside(
        &self,
        color: Color,
        side: CastlingSide,
        king_file: u8,
    ) -> Option<Square> {
        let rank = if color == Color::White {
            0
        } else {
            self.config().height - 1
        };
        let rooks = self.castling & Bitboard::rank(rank);
        // The squares of the layout below the king's file on that rank, and above it.
        let below = (1u64 << (8 * rank + king_file)) - 1;
        match side {
            // The outermost rook beyond the king: the highest square.
            CastlingSide::KingSide => {
                let beyond = rooks.0 & !below & !(1 << (8 * rank + king_file));
                (beyond != 0).then(|| Square::from_index(63 - beyond.leading_zeros() as u8))
            }
            CastlingSide::QueenSide => Bitboard(rooks.0 & below).first(),
        }
    }

    /// Castling moves of the king on `king`, which the caller has found not in check.
    /// The cheap tests come first: a right on that side, then the squares that must be
    /// empty, and only then the squares the king crosses, one attack test each.
    pub(super) fn gen_castling<S: MoveSink>(&self, moves: &mut S, king: Square) {
        let us = self.turn;
        if (self.castling & Bitboard::rank(self.home_rank(us))).is_empty() {
            return;
        }
        let chess960 = self.config().chess960_castling;
        // The e-file's king, or Chess960's on any file.
        let king_file = if chess960 { king.file() } else { 4 };
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let Some(rook) = self.castling_rook_beside(us, side, king_file) else {
                continue;
            };
            let (king_to, rook_to) = self.castle_targets(us, side);
            let occ = self.occupied().without(king).without(rook);
            let king_path = attacks::between(king, king_to).with(king_to);
            // Every square the king and the rook cross or land on, but their own (from a
            // corner, the rook crosses only squares between the king and it).
            let rook_path = if chess960 {
                attacks::between(rook, rook_to).with(rook_to)
            } else {
                Bitboard::from_square(rook_to)
            };
            let must_be_empty = king_path | attacks::between(king, rook) | rook_path;
            if (must_be_empty & occ).nonempty() {
                continue;
            }
            let safe = if chess960 {
                self.chess960_castling_is_safe(king, rook, king_to, rook_to)
            } else {
                self.path_is_safe(king_path, occ)
            };
            if !safe {
                continue;
            }
            moves.push(Move {
                from: king,
                to: if chess960 { rook } else { king_to },
                role: Role::King,
                capture: None,
                promotion: None,
                kind: MoveKind::Castle(side),
            });
        }
    }

    /// Whether no square of `path` is attacked by the side not to move, given `occ`.
    /// Kept out of line: most castlings stop at a square that is not empty, and the
    /// attack tests would otherwise weigh on every call.
    #[inline(never)]
    fn path_is_safe(&self, path: Bitboard, occ: Bitboard) -> bool {
        let them = self.turn.opposite();
        path.into_iter()
            .all(|sq| self.attackers_to(sq, them, occ).is_empty())
    }

    /// Chess960: whether the king, not in check, may castle from `king` to `king_to`
    /// with the rook from `rook` to `rook_to`: no square it crosses attacked (the rook
    /// still in place), nor its target once both have moved (as Lichess and shakmaty
    /// judge it).
    #[inline(never)]
    fn chess960_castling_is_safe(
        &self,
        king: Square,
        rook: Square,
        king_to: Square,
        rook_to: Square,
    ) -> bool {
        let them = self.turn.opposite();
        let occ = self.occupied().without(king);
        if attacks::between(king, king_to)
            .into_iter()
            .any(|sq| self.attackers_to(sq, them, occ).nonempty())
        {
            return false;
        }
        let after = occ.without(rook).with(rook_to);
        self.attackers_to(king_to, them, after).is_empty()
    }
}
