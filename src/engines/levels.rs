//! The engine's playing levels, 1 to 8, as Lichess defines them for "play with the
//! computer": each level's `Skill Level`, search depth and thinking time, from
//! lichess-org/fishnet `src/api.rs` (`SkillLevel::skill_level`, `depth` and `time`).
//!
//! | level | Lichess skill | skill sent | depth | time (ms) |
//! |---|---|---|---|---|
//! | 1 | -9 | 0 | 5 | 50 |
//! | 2 | -5 | 1 | 5 | 100 |
//! | 3 | -1 | 2 | 5 | 150 |
//! | 4 | 3 | 3 | 5 | 200 |
//! | 5 | 7 | 7 | 5 | 300 |
//! | 6 | 11 | 11 | 8 | 400 |
//! | 7 | 16 | 16 | 13 | 500 |
//! | 8 | 20 | 20 | 22 | 1000 |
//!
//! Lichess's own Stockfish build accepts a `Skill Level` below 0 (down to -9); the
//! Stockfish and Fairy-Stockfish that Debian packages accept 0 to 20 and ignore any other
//! value. For levels 1 to 3, whose Lichess skill is below 0, Postal sends 0, 1 and 2:
//! the three weakest skills, in order, below level 4's 3. (At a skill below 20 the
//! engine picks its move among its four best by a random rule that favours worse moves
//! the lower the skill, once its search reaches depth skill + 1; so level 1 plays the
//! most random moves of all.) Fairy-Stockfish has
//! the same `Skill Level` option and plays every variant it knows at the same levels.
//! Every level is also held to the server's budget of nodes (`engines.nodes`): level 8
//! is the engine's strength at that budget.

/// The weakest level.
pub const MIN_LEVEL: u8 = 1;
/// The strongest level.
pub const MAX_LEVEL: u8 = 8;

/// How the engine searches at one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level, 1 to 8.
    pub level: u8,
    /// The `Skill Level` option sent (0 to 20).
    pub skill: u8,
    /// The search depth (`go depth`).
    pub depth: u8,
    /// The thinking time in milliseconds (`go movetime`).
    pub movetime_ms: u32,
}

/// Lichess's table (fishnet `src/api.rs`), with the skill of levels 1 to 3
/// adapted to Debian's engines as the module says.
const LEVELS: [Level; 8] = [
    Level {
        level: 1,
        skill: 0,
        depth: 5,
        movetime_ms: 50,
    },
    Level {
        level: 2,
        skill: 1,
        depth: 5,
        movetime_ms: 100,
    },
    Level {
        level: 3,
        skill: 2,
        depth: 5,
        movetime_ms: 150,
    },
    Level {
        level: 4,
        skill: 3,
        depth: 5,
        movetime_ms: 200,
    },
    Level {
        level: 5,
        skill: 7,
        depth: 5,
        movetime_ms: 300,
    },
    Level {
        level: 6,
        skill: 11,
        depth: 8,
        movetime_ms: 400,
    },
    Level {
        level: 7,
        skill: 16,
        depth: 13,
        movetime_ms: 500,
    },
    Level {
        level: 8,
        skill: 20,
        depth: 22,
        movetime_ms: 1000,
    },
];

impl Level {
    /// Level `n`, if it is one (1 to 8).
    pub fn of(n: u8) -> Option<Level> {
        LEVELS.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// The `go` command of this level held to `nodes`: whichever limit comes first ends
    /// the search.
    pub fn go(&self, nodes: u64) -> String {
        format!(
            "go depth {} movetime {} nodes {nodes}",
            self.depth, self.movetime_ms
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger_and_only_eight_exist() {
        assert_eq!(Level::of(0), None);
        assert_eq!(Level::of(9), None);
        let all: Vec<Level> = (MIN_LEVEL..=MAX_LEVEL).filter_map(Level::of).collect();
        assert_eq!(all.len(), 8);
        for w in all.windows(2) {
            assert!(w[0].skill <= w[1].skill && w[0].depth <= w[1].depth);
            assert!(w[0].movetime_ms < w[1].movetime_ms);
        }
        assert_eq!(Level::of(8).unwrap().skill, 20);
        assert_eq!(
            Level::of(3).unwrap().go(5000),
            "go depth 5 movetime 150 nodes 5000"
        );
    }
}
