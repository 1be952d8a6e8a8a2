//! Racing Kings, as Lichess plays it: no pawns, both armies on the first two ranks, and
//! the first king to the eighth rank wins; no move may give check. Black, moving second,
//! keeps one move after White's king arrives: arriving too draws. The whole variant is
//! data (a goal region that lets Black reply, checks forbidden), played by the chess game
//! of [`ChessSpec`] (`docs/rules/racing-kings.md`).

use crate::rules::{
    Bitboard, DrawRules, Endings, GoalRegion, Role, Variant, VariantConfig, FIDE_CHESS,
    FIDE_ENDINGS, LICHESS_DRAWS,
};
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_DRAW, DRAW, MOVE};

#[cfg(test)]
mod tests;

/// The engine's rules: no pawns (so no promotion, double step or en passant), no
/// castling, the eighth rank as the goal with Black's reply, no checks. A king can always
/// race, so material is never insufficient and a timeout always loses. Fifty moves
/// without a capture draw by themselves, as on Lichess.
pub static CONFIG: VariantConfig = VariantConfig {
    id: "racing-kings",
    display_name: "Racing Kings",
    start_fen: "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
    castling: false,
    double_step: false,
    roles: &[
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ],
    promotion: &[],
    endings: Endings {
        goal: Some(GoalRegion {
            squares: Bitboard::rank(7),
            name: "the eighth rank",
            reply_draws: true,
        }),
        ..FIDE_ENDINGS
    },
    draws: DrawRules {
        insufficient_material: false,
        ..LICHESS_DRAWS
    },
    checks_forbidden: true,
    pgn_name: Some("Racing Kings"),
    uci_variant: Some("racingkings"),
    opening_names: false,
    ..FIDE_CHESS
};

/// Racing Kings in the registry.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::of(&CONFIG),
    description: Description {
        aliases: &["racingkings", "kings-race"],
        summary: "no pawns, no checks: the first king to the eighth rank wins",
        rules_summary: "Goal: bring your king to the eighth rank first. Start: no pawns; both armies stand side by side on the first two ranks (White on the right, Black on the left), and both race up the board. Moves: pieces move as in chess, but no move may give check (to either king), and a king may not move into check; there is no castling. Type moves as in chess (Kg3, Nxd2). End: the first king on the eighth rank wins, except that when White's king arrives first, Black has one more move: if Black's king arrives too, the game is drawn. Stalemate, fivefold repetition and fifty moves by each side without a capture (as on Lichess) draw at once; threefold repetition on a claim (`claim draw`); draws may be offered (`draw offer`); a player may resign. A king can always race, so a timeout always loses.",
        commands: &[MOVE, DRAW, CLAIM_DRAW],
        ..ChessSpec::describe(Variant::of(&CONFIG), rules_document!("racing-kings"))
    },
    starts: None,
};
