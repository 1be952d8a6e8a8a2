//! Suggestions of close legal moves for a refused input, and the phrasing of lists in
//! the messages (`did you mean A, B or C?`).

use super::diagnose::must_place_king_first;
use super::reading::{accepts, Reading};
use crate::notation::san::san;
use crate::rules::{Move, MoveKind, MoveList, Position, Role, Square};

/// `; did you mean A, B or C?`, or nothing.
pub(super) fn did_you_mean(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", or_list(suggestions))
    }
}

/// `A`, `A or B`, `A, B or C`.
pub(super) fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {}", rest.join(", "), last),
    }
}

/// Up to five legal moves close to what the player typed: the same destination first,
/// then the same origin, then the same kind of piece; among equals, the ones landing
/// nearest to the square the player named.
pub(super) fn suggest(pos: &Position, legal: &MoveList, readings: &[Reading]) -> Vec<String> {
    let mut scored: Vec<(u8, u8, usize)> = legal
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let score = readings
                .iter()
                .map(|r| closeness(pos, r, m))
                .max()
                .unwrap_or(0);
            let distance = readings
                .iter()
                .filter_map(|r| target(r).map(|to| distance(to, m.to)))
                .min()
                .unwrap_or(0);
            (score, distance, i)
        })
        .filter(|&(score, _, _)| score > 0)
        .collect();
    scored.sort_by_key(|&(score, distance, i)| (std::cmp::Reverse(score), distance, i));
    let mut picked: Vec<Move> = scored.into_iter().map(|(_, _, i)| legal[i]).collect();
    if picked.is_empty() {
        // Nothing close is legal: show what the player has to do instead.
        picked = if must_place_king_first(pos) {
            legal
                .iter()
                .filter(|m| m.role == Role::King)
                .copied()
                .collect()
        } else if pos.is_check() {
            legal.to_vec()
        } else {
            Vec::new()
        };
    }
    let mut out: Vec<String> = Vec::new();
    for m in picked {
        let s = san(pos, m);
        if !out.contains(&s) {
            out.push(s);
        }
        if out.len() == 5 {
            break;
        }
    }
    out
}

/// The destination the player named, if any.
fn target(reading: &Reading) -> Option<Square> {
    match *reading {
        Reading::Board(b) => Some(b.to),
        Reading::Drop { to, .. } => Some(to),
        Reading::Castle(_) | Reading::Descriptive(_) => None,
    }
}

/// Squared straight-line distance between two squares.
fn distance(a: Square, b: Square) -> u8 {
    let (df, dr) = (a.file().abs_diff(b.file()), a.rank().abs_diff(b.rank()));
    df * df + dr * dr
}

/// How close `m` is to what `reading` names, the higher the closer: the same destination
/// counts most, then the same origin (or a drop of the same piece), then the same piece.
fn closeness(pos: &Position, reading: &Reading, m: &Move) -> u8 {
    match *reading {
        Reading::Castle(_) => match m.kind {
            MoveKind::Castle(_) => 4,
            _ if m.role == Role::King => 1,
            _ => 0,
        },
        Reading::Drop { role, to } => {
            4 * u8::from(m.to == to)
                + 2 * u8::from(m.is_drop() && m.role == role)
                + u8::from(m.role == role)
        }
        Reading::Descriptive(d) => {
            let same = m.role == d.mover.role;
            4 * u8::from(!m.is_drop() && d.target_fits(m))
                + 2 * u8::from(same && d.any_mover() != d && d.mover_fits(m))
                + u8::from(same)
        }
        Reading::Board(b) => {
            let on_board = !m.is_drop();
            let from_fits = on_board
                && (b.from_file.is_some() || b.from_rank.is_some())
                && accepts(b.from_file, m.from.file())
                && accepts(b.from_rank, m.from.rank());
            let role = b
                .role
                .or_else(|| b.from().and_then(|f| pos.role_at(f)))
                .unwrap_or(Role::Pawn);
            4 * u8::from(m.to == b.to) + 2 * u8::from(from_fits) + u8::from(m.role == role)
        }
    }
}
