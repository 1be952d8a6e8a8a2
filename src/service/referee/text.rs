//! How the referee writes a game for people: times, the turn line, the status line, the
//! views with the players' names, the record's tags, and seat lists.

use super::acting::DAY;
use super::View;
use crate::render::PublicOrientation;
use crate::store::{Deadline, GameRow, SeatRow};
use crate::variants::api::{GameOutcome, GameRules, Seat, Viewer};

/// `YYYY-MM-DD HH:MM UTC` for a time in seconds since the epoch.
pub fn format_time(t: i64) -> String {
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
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60
    )
}

/// A number of days in words: `1 day`, `3 days`.
pub fn day_count(days: impl std::fmt::Display) -> String {
    let n = days.to_string();
    if n == "1" {
        "1 day".into()
    } else {
        format!("{n} days")
    }
}

/// Who is awaited, for what, and by when: `@bob (Black) to move, by 2026-01-04 00:00 UTC`.
pub(super) fn turn_line(g: &GameRow, rules: &dyn GameRules, dl: &[Deadline]) -> String {
    let parts: Vec<String> = rules
        .awaiting()
        .iter()
        .map(|(s, p)| {
            let who = format!(
                "@{} ({})",
                g.user_at(s.0).unwrap_or("?"),
                rules.seat_name(*s)
            );
            match dl.iter().find(|d| d.seat == s.0) {
                Some(d) => format!("{who} {}, by {}", p.ask, format_time(d.due_at)),
                None => format!("{who} {}", p.ask),
            }
        })
        .collect();
    parts.join("; ")
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
    let users = seat_users(g);
    let sides: Vec<String> = if rules.seat_count() == 1 {
        vec![users.first().copied().unwrap_or("?").to_string()]
    } else {
        let [white, black] = rules.side_names(&users);
        vec![format!("{white} (White)"), format!("{black} (Black)")]
    };
    o.describe(&sides)
}

/// The PGN tags the service knows for a game.
pub fn pgn_tags(g: &GameRow, rules: &dyn GameRules) -> Vec<(String, String)> {
    let [white, black] = rules.side_names(&seat_users(g));
    vec![
        ("Event".into(), format!("Postal game #{}", g.id)),
        ("Site".into(), "Postal".into()),
        ("White".into(), white),
        ("Black".into(), black),
    ]
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
) -> View {
    named_view(g, rules, Viewer::Public, orientation)
}

/// A seat's own view, drawn from its side, with the players' names.
pub(super) fn seat_view(
    g: &GameRow,
    rules: &dyn GameRules,
    seat: Seat,
    orientation: PublicOrientation,
) -> View {
    named_view(g, rules, Viewer::Seat(seat), orientation)
}

/// What `viewer` sees of a game, with the players' names (and, in team games, their
/// roles) in the caption; a seat's own view is drawn from its side.
fn named_view(
    g: &GameRow,
    rules: &dyn GameRules,
    viewer: Viewer,
    orientation: PublicOrientation,
) -> View {
    let p = rules.project(viewer);
    let mut board = p.board;
    if viewer == Viewer::Public && !board.fixed_bottom {
        board.bottom = orientation.bottom(board.caption.to_move);
    }
    let [white, black] = rules.caption_names(&seat_users(g));
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
    caption.to_move = Some(if rules.seat_name(seat).starts_with("Black") {
        crate::rules::Color::Black
    } else {
        crate::rules::Color::White
    });
    let ask = prompt.ask.strip_prefix("to ").unwrap_or(&prompt.ask);
    caption.phase = Some(ask.to_string());
}

/// The players still to accept a challenge (`@carol, @dave`, or `anyone` for open seats).
pub(super) fn waiting_for(seats: &[SeatRow]) -> String {
    seats
        .iter()
        .filter(|s| !s.accepted)
        .map(|s| match &s.user {
            Some(u) => format!("@{u}"),
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
                u.as_deref().unwrap_or("open"),
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
        super::awaited_phase(&ChessRules::new(Variant::Standard), &mut c);
        assert_eq!(c.phase, None, "a plain move keeps `White to move`");
    }

    #[test]
    fn one_day_is_singular() {
        assert_eq!(day_count(1), "1 day");
        assert_eq!(day_count(3), "3 days");
    }
}
