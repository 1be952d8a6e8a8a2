//! A best-score competition for a one-seat variant (the solitaires): every entrant plays
//! the same deals, and the standings compare their attempts.
//!
//! A solitaire attempt is won with a score (Parade and Neighbour: the cards left, less
//! the negative points once the hand ran out, so a won score may be below zero) or lost
//! with none. A lost attempt is worse than any won one, so entrants are ranked by deals
//! won first, then by the total of their won scores, then by their best single deal;
//! entrants equal on all three share a place. Attempts still being played count for
//! nothing yet.

use super::record::Player;

/// One entrant's attempt at one deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealResult {
    /// Won, with its score.
    Won(i32),
    /// Lost (ran out, stuck, resigned, timed out, abandoned once shown): no score.
    Lost,
    /// Not finished (or not started) yet.
    Pending,
}

/// One entrant's line of a best-score competition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolitaireStanding {
    /// The entrant.
    pub player: Player,
    /// Their place, from 1 (shared by entrants equal in won deals, total and best).
    pub rank: usize,
    /// Deals won.
    pub won: usize,
    /// Deals finished, won or lost.
    pub finished: usize,
    /// The sum of the won deals' scores.
    pub total: i64,
    /// The best won deal's score.
    pub best: Option<i32>,
}

/// The standings of a competition: `results[p][d]` is entrant `p`'s attempt at deal `d`
/// (every entrant gets the same deals). Best first.
pub fn solitaire_standings(results: &[Vec<DealResult>]) -> Vec<SolitaireStanding> {
    let mut out: Vec<SolitaireStanding> = results
        .iter()
        .enumerate()
        .map(|(player, deals)| {
            let scores: Vec<i32> = deals
                .iter()
                .filter_map(|d| match d {
                    DealResult::Won(s) => Some(*s),
                    _ => None,
                })
                .collect();
            SolitaireStanding {
                player,
                rank: 0,
                won: scores.len(),
                finished: deals
                    .iter()
                    .filter(|d| !matches!(d, DealResult::Pending))
                    .count(),
                total: scores.iter().map(|&s| s as i64).sum(),
                best: scores.iter().copied().max(),
            }
        })
        .collect();
    let key = |s: &SolitaireStanding| (s.won, s.total, s.best);
    out.sort_by(|a, b| key(b).cmp(&key(a)).then(a.player.cmp(&b.player)));
    for i in 0..out.len() {
        out[i].rank = if i > 0 && key(&out[i]) == key(&out[i - 1]) {
            out[i - 1].rank
        } else {
            i + 1
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use DealResult::*;

    #[test]
    fn three_entrants_on_the_same_deals_rank_by_wins_then_total() {
        let results = vec![
            // Two wins, 5 + (-3) = 2.
            vec![Won(5), Won(-3), Lost],
            // Two wins, 4 + 1 = 5: ahead of the first on total.
            vec![Won(4), Lost, Won(1)],
            // One win, the best single score, but fewer wins: last.
            vec![Lost, Won(9), Pending],
        ];
        let s = solitaire_standings(&results);
        let order: Vec<(Player, usize, i64)> =
            s.iter().map(|x| (x.player, x.rank, x.total)).collect();
        assert_eq!(order, vec![(1, 1, 5), (0, 2, 2), (2, 3, 9)]);
        assert_eq!((s[2].won, s[2].finished, s[2].best), (1, 2, Some(9)));
    }

    #[test]
    fn entrants_equal_on_everything_share_a_place() {
        let results = vec![
            vec![Won(3), Lost],
            vec![Lost, Won(3)],
            vec![Pending, Pending],
        ];
        let s = solitaire_standings(&results);
        assert_eq!(
            s.iter().map(|x| (x.player, x.rank)).collect::<Vec<_>>(),
            vec![(0, 1), (1, 1), (2, 3)]
        );
        assert_eq!(s[2].best, None);
    }
}
