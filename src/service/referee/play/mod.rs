//! The part [`Play`](super::parts::Play): playing a game: which messages are for the
//! referee, acting under the game's lock, takebacks, conditional moves, the engine's
//! turns, and reading a game's record. Each file is an `impl Play` of its own.

use super::*;

pub(super) mod acting;
pub(super) mod chat;
pub(super) mod conditional;
pub(super) mod engine_turn;
pub(super) mod reading;
pub(super) mod records;
pub(super) mod takeback;
