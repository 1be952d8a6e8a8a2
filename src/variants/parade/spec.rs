//! Parade Chess Solitaire as the registry knows it: its names, its one seat and its
//! commands (`move`, `add`).

use super::rules::Parade;
use crate::variants::api::random::Random;
use crate::variants::api::{
    ArgSpec, CommandSpec, GameRules, IdRule, NewGame, Placing, RuleError, SeatPlan, VariantSpec,
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

impl VariantSpec for ParadeSpec {
    fn id(&self) -> &'static str {
        "parade"
    }

    fn display_name(&self) -> &'static str {
        "Parade Chess Solitaire"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["parade-solitaire", "parade-chess"]
    }

    fn summary(&self) -> &'static str {
        "a solitaire: pieces dealt from cards order each other about until they form one group"
    }

    fn seats(&self) -> SeatPlan {
        SeatPlan {
            names: &["Player"],
            placing: Placing::Alone,
        }
    }

    fn commands(&self) -> &'static [CommandSpec] {
        &[MOVE, ADD]
    }

    fn takes_fen(&self) -> bool {
        false
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
