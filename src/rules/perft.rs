//! Perft: counting the leaves of the move tree, the standard test of a move generator.

use super::movegen::MoveList;
use super::position::Position;

/// Number of move paths of exactly `depth` plies from `pos`. The last ply is counted
/// without being played (bulk counting), as Fairy-Stockfish and shakmaty do.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut moves = MoveList::new();
            pos.legal_moves_into(&mut moves);
            moves.iter().map(|&m| perft(&pos.after(m), depth - 1)).sum()
        }
    }
}

/// Perft split by root move: each legal move in UCI form with its count, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| (m.uci(), perft(&pos.after(m), depth - 1)))
        .collect()
}
