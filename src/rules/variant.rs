//! The variants as data: every difference between the chess-like games lives in a
//! [`VariantConfig`], and one engine reads it.

use super::bitboard::Bitboard;
use super::types::Role;
use std::fmt;
use std::str::FromStr;

/// How a game is won against the king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingRule {
    /// Check restricts moves; checkmate wins; stalemate is the opponent's problem.
    Checkmate,
    /// Check restricts nothing; moving into check is legal; capturing the king wins.
    KingCapture,
}

/// Which draw rules of FIDE chess apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// Threefold repetition (claim) and fivefold repetition (automatic).
    pub repetition: bool,
    /// Fifty-move rule (claim) and seventy-five-move rule (automatic).
    pub move_limit: bool,
    /// Dead positions with insufficient material end the game automatically.
    pub insufficient_material: bool,
    /// Stalemate of the side to move ends the game as a draw.
    pub stalemate_is_draw: bool,
}

/// Rules for pieces in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DropRules {
    /// Drops go only to the dropping side's own first rank.
    pub first_rank_only: bool,
    /// The queen may be dropped only when she is the only piece left in reserve.
    pub queen_last: bool,
    /// Pieces on the board may move only once their side's king is on the board.
    pub king_before_moves: bool,
}

/// Chess#-specific endings: claims and scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharpEndings {
    /// Plies without pawn move or capture after which the game is an impasse (100 = 50 each).
    pub impasse_plies: u32,
}

/// Double Move Chess: each player's tokens, each spent on one double move (two moves in
/// one turn), under the restrictions of `docs/rules/double-move.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoubleMoveRules {
    /// Tokens each player holds at the start.
    pub tokens: u8,
    /// The first move number (of the player's own moves) on which a double move is allowed.
    pub first_move: u32,
}

/// Everything that distinguishes one chess-like variant from another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantConfig {
    /// The variant this configures.
    pub variant: Variant,
    /// Files on the board, at most 8.
    pub width: u8,
    /// Ranks on the board, at most 8.
    pub height: u8,
    /// The starting position in FEN.
    pub start_fen: &'static str,
    /// Whether castling exists (with the standard king and rook files).
    pub castling: bool,
    /// Whether pawns may advance two squares from their first rank (and so en passant).
    pub double_step: bool,
    /// The roles that exist in the variant.
    pub roles: &'static [Role],
    /// The roles a pawn may promote to, strongest first.
    pub promotion: &'static [Role],
    /// How the king is attacked and won.
    pub king_rule: KingRule,
    /// Draw rules in force.
    pub draws: DrawRules,
    /// Drop rules, for variants with reserves.
    pub drops: Option<DropRules>,
    /// Chess# endings and scoring, where they apply.
    pub sharp: Option<SharpEndings>,
    /// Double-move tokens, where a player may move twice in one turn.
    pub double_move: Option<DoubleMoveRules>,
    /// Descriptive file names as seen by the player (`QR`, `QN`, ... from the a-file).
    pub descriptive_files: &'static [&'static str],
    /// Whether SAN marks a check (`+`, `#`): not where the rules know no check (Secret
    /// Chesswords, whose rulebook never mentions it).
    pub check_marks: bool,
}

impl VariantConfig {
    /// The squares of the board.
    #[inline]
    pub fn board_mask(&self) -> Bitboard {
        Bitboard::rectangle(self.width, self.height)
    }

    /// Whether check restricts moves in this variant.
    #[inline]
    pub fn check_matters(&self) -> bool {
        self.king_rule == KingRule::Checkmate
    }
}

/// No draw rules at all (variants that end otherwise).
const NO_DRAWS: DrawRules = DrawRules {
    repetition: false,
    move_limit: false,
    insufficient_material: false,
    stalemate_is_draw: false,
};

const FIDE_DRAWS: DrawRules = DrawRules {
    repetition: true,
    move_limit: true,
    insufficient_material: true,
    stalemate_is_draw: true,
};

/// FIDE chess, the base of the variants that only add a rule to it.
const FIDE_CHESS: VariantConfig = VariantConfig {
    variant: Variant::Standard,
    width: 8,
    height: 8,
    start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    castling: true,
    double_step: true,
    roles: &Role::ALL,
    promotion: &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
    king_rule: KingRule::Checkmate,
    draws: FIDE_DRAWS,
    drops: None,
    sharp: None,
    double_move: None,
    descriptive_files: &["QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"],
    check_marks: true,
};

static STANDARD: VariantConfig = FIDE_CHESS;

static CHESS_SHARP: VariantConfig = VariantConfig {
    variant: Variant::ChessSharp,
    width: 8,
    height: 8,
    start_fen: "8/pppppppp/8/8/8/8/PPPPPPPP/8[RNBQKBNRrnbqkbnr] w - - 0 1",
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
    }),
    sharp: Some(SharpEndings { impasse_plies: 100 }),
    double_move: None,
    descriptive_files: &["QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"],
    check_marks: true,
};

static LOS_ALAMOS: VariantConfig = VariantConfig {
    variant: Variant::LosAlamos,
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
    draws: FIDE_DRAWS,
    drops: None,
    sharp: None,
    double_move: None,
    descriptive_files: &["QR", "QN", "Q", "K", "KN", "KR"],
    check_marks: true,
};

/// The board of Secret Chesswords: Los Alamos chess without check (the players are
/// partners), so kings may be captured; no draw rules (the game's own rules end it).
static CHESSWORDS: VariantConfig = VariantConfig {
    variant: Variant::Chesswords,
    king_rule: KingRule::KingCapture,
    draws: NO_DRAWS,
    check_marks: false,
    ..LOS_ALAMOS
};

/// Double Move Chess: standard chess where each player holds four double-move tokens.
static DOUBLE_MOVE: VariantConfig = VariantConfig {
    variant: Variant::DoubleMove,
    double_move: Some(DoubleMoveRules {
        tokens: 4,
        first_move: 9,
    }),
    ..FIDE_CHESS
};

/// The variants the rules engine knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// FIDE chess.
    Standard,
    /// Chess# ("chess sharp"): reserves, first-rank drops, king capture.
    ChessSharp,
    /// Los Alamos chess: 6x6, no bishops.
    LosAlamos,
    /// Double Move Chess: standard chess with four double-move tokens per player.
    DoubleMove,
    /// The board of Secret Chesswords: Los Alamos chess without check, kings capturable.
    Chesswords,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 5] = [
        Variant::Standard,
        Variant::ChessSharp,
        Variant::LosAlamos,
        Variant::DoubleMove,
        Variant::Chesswords,
    ];

    /// The rules of this variant.
    #[inline]
    pub fn config(self) -> &'static VariantConfig {
        match self {
            Variant::Standard => &STANDARD,
            Variant::ChessSharp => &CHESS_SHARP,
            Variant::LosAlamos => &LOS_ALAMOS,
            Variant::DoubleMove => &DOUBLE_MOVE,
            Variant::Chesswords => &CHESSWORDS,
        }
    }

    /// The name used in commands (`standard`, `chess-sharp`, `los-alamos`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::ChessSharp => "chess-sharp",
            Variant::LosAlamos => "los-alamos",
            Variant::DoubleMove => "double-move",
            Variant::Chesswords => "chesswords",
        }
    }

    /// The name people write (`Chess#`).
    pub fn display_name(self) -> &'static str {
        match self {
            Variant::Standard => "Standard chess",
            Variant::ChessSharp => "Chess#",
            Variant::LosAlamos => "Los Alamos chess",
            Variant::DoubleMove => "Double Move Chess",
            Variant::Chesswords => "Secret Chesswords",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown variant '{0}' (known: standard, chess-sharp, los-alamos, double-move, chesswords)"
)]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Accepts the command names and common spellings (`chess`, `chess#`, `chesssharp`, `losalamos`).
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let key: String = s
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect::<String>()
            .to_ascii_lowercase();
        match key.as_str() {
            "standard" | "chess" | "fide" | "classical" => Ok(Variant::Standard),
            "chesssharp" | "chess#" | "sharp" | "chess♯" => Ok(Variant::ChessSharp),
            "losalamos" | "losalamoschess" => Ok(Variant::LosAlamos),
            "doublemove" | "doublemovechess" | "dmchess" => Ok(Variant::DoubleMove),
            "chesswords" | "secretchesswords" => Ok(Variant::Chesswords),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}
