//! Reading what a Gravity Chess player typed (`move`, `stay`, `add`, `draw`) into an
//! action of the game as it is now. Moves are read in every notation the project reads
//! (SAN, UCI, `E7 TO F6`, ...) among the moves the player's pieces could make by their
//! pattern; of those that fit, the one gravity allows is the answer, and if none is
//! allowed the refusal says why (not downward, a stacked target, already moved).

use super::state::{square, Gravity, GravityAction, Phase};
use crate::notation::{read_among, san_among};
use crate::rules::{Square, Variant};
use crate::variants::api::{Action, DuelAction, GameCommand, Reading, RuleError, Seat};
use crate::variants::chess::DRAW;

/// Reads one of Gravity Chess's commands typed by `seat`.
pub(super) fn read(g: &Gravity, seat: Seat, c: &GameCommand) -> Result<Reading, RuleError> {
    let action = match c.word.as_str() {
        "move" | "play" => GravityAction::Move(read_move(g, seat, &c.rest(0))?),
        "stay" | "skip" => {
            g.check_phase(seat, Phase::Move)?;
            match c.args.as_slice() {
                [one] => GravityAction::Stay(square(one)?.to_string()),
                _ => return Err(super::spec::STAY.usage_error()),
            }
        }
        "add" => GravityAction::Add(read_add(g, seat, c)?.to_string()),
        "draw" => GravityAction::Duel(DuelAction::read_draw(c, &DRAW)?),
        _ => return Err(crate::variants::api::not_part_of(&c.word, "Gravity Chess")),
    };
    Action::of(&action).map(Reading::Act)
}

/// Reads a move into its UCI.
fn read_move(g: &Gravity, seat: Seat, text: &str) -> Result<String, RuleError> {
    g.check_phase(seat, Phase::Move)?;
    let mine = g.board().of(g.turn());
    let pattern: Vec<_> = mine
        .flat_map(|sq| g.board().pattern_moves_from(sq))
        .collect();
    let fits = read_among(Variant::STANDARD.config(), g.turn(), &pattern, text)?;
    let legal = g.legal_moves();
    let allowed: Vec<_> = fits.iter().filter(|m| legal.contains(m)).collect();
    // Text that is exactly one reading's SAN means that move, as in every chess variant
    // (`bxc3` is the pawn, `Bxc3` the bishop).
    let exact = || allowed.iter().find(|m| san_among(***m, &legal) == text);
    match allowed.as_slice() {
        [m] => Ok(m.uci()),
        [_, _, ..] if exact().is_some() => Ok(exact().map(|m| m.uci()).unwrap_or_default()),
        // A downward reading says why it is refused before one that goes up.
        [] => match fits
            .iter()
            .find(|m| m.to.rank() < m.from.rank())
            .or(fits.first())
        {
            // The first reading says why it is refused.
            Some(m) => Err(g
                .legal_move(m.from, m.to)
                .err()
                .unwrap_or_else(|| RuleError::new("that move is not possible now"))),
            None => {
                let onto_own: Vec<_> = mine.flat_map(|sq| g.board().pattern_onto_own(sq)).collect();
                let own = read_among(Variant::STANDARD.config(), g.turn(), &onto_own, text)?;
                // A downward reading first: `e7` is the pawn above it, not the one below.
                let first = own
                    .iter()
                    .find(|m| m.to.rank() < m.from.rank())
                    .or(own.first());
                Err(RuleError::new(match first {
                    Some(m) => format!(
                        "{} holds one of your own pieces: the {} on {} cannot go there",
                        m.to,
                        m.role.name(),
                        m.from
                    ),
                    None => format!(
                        "none of your pieces can make the move '{}'; {}",
                        text.chars().take(20).collect::<String>(),
                        g.still_to_move()
                    ),
                }))
            }
        },
        many => Err(RuleError::ambiguous(format!(
            "ambiguous: {}?",
            many.iter()
                .map(|m| san_among(**m, &legal))
                .collect::<Vec<_>>()
                .join(" or ")
        ))),
    }
}

/// Reads `add COLUMN` or `add SQUARE` into the square.
fn read_add(g: &Gravity, seat: Seat, c: &GameCommand) -> Result<Square, RuleError> {
    g.check_phase(seat, Phase::Add)?;
    let arg = c.arg(0);
    let bytes = arg.as_bytes();
    match (c.args.len(), bytes) {
        (1, [f]) if (b'a'..=b'h').contains(f) => Ok(Square::new(f - b'a', g.add_rank())),
        (1, [_, _]) => square(&arg),
        _ => Err(super::spec::ADD.usage_error()),
    }
}
