//! Reading what a chess player typed (`move`, `double`, `draw`, `fastfifty`, `claim`) into
//! an action of the game as it is now.

use super::{color_of, split_double, ChessAction, ChessRules, ClaimKind, OfferKind};
use crate::notation::{parse_move, reading_note};
use crate::variants::api::{Action, GameCommand, GameRules, Reading, RuleError, Seat};

/// Reads one of the chess commands typed by `seat`.
pub(super) fn read(
    rules: &ChessRules,
    seat: Seat,
    command: &GameCommand,
) -> Result<Reading, RuleError> {
    let act = |a: ChessAction| Action::of(&a).map(Reading::Act);
    match command.word.as_str() {
        "move" | "play" => {
            let text = command.rest(0);
            let (uci, single) = parse_turn(rules, seat, &text)?;
            let action = Action::of(&ChessAction::Move(uci))?;
            let pos = rules.game().position();
            Ok(match single.and_then(|m| reading_note(pos, &text, m)) {
                Some(note) => Reading::Noted { action, note },
                None => Reading::Act(action),
            })
        }
        "double" | "doublemove" | "double-move" => {
            let text = command.rest(0);
            let (a, b) = match split_double(&text) {
                Some(pair) => pair,
                None => match command.args.as_slice() {
                    [a, b] => (a.as_str(), b.as_str()),
                    _ => return Err(usage(rules, "double")),
                },
            };
            if a.is_empty() || b.is_empty() {
                return Err(usage(rules, "double"));
            }
            act(ChessAction::Move(parse_double(rules, seat, a, b)?))
        }
        "draw" => act(answer(rules, OfferKind::Draw, &command.arg(0))?),
        "fastfifty" | "fast-fifty" => act(answer(rules, OfferKind::FastFifty, &command.arg(0))?),
        "claim" => {
            let kind = match command.arg(0).as_str() {
                "stalemate" => ClaimKind::Stalemate,
                "impasse" => ClaimKind::Impasse,
                "time" | "timeout" => ClaimKind::Time,
                "draw" | "threefold" | "repetition" | "fifty" => ClaimKind::Draw,
                _ => return Err(usage(rules, "claim")),
            };
            if kind == ClaimKind::Time {
                if rules.timeout_is_automatic() {
                    return Err(RuleError::new(format!(
                        "in {} the referee ends a game on time by itself; there is nothing to claim",
                        rules.variant()
                    )));
                }
                return Ok(Reading::ClaimTimeout {
                    late: Seat(1 - color_of(seat)?.index() as u8),
                });
            }
            let intended = match command.args.len() {
                0 | 1 => None,
                _ => Some(parse(rules, seat, &command.rest(1))?),
            };
            act(ChessAction::Claim(kind, intended))
        }
        _ => Err(crate::variants::api::not_part_of(
            &command.word,
            rules.game().variant().display_name(),
        )),
    }
}

/// The usage of one of the game's commands.
fn usage(rules: &ChessRules, name: &str) -> RuleError {
    super::spec::command(rules.game().position().config(), name)
        .map(|c| c.usage_error())
        .unwrap_or_else(|| RuleError::syntax(format!("usage: {name}")))
}

/// An offer, acceptance or refusal, from the word that follows `draw` or `fastfifty`.
fn answer(rules: &ChessRules, kind: OfferKind, word: &str) -> Result<ChessAction, RuleError> {
    match (kind, word) {
        (_, "offer") | (OfferKind::FastFifty, "propose") => Ok(ChessAction::Offer(kind)),
        (_, "accept") => Ok(ChessAction::Accept(kind)),
        (OfferKind::Draw, "decline") | (OfferKind::FastFifty, "reject" | "decline") => {
            Ok(ChessAction::Decline(kind))
        }
        _ => Err(usage(rules, kind.command())),
    }
}

/// Reads a move typed by `seat` into its canonical text (UCI; in Double Move Chess a
/// bare `MOVE1, MOVE2` is a double move).
pub(super) fn parse(rules: &ChessRules, seat: Seat, text: &str) -> Result<String, RuleError> {
    parse_turn(rules, seat, text).map(|(uci, _)| uci)
}

/// [`parse`], with the move read when the turn is a single move (a double move's halves
/// are noted nowhere), for [`reading_note`]: how the text may have been meant otherwise
/// (a lower-case `bxc6` while a bishop could also take there), told with the
/// announcement.
fn parse_turn(
    rules: &ChessRules,
    seat: Seat,
    text: &str,
) -> Result<(String, Option<crate::rules::Move>), RuleError> {
    let color = color_of(seat)?;
    rules.over_check()?;
    if rules.game().turn() != color {
        return Err(RuleError::not_your_turn("it is not your turn"));
    }
    let pos = rules.game().position();
    if pos.config().double_move.is_some() {
        if let Some((first, second)) = split_double(text) {
            return Ok((parse_double(rules, seat, first, second)?, None));
        }
    }
    let m = parse_move(pos, text)?;
    Ok((m.uci(), Some(m)))
}

/// Reads a double move typed by `seat` into its canonical text (both halves' UCI).
fn parse_double(
    rules: &ChessRules,
    seat: Seat,
    first: &str,
    second: &str,
) -> Result<String, RuleError> {
    let color = color_of(seat)?;
    rules.over_check()?;
    if rules.game().turn() != color {
        return Err(RuleError::not_your_turn("it is not your turn"));
    }
    let pos = rules.game().position();
    if pos.config().double_move.is_none() {
        return Err(RuleError::not_here(format!(
            "there are no double moves in {} (only in double-move games)",
            rules.game().variant().display_name()
        )));
    }
    let a = parse_move(pos, first).map_err(|e| {
        let e = RuleError::from(e);
        RuleError::of(e.kind, format!("first move: {}", e.text))
    })?;
    if let Some(e) = pos.double_move_refusal(a) {
        return Err(RuleError::new(super::text::double_move_refusal(pos, &e)));
    }
    let middle = pos.first_half(a);
    let b = parse_move(&middle, second).map_err(|e| {
        let e = RuleError::from(e);
        RuleError::of(
            e.kind,
            format!(
                "second move, after {}: {}",
                crate::notation::san(pos, a),
                e.text
            ),
        )
    })?;
    Ok(format!("{} {}", a.uci(), b.uci()))
}
