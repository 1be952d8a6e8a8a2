//! A chess game's serialisable state: the snapshot stored for a game, and rebuilding the
//! game from it.
//!
//! A snapshot holds what the next move needs beside the moves played: the position (FEN),
//! the last turn (every field of its moves), the repetition window's hashes and the
//! numbered record in SAN. A game is resumed from those ([`Game::resume`]) without
//! re-playing its moves, so loading it costs the same at ply 240 as at ply 2; a snapshot
//! stored before they were kept (no `record`) is re-played from its moves once, as every
//! snapshot was before, and written with them from then on. A finished game whose
//! position no FEN may describe (a king exploded or captured) is re-played too.

use super::{color_of, find_turn, game_outcome, seat_of, ChessRules, OfferKind};
use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::pgn::numbered_moves;
use crate::rules::{EndReason, Game, Move, Outcome, Position, Turn, Variant};
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
    /// The numbered record in SAN, as the projection shows it (`1. e4 e5 2. Nf3`). Its
    /// presence says the snapshot holds what a game is resumed from: a snapshot without
    /// it (stored before) is re-played from its moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// The last turn's moves ([`Move::code`]): one, or a double move's two halves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub last: Vec<u32>,
    /// The repetition window before the current position ([`Game::repetition_window`]
    /// without its last hash): sixteen hexadecimal digits a position, oldest first.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reps: String,
}

/// A snapshot that does not hold what it says.
fn damaged(what: &str) -> RuleError {
    RuleError::new(format!("snapshot {what}"))
}

/// The hashes written as [`ChessSnapshot::reps`].
fn write_hashes(hashes: &[u64]) -> String {
    hashes.iter().map(|h| format!("{h:016x}")).collect()
}

/// The hashes of a [`ChessSnapshot::reps`].
fn read_hashes(text: &str) -> Result<Vec<u64>, RuleError> {
    if text.len() % 16 != 0 || !text.is_ascii() {
        return Err(damaged("repetitions: not sixteen digits a position"));
    }
    (0..text.len() / 16)
        .map(|i| {
            u64::from_str_radix(&text[i * 16..i * 16 + 16], 16)
                .map_err(|_| damaged("repetitions: not hexadecimal"))
        })
        .collect()
}

impl ChessRules {
    /// Rebuilds a game of `variant` from its snapshot: resumed from the state it holds,
    /// or, for a snapshot stored before it held that state, re-played from its moves.
    pub fn from_snapshot(variant: Variant, snap: &ChessSnapshot) -> Result<ChessRules, RuleError> {
        if snap.variant != variant.name() {
            return Err(RuleError::new(format!(
                "a {} snapshot is not a {} game",
                snap.variant.chars().take(20).collect::<String>(),
                variant.name()
            )));
        }
        let start = match &snap.start {
            Some(fen) => parse_fen(variant, fen).map_err(|e| damaged(&format!("start: {e}")))?,
            None => Position::start(variant),
        };
        let (game, record) = match &snap.record {
            // A finished game whose position FEN does not describe (Atomic's exploded
            // king, a captured king) is re-played: no move is taken from it.
            Some(record) => (
                resume(variant, start, snap).or_else(|e| replay(start, snap).map_err(|_| e))?,
                record.clone(),
            ),
            None => {
                let game = replay(start, snap)?;
                let record = numbered_moves(&game).join(" ");
                (game, record)
            }
        };
        let offer = match snap.offer {
            Some((s, k)) => Some((color_of(s)?, k)),
            None => None,
        };
        let rules = ChessRules {
            game,
            offer,
            outcome: stored_outcome(snap)?,
            aborted: snap.aborted,
            starts: None,
            uci: snap.moves.clone(),
            record,
        };
        Ok(rules)
    }

    /// The typed snapshot.
    pub fn chess_snapshot(&self) -> ChessSnapshot {
        let game = &self.game;
        let window = game.repetition_window();
        let last = match game.last_turn() {
            None => Vec::new(),
            Some(Turn::Single(m)) => vec![m.code()],
            Some(Turn::Double(a, b)) => vec![a.code(), b.code()],
        };
        ChessSnapshot {
            variant: game.variant().name().to_string(),
            moves: self.uci.clone(),
            fen: to_fen(game.position()),
            start: Some(game.start())
                .filter(|p| **p != Position::start(game.variant()))
                .map(to_fen),
            offer: self.offer.map(|(c, k)| (seat_of(c), k)),
            outcome: self.outcome.map(|o| (o.reason, game_outcome(&o))),
            aborted: self.aborted,
            tokens_left: self.tokens_left(),
            record: Some(self.record.clone()),
            last,
            reps: write_hashes(&window[..window.len().saturating_sub(1)]),
        }
    }
}

/// The game of `snap` resumed from the state it holds: its position, last turn and
/// repetition window, none of its moves re-played.
fn resume(variant: Variant, start: Position, snap: &ChessSnapshot) -> Result<Game, RuleError> {
    let now = parse_fen(variant, &snap.fen).map_err(|e| damaged(&format!("position: {e}")))?;
    let last = snap
        .last
        .iter()
        .map(|&c| Move::from_code(c).ok_or_else(|| damaged("last move: not a move")))
        .collect::<Result<Vec<Move>, RuleError>>()?;
    let last = match last[..] {
        [] => None,
        [m] => Some(Turn::Single(m)),
        [a, b] => Some(Turn::Double(a, b)),
        _ => return Err(damaged("last move: more than a double move")),
    };
    // The last turn is the last of the moves, written the same.
    if last.map(|t| t.uci()).as_ref() != snap.moves.last() {
        return Err(damaged("last move: not the last of its moves"));
    }
    let plies = snap
        .moves
        .iter()
        .map(|t| if t.contains(' ') { 2 } else { 1 })
        .sum();
    Ok(Game::resume(
        start,
        now,
        plies,
        last,
        read_hashes(&snap.reps)?,
    ))
}

/// The game of `snap` re-played from its start through its moves (a snapshot stored
/// before snapshots held what a game is resumed from), its position checked against the
/// stored one.
fn replay(start: Position, snap: &ChessSnapshot) -> Result<Game, RuleError> {
    let mut game = Game::from_position(start);
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
    if to_fen(game.position()) != snap.fen {
        return Err(RuleError::new("snapshot FEN does not match its moves"));
    }
    Ok(game)
}

/// The ending `snap` stores, as the engine writes it.
fn stored_outcome(snap: &ChessSnapshot) -> Result<Option<Outcome>, RuleError> {
    let Some((reason, o)) = &snap.outcome else {
        return Ok(None);
    };
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
    Ok(Some(Outcome {
        result,
        reason: *reason,
        score,
    }))
}
