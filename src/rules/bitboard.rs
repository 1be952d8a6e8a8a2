//! A set of squares as a 64-bit mask in the 8x8 layout (bit n = square index n).

use super::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares of the layout.
    pub const ALL: Bitboard = Bitboard(!0);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// All squares of one rank (0 = first) across the 8-wide layout.
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * rank))
    }

    /// All squares of one file (0 = a) across the 8-high layout.
    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file)
    }

    /// The rectangle `width` x `height` in the lower-left corner: a board's squares.
    /// (No loop: the row is copied to every rank by a multiplication, then the ranks
    /// above the board are cut off.)
    #[inline]
    pub const fn rectangle(width: u8, height: u8) -> Bitboard {
        let row: u64 = if width >= 8 { 0xff } else { (1 << width) - 1 };
        let ranks: u64 = if height >= 8 {
            !0
        } else {
            (1 << (8 * height)) - 1
        };
        Bitboard((row * 0x0101_0101_0101_0101) & ranks)
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        (self.0 != 0).then(|| Square::from_index(self.0.trailing_zeros() as u8))
    }

    /// The only square, if the set has exactly one.
    #[inline]
    pub fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    /// The set with `sq` added.
    #[inline]
    pub fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1 << sq.index()))
    }

    /// The set with `sq` removed.
    #[inline]
    pub fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Every square shifted one rank up (towards Black), wrapping squares dropped.
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square shifted one rank down (towards White).
    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
}

/// Iterates over the squares of a set, lowest first.
impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangle_of_a_los_alamos_board_has_36_squares() {
        let bb = Bitboard::rectangle(6, 6);
        assert_eq!(bb.count(), 36);
        assert!(bb.contains(Square::new(5, 5)));
        assert!(!bb.contains(Square::new(6, 0)));
        assert!(!bb.contains(Square::new(0, 6)));
        assert_eq!(Bitboard::rectangle(8, 8), Bitboard::ALL);
        for width in 0..=8 {
            for height in 0..=8 {
                let squares = (0..height)
                    .flat_map(|r| (0..width).map(move |f| Square::new(f, r)))
                    .fold(Bitboard::EMPTY, Bitboard::with);
                assert_eq!(
                    Bitboard::rectangle(width, height),
                    squares,
                    "{width}x{height}"
                );
            }
        }
    }

    #[test]
    fn iteration_yields_squares_in_order() {
        let bb = Bitboard::from_square(Square::new(4, 3)).with(Square::new(0, 0));
        let v: Vec<_> = bb.collect();
        assert_eq!(v, vec![Square::new(0, 0), Square::new(4, 3)]);
    }
}
