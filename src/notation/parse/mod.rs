//! Reading a move typed by a player, in whichever notation they use, against the current
//! position.
//!
//! A move is never parsed in isolation. The input is normalised (annotations, the word
//! `MOVE`, a leading move number and letter case set aside), every way it could be read is
//! listed (SAN, a drop, castling, long algebraic or UCI, `E2 TO E4` with algebraic or
//! descriptive squares, ICCF numeric), and the legal moves that match any reading are
//! collected. Exactly one is the answer; several are an [`MoveError::Ambiguous`] listing
//! them in SAN; none is an error that says why, worked out from the position, with
//! suggestions of close legal moves.
//!
//! One rule comes before all of that: text that is exactly the SAN of a legal move (as
//! [`san`] writes it, the suffix aside) means that move. This keeps every SAN that the bot
//! writes readable back, including the list of candidates it gives for an ambiguous input.

use super::san::{san, write_body, Glyphs};
use crate::rules::attacks;
use crate::rules::{
    Bitboard, CastlingSide, Color, Move, MoveKind, MoveList, Position, Role, Square, VariantConfig,
};

/// The longest input, in characters, that is read as a move. Anything longer is refused
/// at once.
pub const MAX_INPUT_CHARS: usize = 64;

/// Why an input was not accepted as a move. Every message can be shown to the player as it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The input is longer than [`MAX_INPUT_CHARS`].
    #[error("that is too long to be a move (a move is at most {MAX_INPUT_CHARS} characters)")]
    TooLong,
    /// The input is not shaped like a move in any notation.
    #[error(
        "couldn't read '{input}' as a move; write it like e4, Nf3, exd5, e8=Q, O-O, N@d1 or e2e4"
    )]
    Syntax {
        /// The input, trimmed, with control characters replaced by spaces.
        input: String,
    },
    /// The player has no piece that could make the move (`reason` says which piece).
    #[error("{reason}{}", did_you_mean(.suggestions))]
    NoSuchPiece {
        /// What is missing, e.g. "you have no knight that can reach f3".
        reason: String,
        /// Up to five close legal moves, in SAN.
        suggestions: Vec<String>,
    },
    /// The move is understood but not allowed here.
    #[error("illegal move: {reason}{}", did_you_mean(.suggestions))]
    Illegal {
        /// Why, e.g. "it would leave your king in check".
        reason: String,
        /// Up to five close legal moves, in SAN.
        suggestions: Vec<String>,
    },
    /// The input fits more than one legal move.
    #[error("ambiguous: {}?", or_list(.candidates))]
    Ambiguous {
        /// Every legal move that fits, in SAN; each of them reads back as exactly that move.
        candidates: Vec<String>,
    },
    /// The move carries a number (`12.`, `12...`) that is not this game's: a sign the
    /// player is looking at another game or another moment of this one.
    #[error(
        "the move number {typed} is not this game's: it is at move {now}, {side} to play (check the game and the move)"
    )]
    WrongNumber {
        /// The number as typed (`99.`, `1...`).
        typed: String,
        /// The game's move number.
        now: u32,
        /// Who is to play (`White`, `Black`).
        side: &'static str,
    },
}

/// `; did you mean A, B or C?`, or nothing.
fn did_you_mean(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", or_list(suggestions))
    }
}

/// `A`, `A or B`, `A, B or C`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {}", rest.join(", "), last),
    }
}

/// Reads `input` as a move of the side to move in `pos`.
///
/// Accepted, case-insensitively wherever case cannot change the meaning:
/// SAN (`Nf3`, `exd5`, `Nbd7`, `R1a3`, `Qh4e1`, `e8=Q`, `e8Q`, `O-O`, `0-0-0`, with or
/// without `x`, with `+ # ! ?` and `e.p.` ignored), figurine SAN (`♘f3`, `♞f6`),
/// drops (`N@d1`, `N*d1`, `@d4` for a pawn), long algebraic and UCI (`e2e4`, `e2-e4`,
/// `Ng1-f3`, `e7e8q`, `e7-e8=Q`, castling as the king's move `e1g1`), the text-game form
/// `MOVE E2 TO E4` (the word `MOVE` is optional) with algebraic or descriptive squares
/// (`MOVE K2 TO K4`, `MOVE QN1 TO QB3`, ranks counted from the mover's side), and ICCF
/// numeric (`5254`, `57581`, castling `5171`).
///
/// Promotion must name the piece (`e8=Q`), except when the variant allows only one, and in
/// the `E7 TO E8` form, which promotes to a queen unless another piece is named, as in the
/// text games it comes from.
///
/// The letter b is both a file and the bishop. Input that is exactly the SAN of a legal
/// move means that move (`bxc3` is the pawn, `Bxc3` the bishop). Otherwise an upper-case
/// `B` in mixed-case input is the bishop and a lower-case `b` the file; when the case does
/// not decide (`BXC3`, `bc4`), both readings are tried and the legal moves decide.
///
/// Never panics, whatever the input.
pub fn parse_move(pos: &Position, input: &str) -> Result<Move, MoveError> {
    let text = normalise(input)?;
    let parsed = match read(pos.config(), pos.turn(), &text, input) {
        Ok(parsed) => parsed,
        Err(e) => return Err(missing_promotion(pos, &text.text).unwrap_or(e)),
    };
    check_number(pos, &text)?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(MoveError::Illegal {
            reason: "the game is over".into(),
            suggestions: Vec::new(),
        });
    }
    if let Some(exact) = &parsed.exact {
        if let Some(m) = exact_san(&legal, exact) {
            return Ok(m);
        }
    }
    let cfg = pos.config();
    let mut matched: Vec<Move> = Vec::new();
    for m in &legal {
        if parsed.readings.iter().any(|r| r.matches(cfg, m)) && !matched.contains(m) {
            matched.push(*m);
        }
    }
    match matched.as_slice() {
        [m] => Ok(*m),
        [] => Err(diagnose(pos, &legal, &parsed.readings)),
        many => match many
            .iter()
            .find(|m| m.kind == MoveKind::CaptureTwiceMoved && m.uci() == input.trim())
        {
            // Double Move Chess's capture of a twice-moved piece in its own UCI form
            // (`f6xe4`) is that capture. The plain from-to (`f6e4`) fits it and the same
            // piece's plain move onto the stop alike, and stays ambiguous.
            Some(m) => Ok(*m),
            None => Err(MoveError::Ambiguous {
                candidates: many.iter().map(|m| san(pos, *m)).collect(),
            }),
        },
    }
}

/// Reads `input` as one of `candidates`, the moves of a variant whose rules the engine's
/// generator does not make (Gravity Chess's downward moves), on a board shaped like
/// `cfg`'s with `turn` to move. Every notation [`parse_move`] reads is read the same way
/// (descriptive ranks count from `turn`'s side); text that is exactly the SAN of one
/// candidate, as [`san_among`](super::san::san_among) writes it, means that one alone.
/// Returns every candidate the input fits, in the candidates' order: none, one, or
/// several for the caller to choose from or to list.
///
/// Never panics, whatever the input.
pub fn read_among(
    cfg: &VariantConfig,
    turn: Color,
    candidates: &[Move],
    input: &str,
) -> Result<Vec<Move>, MoveError> {
    let text = normalise(input)?;
    let parsed = read(cfg, turn, &text, input)?;
    if let Some(exact) = &parsed.exact {
        if let Some(m) = exact_san(candidates, exact) {
            return Ok(vec![m]);
        }
    }
    let mut matched: Vec<Move> = Vec::new();
    for m in candidates {
        if parsed.readings.iter().any(|r| r.matches(cfg, m)) && !matched.contains(m) {
            matched.push(*m);
        }
    }
    Ok(matched)
}

/// The one legal move whose SAN (suffix aside) is exactly `text`.
fn exact_san(legal: &[Move], text: &str) -> Option<Move> {
    let mut buf = String::with_capacity(8);
    let mut found = None;
    for m in legal {
        buf.clear();
        write_body(*m, legal, Glyphs::Letters, &mut buf);
        if buf == text {
            if found.is_some() {
                return None;
            }
            found = Some(*m);
        }
    }
    found
}

// ---------------------------------------------------------------------------------------
// Normalising the text
// ---------------------------------------------------------------------------------------

/// The input with the decorations removed.
struct Normalised {
    /// ASCII words separated by single spaces: no `MOVE`, no move number, no annotations.
    text: String,
    /// Chess symbols were used for pieces, so letter case carries no doubt.
    figurine: bool,
    /// The move number typed before the move, and whether it had Black's dots (`12...`).
    number: Option<(u32, bool)>,
}

fn syntax(input: &str) -> MoveError {
    MoveError::Syntax {
        input: input
            .trim()
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect(),
    }
}

fn normalise(input: &str) -> Result<Normalised, MoveError> {
    // A character is at most four bytes: longer byte strings are too long without counting.
    if input.len() > MAX_INPUT_CHARS * 4 || input.chars().count() > MAX_INPUT_CHARS {
        return Err(MoveError::TooLong);
    }
    let mut text = String::with_capacity(input.len());
    let mut figurine = false;
    for c in input.chars() {
        let piece = match c {
            '♔' | '♚' => Some('K'),
            '♕' | '♛' => Some('Q'),
            '♖' | '♜' => Some('R'),
            '♗' | '♝' => Some('B'),
            '♘' | '♞' => Some('N'),
            '♙' | '♟' => Some('P'),
            _ => None,
        };
        if let Some(letter) = piece {
            figurine = true;
            text.push(letter);
            continue;
        }
        match c {
            '×' => text.push('x'),
            '‐' | '‑' | '‒' | '–' | '—' | '−' => text.push('-'),
            '‼' | '⁉' => text.push('!'),
            '⁇' | '⁈' => text.push('?'),
            '…' => text.push_str("..."),
            c if c.is_whitespace() => text.push(' '),
            c if c.is_ascii_graphic() => text.push(c),
            _ => return Err(syntax(input)),
        }
    }
    // Everything is ASCII from here on, so byte slicing is safe.
    let mut s = text.trim();
    if s.len() >= 4 && s[..4].eq_ignore_ascii_case("move") {
        let rest = &s[4..];
        if rest.is_empty() || rest.starts_with([' ', ':']) {
            s = rest.trim_start_matches([' ', ':']);
        }
    }
    // A move number: `12.`, `12...`, `1. `.
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let mut number = None;
    if digits > 0 && s[digits..].trim_start().starts_with('.') {
        let n = s[..digits].parse::<u32>().unwrap_or(u32::MAX);
        let after = s[digits..].trim_start();
        let dots = after.bytes().take_while(|&b| b == b'.').count();
        number = Some((n, dots >= 2));
        s = after[dots..].trim_start();
    }
    s = strip_annotations(s);
    Ok(Normalised {
        text: s.split_whitespace().collect::<Vec<_>>().join(" "),
        figurine,
        number,
    })
}

/// Refuses a move number that is not the position's: `N.` must be its move number and
/// `N...` also Black's turn (one dot is accepted for either side, as many write it).
fn check_number(pos: &Position, text: &Normalised) -> Result<(), MoveError> {
    let Some((n, black_dots)) = text.number else {
        return Ok(());
    };
    let black = pos.turn() == Color::Black;
    if n == pos.fullmoves() && (black || !black_dots) {
        return Ok(());
    }
    let shown = if n == u32::MAX {
        "given".to_string()
    } else {
        format!("{n}{}", if black_dots { "..." } else { "." })
    };
    Err(MoveError::WrongNumber {
        typed: shown,
        now: pos.fullmoves(),
        side: if black { "Black" } else { "White" },
    })
}

/// Removes trailing `+`, `#`, `!`, `?` and `e.p.` (in any order and number).
fn strip_annotations(mut s: &str) -> &str {
    'strip: loop {
        s = s.trim_end();
        if let Some(rest) = s.strip_suffix(['+', '#', '!', '?']) {
            s = rest;
            continue;
        }
        for suffix in ["e.p.", "e.p", "ep"] {
            let n = suffix.len();
            if s.len() > n && s[s.len() - n..].eq_ignore_ascii_case(suffix) {
                let before = s.as_bytes()[s.len() - n - 1];
                if before.is_ascii_digit() || before == b' ' {
                    s = &s[..s.len() - n];
                    continue 'strip;
                }
            }
        }
        return s;
    }
}

// ---------------------------------------------------------------------------------------
// Readings: what the text could mean
// ---------------------------------------------------------------------------------------

/// One way to read the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    /// A move on the board.
    Board(BoardReading),
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// A piece from the reserve.
    Drop { role: Role, to: Square },
}

/// A move on the board, as far as the input says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BoardReading {
    /// The moving piece; `None` when the origin square is given and the piece is whatever
    /// stands there (`e2e4`, `E2 TO E4`, `5254`).
    role: Option<Role>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    /// The piece promoted to, if the input names one.
    promotion: Option<Role>,
    /// A pawn named by its file alone (`exd5`, `ed5`): a capture from another file.
    pawn_file_only: bool,
    /// The input marks a capture (`Nxf3`, `e4xd5`, `B:c4`): a move that captures nothing
    /// does not fit, however much else matches. A player whose picture of the board is
    /// wrong is told so rather than given a quiet move they did not mean.
    capture_marked: bool,
    /// Promote to the variant's strongest piece when none is named (the `E7 TO E8` form).
    auto_queen: bool,
}

impl BoardReading {
    /// The origin square, when the input gives it completely.
    fn from(&self) -> Option<Square> {
        Some(Square::new(self.from_file?, self.from_rank?))
    }

    /// Whether `m` fits everything but the promotion.
    fn fits(&self, m: &Move) -> bool {
        match m.kind {
            MoveKind::Drop => return false,
            // Castling is read from `O-O` or from the king's origin and destination.
            MoveKind::Castle(_) if self.from().is_none() => return false,
            _ => {}
        }
        m.to == self.to
            && (!self.capture_marked || m.capture.is_some())
            && accepts(self.role, m.role)
            && accepts(self.from_file, m.from.file())
            && accepts(self.from_rank, m.from.rank())
            && !(self.pawn_file_only && m.from.file() == m.to.file())
    }

    /// Whether the promotion of `m` is the one the input asks for.
    fn promotion_fits(&self, cfg: &VariantConfig, m: &Move) -> bool {
        match (m.promotion, self.promotion) {
            (None, None) => true,
            (None, Some(_)) => false,
            (Some(p), Some(q)) => p == q,
            (Some(p), None) => {
                cfg.promotion.len() == 1 || (self.auto_queen && cfg.promotion.first() == Some(&p))
            }
        }
    }
}

impl Reading {
    fn matches(&self, cfg: &VariantConfig, m: &Move) -> bool {
        match *self {
            Reading::Board(b) => b.fits(m) && b.promotion_fits(cfg, m),
            Reading::Castle(side) => m.kind == MoveKind::Castle(side),
            Reading::Drop { role, to } => m.kind == MoveKind::Drop && m.role == role && m.to == to,
        }
    }
}

/// Everything read from the input.
struct Parsed {
    readings: Vec<Reading>,
    /// The compact text to compare with the SAN of each legal move.
    exact: Option<String>,
}

/// Whether an optional constraint admits `value` (no constraint admits everything).
fn accepts<T: PartialEq>(constraint: Option<T>, value: T) -> bool {
    constraint.map_or(true, |c| c == value)
}

/// A file letter, either case.
fn file_of(c: u8) -> Option<u8> {
    let f = c.to_ascii_lowercase().wrapping_sub(b'a');
    (f < 8).then_some(f)
}

/// A rank digit, 1 to 8.
fn rank_of(c: u8) -> Option<u8> {
    let r = c.wrapping_sub(b'1');
    (r < 8).then_some(r)
}

fn algebraic(file: u8, rank: u8) -> Option<Square> {
    Some(Square::new(file_of(file)?, rank_of(rank)?))
}

fn read(
    cfg: &VariantConfig,
    turn: Color,
    norm: &Normalised,
    input: &str,
) -> Result<Parsed, MoveError> {
    let words: Vec<&str> = norm.text.split(' ').filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return Err(syntax(input));
    }
    if let Some(i) = words.iter().position(|w| w.eq_ignore_ascii_case("to")) {
        if i == 0 || i + 1 == words.len() {
            return Err(syntax(input));
        }
        let (from, to) = (&words[..i].concat(), &words[i + 1..].concat());
        let reading = to_form(cfg, turn, from, to, input)?;
        return Ok(Parsed {
            readings: vec![reading],
            exact: None,
        });
    }
    let compact = words.concat();
    let bytes = compact.as_bytes();
    let readings = if compact.contains(['@', '*']) {
        vec![drop_reading(bytes).ok_or_else(|| syntax(input))?]
    } else if let Some(side) = castling(bytes) {
        vec![Reading::Castle(side)]
    } else if bytes.iter().all(u8::is_ascii_digit) {
        vec![iccf(bytes).ok_or_else(|| syntax(input))?]
    } else {
        let has_upper = bytes.iter().any(u8::is_ascii_uppercase);
        let has_lower = bytes.iter().any(u8::is_ascii_lowercase);
        let case_decides = norm.figurine || (has_upper && has_lower);
        let r = san_readings(bytes, case_decides);
        if r.is_empty() {
            return Err(syntax(input));
        }
        r.into_iter().map(Reading::Board).collect()
    };
    Ok(Parsed {
        readings,
        exact: Some(compact),
    })
}

/// `O-O`, `0-0`, `o-o-o`, `OO`, ...
fn castling(s: &[u8]) -> Option<CastlingSide> {
    let mut n = 0;
    for &c in s {
        match c {
            b'-' => {}
            b'o' | b'O' | b'0' => n += 1,
            _ => return None,
        }
    }
    match n {
        2 => Some(CastlingSide::KingSide),
        3 => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// `N@d1`, `n@d1`, `N*d1`, `@d4` (a pawn).
fn drop_reading(s: &[u8]) -> Option<Reading> {
    let at = s.iter().position(|&c| c == b'@' || c == b'*')?;
    let role = match &s[..at] {
        [] => Role::Pawn,
        [c] => Role::from_char(*c as char)?,
        _ => return None,
    };
    match &s[at + 1..] {
        [f, r] => Some(Reading::Drop {
            role,
            to: algebraic(*f, *r)?,
        }),
        _ => None,
    }
}

/// ICCF numeric: `5254`, `57581`.
fn iccf(s: &[u8]) -> Option<Reading> {
    if s.len() != 4 && s.len() != 5 {
        return None;
    }
    let digit = |i: usize| s[i].wrapping_sub(b'1');
    let (ff, fr, tf, tr) = (digit(0), digit(1), digit(2), digit(3));
    if ff >= 8 || fr >= 8 || tf >= 8 || tr >= 8 {
        return None;
    }
    let promotion = match s.get(4) {
        None => None,
        Some(b'1') => Some(Role::Queen),
        Some(b'2') => Some(Role::Rook),
        Some(b'3') => Some(Role::Bishop),
        Some(b'4') => Some(Role::Knight),
        Some(_) => return None,
    };
    Some(Reading::Board(BoardReading {
        role: None,
        from_file: Some(ff),
        from_rank: Some(fr),
        to: Square::new(tf, tr),
        promotion,
        pawn_file_only: false,
        capture_marked: false,
        auto_queen: false,
    }))
}

/// SAN and long algebraic, in every reading the letter case allows.
fn san_readings(s: &[u8], case_decides: bool) -> Vec<BoardReading> {
    let mut end = s.len();
    let mut promotion = None;
    if end > 0 && s[end - 1].is_ascii_alphabetic() {
        let Some(role) = Role::from_char(s[end - 1] as char) else {
            return Vec::new();
        };
        promotion = Some(role);
        end -= 1;
        if end > 0 && s[end - 1] == b'=' {
            end -= 1;
        }
    }
    if end < 2 {
        return Vec::new();
    }
    let Some(to) = algebraic(s[end - 2], s[end - 1]) else {
        return Vec::new();
    };
    let mut prefix = &s[..end - 2];
    let mut capture_marked = false;
    if let [rest @ .., marker @ (b'x' | b'X' | b':' | b'-')] = prefix {
        capture_marked = *marker != b'-';
        prefix = rest;
    }
    let mut out = Vec::new();
    let mut push = |role, from_file, from_rank, pawn_file_only| {
        out.push(BoardReading {
            role,
            from_file,
            from_rank,
            to,
            promotion,
            pawn_file_only,
            capture_marked,
            auto_queen: false,
        })
    };
    let Some(&first) = prefix.first() else {
        push(Some(Role::Pawn), None, None, false);
        return out;
    };
    // Only b is both a piece and a file. Followed by a digit it is a square (`b1c3`);
    // otherwise mixed case decides, and without it both readings are tried.
    let (as_piece, as_file) = match first {
        b'B' | b'b' if prefix.get(1).is_some_and(u8::is_ascii_digit) && !case_decides => {
            (false, true)
        }
        b'B' if case_decides => (true, false),
        b'b' if case_decides => (false, true),
        b'B' | b'b' => (true, true),
        c => (Role::from_char(c as char).is_some(), file_of(c).is_some()),
    };
    if as_piece {
        if let (Some(role), Some((f, r))) =
            (Role::from_char(first as char), disambiguation(&prefix[1..]))
        {
            push(Some(role), f, r, false);
        }
    }
    if as_file {
        match disambiguation(prefix) {
            Some((Some(f), Some(r))) => push(None, Some(f), Some(r), false),
            Some((Some(f), None)) => push(Some(Role::Pawn), Some(f), None, true),
            _ => {}
        }
    }
    out
}

/// The origin hint of SAN: nothing, a file, a rank, or a square.
fn disambiguation(s: &[u8]) -> Option<(Option<u8>, Option<u8>)> {
    match *s {
        [] => Some((None, None)),
        [c] => match (file_of(c), rank_of(c)) {
            (Some(f), _) => Some((Some(f), None)),
            (_, Some(r)) => Some((None, Some(r))),
            _ => None,
        },
        [f, r] => Some((Some(file_of(f)?), Some(rank_of(r)?))),
        _ => None,
    }
}

/// `E2 TO E4`, `K2 TO K4`, `QN1 TO QB3`, `E7 TO E8=N`.
fn to_form(
    cfg: &VariantConfig,
    turn: Color,
    from: &str,
    to: &str,
    input: &str,
) -> Result<Reading, MoveError> {
    let from = square_word(cfg, turn, from)?.ok_or_else(|| syntax(input))?;
    let (to, promotion) = match to.as_bytes() {
        [.., d, b'=', p] | [.., d, p] if d.is_ascii_digit() && p.is_ascii_alphabetic() => {
            let role = Role::from_char(*p as char).ok_or_else(|| syntax(input))?;
            let cut = to.len()
                - if to.as_bytes()[to.len() - 2] == b'=' {
                    2
                } else {
                    1
                };
            (&to[..cut], Some(role))
        }
        _ => (to, None),
    };
    let to = square_word(cfg, turn, to)?.ok_or_else(|| syntax(input))?;
    Ok(Reading::Board(BoardReading {
        role: None,
        from_file: Some(from.file()),
        from_rank: Some(from.rank()),
        to,
        promotion,
        pawn_file_only: false,
        capture_marked: false,
        auto_queen: true,
    }))
}

/// Every descriptive file name of the standard board.
const DESCRIPTIVE_NAMES: [&str; 8] = ["QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"];

/// A square written `e4` or descriptively from the mover's side (`K4`, `QN1`, `QKT1`).
/// `Ok(None)` when the word is neither.
fn square_word(cfg: &VariantConfig, turn: Color, word: &str) -> Result<Option<Square>, MoveError> {
    let b = word.as_bytes();
    if let [f, r] = *b {
        if let Some(sq) = algebraic(f, r) {
            return Ok(Some(sq));
        }
    }
    let Some(split) = b.iter().position(u8::is_ascii_digit) else {
        return Ok(None);
    };
    let (letters, digits) = word.split_at(split);
    if letters.is_empty() || digits.len() != 1 || !letters.bytes().all(|c| c.is_ascii_alphabetic())
    {
        return Ok(None);
    }
    let mut name = letters.to_ascii_uppercase();
    // The older abbreviation Kt for the knight: QKT, KKT.
    if name.len() == 3 && name.ends_with("KT") {
        name.replace_range(1.., "N");
    }
    let Some(file) = cfg.descriptive_files.iter().position(|f| *f == name) else {
        // A file name of another board (`KB` in Los Alamos chess): say which ones exist.
        if DESCRIPTIVE_NAMES.contains(&name.as_str()) {
            return Err(MoveError::Illegal {
                reason: format!(
                    "{} has no {name} file; its files are {}",
                    cfg.variant.display_name(),
                    cfg.descriptive_files.join(", ")
                ),
                suggestions: Vec::new(),
            });
        }
        return Ok(None);
    };
    let r = digits.as_bytes()[0] - b'0';
    if r == 0 || r > cfg.height {
        return Err(MoveError::Illegal {
            reason: format!(
                "there is no rank {r} on the {}x{} board",
                cfg.width, cfg.height
            ),
            suggestions: Vec::new(),
        });
    }
    let rank = match turn {
        Color::White => r - 1,
        Color::Black => cfg.height - r,
    };
    Ok(Some(Square::new(file as u8, rank)))
}

// ---------------------------------------------------------------------------------------
// Explaining a refusal
// ---------------------------------------------------------------------------------------

/// A reason found for one reading, with how specific it is.
enum Problem {
    NoPiece(String),
    Illegal(String),
}

type Finding = (u8, Problem);

/// Priorities: the more specific a reason, the higher.
mod prio {
    pub const OFF_BOARD: u8 = 10;
    pub const VARIANT: u8 = 9;
    pub const CHECK: u8 = 8;
    pub const KING_FIRST: u8 = 7;
    pub const RULE: u8 = 6;
    pub const PROMOTION: u8 = 5;
    pub const OWN_PIECE: u8 = 4;
    pub const NOTHING_TO_TAKE: u8 = 3;
    pub const FROM_SQUARE: u8 = 2;
    pub const NO_PIECE: u8 = 1;
}

fn illegal(p: u8, reason: impl Into<String>) -> Option<Finding> {
    Some((p, Problem::Illegal(reason.into())))
}

fn no_piece(p: u8, reason: impl Into<String>) -> Option<Finding> {
    Some((p, Problem::NoPiece(reason.into())))
}

fn diagnose(pos: &Position, legal: &MoveList, readings: &[Reading]) -> MoveError {
    let mut best: Option<Finding> = None;
    for r in readings {
        if let Some(f) = diagnose_one(pos, legal, r) {
            if best.as_ref().map_or(true, |b| f.0 > b.0) {
                best = Some(f);
            }
        }
    }
    let suggestions = suggest(pos, legal, readings);
    match best {
        Some((_, Problem::NoPiece(reason))) => MoveError::NoSuchPiece {
            reason,
            suggestions,
        },
        Some((_, Problem::Illegal(reason))) => MoveError::Illegal {
            reason,
            suggestions,
        },
        None => MoveError::Illegal {
            reason: "that move is not possible here".into(),
            suggestions,
        },
    }
}

fn home_rank(pos: &Position, color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => pos.config().height - 1,
    }
}

/// Chess#: pieces on the board wait until the king has been placed.
fn must_place_king_first(pos: &Position) -> bool {
    pos.config().drops.is_some_and(|d| d.king_before_moves) && pos.king_of(pos.turn()).is_none()
}

fn plural(role: Role) -> String {
    format!("{}s", role.name())
}

fn diagnose_one(pos: &Position, legal: &MoveList, reading: &Reading) -> Option<Finding> {
    match *reading {
        Reading::Castle(side) => diagnose_castle(pos, side),
        Reading::Drop { role, to } => diagnose_drop(pos, role, to),
        Reading::Board(b) => diagnose_board(pos, legal, &b),
    }
}

fn off_board(pos: &Position, sq: Square) -> Option<Finding> {
    let cfg = pos.config();
    (!cfg.board_mask().contains(sq)).then(|| {
        (
            prio::OFF_BOARD,
            Problem::Illegal(format!(
                "there is no square {sq} on the {}x{} board",
                cfg.width, cfg.height
            )),
        )
    })
}

fn diagnose_castle(pos: &Position, side: CastlingSide) -> Option<Finding> {
    let cfg = pos.config();
    if !cfg.castling {
        return illegal(
            prio::VARIANT,
            format!("there is no castling in {}", pos.variant().display_name()),
        );
    }
    let why = |reason: &str| {
        illegal(
            prio::RULE,
            format!("castling is not allowed here: {reason}"),
        )
    };
    let us = pos.turn();
    let them = us.opposite();
    let home = home_rank(pos, us);
    let mut rooks = pos.castling_rights() & Bitboard::rank(home);
    let rook = match side {
        CastlingSide::KingSide => rooks.filter(|r| r.file() > 4).last(),
        CastlingSide::QueenSide => rooks.find(|r| r.file() < 4),
    };
    let (Some(rook), Some(king)) = (rook, pos.king_of(us)) else {
        return why("your king or that rook has moved");
    };
    if pos.is_check() {
        return why("your king is in check");
    }
    let (king_to, rook_to) = match side {
        CastlingSide::KingSide => (Square::new(6, home), Square::new(5, home)),
        CastlingSide::QueenSide => (Square::new(2, home), Square::new(3, home)),
    };
    let occ = pos.occupied().without(king).without(rook);
    let path = attacks::between(king, king_to).with(king_to);
    let must_be_empty = path | attacks::between(king, rook) | Bitboard::from_square(rook_to);
    if (must_be_empty & occ).nonempty() {
        return why("the squares between your king and rook are not empty");
    }
    if path
        .into_iter()
        .any(|sq| pos.attackers_to(sq, them, occ).nonempty())
    {
        return why("your king would pass through or land on an attacked square");
    }
    why("the rules do not allow it in this position")
}

fn diagnose_drop(pos: &Position, role: Role, to: Square) -> Option<Finding> {
    let cfg = pos.config();
    let Some(rules) = cfg.drops else {
        return illegal(
            prio::VARIANT,
            format!(
                "there are no drops in {}: pieces are moved, not placed",
                pos.variant().display_name()
            ),
        );
    };
    if let Some(f) = off_board(pos, to) {
        return Some(f);
    }
    let us = pos.turn();
    let reserve = pos.reserve(us);
    if reserve[role.index()] == 0 {
        return illegal(prio::RULE, format!("you have no {role} in reserve"));
    }
    let home = home_rank(pos, us);
    if rules.first_rank_only && to.rank() != home {
        return illegal(prio::RULE, "pieces are placed only on your first rank");
    }
    if let Some(p) = pos.piece_at(to) {
        return illegal(
            prio::RULE,
            format!(
                "pieces are placed only on empty squares, and {to} holds a {}",
                p.role
            ),
        );
    }
    let others = Role::ALL
        .iter()
        .any(|r| *r != Role::Queen && reserve[r.index()] > 0);
    if rules.queen_last && role == Role::Queen && others {
        return illegal(
            prio::RULE,
            "the queen is placed last: place your other reserve pieces first",
        );
    }
    if role == Role::Pawn && (to.rank() == 0 || to.rank() == cfg.height - 1) {
        return illegal(
            prio::RULE,
            "pawns cannot be placed on the first or last rank",
        );
    }
    let attempt = Reading::Drop { role, to };
    pseudo_legal_reason(pos, &attempt)
        .or_else(|| illegal(prio::RULE, "that piece cannot be placed there now"))
}

/// For check variants: the move is possible but for the safety of the mover's king.
fn pseudo_legal_reason(pos: &Position, reading: &Reading) -> Option<Finding> {
    let cfg = pos.config();
    if !cfg.check_matters() {
        return None;
    }
    let m = pos
        .pseudo_legal_moves()
        .into_iter()
        .find(|m| reading.matches(cfg, m))?;
    let us = pos.turn();
    let checkers = pos.checkers();
    if checkers.nonempty() && m.role != Role::King {
        if let Some(k) = pos.king_of(us) {
            let after = pos.after(m);
            let still = after.attackers_to(k, us.opposite(), after.occupied()) & checkers;
            if still.nonempty() {
                return illegal(prio::CHECK, "your king is in check");
            }
        }
    }
    illegal(prio::CHECK, "it would leave your king in check")
}

/// A promotion typed without its piece (`b6=`, `b5b6=`): said as such, with the pieces
/// the variant promotes to, instead of "couldn't read".
fn missing_promotion(pos: &Position, text: &str) -> Option<MoveError> {
    let bare = text.trim_end().strip_suffix('=')?;
    if bare.is_empty() || bare.ends_with('=') {
        return None;
    }
    let cfg = pos.config();
    let names: Vec<&str> = cfg.promotion.iter().map(|r| r.name()).collect();
    let reason = match parse_move(pos, bare) {
        Ok(m) if m.promotion.is_none() => {
            "only a pawn reaching the last rank can promote".to_string()
        }
        Err(MoveError::Illegal { reason, .. }) if reason.contains("must promote") => format!(
            "a promotion names its piece after the =: one of {} ({bare}=Q)",
            names.join(", ")
        ),
        _ => return None,
    };
    Some(MoveError::Illegal {
        reason,
        suggestions: Vec::new(),
    })
}

fn diagnose_board(pos: &Position, legal: &MoveList, b: &BoardReading) -> Option<Finding> {
    let cfg = pos.config();
    let us = pos.turn();
    if let Some(f) = b.from().and_then(|f| off_board(pos, f)) {
        return Some(f);
    }
    if let Some(f) = off_board(pos, b.to) {
        return Some(f);
    }
    if let Some(role) = b.role {
        if !cfg.roles.contains(&role) {
            return illegal(
                prio::VARIANT,
                format!(
                    "there are no {} in {}",
                    plural(role),
                    pos.variant().display_name()
                ),
            );
        }
    }
    // The king's two-square step written as a move: explain it as castling.
    if let Some(from) = b.from() {
        let home = home_rank(pos, us);
        if accepts(b.role, Role::King)
            && pos.king_of(us) == Some(from)
            && from == Square::new(4, home)
            && b.to.rank() == home
            && (b.to.file() == 6 || b.to.file() == 2)
        {
            let side = if b.to.file() == 6 {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            return diagnose_castle(pos, side);
        }
    }
    if let Some(f) = pseudo_legal_reason(pos, &Reading::Board(*b)) {
        return Some(f);
    }
    if must_place_king_first(pos) {
        return illegal(
            prio::KING_FIRST,
            "place your king before moving pieces on the board",
        );
    }
    if let Some(f) = double_step(pos, b) {
        return Some(f);
    }
    let fitting: Vec<&Move> = legal.iter().filter(|m| b.fits(m)).collect();
    if !fitting.is_empty() {
        if fitting.iter().any(|m| m.promotion.is_some()) {
            if b.promotion.is_some() {
                let names: Vec<&str> = cfg.promotion.iter().map(|r| r.name()).collect();
                return illegal(
                    prio::PROMOTION,
                    format!("promote to one of: {}", names.join(", ")),
                );
            }
            let best = cfg.promotion.first().copied().unwrap_or(Role::Queen);
            return illegal(
                prio::PROMOTION,
                format!(
                    "a pawn reaching the last rank must promote ({}={})",
                    b.to,
                    best.upper_char()
                ),
            );
        }
        if b.promotion.is_some() {
            return illegal(
                prio::PROMOTION,
                "only a pawn reaching the last rank can promote",
            );
        }
    }
    if let Some(p) = pos.piece_at(b.to) {
        if p.color == us {
            return illegal(
                prio::OWN_PIECE,
                format!("your own {} stands on {}", p.role, b.to),
            );
        }
    }
    if (b.pawn_file_only || b.capture_marked)
        && pos.piece_at(b.to).is_none()
        && pos.ep_square() != Some(b.to)
    {
        return illegal(
            prio::NOTHING_TO_TAKE,
            format!("there is nothing to capture on {}", b.to),
        );
    }
    if let Some(from) = b.from() {
        return match pos.piece_at(from) {
            Some(p) if p.color == us => match b.role {
                Some(role) if role != p.role => no_piece(
                    prio::FROM_SQUARE,
                    format!("your piece on {from} is a {}, not a {role}", p.role),
                ),
                _ => illegal(
                    prio::FROM_SQUARE,
                    format!("your {} on {from} cannot move to {}", p.role, b.to),
                ),
            },
            _ => no_piece(
                prio::FROM_SQUARE,
                format!("there is no piece of yours on {from}"),
            ),
        };
    }
    let role = b.role.unwrap_or(Role::Pawn);
    let mut place = String::new();
    if let Some(f) = b.from_file {
        place = format!(" on the {}-file", (b'a' + f) as char);
    } else if let Some(r) = b.from_rank {
        place = format!(" on rank {}", r + 1);
    }
    let have = pos
        .pieces(us, role)
        .filter(|sq| accepts(b.from_file, sq.file()))
        .filter(|sq| accepts(b.from_rank, sq.rank()))
        .count();
    if have == 0 {
        no_piece(prio::NO_PIECE, format!("you have no {role}{place}"))
    } else {
        no_piece(
            prio::NO_PIECE,
            format!("you have no {role}{place} that can reach {}", b.to),
        )
    }
}

/// A pawn's two-square step in a variant without it.
fn double_step(pos: &Position, b: &BoardReading) -> Option<Finding> {
    let cfg = pos.config();
    if cfg.double_step || b.pawn_file_only || b.role.is_some_and(|r| r != Role::Pawn) {
        return None;
    }
    let us = pos.turn();
    let (start, from_rank) = match us {
        Color::White => (1, b.to.rank().checked_sub(2)?),
        Color::Black => (cfg.height - 2, b.to.rank() + 2),
    };
    if from_rank != start {
        return None;
    }
    let from = Square::new(b.to.file(), from_rank);
    let fits = accepts(b.from_file, from.file())
        && accepts(b.from_rank, from.rank())
        && pos.pieces(us, Role::Pawn).contains(from);
    fits.then(|| {
        (
            prio::RULE,
            Problem::Illegal(format!(
                "pawns move one square only in {}",
                pos.variant().display_name()
            )),
        )
    })
}

/// Up to five legal moves close to what the player typed: the same destination first,
/// then the same origin, then the same kind of piece; among equals, the ones landing
/// nearest to the square the player named.
fn suggest(pos: &Position, legal: &MoveList, readings: &[Reading]) -> Vec<String> {
    let mut scored: Vec<(u8, u8, usize)> = legal
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let score = readings
                .iter()
                .map(|r| closeness(pos, r, m))
                .max()
                .unwrap_or(0);
            let distance = readings
                .iter()
                .filter_map(|r| target(r).map(|to| distance(to, m.to)))
                .min()
                .unwrap_or(0);
            (score, distance, i)
        })
        .filter(|&(score, _, _)| score > 0)
        .collect();
    scored.sort_by_key(|&(score, distance, i)| (std::cmp::Reverse(score), distance, i));
    let mut picked: Vec<Move> = scored.into_iter().map(|(_, _, i)| legal[i]).collect();
    if picked.is_empty() {
        // Nothing close is legal: show what the player has to do instead.
        picked = if must_place_king_first(pos) {
            legal
                .iter()
                .filter(|m| m.role == Role::King)
                .copied()
                .collect()
        } else if pos.is_check() {
            legal.to_vec()
        } else {
            Vec::new()
        };
    }
    let mut out: Vec<String> = Vec::new();
    for m in picked {
        let s = san(pos, m);
        if !out.contains(&s) {
            out.push(s);
        }
        if out.len() == 5 {
            break;
        }
    }
    out
}

/// The destination the player named, if any.
fn target(reading: &Reading) -> Option<Square> {
    match *reading {
        Reading::Board(b) => Some(b.to),
        Reading::Drop { to, .. } => Some(to),
        Reading::Castle(_) => None,
    }
}

/// Squared straight-line distance between two squares.
fn distance(a: Square, b: Square) -> u8 {
    let (df, dr) = (a.file().abs_diff(b.file()), a.rank().abs_diff(b.rank()));
    df * df + dr * dr
}

fn closeness(pos: &Position, reading: &Reading, m: &Move) -> u8 {
    match *reading {
        Reading::Castle(_) => match m.kind {
            MoveKind::Castle(_) => 4,
            _ if m.role == Role::King => 1,
            _ => 0,
        },
        Reading::Drop { role, to } => {
            4 * u8::from(m.to == to)
                + 2 * u8::from(m.is_drop() && m.role == role)
                + u8::from(m.role == role)
        }
        Reading::Board(b) => {
            let on_board = !m.is_drop();
            let from_fits = on_board
                && (b.from_file.is_some() || b.from_rank.is_some())
                && accepts(b.from_file, m.from.file())
                && accepts(b.from_rank, m.from.rank());
            let role = b
                .role
                .or_else(|| b.from().and_then(|f| pos.role_at(f)))
                .unwrap_or(Role::Pawn);
            4 * u8::from(m.to == b.to) + 2 * u8::from(from_fits) + u8::from(m.role == role)
        }
    }
}

#[cfg(test)]
mod tests;
