//! The record of a Booster Chess turn and the words the game uses for it: a turn as
//! typed (`Nf3 boost g5 h6 card 9h on c4`), a booster step (`g5`, `e8=Q`), and what a
//! move, a step or a card did to the stacks.

use super::cards::Card;
use super::position::{Effects, Pos, Step};
use crate::rules::{Role, Square};
use crate::variants::api::RuleError;
use serde::{Deserialize, Serialize};

/// `1 card`, `2 cards`.
pub fn plural(n: usize, word: &str) -> String {
    crate::variants::api::plural(n, word, &format!("{word}s"))
}

/// One turn of the record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The move in SAN.
    pub san: String,
    /// The king steps (`g5`, `e8=Q`).
    pub steps: Vec<String>,
    /// The card played and the square of the piece it went under.
    pub card: Option<(Card, String)>,
    /// `+` or `#` after the turn, or nothing.
    pub suffix: String,
}

impl TurnRecord {
    /// The turn as typed: `Nf3 boost g5 h6 card 9h on c4`, check suffix at the end.
    pub fn text(&self) -> String {
        let mut out = self.san.clone();
        if !self.steps.is_empty() {
            out.push_str(" boost ");
            out.push_str(&self.steps.join(" "));
        }
        if let Some((c, sq)) = &self.card {
            out.push_str(&format!(" card {} on {sq}", c.code()));
        }
        out.push_str(&self.suffix);
        out
    }
}

/// A step as written in the record: `g5`, `e8=Q`.
pub fn step_text(s: Step) -> String {
    match s.promotion {
        Some(r) => format!("{}={}", s.to, r.upper_char()),
        None => s.to.to_string(),
    }
}

/// Reads a step: a square, optionally with a promotion (`e8=Q`, `e8q`).
pub fn read_step(text: &str) -> Result<Step, RuleError> {
    let t = text.trim();
    let bad = || {
        RuleError::syntax(format!(
            "a booster step is a square next to the piece, like g5 (a pawn promoting: e8=Q), not '{}'",
            t.chars().take(10).collect::<String>()
        ))
    };
    let sq = t.get(..2).and_then(Square::parse).ok_or_else(bad)?;
    let rest = t.get(2..).ok_or_else(bad)?.trim_start_matches('=');
    let promotion = match rest.chars().collect::<Vec<_>>().as_slice() {
        [] => None,
        [c] => match Role::from_char(c.to_ascii_lowercase()) {
            Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => Some(r),
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    };
    Ok(Step { to: sq, promotion })
}

/// What an action did to the stacks, for the note: cancelled pairs, hobble checkers
/// shed on the far rank, and the stack now under the piece on `sq`.
pub(super) fn stack_news(effects: Effects, after: &Pos, sq: Square) -> String {
    let mut out = Vec::new();
    if effects.cancelled > 0 {
        out.push(format!(
            "{} of checkers {} back to their owners",
            plural(effects.cancelled as usize, "pair"),
            if effects.cancelled == 1 {
                "cancels and goes"
            } else {
                "cancel and go"
            }
        ));
    }
    if effects.shed > 0 {
        out.push(format!(
            "{} fall{} off on the far rank",
            plural(effects.shed as usize, "hobble checker"),
            if effects.shed == 1 { "s" } else { "" }
        ));
    }
    let s = after.stack(sq);
    if s != 0 {
        out.push(format!(
            "{} on {sq}: {}",
            plural(
                s.unsigned_abs() as usize,
                if s > 0 {
                    "white checker"
                } else {
                    "black checker"
                }
            ),
            if after.hobbled(sq) {
                "hobbled"
            } else {
                "boosted"
            },
        ));
    }
    if out.is_empty() {
        String::new()
    } else {
        format!(" ({})", out.join("; "))
    }
}
