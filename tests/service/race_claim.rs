//! The move-versus-claim race (issue 14): in Chess#, a late player's move and the
//! opponent's `claim time`, sent at the same instant through two services on one database
//! file (as two bot processes would be), must never both be accepted: the lateness is
//! checked under the game's lock on the state that is written, and the write is
//! version-checked, so whichever comes second is refused ("the game changed meanwhile",
//! or the time claim on a game where the late move now stands). 200 games, each raced
//! once.

use crate::common;

use common::service::{check_log, open, say, TempDir, T0};
use postal::service::referee::{Incoming, Place, Service};
use std::sync::Arc;

const GAMES: i64 = 200;
/// One day per move: bob is late from `T0 + DAY` on.
const DAY: i64 = 86_400;

async fn send(svc: &Service, event: String, user: &str, text: &str, at: i64) -> bool {
    let out = svc
        .handle(Incoming {
            event_id: event,
            user: user.into(),
            place: Place::Channel("games".into()),
            via: None,
            server: None,
            text: text.into(),
            at,
        })
        .await
        .unwrap();
    out.iter().all(|o| o.refusal.is_none())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_late_move_and_a_time_claim_are_never_both_accepted() {
    let dir = TempDir::new("race-claim");
    let one = Arc::new(open(&dir.db()).await);
    let two = Arc::new(open(&dir.db()).await);
    for id in 1..=GAMES {
        say(
            &one,
            &format!("c{id}"),
            "alice",
            "challenge @bob chess-sharp colour:white days:1",
            T0,
        )
        .await;
        say(&one, &format!("a{id}"), "bob", &format!("accept {id}"), T0).await;
        // Both sides have moved (a claim before that would call the game off), and bob
        // is to move: 1. K@e1 K@e8 2. e3.
        for (n, (who, mv)) in [("alice", "K@e1"), ("bob", "K@e8"), ("alice", "e3")]
            .into_iter()
            .enumerate()
        {
            let text = format!("move {id} {mv}");
            say(&one, &format!("m{id}-{n}"), who, &text, T0).await;
        }
    }
    let late = T0 + DAY + 1;
    let (mut moves, mut claims) = (0, 0);
    for id in 1..=GAMES {
        // Alternate which service gets which message, and which is sent first.
        let (a, b) = if id % 2 == 0 {
            (Arc::clone(&one), Arc::clone(&two))
        } else {
            (Arc::clone(&two), Arc::clone(&one))
        };
        let mv = tokio::spawn(async move {
            send(
                &a,
                format!("late{id}"),
                "bob",
                &format!("move {id} d6"),
                late,
            )
            .await
        });
        let claim = tokio::spawn(async move {
            send(
                &b,
                format!("claim{id}"),
                "alice",
                &format!("claim {id} time"),
                late,
            )
            .await
        });
        let (moved, claimed) = (mv.await.unwrap(), claim.await.unwrap());
        assert!(
            !(moved && claimed),
            "game #{id}: both the late move and the time claim were accepted"
        );
        moves += moved as usize;
        claims += claimed as usize;
        let g = one.store().game(id).await.unwrap().unwrap();
        // The stored game agrees with what was answered.
        if claimed {
            assert_eq!(g.status, "finished", "game #{id}");
        } else if moved {
            assert_eq!(g.status, "active", "game #{id}");
        }
        check_log(one.store(), id).await;
    }
    eprintln!("{moves} late moves and {claims} time claims accepted of {GAMES} races");
    // One of the two stands in (nearly) every race: a refused one was told "the game is
    // over", "your opponent's time has not run out" or "the game changed meanwhile"
    // (the other's write came first).
    assert!(moves + claims >= 180, "{moves} moves, {claims} claims");
}
