//! The `postal` subcommands whose work takes more than a few lines; `main.rs` only parses
//! the command line and dispatches here.

pub mod ratings;
pub mod render;
