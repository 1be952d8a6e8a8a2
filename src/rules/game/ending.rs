//! How a game ends other than by a move: resignation, time, agreement and the draws a
//! player claims (repetition, fifty moves, a stalemate in Chess#).

use super::{could_win, Claim, ClaimError, EndReason, Game, IllegalMove, Outcome};
use crate::rules::position::Position;
use crate::rules::types::{Color, Move, Role};
use crate::rules::variant::{KingRule, MoveLimit};

impl Game {
    /// `color` resigns; the opponent wins (10-0 in Chess#).
    pub fn resign(&mut self, color: Color) -> Result<Outcome, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let o = self.win(color.opposite(), EndReason::Resignation);
        Ok(self.finish(o))
    }

    /// `color` ran out of time. Unless kings are captured (Chess#, Secret Chesswords),
    /// the game is drawn when the opponent could not win by any series of legal moves
    /// ([`could_win`]: checkmate, FIDE 6.9, or the variant's own win); otherwise the
    /// opponent wins.
    pub fn timeout(&mut self, color: Color) -> Result<Outcome, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let winner = color.opposite();
        let pos = self.position();
        let o = if pos.config().king_rule != KingRule::KingCapture && !could_win(pos, winner) {
            self.draw(EndReason::TimeoutVsInsufficientMaterial)
        } else {
            self.win(winner, EndReason::Timeout)
        };
        Ok(self.finish(o))
    }

    /// Both players agreed to end the game: a draw, or in Chess# an impasse (fast-fifty).
    pub fn agree_to_end(&mut self) -> Result<Outcome, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let o = match self.position().config().endings.points {
            Some(points) => self.impasse(points, EndReason::FastFifty),
            None => self.draw(EndReason::Agreement),
        };
        Ok(self.finish(o))
    }

    /// A claim by `claimant`, optionally naming the move they intend to play (FIDE 9.2 and
    /// 9.3 allow claiming with a move that would complete the repetition or the fifty moves).
    /// A valid claim ends the game; an invalid one changes nothing.
    pub fn claim(
        &mut self,
        claimant: Color,
        claim: Claim,
        intended: Option<Move>,
    ) -> Result<Outcome, ClaimError> {
        if self.is_over() {
            return Err(ClaimError::GameOver);
        }
        if claimant != self.turn() {
            return Err(ClaimError::NotYourTurn);
        }
        let pos = *self.position();
        let cfg = pos.config();
        if let Some(m) = intended {
            if !pos.is_legal(&m) {
                return Err(ClaimError::IllegalIntendedMove);
            }
        }
        match claim {
            Claim::ThreefoldRepetition => self.claim_repetition(&pos, intended),
            Claim::FiftyMoveRule => self.claim_fifty_moves(&pos, intended),
            Claim::Stalemate => {
                if cfg.endings.points.is_none() {
                    return Err(ClaimError::NotInVariant(pos.variant()));
                }
                self.check_stalemate_claim(&pos, claimant)?;
                let o = self.stalemated(claimant);
                Ok(self.finish(o))
            }
            Claim::Impasse => {
                let Some(points) = cfg.endings.points else {
                    return Err(ClaimError::NotInVariant(pos.variant()));
                };
                let left = points.impasse_plies.saturating_sub(pos.halfmoves());
                Err(ClaimError::Invalid(format!(
                    "an impasse comes automatically after 50 moves by each side without a pawn move or capture; {left} more {} without one {} needed (or propose a fast-fifty)",
                    if left == 1 { "ply" } else { "plies" },
                    if left == 1 { "is" } else { "are" }
                )))
            }
        }
    }

    /// A claim of threefold repetition in `pos`, now or after the `intended` move.
    fn claim_repetition(
        &mut self,
        pos: &Position,
        intended: Option<Move>,
    ) -> Result<Outcome, ClaimError> {
        if !pos.config().draws.repetition {
            return Err(ClaimError::NotInVariant(pos.variant()));
        }
        let count = match intended {
            Some(m) => self.repetitions_of(pos.after(m).zobrist_hash()) + 1,
            None => self.repetitions(),
        };
        if count >= 3 {
            return self.draw_by_claim(intended, EndReason::ThreefoldRepetition);
        }
        Err(ClaimError::Invalid(format!(
            "the position {} occurred {} time{}, a claim needs three",
            if intended.is_some() {
                "after that move would have"
            } else {
                "has"
            },
            count,
            if count == 1 { "" } else { "s" }
        )))
    }

    /// A claim of the fifty-move rule in `pos`, now or after the `intended` move.
    fn claim_fifty_moves(
        &mut self,
        pos: &Position,
        intended: Option<Move>,
    ) -> Result<Outcome, ClaimError> {
        if pos.config().draws.move_limit == MoveLimit::None {
            return Err(ClaimError::NotInVariant(pos.variant()));
        }
        let plies = match intended {
            Some(m) => pos.after(m).halfmoves(),
            None => pos.halfmoves(),
        };
        if plies >= 100 {
            return self.draw_by_claim(intended, EndReason::FiftyMoveRule);
        }
        Err(ClaimError::Invalid(format!(
            "only {} move{} by each side without a pawn move or capture; the rule needs 50",
            plies / 2,
            if plies / 2 == 1 { "" } else { "s" }
        )))
    }

    /// Ends the game on a valid draw claim, first playing the move named with it. If that
    /// move itself ends the game (checkmate, say), its ending stands.
    fn draw_by_claim(
        &mut self,
        intended: Option<Move>,
        reason: EndReason,
    ) -> Result<Outcome, ClaimError> {
        if let Some(m) = intended {
            self.play(m).map_err(|_| ClaimError::IllegalIntendedMove)?;
            if let Some(o) = self.outcome {
                return Ok(o);
            }
        }
        let o = self.draw(reason);
        Ok(self.finish(o))
    }

    /// Chess# rule 11: valid when the claimant's king is on the board and not attacked,
    /// and every available move would leave it attacked.
    fn check_stalemate_claim(&self, pos: &Position, claimant: Color) -> Result<(), ClaimError> {
        if pos.king_of(claimant).is_none() {
            return Err(ClaimError::Invalid(
                "your king is not on the board yet, so you cannot be stalemated".into(),
            ));
        }
        if pos.king_attacked(claimant) {
            return Err(ClaimError::Invalid(
                "your king is attacked: that is not stalemate".into(),
            ));
        }
        for m in pos.legal_moves() {
            if m.capture == Some(Role::King) {
                return Err(ClaimError::KingCapturable(m));
            }
            if !pos.after(m).king_attacked(claimant) {
                return Err(ClaimError::SafeMoveExists(m));
            }
        }
        Ok(())
    }
}
