//! Normalising the typed text before it is read: chess symbols and typographic dashes
//! made ASCII, the word `MOVE`, a leading move number and trailing annotations set aside.

use super::{MoveError, MAX_INPUT_CHARS};
use crate::rules::{Color, Position};

/// The input with the decorations removed.
pub(super) struct Normalised {
    /// ASCII words separated by single spaces: no `MOVE`, no move number, no annotations.
    pub(super) text: String,
    /// Chess symbols were used for pieces, so letter case carries no doubt.
    pub(super) figurine: bool,
    /// The move number typed before the move, and whether it had Black's dots (`12...`).
    pub(super) number: Option<(u32, bool)>,
    /// A separate `e.p.` was set aside (descriptive `PxP e.p.` names en passant alone).
    pub(super) en_passant: bool,
}

/// The refusal of text that is not shaped like a move, quoting it back.
pub(super) fn syntax(input: &str) -> MoveError {
    MoveError::Syntax {
        input: input
            .trim()
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect(),
    }
}

/// The input with its decorations removed, or refused if too long or not text a move
/// could be written in.
pub(super) fn normalise(input: &str) -> Result<Normalised, MoveError> {
    // A character is at most four bytes: longer byte strings are too long without counting.
    if input.len() > MAX_INPUT_CHARS * 4 || input.chars().count() > MAX_INPUT_CHARS {
        return Err(MoveError::TooLong);
    }
    let mut text = String::with_capacity(input.len());
    let mut figurine = false;
    for c in input.chars() {
        let piece = match c {
            '♔' | '♚' => Some('K'),
            '♕' | '♛' => Some('Q'),
            '♖' | '♜' => Some('R'),
            '♗' | '♝' => Some('B'),
            '♘' | '♞' => Some('N'),
            '♙' | '♟' => Some('P'),
            _ => None,
        };
        if let Some(letter) = piece {
            figurine = true;
            text.push(letter);
            continue;
        }
        match c {
            '×' => text.push('x'),
            '‐' | '‑' | '‒' | '–' | '—' | '−' => text.push('-'),
            '‼' | '⁉' => text.push('!'),
            '⁇' | '⁈' => text.push('?'),
            '…' => text.push_str("..."),
            c if c.is_whitespace() => text.push(' '),
            c if c.is_ascii_graphic() => text.push(c),
            _ => return Err(syntax(input)),
        }
    }
    // Everything is ASCII from here on, so byte slicing is safe.
    let mut s = text.trim();
    if s.len() >= 4 && s[..4].eq_ignore_ascii_case("move") {
        let rest = &s[4..];
        if rest.is_empty() || rest.starts_with([' ', ':']) {
            s = rest.trim_start_matches([' ', ':']);
        }
    }
    // A move number: `12.`, `12...`, `1. `.
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let mut number = None;
    if digits > 0 && s[digits..].trim_start().starts_with('.') {
        let n = s[..digits].parse::<u32>().unwrap_or(u32::MAX);
        let after = s[digits..].trim_start();
        let dots = after.bytes().take_while(|&b| b == b'.').count();
        number = Some((n, dots >= 2));
        s = after[dots..].trim_start();
    }
    let mut en_passant = false;
    s = strip_annotations(s, &mut en_passant);
    Ok(Normalised {
        text: s.split_whitespace().collect::<Vec<_>>().join(" "),
        figurine,
        number,
        en_passant,
    })
}

/// Refuses a move number that is not the position's: `N.` must be its move number and
/// `N...` also Black's turn (one dot is accepted for either side, as many write it).
pub(super) fn check_number(pos: &Position, text: &Normalised) -> Result<(), MoveError> {
    let Some((n, black_dots)) = text.number else {
        return Ok(());
    };
    let black = pos.turn() == Color::Black;
    if n == pos.fullmoves() && (black || !black_dots) {
        return Ok(());
    }
    let shown = if n == u32::MAX {
        "given".to_string()
    } else {
        format!("{n}{}", if black_dots { "..." } else { "." })
    };
    Err(MoveError::WrongNumber {
        typed: shown,
        now: pos.fullmoves(),
        side: if black { "Black" } else { "White" },
    })
}

/// Removes trailing `+`, `#`, `!`, `?` and `e.p.` (in any order and number), noting
/// whether `e.p.` was there.
fn strip_annotations<'a>(mut s: &'a str, en_passant: &mut bool) -> &'a str {
    'strip: loop {
        s = s.trim_end();
        if let Some(rest) = s.strip_suffix(['+', '#', '!', '?']) {
            s = rest;
            continue;
        }
        for suffix in ["e.p.", "e.p", "ep"] {
            let n = suffix.len();
            if s.len() > n && s[s.len() - n..].eq_ignore_ascii_case(suffix) {
                let before = s.as_bytes()[s.len() - n - 1];
                if before.is_ascii_digit() || before == b' ' {
                    s = &s[..s.len() - n];
                    *en_passant = true;
                    continue 'strip;
                }
            }
        }
        return s;
    }
}
