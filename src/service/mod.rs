//! The referee service: commands in, messages out, with persistence and clocks. It knows
//! nothing of Discord; the Discord and console adapters both drive it.

pub mod bench;
pub mod chess;
pub mod chesswords;
pub mod command;
pub mod deadlines;
pub mod random;
pub mod referee;
pub mod rules;
pub mod settings;
pub mod split_brain;

pub use rules::{
    Action, ClaimKind, Event, GameOptions, GameOutcome, GameRules, OfferKind, Prompt, RuleError,
    Seat, Standing, View, Viewer,
};

use crate::rules::Variant;

/// The command names of every variant the referee plays: the board engine's variants,
/// then Split-Brain Chess (a game of the service over the Los Alamos board) and Secret
/// Chesswords (over its own board).
pub fn variant_names() -> Vec<&'static str> {
    chess_variants()
        .map(|v| v.name())
        .chain(["split-brain", Variant::Chesswords.name()])
        .collect()
}

/// The engine's variants that are played as chess games of their own ([`chess::ChessRules`]);
/// the others are only the boards of the service's games (Secret Chesswords' board).
pub fn chess_variants() -> impl Iterator<Item = Variant> {
    Variant::ALL
        .into_iter()
        .filter(|v| *v != Variant::Chesswords)
}

/// A variant's name without case, hyphens, underscores or spaces (`Split_Brain` is
/// `splitbrain`).
fn name_key(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Whether `name` means Split-Brain Chess (`split-brain`, `splitbrain`, `split_brain`).
fn is_split_brain(name: &str) -> bool {
    name_key(name) == "splitbrain"
}

/// Whether `name` means Secret Chesswords (`chesswords`, `secret-chesswords`,
/// `chess_words`).
fn is_chesswords(name: &str) -> bool {
    matches!(name_key(name).as_str(), "chesswords" | "secretchesswords")
}

fn variant_named(name: &str) -> Result<Variant, RuleError> {
    name.parse()
        .ok()
        .filter(|v| chess_variants().any(|c| c == *v))
        .ok_or_else(|| {
            RuleError::new(format!(
                "unknown variant '{}' (known: {})",
                name.chars().take(30).collect::<String>(),
                variant_names().join(", ")
            ))
        })
}

/// A fresh game of the named variant.
pub fn new_game(variant: &str) -> Result<Box<dyn GameRules>, RuleError> {
    new_game_from(variant, None)
}

/// A fresh game of the named variant from its start, or from the position `fen` when one
/// is given (a game set up for testing or teaching), with the default options.
pub fn new_game_from(variant: &str, fen: Option<&str>) -> Result<Box<dyn GameRules>, RuleError> {
    new_game_with(variant, fen, &GameOptions::default())
}

/// A fresh game of the named variant, from `fen` when one is given, set up with
/// `options` (its seed and its challenge's options). An option the variant does not take
/// is refused.
pub fn new_game_with(
    variant: &str,
    fen: Option<&str>,
    options: &GameOptions,
) -> Result<Box<dyn GameRules>, RuleError> {
    if is_chesswords(variant) {
        return Ok(Box::new(chesswords::game::Chesswords::new(fen, options)?));
    }
    if options.timer_minutes.is_some() {
        return Err(RuleError::new(
            "timer:N is for chesswords games (the minutes for the finale's words)",
        ));
    }
    if is_split_brain(variant) {
        return Ok(Box::new(match fen {
            None => split_brain::SplitBrain::new(),
            Some(f) => split_brain::SplitBrain::from_fen(f)?,
        }));
    }
    let v = variant_named(variant)?;
    Ok(Box::new(match fen {
        None => chess::ChessRules::new(v),
        Some(f) => chess::ChessRules::from_fen(v, f)?,
    }))
}

/// Rebuilds a game from its stored snapshot.
pub fn load_game(
    variant: &str,
    snapshot: &serde_json::Value,
) -> Result<Box<dyn GameRules>, RuleError> {
    let bad = |e: serde_json::Error| RuleError::new(format!("bad snapshot: {e}"));
    if is_split_brain(variant) {
        let snap: split_brain::SplitSnapshot =
            serde_json::from_value(snapshot.clone()).map_err(bad)?;
        return Ok(Box::new(split_brain::SplitBrain::from_snapshot(&snap)?));
    }
    if is_chesswords(variant) {
        let state: chesswords::game::State =
            serde_json::from_value(snapshot.clone()).map_err(bad)?;
        return Ok(Box::new(chesswords::game::Chesswords::from_snapshot(
            &state,
        )?));
    }
    variant_named(variant)?;
    let snap: chess::ChessSnapshot = serde_json::from_value(snapshot.clone()).map_err(bad)?;
    Ok(Box::new(chess::ChessRules::from_snapshot(&snap)?))
}
/// Replays an action log from the start of a new game of `variant` (from `start`, a FEN,
/// when the game was set up from a position).
pub fn replay<'a>(
    variant: &str,
    start: Option<&str>,
    log: impl IntoIterator<Item = &'a (Seat, Action)>,
) -> Result<Box<dyn GameRules>, RuleError> {
    replay_with(variant, start, &GameOptions::default(), log)
}

/// [`replay`] for a game set up with `options` (a game with seeded draws needs its seeds;
/// one whose hidden draws came from the operating system replays with [`replay_stored`]).
pub fn replay_with<'a>(
    variant: &str,
    start: Option<&str>,
    options: &GameOptions,
    log: impl IntoIterator<Item = &'a (Seat, Action)>,
) -> Result<Box<dyn GameRules>, RuleError> {
    let mut game = new_game_with(variant, start, options)?;
    for (seat, action) in log {
        game.apply(*seat, action)?;
    }
    Ok(game)
}

/// Replays a stored game's action log from the game as it was set up, which its snapshot
/// `stored` records: a Secret Chesswords game from its seed, timer and stored deal (a
/// hidden draw that no seed gives again), any other game from its start (`start`, a FEN,
/// when it was set up from a position).
pub fn replay_stored<'a>(
    variant: &str,
    start: Option<&str>,
    stored: &serde_json::Value,
    log: impl IntoIterator<Item = &'a (Seat, Action)>,
) -> Result<Box<dyn GameRules>, RuleError> {
    let mut game: Box<dyn GameRules> = if is_chesswords(variant) {
        let state: chesswords::game::State = serde_json::from_value(stored.clone())
            .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
        Box::new(chesswords::game::Chesswords::initial(&state)?)
    } else {
        new_game_from(variant, start)?
    };
    for (seat, action) in log {
        game.apply(*seat, action)?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chesswords_is_made_by_its_spellings_with_its_seed_and_timer() {
        assert!(variant_names().contains(&"chesswords"));
        let options = GameOptions {
            seed: 5,
            timer_minutes: Some(2),
            hidden_seed: None,
        };
        for name in [
            "chesswords",
            "Secret-Chesswords",
            "chess_words",
            "secret chesswords",
        ] {
            let g = new_game_with(name, None, &options).unwrap();
            assert_eq!(g.variant(), "chesswords");
            assert_eq!(g.seat_count(), 2);
            let back = load_game(name, &g.snapshot()).unwrap();
            assert_eq!(back.snapshot(), g.snapshot());
        }
        let other = GameOptions {
            seed: 6,
            timer_minutes: Some(2),
            hidden_seed: None,
        };
        let a = new_game_with("chesswords", None, &options).unwrap();
        let b = new_game_with("chesswords", None, &other).unwrap();
        assert_ne!(a.export_fields()["letters"], b.export_fields()["letters"]);
        let bad = GameOptions {
            seed: 5,
            timer_minutes: Some(9),
            hidden_seed: None,
        };
        let e = new_game_with("chesswords", None, &bad).err().unwrap();
        assert!(e.0.contains("1 to 5 minutes"), "{e}");
        let e = new_game_with("standard", None, &options).err().unwrap();
        assert!(e.0.contains("timer:N is for chesswords"), "{e}");
        // Not a plain chess game: the engine's Chesswords board is not offered as one.
        assert!(chess_variants().all(|v| v != Variant::Chesswords));
    }
}
