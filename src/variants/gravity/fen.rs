//! Gravity Chess positions as FEN, for testing and teaching: the board from rank 8 down,
//! then in brackets the pieces not yet added (upper case White's, lower case Black's),
//! then the side whose turn begins (`w` or `b`); the usual `- - 0 N` may follow and is
//! ignored. A piece neither on the board nor in the brackets was captured by the other
//! side. `8/8/8/8/8/8/8/8[KQRRBBNNPPPPkqrrbbnnpppp] w - - 0 1` is the start.

use super::board::Board;
use crate::rules::{Color, Piece, Role, Square};

/// How many pieces of each role a side has, by [`Role::index`] (pawn, knight, bishop,
/// rook, queen, king as the engine orders them).
fn set_count(role: Role) -> usize {
    match role {
        Role::King | Role::Queen => 1,
        Role::Rook | Role::Bishop | Role::Knight => 2,
        Role::Pawn => 4,
    }
}

/// The order pieces are written in the brackets.
const ORDER: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// A position read from a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces on the board.
    pub board: Board,
    /// The pieces not yet added, by [`Color::index`] of their colour.
    pub waiting: [Vec<Role>; 2],
    /// The side whose turn begins.
    pub turn: Color,
    /// The enemy pieces each side has captured, by [`Color::index`] of the capturer.
    pub captured: [u8; 2],
}

/// The board part of a FEN.
pub fn board_text(board: &Board) -> String {
    let mut ranks = Vec::with_capacity(8);
    for rank in (0..8u8).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for file in 0..8u8 {
            match board.get(Square::new(file, rank)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    ranks.join("/")
}

/// The pieces waiting, as the brackets write them (White's first, each side king first).
pub fn waiting_text(waiting: &[Vec<Role>; 2]) -> String {
    let mut s = String::new();
    for color in Color::ALL {
        for role in ORDER {
            let n = waiting[color.index()]
                .iter()
                .filter(|r| **r == role)
                .count();
            let c = Piece { color, role }.fen_char();
            s.extend(std::iter::repeat(c).take(n));
        }
    }
    s
}

/// The whole FEN: board, brackets, side, and `- - 0 N` with the turn number.
pub fn write(board: &Board, waiting: &[Vec<Role>; 2], turn: Color, number: u32) -> String {
    format!(
        "{}[{}] {} - - 0 {}",
        board_text(board),
        waiting_text(waiting),
        if turn == Color::White { 'w' } else { 'b' },
        number.max(1)
    )
}

/// Why a Gravity Chess FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Not eight ranks.
    #[error("a Gravity Chess board has 8 ranks separated by /")]
    RankCount,
    /// A run of no empty squares.
    #[error("0 is not a count of empty squares")]
    ZeroRun,
    /// A character on the board that is no piece letter.
    #[error("'{}' is not a piece letter", .0.escape_default())]
    NotAPiece(char),
    /// The rank (numbered from 1) runs past the board's edge.
    #[error("rank {0} has more than 8 squares")]
    RankTooLong(u8),
    /// The rank (numbered from 1) stops short of the board's edge.
    #[error("rank {0} does not have 8 squares")]
    RankTooShort(u8),
    /// Nothing at all.
    #[error("the FEN is empty")]
    Empty,
    /// The decks' brackets left open.
    #[error("the brackets after the board need their closing ]")]
    UnclosedBrackets,
    /// A character in the decks' brackets that is no piece letter.
    #[error("'{}' in the brackets is not a piece letter", .0.escape_default())]
    NotAWaitingPiece(char),
    /// No side to move, or not `w` or `b`.
    #[error("after the board comes the side whose turn begins: w or b")]
    NoSide,
    /// More pieces of a kind than a side's set holds.
    #[error("{side} has {count} {role}s: a side has only {most}")]
    TooMany {
        /// `White` or `Black`.
        side: &'static str,
        /// How many there are, on the board and waiting.
        count: usize,
        /// The piece's name.
        role: &'static str,
        /// How many a set holds.
        most: usize,
    },
    /// With White to move, decks of different sizes.
    #[error("with White to move both decks hold as many cards: White adds first, so {white_deck} black and {black_deck} white pieces waiting cannot be")]
    UnevenDecks {
        /// Cards in White's deck (Black's pieces).
        white_deck: usize,
        /// Cards in Black's deck (White's pieces).
        black_deck: usize,
    },
    /// With Black to move, Black's deck not one card larger.
    #[error("with Black to move Black's deck holds one card more than White's: {black_deck} white and {white_deck} black pieces waiting cannot be")]
    BlackDeckNotAhead {
        /// Cards in White's deck (Black's pieces).
        white_deck: usize,
        /// Cards in Black's deck (White's pieces).
        black_deck: usize,
    },
}

/// Reads the board part (`8/8/.../8`).
pub fn parse_board(text: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount);
    }
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(FenError::ZeroRun);
                }
                file += d as u8;
            } else {
                let piece = Piece::from_fen_char(c).ok_or(FenError::NotAPiece(c))?;
                if file >= 8 {
                    return Err(FenError::RankTooLong(rank + 1));
                }
                board.set(Square::new(file, rank), Some(piece));
                file += 1;
            }
            if file > 8 {
                return Err(FenError::RankTooLong(rank + 1));
            }
        }
        if file != 8 {
            return Err(FenError::RankTooShort(rank + 1));
        }
    }
    Ok(board)
}

/// Reads a whole FEN and checks that it is a position of the game: no more pieces of a
/// kind than a side's set, and decks that fit the side to move (with White to move both
/// decks hold as many cards, with Black to move Black's holds one more).
pub fn parse(fen: &str) -> Result<Setup, FenError> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().ok_or(FenError::Empty)?;
    let (board_part, waiting_part) = match placement.split_once('[') {
        Some((b, rest)) => (b, rest.strip_suffix(']').ok_or(FenError::UnclosedBrackets)?),
        None => (placement, ""),
    };
    let board = parse_board(board_part)?;
    let mut waiting: [Vec<Role>; 2] = [Vec::new(), Vec::new()];
    for c in waiting_part.chars() {
        let p = Piece::from_fen_char(c).ok_or(FenError::NotAWaitingPiece(c))?;
        waiting[p.color.index()].push(p.role);
    }
    let turn = match fields.next() {
        Some("w") => Color::White,
        Some("b") => Color::Black,
        _ => return Err(FenError::NoSide),
    };
    let mut captured = [0u8; 2];
    for color in Color::ALL {
        let mut total = 0;
        for role in ORDER {
            let on_board = (board.of(color) & board_role(&board, role)).count() as usize;
            let n = on_board
                + waiting[color.index()]
                    .iter()
                    .filter(|r| **r == role)
                    .count();
            if n > set_count(role) {
                return Err(FenError::TooMany {
                    side: side_name(color),
                    count: n,
                    role: role.name(),
                    most: set_count(role),
                });
            }
            total += n;
        }
        captured[color.opposite().index()] = (12 - total) as u8;
    }
    // White's deck holds Black's pieces still to add, Black's deck White's.
    let (white_deck, black_deck) = (waiting[1].len(), waiting[0].len());
    match turn {
        Color::White if white_deck != black_deck => {
            return Err(FenError::UnevenDecks {
                white_deck,
                black_deck,
            })
        }
        Color::Black if black_deck != white_deck + 1 => {
            return Err(FenError::BlackDeckNotAhead {
                white_deck,
                black_deck,
            })
        }
        _ => {}
    }
    Ok(Setup {
        board,
        waiting,
        turn,
        captured,
    })
}

/// `White` or `Black`.
fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The squares holding pieces of `role`.
fn board_role(board: &Board, role: Role) -> crate::rules::Bitboard {
    let mut b = crate::rules::Bitboard::EMPTY;
    for sq in board.occupied() {
        if board.get(sq).is_some_and(|p| p.role == role) {
            b = b.with(sq);
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPkqrrbbnnpppp] w - - 0 1";

    #[test]
    fn the_start_has_every_piece_waiting_and_nothing_captured() {
        let s = parse(START).unwrap();
        assert_eq!(s.board, Board::empty());
        assert_eq!(s.waiting[0].len(), 12);
        assert_eq!(s.captured, [0, 0]);
        assert_eq!(write(&s.board, &s.waiting, s.turn, 1), START);
    }

    #[test]
    fn pieces_neither_on_the_board_nor_waiting_were_captured_by_the_other_side() {
        // The appendix's scoring position: White is missing a bishop and three pawns,
        // Black two pawns.
        let fen = "8/8/6R1/8/1P5p/1b2k1KN/N1R1Br2/p1nQqrnb[] w";
        let s = parse(fen).unwrap();
        assert_eq!(s.captured, [2, 4]);
        assert_eq!(
            board_text(&s.board),
            "8/8/6R1/8/1P5p/1b2k1KN/N1R1Br2/p1nQqrnb"
        );
    }

    #[test]
    fn a_fen_must_fit_the_set_and_the_decks() {
        for (fen, why) in [
            ("8/8/8/8/8/8/8/8[QQ] w", "White has 2 queens"),
            ("8/8/8/8/8/8/8/8[K] w", "both decks hold as many"),
            ("8/8/8/8/8/8/8/8[k] b", "one card more"),
            ("8/8/8/8/8/8/8 w", "8 ranks"),
            ("8/8/8/8/8/8/8/9 w", "more than 8"),
            ("8/8/8/8/8/8/8/8[K w", "closing ]"),
            ("8/8/8/8/8/8/8/8[Kk]", "w or b"),
            ("8/8/8/8/8/8/8/7x w", "not a piece letter"),
        ] {
            let e = parse(fen).unwrap_err();
            assert!(e.to_string().contains(why), "{fen}: {e}");
        }
        assert!(parse("8/8/8/8/8/8/8/8[K] b").is_ok());
    }
}
