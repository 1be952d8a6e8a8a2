//! End-to-end tests of `/games` and of game threads kept open on Discord: the real bot
//! against the fake Discord (`tests/fake_discord`), one fake and one database per test.

mod fake_discord;

use fake_discord::{Fake, Recorded, GUILD_ID};
use postal::discord::{Bot, Config};
use postal::service::settings::Settings;
use serde_json::json;
use std::path::PathBuf;

const TOKEN: &str = "test-token.not-a-real-one";
const ALICE: (&str, &str) = ("300000000000000001", "alice");
const BOB: (&str, &str) = ("300000000000000002", "bob");
const GAMES: &str = "400000000000000001";

/// A database file of its own for a test, removed first.
fn db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("postal-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(format!("{name}.db"));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
    path.display().to_string()
}

/// Starts the bot against the fake and waits until it has registered its commands.
async fn start(fake: &Fake, name: &str) -> Bot {
    let _ = tracing_subscriber::fmt()
        .with_env_filter("postal=info,serenity=warn")
        .with_test_writer()
        .try_init();
    let settings = Settings {
        database_url: db(name),
        seed: Some(1),
        ..Settings::default()
    };
    let cfg = Config {
        api_base: fake.base(),
        tick_seconds: 3600,
        ..Config::default()
    };
    let bot = Bot::start(settings, cfg, TOKEN).await.expect("bot starts");
    fake.wait_identified(1).await;
    fake.wait_for("command registration", |r| {
        r.iter()
            .any(|x| x.method == "PUT" && x.path.ends_with("/commands") && x.ok())
    })
    .await;
    bot
}

fn posts<'a>(reqs: &'a [Recorded], channel: &str) -> Vec<&'a Recorded> {
    let path = format!("/channels/{channel}/messages");
    reqs.iter()
        .filter(|r| r.method == "POST" && r.path == path && r.ok())
        .collect()
}

/// Waits for a message in `channel` containing `needle`.
async fn wait_post(fake: &Fake, channel: &str, needle: &str) -> Recorded {
    let reqs = fake
        .wait_for(&format!("a message with '{needle}' in {channel}"), |r| {
            posts(r, channel)
                .iter()
                .any(|x| x.content().is_some_and(|c| c.contains(needle)))
        })
        .await;
    posts(&reqs, channel)
        .into_iter()
        .find(|r| r.content().is_some_and(|c| c.contains(needle)))
        .cloned()
        .unwrap()
}

/// Alice challenges Bob, playing White, and Bob accepts: returns the game's thread.
async fn start_game(fake: &Fake) -> String {
    fake.say(
        ALICE,
        GAMES,
        &format!("!challenge <@{}> colour:white", BOB.0),
    );
    wait_post(fake, GAMES, "challenges").await;
    fake.say(BOB, GAMES, "!accept");
    fake.wait_for("a thread", |r| {
        r.iter().any(|x| x.path.ends_with("/threads") && x.ok())
    })
    .await;
    let thread = fake.threads().keys().next().unwrap().clone();
    wait_post(fake, &thread, "accepted").await;
    thread
}

/// The text of the interaction answer to slash command `name` with `options`, by `user`.
async fn slash_text(
    fake: &Fake,
    user: (&str, &str),
    name: &str,
    options: serde_json::Value,
) -> String {
    let id = fake.slash(user, GAMES, name, options);
    let r = fake.wait_callback(&id).await;
    r.content().unwrap_or_default().to_string()
}

/// `/games` links each live game to its thread with whose turn and the deadline as a
/// Discord timestamp; once the game is over it is gone from there and listed by
/// `/games finished:true` (and `!games finished`), with its result and the same link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_link_their_threads_and_finished_ones_are_listed() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, "games").await;
    let thread = start_game(&fake).await;
    let link = format!("https://discord.com/channels/{GUILD_ID}/{thread}");

    let live = slash_text(&fake, ALICE, "games", json!([])).await;
    assert!(live.contains("#1 standard"), "{live}");
    assert!(live.contains(&link), "{live}");
    assert!(live.contains("to move, by <t:"), "{live}");
    let none = slash_text(
        &fake,
        ALICE,
        "games",
        json!([{"name": "finished", "type": 5, "value": true}]),
    )
    .await;
    assert!(none.contains("you have no finished games"), "{none}");

    // Fool's mate, typed bare in the thread.
    for (who, mv) in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4"), (BOB, "Qh4#")] {
        fake.say(who, &thread, mv);
        wait_post(&fake, &thread, &format!("played {mv}")).await;
    }
    let live = slash_text(&fake, ALICE, "games", json!([])).await;
    assert!(live.contains("you have no games"), "{live}");
    let done = slash_text(
        &fake,
        BOB,
        "games",
        json!([{"name": "finished", "type": 5, "value": true}]),
    )
    .await;
    assert!(done.contains("#1 standard"), "{done}");
    assert!(done.contains("wins by checkmate"), "{done}");
    assert!(done.contains(&link), "{done}");
    fake.say(ALICE, GAMES, "!games finished");
    let typed = wait_post(&fake, GAMES, "wins by checkmate").await;
    assert!(typed.content().unwrap().contains(&link));
    bot.stop().await;
}

/// A game's thread that Discord archived (after a week without messages, while a move
/// may take far longer) is unarchived when the bot posts the game's next message there,
/// and the message arrives once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_game_thread_is_unarchived_to_post_in_it() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, "archived").await;
    let thread = start_game(&fake).await;
    fake.archive_thread(&thread);
    // Alice moves from the server's channel: the game's message goes to its thread.
    fake.say(ALICE, GAMES, "!move 1 e4");
    wait_post(&fake, &thread, "played e4").await;
    assert!(!fake.is_archived(&thread));
    let reqs = fake.requests();
    let path = format!("/channels/{thread}/messages");
    let refused: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| r.method == "POST" && r.path == path && r.status == 400)
        .collect();
    assert_eq!(refused.len(), 1, "one post met the archived thread");
    assert!(refused[0].response.to_string().contains("50083"));
    let unarchive: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| r.method == "PATCH" && r.path == format!("/channels/{thread}"))
        .collect();
    assert_eq!(unarchive.len(), 1);
    assert!(unarchive[0].ok());
    assert_eq!(unarchive[0].json, json!({"archived": false}));
    let delivered = posts(&reqs, &thread)
        .iter()
        .filter(|r| r.content().is_some_and(|c| c.contains("played e4")))
        .count();
    assert_eq!(delivered, 1, "the move's message arrives once");
    bot.stop().await;
}
