//! Who plays and who looks: seats, viewers and a variant's plan of seats.

use serde::{Deserialize, Serialize};

/// A player's place in a game: an index into the game's seats (chess: 0 White, 1 Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Seat(pub u8);

/// Who is looking: the public channel, or one seat privately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Everyone: never shown a secret.
    Public,
    /// One seat, in private.
    Seat(Seat),
}

/// How a variant seats its players: how many, what each seat is called, and how the
/// challenger's wishes place them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatPlan {
    /// The seats' names in seat order (`White`, `Black`), one to four of them.
    pub names: &'static [&'static str],
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
    /// How many seats the variant has.
    pub fn count(&self) -> usize {
        self.names.len()
    }
}
