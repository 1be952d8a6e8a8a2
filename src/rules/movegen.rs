//! Legal move generation for every variant.
//!
//! Check variants generate exactly the legal moves with check and pin masks (no move is
//! tried and taken back). King-capture variants, where check restricts nothing, generate
//! every move that the pieces' movement allows.
//!
//! The generator writes into a `MoveSink`: a [`MoveList`] when the moves themselves
//! are wanted, or a `MoveCount` at perft's last ply, which adds up the sizes of the
//! destination sets instead of building one move per destination. Both run the same
//! generation code, so a count is the length of the list by construction (and
//! `tests/engine` checks it on every variant).

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

    /// Number of legal moves, as counted at the last ply of perft: the same generation
    /// as [`Position::legal_moves`] into a counting sink, which takes the size of each set
    /// of destinations (compulsory captures counted apart, a move that would give check
    /// tested where checks are forbidden), except where the moves must be played to be
    /// judged (exploding captures) or the list is extended afterwards (Double Move's
    /// capture of a twice-moved piece).
    pub fn count_legal_moves(&self) -> usize {
        if self.is_variant_end() {
            return 0;
        }
        let cfg = self.config();
        // The same branches as `generate_moves`, each filter counted as it goes.
        let with_check = cfg.check_matters() && cfg.kingless_side != Some(self.turn);
        let compulsory = !with_check && cfg.captures_compulsory;
        if (with_check && cfg.captures_explode)
            || self.twice_moved.is_some()
            || (compulsory && cfg.checks_forbidden)
        {
            let mut moves = MoveList::new();
            self.generate_moves(&mut moves);
            return moves.len();
        }
        if cfg.checks_forbidden {
            let mut count = CheckFreeCount { pos: self, n: 0 };
            self.generate_into(with_check, &mut count);
            return count.n;
        }
        if compulsory {
            let mut count = CaptureCount::default();
            self.generate_unrestricted_with(&mut count, true);
            return if count.captures > 0 {
                count.captures
            } else {
                count.all
            };
        }
        let mut count = MoveCount(0);
        self.generate_into(with_check, &mut count);
        count.0
    }

    /// The moves as check and pins allow them (`with_check`), or as the pieces' movement
    /// does, before any variant's filter.
    #[inline]
    fn generate_into<S: MoveSink>(&self, with_check: bool, moves: &mut S) {
        if with_check {
            self.generate_legal_with_check(moves);
        } else {
            self.generate_unrestricted_with(moves, true);
        }
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
    pub(super) fn generate_unrestricted_with<S: MoveSink>(&self, moves: &mut S, castling: bool) {
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
                    moves.piece_moves(self, Role::King, k, attacks::king_attacks(k) & target);
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
    fn generate_legal_with_check<S: MoveSink>(&self, moves: &mut S) {
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
        let mut king_dests = Bitboard::EMPTY;
        for to in attacks::king_attacks(king) & board & !ours {
            if self.attackers_to(to, them, occ_without_king).is_empty() {
                king_dests = king_dests.with(to);
            }
        }
        moves.piece_moves(self, Role::King, king, king_dests);
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

    /// Knights, bishops, rooks and queens.
    fn gen_pieces<S: MoveSink>(
        &self,
        moves: &mut S,
        target: Bitboard,
        pinned: Bitboard,
        king: Option<Square>,
    ) {
        let us = self.turn;
        let occ = self.occupied();
        let ours = self.by_color(us);
        for from in self.pieces(us, Role::Knight) & !pinned {
            moves.piece_moves(
                self,
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
            moves.piece_moves(self, Role::Bishop, from, dests);
        }
        for from in ours & self.by_role(Role::Rook) {
            let dests = attacks::rook_attacks(from, occ) & target & pin_line(from);
            moves.piece_moves(self, Role::Rook, from, dests);
        }
        for from in ours & self.by_role(Role::Queen) {
            let dests = attacks::queen_attacks(from, occ) & target & pin_line(from);
            moves.piece_moves(self, Role::Queen, from, dests);
        }
    }

    /// Pawn pushes and captures, computed set-wise for all pawns at once. `target` limits
    /// the destinations (evasions); a pinned pawn keeps only destinations on its pin line.
    fn gen_pawns<S: MoveSink>(
        &self,
        moves: &mut S,
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
        moves.pawn_moves(self, singles & target, forward, false);
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
            moves.pawn_moves(self, doubles, 2 * forward, false);
        }
        // Captures towards the a-file side and towards the h-file side.
        let not_a = !Bitboard::file(0);
        let not_h = !Bitboard::file(7);
        for (from, by) in [
            (a_side_from & not_a, forward - 1),
            (h_side_from & not_h, forward + 1),
        ] {
            moves.pawn_moves(self, shift(from, by) & theirs & target, by, true);
        }
        if let Some(ep) = self.ep_square {
            self.gen_en_passant(moves, ep, king);
        }
    }

    fn gen_en_passant<S: MoveSink>(&self, moves: &mut S, ep: Square, king: Option<Square>) {
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

    fn gen_drops<S: MoveSink>(&self, moves: &mut S, empty_target: Bitboard) {
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
            moves.drops(role, dests);
        }
    }
}

/// Where the generator puts the moves: each method receives a set of moves of one kind
/// at once, so that a count can take the size of the set.
pub(super) trait MoveSink {
    /// One move.
    fn push(&mut self, m: Move);

    /// The ordinary moves of the piece of `role` on `from` to each of `dests`, in square
    /// order; a destination that holds a piece is a capture of it.
    fn piece_moves(&mut self, pos: &Position, role: Role, from: Square, dests: Bitboard);

    /// The pawn moves of the side to move to each of `dests` from `by` squares behind it,
    /// in square order, each move to the last rank once per promotion role; `captures`
    /// says whether the destinations hold pieces to take.
    fn pawn_moves(&mut self, pos: &Position, dests: Bitboard, by: i8, captures: bool);

    /// The drops of a piece of `role` from the reserve on each of `dests`.
    fn drops(&mut self, role: Role, dests: Bitboard);
}

/// Calls `f` with each move [`MoveSink::piece_moves`] stands for, in square order.
#[inline]
fn each_piece_move(
    pos: &Position,
    role: Role,
    from: Square,
    dests: Bitboard,
    mut f: impl FnMut(Move),
) {
    let occ = pos.occupied();
    for to in dests {
        f(Move {
            from,
            to,
            role,
            capture: if occ.contains(to) {
                pos.role_at(to)
            } else {
                None
            },
            promotion: None,
            kind: MoveKind::Normal,
        });
    }
}

/// Calls `f` with each move [`MoveSink::pawn_moves`] stands for, in square order.
#[inline]
fn each_pawn_move(
    pos: &Position,
    dests: Bitboard,
    by: i8,
    captures: bool,
    mut f: impl FnMut(Move),
) {
    let us = pos.turn;
    let promoting = dests & Bitboard::rank(pos.home_rank(us.opposite()));
    let plain = dests & !promoting;
    let m = |to: Square| Move {
        from: Square::from_index((to.index() as i8 - by) as u8),
        to,
        role: Role::Pawn,
        capture: if captures { pos.role_at(to) } else { None },
        promotion: None,
        kind: MoveKind::Normal,
    };
    // White's last rank has the highest squares, Black's the lowest.
    if us == Color::White {
        for to in plain {
            f(m(to));
        }
    }
    for to in promoting {
        for &promotion in pos.config().promotion {
            f(Move {
                promotion: Some(promotion),
                ..m(to)
            });
        }
    }
    if us == Color::Black {
        for to in plain {
            f(m(to));
        }
    }
}

/// Calls `f` with each move [`MoveSink::drops`] stands for, in square order.
#[inline]
fn each_drop(role: Role, dests: Bitboard, mut f: impl FnMut(Move)) {
    for to in dests {
        f(Move {
            from: to,
            to,
            role,
            capture: None,
            promotion: None,
            kind: MoveKind::Drop,
        });
    }
}

// (`ArrayVec::extend` is not inlined and costs more than `push` here.)
impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        ArrayVec::push(self, m);
    }

    #[inline]
    fn piece_moves(&mut self, pos: &Position, role: Role, from: Square, dests: Bitboard) {
        each_piece_move(pos, role, from, dests, |m| ArrayVec::push(self, m));
    }

    #[inline]
    fn pawn_moves(&mut self, pos: &Position, dests: Bitboard, by: i8, captures: bool) {
        each_pawn_move(pos, dests, by, captures, |m| ArrayVec::push(self, m));
    }

    #[inline]
    fn drops(&mut self, role: Role, dests: Bitboard) {
        each_drop(role, dests, |m| ArrayVec::push(self, m));
    }
}

/// A number of moves: what the generator adds up instead of listing them, at the last
/// ply of perft.
pub(super) struct MoveCount(pub usize);

impl MoveSink for MoveCount {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline]
    fn piece_moves(&mut self, _: &Position, _: Role, _: Square, dests: Bitboard) {
        self.0 += dests.count() as usize;
    }

    #[inline]
    fn pawn_moves(&mut self, pos: &Position, dests: Bitboard, _: i8, _: bool) {
        self.0 += dests.count() as usize;
        // Rarely any promotion: one population count in the common case (without the
        // `popcnt` instruction, which the portable build does not assume, a count costs a
        // dozen instructions).
        let promoting = dests & Bitboard::rank(pos.home_rank(pos.turn.opposite()));
        if promoting.nonempty() {
            let each = promoting.count() as usize;
            self.0 = self.0 - each + each * pos.config().promotion.len();
        }
    }

    #[inline]
    fn drops(&mut self, _: Role, dests: Bitboard) {
        self.0 += dests.count() as usize;
    }
}

/// Moves counted twice over, all of them and the captures: where captures are
/// compulsory (Antichess) the legal moves are the captures if there is one.
#[derive(Default)]
struct CaptureCount {
    all: usize,
    captures: usize,
}

impl MoveSink for CaptureCount {
    #[inline]
    fn push(&mut self, m: Move) {
        self.all += 1;
        self.captures += usize::from(m.capture.is_some());
    }

    #[inline]
    fn piece_moves(&mut self, pos: &Position, _: Role, _: Square, dests: Bitboard) {
        self.all += dests.count() as usize;
        self.captures += (dests & pos.occupied()).count() as usize;
    }

    #[inline]
    fn pawn_moves(&mut self, pos: &Position, dests: Bitboard, by: i8, captures: bool) {
        let mut n = MoveCount(0);
        n.pawn_moves(pos, dests, by, captures);
        self.all += n.0;
        if captures {
            self.captures += n.0;
        }
    }

    #[inline]
    fn drops(&mut self, _: Role, dests: Bitboard) {
        self.all += dests.count() as usize;
    }
}

/// The moves that give no check, counted one by one where checks are forbidden
/// (Racing Kings), without being listed.
struct CheckFreeCount<'a> {
    pos: &'a Position,
    n: usize,
}

impl MoveSink for CheckFreeCount<'_> {
    #[inline]
    fn push(&mut self, m: Move) {
        self.n += usize::from(!self.pos.gives_check(m));
    }

    #[inline]
    fn piece_moves(&mut self, pos: &Position, role: Role, from: Square, dests: Bitboard) {
        each_piece_move(pos, role, from, dests, |m| self.push(m));
    }

    #[inline]
    fn pawn_moves(&mut self, pos: &Position, dests: Bitboard, by: i8, captures: bool) {
        each_pawn_move(pos, dests, by, captures, |m| self.push(m));
    }

    #[inline]
    fn drops(&mut self, role: Role, dests: Bitboard) {
        each_drop(role, dests, |m| self.push(m));
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
