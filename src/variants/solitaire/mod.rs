//! What the two solitaires share: the piece and position cards of appendix A and their
//! face-down piles ([`cards`]), the board with its attacks and its connected groups
//! ([`board`]), how an attempt ends and is scored ([`Ended`]), and how squares are read
//! from what the player types ([`read_squares`]). Parade Chess Solitaire
//! (`variants::parade`) and Neighbour Chess Solitaire (`variants::neighbour`) are built
//! on it.

pub mod board;
pub mod cards;

use crate::rules::{Role, Square};
use crate::variants::api::{GameOutcome, RuleError};
use serde::{Deserialize, Serialize};

pub use board::{Adjacency, Board};
pub use cards::{piece_deck, position_deck, Pile, PlayingCard};

/// How an attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ended {
    /// The pieces form one connected group: won, scored.
    Connected,
    /// The cards (and in Parade the sixteen cards of negative points) ran out first.
    Exhausted,
    /// No action is left that the rules allow (no piece can move and no card can be
    /// spent on an addition).
    Stuck,
    /// The player gave up.
    Resigned,
    /// The player's time ran out.
    TimedOut,
    /// Called off before the first action: no result.
    Aborted,
}

impl Ended {
    /// The outcome of an attempt that ended so, with `score` its points if won: a
    /// connected group is `won` with its score; every other end is `lost`, with no
    /// points (`docs/rules/parade.md`, "Score").
    pub fn outcome(self, score: i32) -> Option<GameOutcome> {
        let (result, reason) = match self {
            Ended::Connected => ("won", "connection"),
            Ended::Exhausted => ("lost", "out-of-cards"),
            Ended::Stuck => ("lost", "no-move"),
            Ended::Resigned => ("lost", "resignation"),
            Ended::TimedOut => ("lost", "timeout"),
            Ended::Aborted => return None,
        };
        Some(GameOutcome {
            result: result.into(),
            reason: reason.into(),
            score: (self == Ended::Connected).then(|| vec![score]),
        })
    }
}

/// Why a stored card, board or square of a solitaire cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoredError {
    /// Not a playing card (the text as stored).
    #[error("not a card: {0}")]
    NotACard(String),
    /// Not an 8x8 piece placement (the first 80 characters).
    #[error("not a board: {0}")]
    NotABoard(String),
    /// Not a square's name (the first 10 characters).
    #[error("not a square: {0}")]
    NotASquare(String),
}

/// A square, stored as its name (`c1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct At(pub Square);

impl From<At> for String {
    fn from(a: At) -> String {
        a.0.to_string()
    }
}

impl TryFrom<String> for At {
    type Error = StoredError;

    fn try_from(s: String) -> Result<At, StoredError> {
        Square::parse(&s)
            .map(At)
            .ok_or_else(|| StoredError::NotASquare(s.chars().take(10).collect()))
    }
}

/// The longest command text read; anything longer is refused unread.
const MAX_TEXT: usize = 80;

/// Words a player may write between squares, which say nothing more (`d3 moves c1 to b2`,
/// `c3 to c7 with d4`).
const FILLERS: &[&str] = &["to", "with", "moves", "move", "by", "from", "on"];

/// The squares in `text`, in order, each perhaps after a piece letter (`Nd3: c1-b2`,
/// `d3 c1 b2`, `c3 c7 with d4`): words are split at spaces, `:`, `-` and `,`, and
/// [`FILLERS`] are skipped. `usage` is the refusal for anything else.
pub fn read_squares(
    text: &str,
    usage: impl Fn() -> RuleError,
) -> Result<Vec<(Option<Role>, Square)>, RuleError> {
    if text.chars().count() > MAX_TEXT {
        return Err(usage());
    }
    let mut out = Vec::new();
    for word in text
        .split(|c: char| c.is_whitespace() || matches!(c, ':' | '-' | ','))
        .filter(|w| !w.is_empty())
    {
        let lower = word.to_lowercase();
        if FILLERS.contains(&lower.as_str()) {
            continue;
        }
        if let Some(sq) = Square::parse(word) {
            out.push((None, sq));
            continue;
        }
        let mut chars = word.chars();
        let role = chars
            .next()
            .and_then(Role::from_char)
            .filter(|r| *r != Role::Pawn);
        match (role, Square::parse(chars.as_str())) {
            (Some(role), Some(sq)) => out.push((Some(role), sq)),
            _ => return Err(usage()),
        }
    }
    Ok(out)
}

/// A solitaire's record as PGN: the referee's tags, the variant, how it ended
/// (`Termination`, and `Score` when won), in the order of every record
/// ([`crate::notation::pgn::tag_section`]), then the numbered actions wrapped at 80
/// columns. PGN has no result for a game of one, so the movetext ends with `*` after
/// the outcome in a comment.
pub fn pgn(
    variant: &str,
    tags: &[(String, String)],
    record: &[String],
    outcome: Option<GameOutcome>,
) -> String {
    let mut all = tags.to_vec();
    all.push(("Variant".into(), variant.into()));
    if let Some(o) = &outcome {
        let ending = crate::notation::pgn::termination(&o.reason);
        all.push(("Termination".into(), ending.into()));
        all.push(("PostalReason".into(), o.reason.clone()));
        if let Some([score]) = o.score.as_deref() {
            all.push(("Score".into(), score.to_string()));
        }
    }
    let mut out = crate::notation::pgn::tag_section(&all);
    let mut tokens: Vec<String> = record
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{}. {a}", i + 1))
        .collect();
    if let Some(o) = outcome {
        tokens.push(format!("{{{o}}}"));
    }
    tokens.push("*".into());
    out.push_str(&crate::notation::pgn::wrap_movetext(tokens));
    out.push('\n');
    out
}

/// `the pieces form 3 groups`, for a solitaire's counters.
pub fn groups_words(n: usize) -> String {
    format!("the pieces form {n} group{}", if n == 1 { "" } else { "s" })
}

/// The record numbered as players read it: `1. add 2. Nd3: c1-b2`.
pub fn numbered(record: &[String]) -> String {
    record
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{}. {a}", i + 1))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn squares_are_read_with_or_without_piece_letters_and_fillers() {
        let usage = || RuleError::syntax("usage");
        let want = vec![
            (Some(Role::Knight), sq("d3")),
            (None, sq("c1")),
            (None, sq("b2")),
        ];
        assert_eq!(read_squares("Nd3: c1-b2", usage).unwrap(), want);
        assert_eq!(read_squares("nd3 c1 to b2", usage).unwrap(), want);
        assert_eq!(
            read_squares("d3 c1 b2", usage).unwrap(),
            vec![(None, sq("d3")), (None, sq("c1")), (None, sq("b2"))]
        );
        assert_eq!(read_squares("c3 c7 with d4", usage).unwrap().len(), 3);
        assert!(read_squares("d3 c1 z9", usage).is_err());
        assert!(read_squares("Pd3 c1 b2", usage).is_err());
        assert!(read_squares(&"a1 ".repeat(40), usage).is_err());
    }

    #[test]
    fn a_solitaires_pgn_ends_with_its_outcome_and_no_chess_result() {
        let record: Vec<String> = (0..12).map(|i| format!("Nd{}: c1-b2", i % 8 + 1)).collect();
        let text = pgn(
            "Parade Chess Solitaire",
            &[("White".into(), "alice".into())],
            &record,
            Ended::Connected.outcome(-2),
        );
        assert!(text.starts_with("[White \"alice\"]\n[Variant \"Parade Chess Solitaire\"]\n[Score \"-2\"]\n[Termination \"normal\"]\n[PostalReason \"connection\"]\n\n1. Nd1: c1-b2"), "{text}");
        assert!(
            text.ends_with("{won by connection (score -2)} *\n"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        let live = pgn("Parade Chess Solitaire", &[], &[], None);
        assert_eq!(live, "[Variant \"Parade Chess Solitaire\"]\n\n*\n");
    }

    #[test]
    fn only_a_connected_group_wins_and_scores() {
        let won = Ended::Connected.outcome(5).unwrap();
        assert_eq!(won.to_string(), "won by connection (score 5)");
        let overtime = Ended::Connected.outcome(-3).unwrap();
        assert_eq!(overtime.score, Some(vec![-3]));
        let lost = Ended::Exhausted.outcome(-16).unwrap();
        assert_eq!(lost.to_string(), "lost by out-of-cards");
        assert!(Ended::Aborted.outcome(8).is_none());
    }
}
