//! What a server's moderator may ask (`moderate ...`, Discord's `/postal-admin moderate`): a
//! stuck game aborted or adjudicated, with a reason, or a player's open challenges ended.
//! The words read here; the referee's part `moderation` checks who asks and does it.

use super::command::{mention, ParseError};
use crate::variants::api::{ABORTED, REASON_MAX};

/// One moderator's action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moderation {
    /// `moderate ID abort [REASON]`: the game called off, unrated.
    Abort {
        /// The game.
        game: i64,
        /// Why, in the moderator's words.
        reason: String,
    },
    /// `moderate ID adjudicate result:white|black|draw [REASON]`: the game ended with
    /// that result, rated as it says.
    Adjudicate {
        /// The game.
        game: i64,
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: &'static str,
        /// Why, in the moderator's words.
        reason: String,
    },
    /// `moderate challenges @user`: every open challenge the user made on this server
    /// cancelled.
    Challenges {
        /// The player's key.
        user: String,
    },
}

impl Moderation {
    /// The result a moderator's ending records: the result, or [`ABORTED`].
    pub fn result(&self) -> Option<&'static str> {
        match self {
            Moderation::Abort { .. } => Some(ABORTED),
            Moderation::Adjudicate { result, .. } => Some(result),
            Moderation::Challenges { .. } => None,
        }
    }
}

/// The usage, for refusals.
pub const USAGE: &str = "moderate ID abort [REASON] | moderate ID adjudicate result:white|black|draw [REASON] | moderate challenges @user";

fn usage() -> ParseError {
    ParseError::Syntax(format!(
        "usage: {} (for example: {})",
        crate::variants::api::usage_mark(USAGE),
        crate::variants::api::command_mark(
            "moderate 12 adjudicate result:white Black has left the server"
        )
    ))
}

/// Reads the words of `moderate` after its name (`raw`, as typed).
pub fn read(raw: &[&str]) -> Result<Moderation, ParseError> {
    let id = |w: &str| {
        let w = w.strip_prefix('#').unwrap_or(w);
        (!w.is_empty() && w.len() <= 12 && w.chars().all(|c| c.is_ascii_digit()))
            .then(|| w.parse::<i64>().ok())
            .flatten()
    };
    let reason = |words: &[&str]| -> Result<String, ParseError> {
        let text = words.join(" ");
        if text.chars().count() > REASON_MAX {
            return Err(ParseError::Syntax(format!(
                "a moderator's reason is at most {REASON_MAX} characters"
            )));
        }
        Ok(text)
    };
    match raw {
        [w, who] if w.eq_ignore_ascii_case("challenges") => match mention(who) {
            Some(user) => Ok(Moderation::Challenges { user }),
            None => Err(usage()),
        },
        [n, action, rest @ ..] => {
            let game = id(n).ok_or_else(usage)?;
            match action.to_lowercase().as_str() {
                "abort" => Ok(Moderation::Abort {
                    game,
                    reason: reason(rest)?,
                }),
                "adjudicate" => {
                    let Some((first, rest)) = rest.split_first() else {
                        return Err(usage());
                    };
                    let result = match first.to_lowercase().as_str() {
                        "result:white" | "white" | "1-0" => "1-0",
                        "result:black" | "black" | "0-1" => "0-1",
                        "result:draw" | "draw" | "1/2-1/2" => "1/2-1/2",
                        _ => return Err(usage()),
                    };
                    Ok(Moderation::Adjudicate {
                        game,
                        result,
                        reason: reason(rest)?,
                    })
                }
                _ => Err(usage()),
            }
        }
        _ => Err(usage()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moderators_words_are_read() {
        assert_eq!(
            read(&["12", "adjudicate", "result:white", "gone", "for", "good"]),
            Ok(Moderation::Adjudicate {
                game: 12,
                result: "1-0",
                reason: "gone for good".into()
            })
        );
        assert_eq!(
            read(&["#3", "ABORT"]),
            Ok(Moderation::Abort {
                game: 3,
                reason: String::new()
            })
        );
        assert_eq!(
            read(&["challenges", "<@123456789012345678>"]),
            Ok(Moderation::Challenges {
                user: "123456789012345678".into()
            })
        );
        let mut long = vec!["3", "abort"];
        long.extend(std::iter::repeat_n("word", 100));
        let bad: Vec<Vec<&str>> = vec![
            vec!["12"],
            vec!["x", "abort"],
            vec!["12", "adjudicate"],
            vec!["12", "adjudicate", "result:purple"],
            vec!["12", "explode"],
            vec!["challenges", "bob"],
            long,
        ];
        for bad in &bad {
            assert!(read(bad).is_err(), "{bad:?}");
        }
    }
}
