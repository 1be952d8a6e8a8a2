//! Each player's own settings (`settings`): shown and changed privately, kept across a
//! restart; reminder hours change which reminders the deadline check sends that player;
//! auto-claim claims a Chess# win on time for them as soon as the opponent's time runs out.

use crate::common;

use common::service::{check_log, open, say, start_game, tick_once, TempDir, T0};
use postal::service::referee::Destination;

const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_are_answered_privately_changed_and_kept_across_a_restart() {
    let dir = TempDir::new("settings");
    let db = dir.db();
    let svc = open(&db).await;
    let out = say(&svc, "s1", "alice", "settings", T0).await;
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].to, Destination::Dm("alice".into()));
    assert!(
        out[0]
            .text
            .contains("reminders the server's (24 h and 1 h before a deadline)"),
        "{}",
        out[0].text
    );
    let out = say(
        &svc,
        "s2",
        "alice",
        "settings reminders:6,48 autoclaim:on",
        T0,
    )
    .await;
    assert_eq!(out[0].to, Destination::Dm("alice".into()));
    assert!(
        out[0].text.starts_with("saved; your settings: reminders 48 h and 6 h before a deadline; auto-claim of wins on time on"),
        "{}",
        out[0].text
    );
    // Refused: a clear reason, nothing echoed, nothing changed.
    let long = format!("settings reminders:{}", "9".repeat(500));
    let out = say(&svc, "s3", "alice", &long, T0).await;
    assert!(
        out[0]
            .text
            .contains("hours before a deadline from 1 to 168"),
        "{}",
        out[0].text
    );
    assert!(!out[0].text.contains("999999"), "{}", out[0].text);
    let out = say(&svc, "s4", "alice", "settings autoclaim:maybe", T0).await;
    assert!(
        out[0].text.contains("autoclaim is on or off"),
        "{}",
        out[0].text
    );
    svc.store().close().await;
    drop(svc);

    let svc = open(&db).await;
    let s = svc.store().player_settings("alice").await.unwrap();
    assert_eq!(s.reminder_hours.as_deref(), Some("48,6"));
    assert!(s.auto_claim);
    let out = say(&svc, "s5", "alice", "settings reminders:default", T0).await;
    assert!(
        out[0].text.contains("reminders the server's"),
        "{}",
        out[0].text
    );
    let s = svc.store().player_settings("alice").await.unwrap();
    assert_eq!((s.reminder_hours, s.auto_claim), (None, true));
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_reminder_hours_decide_their_reminders() {
    let dir = TempDir::new("reminder-settings");
    let db = dir.db();
    let svc = open(&db).await;
    // Three games with three days per move, each with a different White to move.
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    start_game(&svc, "carol", "bob", "standard days:3", T0).await;
    start_game(&svc, "erin", "bob", "standard days:3", T0).await;
    say(&svc, "c1", "carol", "settings reminders:48,2", T0).await;
    say(&svc, "e1", "erin", "settings reminders:none", T0).await;
    svc.store().close().await;
    drop(svc);
    let due = T0 + 3 * DAY;
    let to = |msgs: &[(String, String)], who: &str| -> Vec<String> {
        msgs.iter()
            .filter(|(u, _)| u == who)
            .map(|(_, t)| t.clone())
            .collect()
    };

    // 47 hours ahead: only carol asked so early.
    let early = tick_once(&db, due - 47 * HOUR).await;
    assert_eq!(early.len(), 1, "{early:?}");
    assert!(
        to(&early, "carol")[0].contains("less than 48 h"),
        "{early:?}"
    );
    // 23 hours ahead: alice has the server's 24 h; carol and erin nothing.
    let day = tick_once(&db, due - 23 * HOUR).await;
    assert_eq!(day.len(), 1, "{day:?}");
    assert!(to(&day, "alice")[0].contains("less than 24 h"), "{day:?}");
    // 90 minutes ahead: carol's 2 h.
    let two = tick_once(&db, due - 90 * 60).await;
    assert_eq!(two.len(), 1, "{two:?}");
    assert!(to(&two, "carol")[0].contains("less than 2 h"), "{two:?}");
    // 30 minutes ahead: alice's 1 h; erin never hears a reminder.
    let last = tick_once(&db, due - 30 * 60).await;
    assert_eq!(last.len(), 1, "{last:?}");
    assert!(to(&last, "alice")[0].contains("less than 1 h"), "{last:?}");
    assert!(tick_once(&db, due - 10 * 60).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_claim_claims_a_chess_sharp_win_on_time_once_for_the_player_who_asked() {
    let dir = TempDir::new("auto-claim");
    let db = dir.db();
    let svc = open(&db).await;
    // Game 1: dave asked for auto-claim; game 2: frank did not.
    start_game(&svc, "carol", "dave", "chess-sharp days:1", T0).await;
    start_game(&svc, "erin", "frank", "chess-sharp days:1", T0).await;
    // Both players of each game place their kings: a timeout before both moved would
    // call the game off instead.
    for (id, white, black) in [(1, "carol", "dave"), (2, "erin", "frank")] {
        say(
            &svc,
            &format!("k{id}w"),
            white,
            &format!("move {id} K@e1"),
            T0,
        )
        .await;
        say(
            &svc,
            &format!("k{id}b"),
            black,
            &format!("move {id} K@e8"),
            T0,
        )
        .await;
    }
    say(&svc, "d1", "dave", "settings autoclaim:on", T0).await;
    svc.store().close().await;
    drop(svc);

    let out = tick_once(&db, T0 + DAY + 60).await;
    let texts: Vec<&str> = out.iter().map(|(_, t)| t.as_str()).collect();
    assert!(
        texts.iter().any(|t| t.starts_with(
            "game #1: carol's time ran out; claimed for @dave by their auto-claim setting."
        )),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("game #2: erin's time has run out") && t.contains("claim 2 time")),
        "{texts:?}"
    );
    assert!(tick_once(&db, T0 + DAY + 120).await.is_empty());

    let svc = open(&db).await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.status, "finished");
    assert_eq!(g.result.as_deref(), Some("0-1"));
    assert_eq!(
        check_log(svc.store(), 1).await,
        3,
        "two kings and one claim in the log"
    );
    let log = svc.store().actions(1).await.unwrap();
    assert_eq!(log[2].author, "dave", "the claim is dave's");
    assert_eq!(svc.store().game(2).await.unwrap().unwrap().status, "active");
    svc.store().close().await;
}
