//! Double Move Chess on the one engine: each player's tokens, the double move (two moves
//! of the same side in one turn) with its restrictions, and rule 5's capture "en passant"
//! of a piece that moved twice. The rules are numbered as in `docs/rules/double-move.md`.
//!
//! A double move is two ordinary legal moves. Between them the position is an
//! *intermediate* one: the first half played, the same side still to move, a token spent,
//! no en-passant square (the first half is the ply right after the opponent's move, so
//! the right to take a pawn en passant lapses with it, and nobody may take the mover's
//! pawn before the second half). The second half is any legal move there. Rule 5's
//! capture is a legal move of [`Position::legal_moves`] of kind
//! [`MoveKind::CaptureTwiceMoved`], offered on the opponent's next move only.

use super::movegen::MoveList;
use super::position::{Position, PositionError};
use super::types::{Color, Move, MoveKind, Role, Square};
use std::fmt;

/// Why a double move is refused. The position is unchanged and the token kept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DoubleMoveError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// The variant has no double moves.
    #[error("there are no double moves in {0}")]
    NotInVariant(&'static str),
    /// Rule 7: every token is spent.
    #[error("you have no double-move tokens left (each player has {0})")]
    NoTokens(u8),
    /// Rule 1: before the player's move 9.
    #[error("no double move before your move {first}: this is your move {now}")]
    TooEarly {
        /// The first move number allowed.
        first: u32,
        /// The move number now.
        now: u32,
    },
    /// Rule 4: the player's king is in check.
    #[error("no double move while your king is in check")]
    InCheck,
    /// Rule 3: the first half captures.
    /// (Written in UCI here; the chess variants write the move in SAN.)
    #[error("the first move of a double move may not capture ({} captures)", .0.uci())]
    FirstCaptures(Move),
    /// Rule 2: the first half gives check.
    #[error("the first move of a double move may not give check ({} gives check)", .0.uci())]
    FirstChecks(Move),
    /// The first half is not a legal move.
    #[error("the first move, {0}, is not legal here")]
    FirstIllegal(String),
    /// The second half is not legal after the first.
    #[error("the second move, {0}, is not legal after the first")]
    SecondIllegal(String),
}

/// A whole turn of Double Move Chess: one move, or a double move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// One move (rule 5's capture included).
    Single(Move),
    /// Two moves of the same side, the second played after the first.
    Double(Move, Move),
}

impl Turn {
    /// The canonical text: the move's UCI, or both halves' UCI separated by a space.
    pub fn uci(&self) -> String {
        match self {
            Turn::Single(m) => m.uci(),
            Turn::Double(a, b) => format!("{} {}", a.uci(), b.uci()),
        }
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uci())
    }
}

impl Position {
    /// The double-move tokens each side has left, White's then Black's (none in variants
    /// without double moves).
    pub fn tokens(&self) -> [u8; 2] {
        self.tokens
    }

    /// This position with the given tokens left (at most the variant's number).
    pub fn with_tokens(mut self, tokens: [u8; 2]) -> Result<Position, PositionError> {
        let most = self.config().double_move.map_or(0, |d| d.tokens);
        if tokens.iter().any(|&t| t > most) {
            return Err(PositionError::BadTokens(self.variant, most));
        }
        self.tokens = tokens;
        Ok(self)
    }

    /// Whether this is the intermediate position of a double move: the first half played
    /// and the same side to move again.
    pub fn is_between_halves(&self) -> bool {
        self.first_half_at.is_some()
    }

    /// After a double move of one piece: the square it stopped on between its moves and
    /// the square it stands on. Rule 5's capture onto the first is offered while this is set.
    pub fn twice_moved(&self) -> Option<(Square, Square)> {
        self.twice_moved
    }

    /// Adds rule 5's captures to `moves`: each piece of the side to move that attacks the
    /// square where the twice-moved piece stopped may move there, taking that piece from
    /// the square it moved on to, provided its own king is then safe. A pawn captures
    /// diagonally as it always does, and promotes on the last rank.
    pub(super) fn push_twice_moved_captures(&self, moves: &mut MoveList) {
        let Some((stop, at)) = self.twice_moved else {
            return;
        };
        let us = self.turn;
        let Some(victim) = self.piece_at(at).filter(|p| p.color != us) else {
            return;
        };
        if self.piece_at(stop).is_some() {
            return;
        }
        let last_rank = if us == Color::White {
            self.config().height - 1
        } else {
            0
        };
        for from in self.attackers_to(stop, us, self.occupied()) {
            let Some(role) = self.role_at(from) else {
                continue;
            };
            let promotions: &[Role] = if role == Role::Pawn && stop.rank() == last_rank {
                self.config().promotion
            } else {
                &[]
            };
            let options = promotions
                .iter()
                .map(|&p| Some(p))
                .chain(promotions.is_empty().then_some(None));
            for promotion in options {
                let m = Move {
                    from,
                    to: stop,
                    role,
                    capture: Some(victim.role),
                    promotion,
                    kind: MoveKind::CaptureTwiceMoved,
                };
                if !self.after(m).king_attacked(us) && !moves.is_full() {
                    moves.push(m);
                }
            }
        }
    }

    /// Whether rule 5's capture is available to the side to move.
    pub fn has_twice_moved_capture(&self) -> bool {
        let mut moves = MoveList::new();
        self.push_twice_moved_captures(&mut moves);
        !moves.is_empty()
    }

    /// Why `first`, a legal move here, may not start a double move (rules 1 to 4 and 7),
    /// or `None` when it may.
    pub fn double_move_refusal(&self, first: Move) -> Option<DoubleMoveError> {
        let Some(dm) = self.config().double_move else {
            return Some(DoubleMoveError::NotInVariant(self.variant.display_name()));
        };
        if self.is_between_halves() {
            return Some(DoubleMoveError::FirstIllegal(first.uci()));
        }
        if self.tokens[self.turn.index()] == 0 {
            return Some(DoubleMoveError::NoTokens(dm.tokens));
        }
        if self.fullmoves < dm.first_move {
            return Some(DoubleMoveError::TooEarly {
                first: dm.first_move,
                now: self.fullmoves,
            });
        }
        if self.is_check() {
            return Some(DoubleMoveError::InCheck);
        }
        if first.capture.is_some() {
            return Some(DoubleMoveError::FirstCaptures(first));
        }
        if self.after(first).is_check() {
            return Some(DoubleMoveError::FirstChecks(first));
        }
        None
    }

    /// The intermediate position after `first`, the first half of a double move, which
    /// must be legal here and allowed by [`Position::double_move_refusal`].
    pub fn first_half(&self, first: Move) -> Position {
        let mut next = self.after(first);
        next.turn = self.turn;
        next.fullmoves = self.fullmoves;
        next.ep_square = None;
        next.twice_moved = None;
        next.tokens[self.turn.index()] -= 1;
        next.first_half_at = Some(first.to);
        next
    }

    /// Checks a whole double move and returns its intermediate position and the position
    /// after it. Nothing changes on a refusal.
    pub fn double_move(
        &self,
        first: Move,
        second: Move,
    ) -> Result<(Position, Position), DoubleMoveError> {
        if self.config().double_move.is_none() {
            return Err(DoubleMoveError::NotInVariant(self.variant.display_name()));
        }
        if !self.is_legal(&first) {
            return Err(DoubleMoveError::FirstIllegal(first.uci()));
        }
        if let Some(e) = self.double_move_refusal(first) {
            return Err(e);
        }
        let middle = self.first_half(first);
        if !middle.is_legal(&second) {
            return Err(DoubleMoveError::SecondIllegal(second.uci()));
        }
        let end = middle.after(second);
        Ok((middle, end))
    }

    /// Every double move allowed here, in generation order of the first half, then of the
    /// second.
    pub fn double_moves(&self) -> Vec<(Move, Move)> {
        let mut out = Vec::new();
        if self.config().double_move.is_none() || self.tokens[self.turn.index()] == 0 {
            return out;
        }
        for first in self.legal_moves() {
            if self.double_move_refusal(first).is_none() {
                let middle = self.first_half(first);
                out.extend(middle.legal_moves().iter().map(|&second| (first, second)));
            }
        }
        out
    }

    /// Every turn open to the side to move: each legal move, then each double move.
    pub fn turns(&self) -> Vec<Turn> {
        let mut out: Vec<Turn> = self
            .legal_moves()
            .iter()
            .map(|&m| Turn::Single(m))
            .collect();
        out.extend(
            self.double_moves()
                .into_iter()
                .map(|(a, b)| Turn::Double(a, b)),
        );
        out
    }

    /// The position after a turn that must be open here (one of [`Position::turns`]).
    pub fn after_turn(&self, turn: Turn) -> Position {
        match turn {
            Turn::Single(m) => self.after(m),
            Turn::Double(a, b) => self.first_half(a).after(b),
        }
    }
}

/// Perft for Double Move Chess: the number of turn sequences of `depth` turns, where the
/// options at each node are every legal move (rule 5's capture included) and every
/// allowed double move, each counted once. At depth 1 that is the number of single moves
/// plus the number of (first half, second half) pairs.
pub fn perft_turns(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let doubles: u64 =
                if pos.config().double_move.is_some() && pos.tokens[pos.turn.index()] > 0 {
                    pos.legal_moves()
                        .iter()
                        .filter(|&&m| pos.double_move_refusal(m).is_none())
                        .map(|&m| pos.first_half(m).count_legal_moves() as u64)
                        .sum()
                } else {
                    0
                };
            pos.count_legal_moves() as u64 + doubles
        }
        _ => pos
            .turns()
            .into_iter()
            .map(|t| perft_turns(&pos.after_turn(t), depth - 1))
            .sum(),
    }
}

/// [`perft_turns`] split by root option: each turn's canonical text (`e2e4`, or
/// `g1f3 f3g5` for a double move) with its count, single moves first.
pub fn divide_turns(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.turns()
        .into_iter()
        .map(|t| (t.uci(), perft_turns(&pos.after_turn(t), depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fen::{parse_fen, to_fen};
    use crate::rules::{EndReason, Game, Variant};

    fn fen(text: &str) -> Position {
        parse_fen(Variant::DOUBLE_MOVE, text).unwrap()
    }

    fn mv(pos: &Position, uci: &str) -> Move {
        pos.legal_moves()
            .iter()
            .copied()
            .find(|m| m.uci() == uci)
            .unwrap_or_else(|| panic!("{uci} is not legal in {}", to_fen(pos)))
    }

    /// The double move `a b` from `pos`: the intermediate and final positions.
    fn double(pos: &Position, a: &str, b: &str) -> Result<(Position, Position), DoubleMoveError> {
        let first = mv(pos, a);
        let middle = pos.first_half(first);
        let second = middle
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.uci() == b)
            .unwrap_or(first);
        pos.double_move(first, second)
    }

    fn captures(pos: &Position) -> Vec<String> {
        pos.legal_moves()
            .iter()
            .filter(|m| m.kind == MoveKind::CaptureTwiceMoved)
            .map(|m| m.uci())
            .collect()
    }

    const OPEN: &str = "4k3/8/8/8/8/8/8/R3K3 w - - 0 9";

    #[test]
    fn rule_1_no_double_move_before_the_players_move_9() {
        let early = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 8");
        assert_eq!(
            double(&early, "a1a2", "a2a3"),
            Err(DoubleMoveError::TooEarly { first: 9, now: 8 })
        );
        assert!(double(&fen(OPEN), "a1a2", "a2a3").is_ok());
        // Black's move 9 comes after White's: at 8... Black may not, at 9... Black may.
        let black8 = fen("r3k3/8/8/8/8/8/8/4K3 b - - 0 8");
        assert!(matches!(
            double(&black8, "a8a7", "a7a6"),
            Err(DoubleMoveError::TooEarly { .. })
        ));
        let black9 = fen("r3k3/8/8/8/8/8/8/4K3 b - - 0 9");
        assert!(double(&black9, "a8a7", "a7a6").is_ok());
    }

    #[test]
    fn rule_2_the_first_move_may_not_give_check_but_the_second_may() {
        let pos = fen(OPEN);
        assert!(matches!(
            double(&pos, "a1a8", "e1d2"),
            Err(DoubleMoveError::FirstChecks(m)) if m.uci() == "a1a8"
        ));
        let (_, end) = double(&pos, "a1a7", "a7a8").unwrap();
        assert!(end.is_check());
    }

    #[test]
    fn rule_3_the_first_move_may_not_capture_but_the_second_may() {
        let pos = fen("4k3/8/8/8/8/8/p7/R3K3 w - - 0 12");
        assert!(matches!(
            double(&pos, "a1a2", "a2a5"),
            Err(DoubleMoveError::FirstCaptures(m)) if m.uci() == "a1a2"
        ));
        let (_, end) = double(&pos, "a1b1", "b1b2").unwrap();
        assert!(end.piece_at(Square::parse("b2").unwrap()).is_some());
        let (_, end) = double(&pos, "e1d1", "a1a2").unwrap();
        assert_eq!(end.halfmoves(), 0, "the capture resets the counter");
        // An en-passant capture is a capture too.
        let ep = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 20");
        assert!(matches!(
            double(&ep, "e5d6", "e1e2"),
            Err(DoubleMoveError::FirstCaptures(_))
        ));
    }

    #[test]
    fn rule_4_no_double_move_while_in_check() {
        let pos = fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 12");
        assert_eq!(double(&pos, "e1e2", "e2e3"), Err(DoubleMoveError::InCheck));
    }

    #[test]
    fn rule_5_the_same_piece_may_move_twice_a_ricochet() {
        let pos = fen("4k3/8/8/8/8/8/8/2B1K3 w - - 0 12");
        let (middle, end) = double(&pos, "c1f4", "f4b8").unwrap();
        assert!(middle.is_between_halves());
        assert_eq!(middle.turn(), Color::White);
        assert_eq!(end.turn(), Color::Black);
        assert_eq!(
            end.role_at(Square::parse("b8").unwrap()),
            Some(Role::Bishop)
        );
        // The bishop stopped on f4, which nothing attacked: no capture is offered.
        assert_eq!(
            end.twice_moved(),
            Some((Square::parse("f4").unwrap(), Square::parse("b8").unwrap()))
        );
        assert!(captures(&end).is_empty());
    }

    #[test]
    fn rule_5_a_twice_moved_knight_is_taken_en_passant_on_the_next_move_only() {
        let pos = fen("4k3/8/5b2/8/8/8/8/1N2K3 w - - 0 12");
        let (_, end) = double(&pos, "b1c3", "c3e4").unwrap();
        assert_eq!(captures(&end), ["f6xc3"]);
        let take = mv(&end, "f6xc3");
        // Bxc3+: the bishop takes the knight on c3, giving check.
        assert_eq!(
            end.role_at(Square::parse("f6").unwrap()),
            Some(Role::Bishop)
        );
        assert!(end.after(take).is_check());
        let after = end.after(take);
        assert_eq!(
            after.role_at(Square::parse("c3").unwrap()),
            Some(Role::Bishop)
        );
        assert_eq!(after.piece_at(Square::parse("e4").unwrap()), None);
        assert_eq!(after.halfmoves(), 0);
        // The plain move to c3 stays available beside the capture.
        assert!(end.legal_moves().iter().any(|m| m.uci() == "f6c3"));
        // One move later the chance is gone.
        let later = end.after(mv(&end, "e8d8"));
        let later = later.after(mv(&later, "e1e2"));
        assert!(captures(&later).is_empty());
        // A knight that stopped on a square nothing attacked cannot be taken.
        let (_, safe) = double(&pos, "b1a3", "a3c4").unwrap();
        assert!(captures(&safe).is_empty());
    }

    #[test]
    fn rule_5_a_twice_moved_rook_is_taken_by_a_pawn_moving_diagonally() {
        let pos = fen("4k3/8/1p6/8/8/8/8/R3K3 w - - 0 12");
        let (_, end) = double(&pos, "a1a5", "a5h5").unwrap();
        assert_eq!(captures(&end), ["b6xa5"]);
        let after = end.after(mv(&end, "b6xa5"));
        assert_eq!(
            after.role_at(Square::parse("a5").unwrap()),
            Some(Role::Pawn)
        );
        assert_eq!(after.piece_at(Square::parse("h5").unwrap()), None);
    }

    #[test]
    fn rule_5_a_twice_moved_pawn_is_taken_by_a_pawn() {
        let pos = fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 12");
        // e2-e3-e4: the pawn stopped on e3, which the d4 pawn attacks.
        let (_, end) = double(&pos, "e2e3", "e3e4").unwrap();
        assert_eq!(end.ep_square(), None);
        assert_eq!(captures(&end), ["d4xe3"]);
        let after = end.after(mv(&end, "d4xe3"));
        assert_eq!(after.piece_at(Square::parse("e4").unwrap()), None);
        // e2-e4 as the first half lets no pawn take it en passant later: the right lapses.
        let (middle, end) = double(&pos, "e2e4", "e1d1").unwrap();
        assert_eq!(middle.ep_square(), None);
        assert!(end
            .legal_moves()
            .iter()
            .all(|m| m.kind != MoveKind::EnPassant));
    }

    #[test]
    fn rule_5_a_sliding_capturer_and_its_kings_safety() {
        // The f6 bishop is pinned to its king on the f-file: it may not take.
        let pinned = fen("5k2/8/5b2/8/8/8/8/1N2KR2 w - - 0 12");
        let (_, end) = double(&pinned, "b1c3", "c3e4").unwrap();
        assert!(captures(&end).is_empty());
        // The same capture by a free bishop is offered.
        let free = fen("6k1/8/5b2/8/8/8/8/1N2KR2 w - - 0 12");
        let (_, end) = double(&free, "b1c3", "c3e4").unwrap();
        assert_eq!(captures(&end), ["f6xc3"]);
    }

    #[test]
    fn rule_5_promotion_on_the_first_half_and_on_the_capture() {
        // b7-b8=Q, then the new queen goes on to b5; the a8 rook takes it en passant.
        let pos = fen("r7/1P6/8/8/6k1/8/8/4K3 w - - 0 30");
        let (_, end) = double(&pos, "b7b8q", "b8b5").unwrap();
        assert_eq!(captures(&end), ["a8xb8"]);
        let after = end.after(mv(&end, "a8xb8"));
        assert_eq!(after.piece_at(Square::parse("b5").unwrap()), None);
        // A pawn that takes on its last rank promotes, to any of the four pieces.
        let pos = fen("k7/8/8/8/8/2K5/6p1/7R w - - 0 20");
        let (_, end) = double(&pos, "h1f1", "f1f5").unwrap();
        assert_eq!(captures(&end), ["g2xf1q", "g2xf1r", "g2xf1b", "g2xf1n"]);
    }

    #[test]
    fn rule_5_the_capture_can_be_the_only_way_out_of_check() {
        // The rook's second half mates unless it is taken en passant.
        let pos = fen("6k1/5ppp/8/8/1p6/8/8/R3K3 w - - 0 20");
        let (_, end) = double(&pos, "a1a3", "a3a8").unwrap();
        assert!(end.is_check());
        let game = Game::from_position(end);
        assert!(game.outcome().is_none(), "b4xa3 is still a move");
        let (_, end) = double(&pos, "a1a4", "a4a8").unwrap();
        assert_eq!(
            Game::from_position(end).outcome().map(|o| o.reason),
            Some(EndReason::Checkmate)
        );
    }

    #[test]
    fn rule_7_consecutive_double_moves_until_the_tokens_are_spent() {
        let mut game = Game::from_position(fen("7k/8/8/8/8/8/8/R3K3 w - - 0 20"));
        let white = [
            ("a1a2", "a2a3"),
            ("a3a4", "a4a5"),
            ("a5a6", "a6a7"),
            ("a7b7", "b7c7"),
        ];
        let black = ["h8g8", "g8h8", "h8g8", "g8h8"];
        for (i, ((a, b), reply)) in white.iter().zip(black).enumerate() {
            let first = mv(game.position(), a);
            let second = mv(&game.position().first_half(first), b);
            game.play_double(first, second).unwrap();
            assert_eq!(game.position().tokens(), [3 - i as u8, 4]);
            let m = mv(game.position(), reply);
            game.play(m).unwrap();
        }
        let before = game.clone();
        let first = mv(game.position(), "c7c6");
        assert_eq!(
            game.position().double_move_refusal(first),
            Some(DoubleMoveError::NoTokens(4))
        );
        assert_eq!(
            game.play_double(first, first),
            Err(DoubleMoveError::NoTokens(4))
        );
        assert_eq!(game.moves(), before.moves());
        assert!(game.position().double_moves().is_empty());
    }

    #[test]
    fn a_refused_second_half_changes_nothing() {
        let mut game = Game::from_position(fen(OPEN));
        let first = mv(game.position(), "a1a2");
        let bogus = mv(game.position(), "e1e2");
        assert!(matches!(
            game.play_double(first, mv(game.position(), "a1a3")),
            Err(DoubleMoveError::SecondIllegal(_))
        ));
        // e1e2 is legal after a1a2, so this one is played.
        game.play_double(first, bogus).unwrap();
        assert_eq!(game.position().tokens(), [3, 4]);
    }

    #[test]
    fn counters_both_halves_count_and_a_double_move_is_one_move_number() {
        let pos = fen("r3k3/8/8/8/8/8/8/4K3 b - - 7 15");
        let (middle, end) = double(&pos, "a8a7", "a7a6").unwrap();
        assert_eq!((middle.halfmoves(), middle.fullmoves()), (8, 15));
        assert_eq!((end.halfmoves(), end.fullmoves()), (9, 16));
        assert_eq!(to_fen(&end), "4k3/8/r7/8/8/8/8/4K3 w - - 9 16 4+3");
    }

    #[test]
    fn stalemate_leaves_no_double_move() {
        let pos = fen("k7/8/1Q6/8/8/8/8/4K3 b - - 0 30");
        assert!(pos.legal_moves().is_empty());
        assert!(pos.double_moves().is_empty());
        assert_eq!(
            Game::from_position(pos).outcome().map(|o| o.reason),
            Some(EndReason::Stalemate)
        );
    }

    #[test]
    fn repetition_tells_apart_tokens_and_the_opening_of_double_moves() {
        let full = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 12");
        let spent = full.with_tokens([3, 4]).unwrap();
        assert_ne!(full.zobrist_hash(), spent.zobrist_hash());
        let early = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 8");
        assert_ne!(early.zobrist_hash(), full.zobrist_hash());
        assert_eq!(
            fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 30").zobrist_hash(),
            full.zobrist_hash()
        );
        let (middle, _) = double(&full, "a1a2", "a2a1").unwrap();
        assert_ne!(
            middle.zobrist_hash(),
            spent.after(mv(&spent, "a1a2")).zobrist_hash()
        );
    }

    /// Perft of standard chess from `text`, for composing Double Move Chess counts.
    fn standard(text: &str, depth: u32) -> u64 {
        crate::rules::perft(&parse_fen(Variant::STANDARD, text).unwrap(), depth)
    }

    /// The intermediate position after `first`, built by hand as a standard FEN: the
    /// position after the move with the side to move given back, no en-passant square, and
    /// the move number unchanged.
    fn intermediate_fen(pos: &Position, first: Move) -> String {
        let after = pos.after(first);
        let fen = to_fen(&after);
        let f: Vec<&str> = fen.split(' ').collect();
        let side = if pos.turn() == Color::White { "w" } else { "b" };
        format!("{} {side} {} - {} {}", f[0], f[2], f[4], pos.fullmoves())
    }

    #[test]
    fn perft_counts_single_and_double_moves_composed_from_standard_perft() {
        for (text, tokens) in [
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 9", [1, 1]),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
                [4, 4],
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 12",
                [2, 1],
            ),
        ] {
            let pos = fen(text).with_tokens(tokens).unwrap();
            let std6: Vec<&str> = text.split(' ').collect();
            let std_fen = std6.join(" ");
            let mut expected = standard(&std_fen, 1);
            for m in pos.legal_moves() {
                let quiet = m.capture.is_none() && !pos.after(m).is_check();
                if quiet {
                    expected += standard(&intermediate_fen(&pos, m), 1);
                }
            }
            assert_eq!(perft_turns(&pos, 1), expected, "{text}");
            let divided: u64 = divide_turns(&pos, 1).iter().map(|(_, n)| n).sum();
            assert_eq!(divided, expected);
            // Without tokens, or before move 9, the counts are standard chess's.
            let none = pos.with_tokens([0, 0]).unwrap();
            assert_eq!(perft_turns(&none, 3), standard(&std_fen, 3), "{text}");
        }
        // The start: no double moves for eight moves, so standard perft.
        let start = Position::start(Variant::DOUBLE_MOVE);
        assert_eq!(perft_turns(&start, 4), 197_281);
    }

    #[test]
    fn perft_by_hand_a_rook_and_king_against_a_king() {
        // White: Ke1, Ra1; Black: Ke8; move 9. Single moves: the rook's 10 (a2-a8,
        // b1-d1) and the king's 5: 15. With no token, 15.
        let none = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 9 0+4");
        assert_eq!(perft_turns(&none, 1), 15);
        // A double move may start with any of those but Ra8+ (14 first halves).
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 9 1+4");
        let firsts: std::collections::BTreeSet<String> =
            pos.double_moves().iter().map(|(a, _)| a.uci()).collect();
        assert_eq!(firsts.len(), 14);
        assert!(!firsts.contains("a1a8"));
    }
}
