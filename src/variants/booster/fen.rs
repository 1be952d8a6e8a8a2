//! Booster Chess positions as FEN: the six fields of standard FEN, then a seventh that
//! lists the stacks (`e4:w2,d5:b1`: two white checkers under the piece on e4, one black
//! under d5; `-` or nothing for none). The checkers in front of each player are the six
//! of their colour not on the board.

use super::position::{far_rank, sign, Pos};
use crate::notation::fen::{parse_fen, placement};
use crate::rules::{Color, Square, Variant};

/// Why a Booster FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Neither six fields nor seven.
    #[error(
        "a Booster FEN has the six fields of FEN and a seventh for the stacks (like e4:w2,d5:b1)"
    )]
    FieldCount,
    /// The six fields of FEN are not a standard chess position.
    #[error(transparent)]
    Chess(#[from] crate::notation::fen::FenError),
    /// A stack written wrong, or twice (its first 12 characters).
    #[error("a stack is written SQUARE:COLOUR COUNT, like e4:w2, not '{0}'")]
    BadStack(String),
    /// A stack on an empty square.
    #[error("{0} has a stack but no piece")]
    StackWithoutPiece(Square),
    /// More checkers of a colour on the board than it has.
    #[error("more than six {} checkers", .0.name().to_lowercase())]
    TooManyCheckers(Color),
    /// Hobble checkers under a piece on its far rank.
    #[error("the piece on {0} stands on its far rank: it cannot keep hobble checkers")]
    HobbledOnFarRank(Square),
    /// The side not to move is in check.
    #[error("the side that has just moved is in check (booster reach counts)")]
    MoverInCheck,
}

/// Why a stored position cannot be read back: the part that is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoredError {
    /// Not seven fields.
    #[error("a stored position has seven fields")]
    Fields,
    /// Not eight ranks.
    #[error("eight ranks")]
    Ranks,
    /// A character that is no piece letter.
    #[error("a piece letter")]
    Piece,
    /// A rank longer than eight squares.
    #[error("a rank too long")]
    RankTooLong,
    /// A castling rook's square.
    #[error("square")]
    CastlingSquare,
    /// The halfmove clock.
    #[error("halfmoves")]
    Halfmoves,
    /// The move number.
    #[error("fullmoves")]
    Fullmoves,
    /// A stack without its `:`.
    #[error("a stack")]
    Stack,
    /// A stack's square.
    #[error("a stack's square")]
    StackSquare,
    /// A stack's count.
    #[error("a count")]
    Count,
    /// More checkers of a colour than it has.
    #[error("too many checkers")]
    TooManyCheckers,
}

/// Reads a Booster FEN, checking what a Booster position must be: one king a side, at
/// most six checkers of a colour on the board, every stack under a piece, no hobble
/// checker under a piece on its far rank, and the side that has just moved not in check
/// (booster reach included).
pub fn parse(text: &str) -> Result<Pos, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() || fields.len() > 7 {
        return Err(FenError::FieldCount);
    }
    let base = fields[..fields.len().min(6)].join(" ");
    let std = parse_fen(Variant::STANDARD, &base)?;
    let mut pos = Pos::empty();
    for i in 0..64u8 {
        let sq = Square::from_index(i);
        pos.put(sq, std.piece_at(sq));
    }
    pos.turn = std.turn();
    pos.castling = std.castling_rights();
    pos.ep = std.ep_square();
    pos.halfmoves = std.halfmoves();
    pos.fullmoves = std.fullmoves();
    if let Some(stacks) = fields.get(6).filter(|f| **f != "-") {
        for item in stacks.split(',') {
            let bad = || FenError::BadStack(item.chars().take(12).collect());
            let (sq, what) = item.split_once(':').ok_or_else(bad)?;
            let sq = Square::parse(sq).ok_or_else(bad)?;
            let color = match what.get(..1) {
                Some("w") => Color::White,
                Some("b") => Color::Black,
                _ => return Err(bad()),
            };
            let n: i8 = what[1..].parse().map_err(|_| bad())?;
            if !(1..=6).contains(&n) || pos.stack(sq) != 0 {
                return Err(bad());
            }
            if pos.piece(sq).is_none() {
                return Err(FenError::StackWithoutPiece(sq));
            }
            pos.set_stack(sq, n * sign(color))
                .ok_or(FenError::TooManyCheckers(color))?;
        }
    }
    for sq in pos.occupied() {
        if let Some(p) = pos.piece(sq) {
            if pos.hobbled(sq) && sq.rank() == far_rank(p.color) {
                return Err(FenError::HobbledOnFarRank(sq));
            }
        }
    }
    if pos.in_check(pos.turn.opposite()) {
        return Err(FenError::MoverInCheck);
    }
    Ok(pos)
}

/// The stacks field: `e4:w2,d5:b1`, or `-`.
pub fn stacks_field(pos: &Pos) -> String {
    let items: Vec<String> = (0..64u8)
        .map(Square::from_index)
        .filter(|s| pos.stack(*s) != 0)
        .map(|s| {
            let n = pos.stack(s);
            format!("{s}:{}{}", if n > 0 { 'w' } else { 'b' }, n.abs())
        })
        .collect();
    if items.is_empty() {
        "-".into()
    } else {
        items.join(",")
    }
}

/// The position as a Booster FEN (the stacks field always written; the en-passant
/// square only where a pawn of the side to move could use it).
pub fn write(pos: &Pos) -> String {
    write_with(pos, pos.usable_ep())
}

/// The position as stored: the en-passant square as it is (in the middle of a turn the
/// side that may use it is not yet to move).
pub fn write_stored(pos: &Pos) -> String {
    write_with(pos, pos.ep)
}

fn write_with(pos: &Pos, ep: Option<Square>) -> String {
    let board = placement(8, 8, |s| pos.piece(s));
    let mut castling = String::new();
    for (sq, ch) in [("h1", 'K'), ("a1", 'Q'), ("h8", 'k'), ("a8", 'q')] {
        if Square::parse(sq).is_some_and(|s| pos.castling.contains(s)) {
            castling.push(ch);
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    format!(
        "{board} {} {castling} {} {} {} {}",
        if pos.turn == Color::White { 'w' } else { 'b' },
        ep.map_or("-".to_string(), |s| s.to_string()),
        pos.halfmoves,
        pos.fullmoves,
        stacks_field(pos)
    )
}

/// Reads a position as [`write`] wrote it, without the checks of [`parse`]: a stored
/// game's position in the middle of a turn (the side to move may have given check).
pub fn read_stored(text: &str) -> Result<Pos, StoredError> {
    let f: Vec<&str> = text.split_whitespace().collect();
    let [board, turn, castling, ep, half, full, stacks] = f.as_slice() else {
        return Err(StoredError::Fields);
    };
    let mut pos = Pos::empty();
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(StoredError::Ranks);
    }
    for (i, row) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                // A run is 1 to 8 squares and stays on the board (no wrapping).
                if d == 0 || u32::from(file) + d > 8 {
                    return Err(StoredError::RankTooLong);
                }
                file += d as u8;
            } else {
                let p = crate::rules::Piece::from_fen_char(c).ok_or(StoredError::Piece)?;
                if file > 7 {
                    return Err(StoredError::RankTooLong);
                }
                pos.put(Square::new(file, rank), Some(p));
                file += 1;
            }
        }
    }
    pos.turn = if *turn == "b" {
        Color::Black
    } else {
        Color::White
    };
    for (sq, ch) in [("h1", 'K'), ("a1", 'Q'), ("h8", 'k'), ("a8", 'q')] {
        if castling.contains(ch) {
            pos.castling = pos
                .castling
                .with(Square::parse(sq).ok_or(StoredError::CastlingSquare)?);
        }
    }
    pos.ep = Square::parse(ep);
    pos.halfmoves = half.parse().map_err(|_| StoredError::Halfmoves)?;
    pos.fullmoves = full.parse().map_err(|_| StoredError::Fullmoves)?;
    if *stacks != "-" {
        for item in stacks.split(',') {
            let (sq, what) = item.split_once(':').ok_or(StoredError::Stack)?;
            let sq = Square::parse(sq).ok_or(StoredError::StackSquare)?;
            let n: i8 = what
                .get(1..)
                .and_then(|n| n.parse().ok())
                .ok_or(StoredError::Count)?;
            let s = if what.starts_with('w') { n } else { -n };
            pos.set_stack(sq, s).ok_or(StoredError::TooManyCheckers)?;
        }
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_with_stacks_reads_back_as_written() {
        let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 e4:w2,d8:b1";
        let pos = parse(text).unwrap();
        let stored = write_stored(&pos);
        assert_eq!(read_stored(&stored).unwrap(), pos);
        assert_eq!(pos.stack(Square::parse("e4").unwrap()), 2);
        assert_eq!(pos.reserve(Color::White), 4);
        assert_eq!(pos.reserve(Color::Black), 5);
        assert_eq!(write(&pos), text);
        assert_eq!(
            write(&Pos::start()),
            format!(
                "{} -",
                crate::notation::fen::to_fen(&crate::rules::Position::start(Variant::STANDARD))
            )
        );
    }

    #[test]
    fn bad_stacks_are_refused_with_a_reason() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for (stacks, why) in [
            ("e4:w1", "no piece"),
            ("e2:w7", "like e4:w2"),
            ("e2:x1", "like e4:w2"),
            ("a2:w4,b2:w3", "more than six"),
        ] {
            let e = parse(&format!("{start} {stacks}")).unwrap_err().to_string();
            assert!(e.contains(why), "{stacks}: {e}");
        }
        let e = parse("4K3/8/8/8/8/8/8/4k3 w - - 0 1 e8:b1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("far rank"), "{e}");
    }
}
