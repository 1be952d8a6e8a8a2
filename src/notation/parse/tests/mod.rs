//! Unit tests of the move reader: one test per accepted form and per refusal reason.

use super::*;
use crate::notation::fen::parse_fen;
use crate::rules::{Role, Square, Variant};

const STANDARD: Variant = Variant::STANDARD;
const SHARP: Variant = Variant::CHESS_SHARP;
const LOS_ALAMOS: Variant = Variant::LOS_ALAMOS;

fn pos(v: Variant, fen: &str) -> Position {
    parse_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn start(v: Variant) -> Position {
    Position::start(v)
}

/// The UCI of the move `input` reads as; panics with the error otherwise.
fn uci(p: &Position, input: &str) -> String {
    match parse_move(p, input) {
        Ok(m) => m.uci(),
        Err(e) => panic!("{input:?} was refused: {e}"),
    }
}

fn err(p: &Position, input: &str) -> MoveError {
    match parse_move(p, input) {
        Ok(m) => panic!("{input:?} was read as {}", m.uci()),
        Err(e) => e,
    }
}

/// The reason of an `Illegal` or `NoSuchPiece` refusal.
fn reason(p: &Position, input: &str) -> String {
    match err(p, input) {
        MoveError::Illegal { reason, .. } | MoveError::NoSuchPiece { reason, .. } => reason,
        other => panic!("{input:?}: expected a reason, got {other:?}"),
    }
}

fn assert_all(p: &Position, inputs: &[&str], expected: &str) {
    for input in inputs {
        assert_eq!(uci(p, input), expected, "{input:?}");
    }
}

mod accepted;
mod descriptive;
mod refusals;
