//! Booster Chess: standard chess changed by cards held secretly and checkers stacked
//! under pieces. Your piece on your own checker is boosted (after its move it may take
//! king steps, one per checker spent); on your opponent's it is hobbled (it moves like a
//! pawn, or not at all if it is one). Check and mate count booster reach. The rules and
//! every decision where the rulebook is silent are in `docs/rules/booster.md`.
//!
//! - [`position`]: the position with its stacks, movement, booster reach and legality;
//! - [`cards`]: the 36 cards of appendix A;
//! - [`fen`]: positions with stacks;
//! - [`state`]: the game's turns, phases, hands and piles, and its actions; `record`:
//!   a turn as recorded and the words for steps and stacks;
//! - `read`: typed commands into actions; `view`: what each viewer sees;
//! - [`snapshot`]: the stored form; [`spec`]: the registry's view and the referee's state
//!   machine.

pub mod cards;
mod castling;
pub mod fen;
pub mod position;
mod read;
mod record;
pub mod snapshot;
pub mod spec;
pub mod state;
mod view;
mod why;

pub use castling::CastlingBar;
pub use position::{Pos, Step};
pub use spec::SPEC;
pub use state::{Booster, BoosterAction, Part};

/// The variant's id.
pub const ID: &str = "booster";

#[cfg(test)]
mod tests;
