//! The referee service: commands in, messages out, with persistence and clocks. It knows
//! nothing of Discord; the Discord and console adapters both drive it.

pub mod bench;
pub mod chess;
pub mod command;
pub mod deadlines;
pub mod referee;
pub mod rules;
pub mod settings;

pub use rules::{
    Action, ClaimKind, Event, GameOutcome, GameRules, OfferKind, Prompt, RuleError, Seat, View,
    Viewer,
};

use crate::rules::Variant;

fn variant_named(name: &str) -> Result<Variant, RuleError> {
    name.parse()
        .map_err(|e: crate::rules::UnknownVariant| RuleError::new(e.to_string()))
}

/// A fresh game of the named variant.
pub fn new_game(variant: &str) -> Result<Box<dyn GameRules>, RuleError> {
    Ok(Box::new(chess::ChessRules::new(variant_named(variant)?)))
}

/// A fresh game of the named variant from its start, or from the position `fen` when one
/// is given (a game set up for testing or teaching).
pub fn new_game_from(variant: &str, fen: Option<&str>) -> Result<Box<dyn GameRules>, RuleError> {
    match fen {
        None => new_game(variant),
        Some(f) => Ok(Box::new(chess::ChessRules::from_fen(
            variant_named(variant)?,
            f,
        )?)),
    }
}

/// Rebuilds a game from its stored snapshot.
pub fn load_game(
    variant: &str,
    snapshot: &serde_json::Value,
) -> Result<Box<dyn GameRules>, RuleError> {
    variant_named(variant)?;
    let snap: chess::ChessSnapshot = serde_json::from_value(snapshot.clone())
        .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
    Ok(Box::new(chess::ChessRules::from_snapshot(&snap)?))
}

/// Replays an action log from the start of a new game of `variant` (from `start`, a FEN,
/// when the game was set up from a position).
pub fn replay<'a>(
    variant: &str,
    start: Option<&str>,
    log: impl IntoIterator<Item = &'a (Seat, Action)>,
) -> Result<Box<dyn GameRules>, RuleError> {
    let mut game = new_game_from(variant, start)?;
    for (seat, action) in log {
        game.apply(*seat, action)?;
    }
    Ok(game)
}
