//! Games won by losing (Antichess, as Lichess plays it): the king is an ordinary piece
//! and a side with no piece or no legal move wins ([`Endings::won_by_losing`]). What
//! material still lets a side win, for the automatic draw and for timeouts.
//!
//! [`Endings::won_by_losing`]: super::variant::Endings::won_by_losing

use super::bitboard::Bitboard;
use super::explosions::pawn_blocked_by_pawn;
use super::position::Position;
use super::types::{Color, Role};

/// Whether the squares of `pieces` are all of one colour: `Some(true)` all dark,
/// `Some(false)` all light, `None` for none or both colours.
fn one_colour(pieces: Bitboard) -> Option<bool> {
    let dark = pieces.filter(|s| s.is_dark()).count();
    match (pieces.count() as usize, dark) {
        (0, _) => None,
        (n, d) if d == n => Some(true),
        (_, 0) => Some(false),
        _ => None,
    }
}

/// Whether neither side can ever lose all its pieces, as Lichess decides it: only
/// bishops and pawns are left, each side's bishops all on one colour and the two sides'
/// on different colours (they can never be offered to each other), and every pawn is
/// blocked by a pawn, has no move and stands on the colour the enemy bishops do not.
pub fn dead_by_material(pos: &Position) -> bool {
    let bishops = pos.by_role(Role::Bishop);
    let pawns = pos.by_role(Role::Pawn);
    if (bishops | pawns) != pos.occupied() {
        return false;
    }
    let (Some(white_dark), Some(black_dark)) = (
        one_colour(pos.pieces(Color::White, Role::Bishop)),
        one_colour(pos.pieces(Color::Black, Role::Bishop)),
    ) else {
        return false;
    };
    if white_dark == black_dark {
        return false;
    }
    let out_of_reach = |color: Color, enemy_bishops_dark: bool| {
        pos.pieces(color, Role::Pawn)
            .into_iter()
            .all(|sq| sq.is_dark() != enemy_bishops_dark && pawn_blocked_by_pawn(pos, sq))
    };
    out_of_reach(Color::White, black_dark) && out_of_reach(Color::Black, white_dark)
}

/// Whether `color` could still win by losing everything, as Lichess decides a timeout:
/// always, but when the board is dead ([`dead_by_material`]) or holds one knight each.
/// Then exactly one side can win: with both knights on squares of one colour the side to
/// move (its knight steps onto the other colour and is taken), otherwise the other side.
pub fn could_lose_everything(pos: &Position, color: Color) -> bool {
    if dead_by_material(pos) {
        return false;
    }
    let knights = pos.by_role(Role::Knight);
    let one_knight_each =
        knights == pos.occupied() && Color::ALL.into_iter().all(|c| pos.by_color(c).count() == 1);
    if !one_knight_each {
        return true;
    }
    let same_colour = one_colour(knights).is_some();
    same_colour == (pos.turn() == color)
}
