//! Why a part of a Booster Chess turn is refused, in words that name the rule that
//! applies (`docs/rules/booster.md`): a castling (rule 12), a booster step (rules 4.2
//! and 14), and a line refused after some of its parts would have been played.

use super::castling::CastlingBar;
use super::position::{far_rank, home_rank, Step};
use super::record::plural;
use super::state::{Booster, Part};
use crate::notation::read_among;
use crate::rules::{CastlingSide, Move, MoveKind, Role, Square, Variant};
use crate::variants::api::RuleError;

impl Booster {
    /// The words for the piece on `sq` with its stack: `the boosted black knight on h4`.
    fn piece_words(&self, sq: Square) -> String {
        let pos = self.position();
        let Some(p) = pos.piece(sq) else {
            return format!("the empty square {sq}");
        };
        let state = if pos.boost(sq) > 0 {
            "boosted "
        } else if pos.hobbled(sq) {
            "hobbled "
        } else {
            ""
        };
        format!(
            "the {state}{} {} on {sq}",
            p.color.name().to_lowercase(),
            p.role.name()
        )
    }

    /// The checkers under the piece on `sq`, with what they do: `1 white checker
    /// (boosted)`.
    fn stack_words(&self, sq: Square) -> String {
        let pos = self.position();
        let s = pos.stack(sq);
        let colour = if s > 0 { "white" } else { "black" };
        format!(
            "{} ({})",
            plural(s.unsigned_abs() as usize, &format!("{colour} checker")),
            if pos.hobbled(sq) {
                "hobbled"
            } else {
                "boosted"
            }
        )
    }

    /// Why the mover may not castle as `text` asks, when `text` names a castling (`O-O`,
    /// `0-0-0`, `e1g1`, `Kg1` from e1) that is not among the moves: the first reason of
    /// rule 12 that applies.
    pub(super) fn why_no_castling(&self, text: &str) -> Option<String> {
        let pos = self.position();
        let us = self.turn();
        let rank = home_rank(us);
        let home = Square::new(4, rank);
        let from = pos.king(us)?;
        let castlings: Vec<Move> = [(CastlingSide::KingSide, 6), (CastlingSide::QueenSide, 2)]
            .into_iter()
            .map(|(side, file)| Move {
                from: home,
                to: Square::new(file, rank),
                role: Role::King,
                capture: None,
                promotion: None,
                kind: MoveKind::Castle(side),
            })
            .collect();
        let fits = read_among(Variant::STANDARD.config(), us, &castlings, text).ok()?;
        let [m] = fits.as_slice() else { return None };
        let MoveKind::Castle(side) = m.kind else {
            return None;
        };
        let name = match side {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        };
        let them = us.opposite();
        let by = |sq: Square| {
            pos.attackers(sq, them)
                .into_iter()
                .map(|a| self.piece_words(a))
                .collect::<Vec<_>>()
                .join(" and ")
        };
        let why = match pos.castling_bar(us, from, side)? {
            CastlingBar::KingAway => format!("your king is not on {home}"),
            CastlingBar::NoRight(rook) => {
                format!("your king or the rook of {rook} has moved, so that castling is gone")
            }
            CastlingBar::KingStacked => format!(
                "your king stands on {}: a king on any checker never castles",
                self.stack_words(from)
            ),
            CastlingBar::NoRook(rook) => format!("there is no rook of yours on {rook}"),
            CastlingBar::RookStacked(rook) => format!(
                "the rook on {rook} stands on {}: a rook on any checker never castles",
                self.stack_words(rook)
            ),
            CastlingBar::Blocked(sq) => {
                format!("{sq} is not empty: every square between the king and the rook must be")
            }
            CastlingBar::InCheck => format!(
                "your king is in check from {} (booster reach counts): no castling out of check",
                by(from)
            ),
            CastlingBar::Attacked(sq) => format!(
                "the king would {} {sq}, which {} attacks (booster reach counts)",
                if sq.file() == m.to.file() {
                    "land on"
                } else {
                    "cross"
                },
                by(sq)
            ),
        };
        Some(format!("you may not castle {name}: {why}"))
    }

    /// Why the piece on `at` may not take `step`, and the step that was likely meant
    /// when only its promotion is missing.
    pub(super) fn why_no_step(&self, at: Square, step: Step) -> (String, Option<String>) {
        let pos = self.position();
        let Some(p) = pos.piece(at) else {
            return ("there is no piece to step".into(), None);
        };
        let to = step.to;
        if super::position::distance(at, to) != 1 {
            return (
                format!("a booster step goes to a square next to {at}; {to} is not"),
                None,
            );
        }
        if pos.piece(to).is_some_and(|q| q.color == p.color) {
            return (format!("{to} holds one of your own pieces"), None);
        }
        if pos.piece(to).is_some_and(|q| q.role == Role::King) {
            return (
                format!("a booster step never captures the king on {to}"),
                None,
            );
        }
        if p.role == Role::Pawn && to.rank() == far_rank(p.color) && step.promotion.is_none() {
            return (
                format!("the pawn promotes on {to}: say to which piece, like {to}=Q"),
                Some(format!("{to}=Q")),
            );
        }
        if step.promotion.is_some() && (p.role != Role::Pawn || to.rank() != far_rank(p.color)) {
            return (
                format!("only a pawn stepping onto its last rank promotes; write just {to}"),
                Some(to.to_string()),
            );
        }
        (
            format!("stepping to {to} would leave your king attacked (booster reach counts)"),
            None,
        )
    }

    /// Why no booster step may be taken now, after the move: the piece has spent its
    /// checkers, has no step it may take, was not boosted as it began to move, or castled.
    pub(super) fn why_no_more_steps(&self) -> String {
        let pos = self.position();
        let Some((_, at)) = self.last else {
            return "first move a piece; booster steps come right after a boosted piece's move"
                .into();
        };
        let taken = self.record.last().map_or(0, |r| r.steps.len());
        let piece = self.piece_words(at);
        let role = pos.piece(at).map_or("piece", |p| p.role.name());
        if taken > 0 && pos.boost(at) == 0 {
            return format!(
                "the {role} on {at} has spent its checkers: it took {}, one checker each, and a piece steps only while it stands on its own checkers",
                plural(taken, "step")
            );
        }
        if self.record.last().is_some_and(|r| r.san.starts_with("O-O")) {
            return "a castling is never followed by booster steps".into();
        }
        if pos.boost(at) == 0 {
            return format!(
                "{piece} stands on none of your checkers: only a piece boosted as it began to move may step after it"
            );
        }
        if taken == 0 && !pos.legal_steps(at).is_empty() {
            return format!(
                "the {role} on {at} was not boosted as it began to move (its capture boosted it): it may step after its next move"
            );
        }
        format!(
            "the {role} on {at} has no step it may take: every square next to it holds one of your pieces or the enemy king, or would leave your king attacked"
        )
    }

    /// A refusal of the part `failed` of a line of `parts` after the parts before it
    /// would have been played: nothing of the line is played (a refused line changes
    /// nothing), so the reason says so and asks for the whole line again, with the
    /// corrected part `fix` in an example when the reason has one.
    pub(super) fn line_dropped(
        &self,
        e: RuleError,
        parts: &[Part],
        failed: usize,
        fix: Option<Part>,
    ) -> RuleError {
        if failed == 0 {
            return e;
        }
        let mut again = match fix {
            Some(fix) => {
                let mut line = parts.to_vec();
                line[failed] = fix;
                format!(
                    ": send it again whole, like `{}`",
                    self.typed(&line).chars().take(80).collect::<String>()
                )
            }
            None => ": send it again whole, corrected".into(),
        };
        again.insert_str(0, ". Nothing of that line was played");
        RuleError {
            text: format!("{}{again}", e.text),
            ..e
        }
    }

    /// A line of parts as a player types it: `g7 boost f8=Q card 6h on f8 done`, the move
    /// in SAN as this turn's record has it.
    fn typed(&self, parts: &[Part]) -> String {
        let mut out: Vec<String> = Vec::new();
        let mut stepping = false;
        for part in parts {
            let word = match part {
                Part::Move(_) => self.record.last().map_or(String::new(), |r| r.san.clone()),
                Part::Step(s) if stepping => s.clone(),
                Part::Step(s) => format!("boost {s}"),
                Part::Card { card, on } => format!("card {} on {on}", card.code()),
                Part::Done => "done".into(),
            };
            stepping = matches!(part, Part::Step(_));
            out.push(word);
        }
        out.join(" ")
    }
}
