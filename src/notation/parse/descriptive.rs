//! Classic English descriptive notation, as a correspondence player of the 1970s writes
//! it: `P-K4`, `N-KB3`, `PxP`, `BxN`, `B-QN5`, `QxP/Q4`, `KRP-R3`, `N/Q2-B4`, `P-K8=Q`
//! (or `P-K8(Q)`, `P-K8/Q`), `PxP e.p.`, `QxP ch`, and `MOVE KP TO K4`.
//!
//! Everything is seen from the mover's side. Files are named after the pieces that stand
//! on them at the start (the variant's `descriptive_files`), the same for both players;
//! ranks count from the mover's first rank. A square may leave its side out (`B3` is QB3
//! or KB3). A piece is its letter (`Kt` for the knight too), with an optional qualifier:
//!
//! - a pawn by the file it stands on now (`KP`, `QBP`, or `BP` for either bishop's file);
//! - a knight or rook by the half of the board it stands on now (`KN`, `QR`: the files
//!   whose names begin with K or Q), since where it started cannot be known after moves;
//! - a bishop by the colour of its squares (`KB` is the one on the colour of the KB
//!   file's first-rank square), which never changes.
//!
//! `/` or a bracket after a piece names where it stands (`QxP/Q4`, `R(QR1)-Q1`). The input
//! matches every legal move it could describe; the caller decides between one, several
//! and none.

use super::reading::BoardReading;
use super::MoveError;
use crate::rules::{Color, Move, MoveKind, Position, Role, Square, VariantConfig};

/// Every descriptive file name of the standard board.
pub(super) const DESCRIPTIVE_NAMES: [&str; 8] = ["QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"];

/// Trailing words of check and mate, left out before a move is read (`QxP ch`).
pub(super) const CHECK_WORDS: [&str; 6] = ["ch", "check", "dis", "dbl", "mate", "checkmate"];

/// A set of squares as named: some files, and perhaps a rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    files: u16,
    rank: Option<u8>,
}

impl Place {
    const ANY: Place = Place {
        files: u16::MAX,
        rank: None,
    };

    fn contains(&self, sq: Square) -> bool {
        self.files & (1 << sq.file()) != 0 && self.rank.map_or(true, |r| r == sq.rank())
    }

    /// The one square named, if the place is a whole square.
    fn single(&self) -> Option<Square> {
        let rank = self.rank?;
        (self.files.count_ones() == 1).then(|| Square::new(self.files.trailing_zeros() as u8, rank))
    }
}

/// A piece as named: its kind, where it may stand, and (a bishop's qualifier) the colour
/// of its squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Man {
    pub(super) role: Role,
    place: Place,
    parity: Option<u8>,
}

impl Man {
    fn fits(&self, sq: Square) -> bool {
        self.place.contains(sq)
            && self
                .parity
                .map_or(true, |p| (sq.file() + sq.rank()) % 2 == p)
    }

    /// The piece with its qualifier and square left out.
    fn bare(self) -> Man {
        Man {
            role: self.role,
            place: Place::ANY,
            parity: None,
        }
    }
}

/// What the move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    /// `-` and a square: a move that captures nothing.
    Quiet(Place),
    /// `TO` and a square: a move there, capture or not.
    Onto(Place),
    /// `x` and the piece taken.
    Capture(Man),
}

/// One reading of descriptive input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Descriptive {
    pub(super) mover: Man,
    pub(super) target: Target,
    promotion: Option<Role>,
    en_passant: bool,
    /// Promote to the variant's strongest piece when none is named (the `TO` form).
    auto_queen: bool,
}

/// The square of the piece `m` takes (for en passant, beside the destination).
fn taken_square(m: &Move) -> Square {
    match m.kind {
        MoveKind::EnPassant => Square::new(m.to.file(), m.from.rank()),
        _ => m.to,
    }
}

impl Descriptive {
    /// Whether `m` is a move this reading describes.
    pub(super) fn matches(&self, cfg: &VariantConfig, m: &Move) -> bool {
        if matches!(m.kind, MoveKind::Drop | MoveKind::Castle(_))
            || m.role != self.mover.role
            || !self.mover.fits(m.from)
            || (self.en_passant && m.kind != MoveKind::EnPassant)
        {
            return false;
        }
        let promotion = match (m.promotion, self.promotion) {
            (None, None) => true,
            (Some(p), Some(q)) => p == q,
            (Some(p), None) => {
                cfg.promotion.len() == 1 || (self.auto_queen && cfg.promotion.first() == Some(&p))
            }
            (None, Some(_)) => false,
        };
        promotion && self.target_fits(m)
    }

    /// Whether the destination or the piece taken is the one named.
    pub(super) fn target_fits(&self, m: &Move) -> bool {
        match self.target {
            Target::Quiet(p) => m.capture.is_none() && p.contains(m.to),
            Target::Onto(p) => p.contains(m.to),
            Target::Capture(man) => {
                m.capture == Some(man.role)
                    && (man.fits(taken_square(m))
                        || (m.kind == MoveKind::EnPassant && man.place.contains(m.to)))
            }
        }
    }

    /// Whether the piece of `m` is the one named (its kind, qualifier and square).
    pub(super) fn mover_fits(&self, m: &Move) -> bool {
        m.role == self.mover.role && self.mover.fits(m.from)
    }

    /// The same reading with `-` read as `TO` (a capture allowed).
    pub(super) fn onto(self) -> Descriptive {
        match self.target {
            Target::Quiet(p) => Descriptive {
                target: Target::Onto(p),
                ..self
            },
            _ => self,
        }
    }

    /// The same reading with the mover's qualifier and square left out.
    pub(super) fn any_mover(self) -> Descriptive {
        Descriptive {
            mover: self.mover.bare(),
            ..self
        }
    }

    /// The reading as board moves onto each square it may mean in `pos` (for a capture,
    /// the squares of the pieces it names), for explaining a refusal.
    pub(super) fn expand(&self, pos: &Position) -> Vec<BoardReading> {
        let them = pos.turn().opposite();
        let from = self.mover.place.single();
        pos.config()
            .board_mask()
            .filter(|&sq| match self.target {
                Target::Quiet(p) | Target::Onto(p) => p.contains(sq),
                Target::Capture(man) => pos
                    .piece_at(sq)
                    .is_some_and(|pc| pc.color == them && pc.role == man.role && man.fits(sq)),
            })
            .map(|to| BoardReading {
                role: Some(self.mover.role),
                from_file: from.map(|f| f.file()),
                from_rank: from.map(|f| f.rank()),
                to,
                promotion: self.promotion,
                pawn_file_only: false,
                capture_marked: matches!(self.target, Target::Capture(_)),
                auto_queen: self.auto_queen,
            })
            .collect()
    }
}

/// Every descriptive reading of `text` (the input's words joined, annotations and check
/// words left out; `en_passant` when a separate `e.p.` was) for `turn` to move on a board shaped like `cfg`'s. None when the text
/// is not descriptive; an error when it names a file the board does not have.
pub(super) fn read(
    cfg: &VariantConfig,
    turn: Color,
    text: &str,
    en_passant: bool,
) -> Result<Vec<Descriptive>, MoveError> {
    let Some((body, glued_ep)) = plain(text) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (body, promotion) in promotions(&body) {
        let Some(at) = body.find(['-', 'X']) else {
            continue;
        };
        let (mover, rest) = (&body[..at], &body[at + 1..]);
        let Some(mover) = man(cfg, turn, turn, mover)? else {
            continue;
        };
        let target = if body.as_bytes()[at] == b'-' {
            match place(cfg, turn, rest, true)? {
                Some(p) => Target::Quiet(p),
                None => continue,
            }
        } else {
            match man(cfg, turn, turn.opposite(), rest)? {
                Some(m) => Target::Capture(m),
                None => continue,
            }
        };
        out.push(Descriptive {
            mover,
            target,
            promotion,
            en_passant: en_passant || glued_ep,
            auto_queen: false,
        });
    }
    Ok(out)
}

/// The `TO` form with a piece for its origin: `MOVE KP TO K4`, `KN TO B3`.
pub(super) fn read_to(
    cfg: &VariantConfig,
    turn: Color,
    from: &str,
    to: &str,
    promotion: Option<Role>,
) -> Result<Option<Descriptive>, MoveError> {
    let (Some((from, false)), Some((to, false))) = (plain(from), plain(to)) else {
        return Ok(None);
    };
    let (Some(mover), Some(place)) = (man(cfg, turn, turn, &from)?, place(cfg, turn, &to, true)?)
    else {
        return Ok(None);
    };
    Ok(Some(Descriptive {
        mover,
        target: Target::Onto(place),
        promotion,
        en_passant: false,
        auto_queen: true,
    }))
}

/// The text upper-cased, `Kt` made `N`, glued check marks and `e.p.` cut off (and whether
/// `e.p.` was there). None for mixed case other than descriptive's own (`x`, `Kt`): `N-b3`
/// is SAN only.
fn plain(text: &str) -> Option<(String, bool)> {
    let mut s = text;
    let mut ep = false;
    'cut: loop {
        for suffix in ["ch", "mate", "check", "e.p.", "e.p", "ep", "+", "#"] {
            let n = suffix.len();
            if s.len() > n && s[s.len() - n..].eq_ignore_ascii_case(suffix) {
                s = &s[..s.len() - n];
                ep |= suffix.starts_with('e');
                continue 'cut;
            }
        }
        break;
    }
    let s = s.replace("Kt", "N").replace("kt", "n");
    let letters = s
        .chars()
        .filter(|c| c.is_ascii_alphabetic() && !matches!(c, 'x' | 'X'));
    let (upper, lower) = letters.fold((false, false), |(u, l), c| {
        (u || c.is_ascii_uppercase(), l || c.is_ascii_lowercase())
    });
    (!(s.is_empty() || upper && lower)).then(|| (s.to_ascii_uppercase().replace("KT", "N"), ep))
}

/// The text with and without a promotion at its end: `=Q`, `(Q)`, `/Q` (which might also
/// be a square's file, so both are tried) and `Q` right after the rank.
fn promotions(s: &str) -> Vec<(String, Option<Role>)> {
    let b = s.as_bytes();
    let piece = |c: u8| Role::from_char(c as char).filter(|r| *r != Role::Pawn);
    match b {
        [.., b'(', p, b')'] if piece(*p).is_some() => {
            vec![(s[..s.len() - 3].to_string(), piece(*p))]
        }
        [.., b'=', p] if piece(*p).is_some() => vec![(s[..s.len() - 2].to_string(), piece(*p))],
        [.., b'/', p] if piece(*p).is_some() => vec![
            (s[..s.len() - 2].to_string(), piece(*p)),
            (s.to_string(), None),
        ],
        [.., d, p] if d.is_ascii_digit() && piece(*p).is_some() => {
            vec![(s[..s.len() - 1].to_string(), piece(*p))]
        }
        _ => vec![(s.to_string(), None)],
    }
}

/// The files named `name`: a file's whole name (`KB`), or a side-less one (`B`) for both
/// files ending so. None when it is no file name; an error when it is one of another board.
fn files(cfg: &VariantConfig, name: &str) -> Result<Option<u16>, MoveError> {
    let mut mask = 0u16;
    for (i, f) in cfg.descriptive_files.iter().enumerate() {
        if *f == name || (name.len() == 1 && f.len() == 2 && f.ends_with(name)) {
            mask |= 1 << i;
        }
    }
    if mask != 0 {
        return Ok(Some(mask));
    }
    if DESCRIPTIVE_NAMES.contains(&name) || ["B", "N", "R"].contains(&name) {
        return Err(super::reading::no_such_file(cfg, name));
    }
    Ok(None)
}

/// The files of the king's side (`K`) or the queen's (`Q`): those whose names begin so.
fn side(cfg: &VariantConfig, letter: char) -> u16 {
    cfg.descriptive_files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.starts_with(letter))
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

/// The colour (as the parity of file plus rank) of the squares of `owner`'s bishop named
/// `KB` or `QB`: that of the file's square on `owner`'s first rank. None on a board
/// without that file.
fn bishop_parity(cfg: &VariantConfig, owner: Color, letter: char) -> Option<u8> {
    let name = if letter == 'K' { "KB" } else { "QB" };
    let file = cfg.descriptive_files.iter().position(|f| *f == name)? as u8;
    let home = match owner {
        Color::White => 0,
        Color::Black => cfg.height - 1,
    };
    Some((file + home) % 2)
}

/// A square or part of one seen from `turn`'s side: `KB3`, `B3`, `K`, `4`. With `whole`,
/// both the file and the rank must be there.
fn place(
    cfg: &VariantConfig,
    turn: Color,
    word: &str,
    whole: bool,
) -> Result<Option<Place>, MoveError> {
    let split = word
        .bytes()
        .position(|c| !c.is_ascii_alphabetic())
        .unwrap_or(word.len());
    let (letters, digits) = word.split_at(split);
    if (letters.is_empty() && digits.is_empty())
        || (whole && (letters.is_empty() || digits.is_empty()))
        || digits.len() > 1
        || !digits.bytes().all(|c| c.is_ascii_digit())
    {
        return Ok(None);
    }
    let files = if letters.is_empty() {
        u16::MAX
    } else {
        match files(cfg, letters)? {
            Some(f) => f,
            None => return Ok(None),
        }
    };
    let rank = match digits.bytes().next() {
        None => None,
        Some(d) => {
            let r = d - b'0';
            if r == 0 || r > cfg.height {
                return Err(super::reading::no_such_rank(cfg, r));
            }
            Some(match turn {
                Color::White => r - 1,
                Color::Black => cfg.height - r,
            })
        }
    };
    Ok(Some(Place { files, rank }))
}

/// A piece of `owner`'s as named from `turn`'s side: `P`, `KP`, `QBP`, `RP`, `N`, `KN`,
/// `QB`, `R/QR1`, `R(1)`, `P/Q4`.
fn man(
    cfg: &VariantConfig,
    turn: Color,
    owner: Color,
    word: &str,
) -> Result<Option<Man>, MoveError> {
    let (head, at) = match word.find(['/', '(']) {
        Some(i) if word.as_bytes()[i] == b'(' => match word[i + 1..].strip_suffix(')') {
            Some(inside) => (&word[..i], Some(inside)),
            None => return Ok(None),
        },
        Some(i) => (&word[..i], Some(&word[i + 1..])),
        None => (word, None),
    };
    let Some((&last, qualifier)) = head.as_bytes().split_last() else {
        return Ok(None);
    };
    let Some(role) = Role::from_char(last as char) else {
        return Ok(None);
    };
    let qualifier = &head[..qualifier.len()];
    let mut place = Place::ANY;
    let mut parity = None;
    match (role, qualifier) {
        (_, "") => {}
        (Role::Pawn, q) => match files(cfg, q)? {
            Some(f) => place.files = f,
            None => return Ok(None),
        },
        (Role::Bishop, q @ ("K" | "Q")) => {
            let letter = q.chars().next().unwrap_or('K');
            match bishop_parity(cfg, owner, letter) {
                Some(p) => parity = Some(p),
                None => place.files = side(cfg, letter),
            }
        }
        (Role::Knight | Role::Rook, q @ ("K" | "Q")) => {
            place.files = side(cfg, q.chars().next().unwrap_or('K'));
        }
        _ => return Ok(None),
    }
    if let Some(at) = at {
        let Some(p) = self::place(cfg, turn, at, false)? else {
            return Ok(None);
        };
        place.files &= p.files;
        place.rank = p.rank;
    }
    Ok(Some(Man {
        role,
        place,
        parity,
    }))
}
