//! A chess game's serialisable state: the snapshot stored for a game, and rebuilding the
//! game from it.
//!
//! A snapshot holds what the next move needs, and nothing that grows with the game: the
//! position (FEN), the number of plies played, the last turn (every field of its moves)
//! and the repetition window's hashes. A game is resumed from those ([`Game::resume`])
//! without re-playing its moves, so loading and writing it cost the same at ply 240 as at
//! ply 2. The moves themselves are the game's action log, which the store keeps: what shows
//! the whole game (a PGN, an animation, the numbered record) is the log's replay.
//!
//! Two earlier forms still load. A snapshot that held every move's UCI and no resumption
//! state (no `record`) is re-played from its moves once; one that held the moves beside the
//! resumption state and the numbered record (no `plies`) is resumed, its ply count taken
//! from its moves. Either is written in the current form from then on. A finished game
//! whose position no FEN may describe (a king exploded or captured) cannot be resumed: an
//! old snapshot of one is re-played, and the current form re-plays nothing, so such a game
//! is written with its moves as before (the `moves` of the first form).

use super::{color_of, find_turn, game_outcome, seat_of, ChessRules, OfferKind};
use crate::notation::fen::{parse_fen, to_fen};
use crate::rules::{EndReason, Game, Move, Outcome, Position, Turn, Variant};
use crate::variants::api::{NamedOutcome, RuleError, Seat};
use serde::{Deserialize, Serialize};

/// The serialisable state of a [`ChessRules`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessSnapshot {
    /// The variant's command name.
    pub variant: String,
    /// The moves played, UCI: read from snapshots stored before the game's action log was
    /// the only place the moves were kept, never written.
    #[serde(default, skip_serializing)]
    pub moves: Vec<String>,
    /// The position now, FEN.
    pub fen: String,
    /// The starting position, FEN, when the game did not start from the variant's own
    /// start (a game set up from a FEN for testing or teaching).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// A pending offer: `(seat, kind)`; left out when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer: Option<(Seat, OfferKind)>,
    /// The outcome, with the engine's reason (stored by its identifier, `Checkmate`,
    /// `FastFifty`, ..., as since the first release), which gives the reason back when
    /// the game is read.
    pub outcome: Option<(EndReason, NamedOutcome)>,
    /// Whether the game was aborted; left out when it was not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aborted: bool,
    /// Double Move Chess: the tokens each seat has left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_left: Option<[u8; 2]>,
    /// The plies played from the start (a double move is two). Its presence says the
    /// snapshot is of the current form, which holds no moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<usize>,
    /// The numbered record in SAN, which snapshots between the first form and the current
    /// one held (its presence says such a snapshot holds what a game is resumed from);
    /// read, never written: the record is the log's.
    #[serde(default, skip_serializing)]
    pub record: Option<String>,
    /// The last turn's moves ([`Move::code`]): one, or a double move's two halves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub last: Vec<u32>,
    /// The repetition window before the current position ([`Game::repetition_window`]
    /// without its last hash): sixteen hexadecimal digits a position, oldest first.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reps: String,
    /// A finished game whose position no FEN may describe (Atomic's exploded king): the
    /// position its last turn was played from, FEN, which the game is resumed at before
    /// that turn is played again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
}

/// A snapshot that does not hold what it says.
fn damaged(what: &str) -> RuleError {
    RuleError::new(format!("snapshot {what}"))
}

/// The digits of [`write_hashes`].
const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

/// The hashes written as [`ChessSnapshot::reps`]: sixteen lowercase hexadecimal digits
/// each, most significant first. Written by hand: the window holds up to a hundred
/// positions after a long stretch without a capture or a pawn move and is written and read
/// at every move, and `{:016x}` with `u64::from_str_radix` (or the `hex` crate, which
/// writes a character at a time through an iterator) cost about 75k instructions a move
/// there, against about 15k for these loops (docs/design/store.md, "What a game stores").
fn write_hashes(hashes: &[u64]) -> String {
    let mut out = Vec::with_capacity(hashes.len() * 16);
    for h in hashes {
        out.extend(
            (0..16)
                .rev()
                .map(|i| HEX_DIGITS[((h >> (i * 4)) & 0xf) as usize]),
        );
    }
    // Only ASCII digits were written.
    String::from_utf8(out).unwrap_or_default()
}

/// The value of one hexadecimal digit (either case).
fn hex_digit(b: u8) -> Option<u64> {
    match b {
        b'0'..=b'9' => Some(u64::from(b - b'0')),
        b'a'..=b'f' => Some(u64::from(b - b'a' + 10)),
        b'A'..=b'F' => Some(u64::from(b - b'A' + 10)),
        _ => None,
    }
}

/// The hashes of a [`ChessSnapshot::reps`].
fn read_hashes(text: &str) -> Result<Vec<u64>, RuleError> {
    if text.len() % 16 != 0 {
        return Err(damaged("repetitions: not sixteen digits a position"));
    }
    text.as_bytes()
        .chunks_exact(16)
        .map(|digits| {
            digits
                .iter()
                .try_fold(0u64, |h, &b| Some(h << 4 | hex_digit(b)?))
        })
        .collect::<Option<Vec<u64>>>()
        .ok_or_else(|| damaged("repetitions: not hexadecimal"))
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
        let game = if snap.plies.is_some() {
            resume(variant, start, snap)?
        } else if snap.record.is_some() {
            // Resumed, or re-played where it cannot be (a finished game whose position
            // FEN does not describe).
            resume(variant, start, snap).or_else(|e| replay(start, snap).map_err(|_| e))?
        } else {
            replay(start, snap)?
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
        let fen = to_fen(game.position());
        // A finished game's position that FEN does not describe is resumed at the one
        // before its last turn, which is played again.
        let before = if game.is_over() && parse_fen(game.variant(), &fen).is_err() {
            let halves = match game.last_turn() {
                Some(Turn::Double(..)) => 2,
                _ => 1,
            };
            let at = game.positions().len().checked_sub(1 + halves);
            at.map(|i| to_fen(&game.positions()[i]))
        } else {
            None
        };
        ChessSnapshot {
            variant: game.variant().name().to_string(),
            moves: Vec::new(),
            fen,
            start: Some(game.start())
                .filter(|p| **p != Position::start(game.variant()))
                .map(to_fen),
            offer: self.offer.map(|(c, k)| (seat_of(c), k)),
            outcome: self
                .outcome
                .map(|o| (o.reason, NamedOutcome::from(&game_outcome(&o)))),
            aborted: self.aborted,
            tokens_left: self.tokens_left(),
            plies: Some(game.plies()),
            record: None,
            last,
            reps: write_hashes(&window[..window.len().saturating_sub(1)]),
            before,
        }
    }
}

/// The game of `snap` resumed from the state it holds: its position (or, for a finished
/// game whose position FEN does not describe, the one before its last turn, the turn then
/// played again), ply count, last turn and repetition window, none of its earlier moves
/// re-played.
fn resume(variant: Variant, start: Position, snap: &ChessSnapshot) -> Result<Game, RuleError> {
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
    let plies = match snap.plies {
        Some(plies) => plies,
        // A snapshot that held the moves: the last turn is the last of them, written the
        // same, and the plies are counted from them.
        None => {
            if last.map(|t| t.uci()).as_ref() != snap.moves.last() {
                return Err(damaged("last move: not the last of its moves"));
            }
            snap.moves
                .iter()
                .map(|t| if t.contains(' ') { 2 } else { 1 })
                .sum()
        }
    };
    let window = read_hashes(&snap.reps)?;
    let Some(before) = &snap.before else {
        let now = parse_fen(variant, &snap.fen).map_err(|e| damaged(&format!("position: {e}")))?;
        return Ok(Game::resume(start, now, plies, last, window));
    };
    let turn = last.ok_or_else(|| damaged("position before: no last turn"))?;
    let halves = match turn {
        Turn::Single(_) => 1,
        Turn::Double(..) => 2,
    };
    let at = parse_fen(variant, before).map_err(|e| damaged(&format!("position before: {e}")))?;
    let earlier = plies
        .checked_sub(halves)
        .ok_or_else(|| damaged("position before: fewer plies than its last turn"))?;
    let mut game = Game::resume(start, at, earlier, None, window);
    game.play_turn(turn)
        .map_err(|e| damaged(&format!("last move: {e}")))?;
    if to_fen(game.position()) != snap.fen {
        return Err(damaged("position: not the last turn's"));
    }
    Ok(game)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repetition_window_is_sixteen_lowercase_digits_a_position() {
        let hashes = [0, 1, 0xf8cb_da96_ec3a_c160, u64::MAX];
        let text = write_hashes(&hashes);
        assert_eq!(
            text,
            "00000000000000000000000000000001f8cbda96ec3ac160ffffffffffffffff"
        );
        assert_eq!(read_hashes(&text).unwrap(), hashes);
        assert_eq!(write_hashes(&[]), "");
        assert_eq!(read_hashes("").unwrap(), Vec::<u64>::new());
        // As `u64::from_str_radix` read them, capitals too.
        assert_eq!(
            read_hashes("F8CBDA96EC3AC160").unwrap(),
            [0xf8cb_da96_ec3a_c160]
        );
    }

    #[test]
    fn a_damaged_window_is_refused() {
        for text in [
            "0",
            "f8cbda96ec3ac16",
            "f8cbda96ec3ac16g",
            "+8cbda96ec3ac160",
            "f8cbda96ec3aé60",
            "f8cbda96ec3ac160 ",
        ] {
            assert!(read_hashes(text).is_err(), "{text:?}");
        }
    }
}
