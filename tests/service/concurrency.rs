//! Many tasks on a multi-threaded runtime send the moves of a few games at once, each move
//! several times under the same chat event id, and once by a stranger to the game. (The
//! same text under a second event id is not sent: that is a second move, which may well be
//! legal a few plies later.) Afterwards every game's snapshot equals the replay of its log, the
//! log has no gap, and each ply was applied by exactly one of its events.

use crate::common;

use common::service::{check_log, open, say, TempDir, T0};
use std::sync::Arc;
use std::time::Duration;

/// Morphy's Opera Game (Paris 1858), which ends in mate on the 33rd ply.
const OPERA: [&str; 33] = [
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3",
    "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7",
    "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
];

const GAMES: usize = 4;
/// How many times each move is sent under the same event id.
const COPIES: usize = 3;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_moves_and_duplicate_events_keep_every_log_exact() {
    let dir = TempDir::new("concurrency");
    let svc = Arc::new(open(&dir.db()).await);
    for g in 0..GAMES {
        let (w, b) = (format!("w{g}"), format!("b{g}"));
        say(
            &svc,
            &format!("c{g}"),
            &w,
            &format!("challenge @{b} standard colour:white"),
            T0,
        )
        .await;
        say(&svc, &format!("a{g}"), &b, "accept", T0).await;
    }
    let mut tasks = Vec::new();
    for g in 0..GAMES {
        let id = g as i64 + 1;
        for (ply, san) in OPERA.iter().enumerate() {
            let mover = if ply % 2 == 0 {
                format!("w{g}")
            } else {
                format!("b{g}")
            };
            let text = format!("move {id} {san}");
            // The same event delivered several times, and a stranger trying the move.
            let mut senders: Vec<(String, String)> = (0..COPIES)
                .map(|_| (format!("g{id}-p{ply}"), mover.clone()))
                .collect();
            senders.push((format!("g{id}-p{ply}-wrong"), format!("stranger{g}")));
            for (event, user) in senders {
                let svc = Arc::clone(&svc);
                let text = text.clone();
                tasks.push(tokio::spawn(async move {
                    // Wait until the game has reached this ply (or give up, and leave it to
                    // the retries below), then send once.
                    let give_up = std::time::Instant::now() + Duration::from_secs(30);
                    loop {
                        let played = svc.store().actions(id).await.unwrap().len();
                        if played >= ply || std::time::Instant::now() > give_up {
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                    say(&svc, &event, &user, &text, T0).await
                }));
            }
        }
    }
    for t in tasks {
        t.await.unwrap();
    }
    // A move whose every delivery raced with another one may have been answered "the game
    // changed meanwhile"; the players then send it again, as that answer asks.
    for g in 0..GAMES {
        let id = g as i64 + 1;
        loop {
            let played = svc.store().actions(id).await.unwrap().len();
            if played == OPERA.len() {
                break;
            }
            let user = if played % 2 == 0 { "w" } else { "b" };
            say(
                &svc,
                &format!("g{id}-p{played}-retry"),
                &format!("{user}{g}"),
                &format!("move {id} {}", OPERA[played]),
                T0,
            )
            .await;
        }
    }
    for g in 0..GAMES {
        let id = g as i64 + 1;
        assert_eq!(check_log(svc.store(), id).await, OPERA.len());
        let row = svc.store().game(id).await.unwrap().unwrap();
        assert_eq!(
            (row.status.as_str(), row.result.as_deref()),
            ("finished", Some("1-0"))
        );
        // Each ply was applied by exactly one event: its first delivery or the players'
        // retry, never both, and never the stranger's.
        let store = svc.store();
        for ply in 0..OPERA.len() {
            let first = store.event_seen(&format!("g{id}-p{ply}")).await.unwrap();
            let retry = store
                .event_seen(&format!("g{id}-p{ply}-retry"))
                .await
                .unwrap();
            let wrong = store
                .event_seen(&format!("g{id}-p{ply}-wrong"))
                .await
                .unwrap();
            assert!(
                first != retry,
                "game #{id} ply {ply}: first {first}, retry {retry}"
            );
            assert!(
                !wrong,
                "game #{id} ply {ply}: the stranger's event was applied"
            );
        }
    }
    svc.store().close().await;
}
