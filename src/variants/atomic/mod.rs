//! Atomic, as Lichess plays it: standard chess where a capture explodes. The capturing
//! piece, the captured one and every piece but a pawn next to the target square leave
//! the board; exploding the enemy king wins. The whole variant is data: the engine's
//! FIDE config with exploding captures, played by the chess game of [`ChessSpec`]
//! (`docs/rules/atomic.md`).

use crate::rules::{Variant, VariantConfig, FIDE_CHESS, LICHESS_DRAWS};
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_DRAW, DRAW, MOVE};

#[cfg(test)]
mod tests;

/// The engine's rules: FIDE chess where captures explode (kings may not capture, a move
/// may not explode its own king, exploding the enemy king wins at once, and kings that
/// touch cannot give each other check). Insufficient material, the fifty-move rule and
/// timeouts follow Lichess's rules for this game.
pub static CONFIG: VariantConfig = VariantConfig {
    id: "atomic",
    display_name: "Atomic",
    captures_explode: true,
    draws: LICHESS_DRAWS,
    pgn_name: Some("Atomic"),
    uci_variant: Some("atomic"),
    opening_names: false,
    ..FIDE_CHESS
};

/// Atomic in the registry.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::of(&CONFIG),
    description: Description {
        aliases: &["atomic-chess", "atomicchess"],
        summary: "chess where every capture explodes; blow up the enemy king to win",
        rules_summary: "Goal: explode the opponent's king, or checkmate it. Moves: as in chess, with castling, en passant, double steps and promotion, but every capture explodes: the capturing piece, the captured piece and every piece other than a pawn on the eight squares around the target square leave the board (en passant explodes around the square the capturing pawn lands on). A king may not capture, and no move may explode your own king; a move that explodes the enemy king is legal even when your king is in check. Kings that touch cannot give each other check. Type moves as in chess (Nxf7, exd5, O-O). End: exploding the enemy king or checkmate wins; stalemate, insufficient material (as Lichess decides it: a lone king against a king with a single minor piece or rook or two knights, bishops of opposite colours, or pawns locked against each other), fivefold repetition and fifty moves by each side without a capture or pawn move (as on Lichess) draw at once; threefold repetition on a claim (`claim draw`); draws may be offered (`draw offer`); a player may resign. A player whose time runs out loses, unless the opponent has only its king left: then it is a draw.",
        commands: &[MOVE, DRAW, CLAIM_DRAW],
        ..ChessSpec::describe(Variant::of(&CONFIG), rules_document!("atomic"))
    },
    starts: None,
};
