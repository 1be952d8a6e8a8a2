//! Who plays and who looks: seats, viewers and a variant's plan of seats.

use super::RuleError;
use crate::rules::{Color, Square};
use serde::{Deserialize, Serialize};

/// A player's place in a game: an index into the game's seats (chess: 0 White, 1 Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat of a side in a game of two sides: White is seat 0, Black seat 1.
    pub fn of_side(c: Color) -> Seat {
        Seat(c.index() as u8)
    }

    /// The side of this seat in a game of two sides; a refusal for any other seat.
    pub fn side(self) -> Result<Color, RuleError> {
        match self.0 {
            0 => Ok(Color::White),
            1 => Ok(Color::Black),
            n => Err(RuleError::new(format!(
                "a game of two sides has no seat {n}"
            ))),
        }
    }
}

/// A square from its name (`e4`), or a syntax refusal quoting at most 8 characters of
/// the text: for the variants that read squares in their own commands.
pub fn square_named(text: &str) -> Result<Square, RuleError> {
    Square::parse(text).ok_or_else(|| {
        RuleError::syntax(format!(
            "'{}' is not a square (a1 to h8)",
            text.chars().take(8).collect::<String>()
        ))
    })
}

/// Who is looking: the public channel, or one seat privately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Everyone: never shown a secret.
    Public,
    /// One seat, in private.
    Seat(Seat),
}

/// How a variant seats its players: how many, what each seat is called, which side each
/// plays, and how the challenger's wishes place them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatPlan {
    /// The seats' names in seat order (`White`, `Black`), one to four of them.
    pub names: &'static [&'static str],
    /// The side each seat plays, in seat order, where the game has sides (White and
    /// Black; a team's colour for each partner); empty where it has none (a solitaire).
    pub sides: &'static [Color],
    /// How the players are placed in the seats.
    pub placing: Placing,
}

/// How a challenge's players are placed in a variant's seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placing {
    /// One player: the challenger, at once, with no one to accept.
    Alone,
    /// Two sides: `colour:white|black|random` places the challenger.
    Sides,
    /// Teams: the players in the order named (the challenger and the first named are
    /// partners), or drawn with `teams:random`.
    Teams,
}

impl SeatPlan {
    /// Two sides, White (seat 0) and Black (seat 1), as in chess.
    pub const TWO_SIDES: SeatPlan = SeatPlan {
        names: &["White", "Black"],
        sides: &[Color::White, Color::Black],
        placing: Placing::Sides,
    };

    /// How many seats the variant has.
    pub fn count(&self) -> usize {
        self.names.len()
    }

    /// The name of `seat` (`White`), or `?` for a seat the plan has not.
    pub fn name(&self, seat: Seat) -> &'static str {
        self.names.get(usize::from(seat.0)).copied().unwrap_or("?")
    }

    /// The side `seat` plays, where the game has sides.
    pub fn side(&self, seat: Seat) -> Option<Color> {
        self.sides.get(usize::from(seat.0)).copied()
    }
}
