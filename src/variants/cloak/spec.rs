//! Cloak and Dagger Chess as the registry knows it: its names, seats and commands, the
//! game as the referee's state machine ([`GameRules`]), and how typed commands are read.

use super::board::{arrangement_number, parse_arrangement, Arrangement};
use super::state::{color, role_from_word, Cloak, CloakAction, Step};
use crate::notation::{read_among, san_among};
use crate::render::Renderer;
use crate::rules::Variant;
use crate::variants::api::random::Random;
use crate::variants::api::{
    command_mark_str, rules_document, to_stored, with_draw_offer, Action, ActsOnCopy, ArgKind,
    ArgSpec, CommandSpec, Description, DuelAction, Env, GameCommand, GameOutcome, GameRules,
    IdRule, NewGame, Note, Projection, Prompt, PromptKind, Reading, RuleError, Seat, SeatPlan,
    Standing, VariantSpec, Viewer,
};

/// A back rank to set up, privately.
pub const SETUP_PROMPT: PromptKind = PromptKind("setup");
/// The bonus move, or skipping it.
pub const BONUS: PromptKind = PromptKind("bonus");
use crate::variants::chess::DRAW;

/// Cloak and Dagger Chess, for the registry.
pub struct CloakSpec;

/// Cloak and Dagger Chess, for the registry.
pub static SPEC: CloakSpec = CloakSpec;

/// The checker numbers, as choices.
const NUMBERS: &[(&str, &str)] = &[
    ("1", "1"),
    ("2", "2"),
    ("3", "3"),
    ("4", "4"),
    ("5", "5"),
    ("6", "6"),
    ("7", "7"),
    ("8", "8"),
];

/// `setup [ID] RNBQKBNR|random`, privately.
pub const SETUP: CommandSpec = CommandSpec {
    name: "setup",
    aliases: &["arrange"],
    usage: "setup [ID] RNBQKBNR|random",
    help: "Cloak and Dagger Chess, privately: your back rank as eight letters from file a to h (king between the rooks, bishops on opposite colours), or random",
    examples: "setup RNBQKBNR, setup 12 NRKBBQRN, setup random",
    secret: true,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "arrangement",
        help: "eight letters such as RNBQKBNR, or random",
        kind: ArgKind::Word,
        required: true,
    }],
};

/// `move [ID] MOVE`.
pub const MOVE: CommandSpec = CommandSpec {
    name: "move",
    aliases: &["play"],
    usage: "move [ID] MOVE",
    help: "move by squares (b1c3, b1-c3) or, your own pieces, in SAN (Nc3, O-O); a bonus move is a pawn move or a drop (P@b2)",
    examples: "move b1c3, move Nc3, move O-O, move P@d2",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec::MOVE],
};

/// `guess [ID] ROLE CHECKER`.
pub const GUESS: CommandSpec = CommandSpec {
    name: "guess",
    aliases: &[],
    usage: "guess [ID] ROLE CHECKER",
    help: "Cloak and Dagger Chess, at the start of your turn: guess an enemy checker's identity (the role first, as a number would be read as a game id); right earns a bonus move, wrong gives your opponent one",
    examples: "guess knight 3, guess 12 king 5, guess 3=knight",
    secret: false,
    id: IdRule::Plain,
    args: &[
        ArgSpec {
            name: "role",
            help: "what you think it is",
            kind: ArgKind::Choice(&[
                ("king", "king"),
                ("queen", "queen"),
                ("rook", "rook"),
                ("bishop", "bishop"),
                ("knight", "knight"),
            ]),
            required: true,
        },
        ArgSpec {
            name: "checker",
            help: "the enemy checker's number",
            kind: ArgKind::Choice(NUMBERS),
            required: false,
        },
    ],
};

/// `uncloak [ID] N...`.
pub const UNCLOAK: CommandSpec = CommandSpec {
    name: "uncloak",
    aliases: &["reveal"],
    usage: "uncloak [ID] CHECKER [CHECKER...]",
    help: "Cloak and Dagger Chess, during your turn: show these checkers as their pieces at the end of the turn",
    examples: "uncloak 3, uncloak 3 5, uncloak #12 5",
    secret: false,
    id: IdRule::HashOnly,
    args: &[
        ArgSpec {
            name: "checker",
            help: "one of your checkers",
            kind: ArgKind::Choice(NUMBERS),
            required: true,
        },
        ArgSpec {
            name: "more",
            help: "more of your checkers, separated by spaces",
            kind: ArgKind::Text,
            required: false,
        },
    ],
};

/// `skip [ID]`.
pub const SKIP: CommandSpec = CommandSpec {
    name: "skip",
    aliases: &["pass"],
    usage: "skip [ID]",
    help: "do without the bonus move you may make",
    examples: "skip, skip 12",
    secret: false,
    id: IdRule::Plain,
    args: &[],
};

/// The rules in brief for `rules cloak`: goal, moves, special rules, the end.
const RULES: &str = "Goal: checkmate, on the standard board, where every piece but the pawns starts as a numbered checker whose identity only its owner knows. Setup: each player privately assigns king, queen, rooks, bishops and knights to their eight checkers (`setup RNBQKBNR` or `setup random`), with the king between the rooks and the bishops on opposite colours. Moves follow the true identities. A turn: you may guess one enemy checker (`guess knight 3`): right, the identity is public and you get a bonus pawn move; wrong, your opponent gets one. Then your regular move. You may uncloak checkers (`uncloak 3 5`), showing them for good. A captured checker's identity is announced. Check counts only from pieces whose identity is public. End: capturing the king, or checkmating an uncloaked king, wins; stalemate, two bare kings and agreement (`draw offer`) draw; a player may resign; time running out loses.";

/// Cloak and Dagger Chess as the registry knows it.
pub const DESCRIPTION: Description = Description {
    aliases: &["cloak-and-dagger", "cloak-and-dagger-chess", "cloakdagger"],
    summary: "every piece but the pawns is a numbered checker whose identity only its owner knows: guess the enemy's for bonus moves, capture a cloaked king or mate an uncloaked one",
    rules_summary: RULES,
    standing: Standing::Rated { points: false },
    commands: &[SETUP, MOVE, GUESS, UNCLOAK, SKIP, DRAW],
    takes_fen: false,
    ..Description::new(
        super::ID,
        "Cloak and Dagger Chess",
        rules_document!("cloak-and-dagger"),
    )
};

impl VariantSpec for CloakSpec {
    fn description(&self) -> &Description {
        &DESCRIPTION
    }

    fn new_game(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        if setup.fen.is_some() {
            return Err(RuleError::new(
                "Cloak and Dagger Chess starts from its secret set-up, not from a FEN",
            ));
        }
        // The back ranks `setup random` gives are hidden draws, kept in the state.
        let mut draws = setup.hidden_draws();
        let a: [Arrangement; 2] = [
            arrangement_number(draws.below(960)),
            arrangement_number(draws.below(960)),
        ];
        Ok(Box::new(Cloak::new(a)))
    }

    fn load(&self, snapshot: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError> {
        let g: Cloak = serde_json::from_value(snapshot.clone())
            .map_err(|e| RuleError::new(format!("bad Cloak and Dagger snapshot: {e}")))?;
        if !g.board_is_whole() {
            return Err(RuleError::new("bad Cloak and Dagger snapshot: the board"));
        }
        Ok(Box::new(g))
    }
}

/// Reads one of the variant's commands typed by `seat`.
fn read(g: &Cloak, seat: Seat, c: &GameCommand) -> Result<Reading, RuleError> {
    let action = match c.word.as_str() {
        "setup" | "arrange" => match c.args.as_slice() {
            [one] if one.eq_ignore_ascii_case("random") => CloakAction::Setup(None),
            [one] => CloakAction::Setup(Some(
                parse_arrangement(one)
                    .map_err(|e| RuleError::syntax(e.to_string()))
                    .map(|a| super::board::arrangement_text(&a))?,
            )),
            _ => return Err(SETUP.usage_error()),
        },
        "guess" => {
            let pawn = c.args.iter().any(|a| {
                a.split(['=', ':'])
                    .any(|w| matches!(w.to_ascii_lowercase().as_str(), "p" | "pawn"))
            });
            if pawn {
                return Err(RuleError::new(
                    "a pawn is never cloaked: guess a king, queen, rook, bishop or knight, like guess knight 3",
                ));
            }
            let (id, role) = read_guess(&c.args).ok_or_else(|| GUESS.usage_error())?;
            CloakAction::Guess(id, role.upper_char())
        }
        "uncloak" | "reveal" => {
            let ids = c
                .args
                .iter()
                .flat_map(|a| a.split(',').map(str::to_string).collect::<Vec<_>>())
                .filter(|a| !a.is_empty())
                .map(|a| a.parse::<u8>().ok().filter(|i| (1..=8).contains(i)))
                .collect::<Option<Vec<u8>>>()
                .filter(|v| !v.is_empty() && v.len() <= 8)
                .ok_or_else(|| UNCLOAK.usage_error())?;
            CloakAction::Uncloak(ids)
        }
        "skip" | "pass" => CloakAction::Skip,
        "move" | "play" => CloakAction::Move(read_move(g, seat, &c.rest(0))?),
        "draw" => CloakAction::Duel(DuelAction::read_draw(c, &DRAW)?),
        _ => {
            return Err(crate::variants::api::not_part_of(
                &c.word,
                "Cloak and Dagger Chess",
            ))
        }
    };
    Action::of(&action).map(Reading::Act)
}

/// Reads a guess: `knight 3`, `3 knight` (when the number was not read as a game id),
/// `3=knight`, `3:n`.
fn read_guess(args: &[String]) -> Option<(u8, crate::rules::Role)> {
    let joined = args.join(" ").replace(['=', ':'], " ");
    let words: Vec<&str> = joined.split_whitespace().collect();
    let number = |w: &str| w.parse::<u8>().ok().filter(|i| (1..=8).contains(i));
    match words.as_slice() {
        [a, b] => match (number(a), number(b)) {
            (Some(id), None) => Some((id, role_from_word(b)?)),
            (None, Some(id)) => Some((id, role_from_word(a)?)),
            _ => None,
        },
        _ => None,
    }
}

/// Reads a move of the player to move into its UCI. The candidates are the moves the
/// player may make now, by the true roles of their own men and the public identities of
/// the enemy's, so the answer never depends on what the opponent hides.
fn read_move(g: &Cloak, seat: Seat, text: &str) -> Result<String, RuleError> {
    let c = g.check_turn(seat)?;
    let moves = g.moves_now();
    let fits = read_among(Variant::STANDARD.config(), c, &moves, text)?;
    match fits.as_slice() {
        [m] => Ok(super::state::move_code(m)),
        [] => Err(g.why_not(c, text)),
        many => Err(RuleError::ambiguous(format!(
            "ambiguous: {}?",
            many.iter()
                .map(|m| san_among(*m, &moves))
                .collect::<Vec<_>>()
                .join(" or ")
        ))),
    }
}

impl Cloak {
    /// Why `text` fits no move `c` may make now, from what `c` knows alone.
    fn why_not(&self, c: crate::rules::Color, text: &str) -> RuleError {
        let shown = text.chars().take(20).collect::<String>();
        let bonus = matches!(self.step(), Step::Owed | Step::Bonus);
        if bonus {
            // The example on the mover's own second rank.
            let example = if c == crate::rules::Color::White {
                "P@b2"
            } else {
                "P@b7"
            };
            return RuleError::new(format!(
                "'{shown}' is not a bonus move you may make: a bonus move is a pawn move or a drop of a captured pawn on your second rank ({example}), or skip"
            ));
        }
        // A move the piece could make but for the uncloaked king's safety: the moves
        // of the same men with the king cloaked.
        let mut cloaked = self.board.clone();
        if let Some((ks, mut king)) = cloaked.king(c) {
            king.cloaked = true;
            cloaked.set(ks, Some(king));
        }
        let all = cloaked.pseudo_moves(
            c,
            self.ep.map(crate::rules::Square::from_index),
            self.unmoved[c.index()],
            false,
            &self.knowledge(),
        );
        if let Ok(f) = read_among(Variant::STANDARD.config(), c, &all, text) {
            if !f.is_empty() {
                return RuleError::new(format!(
                    "illegal move: '{shown}' would leave your uncloaked king in check from a piece whose identity is known"
                ));
            }
        }
        RuleError::new(format!(
            "none of your pieces can make the move '{shown}' (castling: O-O or O-O-O)"
        ))
    }

    /// Whether the stored board has its squares.
    pub fn board_is_whole(&self) -> bool {
        self.board.is_whole()
    }
}

impl ActsOnCopy for Cloak {
    type Action = CloakAction;
    const NAME: &'static str = DESCRIPTION.display_name;

    fn act(&mut self, seat: Seat, action: CloakAction) -> Result<Vec<Note>, RuleError> {
        Cloak::act(self, seat, action)
    }
}

impl GameRules for Cloak {
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
        if self.step() == Step::Setup {
            return (0..2u8)
                .filter(|s| self.setups[*s as usize].is_none())
                .map(|s| {
                    (
                        Seat(s),
                        Prompt::secret(
                            SETUP_PROMPT,
                            concat!(
                                "to set up the back rank (privately: ",
                                command_mark_str!("setup RNBQKBNR"),
                                " or ",
                                command_mark_str!("setup random"),
                                ")"
                            ),
                        )
                        .with_answer(
                            "Random back rank",
                            "setup random",
                            false,
                        ),
                    )
                })
                .collect();
        }
        let mover = self.to_move();
        let ask = format!("to {}", self.phase_words().unwrap_or_default());
        let prompt = match self.step() {
            Step::Owed | Step::Bonus => {
                Prompt::turn(BONUS, ask).with_answer("Skip the bonus move", "skip", false)
            }
            _ => Prompt::turn(PromptKind::MOVE, ask),
        };
        with_draw_offer(mover, prompt, self.duel.offered_to())
    }

    fn read(&self, seat: Seat, command: &GameCommand, _env: Env) -> Result<Reading, RuleError> {
        read(self, seat, command)
    }

    fn project(&self, viewer: Viewer) -> Projection {
        self.projection(viewer)
    }

    fn outcome(&self) -> Option<GameOutcome> {
        Cloak::outcome(self)
    }

    fn aborted(&self) -> bool {
        self.duel.aborted()
    }

    fn timeout_is_automatic(&self) -> bool {
        true
    }

    fn pgn(&self, viewer: Viewer, tags: &[(String, String)]) -> String {
        self.write_pgn(viewer, tags)
    }

    fn animation(&self, _viewer: Viewer, _renderer: &Renderer, _names: &[&str]) -> Option<Vec<u8>> {
        None
    }

    fn disguised(&self, owner: Seat) -> Option<Box<dyn GameRules>> {
        self.disguise(owner, None)
            .map(|g| Box::new(g) as Box<dyn GameRules>)
    }

    fn disguised_before(
        &self,
        owner: Seat,
        actor: Seat,
        action: &Action,
    ) -> Option<Box<dyn GameRules>> {
        self.disguise(owner, Some((actor, action)))
            .map(|g| Box::new(g) as Box<dyn GameRules>)
    }

    fn snapshot(&self) -> Result<serde_json::Value, RuleError> {
        to_stored("the game's state", self)
    }
}

/// The colour of a seat, for the other modules.
pub fn seat_color(seat: Seat) -> crate::rules::Color {
    color(seat.0)
}
