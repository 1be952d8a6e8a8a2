//! A game against the bot on Discord (issue 60), with Debian's Stockfish at a small
//! budget: `/chess challenge opponent:@Postal level:...` starts the game at once in its
//! own thread; the engine's move is posted there by the bot's engine task with the board
//! image, pinging the player; the player's move is answered; and the bot's own user is
//! never sent a private message.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, BOT_ID};
use postal::discord::Bot;
use postal::engines::EngineSettings;
use postal::service::settings::Settings;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slash_challenge_to_the_bot_is_answered_move_by_move_in_its_thread() {
    let fake = Fake::start(TOKEN).await;
    logs();
    let settings = Settings {
        engines: EngineSettings {
            nodes: 2_000,
            ..EngineSettings::default()
        },
        ..settings(&db("engine-games"))
    };
    let bot = Bot::start(settings, config(&fake), TOKEN).await.unwrap();
    ready(&fake, 1).await;
    // The level is an option of the slash command.
    let cmds = registered_commands(&fake);
    assert_eq!(option_of(&cmds, "challenge", "level")["max_value"], 8);
    let i = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOT_ID},
               {"name": "variant", "type": 3, "value": "standard"},
               {"name": "level", "type": 4, "value": 2},
               {"name": "colour", "type": 3, "value": "black"}]),
    );
    fake.wait_callback(&i).await;
    let thread = thread_of_game(&fake, 1).await;
    // The engine, White, opens: its move posted with the board, pinging Alice.
    let first = wait_post(&fake, &thread, "played").await;
    assert!(is_png(&first), "the engine's move carries the board");
    assert!(
        first.content().unwrap_or("").contains(ALICE.0),
        "{}",
        first.json
    );
    // Alice answers (e5 is legal after any first move); the engine answers her.
    fake.say(ALICE, &thread, "e5");
    let played = |r: &[fake_discord::Recorded]| {
        posts(r, &thread)
            .iter()
            .filter(|p| p.content().unwrap_or("").contains("played"))
            .count()
    };
    fake.wait_for("Alice's move and the engine's answer", |r| played(r) >= 3)
        .await;
    let reqs = fake.requests();
    assert!(
        dm_channel_of(&reqs, BOT_ID).is_none(),
        "the bot never writes to itself"
    );
    bot.stop().await;
}
