//! How a game ended, in the form messages and exports use.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How a game ended: result, reason and score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOutcome {
    /// `1-0`, `0-1`, `1/2-1/2`, or the variant's own (a solitaire's `won`).
    pub result: String,
    /// The reason's name (`checkmate`, `king-captured`, `fast-fifty`, ...).
    pub reason: String,
    /// Points per seat, where the variant scores points (negative in Secret Chesswords
    /// when a player's unused letters outweigh their points).
    pub score: Option<Vec<i32>>,
}

impl fmt::Display for GameOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.score {
            Some(s) => write!(
                f,
                "{} by {} (score {})",
                self.result,
                self.reason,
                s.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    // A negative score would read as a range after a hyphen.
                    .join(if s.iter().any(|p| *p < 0) { ", " } else { "-" })
            ),
            None => write!(f, "{} by {}", self.result, self.reason),
        }
    }
}
