//! A chess game's serialisable state: the snapshot stored for a game, and rebuilding the
//! game from it.

use super::{color_of, find_turn, game_outcome, seat_of, ChessRules, OfferKind};
use crate::notation::fen::{parse_fen, to_fen};
use crate::rules::{EndReason, Game, Outcome, Position, Turn, Variant};
use crate::variants::api::{GameOutcome, RuleError, Seat};
use serde::{Deserialize, Serialize};

/// The serialisable state of a [`ChessRules`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessSnapshot {
    /// The variant's command name.
    pub variant: String,
    /// The moves played, UCI.
    pub moves: Vec<String>,
    /// The position now, FEN.
    pub fen: String,
    /// The starting position, FEN, when the game did not start from the variant's own
    /// start (a game set up from a FEN for testing or teaching).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// A pending offer: `(seat, kind)`.
    pub offer: Option<(Seat, OfferKind)>,
    /// The outcome, with the engine's reason (stored by its identifier, `Checkmate`,
    /// `FastFifty`, ..., as since the first release).
    pub outcome: Option<(EndReason, GameOutcome)>,
    /// Whether the game was aborted.
    pub aborted: bool,
    /// Double Move Chess: the tokens each seat has left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_left: Option<[u8; 2]>,
}

impl ChessRules {
    /// Rebuilds a game of `variant` from its snapshot, replaying its moves and restoring
    /// the ending.
    pub fn from_snapshot(variant: Variant, snap: &ChessSnapshot) -> Result<ChessRules, RuleError> {
        if snap.variant != variant.name() {
            return Err(RuleError::new(format!(
                "a {} snapshot is not a {} game",
                snap.variant.chars().take(20).collect::<String>(),
                variant.name()
            )));
        }
        let mut game = match &snap.start {
            Some(fen) => Game::from_position(
                parse_fen(variant, fen)
                    .map_err(|e| RuleError::new(format!("snapshot start: {e}")))?,
            ),
            None => Game::new(variant),
        };
        for text in &snap.moves {
            if game.is_over() {
                return Err(RuleError::new(format!(
                    "snapshot move {text}: the game was over"
                )));
            }
            let turn = find_turn(game.position(), text)
                .map_err(|e| RuleError::new(format!("snapshot move {text}: {e}")))?;
            match turn {
                // A move of the position's legal moves: played without testing it again,
                // the endings tested once at the end (`settle`) or before a double move.
                Turn::Single(m) => game.replay_legal(m),
                Turn::Double(..) => {
                    game.settle();
                    game.play_turn(turn)
                        .map_err(|e| RuleError::new(format!("snapshot move {text}: {e}")))?;
                }
            }
        }
        game.settle();
        let outcome = match &snap.outcome {
            None => None,
            Some((reason, o)) => {
                let reason = *reason;
                let result = match o.result.as_str() {
                    "1-0" => crate::rules::GameResult::WhiteWins,
                    "0-1" => crate::rules::GameResult::BlackWins,
                    _ => crate::rules::GameResult::Draw,
                };
                let score = match o.score.as_deref() {
                    Some(&[w, b]) => Some([
                        u32::try_from(w).map_err(|_| RuleError::new("negative chess score"))?,
                        u32::try_from(b).map_err(|_| RuleError::new("negative chess score"))?,
                    ]),
                    _ => None,
                };
                Some(Outcome {
                    result,
                    reason,
                    score,
                })
            }
        };
        let offer = match snap.offer {
            Some((s, k)) => Some((color_of(s)?, k)),
            None => None,
        };
        let rules = ChessRules {
            game,
            offer,
            outcome,
            aborted: snap.aborted,
            starts: None,
        };
        if to_fen(rules.game.position()) != snap.fen {
            return Err(RuleError::new("snapshot FEN does not match its moves"));
        }
        Ok(rules)
    }

    /// The typed snapshot.
    pub fn chess_snapshot(&self) -> ChessSnapshot {
        ChessSnapshot {
            variant: self.game.variant().name().to_string(),
            moves: self.game.turns().iter().map(|(_, t)| t.uci()).collect(),
            fen: to_fen(self.game.position()),
            start: Some(self.game.start())
                .filter(|p| **p != Position::start(self.game.variant()))
                .map(to_fen),
            offer: self.offer.map(|(c, k)| (seat_of(c), k)),
            outcome: self.outcome.map(|o| (o.reason, game_outcome(&o))),
            aborted: self.aborted,
            tokens_left: self.tokens_left(),
        }
    }
}
