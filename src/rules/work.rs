//! Counts of the work a thread has done that grows with a game's length when a game is
//! rebuilt rather than resumed: positions made by playing a move into a [`Game`], positions
//! hashed for repetitions, moves written in SAN. Tests read them to check that a move costs
//! the same late in a game as early (a count, not a time); they cost a thread-local
//! increment each.
//!
//! [`Game`]: super::Game

use std::cell::Cell;

/// A kind of work counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A position made by playing a move into a game (played, re-played or half of a
    /// double move).
    Ply,
    /// A position hashed for the repetition count.
    Hash,
    /// A move written in SAN (which generates the position's legal moves).
    San,
}

thread_local! {
    static COUNTS: Cell<[u64; 3]> = const { Cell::new([0; 3]) };
}

/// Counts one unit of `work` on this thread.
pub fn count(work: Work) {
    COUNTS.with(|c| {
        let mut counts = c.get();
        counts[work as usize] += 1;
        c.set(counts);
    });
}

/// The work this thread has counted so far: plies, hashes and SAN moves.
pub fn counted() -> Counted {
    let [plies, hashes, sans] = COUNTS.with(Cell::get);
    Counted {
        plies,
        hashes,
        sans,
    }
}

/// What [`counted`] returns: the work done by one thread since it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    /// Positions made by playing a move into a game.
    pub plies: u64,
    /// Positions hashed for the repetition count.
    pub hashes: u64,
    /// Moves written in SAN.
    pub sans: u64,
}

impl Counted {
    /// The work done between `earlier` and this count.
    pub fn since(self, earlier: Counted) -> Counted {
        Counted {
            plies: self.plies - earlier.plies,
            hashes: self.hashes - earlier.hashes,
            sans: self.sans - earlier.sans,
        }
    }

    /// Every unit of work counted, of any kind.
    pub fn total(self) -> u64 {
        self.plies + self.hashes + self.sans
    }
}
