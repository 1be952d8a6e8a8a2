//! Checking a stored game against its action log: the log numbered from 1 without gaps,
//! no chat event applied twice, and the snapshot equal to the replay of the log from the
//! game's start. Used where games are copied (`postal migrate-db`) and by the tests.

use crate::store::{ActionRow, GameRow};
use crate::variants::api::{Action, GameRules, NewGame, RuleError, Seat};
use crate::variants::Registry;

/// Why a stored game is not what replaying its log gives, naming the game.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The log is not numbered 1, 2, 3, ... (the entry, from 1, and its number).
    #[error("game #{game}: the action log has a gap or a duplicate at entry {entry} (seq {seq})")]
    Gap {
        /// The game.
        game: i64,
        /// The entry's place in the log, from 1.
        entry: usize,
        /// Its stored number.
        seq: i64,
    },
    /// An entry's action is not an action.
    #[error("game #{game}: action {seq} cannot be read: {error}")]
    Action {
        /// The game.
        game: i64,
        /// The entry's number.
        seq: i64,
        /// Why not.
        error: serde_json::Error,
    },
    /// A stored state is not JSON (`what`: `snapshot`, `starting state`).
    #[error("game #{game}: its {what} is not JSON: {error}")]
    NotJson {
        /// The game.
        game: i64,
        /// Which state.
        what: &'static str,
        /// Why not.
        error: serde_json::Error,
    },
    /// The options are not the variant's options.
    #[error("game #{game}: its options cannot be read: {error}")]
    Options {
        /// The game.
        game: i64,
        /// Why not.
        error: serde_json::Error,
    },
    /// The variant refused an entry of the log.
    #[error("game #{game}: its log does not replay: {error}")]
    DoesNotReplay {
        /// The game.
        game: i64,
        /// The variant's refusal.
        error: RuleError,
    },
    /// The replayed game's state could not be written.
    #[error("game #{game}: {error}")]
    Snapshot {
        /// The game.
        game: i64,
        /// Why not.
        error: RuleError,
    },
    /// The stored state is not the replayed one.
    #[error("game #{0}: the stored state differs from the replay of its log")]
    Differs(i64),
}

/// Whether `game`, with its action log `log`, is what replaying the log gives; the
/// first difference found otherwise, naming the game.
pub fn check_replay(
    registry: &Registry,
    game: &GameRow,
    log: &[ActionRow],
) -> Result<(), ReplayError> {
    let id = game.id;
    if let Some((n, row)) = log
        .iter()
        .enumerate()
        .find(|(n, row)| row.seq != *n as i64 + 1)
    {
        return Err(ReplayError::Gap {
            game: id,
            entry: n + 1,
            seq: row.seq,
        });
    }
    let actions = read_log(id, log)?;
    let stored = json(id, "snapshot", &game.snapshot)?;
    let replayed = replay(registry, game, &actions)?;
    let now = replayed
        .state_for_replay_check()
        .map_err(|error| ReplayError::Snapshot { game: id, error })?;
    // The stored state as this release reads it (fields it added take their defaults),
    // compared in the variant's terms: what it stores as words for people aside.
    let stored = registry
        .load(&game.variant, &stored)
        .and_then(|rules| rules.state_for_replay_check())
        .map_err(|error| ReplayError::DoesNotReplay { game: id, error })?;
    if now != stored {
        return Err(ReplayError::Differs(id));
    }
    Ok(())
}

/// The seat and action of each entry of game `id`'s log `log`; the first entry that
/// cannot be read otherwise, named.
pub fn read_log(id: i64, log: &[ActionRow]) -> Result<Vec<(Seat, Action)>, ReplayError> {
    log.iter()
        .map(|r| {
            serde_json::from_str::<Action>(&r.action)
                .map(|a| (Seat(r.seat), a))
                .map_err(|error| ReplayError::Action {
                    game: id,
                    seq: r.seq,
                    error,
                })
        })
        .collect()
}

/// `text`, game `id`'s state `what`, read as JSON.
fn json(id: i64, what: &'static str, text: &str) -> Result<serde_json::Value, ReplayError> {
    serde_json::from_str::<serde_json::Value>(text).map_err(|error| ReplayError::NotJson {
        game: id,
        what,
        error,
    })
}

/// `game` rebuilt from its start through `actions`, its log (seat and action of each
/// entry), takebacks included: the game its snapshot must equal; why not otherwise,
/// naming the game.
pub fn replay(
    registry: &Registry,
    game: &GameRow,
    actions: &[(Seat, Action)],
) -> Result<Box<dyn GameRules>, ReplayError> {
    let id = game.id;
    let start = game
        .start_snapshot
        .as_deref()
        .map(|s| json(id, "starting state", s))
        .transpose()?;
    let options = serde_json::from_str(&game.options)
        .map_err(|error| ReplayError::Options { game: id, error })?;
    let setup = NewGame {
        fen: game.start_fen.as_deref(),
        options,
        seed: game.seed as u64,
        hidden_seed: None,
    };
    registry
        .replay(&game.variant, start.as_ref(), &setup, actions)
        .map_err(|error| ReplayError::DoesNotReplay { game: id, error })
}
