//! The endings a position itself decides, beyond the king's capture: a king in the goal
//! region (King of the Hill's centre, Racing Kings' eighth rank), the checks counted
//! (Three-check), a kingless side with nothing left (Horde). Each is data of the
//! [`VariantConfig`](super::VariantConfig), read here.

use super::bitboard::Bitboard;
use super::movegen::MoveList;
use super::position::Position;
use super::types::{Color, Role};

impl Position {
    /// The rank index of `color`'s first rank.
    #[inline]
    pub(super) fn home_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => 0,
            Color::Black => self.config().height - 1,
        }
    }

    /// The side whose king stands in the variant's goal region and has won by it. Where
    /// the region lets Black reply ([`GoalRegion::reply_draws`](super::GoalRegion)),
    /// White's arrival wins only once Black, to move, cannot arrive too.
    #[inline]
    pub fn goal_reached(&self) -> Option<Color> {
        let goal = self.config().goal?;
        let white = self.king_in(Color::White, goal.squares);
        let black = self.king_in(Color::Black, goal.squares);
        if !goal.reply_draws {
            return if white {
                Some(Color::White)
            } else if black {
                Some(Color::Black)
            } else {
                None
            };
        }
        match (white, black) {
            (false, true) => Some(Color::Black),
            (true, false)
                if self.turn == Color::White || !self.king_reaches(Color::Black, goal.squares) =>
            {
                Some(Color::White)
            }
            _ => None,
        }
    }

    /// Whether both kings stand in a goal region that lets Black reply: Racing Kings'
    /// draw.
    #[inline]
    pub fn goal_drawn(&self) -> bool {
        self.config().goal.is_some_and(|goal| {
            goal.reply_draws
                && self.king_in(Color::White, goal.squares)
                && self.king_in(Color::Black, goal.squares)
        })
    }

    fn king_in(&self, color: Color, squares: Bitboard) -> bool {
        (self.pieces(color, Role::King) & squares).nonempty()
    }

    /// Whether `color`, to move, has a legal king move into `squares`.
    fn king_reaches(&self, color: Color, squares: Bitboard) -> bool {
        if self.turn != color {
            return false;
        }
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
            .iter()
            .any(|m| m.role == Role::King && squares.contains(m.to))
    }

    /// The checks each side has given, White's then Black's (Three-check; zero elsewhere).
    #[inline]
    pub fn checks_given(&self) -> [u8; 2] {
        self.checks_given
    }

    /// The side that has given the variant's number of checks and so has won.
    #[inline]
    pub fn check_limit_reached(&self) -> Option<Color> {
        let limit = self.config().check_limit?;
        Color::ALL
            .into_iter()
            .find(|c| self.checks_given[c.index()] >= limit)
    }

    /// The kingless side, when it has no piece left and so has lost (Horde).
    #[inline]
    pub fn kingless_side_gone(&self) -> Option<Color> {
        let side = self.config().kingless_side?;
        self.by_color(side).is_empty().then_some(side)
    }
}
