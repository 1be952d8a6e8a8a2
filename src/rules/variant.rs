//! The variants as data: every difference between the chess-like games lives in a
//! [`VariantConfig`], and one engine reads it. Rules are flags named by the mechanism
//! they switch on (king capture, drops, a goal region), as in Fairy-Stockfish's variant
//! table, so a new chess-like variant is a new config value, not a new engine case. The
//! one config here is FIDE chess ([`FIDE_CHESS`]), the base the others start from; each
//! variant declares its own in its folder (`variants/chess_sharp`,
//! `variants/king_of_the_hill`), so the engine names no other variant.

use super::bitboard::Bitboard;
use super::types::{Color, Role};
use std::fmt;

/// What a king is: royal or not, and how many a side has. How the game then ends is the
/// variant's [`Endings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingRule {
    /// Royal, one a side: check restricts moves, and a side in check with no legal move
    /// is checkmated.
    Checkmate,
    /// Royal, at most one a side (on the board or in hand): check restricts nothing,
    /// moving into check is legal, and a side whose king is captured loses.
    KingCapture,
    /// Not royal: an ordinary piece, with no check; it may be captured, a pawn may
    /// promote to one, and a side may have any number of kings or none.
    Ordinary,
}

/// What an ending scores for the side it befalls (the side stalemated, the side left
/// without pieces), as Fairy-Stockfish's ending values (`stalemateValue`,
/// `extinctionValue`) are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndValue {
    /// The side wins (Antichess's stalemate and bare army).
    Win,
    /// The side loses (Horde's bare horde, Chess#'s stalemate).
    Loss,
    /// The game is drawn (FIDE's stalemate).
    Draw,
}

/// A side left without pieces of some kinds, on the board and in hand (Fairy-Stockfish's
/// `extinctionPieceTypes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extinction {
    /// The kinds: a side left without every piece of any one of them is extinct. Empty
    /// for the whole army: a side is extinct once it has no piece at all.
    pub roles: &'static [Role],
    /// What extinction scores for the extinct side.
    pub value: EndValue,
}

/// A table of points for every ending, where a variant scores them (Chess#): the
/// result is then the side with more points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points {
    /// A win outright (mate, a king taken, resignation, time): the winner's points, then
    /// the loser's.
    pub win: [u32; 2],
    /// A stalemate: the stalemated side's opponent's points, then the stalemated side's.
    pub stalemate: [u32; 2],
    /// Plies without pawn move or capture after which the game is an impasse by itself
    /// (100 = 50 each).
    pub impasse_plies: u32,
    /// An impasse, by material on the board: White's points then Black's when White has
    /// more, when both have as much, and when Black has more.
    pub impasse: [[u32; 2]; 3],
}

/// How a game ends by itself, beyond the loss of a royal king ([`KingRule`]): each
/// ending a value, read by the one function that decides automatic outcomes
/// ([`Game`](super::Game)), as Fairy-Stockfish declares a variant's endings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endings {
    /// What a side to move with no legal move scores when it is not checkmated.
    pub stalemate: EndValue,
    /// A side left without pieces of some kinds, where that ends the game.
    pub extinction: Option<Extinction>,
    /// The number of checks given that wins at once (Three-check's 3); each side's
    /// checks given are part of the position.
    pub check_limit: Option<u8>,
    /// A region whose reaching by a king wins (King of the Hill).
    pub goal: Option<GoalRegion>,
    /// The points each ending scores, where the variant scores them (Chess#).
    pub points: Option<Points>,
}

impl Endings {
    /// Whether a game is won by losing: a side with no piece left wins (Antichess).
    /// Material then decides differently ([`losing`](super::losing)).
    #[inline]
    pub fn won_by_losing(&self) -> bool {
        self.extinction
            .is_some_and(|e| e.roles.is_empty() && e.value == EndValue::Win)
    }
}

/// FIDE's endings: stalemate draws, nothing else ends the game by itself but mate.
pub const FIDE_ENDINGS: Endings = Endings {
    stalemate: EndValue::Draw,
    extinction: None,
    check_limit: None,
    goal: None,
    points: None,
};

/// How a run of moves without a capture or pawn move ends a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// No limit at all (Crazyhouse, as Lichess plays it: pieces come back by drops, so
    /// a capture-free run proves nothing).
    None,
    /// FIDE's: a draw on a claim after fifty moves by each side (100 plies), and
    /// automatically after seventy-five (150 plies).
    Fide,
    /// Lichess's: a draw automatically after fifty moves by each side (100 plies).
    Lichess,
}

impl MoveLimit {
    /// The plies without a capture or pawn move after which the game is drawn without
    /// a claim, if any.
    pub fn automatic_plies(self) -> Option<u32> {
        match self {
            MoveLimit::None => None,
            MoveLimit::Fide => Some(150),
            MoveLimit::Lichess => Some(100),
        }
    }
}

/// Which draw rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// Threefold repetition (claim) and fivefold repetition (automatic).
    pub repetition: bool,
    /// The fifty-move rule, FIDE's or Lichess's, or none.
    pub move_limit: MoveLimit,
    /// Dead positions with insufficient material end the game automatically.
    pub insufficient_material: bool,
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
    /// A captured piece goes to the capturer's reserve, a promoted one as a pawn
    /// (Crazyhouse); the position then remembers which pieces were promoted.
    pub captures_to_pocket: bool,
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

/// A region of the board whose reaching by a king wins the game at once (King of the
/// Hill's centre).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoalRegion {
    /// The squares of the region.
    pub squares: Bitboard,
    /// The region in words, for the end of a game ("the centre").
    pub name: &'static str,
    /// Whether Black, moving second, keeps the move after White's king reaches the region:
    /// reaching it too draws, anything else loses (Racing Kings). Without it the first
    /// king to arrive wins at once (King of the Hill).
    pub reply_draws: bool,
}

/// Everything that distinguishes one chess-like variant from another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantConfig {
    /// The name used in commands and stored games (`standard`, `chess-sharp`): unique
    /// and never changed once games are stored under it.
    pub id: &'static str,
    /// The name people write (`Chess#`).
    pub display_name: &'static str,
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
    /// What a king is: royal or not, how many.
    pub king_rule: KingRule,
    /// How the game ends by itself: stalemate, extinction, checks, a goal, points.
    pub endings: Endings,
    /// Draw rules in force.
    pub draws: DrawRules,
    /// Drop rules, for variants with reserves.
    pub drops: Option<DropRules>,
    /// Double-move tokens, where a player may move twice in one turn.
    pub double_move: Option<DoubleMoveRules>,
    /// Descriptive file names as seen by the player (`QR`, `QN`, ... from the a-file).
    pub descriptive_files: &'static [&'static str],
    /// Whether SAN marks a check (`+`, `#`): only where the rules know check, which a
    /// variant won by taking the king does not (Chess#, Secret Chesswords).
    pub check_marks: bool,
    /// Whether a move may not give check at all (Racing Kings): neither king is ever
    /// attacked.
    pub checks_forbidden: bool,
    /// A side that plays without a king (Horde's White): it is never in check, its pawns
    /// may stand on its first rank and step two squares from there, and it loses when it
    /// has no piece left.
    pub kingless_side: Option<Color>,
    /// The name PGN's `Variant` tag gives, where other programs know the variant by one
    /// (Lichess's `King of the Hill`, which python-chess reads); `None` writes the id.
    pub pgn_name: Option<&'static str>,
    /// Castling by the Chess960 rules: the king stands on any file between the rooks
    /// that keep their rights, castles to the g- or c-file with the rook beside it on
    /// the f- or d-file, and a castling move goes king-takes-rook (its `to` is the rook's
    /// square, UCI `e1h1`), since a king already on its target castles without moving.
    pub chess960_castling: bool,
    /// Whether the PGN always gives the starting position (`SetUp`, `FEN`), the
    /// standard array too, as Lichess does for Chess960, whose start is one of many.
    pub start_in_pgn: bool,
    /// Whether a capture, where one exists, must be played: only captures are legal then
    /// (Antichess).
    pub captures_compulsory: bool,
    /// Whether a capture explodes: the capturing piece, the captured one and every piece
    /// but a pawn on the eight squares around the target square leave the board; a king
    /// may not capture, a move may not explode its own king, exploding the enemy king
    /// wins, and kings that touch cannot give each other check (Atomic).
    pub captures_explode: bool,
    /// Whether a timeout is judged by Lichess's table of mating material (scalachess's
    /// `InsufficientMatingMaterial`) instead of FIDE 6.9's "any series of legal moves":
    /// a king with one knight cannot win against anything but queens, a king with
    /// bishops cannot win unless bishops of both colours stand on the board or the
    /// opponent has a knight or pawn ([`lichess_cannot_win`](super::game::lichess_cannot_win)).
    pub lichess_timeouts: bool,
    /// The variant's name in the UCI protocol (`UCI_Variant`, as Fairy-Stockfish names
    /// it; `chess` for standard chess and Chess960), for an engine's analysis of a
    /// finished game; `None` where no engine plays it. A config built from another
    /// (`..FIDE_CHESS`) must set its own: the rules differ, so the engine's would.
    pub uci_variant: Option<&'static str>,
    /// Whether a game from this variant's start is named by chess's opening table
    /// (the notation layer's `openings`): standard chess, and Chess960 from the standard
    /// start (position 518), whose play is chess's. Lichess also names Crazyhouse,
    /// Three-check and King of the Hill games by chess's table, but their first moves
    /// already mean something else (docs/service.md, "Engine analysis"). A config built from another
    /// (`..FIDE_CHESS`) whose start is the standard array must set its own.
    pub opening_names: bool,
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
pub const NO_DRAWS: DrawRules = DrawRules {
    repetition: false,
    move_limit: MoveLimit::None,
    insufficient_material: false,
};

/// The draw rules of FIDE chess.
pub const FIDE_DRAWS: DrawRules = DrawRules {
    repetition: true,
    move_limit: MoveLimit::Fide,
    insufficient_material: true,
};

/// The draw rules of Lichess's variants: FIDE's, but the fifty-move rule draws by
/// itself at fifty moves by each side (Lichess's `fiftyMoves`), with no claim needed.
/// Repetition is as FIDE's: a claim at three, automatic at five (as Lichess).
pub const LICHESS_DRAWS: DrawRules = DrawRules {
    move_limit: MoveLimit::Lichess,
    ..FIDE_DRAWS
};

/// FIDE chess, the base of the variants that only add a rule to it
/// (`VariantConfig { endings: ..., ..FIDE_CHESS }`).
pub const FIDE_CHESS: VariantConfig = VariantConfig {
    id: "standard",
    display_name: "Standard chess",
    width: 8,
    height: 8,
    start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    castling: true,
    double_step: true,
    roles: &Role::ALL,
    promotion: &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
    king_rule: KingRule::Checkmate,
    endings: FIDE_ENDINGS,
    draws: FIDE_DRAWS,
    drops: None,
    double_move: None,
    descriptive_files: &["QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"],
    check_marks: true,
    checks_forbidden: false,
    kingless_side: None,
    pgn_name: None,
    chess960_castling: false,
    start_in_pgn: false,
    captures_compulsory: false,
    captures_explode: false,
    lichess_timeouts: false,
    uci_variant: Some("chess"),
    opening_names: true,
};

/// A chess-like variant as the engine sees it: a handle on its [`VariantConfig`],
/// small and `Copy`, compared and hashed by the config's id.
#[derive(Clone, Copy)]
pub struct Variant(&'static VariantConfig);

impl Variant {
    /// FIDE chess: the engine's own rules, which every other config starts from. The
    /// other variants' handles are declared in their folders (`Variant::CHESS_SHARP` in
    /// `src/variants/chess_sharp`), so that the engine names no variant but chess.
    pub const STANDARD: Variant = Variant(&FIDE_CHESS);

    /// The variant a config describes.
    pub const fn of(config: &'static VariantConfig) -> Variant {
        Variant(config)
    }

    /// The rules of this variant.
    #[inline]
    pub const fn config(self) -> &'static VariantConfig {
        self.0
    }

    /// The name used in commands and stored games (`standard`, `chess-sharp`).
    pub const fn name(self) -> &'static str {
        self.0.id
    }

    /// The name people write (`Chess#`).
    pub const fn display_name(self) -> &'static str {
        self.0.display_name
    }
}

impl PartialEq for Variant {
    fn eq(&self, other: &Variant) -> bool {
        std::ptr::eq(self.0, other.0) || self.0.id == other.0.id
    }
}

impl Eq for Variant {}

impl std::hash::Hash for Variant {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.id.hash(state);
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Variant({})", self.0.id)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
