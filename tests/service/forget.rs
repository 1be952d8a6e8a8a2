//! `forget-me`: a player's personal data deleted at their request, and their key in the
//! records of their past games replaced by a neutral label. The rows are gone and the
//! key is nowhere in the database; the games still replay and export, naming the label;
//! two forgotten players of one game stay distinct; other players' data and ratings
//! stand; a refusal, and forgetting twice, change nothing.

use crate::common;

use common::service::{check_log, dm, open, say, start_game, tick_once, TempDir, T0};
use common::sql;
use postal::service::export::export_game;
use postal::service::referee::{user_mark, Destination, Service};
use postal::store::TABLES;
use postal::variants::api::RefusalKind;
use postal::variants::Registry;

const ANN: &str = "300000000000000101";
const BEA: &str = "300000000000000102";
const CAL: &str = "300000000000000103";

/// Every value of every table, row by row, as text (tables in schema order, rows sorted),
/// leaving out `events` (which a command marks whatever it does).
async fn dump(db: &str) -> Vec<String> {
    let mut all = Vec::new();
    for t in TABLES.iter().filter(|t| t.name != "events") {
        let cols: Vec<String> = t
            .columns
            .iter()
            .map(|(c, _)| format!("COALESCE(CAST({c} AS TEXT), '-')"))
            .collect();
        let sql = format!(
            "SELECT {} FROM {} ORDER BY 1",
            cols.join(" || '|' || "),
            t.name
        );
        for row in sql::strings(db, &sql).await {
            all.push(format!("{}: {row}", t.name));
        }
    }
    all
}

/// The values, in any table, that hold `key`.
async fn holding(db: &str, key: &str) -> Vec<String> {
    dump(db)
        .await
        .into_iter()
        .filter(|row| row.contains(key))
        .collect()
}

/// The count `sql` selects.
async fn count(db: &str, sql: &str) -> i64 {
    sql::one(db, &format!("SELECT CAST(({sql}) AS TEXT)"))
        .await
        .parse()
        .unwrap()
}

/// Game `id` exported as `format`.
async fn export(svc: &Service, id: i64, format: &str) -> String {
    let g = svc.store().game(id).await.unwrap().unwrap();
    let log = svc.store().actions(id).await.unwrap();
    String::from_utf8(export_game(&g, &log, format, &Registry::builtin()).unwrap()).unwrap()
}

/// Ann (White) loses game 1 to Bea by the fool's mate, with a vacation on the way (its
/// notice, naming her, goes through the outbox); Ann (White) wins game 2 when Cal
/// resigns. Ann has settings, a digest sent, a held message and refused DMs; Bea has
/// settings and a held message naming Ann.
async fn two_finished_games(svc: &Service, db: &str) {
    start_game(svc, ANN, BEA, "standard", T0).await;
    let out = dm(svc, "v1", ANN, "vacation 3", T0 + 10).await;
    assert!(
        out[0].text.starts_with("you are on vacation"),
        "{}",
        out[0].text
    );
    for (n, (who, mv)) in [(ANN, "f3"), (BEA, "e5"), (ANN, "g4"), (BEA, "Qh4#")]
        .into_iter()
        .enumerate()
    {
        let out = say(svc, &format!("m1-{n}"), who, mv, T0 + 100 + n as i64).await;
        assert!(out.iter().all(|o| o.refusal.is_none()), "{mv}: {out:?}");
    }
    start_game(svc, ANN, CAL, "standard", T0 + 200).await;
    say(svc, "m2-0", ANN, "move 2 e4", T0 + 205).await;
    say(svc, "m2-1", CAL, "move 2 e5", T0 + 206).await;
    let out = say(svc, "r2", CAL, "resign", T0 + 210).await;
    assert!(out[0].text.contains("resign"), "{}", out[0].text);
    for (n, who) in [ANN, BEA].into_iter().enumerate() {
        let out = dm(
            svc,
            &format!("s{n}"),
            who,
            "settings digest:18 orientation:white reminders:24",
            T0 + 300,
        )
        .await;
        assert!(out[0].text.starts_with("saved"), "{}", out[0].text);
    }
    svc.hold_message(ANN, "for Ann alone", T0 + 310)
        .await
        .unwrap();
    svc.refuse_dms(ANN, T0 + 310).await.unwrap();
    let about_ann = format!("game #1: {} resigned? no, mated", user_mark(ANN));
    svc.hold_message(BEA, &about_ann, T0 + 311).await.unwrap();
    // The next digest hour: Ann's (and Bea's) digest day is recorded.
    tick_once(db, T0 + 18 * 3600 + 60).await;
    for table in ["vacations", "digests", "held_messages", "dm_closed"] {
        assert!(
            count(
                db,
                &format!("SELECT COUNT(*) FROM {table} WHERE user_id = '{ANN}'")
            )
            .await
                > 0,
            "{table} holds nothing of Ann's"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forgetting_deletes_the_rows_and_relabels_the_records_which_still_replay() {
    let dir = TempDir::new("forget");
    let db = dir.db();
    let svc = open(&db).await;
    two_finished_games(&svc, &db).await;
    let bea_settings = dm(&svc, "bs1", BEA, "settings", T0 + 400).await[0]
        .text
        .clone();
    let bea_rating = say(&svc, "br1", BEA, &format!("rating @{BEA}"), T0 + 400).await[0]
        .text
        .clone();
    assert!(export(&svc, 1, "pgn")
        .await
        .contains(&format!("[White \"{ANN}\"]")));

    // Asked: what will go, a button for Ann alone, and nothing changed.
    let before = dump(&db).await;
    let out = say(&svc, "f1", ANN, "forget-me", T0 + 500).await;
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].to, Destination::Dm(ANN.into()));
    assert!(
        out[0].text.contains("your 2 past games") && out[0].text.contains("cannot be undone"),
        "{}",
        out[0].text
    );
    assert_eq!(out[0].buttons.len(), 1);
    assert_eq!(out[0].buttons[0].command, "forget-me confirm");
    assert_eq!(out[0].buttons[0].for_user.as_deref(), Some(ANN));
    assert_eq!(dump(&db).await, before);

    // Refused while a challenge of hers is open, with the reason; nothing changed.
    let out = say(&svc, "c3", ANN, &format!("challenge @{BEA}"), T0 + 510).await;
    assert!(out[0].text.contains("challenges"), "{}", out[0].text);
    let before = dump(&db).await;
    for (event, text) in [("f2", "forget-me"), ("f3", "forget-me confirm")] {
        let out = dm(&svc, event, ANN, text, T0 + 520).await;
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].refusal, Some(RefusalKind::Illegal));
        assert!(
            out[0].text.contains("under way (#3)") && out[0].text.contains("nothing was deleted"),
            "{}",
            out[0].text
        );
    }
    assert_eq!(dump(&db).await, before);
    let out = say(&svc, "x3", ANN, "cancel 3", T0 + 530).await;
    assert!(out[0].refusal.is_none(), "{out:?}");

    // Confirmed: done, in one answer to her alone.
    let out = dm(&svc, "f4", ANN, "forget-me confirm", T0 + 600).await;
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].to, Destination::Dm(ANN.into()));
    assert!(
        out[0].text.starts_with("done:")
            && out[0]
                .text
                .contains("your 3 past games now name you \"Former player 1\""),
        "{}",
        out[0].text
    );
    // Her key is nowhere in the database; her own rows are gone.
    assert_eq!(holding(&db, ANN).await, Vec::<String>::new());
    for table in ["vacations", "digests", "held_messages", "dm_closed"] {
        assert_eq!(
            count(
                &db,
                &format!("SELECT COUNT(*) FROM {table} WHERE user_id = '{ANN}'")
            )
            .await,
            0,
            "{table}"
        );
    }
    assert_eq!(
        count(
            &db,
            &format!("SELECT COUNT(*) FROM users WHERE id = '{ANN}'")
        )
        .await,
        0
    );

    // The games replay and export, naming the label; the message held for Bea too.
    for id in 1..=3 {
        check_log(svc.store(), id).await;
    }
    let pgn = export(&svc, 1, "pgn").await;
    assert!(
        pgn.contains("[White \"Former player 1\"]") && pgn.contains(&format!("[Black \"{BEA}\"]")),
        "{pgn}"
    );
    assert!(pgn.contains("Qh4#"), "{pgn}");
    let json = export(&svc, 2, "json").await;
    assert!(json.contains("\"user\": \"Former player 1\""), "{json}");
    let held = svc.take_held_messages(BEA).await.unwrap();
    assert_eq!(held.len(), 1);
    assert_eq!(
        postal::service::referee::plain_text(&held[0]),
        "game #1: Former player 1 resigned? no, mated"
    );
    // The records read on the bot name her by the label.
    let record = say(&svc, "p1", BEA, "pgn 1", T0 + 610).await;
    assert!(
        record[0].text.contains("[White \"Former player 1\"]"),
        "{}",
        record[0].text
    );

    // Bea's settings and rating stand; Ann is on no table; no rematch with no one.
    assert_eq!(
        dm(&svc, "bs2", BEA, "settings", T0 + 620).await[0].text,
        bea_settings
    );
    assert_eq!(
        say(&svc, "br2", BEA, &format!("rating @{BEA}"), T0 + 620).await[0].text,
        bea_rating
    );
    let board = say(&svc, "lb", BEA, "leaderboard standard", T0 + 620).await;
    assert!(
        board[0].text.contains(BEA) && !board[0].text.contains("Former player"),
        "{}",
        board[0].text
    );
    let out = say(&svc, "rm", BEA, "rematch 1", T0 + 630).await;
    assert_eq!(out[0].refusal, Some(RefusalKind::NotHere), "{out:?}");
    assert!(
        out[0].text.contains("asked to be forgotten"),
        "{}",
        out[0].text
    );

    // Twice is harmless: nothing is left, nothing changes.
    let before = dump(&db).await;
    let out = dm(&svc, "f5", ANN, "forget-me confirm", T0 + 700).await;
    assert!(out[0].text.contains("nothing to delete"), "{}", out[0].text);
    assert_eq!(dump(&db).await, before);

    // Cal forgotten too: game 2 names two labels, distinct.
    let out = dm(&svc, "f6", CAL, "forget-me confirm", T0 + 800).await;
    assert!(
        out[0].text.contains("\"Former player 2\""),
        "{}",
        out[0].text
    );
    let pgn = export(&svc, 2, "pgn").await;
    assert!(
        pgn.contains("[White \"Former player 1\"]") && pgn.contains("[Black \"Former player 2\"]"),
        "{pgn}"
    );
    check_log(svc.store(), 2).await;
    assert_eq!(holding(&db, CAL).await, Vec::<String>::new());
    // Bea's rows are all still hers.
    assert_eq!(
        count(
            &db,
            &format!("SELECT COUNT(*) FROM users WHERE id = '{BEA}'")
        )
        .await,
        1
    );
    svc.store().close().await;

    // The whole database copies and every game replays (`postal migrate-db`'s check).
    let copy = dir.0.join("copy.db").display().to_string();
    let summary = postal::console::migrate_db(&db, &copy).await.unwrap();
    assert!(
        summary.contains("3 games")
            && summary.contains("2 forgotten_players")
            && summary.contains("every game replays"),
        "{summary}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_with_a_game_under_way_is_not_forgotten() {
    let dir = TempDir::new("forget-live");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, ANN, BEA, "standard", T0).await;
    let before = dump(&db).await;
    // Bea too: she is seated in Ann's live game.
    for (n, who) in [ANN, BEA].into_iter().enumerate() {
        let out = dm(&svc, &format!("f{n}"), who, "forget-me confirm", T0 + 10).await;
        assert_eq!(out[0].refusal, Some(RefusalKind::Illegal), "{out:?}");
        assert!(out[0].text.contains("under way (#1)"), "{}", out[0].text);
    }
    assert_eq!(dump(&db).await, before);
    // The service's own method says the same.
    let done = svc.forget_user(ANN, None, T0 + 20).await.unwrap();
    assert_eq!(done, postal::store::Forgetting::Live(vec![1]));
    assert_eq!(dump(&db).await, before);
    // Bad words are a usage, not a deletion.
    let out = dm(&svc, "f9", ANN, "forget-me now", T0 + 30).await;
    assert_eq!(out[0].refusal, Some(RefusalKind::Syntax));
    assert!(
        out[0].text.starts_with("usage: forget-me [confirm]"),
        "{}",
        out[0].text
    );
    svc.store().close().await;
}
