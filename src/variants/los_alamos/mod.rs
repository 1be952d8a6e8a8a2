//! Los Alamos chess: chess on 6x6 without bishops, pawns without a double step and no
//! castling (`docs/rules/los-alamos.md`). The whole variant is data: its engine config,
//! played by the chess game of [`ChessSpec`].

use crate::rules::{KingRule, Role, Variant, VariantConfig, FIDE_CHESS};
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_DRAW, DRAW, MOVE};

/// The engine's rules: a 6x6 board without bishops, no castling and no double step,
/// promotion to a queen, rook or knight.
pub const CONFIG: VariantConfig = VariantConfig {
    id: "los-alamos",
    display_name: "Los Alamos chess",
    width: 6,
    height: 6,
    start_fen: "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1",
    castling: false,
    double_step: false,
    roles: &[
        Role::Pawn,
        Role::Knight,
        Role::Rook,
        Role::Queen,
        Role::King,
    ],
    promotion: &[Role::Queen, Role::Rook, Role::Knight],
    king_rule: KingRule::Checkmate,
    descriptive_files: &["QR", "QN", "Q", "K", "KN", "KR"],
    uci_variant: Some("losalamos"),
    opening_names: false,
    ..FIDE_CHESS
};

impl Variant {
    /// Los Alamos chess's handle on its config: 6x6, no bishops.
    pub const LOS_ALAMOS: Variant = Variant::of(&CONFIG);
}

/// Los Alamos chess: 6x6, no bishops.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::LOS_ALAMOS,
    description: Description {
        aliases: &["losalamoschess"],
        summary: "chess on 6x6 without bishops",
        rules_summary: "Goal: checkmate the opponent's king, on a 6x6 board. Moves: as in chess, but there are no bishops, pawns move one square only (no double step, so no en passant), there is no castling, and pawns promote to a queen, rook or knight. Type moves as in chess (Nd3, c4, Qxd5). Check must be answered. End: checkmate wins; stalemate, insufficient material (king against king, or king and knight against king), fivefold repetition and the seventy-five-move rule draw at once; threefold repetition and the fifty-move rule are drawn on a claim (`claim draw`); draws may be offered (`draw offer`); a player may resign. Time running out loses unless the opponent could never mate.",
        commands: &[MOVE, DRAW, CLAIM_DRAW],
        ..ChessSpec::describe(Variant::LOS_ALAMOS, rules_document!("los-alamos"))
    },
    starts: None,
};
