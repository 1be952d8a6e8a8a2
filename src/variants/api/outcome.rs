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

impl GameOutcome {
    /// A result and its reason, without points.
    pub fn new(result: &str, reason: &str) -> GameOutcome {
        GameOutcome {
            result: result.into(),
            reason: reason.into(),
            score: None,
        }
    }

    /// The tag section of the record of a variant that writes its own movetext, and the
    /// result to end the movetext with (`*` while the game goes on): see
    /// [`crate::notation::pgn::variant_header`].
    pub fn record_header(
        outcome: Option<&GameOutcome>,
        tags: &[(String, String)],
        variant: &str,
        fen: Option<&str>,
    ) -> (String, String) {
        let result = outcome.map_or_else(|| "*".to_string(), |o| o.result.clone());
        let header = crate::notation::pgn::variant_header(
            tags,
            variant,
            fen,
            &result,
            outcome.map(|o| o.reason.as_str()),
        );
        (header, result)
    }
}

/// A reason's name in words, as a noun phrase that fits after "wins by" or before a
/// colon (`king-captured` is "capture of the king"). An unknown name is shown with its
/// hyphens as spaces.
pub fn reason_words(reason: &str) -> String {
    let words = match reason {
        "checkmate" => "checkmate",
        "king-captured" => "capture of the king",
        "king-in-goal" => "bringing the king to the goal squares",
        "three-checks" => "giving the third check",
        "both-kings-in-goal" => "both kings reaching the goal squares",
        "all-pieces-captured" => "capturing every piece",
        "king-exploded" => "explosion of the king",
        "all-pieces-lost" => "losing all its pieces",
        "stalemated" => "being stalemated",
        "stalemate" => "stalemate",
        "insufficient-material" => "insufficient material",
        "fivefold-repetition" => "fivefold repetition",
        "seventy-five-move-rule" => "the seventy-five-move rule",
        "threefold-repetition" => "threefold repetition",
        "fifty-move-rule" => "the fifty-move rule",
        "impasse" => "impasse (fifty moves each without a pawn move or capture)",
        "fast-fifty" => "impasse by agreement",
        "agreement" => "agreement",
        "adjudicated" => "a moderator's adjudication",
        "resignation" => "resignation",
        "timeout" => "time",
        "timeout-vs-insufficient-material" => {
            "time running out against a side that has no way to checkmate"
        }
        "bare-kings" => "bare kings",
        "repetition" => "repetition",
        "fifty-moves" => "the fifty-move rule",
        "score" => "the final count",
        "passes" => "two passes in a row",
        "no-moves" => "no move left",
        "no-move" => "no move left",
        "connection" => "connecting the group",
        "out-of-cards" => "running out of cards",
        "aborted" => "calling it off once the deal was shown",
        other => return other.replace('-', " "),
    };
    words.to_string()
}

impl GameOutcome {
    /// The outcome for people, leading with what happened and who won, in words, with
    /// the points where the game scores them: `alice (White) wins by checkmate (1-0)`,
    /// `impasse by agreement: alice (White) 4, bob (Black) 6 (0-1 on points)`, `drawn by
    /// stalemate (1/2-1/2)`, `capture of the king: grade F, the game is lost`. `sides`
    /// names each side as messages do (`alice (White)`); a solitaire has one.
    pub fn describe(&self, sides: &[String]) -> String {
        let how = reason_words(&self.reason);
        let side = |i: usize| sides.get(i).cloned().unwrap_or_else(|| "?".into());
        let wins = |i: usize| {
            // A team (`alice & bob (White)`) wins together.
            let verb = if side(i).contains(" & ") {
                "win"
            } else {
                "wins"
            };
            match self.reason.as_str() {
                "timeout" => format!("{} {verb} on time ({})", side(i), self.result),
                _ => format!("{} {verb} by {how} ({})", side(i), self.result),
            }
        };
        match (self.result.as_str(), self.score.as_deref()) {
            ("won", Some([points])) => {
                format!("won by {how}, {}", super::plural(points, "point", "points"))
            }
            ("won", _) => format!("won by {how}"),
            ("lost", _) if self.reason == "timeout" => "lost on time".into(),
            ("lost", _) => format!("lost by {how}"),
            // A full win that also scores (Chess#'s 10-0) is said as a win.
            (r @ ("1-0" | "0-1"), Some([a, b]))
                if matches!(
                    self.reason.as_str(),
                    "checkmate" | "king-captured" | "resignation" | "timeout"
                ) =>
            {
                format!("{}; points {a}-{b}", wins(usize::from(r == "0-1")))
            }
            (r @ ("1-0" | "0-1" | "1/2-1/2"), Some([a, b])) => {
                // Gravity's final count (`score`) is a win by score, or on equal points
                // by its tie-break (docs/rules/gravity.md, rule 9); Chess#'s partial
                // results are points.
                let on = match r {
                    "1/2-1/2" => "a draw (1/2-1/2) on points".to_string(),
                    _ if self.reason == "score" && a == b => {
                        format!("{r} by the tie-break, on equal points")
                    }
                    _ if self.reason == "score" => format!("{r} by score"),
                    _ => format!("{r} on points"),
                };
                format!("{how}: {} {a}, {} {b}; {on}", side(0), side(1))
            }
            ("1-0", _) => wins(0),
            ("0-1", _) => wins(1),
            ("1/2-1/2", _) => match self.reason.as_str() {
                "timeout-vs-insufficient-material" => {
                    "drawn: the time ran out, but the opponent had no way to checkmate (1/2-1/2)"
                        .into()
                }
                _ => format!("drawn by {how} (1/2-1/2)"),
            },
            // A cooperative game's grade (Secret Chesswords: A to F).
            (grade, _) => {
                let verdict = if grade == "F" {
                    "the game is lost".to_string()
                } else {
                    "the game is won".to_string()
                };
                format!("{how}: grade {grade}, {verdict}")
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(result: &str, reason: &str, score: Option<Vec<i32>>) -> GameOutcome {
        GameOutcome {
            result: result.into(),
            reason: reason.into(),
            score,
        }
    }

    fn sides() -> Vec<String> {
        vec!["alice (White)".into(), "bob (Black)".into()]
    }

    #[test]
    fn results_say_who_won_and_how_in_words() {
        let say = |r, why| outcome(r, why, None).describe(&sides());
        assert_eq!(
            say("1-0", "checkmate"),
            "alice (White) wins by checkmate (1-0)"
        );
        assert_eq!(say("0-1", "timeout"), "bob (Black) wins on time (0-1)");
        assert_eq!(
            say("0-1", "king-captured"),
            "bob (Black) wins by capture of the king (0-1)"
        );
        assert_eq!(say("1/2-1/2", "agreement"), "drawn by agreement (1/2-1/2)");
        let insufficient = say("1/2-1/2", "timeout-vs-insufficient-material");
        assert!(!insufficient.contains("timeout-vs"), "{insufficient}");
        assert!(insufficient.starts_with("drawn: the time ran out"));
        let team = outcome("1-0", "resignation", None)
            .describe(&["alice & carol (White)".into(), "bob & dave (Black)".into()]);
        assert_eq!(team, "alice & carol (White) win by resignation (1-0)");
    }

    #[test]
    fn chess_sharp_partial_results_give_the_points_not_a_win() {
        let o = outcome("0-1", "fast-fifty", Some(vec![4, 6]));
        assert_eq!(
            o.describe(&sides()),
            "impasse by agreement: alice (White) 4, bob (Black) 6; 0-1 on points"
        );
        assert!(!o.describe(&sides()).contains("wins"));
        let o = outcome("0-1", "timeout", Some(vec![0, 10]));
        assert_eq!(
            o.describe(&sides()),
            "bob (Black) wins on time (0-1); points 0-10"
        );
        let o = outcome("1-0", "stalemate", Some(vec![8, 2]));
        assert_eq!(
            o.describe(&sides()),
            "stalemate: alice (White) 8, bob (Black) 2; 1-0 on points"
        );
    }

    #[test]
    fn a_final_count_is_a_win_by_score_or_by_the_tie_break() {
        let o = outcome("0-1", "score", Some(vec![11, 12]));
        assert_eq!(
            o.describe(&sides()),
            "the final count: alice (White) 11, bob (Black) 12; 0-1 by score"
        );
        let o = outcome("1-0", "score", Some(vec![10, 10]));
        assert_eq!(
            o.describe(&sides()),
            "the final count: alice (White) 10, bob (Black) 10; 1-0 by the tie-break, on equal points"
        );
    }

    #[test]
    fn solitaire_and_cooperative_results_name_no_internal_reason() {
        let alone = vec!["alice".to_string()];
        assert_eq!(
            outcome("won", "connection", Some(vec![24])).describe(&alone),
            "won by connecting the group, 24 points"
        );
        assert_eq!(
            outcome("won", "connection", Some(vec![1])).describe(&alone),
            "won by connecting the group, 1 point"
        );
        assert_eq!(
            outcome("lost", "timeout", None).describe(&alone),
            "lost on time"
        );
        assert_eq!(
            outcome("lost", "aborted", None).describe(&alone),
            "lost by calling it off once the deal was shown"
        );
        assert_eq!(
            outcome("F", "king-captured", Some(vec![7, 7])).describe(&sides()),
            "capture of the king: grade F, the game is lost"
        );
        for name in [
            "no-moves",
            "out-of-cards",
            "timeout-vs-insufficient-material",
        ] {
            assert!(!reason_words(name).contains('-'), "{name}");
        }
    }
}
