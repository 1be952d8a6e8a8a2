//! Postal: a referee for correspondence games of chess and chess variants.
//!
//! The crate is layered: [`rules`] is the pure rules engine, [`notation`] reads and writes
//! positions and moves, [`render`] draws boards, and [`variants`] holds the games with
//! their registry, all pure, as are [`tournament`] (pairing and standings) and [`analysis`] (an engine analysis's figures); [`engines`] runs the UCI engines as child processes; [`service`] is the referee over the [`store`]; [`discord`]
//! and [`console`] are the adapters; [`telemetry`] is what they count for the operator; the binary's command-line interface sits on top.

pub mod analysis;
pub mod console;
pub mod discord;
pub mod engines;
pub mod notation;
pub mod render;
pub mod rules;
pub mod service;
pub mod store;
pub mod telemetry;
pub mod tournament;
pub mod variants;
