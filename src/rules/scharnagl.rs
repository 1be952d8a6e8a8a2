//! Scharnagl's numbering of the 960 back ranks of Chess960 (518 is the standard
//! `RNBQKBNR`): the starting positions of Chess960 and the shuffled sets of Cloak and
//! Dagger Chess, written once here.

use super::types::Role;

/// Where the two knights stand among the five squares left after the bishops and the
/// queen, for each of Scharnagl's ten knight placements.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// White's first rank, a-file to h-file, of position `n` (below 960) in Scharnagl's
/// numbering: `n` mod 4 places the light-squared bishop (b, d, f or h), the next
/// quotient mod 4 the dark-squared one (a, c, e or g), mod 6 the queen on the free
/// squares, and what is left (0 to 9) the knights; the rook, king and rook take the
/// three squares left, in that order.
pub fn back_rank(n: u32) -> [Role; 8] {
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = (n % 960) as usize;
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    n /= 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    n /= 4;
    let free = |rank: &[Option<Role>; 8]| -> Vec<usize> {
        (0..8).filter(|&f| rank[f].is_none()).collect()
    };
    rank[free(&rank)[n % 6]] = Some(Role::Queen);
    n /= 6;
    let (a, b) = KNIGHTS[n];
    let left = free(&rank);
    rank[left[a]] = Some(Role::Knight);
    rank[left[b]] = Some(Role::Knight);
    for (file, role) in free(&rank)
        .into_iter()
        .zip([Role::Rook, Role::King, Role::Rook])
    {
        rank[file] = Some(role);
    }
    rank.map(|r| r.unwrap_or(Role::Pawn))
}
