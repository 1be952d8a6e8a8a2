//! Parade Chess Solitaire: sixteen piece cards are dealt into two face-down piles; the
//! first pile's pieces are set out along the ranks with appendix A's gaps, and each card
//! of the second is spent on a move (a piece lifts a piece of the other colour off a
//! square it attacks and puts it on another) or on adding a piece, until every piece is
//! joined to every other through their sides. The rules and every decision are in
//! `docs/rules/parade.md`.
//!
//! [`rules`] is the game itself, pure; [`game`] makes it one of the referee's games;
//! [`spec`] is what the registry knows of it.

mod game;
pub mod rules;
pub mod spec;

pub use game::ParadeAction;
pub use rules::Parade;
pub use spec::SPEC;
