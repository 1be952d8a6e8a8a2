//! A position of any chess-like variant: pieces, reserves, side to move, castling rights,
//! en-passant square and move counters. Pure data plus the operations that change it.

use super::attacks;
use super::bitboard::Bitboard;
use super::types::{CastlingSide, Color, Move, MoveKind, Piece, Role, Square};
use super::variant::{KingRule, Variant, VariantConfig};
use super::zobrist;

mod setup;

/// Pieces in hand for one side, counted per role.
pub type Reserve = [u8; 6];

/// Why a set of pieces and counters is not a playable position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A piece stands outside the board.
    #[error("a piece stands outside the {0}x{1} board")]
    PieceOffBoard(u8, u8),
    /// A side has the wrong number of kings.
    #[error("{0} must have exactly one king")]
    KingCount(Color),
    /// A pawn stands on its first or last rank.
    #[error("a pawn stands on the first or last rank")]
    PawnOnBackRank,
    /// The side not to move is in check in a variant where that cannot happen.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// A reserve holds pieces in a variant without drops, or pawns where they cannot go.
    #[error("this reserve is not possible in {0}")]
    BadReserve(Variant),
    /// The en-passant square is not just behind a pawn that has made its double step.
    #[error("the en-passant square is not behind a pawn that just made its double step")]
    BadEnPassant,
    /// A castling right names no unmoved king and rook pair.
    #[error("a castling right has no king and rook on their starting squares")]
    BadCastling,
    /// A castling right in a variant without castling (Antichess, Racing Kings).
    #[error("{} has no castling, so a position cannot keep a castling right", .0.display_name())]
    NoCastling(Variant),
    /// A piece of a role that the variant does not have.
    #[error("{0} has no {1}")]
    RoleNotInVariant(Variant, Role),
    /// Double-move tokens in a variant without them, or more than the variant gives.
    #[error("{0} gives no more than {1} double-move tokens per player")]
    BadTokens(Variant, u8),
    /// Checks given in a variant that does not count them, or more than win the game.
    #[error("{0} counts no more than {1} checks per player")]
    BadChecks(Variant, u8),
    /// A promoted mark (`~`) on an empty square, a pawn or a king.
    #[error("only a piece that a pawn can become may be marked as promoted")]
    BadPromoted,
}

/// A position. Small and `Copy`, so searching and perft copy it instead of undoing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) variant: Variant,
    pub(super) by_color: [Bitboard; 2],
    pub(super) by_role: [Bitboard; 6],
    pub(super) turn: Color,
    /// Squares of rooks that may still castle.
    pub(super) castling: Bitboard,
    /// The square a pawn passed over with its double step on the last move.
    pub(super) ep_square: Option<Square>,
    pub(super) reserves: [Reserve; 2],
    pub(super) halfmoves: u32,
    pub(super) fullmoves: u32,
    /// Double Move Chess: the double-move tokens each side has left, by [`Color::index`].
    pub(super) tokens: [u8; 2],
    /// Double Move Chess, between the two halves of a double move: the square where the
    /// first half's piece stopped.
    pub(super) first_half_at: Option<Square>,
    /// Double Move Chess, just after one piece moved twice: the square it stopped on
    /// between its two moves and the square it stands on (rule 5's capture).
    pub(super) twice_moved: Option<(Square, Square)>,
    /// Three-check: the checks each side has given, by [`Color::index`].
    pub(super) checks_given: [u8; 2],
    /// Crazyhouse: the squares of pieces that were pawns once (captured, they go to the
    /// pocket as pawns). Always empty where captures do not feed the pocket.
    pub(super) promoted: Bitboard,
}

/// The raw parts of a position, before validation (what FEN parsing produces).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces on the board.
    pub pieces: Vec<(Square, Piece)>,
    /// Pieces in hand, White's then Black's.
    pub reserves: [Reserve; 2],
    /// Side to move.
    pub turn: Color,
    /// Squares of rooks that keep their castling right.
    pub castling: Bitboard,
    /// En-passant target square, if any.
    pub ep_square: Option<Square>,
    /// Plies since the last pawn move or capture.
    pub halfmoves: u32,
    /// Move number, starting at 1, increased after Black moves.
    pub fullmoves: u32,
    /// Double-move tokens left, White's then Black's; `None` gives each side the variant's
    /// full number (none in variants without double moves).
    pub tokens: Option<[u8; 2]>,
    /// Checks given so far, White's then Black's (Three-check; zero elsewhere).
    pub checks_given: [u8; 2],
    /// Crazyhouse: the squares of promoted pieces (`Q~` in FEN); ignored in variants whose
    /// captures do not feed the pocket.
    pub promoted: Bitboard,
}

impl Position {
    /// The raw parts of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            pieces: self
                .occupied()
                .map(|sq| (sq, self.piece_at(sq).expect("occupied square has a piece")))
                .collect(),
            reserves: self.reserves,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            tokens: Some(self.tokens),
            checks_given: self.checks_given,
            promoted: self.promoted,
        }
    }

    /// The variant's starting position: read from its start FEN once a thread, then
    /// copied (a game loaded or written compares its start with it at every move).
    pub fn start(variant: Variant) -> Position {
        thread_local! {
            static STARTS: std::cell::RefCell<Vec<Position>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        STARTS.with(|starts| {
            if let Some(p) = starts.borrow().iter().find(|p| p.variant == variant) {
                return *p;
            }
            let p = super::fen::parse_fen(variant, variant.config().start_fen)
                .expect("every variant's start FEN is valid");
            starts.borrow_mut().push(p);
            p
        })
    }

    /// Which variant's rules apply.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The variant's configuration.
    #[inline]
    pub fn config(&self) -> &'static VariantConfig {
        self.variant.config()
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last pawn move or capture.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (starts at 1, increases after Black's move).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The raw en-passant square (set after any double step, whether or not capturable).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The squares of rooks that may still castle.
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// Pieces in hand of one side, indexed by [`Role::index`].
    #[inline]
    pub fn reserve(&self, color: Color) -> &Reserve {
        &self.reserves[color.index()]
    }

    /// Crazyhouse: the squares of pieces that a pawn became (empty in other variants).
    #[inline]
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// Whether captures feed the capturer's pocket here (Crazyhouse), so that promoted
    /// pieces are remembered.
    #[inline]
    pub fn tracks_promotions(&self) -> bool {
        self.config().drops.is_some_and(|d| d.captures_to_pocket)
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares occupied by one side.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares occupied by one role, both sides.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Squares of one side's pieces of one role.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else if self.by_color[1].contains(sq) {
            Color::Black
        } else {
            return None;
        };
        self.role_at(sq).map(|role| Piece { color, role })
    }

    /// The role of the piece on a square, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()].contains(sq))
    }

    /// The square of a side's king, if it is on the board.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    /// Whether a side still has its king, on the board or in hand.
    pub fn has_king(&self, color: Color) -> bool {
        self.pieces(color, Role::King).nonempty()
            || self.reserves[color.index()][Role::King.index()] > 0
    }

    /// The side whose king has been captured (or exploded), in a variant where the king
    /// is royal; never where it is an ordinary piece.
    pub fn king_captured(&self) -> Option<Color> {
        if self.config().king_rule == KingRule::Ordinary {
            return None;
        }
        let kingless = self.config().kingless_side;
        Color::ALL
            .into_iter()
            .find(|&c| !self.has_king(c) && kingless != Some(c))
    }

    /// Whether the position itself ends the game (a king captured, a goal reached, the
    /// checks counted, a side extinct), so that no move follows.
    #[inline]
    pub fn is_variant_end(&self) -> bool {
        self.king_captured().is_some()
            || self.goal_reached().is_some()
            || self.goal_drawn()
            || self.check_limit_reached().is_some()
            || self.extinct().is_some()
    }

    pub(super) fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] |= bb;
        self.by_role[piece.role.index()] |= bb;
    }

    pub(super) fn remove(&mut self, sq: Square, piece: Piece) {
        let bb = !Bitboard::from_square(sq);
        self.by_color[piece.color.index()] &= bb;
        self.by_role[piece.role.index()] &= bb;
    }

    /// Pieces of `by` that attack `sq`, given the occupied squares `occupied`.
    /// The sliders' attacks are computed only when a slider of `by` stands on a line
    /// through `sq` (a cheap test on the empty board's lines that often spares them).
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color[by.index()];
        let queens = self.by_role[Role::Queen.index()];
        let rq = them & (self.by_role[Role::Rook.index()] | queens);
        let bq = them & (self.by_role[Role::Bishop.index()] | queens);
        let mut attackers = them
            & ((attacks::knight_attacks(sq) & self.by_role[Role::Knight.index()])
                | (attacks::king_attacks(sq) & self.by_role[Role::King.index()])
                | (attacks::pawn_attacks(by.opposite(), sq) & self.by_role[Role::Pawn.index()]));
        if (attacks::rook_lines(sq) & rq).nonempty() {
            attackers |= attacks::rook_attacks(sq, occupied) & rq;
        }
        if (attacks::bishop_lines(sq) & bq).nonempty() {
            attackers |= attacks::bishop_attacks(sq, occupied) & bq;
        }
        attackers
    }

    /// Whether `color`'s king stands attacked by `by` (false if the king is not on the board).
    fn is_attacked_by_side(&self, color: Color, by: Color) -> bool {
        self.king_of(color)
            .is_some_and(|k| self.king_attackers(k, by).nonempty())
    }

    /// The pieces of `by` giving check to a king on `king`: every attacker, or where
    /// captures explode none while the kings touch and never the king itself.
    #[inline]
    fn king_attackers(&self, king: Square, by: Color) -> Bitboard {
        if self.config().captures_explode {
            return self.explosive_checkers(king, by);
        }
        self.attackers_to(king, by, self.occupied())
    }

    /// The opponent's pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        match self.king_of(self.turn) {
            Some(k) => self.king_attackers(k, self.turn.opposite()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the side to move's king is attacked.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().nonempty()
    }

    /// Whether `color`'s king is on the board and attacked.
    pub fn king_attacked(&self, color: Color) -> bool {
        self.is_attacked_by_side(color, color.opposite())
    }

    /// Material on the board for one side (P1 N3 B3 R5 Q9); reserves do not count.
    pub fn material(&self, color: Color) -> u32 {
        Role::ALL
            .into_iter()
            .map(|r| self.pieces(color, r).count() * r.material_value())
            .sum()
    }

    /// A hash of everything that makes two positions the same for repetition: pieces,
    /// reserves, side to move, castling rights and a legal en-passant capture.
    pub fn zobrist_hash(&self) -> u64 {
        let mut h = 0u64;
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in self.pieces(color, role) {
                    h ^= zobrist::piece(color, role, sq);
                }
                h ^= zobrist::reserve(color, role, self.reserves[color.index()][role.index()]);
            }
        }
        if self.turn == Color::Black {
            h ^= zobrist::BLACK_TO_MOVE;
        }
        for sq in self.castling {
            h ^= zobrist::castling(sq);
        }
        if let Some(ep) = self.legal_ep_square() {
            h ^= zobrist::en_passant(ep.file());
        }
        if self.config().endings.check_limit.is_some() {
            for color in Color::ALL {
                h ^= zobrist::checks(color, self.checks_given[color.index()]);
            }
        }
        // Crazyhouse: which pieces return to a pocket as pawns is part of the position
        // (as Lichess and python-chess count repetitions).
        for sq in self.promoted {
            h ^= zobrist::promoted(sq);
        }
        if let Some(dm) = self.config().double_move {
            for color in Color::ALL {
                h ^= zobrist::tokens(color, self.tokens[color.index()]);
            }
            if self.fullmoves >= dm.first_move {
                h ^= zobrist::DOUBLE_MOVES_OPEN;
            }
            if let Some(stop) = self.first_half_at {
                h ^= zobrist::first_half(stop);
            }
            if let Some((stop, _)) = self.twice_moved {
                if self.has_twice_moved_capture() {
                    h ^= zobrist::twice_moved(stop);
                }
            }
        }
        h
    }

    /// The en-passant square if an en-passant capture is actually legal now.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        self.legal_moves()
            .iter()
            .any(|m| m.kind == MoveKind::EnPassant)
            .then_some(ep)
    }

    /// Plays a move that must be legal in this position (from [`Position::legal_moves`]).
    /// Playing anything else leaves the position inconsistent.
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        let them = us.opposite();
        let moving = Piece {
            color: us,
            role: m.role,
        };
        self.ep_square = None;
        self.halfmoves += 1;
        let twice_moved = self.twice_moved.take();
        let first_half_at = self.first_half_at.take();
        if self.tracks_promotions() {
            self.feed_pocket(m, us);
        }
        match m.kind {
            MoveKind::Drop => {
                self.reserves[us.index()][m.role.index()] -= 1;
                self.put(m.to, moving);
            }
            MoveKind::Castle(side) => self.play_castle(m, moving, side),
            MoveKind::EnPassant => self.play_en_passant(m, moving),
            MoveKind::Normal | MoveKind::CaptureTwiceMoved => {
                self.play_normal(m, moving, twice_moved)
            }
        }
        if m.capture.is_some() && self.config().captures_explode {
            self.explode(m.to);
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = them;
        if self.config().endings.check_limit.is_some() && self.is_check() {
            self.checks_given[us.index()] += 1;
        }
        // The second half of a double move by the piece that made the first half leaves
        // it open to rule 5's capture on the next move.
        if let Some(stop) = first_half_at {
            if m.from == stop && !m.is_drop() {
                self.twice_moved = Some((stop, m.to));
            }
        }
    }

    /// Crazyhouse's part of `m`, played by `us` before the pieces move: the captured piece
    /// goes to `us`'s pocket (as a pawn if it was promoted), and the promoted marks follow
    /// their pieces (a promotion marks its square, a capture clears it).
    fn feed_pocket(&mut self, m: Move, us: Color) {
        let promoted = self.promoted;
        if let Some(role) = m.capture {
            let was_pawn = m.kind != MoveKind::EnPassant && promoted.contains(m.to);
            let role = if was_pawn { Role::Pawn } else { role };
            self.reserves[us.index()][role.index()] += 1;
        }
        match m.kind {
            MoveKind::Normal => {
                let mut marks = promoted.without(m.to);
                if promoted.contains(m.from) || m.promotion.is_some() {
                    marks = marks.without(m.from).with(m.to);
                }
                self.promoted = marks;
            }
            MoveKind::Castle(side) => {
                // A promoted rook set up with a castling right keeps its mark.
                if let Some(rook) = self
                    .castling_rook(us, side)
                    .filter(|r| promoted.contains(*r))
                {
                    let (_, rook_to) = self.castle_targets(us, side);
                    self.promoted = promoted.without(rook).with(rook_to);
                }
            }
            MoveKind::Drop | MoveKind::EnPassant | MoveKind::CaptureTwiceMoved => {}
        }
    }

    /// The pieces' part of a castling move by `moving`, the king.
    #[inline]
    fn play_castle(&mut self, m: Move, moving: Piece, side: CastlingSide) {
        let us = moving.color;
        let rook_from = self
            .castling_rook(us, side)
            .expect("castling move needs its right");
        let (king_to, rook_to) = self.castle_targets(us, side);
        let rook = Piece {
            color: us,
            role: Role::Rook,
        };
        self.remove(m.from, moving);
        self.remove(rook_from, rook);
        self.put(king_to, moving);
        self.put(rook_to, rook);
        self.castling &= !Bitboard::rank(rook_from.rank());
    }

    /// The pieces' part of an en-passant capture by `moving`, a pawn.
    #[inline]
    fn play_en_passant(&mut self, m: Move, moving: Piece) {
        let captured_sq = Square::new(m.to.file(), m.from.rank());
        self.remove(
            captured_sq,
            Piece {
                color: moving.color.opposite(),
                role: Role::Pawn,
            },
        );
        self.remove(m.from, moving);
        self.put(m.to, moving);
        self.halfmoves = 0;
    }

    /// The pieces' part of any other move by `moving`, with its capture (from where
    /// `twice_moved` says, for rule 5 of Double Move Chess), its promotion, the
    /// en-passant square it opens and the castling rights it ends.
    #[inline]
    fn play_normal(&mut self, m: Move, moving: Piece, twice_moved: Option<(Square, Square)>) {
        // Rule 5 of Double Move Chess takes the piece from where it stands, not from the
        // square the capturer moves to.
        let captured_at = match (m.kind, twice_moved) {
            (MoveKind::CaptureTwiceMoved, Some((_, at))) => at,
            _ => m.to,
        };
        if let Some(captured) = m.capture {
            self.remove(
                captured_at,
                Piece {
                    color: moving.color.opposite(),
                    role: captured,
                },
            );
            self.halfmoves = 0;
        }
        self.remove(m.from, moving);
        let placed = Piece {
            color: moving.color,
            role: m.promotion.unwrap_or(m.role),
        };
        self.put(m.to, placed);
        if m.role == Role::Pawn {
            self.halfmoves = 0;
            // Only the double step from the second rank opens en passant, not a kingless
            // side's from its first (Horde, as python-chess and shakmaty play it).
            let from_second = m.from.rank() == 1 || m.from.rank() == self.config().height - 2;
            if m.from.rank().abs_diff(m.to.rank()) == 2 && from_second {
                self.ep_square = Some(Square::new(
                    m.from.file(),
                    (m.from.rank() + m.to.rank()) / 2,
                ));
            }
        }
        if self.castling.nonempty() {
            if m.role == Role::King {
                let home = m.from.rank();
                self.castling &= !Bitboard::rank(home);
            }
            self.castling = self.castling.without(m.from).without(m.to);
        }
    }

    /// Returns the position after a legal move.
    pub fn after(&self, m: Move) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }
}
