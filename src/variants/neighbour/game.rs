//! Neighbour Chess Solitaire as one of the referee's games: typed commands read into
//! actions, actions applied with what the player is told, and what anyone may see. The
//! piles' order never leaves the game: images and diagrams show turned cards' faces and
//! the piles as backs only.

use super::rules::{list, name, Neighbour, ADJACENCY};
use super::spec::{ADD, MOVE, PLACE, SPEC, STOP};
use crate::render::{BoardView, CardRow, Disc, Overlay, Renderer};
use crate::rules::{Color, Square};
use crate::variants::api::{
    plural, to_stored, Action, Apply, Env, GameCommand, GameOutcome, GameRules, Note, Projection,
    Prompt, PromptKind, Reading, RuleError, Seat, SeatPlan, Text, VariantSpec, Viewer,
};

/// A square for the piece just drawn.
pub const PLACE_PROMPT: PromptKind = PromptKind("place");
/// A piece to add, or the end of adding.
pub const ADD_PROMPT: PromptKind = PromptKind("add");
use crate::variants::solitaire::{self, read_squares, At, Ended};
use serde::{Deserialize, Serialize};

/// What the player did, as stored in the game's log (the referee's own actions are the
/// unit variants `Resign`, `Abort` and `Timeout`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NeighbourAction {
    /// Turn up a piece card and a position card.
    Add,
    /// Put the waiting piece on this square.
    Place(At),
    /// Stop adding.
    Stop,
    /// Move the piece on `from` to `to`, with the move of the neighbour on `with` if
    /// named.
    Move {
        /// Where the piece stands.
        from: At,
        /// Where it goes.
        to: At,
        /// The neighbour whose move it borrows, if named.
        with: Option<At>,
    },
    /// The player gives up.
    Resign,
    /// Called off before the first action.
    Abort,
    /// The player's time ran out.
    Timeout,
}

const VARIANT: &str = "Neighbour Chess Solitaire";

/// The warning of a `stop` that would lose at once.
pub const STOP_WARNING: &str = concat!(
    "stopping now loses the attempt at once: the pieces are apart and none has a neighbour of \
     its colour to lend it a move. Add more pieces (",
    crate::variants::api::command_mark_str!("add"),
    "), or send ",
    crate::variants::api::command_mark_str!("stop anyway"),
    " to stop all the same"
);

/// `three`, for "three squares right".
fn count_words(n: u8) -> String {
    match n {
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        5 => "five".into(),
        6 => "six".into(),
        n => n.to_string(),
    }
}

impl Neighbour {
    fn read_move(&self, command: &GameCommand) -> Result<NeighbourAction, RuleError> {
        let squares = read_squares(&command.rest(0), || MOVE.usage_error())?;
        let (from, to, with) = match squares[..] {
            [from, to] => (from, to, None),
            [from, to, (None, with)] => (from, to, Some(At(with))),
            _ => return Err(MOVE.usage_error()),
        };
        if let (Some(role), sq) = from {
            if self.board.piece_at(sq).map(|p| p.role) != Some(role) {
                return Err(RuleError::new(format!("there is no {role} on {sq}")));
            }
        }
        if to.0.is_some() {
            return Err(MOVE.usage_error());
        }
        Ok(NeighbourAction::Move {
            from: At(from.1),
            to: At(to.1),
            with,
        })
    }

    /// Reads `stop [anyway]`: a stop that would lose the attempt at once is refused with
    /// a warning unless confirmed with `anyway` (`docs/rules/neighbour.md`, "A losing stop
    /// is confirmed"); the stored action is the same `Stop` either way.
    fn read_stop(&self, command: &GameCommand) -> Result<NeighbourAction, RuleError> {
        let anyway = match command.args.len() {
            0 => false,
            1 if command.arg(0).eq_ignore_ascii_case("anyway") => true,
            _ => return Err(STOP.usage_error()),
        };
        // Fewer than two pieces: `stop` is refused for that (its own reason), not warned.
        let may_stop = self.board.occupied().count() >= 2;
        if !anyway
            && may_stop
            && !self.is_over()
            && !self.moving
            && self.pending.is_none()
            && self.stop_loses()
        {
            return Err(RuleError::new(STOP_WARNING));
        }
        Ok(NeighbourAction::Stop)
    }

    /// The cards left, in words.
    fn cards_words(&self) -> String {
        format!(
            "{} piece card{}, {} position card{} left",
            self.pieces.len(),
            if self.pieces.len() == 1 { "" } else { "s" },
            self.positions.len(),
            if self.positions.len() == 1 { "" } else { "s" }
        )
    }

    /// How the attempt ended, in words after the action that ended it.
    fn ending_words(&self) -> String {
        match self.ended {
            Some(Ended::Connected) => format!(
                "; the pieces form one connected group: solved with {} point{}",
                self.score(),
                if self.score() == 1 { "" } else { "s" }
            ),
            Some(Ended::Exhausted) => {
                "; both piles are empty and the pieces are still apart: the attempt is lost"
                    .into()
            }
            Some(Ended::Stuck) => {
                "; no piece can move (none has a neighbour of its colour with a move to an empty square): the attempt is lost".into()
            }
            _ => String::new(),
        }
    }

    fn apply_own(&mut self, action: NeighbourAction) -> Result<String, RuleError> {
        Ok(match action {
            NeighbourAction::Add => {
                let from = self
                    .last_added
                    .map_or_else(|| "a1".to_string(), |a| a.0.to_string());
                let (card, position, at, placed) = self.add()?;
                let piece = card.piece().map(name).unwrap_or_default();
                let way = if position.suit.is_red() {
                    "right"
                } else {
                    "up"
                };
                let mut text = format!(
                    " turns up {card} and {position}: the {piece} goes {} squares {way} from {}",
                    count_words(position.rank),
                    from
                );
                match placed {
                    Some(sq) if sq == at => text.push_str(&format!(" to {at}")),
                    Some(sq) => text.push_str(&format!(
                        " to {at}, which is taken; the only free square nearest to it is {sq}"
                    )),
                    None => text.push_str(&format!(
                        " to {at}, which is taken: it goes on a free square nearest to it"
                    )),
                }
                if self.moving {
                    text.push_str("; that was the last piece card: the pieces now move");
                }
                text
            }
            NeighbourAction::Place(at) => {
                let piece = self.place(at.0)?;
                let mut text = format!(" places the {} on {}", name(piece), at.0);
                if self.moving {
                    text.push_str("; that was the last piece card: the pieces now move");
                }
                text
            }
            NeighbourAction::Stop => {
                self.stop()?;
                " stops adding pieces: the pieces now move".to_string()
            }
            NeighbourAction::Move { from, to, with } => {
                let piece = self.board.piece_at(from.0);
                let by = self.play_move(from.0, to.0, with.map(|w| w.0))?;
                let lender = self.board.piece_at(by).map(name).unwrap_or_default();
                format!(
                    " moves the {} {}-{} with the move of the {lender} on {by}",
                    piece.map(name).unwrap_or_default(),
                    from.0,
                    to.0
                )
            }
            NeighbourAction::Resign | NeighbourAction::Abort | NeighbourAction::Timeout => {
                String::new()
            }
        })
    }
}

impl Apply for Neighbour {
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError> {
        let action = action.to::<NeighbourAction>(VARIANT)?;
        let why = match action {
            NeighbourAction::Resign => Some(Ended::Resigned),
            NeighbourAction::Abort => Some(Ended::Aborted),
            NeighbourAction::Timeout => Some(Ended::TimedOut),
            _ => None,
        };
        if let Some(why) = why {
            self.end(why)?;
            return Ok(match why {
                Ended::Resigned => vec![Note::public(Text::player(seat, " gives up"))],
                _ => Vec::new(),
            });
        }
        let text = self.apply_own(action)?;
        let ending = self.ending_words();
        Ok(vec![Note::moved(Text::player(seat, text + &ending))])
    }
}

impl GameRules for Neighbour {
    fn variant(&self) -> &'static str {
        "neighbour"
    }

    fn seats(&self) -> SeatPlan {
        SPEC.seats()
    }

    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        if self.is_over() {
            return Vec::new();
        }
        let prompt = if let Some(p) = &self.pending {
            let choices: Vec<Square> = p.choices.iter().map(|a| a.0).collect();
            let mut prompt = Prompt::turn(
                PLACE_PROMPT,
                format!(
                    "to place the {} on a free square nearest to {}: {}",
                    p.card.piece().map(name).unwrap_or_default(),
                    p.landing.0,
                    list(choices.iter().copied())
                ),
            );
            for sq in choices.iter().filter(|_| choices.len() <= 10) {
                prompt = prompt.with_answer(&sq.to_string(), &format!("place {sq}"), false);
            }
            prompt
        } else if self.moving {
            Prompt::turn(
                PromptKind::MOVE,
                format!(
                    "to move a piece with a neighbour's move ({})",
                    self.cards_words()
                ),
            )
        } else if self.board.occupied().count() < 2 {
            Prompt::turn(
                ADD_PROMPT,
                format!("to add a piece ({})", self.cards_words()),
            )
            .with_answer("Add a piece", "add", true)
        } else {
            Prompt::turn(
                ADD_PROMPT,
                format!("to add a piece or stop adding ({})", self.cards_words()),
            )
            .with_answer("Add a piece", "add", false)
            .with_answer("Stop adding", "stop", false)
        };
        vec![(Seat(0), prompt)]
    }

    fn read(&self, _seat: Seat, command: &GameCommand, _env: Env) -> Result<Reading, RuleError> {
        let action = if ADD.is_named(&command.word) {
            NeighbourAction::Add
        } else if STOP.is_named(&command.word) {
            self.read_stop(command)?
        } else if PLACE.is_named(&command.word) {
            match (command.args.len(), Square::parse(&command.arg(0))) {
                (1, Some(sq)) => NeighbourAction::Place(At(sq)),
                _ => return Err(PLACE.usage_error()),
            }
        } else {
            self.read_move(command)?
        };
        Action::of(&action).map(Reading::Act)
    }

    fn project(&self, viewer: Viewer) -> Projection {
        let mut board = BoardView::empty(8, 8);
        board.pieces = self.board.pieces();
        board.last_move = self.last();
        board.caption.move_number = self.record.len() as u32 + 1;
        // One player moves pieces of both colours: no side is "to move".
        board.caption.to_move = None;
        if let Some(p) = &self.pending {
            board.overlays.push(Overlay::Discs(
                p.choices
                    .iter()
                    .map(|a| Disc {
                        square: a.0,
                        color: Color::White,
                        label: None,
                    })
                    .collect(),
            ));
        }
        board.overlays.push(Overlay::Cards(CardRow {
            label: format!("Pieces turned ({})", self.turned_pieces.len()),
            cards: self.turned_pieces.iter().map(|c| c.face()).collect(),
        }));
        board.overlays.push(Overlay::Cards(CardRow {
            label: format!("Positions turned ({})", self.turned_positions.len()),
            cards: self.turned_positions.iter().map(|c| c.face()).collect(),
        }));
        let mut backs = self.pieces.backs();
        backs.extend(self.positions.backs());
        board.overlays.push(Overlay::Cards(CardRow {
            label: format!(
                "Piles: {}, {}; {} spent face down",
                plural(self.pieces.len(), "piece", "pieces"),
                plural(self.positions.len(), "position", "positions"),
                self.spent
            ),
            cards: backs,
        }));
        if let Some(o) = self.outcome() {
            board.caption.to_move = None;
            board.caption.result = Some(o.to_string());
        }
        let legal = match viewer {
            Viewer::Seat(_) if self.moving && !self.is_over() => self
                .moves()
                .into_iter()
                .map(|(from, to, _)| format!("{from} {to}"))
                .collect(),
            _ => Vec::new(),
        };
        let words = |cards: &[solitaire::PlayingCard]| {
            cards
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        Projection {
            diagram: format!(
                "{}\npieces turned: {}\npositions turned: {}\n{}, {} spent face down",
                self.board.diagram(),
                words(&self.turned_pieces),
                words(&self.turned_positions),
                self.cards_words(),
                self.spent
            ),
            board,
            fen: self.board.fen(),
            last_move: self.last().map(|l| {
                let s: Vec<String> = l.squares().map(|s| s.to_string()).collect();
                s.concat()
            }),
            record: self.record.clone(),
            numbered: solitaire::numbered(&self.record),
            legal,
            holdings: None,
            counters: Some(solitaire::groups_words(self.board.groups(ADJACENCY))),
            instructions: None,
        }
    }

    fn outcome(&self) -> Option<GameOutcome> {
        self.ended?.outcome(self.score())
    }

    fn aborted(&self) -> bool {
        self.ended == Some(Ended::Aborted)
    }

    fn timeout_is_automatic(&self) -> bool {
        // No one else could claim it: a solitaire whose time runs out is lost at once.
        true
    }

    fn pgn(&self, _viewer: Viewer, tags: &[(String, String)]) -> String {
        solitaire::pgn(
            tags,
            solitaire::Record {
                variant: VARIANT,
                actions: &self.record,
                outcome: self.outcome(),
                deal: self.deal_words(),
                deal_kept: self.deal_kept,
            },
        )
    }

    fn keep_deal_secret(&mut self) {
        self.deal_kept = true;
    }

    fn export_fields(&self, _viewer: Viewer) -> serde_json::Map<String, serde_json::Value> {
        solitaire::deal_fields(
            self.is_over(),
            self.deal_kept,
            [
                ("pieces", &self.dealt_pieces),
                ("positions", &self.dealt_positions),
            ],
        )
    }

    fn animation(&self, _viewer: Viewer, _renderer: &Renderer, _names: &[&str]) -> Option<Vec<u8>> {
        None
    }

    fn snapshot(&self) -> Result<serde_json::Value, RuleError> {
        to_stored("the game's state", self)
    }

    fn state_for_replay_check(&self) -> Result<serde_json::Value, RuleError> {
        Ok(solitaire::state_without_record(self.snapshot()?))
    }
}
