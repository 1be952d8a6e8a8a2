//! Chess# ("chess sharp"): the pieces start in reserve and are dropped onto the first
//! rank, the king is captured rather than mated, and impasses and stalemates are scored
//! by points (`docs/rules/chess-sharp.md`). The whole variant is data: its engine config,
//! played by the chess game of [`ChessSpec`], which reads its commands.

use crate::rules::{
    DropRules, EndValue, Endings, KingRule, Points, Role, Variant, VariantConfig, FIDE_CHESS,
    FIDE_ENDINGS, NO_DRAWS,
};
use crate::variants::api::{rules_document, Description};
use crate::variants::chess::{ChessSpec, CLAIM_SHARP, FAST_FIFTY, MOVE};

/// The engine's rules: reserves dropped onto the first rank (the queen last, the king
/// before anything moves), king capture, no draws, and the points table of wins,
/// stalemates and impasses.
pub const CONFIG: VariantConfig = VariantConfig {
    id: "chess-sharp",
    display_name: "Chess#",
    width: 8,
    height: 8,
    start_fen: "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1",
    castling: false,
    double_step: false,
    roles: &Role::ALL,
    promotion: &[Role::Queen],
    king_rule: KingRule::KingCapture,
    draws: NO_DRAWS,
    drops: Some(DropRules {
        first_rank_only: true,
        queen_last: true,
        king_before_moves: true,
        captures_to_pocket: false,
    }),
    endings: Endings {
        stalemate: EndValue::Loss,
        points: Some(Points {
            win: [10, 0],
            stalemate: [8, 2],
            impasse_plies: 100,
            impasse: [[7, 3], [4, 6], [3, 7]],
        }),
        ..FIDE_ENDINGS
    },
    check_marks: false,
    uci_variant: None,
    opening_names: false,
    ..FIDE_CHESS
};

impl Variant {
    /// Chess#'s handle on its config.
    pub const CHESS_SHARP: Variant = Variant::of(&CONFIG);
}

/// Chess#: reserves dropped onto the first rank, king capture, impasses.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::CHESS_SHARP,
    description: Description {
        aliases: &["chess#", "sharp", "chess♯"],
        summary: "the pieces start in reserve and are dropped onto the first rank; capture the king",
        rules_summary: "Goal: capture the opponent's king (checkmate does not end the game). Moves: only the pawns start on the board; the other pieces are in each side's reserve and are dropped onto an empty square of your own first rank (K@e1, N@g1), the queen only once nothing else is left in reserve. Nothing on the board moves until your king is in; then each turn you drop or move. There is no check (a king may stand attacked and be taken), no castling, no pawn double step or en passant, and pawns promote to a queen. End: taking the king wins 10-0; resignation loses 10-0; there are no draws. A valid stalemate claim (`claim stalemate`) gives 2 points to the stalemated side and 8 to the other. After fifty moves each without a pawn move or capture the game is an impasse (or at once by agreement: `fastfifty propose`, `fastfifty accept`), scored by the material on the board: 7-3 for the side ahead, 4-6 (White-Black) when level. Time running out loses once the opponent claims it (`claim time`).",
        commands: &[MOVE, FAST_FIFTY, CLAIM_SHARP],
        ..ChessSpec::describe(Variant::CHESS_SHARP, rules_document!("chess-sharp"))
    },
    starts: None,
};
