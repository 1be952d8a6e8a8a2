//! Horde, as Lichess plays it: White's horde of 36 pawns and no king against Black's
//! army. Black wins by capturing every white piece, White by checkmate. The whole
//! variant is data: the engine's FIDE config with White as the kingless side (its pawns
//! may stand on and step two squares from the first rank), played by the chess game of
//! [`ChessSpec`] (`docs/rules/horde.md`).

use crate::rules::{
    Color, EndValue, Endings, Extinction, Variant, VariantConfig, FIDE_CHESS, FIDE_ENDINGS,
    LICHESS_DRAWS,
};
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_DRAW, DRAW, MOVE};

#[cfg(test)]
mod tests;

/// The engine's rules: FIDE chess with White kingless. Only Black castles. The automatic
/// draw by material is Lichess's fortress rule, and a timeout draws only when the side
/// left could not win (the horde with too little to mate). Fifty moves without a
/// capture or pawn move draw by themselves, as on Lichess.
pub static CONFIG: VariantConfig = VariantConfig {
    id: "horde",
    display_name: "Horde",
    start_fen: "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
    kingless_side: Some(Color::White),
    endings: Endings {
        extinction: Some(Extinction {
            roles: &[],
            value: EndValue::Loss,
        }),
        ..FIDE_ENDINGS
    },
    draws: LICHESS_DRAWS,
    pgn_name: Some("Horde"),
    uci_variant: Some("horde"),
    opening_names: false,
    ..FIDE_CHESS
};

/// Horde in the registry.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::of(&CONFIG),
    description: Description {
        aliases: &["hordechess"],
        summary: "36 white pawns and no king against Black's army",
        rules_summary: "Goal: Black wins by capturing every white piece; White wins by checkmate. Start: White has 36 pawns and no king (four full ranks and four pawns on the fifth); Black has the usual army. Moves: as in chess; White's pawns on the first rank may also step two squares (without en passant); White has no king, so is never in check; only Black may castle. Type moves as in chess (e5, Nxd4). End: Black capturing the last white piece wins; checkmate of Black wins for White; stalemate (of either side), fivefold repetition and fifty moves by each side without a capture or pawn move (as on Lichess) draw at once, and so does a fortress where the horde cannot move and Black has nothing but king moves, none of which frees it; threefold repetition on a claim (`claim draw`); draws may be offered (`draw offer`); a player may resign. A timeout loses, except that it draws when the opponent is the horde with too little left to mate.",
        commands: &[MOVE, DRAW, CLAIM_DRAW],
        ..ChessSpec::describe(Variant::of(&CONFIG), rules_document!("horde"))
    },
    starts: None,
};
