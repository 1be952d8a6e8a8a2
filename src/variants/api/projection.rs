//! What one viewer may see of a game: the only way game information leaves a game.

use crate::render::BoardView;

/// Everything one viewer (the public, or one seat privately) may see of a game now.
/// Built by the game for that viewer alone: a secret can only reach an output if the
/// game put it in the projection of a viewer allowed to see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Projection {
    /// The board image's content.
    pub board: BoardView,
    /// A text diagram of the board, for adapters without images.
    pub diagram: String,
    /// The position as FEN, as far as this viewer may see it.
    pub fen: String,
    /// The last move in UCI form, for highlighting.
    pub last_move: Option<String>,
    /// The moves so far as this viewer may read them, one entry per move.
    pub record: Vec<String>,
    /// The record numbered as players read it (`1. e4 e5 2. Nf3`).
    pub numbered: String,
    /// The moves this seat may make now, as it would type them (a seat viewer on its
    /// turn; empty otherwise): adapters suggest them.
    pub legal: Vec<String>,
    /// What only this seat holds (its hand of cards), for `hand` and the start of the
    /// game; `None` for the public and in variants without secret holdings.
    pub holdings: Option<String>,
    /// The variant's public counters in words, for status lines (`double-move tokens
    /// left: White 3, Black 4`); `None` where it has none.
    pub counters: Option<String>,
    /// What this seat is asked now, in full and privately (the squares it may pick);
    /// `None` when the prompt's own words say it all.
    pub instructions: Option<String>,
}
