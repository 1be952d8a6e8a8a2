//! King of the Hill, as Lichess plays it: standard chess where a king that reaches one of
//! the four centre squares (d4, e4, d5, e5) wins at once. The whole variant is data: the
//! engine's FIDE config with a goal region and without the insufficient-material draw,
//! played by the chess game of [`ChessSpec`] (`docs/rules/king-of-the-hill.md`).

use crate::rules::{
    Bitboard, DrawRules, Endings, GoalRegion, Square, Variant, VariantConfig, FIDE_CHESS,
    FIDE_ENDINGS, LICHESS_DRAWS,
};
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_DRAW, DRAW, MOVE};

#[cfg(test)]
mod tests;

/// d4, e4, d5 and e5.
const CENTRE: Bitboard = Bitboard(
    Bitboard::from_square(Square::new(3, 3)).0
        | Bitboard::from_square(Square::new(4, 3)).0
        | Bitboard::from_square(Square::new(3, 4)).0
        | Bitboard::from_square(Square::new(4, 4)).0,
);

/// The engine's rules: FIDE chess with the centre as a goal. A lone king can still walk
/// to the centre, so material is never insufficient (no automatic draw, and a timeout
/// loses whatever the opponent has left). Fifty moves without a capture or pawn move
/// draw by themselves, as on Lichess.
pub static CONFIG: VariantConfig = VariantConfig {
    id: "king-of-the-hill",
    display_name: "King of the Hill",
    endings: Endings {
        goal: Some(GoalRegion {
            squares: CENTRE,
            name: "the centre",
            reply_draws: false,
        }),
        ..FIDE_ENDINGS
    },
    draws: DrawRules {
        insufficient_material: false,
        ..LICHESS_DRAWS
    },
    pgn_name: Some("King of the Hill"),
    uci_variant: Some("kingofthehill"),
    opening_names: false,
    ..FIDE_CHESS
};

/// King of the Hill in the registry.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::of(&CONFIG),
    description: Description {
        aliases: &["koth", "kingofthehill", "hill"],
        summary: "chess where a king that reaches the centre (d4, e4, d5, e5) wins",
        rules_summary: "Goal: checkmate the opponent's king, or bring your own king to one of the four centre squares (d4, e4, d5, e5): reaching the centre wins at once. Moves: the FIDE rules, with castling, en passant, double steps and promotion; a king may not move into check, so it reaches the centre only on a square the opponent does not attack. Type moves as in chess (Ke2, e4, O-O). End: checkmate or a king in the centre wins; stalemate, fivefold repetition and fifty moves by each side without a capture or pawn move (as on Lichess) draw at once; threefold repetition on a claim (`claim draw`); draws may be offered (`draw offer`); a player may resign. Material is never insufficient (a lone king can still walk to the centre), so a player whose time runs out loses.",
        commands: &[MOVE, DRAW, CLAIM_DRAW],
        ..ChessSpec::describe(Variant::of(&CONFIG), rules_document!("king-of-the-hill"))
    },
    starts: None,
};
