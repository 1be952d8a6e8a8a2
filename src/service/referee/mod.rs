//! The referee: turns an [`Incoming`] chat message into [`Outbound`] messages, with every
//! accepted change committed to the store before any reply is produced. It names no
//! variant: games are reached through the [`Registry`](crate::variants::Registry) and the
//! plug-in interface.
//!
//! Its parts depend one way: each uses only the parts listed before it in
//! `tests/engine/referee_parts.rs` (`PARTS`), which checks it; ARCHITECTURE.md ("The
//! referee in parts") draws them.
//!
//! - the foundation: `marks` (times and users marked in the text), `messages` (what
//!   comes in and goes out), `locks` (the games' locks, kept only while in use), `people`
//!   (the users recorded and the names seen, bounded), `core`
//!   (the service and what it holds), `text` (status lines, views and record tags),
//!   `commit` (the write that commits an action and the deadlines after it);
//! - `engine_seat`: a game against the bot as its row says (the engine's seat, level
//!   and name);
//! - `lookup`: which game a command is about, and loading it;
//! - `routing`: what each audience is told after a change; `standing`: ratings and the
//!   leaderboard;
//! - `vacation`: players' vacations, which stop their clocks; `listing`: the games a
//!   player has; `personal`: personal settings, digests and private boards;
//! - `takeback`: takebacks by agreement; `conditional`: conditional moves, stored
//!   privately and played when they match;
//! - `acting`: applying a game's command under its lock and committing it; `seating`:
//!   challenges answered and seats taken; `challenge`: a challenge made, in steps;
//!   `rematch`; `chat`: which messages are for the referee; `outbox`: deadlines, reminders and timeouts, and the outbox they fill;
//!   `records`: a game's public record and animation; `reading`: a game's board, moves,
//!   record and hand for a reader;
//! - `server_settings`: a server's own settings (prefix, typed commands, where games
//!   start, challenge defaults, moderators' role), stored and applied;
//! - `moderation`: a moderator's abort or adjudication of a stuck game and ending of a
//!   player's challenges;
//! - `rounds`: a tournament's rounds paired and started with their games, and its
//!   standings posted; `round_outbox`: a round's announcements queued in the outbox with
//!   it and written out at delivery; `signup`: a tournament started (by its command or
//!   when its sign-up closes) or cancelled for want of players; `tournament`: the
//!   tournament commands;
//! - `engine_turn`: the engine's turns in games against the bot, claimed, computed by
//!   the pool and played as any move is;
//! - `forget`: `forget-me`, a player's personal data deleted at their request;
//! - `adapter`: what an adapter asks of the service beyond commands (threads, held
//!   private messages, challenge posts, opening and closing the store);
//! - `dispatch`: a message cleaned, parsed and run by the part it is for. Nothing
//!   depends on it.

mod acting;
pub mod adapter;
mod analysis;
mod analysis_progress;
mod analysis_report;
mod challenge;
mod chat;
mod commit;
mod competition;
mod conditional;
mod core;
mod dispatch;
mod engine_seat;
mod engine_turn;
mod forget;
mod listing;
mod locks;
mod lookup;
mod marks;
mod messages;
mod moderation;
mod outbox;
mod parts;
mod people;
mod personal;
mod progress;
mod reading;
mod records;
mod rematch;
mod round_outbox;
mod rounds;
mod routing;
mod seating;
mod server_settings;
mod service;
mod signup;
mod standing;
mod takeback;
mod text;
mod tournament;
mod vacation;

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
