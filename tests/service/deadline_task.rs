//! The background deadline task: it finds a deadline that passes while it runs, hands the
//! timeout over once however many intervals follow, and stops gracefully; a message handed
//! over but not marked delivered is handed over again by the next process, once.

use crate::common;

use common::service::{open, start_game, TempDir, T0};
use postal::service::deadlines::DeadlineTask;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deadline_task_times_a_game_out_once_and_stops_on_request() {
    let svc = Arc::new(open("sqlite::memory:").await);
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    let now = Arc::new(AtomicI64::new(T0));
    let clock = {
        let now = Arc::clone(&now);
        move || now.load(Ordering::SeqCst)
    };
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let task = DeadlineTask::spawn(Arc::clone(&svc), Duration::from_millis(5), clock, tx);
    // Nothing is due: a few checks go by without a message.
    tokio::time::sleep(Duration::from_millis(40)).await;
    assert!(rx.try_recv().is_err());
    // The reminder, then the timeout, each once, while the task keeps checking.
    now.store(T0 + 2 * 86_400 + 60, Ordering::SeqCst);
    let reminder = tokio::time::timeout(Duration::from_secs(5), rx.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(
        reminder.message.text.contains("reminder"),
        "{}",
        reminder.message.text
    );
    svc.delivered(reminder.id, T0).await.unwrap();
    now.store(T0 + 3 * 86_400 + 60, Ordering::SeqCst);
    let timeout = tokio::time::timeout(Duration::from_secs(5), rx.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(
        timeout.message.text.contains("alice's time ran out"),
        "{}",
        timeout.message.text
    );
    svc.delivered(timeout.id, T0).await.unwrap();
    tokio::time::sleep(Duration::from_millis(40)).await;
    assert!(rx.try_recv().is_err(), "a notice was repeated");
    let stats = task.stop().await;
    assert!(stats.checks >= 4, "{stats:?}");
    assert_eq!((stats.sent, stats.failures), (2, 0));
    // Stopped: the task has let go of its sender.
    assert!(rx.recv().await.is_none());
    // Neither player had moved: the game is called off, unrated.
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.status, "aborted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_not_marked_delivered_is_handed_over_again_only_after_a_restart() {
    let dir = TempDir::new("task-outbox");
    let svc = Arc::new(open(&dir.db()).await);
    start_game(&svc, "alice", "bob", "standard days:1", T0).await;
    let late = move || T0 + 86_400 + 60;
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let task = DeadlineTask::spawn(Arc::clone(&svc), Duration::from_millis(5), late, tx);
    let first = tokio::time::timeout(Duration::from_secs(5), rx.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(first.message.text.contains("alice's time ran out"));
    // The adapter crashes before delivering: nothing is marked. Within this process the
    // task does not hand the message over again.
    tokio::time::sleep(Duration::from_millis(40)).await;
    assert!(rx.try_recv().is_err(), "handed over twice in one process");
    assert_eq!(task.stop().await.sent, 1);
    svc.store().close().await;
    drop(svc);

    // The next process hands it over once at its first check, and not again once marked.
    let svc = Arc::new(open(&dir.db()).await);
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let task = DeadlineTask::spawn(Arc::clone(&svc), Duration::from_millis(5), late, tx);
    let again = tokio::time::timeout(Duration::from_secs(5), rx.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (again.id, &again.message.text),
        (first.id, &first.message.text)
    );
    svc.delivered(again.id, late()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(40)).await;
    assert!(rx.try_recv().is_err(), "a delivered message came back");
    assert_eq!(task.stop().await.sent, 1);
    assert!(svc.claim_undelivered().await.unwrap().is_empty());
    svc.store().close().await;
}

/// Two processes on one database run the deadline check at once, again and again: every
/// reminder and timeout is recorded once and handed to exactly one of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_checking_deadlines_deliver_each_message_exactly_once() {
    let dir = TempDir::new("two-sweepers");
    let db = dir.db();
    let a = Arc::new(open(&db).await);
    for n in 0..6 {
        let (w, b) = (format!("w{n}"), format!("b{n}"));
        start_game(&a, &w, &b, "standard days:1", T0).await;
    }
    let b = Arc::new(open(&db).await);
    let mut handed: Vec<(char, i64, String)> = Vec::new();
    for step in 0..12 {
        let at = T0 + 86_400 - 3_600 + step * 600;
        let (qa, qb) = tokio::join!(a.tick(at), b.tick(at));
        for (who, svc, queued) in [('a', &a, qa.unwrap()), ('b', &b, qb.unwrap())] {
            for q in queued {
                // Delivered by whoever holds it, marked only at every other check: an
                // unmarked message stays with its holder.
                if step % 2 == 1 {
                    svc.delivered(q.id, at).await.unwrap();
                }
                handed.push((who, q.id, q.message.text));
            }
        }
    }
    // Reminders (1 h and 24 h before) and the timeout of each of the six games.
    let mut ids: Vec<i64> = handed.iter().map(|h| h.1).collect();
    ids.sort();
    ids.dedup();
    let timeouts = handed
        .iter()
        .filter(|h| h.2.contains("time ran out"))
        .map(|h| h.1)
        .collect::<std::collections::BTreeSet<_>>();
    assert_eq!(timeouts.len(), 6, "{handed:?}");
    // No message went to both processes.
    for id in &ids {
        let holders: std::collections::BTreeSet<char> =
            handed.iter().filter(|h| h.1 == *id).map(|h| h.0).collect();
        assert_eq!(holders.len(), 1, "message {id} went to {holders:?}");
    }
    assert!(a.claim_undelivered().await.unwrap().is_empty());
    assert!(b.claim_undelivered().await.unwrap().is_empty());
}

/// A process that dies holding undelivered messages keeps them from the others only until
/// its claim runs out; then another process delivers them. One that stops cleanly gives
/// them back at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_held_by_a_dead_process_are_delivered_by_another_after_the_lease() {
    let dir = TempDir::new("dead-sweeper");
    let db = dir.db();
    let a = open(&db).await;
    start_game(&a, "alice", "bob", "standard days:1", T0).await;
    let at = T0 + 86_400 + 60;
    let held = a.tick(at).await.unwrap();
    assert_eq!(held.len(), 1);
    // Process a dies (its pool is dropped without a clean stop): its claim stands.
    drop(a);
    let b = open(&db).await;
    assert!(b.tick(at).await.unwrap().is_empty(), "held by a live claim");
    // The lease of OUTBOX_LEASE_SECONDS runs out (moved back in the database, as if that
    // much time had passed).
    common::sql::execute(
        &db,
        "UPDATE outbox SET claimed_until = claimed_until - $1",
        &[postal::service::referee::OUTBOX_LEASE_SECONDS],
    )
    .await;
    let taken = b.tick(at).await.unwrap();
    assert_eq!(taken.len(), 1);
    assert_eq!(taken[0].message.text, held[0].message.text);
    // b stops cleanly without delivering: c gets the message at once.
    b.store().close().await;
    let c = open(&db).await;
    assert_eq!(c.tick(at).await.unwrap().len(), 1);
    c.store().close().await;
}
