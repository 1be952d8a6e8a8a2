//! Reading what a Booster Chess player typed into an action. A turn may be typed in one
//! line or in parts: `Nf3 boost g5 h6 card 9h on c4`, or `move Nf3`, `boost g5 h6`,
//! `add c4 with 9h` (also `card 9h on c4`), `done`. Moves are read in every notation the
//! project reads, among the legal moves.

use super::cards::Card;
use super::state::{color_of, read_step, Booster, BoosterAction, Part, Phase};
use crate::notation::{read_among, san_among};
use crate::rules::{Square, Variant};
use crate::variants::api::{
    command_mark_str, Action, DuelAction, GameCommand, Reading, RuleError, Seat,
};

/// The words that start a part of a turn (`.` is short for `done`: `e4 .`).
const KEYWORDS: [&str; 7] = ["boost", "card", "add", "done", ".", "move", "step"];

/// Reads one of Booster Chess's commands typed by `seat`.
pub(super) fn read(g: &Booster, seat: Seat, c: &GameCommand) -> Result<Reading, RuleError> {
    let action = match c.word.as_str() {
        "move" | "boost" | "add" | "card" | "done" => {
            let line = format!("{} {}", c.word, c.rest(0));
            BoosterAction::Turn(read_line(g, seat, &line)?)
        }
        "draw" => BoosterAction::Duel(DuelAction::read_draw(c, &crate::variants::chess::DRAW)?),
        _ => return Err(crate::variants::api::not_part_of(&c.word, "Booster Chess")),
    };
    Action::of(&action).map(Reading::Act)
}

/// Reads a line of turn parts.
pub fn read_line(g: &Booster, seat: Seat, line: &str) -> Result<Vec<Part>, RuleError> {
    let color = color_of(seat)?;
    if g.is_over() {
        return Err(RuleError::over("the game is over"));
    }
    if color != g.turn() {
        return Err(RuleError::not_your_turn("it is not your turn"));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() > 40 {
        return Err(RuleError::syntax("that line is too long for one turn"));
    }
    let mut parts = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = words[i].to_lowercase();
        let start = i;
        i += 1;
        let mut group: Vec<&str> = Vec::new();
        let keyword = KEYWORDS.contains(&word.as_str());
        if !keyword {
            group.push(words[start]);
        }
        while i < words.len() && !KEYWORDS.contains(&words[i].to_lowercase().as_str()) {
            group.push(words[i]);
            i += 1;
        }
        match word.as_str() {
            "boost" | "step" => {
                if group.is_empty() {
                    return Err(RuleError::syntax(concat!(
                        "boost takes the squares to step to, like ",
                        command_mark_str!("boost g5 h6")
                    )));
                }
                for s in group {
                    read_step(s)?;
                    parts.push(Part::Step(s.to_lowercase()));
                }
            }
            "card" | "add" => parts.push(read_card(&group)?),
            "done" | "." => {
                if !group.is_empty() {
                    return Err(RuleError::syntax(
                        "done ends the turn: nothing may follow it",
                    ));
                }
                parts.push(Part::Done);
            }
            "move" if group.is_empty() => {}
            _ => {
                if parts.iter().any(|p| matches!(p, Part::Move(_))) || g.phase() != Phase::Move {
                    return Err(RuleError::new(format!(
                        "you have already moved this turn; '{}' is not boost, card or done",
                        group.join(" ").chars().take(20).collect::<String>()
                    )));
                }
                parts.push(Part::Move(read_move(g, &group.join(" "))?));
            }
        }
    }
    if parts.is_empty() {
        return Err(RuleError::syntax(format!(
            "say what to do: a move, {}",
            super::state::AFTER_THE_MOVE
        )));
    }
    Ok(parts)
}

/// Reads a card part, in either order: `9h on c4` or `c4 with 9h`.
fn read_card(words: &[&str]) -> Result<Part, RuleError> {
    let usage = || {
        RuleError::syntax(concat!(
            "play a card as ",
            command_mark_str!("add SQUARE with CARD"),
            ", like ",
            command_mark_str!("add c4 with 9h"),
            " (cards: 2-10, Q, K with h d s c)"
        ))
    };
    let words: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !matches!(w.to_lowercase().as_str(), "on" | "with" | "to" | "under"))
        .collect();
    let [a, b] = words.as_slice() else {
        return Err(usage());
    };
    let (card, sq) = match (Card::parse(a), Square::parse(&b.to_lowercase())) {
        (Some(c), Some(s)) => (c, s),
        _ => match (Card::parse(b), Square::parse(&a.to_lowercase())) {
            (Some(c), Some(s)) => (c, s),
            _ => return Err(usage()),
        },
    };
    Ok(Part::Card {
        card,
        on: sq.to_string(),
    })
}

/// Reads a move among the legal ones into its UCI.
fn read_move(g: &Booster, text: &str) -> Result<String, RuleError> {
    let legal = g.legal_moves();
    let mut pattern = Vec::new();
    for sq in g.position().of(g.turn()) {
        g.position().piece_moves(sq, &mut pattern);
    }
    let fits = read_among(Variant::STANDARD.config(), g.turn(), &pattern, text)?;
    let allowed: Vec<_> = fits.iter().filter(|m| legal.contains(m)).collect();
    match allowed.as_slice() {
        [m] => Ok(m.uci()),
        [] => Err(RuleError::new(match fits.first() {
            Some(m) => format!(
                "{} would leave your king attacked (booster reach counts)",
                san_among(*m, &pattern)
            ),
            None => match g.why_no_castling(text) {
                Some(why) => why,
                None => format!(
                    "'{}' is not a move of yours here{}",
                    text.chars().take(20).collect::<String>(),
                    hobbled_hint(g)
                ),
            },
        })),
        many => Err(RuleError::ambiguous(format!(
            "ambiguous: {}?",
            many.iter()
                .map(|m| san_among(**m, &legal))
                .collect::<Vec<_>>()
                .join(" or ")
        ))),
    }
}

/// A hint when some of the mover's pieces are hobbled.
fn hobbled_hint(g: &Booster) -> String {
    let pos = g.position();
    let hobbled: Vec<String> = pos
        .of(g.turn())
        .filter(|s| pos.hobbled(*s))
        .map(|s| s.to_string())
        .collect();
    if hobbled.is_empty() {
        String::new()
    } else {
        format!(
            " (hobbled, moving like pawns or not at all: {})",
            hobbled.join(" ")
        )
    }
}
