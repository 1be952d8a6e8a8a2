//! The referee service: commands in, messages out, with persistence and clocks. It knows
//! no variant and nothing of Discord: games are reached through the variants' registry
//! ([`crate::variants::Registry`]), and the Discord and console adapters both drive it.

pub mod analysis_task;
pub mod availability;
pub mod command;
pub mod competition;
pub mod deadlines;
pub mod engine_task;
pub mod export;
pub mod input;
pub mod moderation;
pub mod names;
pub mod places;
pub mod player_settings;
pub mod referee;
pub mod replay;
pub mod server_settings;
pub mod settings;
pub mod shutdown;
pub mod standings;
pub mod tournament;
