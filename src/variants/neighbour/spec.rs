//! Neighbour Chess Solitaire as the registry knows it: its names, its one seat and its
//! commands (`add`, `place`, `stop`, `move`).

use super::rules::Neighbour;
use crate::variants::api::random::Random;
use crate::variants::api::{
    rules_document, ArgKind, ArgSpec, CommandSpec, Description, GameRules, IdRule, NewGame,
    Placing, RuleError, SeatPlan, Standing, VariantSpec,
};
use crate::variants::solitaire::{piece_deck, position_deck};

/// Neighbour Chess Solitaire.
pub struct NeighbourSpec;

/// Neighbour Chess Solitaire, for the registry.
pub static SPEC: NeighbourSpec = NeighbourSpec;

/// `add [ID]`.
pub const ADD: CommandSpec = CommandSpec {
    name: "add",
    aliases: &[],
    usage: "add [ID]",
    help: "turn up a piece card and a position card: the piece goes that many squares right (red) or up (black) from the last piece added (from a1 at first)",
    examples: "add, add 12",
    secret: false,
    id: IdRule::Plain,
    args: &[],
};

/// `place [ID] SQUARE`.
pub const PLACE: CommandSpec = CommandSpec {
    name: "place",
    aliases: &[],
    usage: "place [ID] SQUARE",
    help: "when an added piece lands on a taken square, the free square nearest to it you choose",
    examples: "place c3, place 12 d5",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "square",
        help: "a free square nearest to the taken one",
        kind: ArgKind::Word,
        required: true,
    }],
};

/// `stop [ID] [anyway]`.
pub const STOP: CommandSpec = CommandSpec {
    name: "stop",
    aliases: &[],
    usage: "stop [ID] [anyway]",
    help: "stop adding pieces and start moving them (a stop that would lose at once, the pieces apart and none able to move, is refused with a warning unless you add anyway)",
    examples: "stop, stop 12, stop anyway",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "anyway",
        help: "anyway: stop even though it loses the attempt at once",
        kind: ArgKind::Choice(&[("anyway", "anyway: stop even if it loses at once")]),
        required: false,
    }],
};

/// `move [ID] FROM TO [with NEIGHBOUR]`.
pub const MOVE: CommandSpec = CommandSpec {
    name: "move",
    aliases: &[],
    usage: "move [ID] FROM TO [with NEIGHBOUR]",
    help: "spend a card face down and move the piece on FROM to TO with the move of a neighbour of its colour (the one on NEIGHBOUR if you name it); a bare Nc3-c7 works too",
    examples: "move c3 c7, move Nc3-c7, move c3 c7 with d4",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec::MOVE],
};

/// The rules in brief for `rules neighbour`: goal, moves, special rules, the end.
const RULES: &str = "A solitaire for one player with a piece deck (the sixteen pieces without pawns) and a position deck (the 2 to 6 of every suit). Goal: bring all pieces into one group, touching on any of the eight sides and corners. Adding (`add`): a piece card and a position card are turned; the piece goes right (red card) or up (black card) that many squares from the last piece added, wrapping at the edges; if the square is taken you place it on the nearest free square (`place e1`). Once two pieces are on the board you may stop adding (`stop`). Moving (`move c3 c7`): each move spends a card; a piece moves not with its own move but with the move of a neighbouring piece of its colour, onto an empty square; nothing is ever captured. End: the group formed wins, scoring the cards left in both piles; both piles empty with the pieces apart, no move left, resigning or running out of time loses.";

/// Neighbour Chess Solitaire as the registry knows it.
pub const DESCRIPTION: Description = Description {
    aliases: &["neighbor", "neighbour-solitaire", "neighbor-solitaire"],
    summary: "a solitaire: cards place the pieces, which then move with their neighbours' moves until they form one group",
    rules_summary: RULES,
    standing: Standing::BestScore,
    seats: SeatPlan {
        names: &["Player"],
        sides: &[],
        placing: Placing::Alone,
    },
    commands: &[ADD, PLACE, STOP, MOVE],
    takes_fen: false,
    shown_deal_counts: true,
    ..Description::new(
        "neighbour",
        "Neighbour Chess Solitaire",
        rules_document!("neighbour"),
    )
};

impl VariantSpec for NeighbourSpec {
    fn description(&self) -> &Description {
        &DESCRIPTION
    }

    fn new_game(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        // Both decks are hidden draws, kept in the state as drawn.
        let mut draws = setup.hidden_draws();
        let (mut pieces, mut positions) = (piece_deck(), position_deck());
        draws.shuffle(&mut pieces);
        draws.shuffle(&mut positions);
        Ok(Box::new(Neighbour::deal(pieces, positions)))
    }

    fn load(&self, snapshot: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError> {
        serde_json::from_value::<Neighbour>(snapshot.clone())
            .map(|g| Box::new(g) as Box<dyn GameRules>)
            .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))
    }
}
