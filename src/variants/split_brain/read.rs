//! Reading what a Split-Brain player typed (`pick`, `decide`, `choose`, `draw`, `claim`)
//! into an action. Reading only words: whether the action is allowed now is the game's
//! to say when it is applied, under the referee's lock.

use super::spec::usage;
use super::{SplitAction, Standing};
use crate::variants::api::{Action, GameCommand, Reading, RuleError};
use crate::variants::chess::{ClaimKind, OfferKind};

/// Reads one of the game's commands.
pub(super) fn read(command: &GameCommand) -> Result<Reading, RuleError> {
    let act = |a: SplitAction| Action::of(&a).map(Reading::Act);
    match command.word.as_str() {
        // The square as typed, with its promotion (`c6=N`, `c6 n`): the game reads it.
        "pick" if !command.args.is_empty() => act(SplitAction::Pick(command.rest(0))),
        "decide" if command.args.len() == 1 => match command.arg(0).as_str() {
            "piece" => act(SplitAction::Decide(Standing::Piece)),
            "target" | "square" => act(SplitAction::Decide(Standing::Target)),
            _ => Err(usage("decide")),
        },
        "choose" if command.args.len() == 1 => act(SplitAction::Choose(command.rest(0))),
        "draw" if command.args.len() == 1 => match command.arg(0).as_str() {
            "offer" => act(SplitAction::Offer(OfferKind::Draw)),
            "accept" => act(SplitAction::Accept(OfferKind::Draw)),
            "decline" => act(SplitAction::Decline(OfferKind::Draw)),
            _ => Err(usage("draw")),
        },
        "claim" => match command.arg(0).as_str() {
            "time" | "timeout" => Err(RuleError::new(
                "in split-brain the referee ends a game on time by itself; there is nothing to claim",
            )),
            _ if command.args.len() > 1 => Err(RuleError::syntax(concat!(
                "in Split-Brain Chess a claim names no move: write ",
                crate::variants::api::command_mark_str!("claim draw")
            ))),
            "draw" | "threefold" | "repetition" | "fifty" => {
                act(SplitAction::Claim(ClaimKind::Draw, None))
            }
            _ => Err(usage("claim")),
        },
        "pick" | "decide" | "choose" | "draw" => Err(usage(&command.word)),
        _ => Err(crate::variants::api::not_part_of(&command.word, "Split-Brain Chess")),
    }
}
