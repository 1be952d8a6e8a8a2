//! The solitaires' board: pieces on an 8x8 board with no side to move, no kings required
//! and no captures, the squares a piece attacks (the engine's attack tables), and whether
//! the pieces form one connected group.

use crate::notation::fen::placement;
use crate::rules::attacks::{attacks, king_attacks, rook_attacks};
use crate::rules::{Bitboard, Piece, Square};
use serde::{Deserialize, Serialize};

/// Which squares count as next to each other for a connected group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjacency {
    /// The four squares sharing a side (Parade: "diagonal neighbours don't count").
    Orthogonal,
    /// The eight squares around (Neighbour: its "neighbours" are the eight squares).
    EightWay,
}

impl Adjacency {
    /// The squares next to `sq`.
    pub fn around(self, sq: Square) -> Bitboard {
        match self {
            // The rook's rays on a full board stop at the first square: the four sides.
            Adjacency::Orthogonal => king_attacks(sq) & rook_attacks(sq, Bitboard::ALL),
            Adjacency::EightWay => king_attacks(sq),
        }
    }
}

/// The pieces on the board. Stored as a FEN piece placement (`8/8/.../2B3R1`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
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

impl Board {
    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Puts `piece` on `sq`.
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.squares[sq.index()] = Some(piece);
    }

    /// Lifts the piece off `sq`.
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()].take()
    }

    /// The occupied squares.
    pub fn occupied(&self) -> Bitboard {
        (0..64u8)
            .map(Square::from_index)
            .filter(|s| self.squares[s.index()].is_some())
            .fold(Bitboard::EMPTY, |b, s| b.with(s))
    }

    /// The squares `piece` standing on `from` attacks, with `occupied` blocking sliders
    /// (the engine's attack tables).
    pub fn attacks_from(piece: Piece, from: Square, occupied: Bitboard) -> Bitboard {
        attacks(piece.role, piece.color, from, occupied)
    }

    /// How many groups of pieces connected through `adjacency` the board holds (0 for an
    /// empty board).
    pub fn groups(&self, adjacency: Adjacency) -> usize {
        let mut left = self.occupied();
        let mut groups = 0;
        while let Some(seed) = left.first() {
            groups += 1;
            let mut frontier = Bitboard::from_square(seed);
            left = left.without(seed);
            while let Some(sq) = frontier.first() {
                frontier = frontier.without(sq);
                let next = adjacency.around(sq) & left;
                left &= !next;
                frontier |= next;
            }
        }
        groups
    }

    /// Whether the pieces form one connected group: from any piece to any other only
    /// stepping on neighbouring pieces.
    pub fn connected(&self, adjacency: Adjacency) -> bool {
        self.groups(adjacency) == 1
    }

    /// The FEN piece placement.
    pub fn fen(&self) -> String {
        placement(8, 8, |sq| self.piece_at(sq))
    }

    /// A text diagram, ranks from the top.
    pub fn diagram(&self) -> String {
        crate::variants::chess::grid(8, 8, |sq| self.piece_at(sq))
    }

    /// The pieces by square index, as a board image takes them.
    pub fn pieces(&self) -> [Option<Piece>; 64] {
        self.squares
    }
}

impl From<Board> for String {
    fn from(b: Board) -> String {
        b.fen()
    }
}

impl TryFrom<String> for Board {
    type Error = super::StoredError;

    /// Reads a FEN piece placement of an 8x8 board.
    fn try_from(s: String) -> Result<Board, super::StoredError> {
        let bad = || super::StoredError::NotABoard(s.chars().take(80).collect());
        let ranks: Vec<&str> = s.split('/').collect();
        if ranks.len() != 8 {
            return Err(bad());
        }
        let mut board = Board::default();
        for (i, row) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    // A run is 1 to 8 squares and stays on the board (no wrapping).
                    if n == 0 || u32::from(file) + n > 8 {
                        return Err(bad());
                    }
                    file += n as u8;
                } else {
                    let piece = Piece::from_fen_char(c).ok_or_else(bad)?;
                    if file >= 8 {
                        return Err(bad());
                    }
                    board.put(Square::new(file, rank), piece);
                    file += 1;
                }
            }
            if file != 8 {
                return Err(bad());
            }
        }
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::try_from(fen.to_string()).unwrap()
    }

    #[test]
    fn a_board_is_stored_as_its_placement() {
        let b = board("8/8/8/8/1r2b3/1r1n1N2/5k2/2B3R1");
        assert_eq!(b.fen(), "8/8/8/8/1r2b3/1r1n1N2/5k2/2B3R1");
        assert_eq!(b.occupied().count(), 8);
        assert!(Board::try_from("8/8".to_string()).is_err());
        assert!(Board::try_from("9/8/8/8/8/8/8/8".to_string()).is_err());
        assert!(Board::try_from("x7/8/8/8/8/8/8/8".to_string()).is_err());
        assert!(b.diagram().starts_with("8 ........\n"));
    }

    #[test]
    fn orthogonal_connectivity_ignores_diagonal_neighbours() {
        // b1-c2 touch only at a corner: two groups orthogonally, one counting diagonals.
        let b = board("8/8/8/8/8/8/2R5/1N6");
        assert_eq!(b.groups(Adjacency::Orthogonal), 2);
        assert!(!b.connected(Adjacency::Orthogonal));
        assert!(b.connected(Adjacency::EightWay));
        // An L of four, joined by sides.
        let l = board("8/8/8/8/8/1K6/1Q6/1RBn4");
        assert!(l.connected(Adjacency::Orthogonal));
        assert_eq!(Board::default().groups(Adjacency::EightWay), 0);
        assert!(!Board::default().connected(Adjacency::EightWay));
    }

    #[test]
    fn a_group_does_not_wrap_around_the_edge() {
        let b = board("8/8/8/8/8/8/8/R6r");
        assert_eq!(b.groups(Adjacency::EightWay), 2);
        // h1 and a2 follow each other in square order, but are far apart.
        let edge = board("8/8/8/8/8/8/Q7/7N");
        assert_eq!(edge.groups(Adjacency::EightWay), 2);
    }
}
