//! Split-Brain Chess as the registry knows it: its names, its four seats and its
//! commands.

use super::{SplitBrain, SplitSnapshot, SEAT_NAMES};
use crate::rules::Color;
use crate::variants::api::{
    rules_document, ArgKind, ArgSpec, CommandSpec, Description, GameRules, IdRule, NewGame,
    Placing, RuleError, SeatPlan, Standing, VariantSpec,
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

/// The rules in brief for `rules split-brain`: goal, moves, special rules, the end.
const RULES: &str = "Four players in two teams of two play Los Alamos chess (6x6, no bishops, one-step pawns, no castling). Goal: checkmate the other team. Moves: on each team turn one partner (the chooser) secretly picks a square holding one of the team's pieces and the other (the mover) secretly picks a target square, each by private message (`pick c3`). The roles swap every round: a checker on Black's edge marks the chooser's side. When both have picked, the picks are revealed; if the piece can go to the target, that move is played. Otherwise the other team's chooser decides (`decide piece` or `decide target`): the piece makes its legal move closest to the target, or the piece that can reach the target closest to the chosen piece moves there; ties are settled by `choose`. The mover may add a promotion (`pick c6=N`). End: checkmate wins; stalemate, insufficient material and the draw rules are as in Los Alamos chess; either partner may resign or offer a draw for the team.";

/// Split-Brain Chess as the registry knows it.
pub const DESCRIPTION: Description = Description {
    aliases: &["splitbrain", "split-brain-chess"],
    summary: "two teams of two on the Los Alamos board: each turn one partner secretly picks a piece, the other a target square",
    rules_summary: RULES,
    standing: Standing::Unrated(
        "Split-Brain is a team game: a result belongs to a pair, so it is not rated (docs/rules/split-brain.md)",
    ),
    seats: SeatPlan {
        names: &SEAT_NAMES,
        sides: &[Color::White, Color::White, Color::Black, Color::Black],
        placing: Placing::Teams,
    },
    commands: COMMANDS,
    ..Description::new("split-brain", "Split-Brain Chess", rules_document!("split-brain"))
};

impl VariantSpec for SplitBrainSpec {
    fn description(&self) -> &Description {
        &DESCRIPTION
    }

    fn new_game(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        Ok(Box::new(match setup.fen {
            None => SplitBrain::new(),
            Some(f) => SplitBrain::from_fen(f)?,
        }))
    }

    fn new_game_stored_before(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        // Games stored before kept no record of their picks (docs/rules/split-brain.md).
        let mut game = match setup.fen {
            None => SplitBrain::new(),
            Some(f) => SplitBrain::from_fen(f)?,
        };
        game.keep_no_record_of_picks();
        Ok(Box::new(game))
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
        .unwrap_or_else(|| {
            RuleError::syntax(format!("usage: {}", crate::variants::api::usage_mark(name)))
        })
}
