//! The background deadline task: it finds a deadline that passes while it runs, hands the
//! timeout over once however many intervals follow, and stops gracefully; a message handed
//! over but not marked delivered is handed over again by the next process, once.

mod common;

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
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.reason.as_deref(), Some("timeout"));
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
    assert!(svc.undelivered().await.unwrap().is_empty());
    svc.store().close().await;
}
