//! The referee service: commands in, messages out, with persistence and clocks. It knows
//! nothing of Discord; the Discord and console adapters both drive it.

pub mod chess;
pub mod command;
pub mod referee;
pub mod rules;

pub use rules::{
    Action, ClaimKind, Event, GameOutcome, GameRules, OfferKind, Prompt, RuleError, Seat, View,
    Viewer,
};

use crate::rules::Variant;

/// A fresh game of the named variant.
pub fn new_game(variant: &str) -> Result<Box<dyn GameRules>, RuleError> {
    let v: Variant = variant
        .parse()
        .map_err(|e: crate::rules::UnknownVariant| RuleError::new(e.to_string()))?;
    Ok(Box::new(chess::ChessRules::new(v)))
}

/// Rebuilds a game from its stored snapshot.
pub fn load_game(
    variant: &str,
    snapshot: &serde_json::Value,
) -> Result<Box<dyn GameRules>, RuleError> {
    let v: Variant = variant
        .parse()
        .map_err(|e: crate::rules::UnknownVariant| RuleError::new(e.to_string()))?;
    let _ = v;
    let snap: chess::ChessSnapshot = serde_json::from_value(snapshot.clone())
        .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
    Ok(Box::new(chess::ChessRules::from_snapshot(&snap)?))
}

/// Replays an action log from the start of a new game of `variant`.
pub fn replay<'a>(
    variant: &str,
    log: impl IntoIterator<Item = &'a (Seat, Action)>,
) -> Result<Box<dyn GameRules>, RuleError> {
    let mut game = new_game(variant)?;
    for (seat, action) in log {
        game.apply(*seat, action)?;
    }
    Ok(game)
}
