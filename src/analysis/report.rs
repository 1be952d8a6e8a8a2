//! A game's analysis assembled from its positions' evaluations: accuracy, judgments,
//! the worst moves and the graph's points.

use super::accuracy::{ceiled_cp, game_accuracy, judge, score_chances, winning_chances};
use super::{Judgment, PositionEval, Score};

/// A move of the game, as the analysis needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Its UCI.
    pub uci: String,
    /// Its SAN.
    pub san: String,
}

/// One side's figures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Side {
    /// Its accuracy in [0, 100]; `None` for a side that made no move.
    pub accuracy: Option<f64>,
    /// Its inaccuracies.
    pub inaccuracies: usize,
    /// Its mistakes.
    pub mistakes: usize,
    /// Its blunders.
    pub blunders: usize,
}

/// One of the worst moves: which, how bad, and what the engine preferred.
#[derive(Clone, Debug, PartialEq)]
pub struct Worst {
    /// The ply, from 1.
    pub ply: usize,
    /// Whether White played it.
    pub white: bool,
    /// Its judgment.
    pub judgment: Judgment,
    /// The evaluation before and after it.
    pub before: Score,
    /// The evaluation after it.
    pub after: Score,
    /// The mover's winning chances lost, in [0, 2].
    pub lost: f64,
}

/// A finished game's analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// White's figures, then Black's.
    pub sides: [Side; 2],
    /// Each move's judgment, by ply from 1 (`judgments[0]` for ply 1).
    pub judgments: Vec<Option<Judgment>>,
    /// The worst moves, worst first, at most [`Report::WORST`].
    pub worst: Vec<Worst>,
    /// White's winning chances in [-1, 1] at each position, from the start (`chances[0]`)
    /// to the end.
    pub chances: Vec<f64>,
}

impl Report {
    /// How many of the worst moves a report names.
    pub const WORST: usize = 3;

    /// The analysis of a game whose first mover is White if `white_first`, from the
    /// evaluation of each position (`evals[0]` the start, `evals[i]` after ply `i`).
    pub fn new(white_first: bool, evals: &[PositionEval]) -> Report {
        let scores: Vec<Score> = evals.iter().map(|e| e.score).collect();
        let mut sides = [Side::default(), Side::default()];
        let mut judgments = Vec::new();
        let mut worst = Vec::new();
        for (i, pair) in scores.windows(2).enumerate() {
            let white = (i % 2 == 0) == white_first;
            let judgment = judge(white, pair[0], pair[1]);
            judgments.push(judgment);
            let Some(j) = judgment else { continue };
            let side = &mut sides[usize::from(!white)];
            match j {
                Judgment::Inaccuracy => side.inaccuracies += 1,
                Judgment::Mistake => side.mistakes += 1,
                Judgment::Blunder => side.blunders += 1,
            }
            let sign = if white { 1.0 } else { -1.0 };
            let lost = sign * (score_chances(pair[0]) - score_chances(pair[1]));
            worst.push(Worst {
                ply: i + 1,
                white,
                judgment: j,
                before: pair[0],
                after: pair[1],
                lost,
            });
        }
        worst.sort_by(|a, b| {
            b.judgment
                .cmp(&a.judgment)
                .then(b.lost.total_cmp(&a.lost))
                .then(a.ply.cmp(&b.ply))
        });
        worst.truncate(Report::WORST);
        let cps: Vec<i32> = scores.iter().skip(1).map(|&s| ceiled_cp(s)).collect();
        let accuracy = game_accuracy(white_first, &cps);
        for (side, a) in sides.iter_mut().zip(accuracy) {
            side.accuracy = a;
        }
        let chances = scores
            .iter()
            .map(|&s| match s {
                Score::Mate(_) => score_chances(s),
                Score::Cp(cp) => winning_chances(cp),
            })
            .collect();
        Report {
            sides,
            judgments,
            worst,
            chances,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(score: Score) -> PositionEval {
        PositionEval {
            score,
            line: Vec::new(),
        }
    }

    #[test]
    fn the_fools_mate_is_whites_blunder_and_the_chances_end_at_blacks_win() {
        // 1. f3 e5 2. g4?? Qh4#: the evaluations as an engine gives them.
        let evals = [
            Score::Cp(20),
            Score::Cp(-60),
            Score::Cp(-80),
            Score::Mate(-1),
            Score::Mate(-1),
        ]
        .map(eval);
        let r = Report::new(true, &evals);
        assert_eq!(r.judgments[2], Some(Judgment::Blunder));
        assert_eq!(r.sides[0].blunders, 1);
        assert_eq!(r.sides[1].blunders + r.sides[1].mistakes, 0);
        assert_eq!(r.worst[0].ply, 3);
        assert!(r.worst[0].white);
        assert_eq!(*r.chances.last().unwrap(), -1.0);
        assert!(r.sides[1].accuracy.unwrap() > r.sides[0].accuracy.unwrap());
    }
}
