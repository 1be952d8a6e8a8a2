//! Lichess's published formulas for judging moves from an engine's evaluations, written
//! from lila's source (not copied):
//!
//! - winning chances from centipawns: `modules/analyse/src/main/WinPercent.scala`
//!   (`winningChances`, the multiplier -0.00368208 of lila pull request 11148, the
//!   evaluation capped at ±1000 centipawns, a mate counted as the cap);
//! - a move's accuracy from the drop in its mover's win percentage, and a game's
//!   accuracy as the mean of a volatility-weighted mean and a harmonic mean of its
//!   moves' accuracies: `modules/analyse/src/main/AccuracyPercent.scala`
//!   (`fromWinPercents`, `gameAccuracy`; the means and the standard deviation as
//!   lila's `Maths`: the population deviation, a harmonic mean that counts a value
//!   under 1 as 1);
//! - inaccuracies, mistakes and blunders by the drop in winning chances (0.1, 0.2,
//!   0.3), and the judgments of a mate found or lost: `modules/analyse/src/main/Advice.scala`.
//!
//! Every evaluation here is from White's side; every function is pure.

use super::Score;

/// The largest evaluation counted, in centipawns (lila's `Cp.CEILING`): a mate counts
/// as this with its sign.
pub const CP_CEILING: i32 = 1000;

/// The evaluation of the start position lila assumes before the first move
/// (`Cp.initial`).
pub const CP_INITIAL: i32 = 15;

/// An evaluation as centipawns within the ceiling, a mate as the ceiling with its sign.
pub fn ceiled_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        Score::Mate(n) if n > 0 => CP_CEILING,
        Score::Mate(_) => -CP_CEILING,
    }
}

/// White's winning chances from an evaluation in centipawns, in [-1, 1] (lila's
/// `winningChances`).
pub fn winning_chances(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-CP_CEILING, CP_CEILING));
    (2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// White's winning chances from a score, in [-1, 1]: a mate found is ±1 exactly.
pub fn score_chances(score: Score) -> f64 {
    match score {
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => -1.0,
        Score::Cp(cp) => winning_chances(cp),
    }
}

/// White's win percentage, in [0, 100] (lila's `WinPercent.fromCentiPawns`).
pub fn win_percent(cp: i32) -> f64 {
    50.0 + 50.0 * winning_chances(cp)
}

/// A move's accuracy in [0, 100] from its mover's win percentage before and after it
/// (lila's `AccuracyPercent.fromWinPercents`: a curve fitted to points chosen by hand,
/// plus one point for the engine's own imperfection).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// How bad a move was, by Lichess's thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgment {
    /// Lost at least 0.1 of the mover's winning chances (PGN `?!`).
    Inaccuracy,
    /// Lost at least 0.2 (PGN `?`).
    Mistake,
    /// Lost at least 0.3, or walked into a forced mate, or let one go (PGN `??`).
    Blunder,
}

impl Judgment {
    /// The PGN annotation (`?!`, `?`, `??`).
    pub fn glyph(self) -> &'static str {
        match self {
            Judgment::Inaccuracy => "?!",
            Judgment::Mistake => "?",
            Judgment::Blunder => "??",
        }
    }

    /// The word, in lower case.
    pub fn word(self) -> &'static str {
        match self {
            Judgment::Inaccuracy => "inaccuracy",
            Judgment::Mistake => "mistake",
            Judgment::Blunder => "blunder",
        }
    }
}

/// The judgment of a move by `white` (the mover's side) from the evaluation before it
/// to the one after it, both from White's side; `None`: a good enough move. A mate
/// against the mover appearing, or a mate for the mover going away, is judged by how
/// lost or won the other evaluation is (lila's `MateAdvice`); otherwise by the drop in
/// winning chances (lila's `CpAdvice`).
pub fn judge(white: bool, before: Score, after: Score) -> Option<Judgment> {
    let pov = |s: Score| if white { s } else { s.negated() };
    let (b, a) = (pov(before), pov(after));
    let mate_against = |s: Score| matches!(s, Score::Mate(n) if n < 0);
    let mate_for = |s: Score| matches!(s, Score::Mate(n) if n > 0);
    // Mate created: the mover now faces a forced mate it did not face before.
    if mate_against(a) && !mate_against(b) && !mate_for(b) {
        let prev = ceiled_cp(b);
        return Some(match prev {
            p if p < -999 => Judgment::Inaccuracy,
            p if p < -700 => Judgment::Mistake,
            _ => Judgment::Blunder,
        });
    }
    // Mate lost: the mover had a forced mate and has none now.
    if mate_for(b) && !mate_for(a) {
        let next = if mate_against(a) {
            -CP_CEILING
        } else {
            ceiled_cp(a)
        };
        return Some(match next {
            n if n > 999 => Judgment::Inaccuracy,
            n if n > 700 => Judgment::Mistake,
            _ => Judgment::Blunder,
        });
    }
    if matches!(b, Score::Mate(_)) || matches!(a, Score::Mate(_)) {
        return None;
    }
    let delta = winning_chances(ceiled_cp(b)) - winning_chances(ceiled_cp(a));
    match delta {
        d if d >= 0.3 => Some(Judgment::Blunder),
        d if d >= 0.2 => Some(Judgment::Mistake),
        d if d >= 0.1 => Some(Judgment::Inaccuracy),
        _ => None,
    }
}

/// The population standard deviation of `xs` (empty: 0).
fn standard_deviation(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// Each side's game accuracy, `[white, black]`, in [0, 100], from White's evaluations
/// in centipawns after each ply (`cps[i]` after ply `i + 1`), the game starting with
/// `white_first` to move; `None` for a side that made no move. Lila's `gameAccuracy`:
/// each move's accuracy weighted by the volatility (standard deviation, within [0.5,
/// 12]) of the win percentages in a window around it, and the weighted mean averaged
/// with the harmonic mean.
pub fn game_accuracy(white_first: bool, cps: &[i32]) -> [Option<f64>; 2] {
    let mut wins = vec![win_percent(CP_INITIAL)];
    wins.extend(cps.iter().map(|&cp| win_percent(cp)));
    let window = (cps.len() / 10).clamp(2, 8);
    let mut windows: Vec<&[f64]> = Vec::new();
    let lead = window.min(wins.len()).saturating_sub(2);
    for _ in 0..lead {
        windows.push(&wins[..window.min(wins.len())]);
    }
    windows.extend(wins.windows(window));
    let weights: Vec<f64> = windows
        .iter()
        .map(|w| standard_deviation(w).clamp(0.5, 12.0))
        .collect();
    // Per side: (accuracy, weight) of each of its moves.
    let mut moves: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, weight)) in wins.windows(2).zip(weights).enumerate() {
        let white = (i % 2 == 0) == white_first;
        let (before, after) = match white {
            true => (pair[0], pair[1]),
            false => (100.0 - pair[0], 100.0 - pair[1]),
        };
        moves[usize::from(!white)].push((move_accuracy(before, after), weight));
    }
    moves.map(|m| side_accuracy(&m))
}

/// The mean of the weighted mean and the harmonic mean of one side's moves.
fn side_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let total: f64 = moves.iter().map(|(_, w)| w).sum();
    let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>() / total;
    let harmonic = moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some(((weighted + harmonic) / 2.0).clamp(0.0, 100.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_chances_are_zero_at_equality_and_bounded_by_the_ceiling() {
        assert_eq!(winning_chances(0), 0.0);
        assert!((winning_chances(100) + winning_chances(-100)).abs() < 1e-12);
        // Lila's figures: +100 centipawns is about a 59% win percentage, +1000 about 97.5%.
        assert!(
            (win_percent(100) - 59.1).abs() < 0.1,
            "{}",
            win_percent(100)
        );
        assert!(
            (win_percent(1000) - 97.5).abs() < 0.1,
            "{}",
            win_percent(1000)
        );
        assert_eq!(winning_chances(5000), winning_chances(1000));
        assert_eq!(score_chances(Score::Mate(3)), 1.0);
        assert_eq!(score_chances(Score::Mate(-1)), -1.0);
    }

    #[test]
    fn a_move_that_keeps_the_win_percentage_is_perfect_and_a_large_drop_is_near_zero() {
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        assert_eq!(move_accuracy(50.0, 70.0), 100.0);
        // Lila's curve: 10 points lost is about 64.6%, 40 points about 15.9%.
        assert!((move_accuracy(60.0, 50.0) - 64.6).abs() < 0.1);
        assert!((move_accuracy(90.0, 50.0) - 15.9).abs() < 0.1);
        assert!(move_accuracy(100.0, 0.0) < 1.0);
    }

    #[test]
    fn judgments_follow_the_drop_in_winning_chances() {
        // From White's side: equal to -300 for White's move is a blunder (about 0.5).
        assert_eq!(
            judge(true, Score::Cp(0), Score::Cp(-300)),
            Some(Judgment::Blunder)
        );
        assert_eq!(
            judge(true, Score::Cp(0), Score::Cp(-120)),
            Some(Judgment::Mistake)
        );
        assert_eq!(
            judge(true, Score::Cp(0), Score::Cp(-60)),
            Some(Judgment::Inaccuracy)
        );
        assert_eq!(judge(true, Score::Cp(0), Score::Cp(-20)), None);
        // The same drop for Black is measured from Black's side.
        assert_eq!(
            judge(false, Score::Cp(0), Score::Cp(300)),
            Some(Judgment::Blunder)
        );
        assert_eq!(judge(false, Score::Cp(0), Score::Cp(-300)), None);
        // Walking into a mate from an equal position; letting a mate go.
        assert_eq!(
            judge(true, Score::Cp(0), Score::Mate(-1)),
            Some(Judgment::Blunder)
        );
        assert_eq!(
            judge(true, Score::Cp(-800), Score::Mate(-3)),
            Some(Judgment::Mistake)
        );
        assert_eq!(
            judge(true, Score::Mate(2), Score::Cp(1200)),
            Some(Judgment::Inaccuracy)
        );
        assert_eq!(
            judge(true, Score::Mate(2), Score::Cp(0)),
            Some(Judgment::Blunder)
        );
        assert_eq!(judge(true, Score::Mate(3), Score::Mate(2)), None);
    }

    #[test]
    fn game_accuracy_is_high_for_the_side_that_kept_its_chances() {
        // White keeps an equal game; Black drops a piece on move 5 and more later.
        let cps = [20, 25, 20, 30, 25, 330, 320, 600, 590, 600];
        let [w, b] = game_accuracy(true, &cps);
        let (w, b) = (w.unwrap(), b.unwrap());
        assert!((0.0..=100.0).contains(&w) && (0.0..=100.0).contains(&b));
        assert!(w > 90.0 && b < w, "white {w}, black {b}");
        // A side that made no move has no accuracy.
        assert_eq!(game_accuracy(true, &[20])[1], None);
        assert_eq!(game_accuracy(true, &[]), [None, None]);
    }
}
