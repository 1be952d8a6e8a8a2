//! A game's write as plain statements (migration 0031, `src/store/write_sql.rs`), on both
//! backends: a refused write (a stale version, a seen event, no such game, the second of
//! two writes in one transaction) leaves nothing behind, a seat's deadline replaced by the
//! same seat's is looked at from the write's time, and an author who is not the seat's
//! player is kept beside the log whether the write seats them or not.

use crate::backends::{challenge, change};
use crate::common;

use common::postgres::Schema;
use common::service::TempDir;
use postal::store::{GameStatus, NewAction, NewDeadline, Store, StoreError, Write};

on_both_backends!(
    a_refused_write_leaves_nothing_behind,
    a_seats_deadline_replaced_by_its_own_is_looked_at_from_the_write,
    an_author_who_is_not_the_seats_player_is_kept,
);

/// A move by `seat`'s player (`author`) on version `version`, keeping seat `next`'s
/// deadline at `due_at`.
fn move_by(version: i64, seat: u8, author: &str, event: &str, next: u8, due_at: i64) -> Write {
    Write {
        expected_version: version,
        action: Some(NewAction {
            seat,
            author: author.into(),
            json: "{\"Move\":\"e4\"}".into(),
        }),
        at: 100 + version,
        event_id: Some(event.into()),
        status: GameStatus::Active,
        snapshot: format!("{{\"v\":{}}}", version + 1),
        deadlines: vec![NewDeadline {
            seat: next,
            turn: version + 1,
            due_at,
        }],
        ..Write::default()
    }
}

async fn a_refused_write_leaves_nothing_behind(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    store.write(id, &change(0, "e1")).await.unwrap();
    let before = store.game(id).await.unwrap().unwrap();
    // A stale version: neither its event nor its line is kept.
    let stale = move_by(0, 1, "bob", "e2", 0, 5000);
    assert!(matches!(
        store.write(id, &stale).await,
        Err(StoreError::Conflict)
    ));
    assert!(!store.event_seen("e2").await.unwrap());
    // No such game: a conflict, and its event is not kept either.
    assert!(matches!(
        store
            .write(id + 1000, &move_by(1, 1, "bob", "e3", 0, 5000))
            .await,
        Err(StoreError::Conflict)
    ));
    assert!(!store.event_seen("e3").await.unwrap());
    // A seen event on the right version: a duplicate, nothing written.
    assert!(matches!(
        store.write(id, &move_by(1, 1, "bob", "e1", 0, 5000)).await,
        Err(StoreError::Duplicate)
    ));
    // Two writes in one transaction, the second stale: the first is undone with it.
    let pair = [
        move_by(1, 1, "bob", "e4", 0, 5000),
        move_by(1, 0, "alice", "e5", 1, 6000),
    ];
    assert!(matches!(
        store.write_all(id, &pair).await,
        Err(StoreError::Conflict)
    ));
    assert!(!store.event_seen("e4").await.unwrap());
    let after = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        (after.version, &after.snapshot, &after.deadlines),
        (before.version, &before.snapshot, &before.deadlines)
    );
    assert_eq!(store.actions(id).await.unwrap().len(), 1);
    // And the store goes on: the same writes, each from the version the one before left.
    let pair = [
        move_by(1, 1, "bob", "e4", 0, 5000),
        move_by(2, 0, "alice", "e5", 1, 6000),
    ];
    store.write_all(id, &pair).await.unwrap();
    assert_eq!(store.game(id).await.unwrap().unwrap().version, 3);
    assert_eq!(store.actions(id).await.unwrap().len(), 3);
    store.close().await;
}

async fn a_seats_deadline_replaced_by_its_own_is_looked_at_from_the_write(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    store.write(id, &change(0, "e1")).await.unwrap();
    // Seat 1's deadline (from `change`), replaced by seat 1's again.
    let mut w = move_by(1, 0, "alice", "e2", 1, 7000);
    w.at = 500;
    store.write(id, &w).await.unwrap();
    let g = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        g.deadlines
            .iter()
            .map(|d| (d.seat, d.turn, d.due_at))
            .collect::<Vec<_>>(),
        vec![(1, 2, 7000)]
    );
    assert!(store.deadlines_to_check(499, 10).await.unwrap().is_empty());
    let due = store.deadlines_to_check(500, 10).await.unwrap();
    assert_eq!(
        due.iter()
            .map(|d| (d.deadline.seat, d.check_at))
            .collect::<Vec<_>>(),
        vec![(1, 500)]
    );
    store.close().await;
}

async fn an_author_who_is_not_the_seats_player_is_kept(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    // `change` seats bob in seat 1 and acts for alice in seat 0, by alice.
    store.write(id, &change(0, "e1")).await.unwrap();
    // The referee acts for seat 1 (the seat's player read from the store), then bob.
    store
        .write(id, &move_by(1, 1, "referee", "e2", 0, 5000))
        .await
        .unwrap();
    store
        .write(id, &move_by(2, 1, "bob", "e3", 0, 5000))
        .await
        .unwrap();
    // A write that seats carol in seat 1 and acts for her by a moderator.
    let mut w = change(3, "e4");
    w.seats.as_mut().unwrap()[0].user = Some("carol".into());
    store.ensure_user("carol", "Carol").await.unwrap();
    w.action.as_mut().unwrap().seat = 1;
    w.action.as_mut().unwrap().author = "moderator".into();
    store.write(id, &w).await.unwrap();
    let authors: Vec<(i64, String)> = store
        .actions(id)
        .await
        .unwrap()
        .into_iter()
        .map(|a| (a.seq, a.author))
        .collect();
    assert_eq!(
        authors,
        vec![
            (1, "alice".into()),
            (2, "referee".into()),
            (3, "carol".into()),
            (4, "moderator".into()),
        ]
    );
    store.close().await;
}
