//! Booster Chess as the registry knows it: its names, seats and commands, and the game as
//! the referee's state machine ([`GameRules`]).

use super::snapshot::Snapshot;
use super::state::{seat_of, Booster, BoosterAction, Phase};
use super::{fen, Pos};
use crate::render::Renderer;
use crate::variants::api::{
    command_mark_str, rules_document, to_stored, with_draw_offer, ActsOnCopy, ArgKind, ArgSpec,
    CommandSpec, Description, Env, GameCommand, GameOutcome, GameRules, IdRule, NewGame, Note,
    Projection, Prompt, PromptKind, Reading, RuleError, Seat, SeatPlan, Standing, VariantSpec,
    Viewer,
};

/// Booster steps, a card or the end of the turn.
pub const BOOST_PROMPT: PromptKind = PromptKind("boost");
/// A card or the end of the turn.
pub const CARD_PROMPT: PromptKind = PromptKind("card");
use crate::variants::chess::DRAW;

/// Booster Chess, for the registry.
pub struct BoosterSpec;

/// Booster Chess, for the registry.
pub static SPEC: BoosterSpec = BoosterSpec;

/// `move [ID] MOVE [boost SQUARE...] [card CARD on SQUARE] [done]`.
pub const MOVE: CommandSpec = CommandSpec {
    name: "move",
    aliases: &[],
    usage: "move [ID] MOVE [boost SQUARE...] [card CARD on SQUARE] [done]",
    help: "your turn in one line or its first part: the move in any notation, then the booster steps of a boosted piece, a card to add a checker, done; in a channel with exactly one of your games the line works without the word move",
    examples: "move Nf3, move Nf3 boost g5 h6 card 9h on c4, move e4 done",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec::MOVE],
};

/// `boost [ID] SQUARE...`.
pub const BOOST: CommandSpec = CommandSpec {
    name: "boost",
    aliases: &["step"],
    usage: "boost [ID] SQUARE... [card CARD on SQUARE] [done]",
    help: "after moving a boosted piece, step it like a king to each SQUARE in turn, one checker spent per step (a pawn promoting: e8=Q)",
    examples: "boost g5, boost g5 h6, boost e8=Q done",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "squares",
        help: "the squares to step to, in order",
        kind: ArgKind::Text,
        required: true,
    }],
};

/// `add [ID] SQUARE with CARD` (also `card CARD on SQUARE`).
pub const ADD: CommandSpec = CommandSpec {
    name: "add",
    aliases: &["card"],
    usage: "add [ID] SQUARE with CARD (also card CARD on SQUARE)",
    help: "after your move, play a card to put one of your checkers under a piece it matches (a checker card, or a card with no matching piece left, matches any piece of its colour); this ends your turn",
    examples: "add c4 with 9h, card 9h on c4, card 6s on e7",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "card",
        help: "the square and the card (c4 with 9h), or the card and the square (9h on c4)",
        kind: ArgKind::Text,
        required: true,
    }],
};

/// `done [ID]`.
pub const DONE: CommandSpec = CommandSpec {
    name: "done",
    aliases: &[],
    usage: "done [ID]",
    help: "end your turn after your move without (more) booster steps or a card; you then draw up to one card per checker in front of you. It may end the move's own line, and . is short for it: e4 done, e4 .",
    examples: "done, done 12",
    secret: false,
    id: IdRule::Plain,
    args: &[],
};

/// The rules in brief for `rules booster`: goal, moves, special rules, the end.
const RULES: &str = "Goal: checkmate, as in standard chess, changed by cards and checkers. Each player has six checkers and a secret hand of cards (piece cards and checker cards). A turn: a legal move; if the piece stood on your own checkers (boosted), it may then take king steps, one checker spent per step; then you may play a card (`add e2 with 9h`) to put one of your checkers under a piece the card matches: under your own piece it boosts, under an opponent's it hobbles. A hobbled piece moves like a pawn (a hobbled pawn cannot move); opposite checkers under one piece cancel in pairs; a capturer takes over the captured piece's checkers. Then you draw back up to as many cards as checkers in front of you. End: checkmate wins; stalemate, a position's third occurrence and fifty moves each without a pawn move or capture draw at once; draws may be agreed (`draw offer`); a player may resign; time running out loses.";

/// Booster Chess as the registry knows it.
pub const DESCRIPTION: Description = Description {
    aliases: &["booster-chess", "boosterchess"],
    summary: "chess with secret hands of cards: add checkers under pieces to boost yours (king steps after a move) or hobble the opponent's (they move like pawns)",
    rules_summary: RULES,
    standing: Standing::Rated { points: false },
    commands: &[MOVE, BOOST, ADD, DONE, DRAW],
    ..Description::new(super::ID, "Booster Chess", rules_document!("booster"))
};

impl VariantSpec for BoosterSpec {
    fn description(&self) -> &Description {
        &DESCRIPTION
    }

    fn new_game(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        // The deal, the pile and the reshuffle seed are hidden draws, kept in the state.
        let mut draws = setup.hidden_draws();
        let (pos, start) = match setup.fen {
            None => (Pos::start(), None),
            Some(f) => {
                let pos = fen::parse(f).map_err(|e| RuleError::syntax(e.to_string()))?;
                let text = fen::write(&pos);
                (pos, Some(text))
            }
        };
        let g = Booster::new(pos, &mut draws, start);
        if g.is_over() {
            return Err(RuleError::syntax(
                "that position is already over: the side to move has no move",
            ));
        }
        Ok(Box::new(g))
    }

    fn load(&self, snapshot: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError> {
        let s: Snapshot = serde_json::from_value(snapshot.clone())
            .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
        Ok(Box::new(Booster::from_snapshot(&s)?))
    }
}

impl ActsOnCopy for Booster {
    type Action = BoosterAction;
    const NAME: &'static str = DESCRIPTION.display_name;

    fn act(&mut self, seat: Seat, action: BoosterAction) -> Result<Vec<Note>, RuleError> {
        Booster::act(self, seat, &action)
    }
}

impl GameRules for Booster {
    fn variant(&self) -> &'static str {
        super::ID
    }

    fn seats(&self) -> SeatPlan {
        SPEC.seats()
    }

    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        if self.is_over() {
            return Vec::new();
        }
        let mover = seat_of(self.turn());
        let prompt = match self.phase() {
            // A turn without a card needs its `done`: the prompt says it may come in the
            // move's own line (docs/rules/booster.md, "Commands").
            Phase::Move => Prompt::turn(
                PromptKind::MOVE,
                concat!(
                    "to move (the turn may end in the same line: ",
                    command_mark_str!("move e4 done"),
                    ")"
                ),
            ),
            Phase::Steps(_) => Prompt::turn(
                BOOST_PROMPT,
                concat!(
                    "to take booster steps (",
                    command_mark_str!("boost SQUARE"),
                    "), play a card (",
                    command_mark_str!("add SQUARE with CARD"),
                    ") or end the turn (",
                    command_mark_str!("done"),
                    ")"
                ),
            )
            .with_answer("Done", "done", true),
            Phase::Card => Prompt::turn(
                CARD_PROMPT,
                concat!(
                    "to play a card (",
                    command_mark_str!("add SQUARE with CARD"),
                    ") or end the turn (",
                    command_mark_str!("done"),
                    ")"
                ),
            )
            .with_answer("Done", "done", true),
        };
        with_draw_offer(mover, prompt, self.duel.offered_to())
    }

    fn read(&self, seat: Seat, command: &GameCommand, _env: Env) -> Result<Reading, RuleError> {
        super::read::read(self, seat, command)
    }

    fn project(&self, viewer: Viewer) -> Projection {
        self.projection(viewer)
    }

    fn outcome(&self) -> Option<GameOutcome> {
        Booster::outcome(self)
    }

    fn aborted(&self) -> bool {
        self.duel.aborted()
    }

    fn timeout_is_automatic(&self) -> bool {
        true
    }

    fn pgn(&self, _viewer: Viewer, tags: &[(String, String)]) -> String {
        self.write_pgn(tags)
    }

    fn animation(&self, _viewer: Viewer, _renderer: &Renderer, _names: &[&str]) -> Option<Vec<u8>> {
        None
    }

    fn export_fields(&self, _viewer: Viewer) -> serde_json::Map<String, serde_json::Value> {
        self.public_fields()
    }

    fn disguised(&self, owner: Seat) -> Option<Box<dyn GameRules>> {
        self.disguise(owner)
            .map(|g| Box::new(g) as Box<dyn GameRules>)
    }

    fn snapshot(&self) -> Result<serde_json::Value, RuleError> {
        to_stored("the game's state", &self.to_snapshot())
    }
}
