//! Crazyhouse, as Lichess plays it: standard chess where a captured piece goes to the
//! capturer's pocket (a promoted piece as a pawn) and may be dropped back onto any empty
//! square instead of a move (`N@f3`; a pawn not on the first or last rank). The whole
//! variant is data: the engine's FIDE config with drops fed by captures and Lichess's
//! draw rules, played by the chess game of [`ChessSpec`] (`docs/rules/crazyhouse.md`).

use crate::rules::{
    DrawRules, DropRules, MoveLimit, Variant, VariantConfig, FIDE_CHESS, FIDE_DRAWS,
};
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_DRAW, DRAW, MOVE};

#[cfg(test)]
mod tests;

/// The engine's rules: FIDE chess with pockets. As on Lichess (scalachess's
/// `Crazyhouse`), there is no fifty- or seventy-five-move rule, and material is never
/// insufficient (no piece ever leaves the game), so a player whose time runs out loses;
/// repetitions count pockets and promoted pieces.
pub static CONFIG: VariantConfig = VariantConfig {
    id: "crazyhouse",
    display_name: "Crazyhouse",
    start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    draws: DrawRules {
        move_limit: MoveLimit::None,
        insufficient_material: false,
        ..FIDE_DRAWS
    },
    drops: Some(DropRules {
        first_rank_only: false,
        queen_last: false,
        king_before_moves: false,
        captures_to_pocket: true,
    }),
    pgn_name: Some("Crazyhouse"),
    uci_variant: Some("crazyhouse"),
    opening_names: false,
    ..FIDE_CHESS
};

/// Crazyhouse in the registry.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::of(&CONFIG),
    description: Description {
        aliases: &["zh", "house", "crazy-house"],
        summary: "chess where captured pieces change sides and are dropped back onto the board",
        rules_summary: "Goal: checkmate the opponent's king. Moves: the FIDE rules, with castling, en passant, double steps and promotion; and a piece you capture goes to your pocket (a promoted piece goes back as a pawn). On your turn you may, instead of moving, drop a piece from your pocket onto any empty square (N@f3, P@e6): a pawn not on the first or last rank (a pawn dropped on the second rank may still make its double step), and a drop may give check or mate, or block a check. Type moves as in chess (Nf3, exd5, O-O, Q@h7#). End: checkmate wins (a check that a drop can block is no mate); stalemate and fivefold repetition draw at once, threefold repetition on a claim (`claim draw`); there is no fifty-move rule and material is never insufficient, so a player whose time runs out loses; draws may be offered (`draw offer`); a player may resign.",
        commands: &[MOVE, DRAW, CLAIM_DRAW],
        ..ChessSpec::describe(Variant::of(&CONFIG), rules_document!("crazyhouse"))
    },
    starts: None,
};
