//! `forget-me` for a player in tournaments and competitions who has no game under way:
//! their sign-up entries are removed, their places in a tournament under way withdrawn
//! (never paired again: their later boards are forfeited, no game is made for them), the
//! events they created handed to the server's moderators (the creator is the label); the
//! answer says each of these; afterwards their key and their display name are in no table
//! (the outbox's queued standings included) and, on SQLite (which runs with
//! `secure_delete`), nowhere in the database file's bytes.

use crate::common;

use common::service::{dm, open, say, TempDir, T0};
use common::sql;
use postal::store::TABLES;

const ANN: &str = "300000000000000161";
const BEA: &str = "300000000000000162";
const CAL: &str = "300000000000000163";
const DAN: &str = "300000000000000164";

/// Ann's display name, as the bot learns it from her messages.
const ANN_NAME: &str = "Annabel Quill";

/// The first of `players` with a game under way resigns it, as chat event `event`.
async fn other_board_resigns(
    svc: &postal::service::referee::Service,
    db: &str,
    players: &[&str],
    event: &str,
    at: i64,
) {
    for who in players {
        if live_games_of(db, who).await > 0 {
            let out = say(svc, event, who, "resign", at).await;
            assert!(out[0].text.contains("resign"), "{}", out[0].text);
            return;
        }
    }
    panic!("no other board under way");
}

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
    svc.learn_name(ANN, ANN_NAME);
    for (event, who, text, at) in &script {
        say(&svc, event, who, text, *at).await;
    }
    // Ann resigns her first game; the other board ends too: the standings after round
    // 1, which name her, are queued with round 2, where she resigns again.
    assert_eq!(live_games_of(&db, ANN).await, 1);
    let out = say(&svc, "r1", ANN, "resign", at + 60).await;
    assert!(out[0].text.contains("resign"), "{}", out[0].text);
    other_board_resigns(&svc, &db, &[BEA, CAL, DAN], "r1b", at + 70).await;
    assert_eq!(live_games_of(&db, ANN).await, 1, "round 2 started");
    let queued = sql::strings(&db, "SELECT COALESCE(standings, '') FROM outbox").await;
    assert!(
        queued
            .iter()
            .any(|s| s.contains("Former") || s.contains(ANN)),
        "{queued:?}"
    );
    let out = say(&svc, "r2", ANN, "resign", at + 80).await;
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
    other_board_resigns(&svc, &db, &[BEA, CAL, DAN], "r2b", at + 180).await;
    let rounds = svc.store().boards(3).await.unwrap();
    assert!(rounds.iter().any(|b| b.round == 3), "round 3 started");
    assert_eq!(live_games_of(&db, &label).await, 0, "a game for the label");
    // Neither her key nor her name, anywhere: the outbox's queued standings, which
    // named her, now name the label.
    for trace in [ANN, ANN_NAME] {
        assert!(
            holding(&db, trace).await.is_empty(),
            "{trace}: {:?}",
            holding(&db, trace).await
        );
    }
    let queued = sql::strings(&db, "SELECT COALESCE(standings, '') FROM outbox").await;
    assert!(queued.iter().any(|s| s.contains(&label)), "{queued:?}");
    svc.store().close().await;
    drop(svc);
    if !dir.on_postgres() {
        let bytes = std::fs::read(dir.0.join("postal.db")).unwrap();
        for trace in [ANN, ANN_NAME] {
            let found = bytes
                .windows(trace.len())
                .filter(|w| *w == trace.as_bytes())
                .count();
            assert_eq!(found, 0, "the forgotten {trace} is in the database file");
        }
    }
}
