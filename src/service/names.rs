//! Users' names and keys as the service accepts them: what a mention may name, and how
//! a name shown to others (a thread's title, an image's caption) is cleaned.
//!
//! A user key is what an adapter identifies a user by: a Discord user id (digits), or a
//! console name. A mention may only name a user: never a role (`<@&ID>`), a channel or
//! everyone at once (`@everyone`, `@here`), and never more than [`MAX_KEY_CHARS`]
//! characters, so no command can make the bot ping a crowd or carry a long string into a
//! reply.

/// The longest user key a mention or a console name may give.
pub const MAX_KEY_CHARS: usize = 32;

/// The longest display name shown to others; longer names are cut with an ellipsis.
pub const MAX_NAME_CHARS: usize = 32;

/// Whether `key` may name a user: 1 to [`MAX_KEY_CHARS`] lowercase ASCII letters, digits,
/// `_`, `-` or `.`, and not one of Discord's crowd mentions (`everyone`, `here`).
pub fn is_user_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= MAX_KEY_CHARS
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_-.".contains(&b))
        && key != "everyone"
        && key != "here"
}

/// What stands for forgotten player number `n` in the records of their past games
/// (`forget-me`): both their new key and the name shown, `Former player 3`. It holds
/// spaces and capitals, so it is never a key an adapter gives ([`is_user_key`]) nor one a
/// mention can name.
pub fn forgotten_label(n: i64) -> String {
    format!("Former player {n}")
}

/// Whether `key` is a forgotten player's label ([`forgotten_label`]): such a player is
/// left out of the tables and cannot be challenged to a rematch.
pub fn is_forgotten(key: &str) -> bool {
    key.strip_prefix("Former player ")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Reads a mention: `@bob`, `<@123>`, `<@!123>` (a Discord user); the user key, in
/// lowercase. A role (`<@&123>`), `@everyone`, `@here` and anything but a plain key are
/// not mentions.
pub fn mention(word: &str) -> Option<String> {
    let key = match word.strip_prefix("<@") {
        Some(rest) => {
            let id = rest.strip_suffix('>')?;
            let id = id.strip_prefix('!').unwrap_or(id);
            if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            id.to_string()
        }
        None => word.strip_prefix('@')?.to_lowercase(),
    };
    is_user_key(&key).then_some(key)
}

/// A name fit to show to others: control and formatting characters (line breaks,
/// right-to-left overrides, zero-width characters) removed, runs of spaces made one,
/// at most [`MAX_NAME_CHARS`] characters (cut with `…`); `fallback` when nothing is left.
pub fn display_name(raw: &str, fallback: &str) -> String {
    let cleaned: String = raw
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| !is_hidden_char(*c))
        .collect();
    let words: Vec<&str> = cleaned.split(' ').filter(|w| !w.is_empty()).collect();
    let joined = words.join(" ");
    if joined.is_empty() {
        return fallback.chars().take(MAX_NAME_CHARS).collect();
    }
    if joined.chars().count() <= MAX_NAME_CHARS {
        return joined;
    }
    let mut cut: String = joined.chars().take(MAX_NAME_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// Control characters and the marks and overrides of writing direction, which no input
/// keeps either ([`crate::service::input::is_unwanted_control`]), and the invisible
/// formatting characters that hide text (zero-width spaces and joiners, the soft hyphen,
/// the byte-order mark).
fn is_hidden_char(c: char) -> bool {
    crate::service::input::is_unwanted_control(c)
        || matches!(
            c,
            '\u{00AD}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200D}'
                | '\u{2060}'..='\u{2065}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mention_names_one_user_and_never_a_role_or_a_crowd() {
        assert_eq!(mention("@Bob"), Some("bob".into()));
        assert_eq!(mention("<@123>"), Some("123".into()));
        assert_eq!(mention("<@!123>"), Some("123".into()));
        for refused in [
            "@everyone",
            "@here",
            "@Everyone",
            "<@&123>",
            "<#123>",
            "<@>",
            "<@12a>",
            "@",
            "bob",
            "@bo b",
            "@bob\u{202e}",
            "@a:b",
        ] {
            assert_eq!(mention(refused), None, "{refused:?}");
        }
        assert_eq!(
            mention(&format!("@{}", "a".repeat(MAX_KEY_CHARS))).map(|k| k.len()),
            Some(32)
        );
        assert_eq!(
            mention(&format!("@{}", "a".repeat(MAX_KEY_CHARS + 1))),
            None
        );
    }

    #[test]
    fn a_display_name_loses_control_and_formatting_characters_and_is_bounded() {
        assert_eq!(display_name("Alice", "?"), "Alice");
        assert_eq!(display_name("  Al\nice \t B ", "?"), "Al ice B");
        assert_eq!(display_name("evil\u{202e}gnp.exe", "?"), "evilgnp.exe");
        assert_eq!(display_name("a\u{200b}b\u{0007}c", "?"), "abc");
        assert_eq!(display_name("\u{200b}\n", "123"), "123");
        let long = display_name(&"é".repeat(100), "?");
        assert_eq!(long.chars().count(), MAX_NAME_CHARS);
        assert!(long.ends_with('…'));
    }
}
