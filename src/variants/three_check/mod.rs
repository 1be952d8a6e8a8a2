//! Three-check, as Lichess plays it: standard chess where the third check given wins at
//! once. The whole variant is data: the engine's FIDE config with a check limit, so each
//! side's checks given are part of the position (and of its FEN, `3+3` checks remaining
//! as python-chess writes it), played by the chess game of [`ChessSpec`]
//! (`docs/rules/three-check.md`).

use crate::rules::{Endings, Variant, VariantConfig, FIDE_CHESS, FIDE_ENDINGS, LICHESS_DRAWS};
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_DRAW, DRAW, MOVE};

#[cfg(test)]
mod tests;

/// The engine's rules: FIDE chess with three checks to win. Any piece can give check,
/// so only bare kings are insufficient material, and a timeout loses unless the
/// opponent has a bare king. Fifty moves without a capture or pawn move draw by
/// themselves, as on Lichess.
pub static CONFIG: VariantConfig = VariantConfig {
    id: "three-check",
    display_name: "Three-check",
    start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
    endings: Endings {
        check_limit: Some(3),
        ..FIDE_ENDINGS
    },
    draws: LICHESS_DRAWS,
    pgn_name: Some("Three-check"),
    uci_variant: Some("3check"),
    opening_names: false,
    ..FIDE_CHESS
};

/// Three-check in the registry.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::of(&CONFIG),
    description: Description {
        aliases: &["3check", "threecheck", "three-checks", "3-check"],
        summary: "chess where the third check wins",
        rules_summary: "Goal: give check three times, or checkmate. Moves: the FIDE rules, with castling, en passant, double steps and promotion; check must be answered as in chess. Each check given counts, a double check once; the checks each side has given are shown on the board and in the FEN (3+3 = checks still needed). Type moves as in chess (Bb5+, Qxf7+). End: the third check or a checkmate wins at once; stalemate, fivefold repetition and fifty moves by each side without a capture or pawn move (as on Lichess) draw at once; so do bare kings, since nothing else can check; threefold repetition on a claim (`claim draw`); draws may be offered (`draw offer`); a player may resign. A timeout loses unless the opponent has only the king left.",
        commands: &[MOVE, DRAW, CLAIM_DRAW],
        ..ChessSpec::describe(Variant::of(&CONFIG), rules_document!("three-check"))
    },
    starts: None,
};
