//! How the referee writes a game for people: times, the turn line, the status line, the
//! views with the players' names, the record's tags, and seat lists.

use super::acting::DAY;
use super::View;
use crate::render::PublicOrientation;
use crate::store::{Deadline, GameRow, SeatRow};
use crate::variants::api::{plural, GameOutcome, GameRules, Seat, Viewer};

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

/// `text` with its users as their keys (`@bob` where the referee calls on them), its
/// times still marked: the text of a message as it leaves the service
/// ([`super::Outbound::finish`]).
pub fn users_as_keys(text: &str) -> String {
    render_users(text, |key, at| match at {
        true => format!("@{key}"),
        false => key.to_string(),
    })
}

/// `text` as plain text: its times as readable UTC ([`format_time`]) and its users as
/// their keys (`@bob` where the referee calls on them): how the console and every
/// plain-text reader show them.
pub fn plain_text(text: &str) -> String {
    render_times(&users_as_keys(text), format_time)
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

/// A number of days in words: `1 day`, `3 days`.
pub fn day_count(days: impl std::fmt::Display) -> String {
    plural(days, "day", "days")
}

/// Who is awaited, for what, and by when: `@bob (Black) to move, by 2026-01-04 00:00 UTC`
/// (the time as a [`time_mark`]).
pub(super) fn turn_line(g: &GameRow, rules: &dyn GameRules, dl: &[Deadline]) -> String {
    let parts: Vec<String> = rules
        .awaiting()
        .iter()
        .map(|(s, p)| {
            let who = format!(
                "{} ({})",
                user_at_mark(g.user_at(s.0).unwrap_or("?")),
                rules.seat_name(*s)
            );
            match dl.iter().find(|d| d.seat == s.0) {
                Some(d) => format!("{who} {}, by {}", p.ask, time_mark(d.due_at)),
                None => format!("{who} {}", p.ask),
            }
        })
        .collect();
    parts.join("; ")
}

/// The users [`turn_line`] calls on: the players of the seats awaited, each once, in
/// seat order (what a message with the turn line mentions).
pub(super) fn awaited_users(g: &GameRow, rules: &dyn GameRules) -> Vec<String> {
    let mut users: Vec<String> = Vec::new();
    for (s, _) in rules.awaiting() {
        if let Some(u) = g.user_at(s.0) {
            if !users.iter().any(|x| x == u) {
                users.push(u.to_string());
            }
        }
    }
    users
}

/// Every seated player of `g`, each once, in seat order.
pub(super) fn players(g: &GameRow) -> Vec<String> {
    let mut users: Vec<String> = Vec::new();
    for u in (0..g.seats.len() as u8).filter_map(|s| g.user_at(s)) {
        if !users.iter().any(|x| x == u) {
            users.push(u.to_string());
        }
    }
    users
}

/// The player of each seat, in seat order (`?` for an open seat).
pub fn seat_users(g: &GameRow) -> Vec<&str> {
    (0..g.seats.len() as u8)
        .map(|s| g.user_at(s).unwrap_or("?"))
        .collect()
}

/// How a game ended, for people, with the players' names: `alice (White) wins by
/// checkmate (1-0)`, `impasse by agreement: alice (White) 4, bob (Black) 6; 0-1 on
/// points`. A solitaire names its one player; a team is named by its players.
pub(super) fn outcome_words(g: &GameRow, rules: &dyn GameRules, o: &GameOutcome) -> String {
    let marked: Vec<String> = seat_users(g).into_iter().map(user_mark).collect();
    let users: Vec<&str> = marked.iter().map(String::as_str).collect();
    let sides: Vec<String> = if rules.seat_count() == 1 {
        vec![users.first().copied().unwrap_or("?").to_string()]
    } else {
        let [white, black] = rules.side_names(&users);
        vec![format!("{white} (White)"), format!("{black} (Black)")]
    };
    o.describe(&sides)
}

/// The PGN tags the service knows for a game, the Seven Tag Roster's first six in their
/// order (the variant adds `Result`): `Event`, `Site`, `Date` (the UTC date the game
/// started, `????.??.??` for a game that has not), `Round` (`-`: Postal's games are not
/// rounds of an event), `White`, `Black` (the players by name: `names`, in seat order,
/// where known); then, where a name is not the user's key, the keys in `WhiteUserId` and
/// `BlackUserId` (so a record names people as they read, and still says exactly who
/// played); `UTCDate` and `UTCTime` of the start, and for an aborted game
/// `Termination "abandoned"` with `PostalReason "aborted"` (a finished game's variant
/// writes its own `Termination`).
pub fn pgn_tags(g: &GameRow, rules: &dyn GameRules, names: &[String]) -> Vec<(String, String)> {
    let keys = seat_users(g);
    let named: Vec<&str> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| names.get(i).map_or(*k, String::as_str))
        .collect();
    let [white, black] = rules.side_names(&named);
    let [white_id, black_id] = rules.side_names(&keys);
    let start = g.started_at.map(pgn_date_time);
    let date = start
        .as_ref()
        .map_or_else(|| "????.??.??".to_string(), |(d, _)| d.clone());
    let ids = white != white_id || black != black_id;
    let mut tags = vec![
        ("Event".into(), format!("Postal game #{}", g.id)),
        ("Site".into(), "Postal".into()),
        ("Date".into(), date),
        ("Round".into(), "-".into()),
        ("White".into(), white),
        ("Black".into(), black),
    ];
    if ids {
        tags.push(("WhiteUserId".into(), white_id));
        tags.push(("BlackUserId".into(), black_id));
    }
    if let Some((d, t)) = start {
        tags.push(("UTCDate".into(), d));
        tags.push(("UTCTime".into(), t));
    }
    if g.status == "aborted" {
        tags.push(("Termination".into(), "abandoned".into()));
        tags.push(("PostalReason".into(), "aborted".into()));
    }
    tags
}

/// `board`'s line: the result, or who must act and for what, with the variant's public
/// counters (`; double-move tokens left: White 3, Black 4`).
pub(super) fn status_line(g: &GameRow, rules: &dyn GameRules) -> String {
    let words = match (&g.status[..], rules.outcome()) {
        (_, Some(o)) => format!("finished: {}", outcome_words(g, rules, &o)),
        ("aborted", _) => "aborted".into(),
        _ => rules
            .awaiting()
            .first()
            .map(|(s, p)| format!("{} {}", rules.seat_name(*s), p.ask))
            .unwrap_or_default(),
    };
    format!("{words}{}", counters(rules))
}

/// The variant's public counters (`; double-move tokens left: White 3, Black 4`), or "".
pub(super) fn counters(rules: &dyn GameRules) -> String {
    match rules.project(Viewer::Public).counters {
        Some(c) => format!("; {c}"),
        None => String::new(),
    }
}

/// The public view of a game, oriented as the settings say, with the players' names in
/// the board image's caption.
pub(super) fn public_view(
    g: &GameRow,
    rules: &dyn GameRules,
    orientation: PublicOrientation,
    names: &[String],
) -> View {
    named_view(g, rules, Viewer::Public, orientation, names)
}

/// A seat's own view, drawn from its side, with the players' names.
pub(super) fn seat_view(
    g: &GameRow,
    rules: &dyn GameRules,
    seat: Seat,
    orientation: PublicOrientation,
    names: &[String],
) -> View {
    named_view(g, rules, Viewer::Seat(seat), orientation, names)
}

/// What `viewer` sees of a game, with the players' names (`names`, in seat order; and,
/// in team games, their roles) in the caption; a seat's own view is drawn from its side.
fn named_view(
    g: &GameRow,
    rules: &dyn GameRules,
    viewer: Viewer,
    orientation: PublicOrientation,
    names: &[String],
) -> View {
    let p = rules.project(viewer);
    let mut board = p.board;
    if viewer == Viewer::Public && !board.fixed_bottom {
        board.bottom = orientation.bottom(board.caption.to_move);
    }
    let names: Vec<&str> = seat_users(g)
        .iter()
        .enumerate()
        .map(|(i, k)| names.get(i).map_or(*k, String::as_str))
        .collect();
    let [white, black] = rules.caption_names(&names);
    board.caption.white = white;
    board.caption.black = black;
    awaited_phase(rules, &mut board.caption);
    View {
        variant: rules.variant().to_string(),
        fen: p.fen,
        last_move: p.last_move,
        diagram: p.diagram,
        board,
    }
}

/// Where the game awaits something other than a move (a clue, a discard, a guess, a
/// secret pick), the image's status line says so and marks the side that must act,
/// instead of `White to move`. A variant that words its own phase keeps it.
fn awaited_phase(rules: &dyn GameRules, caption: &mut crate::render::Caption) {
    if caption.phase.is_some() || caption.result.is_some() || caption.to_move.is_none() {
        return;
    }
    let Some((seat, prompt)) = rules.awaiting().into_iter().find(|(_, p)| p.turn) else {
        return;
    };
    if prompt.kind == "move" {
        return;
    }
    // A game without sides (a solitaire) is drawn as White's.
    caption.to_move = Some(
        rules
            .seats()
            .side(seat)
            .unwrap_or(crate::rules::Color::White),
    );
    let ask = prompt.ask.strip_prefix("to ").unwrap_or(&prompt.ask);
    caption.phase = Some(ask.to_string());
}

/// The players still to accept a challenge (`@carol, @dave`, or `anyone` for open seats).
pub(super) fn waiting_for(seats: &[SeatRow]) -> String {
    seats
        .iter()
        .filter(|s| !s.accepted)
        .map(|s| match &s.user {
            Some(u) => user_at_mark(u),
            None => "anyone".into(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every seat with its player (`open` for a seat anyone may take): `alice (White king
/// side), bob (White queen side), ...`.
pub(super) fn seat_list(users: &[Option<String>], rules: &dyn GameRules) -> String {
    users
        .iter()
        .enumerate()
        .map(|(s, u)| {
            format!(
                "{} ({})",
                u.as_deref().map_or_else(|| "open".to_string(), user_mark),
                rules.seat_name(Seat(s as u8))
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::day_count;

    #[test]
    fn the_image_status_says_what_is_awaited_when_it_is_not_a_move() {
        use crate::render::Caption;
        use crate::rules::{Color, Variant};
        use crate::variants::chess::ChessRules;
        use crate::variants::split_brain::SplitBrain;
        let caption = || Caption {
            white: "alice".into(),
            black: "bob".into(),
            to_move: Some(Color::White),
            move_number: 1,
            result: None,
            phase: None,
        };
        let mut c = caption();
        super::awaited_phase(&SplitBrain::new(), &mut c);
        assert_eq!(c.phase.as_deref(), Some("pick a piece (privately)"));
        assert_eq!(c.to_move, Some(Color::White));
        let mut c = caption();
        super::awaited_phase(&ChessRules::new(Variant::STANDARD), &mut c);
        assert_eq!(c.phase, None, "a plain move keeps `White to move`");
    }

    #[test]
    fn pgn_dates_and_times_are_utc_with_dots_and_colons() {
        use super::pgn_date_time;
        assert_eq!(
            pgn_date_time(0),
            ("1970.01.01".to_string(), "00:00:00".to_string())
        );
        // 2026-01-01 09:30:15 UTC; and the last second of a leap day.
        assert_eq!(
            pgn_date_time(1_767_259_815),
            ("2026.01.01".to_string(), "09:30:15".to_string())
        );
        assert_eq!(
            pgn_date_time(951_868_799),
            ("2000.02.29".to_string(), "23:59:59".to_string())
        );
    }

    #[test]
    fn one_day_is_singular() {
        assert_eq!(day_count(1), "1 day");
        assert_eq!(day_count(3), "3 days");
    }
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
}
