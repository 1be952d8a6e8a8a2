//! The plug-in interface between the referee and the variants: what a variant declares
//! ([`VariantSpec`]) and how one game of it behaves ([`GameRules`]). Everything here is
//! pure data and traits: no I/O, no async, no store, no chat service.

mod action;
mod adjudication;
mod clock;
mod command;
mod description;
mod duel;
mod engine;
mod error;
mod game;
mod marks;
mod note;
mod options;
mod outcome;
mod projection;
mod prompt;
pub mod random;
mod resources;
mod seat;
mod standing;
mod takeback;

pub use action::{not_part_of, Action};
pub use adjudication::{Adjudicable, AdjudicationEntry, ABORTED, ADJUDICATED, REASON_MAX, RESULTS};
pub use clock::VacationEntry;
pub use command::{ArgKind, ArgSpec, CommandSpec, GameCommand, IdRule, Reading};
pub(crate) use description::rules_document;
pub use description::{Description, RulesDocument, HIDDEN_INFORMATION, NO_SINGLE_REPLY};
pub use duel::{
    answer_offer, lost_by, make_offer, refuse_if_over, won_by, Duel, DuelAction, DuelWords, Ended,
    OfferWords, Said, DRAW_OFFER, DUEL_WORDS,
};
pub use engine::{BoardEnd, EngineRecord};
pub use error::{to_stored, to_stored_text, RefusalKind, RuleError};
pub use game::{ActsOnCopy, Apply, Env, GameRules, NewGame, VariantSpec, RULES_SUMMARY_MAX};
pub(crate) use marks::command_mark_str;
pub use marks::{
    command_mark, marked_commands, render_commands, typed_commands, usage_mark, usage_of,
};
pub use note::{plural, Audience, Note, Span, Text};
pub use options::{read_options, OptionKind, OptionSpec, Options};
pub use outcome::{GameOutcome, NamedOutcome, Reason};
pub use projection::Projection;
pub use prompt::{with_draw_offer, Answer, Prompt, PromptKind};
pub use resources::{setting_key, Loaded, ResourceError, ResourceSpec, Resources};
pub use seat::{square_named, Placing, Seat, SeatPlan, Viewer};
pub use standing::Standing;
pub use takeback::{Effect, TakebackStep, Takebacks};
