//! The record of a Cloak and Dagger game and how each viewer reads it. A checker whose
//! identity the viewer may not know is written by its number (`3:b1-c3`); its owner, and
//! everyone once the identity is public (uncloaked, captured, guessed right, castled) or
//! the game is over, read the piece (`Nb1-c3`).

use super::board::Arrangement;
use crate::rules::{Color, Role, Square};
use serde::{Deserialize, Serialize};

/// One move as played: enough to write it for any viewer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The mover's checker number (0: a pawn or promoted piece).
    pub id: u8,
    /// The mover's role letter.
    pub role: char,
    /// Where it started (the target square for a drop), by index.
    pub from: u8,
    /// Where it ended (the king's target for castling), by index.
    pub to: u8,
    /// The man captured: its checker number (0: none) and role letter.
    pub capture: Option<(u8, char)>,
    /// The role a pawn promoted to.
    pub promotion: Option<char>,
    /// Castling: king side or not, and the rook's checker number.
    pub castle: Option<(bool, u8)>,
    /// A pawn dropped back.
    pub drop: bool,
    /// A capture en passant.
    pub en_passant: bool,
    /// A bonus move.
    pub bonus: bool,
}

/// What happened in a turn, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A move (regular or bonus).
    Move(Played),
    /// The guess and its answer.
    Guess(super::state::Guess),
    /// The bonus move was skipped.
    Skip,
    /// These checkers were uncloaked.
    Uncloak(Vec<u8>),
}

/// One player's turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRec {
    /// Whose turn (0 White).
    pub seat: u8,
    /// The move number.
    pub number: u32,
    /// What happened, in order.
    pub events: Vec<Event>,
    /// Whether the turn is over.
    pub done: bool,
}

/// A role in words (`knight`).
pub fn role_word(r: Role) -> &'static str {
    r.name()
}

/// A back rank in words: `a1 rook (1), b1 knight (2), ...`.
pub fn arrangement_words(a: &Arrangement, c: Color) -> String {
    let rank = super::board::home_rank(c);
    a.iter()
        .enumerate()
        .map(|(f, r)| {
            format!(
                "{} {} ({})",
                Square::new(f as u8, rank),
                role_word(*r),
                f + 1
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The move `p` of `c` as a viewer reads it: `sees(colour, id)` says whether the
/// viewer knows that checker's identity.
pub fn move_text(p: &Played, c: Color, sees: impl Fn(Color, u8) -> bool) -> String {
    let sq = |i: u8| Square::from_index(i).to_string();
    if p.drop {
        return format!("P@{}", sq(p.to));
    }
    if let Some((king_side, _)) = p.castle {
        return if king_side { "O-O" } else { "O-O-O" }.into();
    }
    let mut out = String::new();
    if p.id > 0 && !sees(c, p.id) {
        out.push_str(&format!("{}:", p.id));
    } else if p.role != 'P' {
        out.push(p.role);
    }
    out.push_str(&sq(p.from));
    out.push(if p.capture.is_some() { 'x' } else { '-' });
    out.push_str(&sq(p.to));
    if let Some(r) = p.promotion {
        out.push('=');
        out.push(r);
    }
    if p.en_passant {
        out.push_str(" e.p.");
    }
    if let Some((id, role)) = p.capture {
        if id > 0 {
            // A captured checker's identity is announced to everyone.
            out.push_str(&format!("{{{id}={role}}}"));
        }
    }
    out
}

/// One turn as a viewer reads it: `{?3=N no} 3:b1-c3 +e2-e4 {uncloaks K5}`.
pub fn turn_text(t: &TurnRec, sees: &impl Fn(Color, u8) -> bool) -> String {
    let c = super::state::color(t.seat);
    let mut words: Vec<String> = Vec::new();
    for e in &t.events {
        words.push(match e {
            Event::Move(p) => format!(
                "{}{}",
                if p.bonus { "+" } else { "" },
                move_text(p, c, sees)
            ),
            Event::Guess(g) => format!(
                "{{?{}={} {}}}",
                g.id,
                g.role,
                if g.right { "yes" } else { "no" }
            ),
            Event::Skip => "{+skip}".into(),
            Event::Uncloak(ids) => format!(
                "{{uncloaks {}}}",
                ids.iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        });
    }
    if words.is_empty() {
        "...".into()
    } else {
        words.join(" ")
    }
}

/// `.` after a White turn's number, `...` after a Black one's.
pub fn dots(t: &TurnRec) -> &'static str {
    if t.seat == 0 {
        "."
    } else {
        "..."
    }
}
