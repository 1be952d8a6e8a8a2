//! The console and the command line: the command language, input hygiene, the printing
//! commands in a pipe, exports (PGN read back by an independent reader, JSON, GIF) and
//! ratings.

#[path = "../common/mod.rs"]
mod common;

mod cli_pipe;
mod command_parser;
mod competition_deals;
mod console_input;
mod engine_games;
mod export;
mod forget_user;
mod pgn_export;
mod quick_start;
mod ratings;
mod secrets;
