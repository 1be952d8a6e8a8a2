//! Attack tables for the 8x8 layout. Callers mask the results with the board's squares,
//! which is exact for any board in the lower-left corner: a ray that leaves the board
//! never comes back onto it.
//!
//! Sliding pieces use the obstruction-difference method: two line masks per direction
//! and a handful of integer operations, with no large lookup tables to build.

use super::bitboard::Bitboard;
use super::types::{Color, Role, Square};
use std::sync::OnceLock;

/// The four lines through a square (file, rank, diagonal, anti-diagonal), each split into
/// the part below the square and the part above it.
#[derive(Clone, Copy, Default)]
struct LineMasks {
    lower: u64,
    upper: u64,
}

struct Tables {
    knight: [u64; 64],
    king: [u64; 64],
    pawn: [[u64; 64]; 2],
    lines: [[LineMasks; 4]; 64],
    between: Box<[[u64; 64]; 64]>,
    line_through: Box<[[u64; 64]; 64]>,
}

const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];

fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq & 7) as i8 + df;
    let r = (sq >> 3) as i8 + dr;
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

fn steps(sq: usize, deltas: &[(i8, i8)]) -> u64 {
    deltas
        .iter()
        .filter_map(|&(df, dr)| offset(sq, df, dr))
        .fold(0, |bb, s| bb | 1 << s)
}

fn ray(sq: usize, df: i8, dr: i8) -> u64 {
    let mut bb = 0;
    let mut cur = sq;
    while let Some(next) = offset(cur, df, dr) {
        bb |= 1 << next;
        cur = next;
    }
    bb
}

fn build() -> Tables {
    const KNIGHT: [(i8, i8); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    const KING: [(i8, i8); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];
    let mut t = Tables {
        knight: [0; 64],
        king: [0; 64],
        pawn: [[0; 64]; 2],
        lines: [[LineMasks::default(); 4]; 64],
        between: Box::new([[0; 64]; 64]),
        line_through: Box::new([[0; 64]; 64]),
    };
    for sq in 0..64 {
        t.knight[sq] = steps(sq, &KNIGHT);
        t.king[sq] = steps(sq, &KING);
        t.pawn[0][sq] = steps(sq, &[(-1, 1), (1, 1)]);
        t.pawn[1][sq] = steps(sq, &[(-1, -1), (1, -1)]);
        for (i, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            // Positive directions go to higher indices, except (-1, 1) which also goes up.
            t.lines[sq][i] = LineMasks {
                upper: ray(sq, df, dr),
                lower: ray(sq, -df, -dr),
            };
        }
    }
    for a in 0..64 {
        for &(df, dr) in KING.iter() {
            let full = ray(a, df, dr) | ray(a, -df, -dr) | 1 << a;
            let mut cur = a;
            let mut between = 0u64;
            while let Some(next) = offset(cur, df, dr) {
                t.between[a][next] = between;
                t.line_through[a][next] = full;
                between |= 1 << next;
                cur = next;
            }
        }
    }
    t
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

#[inline]
fn line_attacks(m: LineMasks, occupied: u64) -> u64 {
    let lower = m.lower & occupied;
    let upper = m.upper & occupied;
    let ms1b = (!0u64) << (63 - (lower | 1).leading_zeros());
    let ls1b = upper & upper.wrapping_neg();
    let odiff = ls1b.wrapping_shl(1).wrapping_add(ms1b);
    // With no blocker above, ls1b is 0 and odiff covers everything from the lower blocker up.
    (m.lower | m.upper) & odiff
}

/// Squares a knight on `sq` attacks (8x8 layout).
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(tables().knight[sq.index()])
}

/// Squares a king on `sq` attacks (8x8 layout).
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(tables().king[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(tables().pawn[color.index()][sq.index()])
}

/// Squares a rook on `sq` attacks given the occupied squares (blockers included).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let l = &tables().lines[sq.index()];
    Bitboard(line_attacks(l[0], occupied.0) | line_attacks(l[1], occupied.0))
}

/// Squares a bishop on `sq` attacks given the occupied squares (blockers included).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let l = &tables().lines[sq.index()];
    Bitboard(line_attacks(l[2], occupied.0) | line_attacks(l[3], occupied.0))
}

/// Squares a queen on `sq` attacks given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a piece of `role` and `color` on `sq` attacks (8x8 layout, not masked).
#[inline]
pub fn attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(tables().between[a.index()][b.index()])
}

/// The whole line through `a` and `b` (both included) if they share one, else empty.
#[inline]
pub fn line_through(a: Square, b: Square) -> Bitboard {
    Bitboard(tables().line_through[a.index()][b.index()])
}

/// Builds the tables now instead of on first use (for benchmarks).
pub fn warm_up() {
    tables();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn rook_on_empty_board_attacks_fourteen_squares() {
        assert_eq!(rook_attacks(sq("d4"), Bitboard::EMPTY).count(), 14);
        assert_eq!(rook_attacks(sq("a1"), Bitboard::EMPTY).count(), 14);
    }

    #[test]
    fn sliders_stop_at_blockers_and_include_them() {
        let occ = Bitboard::from_square(sq("d6"))
            .with(sq("b4"))
            .with(sq("f6"));
        let r = rook_attacks(sq("d4"), occ);
        assert!(r.contains(sq("d6")) && !r.contains(sq("d7")));
        assert!(r.contains(sq("b4")) && !r.contains(sq("a4")));
        assert!(r.contains(sq("h4")) && r.contains(sq("d1")));
        let b = bishop_attacks(sq("d4"), occ);
        assert!(b.contains(sq("f6")) && !b.contains(sq("g7")));
        assert!(b.contains(sq("a7")) && b.contains(sq("a1")) && b.contains(sq("g1")));
        assert_eq!(bishop_attacks(sq("h1"), Bitboard::EMPTY).count(), 7);
        assert_eq!(bishop_attacks(sq("a8"), Bitboard::EMPTY).count(), 7);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("a1"), sq("d4")).count(), 2);
        assert_eq!(between(sq("a1"), sq("b3")).count(), 0);
        assert!(line_through(sq("a1"), sq("c3")).contains(sq("h8")));
        assert!(line_through(sq("a1"), sq("b3")).is_empty());
    }
}
