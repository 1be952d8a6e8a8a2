//! Split-Brain Chess as the registry knows it: its names, its four seats and its
//! commands.

use super::{SplitBrain, SplitSnapshot, SEAT_NAMES};
use crate::variants::api::{
    ArgKind, ArgSpec, CommandSpec, GameRules, IdRule, NewGame, Placing, RuleError, SeatPlan,
    VariantSpec,
};

/// Split-Brain Chess: two teams of two on the Los Alamos board, each turn a secret piece
/// and a secret target.
pub struct SplitBrainSpec;

/// The registry's entry for Split-Brain Chess.
pub static SPEC: SplitBrainSpec = SplitBrainSpec;

/// `pick [ID] SQUARE`: secret, sent privately. The square is the rest of the line, as the
/// old parser read it: `pick c6 n` names a promotion, and `pick e4 extra` is refused by
/// the game with the reason rather than by the parser.
pub const PICK: CommandSpec = CommandSpec {
    name: "pick",
    aliases: &[],
    usage: "pick [ID] SQUARE",
    help: "privately (a DM to the bot), the chooser picks a piece and the mover a target square; a pick may be changed until your partner has picked; a mover may add a promotion",
    examples: "pick b1, pick c3, pick 12 a6=N",
    secret: true,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "square",
        help: "the square you pick (a mover may add a promotion: c6=N)",
        kind: ArgKind::Text,
        required: true,
    }],
};

/// `decide [ID] piece|target`.
pub const DECIDE: CommandSpec = CommandSpec {
    name: "decide",
    aliases: &[],
    usage: "decide [ID] piece|target",
    help: "when the other team's picks are not a legal move, their opposing chooser says which half stands",
    examples: "decide piece, decide target",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "stands",
        help: "which half of the picks stands",
        kind: ArgKind::Choice(&[("piece", "Piece stands"), ("target", "Target stands")]),
        required: true,
    }],
};

/// `choose [ID] SQUARE`.
pub const CHOOSE: CommandSpec = CommandSpec {
    name: "choose",
    aliases: &[],
    usage: "choose [ID] SQUARE",
    help: "pick one of the equally close options the bot lists",
    examples: "choose c3",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "square",
        help: "one of the options listed",
        kind: ArgKind::Word,
        required: true,
    }],
};

/// `draw [ID] offer|accept|decline`, for the team.
const DRAW: CommandSpec = CommandSpec {
    name: "draw",
    aliases: &[],
    usage: "draw [ID] offer|accept|decline",
    help: "draw by agreement; either partner offers for the team, either partner of the other team answers",
    examples: "draw offer",
    secret: false,
    id: IdRule::Plain,
    args: &[crate::variants::chess::DRAW_ANSWER],
};

/// `claim [ID] draw`: a claim names no move here, since moves come from picks.
const CLAIM: CommandSpec = CommandSpec {
    name: "claim",
    aliases: &[],
    usage: "claim [ID] draw",
    help: "claim a draw by threefold repetition or the fifty-move rule, for the team to move (without a move: moves come from picks)",
    examples: "claim draw",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "kind",
        help: "what is claimed",
        kind: ArgKind::Choice(&[("draw", "Draw (repetition or fifty moves)")]),
        required: true,
    }],
};

/// Every command of the game, in the order `help` lists them.
pub(super) const COMMANDS: &[CommandSpec] = &[PICK, DECIDE, CHOOSE, DRAW, CLAIM];

impl VariantSpec for SplitBrainSpec {
    fn id(&self) -> &'static str {
        "split-brain"
    }

    fn display_name(&self) -> &'static str {
        "Split-Brain Chess"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["splitbrain", "split-brain-chess"]
    }

    fn summary(&self) -> &'static str {
        "two teams of two on the Los Alamos board: each turn one partner secretly picks a piece, the other a target square"
    }

    fn seats(&self) -> SeatPlan {
        SeatPlan {
            names: &SEAT_NAMES,
            placing: Placing::Teams,
        }
    }

    fn commands(&self) -> &'static [CommandSpec] {
        COMMANDS
    }

    fn new_game(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        Ok(Box::new(match setup.fen {
            None => SplitBrain::new(),
            Some(f) => SplitBrain::from_fen(f)?,
        }))
    }

    fn load(&self, snapshot: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError> {
        let snap: SplitSnapshot = serde_json::from_value(snapshot.clone())
            .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
        Ok(Box::new(SplitBrain::from_snapshot(&snap)?))
    }
}

/// The refusal that shows how to write the command `name`.
pub(super) fn usage(name: &str) -> RuleError {
    COMMANDS
        .iter()
        .find(|c| c.is_named(name))
        .map(|c| c.usage_error())
        .unwrap_or_else(|| RuleError::syntax(format!("usage: {name}")))
}
