//! A Booster Chess game as stored: every field of the state in plain JSON, the hands,
//! the pile's order and the reshuffle seed included (the snapshot goes to the store
//! alone, never to a viewer).

use super::cards::Card;
use super::fen;
use super::state::{square, Booster, Ended, Phase, TurnRecord};
use crate::variants::api::{Duel, RuleError, Seat};
use serde::{Deserialize, Serialize};

/// The stored form of a [`Booster`] game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The variant's id.
    pub variant: String,
    /// The position, as a Booster FEN.
    pub position: String,
    /// The hands, White's then Black's.
    pub hands: [Vec<Card>; 2],
    /// The draw pile, top first.
    pub pile: Vec<Card>,
    /// The discard pile, oldest first.
    pub discard: Vec<Card>,
    /// The secret seed of the reshuffles.
    pub secret: u64,
    /// Reshuffles so far.
    pub reshuffles: u32,
    /// The phase of the turn.
    pub phase: Phase,
    /// The record.
    pub record: Vec<TurnRecord>,
    /// The position keys at the start of each turn.
    pub keys: Vec<String>,
    /// The last move's squares.
    pub last: Option<(String, String)>,
    /// A pending draw offer, by this seat index.
    pub offer: Option<u8>,
    /// How the game ended.
    pub ended: Option<Ended>,
    /// The FEN the game started from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_fen: Option<String>,
}

impl Booster {
    /// The stored form.
    pub fn to_snapshot(&self) -> Snapshot {
        Snapshot {
            variant: super::ID.into(),
            position: fen::write_stored(&self.pos),
            hands: self.hands.clone(),
            pile: self.pile.clone(),
            discard: self.discard.clone(),
            secret: self.secret,
            reshuffles: self.reshuffles,
            phase: self.phase,
            record: self.record.clone(),
            keys: self.keys.clone(),
            last: self.last.map(|(a, b)| (a.to_string(), b.to_string())),
            offer: self.duel.offer.map(|s| s.0),
            ended: self.duel.ended,
            start_fen: self.start_fen.clone(),
        }
    }

    /// A game from its stored form.
    pub fn from_snapshot(s: &Snapshot) -> Result<Booster, RuleError> {
        let bad = |e: String| RuleError::new(format!("bad Booster Chess snapshot: {e}"));
        if s.variant != super::ID {
            return Err(bad("another variant's snapshot".into()));
        }
        let pos = fen::read_stored(&s.position).map_err(|e| bad(e.to_string()))?;
        let last = match &s.last {
            Some((a, b)) => Some((square(a)?, square(b)?)),
            None => None,
        };
        Ok(Booster {
            pos,
            hands: s.hands.clone(),
            pile: s.pile.clone(),
            discard: s.discard.clone(),
            secret: s.secret,
            reshuffles: s.reshuffles,
            phase: s.phase,
            record: s.record.clone(),
            keys: s.keys.clone(),
            last,
            duel: Duel {
                // Any seat but White's is Black's, as this form was always read.
                offer: s.offer.map(|i| Seat(u8::from(i != 0))),
                ended: s.ended,
            },
            start_fen: s.start_fen.clone(),
        })
    }
}
