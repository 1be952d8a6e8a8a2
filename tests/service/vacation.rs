//! Vacations (`vacation DAYS`, `vacation end`): the player's clocks stop in every game
//! while they are away, across a restart; the deadline check neither reminds nor times
//! them out; when the vacation ends (at its planned end, by `vacation end` or by a move)
//! each deadline that ran during it is extended by the time it ran, with a referee's entry
//! in the game's log that replays change nothing with; the yearly allowance is kept.

use crate::common;

use common::service::{check_log, dm, open, say, start_game, tick_once, TempDir, T0};
use postal::service::referee::{Destination, Service};
use postal::variants::api::Action;

const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

/// The vacation entries of game `id`'s log: (seat, seconds).
async fn vacation_entries(svc: &Service, id: i64) -> Vec<(u8, i64)> {
    svc.store()
        .actions(id)
        .await
        .unwrap()
        .iter()
        .filter_map(|row| {
            let a: Action = serde_json::from_str(&row.action).unwrap();
            a.vacation_entry().map(|e| (row.seat, e.seconds))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_stops_the_clock_across_a_restart_and_extends_the_deadline() {
    let dir = TempDir::new("vacation-clock");
    let db = dir.db();
    let svc = open(&db).await;
    // Alice (White) is to move, by T0 + 3 days.
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    let out = dm(&svc, "v1", "alice", "vacation 7", T0 + DAY).await;
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].to, Destination::Dm("alice".into()));
    assert!(
        out[0].text.starts_with("you are on vacation until")
            && out[0].text.contains("your 1 game")
            && out[0].text.contains("23 days left this year"),
        "{}",
        out[0].text
    );
    // The opponent sees it: in the game's channel (through the outbox), the status line
    // and the list of games.
    let board = say(&svc, "b1", "bob", "board", T0 + DAY).await;
    assert!(
        board[0].text.contains("alice is on vacation until"),
        "{}",
        board[0].text
    );
    let games = say(&svc, "g1", "bob", "games", T0 + DAY).await;
    assert!(
        games[0].text.contains("alice is on vacation until"),
        "{}",
        games[0].text
    );
    // The list shows no deadline that will not apply: alice's clock is stopped.
    assert!(
        games[0]
            .text
            .contains("@alice (White) to move; alice is on vacation until")
            && !games[0].text.contains(", by "),
        "{}",
        games[0].text
    );
    svc.store().close().await;
    drop(svc);
    let note = tick_once(&db, T0 + DAY + 60).await;
    assert!(
        note.iter().any(|(to, t)| to == "#games"
            && t.starts_with("game #1: alice is on vacation until")
            && t.contains("clock is stopped")),
        "{note:?}"
    );

    // Past the deadline, in new processes: no reminder, no timeout.
    for at in [T0 + 2 * DAY + 23 * HOUR, T0 + 3 * DAY + 60, T0 + 6 * DAY] {
        let out = tick_once(&db, at).await;
        assert!(out.is_empty(), "{at}: {out:?}");
    }
    let svc = open(&db).await;
    assert_eq!(svc.store().game(1).await.unwrap().unwrap().status, "active");
    svc.store().close().await;
    drop(svc);

    // The planned end (T0 + 8 days) passes: the deadline moves on by the 7 days its turn
    // ran during the vacation, to T0 + 10 days, and the game is told.
    let back = tick_once(&db, T0 + 8 * DAY + 60).await;
    assert!(
        back.iter().any(|(to, t)| to == "#games"
            && t.contains("alice is back from vacation; their clock was stopped for 7 days")),
        "{back:?}"
    );
    let svc = open(&db).await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.deadlines.len(), 1);
    assert_eq!(g.deadlines[0].due_at, T0 + 10 * DAY);
    assert_eq!(vacation_entries(&svc, 1).await, vec![(0, 7 * DAY)]);
    assert_eq!(
        check_log(svc.store(), 1).await,
        1,
        "the entry replays as nothing"
    );
    let v = svc.store().open_vacation("alice").await.unwrap();
    assert_eq!(v, None, "settled");
    let status = say(&svc, "b2", "bob", "board", T0 + 8 * DAY + 120).await;
    assert!(!status[0].text.contains("vacation"), "{}", status[0].text);
    // Back, the list shows her deadline again, the extended one.
    let games = say(&svc, "g2", "bob", "games", T0 + 8 * DAY + 120).await;
    assert!(
        games[0].text.contains("@alice (White) to move, by ")
            && !games[0].text.contains("vacation"),
        "{}",
        games[0].text
    );
    svc.store().close().await;
    drop(svc);

    // Settled once: a later check extends nothing again; the reminders of the extended
    // deadline come before it, and the timeout at it.
    assert!(tick_once(&db, T0 + 8 * DAY + 600).await.is_empty());
    let reminder = tick_once(&db, T0 + 9 * DAY + HOUR).await;
    assert!(
        reminder
            .iter()
            .any(|(to, t)| to == "alice" && t.contains("less than 24 h")),
        "{reminder:?}"
    );
    let end = tick_once(&db, T0 + 10 * DAY + 60).await;
    assert!(
        end.iter().any(|(_, t)| t.contains("alice's time ran out")),
        "{end:?}"
    );
    // alice never moved: her timeout calls the game off rather than losing it.
    let svc = open(&db).await;
    assert_eq!(
        svc.store().game(1).await.unwrap().unwrap().status,
        "aborted"
    );
    assert_eq!(vacation_entries(&svc, 1).await.len(), 1);
    check_log(svc.store(), 1).await;
    svc.store().close().await;
    drop(svc);
    // The export shows the extension.
    let json: serde_json::Value =
        serde_json::from_slice(&postal::console::export(&db, 1, "json").await.unwrap()).unwrap();
    let ext = &json["clock_extensions"];
    assert_eq!(ext.as_array().map(Vec::len), Some(1), "{json}");
    assert_eq!(ext[0]["seat"], 0);
    assert_eq!(ext[0]["seconds"], 7 * DAY);
    assert_eq!(ext[0]["vacation_from"], T0 + DAY);
    assert_eq!(ext[0]["vacation_to"], T0 + 8 * DAY);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_ends_a_vacation_early_and_each_deadline_gets_the_time_it_ran() {
    let dir = TempDir::new("vacation-move");
    let db = dir.db();
    let svc = open(&db).await;
    // Game 1: alice is to move (by T0 + 3 days). Game 2: bob is to move.
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    start_game(&svc, "bob", "alice", "standard days:3", T0).await;
    let out = dm(&svc, "v1", "alice", "vacation 10", T0 + HOUR).await;
    assert!(out[0].text.contains("your 2 games"), "{}", out[0].text);
    // Bob moves in game 2 during the vacation: alice's new deadline there starts then.
    let out = say(&svc, "m1", "bob", "move 2 e4", T0 + 2 * DAY).await;
    assert!(!out.iter().any(|o| o.refusal.is_some()), "{out:?}");
    // A refused move does not end the vacation.
    let out = say(&svc, "m2", "alice", "move 1 e5", T0 + 2 * DAY + HOUR).await;
    assert!(out[0].refusal.is_some(), "{out:?}");
    assert!(svc
        .store()
        .open_vacation("alice")
        .await
        .unwrap()
        .is_some_and(|v| v.ended_at.is_none()));
    // Alice moves in game 1 at T0 + 2.5 days: her vacation ends first, then the move.
    let at = T0 + 2 * DAY + 12 * HOUR;
    let out = say(&svc, "m3", "alice", "move 1 e4", at).await;
    assert!(
        out.iter()
            .any(|o| o.to == Destination::Dm("alice".into()) && o.text.contains("welcome back")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|o| o.text.contains("e4")),
        "the move is applied: {out:?}"
    );
    // Game 2: her deadline ran 12 hours of the vacation (from bob's move).
    let g2 = svc.store().game(2).await.unwrap().unwrap();
    assert_eq!(g2.deadlines[0].due_at, T0 + 5 * DAY + 12 * HOUR);
    assert_eq!(vacation_entries(&svc, 2).await, vec![(1, 12 * HOUR)]);
    // Game 1: her move replaced the deadline: nothing to extend.
    assert!(vacation_entries(&svc, 1).await.is_empty());
    let g1 = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g1.deadlines[0].due_at, at + 3 * DAY, "bob's fresh turn");
    check_log(svc.store(), 1).await;
    check_log(svc.store(), 2).await;
    // Two days and eleven hours away: three days begun are counted.
    let out = dm(&svc, "v2", "alice", "vacation", at).await;
    assert!(
        out[0]
            .text
            .starts_with("you are not on vacation. 27 days of your 30 days of vacation left"),
        "{}",
        out[0].text
    );
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vacation_end_the_allowance_and_bad_input_are_answered_clearly() {
    let dir = TempDir::new("vacation-input");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    for (n, text, says) in [
        (1, "vacation 0", "1 or more"),
        (2, "vacation abc", "usage: vacation [DAYS|end]"),
        (
            3,
            "vacation 999",
            "you have 30 days of vacation left this year (of 30 days)",
        ),
        (4, "vacation 99999999", "usage: vacation [DAYS|end]"),
        (5, "vacation end", "you are not on vacation"),
        (6, "vacation 3 days", "usage: vacation [DAYS|end]"),
    ] {
        let out = dm(&svc, &format!("bad{n}"), "alice", text, T0).await;
        assert_eq!(out.len(), 1, "{text}");
        assert!(out[0].refusal.is_some(), "{text}: {}", out[0].text);
        assert!(out[0].text.contains(says), "{text}: {}", out[0].text);
        assert!(!out[0].text.contains("99999999"), "{}", out[0].text);
    }
    assert_eq!(svc.store().open_vacation("alice").await.unwrap(), None);

    let out = dm(&svc, "v1", "alice", "vacation 20", T0 + HOUR).await;
    assert!(out[0].refusal.is_none(), "{}", out[0].text);
    let out = dm(&svc, "v2", "alice", "vacation 5", T0 + 2 * HOUR).await;
    assert!(
        out[0].text.contains("already on vacation until"),
        "{}",
        out[0].text
    );
    // Back after three hours: the clock stopped for them, one day counted.
    let out = dm(&svc, "v3", "alice", "vacation end", T0 + 4 * HOUR).await;
    assert!(
        out[0]
            .text
            .contains("1 day counted, 29 days left this year"),
        "{}",
        out[0].text
    );
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.deadlines[0].due_at, T0 + 3 * DAY + 3 * HOUR);
    assert_eq!(check_log(svc.store(), 1).await, 1);
    // The allowance: 29 days left, not 30.
    let out = dm(&svc, "v4", "alice", "vacation 30", T0 + 5 * HOUR).await;
    assert!(
        out[0].text.contains("29 days of vacation left"),
        "{}",
        out[0].text
    );
    let out = dm(&svc, "v5", "alice", "vacation 29", T0 + 5 * HOUR).await;
    assert!(
        out[0].text.contains("0 days left this year"),
        "{}",
        out[0].text
    );
    // Ended early, it counts the one day begun: the other 28 are left.
    let out = dm(&svc, "v6", "alice", "vacation end", T0 + 6 * HOUR).await;
    assert!(
        out[0].text.contains("1 day counted, 28 days left"),
        "{}",
        out[0].text
    );
    // A new year brings a new allowance.
    let next_year = T0 + 365 * DAY + HOUR;
    let out = dm(&svc, "v7", "alice", "vacation", next_year).await;
    assert!(
        out[0].text.contains("30 days of your 30 days"),
        "{}",
        out[0].text
    );
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_of_time_is_refused_while_the_player_is_on_vacation() {
    let dir = TempDir::new("vacation-claim");
    let db = dir.db();
    let svc = open(&db).await;
    // Chess#: a win on time is claimed; carol (White) is to move by T0 + 1 day.
    start_game(&svc, "carol", "dave", "chess-sharp days:1", T0).await;
    dm(&svc, "v1", "carol", "vacation 3", T0 + HOUR).await;
    let out = say(&svc, "c1", "dave", "claim time", T0 + 2 * DAY).await;
    assert!(
        out[0].refusal.is_some() && out[0].text.contains("carol is on vacation until"),
        "{}",
        out[0].text
    );
    let games = say(&svc, "g1", "dave", "games", T0 + 2 * DAY).await;
    assert!(
        !games[0].text.contains("time has run out"),
        "{}",
        games[0].text
    );
    svc.store().close().await;
    drop(svc);
    // No "time has run out" notice during the vacation.
    let out = tick_once(&db, T0 + 2 * DAY).await;
    assert!(!out.iter().any(|(_, t)| t.contains("run out")), "{out:?}");
    let svc = open(&db).await;
    assert_eq!(svc.store().game(1).await.unwrap().unwrap().status, "active");
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_ended_but_not_settled_is_finished_by_the_next_check_once() {
    let dir = TempDir::new("vacation-settle");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    dm(&svc, "v1", "alice", "vacation 4", T0).await;
    // A process stopped right after storing the end (two days in), before extending.
    assert!(svc
        .store()
        .end_vacation("alice", T0, T0 + 2 * DAY, 2)
        .await
        .unwrap());
    svc.store().close().await;
    drop(svc);
    // Its deadline (T0 + 3 days) stays stopped until the settlement is done: the next
    // check does it, extending by the two days.
    let out = tick_once(&db, T0 + 3 * DAY + 60).await;
    assert!(
        out.iter()
            .any(|(_, t)| t
                .contains("alice is back from vacation; their clock was stopped for 2 days")),
        "{out:?}"
    );
    assert!(
        !out.iter().any(|(_, t)| t.contains("time ran out")),
        "{out:?}"
    );
    assert!(tick_once(&db, T0 + 3 * DAY + 120).await.is_empty());
    let svc = open(&db).await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.deadlines[0].due_at, T0 + 5 * DAY);
    assert_eq!(vacation_entries(&svc, 1).await, vec![(0, 2 * DAY)]);
    assert_eq!(svc.store().open_vacation("alice").await.unwrap(), None);
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_entry_leaves_takebacks_as_they_were_and_the_log_replays() {
    let dir = TempDir::new("vacation-takeback");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard days:3 takebacks:on", T0).await;
    say(&svc, "m1", "alice", "e4", T0 + HOUR).await;
    // Bob (to move) is away a day and comes back: a clock entry after alice's move.
    dm(&svc, "v1", "bob", "vacation 2", T0 + HOUR).await;
    dm(&svc, "v2", "bob", "vacation end", T0 + DAY + HOUR).await;
    assert_eq!(vacation_entries(&svc, 1).await, vec![(1, DAY)]);
    // Alice may still take back her move, and bob accept it.
    let out = say(&svc, "t1", "alice", "takeback", T0 + DAY + 2 * HOUR).await;
    assert!(out[0].refusal.is_none(), "{}", out[0].text);
    let out = say(&svc, "t2", "bob", "takeback accept", T0 + DAY + 3 * HOUR).await;
    assert!(
        out.iter().any(|o| o.text.contains("is taken back")),
        "{out:?}"
    );
    assert_eq!(check_log(svc.store(), 1).await, 4);
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_of_a_vacation_over_before_it_went_out_is_never_sent() {
    let dir = TempDir::new("vacation-late-notice");
    let db = dir.db();
    let svc = open(&db).await;
    // Alice (White) to move by T0 + 3 days; she takes one day off at once.
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    let out = dm(&svc, "v1", "alice", "vacation 1", T0).await;
    assert!(
        out[0].text.starts_with("you are on vacation until"),
        "{}",
        out[0].text
    );
    svc.store().close().await;
    drop(svc);
    // The deadline check runs late, a day after her vacation ended: the game hears she is
    // back, not that she is away until a time already past.
    let late = tick_once(&db, T0 + 2 * DAY).await;
    assert!(
        !late.iter().any(|(_, t)| t.contains("is on vacation until")),
        "{late:?}"
    );
    assert!(
        late.iter().any(|(to, t)| to == "#games"
            && t.contains("alice is back from vacation; their clock was stopped for 1 day")),
        "{late:?}"
    );
    // Nothing is left to go out later either.
    assert!(tick_once(&db, T0 + 2 * DAY + 60).await.is_empty());

    // Bob's vacation ends early, by `vacation end`, before any check: its notice, never
    // sent, is not sent after it either.
    let svc = open(&db).await;
    say(&svc, "m1", "alice", "e4", T0 + 2 * DAY + 120).await;
    dm(&svc, "v2", "bob", "vacation 5", T0 + 2 * DAY + 180).await;
    let out = dm(&svc, "v3", "bob", "vacation end", T0 + 2 * DAY + 240).await;
    assert!(out[0].text.starts_with("welcome back"), "{}", out[0].text);
    svc.store().close().await;
    drop(svc);
    let after = tick_once(&db, T0 + 2 * DAY + 300).await;
    assert!(
        !after
            .iter()
            .any(|(_, t)| t.contains("is on vacation until")),
        "{after:?}"
    );
    // A notice still true when the check runs goes out as before.
    let svc = open(&db).await;
    dm(&svc, "v4", "alice", "vacation 2", T0 + 2 * DAY + 360).await;
    svc.store().close().await;
    drop(svc);
    let now = tick_once(&db, T0 + 2 * DAY + 420).await;
    assert!(
        now.iter()
            .any(|(to, t)| to == "#games" && t.starts_with("game #1: alice is on vacation until")),
        "{now:?}"
    );
}
