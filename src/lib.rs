//! Postal: a referee for correspondence games of chess and chess variants.
//!
//! The crate is layered: [`rules`] is the pure rules engine, [`notation`] reads and writes
//! positions and moves, and the binary's command-line interface sits on top.

pub mod console;
pub mod discord;
pub mod notation;
pub mod render;
pub mod rules;
pub mod service;
pub mod store;
