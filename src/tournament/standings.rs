//! Standings: points, tie-breaks and the crosstable, from a tournament's record.
//!
//! Points are each game's share of a game score of 1 ([`super::score`]); a Swiss bye is
//! worth a point (FIDE's pairing-allocated bye), a forfeit win a point, a round robin's
//! round off (meeting the dummy player of an odd field) nothing.
//!
//! Tie-breaks, in FIDE's 2023 definitions (Handbook C.07, articles 7 and 8):
//! - **Sonneborn-Berger** (round robin): the sum, over the games, of the opponent's
//!   points times the points scored against them.
//! - **Buchholz** (Swiss): the sum of the opponents' points.
//! - **Median Buchholz** (Swiss): the Buchholz without the highest and the lowest
//!   opponent (when there are at least three).
//!
//! A round not played over the board (a bye, a forfeit won or lost, a round missed after
//! withdrawing) counts, for the player's own tie-breaks, as a game against themself: an
//! opponent with the player's own final points, and whatever the player scored that
//! round (a "virtual opponent" that neither rewards nor punishes the unplayed round,
//! after FIDE's 2023 rule for unplayed rounds, simplified to one rule for every case). A
//! round robin's round off is not a round of the player's at all, since every player of
//! an odd field has one. Games still in progress count for nothing yet.

use super::record::{Outcome, Player, Record, Side};
use super::score::{Points, TieValue};
use std::cmp::Reverse;

/// The tournament formats, which decide what a bye is worth and the tie-breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Everyone meets everyone (once, or twice with colours reversed).
    RoundRobin,
    /// Paired round by round (Dutch system).
    Swiss,
}

/// A tie-break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// Opponents' points weighted by the result against them.
    SonnebornBerger,
    /// Opponents' points.
    Buchholz,
    /// Opponents' points without the best and the worst opponent.
    MedianBuchholz,
}

impl TieBreak {
    /// The short name a table heads its column with.
    pub fn abbreviation(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "SB",
            TieBreak::Buchholz => "Buch",
            TieBreak::MedianBuchholz => "Med",
        }
    }
}

impl Format {
    /// The tie-breaks, in the order they are applied.
    pub fn tie_breaks(self) -> &'static [TieBreak] {
        match self {
            Format::RoundRobin => &[TieBreak::SonnebornBerger],
            Format::Swiss => &[TieBreak::Buchholz, TieBreak::MedianBuchholz],
        }
    }

    /// What a bye is worth.
    pub fn bye_points(self) -> Points {
        match self {
            Format::RoundRobin => Points::ZERO,
            Format::Swiss => Points::ONE,
        }
    }
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player.
    pub player: Player,
    /// Their place, from 1; players tied on points and every tie-break share it.
    pub rank: usize,
    /// Their points.
    pub points: Points,
    /// The values of [`Format::tie_breaks`], in that order.
    pub tie_breaks: Vec<TieValue>,
    /// Games played over the board and ended.
    pub played: usize,
    /// Whether they withdrew.
    pub withdrawn: bool,
}

/// A player's round, as the tie-breaks see it.
#[derive(Clone, Copy, Debug)]
enum Entry {
    /// A game played over the board against `opponent`, scoring `points`.
    Game { opponent: Player, points: Points },
    /// A round not played over the board, scoring `points`.
    Unplayed { points: Points },
}

fn entries(record: &Record, format: Format, p: Player) -> Vec<Entry> {
    let mut out = Vec::new();
    for (r, round) in record.rounds.iter().enumerate() {
        if round.bye == Some(p) {
            if format == Format::Swiss {
                out.push(Entry::Unplayed {
                    points: format.bye_points(),
                });
            }
            continue;
        }
        match round.board_of(p) {
            Some(b) => {
                let side = b.pairing.side(p).expect("on the board");
                match b.outcome {
                    None => {}
                    Some(o @ Outcome::Played(_)) => out.push(Entry::Game {
                        opponent: b.pairing.opponent(p).expect("on the board"),
                        points: o.points(side),
                    }),
                    Some(o) => out.push(Entry::Unplayed {
                        points: o.points(side),
                    }),
                }
            }
            // Absent from a round paired after withdrawing.
            None => {
                let gone = record
                    .withdrawals
                    .iter()
                    .any(|&(w, from)| w == p && r >= from);
                if gone && round.is_complete() {
                    out.push(Entry::Unplayed {
                        points: Points::ZERO,
                    });
                }
            }
        }
    }
    out
}

/// The standings of `record` in `format`: best first (points, then each tie-break,
/// then seed for players who share a rank).
pub fn standings(record: &Record, format: Format) -> Vec<Standing> {
    let all: Vec<Vec<Entry>> = (0..record.entrants)
        .map(|p| entries(record, format, p))
        .collect();
    let points: Vec<Points> = all
        .iter()
        .map(|e| {
            e.iter()
                .map(|x| match x {
                    Entry::Game { points, .. } | Entry::Unplayed { points } => *points,
                })
                .sum()
        })
        .collect();
    let mut out: Vec<Standing> = (0..record.entrants)
        .map(|p| {
            // Each round's opponent's points and the player's points in it.
            let rounds: Vec<(Points, Points)> = all[p]
                .iter()
                .map(|x| match *x {
                    Entry::Game {
                        opponent,
                        points: mine,
                    } => (points[opponent], mine),
                    Entry::Unplayed { points: mine } => (points[p], mine),
                })
                .collect();
            let tie_breaks = format
                .tie_breaks()
                .iter()
                .map(|t| tie_break(*t, &rounds))
                .collect();
            Standing {
                player: p,
                rank: 0,
                points: points[p],
                tie_breaks,
                played: all[p]
                    .iter()
                    .filter(|x| matches!(x, Entry::Game { .. }))
                    .count(),
                withdrawn: record.has_withdrawn(p),
            }
        })
        .collect();
    out.sort_by_key(|s| (Reverse(s.points), Reverse(s.tie_breaks.clone()), s.player));
    for i in 0..out.len() {
        out[i].rank = if i > 0
            && out[i].points == out[i - 1].points
            && out[i].tie_breaks == out[i - 1].tie_breaks
        {
            out[i - 1].rank
        } else {
            i + 1
        };
    }
    out
}

fn tie_break(t: TieBreak, rounds: &[(Points, Points)]) -> TieValue {
    match t {
        TieBreak::SonnebornBerger => rounds.iter().map(|&(opp, mine)| opp.weighted(mine)).sum(),
        TieBreak::Buchholz => rounds.iter().map(|&(opp, _)| opp.value()).sum(),
        TieBreak::MedianBuchholz => {
            let mut v: Vec<Points> = rounds.iter().map(|&(opp, _)| opp).collect();
            v.sort_unstable();
            if v.len() >= 3 {
                v[1..v.len() - 1].iter().map(|p| p.value()).sum()
            } else {
                v.iter().map(|p| p.value()).sum()
            }
        }
    }
}

/// One game between two players, seen from one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The row player's points.
    pub points: Points,
    /// The row player's side.
    pub side: Side,
    /// Whether it was forfeited rather than played.
    pub forfeit: bool,
}

impl Cell {
    /// As a crosstable shows it: `1`, `½`, `0`, `0.7`; a forfeit as `+` (won) or `-`.
    pub fn text(&self) -> String {
        if self.forfeit {
            if self.points > Points::ZERO { "+" } else { "-" }.to_string()
        } else {
            self.points.to_string()
        }
    }
}

/// The crosstable: `cells[i][j]` holds the ended games of `order[i]` against `order[j]`,
/// in round order (two in a double round robin).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    /// The players, in the order of the rows and of the columns.
    pub order: Vec<Player>,
    /// The games, row player against column player.
    pub cells: Vec<Vec<Vec<Cell>>>,
}

/// The crosstable of `record`, rows and columns in `order` (for example the standings'
/// order).
pub fn crosstable(record: &Record, order: &[Player]) -> Crosstable {
    let index = |p: Player| order.iter().position(|&q| q == p);
    let mut cells = vec![vec![Vec::new(); order.len()]; order.len()];
    for round in &record.rounds {
        for b in &round.boards {
            let Some(o) = b.outcome else { continue };
            let (w, bl) = (b.pairing.white, b.pairing.black);
            if let (Some(i), Some(j)) = (index(w), index(bl)) {
                let forfeit = !o.played();
                cells[i][j].push(Cell {
                    points: o.points(Side::White),
                    side: Side::White,
                    forfeit,
                });
                cells[j][i].push(Cell {
                    points: o.points(Side::Black),
                    side: Side::Black,
                    forfeit,
                });
            }
        }
    }
    Crosstable {
        order: order.to_vec(),
        cells,
    }
}
