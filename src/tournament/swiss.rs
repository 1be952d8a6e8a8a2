//! Swiss pairing by the main rules of FIDE's Dutch system (Handbook C.04.3), with the
//! simplifications docs/tournaments.md lists.
//!
//! Players are ranked by score, then by seed. The bye (odd fields) goes to the
//! lowest-ranked player of the lowest score group who has not had a bye nor a forfeit
//! win, among those whose absence leaves a field that can be paired. Then each score
//! bracket, from the top, is paired: its players (the group and the downfloaters from
//! above) are split into S1, the higher-ranked half, and S2; S1's players take partners
//! from S2 in the Dutch system's order of transpositions, then of exchanges between S1 and
//! S2; whoever is left over floats down to the next bracket. Among the candidates,
//! the first that pairs the most players of the bracket and then breaks the fewest
//! colour preferences is taken.
//!
//! Two rules are absolute. Nobody meets the same opponent twice, and no colour
//! allocation takes a player's colour difference beyond ±2 or gives anyone the same
//! colour three times in a row (the Dutch system's absolute colour preferences). Every
//! pair is fixed only once the players left are known to be pairable among themselves
//! under those rules (a maximum matching of the whole remaining field, [`super::matching`]),
//! so the pairing is always completed when a completion exists. When no pairing of the
//! field keeps the colour limits, they are given up (the result says so) and only the
//! rematch rule stays; when even that cannot be kept, pairing is refused.

use super::matching::Graph;
use super::record::{Outcome, Pairing, Player, Record, Side};
use super::score::Points;
use std::cmp::Reverse;

/// A Swiss round's pairings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissPairing {
    /// The boards, board 1 first (the highest scores first).
    pub pairings: Vec<Pairing>,
    /// Who has the pairing-allocated bye (worth a point), in an odd field.
    pub bye: Option<Player>,
    /// Whether the colour limits had to be given up because no pairing without a
    /// rematch kept them.
    pub colours_relaxed: bool,
}

/// Why a round could not be paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// A game of an earlier round has not ended.
    #[error("a game of round {0} has not ended")]
    RoundUnfinished(usize),
    /// Fewer than two players are still in.
    #[error("fewer than two players are left to pair")]
    TooFewPlayers,
    /// Every pairing of the field would repeat a game.
    #[error("every pairing of the players left would repeat a game")]
    NoPairing,
}

/// How strongly a player wants a colour (Dutch system A.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    /// Colour difference 0: alternate.
    Mild,
    /// Colour difference ±1: even it out.
    Strong,
    /// Colour difference beyond ±1, or the same colour twice running.
    Absolute,
}

/// A player as the pairing sees them.
#[derive(Clone, Debug)]
struct Entry {
    seed: Player,
    score: Points,
    /// The colour of each round, `None` for a round not played over the board.
    colours: Vec<Option<Side>>,
    /// Whites minus Blacks.
    difference: i32,
    preference: Option<Side>,
    strength: Strength,
    /// Whether the player may have the bye: no bye yet, no forfeit win.
    bye_eligible: bool,
}

impl Entry {
    /// Whether `colour` would take this player past the limits (difference beyond ±2,
    /// three in a row).
    fn forbids(&self, colour: Side) -> bool {
        let d = self.difference
            + match colour {
                Side::White => 1,
                Side::Black => -1,
            };
        let played: Vec<Side> = self.colours.iter().flatten().copied().collect();
        let three = played.len() >= 2 && played[played.len() - 2..].iter().all(|&c| c == colour);
        d.abs() > 2 || three
    }
}

fn entry(record: &Record, p: Player) -> Entry {
    let mut score = Points::ZERO;
    let mut colours = Vec::with_capacity(record.rounds.len());
    let mut bye_eligible = true;
    for round in &record.rounds {
        let mut colour = None;
        if round.bye == Some(p) {
            score += Points::ONE;
            bye_eligible = false;
        }
        if let Some(b) = round.board_of(p) {
            let side = b.pairing.side(p).expect("on the board");
            if let Some(o) = b.outcome {
                score += o.points(side);
                if o.played() {
                    colour = Some(side);
                }
                if let Outcome::Forfeit { winner } = o {
                    if winner == side {
                        bye_eligible = false;
                    }
                }
            }
        }
        colours.push(colour);
    }
    let played: Vec<Side> = colours.iter().flatten().copied().collect();
    let whites = played.iter().filter(|&&c| c == Side::White).count() as i32;
    let difference = 2 * whites - played.len() as i32;
    let last = played.last().copied();
    let twice = played.len() >= 2 && played[played.len() - 2] == played[played.len() - 1];
    let (preference, strength) = match last {
        None => (None, Strength::None),
        Some(_) if difference > 1 => (Some(Side::Black), Strength::Absolute),
        Some(_) if difference < -1 => (Some(Side::White), Strength::Absolute),
        Some(last) if twice => (Some(last.opposite()), Strength::Absolute),
        Some(_) if difference == 1 => (Some(Side::Black), Strength::Strong),
        Some(_) if difference == -1 => (Some(Side::White), Strength::Strong),
        Some(last) => (Some(last.opposite()), Strength::Mild),
    };
    Entry {
        seed: p,
        score,
        colours,
        difference,
        preference,
        strength,
        bye_eligible,
    }
}

/// The pairing of the next round of a Swiss tournament from its record: every earlier
/// game must have ended; withdrawn players are left out. Deterministic: the same record
/// always gives the same pairing.
pub fn pair(record: &Record) -> Result<SwissPairing, PairingError> {
    if let Some(r) = record.rounds.iter().position(|r| !r.is_complete()) {
        return Err(PairingError::RoundUnfinished(r));
    }
    let mut field: Vec<Entry> = record.active().iter().map(|&p| entry(record, p)).collect();
    if field.len() < 2 {
        return Err(PairingError::TooFewPlayers);
    }
    // Ranking: score, then seed.
    field.sort_by_key(|e| (Reverse(e.score), e.seed));
    let n = field.len();
    let met = |a: usize, b: usize| record.have_met(field[a].seed, field[b].seed);
    let strict = Graph::new(n, |a, b| {
        !met(a, b)
            && colour_options(&field[a], &field[b])
                .iter()
                .any(|o| o.is_some())
    });
    let loose = Graph::new(n, |a, b| !met(a, b));
    let Some((relaxed, bye, mut state)) = first_matching(&field, [&strict, &loose]) else {
        return Err(PairingError::NoPairing);
    };
    let order: Vec<usize> = (0..n).filter(|&k| Some(k) != bye).collect();
    let mut pairs = state.pair_by_score(&order);
    // Boards: the higher score of the two, then their sum, then the better rank.
    pairs.sort_by_key(|&(a, b)| {
        let (hi, lo) = (
            field[a].score.max(field[b].score),
            field[a].score.min(field[b].score),
        );
        (Reverse(hi), Reverse(hi + lo), a.min(b))
    });
    let pairings = pairs
        .iter()
        .map(|&(a, b)| allocate(&field[a.min(b)], &field[a.max(b)]))
        .collect();
    Ok(SwissPairing {
        pairings,
        bye: bye.map(|i| field[i].seed),
        colours_relaxed: relaxed,
    })
}

/// The bye and a first complete matching of `field` (by rank) in the first of `graphs`
/// (the colour rules kept, then relaxed) where one exists: the lowest-ranked eligible
/// player takes the bye first, anyone only if no eligible one will do (the one-bye rule
/// goes before the colour limits). `(relaxed, bye, the search's start)`.
fn first_matching<'a>(
    field: &'a [Entry],
    graphs: [&'a Graph; 2],
) -> Option<(bool, Option<usize>, Bracketing<'a>)> {
    let n = field.len();
    let all = vec![true; n];
    let start = |graph, alive, mate| Bracketing {
        field,
        graph,
        alive,
        mate,
        budget: SEARCH_BUDGET,
    };
    for eligible_only in [true, false] {
        for (graph, relaxed) in graphs.into_iter().zip([false, true]) {
            if n % 2 == 0 {
                if let Some(m) = graph.perfect_from_scratch(&all) {
                    return Some((relaxed, None, start(graph, all, m)));
                }
                continue;
            }
            for i in (0..n).rev() {
                if eligible_only && !field[i].bye_eligible {
                    continue;
                }
                let mut alive = all.clone();
                alive[i] = false;
                if let Some(m) = graph.perfect_from_scratch(&alive) {
                    return Some((relaxed, Some(i), start(graph, alive, m)));
                }
            }
        }
    }
    None
}

/// How many candidate pairs the ordered search may try in one round before the rest
/// of the round is paired greedily (still complete and rematch-free): enough for every
/// realistic field, a bound for pathological ones. Counted, not timed, so the pairing
/// stays deterministic.
const SEARCH_BUDGET: u32 = 20_000;

/// How many colour preferences a pass may break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// Nobody's preference is broken.
    Strict,
    /// Only mild preferences are broken.
    Mild,
    /// Any, within the absolute limits.
    Any,
}

struct Bracketing<'a> {
    field: &'a [Entry],
    graph: &'a Graph,
    alive: Vec<bool>,
    mate: Vec<usize>,
    budget: u32,
}

impl Bracketing<'_> {
    /// Pairs the players of `order` (by rank, the bye left out) bracket by bracket of
    /// equal score, those left over in one floating down into the next.
    fn pair_by_score(&mut self, order: &[usize]) -> Vec<(usize, usize)> {
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut floaters: Vec<usize> = Vec::new();
        let mut i = 0;
        while i < order.len() {
            let score = self.field[order[i]].score;
            let mut j = i;
            while j < order.len() && self.field[order[j]].score == score {
                j += 1;
            }
            let mut bracket = std::mem::take(&mut floaters);
            bracket.extend_from_slice(&order[i..j]);
            let (found, left) = self.pair_bracket(&bracket);
            pairs.extend(found);
            floaters = left;
            i = j;
        }
        debug_assert!(
            floaters.is_empty(),
            "the matching oracle leaves nobody over"
        );
        pairs
    }

    /// Pairs a bracket (players by rank); returns the pairs and who floats down.
    fn pair_bracket(&mut self, bracket: &[usize]) -> (Vec<(usize, usize)>, Vec<usize>) {
        let m = bracket.len();
        for p in (1..=m / 2).rev() {
            for pass in [Pass::Strict, Pass::Mild, Pass::Any] {
                for (s1, s2) in splits(bracket, p) {
                    let mut pairs = Vec::with_capacity(p);
                    let mut used = vec![false; s2.len()];
                    let (alive, mate) = (self.alive.clone(), self.mate.clone());
                    if self.search(&s1, &s2, 0, &mut used, pass, &mut pairs) {
                        let paired: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
                        let left = bracket
                            .iter()
                            .copied()
                            .filter(|x| !paired.contains(x))
                            .collect();
                        return (pairs, left);
                    }
                    (self.alive, self.mate) = (alive, mate);
                }
            }
        }
        self.greedy(bracket)
    }

    /// Gives `s1[i..]` partners from the unused players of `s2`, in order, each pair
    /// fixed only if the rest of the field stays pairable.
    fn search(
        &mut self,
        s1: &[usize],
        s2: &[usize],
        i: usize,
        used: &mut [bool],
        pass: Pass,
        pairs: &mut Vec<(usize, usize)>,
    ) -> bool {
        if i == s1.len() {
            return true;
        }
        let x = s1[i];
        for j in 0..s2.len() {
            if used[j] || self.budget == 0 {
                continue;
            }
            let y = s2[j];
            if !self.graph.joined(x, y) || !pass_allows(pass, &self.field[x], &self.field[y]) {
                continue;
            }
            self.budget -= 1;
            let Some((alive, mate)) = self.graph.without_pair(&self.alive, &self.mate, x, y) else {
                continue;
            };
            let saved = std::mem::replace(&mut self.alive, alive);
            let saved_mate = std::mem::replace(&mut self.mate, mate);
            used[j] = true;
            pairs.push((x, y));
            if self.search(s1, s2, i + 1, used, pass, pairs) {
                return true;
            }
            pairs.pop();
            used[j] = false;
            self.alive = saved;
            self.mate = saved_mate;
        }
        false
    }

    /// The fallback: each player of the bracket in rank order takes the first partner
    /// below them whose pairing keeps the rest of the field pairable.
    fn greedy(&mut self, bracket: &[usize]) -> (Vec<(usize, usize)>, Vec<usize>) {
        let mut pairs = Vec::new();
        let mut left = Vec::new();
        let mut done = vec![false; bracket.len()];
        for a in 0..bracket.len() {
            if done[a] {
                continue;
            }
            let x = bracket[a];
            let mut found = false;
            for b in a + 1..bracket.len() {
                let y = bracket[b];
                if done[b] || !self.graph.joined(x, y) {
                    continue;
                }
                if let Some((alive, mate)) = self.graph.without_pair(&self.alive, &self.mate, x, y)
                {
                    (self.alive, self.mate) = (alive, mate);
                    pairs.push((x, y));
                    (done[a], done[b], found) = (true, true, true);
                    break;
                }
            }
            if !found {
                left.push(x);
            }
        }
        (pairs, left)
    }
}

/// S1 (the `p` highest) and S2 (the rest) of a bracket, then the same after each single
/// exchange of an S1 player with an S2 player, in the Dutch system's order: the
/// exchanges closest to the border of S1 and S2 first (the lowest of S1 with the highest
/// of S2), each half kept in rank order.
fn splits(bracket: &[usize], p: usize) -> Vec<(Vec<usize>, Vec<usize>)> {
    let (s1, s2) = bracket.split_at(p);
    let mut out = vec![(s1.to_vec(), s2.to_vec())];
    let mut swaps: Vec<(usize, usize)> = (0..s1.len())
        .flat_map(|a| (0..s2.len()).map(move |b| (a, b)))
        .collect();
    swaps.sort_by_key(|&(a, b)| (a + b, a));
    for (a, b) in swaps {
        let (mut t1, mut t2) = (s1.to_vec(), s2.to_vec());
        std::mem::swap(&mut t1[s1.len() - 1 - a], &mut t2[b]);
        t1.sort_unstable();
        t2.sort_unstable();
        out.push((t1, t2));
    }
    out
}

/// Whether a pass accepts the pair's colours: two players who want the same colour
/// cannot both have it.
fn pass_allows(pass: Pass, a: &Entry, b: &Entry) -> bool {
    let clash = a.preference.is_some() && a.preference == b.preference;
    match pass {
        Pass::Strict => !clash,
        Pass::Mild => !clash || a.strength.min(b.strength) <= Strength::Mild,
        Pass::Any => true,
    }
}

/// The colours `a` may have against `b` within the limits: White for `a`, Black for
/// `a`, each `None` if it breaks a limit.
fn colour_options(a: &Entry, b: &Entry) -> [Option<Side>; 2] {
    let ok = |c: Side| !a.forbids(c) && !b.forbids(c.opposite());
    [
        ok(Side::White).then_some(Side::White),
        ok(Side::Black).then_some(Side::Black),
    ]
}

/// The colours of a pair, `hi` the higher-ranked (Dutch system E.1 to E.5): within the
/// limits, both preferences if they agree; else the stronger one (a larger difference
/// among absolute ones); else alternate from the last round the two had different
/// colours; else the higher-ranked player's preference; with no preference on either
/// side, the higher-ranked player has White if their seed is odd-numbered (1, 3, ...).
fn allocate(hi: &Entry, lo: &Entry) -> Pairing {
    let options: Vec<Side> = colour_options(hi, lo).into_iter().flatten().collect();
    let hi_colour = match options.as_slice() {
        [only] => *only,
        _ => preferred(hi, lo),
    };
    match hi_colour {
        Side::White => Pairing {
            white: hi.seed,
            black: lo.seed,
        },
        Side::Black => Pairing {
            white: lo.seed,
            black: hi.seed,
        },
    }
}

/// The colour of the higher-ranked player `hi` by preferences alone.
fn preferred(hi: &Entry, lo: &Entry) -> Side {
    match (hi.preference, lo.preference) {
        (Some(a), Some(b)) if a != b => a,
        (Some(a), None) => a,
        (None, Some(b)) => b.opposite(),
        (None, None) => {
            if hi.seed % 2 == 0 {
                Side::White
            } else {
                Side::Black
            }
        }
        (Some(a), Some(_)) => {
            if hi.strength != lo.strength {
                return if hi.strength > lo.strength {
                    a
                } else {
                    a.opposite()
                };
            }
            if hi.strength == Strength::Absolute && hi.difference.abs() != lo.difference.abs() {
                return if hi.difference.abs() > lo.difference.abs() {
                    a
                } else {
                    a.opposite()
                };
            }
            // The latest round both played with different colours.
            for (x, y) in hi.colours.iter().zip(&lo.colours).rev() {
                if let (Some(x), Some(y)) = (x, y) {
                    if x != y {
                        return x.opposite();
                    }
                }
            }
            a
        }
    }
}
