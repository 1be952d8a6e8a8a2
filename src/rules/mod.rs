//! The rules engine: pure chess-variant logic with no I/O, no async and no storage.
//!
//! One engine serves every chess-like variant; the differences live in
//! [`variant::VariantConfig`]. [`Position`] is a single position with legal move
//! generation; [`Game`] adds history, claims, automatic endings and scoring.

pub mod attacks;
pub mod bitboard;
mod castling;
pub mod double_move;
mod ends;
pub mod explosions;
pub mod fen;
pub mod game;
pub mod losing;
mod material;
pub mod movegen;
pub mod perft;
pub mod position;
mod resume;
pub mod scharnagl;
pub mod types;
pub mod variant;
pub mod work;
mod zobrist;

pub use bitboard::Bitboard;
pub use double_move::{divide_turns, perft_turns, DoubleMoveError, Turn};
pub use game::{
    resets_repetitions, Claim, ClaimError, EndReason, Game, GameResult, IllegalMove, Outcome,
};
pub use movegen::MoveList;
pub use perft::{divide, perft};
pub use position::{Position, PositionError, Reserve, Setup};
pub use types::{CastlingSide, Color, Move, MoveKind, Piece, Role, Square};
pub use variant::{
    DoubleMoveRules, DrawRules, DropRules, EndValue, Endings, Extinction, GoalRegion, KingRule,
    MoveLimit, Points, Variant, VariantConfig, FIDE_CHESS, FIDE_DRAWS, FIDE_ENDINGS, LICHESS_DRAWS,
    NO_DRAWS,
};
