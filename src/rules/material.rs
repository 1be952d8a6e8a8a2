//! Material rules: when nothing but a draw can come (the automatic draw) and whether a
//! player could still win (whether the opponent's timeout wins or draws). Standard
//! chess's rules ([`is_dead_by_material`], [`could_win`], [`could_checkmate`], re-exported
//! by [`game`](super::game)), and first those of the variants whose wins do not need a
//! checkmate, which answer where the variant's config says so:
//! - Three-check: any piece can give check, so only bare kings are dead, and a player
//!   with a bare king cannot win.
//! - Horde, as Lichess rules it: the game is dead only in a fortress (whichever side is
//!   to move, the horde cannot move, and Black has only king moves, none of which frees
//!   it); the kinged side can always win by taking the horde,
//!   and the horde cannot win with too little to mate ([`horde_cannot_mate`]).

use super::position::Position;
use super::types::{Color, Role};
use super::{explosions, losing};

/// Whether neither side can ever checkmate, by the material alone: king against king,
/// a single knight or bishop against a bare king, or only bishops all on one colour.
/// Where a game is won by losing, or captures explode, the variant's own rule
/// ([`losing::dead_by_material`], [`explosions::dead_by_material`]).
pub fn is_dead_by_material(pos: &Position) -> bool {
    if let Some(dead) = variant_dead_by_material(pos) {
        return dead;
    }
    let cfg = pos.config();
    if cfg.endings.won_by_losing() {
        return losing::dead_by_material(pos);
    }
    if cfg.captures_explode {
        return explosions::dead_by_material(pos);
    }
    let pawns_rooks_queens =
        pos.by_role(Role::Pawn) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    if pawns_rooks_queens.nonempty()
        || Color::ALL
            .iter()
            .any(|&c| pos.reserve(c).iter().any(|&n| n > 0))
    {
        return false;
    }
    let knights = pos.by_role(Role::Knight);
    let bishops = pos.by_role(Role::Bishop);
    if knights.nonempty() {
        return knights.count() == 1 && bishops.is_empty();
    }
    let dark = bishops.filter(|s| s.is_dark()).count();
    dark == 0 || dark == bishops.count() as usize
}

/// Whether `color` could still win by some series of legal moves: by bringing its king
/// to the goal region where the variant has one (a king alone can always try), by
/// losing everything where that wins ([`losing::could_lose_everything`]), by a king's
/// explosion or mate where captures explode ([`explosions::could_explode_or_mate`]), or
/// else by checkmate ([`could_checkmate`]). The variants whose material rules are in
/// this module answer first. In Crazyhouse, where no piece ever leaves
/// the game, either side always could (as Lichess rules a timeout there).
pub fn could_win(pos: &Position, color: Color) -> bool {
    if let Some(could) = variant_could_win(pos, color) {
        return could;
    }
    let cfg = pos.config();
    if cfg.endings.won_by_losing() {
        return losing::could_lose_everything(pos, color);
    }
    if cfg.captures_explode {
        return explosions::could_explode_or_mate(pos, color);
    }
    if cfg.lichess_timeouts {
        return !lichess_cannot_win(pos, color);
    }
    cfg.endings.goal.is_some() || pos.tracks_promotions() || could_checkmate(pos, color)
}

/// Whether `color` cannot win by Lichess's table of mating material (scalachess's
/// `InsufficientMatingMaterial`, which python-chess's `has_insufficient_material`
/// follows): a bare king; a king and one knight against nothing but a king and queens
/// (the queens could block their own king, but Lichess does not count on it); a king
/// and bishops, unless bishops of both colours stand on the board or the opponent has
/// a knight or pawn. Anything else could win. Where a variant asks for it
/// ([`VariantConfig::lichess_timeouts`](super::VariantConfig)), this judges a timeout
/// instead of [`could_checkmate`].
pub fn lichess_cannot_win(pos: &Position, color: Color) -> bool {
    let kings = pos.by_role(Role::King);
    let ours = pos.by_color(color) & !kings;
    let theirs = pos.by_color(color.opposite()) & !kings;
    if ours.is_empty() {
        return true;
    }
    let knights = pos.by_role(Role::Knight);
    if (ours & !knights).is_empty() {
        return ours.count() == 1 && (theirs & !pos.by_role(Role::Queen)).is_empty();
    }
    let bishops = pos.by_role(Role::Bishop);
    if (ours & !bishops).is_empty() {
        let dark = bishops.filter(|s| s.is_dark()).count();
        let both_colours = dark != 0 && dark != bishops.count() as usize;
        let knights_or_pawns = theirs & (knights | pos.by_role(Role::Pawn));
        return !both_colours && knights_or_pawns.is_empty();
    }
    false
}

/// Whether `color` could checkmate its opponent by some series of legal moves, the
/// opponent's moves included however unlikely (FIDE 6.9: a player whose time runs out
/// loses unless this is false). False only where no mate can ever arise:
/// - `color` has a bare king (a king alone never gives check);
/// - `color` has a king and one knight, the opponent a bare king (no square pattern
///   lets a knight and king mate a lone king);
/// - every piece on the board other than the kings is a bishop and all of them stand on
///   one colour of square (a dead position: no king can ever be cornered).
///
/// Anything else counts as a possible mate, with the opponent's own pieces blocking
/// (K+N against K+Q: the queen can shut its own king in), so the timeout loses. Pieces in
/// hand (Chess#) count as material. This is exact for the cases above and otherwise
/// errs only towards "could mate", never declaring a draw where a mate exists.
pub fn could_checkmate(pos: &Position, color: Color) -> bool {
    let ours = pos.by_color(color) & !pos.by_role(Role::King);
    let theirs = pos.by_color(color.opposite()) & !pos.by_role(Role::King);
    let in_hand = |c: Color| pos.reserve(c).iter().any(|&n| n > 0);
    if ours.is_empty() && !in_hand(color) {
        return false;
    }
    if in_hand(color) || in_hand(color.opposite()) {
        return true;
    }
    let knights = ours & pos.by_role(Role::Knight);
    if ours == knights && knights.count() == 1 && theirs.is_empty() {
        return false;
    }
    let others = ours | theirs;
    let bishops = others & pos.by_role(Role::Bishop);
    if bishops == others {
        let dark = bishops.filter(|s| s.is_dark()).count();
        if dark == 0 || dark == bishops.count() as usize {
            return false;
        }
    }
    true
}

/// Whether the position is dead by material under the variant's own rule, or `None` to
/// use standard chess's.
pub(super) fn variant_dead_by_material(pos: &Position) -> Option<bool> {
    let cfg = pos.config();
    if cfg.endings.check_limit.is_some() {
        let reserves = Color::ALL
            .iter()
            .any(|&c| pos.reserve(c).iter().any(|&n| n > 0));
        return Some(pos.occupied() == pos.by_role(Role::King) && !reserves);
    }
    if let Some(horde) = cfg.kingless_side {
        return Some(horde_closed(pos, horde));
    }
    None
}

/// Whether `color` could still win under the variant's own rule, or `None` to use
/// standard chess's.
pub(super) fn variant_could_win(pos: &Position, color: Color) -> Option<bool> {
    let cfg = pos.config();
    if cfg.endings.check_limit.is_some() {
        return Some((pos.by_color(color) & !pos.by_role(Role::King)).nonempty());
    }
    if let Some(horde) = cfg.kingless_side {
        // As Lichess rules a timeout: the fortress as the position stands, its side to
        // move only, or the horde with too little to mate.
        let stuck = horde_stuck(pos, horde);
        return Some(!stuck && (color != horde || !horde_cannot_mate(pos, horde)));
    }
    None
}

/// Lichess's fortress draw in Horde: the horde is stuck ([`horde_stuck`]) whichever side
/// is to move. Both sides are asked, as Lichess asks them, so that a position where the
/// other side could still free the horde (or take it) with a piece other than its king
/// plays on.
fn horde_closed(pos: &Position, horde: Color) -> bool {
    Color::ALL
        .into_iter()
        .all(|turn| horde_stuck(&pos.with_turn(turn), horde))
}

/// Whether the horde is stuck in `pos` with its side to move, by Lichess's rule: it is
/// not a lone piece the other side attacks (a capture that wins), and either the horde
/// is to move and has no legal move, or the other side is to move, has no legal move but
/// king moves, and after each of them the horde has no legal move. A move that is not
/// the king's (en passant included) may free or take the horde, so it keeps the game
/// going, whatever it leads to.
fn horde_stuck(pos: &Position, horde: Color) -> bool {
    if let Some(lone) = pos.by_color(horde).single() {
        if pos
            .attackers_to(lone, horde.opposite(), pos.occupied())
            .nonempty()
        {
            return false;
        }
    }
    if pos.turn() == horde {
        return pos.legal_moves().is_empty();
    }
    pos.legal_moves()
        .iter()
        .all(|&m| m.role == Role::King && pos.after(m).legal_moves().is_empty())
}

/// Counts of one side's pieces by role, and of its bishops by square colour.
struct Force {
    pawns: u32,
    knights: u32,
    bishops: u32,
    rooks: u32,
    queens: u32,
    /// Every piece, the king included.
    all: u32,
    light_bishops: u32,
    dark_bishops: u32,
}

impl Force {
    fn of(pos: &Position, color: Color) -> Force {
        let count = |role| pos.pieces(color, role).count();
        let bishops = pos.pieces(color, Role::Bishop);
        let dark = bishops.filter(|s| s.is_dark()).count() as u32;
        Force {
            pawns: count(Role::Pawn),
            knights: count(Role::Knight),
            bishops: bishops.count(),
            rooks: count(Role::Rook),
            queens: count(Role::Queen),
            all: pos.by_color(color).count(),
            light_bishops: bishops.count() - dark,
            dark_bishops: dark,
        }
    }

    /// Bishops on light squares when `light`, else on dark.
    fn bishops_on(&self, light: bool) -> u32 {
        if light {
            self.light_bishops
        } else {
            self.dark_bishops
        }
    }

    fn bishop_pair(&self) -> bool {
        self.light_bishops > 0 && self.dark_bishops > 0
    }
}

/// Whether the kingless horde can never mate, by Lichess's table for Horde: what the
/// horde has (a queen, a rook, minor pieces, pawns that could promote) against what could
/// box the black king in (Black's own pieces). It errs towards "could mate" where mates
/// exist only in constructed positions, as Lichess does.
pub(super) fn horde_cannot_mate(pos: &Position, horde: Color) -> bool {
    let h = Force::of(pos, horde);
    let b = Force::of(pos, horde.opposite());
    // The colour of the horde's bishops when they share one (light if any is light).
    let light = h.light_bishops >= 1;
    let bishop_units = h.light_bishops.min(2) + h.dark_bishops.min(2);
    let units = h.pawns + h.knights + h.rooks + h.queens + bishop_units;
    let not = |n: u32| b.all - n;
    if units == 0 {
        return true;
    }
    if units >= 4 || ((h.pawns >= 1 || h.queens >= 1) && units >= 2) {
        return false;
    }
    let rook_and_bishop_against_king =
        units == 2 && h.rooks == 1 && h.bishops == 1 && not(b.bishops_on(light)) == 1;
    if h.rooks >= 1 && units >= 2 && !rook_and_bishop_against_king {
        return false;
    }
    match units {
        1 => lone_piece_cannot_mate(pos, horde, &h, &b, light),
        2 => two_minors_cannot_mate(&h, &b, light),
        _ => {
            let mates = (h.knights == 2 && h.bishops == 1) || h.knights == 3 || h.bishop_pair();
            !mates && b.all == 1
        }
    }
}

/// [`horde_cannot_mate`] for a horde of one piece.
fn lone_piece_cannot_mate(pos: &Position, horde: Color, h: &Force, b: &Force, light: bool) -> bool {
    let not = |n: u32| b.all - n;
    if b.all == 1 {
        return true;
    }
    if h.queens == 1 {
        return !(b.pawns >= 1 || b.rooks >= 1 || b.light_bishops >= 2 || b.dark_bishops >= 2);
    }
    if h.pawns == 1 {
        // The pawn promotes: it cannot mate if neither a queen nor a knight could.
        let pawn = pos.pieces(horde, Role::Pawn).first().expect("one pawn");
        return [Role::Queen, Role::Knight].into_iter().all(|role| {
            let promoted = pos.with_role_at(pawn, role);
            horde_cannot_mate(&promoted, horde)
        });
    }
    if h.rooks == 1 {
        return !(b.pawns >= 2
            || (b.rooks >= 1 && b.pawns >= 1)
            || (b.rooks >= 1 && b.knights >= 1)
            || (b.pawns >= 1 && b.knights >= 1));
    }
    if h.bishops == 1 {
        let opposite = b.bishops_on(!light);
        return !(opposite >= 2 || (opposite >= 1 && b.pawns >= 1) || b.pawns >= 2);
    }
    // A lone knight.
    let helpers = b.knights >= 2
        || b.pawns >= 2
        || (b.rooks >= 1 && (b.knights >= 1 || b.bishops >= 1 || b.pawns >= 1))
        || (b.knights >= 1 && (b.bishops >= 1 || b.pawns >= 1))
        || (b.bishops >= 1 && b.pawns >= 1)
        || (b.bishop_pair() && b.pawns >= 1);
    let dark_ok = b.dark_bishops < 2 || not(b.dark_bishops) >= 3;
    let light_ok = b.light_bishops < 2 || not(b.light_bishops) >= 3;
    !(b.all >= 4 && helpers && dark_ok && light_ok)
}

/// [`horde_cannot_mate`] for a horde of two minor pieces (no pawn, queen or rook left
/// that could mate with help).
fn two_minors_cannot_mate(h: &Force, b: &Force, light: bool) -> bool {
    let not = |n: u32| b.all - n;
    if b.all == 1 {
        return true;
    }
    if h.knights == 2 {
        return b.pawns + b.bishops + b.knights < 1;
    }
    if h.bishop_pair() {
        return !(b.pawns >= 1 || b.bishops >= 1 || (b.knights >= 1 && b.rooks + b.queens >= 1));
    }
    let opposite = b.bishops_on(!light);
    if h.bishops >= 1 && h.knights >= 1 {
        return !(b.pawns >= 1 || opposite >= 1 || not(b.bishops_on(light)) >= 3);
    }
    // Two or more bishops on one colour: Black must be able to block two squares of the
    // other colour around its king (two of its pawns, knights and opposite bishops).
    let blockers = b.pawns.min(2) + b.knights.min(2) + opposite.min(2);
    blockers < 2
}

impl Position {
    /// This position with the piece on `sq` turned into `role`, keeping its colour
    /// (what a promotion would make of a pawn, for the material rules).
    fn with_role_at(&self, sq: super::types::Square, role: Role) -> Position {
        let mut next = *self;
        if let Some(piece) = self.piece_at(sq) {
            next.remove(sq, piece);
            next.put(
                sq,
                super::types::Piece {
                    color: piece.color,
                    role,
                },
            );
        }
        next
    }
}
