//! Move text for the service: SAN output and reading what a player typed, by matching the
//! input against the legal moves of the position. This is the service's own small reader
//! (SAN with or without `x`, `+`, `#`, annotations; UCI and long algebraic; drops;
//! castling with O or 0; a leading `move` and `e2 to e4`); `notation::parse` is richer.

use crate::rules::{CastlingSide, KingRule, Move, MoveKind, Position, Role};

/// The SAN of a legal move `m` in `pos`, with `+`/`#`.
pub fn san(pos: &Position, m: Move) -> String {
    let legal = pos.legal_moves();
    let mut out = String::new();
    match m.kind {
        MoveKind::Castle(CastlingSide::KingSide) => out.push_str("O-O"),
        MoveKind::Castle(CastlingSide::QueenSide) => out.push_str("O-O-O"),
        MoveKind::Drop => out.push_str(&format!("{}@{}", m.role.upper_char(), m.to)),
        MoveKind::Normal | MoveKind::EnPassant => {
            if m.role == Role::Pawn {
                if m.capture.is_some() {
                    out.push(m.from.file_char());
                    out.push('x');
                }
            } else {
                out.push(m.role.upper_char());
                let rivals: Vec<&Move> = legal
                    .iter()
                    .filter(|o| {
                        o.role == m.role && o.to == m.to && o.from != m.from && !o.is_drop()
                    })
                    .collect();
                if !rivals.is_empty() && m.role != Role::King {
                    let file_shared = rivals.iter().any(|o| o.from.file() == m.from.file());
                    let rank_shared = rivals.iter().any(|o| o.from.rank() == m.from.rank());
                    if !file_shared {
                        out.push(m.from.file_char());
                    } else if !rank_shared {
                        out.push(m.from.rank_char());
                    } else {
                        out.push_str(&m.from.to_string());
                    }
                }
                if m.capture.is_some() {
                    out.push('x');
                }
            }
            out.push_str(&m.to.to_string());
            if let Some(p) = m.promotion {
                out.push('=');
                out.push(p.upper_char());
            }
        }
    }
    if legal.contains(&m) {
        let after = pos.after(m);
        match pos.config().king_rule {
            KingRule::Checkmate if after.is_check() => {
                out.push(if after.legal_moves().is_empty() {
                    '#'
                } else {
                    '+'
                });
            }
            KingRule::KingCapture if after.king_attacked(after.turn()) => out.push('+'),
            _ => {}
        }
    }
    out
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?' | '-' | ' ' | '=' | 'x' | 'X' | ':'))
        .collect::<String>()
        .replace('0', "O")
}

/// Reads `text` as a move of `pos`: exactly one legal move must match.
pub fn parse(pos: &Position, text: &str) -> Result<Move, String> {
    let mut t = text.trim();
    if t.len() > 40 {
        return Err("that is too long to be a move".into());
    }
    let lower = t.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("move ") {
        t = &t[t.len() - rest.len()..];
    }
    let t = t
        .replace(" to ", "")
        .replace(" TO ", "")
        .replace(" To ", "");
    if t.trim().is_empty() {
        return Err("no move given".into());
    }
    let legal = pos.legal_moves();
    let exact = squash(&t);
    let matches = |fold: bool| -> Vec<Move> {
        legal
            .iter()
            .copied()
            .filter(|m| {
                let forms = [squash(&san(pos, *m)), squash(&m.uci())];
                forms.iter().any(|f| {
                    if fold {
                        f.eq_ignore_ascii_case(&exact)
                    } else {
                        *f == exact
                    }
                })
            })
            .collect()
    };
    let mut found = matches(false);
    if found.is_empty() {
        found = matches(true);
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => {
            if legal.is_empty() {
                Err("there is no legal move".into())
            } else {
                Err(format!("'{}' is not a legal move here", text.trim()))
            }
        }
        _ => Err(format!(
            "'{}' is ambiguous: it could be {}",
            text.trim(),
            found
                .iter()
                .map(|m| san(pos, *m))
                .collect::<Vec<_>>()
                .join(" or ")
        )),
    }
}
