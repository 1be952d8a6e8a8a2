//! The board of Gravity Chess and its rules of movement, stacking and scoring, pure: both
//! sides' pieces fall towards rank 1.
//!
//! - A move must end at least one row lower; a capture may end on the same row or lower.
//!   Pawns of both colours step one square down to an empty square (two from rank 8, the
//!   row they are added on, if both are empty) and capture one square diagonally down.
//!   The engine's attack generation ([`crate::rules::attacks`]) gives each piece's reach,
//!   sliders blocked by the first piece on a line; the gravity rules filter it.
//! - A piece on rank 1 is stacked; so is a piece all of whose downward moves are blocked
//!   by stacked pieces, which is worked out from rank 1 up. For a pawn the downward move
//!   is its step: a pawn whose square below holds a stacked piece is stacked even when it
//!   could capture diagonally (the rulebook's scoring example counts the black pawn on h4
//!   as stacked beside an unstacked white king on g3). A stacked piece never moves and is
//!   never captured, so once stacked a piece stays stacked.
//! - Each side scores a point per captured enemy piece and, per stacked piece, the number
//!   of its row; ties go to the side with more stacked pieces on the highest row where
//!   the sides differ.

use crate::rules::attacks;
use crate::rules::{Bitboard, Color, Move, MoveKind, Piece, Role, Square};

/// The pieces on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    squares: [Option<Piece>; 64],
}

impl Default for Board {
    fn default() -> Board {
        Board {
            squares: [None; 64],
        }
    }
}

/// The squares of the ranks below `rank` (0-based).
fn below(rank: u8) -> Bitboard {
    Bitboard((1u64 << (rank as u32 * 8)).wrapping_sub(1))
}

/// The square one row below `sq`, if any.
fn step_down(sq: Square) -> Option<Square> {
    (sq.rank() > 0).then(|| Square::new(sq.file(), sq.rank() - 1))
}

impl Board {
    /// An empty board.
    pub fn empty() -> Board {
        Board::default()
    }

    /// The piece on `sq`.
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Puts `piece` on `sq` (or empties it).
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.squares[sq.index()] = piece;
    }

    /// The occupied squares.
    pub fn occupied(&self) -> Bitboard {
        self.squares_where(|p| p.is_some())
    }

    /// The squares of `color`'s pieces.
    pub fn of(&self, color: Color) -> Bitboard {
        self.squares_where(|p| p.is_some_and(|p| p.color == color))
    }

    fn squares_where(&self, f: impl Fn(Option<Piece>) -> bool) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for (i, p) in self.squares.iter().enumerate() {
            if f(*p) {
                b = b.with(Square::from_index(i as u8));
            }
        }
        b
    }

    /// How many of `color`'s pieces stand on the board.
    pub fn count(&self, color: Color) -> usize {
        self.of(color).count() as usize
    }

    /// Every stacked piece: rank 1, then each row up, a piece whose downward moves are
    /// all blocked by stacked pieces.
    pub fn stacked(&self) -> Bitboard {
        let occ = self.occupied();
        let mut stacked = occ & Bitboard::rank(0);
        for rank in 1..8u8 {
            for sq in occ & Bitboard::rank(rank) {
                if self.blocked_by_stacked(sq, stacked) {
                    stacked = stacked.with(sq);
                }
            }
        }
        stacked
    }

    /// Whether every downward move of the piece on `sq` is blocked by a piece of
    /// `stacked` (which holds every stacked piece below `sq`'s row).
    fn blocked_by_stacked(&self, sq: Square, stacked: Bitboard) -> bool {
        let Some(piece) = self.get(sq) else {
            return false;
        };
        if piece.role == Role::Pawn {
            return step_down(sq).is_some_and(|s| stacked.contains(s));
        }
        let reach =
            attacks::attacks(piece.role, piece.color, sq, self.occupied()) & below(sq.rank());
        // Empty squares and unstacked pieces (a capture, or an own piece that will move
        // on) leave a way down.
        (reach & !stacked).is_empty()
    }

    /// The moves the piece on `sq` may make now, given the stacked pieces: down to an
    /// empty square, or a capture of an unstacked enemy on the same row or lower.
    pub fn moves_from(&self, sq: Square, stacked: Bitboard) -> Vec<Move> {
        let Some(piece) = self.get(sq) else {
            return Vec::new();
        };
        if stacked.contains(sq) {
            return Vec::new();
        }
        let mv = |to: Square, capture: Option<Role>| Move {
            from: sq,
            to,
            role: piece.role,
            capture,
            promotion: None,
            kind: MoveKind::Normal,
        };
        let enemy = |to: Square| {
            self.get(to)
                .filter(|p| p.color != piece.color && !stacked.contains(to))
                .map(|p| p.role)
        };
        let mut out = Vec::new();
        if piece.role == Role::Pawn {
            if let Some(one) = step_down(sq).filter(|s| self.get(*s).is_none()) {
                out.push(mv(one, None));
                if let Some(two) = step_down(one).filter(|s| self.get(*s).is_none()) {
                    if sq.rank() == 7 {
                        out.push(mv(two, None));
                    }
                }
            }
            // Every pawn falls: its captures are Black's, diagonally towards rank 1.
            for to in attacks::pawn_attacks(Color::Black, sq) {
                if let Some(role) = enemy(to) {
                    out.push(mv(to, Some(role)));
                }
            }
            return out;
        }
        for to in attacks::attacks(piece.role, piece.color, sq, self.occupied()) {
            match self.get(to) {
                None if to.rank() < sq.rank() => out.push(mv(to, None)),
                Some(_) if to.rank() <= sq.rank() => {
                    if let Some(role) = enemy(to) {
                        out.push(mv(to, Some(role)));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Every move the piece on `sq` could make by its pattern alone, ignoring gravity and
    /// stacking (for reading what a player typed and saying why it is refused): its
    /// attacks onto empty squares and enemies, and a pawn's steps one or two squares up
    /// or down and its diagonal captures both ways.
    pub fn pattern_moves_from(&self, sq: Square) -> Vec<Move> {
        self.pattern(sq, false)
    }

    /// The moves of [`Board::pattern_moves_from`]'s patterns that would land on one of
    /// the piece's own side (for saying why such a move is refused).
    pub fn pattern_onto_own(&self, sq: Square) -> Vec<Move> {
        self.pattern(sq, true)
    }

    /// The pattern moves of the piece on `sq` onto empty squares and enemies, or (`own`)
    /// onto its own side's pieces.
    fn pattern(&self, sq: Square, own: bool) -> Vec<Move> {
        let Some(piece) = self.get(sq) else {
            return Vec::new();
        };
        let mut targets = Bitboard::EMPTY;
        if piece.role == Role::Pawn {
            for color in Color::ALL {
                targets |= attacks::pawn_attacks(color, sq);
            }
            let file = Bitboard::file(sq.file());
            let near = (Bitboard::from_square(sq).north() | Bitboard::from_square(sq).south())
                | (Bitboard::from_square(sq).north().north()
                    | Bitboard::from_square(sq).south().south());
            targets |= near & file;
        } else {
            targets = attacks::attacks(piece.role, piece.color, sq, self.occupied());
        }
        targets
            .filter(|to| own == self.get(*to).is_some_and(|p| p.color == piece.color))
            .map(|to| Move {
                from: sq,
                to,
                role: piece.role,
                capture: self.get(to).map(|p| p.role),
                promotion: None,
                kind: MoveKind::Normal,
            })
            .collect()
    }

    /// Why the move `m` (one of [`Board::pattern_moves_from`]) is not allowed now, or
    /// `None` if it is.
    pub fn why_not(&self, m: &Move, stacked: Bitboard) -> Option<String> {
        let piece = self.get(m.from)?;
        let name = format!("the {} on {}", piece.role.name(), m.from);
        if stacked.contains(m.from) {
            return Some(format!("{name} is stacked: stacked pieces never move"));
        }
        if self.moves_from(m.from, stacked).contains(m) {
            return None;
        }
        if let Some(target) = self.get(m.to) {
            if stacked.contains(m.to) {
                return Some(format!(
                    "the {} on {} is stacked: stacked pieces cannot be captured",
                    target.role.name(),
                    m.to
                ));
            }
            if m.to.rank() > m.from.rank() {
                return Some(format!(
                    "{} is not downward: a capture may end on the same row or lower, never higher",
                    m.to
                ));
            }
        } else if m.to.rank() >= m.from.rank() {
            return Some(format!(
                "{} is not downward: a move must end at least one row lower (only a capture may stay on its row)",
                m.to
            ));
        }
        if piece.role == Role::Pawn {
            let two = m.from.rank().abs_diff(m.to.rank()) == 2;
            let between = Square::new(m.from.file(), m.from.rank().min(m.to.rank()) + 1);
            return Some(if m.to.file() != m.from.file() {
                format!("{name} captures diagonally downward only onto an enemy piece")
            } else if two && m.from.rank() != 7 {
                // Said of where it stands, not of its history: a pawn may have been
                // added or set up below rank 8 without moving.
                format!("{name} is not on rank 8: only a pawn on rank 8 may step two squares")
            } else if two && self.get(between).is_some() {
                format!(
                    "{name} is blocked: a double step needs {between} and {} empty",
                    m.to
                )
            } else {
                format!("{name} steps only onto empty squares: it captures diagonally")
            });
        }
        Some(format!("{name} cannot go to {} now", m.to))
    }
}

/// The score of a position: points and stacked pieces per row, by [`Color::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Each side's points: captures plus the row of each stacked piece.
    pub points: [u32; 2],
    /// Each side's stacked pieces per row, rank 1 first.
    pub rows: [[u8; 8]; 2],
    /// Each side's captured enemy pieces.
    pub captured: [u8; 2],
}

impl Score {
    /// The score of `board` with each side's captures (by [`Color::index`]).
    pub fn of(board: &Board, captured: [u8; 2]) -> Score {
        let mut rows = [[0u8; 8]; 2];
        for sq in board.stacked() {
            if let Some(p) = board.get(sq) {
                rows[p.color.index()][sq.rank() as usize] += 1;
            }
        }
        let points = [0, 1].map(|c| {
            captured[c] as u32
                + rows[c]
                    .iter()
                    .enumerate()
                    .map(|(r, n)| (r as u32 + 1) * *n as u32)
                    .sum::<u32>()
        });
        Score {
            points,
            rows,
            captured,
        }
    }

    /// The winner, or `None` for a tie: more points, else more stacked pieces on the
    /// highest row where the sides differ.
    pub fn winner(&self) -> Option<Color> {
        let pick = |w: u32, b: u32| match w.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        };
        pick(self.points[0], self.points[1]).or_else(|| {
            (0..8)
                .rev()
                .find_map(|r| pick(self.rows[0][r] as u32, self.rows[1][r] as u32))
        })
    }

    /// The highest row (1 to 8) where a tie on points was broken, if it was.
    pub fn tie_break_row(&self) -> Option<usize> {
        if self.points[0] != self.points[1] {
            return None;
        }
        (0..8)
            .rev()
            .find(|&r| self.rows[0][r] != self.rows[1][r])
            .map(|r| r + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board from `(square, FEN letter)` pairs.
    fn board(pieces: &[(&str, char)]) -> Board {
        let mut b = Board::empty();
        for (sq, c) in pieces {
            b.set(Square::parse(sq).unwrap(), Piece::from_fen_char(*c));
        }
        b
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn targets(b: &Board, from: &str) -> Vec<String> {
        let mut t: Vec<String> = b
            .moves_from(sq(from), b.stacked())
            .iter()
            .map(|m| m.to.to_string())
            .collect();
        t.sort();
        t
    }

    fn stacked(b: &Board) -> Vec<String> {
        let mut s: Vec<String> = b.stacked().map(|s| s.to_string()).collect();
        s.sort();
        s
    }

    /// Appendix, diagram 1 (the seed's first example).
    fn move_order_example() -> Board {
        board(&[
            ("e8", 'P'),
            ("e7", 'B'),
            ("e6", 'P'),
            ("a6", 'r'),
            ("b5", 'n'),
            ("e5", 'b'),
        ])
    }

    #[test]
    fn move_order_diagram_the_bishop_frees_the_top_pawn_and_the_lower_pawn_is_blocked() {
        let mut b = move_order_example();
        // The top pawn is blocked by its own bishop; the lower pawn by the black bishop,
        // with nothing to capture diagonally (d5 and f5 are empty).
        assert!(targets(&b, "e8").is_empty());
        assert!(targets(&b, "e6").is_empty());
        assert_eq!(
            targets(&b, "e7"),
            vec!["a3", "b4", "c5", "d6", "f6", "g5", "h4"]
        );
        // The bishop goes to f6; now the top pawn may step to e7 (not two: e6 is taken).
        b.set(sq("f6"), b.get(sq("e7")));
        b.set(sq("e7"), None);
        assert_eq!(targets(&b, "e8"), vec!["e7"]);
        assert!(targets(&b, "e6").is_empty());
    }

    /// Appendix, diagram 2 (the seed's second example).
    fn stacking_example() -> Board {
        board(&[
            ("f1", 'r'),
            ("g1", 'n'),
            ("f2", 'r'),
            ("g2", 'b'),
            ("c2", 'Q'),
            ("a8", 'p'),
            ("a7", 'q'),
            ("h8", 'N'),
            ("d3", 'B'),
        ])
    }

    #[test]
    fn stacking_diagram_bottom_row_and_pieces_blocked_by_stacked_pieces_are_stacked() {
        let b = stacking_example();
        assert_eq!(stacked(&b), vec!["f1", "f2", "g1"]);
        assert_eq!(targets(&b, "g2"), vec!["h1"]);
        assert_eq!(targets(&b, "c2"), vec!["b1", "c1", "d1"]);
        // The rook on f2 stands between the queen and the bishop; the queen cannot take
        // the stacked rook, and the stacked rook cannot take the queen on its row.
        assert!(targets(&b, "f2").is_empty());
        let mut open = b;
        open.set(sq("f2"), None);
        assert!(targets(&open, "c2").contains(&"g2".to_string()));
    }

    #[test]
    fn a_stacked_piece_cannot_be_captured() {
        let b = stacking_example();
        let m = b
            .pattern_moves_from(sq("c2"))
            .into_iter()
            .find(|m| m.to == sq("f2"))
            .unwrap();
        assert_eq!(
            b.why_not(&m, b.stacked()).unwrap(),
            "the rook on f2 is stacked: stacked pieces cannot be captured"
        );
    }

    #[test]
    fn a_move_must_go_down_and_a_capture_may_stay_on_its_row() {
        let b = board(&[("d4", 'R'), ("h4", 'n'), ("d8", 'p')]);
        let t = targets(&b, "d4");
        assert!(t.contains(&"h4".to_string()), "capture on the same row");
        assert!(t.contains(&"d1".to_string()));
        assert!(
            !t.contains(&"e4".to_string()),
            "sideways to an empty square"
        );
        assert!(!t.contains(&"d8".to_string()), "a capture upwards");
        let up = b
            .pattern_moves_from(sq("d4"))
            .into_iter()
            .find(|m| m.to == sq("d6"))
            .unwrap();
        assert!(b
            .why_not(&up, b.stacked())
            .unwrap()
            .starts_with("d6 is not downward"));
    }

    #[test]
    fn a_pawn_steps_onto_empty_squares_only_and_two_only_from_rank_8() {
        let b = board(&[("e6", 'P'), ("e5", 'n'), ("c5", 'P')]);
        let why = |from: &str, to: &str| {
            let m = b
                .pattern_moves_from(sq(from))
                .into_iter()
                .find(|m| m.to == sq(to))
                .unwrap();
            b.why_not(&m, b.stacked()).unwrap()
        };
        assert_eq!(
            why("e6", "e5"),
            "the pawn on e6 steps only onto empty squares: it captures diagonally"
        );
        assert_eq!(
            why("c5", "c3"),
            "the pawn on c5 is not on rank 8: only a pawn on rank 8 may step two squares"
        );
        // A double step from rank 8 over a piece: blocked, not a capture rule.
        let b = board(&[("d8", 'p'), ("d7", 'N')]);
        let m = b
            .pattern_moves_from(sq("d8"))
            .into_iter()
            .find(|m| m.to == sq("d6"))
            .unwrap();
        assert_eq!(
            b.why_not(&m, b.stacked()).unwrap(),
            "the pawn on d8 is blocked: a double step needs d7 and d6 empty"
        );
    }

    #[test]
    fn pawns_of_both_colours_fall_step_two_from_rank_8_and_capture_diagonally_down() {
        let b = board(&[
            ("c8", 'p'),
            ("e8", 'P'),
            ("e4", 'P'),
            ("d3", 'n'),
            ("f5", 'n'),
        ]);
        assert_eq!(targets(&b, "c8"), vec!["c6", "c7"]);
        assert_eq!(targets(&b, "e8"), vec!["e6", "e7"]);
        // No two-step below rank 8; the capture goes down (d3), never up (f5).
        assert_eq!(targets(&b, "e4"), vec!["d3", "e3"]);
    }

    #[test]
    fn kings_are_ordinary_pieces_and_may_be_captured() {
        let b = board(&[("e5", 'K'), ("d4", 'q')]);
        assert!(targets(&b, "e5").contains(&"d4".to_string()));
        assert!(
            !targets(&b, "d4").contains(&"e5".to_string()),
            "not upwards"
        );
        let side = board(&[("e5", 'K'), ("b5", 'q')]);
        assert!(targets(&side, "b5").contains(&"e5".to_string()));
    }

    /// Appendix, diagram 3 (the seed's third example): White has captured two pieces and
    /// Black four.
    fn scoring_example() -> Board {
        board(&[
            ("d1", 'Q'),
            ("a2", 'N'),
            ("c2", 'R'),
            ("e2", 'B'),
            ("h3", 'N'),
            ("b4", 'P'),
            ("g6", 'R'),
            ("g3", 'K'),
            ("a1", 'p'),
            ("c1", 'n'),
            ("e1", 'q'),
            ("f1", 'r'),
            ("g1", 'n'),
            ("h1", 'b'),
            ("f2", 'r'),
            ("b3", 'b'),
            ("h4", 'p'),
            ("e3", 'k'),
        ])
    }

    #[test]
    fn scoring_diagram_scores_16_for_white_and_19_for_black() {
        let b = scoring_example();
        let s = Score::of(&b, [2, 4]);
        assert_eq!(s.points, [16, 19]);
        assert_eq!(s.rows[0][..4], [1, 3, 1, 1]);
        assert_eq!(s.rows[1][..4], [6, 1, 1, 1]);
        assert_eq!(s.winner(), Some(Color::Black));
        // The unstacked pieces, with their ways down.
        assert!(!b.stacked().contains(sq("g6")));
        assert!(!b.stacked().contains(sq("g3")));
        assert!(!b.stacked().contains(sq("e3")));
        assert_eq!(targets(&b, "g3"), vec!["g2", "h2"]);
    }

    #[test]
    fn a_pawn_whose_step_is_blocked_by_a_stacked_piece_is_stacked_though_it_could_capture() {
        let b = scoring_example();
        assert!(b.stacked().contains(sq("h4")));
        assert!(targets(&b, "h4").is_empty(), "stacked: not even a capture");
        // With the square below empty the same pawn is active again.
        let mut free = b;
        free.set(sq("h3"), None);
        assert!(!free.stacked().contains(sq("h4")));
        assert_eq!(targets(&free, "h4"), vec!["g3", "h3"]);
    }

    #[test]
    fn ties_go_to_more_stacked_pieces_on_the_highest_row_that_differs() {
        // Points 2-2: White one piece on row 2, Black two on row 1.
        let b = board(&[("a2", 'R'), ("a1", 'n'), ("b1", 'n')]);
        let s = Score::of(&b, [0, 0]);
        assert_eq!(s.points, [2, 2]);
        assert_eq!(s.winner(), Some(Color::White));
        assert_eq!(s.tie_break_row(), Some(2));
        let even = Score::of(&board(&[("a1", 'R'), ("h1", 'n')]), [1, 1]);
        assert_eq!(even.winner(), None);
        assert_eq!(even.tie_break_row(), None);
    }
}
