//! Where everything goes in a board image, for a board size in pixels.
//!
//! From the top: the row of the player drawn at the top (name, turn marker, reserve,
//! tokens), the board with rank digits on its left and file letters below it, the row of
//! the player drawn at the bottom, any rows of cards, and the status line (move number
//! and whose turn it is) or, once the game is over, the result banner. Everything beside
//! the board is sized from the board's size, not the square's, so a 6x6 and an 8x8 image
//! at the same size look alike.

use crate::rules::{Color, Square};

/// A rectangle of pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

impl Rect {
    /// The pixel at the centre.
    pub fn center(&self) -> (u32, u32) {
        (self.x + self.w / 2, self.y + self.h / 2)
    }
}

/// The geometry of the fixed part of an image (everything but card rows and status line).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Layout {
    /// The unit every margin and text size is a multiple of: an eighth of the board size.
    pub u: f32,
    /// Side of a square.
    pub s: usize,
    /// Files and ranks.
    pub files: u8,
    pub ranks: u8,
    /// Width of the image.
    pub width: usize,
    /// Top left corner of the board.
    pub board_x: usize,
    pub board_y: usize,
    /// Height of a player's row.
    pub strip_h: usize,
    /// Top of the lower player's row.
    pub bottom_strip_y: usize,
    /// Height of everything above the card rows.
    pub fixed_h: usize,
    /// Height of one row of cards.
    pub card_h: usize,
    /// Height of the status line.
    pub status_h: usize,
}

impl Layout {
    /// The layout of a `files` x `ranks` board drawn `board_px` pixels across its longer
    /// side.
    pub fn new(board_px: u32, files: u8, ranks: u8) -> Layout {
        let u = board_px as f32 / 8.0;
        let s = (board_px / files.max(ranks) as u32) as usize;
        let px = |k: f32| (k * u).round() as usize;
        let label_w = px(0.42);
        let pad = px(0.22);
        let strip_h = px(0.86);
        let files_h = px(0.42);
        let board_x = label_w;
        let board_y = strip_h;
        let board_w = s * files as usize;
        let board_h = s * ranks as usize;
        let bottom_strip_y = board_y + board_h + files_h;
        Layout {
            u,
            s,
            files,
            ranks,
            width: board_x + board_w.max(px(6.0)) + pad,
            board_x,
            board_y,
            strip_h,
            bottom_strip_y,
            fixed_h: bottom_strip_y + strip_h,
            card_h: px(1.5),
            status_h: px(0.7),
        }
    }

    /// `k` units, in whole pixels.
    pub fn px(&self, k: f32) -> usize {
        (k * self.u).round() as usize
    }

    /// The width of the board.
    pub fn board_w(&self) -> usize {
        self.s * self.files as usize
    }

    /// The height of the board.
    pub fn board_h(&self) -> usize {
        self.s * self.ranks as usize
    }

    /// The screen column and row (0 = top) of a square, with `bottom` at the bottom.
    pub fn cell(&self, sq: Square, bottom: Color) -> (usize, usize) {
        match bottom {
            Color::White => (sq.file() as usize, (self.ranks - 1 - sq.rank()) as usize),
            Color::Black => ((self.files - 1 - sq.file()) as usize, sq.rank() as usize),
        }
    }

    /// The top left pixel of a square.
    pub fn square_origin(&self, sq: Square, bottom: Color) -> (usize, usize) {
        let (c, r) = self.cell(sq, bottom);
        (self.board_x + c * self.s, self.board_y + r * self.s)
    }

    /// The height of an image with `card_rows` rows of cards.
    pub fn height(&self, card_rows: usize) -> usize {
        self.fixed_h + card_rows * self.card_h + self.status_h
    }

    /// The top of the status line (or result banner).
    pub fn status_y(&self, card_rows: usize) -> usize {
        self.fixed_h + card_rows * self.card_h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_follow_the_orientation() {
        let l = Layout::new(720, 8, 8);
        assert_eq!(l.s, 90);
        let a1 = Square::parse("a1").unwrap();
        let h8 = Square::parse("h8").unwrap();
        assert_eq!(l.cell(a1, Color::White), (0, 7));
        assert_eq!(l.cell(a1, Color::Black), (7, 0));
        assert_eq!(l.cell(h8, Color::White), (7, 0));
        assert_eq!(
            l.square_origin(a1, Color::White),
            (l.board_x, l.board_y + 7 * 90)
        );
    }

    #[test]
    fn a_small_board_keeps_the_image_size() {
        let big = Layout::new(720, 8, 8);
        let small = Layout::new(720, 6, 6);
        assert_eq!(small.s, 120);
        assert_eq!(big.width, small.width);
        assert_eq!(big.fixed_h, small.fixed_h);
        let f6 = Square::parse("f6").unwrap();
        assert_eq!(small.cell(f6, Color::White), (5, 0));
    }
}
