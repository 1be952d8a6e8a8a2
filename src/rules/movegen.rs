//! Legal move generation for every variant.
//!
//! Check variants generate exactly the legal moves with check and pin masks (no move is
//! tried and taken back). King-capture variants, where check restricts nothing, generate
//! every move that the pieces' movement allows.

use super::attacks;
use super::bitboard::Bitboard;
use super::position::Position;
use super::types::{Color, Move, MoveKind, Role, Square};
use arrayvec::ArrayVec;

/// A list of moves on the stack, large enough for any position of any variant.
pub type MoveList = ArrayVec<Move, 512>;

impl Position {
    /// All legal moves of the side to move. Empty when the position ends the game (a
    /// king captured, a goal reached).
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        moves
    }

    /// Number of legal moves, as counted at the last ply of perft.
    pub fn count_legal_moves(&self) -> usize {
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        moves.len()
    }

    /// Fills `moves` (cleared first) with the legal moves; avoids returning a list by value
    /// on hot paths such as perft.
    pub fn legal_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        self.generate(moves);
    }

    /// Moves the pieces' movement allows, ignoring whether the mover's own king is left
    /// attacked (in king-capture variants these are exactly the legal moves). Used to explain
    /// why a move is illegal.
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        if !self.is_variant_end() {
            self.generate_unrestricted(&mut moves);
        }
        moves
    }

    /// Whether `m` is one of the legal moves.
    pub fn is_legal(&self, m: &Move) -> bool {
        self.legal_moves().contains(m)
    }

    fn generate(&self, moves: &mut MoveList) {
        if self.is_variant_end() {
            return;
        }
        self.generate_moves(moves);
    }

    /// The legal moves as the pieces and the rules allow them, whether or not the
    /// position has already ended the game (what an ending that looks one move ahead,
    /// Racing Kings' reply, needs).
    pub(super) fn generate_moves(&self, moves: &mut MoveList) {
        let cfg = self.config();
        if cfg.check_matters() && cfg.kingless_side != Some(self.turn) {
            if cfg.captures_explode {
                self.generate_explosive(moves);
            } else {
                self.generate_legal_with_check(moves);
            }
        } else {
            self.generate_unrestricted(moves);
            if cfg.captures_compulsory && moves.iter().any(|m| m.capture.is_some()) {
                moves.retain(|m| m.capture.is_some());
            }
        }
        if self.twice_moved.is_some() {
            self.push_twice_moved_captures(moves);
        }
        if cfg.checks_forbidden {
            moves.retain(|m| !self.gives_check(*m));
        }
    }

    /// Whether the legal move `m` leaves the opponent's king attacked: `self.after(m)
    /// .is_check()`, worked out for an ordinary move from the pieces' new squares
    /// without playing it (Racing Kings asks it of every move).
    pub(super) fn gives_check(&self, m: Move) -> bool {
        let cfg = self.config();
        if m.kind != MoveKind::Normal || cfg.captures_explode || cfg.drops.is_some() {
            return self.after(m).is_check();
        }
        let us = self.turn;
        let Some(king) = self.king_of(us.opposite()) else {
            return false;
        };
        let moved = Bitboard::from_square(m.from) | Bitboard::from_square(m.to);
        let occ = self.occupied().without(m.from).with(m.to);
        // Our pieces after the move, by role: the moving piece leaves `from` and, promoted
        // or not, stands on `to`.
        let ours = self.by_color(us) & !moved;
        let role_after = m.promotion.unwrap_or(m.role);
        let of = |role: Role| {
            let bb = ours & self.by_role(role);
            if role == role_after {
                bb.with(m.to)
            } else {
                bb
            }
        };
        let rq = of(Role::Rook) | of(Role::Queen);
        let bq = of(Role::Bishop) | of(Role::Queen);
        ((attacks::rook_attacks(king, occ) & rq)
            | (attacks::bishop_attacks(king, occ) & bq)
            | (attacks::knight_attacks(king) & of(Role::Knight))
            | (attacks::king_attacks(king) & of(Role::King))
            | (attacks::pawn_attacks(us.opposite(), king) & of(Role::Pawn)))
        .nonempty()
    }

    /// Whether the side to move may move pieces on the board (not only drop).
    fn may_move_pieces(&self) -> bool {
        match self.config().drops {
            Some(d) if d.king_before_moves => self.pieces(self.turn, Role::King).nonempty(),
            _ => true,
        }
    }

    /// Every move the pieces' movement, the castling rules and the drop rules allow.
    fn generate_unrestricted(&self, moves: &mut MoveList) {
        self.generate_unrestricted_with(moves, true);
    }

    /// Every move the pieces' movement and the drop rules allow, and castling if
    /// `castling` (Atomic judges it by its own rules).
    pub(super) fn generate_unrestricted_with(&self, moves: &mut MoveList, castling: bool) {
        let cfg = self.config();
        let us = self.turn;
        let board = cfg.board_mask();
        {
            let target = board & !self.by_color(us);
            if self.may_move_pieces() {
                self.gen_pieces(moves, target, Bitboard::EMPTY, None);
                self.gen_pawns(moves, target, Bitboard::EMPTY, None);
                // Every king: one at most where the king is royal, any number where it
                // is an ordinary piece.
                for k in self.pieces(us, Role::King) {
                    for to in attacks::king_attacks(k) & target {
                        self.push_normal(moves, Role::King, k, to);
                    }
                }
                if castling && cfg.castling && self.castling.nonempty() {
                    // Check restricts nothing here but castling, out of check only.
                    if let Some(king) = self.king_of(us) {
                        if self
                            .attackers_to(king, us.opposite(), self.occupied())
                            .is_empty()
                        {
                            self.gen_castling(moves, king);
                        }
                    }
                }
            }
            self.gen_drops(moves, board & !self.occupied());
        }
    }

    /// Exactly the legal moves of a check variant, using check and pin masks.
    fn generate_legal_with_check(&self, moves: &mut MoveList) {
        let us = self.turn;
        let cfg = self.config();
        let board = cfg.board_mask();
        let ours = self.by_color(us);
        let may_move_pieces = self.may_move_pieces();
        let king = self
            .king_of(us)
            .expect("check variants always have the king on the board");
        let them = us.opposite();
        let checkers = self.attackers_to(king, them, self.occupied());

        // King moves: the destination must not be attacked once the king has left its square.
        let occ_without_king = self.occupied().without(king);
        for to in attacks::king_attacks(king) & board & !ours {
            if self.attackers_to(to, them, occ_without_king).is_empty() {
                self.push_normal(moves, Role::King, king, to);
            }
        }
        if checkers.more_than_one() || !may_move_pieces {
            return;
        }
        let (target, drop_target) = match checkers.single() {
            Some(checker) => {
                let block = attacks::between(king, checker);
                (block.with(checker) & board, block & board)
            }
            None => (board & !ours, board & !self.occupied()),
        };
        let pinned = self.pinned(king);
        self.gen_pieces(moves, target, pinned, Some(king));
        self.gen_pawns(moves, target, pinned, Some(king));
        if checkers.is_empty() && cfg.castling && self.castling.nonempty() {
            self.gen_castling(moves, king);
        }
        self.gen_drops(moves, drop_target & !self.occupied());
    }

    /// Our pieces that stand alone between our king and an enemy slider.
    pub(super) fn pinned(&self, king: Square) -> Bitboard {
        let us = self.turn;
        let theirs = self.by_color(us.opposite());
        let rq = theirs & (self.by_role(Role::Rook) | self.by_role(Role::Queen));
        let bq = theirs & (self.by_role(Role::Bishop) | self.by_role(Role::Queen));
        // Only sliders on the king's lines can pin; often there are none.
        let mut snipers = Bitboard::EMPTY;
        if (attacks::rook_lines(king) & rq).nonempty() {
            snipers |= attacks::rook_attacks(king, theirs) & rq;
        }
        if (attacks::bishop_lines(king) & bq).nonempty() {
            snipers |= attacks::bishop_attacks(king, theirs) & bq;
        }
        let mut pinned = Bitboard::EMPTY;
        let occ = self.occupied();
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers & self.by_color(us);
            }
        }
        pinned
    }

    #[inline]
    fn push_normal(&self, moves: &mut MoveList, role: Role, from: Square, to: Square) {
        moves.push(Move {
            from,
            to,
            role,
            capture: self.role_at(to),
            promotion: None,
            kind: MoveKind::Normal,
        });
    }

    /// Knights, bishops, rooks and queens.
    fn gen_pieces(
        &self,
        moves: &mut MoveList,
        target: Bitboard,
        pinned: Bitboard,
        king: Option<Square>,
    ) {
        let us = self.turn;
        let occ = self.occupied();
        let ours = self.by_color(us);
        for from in self.pieces(us, Role::Knight) & !pinned {
            self.push_piece_moves(
                moves,
                Role::Knight,
                from,
                attacks::knight_attacks(from) & target,
            );
        }
        // A pinned piece keeps only the destinations on the line through its king.
        let pin_line = |from: Square| match king {
            Some(k) if pinned.contains(from) => attacks::line_through(k, from),
            _ => Bitboard::ALL,
        };
        for from in ours & self.by_role(Role::Bishop) {
            let dests = attacks::bishop_attacks(from, occ) & target & pin_line(from);
            self.push_piece_moves(moves, Role::Bishop, from, dests);
        }
        for from in ours & self.by_role(Role::Rook) {
            let dests = attacks::rook_attacks(from, occ) & target & pin_line(from);
            self.push_piece_moves(moves, Role::Rook, from, dests);
        }
        for from in ours & self.by_role(Role::Queen) {
            let dests = attacks::queen_attacks(from, occ) & target & pin_line(from);
            self.push_piece_moves(moves, Role::Queen, from, dests);
        }
    }

    /// Adds the moves of the piece of `role` on `from` to each of `dests`, in square order.
    #[inline]
    fn push_piece_moves(&self, moves: &mut MoveList, role: Role, from: Square, dests: Bitboard) {
        let occ = self.occupied();
        for to in dests {
            moves.push(Move {
                from,
                to,
                role,
                capture: if occ.contains(to) {
                    self.role_at(to)
                } else {
                    None
                },
                promotion: None,
                kind: MoveKind::Normal,
            });
        }
    }

    /// Adds the pawn moves to each of `dests` from `by` squares behind it, in square
    /// order, each move to the last rank once per promotion role; `captures` says
    /// whether the destinations hold pieces to take.
    #[inline]
    fn push_pawn_moves(&self, moves: &mut MoveList, dests: Bitboard, by: i8, captures: bool) {
        let us = self.turn;
        let last_rank = match us {
            Color::White => self.config().height - 1,
            Color::Black => 0,
        };
        let promoting = dests & Bitboard::rank(last_rank);
        let plain = dests & !promoting;
        let m = |to: Square| Move {
            from: Square::from_index((to.index() as i8 - by) as u8),
            to,
            role: Role::Pawn,
            capture: if captures { self.role_at(to) } else { None },
            promotion: None,
            kind: MoveKind::Normal,
        };
        // White's last rank has the highest squares, Black's the lowest.
        // (`ArrayVec::extend` is not inlined and costs more than `push` here.)
        if us == Color::White {
            for to in plain {
                moves.push(m(to));
            }
        }
        for to in promoting {
            for &promotion in self.config().promotion {
                moves.push(Move {
                    promotion: Some(promotion),
                    ..m(to)
                });
            }
        }
        if us == Color::Black {
            for to in plain {
                moves.push(m(to));
            }
        }
    }

    /// Pawn pushes and captures, computed set-wise for all pawns at once. `target` limits
    /// the destinations (evasions); a pinned pawn keeps only destinations on its pin line.
    fn gen_pawns(
        &self,
        moves: &mut MoveList,
        target: Bitboard,
        pinned: Bitboard,
        king: Option<Square>,
    ) {
        let cfg = self.config();
        let us = self.turn;
        let board = cfg.board_mask();
        let empty = board & !self.occupied();
        let theirs = self.by_color(us.opposite());
        let pawns = self.pieces(us, Role::Pawn);
        let (double_rank, forward): (u8, i8) = match us {
            Color::White => (2, 8),
            Color::Black => (cfg.height - 3, -8),
        };
        let shift = |bb: Bitboard, by: i8| -> Bitboard {
            if by >= 0 {
                Bitboard(bb.0 << by)
            } else {
                Bitboard(bb.0 >> -by)
            }
        };
        // A pinned pawn moves only along its pin line, the line through it and its king:
        // it pushes only if that is the king's file, and captures only along the king's
        // diagonal that the capture follows. So the pawns allowed to move each way are
        // sets too, and no move is tested one by one.
        let (push_from, a_side_from, h_side_from) = match king {
            Some(k) if (pawns & pinned).nonempty() => {
                let free = pawns & !pinned;
                // White's a-side captures go up the anti-diagonal, Black's down the diagonal.
                let (a_line, h_line) = match us {
                    Color::White => (attacks::anti_diagonal(k), attacks::diagonal(k)),
                    Color::Black => (attacks::diagonal(k), attacks::anti_diagonal(k)),
                };
                (
                    free | (pawns & Bitboard::file(k.file())),
                    free | (pawns & a_line),
                    free | (pawns & h_line),
                )
            }
            _ => (pawns, pawns, pawns),
        };

        let singles = shift(push_from, forward) & empty;
        self.push_pawn_moves(moves, singles & target, forward, false);
        if cfg.double_step {
            let mut from_ranks = Bitboard::rank(double_rank);
            // A kingless side's pawns step two squares from its first rank too (Horde).
            if cfg.kingless_side == Some(us) {
                // A single step from the first rank lands on the second.
                let second = match us {
                    Color::White => 1,
                    Color::Black => cfg.height - 2,
                };
                from_ranks |= Bitboard::rank(second);
            }
            let doubles = shift(singles & from_ranks, forward) & empty & target;
            self.push_pawn_moves(moves, doubles, 2 * forward, false);
        }
        // Captures towards the a-file side and towards the h-file side.
        let not_a = !Bitboard::file(0);
        let not_h = !Bitboard::file(7);
        for (from, by) in [
            (a_side_from & not_a, forward - 1),
            (h_side_from & not_h, forward + 1),
        ] {
            self.push_pawn_moves(moves, shift(from, by) & theirs & target, by, true);
        }
        if let Some(ep) = self.ep_square {
            self.gen_en_passant(moves, ep, king);
        }
    }

    fn gen_en_passant(&self, moves: &mut MoveList, ep: Square, king: Option<Square>) {
        let us = self.turn;
        let them = us.opposite();
        // The captured pawn stands just beyond the square it skipped.
        let captured = match us {
            Color::White => Square::new(ep.file(), ep.rank() - 1),
            Color::Black => Square::new(ep.file(), ep.rank() + 1),
        };
        for from in attacks::pawn_attacks(them, ep) & self.pieces(us, Role::Pawn) {
            if let Some(k) = king {
                // Play it on the occupancy and look for any attack on our king.
                let occ = (self.occupied().without(from).without(captured)).with(ep);
                let attackers = self.attackers_to(k, them, occ).without(captured);
                if attackers.nonempty() {
                    continue;
                }
            }
            moves.push(Move {
                from,
                to: ep,
                role: Role::Pawn,
                capture: Some(Role::Pawn),
                promotion: None,
                kind: MoveKind::EnPassant,
            });
        }
    }

    fn gen_drops(&self, moves: &mut MoveList, empty_target: Bitboard) {
        let cfg = self.config();
        let Some(rules) = cfg.drops else {
            return;
        };
        let us = self.turn;
        let reserve = self.reserve(us);
        if reserve.iter().all(|&n| n == 0) {
            return;
        }
        let zone = if rules.first_rank_only {
            let rank = if us == Color::White {
                0
            } else {
                cfg.height - 1
            };
            Bitboard::rank(rank)
        } else {
            Bitboard::ALL
        };
        let others_than_queen = Role::ALL
            .iter()
            .any(|r| *r != Role::Queen && reserve[r.index()] > 0);
        for role in Role::ALL {
            if reserve[role.index()] == 0 {
                continue;
            }
            if rules.queen_last && role == Role::Queen && others_than_queen {
                continue;
            }
            let mut dests = empty_target & zone;
            if role == Role::Pawn {
                dests &= !(Bitboard::rank(0) | Bitboard::rank(cfg.height - 1));
            }
            for to in dests {
                moves.push(Move {
                    from: to,
                    to,
                    role,
                    capture: None,
                    promotion: None,
                    kind: MoveKind::Drop,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fen::parse_fen;
    use super::super::variant::Variant;

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        // Direct checks, discovered checks, promotions, captures, castling, en passant.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/1P6/8/3pP3/8/8/8/R3K2R w KQ d6 0 1",
            "3k4/8/8/8/1b6/8/3P4/R3K3 w Q - 0 1",
        ];
        let mut checks = 0;
        for fen in fens {
            let pos = parse_fen(Variant::STANDARD, fen).unwrap();
            for m in pos.legal_moves() {
                let expected = pos.after(m).is_check();
                assert_eq!(pos.gives_check(m), expected, "{fen} {}", m.uci());
                checks += usize::from(expected);
            }
        }
        assert!(checks >= 7, "the positions give several checks: {checks}");
    }
}
