//! Parade Chess Solitaire as one of the referee's games: typed commands read into
//! actions, actions applied with what the player is told, and what anyone may see. The
//! hand's order never leaves the game: the board image and the diagram show the turned
//! cards' faces and the hand as backs only.

use super::rules::{name, Parade, OVERTIME};
use super::spec::{ADD, MOVE, SPEC};
use crate::render::{BoardView, CardRow, Overlay, Renderer};
use crate::rules::Square;
use crate::variants::api::{
    to_stored, Action, Apply, Env, GameCommand, GameOutcome, GameRules, Note, Projection, Prompt,
    PromptKind, Reading, RuleError, Seat, SeatPlan, Text, VariantSpec, Viewer,
};
use crate::variants::solitaire::{self, read_squares, At, Ended};
use serde::{Deserialize, Serialize};

/// What the player did, as stored in the game's log (the referee's own actions are the
/// unit variants `Resign`, `Abort` and `Timeout`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParadeAction {
    /// The piece on `mover` puts the piece on `from` on `to`.
    Move {
        /// The ordering piece's square.
        mover: At,
        /// The moved piece's square.
        from: At,
        /// Where it goes.
        to: At,
    },
    /// Turn up the top card of the hand and add its piece.
    Add,
    /// The player gives up.
    Resign,
    /// Called off before the first action.
    Abort,
    /// The player's time ran out.
    Timeout,
}

const VARIANT: &str = "Parade Chess Solitaire";

/// What an abort says: the setup was dealt face up, so the attempt counts.
pub const ABORT_WORDS: &str =
    " calls the attempt off after the deal was shown: it counts as a lost attempt";

impl Parade {
    /// Reads `move MOVER PIECE TARGET`, checking any piece letters given against the
    /// board.
    fn read_move(&self, command: &GameCommand) -> Result<ParadeAction, RuleError> {
        let squares = read_squares(&command.rest(0), || MOVE.usage_error())?;
        let [mover, from, to] = squares[..] else {
            return Err(MOVE.usage_error());
        };
        for (role, sq) in [mover, from] {
            if let Some(role) = role {
                if self.board.piece_at(sq).map(|p| p.role) != Some(role) {
                    return Err(RuleError::new(format!("there is no {role} on {sq}")));
                }
            }
        }
        Ok(ParadeAction::Move {
            mover: At(mover.1),
            from: At(from.1),
            to: At(to.1),
        })
    }

    /// What is left to spend, in words: `7 cards in hand`, or the negative points.
    fn cards_words(&self) -> String {
        if self.in_overtime() {
            format!(
                "no cards in hand: {} of {OVERTIME} negative points counted",
                self.overtime
            )
        } else {
            format!(
                "{} card{} in hand",
                self.hand.len(),
                if self.hand.len() == 1 { "" } else { "s" }
            )
        }
    }

    /// How the attempt ended, in words after the action that ended it.
    fn ending_words(&self) -> Option<String> {
        Some(match self.ended? {
            Ended::Connected => format!(
                "; the pieces form one connected group: solved with {} point{}",
                self.score(),
                if self.score().abs() == 1 { "" } else { "s" }
            ),
            Ended::Exhausted => format!(
                "; that was the last of the {OVERTIME} negative points and the pieces are still apart: the attempt is lost"
            ),
            Ended::Stuck => {
                "; no cards are left and no piece can move another: the attempt is lost".into()
            }
            _ => return None,
        })
    }
}

impl Apply for Parade {
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError> {
        let text = match action.to::<ParadeAction>(VARIANT)? {
            ParadeAction::Move { mover, from, to } => {
                let (mover, from, to) = (mover.0, from.0, to.0);
                let by = self.board.piece_at(mover);
                let piece = self.play_move(mover, from, to)?;
                format!(
                    " has the {} on {mover} move the {} from {from} to {to}",
                    by.map(name).unwrap_or_default(),
                    name(piece)
                )
            }
            ParadeAction::Add => {
                let (card, at) = self.add()?;
                let piece = card.piece().map(name).unwrap_or_default();
                format!(" turns up {card} and adds the {piece} on {at}")
            }
            ParadeAction::Resign => {
                self.end(Ended::Resigned)?;
                return Ok(vec![Note::public(Text::player(seat, " gives up"))]);
            }
            ParadeAction::Abort => {
                self.end(Ended::Aborted)?;
                return Ok(vec![Note::public(Text::player(seat, ABORT_WORDS))]);
            }
            ParadeAction::Timeout => {
                self.end(Ended::TimedOut)?;
                return Ok(Vec::new());
            }
        };
        // The prompt that follows says what is left; an ending says why.
        let tail = self.ending_words().unwrap_or_default();
        Ok(vec![Note::moved(Text::player(seat, text + &tail))])
    }
}

impl GameRules for Parade {
    fn variant(&self) -> &'static str {
        "parade"
    }

    fn seats(&self) -> SeatPlan {
        SPEC.seats()
    }

    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        if self.is_over() {
            return Vec::new();
        }
        let prompt = if self.in_overtime() {
            Prompt::turn(
                PromptKind::MOVE,
                format!(
                    "to move a piece (no cards in hand: each move counts a negative point, {} of {OVERTIME} so far)",
                    self.overtime
                ),
            )
        } else {
            Prompt::turn(
                PromptKind::MOVE,
                format!("to move a piece or add one ({})", self.cards_words()),
            )
            .with_answer("Add a piece", "add", false)
        };
        vec![(Seat(0), prompt)]
    }

    fn read(&self, _seat: Seat, command: &GameCommand, _env: Env) -> Result<Reading, RuleError> {
        let action = if ADD.is_named(&command.word) {
            ParadeAction::Add
        } else {
            self.read_move(command)?
        };
        Action::of(&action).map(Reading::Act)
    }

    fn project(&self, viewer: Viewer) -> Projection {
        let mut board = BoardView::empty(8, 8);
        board.pieces = self.board.pieces();
        board.last_move = self.last();
        board.caption.move_number = self.steps.len() as u32 + 1;
        // One player moves pieces of both colours: no side is "to move".
        board.caption.to_move = None;
        board.overlays.push(Overlay::Cards(CardRow {
            label: format!("Turned up ({})", self.turned.len()),
            cards: self.turned.iter().map(|c| c.face()).collect(),
        }));
        board.overlays.push(Overlay::Cards(CardRow {
            label: if self.in_overtime() {
                format!(
                    "Hand empty: {} of {OVERTIME} negative points",
                    self.overtime
                )
            } else {
                format!("Hand ({}); {} spent face down", self.hand.len(), self.spent)
            },
            cards: self.hand.backs(),
        }));
        if let Some(o) = self.outcome() {
            board.caption.to_move = None;
            board.caption.result = Some(o.to_string());
        }
        let legal = match viewer {
            Viewer::Seat(_) if !self.is_over() => self
                .moves()
                .into_iter()
                .map(|(m, f, t)| written(m, f, t))
                .collect(),
            _ => Vec::new(),
        };
        let turned: Vec<String> = self.turned.iter().map(|c| c.to_string()).collect();
        Projection {
            diagram: format!(
                "{}\nturned up: {}\n{}, {} spent face down",
                self.board.diagram(),
                turned.join(" "),
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
            counters: Some(solitaire::groups_words(
                self.board.groups(super::rules::ADJACENCY),
            )),
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
        let (setup, hand) = self.deal.split_at(super::rules::PILE.min(self.deal.len()));
        solitaire::deal_fields(
            self.is_over(),
            self.deal_kept,
            [("setup", setup), ("hand", hand)],
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

/// A move as the player types it: `d3 c1 b2`.
fn written(mover: Square, from: Square, to: Square) -> String {
    format!("{mover} {from} {to}")
}
