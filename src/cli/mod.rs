//! The `postal` subcommands whose work takes more than a few lines; `main.rs` only parses
//! the command line and dispatches here.

pub mod bench_backends;
pub mod bench_service;
pub mod ratings;
pub mod render;
