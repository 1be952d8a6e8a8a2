//! A chess game as a UCI engine reads it (`GameRules::engine_record`): the variant's
//! UCI name from its config, the start as FEN, each ply's UCI and SAN, and whether the
//! rules decided the last position; and an engine's line written back in SAN.

use super::ChessRules;
use crate::notation::fen::to_fen;
use crate::notation::san;
use crate::rules::{Color, EndReason, Turn};
use crate::variants::api::{BoardEnd, EngineRecord};

impl ChessRules {
    /// The game for an engine: `None` where no engine plays the variant, where a turn
    /// is two moves (Double Move Chess), or where the game is not whole.
    pub(super) fn engine_record_of(&self) -> Option<EngineRecord> {
        let game = &self.game;
        let cfg = game.variant().config();
        let variant = cfg.uci_variant?;
        if !game.is_complete() || cfg.double_move.is_some() {
            return None;
        }
        let mut moves = Vec::with_capacity(game.moves().len());
        for (pos, turn) in game.turns() {
            let Turn::Single(m) = turn else { return None };
            moves.push((m.uci(), san(pos, m)));
        }
        let end = match self.outcome {
            None => BoardEnd::Open,
            // Ended by what a player did, not by the position: play could go on.
            Some(o)
                if matches!(
                    o.reason,
                    EndReason::Resignation
                        | EndReason::Timeout
                        | EndReason::TimeoutVsInsufficientMaterial
                        | EndReason::Agreement
                        | EndReason::ThreefoldRepetition
                        | EndReason::FiftyMoveRule
                        | EndReason::FastFifty
                ) =>
            {
                BoardEnd::Open
            }
            Some(o) => match o.result.winner() {
                Some(c) => BoardEnd::Won(c == Color::White),
                None => BoardEnd::Drawn,
            },
        };
        Some(EngineRecord {
            variant,
            king_takes_rook: cfg.chess960_castling,
            start_fen: to_fen(game.start()),
            white_first: game.start().turn() == Color::White,
            moves,
            end,
        })
    }

    /// `line` (UCI) from the position after `ply` plies, in SAN, up to its first move
    /// that is not legal there.
    pub(super) fn line_san_of(&self, ply: usize, line: &[String]) -> Vec<String> {
        let Some(mut pos) = self.game.positions().get(ply).copied() else {
            return Vec::new();
        };
        if !self.game.is_complete() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for uci in line {
            let legal = pos.legal_moves();
            let Some(&m) = legal.iter().find(|m| m.uci() == *uci) else {
                break;
            };
            out.push(san(&pos, m));
            pos = pos.after(m);
        }
        out
    }
}
