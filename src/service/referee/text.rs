//! How the referee writes a game for people: times, the turn line, the status line, the
//! views with the players' names, the record's tags, and seat lists.

use super::marks::{pgn_date_time, time_mark, user_at_mark, user_mark};
use super::View;
use crate::render::PublicOrientation;
use crate::store::GameStatus;
use crate::store::{Deadline, GameRow, SeatRow};
use crate::variants::api::PromptKind;
use crate::variants::api::{plural, GameOutcome, GameRules, Seat, Viewer};

/// A number of days in words: `1 day`, `3 days`.
pub fn day_count(days: impl std::fmt::Display) -> String {
    plural(days, "day", "days")
}

/// Who is awaited, for what, and by when: `@bob (Black) to move, by 2026-01-04 00:00 UTC`
/// (the time as a [`time_mark`]).
pub(super) fn turn_line(g: &GameRow, rules: &dyn GameRules, dl: &[Deadline]) -> String {
    // Written into one string: the line is written after every move.
    let mut out = String::with_capacity(64);
    for (i, (s, p)) in rules.awaiting().iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        out.push_str(&user_at_mark(g.user_at(s.0).unwrap_or("?")));
        out.push_str(" (");
        out.push_str(rules.seat_name(*s));
        out.push_str(") ");
        out.push_str(&p.ask);
        if let Some(d) = dl.iter().find(|d| d.seat == s.0) {
            out.push_str(", by ");
            out.push_str(&time_mark(d.due_at));
        }
    }
    out
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
/// checkmate (1-0)`, `agreed impasse: alice (White) 4, bob (Black) 6; 0-1 on
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
    if g.status == GameStatus::Aborted {
        tags.push(("Termination".into(), "abandoned".into()));
        tags.push(("PostalReason".into(), "aborted".into()));
    }
    tags
}

/// `board`'s line: the result, or who must act and for what, with the variant's public
/// counters (`; double-move tokens left: White 3, Black 4`).
pub(super) fn status_line(g: &GameRow, rules: &dyn GameRules) -> String {
    let words = match (g.status, rules.outcome()) {
        (_, Some(o)) => format!("finished: {}", outcome_words(g, rules, &o)),
        (GameStatus::Aborted, _) => "aborted".into(),
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
    match rules.project_board(Viewer::Public).counters {
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
    let p = rules.project_board(viewer);
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
    if prompt.kind == PromptKind::MOVE {
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

/// A tournament's name in messages: `tournament #3 (Swiss, standard)`.
pub(super) fn tournament_name(t: &crate::store::TournamentRow, variant: &str) -> String {
    use crate::service::tournament::{format_of, is_competition};
    use crate::tournament::Format;
    let format = match (format_of(t), t.double) {
        _ if is_competition(t) => "best score",
        (Format::Swiss, _) => "Swiss",
        (Format::RoundRobin, true) => "double round robin",
        (Format::RoundRobin, false) => "round robin",
    };
    format!("tournament #{} ({format}, {variant})", t.id)
}

/// `tags`, a game's record tags ([`pgn_tags`]), as those of board `board` of round
/// `round` of the tournament `name`: the event is the tournament (`Postal tournament #3
/// (Swiss, Standard)`), the round its number, and a `Board` tag follows it.
pub(super) fn as_tournament_game(
    tags: &mut Vec<(String, String)>,
    name: &str,
    round: i64,
    board: i64,
) {
    for (k, v) in tags.iter_mut() {
        match k.as_str() {
            "Event" => *v = format!("Postal {name}"),
            "Round" => *v = round.to_string(),
            _ => {}
        }
    }
    let at = tags
        .iter()
        .position(|(k, _)| k == "Round")
        .map_or(tags.len(), |i| i + 1);
    tags.insert(at, ("Board".into(), board.to_string()));
}

/// The other players of game `g` as `user` sees them, each shown by `show`: `{joiner}
/// bob` in a game of sides (`vs bob`), and in a game of teams (`teams`: each half of the
/// seats one team) the partners apart from the opponents (`with carol vs bob, dave`);
/// an open seat is `open`; "" in a game of one. With a leading space when not empty.
pub(super) fn others_of(
    g: &GameRow,
    user: &str,
    teams: bool,
    joiner: &str,
    show: &dyn Fn(&str) -> String,
) -> String {
    let half = (g.seats.len() / 2).max(1);
    let mine = g.seat_of(user).map_or(0, usize::from) / half;
    let (partners, opponents): (Vec<_>, Vec<_>) = g
        .seats
        .iter()
        .filter(|s| s.user.as_deref() != Some(user))
        .partition(|s| teams && usize::from(s.seat) / half == mine);
    let names = |seats: Vec<&crate::store::SeatRow>| {
        seats
            .iter()
            .map(|s| s.user.as_deref().map_or_else(|| "open".into(), show))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (g.seats.len(), opponents.is_empty(), partners.is_empty()) {
        (1, _, _) | (_, true, true) => String::new(),
        (_, _, true) => format!(" {joiner} {}", names(opponents)),
        (_, _, false) => format!(" with {} vs {}", names(partners), names(opponents)),
    }
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
