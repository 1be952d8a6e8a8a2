//! The chess-like variants as the registry knows them: their names and their commands.
//! [`ChessSpec`] is public so that a chess-like variant whose board is a
//! [`VariantConfig`](crate::rules::VariantConfig) lives in a folder of its own
//! (`variants/king_of_the_hill`) with only its config and this spec.

use super::ChessRules;
use crate::rules::{Position, Variant, VariantConfig};
use crate::variants::api::random::Random;
use crate::variants::api::{
    ArgKind, ArgSpec, CommandSpec, Description, GameRules, IdRule, NewGame, OptionSpec,
    RefusalKind, RuleError, RulesDocument, Standing, VariantSpec,
};

/// A chess-like variant played by the engine on its [`Variant`] config, as a game of the
/// referee: its description (names, document, commands among [`MOVE`], [`DOUBLE`],
/// [`DRAW`], [`FAST_FIFTY`], [`CLAIM_DRAW`] and [`CLAIM_SHARP`], which the game reads) and
/// its starting positions.
pub struct ChessSpec {
    /// The engine's rules of the variant.
    pub variant: Variant,
    /// What the registry knows of it: [`ChessSpec::describe`] of the same `variant`,
    /// with its aliases, summaries and commands.
    pub description: Description,
    /// The numbered starting positions a new game draws from (Chess960's), where the
    /// variant has them instead of one start; their option is among the description's.
    pub starts: Option<&'static NumberedStarts>,
}

impl ChessSpec {
    /// What every chess-like variant on `variant` declares alike: its id and display
    /// name (the config's), its `document`, its board, two sides, rated games (with a
    /// points table where its endings score points), and takebacks and conditional moves
    /// (both players see the whole game: Chess#'s reserves too; Chess#'s drops and
    /// Double Move's double moves are single actions of the `move` command).
    pub const fn describe(variant: Variant, document: RulesDocument) -> Description {
        Description {
            board_variant: Some(variant),
            standing: Standing::Rated {
                points: variant.config().endings.points.is_some(),
            },
            takebacks: Ok(()),
            conditional_moves: Ok(()),
            ..Description::new(variant.name(), variant.display_name(), document)
        }
    }
}

/// Numbered starting positions of a chess-like variant (Chess960's 960): a new game
/// starts from the one its option names (`start:N`), or from one drawn from the
/// operating system's entropy; the position is stored with the game as its start, and
/// players are shown its number.
#[derive(Debug)]
pub struct NumberedStarts {
    /// The challenge option naming a position by its number (`start:N`).
    pub option: OptionSpec,
    /// How many there are, numbered from 0.
    pub count: u32,
    /// The FEN of position `n` (below `count`).
    pub fen: fn(u32) -> String,
    /// The number of a position, if it is one of them with nothing moved yet.
    pub number: fn(&Position) -> Option<u32>,
    /// The words before the number when players are shown it (`Chess960 position`).
    pub label: &'static str,
}

impl NumberedStarts {
    /// The FEN of the position a new game set up as `setup` starts from: the one its
    /// option names, else one drawn (from the operating system's entropy, or from the
    /// hidden seed where draws must be reproducible).
    fn pick(&self, setup: &NewGame) -> Result<String, RuleError> {
        let n = match setup.options.get(self.option.name) {
            Some(v) => v
                .parse::<u32>()
                .ok()
                .filter(|&n| n < self.count)
                .ok_or_else(|| {
                    RuleError::syntax(format!(
                        "{} takes a number from 0 to {}",
                        self.option.usage,
                        self.count - 1
                    ))
                })?,
            None => setup.hidden_draws().below(u64::from(self.count)) as u32,
        };
        Ok((self.fen)(n))
    }

    /// What players are shown of a game that began at `start` (`Chess960 position
    /// 518`), if it is one of the numbered positions.
    pub fn describe(&self, start: &Position) -> Option<String> {
        (self.number)(start).map(|n| format!("{} {n}", self.label))
    }
}

/// `move [ID] MOVE`.
pub const MOVE: CommandSpec = CommandSpec {
    name: "move",
    aliases: &["play"],
    usage: "move [ID] MOVE",
    help: "play a move; in a channel with exactly one of your games a bare move works too",
    examples: "move 12 e4, e4, N@d1, P-K4, MOVE E2 TO E4",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec::MOVE],
};

/// `double [ID] MOVE1 MOVE2`.
pub const DOUBLE: CommandSpec = CommandSpec {
    name: "double",
    aliases: &["doublemove", "double-move"],
    usage: "double [ID] MOVE1 MOVE2 (also double MOVE1 then MOVE2, or a bare MOVE1, MOVE2)",
    help: "spend a token to play two moves in one turn (its rules say when)",
    examples: "double Nf3 Ng5, double 12 e2 to e4 then g1 to f3, double Bd3 and Bxh7",
    secret: false,
    id: IdRule::Plain,
    args: &[
        ArgSpec {
            name: "first",
            help: "the first move",
            kind: ArgKind::Word,
            required: true,
        },
        ArgSpec {
            name: "second",
            help: "the second move",
            kind: ArgKind::Text,
            required: true,
        },
    ],
};

/// `draw [ID] offer|accept|decline` (shared by every two-player variant with draws by
/// agreement).
pub const DRAW: CommandSpec = CommandSpec {
    name: "draw",
    aliases: &[],
    usage: "draw [ID] offer|accept|decline",
    help: "draw by agreement",
    examples: "draw offer",
    secret: false,
    id: IdRule::Plain,
    args: &[DRAW_ANSWER],
};

/// The answer of `draw`: offer, accept or decline (shared by every variant with draws).
pub const DRAW_ANSWER: ArgSpec = ArgSpec {
    name: "answer",
    help: "offer, accept or decline",
    kind: ArgKind::Choice(&[
        ("offer", "Offer a draw"),
        ("accept", "Accept the draw"),
        ("decline", "Decline the draw"),
    ]),
    required: true,
};

/// `fastfifty [ID] propose|accept|reject`.
pub const FAST_FIFTY: CommandSpec = CommandSpec {
    name: "fastfifty",
    aliases: &["fast-fifty"],
    usage: "fastfifty [ID] propose|accept|reject",
    help: "end the game now as an impasse scored by material",
    examples: "fastfifty propose",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "answer",
        help: "propose, accept or reject",
        kind: ArgKind::Choice(&[
            ("propose", "Propose a fast-fifty"),
            ("accept", "Accept the fast-fifty"),
            ("reject", "Reject the fast-fifty"),
        ]),
        required: true,
    }],
};

const INTENDED: ArgSpec = ArgSpec {
    name: "move",
    help: "the move you intend, for a draw claim",
    kind: ArgKind::Move,
    required: false,
};

/// `claim [ID] draw [MOVE]`.
pub const CLAIM_DRAW: CommandSpec = CommandSpec {
    name: "claim",
    aliases: &[],
    usage: "claim [ID] draw|time [MOVE]",
    help: "claim a draw by threefold repetition or the fifty-move rule, optionally with the move you intend",
    examples: "claim draw, claim draw Nf3",
    secret: false,
    id: IdRule::Plain,
    args: &[
        ArgSpec {
            name: "kind",
            help: "what is claimed",
            kind: ArgKind::Choice(&[("draw", "Draw (repetition or fifty moves)")]),
            required: true,
        },
        INTENDED,
    ],
};

/// `claim [ID] stalemate|impasse|time`.
pub const CLAIM_SHARP: CommandSpec = CommandSpec {
    name: "claim",
    aliases: &[],
    usage: "claim [ID] stalemate|impasse|time",
    help: "claim a result the rules allow: your stalemate, an impasse (answered with the moves to go), or your opponent's time",
    examples: "claim stalemate, claim time",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "kind",
        help: "what is claimed",
        kind: ArgKind::Choice(&[
            ("stalemate", "Stalemate"),
            ("impasse", "Impasse"),
            ("time", "Opponent's time"),
        ]),
        required: true,
    }],
};

impl VariantSpec for ChessSpec {
    fn description(&self) -> &Description {
        &self.description
    }

    fn new_game(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        let start = match (setup.fen, self.starts) {
            (Some(_), Some(starts)) if setup.options.contains_key(starts.option.name) => {
                return Err(RuleError::of(
                    RefusalKind::Syntax,
                    format!(
                        "give either a position (fen:) or {}, not both",
                        starts.option.usage
                    ),
                ))
            }
            (Some(f), _) => Some(f.to_string()),
            (None, Some(starts)) => Some(starts.pick(setup)?),
            (None, None) => None,
        };
        let rules = match start {
            None => ChessRules::new(self.variant),
            Some(f) => ChessRules::from_fen(self.variant, &f)?,
        };
        Ok(Box::new(rules.with_starts(self.starts)))
    }

    fn load(&self, snapshot: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError> {
        // Read from the value in place: a copy of it cost an allocation a move played.
        let snap = <super::ChessSnapshot as serde::Deserialize>::deserialize(snapshot)
            .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
        Ok(Box::new(
            ChessRules::from_snapshot(self.variant, &snap)?.with_starts(self.starts),
        ))
    }

    fn load_text(&self, text: &str) -> Result<Box<dyn GameRules>, RuleError> {
        // Read from the text into the snapshot's fields, with no JSON value between.
        let snap: super::ChessSnapshot =
            serde_json::from_str(text).map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
        Ok(Box::new(
            ChessRules::from_snapshot(self.variant, &snap)?.with_starts(self.starts),
        ))
    }
}

/// The command `name` as a game on `config` reads it, if it has one: the commands are
/// the same in every chess-like variant but `claim`, whose kinds are Chess#'s where its
/// endings apply.
pub(super) fn command(config: &VariantConfig, name: &str) -> Option<&'static CommandSpec> {
    let claim = if config.endings.points.is_some() {
        &CLAIM_SHARP
    } else {
        &CLAIM_DRAW
    };
    [&MOVE, &DOUBLE, &DRAW, &FAST_FIFTY, claim]
        .into_iter()
        .find(|c| c.is_named(name))
}
