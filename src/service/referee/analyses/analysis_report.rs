//! An engine analysis's report, made from the evaluations stored for a game: each
//! side's accuracy and counts of inaccuracies, mistakes and blunders, the worst moves
//! with the engine's better move and line in SAN, and the evaluation graph. Made the
//! same way when an analysis ends and when it is asked for again, so both say the same.

use super::parts::Analyses;
use super::Fail;
use crate::analysis::{Judgment, PositionEval, Report, Score};
use crate::render::graph::{EvalGraph, Mark};
use crate::store::{GameRow, StoredPosition};
use crate::variants::api::{EngineRecord, GameRules};

/// How many moves of the engine's line a report shows.
const LINE_MOVES: usize = 6;

/// A report: its text and its graph.
#[derive(Clone, Debug)]
pub(crate) struct Analysed {
    pub(crate) text: String,
    pub(crate) graph: EvalGraph,
}

/// The stored evaluations as the analysis reads them.
pub(crate) fn evals_of(stored: &[StoredPosition]) -> Vec<PositionEval> {
    stored
        .iter()
        .map(|p| {
            let value = p.value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            PositionEval {
                score: if p.mate {
                    Score::Mate(value)
                } else {
                    Score::Cp(value)
                },
                line: p.line.split_whitespace().map(str::to_string).collect(),
            }
        })
        .collect()
}

/// The move number of the move played from position `ply` (0, the start), and whether
/// White plays it, for a game starting at full move `first` with White to move if
/// `white_first`.
fn number_of(ply: usize, first: u32, white_first: bool) -> (u32, bool) {
    let from_white = ply + usize::from(!white_first);
    (
        first + (from_white / 2) as u32,
        (ply % 2 == 0) == white_first,
    )
}

/// `sans` played from position `ply`, numbered: `2. Nc3 Nf6 3. e4`, `2... Qh4#`.
fn numbered(sans: &[String], ply: usize, first: u32, white_first: bool) -> String {
    let mut out = Vec::new();
    for (i, san) in sans.iter().enumerate() {
        let (n, white) = number_of(ply + i, first, white_first);
        match (white, i) {
            (true, _) => out.push(format!("{n}. {san}")),
            (false, 0) => out.push(format!("{n}... {san}")),
            (false, _) => out.push(san.clone()),
        }
    }
    out.join(" ")
}

fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        _ => format!("{n} {many}"),
    }
}

/// The report's text.
fn report_text(
    g: &GameRow,
    rules: &dyn GameRules,
    record: &EngineRecord,
    evals: &[PositionEval],
    report: &Report,
    names: [String; 2],
    nodes: u64,
) -> String {
    let first: u32 = record
        .start_fen
        .split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let engine = crate::engines::engine_name(record.variant);
    let mut text = format!(
        "Analysis of game #{} by {engine} ({nodes} nodes a position, as Lichess judges moves):",
        g.id
    );
    if let Some(opening) = rules.opening() {
        text.push_str(&format!("\nOpening: {} ({})", opening.name, opening.eco));
    }
    for (i, (side, name)) in report.sides.iter().zip(names).enumerate() {
        let colour = if i == 0 { "White" } else { "Black" };
        let accuracy = side
            .accuracy
            .map_or("no move".to_string(), |a| format!("accuracy {a:.0}%"));
        text.push_str(&format!(
            "\n{colour} ({name}): {accuracy}, {}, {}, {}",
            count(side.inaccuracies, "inaccuracy", "inaccuracies"),
            count(side.mistakes, "mistake", "mistakes"),
            count(side.blunders, "blunder", "blunders"),
        ));
    }
    if report.worst.is_empty() {
        text.push_str("\nNo inaccuracy, mistake or blunder.");
        return text;
    }
    text.push_str("\nWorst moves:");
    for w in &report.worst {
        let played = record.moves.get(w.ply - 1).map(|(_, san)| san.clone());
        let played = numbered(
            &played.into_iter().collect::<Vec<_>>(),
            w.ply - 1,
            first,
            record.white_first,
        );
        let mut line = format!(
            "\n{played}{} {} ({} → {})",
            w.judgment.glyph(),
            w.judgment.word(),
            w.before.words(),
            w.after.words()
        );
        let best = &evals[w.ply - 1].line;
        let best_san = rules.line_san(w.ply - 1, &best[..best.len().min(LINE_MOVES)]);
        let same = best.first() == record.moves.get(w.ply - 1).map(|(u, _)| u);
        if let (Some(b), false) = (best_san.first(), same) {
            line.push_str(&format!(
                "; better {b}: {}",
                numbered(&best_san, w.ply - 1, first, record.white_first)
            ));
        }
        text.push_str(&line);
    }
    text
}

/// Game `rules`'s public record with its stored analysis, as Lichess writes one: each
/// move's assessment (`?!`, `?`, `??`) and the evaluation after it (`[%eval 0.35]`,
/// `[%eval #-2]`, from White's side; none after a position the rules decided); `None`
/// unless every position is evaluated.
pub fn analysed_pgn(
    rules: &dyn GameRules,
    tags: &[(String, String)],
    stored: &[StoredPosition],
) -> Option<String> {
    let record = rules.engine_record()?;
    if stored.len() != record.moves.len() + 1 {
        return None;
    }
    let evals = evals_of(stored);
    let report = Report::new(record.white_first, &evals);
    let last = record.moves.len();
    let decided = record.end != crate::variants::api::BoardEnd::Open;
    let after: Vec<(usize, String)> = (1..=last)
        .filter(|&ply| !(decided && ply == last))
        .map(|ply| (ply - 1, format!("[%eval {}]", evals[ply].score.pgn())))
        .collect();
    let glyphs: Vec<(usize, &str)> = report
        .judgments
        .iter()
        .enumerate()
        .filter_map(|(i, j)| j.map(|j| (i, j.glyph())))
        .collect();
    rules.pgn_analysed(tags, &after, &glyphs)
}

/// The graph of a report.
fn graph_of(report: &Report) -> EvalGraph {
    EvalGraph {
        chances: report.chances.clone(),
        marks: report
            .judgments
            .iter()
            .enumerate()
            .filter_map(|(i, j)| {
                let mark = match (*j)? {
                    Judgment::Inaccuracy => Mark::Inaccuracy,
                    Judgment::Mistake => Mark::Mistake,
                    Judgment::Blunder => Mark::Blunder,
                };
                Some((i + 1, mark))
            })
            .collect(),
    }
}

impl Analyses<'_> {
    /// Game `g`'s analysis report from its stored evaluations; `None` while they are not
    /// all stored.
    pub(crate) async fn analysis_report(&self, g: &GameRow) -> Result<Option<Analysed>, Fail> {
        let rules = self.whole(g).await?;
        let Some(record) = rules.engine_record() else {
            return Ok(None);
        };
        let stored = self.store.analysis_positions(g.id).await?;
        if stored.len() != record.moves.len() + 1 {
            return Ok(None);
        }
        let evals = evals_of(&stored);
        let report = Report::new(record.white_first, &evals);
        let names = self.seat_names(g);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let text = report_text(
            g,
            rules.as_ref(),
            &record,
            &evals,
            &report,
            rules.side_names(&names),
            self.engines.settings().nodes,
        );
        Ok(Some(Analysed {
            text,
            graph: graph_of(&report),
        }))
    }

    /// The graph of game `g`'s analysis, for its report delivered from the outbox.
    pub(crate) async fn analysis_graph(&self, g: &GameRow) -> Option<EvalGraph> {
        self.analysis_report(g)
            .await
            .ok()
            .flatten()
            .map(|a| a.graph)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_from_the_ply_they_start_at() {
        let sans = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            numbered(&sans("Nc3 Nf6 e4"), 2, 1, true),
            "2. Nc3 Nf6 3. e4"
        );
        assert_eq!(numbered(&sans("Qh4#"), 3, 1, true), "2... Qh4#");
        // A game whose first move is Black's, from move 40.
        assert_eq!(numbered(&sans("h3 Kg2"), 0, 40, false), "40... h3 41. Kg2");
    }
}
