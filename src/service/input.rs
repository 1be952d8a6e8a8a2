//! What a user's text is cleaned of before it is read: the invisible and look-alike
//! characters that phones and word processors put in (a zero-width space after a pasted
//! move, full-width letters from an East Asian keyboard, typographic quotes around a
//! `fen:"..."`), which would otherwise make good input refused.

/// `text` with zero-width spaces, word joiners and byte-order marks removed, full-width
/// ASCII forms and the ideographic space made ASCII, and typographic quotes made
/// straight. Everything else, other scripts and emoji included, is left as it is.
pub fn clean(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            '\u{200B}' | '\u{2060}' | '\u{FEFF}' => None,
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
}
