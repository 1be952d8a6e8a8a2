//! Checking a stored game against its action log: the log numbered from 1 without gaps,
//! no chat event applied twice, and the snapshot equal to the replay of the log from the
//! game's start. Used where games are copied (`postal migrate-db`) and by the tests.

use crate::store::{ActionRow, GameRow};
use crate::variants::api::{Action, NewGame, Seat};
use crate::variants::Registry;

/// Whether `game`, with its action log `log`, is what replaying the log gives; the
/// first difference found otherwise, naming the game.
pub fn check_replay(registry: &Registry, game: &GameRow, log: &[ActionRow]) -> Result<(), String> {
    let id = game.id;
    if let Some((n, row)) = log
        .iter()
        .enumerate()
        .find(|(n, row)| row.seq != *n as i64 + 1)
    {
        return Err(format!(
            "game #{id}: the action log has a gap or a duplicate at entry {} (seq {})",
            n + 1,
            row.seq
        ));
    }
    let mut events: Vec<&str> = log.iter().filter_map(|r| r.event_id.as_deref()).collect();
    let applied = events.len();
    events.sort_unstable();
    events.dedup();
    if events.len() != applied {
        return Err(format!("game #{id}: a chat event was applied twice"));
    }
    let json = |what: &str, text: &str| {
        serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| format!("game #{id}: its {what} is not JSON: {e}"))
    };
    let actions = log
        .iter()
        .map(|r| {
            serde_json::from_str::<Action>(&r.action)
                .map(|a| (Seat(r.seat), a))
                .map_err(|e| format!("game #{id}: action {} cannot be read: {e}", r.seq))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let stored = json("snapshot", &game.snapshot)?;
    let start = game
        .start_snapshot
        .as_deref()
        .map(|s| json("starting state", s))
        .transpose()?;
    let options = serde_json::from_str(&game.options)
        .map_err(|e| format!("game #{id}: its options cannot be read: {e}"))?;
    let setup = NewGame {
        fen: game.start_fen.as_deref(),
        options,
        seed: game.seed as u64,
        hidden_seed: None,
    };
    let replayed = registry
        .replay(&game.variant, start.as_ref(), &setup, &actions)
        .map_err(|e| format!("game #{id}: its log does not replay: {}", e.text))?;
    if replayed.snapshot() != stored {
        return Err(format!(
            "game #{id}: the stored state differs from the replay of its log"
        ));
    }
    Ok(())
}
