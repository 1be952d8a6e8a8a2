//! Antichess, as Lichess plays it: lose all your pieces, or be stalemated, to win.
//! Captures are compulsory, the king is an ordinary piece (no check; it may be captured
//! and a pawn may promote to one), and there is no castling. The whole variant is data:
//! the engine's FIDE config with the king not royal and captures compulsory, played by
//! the chess game of [`ChessSpec`] (`docs/rules/antichess.md`).

use crate::rules::{
    EndValue, Endings, Extinction, KingRule, Role, Variant, VariantConfig, FIDE_CHESS,
    FIDE_ENDINGS, LICHESS_DRAWS,
};
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_DRAW, DRAW, MOVE};

#[cfg(test)]
mod tests;

/// The engine's rules: FIDE chess where the king is an ordinary piece (a side with no
/// piece or no legal move wins), captures are compulsory, pawns may also promote to a
/// king, and nobody castles. Stalemate wins for the stalemated side instead of drawing;
/// insufficient material is Lichess's rule for this game (opposite-coloured bishops
/// that can never meet), and fifty moves without a capture or pawn move draw by
/// themselves, as on Lichess.
pub static CONFIG: VariantConfig = VariantConfig {
    id: "antichess",
    display_name: "Antichess",
    start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    castling: false,
    promotion: &[
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::King,
    ],
    king_rule: KingRule::Ordinary,
    endings: Endings {
        stalemate: EndValue::Win,
        extinction: Some(Extinction {
            roles: &[],
            value: EndValue::Win,
        }),
        ..FIDE_ENDINGS
    },
    draws: LICHESS_DRAWS,
    check_marks: false,
    captures_compulsory: true,
    pgn_name: Some("Antichess"),
    uci_variant: Some("antichess"),
    opening_names: false,
    ..FIDE_CHESS
};

/// Antichess in the registry.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::of(&CONFIG),
    description: Description {
        aliases: &["giveaway", "losing", "anti"],
        summary: "lose all your pieces, or be stalemated, to win; captures are compulsory",
        rules_summary: "Goal: lose all your pieces, or be left without a legal move: either wins. Moves: the pieces move as in chess, with en passant, double steps and promotion, where a pawn may also promote to a king (e8=K). Captures are compulsory: when you can capture, you must, choosing which capture if there are several (en passant included). The king is an ordinary piece: there is no check or checkmate, a king may be captured, and a side may have any number of kings or none. There is no castling. Type moves as in chess (exd5, Nxf7, b1=K). End: a player with no piece left, or with pieces but no legal move, wins; fivefold repetition, fifty moves by each side without a capture or pawn move (as on Lichess) and a dead position (only bishops of opposite colours, with pawns blocked where they cannot meet them) draw at once; threefold repetition on a claim (`claim draw`); draws may be offered (`draw offer`); a player may resign. A player whose time runs out loses, unless the opponent could never win (one knight each, where the knights' colours decide who can): then it is a draw.",
        commands: &[MOVE, DRAW, CLAIM_DRAW],
        ..ChessSpec::describe(Variant::of(&CONFIG), rules_document!("antichess"))
    },
    starts: None,
};
