//! Chess960 (Fischer random chess), as Lichess plays it: standard chess from one of 960
//! starting positions, the pieces of the first rank shuffled (bishops on opposite
//! colours, the king between the rooks) and mirrored for Black, with castling by the
//! Chess960 rules. The rules are data: the engine's FIDE config with Chess960 castling;
//! the starting positions are numbered as Scharnagl numbers them (518 is the standard
//! position), drawn from the operating system's entropy or named by `start:N`
//! (`docs/rules/chess960.md`).

use crate::notation::fen::to_fen;
use crate::rules::{Position, Role, Variant, VariantConfig, FIDE_CHESS, LICHESS_DRAWS};
use crate::variants::api::{rules_document, Description, OptionKind, OptionSpec};
use crate::variants::chess::{ChessSpec, NumberedStarts, CLAIM_DRAW, DRAW, MOVE};

#[cfg(test)]
mod tests;

/// The engine's rules: FIDE chess with Chess960 castling, and Lichess's draws: fifty
/// moves without a capture or pawn move draw by themselves, and a timeout is judged by
/// Lichess's table of mating material. Its own start is position
/// 518, the standard one (what `postal perft chess960` counts from without `--fen`); a
/// game starts from the position its challenge names or draws.
pub static CONFIG: VariantConfig = VariantConfig {
    id: "chess960",
    display_name: "Chess960",
    chess960_castling: true,
    draws: LICHESS_DRAWS,
    lichess_timeouts: true,
    start_in_pgn: true,
    pgn_name: Some("Chess960"),
    uci_variant: Some("chess"),
    opening_names: true,
    ..FIDE_CHESS
};

/// How many starting positions there are.
pub const POSITIONS: u32 = 960;

/// The number of the standard starting position.
pub const STANDARD_POSITION: u32 = 518;

/// The starting positions, numbered and chosen as `docs/rules/chess960.md` says.
pub static STARTS: NumberedStarts = NumberedStarts {
    option: OptionSpec {
        name: "start",
        usage: "start:N",
        help: "starting position number, 0-959, 518 being the standard one; drawn at random if not given",
        kind: OptionKind::Number {
            min: 0,
            max: POSITIONS - 1,
            suffixes: &[],
        },
    },
    count: POSITIONS,
    fen: start_fen,
    number: position_number,
    label: "Chess960 position",
};

/// Chess960 in the registry.
pub static SPEC: ChessSpec = ChessSpec {
    variant: Variant::of(&CONFIG),
    description: Description {
        aliases: &["960", "fischer-random", "fischerandom", "frc"],
        summary: "chess from one of 960 starting positions, the first rank shuffled",
        rules_summary: "Goal: checkmate the opponent's king. Start: the pieces of the first rank are shuffled, Black's mirroring White's: the bishops on squares of opposite colours, the king between the rooks. There are 960 such positions, numbered 0 to 959 (518 is the standard one); a challenge picks one with start:N, or one is drawn at random, and the game says which. Moves: as in standard chess but castling: the king goes to the g-file (O-O) or the c-file (O-O-O) and that rook to the square beside it (f or d), from wherever they stand; the squares both cross or land on must be empty but for the two of them, and the king may not be in check or cross or land on an attacked square. Type O-O or O-O-O, or the king onto its rook (e1h1), or the king to its square when that is two files or more away. End: as on Lichess: checkmate wins; stalemate, insufficient material, fivefold repetition and fifty moves by each side without a capture or pawn move draw at once; threefold repetition on a claim (`claim draw`); draws may be offered (`draw offer`); a player may resign. Running out of time loses, or draws if the opponent lacks mating material by Lichess's table.",
        commands: &[MOVE, DRAW, CLAIM_DRAW],
        options: std::slice::from_ref(&STARTS.option),
        ..ChessSpec::describe(Variant::of(&CONFIG), rules_document!("chess960"))
    },
    starts: Some(&STARTS),
};

pub use crate::rules::scharnagl::back_rank;

/// The FEN of starting position `n` (below 960), castling written `KQkq` as X-FEN and
/// Lichess write it.
pub fn start_fen(n: u32) -> String {
    let white: String = back_rank(n).iter().map(|r| r.upper_char()).collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1",
        white.to_lowercase()
    )
}

/// The number of `pos` if it is one of the 960 starting positions exactly (White to
/// move, nothing moved, every castling right), as Lichess recognises one.
pub fn position_number(pos: &Position) -> Option<u32> {
    if pos.config().width != 8 || pos.config().height != 8 {
        return None;
    }
    let roles: Vec<Role> = (0..8)
        .map(|file| pos.role_at(crate::rules::Square::new(file, 0)))
        .collect::<Option<_>>()?;
    let n = (0..POSITIONS).find(|&n| back_rank(n)[..] == roles[..])?;
    (to_fen(pos) == start_fen(n)).then_some(n)
}
