//! Standard chess, by the FIDE rules (`docs/rules/standard.md`): the engine's own rules
//! ([`FIDE_CHESS`](crate::rules::FIDE_CHESS), which every chess-like config starts
//! from), played by the chess game of [`ChessSpec`].

use crate::rules::Variant;
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_DRAW, DRAW, MOVE};

/// Standard chess (FIDE rules).
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::STANDARD,
    description: Description {
        aliases: &["chess", "fide", "classical"],
        summary: "chess by the FIDE rules",
        rules_summary: "Goal: checkmate the opponent's king. Moves: the FIDE rules: each piece moves as in chess, with castling, en passant, pawns two squares from their first rank, and promotion to queen, rook, bishop or knight. Type a move in SAN (Nf3, exd5, O-O, e8=Q), long algebraic (g1-f3), UCI (g1f3), ICCF numbers (7163), descriptive (N-KB3, PxP, KP TO K4) or words (MOVE G1 TO F3). Check must be answered. End: checkmate wins; stalemate, insufficient material, fivefold repetition and the seventy-five-move rule draw at once; threefold repetition and the fifty-move rule are drawn on a claim (`claim draw`); draws may be offered and accepted (`draw offer`). A player may resign. A player whose time runs out loses, unless the opponent could never mate (a bare king, or king and knight against a bare king): then it is a draw.",
        commands: &[MOVE, DRAW, CLAIM_DRAW],
        ..ChessSpec::describe(Variant::STANDARD, rules_document!("standard"))
    },
    starts: None,
};
