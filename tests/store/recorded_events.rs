//! Whether a command stored its chat event, as the store reports it without reading the
//! event back (`store::recording_events`, which the Discord adapter asks in place of a
//! look-up after every command): on both backends, a write that stored its event says
//! so, one refused as a copy of an earlier delivery too, and a write refused for another
//! reason or carrying no event does not; a look-up of the event has the last word.

use crate::backends::{challenge, change};
use crate::common;

use common::postgres::Schema;
use common::service::TempDir;
use postal::store::{recording_events, Store, StoreError};

on_both_backends!(a_write_reports_whether_its_event_is_stored);

async fn a_write_reports_whether_its_event_is_stored(url: String) {
    let store = Store::open(&url).await.unwrap();
    let id = challenge(&store, "e0").await;
    // Nothing written: nothing recorded.
    let ((), recorded) = recording_events(async {}).await;
    assert!(!recorded);
    // A write that stores its event.
    let (written, recorded) = recording_events(store.write(id, &change(0, "m1"))).await;
    written.unwrap();
    assert!(recorded, "a write that stored its event");
    // A second delivery of it: refused, and the event is stored (by the first).
    let (written, recorded) = recording_events(store.write(id, &change(1, "m1"))).await;
    assert!(matches!(written, Err(StoreError::Duplicate)));
    assert!(recorded, "a copy of an applied event");
    // A write that lost the race (an old version) stores nothing.
    let (written, recorded) = recording_events(store.write(id, &change(0, "m2"))).await;
    assert!(matches!(written, Err(StoreError::Conflict)));
    assert!(!recorded, "a write refused for its version");
    // A write without an event records none.
    let mut w = change(1, "unused");
    w.event_id = None;
    let (written, recorded) = recording_events(store.write(id, &w)).await;
    written.unwrap();
    assert!(!recorded, "a write without an event");
    // A game created with its event, in a transaction.
    let (_, recorded) = recording_events(challenge(&store, "e1")).await;
    assert!(recorded, "a challenge that stored its event");
    // The look-up has the last word: what is stored, whatever was noted before it.
    let (seen, recorded) = recording_events(async {
        store.write(id, &change(2, "m3")).await.unwrap();
        store.event_seen("never").await.unwrap()
    })
    .await;
    assert!(!seen && !recorded, "a look-up of an event not stored");
    let (seen, recorded) = recording_events(store.event_seen("m1")).await;
    assert!(seen.unwrap() && recorded, "a look-up of a stored event");
    // Outside `recording_events` nothing is noted and nothing fails.
    store.write(id, &change(3, "m4")).await.unwrap();
    assert_eq!(store.actions(id).await.unwrap().len(), 4);
    store.close().await;
}
