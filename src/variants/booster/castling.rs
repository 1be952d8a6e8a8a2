//! Castling in Booster Chess (rule 12 of `docs/rules/booster.md`): its geometry, and
//! why a castling is not allowed, the one test both the move generator and the
//! refusals use, so that the reason given is the reason applied.

use super::position::{home_rank, Pos};
use crate::rules::{CastlingSide, Color, Piece, Role, Square};

/// One castling's geometry: the rook's file, the king's destination file and the files
/// between king and rook that must be empty.
pub(super) struct Castling {
    pub(super) side: CastlingSide,
    rook_file: u8,
    pub(super) king_to: u8,
    between: &'static [u8],
}

/// The two castlings.
pub(super) const CASTLINGS: [Castling; 2] = [
    Castling {
        side: CastlingSide::KingSide,
        rook_file: 7,
        king_to: 6,
        between: &[5, 6],
    },
    Castling {
        side: CastlingSide::QueenSide,
        rook_file: 0,
        king_to: 2,
        between: &[3, 2, 1],
    },
];

/// Why a castling is not allowed (rule 12), for the refusal's reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingBar {
    /// The king is not on its starting square.
    KingAway,
    /// The right is gone: the king or the rook on this square has moved.
    NoRight(Square),
    /// The king stands on checkers (boosted or hobbled).
    KingStacked,
    /// No rook of the mover's stands on this square.
    NoRook(Square),
    /// The rook on this square stands on checkers.
    RookStacked(Square),
    /// This square between king and rook is occupied.
    Blocked(Square),
    /// The king is attacked on its square.
    InCheck,
    /// This square the king crosses or lands on is attacked.
    Attacked(Square),
}

impl Pos {
    /// Why `us`'s king on `from` may not castle on `side` (rule 12), the first reason in
    /// the order the rule lists them, or `None` when it may: the king on its starting
    /// square, the right kept, king and rook on no checker, the squares between them
    /// empty, the king not attacked on its square, on the square it crosses or on its
    /// destination (booster reach included).
    pub fn castling_bar(&self, us: Color, from: Square, side: CastlingSide) -> Option<CastlingBar> {
        let rank = home_rank(us);
        let c = CASTLINGS.iter().find(|c| c.side == side)?;
        let rook = Square::new(c.rook_file, rank);
        if from != Square::new(4, rank) {
            return Some(CastlingBar::KingAway);
        }
        if !self.castling.contains(rook) {
            return Some(CastlingBar::NoRight(rook));
        }
        if self.stack(from) != 0 {
            return Some(CastlingBar::KingStacked);
        }
        let own_rook = Piece {
            color: us,
            role: Role::Rook,
        };
        if self.piece(rook) != Some(own_rook) {
            return Some(CastlingBar::NoRook(rook));
        }
        if self.stack(rook) != 0 {
            return Some(CastlingBar::RookStacked(rook));
        }
        let occ = self.occupied();
        if let Some(f) = c
            .between
            .iter()
            .find(|f| occ.contains(Square::new(**f, rank)))
        {
            return Some(CastlingBar::Blocked(Square::new(*f, rank)));
        }
        let crossed = [
            from,
            Square::new((4 + c.king_to) / 2, rank),
            Square::new(c.king_to, rank),
        ];
        match crossed.iter().find(|s| self.attacked(**s, us.opposite())) {
            Some(s) if *s == from => Some(CastlingBar::InCheck),
            Some(s) => Some(CastlingBar::Attacked(*s)),
            None => None,
        }
    }
}
