//! Captures that explode (Atomic, as Lichess plays it): the blast, the moves it leaves
//! legal, the check that touching kings cannot give, and the material that can still
//! explode or mate a king. Switched on by [`VariantConfig::captures_explode`]; nothing
//! here runs for a variant without it.
//!
//! [`VariantConfig::captures_explode`]: super::variant::VariantConfig::captures_explode

use super::attacks;
use super::bitboard::Bitboard;
use super::movegen::MoveList;
use super::position::Position;
use super::types::{CastlingSide, Color, Move, MoveKind, Role, Square};

impl Position {
    /// The blast of a capture on `at`: the capturing piece there and every piece but a
    /// pawn on the eight squares around it leave the board, with the castling rights of
    /// an exploded rook or king.
    pub(super) fn explode(&mut self, at: Square) {
        let blast =
            (attacks::king_attacks(at) & self.occupied() & !self.by_role(Role::Pawn)).with(at);
        for color in Color::ALL {
            if (self.pieces(color, Role::King) & blast).nonempty() {
                self.castling &= !Bitboard::rank(self.home_rank(color));
            }
        }
        self.castling &= !blast;
        for bb in self.by_color.iter_mut().chain(self.by_role.iter_mut()) {
            *bb &= !blast;
        }
    }

    /// The same position with `color` to move (without an en-passant square if that
    /// changes the side to move), for asking what a side's pieces could do.
    pub(super) fn with_turn(&self, color: Color) -> Position {
        let mut pos = *self;
        if pos.turn != color {
            pos.turn = color;
            pos.ep_square = None;
        }
        pos
    }

    /// The pieces of `by` that give check to a king on `king` where captures explode:
    /// none while the two kings touch (taking that king would blow up one's own), and
    /// never the king of `by` itself, which may not capture.
    pub(super) fn explosive_checkers(&self, king: Square, by: Color) -> Bitboard {
        if (attacks::king_attacks(king) & self.pieces(by, Role::King)).nonempty() {
            return Bitboard::EMPTY;
        }
        self.attackers_to(king, by, self.occupied()) & !self.by_role(Role::King)
    }

    /// The legal moves where captures explode: every move the pieces' movement allows
    /// but a king's capture, and castling through squares no piece but the king attacks
    /// (or next to the enemy king), kept when it does not explode the mover's own king
    /// and either explodes the enemy king or leaves the mover's king out of check.
    pub(super) fn generate_explosive(&self, moves: &mut MoveList) {
        let mut candidates = MoveList::new();
        self.generate_unrestricted_with(&mut candidates, false);
        if self.config().castling {
            self.castlings_through_safe_squares(&mut candidates);
        }
        // A quiet move by a piece other than the king changes nothing around the kings
        // but the squares it leaves and enters: while the kings touch (no check then,
        // and they still touch after it), or while our king is out of check, it is legal
        // unless it leaves a pin line. Only the other moves are played to be judged.
        let us = self.turn;
        let king = self.king_of(us);
        let quiet_ok = king.is_some_and(|k| self.explosive_checkers(k, us.opposite()).is_empty());
        let (king, pinned) = match king {
            Some(k) if quiet_ok => {
                let kings_touch =
                    (attacks::king_attacks(k) & self.pieces(us.opposite(), Role::King)).nonempty();
                (
                    k,
                    if kings_touch {
                        Bitboard::EMPTY
                    } else {
                        self.pinned(k)
                    },
                )
            }
            _ => (Square::from_index(0), Bitboard::EMPTY),
        };
        // By reference: iterating the list by value would copy all its 512 slots.
        for &m in candidates.iter() {
            let quiet = m.capture.is_none() && m.role != Role::King && m.kind == MoveKind::Normal;
            let legal = if quiet && quiet_ok {
                !pinned.contains(m.from) || attacks::line_through(king, m.from).contains(m.to)
            } else {
                self.explosive_move_is_legal(m)
            };
            if legal {
                moves.push(m);
            }
        }
    }

    /// Whether a move the pieces' movement allows is legal where captures explode.
    pub fn explosive_move_is_legal(&self, m: Move) -> bool {
        let us = self.turn;
        if m.capture.is_some() && self.explodes_own_king(m) {
            return false;
        }
        let after = self.after(m);
        if after.king_of(us.opposite()).is_none() {
            return true;
        }
        after
            .king_of(us)
            .is_some_and(|k| after.explosive_checkers(k, us.opposite()).is_empty())
    }

    /// Whether the capture `m` would blow up the mover's own king: a king's capture, or
    /// any capture next to it.
    pub fn explodes_own_king(&self, m: Move) -> bool {
        m.role == Role::King
            || self
                .king_of(self.turn)
                .is_some_and(|k| attacks::king_attacks(m.to).contains(k))
    }

    /// Castling moves whose king stands and passes on squares that are safe where
    /// captures explode (the square it lands on is checked with the move's result).
    fn castlings_through_safe_squares(&self, moves: &mut MoveList) {
        let us = self.turn;
        let them = us.opposite();
        let Some(king) = self.king_of(us) else {
            return;
        };
        let their_king = self.pieces(them, Role::King);
        let safe = |sq: Square, occ: Bitboard| {
            (attacks::king_attacks(sq) & their_king).nonempty()
                || (self.attackers_to(sq, them, occ) & !self.by_role(Role::King)).is_empty()
        };
        if !safe(king, self.occupied()) {
            return;
        }
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let Some(rook) = self.castling_rook(us, side) else {
                continue;
            };
            let (king_to, rook_to) = self.castle_targets(us, side);
            let occ = self.occupied().without(king).without(rook);
            let must_be_empty = (attacks::between(king, king_to).with(king_to))
                | attacks::between(king, rook)
                | Bitboard::from_square(rook_to);
            if (must_be_empty & occ).nonempty() {
                continue;
            }
            if attacks::between(king, king_to)
                .into_iter()
                .any(|sq| !safe(sq, self.occupied().without(king)))
            {
                continue;
            }
            moves.push(Move {
                from: king,
                to: king_to,
                role: Role::King,
                capture: None,
                promotion: None,
                kind: MoveKind::Castle(side),
            });
        }
    }
}

/// Whether neither side can ever win where captures explode, as Lichess decides it:
/// - both sides have a piece beside the king, and the board holds only kings and two
///   bishops on squares of opposite colours (they can never take each other);
/// - a bare king against a king with at most two knights, or with a single rook,
///   bishop or knight (kings cannot shut each other in, so these cannot mate and have
///   nothing to explode);
/// - a closed position: every pawn blocked by a pawn with no move, nothing else but
///   kings and bishops of one side on one colour that cannot reach the other side's
///   pawns.
pub fn dead_by_material(pos: &Position) -> bool {
    insufficient_to_explode_or_mate(pos) || closed_position(pos)
}

fn insufficient_to_explode_or_mate(pos: &Position) -> bool {
    let occ = pos.occupied();
    let kings = pos.by_role(Role::King);
    let bishops = pos.by_role(Role::Bishop);
    let knights = pos.by_role(Role::Knight);
    let rooks = pos.by_role(Role::Rook);
    let count = occ.count();
    let both_armed = Color::ALL.into_iter().all(|c| pos.by_color(c).count() >= 2);
    let opposite_bishops = bishops_on_both_colours(bishops);
    if both_armed {
        (kings | bishops) == occ && count <= 4 && opposite_bishops
    } else if (kings | knights) == occ {
        count <= 4
    } else {
        (kings | rooks | bishops | knights) == occ && !opposite_bishops && count <= 3
    }
}

/// Whether `bishops` stand on squares of both colours.
pub(super) fn bishops_on_both_colours(bishops: Bitboard) -> bool {
    let dark = bishops.filter(|s| s.is_dark()).count();
    dark > 0 && dark < bishops.count() as usize
}

/// Every piece a blocked pawn, a king or a bishop; the bishops, if any, all of one side
/// on one colour, with every pawn of the other side on the other colour.
fn closed_position(pos: &Position) -> bool {
    let kings = pos.by_role(Role::King);
    let bishops = pos.by_role(Role::Bishop);
    let pawns = pos.by_role(Role::Pawn);
    if (kings | bishops | pawns) != pos.occupied() {
        return false;
    }
    if let Some(b) = bishops.first() {
        let side = if pos.by_color(Color::White).contains(b) {
            Color::White
        } else {
            Color::Black
        };
        let dark = b.is_dark();
        let others = pos.by_color(side.opposite());
        let ok = pos.occupied().into_iter().all(|sq| {
            kings.contains(sq)
                || (pawns.contains(sq) && !others.contains(sq))
                || (pawns.contains(sq) && sq.is_dark() != dark)
                || (bishops.contains(sq) && !others.contains(sq) && sq.is_dark() == dark)
        });
        if !ok {
            return false;
        }
    }
    pawns.into_iter().all(|sq| pawn_blocked_by_pawn(pos, sq))
}

/// Whether the pawn on `sq` has a pawn just in front of it and no legal move, its own
/// side to move.
pub(super) fn pawn_blocked_by_pawn(pos: &Position, sq: Square) -> bool {
    let Some(piece) = pos.piece_at(sq) else {
        return false;
    };
    let ahead = match piece.color {
        Color::White => sq.rank().checked_add(1),
        Color::Black => sq.rank().checked_sub(1),
    };
    let blocked = ahead
        .filter(|&r| r < pos.config().height)
        .is_some_and(|r| pos.by_role(Role::Pawn).contains(Square::new(sq.file(), r)));
    blocked
        && !pos
            .with_turn(piece.color)
            .legal_moves()
            .iter()
            .any(|m| m.from == sq)
}

/// Whether `color` could still win where captures explode, as Lichess decides a
/// timeout: unless it has nothing but its king.
pub fn could_explode_or_mate(pos: &Position, color: Color) -> bool {
    (pos.by_color(color) & !pos.by_role(Role::King)).nonempty()
}
