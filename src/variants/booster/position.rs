//! A Booster Chess position: the pieces, the checkers stacked under them, the checkers in
//! front of each player, and the usual chess state (side to move, castling rights, the
//! en-passant square, the move counters). Movement and attacks build on the bitboard
//! engine's attack tables; the Booster rules (boosted and hobbled pieces, cancelling
//! pairs, carried and captured stacks, the back-rank removal, booster reach) are here.
//!
//! A stack is one signed number per square: `+n` is n white checkers, `-n` n black ones.
//! Opposite checkers never share a square: they cancel in pairs the moment they meet.

use crate::rules::attacks::{attacks, king_attacks, pawn_attacks};
use crate::rules::{Bitboard, CastlingSide, Color, Move, MoveKind, Piece, Role, Square};

/// Checkers each player starts with.
pub const CHECKERS: u8 = 6;

/// One king step after a move: where to, and the piece a pawn becomes if the step takes
/// it to its last rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Where the piece steps.
    pub to: Square,
    /// The promotion, for a pawn stepping onto its last rank.
    pub promotion: Option<Role>,
}

/// What a move, a step or an added checker did to the stacks, for the players' notes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Pairs of opposite checkers that cancelled and went back to their owners.
    pub cancelled: u8,
    /// Hobble checkers that fell off on the far rank.
    pub shed: u8,
}

/// A Booster Chess position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pos {
    board: [Option<Piece>; 64],
    stacks: [i8; 64],
    reserve: [u8; 2],
    occ: [Bitboard; 2],
    /// The side to move.
    pub turn: Color,
    /// The rook squares whose castling right remains.
    pub castling: Bitboard,
    /// The square behind a pawn that has just made a regular two-square move.
    pub ep: Option<Square>,
    /// Half-moves since the last pawn move or capture.
    pub halfmoves: u32,
    /// The move number.
    pub fullmoves: u32,
}

/// `+1` for White's checkers, `-1` for Black's.
pub fn sign(c: Color) -> i8 {
    match c {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// The rank of `c`'s back pieces: 0 for White, 7 for Black.
pub fn home_rank(c: Color) -> u8 {
    if c == Color::White {
        0
    } else {
        7
    }
}

/// The rank a pawn of `c` promotes on: the far rank, where hobble checkers fall off.
pub fn far_rank(c: Color) -> u8 {
    match c {
        Color::White => 7,
        Color::Black => 0,
    }
}

/// The square one rank ahead of `sq` for `c`, if on the board.
pub fn ahead(c: Color, sq: Square) -> Option<Square> {
    let r = sq.rank() as i8 + sign(c);
    (0..8).contains(&r).then(|| Square::new(sq.file(), r as u8))
}

/// King-step distance between two squares.
pub fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

impl Pos {
    /// An empty board, White to move, every checker in front of its player.
    pub fn empty() -> Pos {
        Pos {
            board: [None; 64],
            stacks: [0; 64],
            reserve: [CHECKERS; 2],
            occ: [Bitboard::EMPTY; 2],
            turn: Color::White,
            castling: Bitboard::EMPTY,
            ep: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The standard start position, no checker on the board.
    pub fn start() -> Pos {
        let mut p = Pos::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for f in 0..8u8 {
            for (color, r, pr) in [(Color::White, 0, 1), (Color::Black, 7, 6)] {
                p.put(
                    Square::new(f, r),
                    Some(Piece {
                        color,
                        role: back[f as usize],
                    }),
                );
                p.put(
                    Square::new(f, pr),
                    Some(Piece {
                        color,
                        role: Role::Pawn,
                    }),
                );
            }
        }
        p.castling = Bitboard::from_square(Square::new(0, 0))
            .with(Square::new(7, 0))
            .with(Square::new(0, 7))
            .with(Square::new(7, 7));
        p
    }

    /// The piece on `sq`.
    pub fn piece(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The stack on `sq`, signed (`+` white checkers, `-` black).
    pub fn stack(&self, sq: Square) -> i8 {
        self.stacks[sq.index()]
    }

    /// The checkers in front of `c`.
    pub fn reserve(&self, c: Color) -> u8 {
        self.reserve[c.index()]
    }

    /// The squares of `c`'s pieces.
    pub fn of(&self, c: Color) -> Bitboard {
        self.occ[c.index()]
    }

    /// Every occupied square.
    pub fn occupied(&self) -> Bitboard {
        self.occ[0] | self.occ[1]
    }

    /// The square of `c`'s king.
    pub fn king(&self, c: Color) -> Option<Square> {
        self.of(c)
            .find(|s| self.piece(*s).is_some_and(|p| p.role == Role::King))
    }

    /// Puts `piece` on `sq` (or empties it), leaving the stack alone.
    pub fn put(&mut self, sq: Square, piece: Option<Piece>) {
        if let Some(old) = self.board[sq.index()] {
            self.occ[old.color.index()] = self.occ[old.color.index()].without(sq);
        }
        if let Some(p) = piece {
            self.occ[p.color.index()] = self.occ[p.color.index()].with(sq);
        }
        self.board[sq.index()] = piece;
    }

    /// Sets a stack directly (setting up a position): the checkers come from, or go back
    /// to, their owners' reserves. `None` if an owner has too few.
    pub fn set_stack(&mut self, sq: Square, stack: i8) -> Option<()> {
        let old = self.stacks[sq.index()];
        for (c, s) in [(Color::White, 1i8), (Color::Black, -1)] {
            let had = (old * s).max(0) as u8;
            let want = (stack * s).max(0) as u8;
            let r = &mut self.reserve[c.index()];
            *r = (*r + had).checked_sub(want)?;
        }
        self.stacks[sq.index()] = stack;
        Some(())
    }

    /// The checkers of the piece's own colour under the piece on `sq` (its boost).
    pub fn boost(&self, sq: Square) -> u8 {
        match self.piece(sq) {
            Some(p) => (self.stack(sq) * sign(p.color)).max(0) as u8,
            None => 0,
        }
    }

    /// Whether the piece on `sq` stands on its opponent's checkers.
    pub fn hobbled(&self, sq: Square) -> bool {
        self.piece(sq)
            .is_some_and(|p| self.stack(sq) * sign(p.color) < 0)
    }

    /// Adds the signed stack `add` to the stack on `sq`: opposite checkers cancel in
    /// pairs at once, each pair going back to the two owners. Returns the pairs.
    pub fn merge(&mut self, sq: Square, add: i8) -> u8 {
        let old = self.stacks[sq.index()];
        let pairs = if old * add < 0 {
            old.abs().min(add.abs()) as u8
        } else {
            0
        };
        self.reserve[0] += pairs;
        self.reserve[1] += pairs;
        self.stacks[sq.index()] = old + add;
        pairs
    }

    /// A piece on its far rank loses its hobble checkers to their owner. Returns how
    /// many fell off.
    pub fn drop_hobbles(&mut self, sq: Square) -> u8 {
        let Some(p) = self.piece(sq) else { return 0 };
        let s = self.stack(sq) * sign(p.color);
        if sq.rank() != far_rank(p.color) || s >= 0 {
            return 0;
        }
        self.reserve[p.color.opposite().index()] += (-s) as u8;
        self.stacks[sq.index()] = 0;
        (-s) as u8
    }

    /// Adds one of `by`'s checkers from its reserve under the piece on `sq`.
    pub fn add_checker(&mut self, sq: Square, by: Color) -> Effects {
        self.reserve[by.index()] -= 1;
        Effects {
            cancelled: self.merge(sq, sign(by)),
            shed: 0,
        }
    }

    // -----------------------------------------------------------------------------------
    // Normal moves
    // -----------------------------------------------------------------------------------

    /// The normal moves (before any king step) of the piece on `from`, pseudo-legal: the
    /// mover's king may be left attacked. Castling is checked in full here.
    pub fn piece_moves(&self, from: Square, out: &mut Vec<Move>) {
        let Some(p) = self.piece(from) else { return };
        let us = p.color;
        if self.hobbled(from) {
            // A hobbled pawn cannot move; any other hobbled piece moves like a pawn that
            // never makes a double step, captures en passant or promotes.
            if p.role != Role::Pawn {
                self.hobbled_moves(from, p, out);
            }
            return;
        }
        match p.role {
            Role::Pawn => self.pawn_moves(from, p, out),
            role => {
                for to in attacks(role, us, from, self.occupied()) & !self.of(us) {
                    self.push_move(out, from, p, to, MoveKind::Normal, None);
                }
                if role == Role::King {
                    for (side, to) in self.castlings(us, from) {
                        self.push_move(out, from, p, to, MoveKind::Castle(side), None);
                    }
                }
            }
        }
    }

    /// Adds the move of `p` from `from` to `to`, with what it captures there.
    #[inline]
    fn push_move(
        &self,
        out: &mut Vec<Move>,
        from: Square,
        p: Piece,
        to: Square,
        kind: MoveKind,
        promotion: Option<Role>,
    ) {
        let capture = match kind {
            MoveKind::EnPassant => Some(Role::Pawn),
            _ => self.piece(to).map(|q| q.role),
        };
        out.push(Move {
            from,
            to,
            role: p.role,
            capture,
            promotion,
            kind,
        });
    }

    /// The moves of a hobbled piece `p` other than a pawn: a pawn's single step and
    /// captures.
    #[inline]
    fn hobbled_moves(&self, from: Square, p: Piece, out: &mut Vec<Move>) {
        let us = p.color;
        if let Some(to) = ahead(us, from) {
            if !self.occupied().contains(to) {
                self.push_move(out, from, p, to, MoveKind::Normal, None);
            }
        }
        for to in pawn_attacks(us, from) & self.of(us.opposite()) {
            self.push_move(out, from, p, to, MoveKind::Normal, None);
        }
    }

    /// The moves of the pawn `p` on `from`: steps, captures, en passant, promotions.
    #[inline]
    fn pawn_moves(&self, from: Square, p: Piece, out: &mut Vec<Move>) {
        let us = p.color;
        let occ = self.occupied();
        let them = self.of(us.opposite());
        let mut targets: Vec<(Square, MoveKind)> = Vec::new();
        if let Some(one) = ahead(us, from) {
            if !occ.contains(one) {
                targets.push((one, MoveKind::Normal));
                let start = if us == Color::White { 1 } else { 6 };
                if from.rank() == start {
                    if let Some(two) = ahead(us, one) {
                        if !occ.contains(two) {
                            targets.push((two, MoveKind::Normal));
                        }
                    }
                }
            }
        }
        for to in pawn_attacks(us, from) {
            if them.contains(to) {
                targets.push((to, MoveKind::Normal));
            } else if self.ep == Some(to) {
                targets.push((to, MoveKind::EnPassant));
            }
        }
        for (to, kind) in targets {
            if to.rank() == far_rank(us) {
                for r in PROMOTIONS {
                    self.push_move(out, from, p, to, kind, Some(r));
                }
            } else {
                self.push_move(out, from, p, to, kind, None);
            }
        }
    }

    /// The castlings `us`'s king on `from` may make: those with no
    /// [`super::castling::CastlingBar`].
    fn castlings(&self, us: Color, from: Square) -> Vec<(CastlingSide, Square)> {
        super::castling::CASTLINGS
            .iter()
            .filter(|c| self.castling_bar(us, from, c.side).is_none())
            .map(|c| (c.side, Square::new(c.king_to, home_rank(us))))
            .collect()
    }

    /// Every normal move of the side to move, pseudo-legal.
    pub fn pseudo_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(48);
        for sq in self.of(self.turn) {
            self.piece_moves(sq, &mut out);
        }
        out
    }

    /// Plays the normal move `m` of the side to move (the turn does not pass): the piece
    /// carries its stack, a capture takes over the captured stack (pairs cancel), a
    /// piece on its far rank sheds hobble checkers, a pawn there promotes. The en-passant
    /// square is set after a double step.
    pub fn play_move(&mut self, m: &Move) -> Effects {
        let Some(p) = self.piece(m.from) else {
            return Effects::default();
        };
        let carried = self.stack(m.from);
        self.stacks[m.from.index()] = 0;
        self.put(m.from, None);
        let zeroing = p.role == Role::Pawn || m.capture.is_some();
        let mut taken = 0i8;
        match m.kind {
            MoveKind::EnPassant => {
                let victim = Square::new(m.to.file(), m.from.rank());
                taken = self.stack(victim);
                self.stacks[victim.index()] = 0;
                self.put(victim, None);
            }
            MoveKind::Castle(side) => {
                let rank = m.from.rank();
                let (rf, rt) = match side {
                    CastlingSide::KingSide => (7, 5),
                    CastlingSide::QueenSide => (0, 3),
                };
                let (rf, rt) = (Square::new(rf, rank), Square::new(rt, rank));
                let rook = self.piece(rf);
                let rs = self.stack(rf);
                self.stacks[rf.index()] = 0;
                self.put(rf, None);
                self.put(rt, rook);
                self.stacks[rt.index()] = rs;
            }
            _ => {
                if self.piece(m.to).is_some() {
                    taken = self.stack(m.to);
                    self.stacks[m.to.index()] = 0;
                }
            }
        }
        let role = m.promotion.unwrap_or(p.role);
        self.put(
            m.to,
            Some(Piece {
                color: p.color,
                role,
            }),
        );
        self.stacks[m.to.index()] = carried;
        let cancelled = self.merge(m.to, taken);
        let shed = self.drop_hobbles(m.to);
        self.update_castling(p, m.from, m.to);
        self.ep = (p.role == Role::Pawn && m.from.rank().abs_diff(m.to.rank()) == 2)
            .then(|| Square::new(m.from.file(), (m.from.rank() + m.to.rank()) / 2));
        if zeroing {
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        Effects { cancelled, shed }
    }

    fn update_castling(&mut self, p: Piece, from: Square, to: Square) {
        self.castling = self.castling.without(from).without(to);
        if p.role == Role::King {
            let rank = if p.color == Color::White { 0 } else { 7 };
            self.castling = self
                .castling
                .without(Square::new(0, rank))
                .without(Square::new(7, rank));
        }
    }

    /// One king step of the boosted piece on `from` to `to`: one of its checkers is
    /// spent (back to its owner), then the piece moves like a king, capturing and taking
    /// over what stands there; a pawn reaching its last rank promotes to `promotion`.
    /// A step never captures en passant, and ends any en-passant right.
    pub fn play_step(&mut self, from: Square, step: Step) -> Effects {
        let Some(p) = self.piece(from) else {
            return Effects::default();
        };
        let to = step.to;
        self.stacks[from.index()] -= sign(p.color);
        self.reserve[p.color.index()] += 1;
        let carried = self.stack(from);
        self.stacks[from.index()] = 0;
        self.put(from, None);
        let mut taken = 0;
        if self.piece(to).is_some() {
            taken = self.stack(to);
            self.stacks[to.index()] = 0;
            self.halfmoves = 0;
        }
        let role = match (p.role, step.promotion) {
            (Role::Pawn, Some(r)) if to.rank() == far_rank(p.color) => r,
            (r, _) => r,
        };
        if p.role == Role::Pawn {
            self.halfmoves = 0;
        }
        self.put(
            to,
            Some(Piece {
                color: p.color,
                role,
            }),
        );
        self.stacks[to.index()] = carried;
        let cancelled = self.merge(to, taken);
        let shed = self.drop_hobbles(to);
        self.update_castling(p, from, to);
        self.ep = None;
        Effects { cancelled, shed }
    }

    /// Passes the turn.
    pub fn pass_turn(&mut self) {
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = self.turn.opposite();
    }

    // -----------------------------------------------------------------------------------
    // Attacks with booster reach
    // -----------------------------------------------------------------------------------

    /// Whether `by` attacks `target`: a piece of `by` could capture there with its
    /// normal move, or, if boosted, reach it by a normal move followed by the king
    /// steps its checkers allow.
    pub fn attacked(&self, target: Square, by: Color) -> bool {
        let occ = self.occupied();
        self.of(by).any(|sq| self.attacks_from(sq, target, occ))
    }

    /// The squares of `by`'s pieces that attack `target` (booster reach counted), for
    /// the reasons of refusals.
    pub fn attackers(&self, target: Square, by: Color) -> Vec<Square> {
        let occ = self.occupied();
        self.of(by)
            .filter(|sq| self.attacks_from(*sq, target, occ))
            .collect()
    }

    /// Whether the piece on `sq` attacks `target` ([`Pos::attacked`]).
    #[inline]
    fn attacks_from(&self, sq: Square, target: Square, occ: Bitboard) -> bool {
        let Some(p) = self.piece(sq) else {
            return false;
        };
        if self.hobbled(sq) {
            return p.role != Role::Pawn && pawn_attacks(p.color, sq).contains(target);
        }
        attacks(p.role, p.color, sq, occ).contains(target)
            || (self.boost(sq) > 0 && self.reaches(sq, target))
    }

    /// The checkers of `by` under the other side's pieces: how much a boosted piece of
    /// `by` could gain by capturing on its way.
    fn gains(&self, by: Color) -> u8 {
        self.of(by.opposite())
            .map(|s| (self.stack(s) * sign(by)).max(0) as u8)
            .sum()
    }

    /// Whether the boosted piece on `from` reaches `target` by a normal move followed by
    /// king steps.
    fn reaches(&self, from: Square, target: Square) -> bool {
        let Some(p) = self.piece(from) else {
            return false;
        };
        let gains = self.gains(p.color);
        // Quick bound: the normal move goes somewhere, then at most boost + gains steps.
        let mut moves = Vec::new();
        self.piece_moves_for_reach(from, &mut moves);
        moves.iter().any(|m| {
            let mut after = self.clone();
            after.play_move(m);
            let budget = after.boost(m.to) + gains;
            after.boost(m.to) > 0
                && distance(m.to, target) <= budget
                && after.step_reaches(m.to, target, gains, 0)
        })
    }

    /// The piece's normal moves for booster reach: its pseudo-legal moves without
    /// castling (a boosted king or rook never castles) and one promotion per square.
    fn piece_moves_for_reach(&self, from: Square, out: &mut Vec<Move>) {
        let mut all = Vec::new();
        let mut plain = self.clone();
        plain.castling = Bitboard::EMPTY;
        plain.piece_moves(from, &mut all);
        for m in all {
            if m.promotion.is_none() || m.promotion == Some(Role::Queen) {
                out.push(m);
            }
        }
    }

    /// Whether the boosted piece on `at` reaches `target` by king steps (depth: steps
    /// taken so far, a guard).
    fn step_reaches(&self, at: Square, target: Square, gains: u8, depth: u8) -> bool {
        let Some(p) = self.piece(at) else {
            return false;
        };
        if self.boost(at) == 0 || depth > 12 {
            return false;
        }
        let own = self.of(p.color);
        for to in king_attacks(at) & !own {
            if to == target {
                return true;
            }
        }
        for to in king_attacks(at) & !own {
            let mut next = self.clone();
            next.play_step(
                at,
                Step {
                    to,
                    promotion: Some(Role::Queen),
                },
            );
            let left = next.boost(to);
            if left > 0
                && distance(to, target) <= left + gains
                && next.step_reaches(to, target, gains, depth + 1)
            {
                return true;
            }
        }
        false
    }

    /// Whether `c`'s king is attacked.
    pub fn in_check(&self, c: Color) -> bool {
        self.king(c).is_some_and(|k| self.attacked(k, c.opposite()))
    }

    // -----------------------------------------------------------------------------------
    // Legal moves
    // -----------------------------------------------------------------------------------

    /// The normal moves of the side to move that leave its king unattacked.
    pub fn legal_moves(&self) -> Vec<Move> {
        let us = self.turn;
        self.pseudo_moves()
            .into_iter()
            .filter(|m| m.capture != Some(Role::King))
            .filter(|m| {
                let mut after = self.clone();
                after.play_move(m);
                !after.in_check(us)
            })
            .collect()
    }

    /// The king steps the boosted piece on `at` may take now: onto a square not held by
    /// its own side nor by the enemy king, leaving its own king unattacked; a pawn
    /// stepping onto its last rank once for each promotion.
    pub fn legal_steps(&self, at: Square) -> Vec<Step> {
        let Some(p) = self.piece(at) else {
            return Vec::new();
        };
        if self.boost(at) == 0 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for to in king_attacks(at) & !self.of(p.color) {
            if self.piece(to).is_some_and(|q| q.role == Role::King) {
                continue;
            }
            let promos: &[Option<Role>] = if p.role == Role::Pawn && to.rank() == far_rank(p.color)
            {
                &[
                    Some(Role::Queen),
                    Some(Role::Rook),
                    Some(Role::Bishop),
                    Some(Role::Knight),
                ]
            } else {
                &[None]
            };
            for promotion in promos {
                let step = Step {
                    to,
                    promotion: *promotion,
                };
                let mut after = self.clone();
                after.play_step(at, step);
                if !after.in_check(p.color) {
                    out.push(step);
                }
            }
        }
        out
    }

    /// Whether the normal move `m` allows king steps after it: the piece was boosted
    /// when it began to move (castling never is).
    pub fn may_step_after(&self, m: &Move) -> bool {
        !matches!(m.kind, MoveKind::Castle(_)) && self.boost(m.from) > 0
    }

    /// Counts the whole turns (a legal normal move, then each legal sequence of king
    /// steps, every prefix included) to `depth` plies: the Booster perft.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for m in self.legal_moves() {
            let mut after = self.clone();
            after.play_move(&m);
            let steps = self.may_step_after(&m);
            n += after.perft_steps(m.to, steps, depth);
        }
        n
    }

    /// The turns from this point of a turn (a normal move made, the piece on `at`).
    fn perft_steps(&self, at: Square, steps: bool, depth: u32) -> u64 {
        let mut next = self.clone();
        next.pass_turn();
        let mut n = next.perft(depth - 1);
        if steps {
            for s in self.legal_steps(at) {
                let mut after = self.clone();
                after.play_step(at, s);
                n += after.perft_steps(s.to, true, depth);
            }
        }
        n
    }

    /// Checks the invariants a position keeps (tests and setups): every checker either
    /// under a piece or in front of its owner, six a side; no stack without a piece.
    pub fn checkers_balance(&self) -> bool {
        let mut on = [0u8; 2];
        for i in 0..64 {
            let s = self.stacks[i];
            if s != 0 && self.board[i].is_none() {
                return false;
            }
            if s > 0 {
                on[0] += s as u8;
            } else {
                on[1] += (-s) as u8;
            }
        }
        on[0] + self.reserve[0] == CHECKERS && on[1] + self.reserve[1] == CHECKERS
    }

    /// The en-passant square where a pawn of the side to move stands ready to use it
    /// (the FEN writes only this one, as the project's FEN does).
    pub fn usable_ep(&self) -> Option<Square> {
        self.ep.filter(|e| {
            self.of(self.turn).any(|s| {
                self.piece(s).is_some_and(|p| p.role == Role::Pawn)
                    && !self.hobbled(s)
                    && pawn_attacks(self.turn, s).contains(*e)
            })
        })
    }

    /// A key of everything that decides the future of the game as both players see it
    /// (pieces, stacks, reserves, side to move, castling rights, the en-passant square
    /// where a capture could use it): equal keys are the same position for repetitions.
    pub fn key(&self) -> String {
        let ep = self.usable_ep();
        format!(
            "{:?}{:?}{:?}{:?}{:?}{:?}",
            self.board, self.stacks, self.reserve, self.turn, self.castling, ep
        )
    }
}
