//! A command written into a message's text as a mark: the typed command line between two
//! private-use characters, which each adapter writes in its own form (the console as the
//! line typed, in backticks; Discord as the slash command that gives it). Variants and
//! the referee both write them, so the mark lives here, where both may use it.

/// Opens a command in a message's text ([`command_mark`]).
pub const COMMAND_OPEN: char = '\u{E003}';
/// Closes a command in a message's text.
pub const COMMAND_CLOSE: char = '\u{E004}';

/// The typed command `line` (`draw accept`, `tournament join 3`) as a mark in a message's
/// text, shown by each reader its way ([`render_commands`]). The characters are
/// private-use ones, which the referee drops from users' input, so only the referee and
/// the variants write them.
pub fn command_mark(line: &str) -> String {
    let line: String = line
        .chars()
        .filter(|&c| c != COMMAND_OPEN && c != COMMAND_CLOSE)
        .collect();
    format!("{COMMAND_OPEN}{line}{COMMAND_CLOSE}")
}

/// Begins a marked command that is a command's usage ([`usage_mark`]) rather than a line
/// to run.
const USAGE: char = '\u{E005}';

/// A command's typed usage (`move [ID] MOVE`) as a mark, for a refusal that shows how to
/// write it: the console writes it as it is, Discord as the slash command with its
/// options ([`usage_of`] tells it from a line to run).
pub fn usage_mark(usage: &str) -> String {
    command_mark(&format!("{USAGE}{usage}"))
}

/// The typed usage a marked command (as [`render_commands`] gives it) holds, if it is one
/// ([`usage_mark`]).
pub fn usage_of(line: &str) -> Option<&str> {
    line.strip_prefix(USAGE)
}

/// [`command_mark`] of a literal line, as a `&'static str` (for the words a variant keeps
/// in statics).
macro_rules! command_mark_str {
    ($line:literal) => {
        concat!("\u{E003}", $line, "\u{E004}")
    };
}
pub(crate) use command_mark_str;

/// `text` with each marked command ([`command_mark`]) written by `show`, given its typed
/// line; a mark left open shows what follows it as it is, and a stray closing character
/// is dropped.
pub fn render_commands(text: &str, mut show: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    // The text between marks, a stray closing character dropped (what `show` writes is
    // kept as it is: it may mark the command again).
    let plain = |out: &mut String, t: &str| out.extend(t.chars().filter(|&c| c != COMMAND_CLOSE));
    let mut rest = text;
    while let Some(i) = rest.find(COMMAND_OPEN) {
        plain(&mut out, &rest[..i]);
        let after = &rest[i + COMMAND_OPEN.len_utf8()..];
        match after.find(COMMAND_CLOSE) {
            Some(j) => {
                out.push_str(&show(&after[..j]));
                rest = &after[j + COMMAND_CLOSE.len_utf8()..];
            }
            None => rest = after,
        }
    }
    plain(&mut out, rest);
    out
}

/// `text` with its marked commands as typed, in backticks (`` `draw accept` ``): how the
/// console and every reader without a form of its own show them.
pub fn typed_commands(text: &str) -> String {
    render_commands(text, |line| match usage_of(line) {
        Some(usage) => usage.to_string(),
        None => format!("`{line}`"),
    })
}

/// The typed lines of the commands marked in `text`, in order.
pub fn marked_commands(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    render_commands(text, |line| {
        found.push(line.to_string());
        String::new()
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_shown_by_each_reader_and_malformed_marks_vanish() {
        let text = format!(
            "offers a draw: {} or {}",
            command_mark("draw accept"),
            command_mark_str!("draw decline")
        );
        assert_eq!(
            typed_commands(&text),
            "offers a draw: `draw accept` or `draw decline`"
        );
        assert_eq!(
            render_commands(&text, |l| format!("[{}]", l.to_uppercase())),
            "offers a draw: [DRAW ACCEPT] or [DRAW DECLINE]"
        );
        assert_eq!(marked_commands(&text), ["draw accept", "draw decline"]);
        assert_eq!(typed_commands("a\u{E003}b"), "ab");
        assert_eq!(typed_commands("a\u{E004}b"), "ab");
        assert_eq!(typed_commands(&command_mark("x\u{E004}y")), "`xy`");
        assert_eq!(typed_commands("no commands"), "no commands");
        let usage = format!("usage: {}", usage_mark("move [ID] MOVE"));
        assert_eq!(typed_commands(&usage), "usage: move [ID] MOVE");
        let mut seen = Vec::new();
        render_commands(&usage, |l| {
            seen.push(usage_of(l).map(str::to_string));
            String::new()
        });
        assert_eq!(seen, [Some("move [ID] MOVE".to_string())]);
        // A mark written again by `show` stays whole.
        let again = render_commands(&text, |l| command_mark(&format!("{l} 3")));
        assert_eq!(marked_commands(&again), ["draw accept 3", "draw decline 3"]);
    }
}
