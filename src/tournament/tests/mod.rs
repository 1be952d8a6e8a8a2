//! The tournament layer's tests: hand-checked standings, Swiss pairing cases, and
//! property tests of both pairing systems.

mod example;
mod properties;
mod swiss_cases;

use super::*;

/// A finished board.
pub(super) fn game(white: Player, black: Player, score: GameScore) -> Board {
    Board {
        pairing: Pairing { white, black },
        outcome: Some(Outcome::Played(score)),
    }
}

/// Chess#'s result `w`-`b` out of 10.
pub(super) fn sharp(w: u32, b: u32) -> GameScore {
    GameScore::from_points(w, b, 10).unwrap()
}

/// Points from a decimal written as tenths.
pub(super) fn tenths(n: i64) -> Points {
    Points::from_units(n * UNITS / 10)
}

/// A tie-break value from hundredths.
pub(super) fn hundredths(n: i64) -> TieValue {
    TieValue::from_units(n * UNITS * UNITS / 100)
}
