//! A toy variant defined outside the crate, for the tests: Knight's Hop, a puzzle for one
//! player. A white knight stands on a1 and must reach h8 in as few moves as it can; the
//! command is `hop SQUARE`, and the game is won when the knight arrives (scored by its
//! number of hops; six is the fewest).
//!
//! It is here to prove that a variant is one module: declared with
//! [`VariantSpec`] and [`GameRules`] alone and added with
//! `Registry::builtin().with(&KNIGHT_HOP)`, it is challenged, played, drawn and ended
//! through the referee and the Discord adapter, and its `/hop` slash command is
//! registered from its declaration, with no change to either.

#![allow(dead_code)]

use postal::render::{BoardView, Disc, LastMove, Overlay, Renderer};
use postal::rules::{Color, EndReason, Piece, Role, Square};
use postal::variants::api::{
    to_stored, Action, Apply, ArgKind, ArgSpec, CommandSpec, Description, Env, GameCommand,
    GameOutcome, GameRules, IdRule, NewGame, Note, Placing, Projection, Prompt, Reading, Reason,
    RuleError, RulesDocument, Seat, SeatPlan, Text, VariantSpec, Viewer,
};
use serde::{Deserialize, Serialize};

/// The variant, for the registry.
pub static KNIGHT_HOP: KnightHop = KnightHop;

/// Knight's Hop as the registry knows it.
pub struct KnightHop;

/// Where the knight starts.
pub const START: &str = "a1";
/// Where it must go.
pub const GOAL: &str = "h8";
/// The fewest hops from [`START`] to [`GOAL`].
pub const FEWEST: usize = 6;

/// `hop [ID] SQUARE`.
const HOP: CommandSpec = CommandSpec {
    name: "hop",
    aliases: &["jump"],
    usage: "hop [ID] SQUARE",
    help: "move the knight one knight's move, to SQUARE",
    examples: "hop b3, hop 4 c2",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "square",
        help: "where the knight goes",
        kind: ArgKind::Move,
        required: true,
    }],
};

/// The puzzle as the registry knows it: a variant of the tests' own, with no rules
/// document in `docs/rules/`.
const DESCRIPTION: Description = Description {
    summary: "a puzzle for one: bring a knight from a1 to h8 in the fewest moves",
    rules_summary:
        "A puzzle for one: a knight starts on a1; move it (hop SQUARE) until it reaches h8, \
         in as few moves as you can.",
    seats: SeatPlan {
        names: &["Knight"],
        sides: &[],
        placing: Placing::Alone,
    },
    commands: &[HOP],
    takes_fen: false,
    ..Description::new(
        "knight-hop",
        "Knight's Hop",
        RulesDocument {
            name: "knight-hop",
            text: "",
        },
    )
};

impl VariantSpec for KnightHop {
    fn description(&self) -> &Description {
        &DESCRIPTION
    }

    fn new_game(&self, _setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        Ok(Box::new(Hop {
            path: vec![START.to_string()],
            ended: None,
        }))
    }

    fn load(&self, snapshot: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError> {
        serde_json::from_value::<Hop>(snapshot.clone())
            .map(|h| Box::new(h) as Box<dyn GameRules>)
            .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))
    }
}

/// What the player did, as stored in the game's log (the referee's own actions are the
/// unit variants `Resign`, `Abort` and `Timeout`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum HopAction {
    Hop(String),
    Resign,
    Abort,
    Timeout,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Ended {
    Arrived,
    Resigned,
    TimedOut,
    Aborted,
}

/// One game: the squares the knight has stood on, from a1.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Hop {
    path: Vec<String>,
    ended: Option<Ended>,
}

fn square(s: &str) -> Square {
    Square::parse(s).unwrap_or(Square::new(0, 0))
}

/// The squares a knight on `from` reaches, in board order.
fn reach(from: Square) -> Vec<Square> {
    let (f, r) = (from.file() as i8, from.rank() as i8);
    let mut out: Vec<Square> = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ]
    .iter()
    .map(|(df, dr)| (f + df, r + dr))
    .filter(|(f, r)| (0..8).contains(f) && (0..8).contains(r))
    .map(|(f, r)| Square::new(f as u8, r as u8))
    .collect();
    out.sort();
    out
}

impl Hop {
    fn at(&self) -> Square {
        square(self.path.last().map_or(START, String::as_str))
    }

    fn hops(&self) -> usize {
        self.path.len() - 1
    }

    /// Where the knight may hop, alphabetically.
    fn destinations(&self) -> Vec<String> {
        let mut out: Vec<String> = reach(self.at()).iter().map(|s| s.to_string()).collect();
        out.sort();
        out
    }

    /// The position as a FEN: the knight, and nothing else.
    fn fen(&self) -> String {
        let at = self.at();
        let ranks: Vec<String> = (0..8u8)
            .rev()
            .map(|r| {
                if at.rank() != r {
                    return "8".to_string();
                }
                let (before, after) = (at.file(), 7 - at.file());
                format!(
                    "{}N{}",
                    if before > 0 {
                        before.to_string()
                    } else {
                        String::new()
                    },
                    if after > 0 {
                        after.to_string()
                    } else {
                        String::new()
                    }
                )
            })
            .collect();
        format!("{} w - - 0 {}", ranks.join("/"), self.hops() + 1)
    }

    fn diagram(&self) -> String {
        let at = self.at();
        let goal = square(GOAL);
        (0..8u8)
            .rev()
            .map(|r| {
                (0..8u8)
                    .map(|f| {
                        let s = Square::new(f, r);
                        if s == at {
                            'N'
                        } else if s == goal {
                            '*'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn numbered(&self) -> String {
        self.path[1..]
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}. {s}", i + 1))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Apply for Hop {
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError> {
        let action: HopAction = action.to("Knight's Hop")?;
        if self.is_over() {
            return Err(RuleError::over("the puzzle is over"));
        }
        match action {
            HopAction::Hop(to) => {
                let to = Square::parse(&to)
                    .ok_or_else(|| RuleError::syntax(format!("{to} is not a square")))?;
                let from = self.at();
                if !reach(from).contains(&to) {
                    return Err(RuleError::new(format!(
                        "a knight on {from} cannot reach {to}; it may hop to {}",
                        self.destinations().join(", ")
                    )));
                }
                self.path.push(to.to_string());
                let mut text = Text::player(seat, format!(" hops to {to}"));
                if to == square(GOAL) {
                    self.ended = Some(Ended::Arrived);
                    text = text.push(format!(
                        ", arriving in {} hops (the fewest is {FEWEST})",
                        self.hops()
                    ));
                }
                Ok(vec![Note::moved(text)])
            }
            HopAction::Resign => {
                self.ended = Some(Ended::Resigned);
                Ok(vec![Note::public(Text::player(seat, " gives up"))])
            }
            HopAction::Timeout => {
                self.ended = Some(Ended::TimedOut);
                Ok(Vec::new())
            }
            HopAction::Abort if self.hops() == 0 => {
                self.ended = Some(Ended::Aborted);
                Ok(Vec::new())
            }
            HopAction::Abort => Err(RuleError::new("the knight has moved: resign instead")),
        }
    }
}

impl GameRules for Hop {
    fn variant(&self) -> &'static str {
        "knight-hop"
    }

    fn seats(&self) -> SeatPlan {
        KNIGHT_HOP.seats()
    }

    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        if self.is_over() {
            return Vec::new();
        }
        vec![(
            Seat(0),
            Prompt::turn("hop", format!("to hop (the knight is on {})", self.at())),
        )]
    }

    fn read(&self, _seat: Seat, command: &GameCommand, _env: Env) -> Result<Reading, RuleError> {
        let to = command.arg(0);
        if Square::parse(&to).is_none() || command.args.len() != 1 {
            return Err(HOP.usage_error());
        }
        Action::of(&HopAction::Hop(to)).map(Reading::Act)
    }

    fn project(&self, viewer: Viewer) -> Projection {
        let mut board = BoardView::empty(8, 8);
        let at = self.at();
        board.pieces[at.index()] = Some(Piece {
            color: Color::White,
            role: Role::Knight,
        });
        if self.hops() > 0 {
            board.last_move = Some(LastMove::Move {
                from: square(&self.path[self.path.len() - 2]),
                to: at,
            });
        }
        // The squares left behind, numbered, and the goal.
        let mut discs: Vec<Disc> = self.path[..self.path.len() - 1]
            .iter()
            .enumerate()
            .map(|(i, s)| Disc {
                square: square(s),
                color: Color::White,
                label: Some(i.to_string()),
            })
            .collect();
        if at != square(GOAL) {
            discs.push(Disc {
                square: square(GOAL),
                color: Color::Black,
                label: None,
            });
        }
        board.overlays.push(Overlay::Discs(discs));
        board.caption.move_number = self.hops() as u32 + 1;
        if let Some(o) = self.outcome() {
            board.caption.to_move = None;
            board.caption.result = Some(o.result);
        }
        let legal = match viewer {
            Viewer::Seat(_) if !self.is_over() => self.destinations(),
            _ => Vec::new(),
        };
        Projection {
            board,
            diagram: self.diagram(),
            fen: self.fen(),
            last_move: (self.hops() > 0)
                .then(|| format!("{}{}", self.path[self.path.len() - 2], at)),
            record: self.path[1..].to_vec(),
            numbered: self.numbered(),
            legal,
            holdings: None,
            counters: Some(format!("hops: {}", self.hops())),
            instructions: None,
        }
    }

    fn outcome(&self) -> Option<GameOutcome> {
        let (result, reason) = match self.ended.as_ref()? {
            Ended::Arrived => ("won", Reason::new("arrival", "arrival")),
            Ended::Resigned => ("lost", EndReason::Resignation.into()),
            Ended::TimedOut => ("lost", EndReason::Timeout.into()),
            Ended::Aborted => return None,
        };
        Some(GameOutcome {
            score: Some(vec![self.hops() as i32]),
            ..GameOutcome::new(result, reason)
        })
    }

    fn aborted(&self) -> bool {
        self.ended == Some(Ended::Aborted)
    }

    fn timeout_is_automatic(&self) -> bool {
        true
    }

    fn pgn(&self, _viewer: Viewer, tags: &[(String, String)]) -> String {
        let mut out: String = tags
            .iter()
            .map(|(k, v)| format!("[{k} \"{v}\"]\n"))
            .collect();
        out.push_str("[Variant \"Knight's Hop\"]\n\n");
        out.push_str(&self.numbered());
        out.push_str(&format!(
            " {}\n",
            self.outcome().map_or("*".to_string(), |o| o.result)
        ));
        out
    }

    fn animation(&self, _viewer: Viewer, _renderer: &Renderer, _names: &[&str]) -> Option<Vec<u8>> {
        None
    }

    fn snapshot(&self) -> Result<serde_json::Value, RuleError> {
        to_stored("the game's state", self)
    }
}

/// The fewest hops from `from` to `to`, by breadth-first search.
pub fn fewest(from: &str, to: &str) -> usize {
    let (from, to) = (square(from), square(to));
    let mut seen = vec![from];
    let mut frontier = vec![from];
    let mut n = 0;
    while !frontier.contains(&to) {
        n += 1;
        frontier = frontier
            .iter()
            .flat_map(|s| reach(*s))
            .filter(|s| !seen.contains(s))
            .collect();
        frontier.sort();
        frontier.dedup();
        seen.extend(frontier.iter().copied());
    }
    n
}
