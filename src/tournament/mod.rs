//! Tournaments as pure computation: round robin schedules (Berger tables), Swiss pairing
//! (the Dutch system's main rules), standings with tie-breaks and the crosstable, a
//! solitaire best-score competition, and the standings as a table of text.
//!
//! No I/O, no async, no database, no clock and no randomness: the service keeps a
//! tournament's [`Record`] (who plays whom each round, and how each game ended), asks
//! this module for the next round's pairings and for the standings, and draws the table
//! with the render layer. The same record always gives the same answer. See
//! docs/tournaments.md for the formats and every decision the pairing makes.

mod matching;
mod record;
pub mod round_robin;
mod score;
mod solitaire;
mod standings;
pub mod swiss;
mod table;
#[cfg(test)]
mod tests;

pub use record::{Board, Outcome, Pairing, Player, Record, Round, Side};
pub use round_robin::{schedule, ScheduledRound};
pub use score::{GameScore, Points, ScoreError, TieValue, UNITS};
pub use solitaire::{solitaire_standings, DealResult, SolitaireStanding};
pub use standings::{crosstable, standings, Cell, Crosstable, Format, Standing, TieBreak};
pub use swiss::{pair, PairingError, SwissPairing};
pub use table::{solitaire_table, standings_table, TextTable, MAX_NAME_CHARS};
