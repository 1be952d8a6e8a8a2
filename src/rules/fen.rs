//! FEN for any board size up to 8x8, with the reserve in brackets after the board:
//! `8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1`. A reserve is read in any
//! order and written in one: White's then Black's, each from the king down (as python-chess
//! writes a Crazyhouse pocket). Lichess's form of a pocket, an extra rank after the board
//! (`.../RNBQKBNR/Qn w ...`), is read too. Crazyhouse marks a promoted piece with `~` after
//! its letter (`Q~`), read and written; other variants read the mark and drop it.

use super::{
    Bitboard, Color, Piece, Position, PositionError, Role, Setup, Square, Variant, VariantConfig,
};

/// Why a FEN string was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not shaped like FEN.
    #[error("not a FEN: {0}")]
    Syntax(String),
    /// The FEN is well formed but the position is not possible in the variant.
    #[error("impossible position: {0}")]
    Position(#[from] PositionError),
}

fn syntax(msg: impl Into<String>) -> FenError {
    FenError::Syntax(msg.into())
}

/// Reads a FEN for `variant`. The move counters may be left out (they default to `0 1`).
pub fn parse_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
    let cfg = variant.config();
    let mut fields = fen.split_whitespace();
    let placement = fields.next().ok_or_else(|| syntax("empty"))?;
    let (board_part, reserve_part) = split_reserve(cfg, placement)?;
    let (pieces, promoted) = parse_board(variant, board_part)?;
    let reserves = match reserve_part {
        Some(r) => parse_reserve(r)?,
        None => [[0u8; 6]; 2],
    };
    let turn = parse_turn(fields.next().unwrap_or("w"))?;
    let castling = parse_castling(cfg, fields.next().unwrap_or("-"), &pieces)?;
    let ep_field = fields.next().unwrap_or("-");
    let ep_square = if ep_field == "-" {
        None
    } else {
        Some(
            Square::parse(ep_field)
                .ok_or_else(|| syntax(format!("bad en-passant square '{ep_field}'")))?,
        )
    };
    let mut fields = fields.peekable();
    // Three-check: the checks each side still needs, `W+B`, before the clocks
    // (python-chess's form).
    let mut checks_given = [0u8; 2];
    if let Some(limit) = cfg.endings.check_limit {
        if let Some(field) = fields.next_if(|f| f.contains('+') && !f.starts_with('+')) {
            let remaining = parse_pair(field, "checks remaining")?;
            checks_given = checks_from_remaining(limit, remaining)?;
        }
    }
    let halfmoves = match fields.next() {
        Some(s) => s.parse().map_err(|_| syntax("bad halfmove clock"))?,
        None => 0,
    };
    let fullmoves = match fields.next() {
        Some(s) => s.parse().map_err(|_| syntax("bad move number"))?,
        None => 1,
    };
    // Double Move Chess: the tokens left, `W+B`, after the move number.
    let tokens = match fields.next() {
        None => None,
        Some(t) if cfg.double_move.is_some() => Some(parse_pair(t, "tokens")?),
        // Three-check, Lichess's form: the checks given, `+W+B`, after the move number.
        Some(t) if cfg.endings.check_limit.is_some() && t.starts_with('+') => {
            checks_given = parse_pair(&t[1..], "checks given")?;
            None
        }
        Some(_) => return Err(syntax("unexpected text after the move number")),
    };
    if fields.next().is_some() {
        return Err(syntax("unexpected text after the tokens"));
    }
    let setup = Setup {
        pieces,
        reserves,
        turn,
        castling,
        ep_square,
        halfmoves,
        fullmoves,
        tokens,
        checks_given,
        promoted,
    };
    Ok(Position::from_setup(variant, &setup)?)
}

/// Splits the placement field into the board and the reserve in brackets after it, or, in
/// a variant with drops, in Lichess's extra rank after the board.
fn split_reserve<'a>(
    cfg: &VariantConfig,
    placement: &'a str,
) -> Result<(&'a str, Option<&'a str>), FenError> {
    if cfg.drops.is_some()
        && !placement.contains('[')
        && placement.matches('/').count() == cfg.height as usize
    {
        return Ok(placement
            .rsplit_once('/')
            .map_or((placement, None), |(board, pocket)| (board, Some(pocket))));
    }
    match placement.find('[') {
        Some(i) => {
            let rest = &placement[i + 1..];
            let inner = rest
                .strip_suffix(']')
                .ok_or_else(|| syntax("the reserve must end with ']'"))?;
            Ok((&placement[..i], Some(inner)))
        }
        None => Ok((placement, None)),
    }
}

/// Reads the board part of the placement, ranks from the top, into pieces on squares and
/// the squares of the pieces marked as promoted (`~`).
fn parse_board(
    variant: Variant,
    board_part: &str,
) -> Result<(Vec<(Square, Piece)>, Bitboard), FenError> {
    let cfg = variant.config();
    // The ranks counted without being listed, and room made for a full board's pieces
    // at once: a FEN is read at every move (the snapshot).
    let ranks = board_part.bytes().filter(|&b| b == b'/').count() + 1;
    if ranks != cfg.height as usize {
        return Err(syntax(format!(
            "{} needs {} ranks, found {}",
            variant, cfg.height, ranks
        )));
    }
    let mut pieces = Vec::with_capacity(32);
    let mut promoted = Bitboard::EMPTY;
    for (i, row) in board_part.split('/').enumerate() {
        let rank = cfg.height - 1 - i as u8;
        parse_rank(cfg.width, rank, row, &mut pieces, &mut promoted)?;
    }
    Ok((pieces, promoted))
}

/// Reads one rank of a board `width` wide, adding its pieces to `pieces` and the squares
/// of those marked with `~` to `promoted`.
fn parse_rank(
    width: u8,
    rank: u8,
    row: &str,
    pieces: &mut Vec<(Square, Piece)>,
    promoted: &mut Bitboard,
) -> Result<(), FenError> {
    let mut file: u32 = 0;
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(d) = c.to_digit(10) {
            if d == 0 {
                return Err(syntax("a count of empty squares starts with 1 to 9, not 0"));
            }
            let mut n = d;
            while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = n * 10 + d2;
                chars.next();
            }
            file += n;
        } else if let Some(piece) = Piece::from_fen_char(c) {
            if file >= width as u32 {
                return Err(syntax(format!("rank {} is too long", rank + 1)));
            }
            pieces.push((Square::new(file as u8, rank), piece));
            file += 1;
        } else if c == '~' {
            // The promoted-piece mark follows the piece it marks.
            let marked = pieces
                .last()
                .map(|&(sq, _)| sq)
                .filter(|sq| sq.rank() == rank && u32::from(sq.file()) + 1 == file)
                .ok_or_else(|| syntax("'~' must follow a piece"))?;
            *promoted = promoted.with(marked);
        } else {
            return Err(syntax(format!("unexpected '{c}' on the board")));
        }
        if file > width as u32 {
            return Err(syntax(format!("rank {} is too long", rank + 1)));
        }
    }
    if file != width as u32 {
        return Err(syntax(format!(
            "rank {} has {} squares, the board is {} wide",
            rank + 1,
            file,
            width
        )));
    }
    Ok(())
}

/// Reads the reserve (between the brackets) into counts by colour and role.
fn parse_reserve(r: &str) -> Result<[[u8; 6]; 2], FenError> {
    let mut reserves = [[0u8; 6]; 2];
    for c in r.chars() {
        if c == '-' {
            continue;
        }
        let piece =
            Piece::from_fen_char(c).ok_or_else(|| syntax(format!("bad reserve piece '{c}'")))?;
        let slot = &mut reserves[piece.color.index()][piece.role.index()];
        *slot = slot
            .checked_add(1)
            .filter(|&n| n <= 16)
            .ok_or_else(|| syntax("too many pieces in reserve"))?;
    }
    Ok(reserves)
}

/// Reads the side to move.
fn parse_turn(field: &str) -> Result<Color, FenError> {
    match field {
        "w" | "W" => Ok(Color::White),
        "b" | "B" => Ok(Color::Black),
        other => Err(syntax(format!(
            "side to move must be w or b, not '{other}'"
        ))),
    }
}

/// Reads the castling field (`KQkq`, `-`, or with file letters as X-FEN and
/// Shredder-FEN write them, `HAha`, `GBgb`, `Kq`) into the squares of the rooks that
/// keep their rights. `K` and `Q` are the corner rooks, or, for Chess960 castling, the
/// outermost rooks on either side of the king among the `pieces`.
fn parse_castling(
    cfg: &VariantConfig,
    field: &str,
    pieces: &[(Square, Piece)],
) -> Result<Bitboard, FenError> {
    let mut castling = Bitboard::EMPTY;
    if field == "-" {
        return Ok(castling);
    }
    for c in field.chars() {
        let bad = || syntax(format!("bad castling letter '{c}'"));
        if !c.is_ascii_alphabetic() {
            return Err(bad());
        }
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = if color == Color::White {
            0
        } else {
            cfg.height - 1
        };
        let file = match c.to_ascii_lowercase() {
            side @ ('k' | 'q') if cfg.chess960_castling => {
                outermost_rook(pieces, color, rank, side == 'k')?
            }
            'k' => cfg.width - 1,
            'q' => 0,
            letter if letter < (b'a' + cfg.width) as char => letter as u8 - b'a',
            _ => return Err(bad()),
        };
        let square = Square::new(file, rank);
        if castling.contains(square) {
            return Err(syntax(format!(
                "the castling right of '{c}' is given twice"
            )));
        }
        castling = castling.with(square);
    }
    Ok(castling)
}

/// The file of `color`'s outermost rook on `rank` towards the h-file (`king_side`) or
/// the a-file from its king there: what X-FEN's `K` and `Q` name in Chess960.
fn outermost_rook(
    pieces: &[(Square, Piece)],
    color: Color,
    rank: u8,
    king_side: bool,
) -> Result<u8, FenError> {
    let on_rank = |role: Role| {
        pieces
            .iter()
            .filter(move |(sq, p)| sq.rank() == rank && *p == Piece { color, role })
            .map(|(sq, _)| sq.file())
    };
    let king = on_rank(Role::King)
        .next()
        .ok_or(FenError::Position(PositionError::BadCastling))?;
    let rooks = on_rank(Role::Rook);
    let rook = if king_side {
        rooks.filter(|&f| f > king).max()
    } else {
        rooks.filter(|&f| f < king).min()
    };
    rook.ok_or(FenError::Position(PositionError::BadCastling))
}

/// The castling field as X-FEN writes it (and python-chess): for each rook keeping its
/// right, from the h-file down, White's first, `K` or `Q` when it is the outermost rook
/// of its side on that side of the king, else its file letter; `-` when none.
fn castling_field(pos: &Position) -> String {
    let cfg = pos.config();
    let mut out = String::new();
    for (color, home) in [(Color::White, 0), (Color::Black, cfg.height - 1)] {
        let rank = Bitboard::rank(home);
        let rooks = pos.pieces(color, Role::Rook) & rank;
        let king_file = pos.king_of(color).map(|k| k.file());
        let mut rights: Vec<Square> = (pos.castling_rights() & rank).collect();
        rights.reverse();
        for sq in rights {
            let a_side = king_file.is_some_and(|k| sq.file() < k);
            let outer = rooks
                .without(sq)
                .into_iter()
                .any(|o| (o.file() < sq.file()) == a_side);
            let letter = match (outer, a_side) {
                (true, _) => sq.file_char(),
                (false, true) => 'q',
                (false, false) => 'k',
            };
            out.push(if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

/// Reads a field of two counts, `W+B`: Double Move Chess's tokens left (`4+3`),
/// Three-check's checks remaining or given. `what` names it in the refusal.
fn parse_pair(field: &str, what: &str) -> Result<[u8; 2], FenError> {
    let bad = || {
        let shown: String = field.chars().take(12).collect();
        syntax(format!("{what} are written W+B, like 3+2, not '{shown}'"))
    };
    let (w, b) = field.split_once('+').ok_or_else(bad)?;
    Ok([w.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?])
}

/// Three-check: the checks given, from the checks each side still needs out of `limit`.
fn checks_from_remaining(limit: u8, remaining: [u8; 2]) -> Result<[u8; 2], FenError> {
    let given = |r: u8| {
        limit
            .checked_sub(r)
            .ok_or_else(|| syntax(format!("no side needs more than {limit} checks")))
    };
    Ok([given(remaining[0])?, given(remaining[1])?])
}

/// The piece placement of a FEN (ranks from the top, `/` between them, digits for runs of
/// empty squares) of a `width` x `height` board whose pieces `piece_at` gives: for any
/// board, a position of the engine or a variant's own (a solitaire's).
pub fn placement(width: u8, height: u8, piece_at: impl Fn(Square) -> Option<Piece>) -> String {
    marked_placement(width, height, piece_at, Bitboard::EMPTY)
}

/// [`placement`] with `~` after the pieces on the `marked` squares (Crazyhouse's promoted
/// pieces).
fn marked_placement(
    width: u8,
    height: u8,
    piece_at: impl Fn(Square) -> Option<Piece>,
    marked: Bitboard,
) -> String {
    let mut out = String::with_capacity(96);
    push_placement(&mut out, width, height, piece_at, marked);
    out
}

/// Writes [`marked_placement`] at the end of `out`.
fn push_placement(
    out: &mut String,
    width: u8,
    height: u8,
    piece_at: impl Fn(Square) -> Option<Piece>,
    marked: Bitboard,
) {
    // A run of empty squares as its count (a board is at most 16 squares wide).
    let push_empty = |out: &mut Vec<u8>, empty: u32| {
        if empty >= 10 {
            out.push(b'1');
        }
        if empty > 0 {
            out.push(b'0' + (empty % 10) as u8);
        }
    };
    // Written as bytes (every character is ASCII) into room made once, then appended as
    // one string: a FEN is written at every move, and a character pushed at a time onto
    // a string cost as much as finding the pieces.
    let mut bytes: Vec<u8> = Vec::with_capacity(usize::from(width) * usize::from(height) + 16);
    for rank in (0..height).rev() {
        let mut empty = 0;
        for file in 0..width {
            let sq = Square::new(file, rank);
            match piece_at(sq) {
                Some(p) => {
                    push_empty(&mut bytes, empty);
                    empty = 0;
                    bytes.push(p.fen_char() as u8);
                    if marked.contains(sq) {
                        bytes.push(b'~');
                    }
                }
                None => empty += 1,
            }
        }
        push_empty(&mut bytes, empty);
        if rank > 0 {
            bytes.push(b'/');
        }
    }
    out.push_str(std::str::from_utf8(&bytes).unwrap_or_default());
}

/// The board part of a FEN (ranks from the top) followed by the reserve in brackets
/// for variants with drops.
pub fn board_fen(pos: &Position) -> String {
    let mut out = String::with_capacity(96);
    push_board_fen(&mut out, pos);
    out
}

/// Writes [`board_fen`] at the end of `out`.
fn push_board_fen(out: &mut String, pos: &Position) {
    let cfg = pos.config();
    push_placement(
        out,
        cfg.width,
        cfg.height,
        |sq| pos.piece_at(sq),
        pos.promoted(),
    );
    if cfg.drops.is_some() {
        out.push('[');
        for color in Color::ALL {
            for role in [
                Role::King,
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ] {
                for _ in 0..pos.reserve(color)[role.index()] {
                    out.push(Piece { color, role }.fen_char());
                }
            }
        }
        out.push(']');
    }
}

/// The full FEN of a position. The en-passant square is written only when an
/// en-passant capture is legal.
pub fn to_fen(pos: &Position) -> String {
    use std::fmt::Write as _;
    let cfg = pos.config();
    // Written into one string: a FEN is written at every move (the snapshot, the view).
    let mut fen = String::with_capacity(112);
    push_board_fen(&mut fen, pos);
    fen.push(' ');
    fen.push(if pos.turn() == Color::White { 'w' } else { 'b' });
    fen.push(' ');
    fen.push_str(&castling_field(pos));
    fen.push(' ');
    match pos.legal_ep_square() {
        Some(s) => {
            fen.push(s.file_char());
            fen.push(s.rank_char());
        }
        None => fen.push('-'),
    }
    // Three-check: the checks each side still needs, before the clocks (python-chess).
    // Writing into a String cannot fail.
    if let Some(limit) = cfg.endings.check_limit {
        let [w, b] = pos.checks_given();
        let _ = write!(fen, " {}+{}", limit - w.min(limit), limit - b.min(limit));
    }
    let _ = write!(fen, " {} {}", pos.halfmoves(), pos.fullmoves());
    if cfg.double_move.is_some() {
        let [w, b] = pos.tokens();
        let _ = write!(fen, " {w}+{b}");
    }
    fen
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every variant's start round trips and is written as declared: tests/engine/notation.rs.

    #[test]
    fn reserves_read_in_any_order() {
        // The seed's order of the Chess# reserve is the same position.
        let seed = parse_fen(
            Variant::CHESS_SHARP,
            "8/pppppppp/8/8/8/8/PPPPPPPP/8[RNBQKBNRrnbqkbnr] w - - 0 1",
        )
        .unwrap();
        assert_eq!(seed, Position::start(Variant::CHESS_SHARP));
    }

    #[test]
    fn double_move_fens_carry_the_tokens_left() {
        let v = Variant::DOUBLE_MOVE;
        assert_eq!(
            to_fen(&Position::start(v)),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 4+4"
        );
        let pos = parse_fen(v, "4k3/8/8/8/8/8/8/4K3 w - - 0 20 0+3").unwrap();
        assert_eq!(pos.tokens(), [0, 3]);
        assert_eq!(to_fen(&pos), "4k3/8/8/8/8/8/8/4K3 w - - 0 20 0+3");
        // Without the field each side has all four.
        let full = parse_fen(v, "4k3/8/8/8/8/8/8/4K3 w - - 0 20").unwrap();
        assert_eq!(full.tokens(), [4, 4]);
        for bad in [
            "4k3/8/8/8/8/8/8/4K3 w - - 0 20 5+4",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 20 4-4",
        ] {
            assert!(parse_fen(v, bad).is_err(), "{bad}");
        }
        assert!(parse_fen(Variant::STANDARD, "4k3/8/8/8/8/8/8/4K3 w - - 0 20 4+4").is_err());
    }

    #[test]
    fn malformed_fens_are_refused_with_a_reason() {
        let v = Variant::STANDARD;
        for bad in [
            "",
            "8/8/8/8/8/8/8 w - - 0 1",
            "9/8/8/8/8/8/8/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            // A run written with a leading 0, or as 0 alone.
            "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/80/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            // A castling right given twice, by one letter or by two naming one rook.
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HHHHhhhh - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KHkq - 0 1",
        ] {
            assert!(parse_fen(v, bad).is_err(), "{bad}");
        }
    }
}
