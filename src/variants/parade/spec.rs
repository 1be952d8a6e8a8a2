//! Parade Chess Solitaire as the registry knows it: its names, its one seat and its
//! commands (`move`, `add`).

use super::rules::Parade;
use crate::variants::api::random::Random;
use crate::variants::api::{
    rules_document, ArgSpec, CommandSpec, Description, GameRules, IdRule, NewGame, Placing,
    RuleError, SeatPlan, Standing, VariantSpec,
};
use crate::variants::solitaire::piece_deck;

/// Parade Chess Solitaire.
pub struct ParadeSpec;

/// Parade Chess Solitaire, for the registry.
pub static SPEC: ParadeSpec = ParadeSpec;

/// `move [ID] MOVER PIECE TARGET`.
pub const MOVE: CommandSpec = CommandSpec {
    name: "move",
    aliases: &[],
    usage: "move [ID] MOVER PIECE TARGET",
    help: "spend a card face down: the piece on MOVER lifts a piece of the other colour from PIECE, a square it attacks, and puts it on TARGET, another empty square it attacks; a bare Nd3: c1-b2 works too",
    examples: "move d3 c1 b2, move Nd3: c1-b2, move 12 e4 f3 g2",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec::MOVE],
};

/// `add [ID]`.
pub const ADD: CommandSpec = CommandSpec {
    name: "add",
    aliases: &[],
    usage: "add [ID]",
    help: "turn up the top card of your hand and add its piece, leaving its gap after the piece on the highest rank, rightmost file",
    examples: "add, add 12",
    secret: false,
    id: IdRule::Plain,
    args: &[],
};

/// The rules in brief for `rules parade`: goal, moves, special rules, the end.
const RULES: &str = "A solitaire for one player with sixteen cards, one per piece without pawns. Goal: bring all the pieces into one group joined through their sides (diagonals do not count) while cards are left. Setup: eight cards are turned and their pieces placed from a1 along the ranks, each after a gap (knight 1, bishop 2, rook 3, queen 5, king 6). A turn spends the top card of your hand, chosen before it is seen: move (`move d3 c1 b2`): a piece lifts a piece of the other colour from a square it attacks and puts it on another empty square it attacks; or add (`add`): the card's piece is placed after the highest, rightmost piece with its gap. End: the group formed wins, scoring the cards left; once the hand is empty, moves count negative points; sixteen of them, no move left, resigning or running out of time loses.";

/// Parade Chess Solitaire as the registry knows it.
pub const DESCRIPTION: Description = Description {
    aliases: &["parade-solitaire", "parade-chess"],
    summary:
        "a solitaire: pieces dealt from cards order each other about until they form one group",
    rules_summary: RULES,
    standing: Standing::BestScore,
    seats: SeatPlan {
        names: &["Player"],
        sides: &[],
        placing: Placing::Alone,
    },
    commands: &[MOVE, ADD],
    takes_fen: false,
    shown_deal_counts: true,
    ..Description::new(
        "parade",
        "Parade Chess Solitaire",
        rules_document!("parade"),
    )
};

impl VariantSpec for ParadeSpec {
    fn description(&self) -> &Description {
        &DESCRIPTION
    }

    fn new_game(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        // The deck is a hidden draw, kept in the state as drawn.
        let mut deck = piece_deck();
        setup.hidden_draws().shuffle(&mut deck);
        Ok(Box::new(Parade::deal(deck)))
    }

    fn load(&self, snapshot: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError> {
        serde_json::from_value::<Parade>(snapshot.clone())
            .map(|g| Box::new(g) as Box<dyn GameRules>)
            .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))
    }
}
