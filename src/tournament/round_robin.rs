//! Round robin schedules by the Berger tables FIDE publishes (Handbook C.05, Annex 1).
//!
//! With an even number of players `n` (an odd field adds a dummy player `n + 1`, and
//! whoever meets the dummy has the round off), in round `r` (from 1) player `n` meets
//! player `a = 1 + ((r - 1) * n/2 mod (n - 1))`, with Black in odd rounds and White in
//! even ones; the other boards pair `a + k` (White) with `a - k` (Black) for
//! `k = 1 .. n/2 - 1`, the numbers taken in `1 .. n - 1` modulo `n - 1`. This is the
//! circle method, and reproduces FIDE's tables board for board: for six players, round 1
//! is 1-6, 2-5, 3-4, round 2 is 6-4, 5-3, 1-2. Every player has at most two games in a
//! row with the same colour and ends with n/2 or n/2 - 1 Whites.
//!
//! A double round robin plays the cycle twice, the second time with colours reversed;
//! as FIDE recommends, the first cycle's last two rounds are played in the opposite
//! order, so that nobody has the same colour three times in a row across the cycles.

use super::record::{Pairing, Player};

/// One round of a schedule: its boards and who has the round off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledRound {
    /// The boards, board 1 first.
    pub pairings: Vec<Pairing>,
    /// Who meets the dummy player (odd fields only).
    pub bye: Option<Player>,
}

/// The Berger table of `players` entrants (seeds `0..players`): `players - 1` rounds for
/// an even field, `players` for an odd one, and twice as many when `double`.
pub fn schedule(players: usize, double: bool) -> Vec<ScheduledRound> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let cycle: Vec<Vec<(usize, usize)>> = (1..n).map(|r| berger_round(n, r)).collect();
    let mut order: Vec<usize> = (0..cycle.len()).collect();
    if double && order.len() >= 2 {
        let last = order.len() - 1;
        order.swap(last - 1, last);
    }
    let mut rounds: Vec<ScheduledRound> = order
        .iter()
        .map(|&i| to_round(&cycle[i], players, false))
        .collect();
    if double {
        rounds.extend(cycle.iter().map(|r| to_round(r, players, true)));
    }
    rounds
}

/// Round `r` (from 1) of the Berger table of an even `n`, as 1-based (white, black).
fn berger_round(n: usize, r: usize) -> Vec<(usize, usize)> {
    let m = n - 1;
    // Numbers 1..=m, taken modulo m.
    let wrap = |x: usize| (x + m - 1) % m + 1;
    let a = 1 + ((r - 1) * (n / 2)) % m;
    let mut boards = Vec::with_capacity(n / 2);
    boards.push(if r % 2 == 1 { (a, n) } else { (n, a) });
    for k in 1..n / 2 {
        boards.push((wrap(a + k), wrap(a + m - k)));
    }
    boards
}

fn to_round(boards: &[(usize, usize)], players: usize, reversed: bool) -> ScheduledRound {
    let mut pairings = Vec::with_capacity(boards.len());
    let mut bye = None;
    for &(w, b) in boards {
        let (w, b) = if reversed { (b, w) } else { (w, b) };
        if w > players {
            bye = Some(b - 1);
        } else if b > players {
            bye = Some(w - 1);
        } else {
            pairings.push(Pairing {
                white: w - 1,
                black: b - 1,
            });
        }
    }
    ScheduledRound { pairings, bye }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(players: usize) -> Vec<Vec<(usize, usize)>> {
        schedule(players, false)
            .iter()
            .map(|r| {
                r.pairings
                    .iter()
                    .map(|p| (p.white + 1, p.black + 1))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn six_players_follow_fides_berger_table() {
        // FIDE Handbook C.05 Annex 1, 5 or 6 players.
        assert_eq!(
            table(6),
            vec![
                vec![(1, 6), (2, 5), (3, 4)],
                vec![(6, 4), (5, 3), (1, 2)],
                vec![(2, 6), (3, 1), (4, 5)],
                vec![(6, 5), (1, 4), (2, 3)],
                vec![(3, 6), (4, 2), (5, 1)],
            ]
        );
    }

    #[test]
    fn four_and_eight_players_follow_fides_berger_tables() {
        assert_eq!(
            table(4),
            vec![
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)],
            ]
        );
        // 7 or 8 players, rounds 1, 2 and 7.
        let t = table(8);
        assert_eq!(t[0], vec![(1, 8), (2, 7), (3, 6), (4, 5)]);
        assert_eq!(t[1], vec![(8, 5), (6, 4), (7, 3), (1, 2)]);
        assert_eq!(t[6], vec![(4, 8), (5, 3), (6, 2), (7, 1)]);
    }

    #[test]
    fn an_odd_field_gives_whoever_meets_the_dummy_the_round_off() {
        let s = schedule(5, false);
        assert_eq!(s.len(), 5);
        let byes: Vec<Player> = s.iter().map(|r| r.bye.unwrap()).collect();
        // Player 6 is the dummy: its opponents 1, 4, 2, 5, 3 have the round off.
        assert_eq!(byes, vec![0, 3, 1, 4, 2]);
        assert!(s.iter().all(|r| r.pairings.len() == 2));
    }

    #[test]
    fn a_double_round_robin_swaps_the_first_cycles_last_rounds_and_reverses_colours() {
        let s = schedule(4, true);
        assert_eq!(s.len(), 6);
        let first = schedule(4, false);
        assert_eq!(s[1], first[2]);
        assert_eq!(s[2], first[1]);
        for (a, b) in s[3..].iter().zip(&first) {
            let flipped: Vec<Pairing> = b
                .pairings
                .iter()
                .map(|p| Pairing {
                    white: p.black,
                    black: p.white,
                })
                .collect();
            assert_eq!(a.pairings, flipped);
        }
        assert!(schedule(1, true).is_empty());
    }
}
