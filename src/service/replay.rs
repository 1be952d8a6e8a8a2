//! Checking a stored game against its action log: the log numbered from 1 without gaps,
//! no chat event applied twice, and the snapshot equal to the replay of the log from the
//! game's start. Used where games are copied (`postal migrate-db`) and by the tests.

use crate::store::{ActionRow, GameRow};
use crate::variants::api::{Action, GameRules, NewGame, Seat};
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
    let actions = read_log(id, log)?;
    let stored = json(id, "snapshot", &game.snapshot)?;
    let replayed = replay(registry, game, &actions)?;
    let now = replayed
        .snapshot()
        .map_err(|e| format!("game #{id}: {}", e.text))?;
    if now != stored {
        return Err(format!(
            "game #{id}: the stored state differs from the replay of its log"
        ));
    }
    Ok(())
}

/// The seat and action of each entry of game `id`'s log `log`; the first entry that
/// cannot be read otherwise, named.
pub fn read_log(id: i64, log: &[ActionRow]) -> Result<Vec<(Seat, Action)>, String> {
    log.iter()
        .map(|r| {
            serde_json::from_str::<Action>(&r.action)
                .map(|a| (Seat(r.seat), a))
                .map_err(|e| format!("game #{id}: action {} cannot be read: {e}", r.seq))
        })
        .collect()
}

fn json(id: i64, what: &str, text: &str) -> Result<serde_json::Value, String> {
    serde_json::from_str::<serde_json::Value>(text)
        .map_err(|e| format!("game #{id}: its {what} is not JSON: {e}"))
}

/// `game` rebuilt from its start through `actions`, its log (seat and action of each
/// entry), takebacks included: the game its snapshot must equal; why not otherwise,
/// naming the game.
pub fn replay(
    registry: &Registry,
    game: &GameRow,
    actions: &[(Seat, Action)],
) -> Result<Box<dyn GameRules>, String> {
    let id = game.id;
    let start = game
        .start_snapshot
        .as_deref()
        .map(|s| json(id, "starting state", s))
        .transpose()?;
    let options = serde_json::from_str(&game.options)
        .map_err(|e| format!("game #{id}: its options cannot be read: {e}"))?;
    let setup = NewGame {
        fen: game.start_fen.as_deref(),
        options,
        seed: game.seed as u64,
        hidden_seed: None,
    };
    registry
        .replay(&game.variant, start.as_ref(), &setup, actions)
        .map_err(|e| format!("game #{id}: its log does not replay: {}", e.text))
}
