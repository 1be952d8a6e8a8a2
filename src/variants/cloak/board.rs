//! The board of Cloak and Dagger Chess and its movement rules, pure.
//!
//! Every man carries its true role, which the referee always knows, its checker number
//! (1 to 8, the file it started on; 0 for pawns and promoted pieces) and whether it is
//! still cloaked. Moves follow the true role. Whether a move is legal never depends on
//! what the mover cannot know: a king is "in check" only when an enemy piece whose
//! identity is public (a pawn, a promoted piece, an uncloaked checker, one guessed right
//! or one that castled) attacks it, and only an uncloaked king must keep out of check.

use crate::rules::attacks;
use crate::rules::{Bitboard, CastlingSide, Color, Move, MoveKind, Role, Square};
use serde::{Deserialize, Serialize};

/// The roles of a standard set's back rank, which a set-up assigns to the eight checkers.
pub const SET: [Role; 8] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Rook,
    Role::Bishop,
    Role::Bishop,
    Role::Knight,
    Role::Knight,
];

/// The order a back rank holds until its owner sets it up (nobody sees it: every
/// checker is drawn as a disc until then).
pub const SET_ORDER: Arrangement = [
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::Queen,
    Role::King,
    Role::Bishop,
    Role::Knight,
    Role::Rook,
];

/// One man on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Man {
    /// Whose man it is.
    #[serde(with = "color_serde")]
    pub color: Color,
    /// What it truly is.
    #[serde(with = "role_serde")]
    pub role: Role,
    /// Its checker number, 1 to 8; 0 for a pawn or a promoted piece.
    pub id: u8,
    /// Whether it is still a checker whose identity the board does not show.
    pub cloaked: bool,
}

/// Colours in JSON as `w` and `b`.
pub mod color_serde {
    use crate::rules::Color;
    use serde::{Deserialize, Deserializer, Serializer};

    /// `w` or `b`.
    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match c {
            Color::White => "w",
            Color::Black => "b",
        })
    }

    /// `w` or `b`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "w" => Ok(Color::White),
            "b" => Ok(Color::Black),
            other => Err(serde::de::Error::custom(format!("bad colour {other}"))),
        }
    }
}

/// Roles in JSON as their upper-case letter.
pub mod role_serde {
    use crate::rules::Role;
    use serde::{Deserialize, Deserializer, Serializer};

    /// `K`, `Q`, `R`, `B`, `N` or `P`.
    pub fn serialize<S: Serializer>(r: &Role, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&r.upper_char().to_string())
    }

    /// `K`, `Q`, `R`, `B`, `N` or `P`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
        let s = String::deserialize(d)?;
        s.chars()
            .next()
            .and_then(Role::from_char)
            .ok_or_else(|| serde::de::Error::custom(format!("bad role {s}")))
    }
}

/// A back rank as eight roles, file a first.
pub type Arrangement = [Role; 8];

/// Why a back rank was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArrangementError {
    /// Not eight letters.
    #[error("write eight letters, one per file from a to h, such as RNBQKBNR")]
    Length,
    /// A letter that is none of K Q R B N.
    #[error("'{}' is not one of K Q R B N: write eight letters such as RNBQKBNR", .0.escape_default())]
    NotAPiece(char),
    /// Not the standard set of eight pieces.
    #[error("a back rank is one king, one queen, two rooks, two bishops and two knights")]
    NotTheSet,
    /// The king not between the rooks.
    #[error("the king must stand between the two rooks")]
    KingOutside,
    /// The bishops on squares of one colour.
    #[error("the bishops must stand on squares of opposite colours")]
    BishopsAlike,
}

/// Reads a back rank written as eight letters (`RNBQKBNR`, either case) and checks the
/// Chess960 limits: a standard set, the king between the rooks, the bishops on squares of
/// opposite colours. The error says what is wrong.
pub fn parse_arrangement(text: &str) -> Result<Arrangement, ArrangementError> {
    let letters: Vec<char> = text.trim().chars().collect();
    if letters.len() != 8 {
        return Err(ArrangementError::Length);
    }
    let mut out = [Role::Pawn; 8];
    for (i, c) in letters.iter().enumerate() {
        match Role::from_char(c.to_ascii_uppercase()) {
            Some(r) if r != Role::Pawn => out[i] = r,
            _ => return Err(ArrangementError::NotAPiece(*c)),
        }
    }
    check_arrangement(&out)?;
    Ok(out)
}

/// Checks the Chess960 limits of a back rank.
pub fn check_arrangement(a: &Arrangement) -> Result<(), ArrangementError> {
    let mut want = SET.to_vec();
    for r in a {
        match want.iter().position(|w| w == r) {
            Some(i) => {
                want.remove(i);
            }
            None => return Err(ArrangementError::NotTheSet),
        }
    }
    let files = |role: Role| -> Vec<usize> { (0..8).filter(|i| a[*i] == role).collect::<Vec<_>>() };
    let (k, r, b) = (files(Role::King)[0], files(Role::Rook), files(Role::Bishop));
    if !(r[0] < k && k < r[1]) {
        return Err(ArrangementError::KingOutside);
    }
    if b[0] % 2 == b[1] % 2 {
        return Err(ArrangementError::BishopsAlike);
    }
    Ok(())
}

/// A back rank as eight letters (`RNBQKBNR`).
pub fn arrangement_text(a: &Arrangement) -> String {
    a.iter().map(|r| r.upper_char()).collect()
}

/// The back rank numbered `n` (0 to 959, taken modulo 960) in Scharnagl's numbering of
/// the 960 arrangements ([`crate::rules::scharnagl::back_rank`]).
pub fn arrangement_number(n: u64) -> Arrangement {
    crate::rules::scharnagl::back_rank((n % 960) as u32)
}

/// The rank a colour's pieces start on, 0-based.
pub fn home_rank(c: Color) -> u8 {
    match c {
        Color::White => 0,
        Color::Black => 7,
    }
}

/// The rank a colour's pawns start on, where captured pawns are dropped back.
pub fn pawn_rank(c: Color) -> u8 {
    match c {
        Color::White => 1,
        Color::Black => 6,
    }
}

/// The pieces on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// The man on each square, by [`Square::index`]; 64 entries.
    squares: Vec<Option<Man>>,
}

impl Default for Board {
    fn default() -> Board {
        Board {
            squares: vec![None; 64],
        }
    }
}

/// What a side may rely on when judging its king's safety: which enemy men's identities
/// are public. `known(color, id)` says whether `color`'s checker `id` is known.
pub trait Knowledge {
    /// Whether `color`'s checker `id` has a public identity.
    fn known(&self, color: Color, id: u8) -> bool;
}

impl Board {
    /// The starting board: pawns on their ranks, both back ranks of cloaked checkers
    /// whose roles are `roles` (by [`Color::index`]; a side not set up yet holds the
    /// standard order, which nobody sees).
    pub fn start(roles: [Arrangement; 2]) -> Board {
        let mut b = Board::default();
        for c in Color::ALL {
            for f in 0..8u8 {
                b.set(
                    Square::new(f, pawn_rank(c)),
                    Some(Man {
                        color: c,
                        role: Role::Pawn,
                        id: 0,
                        cloaked: false,
                    }),
                );
                b.set(
                    Square::new(f, home_rank(c)),
                    Some(Man {
                        color: c,
                        role: roles[c.index()][f as usize],
                        id: f + 1,
                        cloaked: true,
                    }),
                );
            }
        }
        b
    }

    /// The man on `sq`.
    pub fn get(&self, sq: Square) -> Option<Man> {
        self.squares.get(sq.index()).copied().flatten()
    }

    /// Puts `man` on `sq` (or empties it).
    pub fn set(&mut self, sq: Square, man: Option<Man>) {
        if let Some(s) = self.squares.get_mut(sq.index()) {
            *s = man;
        }
    }

    /// Whether the board has its 64 squares (a stored board is checked on load).
    pub fn is_whole(&self) -> bool {
        self.squares.len() == 64
    }

    /// Every man with its square.
    pub fn men(&self) -> impl Iterator<Item = (Square, Man)> + '_ {
        self.squares
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.map(|m| (Square::from_index(i as u8), m)))
    }

    /// Changes every man of `color` with a checker number to the role `roles` gives it.
    pub fn assign(&mut self, color: Color, roles: &Arrangement) {
        for m in self.squares.iter_mut().flatten() {
            if m.color == color && m.id > 0 {
                m.role = roles[m.id as usize - 1];
            }
        }
    }

    /// The square of `color`'s checker `id`, if it is on the board.
    pub fn find(&self, color: Color, id: u8) -> Option<Square> {
        self.men()
            .find(|(_, m)| m.color == color && m.id == id && id > 0)
            .map(|(s, _)| s)
    }

    /// The occupied squares.
    pub fn occupied(&self) -> Bitboard {
        self.men().fold(Bitboard::EMPTY, |b, (s, _)| b.with(s))
    }

    /// The squares of `color`'s men.
    pub fn of(&self, color: Color) -> Bitboard {
        self.men()
            .filter(|(_, m)| m.color == color)
            .fold(Bitboard::EMPTY, |b, (s, _)| b.with(s))
    }

    /// `color`'s king and its square.
    pub fn king(&self, color: Color) -> Option<(Square, Man)> {
        self.men()
            .find(|(_, m)| m.color == color && m.role == Role::King)
    }

    /// Whether `sq` is attacked, with `occupied` as the occupancy, by a man of `by` whose
    /// identity `k` makes public.
    pub fn attacked_by_known(
        &self,
        sq: Square,
        by: Color,
        occupied: Bitboard,
        k: &impl Knowledge,
    ) -> bool {
        self.men().any(|(from, m)| {
            m.color == by
                && occupied.contains(from)
                && (m.id == 0 || k.known(by, m.id))
                && attacks::attacks(m.role, m.color, from, occupied).contains(sq)
        })
    }

    /// Whether `color`'s king is uncloaked (or `uncloaking`) and attacked by an enemy
    /// piece of public identity: the only check the rules know.
    pub fn in_check(&self, color: Color, uncloaking: bool, k: &impl Knowledge) -> bool {
        match self.king(color) {
            Some((sq, m)) if !m.cloaked || uncloaking => {
                self.attacked_by_known(sq, color.opposite(), self.occupied(), k)
            }
            _ => false,
        }
    }

    /// The moves `color`'s men could make by their true roles, king safety aside:
    /// captures of any enemy man (the king included), pawn steps, double steps from the
    /// pawn rank, en passant onto `ep`, promotions, and Chess960 castling with the
    /// checkers in `unmoved` (a bit per checker number) when the squares are free (and
    /// not attacked by known pieces when the king is uncloaked or `uncloaking`).
    pub fn pseudo_moves(
        &self,
        color: Color,
        ep: Option<Square>,
        unmoved: u16,
        uncloaking: bool,
        k: &impl Knowledge,
    ) -> Vec<Move> {
        let occ = self.occupied();
        let own = self.of(color);
        let mut out = Vec::new();
        for (from, m) in self.men().filter(|(_, m)| m.color == color) {
            if m.role == Role::Pawn {
                self.pawn_moves(from, color, ep, &mut out);
                continue;
            }
            for to in attacks::attacks(m.role, color, from, occ) & !own {
                out.push(Move {
                    from,
                    to,
                    role: m.role,
                    capture: self.get(to).map(|c| c.role),
                    promotion: None,
                    kind: MoveKind::Normal,
                });
            }
        }
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if let Some(m) = self.castling(color, side, unmoved, uncloaking, k) {
                out.push(m);
            }
        }
        out
    }

    fn pawn_moves(&self, from: Square, color: Color, ep: Option<Square>, out: &mut Vec<Move>) {
        let dir: i8 = if color == Color::White { 1 } else { -1 };
        let last = home_rank(color.opposite());
        let at = |file: u8, rank: i8| -> Option<Square> {
            (0..8)
                .contains(&rank)
                .then(|| Square::new(file, rank as u8))
        };
        let mut push = |to: Square, capture: Option<Role>, kind: MoveKind| {
            let promos: &[Option<Role>] = if to.rank() == last {
                &[
                    Some(Role::Queen),
                    Some(Role::Rook),
                    Some(Role::Bishop),
                    Some(Role::Knight),
                ]
            } else {
                &[None]
            };
            for p in promos {
                out.push(Move {
                    from,
                    to,
                    role: Role::Pawn,
                    capture,
                    promotion: *p,
                    kind,
                });
            }
        };
        let rank = from.rank() as i8;
        if let Some(one) = at(from.file(), rank + dir).filter(|s| self.get(*s).is_none()) {
            push(one, None, MoveKind::Normal);
            if from.rank() == pawn_rank(color) {
                if let Some(two) =
                    at(from.file(), rank + 2 * dir).filter(|s| self.get(*s).is_none())
                {
                    push(two, None, MoveKind::Normal);
                }
            }
        }
        for to in attacks::pawn_attacks(color, from) {
            match self.get(to) {
                Some(c) if c.color != color => push(to, Some(c.role), MoveKind::Normal),
                None if ep == Some(to) => push(to, Some(Role::Pawn), MoveKind::EnPassant),
                _ => {}
            }
        }
    }

    /// The rook `color` may castle with on `side`: its unmoved rook on that side of its
    /// unmoved king, both on the home rank.
    pub fn castling_rook(&self, color: Color, side: CastlingSide, unmoved: u16) -> Option<Square> {
        let (ksq, king) = self.king(color)?;
        let home = home_rank(color);
        if ksq.rank() != home || king.id == 0 || unmoved & (1 << king.id) == 0 {
            return None;
        }
        self.men()
            .filter(|(s, m)| {
                m.color == color
                    && m.role == Role::Rook
                    && m.id > 0
                    && unmoved & (1 << m.id) != 0
                    && s.rank() == home
                    && match side {
                        CastlingSide::KingSide => s.file() > ksq.file(),
                        CastlingSide::QueenSide => s.file() < ksq.file(),
                    }
            })
            .map(|(s, _)| s)
            .next()
    }

    /// Where the king and the rook end after castling on `side`.
    pub fn castle_targets(color: Color, side: CastlingSide) -> (Square, Square) {
        let r = home_rank(color);
        match side {
            CastlingSide::KingSide => (Square::new(6, r), Square::new(5, r)),
            CastlingSide::QueenSide => (Square::new(2, r), Square::new(3, r)),
        }
    }

    /// Castling on `side`, if allowed: every square between the king and its target and
    /// between the rook and its target is empty but for the two; an uncloaked king (or
    /// one `uncloaking`) must not stand on, cross or reach a square attacked by a known
    /// enemy piece.
    pub fn castling(
        &self,
        color: Color,
        side: CastlingSide,
        unmoved: u16,
        uncloaking: bool,
        k: &impl Knowledge,
    ) -> Option<Move> {
        let rook = self.castling_rook(color, side, unmoved)?;
        let (ksq, king) = self.king(color)?;
        let (kto, rto) = Board::castle_targets(color, side);
        let span = |a: Square, b: Square| attacks::between(a, b).with(a).with(b);
        let need = span(ksq, kto) | span(rook, rto);
        let blockers = self.occupied().without(ksq).without(rook);
        if (need & blockers).nonempty() {
            return None;
        }
        if !king.cloaked || uncloaking {
            let occ = self
                .occupied()
                .without(ksq)
                .without(rook)
                .with(kto)
                .with(rto);
            if span(ksq, kto)
                .into_iter()
                .any(|s| self.attacked_by_known(s, color.opposite(), occ, k))
            {
                return None;
            }
        }
        Some(Move {
            from: ksq,
            to: kto,
            role: Role::King,
            capture: None,
            promotion: None,
            kind: MoveKind::Castle(side),
        })
    }

    /// The board after `m` by `color` (no bookkeeping beyond the men): the captured man,
    /// if any, is returned with the new board.
    pub fn after(&self, color: Color, m: &Move, unmoved: u16) -> (Board, Option<Man>) {
        let mut b = self.clone();
        match m.kind {
            MoveKind::Drop => {
                b.set(
                    m.to,
                    Some(Man {
                        color,
                        role: Role::Pawn,
                        id: 0,
                        cloaked: false,
                    }),
                );
                (b, None)
            }
            MoveKind::Castle(side) => {
                let rook = self.castling_rook(color, side, unmoved);
                let (kto, rto) = Board::castle_targets(color, side);
                let king = self.get(m.from);
                let rook_man = rook.and_then(|r| self.get(r));
                b.set(m.from, None);
                if let Some(r) = rook {
                    b.set(r, None);
                }
                b.set(kto, king);
                b.set(rto, rook_man);
                (b, None)
            }
            MoveKind::EnPassant => {
                let victim = Square::new(m.to.file(), m.from.rank());
                let taken = self.get(victim);
                b.set(victim, None);
                let man = self.get(m.from);
                b.set(m.from, None);
                b.set(m.to, man);
                (b, taken)
            }
            _ => {
                let taken = self.get(m.to);
                let mut man = self.get(m.from);
                if let (Some(p), Some(mm)) = (m.promotion, man.as_mut()) {
                    mm.role = p;
                    mm.cloaked = false;
                }
                b.set(m.from, None);
                b.set(m.to, man);
                (b, taken)
            }
        }
    }

    /// Whether `m` by `color` leaves its king, if uncloaked or `uncloaking`, attacked by
    /// a known enemy piece.
    pub fn leaves_check(
        &self,
        color: Color,
        m: &Move,
        unmoved: u16,
        uncloaking: bool,
        k: &impl Knowledge,
    ) -> bool {
        let (b, _) = self.after(color, m, unmoved);
        b.in_check(color, uncloaking, k)
    }
}

/// The public knowledge of a game, for judging check.
pub struct Known<'a>(pub &'a [[bool; 9]; 2]);

impl Knowledge for Known<'_> {
    fn known(&self, color: Color, id: u8) -> bool {
        self.0[color.index()]
            .get(id as usize)
            .copied()
            .unwrap_or(false)
    }
}

/// How a move is stored in the log: its UCI, but `O-O` or `O-O-O` for castling (in
/// Chess960 the king's two squares may also be a plain king move).
pub fn move_code(m: &Move) -> String {
    match m.kind {
        MoveKind::Castle(crate::rules::CastlingSide::KingSide) => "O-O".into(),
        MoveKind::Castle(crate::rules::CastlingSide::QueenSide) => "O-O-O".into(),
        _ => m.uci(),
    }
}

/// The colour of a seat.
pub fn color(seat: u8) -> Color {
    if seat == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// A role from a word or letter (`knight`, `n`).
pub fn role_from_word(w: &str) -> Option<Role> {
    match w.to_ascii_lowercase().as_str() {
        "k" | "king" => Some(Role::King),
        "q" | "queen" => Some(Role::Queen),
        "r" | "rook" => Some(Role::Rook),
        "b" | "bishop" => Some(Role::Bishop),
        "n" | "knight" => Some(Role::Knight),
        _ => None,
    }
}

/// Whether a piece of `role` could have gone from `from` to `to` by its pattern (for
/// working out which identities a checker's moves allow; the path was clear, since the
/// move was legal).
pub fn pattern_allows(role: Role, from: Square, to: Square) -> bool {
    let (df, dr) = (
        from.file().abs_diff(to.file()),
        from.rank().abs_diff(to.rank()),
    );
    match role {
        Role::King => df <= 1 && dr <= 1,
        Role::Knight => (df, dr) == (1, 2) || (df, dr) == (2, 1),
        Role::Rook => df == 0 || dr == 0,
        Role::Bishop => df == dr,
        Role::Queen => df == 0 || dr == 0 || df == dr,
        Role::Pawn => false,
    }
}
