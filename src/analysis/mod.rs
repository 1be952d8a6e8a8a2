//! What an engine's evaluations of a finished game say about it, as Lichess says it:
//! each side's accuracy, its inaccuracies, mistakes and blunders, the worst moves with
//! the engine's better move, and White's winning chances over the game for a graph.
//! Pure: no I/O, no async; the evaluations come from `engines/` through the service.
//! The formulas, and where in lila they come from, are in [`accuracy`].

pub mod accuracy;
mod report;

pub use accuracy::{game_accuracy, judge, move_accuracy, score_chances, winning_chances, Judgment};
pub use report::{Played, Report, Side, Worst};

use serde::{Deserialize, Serialize};

/// An engine's evaluation of a position, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Score {
    /// Centipawns: positive, White is better.
    Cp(i32),
    /// A forced mate in this many moves: positive, White mates; negative, Black mates.
    /// A position already won on the board counts as a mate in one of the winner
    /// (`Mate(1)` or `Mate(-1)`), so that the graph ends at the edge.
    Mate(i32),
}

impl Score {
    /// The same evaluation from the other side.
    pub fn negated(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// As Lichess's PGN comments write it, from White's side: `0.35`, `-1.20`, `#3`,
    /// `#-2`.
    pub fn pgn(self) -> String {
        match self {
            Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
            Score::Mate(n) => format!("#{n}"),
        }
    }

    /// As a player reads it: `+0.35`, `-1.20`, `mate in 3 for White`.
    pub fn words(self) -> String {
        match self {
            Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(n) if n > 0 => format!("White mates in {n}"),
            Score::Mate(n) => format!("Black mates in {}", -n),
        }
    }
}

/// What the engine said about one position of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionEval {
    /// The evaluation, from White's side.
    pub score: Score,
    /// The engine's best line from the position, in UCI (empty where the game is over).
    pub line: Vec<String>,
}
