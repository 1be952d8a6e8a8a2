//! Marks in the referee's text: a time or a user written as a private-use mark that each
//! adapter shows its own way (Discord as a timestamp or a mention, the console as UTC and
//! a key), and the plain readings of them.

pub use crate::variants::api::{command_mark, marked_commands, render_commands, typed_commands};

/// One day in seconds.
pub(super) const DAY: i64 = 86_400;

/// `YYYY-MM-DD HH:MM UTC` for a time in seconds since the epoch.
pub fn format_time(t: i64) -> String {
    let (y, m, d, secs) = civil(t);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60
    )
}

/// The UTC calendar date and the second of the day of a time in seconds since the epoch:
/// `(year, month, day, seconds)`.
pub(super) fn civil(t: i64) -> (i64, i64, i64, i64) {
    let days = t.div_euclid(DAY);
    let secs = t.rem_euclid(DAY);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d, secs)
}

/// A time as PGN's date and time values, `("2026.11.24", "13:05:09")`, in UTC.
pub fn pgn_date_time(t: i64) -> (String, String) {
    let (y, m, d, secs) = civil(t);
    (
        format!("{y:04}.{m:02}.{d:02}"),
        format!(
            "{:02}:{:02}:{:02}",
            secs / 3600,
            secs % 3600 / 60,
            secs % 60
        ),
    )
}

/// Starts a reference to a user in a message's text ([`user_mark`]).
const USER_MARK: char = '\u{E002}';
/// The first of the characters that give a marked user key's length ([`user_mark`]).
const USER_LENGTH_BASE: u32 = 0xE100;

/// A user (by key) as the referee names them in a message: a mark that each adapter
/// shows its way ([`render_users`]): the console as the key, Discord as a mention, which
/// Discord displays as the user's name. The mark is two private-use characters before
/// the key (the second gives its length), so the key itself stays in the text; a `@`
/// before it (`@bob`) is written inside the mark ([`user_at_mark`]). The referee drops
/// these characters from users' input ([`crate::service::input::clean`]), so a number a
/// player types is never read as a user.
pub fn user_mark(key: &str) -> String {
    mark(key, false)
}

/// [`user_mark`] of `@KEY`, the form the referee calls on a user with: the console shows
/// `@bob`, Discord a mention.
pub fn user_at_mark(key: &str) -> String {
    mark(key, true)
}

fn mark(key: &str, at: bool) -> String {
    let len = key.chars().count().min(255) as u32;
    let key: String = key.chars().take(255).collect();
    let length = char::from_u32(USER_LENGTH_BASE + len).unwrap_or(USER_MARK);
    format!("{USER_MARK}{length}{}{key}", if at { "@" } else { "" })
}

/// `text` with each user the referee marked ([`user_mark`]) written by `show` (given the
/// key, and whether it was written `@KEY`); a malformed mark is dropped.
pub fn render_users(text: &str, show: impl Fn(&str, bool) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(USER_MARK) {
        out.push_str(&rest[..i]);
        let after = &rest[i + USER_MARK.len_utf8()..];
        let mut chars = after.chars();
        let len = chars
            .next()
            .and_then(|c| (c as u32).checked_sub(USER_LENGTH_BASE))
            .filter(|&n| n <= 255);
        let Some(len) = len else {
            rest = after;
            continue;
        };
        let body = chars.as_str();
        let (at, body) = match body.strip_prefix('@') {
            Some(b) => (true, b),
            None => (false, body),
        };
        let end = body
            .char_indices()
            .nth(len as usize)
            .map_or(body.len(), |(j, _)| j);
        out.push_str(&show(&body[..end], at));
        rest = &body[end..];
    }
    out.push_str(rest);
    out
}

/// `text` with each reference the referee marked to user `old` ([`user_mark`], or
/// [`user_at_mark`]) made a reference to `new`, every other mark kept as it was: how
/// stored messages name a forgotten player by their label.
pub fn rekey_user(text: &str, old: &str, new: &str) -> String {
    render_users(text, |key, at| mark(if key == old { new } else { key }, at))
}

/// `text` with its users as their keys (`@bob` where the referee calls on them), its
/// times still marked: the text of a message as it leaves the service
/// ([`super::Outbound::finish`]).
pub fn users_as_keys(text: &str) -> String {
    render_users(text, |key, at| match at {
        true => format!("@{key}"),
        false => key.to_string(),
    })
}

/// `text` as plain text: its times as readable UTC ([`format_time`]), its users as
/// their keys (`@bob` where the referee calls on them) and its commands as typed
/// ([`typed_commands`]): how the console and every plain-text reader show them.
pub fn plain_text(text: &str) -> String {
    render_times(&typed_commands(&users_as_keys(text)), format_time)
}

/// Opens a time written in a message's text ([`time_mark`]).
const MARK_OPEN: char = '\u{E000}';
/// Closes a time written in a message's text.
const MARK_CLOSE: char = '\u{E001}';

/// A time (seconds since the epoch) as the referee writes it in a message: a mark that
/// each adapter shows its way ([`render_times`]): the console as readable UTC
/// ([`format_time`]), Discord as a timestamp every reader sees in their own time zone,
/// with a countdown. The marks are private-use characters, which the referee drops from
/// users' input ([`crate::service::input::clean`]), so only the referee writes them.
pub fn time_mark(t: i64) -> String {
    format!("{MARK_OPEN}{t}{MARK_CLOSE}")
}

/// `text` with each time the referee marked ([`time_mark`]) written by `show`; a
/// malformed mark is dropped (its characters removed).
pub fn render_times(text: &str, show: impl Fn(i64) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(MARK_OPEN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + MARK_OPEN.len_utf8()..];
        match after.find(MARK_CLOSE) {
            Some(j) => {
                if let Ok(t) = after[..j].parse::<i64>() {
                    out.push_str(&show(t));
                } else {
                    out.extend(after[..j].chars().filter(|&c| c != MARK_OPEN));
                }
                rest = &after[j + MARK_CLOSE.len_utf8()..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    out.replace(MARK_CLOSE, "")
}

#[cfg(test)]
mod time_tests {
    use super::*;

    fn plain_times(text: &str) -> String {
        plain_text(text)
    }

    #[test]
    fn marked_times_are_shown_by_each_reader_and_malformed_marks_vanish() {
        let text = format!("to move, by {}; then {}", time_mark(86_400), time_mark(0));
        assert_eq!(
            plain_times(&text),
            "to move, by 1970-01-02 00:00 UTC; then 1970-01-01 00:00 UTC"
        );
        assert_eq!(
            render_times(&text, |t| format!("<t:{t}:f>")),
            "to move, by <t:86400:f>; then <t:0:f>"
        );
        assert_eq!(plain_times("no times"), "no times");
        assert_eq!(plain_times("a\u{E000}x1\u{E001}b\u{E000}"), "ax1b");
        assert_eq!(plain_times("\u{E001}c"), "c");
    }

    #[test]
    fn marked_users_are_shown_by_each_reader_and_keep_their_text() {
        let text = format!(
            "{} (White) to move; {}: accept; clue 123456789012345678",
            user_mark("alice.b"),
            user_at_mark("300000000000000002")
        );
        // The key stays in the text, so what follows it is found as it reads.
        assert!(text.contains("alice.b (White)"));
        assert!(text.contains("@300000000000000002: accept"));
        assert_eq!(
            plain_text(&text),
            "alice.b (White) to move; @300000000000000002: accept; clue 123456789012345678"
        );
        assert_eq!(
            render_users(&text, |k, _| format!("<@{k}>")),
            "<@alice.b> (White) to move; <@300000000000000002>: accept; clue 123456789012345678"
        );
        // A mark cut short shows what is left of the key, never more than the text.
        let cut: String = user_mark("bobby").chars().take(4).collect();
        assert_eq!(plain_text(&cut), "bo");
        assert_eq!(plain_text("x\u{E002}y"), "xy");
    }

    #[test]
    fn a_user_rekeyed_is_named_by_the_new_key_and_nothing_else_changes() {
        let old = "300000000000000002";
        let text = format!(
            "{} (White) to move, by {}; {}: draw? clue {old}",
            user_mark(old),
            time_mark(86_400),
            user_at_mark("300000000000000003")
        );
        let new = rekey_user(&text, old, "Former player 4");
        assert_eq!(
            plain_text(&new),
            format!(
                "Former player 4 (White) to move, by 1970-01-02 00:00 UTC; @300000000000000003: draw? clue {old}"
            )
        );
        assert_eq!(
            render_users(&new, |k, _| format!("<{k}>")),
            render_users(&text, |k, _| format!(
                "<{}>",
                if k == old { "Former player 4" } else { k }
            ))
        );
        assert_eq!(rekey_user(&text, "300000000000000009", "x"), text);
    }
}
