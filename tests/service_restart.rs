//! Restarting the referee against a file database: a game played half before and half
//! after a restart keeps a gapless action log equal to its snapshot, a chat event seen
//! before the restart is still applied only once, and the clock's reminders and timeouts
//! are neither skipped nor repeated when the process stops between two deadline checks.

mod common;

use common::service::{check_log, open, say, TempDir, T0};
use postal::service::referee::Outbound;

const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

/// Morphy's Opera Game (Paris 1858), which ends in mate on the 33rd ply.
const OPERA: [&str; 33] = [
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3",
    "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7",
    "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
];

fn player(ply: usize) -> &'static str {
    if ply % 2 == 0 {
        "alice"
    } else {
        "bob"
    }
}

fn texts(out: &[Outbound]) -> Vec<String> {
    out.iter().map(|o| o.text.clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_survives_a_restart_with_a_gapless_log() {
    let dir = TempDir::new("restart");
    let db = dir.db();
    let svc = open(&db).await;
    say(
        &svc,
        "c",
        "alice",
        "challenge @bob standard colour:white",
        T0,
    )
    .await;
    say(&svc, "a", "bob", "accept", T0).await;
    for (ply, san) in OPERA.iter().enumerate().take(16) {
        let out = say(
            &svc,
            &format!("m{ply}"),
            player(ply),
            &format!("move 1 {san}"),
            T0,
        )
        .await;
        assert!(
            texts(&out)[0].contains("played"),
            "{san}: {:?}",
            texts(&out)
        );
    }
    assert_eq!(check_log(svc.store(), 1).await, 16);
    svc.store().close().await;
    drop(svc);

    let svc = open(&db).await;
    // The last move before the restart, delivered again by the chat service.
    assert!(say(&svc, "m15", "bob", "move 1 c6", T0).await.is_empty());
    assert_eq!(check_log(svc.store(), 1).await, 16);
    for (ply, san) in OPERA.iter().enumerate().skip(16) {
        let out = say(
            &svc,
            &format!("m{ply}"),
            player(ply),
            &format!("move 1 {san}"),
            T0,
        )
        .await;
        assert!(
            texts(&out)[0].contains("played"),
            "{san}: {:?}",
            texts(&out)
        );
    }
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(
        (g.status.as_str(), g.result.as_deref(), g.reason.as_deref()),
        ("finished", Some("1-0"), Some("checkmate"))
    );
    assert_eq!(check_log(svc.store(), 1).await, 33);
    svc.store().close().await;
}

/// Runs the deadline check at `at` on a freshly opened service, then stops it: every
/// check is a separate process lifetime.
async fn tick_once(db: &str, at: i64) -> Vec<String> {
    let svc = open(db).await;
    let out = texts(&svc.tick(at).await.unwrap());
    svc.store().close().await;
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_and_timeouts_are_neither_skipped_nor_repeated_across_restarts() {
    let dir = TempDir::new("clock");
    let db = dir.db();
    let svc = open(&db).await;
    say(
        &svc,
        "c1",
        "alice",
        "challenge @bob standard days:3 colour:white",
        T0,
    )
    .await;
    say(&svc, "a1", "bob", "accept", T0).await;
    say(
        &svc,
        "c2",
        "carol",
        "challenge @dave chess-sharp days:3 colour:white",
        T0,
    )
    .await;
    say(&svc, "a2", "dave", "accept", T0).await;
    svc.store().close().await;
    drop(svc);
    let due = T0 + 3 * DAY;

    // Nothing is due yet.
    assert!(tick_once(&db, T0 + DAY).await.is_empty());
    // The 24 h reminders, once each, however often the process restarts.
    let first = tick_once(&db, due - 23 * HOUR).await;
    assert_eq!(first.len(), 2, "{first:?}");
    assert!(
        first.iter().all(|t| t.contains("less than 24 h")),
        "{first:?}"
    );
    assert!(tick_once(&db, due - 23 * HOUR).await.is_empty());
    assert!(tick_once(&db, due - 2 * HOUR).await.is_empty());
    // The process was down when the 1 h reminders fell due: they are sent on the next
    // check after the restart, not skipped.
    let second = tick_once(&db, due - 30 * 60).await;
    assert_eq!(second.len(), 2, "{second:?}");
    assert!(
        second.iter().all(|t| t.contains("less than 1 h")),
        "{second:?}"
    );
    assert!(tick_once(&db, due - 10 * 60).await.is_empty());
    // Time runs out: standard chess ends at once, Chess# tells the opponent to claim.
    let third = tick_once(&db, due + 60).await;
    assert_eq!(third.len(), 2, "{third:?}");
    assert!(third
        .iter()
        .any(|t| t.contains("game #1: alice's time ran out")));
    assert!(third
        .iter()
        .any(|t| t.contains("game #2: carol's time has run out")));
    assert!(tick_once(&db, due + 120).await.is_empty());
    assert!(tick_once(&db, due + DAY).await.is_empty());

    let svc = open(&db).await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(
        (g.status.as_str(), g.reason.as_deref()),
        ("finished", Some("timeout"))
    );
    assert_eq!(check_log(svc.store(), 1).await, 1, "one timeout in the log");
    // The Chess# claim, after yet another restart, is accepted once.
    let out = say(&svc, "t1", "dave", "claim time", due + DAY).await;
    assert!(
        texts(&out)[0].contains("game over: 0-1 by timeout"),
        "{:?}",
        texts(&out)
    );
    assert!(say(&svc, "t2", "dave", "claim time", due + DAY).await[0]
        .text
        .contains("you have no game here"));
    assert_eq!(check_log(svc.store(), 2).await, 1);
    svc.store().close().await;
}
