//! The referee service over a store, game by game and variant by variant: restarts,
//! concurrency, deadlines, secrets, settings, takebacks, vacations, conditional moves and
//! the console transcripts. Every suite here runs on SQLite, and again on PostgreSQL with
//! `POSTAL_TEST_BACKEND=postgres` (CI does both; see `common::service::TempDir`).

#[path = "../common/mod.rs"]
mod common;
#[path = "../toy/mod.rs"]
mod toy;

mod after_the_end;
mod analysis;
mod authorization;
mod booster;
mod chesswords;
mod chesswords_finale;
mod chesswords_secrets;
mod cloak;
mod competition;
mod concurrency;
mod conditional;
mod control_characters;
mod deadline_task;
mod digest;
mod double_move;
mod due_times;
mod engine_games;
mod forget;
mod forget_events;
mod gravity;
mod player_settings;
mod race_claim;
mod restart;
mod secret_draws;
mod server_settings;
mod solitaire;
mod split_brain;
mod takeback;
mod tournament;
mod tournament_signup;
mod toy_console;
mod transcripts;
mod vacation;
