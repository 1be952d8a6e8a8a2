//! A finished game as a UCI engine reads it, for its analysis: the variant as UCI names
//! it, the start, the moves in UCI beside their SAN, and how the last position stands.

/// How the game's last position stands on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardEnd {
    /// Play could go on from it (the game ended by resignation, time, agreement).
    Open,
    /// The rules decided it: won by White (`true`) or Black.
    Won(bool),
    /// The rules decided it drawn (stalemate, repetition, material).
    Drawn,
}

/// A finished game as an engine reads it ([`GameRules::engine_record`]).
///
/// [`GameRules::engine_record`]: super::GameRules::engine_record
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineRecord {
    /// The variant's UCI name (`chess`, `crazyhouse`).
    pub variant: &'static str,
    /// Whether castling is written king-takes-rook (`UCI_Chess960`).
    pub king_takes_rook: bool,
    /// The starting position in FEN.
    pub start_fen: String,
    /// Whether White made the first move.
    pub white_first: bool,
    /// Each ply's move: UCI, then SAN.
    pub moves: Vec<(String, String)>,
    /// How the last position stands.
    pub end: BoardEnd,
}
