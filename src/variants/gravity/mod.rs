//! Gravity Chess: both players' pieces fall towards rank 1. Each turn a player flips a
//! card of their face-down deck (the opponent's twelve pieces, shuffled by a hidden
//! draw), moves every active piece of theirs at least one row down, one at a time in an
//! order they choose, and adds the opponent's piece the card names on rank 8. Pieces that
//! reach rank 1, or whose every way down is blocked by stacked pieces, are stacked and
//! score their row. The rules and every decision where the rulebook is silent are in
//! `docs/rules/gravity.md`.
//!
//! - [`board`]: the board, movement, stacking and scoring, pure;
//! - [`cards`]: the cards of appendix A and the decks;
//! - [`fen`]: positions with the pieces waiting in brackets;
//! - [`state`]: the game's turns and phases, and its actions;
//! - `read`: typed commands into actions; `view`: what each viewer sees; `animation`:
//!   the whole game as a GIF, rebuilt from the record;
//! - [`snapshot`]: the stored form; [`spec`]: the registry's view and the referee's state
//!   machine.

mod animation;
pub mod board;
pub mod cards;
pub mod fen;
mod read;
pub mod snapshot;
pub mod spec;
pub mod state;
mod view;

pub use spec::SPEC;
pub use state::{Gravity, GravityAction};

/// The variant's id.
pub const ID: &str = "gravity";

#[cfg(test)]
mod tests;
