//! The referee: turns an [`Incoming`] chat message into [`Outbound`] messages, with every
//! accepted change committed to the store before any reply is produced. It names no
//! variant: games are reached through the [`Registry`](crate::variants::Registry) and the
//! plug-in interface.
//!
//! It is a few types (ARCHITECTURE.md, "The referee as types"):
//! - the foundation, files of this folder that hold no part: `marks` (times, users and
//!   commands marked in the text), `messages` (what comes in and goes out), `locks` (the
//!   games' locks), `people` (users recorded and names seen), `text` (status lines, views
//!   and record tags), `commit` (the write that commits an action and the deadlines after
//!   it), `engine_seat` (a game against the bot as its row says);
//! - `core/`: the [`Core`](core::Core) every part reads through (the store, settings,
//!   variants, locks, names, metrics and the background tasks' news), with `lookup`
//!   (which game a command is about, and loading it) and `routing` (what each audience is
//!   told after a change);
//! - the parts, each a type declared in `parts` with a folder of its own: `accounts/`,
//!   `servers/`, `analyses/`, `play/`, `seating/`, `events/`, `moderators/` and `clock/`.
//!   A part reaches another only through the accessors `parts` gives it, so the compiler
//!   holds which part may use which;
//! - the [`Service`] on top (`service`, `dispatch`, `adapter`): what the adapters and
//!   background tasks hold; it reaches every part.
//!
//! Within the folder the files also depend one way, in the order
//! `tests/engine/referee_parts.rs` (`PARTS`) checks.

mod accounts;
pub mod adapter;
mod analyses;
mod clock;
mod commit;
mod core;
mod dispatch;
mod engine_seat;
mod events;
mod locks;
mod marks;
mod messages;
mod moderators;
mod parts;
mod people;
mod play;
mod seating;
mod servers;
mod service;
mod text;

use accounts::{listing, standing, vacation};
use analyses::{analysis_progress, analysis_report};
use clock::outbox;
use core::{lookup, routing};
use events::round_outbox;
use play::takeback;
use servers::server_settings;

pub use super::settings::Settings;
pub use analysis_progress::{AnalysisPost, Pace};
pub use analysis_report::analysed_pgn;
pub use dispatch::PRIVATE_REFUSAL;
pub use listing::FINISHED_LISTED;
pub use lookup::Resolved;
pub use lookup::{load_with, whole_with};
pub use marks::{
    command_mark, format_time, marked_commands, pgn_date_time, plain_text, render_commands,
    render_times, render_users, time_mark, typed_commands, user_at_mark, user_mark, users_as_keys,
};
pub use messages::Listed;
pub use messages::{
    record_name, Button, Card, ChallengeMark, Choice, Destination, Facts, Fail, GameList, Incoming,
    ListedGame, Member, Outbound, Place, Queued, Ranked, Ranking, RulesCard, VariantLine, View,
};
pub use messages::{AnalysisProgress, ProgressState};
pub use outbox::OUTBOX_LEASE_SECONDS;
pub use round_outbox::table_text;
pub use server_settings::TypedCommands;
pub use service::Service;
pub use text::{pgn_tags, seat_users};

use messages::Reply;
