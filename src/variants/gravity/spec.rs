//! Gravity Chess as the registry knows it: its names, seats and commands, and the game as
//! the referee's state machine ([`GameRules`]).

use super::cards::piece_name;
use super::snapshot::Snapshot;
use super::state::{seat_of, Gravity, GravityAction, Phase};
use crate::render::Renderer;
use crate::variants::api::{
    rules_document, to_stored, with_draw_offer, ActsOnCopy, ArgKind, ArgSpec, CommandSpec,
    Description, Env, GameCommand, GameOutcome, GameRules, IdRule, NewGame, Note, Projection,
    Prompt, PromptKind, Reading, RuleError, Seat, SeatPlan, Standing, VariantSpec, Viewer,
};

/// A piece to add from the deck.
pub const ADD_PROMPT: PromptKind = PromptKind("add");
use crate::variants::chess::DRAW;

/// Gravity Chess, for the registry.
pub struct GravitySpec;

/// Gravity Chess, for the registry.
pub static SPEC: GravitySpec = GravitySpec;

/// `move [ID] MOVE`.
pub const MOVE: CommandSpec = CommandSpec {
    name: "move",
    aliases: &["play"],
    usage: "move [ID] MOVE",
    help: "move one of your active pieces down, in any notation; in a channel with exactly one of your games a bare move works too",
    examples: "move 12 Bf6, move e8e7, move exd7",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec::MOVE],
};

/// `stay [ID] SQUARE`.
pub const STAY: CommandSpec = CommandSpec {
    name: "stay",
    aliases: &["skip"],
    usage: "stay [ID] SQUARE",
    help: "declare that the piece on SQUARE cannot move now, so it stays this turn (only a piece that cannot move may stay)",
    examples: "stay e8, stay 12 e8, skip e8",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "square",
        help: "the square of the piece that stays",
        kind: ArgKind::Word,
        required: true,
    }],
};

/// `add [ID] COLUMN`.
pub const ADD: CommandSpec = CommandSpec {
    name: "add",
    aliases: &[],
    usage: "add [ID] COLUMN",
    help: "add the opponent's piece named by the flipped card on the top row, in COLUMN (or name the square)",
    examples: "add g, add g8, add 12 c",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "column",
        help: "the column (a to h), or the square",
        kind: ArgKind::Choice(&[
            ("a", "a"),
            ("b", "b"),
            ("c", "c"),
            ("d", "d"),
            ("e", "e"),
            ("f", "f"),
            ("g", "g"),
            ("h", "h"),
        ]),
        required: true,
    }],
};

/// The rules in brief for `rules gravity`: goal, moves, special rules, the end.
const RULES: &str = "Goal: more points at the end. Both players' pieces fall towards rank 1 and stack up there. The board starts empty; each player's deck holds the opponent's twelve pieces (king, queen, two rooks, bishops and knights, four pawns). A turn: a card is flipped; you move each of your active pieces once, each move ending at least one row lower (a capture may stay on its row), by its chess pattern (pawns step one square down, capture diagonally down); a piece that cannot move stays (`stay e8`); then you add the opponent's piece named by the card on rank 8 (`add g`). A piece on rank 1, or one whose every way down is blocked by stacked pieces, is stacked and never moves again. End: after Black adds White's last piece, White has a last move phase. Score: one point per captured piece, plus each stacked piece's row number (rank 1: 1 point, rank 2: 2, ...). More points wins.";

/// Gravity Chess as the registry knows it.
pub const DESCRIPTION: Description = Description {
    aliases: &["gravity-chess", "gravitychess"],
    summary: "both sides' pieces fall to rank 1: flip a card, move every active piece down, add an opponent's piece on top; score by stacked rows",
    rules_summary: RULES,
    standing: Standing::Rated { points: false },
    commands: &[MOVE, STAY, ADD, DRAW],
    ..Description::new(super::ID, "Gravity Chess", rules_document!("gravity"))
};

impl VariantSpec for GravitySpec {
    fn description(&self) -> &Description {
        &DESCRIPTION
    }

    fn new_game(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        // The decks are a hidden draw, kept in the state so the log replays without it.
        let mut draws = setup.hidden_draws();
        Ok(Box::new(match setup.fen {
            None => Gravity::start(&mut draws),
            Some(f) => Gravity::from_fen(f, &mut draws)?,
        }))
    }

    fn load(&self, snapshot: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError> {
        let s: Snapshot = serde_json::from_value(snapshot.clone())
            .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
        Ok(Box::new(Gravity::from_snapshot(&s)?))
    }
}

impl ActsOnCopy for Gravity {
    type Action = GravityAction;
    const NAME: &'static str = DESCRIPTION.display_name;

    fn act(&mut self, seat: Seat, action: GravityAction) -> Result<Vec<Note>, RuleError> {
        Gravity::act(self, seat, action)
    }
}

impl GameRules for Gravity {
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
        let ask = format!("to {}", self.phase_words().unwrap_or_default());
        let prompt = match self.phase() {
            Phase::Move => Prompt::turn(PromptKind::MOVE, ask),
            Phase::Add => {
                let mut p = Prompt::turn(ADD_PROMPT, ask);
                for sq in self.add_squares() {
                    let col = sq.to_string()[..1].to_string();
                    p = p.with_answer(&sq.to_string(), &format!("add {col}"), false);
                }
                p
            }
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
        Gravity::outcome(self)
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

    fn animation(&self, _viewer: Viewer, renderer: &Renderer, names: &[&str]) -> Option<Vec<u8>> {
        self.animation_gif(renderer, self.side_names(names))
    }

    fn export_fields(&self, _viewer: Viewer) -> serde_json::Map<String, serde_json::Value> {
        let s = self.score();
        let mut m = serde_json::Map::new();
        m.insert(
            "score".into(),
            serde_json::json!({"white": s.points[0], "black": s.points[1]}),
        );
        m.insert(
            "captured".into(),
            serde_json::json!({"white": s.captured[0], "black": s.captured[1]}),
        );
        let [w, b] = self.deck_sizes();
        m.insert(
            "cards_left".into(),
            serde_json::json!({"white": w, "black": b}),
        );
        if let Some(p) = self.to_add() {
            m.insert("to_add".into(), serde_json::json!(piece_name(p)));
        }
        m
    }

    fn snapshot(&self) -> Result<serde_json::Value, RuleError> {
        to_stored("the game's state", &self.to_snapshot())
    }
}
