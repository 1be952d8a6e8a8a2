//! The messages whose buttons lapse when their game moves on (migration 0029), on both
//! backends: kept per game and channel, the newest [`LAPSING_KEPT`] only, taken once (two
//! processes taking at once share them, never both), by channel or, at a game's end, all.

use crate::common;

use common::postgres::Schema;
use common::service::TempDir;
use postal::store::{Store, LAPSING_KEPT};

on_both_backends!(lapsing_buttons_are_kept_bounded_and_taken_once);

/// A message id of real length (19 digits), the `n`th of a run.
fn message(n: i64) -> String {
    (1_312_000_000_000_000_000 + n).to_string()
}

async fn lapsing_buttons_are_kept_bounded_and_taken_once(url: String) {
    let a = Store::open(&url).await.unwrap();
    let b = Store::open(&url).await.unwrap();
    let game = crate::backends::challenge(&a, "e0").await;
    let other = crate::backends::challenge(&a, "e1").await;
    let (thread, dm) = ("1312000000000000001", "1312000000000000002");
    // Past the bound, the oldest are forgotten; a message kept twice is kept once. The
    // ids cross a power of ten, where their text sorts otherwise than their number.
    let first = 999_999_999_999_999_990 - 1_312_000_000_000_000_000;
    for n in first..first + LAPSING_KEPT + 4 {
        a.keep_lapsing(game, thread, &message(n)).await.unwrap();
    }
    a.keep_lapsing(game, thread, &message(first + LAPSING_KEPT + 3))
        .await
        .unwrap();
    a.keep_lapsing(game, dm, &message(1)).await.unwrap();
    a.keep_lapsing(other, thread, &message(2)).await.unwrap();
    // Two processes take the thread's at once: each message goes to one of them.
    let (x, y) = tokio::join!(
        a.take_lapsing(game, Some(thread)),
        b.take_lapsing(game, Some(thread))
    );
    let mut taken: Vec<String> = x
        .unwrap()
        .into_iter()
        .chain(y.unwrap())
        .map(|t| t.1)
        .collect();
    taken.sort_by_key(|m| (m.len(), m.clone()));
    let newest: Vec<String> = (first + 4..first + LAPSING_KEPT + 4).map(message).collect();
    assert_eq!(taken, newest);
    assert!(b.take_lapsing(game, Some(thread)).await.unwrap().is_empty());
    // The game's end takes the rest of its own, wherever they are, and no other game's.
    assert_eq!(
        b.take_lapsing(game, None).await.unwrap(),
        vec![(dm.to_string(), message(1))]
    );
    assert!(a.take_lapsing(game, None).await.unwrap().is_empty());
    assert_eq!(
        a.take_lapsing(other, Some(thread)).await.unwrap(),
        vec![(thread.to_string(), message(2))]
    );
    a.close().await;
    b.close().await;
}
