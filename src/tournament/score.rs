//! Points, exactly: a game's result normalised to a game score of 1, and the sums and
//! products the standings and tie-breaks are made of.
//!
//! A variant scores a game as points for each side out of a maximum: standard chess
//! 1-0, ½-½ (1-1 out of 2) or 0-1, Chess# 10-0, 8-2, 7-3, 6-4 or 4-6 out of 10. A
//! tournament counts each game as a game score of 1 shared as the variant shares its
//! maximum: White's points divided by the maximum, Black's likewise (Chess#'s 7-3 is
//! 0.7 to 0.3, its 4-6 impasse 0.4 to 0.6). The division is kept exact by counting in
//! 2520ths of a point (2520 is the least common multiple of 1..10, so every maximum up
//! to 10, and 12, 14, 15, 18, 20, ..., divides it); a maximum that does not divide 2520
//! is refused rather than rounded.

use std::fmt;

/// Units of [`Points`] in one point.
pub const UNITS: i64 = 2520;

/// A number of points, exact: counted in 2520ths of a point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(i64);

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);
    /// A draw's share.
    pub const HALF: Points = Points(UNITS / 2);
    /// A win.
    pub const ONE: Points = Points(UNITS);

    /// `n` whole points.
    pub const fn whole(n: i64) -> Points {
        Points(n * UNITS)
    }

    /// Points from 2520ths of a point.
    pub const fn from_units(units: i64) -> Points {
        Points(units)
    }

    /// The points in 2520ths of a point.
    pub const fn units(self) -> i64 {
        self.0
    }

    /// The sum of two scores.
    pub const fn plus(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }

    /// These points as a tie-break value.
    pub const fn value(self) -> TieValue {
        TieValue(self.0 * UNITS)
    }

    /// `self` times the share of a game `share` is (a game score of 1 being
    /// [`Points::ONE`]): an opponent's points weighted by the result against them
    /// (Sonneborn-Berger), exact.
    pub const fn weighted(self, share: Points) -> TieValue {
        TieValue(self.0 * share.0)
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        self.plus(other)
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Points::plus)
    }
}

impl fmt::Display for Points {
    /// Halves as `½` (`3½`, `½`), other fractions as decimals to two places (`6.7`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_fraction(f, self.0 as i128, UNITS as i128)
    }
}

/// A tie-break's value, exact: counted in 2520ths of a 2520th of a point, so that a
/// product of two [`Points`] (Sonneborn-Berger) is exact as well as a sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TieValue(i64);

impl TieValue {
    /// Zero.
    pub const ZERO: TieValue = TieValue(0);

    /// A value from 1/(2520 * 2520) units.
    pub const fn from_units(units: i64) -> TieValue {
        TieValue(units)
    }

    /// The value in 1/(2520 * 2520) units.
    pub const fn units(self) -> i64 {
        self.0
    }
}

impl std::ops::Add for TieValue {
    type Output = TieValue;
    fn add(self, other: TieValue) -> TieValue {
        TieValue(self.0 + other.0)
    }
}

impl std::ops::Sub for TieValue {
    type Output = TieValue;
    fn sub(self, other: TieValue) -> TieValue {
        TieValue(self.0 - other.0)
    }
}

impl std::iter::Sum for TieValue {
    fn sum<I: Iterator<Item = TieValue>>(iter: I) -> TieValue {
        iter.fold(TieValue::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for TieValue {
    /// As [`Points`] are shown: `12½`, `6.25`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_fraction(f, self.0 as i128, (UNITS * UNITS) as i128)
    }
}

/// `num / den` as `3½`, `½`, `-1½` or a decimal rounded to two places with trailing
/// zeros dropped.
fn write_fraction(f: &mut fmt::Formatter<'_>, num: i128, den: i128) -> fmt::Result {
    let sign = if num < 0 { "-" } else { "" };
    let n = num.abs();
    let (whole, rest) = (n / den, n % den);
    if rest == 0 {
        return write!(f, "{sign}{whole}");
    }
    if rest * 2 == den {
        return match whole {
            0 => write!(f, "{sign}½"),
            w => write!(f, "{sign}{w}½"),
        };
    }
    // Hundredths, rounded half up.
    let hundredths = (n * 100 * 2 + den) / (den * 2);
    let (w, c) = (hundredths / 100, hundredths % 100);
    if c % 10 == 0 {
        write!(f, "{sign}{w}.{}", c / 10)
    } else {
        write!(f, "{sign}{w}.{c:02}")
    }
}

/// Why a result could not be counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// The maximum is zero or does not divide 2520, so its shares are not exact.
    #[error("a game cannot be scored out of {0} points")]
    BadMaximum(u32),
    /// The two sides' points add up to more than the maximum.
    #[error("{white}-{black} is more than {max} points")]
    TooMany {
        /// White's points.
        white: u32,
        /// Black's points.
        black: u32,
        /// The maximum.
        max: u32,
    },
}

/// One game's result as a tournament counts it: each side's share of a game score of 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameScore {
    /// White's share.
    pub white: Points,
    /// Black's share.
    pub black: Points,
}

impl GameScore {
    /// White won: 1-0.
    pub const WHITE_WINS: GameScore = GameScore {
        white: Points::ONE,
        black: Points::ZERO,
    };
    /// Black won: 0-1.
    pub const BLACK_WINS: GameScore = GameScore {
        white: Points::ZERO,
        black: Points::ONE,
    };
    /// A draw: ½-½.
    pub const DRAW: GameScore = GameScore {
        white: Points::HALF,
        black: Points::HALF,
    };

    /// A variant's result, `white` and `black` points out of `max`, normalised to a game
    /// score of 1 (Chess#'s 7-3 out of 10 is 0.7-0.3). The points may add up to less than
    /// the maximum (a variant that gives both sides nothing), never to more.
    pub fn from_points(white: u32, black: u32, max: u32) -> Result<GameScore, ScoreError> {
        if max == 0 || UNITS % max as i64 != 0 {
            return Err(ScoreError::BadMaximum(max));
        }
        if white as u64 + black as u64 > max as u64 {
            return Err(ScoreError::TooMany { white, black, max });
        }
        let unit = UNITS / max as i64;
        Ok(GameScore {
            white: Points(white as i64 * unit),
            black: Points(black as i64 * unit),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_sharp_results_are_shares_of_one_game() {
        let s = GameScore::from_points(7, 3, 10).unwrap();
        assert_eq!(
            (s.white.to_string(), s.black.to_string()),
            ("0.7".into(), "0.3".into())
        );
        let s = GameScore::from_points(4, 6, 10).unwrap();
        assert_eq!(s.white + s.black, Points::ONE);
        assert_eq!(GameScore::from_points(1, 1, 2).unwrap(), GameScore::DRAW);
        assert_eq!(
            GameScore::from_points(1, 0, 1).unwrap(),
            GameScore::WHITE_WINS
        );
    }

    #[test]
    fn results_that_cannot_be_shared_exactly_are_refused() {
        assert_eq!(
            GameScore::from_points(1, 0, 0),
            Err(ScoreError::BadMaximum(0))
        );
        assert_eq!(
            GameScore::from_points(1, 0, 11),
            Err(ScoreError::BadMaximum(11))
        );
        assert!(matches!(
            GameScore::from_points(6, 6, 10),
            Err(ScoreError::TooMany { .. })
        ));
    }

    #[test]
    fn points_are_shown_with_halves_and_decimals() {
        let p = |n: i64, d: i64| Points::from_units(n * UNITS / d);
        assert_eq!(p(7, 2).to_string(), "3½");
        assert_eq!(p(1, 2).to_string(), "½");
        assert_eq!(p(3, 1).to_string(), "3");
        assert_eq!(p(67, 10).to_string(), "6.7");
        assert_eq!(p(1, 3).to_string(), "0.33");
        assert_eq!(p(0, 1).to_string(), "0");
        // 2.5 x 0.7 = 1.75, exact.
        assert_eq!(p(5, 2).weighted(p(7, 10)).to_string(), "1.75");
        assert_eq!(p(5, 2).value().to_string(), "2½");
    }
}
