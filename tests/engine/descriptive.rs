//! Property test of descriptive notation over random games: a small writer, independent
//! of the parser, writes every legal move in every descriptive form it knows (the bare
//! piece letters, qualifiers, `/square`, side-less and whole squares, `e.p.`), and the
//! parser reads each back as that move when no other legal move has the same form, and
//! as ambiguous, listing exactly the moves that share it, when others do.

use super::notation::random_game;
use postal::notation::fen::to_fen;
use postal::notation::{parse_move, MoveError};
use postal::rules::{CastlingSide, Color, Move, MoveKind, Position, Role, Square, Variant};
use proptest::prelude::*;
use std::collections::HashMap;

/// Writes moves of the side to move in descriptive notation.
struct Writer<'a> {
    pos: &'a Position,
    files: &'static [&'static str],
    height: u8,
}

impl Writer<'_> {
    fn new(pos: &Position) -> Writer<'_> {
        let cfg = pos.config();
        Writer {
            pos,
            files: cfg.descriptive_files,
            height: cfg.height,
        }
    }

    fn file(&self, sq: Square) -> &'static str {
        self.files[sq.file() as usize]
    }

    /// The rank number from the mover's side.
    fn rank(&self, sq: Square) -> u8 {
        match self.pos.turn() {
            Color::White => sq.rank() + 1,
            Color::Black => self.height - sq.rank(),
        }
    }

    fn square(&self, sq: Square) -> String {
        format!("{}{}", self.file(sq), self.rank(sq))
    }

    /// The whole square and, for a two-letter file, the side-less one (`KB3`, `B3`).
    fn squares(&self, sq: Square) -> Vec<String> {
        let mut out = vec![self.square(sq)];
        let f = self.file(sq);
        if f.len() == 2 {
            out.push(format!("{}{}", &f[1..], self.rank(sq)));
        }
        out
    }

    /// Every name of `owner`'s `role` standing on `sq`.
    fn names(&self, role: Role, sq: Square, owner: Color) -> Vec<String> {
        let letter = role.upper_char();
        let f = self.file(sq);
        let mut out = vec![letter.to_string(), format!("{letter}/{}", self.square(sq))];
        match role {
            Role::Pawn => {
                out.push(format!("{f}P"));
                if f.len() == 2 {
                    out.push(format!("{}P", &f[1..]));
                }
            }
            Role::Knight | Role::Rook => out.push(format!("{}{letter}", &f[..1])),
            Role::Bishop => {
                // KB: the bishop on the colour of the KB file's first-rank square.
                if let Some(kb) = self.files.iter().position(|n| *n == "KB") {
                    let home = if owner == Color::White {
                        0
                    } else {
                        self.height - 1
                    };
                    let light = (sq.file() + sq.rank()) % 2 == (kb as u8 + home) % 2;
                    out.push(if light { "KB" } else { "QB" }.to_string());
                }
            }
            _ => {}
        }
        out
    }

    /// Every descriptive form of `m`.
    fn forms(&self, m: &Move) -> Vec<String> {
        match m.kind {
            MoveKind::Drop => return Vec::new(),
            MoveKind::Castle(CastlingSide::KingSide) => return vec!["O-O".into()],
            MoveKind::Castle(CastlingSide::QueenSide) => return vec!["O-O-O".into()],
            _ => {}
        }
        let us = self.pos.turn();
        let targets: Vec<String> = match m.capture {
            None => self
                .squares(m.to)
                .into_iter()
                .map(|s| format!("-{s}"))
                .collect(),
            Some(role) => {
                let taken = if m.kind == MoveKind::EnPassant {
                    Square::new(m.to.file(), m.from.rank())
                } else {
                    m.to
                };
                let names = self.names(role, taken, us.opposite());
                names.into_iter().map(|s| format!("x{s}")).collect()
            }
        };
        let mut suffixes = vec![String::new()];
        if let Some(p) = m.promotion {
            suffixes = vec![format!("={}", p.upper_char())];
            if self.pos.config().promotion.len() == 1 {
                suffixes.push(String::new());
            }
        }
        let mut out = Vec::new();
        for mover in self.names(m.role, m.from, us) {
            for t in &targets {
                for s in &suffixes {
                    out.push(format!("{mover}{t}{s}"));
                    if m.kind == MoveKind::EnPassant {
                        out.push(format!("{mover}{t}{s} e.p."));
                    }
                }
            }
        }
        out
    }
}

/// Every form of every legal move reads back as the move, or as ambiguous among exactly
/// the moves that share it; the shortest unambiguous form, with ` ch` after a check, too.
fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    let w = Writer::new(pos);
    let legal = pos.legal_moves();
    let forms: Vec<Vec<String>> = legal.iter().map(|m| w.forms(m)).collect();
    let mut count: HashMap<&str, usize> = HashMap::new();
    for fs in &forms {
        let mut seen: Vec<&str> = fs.iter().map(String::as_str).collect();
        seen.sort_unstable();
        seen.dedup();
        for f in seen {
            *count.entry(f).or_default() += 1;
        }
    }
    for (m, fs) in legal.iter().zip(&forms) {
        if fs.is_empty() {
            continue;
        }
        let mut shortest: Option<&String> = None;
        for f in fs {
            let got = parse_move(pos, f);
            if count[f.as_str()] == 1 {
                prop_assert_eq!(&got, &Ok(*m), "{:?} in {}", f, to_fen(pos));
                if shortest.map_or(true, |s| f.len() < s.len()) {
                    shortest = Some(f);
                }
            } else {
                match &got {
                    Err(MoveError::Ambiguous { candidates }) => prop_assert_eq!(
                        candidates.len(),
                        count[f.as_str()],
                        "{:?} in {}: {:?}",
                        f,
                        to_fen(pos),
                        candidates
                    ),
                    other => prop_assert!(false, "{:?} in {}: {:?}", f, to_fen(pos), other),
                }
            }
        }
        let shortest = shortest.ok_or_else(|| {
            TestCaseError::fail(format!(
                "no unambiguous form of {} in {}",
                m.uci(),
                to_fen(pos)
            ))
        })?;
        if pos.after(*m).is_check() {
            let checked = format!("{shortest} ch");
            prop_assert_eq!(parse_move(pos, &checked), Ok(*m), "{:?}", checked);
        }
    }
    Ok(())
}

fn check_random_game(variant: Variant, seed: u64) -> Result<(), TestCaseError> {
    let game = random_game(variant, seed);
    let positions = game.positions();
    let skip = (seed % 5) as usize;
    for pos in positions.iter().skip(skip).step_by(5) {
        check_position(pos)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn standard_moves_written_in_descriptive_read_back(seed in any::<u64>()) {
        check_random_game(Variant::STANDARD, seed)?;
    }

    #[test]
    fn los_alamos_moves_written_in_descriptive_read_back(seed in any::<u64>()) {
        check_random_game(Variant::LOS_ALAMOS, seed)?;
    }

    #[test]
    fn chess_sharp_moves_written_in_descriptive_read_back(seed in any::<u64>()) {
        check_random_game(Variant::CHESS_SHARP, seed)?;
    }
}
