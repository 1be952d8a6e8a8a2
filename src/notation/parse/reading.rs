//! What the normalised text could mean: every reading of it (SAN, a drop, castling, long
//! algebraic or UCI, `E2 TO E4` with algebraic or descriptive squares, descriptive
//! notation, ICCF numeric), and whether a move fits a reading.

use super::descriptive::{self, Descriptive, CHECK_WORDS, DESCRIPTIVE_NAMES};
use super::normalise::{syntax, Normalised};
use super::MoveError;
use crate::rules::{CastlingSide, Color, Move, MoveKind, Role, Square, VariantConfig};

/// One way to read the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reading {
    /// A move on the board.
    Board(BoardReading),
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// A piece from the reserve.
    Drop { role: Role, to: Square },
    /// Descriptive notation (`P-K4`, `NxB`, `MOVE KP TO K4`).
    Descriptive(Descriptive),
}

/// A move on the board, as far as the input says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BoardReading {
    /// The moving piece; `None` when the origin square is given and the piece is whatever
    /// stands there (`e2e4`, `E2 TO E4`, `5254`).
    pub(super) role: Option<Role>,
    pub(super) from_file: Option<u8>,
    pub(super) from_rank: Option<u8>,
    pub(super) to: Square,
    /// The piece promoted to, if the input names one.
    pub(super) promotion: Option<Role>,
    /// A pawn named by its file alone (`exd5`, `ed5`): a capture from another file.
    pub(super) pawn_file_only: bool,
    /// The input marks a capture (`Nxf3`, `e4xd5`, `B:c4`): a move that captures nothing
    /// does not fit, however much else matches. A player whose picture of the board is
    /// wrong is told so rather than given a quiet move they did not mean.
    pub(super) capture_marked: bool,
    /// Promote to the variant's strongest piece when none is named (the `E7 TO E8` form).
    pub(super) auto_queen: bool,
}

impl BoardReading {
    /// The origin square, when the input gives it completely.
    pub(super) fn from(&self) -> Option<Square> {
        Some(Square::new(self.from_file?, self.from_rank?))
    }

    /// Whether `m` fits everything but the promotion.
    pub(super) fn fits(&self, m: &Move) -> bool {
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

    /// Whether `m` is a Chess960 castling typed as the king's move to its target square
    /// (`b1g1`), which reads so only where the target is two files or more away: a
    /// king's step of one file (or none) is the plain king move, or nothing.
    fn fits_king_step(&self, cfg: &VariantConfig, m: &Move) -> bool {
        let MoveKind::Castle(side) = m.kind else {
            return false;
        };
        let target = match side {
            CastlingSide::KingSide => 6,
            CastlingSide::QueenSide => 2,
        };
        cfg.chess960_castling
            && self.from() == Some(m.from)
            && self.to == Square::new(target, m.from.rank())
            && m.from.file().abs_diff(target) >= 2
            && accepts(self.role, Role::King)
            && !self.capture_marked
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
    /// Whether `m` is a move this reading describes, promotion included.
    pub(super) fn matches(&self, cfg: &VariantConfig, m: &Move) -> bool {
        match *self {
            Reading::Board(b) => {
                (b.fits(m) || b.fits_king_step(cfg, m)) && b.promotion_fits(cfg, m)
            }
            Reading::Castle(side) => m.kind == MoveKind::Castle(side),
            Reading::Drop { role, to } => m.kind == MoveKind::Drop && m.role == role && m.to == to,
            Reading::Descriptive(d) => d.matches(cfg, m),
        }
    }
}

/// Everything read from the input.
pub(super) struct Parsed {
    /// Every way the input can be read.
    pub(super) readings: Vec<Reading>,
    /// The compact text to compare with the SAN of each legal move.
    pub(super) exact: Option<String>,
}

/// Whether an optional constraint admits `value` (no constraint admits everything).
pub(super) fn accepts<T: PartialEq>(constraint: Option<T>, value: T) -> bool {
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

/// Every reading of the normalised text `norm`, for `turn` to move on a board shaped like
/// `cfg`'s; a syntax error (quoting `input`) when there is none.
pub(super) fn read(
    cfg: &VariantConfig,
    turn: Color,
    norm: &Normalised,
    input: &str,
) -> Result<Parsed, MoveError> {
    let mut words: Vec<&str> = norm.text.split(' ').filter(|w| !w.is_empty()).collect();
    // Check said in words (`QxP ch`, `N-B6 dis ch`) is ignored like SAN's `+`.
    while words.len() > 1
        && words
            .last()
            .is_some_and(|w| CHECK_WORDS.iter().any(|c| w.eq_ignore_ascii_case(c)))
    {
        words.pop();
    }
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
        let mut r: Vec<Reading> = san_readings(bytes, case_decides)
            .into_iter()
            .map(Reading::Board)
            .collect();
        // Descriptive readings beside SAN's. Where the text is descriptive, a hyphen
        // without a whole origin square before it is descriptive's (`N-B3`, `P-B4`,
        // `KB-B4`), not SAN's: SAN writes `Nb3`, `b4`.
        match descriptive::read(cfg, turn, &compact, norm.en_passant) {
            Ok(d) if !d.is_empty() => {
                // SAN's hyphen follows a whole origin square (`Nb1-c3`) only.
                r.retain(|r| !matches!(r, Reading::Board(b) if b.from().is_none() && compact.contains('-')));
                r.extend(d.into_iter().map(Reading::Descriptive));
            }
            Ok(_) => {}
            Err(e) if r.is_empty() => return Err(e),
            Err(_) => {}
        }
        if r.is_empty() {
            return Err(syntax(input));
        }
        r
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

/// `E2 TO E4`, `K2 TO K4`, `QN1 TO QB3`, `E7 TO E8=N`, `KP TO K4`.
fn to_form(
    cfg: &VariantConfig,
    turn: Color,
    from: &str,
    to: &str,
    input: &str,
) -> Result<Reading, MoveError> {
    let from_square = square_word(cfg, turn, from)?;
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
    let Some(from) = from_square else {
        // A piece for the origin: `MOVE KP TO K4`.
        return descriptive::read_to(cfg, turn, from, to, promotion)?
            .map(Reading::Descriptive)
            .ok_or_else(|| syntax(input));
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

/// The refusal of a descriptive file name that `cfg`'s board lacks (`KB` on the Los
/// Alamos board), naming the files it has.
pub(super) fn no_such_file(cfg: &VariantConfig, name: &str) -> MoveError {
    MoveError::Illegal {
        reason: format!(
            "{} has no {name} file; its files are {}",
            cfg.display_name,
            cfg.descriptive_files.join(", ")
        ),
        suggestions: Vec::new(),
    }
}

/// The refusal of a descriptive rank number beyond `cfg`'s board.
pub(super) fn no_such_rank(cfg: &VariantConfig, rank: u8) -> MoveError {
    MoveError::Illegal {
        reason: format!(
            "there is no rank {rank} on the {}x{} board",
            cfg.width, cfg.height
        ),
        suggestions: Vec::new(),
    }
}

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
            return Err(no_such_file(cfg, &name));
        }
        return Ok(None);
    };
    let r = digits.as_bytes()[0] - b'0';
    if r == 0 || r > cfg.height {
        return Err(no_such_rank(cfg, r));
    }
    let rank = match turn {
        Color::White => r - 1,
        Color::Black => cfg.height - r,
    };
    Ok(Some(Square::new(file as u8, rank)))
}
