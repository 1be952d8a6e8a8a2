//! Double Move Chess: standard chess where each player holds four tokens, each for two
//! moves in one turn (`docs/rules/double-move.md`). The whole variant is data: its engine
//! config, played by the chess game of [`ChessSpec`], which reads `double`.

use crate::rules::{DoubleMoveRules, Variant, VariantConfig, FIDE_CHESS};
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_DRAW, DOUBLE, DRAW, MOVE};

/// The engine's rules: FIDE chess where each player holds four double-move tokens, to be
/// spent from their own move 9 on.
pub const CONFIG: VariantConfig = VariantConfig {
    id: "double-move",
    display_name: "Double Move Chess",
    double_move: Some(DoubleMoveRules {
        tokens: 4,
        first_move: 9,
    }),
    uci_variant: None,
    opening_names: false,
    ..FIDE_CHESS
};

impl Variant {
    /// Double Move Chess's handle on its config: standard chess with four double-move
    /// tokens per player.
    pub const DOUBLE_MOVE: Variant = Variant::of(&CONFIG);
}

/// Double Move Chess: four tokens each for two moves in one turn.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::DOUBLE_MOVE,
    description: Description {
        aliases: &["doublemovechess", "dmchess"],
        summary: "chess with four tokens each, each for two moves in one turn",
        rules_summary: "Goal: checkmate, as in standard chess, whose rules all apply. Special rule: each player has four double-move tokens; spending one plays two moves in one turn (`double Nf3 Ng5`). Limits: only from your own ninth move on; not while in check; the first half may neither give check nor capture (the second may do both, checkmate included); with no tokens left, no double moves. The same piece may move twice; then, on the very next move only, the opponent may capture it 'en passant' by moving onto the square where it stopped between its two moves. A double move is one turn under one move number; the tokens left are shown on every board. End: as in standard chess (checkmate, stalemate, the draw rules and claims, draw offers, resignation, time).",
        commands: &[MOVE, DOUBLE, DRAW, CLAIM_DRAW],
        ..ChessSpec::describe(Variant::DOUBLE_MOVE, rules_document!("double-move"))
    },
    starts: None,
};
