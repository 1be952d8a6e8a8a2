//! Neighbour Chess Solitaire: a piece deck (16 cards, no pawns) and a position deck
//! (2 to 6 of every suit) say which piece is added where, each from above the last one
//! added; then every move, paid with a card of either pile, moves a piece with the move
//! of one of its same-colour neighbours, until the pieces form one group. The rules and
//! every decision are in `docs/rules/neighbour.md`.
//!
//! [`rules`] is the game itself, pure; [`game`] makes it one of the referee's games;
//! [`spec`] is what the registry knows of it.

mod game;
pub mod rules;
pub mod spec;

pub use game::NeighbourAction;
pub use rules::Neighbour;
pub use spec::SPEC;
