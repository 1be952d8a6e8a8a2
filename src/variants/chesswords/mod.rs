//! Secret Chesswords: a cooperative game for two on the Los Alamos board. Every square
//! carries a letter; each partner holds a secret hand of piece cards and, with word clues
//! whose first and last letters name a move, guides the other towards captures that
//! discard cards and mark letters with checkers; in the finale each builds two words
//! from the marked letters for the partner to guess. The rules and every decision where
//! the booklet is silent are in `docs/rules/chesswords.md`.
//!
//! This module holds the game's pure parts: the letter grid ([`letters`]), the piece
//! cards and the deal ([`cards`]), and word checks and scoring ([`score`]); [`game`] is
//! the game itself, the referee's state machine; [`spec`] is what the registry knows of
//! it, and its actions ([`action`]) are read from typed commands by `read`.

pub mod action;
pub mod cards;
pub mod game;
pub mod letters;
mod prompts;
mod read;
pub mod score;
pub mod spec;
mod words;

pub use action::ChesswordsAction;
pub use game::Chesswords;
pub use spec::SPEC;

use crate::rules::{EndValue, Endings, KingRule, Variant, VariantConfig, FIDE_ENDINGS, NO_DRAWS};

/// The board of Secret Chesswords: Los Alamos chess without check (the players are
/// partners), so kings may be captured; no draw rules (the game's own rules end it).
pub const CONFIG: VariantConfig = VariantConfig {
    id: "chesswords",
    display_name: "Secret Chesswords",
    king_rule: KingRule::KingCapture,
    endings: Endings {
        stalemate: EndValue::Loss,
        ..FIDE_ENDINGS
    },
    draws: NO_DRAWS,
    check_marks: false,
    uci_variant: None,
    ..crate::variants::los_alamos::CONFIG
};

impl Variant {
    /// The board of Secret Chesswords: Los Alamos chess without check, kings capturable.
    pub const CHESSWORDS: Variant = Variant::of(&CONFIG);
}
