//! The deadline check reads only what is due (issue 36): once it has looked at a
//! deadline, it reads it again only at the next reminder's hour or when it falls, so a
//! check in between reads nothing, however many games are stored. On the suite's backend.

use crate::common;

use common::service::{open, say, start_game, tick_once, TempDir, T0};

const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_check_reads_a_deadline_only_when_something_may_be_due() {
    let dir = TempDir::new("due-times");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    start_game(&svc, "carol", "dave", "standard days:3", T0).await;
    say(&svc, "r1", "carol", "settings reminders:none", T0).await;
    let store = svc.store().clone();
    // Both just written: read by the next check, which finds nothing to send.
    assert_eq!(
        store.deadlines_to_check(T0 + 1, 100).await.unwrap().len(),
        2
    );
    assert!(tick_once(&db, T0 + 1).await.is_empty());
    // Then nothing to read until alice's 24-hour reminder, a day before hers falls.
    let due = T0 + 3 * DAY;
    for now in [T0 + 2, T0 + DAY, due - 24 * HOUR - 1] {
        assert!(store.deadlines_to_check(now, 100).await.unwrap().is_empty());
    }
    let read = store
        .deadlines_to_check(due - 24 * HOUR, 100)
        .await
        .unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].user.as_deref(), Some("alice"));
    let sent = tick_once(&db, due - 23 * HOUR).await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].1.contains("less than 24 h"), "{sent:?}");
    // Next: alice's 1-hour reminder; carol, who asked for none, when hers falls.
    assert!(store
        .deadlines_to_check(due - HOUR - 1, 100)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        store
            .deadlines_to_check(due - HOUR, 100)
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(store.deadlines_to_check(due, 100).await.unwrap().len(), 2);
    // Both fall: standard chess ends on time at once; nothing is left to read.
    let ended = tick_once(&db, due + 1).await;
    assert!(!ended.is_empty());
    assert!(store
        .deadlines_to_check(due + DAY, 100)
        .await
        .unwrap()
        .is_empty());
    store.close().await;
}
