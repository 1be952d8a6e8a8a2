//! Reading a move typed by a player, in whichever notation they use, against the current
//! position.
//!
//! A move is never parsed in isolation. The input is normalised (annotations, the word
//! `MOVE`, a leading move number and letter case set aside), every way it could be read is
//! listed (SAN, a drop, castling, long algebraic or UCI, `E2 TO E4` with algebraic or
//! descriptive squares, ICCF numeric), and the legal moves that match any reading are
//! collected. Exactly one is the answer; several are an [`MoveError::Ambiguous`] listing
//! them in SAN; none is an error that says why, worked out from the position, with
//! suggestions of close legal moves.
//!
//! One rule comes before all of that: text that is exactly the SAN of a legal move (as
//! [`san`] writes it, the suffix aside) means that move. This keeps every SAN that the bot
//! writes readable back, including the list of candidates it gives for an ambiguous input.
//!
//! - `normalise`: the typed text made plain, and its move number checked.
//! - `reading`: every way the plain text can be read, and which moves fit a reading.
//! - `descriptive`: classic English descriptive notation (`P-K4`, `NxB`, `KP TO K4`).
//! - `diagnose`: why no reading is a legal move here.
//! - `suggest`: close legal moves to offer instead, and the phrasing of lists.

mod descriptive;
mod diagnose;
mod normalise;
mod reading;
mod suggest;

use self::diagnose::{diagnose, missing_promotion};
use self::normalise::{check_number, normalise};
use self::reading::read;
use self::suggest::{did_you_mean, or_list};
use super::san::{san, write_body, Glyphs};
use crate::rules::{Color, Move, MoveKind, Position, Role, VariantConfig};

/// The longest input, in characters, that is read as a move. Anything longer is refused
/// at once.
pub const MAX_INPUT_CHARS: usize = 64;

/// Why an input was not accepted as a move. Every message can be shown to the player as it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The input is longer than [`MAX_INPUT_CHARS`].
    #[error("that is too long to be a move (a move is at most {MAX_INPUT_CHARS} characters)")]
    TooLong,
    /// The input is not shaped like a move in any notation.
    #[error(
        "couldn't read '{input}' as a move; write it like e4, Nf3, exd5, e8=Q, O-O, N@d1, e2e4 or P-K4"
    )]
    Syntax {
        /// The input, trimmed, with control characters replaced by spaces.
        input: String,
    },
    /// The player has no piece that could make the move (`reason` says which piece).
    #[error("{reason}{}", did_you_mean(.suggestions))]
    NoSuchPiece {
        /// What is missing, e.g. "you have no knight that can reach f3".
        reason: String,
        /// Up to five close legal moves, in SAN.
        suggestions: Vec<String>,
    },
    /// The move is understood but not allowed here.
    #[error("illegal move: {reason}{}", did_you_mean(.suggestions))]
    Illegal {
        /// Why, e.g. "it would leave your king in check".
        reason: String,
        /// Up to five close legal moves, in SAN.
        suggestions: Vec<String>,
    },
    /// The input fits more than one legal move.
    #[error("ambiguous: {}?", or_list(.candidates))]
    Ambiguous {
        /// Every legal move that fits, in SAN; each of them reads back as exactly that move.
        candidates: Vec<String>,
    },
    /// The move carries a number (`12.`, `12...`) that is not this game's: a sign the
    /// player is looking at another game or another moment of this one.
    #[error(
        "the move number {typed} is not this game's: it is at move {now}, {side} to play (check the game and the move)"
    )]
    WrongNumber {
        /// The number as typed (`99.`, `1...`).
        typed: String,
        /// The game's move number.
        now: u32,
        /// Who is to play (`White`, `Black`).
        side: &'static str,
    },
}

/// Reads `input` as a move of the side to move in `pos`.
///
/// Accepted, case-insensitively wherever case cannot change the meaning:
/// SAN (`Nf3`, `exd5`, `Nbd7`, `R1a3`, `Qh4e1`, `e8=Q`, `e8Q`, `O-O`, `0-0-0`, with or
/// without `x`, with `+ # ! ?` and `e.p.` ignored), figurine SAN (`♘f3`, `♞f6`),
/// drops (`N@d1`, `N*d1`, `@d4` for a pawn), long algebraic and UCI (`e2e4`, `e2-e4`,
/// `Ng1-f3`, `e7e8q`, `e7-e8=Q`, castling as the king's move `e1g1`), the text-game form
/// `MOVE E2 TO E4` (the word `MOVE` is optional) with algebraic or descriptive squares
/// (`MOVE K2 TO K4`, `MOVE QN1 TO QB3`, ranks counted from the mover's side), and ICCF
/// numeric (`5254`, `57581`, castling `5171`), and classic English descriptive notation
/// (`P-K4`, `N-KB3`, `PxP`, `QxP/Q4`, `P-K8=Q`, `MOVE KP TO K4`; see `descriptive`).
///
/// Promotion must name the piece (`e8=Q`), except when the variant allows only one, and in
/// the `E7 TO E8` form, which promotes to a queen unless another piece is named, as in the
/// text games it comes from.
///
/// The letter b is both a file and the bishop. Input that is exactly the SAN of a legal
/// move means that move (`bxc3` is the pawn, `Bxc3` the bishop). Otherwise an upper-case
/// `B` in mixed-case input is the bishop and a lower-case `b` the file; when the case does
/// not decide (`BXC3`, `bc4`), both readings are tried and the legal moves decide.
///
/// Never panics, whatever the input.
pub fn parse_move(pos: &Position, input: &str) -> Result<Move, MoveError> {
    let text = normalise(input)?;
    let parsed = match read(pos.config(), pos.turn(), &text, input) {
        Ok(parsed) => parsed,
        Err(e) => return Err(missing_promotion(pos, &text.text).unwrap_or(e)),
    };
    check_number(pos, &text)?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(MoveError::Illegal {
            reason: "the game is over".into(),
            suggestions: Vec::new(),
        });
    }
    if let Some(exact) = &parsed.exact {
        if let Some(m) = exact_san(&legal, exact) {
            return Ok(m);
        }
    }
    let cfg = pos.config();
    let mut matched: Vec<Move> = Vec::new();
    for m in &legal {
        if parsed.readings.iter().any(|r| r.matches(cfg, m)) && !matched.contains(m) {
            matched.push(*m);
        }
    }
    match matched.as_slice() {
        [m] => Ok(*m),
        [] => Err(diagnose(pos, &legal, &parsed.readings)),
        many => match many
            .iter()
            .find(|m| m.kind == MoveKind::CaptureTwiceMoved && m.uci() == input.trim())
        {
            // Double Move Chess's capture of a twice-moved piece in its own UCI form
            // (`f6xe4`) is that capture. The plain from-to (`f6e4`) fits it and the same
            // piece's plain move onto the stop alike, and stays ambiguous.
            Some(m) => Ok(*m),
            None => Err(MoveError::Ambiguous {
                candidates: many.iter().map(|m| san(pos, *m)).collect(),
            }),
        },
    }
}

/// A short note for the player when `input`, accepted as `m`, was read one way and may
/// have been meant another: a lower-case `bxc6` is the b-pawn's capture (as SAN has it),
/// and when a bishop could also take on c6 the note says so and how to write the bishop's
/// move. None otherwise.
pub fn reading_note(pos: &Position, input: &str, m: Move) -> Option<String> {
    // The move first: most moves are no b-pawn's capture, and their text is not read again.
    if m.role != Role::Pawn || m.from.file() != 1 || m.capture.is_none() {
        return None;
    }
    let text = normalise(input).ok()?.text;
    if !text.starts_with('b') {
        return None;
    }
    let legal = pos.legal_moves();
    let bishop = legal
        .iter()
        .find(|b| b.role == Role::Bishop && b.to == m.to)?;
    Some(format!(
        "{text} was read as the pawn capture; write {} for the bishop",
        san(pos, *bishop)
    ))
}

/// Reads `input` as one of `candidates`, the moves of a variant whose rules the engine's
/// generator does not make (Gravity Chess's downward moves), on a board shaped like
/// `cfg`'s with `turn` to move. Every notation [`parse_move`] reads is read the same way
/// (descriptive ranks count from `turn`'s side); text that is exactly the SAN of one
/// candidate, as [`san_among`](super::san::san_among) writes it, means that one alone.
/// Returns every candidate the input fits, in the candidates' order: none, one, or
/// several for the caller to choose from or to list.
///
/// Never panics, whatever the input.
pub fn read_among(
    cfg: &VariantConfig,
    turn: Color,
    candidates: &[Move],
    input: &str,
) -> Result<Vec<Move>, MoveError> {
    let text = normalise(input)?;
    let parsed = read(cfg, turn, &text, input)?;
    if let Some(exact) = &parsed.exact {
        if let Some(m) = exact_san(candidates, exact) {
            return Ok(vec![m]);
        }
    }
    let mut matched: Vec<Move> = Vec::new();
    for m in candidates {
        if parsed.readings.iter().any(|r| r.matches(cfg, m)) && !matched.contains(m) {
            matched.push(*m);
        }
    }
    Ok(matched)
}

/// The one legal move whose SAN (suffix aside) is exactly `text`.
fn exact_san(legal: &[Move], text: &str) -> Option<Move> {
    let mut buf = String::with_capacity(8);
    let mut found = None;
    for m in legal {
        // Only a move whose SAN could end as `text` does is written out (writing every
        // legal move's SAN was a tenth of a typed move's instructions in the referee's
        // bench, issue 36).
        if !may_be_written(*m, text.as_bytes()) {
            continue;
        }
        buf.clear();
        write_body(*m, legal, Glyphs::Letters, &mut buf);
        if buf == text {
            if found.is_some() {
                return None;
            }
            found = Some(*m);
        }
    }
    found
}

/// Whether [`write_body`] may write `m` as `text`: castling as `O-O` or `O-O-O`, any
/// other move ending with its destination square (before `=` and the promoted piece's
/// letter for a promotion). A test of what the SAN must hold, never a reason to refuse.
fn may_be_written(m: Move, text: &[u8]) -> bool {
    if let MoveKind::Castle(_) = m.kind {
        return text.starts_with(b"O-O");
    }
    let square = [m.to.file_char(), m.to.rank_char()];
    let end = if m.promotion.is_some() {
        text.len().checked_sub(2)
    } else {
        Some(text.len())
    };
    let Some(start) = end.and_then(|e| e.checked_sub(2)) else {
        return false;
    };
    square
        .iter()
        .zip(&text[start..start + 2])
        .all(|(c, b)| u32::from(*b) == u32::from(*c))
}

#[cfg(test)]
mod tests;
