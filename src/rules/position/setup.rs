//! A position made from its raw parts ([`Setup`]), checked against the variant's rules:
//! material, kings, castling rights and the en-passant square.

use super::{Position, PositionError, Setup};
use crate::rules::bitboard::Bitboard;
use crate::rules::types::{Color, Piece, Role, Square};
use crate::rules::variant::{KingRule, Variant};

impl Position {
    /// Validates a setup against the rules of `variant`.
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<Position, PositionError> {
        let cfg = variant.config();
        let mask = cfg.board_mask();
        let mut pos = Position {
            variant,
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 6],
            turn: setup.turn,
            castling: Bitboard::EMPTY,
            ep_square: None,
            reserves: setup.reserves,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            tokens: [0; 2],
            first_half_at: None,
            twice_moved: None,
            checks_given: setup.checks_given,
            promoted: Bitboard::EMPTY,
        };
        let most = cfg.double_move.map_or(0, |d| d.tokens);
        pos.tokens = setup.tokens.unwrap_or([most; 2]);
        if pos.tokens.iter().any(|&t| t > most) {
            return Err(PositionError::BadTokens(variant, most));
        }
        let check_limit = cfg.endings.check_limit.unwrap_or(0);
        if pos.checks_given.iter().any(|&n| n > check_limit) {
            return Err(PositionError::BadChecks(variant, check_limit));
        }
        for &(sq, piece) in &setup.pieces {
            if !mask.contains(sq) {
                return Err(PositionError::PieceOffBoard(cfg.width, cfg.height));
            }
            pos.put(sq, piece);
        }
        pos.check_material()?;
        pos.check_kings()?;
        if pos.tracks_promotions() {
            let may_be_promoted = pos.occupied()
                & !pos.by_role[Role::Pawn.index()]
                & !pos.by_role[Role::King.index()];
            if (setup.promoted & !may_be_promoted).nonempty() {
                return Err(PositionError::BadPromoted);
            }
            pos.promoted = setup.promoted;
        }
        if setup.castling.nonempty() {
            pos.check_castling(setup.castling)?;
            pos.castling = setup.castling;
        }
        if let Some(ep) = setup.ep_square {
            pos.check_en_passant(ep)?;
            pos.ep_square = Some(ep);
        }
        Ok(pos)
    }

    /// A setup's pieces and reserves: only the variant's roles, no pawn on a back rank,
    /// and a reserve only where the variant drops.
    fn check_material(&self) -> Result<(), PositionError> {
        let variant = self.variant;
        let cfg = variant.config();
        for role in Role::ALL {
            let present = self.by_role[role.index()].nonempty()
                || self.reserves.iter().any(|r| r[role.index()] > 0);
            if present && !cfg.roles.contains(&role) {
                return Err(PositionError::RoleNotInVariant(variant, role));
            }
        }
        let back_ranks = Bitboard::rank(0) | Bitboard::rank(cfg.height - 1);
        // A kingless side's pawns may stand on its own first rank (Horde).
        let allowed = match cfg.kingless_side {
            Some(side) => self.pieces(side, Role::Pawn) & Bitboard::rank(self.home_rank(side)),
            None => Bitboard::EMPTY,
        };
        if (self.by_role[Role::Pawn.index()] & back_ranks & !allowed).nonempty() {
            return Err(PositionError::PawnOnBackRank);
        }
        match cfg.drops {
            None => {
                if self.reserves.iter().flatten().any(|&n| n > 0) {
                    return Err(PositionError::BadReserve(variant));
                }
            }
            Some(d) => {
                if d.first_rank_only && self.reserves.iter().any(|r| r[Role::Pawn.index()] > 0) {
                    return Err(PositionError::BadReserve(variant));
                }
            }
        }
        Ok(())
    }

    /// A setup's kings: one each where check matters (and the side not to move not in
    /// check), at most one where kings are captured.
    fn check_kings(&self) -> Result<(), PositionError> {
        let cfg = self.config();
        if cfg.king_rule == KingRule::Ordinary {
            // The king is an ordinary piece: any number, none included, and no check.
            return Ok(());
        }
        for color in Color::ALL {
            let on_board = self.pieces(color, Role::King).count();
            let in_hand = self.reserves[color.index()][Role::King.index()] as u32;
            let ok = if cfg.kingless_side == Some(color) {
                on_board + in_hand == 0
            } else if cfg.check_matters() {
                on_board == 1 && in_hand == 0
            } else {
                // King-capture variants: at most one king, on the board or in hand; none
                // left means it was captured and the game is over.
                on_board + in_hand <= 1
            };
            if !ok {
                return Err(PositionError::KingCount(color));
            }
        }
        let not_to_move = self.turn.opposite();
        if cfg.check_matters() && self.is_attacked_by_side(not_to_move, self.turn) {
            return Err(PositionError::OppositeCheck);
        }
        // Where checks are forbidden, no king stands attacked at all.
        if cfg.checks_forbidden && self.is_attacked_by_side(self.turn, not_to_move) {
            return Err(PositionError::OppositeCheck);
        }
        Ok(())
    }

    /// Castling rights: only rooks on their own first rank with the king on the same
    /// rank between the board's edges, both on their starting files.
    fn check_castling(&self, castling: Bitboard) -> Result<(), PositionError> {
        let cfg = self.config();
        if !cfg.castling {
            return Err(PositionError::NoCastling(self.variant));
        }
        if cfg.chess960_castling {
            return self.check_chess960_castling(castling);
        }
        for sq in castling {
            let color = if sq.rank() == 0 {
                Color::White
            } else {
                Color::Black
            };
            let home = if color == Color::White {
                0
            } else {
                cfg.height - 1
            };
            let king_ok = self.king_of(color) == Some(Square::new(4, home));
            let rook_ok = (sq.file() == 0 || sq.file() == cfg.width - 1)
                && sq.rank() == home
                && self.piece_at(sq)
                    == Some(Piece {
                        color,
                        role: Role::Rook,
                    });
            if !king_ok || !rook_ok {
                return Err(PositionError::BadCastling);
            }
        }
        Ok(())
    }

    /// Chess960 castling rights: each a rook of its side on that side's first rank, with
    /// the king on the same rank, and at most one right on each side of the king.
    fn check_chess960_castling(&self, castling: Bitboard) -> Result<(), PositionError> {
        let cfg = self.config();
        for (color, home) in [(Color::White, 0), (Color::Black, cfg.height - 1)] {
            let rights = castling & Bitboard::rank(home);
            if rights.is_empty() {
                continue;
            }
            let king = self
                .king_of(color)
                .filter(|k| k.rank() == home)
                .ok_or(PositionError::BadCastling)?;
            let rook = Piece {
                color,
                role: Role::Rook,
            };
            if rights.into_iter().any(|sq| self.piece_at(sq) != Some(rook))
                || rights.filter(|sq| sq.file() < king.file()).count() > 1
                || rights.filter(|sq| sq.file() > king.file()).count() > 1
            {
                return Err(PositionError::BadCastling);
            }
        }
        if (castling & !(Bitboard::rank(0) | Bitboard::rank(cfg.height - 1))).nonempty() {
            return Err(PositionError::BadCastling);
        }
        Ok(())
    }

    /// An en-passant square: just behind a pawn of the side not to move that has just
    /// made its two-square step.
    fn check_en_passant(&self, ep: Square) -> Result<(), PositionError> {
        let cfg = self.config();
        // The pawn that just moved belongs to the side not to move.
        let mover = self.turn.opposite();
        let (skipped_rank, pawn_rank, start_rank) = match mover {
            Color::White => (2u8, 3u8, 1u8),
            Color::Black => (cfg.height - 3, cfg.height - 4, cfg.height - 2),
        };
        let pawn_sq = Square::new(ep.file(), pawn_rank);
        let start_sq = Square::new(ep.file(), start_rank);
        let ok = cfg.double_step
            && cfg.board_mask().contains(ep)
            && ep.rank() == skipped_rank
            && self.piece_at(pawn_sq)
                == Some(Piece {
                    color: mover,
                    role: Role::Pawn,
                })
            && self.piece_at(ep).is_none()
            && self.piece_at(start_sq).is_none();
        if ok {
            Ok(())
        } else {
            Err(PositionError::BadEnPassant)
        }
    }
}
