//! Reading and writing chess: FEN, move notations (SAN, UCI, descriptive, ICCF numeric,
//! figurine, "MOVE E2 TO E4") and PGN.
//!
//! - [`fen`]: positions as text, any board size, reserves in brackets (the engine's own,
//!   [`crate::rules::fen`], re-exported here).
//! - [`mod@san`]: moves as standard algebraic notation, or with figurines.
//! - [`parse`]: whatever a player types, read against the current position.
//! - [`openings`]: a game's opening by name and ECO code, from Lichess's table.
//! - [`pgn`]: whole games as PGN.

pub use crate::rules::fen;
pub mod openings;
pub mod parse;
pub mod pgn;
pub mod san;

pub use parse::{parse_move, read_among, reading_note, MoveError};
pub use pgn::{
    write_pgn, write_pgn_analysed, write_pgn_annotated, write_pgn_ending, write_pgn_with_result,
    PgnTags,
};
pub use san::{figurine, san, san_among};
