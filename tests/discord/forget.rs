//! `/postal forget-me` on Discord: the question is private (ephemeral) and its answer a
//! DM, the confirmation is a button only the asker may press, and once pressed the player's
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

    // Alice presses it: the question's button is disabled, and the answer is private.
    let own = fake.press(ALICE, &question, &confirm);
    let r = fake.wait_callback(&own).await;
    assert_buttons_disabled(&r);
    // The answer comes privately, as a DM (the question's button is spent).
    let done = wait_dm(&fake, ALICE, "done:").await;
    assert_says(&done, "your past game now names you \"Former player 1\"");
    let leaks = public_leaks(&fake.requests(), &fake.dm_channels(), "Former player 1");
    assert!(leaks.is_empty(), "the answer went public: {leaks:?}");

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
    assert_eq!(fake.wait_callback(&again).await.json["type"], 7);
    wait_dm(&fake, ALICE, "nothing to delete").await;
    assert_eq!(strings(&path, users).await, [BOB.0, "Former player 1"]);
    all_accepted(&fake);
    bot.stop().await;
}
