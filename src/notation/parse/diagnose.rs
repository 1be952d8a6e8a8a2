//! Explaining a refusal: why none of the readings is a legal move here, worked out from
//! the position, the most specific reason winning.

use super::descriptive::{Descriptive, Target};
use super::reading::{accepts, BoardReading, Reading};
use super::suggest::suggest;
use super::{parse_move, MoveError};
use crate::rules::attacks;
use crate::rules::{CastlingSide, Color, Move, MoveList, Position, Role, Square};

/// A reason found for one reading, with how specific it is.
enum Problem {
    NoPiece(String),
    Illegal(String),
}

type Finding = (u8, Problem);

/// Priorities: the more specific a reason, the higher.
mod prio {
    pub const OFF_BOARD: u8 = 10;
    pub const VARIANT: u8 = 9;
    pub const CHECK: u8 = 8;
    pub const KING_FIRST: u8 = 7;
    pub const RULE: u8 = 6;
    pub const PROMOTION: u8 = 5;
    pub const OWN_PIECE: u8 = 4;
    pub const NOTHING_TO_TAKE: u8 = 3;
    pub const FROM_SQUARE: u8 = 2;
    pub const NO_PIECE: u8 = 1;
}

fn illegal(p: u8, reason: impl Into<String>) -> Option<Finding> {
    Some((p, Problem::Illegal(reason.into())))
}

fn no_piece(p: u8, reason: impl Into<String>) -> Option<Finding> {
    Some((p, Problem::NoPiece(reason.into())))
}

/// The refusal of input none of whose `readings` is a legal move: the most specific
/// reason found, with suggestions of close legal moves.
pub(super) fn diagnose(pos: &Position, legal: &MoveList, readings: &[Reading]) -> MoveError {
    let mut best: Option<Finding> = None;
    for r in readings {
        if let Some(f) = diagnose_one(pos, legal, r) {
            if best.as_ref().map_or(true, |b| f.0 > b.0) {
                best = Some(f);
            }
        }
    }
    let suggestions = suggest(pos, legal, readings);
    match best {
        Some((_, Problem::NoPiece(reason))) => MoveError::NoSuchPiece {
            reason,
            suggestions,
        },
        Some((_, Problem::Illegal(reason))) => MoveError::Illegal {
            reason,
            suggestions,
        },
        None => MoveError::Illegal {
            reason: "that move is not possible here".into(),
            suggestions,
        },
    }
}

fn home_rank(pos: &Position, color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => pos.config().height - 1,
    }
}

/// Chess#: pieces on the board wait until the king has been placed.
pub(super) fn must_place_king_first(pos: &Position) -> bool {
    pos.config().drops.is_some_and(|d| d.king_before_moves) && pos.king_of(pos.turn()).is_none()
}

fn plural(role: Role) -> String {
    format!("{}s", role.name())
}

fn diagnose_one(pos: &Position, legal: &MoveList, reading: &Reading) -> Option<Finding> {
    match *reading {
        Reading::Castle(side) => diagnose_castle(pos, side),
        Reading::Drop { role, to } => diagnose_drop(pos, role, to),
        Reading::Board(b) => diagnose_board(pos, legal, &b),
        Reading::Descriptive(d) => diagnose_descriptive(pos, legal, &d),
    }
}

/// Why a descriptive reading is no legal move: the piece to take is not there, a capture
/// was written with `-`, the qualifier names another piece than the one that can move, or
/// else the reasons of a board move onto each square it may mean.
fn diagnose_descriptive(pos: &Position, legal: &MoveList, d: &Descriptive) -> Option<Finding> {
    let cfg = pos.config();
    let boards = d.expand(pos);
    if let Target::Capture(man) = d.target {
        if boards.is_empty() {
            return illegal(
                prio::NOTHING_TO_TAKE,
                format!(
                    "there is no {} {} there to capture",
                    pos.turn().opposite().name(),
                    man.role.name()
                ),
            );
        }
    }
    let onto = d.onto();
    if let Some(m) = legal.iter().find(|m| *d != onto && onto.matches(cfg, m)) {
        let taken = m.capture.map_or('P', |r| r.upper_char());
        return illegal(
            prio::RULE,
            format!(
                "that square holds a {}: a capture is written with x, like {}x{taken}",
                m.capture.map_or("piece", |r| r.name()),
                d.mover.role.upper_char()
            ),
        );
    }
    let any = d.any_mover();
    if *d != any && legal.iter().any(|m| any.matches(cfg, m)) {
        let role = d.mover.role.name();
        return illegal(
            prio::RULE,
            format!("the {role} you named cannot make that move, another {role} can"),
        );
    }
    boards
        .iter()
        .filter_map(|b| diagnose_board(pos, legal, b))
        .fold(None, |best: Option<Finding>, f| match best {
            Some(b) if b.0 >= f.0 => Some(b),
            _ => Some(f),
        })
}

fn off_board(pos: &Position, sq: Square) -> Option<Finding> {
    let cfg = pos.config();
    (!cfg.board_mask().contains(sq)).then(|| {
        (
            prio::OFF_BOARD,
            Problem::Illegal(format!(
                "there is no square {sq} on the {}x{} board",
                cfg.width, cfg.height
            )),
        )
    })
}

fn diagnose_castle(pos: &Position, side: CastlingSide) -> Option<Finding> {
    let cfg = pos.config();
    if !cfg.castling {
        return illegal(
            prio::VARIANT,
            format!("there is no castling in {}", pos.variant().display_name()),
        );
    }
    let why = |reason: &str| {
        illegal(
            prio::RULE,
            format!("castling is not allowed here: {reason}"),
        )
    };
    let us = pos.turn();
    let them = us.opposite();
    let rook = pos.castling_rook(us, side);
    let (Some(rook), Some(king)) = (rook, pos.king_of(us)) else {
        return why("your king or that rook has moved");
    };
    if pos.is_check() {
        return why("your king is in check");
    }
    let (king_to, rook_to) = pos.castle_targets(us, side);
    let occ = pos.occupied().without(king).without(rook);
    let path = attacks::between(king, king_to).with(king_to);
    let must_be_empty =
        path | attacks::between(king, rook) | attacks::between(rook, rook_to).with(rook_to);
    if (must_be_empty & occ).nonempty() {
        return why("the squares between your king and rook are not empty");
    }
    if path
        .into_iter()
        .any(|sq| pos.attackers_to(sq, them, occ).nonempty())
    {
        return why("your king would pass through or land on an attacked square");
    }
    why("the rules do not allow it in this position")
}

fn diagnose_drop(pos: &Position, role: Role, to: Square) -> Option<Finding> {
    let cfg = pos.config();
    let Some(rules) = cfg.drops else {
        return illegal(
            prio::VARIANT,
            format!(
                "there are no drops in {}: pieces are moved, not placed",
                pos.variant().display_name()
            ),
        );
    };
    if let Some(f) = off_board(pos, to) {
        return Some(f);
    }
    let us = pos.turn();
    let reserve = pos.reserve(us);
    if reserve[role.index()] == 0 {
        return illegal(prio::RULE, format!("you have no {role} in reserve"));
    }
    let home = home_rank(pos, us);
    if rules.first_rank_only && to.rank() != home {
        return illegal(prio::RULE, "pieces are placed only on your first rank");
    }
    if let Some(p) = pos.piece_at(to) {
        return illegal(
            prio::RULE,
            format!(
                "pieces are placed only on empty squares, and {to} holds a {}",
                p.role
            ),
        );
    }
    let others = Role::ALL
        .iter()
        .any(|r| *r != Role::Queen && reserve[r.index()] > 0);
    if rules.queen_last && role == Role::Queen && others {
        return illegal(
            prio::RULE,
            "the queen is placed last: place your other reserve pieces first",
        );
    }
    if role == Role::Pawn && (to.rank() == 0 || to.rank() == cfg.height - 1) {
        return illegal(
            prio::RULE,
            "pawns cannot be placed on the first or last rank",
        );
    }
    let attempt = Reading::Drop { role, to };
    pseudo_legal_reason(pos, &attempt)
        .or_else(|| illegal(prio::RULE, "that piece cannot be placed there now"))
}

/// For check variants: the move is possible but for the safety of the mover's king.
fn pseudo_legal_reason(pos: &Position, reading: &Reading) -> Option<Finding> {
    let cfg = pos.config();
    if !cfg.check_matters() {
        return None;
    }
    let m = pos
        .pseudo_legal_moves()
        .into_iter()
        .find(|m| reading.matches(cfg, m))?;
    let us = pos.turn();
    // Racing Kings: the move is safe for the mover's king but checks the other.
    if cfg.checks_forbidden {
        let after = pos.after(m);
        if !after.king_attacked(us) && after.is_check() {
            return illegal(
                prio::CHECK,
                "no move may give check in this variant, to either king",
            );
        }
    }
    let checkers = pos.checkers();
    if checkers.nonempty() && m.role != Role::King {
        if let Some(k) = pos.king_of(us) {
            let after = pos.after(m);
            let still = after.attackers_to(k, us.opposite(), after.occupied()) & checkers;
            if still.nonempty() {
                return illegal(prio::CHECK, "your king is in check");
            }
        }
    }
    illegal(prio::CHECK, "it would leave your king in check")
}

/// A promotion typed without its piece (`b6=`, `b5b6=`): said as such, with the pieces
/// the variant promotes to, instead of "couldn't read".
pub(super) fn missing_promotion(pos: &Position, text: &str) -> Option<MoveError> {
    let bare = text.trim_end().strip_suffix('=')?;
    if bare.is_empty() || bare.ends_with('=') {
        return None;
    }
    let cfg = pos.config();
    let names: Vec<&str> = cfg.promotion.iter().map(|r| r.name()).collect();
    let reason = match parse_move(pos, bare) {
        Ok(m) if m.promotion.is_none() => {
            "only a pawn reaching the last rank can promote".to_string()
        }
        Err(MoveError::Illegal { reason, .. }) if reason.contains("must promote") => format!(
            "a promotion names its piece after the =: one of {} ({bare}=Q)",
            names.join(", ")
        ),
        _ => return None,
    };
    Some(MoveError::Illegal {
        reason,
        suggestions: Vec::new(),
    })
}

/// Why a move read as a board move is not legal: the first finding of the checks below,
/// from the most to the least specific.
fn diagnose_board(pos: &Position, legal: &MoveList, b: &BoardReading) -> Option<Finding> {
    if let Some(f) = b.from().and_then(|f| off_board(pos, f)) {
        return Some(f);
    }
    if let Some(f) = off_board(pos, b.to).or_else(|| role_outside_variant(pos, b)) {
        return Some(f);
    }
    // The king's two-square step written as a move: explain it as castling.
    if let Some(side) = king_step_as_castling(pos, b) {
        return diagnose_castle(pos, side);
    }
    if let Some(f) = pseudo_legal_reason(pos, &Reading::Board(*b)) {
        return Some(f);
    }
    if must_place_king_first(pos) {
        return illegal(
            prio::KING_FIRST,
            "place your king before moving pieces on the board",
        );
    }
    if let Some(f) = double_step(pos, b)
        .or_else(|| promotion_problem(pos, legal, b))
        .or_else(|| target_problem(pos, b))
    {
        return Some(f);
    }
    match b.from() {
        Some(from) => from_square_problem(pos, b, from),
        None => no_piece_that_reaches(pos, b),
    }
}

/// A piece the variant does not have.
fn role_outside_variant(pos: &Position, b: &BoardReading) -> Option<Finding> {
    let role = b.role?;
    if pos.config().roles.contains(&role) {
        return None;
    }
    illegal(
        prio::VARIANT,
        format!(
            "there are no {} in {}",
            plural(role),
            pos.variant().display_name()
        ),
    )
}

/// The side of castling a king's two-square step from its home square stands for (in
/// Chess960, a step of two files or more from anywhere on its first rank to the g- or
/// c-file).
fn king_step_as_castling(pos: &Position, b: &BoardReading) -> Option<CastlingSide> {
    let from = b.from()?;
    let us = pos.turn();
    let home = home_rank(pos, us);
    let chess960 = pos.config().chess960_castling;
    // Chess960's king-takes-rook form (`e1h1`) onto a rook that keeps its right.
    if chess960
        && accepts(b.role, Role::King)
        && pos.king_of(us) == Some(from)
        && pos.castling_rights().contains(b.to)
        && b.to.rank() == from.rank()
    {
        return Some(if b.to.file() > from.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        });
    }
    let from_home = if chess960 {
        from.rank() == home && from.file().abs_diff(b.to.file()) >= 2
    } else {
        from == Square::new(4, home)
    };
    let castles = accepts(b.role, Role::King)
        && pos.king_of(us) == Some(from)
        && from_home
        && b.to.rank() == home
        && (b.to.file() == 6 || b.to.file() == 2);
    castles.then_some(if b.to.file() == 6 {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    })
}

/// A promotion missing, or one named where none may be, among the legal moves that fit.
fn promotion_problem(pos: &Position, legal: &MoveList, b: &BoardReading) -> Option<Finding> {
    let cfg = pos.config();
    let fitting: Vec<&Move> = legal.iter().filter(|m| b.fits(m)).collect();
    if fitting.is_empty() {
        return None;
    }
    if fitting.iter().any(|m| m.promotion.is_some()) {
        if b.promotion.is_some() {
            let names: Vec<&str> = cfg.promotion.iter().map(|r| r.name()).collect();
            return illegal(
                prio::PROMOTION,
                format!("promote to one of: {}", names.join(", ")),
            );
        }
        let best = cfg.promotion.first().copied().unwrap_or(Role::Queen);
        return illegal(
            prio::PROMOTION,
            format!(
                "a pawn reaching the last rank must promote ({}={})",
                b.to,
                best.upper_char()
            ),
        );
    }
    if b.promotion.is_some() {
        return illegal(
            prio::PROMOTION,
            "only a pawn reaching the last rank can promote",
        );
    }
    None
}

/// The target square holding one's own piece, or nothing to capture on it.
fn target_problem(pos: &Position, b: &BoardReading) -> Option<Finding> {
    if let Some(p) = pos.piece_at(b.to) {
        if p.color == pos.turn() {
            return illegal(
                prio::OWN_PIECE,
                format!("your own {} stands on {}", p.role, b.to),
            );
        }
    }
    if (b.pawn_file_only || b.capture_marked)
        && pos.piece_at(b.to).is_none()
        && pos.ep_square() != Some(b.to)
    {
        return illegal(
            prio::NOTHING_TO_TAKE,
            format!("there is nothing to capture on {}", b.to),
        );
    }
    None
}

/// What is wrong with the square a move names to start from.
fn from_square_problem(pos: &Position, b: &BoardReading, from: Square) -> Option<Finding> {
    match pos.piece_at(from) {
        Some(p) if p.color == pos.turn() => match b.role {
            Some(role) if role != p.role => no_piece(
                prio::FROM_SQUARE,
                format!("your piece on {from} is a {}, not a {role}", p.role),
            ),
            _ => illegal(
                prio::FROM_SQUARE,
                format!("your {} on {from} cannot move to {}", p.role, b.to),
            ),
        },
        _ => no_piece(
            prio::FROM_SQUARE,
            format!("there is no piece of yours on {from}"),
        ),
    }
}

/// No piece of the kind named (on the file or rank named) at all, or none that reaches
/// the target.
fn no_piece_that_reaches(pos: &Position, b: &BoardReading) -> Option<Finding> {
    let role = b.role.unwrap_or(Role::Pawn);
    let mut place = String::new();
    if let Some(f) = b.from_file {
        place = format!(" on the {}-file", (b'a' + f) as char);
    } else if let Some(r) = b.from_rank {
        place = format!(" on rank {}", r + 1);
    }
    let have = pos
        .pieces(pos.turn(), role)
        .filter(|sq| accepts(b.from_file, sq.file()))
        .filter(|sq| accepts(b.from_rank, sq.rank()))
        .count();
    if have == 0 {
        no_piece(prio::NO_PIECE, format!("you have no {role}{place}"))
    } else {
        no_piece(
            prio::NO_PIECE,
            format!("you have no {role}{place} that can reach {}", b.to),
        )
    }
}

/// A pawn's two-square step in a variant without it.
fn double_step(pos: &Position, b: &BoardReading) -> Option<Finding> {
    let cfg = pos.config();
    if cfg.double_step || b.pawn_file_only || b.role.is_some_and(|r| r != Role::Pawn) {
        return None;
    }
    let us = pos.turn();
    let (start, from_rank) = match us {
        Color::White => (1, b.to.rank().checked_sub(2)?),
        Color::Black => (cfg.height - 2, b.to.rank() + 2),
    };
    if from_rank != start {
        return None;
    }
    let from = Square::new(b.to.file(), from_rank);
    let fits = accepts(b.from_file, from.file())
        && accepts(b.from_rank, from.rank())
        && pos.pieces(us, Role::Pawn).contains(from);
    fits.then(|| {
        (
            prio::RULE,
            Problem::Illegal(format!(
                "pawns move one square only in {}",
                pos.variant().display_name()
            )),
        )
    })
}
