//! Colours of a board image.

/// A colour, as red, green and blue bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// The colour written as `#rrggbb` (for messages and tests).
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Every colour a board image is drawn with.
///
/// [`Theme::default`] is a brown board (the colours most players know from paper
/// diagrams and online play) on a dark frame that sits well in Discord's dark and light
/// modes alike.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Theme {
    /// Light squares.
    pub light: Rgb,
    /// Dark squares.
    pub dark: Rgb,
    /// Light squares of the last move.
    pub light_last: Rgb,
    /// Dark squares of the last move.
    pub dark_last: Rgb,
    /// A light square holding a king in check.
    pub light_check: Rgb,
    /// A dark square holding a king in check.
    pub dark_check: Rgb,
    /// The frame around the board: margins and the players' rows.
    pub frame: Rgb,
    /// Coordinates (file letters, rank digits).
    pub label: Rgb,
    /// The name of the player to move, and other text on the frame.
    pub text: Rgb,
    /// The name of the player who is waiting.
    pub text_dim: Rgb,
    /// Behind the pieces of a reserve and the king that marks each player's row, so
    /// that pieces of both colours read on the dark frame.
    pub tray: Rgb,
    /// The "to move" marker and unspent tokens.
    pub accent: Rgb,
    /// The status line below the board.
    pub status: Rgb,
    /// Text on the status line.
    pub status_text: Rgb,
    /// The result banner that replaces the status line once the game is over.
    pub banner: Rgb,
    /// Text on the result banner.
    pub banner_text: Rgb,
    /// Fill of the white pieces, white discs and letter badges.
    pub piece_white: Rgb,
    /// Fill of the black pieces and black discs (the same as `ink` by default: one dark
    /// colour keeps the pieces crisp and the images small).
    pub piece_black: Rgb,
    /// Outlines and inner lines of the pieces, text on white badges.
    pub ink: Rgb,
    /// Marks that mean "not available": the padlock on a locked piece, crosses on spent
    /// tokens.
    pub lock: Rgb,
    /// Hearts and diamonds on playing cards.
    pub card_red: Rgb,
    /// The marker placed in a corner of the board.
    pub marker: Rgb,
}

impl Default for Theme {
    fn default() -> Theme {
        Theme {
            light: Rgb(0xf0, 0xd9, 0xb5),
            dark: Rgb(0xb5, 0x88, 0x63),
            light_last: Rgb(0xcd, 0xd2, 0x6a),
            dark_last: Rgb(0xaa, 0xa2, 0x3a),
            light_check: Rgb(0xf2, 0x86, 0x6c),
            dark_check: Rgb(0xd9, 0x5a, 0x44),
            frame: Rgb(0x26, 0x24, 0x21),
            label: Rgb(0xc8, 0xc3, 0xbc),
            text: Rgb(0xf4, 0xf1, 0xec),
            text_dim: Rgb(0x9a, 0x95, 0x8e),
            tray: Rgb(0xe8, 0xdc, 0xc8),
            accent: Rgb(0x8c, 0xc8, 0x4b),
            status: Rgb(0x3a, 0x37, 0x33),
            status_text: Rgb(0xf4, 0xf1, 0xec),
            banner: Rgb(0xf0, 0xd9, 0xb5),
            banner_text: Rgb(0x26, 0x24, 0x21),
            piece_white: Rgb(0xff, 0xff, 0xff),
            piece_black: Rgb(0x0a, 0x0a, 0x0a),
            ink: Rgb(0x0a, 0x0a, 0x0a),
            lock: Rgb(0xe0, 0x4a, 0x3a),
            card_red: Rgb(0xc8, 0x1e, 0x1e),
            marker: Rgb(0xe8, 0xb0, 0x20),
        }
    }
}
