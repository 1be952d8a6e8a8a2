//! Parade Chess Solitaire as the registry knows it: its names, its one seat and its
//! commands (`move`, `add`).

use super::rules::Parade;
use crate::variants::api::random::Random;
use crate::variants::api::{
    ArgSpec, CommandSpec, GameRules, IdRule, NewGame, Placing, RuleError, SeatPlan, Standing,
    VariantSpec,
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

    fn rules_summary(&self) -> &'static str {
        RULES
    }

    fn standing(&self) -> Standing {
        Standing::BestScore
    }

    fn seats(&self) -> SeatPlan {
        SeatPlan {
            names: &["Player"],
            sides: &[],
            placing: Placing::Alone,
        }
    }

    fn commands(&self) -> &'static [CommandSpec] {
        &[MOVE, ADD]
    }

    fn takes_fen(&self) -> bool {
        false
    }

    fn shown_deal_counts(&self) -> bool {
        true
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
