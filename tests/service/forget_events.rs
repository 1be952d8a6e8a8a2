//! `forget-me` for a player in tournaments and competitions who has no game under way:
//! their sign-up entries are removed, their places in a tournament under way withdrawn
//! (never paired again: their later boards are forfeited, no game is made for them), the
//! events they created handed to the server's moderators (the creator is the label); the
//! answer says each of these; afterwards their key is in no table and, on SQLite (which
//! runs with `secure_delete`), nowhere in the database file's bytes.

use crate::common;

use common::service::{dm, open, say, TempDir, T0};
use common::sql;
use postal::store::TABLES;

const ANN: &str = "300000000000000161";
const BEA: &str = "300000000000000162";
const CAL: &str = "300000000000000163";
const DAN: &str = "300000000000000164";

/// The rows, in any table (`events` left out: it holds chat event ids), that hold `key`.
async fn holding(db: &str, key: &str) -> Vec<String> {
    let mut found = Vec::new();
    for t in TABLES.iter().filter(|t| t.name != "events") {
        let cols: Vec<String> = t
            .columns
            .iter()
            .map(|(c, _)| format!("COALESCE(CAST({c} AS TEXT), '-')"))
            .collect();
        let sql = format!("SELECT {} FROM {}", cols.join(" || '|' || "), t.name);
        for row in sql::strings(db, &sql).await {
            if row.contains(key) {
                found.push(format!("{}: {row}", t.name));
            }
        }
    }
    found
}

/// The games under way in which `who` has a seat.
async fn live_games_of(db: &str, who: &str) -> i64 {
    sql::one(
        db,
        &format!(
            "SELECT CAST(count(*) AS TEXT) FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.user_id = '{who}' AND g.status = 'active'"
        ),
    )
    .await
    .parse()
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forgotten_entrant_leaves_every_event_and_no_trace() {
    let dir = TempDir::new("forget-events");
    let db = dir.db();
    let svc = open(&db).await;
    let mut at = T0;
    let mut n = 0;
    let mut act = |who: &'static str, text: &str| {
        n += 1;
        at += 60;
        (format!("e{n}"), who, text.to_string(), at)
    };
    // 1: Ann's round robin, in sign-up, Bea in it. 2: Bea's competition, in sign-up,
    // Ann in it. 3: Dan's round robin of four, under way.
    let script = [
        act(ANN, "tournament create round-robin standard"),
        act(ANN, "tournament join 1"),
        act(BEA, "tournament join 1"),
        act(BEA, "tournament create competition parade deals:2"),
        act(ANN, "tournament join 2"),
        act(DAN, "tournament create round-robin standard"),
        act(ANN, "tournament join 3"),
        act(BEA, "tournament join 3"),
        act(CAL, "tournament join 3"),
        act(DAN, "tournament join 3"),
        act(DAN, "tournament start 3"),
    ];
    for (event, who, text, at) in &script {
        say(&svc, event, who, text, *at).await;
    }
    // Ann resigns her first game; the other board plays on.
    assert_eq!(live_games_of(&db, ANN).await, 1);
    let out = say(&svc, "r1", ANN, "resign", at + 60).await;
    assert!(out[0].text.contains("resign"), "{}", out[0].text);
    assert_eq!(live_games_of(&db, ANN).await, 0);
    let out = dm(&svc, "f1", ANN, "forget-me confirm", at + 120).await;
    let answer = &out[0].text;
    for said in [
        "2 sign-up entries removed",
        "withdrawn from 1 tournament under way",
        "1 tournament created handed to the server's moderators",
    ] {
        assert!(answer.contains(said), "{said}: {answer}");
    }
    let label = svc.store().tournament(1).await.unwrap().unwrap().creator;
    assert!(label.starts_with("Former player"), "{label}");
    // The other board ends: the next round is paired without her.
    for (i, who) in [BEA, CAL, DAN].into_iter().enumerate() {
        if live_games_of(&db, who).await > 0 {
            say(&svc, &format!("r2{i}"), who, "resign", at + 180).await;
            break;
        }
    }
    let rounds = svc.store().boards(3).await.unwrap();
    assert!(rounds.iter().any(|b| b.round == 2), "round 2 started");
    assert_eq!(live_games_of(&db, &label).await, 0, "a game for the label");
    assert!(
        holding(&db, ANN).await.is_empty(),
        "{:?}",
        holding(&db, ANN).await
    );
    svc.store().close().await;
    drop(svc);
    if !dir.on_postgres() {
        let bytes = std::fs::read(dir.0.join("postal.db")).unwrap();
        let found = bytes
            .windows(ANN.len())
            .filter(|w| *w == ANN.as_bytes())
            .count();
        assert_eq!(found, 0, "the forgotten key is in the database file");
    }
}
