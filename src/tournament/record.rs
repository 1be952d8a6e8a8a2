//! What has happened in a tournament, as plain data: the entrants (by seed), each round's
//! boards with their results, byes and withdrawals. Pairing and standings read it; the
//! service stores it.

use super::score::{GameScore, Points};

/// An entrant, by seed: 0 is the first seed (the highest rated, or the first to join),
/// and also the Swiss pairing number minus one.
pub type Player = usize;

/// A side of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// White: moves first.
    White,
    /// Black.
    Black,
}

impl Side {
    /// The other side.
    pub fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// Two players paired on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// Who has White.
    pub white: Player,
    /// Who has Black.
    pub black: Player,
}

impl Pairing {
    /// Whether `p` plays on this board.
    pub fn has(&self, p: Player) -> bool {
        self.white == p || self.black == p
    }

    /// `p`'s opponent, if `p` plays here.
    pub fn opponent(&self, p: Player) -> Option<Player> {
        if self.white == p {
            Some(self.black)
        } else if self.black == p {
            Some(self.white)
        } else {
            None
        }
    }

    /// `p`'s side, if `p` plays here.
    pub fn side(&self, p: Player) -> Option<Side> {
        if self.white == p {
            Some(Side::White)
        } else if self.black == p {
            Some(Side::Black)
        } else {
            None
        }
    }
}

/// How a board ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The game was played (or started: a game lost on time was played) and scored.
    Played(GameScore),
    /// The game was not played: the winner scores 1, the other 0 (a withdrawal's
    /// remaining games, a moderator's forfeit). Not a game for colours or tie-breaks.
    Forfeit {
        /// Who scores the point.
        winner: Side,
    },
    /// Neither played: both score 0.
    DoubleForfeit,
}

impl Outcome {
    /// The points of the side `side`.
    pub fn points(&self, side: Side) -> Points {
        match (self, side) {
            (Outcome::Played(s), Side::White) => s.white,
            (Outcome::Played(s), Side::Black) => s.black,
            (Outcome::Forfeit { winner }, _) if *winner == side => Points::ONE,
            _ => Points::ZERO,
        }
    }

    /// Whether the game was played over the board.
    pub fn played(&self) -> bool {
        matches!(self, Outcome::Played(_))
    }
}

/// A board of a round: its pairing and, once it has ended, how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Who plays whom.
    pub pairing: Pairing,
    /// `None` while the game goes on.
    pub outcome: Option<Outcome>,
}

/// A round: its boards (board 1 first) and the player with the bye, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// The boards.
    pub boards: Vec<Board>,
    /// The player who sits out (an odd field): in a Swiss a pairing-allocated bye worth
    /// a point, in a round robin the dummy player's opponent, worth nothing.
    pub bye: Option<Player>,
}

impl Round {
    /// A round of new games, none ended.
    pub fn new(pairings: &[Pairing], bye: Option<Player>) -> Round {
        Round {
            boards: pairings
                .iter()
                .map(|&pairing| Board {
                    pairing,
                    outcome: None,
                })
                .collect(),
            bye,
        }
    }

    /// Whether every game has ended.
    pub fn is_complete(&self) -> bool {
        self.boards.iter().all(|b| b.outcome.is_some())
    }

    /// `p`'s board, if `p` plays this round.
    pub fn board_of(&self, p: Player) -> Option<&Board> {
        self.boards.iter().find(|b| b.pairing.has(p))
    }
}

/// The whole of a tournament so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// How many entrants (seeds `0..entrants`).
    pub entrants: usize,
    /// The rounds paired so far, in order (a round robin may hold its whole schedule).
    pub rounds: Vec<Round>,
    /// Who withdrew, with the index of the first round they no longer play.
    pub withdrawals: Vec<(Player, usize)>,
}

impl Record {
    /// A tournament of `entrants` players, nothing played yet.
    pub fn new(entrants: usize) -> Record {
        Record {
            entrants,
            ..Record::default()
        }
    }

    /// Whether `p` has withdrawn.
    pub fn has_withdrawn(&self, p: Player) -> bool {
        self.withdrawals.iter().any(|&(w, _)| w == p)
    }

    /// `p` withdraws: each of their games not yet ended is forfeited to the opponent
    /// (in a round robin, every remaining game of the schedule already in the record),
    /// and they are not paired again. The first round they miss is the first one with a
    /// forfeited game, or the next round to be paired. Returns how many games were
    /// forfeited; withdrawing twice changes nothing.
    pub fn withdraw(&mut self, p: Player) -> usize {
        if p >= self.entrants || self.has_withdrawn(p) {
            return 0;
        }
        let mut first = None;
        let mut forfeited = 0;
        for (r, round) in self.rounds.iter_mut().enumerate() {
            for b in &mut round.boards {
                if b.outcome.is_none() {
                    if let Some(side) = b.pairing.side(p) {
                        b.outcome = Some(Outcome::Forfeit {
                            winner: side.opposite(),
                        });
                        forfeited += 1;
                        first.get_or_insert(r);
                    }
                }
            }
        }
        self.withdrawals
            .push((p, first.unwrap_or(self.rounds.len())));
        forfeited
    }

    /// The players still in (not withdrawn), by seed.
    pub fn active(&self) -> Vec<Player> {
        (0..self.entrants)
            .filter(|&p| !self.has_withdrawn(p))
            .collect()
    }

    /// Whether `a` and `b` have been paired in any round (a forfeited pairing counts:
    /// they are not paired again).
    pub fn have_met(&self, a: Player, b: Player) -> bool {
        self.rounds.iter().any(|r| {
            r.boards
                .iter()
                .any(|x| x.pairing.has(a) && x.pairing.has(b))
        })
    }
}
