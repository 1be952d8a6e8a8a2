//! `postal forget-user USER`: the operator's way to forget a player who asks them. It
//! refuses (changing nothing) while the player has a game or challenge under way and
//! for a key no adapter gives; done, the player's past games export with a neutral
//! label and the recomputed ratings leave them out; run again, it changes nothing.

use crate::common;

use common::service::{open, say, TempDir, T0};
use std::process::{Command, Output};

const ANN: &str = "300000000000000201";
const BEA: &str = "300000000000000202";

/// `postal ARGS`, its output.
fn postal(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_postal"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_forgets_a_player_once_their_games_are_over() {
    let dir = TempDir::new("forget-user");
    let db = dir.db();
    let svc = open(&db).await;
    say(
        &svc,
        "c1",
        ANN,
        &format!("challenge @{BEA} colour:white"),
        T0,
    )
    .await;
    say(&svc, "a1", BEA, "accept", T0).await;
    say(&svc, "m1", ANN, "e4", T0 + 1).await;
    say(&svc, "m2", BEA, "e5", T0 + 2).await;
    let out = say(&svc, "r1", BEA, "resign", T0 + 2).await;
    assert!(out[0].text.contains("game over"), "{}", out[0].text);
    say(&svc, "c2", ANN, &format!("challenge @{BEA}"), T0 + 3).await;
    svc.store().close().await;
    drop(svc);

    // Under way: refused, with the game's number, and nothing changes.
    let before = postal(&["export", "1", "--db", &db]);
    let refused = postal(&["forget-user", ANN, "--db", &db]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("under way (#2)"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(postal(&["export", "1", "--db", &db]).stdout, before.stdout);
    // Not a user's key (a label, say): refused.
    let label = postal(&["forget-user", "Former player 1", "--db", &db]);
    assert_eq!(label.status.code(), Some(2));
    assert!(
        stderr(&label).contains("is not a user key"),
        "{}",
        stderr(&label)
    );
    // A database that is not there is not created.
    let missing = dir.0.join("missing.db").display().to_string();
    let none = postal(&["forget-user", ANN, "--db", &missing]);
    assert!(
        stderr(&none).contains("no such database file"),
        "{}",
        stderr(&none)
    );
    assert!(!dir.0.join("missing.db").exists());

    let svc = open(&db).await;
    say(&svc, "x2", ANN, "cancel 2", T0 + 4).await;
    svc.store().close().await;
    drop(svc);
    let done = postal(&["forget-user", ANN, "--db", &db]);
    assert!(done.status.success(), "{}", stderr(&done));
    assert!(
        stderr(&done).contains(&format!(
            "forgot {ANN}: 1 row of theirs deleted; 2 past games now name them \"Former player 1\""
        )),
        "{}",
        stderr(&done)
    );
    let pgn = String::from_utf8(postal(&["export", "1", "--db", &db]).stdout).unwrap();
    assert!(
        pgn.contains("[White \"Former player 1\"]") && pgn.contains(&format!("[Black \"{BEA}\"]")),
        "{pgn}"
    );
    let ratings = String::from_utf8(postal(&["ratings", "--db", &db]).stdout).unwrap();
    assert!(
        ratings.contains(BEA) && !ratings.contains("Former player") && !ratings.contains(ANN),
        "{ratings}"
    );
    let again = postal(&["forget-user", ANN, "--db", &db]);
    assert!(again.status.success());
    assert!(
        stderr(&again).contains("nothing is stored about"),
        "{}",
        stderr(&again)
    );
}
