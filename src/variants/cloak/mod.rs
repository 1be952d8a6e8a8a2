//! Cloak and Dagger Chess: every piece but the pawns starts as a numbered checker whose
//! identity only its owner knows. Each player sets up their back rank in secret (Chess960
//! limits), may guess an enemy checker's identity at the start of a turn (right: a bonus
//! move after the regular one; wrong: the opponent gets one before their next turn), and
//! may uncloak checkers at the end of a turn. Moves follow the true identities, which
//! the referee knows; a cloaked king may stand in check. The game is won by capturing a
//! cloaked king or checkmating an uncloaked one. The rules and every decision where the
//! rulebook is silent are in `docs/rules/cloak-and-dagger.md`.
//!
//! - [`board`]: the men, movement, castling and check, pure;
//! - [`state`]: the set-up, the turns and their steps, the actions;
//! - [`record`]: the record and how each viewer reads it;
//! - `view`: what each viewer sees (board image, diagram, FEN, PGN, deduction grid);
//! - `disguise`: the statement of what is secret, for the leak test;
//! - [`spec`]: the registry's view, the commands and how they are read.

pub mod board;
mod disguise;
pub mod record;
pub mod spec;
pub mod state;
mod view;

pub use spec::SPEC;
pub use state::{Cloak, CloakAction};

/// The variant's id.
pub const ID: &str = "cloak";

#[cfg(test)]
mod tests;
