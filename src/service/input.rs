//! What a user's text is cleaned of before it is read: the invisible and look-alike
//! characters that phones and word processors put in (a zero-width space after a pasted
//! move, full-width letters from an East Asian keyboard, typographic quotes around a
//! `fen:"..."`), which would otherwise make good input refused; and the control and
//! bidirectional-formatting characters no keyboard means to send (NUL, ESC, an override
//! that turns text around), which would otherwise come back in any answer that quotes the
//! user (`unknown command '...'`) and act on the reader's terminal or screen there.

/// `text` with zero-width spaces, word joiners and byte-order marks removed; control
/// characters ([`is_unwanted_control`]) removed, but a tab, a line break, the other
/// controls that are white space and the line and paragraph separators made spaces;
/// full-width ASCII forms and the ideographic space made ASCII, and typographic quotes
/// made straight. Everything else, other scripts and emoji included, is left as it is.
///
/// Every user's line passes here before it is read, so no answer that quotes one (an
/// unknown command, a move that does not read, a game over) holds a control character.
pub fn clean(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            '\u{200B}' | '\u{2060}' | '\u{FEFF}' => None,
            '\u{2028}' | '\u{2029}' => Some(' '),
            c if c.is_whitespace() && c.is_control() => Some(' '),
            c if is_unwanted_control(c) => None,
            // The referee's marks of times and users (`referee::time_mark`,
            // `referee::user_mark`): never from a user.
            '\u{E000}'..='\u{E1FF}' => None,
            '\u{3000}' => Some(' '),
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
            '“' | '”' | '„' | '‟' | '″' | '«' | '»' => Some('"'),
            '‘' | '’' | '‚' | '‛' | '′' => Some('\''),
            c => Some(c),
        })
        .collect()
}

/// Whether `c` is a character a user's line never means to hold: a C0 or C1 control
/// (NUL, ESC, DEL, ...), or one of Unicode's marks and overrides of writing direction
/// (U+061C, U+200E and U+200F, U+202A to U+202E, U+2066 to U+2069), which can turn the
/// text around them, the referee's own words included, the other way.
pub fn is_unwanted_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn a_zero_width_space_after_a_move_is_dropped() {
        assert_eq!(clean("e4\u{200B}"), "e4");
        assert_eq!(clean("\u{FEFF}Nf3\u{2060}"), "Nf3");
    }

    #[test]
    fn full_width_letters_and_spaces_become_ascii() {
        assert_eq!(clean("ｍｏｖｅ\u{3000}Ｎｆ３"), "move Nf3");
        assert_eq!(clean("ｅ２－ｅ４"), "e2-e4");
    }

    #[test]
    fn typographic_quotes_become_straight_and_other_scripts_stay() {
        assert_eq!(clean("fen:“8/8 w”"), "fen:\"8/8 w\"");
        assert_eq!(clean("it’s"), "it's");
        assert_eq!(clean("日本語 ♞ 👍🏽"), "日本語 ♞ 👍🏽");
    }

    #[test]
    fn control_characters_and_direction_overrides_are_dropped() {
        assert_eq!(clean("\u{0}\u{1}\u{1b}[31mred"), "[31mred");
        assert_eq!(clean("e4\u{7f}\u{9b}"), "e4");
        assert_eq!(
            clean("\u{202E}4e\u{202C} \u{2066}Nf3\u{2069}\u{200F}"),
            "4e Nf3"
        );
        // White space that is a control (a tab, a line break) is a space.
        assert_eq!(clean("move\te4\r\nok\u{2028}"), "move e4  ok ");
        let all: String = (0u32..=0x9F).filter_map(char::from_u32).collect();
        assert!(!clean(&all).chars().any(super::is_unwanted_control));
    }
}
