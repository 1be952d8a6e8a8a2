//! The endings a position itself decides, beyond the king's capture: a king in the goal
//! region (King of the Hill's centre, Racing Kings' eighth rank), the checks counted
//! (Three-check), a side without the pieces its extinction counts (Horde's bare horde,
//! Antichess's bare army). Each is data of the variant's
//! [`Endings`](super::variant::Endings), read here.

use super::bitboard::Bitboard;
use super::movegen::MoveList;
use super::position::Position;
use super::types::{Color, Role};
use super::variant::EndValue;

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
        let goal = self.config().endings.goal?;
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
        self.config().endings.goal.is_some_and(|goal| {
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
        let limit = self.config().endings.check_limit?;
        Color::ALL
            .into_iter()
            .find(|c| self.checks_given[c.index()] >= limit)
    }

    /// The side left without the pieces the variant's extinction ending counts (the
    /// side to move first), and what that scores for it: Horde's bare horde loses,
    /// Antichess's bare army wins.
    #[inline]
    pub fn extinct(&self) -> Option<(Color, EndValue)> {
        let extinction = self.config().endings.extinction?;
        [self.turn, self.turn.opposite()]
            .into_iter()
            .find(|&c| self.is_extinct(c, extinction.roles))
            .map(|c| (c, extinction.value))
    }

    /// Whether `color` has, on the board and in hand, no piece at all (`roles` empty) or
    /// no piece of one of `roles`.
    fn is_extinct(&self, color: Color, roles: &[Role]) -> bool {
        let hand = &self.reserves[color.index()];
        if roles.is_empty() {
            return self.by_color(color).is_empty() && hand.iter().all(|&n| n == 0);
        }
        roles
            .iter()
            .any(|&r| self.pieces(color, r).is_empty() && hand[r.index()] == 0)
    }
}
