//! A Gravity Chess game as stored: every field of the state in plain JSON, the decks'
//! order included (the snapshot goes to the store alone, never to a viewer).

use super::board::Board;
use super::cards::Card;
use super::fen;
use super::state::{color_of, seat_of, square, Ended, Gravity, Phase, TurnRecord};
use crate::render::LastMove;
use crate::variants::api::{Duel, RuleError, Seat};
use serde::{Deserialize, Serialize};

/// The stored form of a [`Gravity`] game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The variant's id.
    pub variant: String,
    /// The board, as the board part of a FEN.
    pub board: String,
    /// Each player's deck, top first (White's holds Black's cards).
    pub decks: [Vec<Card>; 2],
    /// Whose turn.
    pub turn: Seat,
    /// The turn's number.
    pub number: u32,
    /// The phase.
    pub phase: Phase,
    /// The card flipped this turn.
    pub flipped: Option<Card>,
    /// The squares of the pieces done this turn, and whether each moved.
    pub done: Vec<(String, bool)>,
    /// White's last turn.
    pub last_turn: bool,
    /// Captures, by the capturer's seat.
    pub captured: [u8; 2],
    /// The record, turn by turn.
    pub record: Vec<TurnRecord>,
    /// The last move's squares (`from` is empty for an add).
    pub last: Option<(Option<String>, String)>,
    /// A pending draw offer, by this seat.
    pub offer: Option<Seat>,
    /// How the game ended.
    pub ended: Option<Ended>,
    /// The FEN the game started from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_fen: Option<String>,
}

impl Gravity {
    /// The stored form.
    pub fn to_snapshot(&self) -> Snapshot {
        Snapshot {
            variant: super::ID.into(),
            board: fen::board_text(&self.board),
            decks: self.decks.clone(),
            turn: seat_of(self.turn),
            number: self.number,
            phase: self.phase,
            flipped: self.flipped,
            done: self.done.iter().map(|(s, m)| (s.to_string(), *m)).collect(),
            last_turn: self.last_turn,
            captured: self.captured,
            record: self.record.clone(),
            last: self.last.map(|l| match l {
                LastMove::Move { from, to } => (Some(from.to_string()), to.to_string()),
                LastMove::Drop { to } => (None, to.to_string()),
            }),
            offer: self.duel.offer,
            ended: self.duel.ended,
            start_fen: self.start_fen.clone(),
        }
    }

    /// A game from its stored form.
    pub fn from_snapshot(s: &Snapshot) -> Result<Gravity, RuleError> {
        let bad = |e: String| RuleError::new(format!("bad Gravity Chess snapshot: {e}"));
        if s.variant != super::ID {
            return Err(bad(format!(
                "a {} snapshot",
                s.variant.chars().take(20).collect::<String>()
            )));
        }
        let board: Board = fen::parse_board(&s.board).map_err(|e| bad(e.to_string()))?;
        let done = s
            .done
            .iter()
            .map(|(sq, m)| Ok((square(sq)?, *m)))
            .collect::<Result<Vec<_>, RuleError>>()?;
        let last = match &s.last {
            None => None,
            Some((None, to)) => Some(LastMove::Drop { to: square(to)? }),
            Some((Some(from), to)) => Some(LastMove::Move {
                from: square(from)?,
                to: square(to)?,
            }),
        };
        Ok(Gravity {
            board,
            decks: s.decks.clone(),
            turn: color_of(s.turn)?,
            number: s.number,
            phase: s.phase,
            flipped: s.flipped,
            done,
            last_turn: s.last_turn,
            captured: s.captured,
            record: s.record.clone(),
            last,
            duel: Duel {
                // A seat beyond the two is refused, as this form was always read.
                offer: s.offer.map(|by| color_of(by).map(seat_of)).transpose()?,
                ended: s.ended,
            },
            start_fen: s.start_fen.clone(),
        })
    }
}
