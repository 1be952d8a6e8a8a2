//! Attack tables for the 8x8 layout. Callers mask the results with the board's squares,
//! which is exact for any board in the lower-left corner: a ray that leaves the board
//! never comes back onto it.
//!
//! Sliding pieces use the obstruction-difference method: two line masks per direction
//! and a handful of integer operations, with no large lookup tables to build.

use super::bitboard::Bitboard;
use super::types::{Color, Role, Square};

/// The four lines through a square (file, rank, diagonal, anti-diagonal), each split into
/// the part below the square and the part above it.
#[derive(Clone, Copy)]
struct LineMasks {
    lower: u64,
    upper: u64,
}

// Every table is computed by the compiler (`const fn`) into the binary's read-only data:
// reading one is a plain indexed load, with no check that it has been built.

/// Squares a knight attacks, by square.
static KNIGHT: [u64; 64] = step_table(&KNIGHT_STEPS);
/// Squares a king attacks, by square.
static KING: [u64; 64] = step_table(&KING_STEPS);
/// Squares a pawn attacks, by colour and square.
static PAWN: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];
/// The lines through each square: rook lines (file, rank) first, then bishop lines.
static LINES: [[LineMasks; 4]; 64] = line_table();
/// A rook's squares on an empty board, by square.
static ROOK_LINES: [u64; 64] = empty_board_lines(0);
/// A bishop's squares on an empty board, by square.
static BISHOP_LINES: [u64; 64] = empty_board_lines(2);
/// The squares strictly between two squares on a line, by pair.
static BETWEEN: [[u64; 64]; 64] = pair_table(false);
/// The whole line through two squares, by pair.
static LINE_THROUGH: [[u64; 64]; 64] = pair_table(true);

const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
/// File, rank, diagonal and anti-diagonal, each pointing to higher square indices.
const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];

/// The square `df` files and `dr` ranks away from `sq`, or 64 when that is off the board.
const fn offset(sq: usize, df: i8, dr: i8) -> usize {
    let f = (sq & 7) as i8 + df;
    let r = (sq >> 3) as i8 + dr;
    if f >= 0 && f < 8 && r >= 0 && r < 8 {
        (r * 8 + f) as usize
    } else {
        64
    }
}

const fn step_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < deltas.len() {
            let to = offset(sq, deltas[i].0, deltas[i].1);
            if to < 64 {
                table[sq] |= 1 << to;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn ray(sq: usize, df: i8, dr: i8) -> u64 {
    let mut bb = 0;
    let mut cur = offset(sq, df, dr);
    while cur < 64 {
        bb |= 1 << cur;
        cur = offset(cur, df, dr);
    }
    bb
}

const fn line_table() -> [[LineMasks; 4]; 64] {
    let mut table = [[LineMasks { lower: 0, upper: 0 }; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 4 {
            let (df, dr) = DIRECTIONS[i];
            table[sq][i] = LineMasks {
                upper: ray(sq, df, dr),
                lower: ray(sq, -df, -dr),
            };
            i += 1;
        }
        sq += 1;
    }
    table
}

/// For each square, the squares of two of its lines (`first` and the next in
/// [`DIRECTIONS`]), itself excluded.
const fn empty_board_lines(first: usize) -> [u64; 64] {
    let lines = line_table();
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (a, b) = (lines[sq][first], lines[sq][first + 1]);
        table[sq] = a.lower | a.upper | b.lower | b.upper;
        sq += 1;
    }
    table
}

/// For each pair of squares on a common line, the squares strictly between them
/// (`whole` false) or the whole line through both (`whole` true); 0 for other pairs.
const fn pair_table(whole: bool) -> [[u64; 64]; 64] {
    let mut table = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = KING_STEPS[d];
            let full = ray(a, df, dr) | ray(a, -df, -dr) | 1 << a;
            let mut between = 0u64;
            let mut cur = offset(a, df, dr);
            while cur < 64 {
                table[a][cur] = if whole { full } else { between };
                between |= 1 << cur;
                cur = offset(cur, df, dr);
            }
            d += 1;
        }
        a += 1;
    }
    table
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
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks (8x8 layout).
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares a rook on `sq` attacks given the occupied squares (blockers included).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let l = &LINES[sq.index()];
    Bitboard(line_attacks(l[0], occupied.0) | line_attacks(l[1], occupied.0))
}

/// Squares a bishop on `sq` attacks given the occupied squares (blockers included).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let l = &LINES[sq.index()];
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

/// Squares a rook on `sq` would attack on an empty board: its file and rank.
#[inline]
pub fn rook_lines(sq: Square) -> Bitboard {
    Bitboard(ROOK_LINES[sq.index()])
}

/// Squares a bishop on `sq` would attack on an empty board: its two diagonals.
#[inline]
pub fn bishop_lines(sq: Square) -> Bitboard {
    Bitboard(BISHOP_LINES[sq.index()])
}

/// The diagonal through `sq` (towards a1 and h8), `sq` included.
#[inline]
pub fn diagonal(sq: Square) -> Bitboard {
    let l = LINES[sq.index()][2];
    Bitboard(l.lower | l.upper | 1 << sq.index())
}

/// The anti-diagonal through `sq` (towards h1 and a8), `sq` included.
#[inline]
pub fn anti_diagonal(sq: Square) -> Bitboard {
    let l = LINES[sq.index()][3];
    Bitboard(l.lower | l.upper | 1 << sq.index())
}

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The whole line through `a` and `b` (both included) if they share one, else empty.
#[inline]
pub fn line_through(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE_THROUGH[a.index()][b.index()])
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

    /// The squares a slider on `from` reaches in direction (df, dr) and its opposite,
    /// walked one square at a time.
    fn walk(from: Square, df: i8, dr: i8, occ: Bitboard) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for (df, dr) in [(df, dr), (-df, -dr)] {
            let (mut f, mut r) = (from.file() as i8 + df, from.rank() as i8 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = Square::new(f as u8, r as u8);
                bb = bb.with(s);
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        bb
    }

    #[test]
    fn compile_time_tables_agree_with_walking_the_rays() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for i in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Dense and sparse boards both.
            let occ = Bitboard(if i % 2 == 0 {
                x
            } else {
                x & (x >> 5) & (x >> 11)
            });
            for from in (0..64).map(Square::from_index) {
                let rook = walk(from, 0, 1, occ) | walk(from, 1, 0, occ);
                let bishop = walk(from, 1, 1, occ) | walk(from, -1, 1, occ);
                assert_eq!(rook_attacks(from, occ), rook, "rook {from} {occ:?}");
                assert_eq!(bishop_attacks(from, occ), bishop, "bishop {from} {occ:?}");
            }
        }
        for from in (0..64).map(Square::from_index) {
            let empty = Bitboard::EMPTY;
            assert_eq!(rook_lines(from), rook_attacks(from, empty));
            assert_eq!(bishop_lines(from), bishop_attacks(from, empty));
            assert_eq!(diagonal(from), walk(from, 1, 1, empty).with(from), "{from}");
            assert_eq!(anti_diagonal(from), walk(from, -1, 1, empty).with(from));
        }
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("a1"), sq("d4")).count(), 2);
        assert_eq!(between(sq("a1"), sq("b3")).count(), 0);
        assert!(line_through(sq("a1"), sq("c3")).contains(sq("h8")));
        assert!(line_through(sq("a1"), sq("b3")).is_empty());
    }
}
