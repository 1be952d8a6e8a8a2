//! The letter grid of Secret Chesswords (rule 3): six double-sided planks of six
//! letters, shuffled into the ranks and turned to a random side with the game's seed.

use crate::rules::Square;
use crate::variants::api::random::{Random, SeededRng};
use serde::{Deserialize, Serialize};

/// The six planks, side A and side B, each side as printed: light square first.
pub const PLANKS: [(&str, &str); 6] = [
    ("SELTAR", "DONECI"),
    ("PATHES", "MIRONE"),
    ("BLEAST", "CODING"),
    ("WARMED", "FLOUTS"),
    ("HINGEY", "CARPOL"),
    ("KEVIST", "BUREAY"),
];

/// The board's width and height.
const SIZE: usize = 6;

/// Mixed into the game's seed so that the letters are drawn from their own stream,
/// independent of the cards and the colours: the ASCII bytes of `LETTERS!`.
pub const LETTERS_STREAM: u64 = 0x4C45_5454_4552_5321;

/// A game's 36 letters. Stored and serialised as six strings of six upper-case letters,
/// one per rank from rank 6 down to rank 1, each from the a-file to the f-file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<String>", into = "Vec<String>")]
pub struct LetterGrid {
    /// `ranks[r][f]`: the letter on file `f` of rank `r + 1`.
    ranks: [[u8; SIZE]; SIZE],
}

impl LetterGrid {
    /// The grid drawn from a game's seed: the planks are shuffled into ranks 1 to 6 (the
    /// first drawn is rank 1), then each rank from 1 to 6 tosses a coin for its side (B
    /// on heads). Ranks 1, 3 and 5 start on a dark square, so their plank is turned
    /// 180° and reads from the f-file to the a-file.
    pub fn from_seed(seed: u64) -> LetterGrid {
        let mut rng = SeededRng::new(seed ^ LETTERS_STREAM);
        let mut order: [usize; SIZE] = [0, 1, 2, 3, 4, 5];
        rng.shuffle(&mut order);
        let mut ranks = [[0u8; SIZE]; SIZE];
        for (rank, &plank) in order.iter().enumerate() {
            let (a, b) = PLANKS[plank];
            let side = if rng.coin() { b } else { a };
            let mut row: [u8; SIZE] = [0; SIZE];
            row.copy_from_slice(side.as_bytes());
            if Square::new(0, rank as u8).is_dark() {
                row.reverse();
            }
            ranks[rank] = row;
        }
        LetterGrid { ranks }
    }

    /// The letter on `sq` (upper case), or `None` off the 6x6 board.
    pub fn get(&self, sq: Square) -> Option<char> {
        let (file, rank) = (sq.file() as usize, sq.rank() as usize);
        (file < SIZE && rank < SIZE).then(|| self.ranks[rank][file] as char)
    }

    /// The letter on `sq` (upper case); a space for a square off the 6x6 board, which
    /// no Los Alamos move reaches.
    pub fn letter_at(&self, sq: Square) -> char {
        self.get(sq).unwrap_or(' ')
    }

    /// One string per rank, rank 6 first, each from the a-file (`postal export`).
    pub fn rows_from_top(&self) -> Vec<String> {
        self.ranks
            .iter()
            .rev()
            .map(|row| row.iter().map(|&b| b as char).collect())
            .collect()
    }

    /// Every square with its letter, a1 first, rank by rank (the board image's overlay).
    pub fn letters(&self) -> Vec<(Square, char)> {
        (0..SIZE as u8)
            .flat_map(|rank| (0..SIZE as u8).map(move |file| Square::new(file, rank)))
            .map(|sq| (sq, self.letter_at(sq)))
            .collect()
    }
}

impl From<LetterGrid> for Vec<String> {
    fn from(grid: LetterGrid) -> Vec<String> {
        grid.rows_from_top()
    }
}

/// Why stored rows are not a letter grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// Not six rows; how many.
    #[error("a letter grid has {size} rows, this one has {0}", size = SIZE)]
    RowCount(usize),
    /// A row (numbered from 1 at the top) that is not six letters A to Z.
    #[error(
        "letter grid row {row} is {text:?}: it must be {} letters A to Z",
        SIZE
    )]
    BadRow {
        /// The row's number, from 1 at the top.
        row: usize,
        /// The row as stored.
        text: String,
    },
}

impl TryFrom<Vec<String>> for LetterGrid {
    type Error = GridError;

    /// Reads the six rows of [`LetterGrid::rows_from_top`] back.
    fn try_from(rows: Vec<String>) -> Result<LetterGrid, GridError> {
        if rows.len() != SIZE {
            return Err(GridError::RowCount(rows.len()));
        }
        let mut ranks = [[0u8; SIZE]; SIZE];
        for (i, row) in rows.iter().enumerate() {
            let bytes = row.as_bytes();
            if bytes.len() != SIZE || !bytes.iter().all(u8::is_ascii_uppercase) {
                return Err(GridError::BadRow {
                    row: i + 1,
                    text: row.clone(),
                });
            }
            ranks[SIZE - 1 - i].copy_from_slice(bytes);
        }
        Ok(LetterGrid { ranks })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn the_grid_is_reproducible_from_the_seed_and_differs_between_seeds() {
        assert_eq!(LetterGrid::from_seed(17), LetterGrid::from_seed(17));
        let grids: Vec<Vec<String>> = (0..20)
            .map(|s| LetterGrid::from_seed(s).rows_from_top())
            .collect();
        for (i, g) in grids.iter().enumerate() {
            for h in &grids[i + 1..] {
                assert_ne!(g, h);
            }
        }
    }

    #[test]
    fn every_rank_is_a_plank_side_turned_on_ranks_1_3_5_and_every_plank_once() {
        for seed in 0..200 {
            let grid = LetterGrid::from_seed(seed);
            let rows = grid.rows_from_top();
            let mut used = Vec::new();
            for (i, row) in rows.iter().enumerate() {
                let rank = 6 - i;
                let printed: String = if rank % 2 == 1 {
                    row.chars().rev().collect()
                } else {
                    row.clone()
                };
                let plank = PLANKS
                    .iter()
                    .position(|&(a, b)| printed == a || printed == b)
                    .unwrap_or_else(|| panic!("seed {seed}: rank {rank} {row} is no plank"));
                used.push(plank);
            }
            used.sort();
            assert_eq!(used, vec![0, 1, 2, 3, 4, 5], "seed {seed}");
        }
    }

    #[test]
    fn both_sides_of_every_plank_and_every_rank_position_occur() {
        let mut sides = std::collections::HashSet::new();
        let mut plank_on_rank1 = std::collections::HashSet::new();
        for seed in 0..300 {
            let rows = LetterGrid::from_seed(seed).rows_from_top();
            for row in &rows {
                sides.insert(row.clone());
            }
            let first: String = rows[5].chars().rev().collect();
            plank_on_rank1.insert(
                PLANKS
                    .iter()
                    .position(|&(a, b)| first == a || first == b)
                    .unwrap(),
            );
        }
        // 12 sides, each seen printed (ranks 2, 4, 6) and turned (ranks 1, 3, 5).
        assert_eq!(sides.len(), 24);
        assert_eq!(plank_on_rank1.len(), 6);
    }

    #[test]
    fn a_light_square_carries_each_planks_first_letter() {
        let grid = LetterGrid::from_seed(4);
        for (rank, row) in grid.rows_from_top().iter().rev().enumerate() {
            let printed_first = if rank % 2 == 0 {
                Square::new(5, rank as u8)
            } else {
                Square::new(0, rank as u8)
            };
            assert!(!printed_first.is_dark());
            let first = PLANKS
                .iter()
                .flat_map(|&(a, b)| [a, b])
                .find(|side| {
                    let r: String = side.chars().rev().collect();
                    *side == row || r == *row
                })
                .unwrap();
            assert_eq!(grid.letter_at(printed_first), first.chars().next().unwrap());
        }
    }

    #[test]
    fn the_stated_distribution_is_what_the_planks_contain() {
        let mut count: BTreeMap<char, usize> = BTreeMap::new();
        for (a, b) in PLANKS {
            assert_eq!((a.len(), b.len()), (6, 6));
            for c in a.chars().chain(b.chars()) {
                *count.entry(c).or_default() += 1;
            }
        }
        // docs/rules/chesswords.md, rule 3.
        let stated: BTreeMap<char, usize> = [
            ('E', 9),
            ('A', 6),
            ('I', 5),
            ('O', 5),
            ('U', 2),
            ('S', 5),
            ('T', 5),
            ('R', 5),
            ('N', 4),
            ('L', 4),
            ('D', 3),
            ('C', 3),
            ('M', 2),
            ('P', 2),
            ('H', 2),
            ('G', 2),
            ('B', 2),
            ('Y', 2),
            ('F', 1),
            ('W', 1),
            ('K', 1),
            ('V', 1),
        ]
        .into_iter()
        .collect();
        assert_eq!(count, stated);
        assert_eq!(count.values().sum::<usize>(), 72);
        let vowels: usize = "AEIOU".chars().map(|v| count[&v]).sum();
        assert_eq!(vowels, 27);
        for absent in ['J', 'Q', 'X', 'Z'] {
            assert!(!count.contains_key(&absent));
        }
    }

    #[test]
    fn every_side_has_at_least_two_vowels() {
        for (a, b) in PLANKS {
            for side in [a, b] {
                let vowels = side.chars().filter(|c| "AEIOU".contains(*c)).count();
                assert!(vowels >= 2, "{side}");
            }
        }
    }

    #[test]
    fn lookups_agree_with_the_rows() {
        let grid = LetterGrid::from_seed(99);
        let rows = grid.rows_from_top();
        assert_eq!(grid.letter_at(sq("a6")), rows[0].chars().next().unwrap());
        assert_eq!(grid.letter_at(sq("f1")), rows[5].chars().nth(5).unwrap());
        assert_eq!(grid.letter_at(sq("c3")), rows[3].chars().nth(2).unwrap());
        assert_eq!(grid.get(sq("g1")), None);
        assert_eq!(grid.get(sq("a7")), None);
        assert_eq!(grid.letter_at(sq("h8")), ' ');
        let all = grid.letters();
        assert_eq!(all.len(), 36);
        assert_eq!(all[0], (sq("a1"), grid.letter_at(sq("a1"))));
        assert_eq!(all[35], (sq("f6"), grid.letter_at(sq("f6"))));
        assert!(all.iter().all(|&(s, c)| grid.get(s) == Some(c)));
    }

    #[test]
    fn serialises_as_six_rows_and_reads_back() {
        let grid = LetterGrid::from_seed(5);
        let json = serde_json::to_value(&grid).unwrap();
        assert_eq!(json, serde_json::json!(grid.rows_from_top()));
        let back: LetterGrid = serde_json::from_value(json).unwrap();
        assert_eq!(back, grid);
    }

    #[test]
    fn a_malformed_stored_grid_is_refused_with_the_reason() {
        for (rows, says) in [
            (vec!["ABCDEF"; 5], "6 rows"),
            (
                vec!["ABCDEF", "ABCDE", "ABCDEF", "ABCDEF", "ABCDEF", "ABCDEF"],
                "row 2",
            ),
            (
                vec!["ABCDEF", "ABCDEF", "abcdef", "ABCDEF", "ABCDEF", "ABCDEF"],
                "row 3",
            ),
            (
                vec!["ABCDEF", "ABCDEF", "ABCDEF", "ABCDEF", "ABCDEF", "ABCDÉ"],
                "row 6",
            ),
        ] {
            let err = serde_json::from_value::<LetterGrid>(serde_json::json!(rows)).unwrap_err();
            assert!(err.to_string().contains(says), "{err}");
        }
    }
}
