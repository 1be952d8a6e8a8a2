//! `/postal forget-me` on Discord: the question is private (ephemeral) and its answer
//! takes its place, the confirmation is a red button only the asker may press, and once pressed the player's
//! rows are gone and their finished game names a neutral label.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{public_leaks, Fake};
use serde_json::json;

/// The first column of every row `sql` selects from the database at `path`, as text.
async fn strings(path: &str, sql: &str) -> Vec<String> {
    use sqlx::Connection;
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .unwrap();
    let rows: Vec<String> = sqlx::query_scalar(sql).fetch_all(&mut c).await.unwrap();
    let _ = c.close().await;
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forget_me_asks_privately_and_a_button_only_the_asker_presses_confirms() {
    let fake = Fake::start(TOKEN).await;
    let path = db("forget-me");
    let bot = start(&fake, &path, config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    both_move(&fake, &thread, ALICE, BOB).await;
    fake.say(BOB, &thread, "!resign");
    wait_post(&fake, &thread, "game over").await;

    // Asked in the server's channel: the answer is Alice's alone, with her button.
    let ask = private_answer(&fake, ALICE, GAMES, "forget-me", json!([]), "the question").await;
    assert_says(&ask, "cannot be undone");
    assert_says(&ask, "your past game");
    let confirm = button(Some(ALICE), "forget-me confirm");
    assert_eq!(
        button_ids(&ask.json["data"]),
        std::slice::from_ref(&confirm)
    );
    let mut question = bot_message(&fake, GAMES);
    question["flags"] = json!(64);
    question["components"] = ask.json["data"]["components"].clone();

    // Bob presses it: refused, nothing deleted.
    let other = fake.press(BOB, &question, &confirm);
    let r = fake.wait_callback(&other).await;
    assert_ne!(r.flags() & 64, 0);
    assert_says(&r, "for another player");
    let users = "SELECT id FROM users ORDER BY id";
    assert_eq!(strings(&path, users).await, [ALICE.0, BOB.0]);

    // Alice presses it: the answer takes the question's place, its button gone.
    let own = fake.press(ALICE, &question, &confirm);
    let done = fake.wait_callback(&own).await;
    assert_eq!(done.json["type"], 7, "{}", done.json);
    assert_eq!(done.json["data"]["components"], json!([]));
    assert_says(&done, "done:");
    assert_says(&done, "your past game now names you \"Former player 1\"");
    // Nowhere but on the private question.
    let leaks = public_leaks(&fake.requests(), &fake.dm_channels(), "Former player 1");
    let on_question = format!("/interactions/{own}/");
    assert!(
        leaks.iter().all(|r| r.path.starts_with(&on_question)),
        "the answer went public: {leaks:?}"
    );

    // Her rows are gone; the game names the label; Bob is untouched.
    assert_eq!(strings(&path, users).await, [BOB.0, "Former player 1"]);
    assert_eq!(
        strings(
            &path,
            "SELECT user_id FROM seats WHERE game_id = 1 ORDER BY seat"
        )
        .await,
        ["Former player 1", BOB.0]
    );
    // Pressed again (a stale button): nothing left, nothing changes.
    let again = fake.press(ALICE, &question, &confirm);
    let r = fake.wait_callback(&again).await;
    assert_eq!(r.json["type"], 7);
    assert_says(&r, "nothing to delete");
    assert_eq!(strings(&path, users).await, [BOB.0, "Former player 1"]);
    all_accepted(&fake);
    bot.stop().await;
}

/// A thread's name holds its players' display names: forgetting one renames the threads
/// of their past games with the label, through the outbox, so a bot that was stopped
/// (here, while the operator ran the forgetting) does it when it starts. An archived
/// thread is opened, renamed and archived again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forgetting_renames_the_threads_of_past_games_after_a_restart() {
    let fake = Fake::start(TOKEN).await;
    let path = db("forget-threads");
    let bot = start(&fake, &path, config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    let named = fake.threads()[&thread].1.clone();
    assert!(named.contains(ALICE.1), "{named}");
    both_move(&fake, &thread, ALICE, BOB).await;
    fake.say(BOB, &thread, "!resign");
    wait_post(&fake, &thread, "game over").await;
    bot.stop().await;
    fake.archive_thread(&thread);

    // The operator forgets Alice while the bot is stopped: the rename waits in the
    // outbox, committed with the forgetting.
    let svc = crate::common::service::open(&format!("sqlite://{path}")).await;
    let done = svc
        .forget_user(ALICE.0, None, postal::service::deadlines::unix_now())
        .await
        .unwrap();
    let postal::store::Forgetting::Done(f) = done else {
        panic!("not forgotten: {done:?}");
    };
    assert_eq!(f.threads, 1, "{f:?}");
    assert!(f.events_words().contains("1 game thread renamed"));
    svc.store().close().await;
    drop(svc);
    let queued =
        "SELECT CAST(count(*) AS TEXT) FROM outbox WHERE retitle = 1 AND delivered_at IS NULL";
    assert_eq!(strings(&path, queued).await, ["1"]);

    let bot = start(&fake, &path, config(&fake), 2).await;
    let renamed = |reqs: &[fake_discord::Recorded]| {
        reqs.iter().any(|r| {
            r.method == "PATCH"
                && r.path == format!("/channels/{thread}")
                && r.ok()
                && r.json.get("name").is_some()
        })
    };
    fake.wait_for("the thread renamed", renamed).await;
    let archived_again = |reqs: &[fake_discord::Recorded]| {
        reqs.iter().any(|r| {
            r.method == "PATCH"
                && r.path == format!("/channels/{thread}")
                && r.ok()
                && r.json["archived"] == json!(true)
        })
    };
    fake.wait_for("the thread archived again", archived_again)
        .await;
    assert!(fake.is_archived(&thread));
    let name = fake.threads()[&thread].1.clone();
    assert_eq!(name, named.replace(ALICE.1, "Former player 1"));
    assert!(!name.contains(ALICE.1), "{name}");
    for _ in 0..50 {
        if strings(&path, queued).await == ["0"] {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(strings(&path, queued).await, ["0"]);
    bot.stop().await;
}
