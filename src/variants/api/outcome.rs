//! How a game ended, in the form messages and exports use.

use crate::rules::EndReason;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// Why a game ended: the name records and exports use (`checkmate`, `fast-fifty`,
/// `connection`) and the words people read, as a noun phrase that fits after "wins by"
/// or before a colon (`capture of the king`). Both come from one source, the variant
/// whose rule ended the game: the engine's [`EndReason`] for the endings of chess, a
/// variant's own constant for its own (a solitaire's `connection`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reason {
    name: Cow<'static, str>,
    words: Cow<'static, str>,
}

impl Reason {
    /// A reason of a variant's own: its `name` and its `words`.
    pub const fn new(name: &'static str, words: &'static str) -> Reason {
        Reason {
            name: Cow::Borrowed(name),
            words: Cow::Borrowed(words),
        }
    }

    /// The name in records and exports (`king-captured`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The words for people (`capture of the king`).
    pub fn words(&self) -> &str {
        &self.words
    }
}

impl From<EndReason> for Reason {
    fn from(reason: EndReason) -> Reason {
        Reason {
            name: reason.name(),
            words: reason.words(),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// How a game ended: result, reason and score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// `1-0`, `0-1`, `1/2-1/2`, or the variant's own (a solitaire's `won`).
    pub result: String,
    /// Why, by name and in words.
    pub reason: Reason,
    /// Points per seat, where the variant scores points (negative in Secret Chesswords
    /// when a player's unused letters outweigh their points).
    pub score: Option<Vec<i32>>,
}

impl GameOutcome {
    /// A result and its reason, without points.
    pub fn new(result: &str, reason: impl Into<Reason>) -> GameOutcome {
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
            outcome.map(|o| o.reason.name()),
        );
        (header, result)
    }
}

/// An outcome as a variant's stored state keeps it
/// (`{"result":"F","reason":"passes","score":[7,7]}`): the reason by its name alone. The
/// variant that reads it back gives the reason again ([`NamedOutcome::with`]), words
/// and all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedOutcome {
    /// As [`GameOutcome::result`].
    pub result: String,
    /// The reason's name.
    pub reason: String,
    /// As [`GameOutcome::score`].
    pub score: Option<Vec<i32>>,
}

impl From<&GameOutcome> for NamedOutcome {
    fn from(o: &GameOutcome) -> NamedOutcome {
        NamedOutcome {
            result: o.result.clone(),
            reason: o.reason.name().to_string(),
            score: o.score.clone(),
        }
    }
}

impl NamedOutcome {
    /// The outcome again, with `reason`, the one this outcome's name stands for.
    pub fn with(&self, reason: Reason) -> GameOutcome {
        GameOutcome {
            result: self.result.clone(),
            reason,
            score: self.score.clone(),
        }
    }
}

impl GameOutcome {
    /// The outcome for people, leading with what happened and who won, in words, with
    /// the points where the game scores them: `alice (White) wins by checkmate (1-0)`,
    /// `agreed impasse: alice (White) 4, bob (Black) 6; 0-1 on points`, `drawn by
    /// stalemate (1/2-1/2)`, `capture of the king: grade F, the game is lost`. `sides`
    /// names each side as messages do (`alice (White)`); a solitaire has one.
    pub fn describe(&self, sides: &[String]) -> String {
        let how = self.reason.words();
        let name = self.reason.name();
        let side = |i: usize| sides.get(i).cloned().unwrap_or_else(|| "?".into());
        let wins = |i: usize| {
            // A team (`alice & bob (White)`) wins together.
            let verb = if side(i).contains(" & ") {
                "win"
            } else {
                "wins"
            };
            match name {
                "timeout" => format!("{} {verb} on time ({})", side(i), self.result),
                _ => format!("{} {verb} by {how} ({})", side(i), self.result),
            }
        };
        match (self.result.as_str(), self.score.as_deref()) {
            ("won", Some([points])) => {
                format!("won by {how}, {}", super::plural(points, "point", "points"))
            }
            ("won", _) => format!("won by {how}"),
            ("lost", _) if name == "timeout" => "lost on time".into(),
            ("lost", _) => format!("lost by {how}"),
            // A full win that also scores (Chess#'s 10-0) is said as a win.
            (r @ ("1-0" | "0-1"), Some([a, b]))
                if matches!(
                    name,
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
                    _ if name == "score" && a == b => {
                        format!("{r} by the tie-break, on equal points")
                    }
                    _ if name == "score" => format!("{r} by score"),
                    _ => format!("{r} on points"),
                };
                format!("{how}: {} {a}, {} {b}; {on}", side(0), side(1))
            }
            ("1-0", _) => wins(0),
            ("0-1", _) => wins(1),
            ("1/2-1/2", _) => match name {
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

    fn outcome(result: &str, reason: impl Into<Reason>, score: Option<Vec<i32>>) -> GameOutcome {
        GameOutcome {
            score,
            ..GameOutcome::new(result, reason)
        }
    }

    fn sides() -> Vec<String> {
        vec!["alice (White)".into(), "bob (Black)".into()]
    }

    #[test]
    fn results_say_who_won_and_how_in_words() {
        let say = |r, why: EndReason| outcome(r, why, None).describe(&sides());
        assert_eq!(
            say("1-0", EndReason::Checkmate),
            "alice (White) wins by checkmate (1-0)"
        );
        assert_eq!(
            say("0-1", EndReason::Timeout),
            "bob (Black) wins on time (0-1)"
        );
        assert_eq!(
            say("0-1", EndReason::KingCaptured),
            "bob (Black) wins by capture of the king (0-1)"
        );
        assert_eq!(
            say("1/2-1/2", EndReason::Agreement),
            "drawn by agreement (1/2-1/2)"
        );
        let insufficient = say("1/2-1/2", EndReason::TimeoutVsInsufficientMaterial);
        assert!(!insufficient.contains("timeout-vs"), "{insufficient}");
        assert!(insufficient.starts_with("drawn: the time ran out"));
        let team = outcome("1-0", EndReason::Resignation, None)
            .describe(&["alice & carol (White)".into(), "bob & dave (Black)".into()]);
        assert_eq!(team, "alice & carol (White) win by resignation (1-0)");
    }

    #[test]
    fn an_ending_says_its_own_words_and_records_its_own_name() {
        let five = outcome("1-0", EndReason::CheckLimit(5), None);
        assert_eq!(
            five.describe(&sides()),
            "alice (White) wins by giving the fifth check (1-0)"
        );
        assert_eq!(five.reason.name(), "five-checks");
        assert_eq!(five.to_string(), "1-0 by five-checks");
        let own = outcome(
            "won",
            Reason::new("own-goal", "reaching the own goal"),
            None,
        );
        assert_eq!(own.describe(&[]), "won by reaching the own goal");
        let stored = NamedOutcome::from(&own);
        assert_eq!(stored.reason, "own-goal");
        assert_eq!(stored.with(own.reason.clone()), own);
    }

    #[test]
    fn chess_sharp_partial_results_give_the_points_not_a_win() {
        let o = outcome("0-1", EndReason::FastFifty, Some(vec![4, 6]));
        assert_eq!(
            o.describe(&sides()),
            "agreed impasse: alice (White) 4, bob (Black) 6; 0-1 on points"
        );
        assert!(!o.describe(&sides()).contains("wins"));
        let o = outcome("0-1", EndReason::Timeout, Some(vec![0, 10]));
        assert_eq!(
            o.describe(&sides()),
            "bob (Black) wins on time (0-1); points 0-10"
        );
        let o = outcome("1-0", EndReason::StalemateClaim, Some(vec![8, 2]));
        assert_eq!(
            o.describe(&sides()),
            "stalemate: alice (White) 8, bob (Black) 2; 1-0 on points"
        );
    }

    #[test]
    fn a_final_count_is_a_win_by_score_or_by_the_tie_break() {
        let count = || Reason::new("score", "the final count");
        let o = outcome("0-1", count(), Some(vec![11, 12]));
        assert_eq!(
            o.describe(&sides()),
            "the final count: alice (White) 11, bob (Black) 12; 0-1 by score"
        );
        let o = outcome("1-0", count(), Some(vec![10, 10]));
        assert_eq!(
            o.describe(&sides()),
            "the final count: alice (White) 10, bob (Black) 10; 1-0 by the tie-break, on equal points"
        );
    }

    #[test]
    fn solitaire_and_cooperative_results_say_won_lost_or_a_grade() {
        let alone = vec!["alice".to_string()];
        let connected = || Reason::new("connection", "connecting the group");
        assert_eq!(
            outcome("won", connected(), Some(vec![24])).describe(&alone),
            "won by connecting the group, 24 points"
        );
        assert_eq!(
            outcome("won", connected(), Some(vec![1])).describe(&alone),
            "won by connecting the group, 1 point"
        );
        assert_eq!(
            outcome("lost", EndReason::Timeout, None).describe(&alone),
            "lost on time"
        );
        assert_eq!(
            outcome("F", EndReason::KingCaptured, Some(vec![7, 7])).describe(&sides()),
            "capture of the king: grade F, the game is lost"
        );
    }
}
