//! Basic chess vocabulary shared by every variant: colours, piece roles, squares and moves.

use std::fmt;

/// One of the two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Index for per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The English name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of a piece, independent of its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// Every role, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// Index for per-role arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The role from its index (0 = pawn .. 5 = king).
    #[inline]
    pub fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }

    /// The upper-case English letter used in SAN and FEN (`P` for the pawn).
    pub fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The lower-case letter (UCI promotions, black pieces in FEN).
    pub fn lower_char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// The role named by an English piece letter, either case.
    pub fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'P' => Some(Role::Pawn),
            'N' => Some(Role::Knight),
            'B' => Some(Role::Bishop),
            'R' => Some(Role::Rook),
            'Q' => Some(Role::Queen),
            'K' => Some(Role::King),
            _ => None,
        }
    }

    /// The English name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// Material value used for Chess# impasse scoring (P1 N3 B3 R5 Q9, king 0).
    pub fn material_value(self) -> u32 {
        match self {
            Role::Pawn => 1,
            Role::Knight | Role::Bishop => 3,
            Role::Rook => 5,
            Role::Queen => 9,
            Role::King => 0,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White, lower case for Black.
    pub fn fen_char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.lower_char(),
        }
    }

    /// The piece named by a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

/// A square in the 8x8 bitboard layout: index = rank * 8 + file, a1 = 0.
///
/// Smaller boards use the lower-left corner of this layout, so `a1` is always index 0
/// and a 6x6 board's top-right corner is f6 = 45.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = the first rank). Both must be below 8.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    /// The square with this layout index (0..64).
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// Layout index, 0..64. (Masked to that range, which a square always is, so that
    /// indexing a 64-entry table needs no bounds check.)
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// File, 0 = a.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank, 0 = the first rank.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// Parses `e4`-style coordinates (either case). Checks only the 8x8 range.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Square::new(file, rank))
    }

    /// Whether the square is dark (a1 is dark).
    pub fn is_dark(self) -> bool {
        (self.file() + self.rank()) % 2 == 0
    }

    /// The file letter, `a`..`h`.
    pub fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit, `1`..`8`.
    pub fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

/// Which way a castling goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (`O-O`).
    KingSide = 0,
    /// Towards the a-file (`O-O-O`).
    QueenSide = 1,
}

/// What a move does, beyond going from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// An ordinary move or capture (promotion included).
    Normal,
    /// A pawn's capture of a pawn that has just made its double step.
    EnPassant,
    /// Castling; `from` is the king's square and `to` the king's destination, or, for
    /// Chess960 castling, the castling rook's square (king takes rook).
    Castle(CastlingSide),
    /// A piece placed from the reserve onto `to`; `from` equals `to`.
    Drop,
    /// Double Move Chess rule 5: a capture "en passant" of the piece that just moved twice.
    /// `to` is the square it stopped on between its two moves (empty now); the captured
    /// piece is taken from the square it moved on to.
    CaptureTwiceMoved,
}

/// A move in a given position. It carries enough to be written in any notation
/// (the moving role and any captured role) without looking at the position again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece starts (for a drop, the target square).
    pub from: Square,
    /// Where the piece ends (for castling, the king's destination; for Chess960
    /// castling, the rook's square).
    pub to: Square,
    /// The role of the moving or dropped piece (before promotion).
    pub role: Role,
    /// The role captured, if any (a pawn for en passant).
    pub capture: Option<Role>,
    /// The role a pawn becomes, if it promotes.
    pub promotion: Option<Role>,
    /// Special kinds of move.
    pub kind: MoveKind,
}

impl Move {
    /// Whether this move places a piece from the reserve.
    #[inline]
    pub fn is_drop(&self) -> bool {
        self.kind == MoveKind::Drop
    }

    /// Whether this move resets the fifty-move counter (pawn move or capture).
    #[inline]
    pub fn is_zeroing(&self) -> bool {
        (self.role == Role::Pawn && !self.is_drop()) || self.capture.is_some()
    }

    /// The UCI form: `e2e4`, `e7e8q`, `N@d1` for drops, king-to-destination for castling
    /// (king-takes-rook, `e1h1`, for Chess960 castling, whose `to` is the rook's square),
    /// and `f6xe4` for the capture of a twice-moved piece (Double Move Chess), which the
    /// same piece's plain move `f6e4` may exist beside.
    pub fn uci(&self) -> String {
        if self.is_drop() {
            return format!("{}@{}", self.role.upper_char(), self.to);
        }
        let mut s = if self.kind == MoveKind::CaptureTwiceMoved {
            format!("{}x{}", self.from, self.to)
        } else {
            format!("{}{}", self.from, self.to)
        };
        if let Some(p) = self.promotion {
            s.push(p.lower_char());
        }
        s
    }
}
