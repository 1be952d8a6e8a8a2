//! End-to-end tests of the Discord adapter: the real `postal run` code (serenity client,
//! gateway, REST calls) against a fake Discord on 127.0.0.1, one fake and one database per
//! test, in parallel.

mod fake_discord;
mod toy;

use fake_discord::harness::*;
use fake_discord::{public_leaks, Fake, Recorded, ATTACHMENT_LIMIT, CONTENT_LIMIT};
use postal::discord::{Bot, Config};
use postal::service::settings::Settings;
use postal::variants::Registry;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

fn config(fake: &Fake) -> Config {
    Config {
        api_base: fake.base(),
        tick_seconds: 3600,
        ..Config::default()
    }
}

/// The seed of the bot's draws in every test: that of the console transcripts, so game
/// #1 of a test deals the letters and cards of game #1 of `tests/transcripts`.
const SEED: u64 = 1;

fn settings(db: &str) -> Settings {
    Settings {
        database_url: db.to_string(),
        seed: Some(SEED),
        ..Settings::default()
    }
}

fn logs() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            std::env::var("RUST_LOG").unwrap_or_else(|_| "postal=info,serenity=warn".into()),
        )
        .with_test_writer()
        .try_init();
}

/// Starts the bot against the fake and waits until it has identified and registered its
/// commands (the `n`th time).
async fn start(fake: &Fake, db: &str, cfg: Config, n: usize) -> Bot {
    logs();
    let bot = Bot::start(settings(db), cfg, TOKEN)
        .await
        .expect("bot starts");
    ready(fake, n).await;
    bot
}

/// [`start`] with the variants of `registry` (a test's own variant added).
async fn start_playing(fake: &Fake, db: &str, cfg: Config, registry: Registry) -> Bot {
    logs();
    let http = postal::discord::http(TOKEN, &cfg.api_base);
    let bot = Bot::start_with_registry(settings(db), cfg, http, registry)
        .await
        .expect("bot starts");
    ready(fake, 1).await;
    bot
}

/// Waits until the bot has identified and checked its commands with Discord (the `n`th
/// time): registered them the first time; later, with the same set, nothing to do.
async fn ready(fake: &Fake, n: usize) {
    fake.wait_identified(n).await;
    let global = format!("/applications/{}/commands", fake_discord::BOT_ID);
    fake.wait_for("command registration", |r| {
        let checks = r
            .iter()
            .filter(|x| x.method == "GET" && x.path == global && x.ok())
            .count();
        let puts = r
            .iter()
            .filter(|x| x.method == "PUT" && x.path.ends_with("/commands") && x.ok())
            .count();
        checks >= n && puts >= 1
    })
    .await;
}

/// Waits for a POST to `channel` with a file (a record) whose text contains `needle`.
async fn wait_file(fake: &Fake, channel: &str, needle: &str) -> Recorded {
    let has = |r: &Recorded| {
        r.files
            .iter()
            .any(|f| String::from_utf8_lossy(&f.bytes).contains(needle))
    };
    let reqs = fake
        .wait_for(&format!("a file with '{needle}' in {channel}"), |r| {
            posts(r, channel).into_iter().any(has)
        })
        .await;
    posts(&reqs, channel)
        .into_iter()
        .find(|r| has(r))
        .cloned()
        .unwrap()
}

/// The thread the fake created (the only one).
async fn the_thread(fake: &Fake) -> String {
    fake.wait_for("a thread", |r| {
        r.iter().any(|x| x.path.ends_with("/threads") && x.ok())
    })
    .await;
    let threads = fake.threads();
    assert_eq!(threads.len(), 1, "{threads:?}");
    threads.keys().next().unwrap().clone()
}

/// Alice challenges Bob by text (with `extra` options) and Bob accepts; returns the
/// game's thread once the game's first message is there.
async fn start_game(fake: &Fake, extra: &str) -> String {
    fake.say(
        ALICE,
        GAMES,
        &format!("!challenge <@{}> colour:white {extra}", BOB.0),
    );
    wait_post(fake, GAMES, "challenges").await;
    fake.say(BOB, GAMES, "!accept");
    let thread = the_thread(fake).await;
    wait_post(fake, &thread, "accepted").await;
    thread
}

/// The custom id of the referee's button that sends `command` for `user` (`None`: for
/// anyone).
fn button(user: Option<(&str, &str)>, command: &str) -> String {
    format!("cmd:{}:{command}", user.map_or("-", |u| u.0))
}

/// Runs slash command `name` as `user` in `channel` and returns the answer, which must be
/// ephemeral (only the user sees it); `what` says why, for the failure message.
async fn private_answer(
    fake: &Fake,
    user: (&str, &str),
    channel: &str,
    name: &str,
    options: Value,
    what: &str,
) -> Recorded {
    let id = fake.slash(user, channel, name, options);
    let r = fake.wait_callback(&id).await;
    assert_ne!(r.flags() & 64, 0, "{what}: {}", r.json);
    r
}

/// Asserts that the interaction answer `r` contains `needle`.
fn assert_says(r: &Recorded, needle: &str) {
    assert!(r.content().unwrap().contains(needle), "{}", r.json);
}

fn bot_message(fake: &Fake, channel: &str) -> Value {
    fake_discord::message(
        &fake.id(),
        channel,
        (fake_discord::BOT_ID, "postal"),
        "buttons",
        true,
    )
}

/// Every limit the fake enforces held for every request: no request was refused.
fn all_accepted(fake: &Fake) {
    for r in fake.requests() {
        assert!(
            r.ok(),
            "refused: {} {} -> {} {}",
            r.method,
            r.path,
            r.status,
            r.response
        );
        if let Some(c) = r.content() {
            assert!(c.chars().count() <= CONTENT_LIMIT);
        }
        assert!(r.files.iter().all(|f| f.bytes.len() <= ATTACHMENT_LIMIT));
    }
}

/// A challenge by slash command accepted by button; the game gets a public thread,
/// moves are typed bare in it, every turn's message carries the board as a PNG, the
/// mover and the deadline, and the game ends in checkmate.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_challenge_button_accept_thread_and_checkmate() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("mate"), config(&fake), 1).await;
    let identify = fake
        .frames()
        .into_iter()
        .find(|f| f["op"] == 2)
        .expect("identify");
    assert_eq!(identify["d"]["token"], format!("Bot {TOKEN}"));
    let intents = identify["d"]["intents"].as_u64().unwrap();
    assert_ne!(intents & (1 << 15), 0, "message content intent");

    let c = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOB.0},
               {"name": "colour", "type": 3, "value": "white"}]),
    );
    let challenge = fake.wait_callback(&c).await;
    assert_eq!(challenge.json["type"], 4);
    assert_eq!(challenge.flags() & 64, 0, "a challenge is public");
    let text = challenge.content().unwrap();
    assert!(text.contains(&format!("<@{}>", ALICE.0)), "{text}");
    assert!(text.contains(&format!("<@{}>", BOB.0)), "{text}");
    assert_eq!(
        button_ids(&challenge.json["data"]),
        [button(None, "accept 1"), button(None, "decline 1")]
    );

    let press = fake.press(BOB, &bot_message(&fake, GAMES), &button(None, "accept 1"));
    assert_eq!(fake.wait_callback(&press).await.json["type"], 7);
    let thread = the_thread(&fake).await;
    let created = fake
        .requests()
        .into_iter()
        .find(|r| r.path == format!("/channels/{GAMES}/threads"))
        .unwrap();
    assert_eq!(created.json["type"], 11, "a public thread");
    assert_eq!(created.json["name"], "game #1 standard: alice vs bob");
    wait_post(&fake, GAMES, &format!("<#{thread}>")).await;
    let start = wait_post(&fake, &thread, "accepted").await;
    assert!(is_png(&start));

    // Chat in the thread is not a move; moves are.
    fake.say(ALICE, &thread, "good luck, have fun");
    for (who, next, mv) in [
        (ALICE, BOB, "f3"),
        (BOB, ALICE, "e5"),
        (ALICE, BOB, "g4"),
        (BOB, ALICE, "Qh4#"),
    ] {
        fake.say(who, &thread, mv);
        let m = wait_post(
            &fake,
            &thread,
            &format!("played {}", mv.trim_end_matches('#')),
        )
        .await;
        assert!(is_png(&m), "the board comes with {mv}");
        let text = m.content().unwrap();
        if !mv.ends_with('#') {
            assert!(
                text.contains(&format!("<@{}>", next.0))
                    && text.contains("to move, by <t:")
                    && text.contains(":R>)"),
                "the mover is mentioned, with the deadline: {text}"
            );
        }
    }
    let last = wait_post(&fake, &thread, "checkmate").await;
    assert!(last.content().unwrap().contains("0-1"));
    let reqs = fake.requests();
    assert_eq!(
        posts(&reqs, &thread).len(),
        5,
        "the start and four moves, no reply to chat"
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// The same gateway event delivered twice is applied once; after a restart (a new
/// client on the same database) the game goes on where it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_event_and_restart() {
    let fake = Fake::start(TOKEN).await;
    let path = db("restart");
    let bot = start(&fake, &path, config(&fake), 1).await;
    fake.say(
        ALICE,
        GAMES,
        &format!("!challenge <@{}> colour:white", BOB.0),
    );
    wait_post(&fake, GAMES, "challenges").await;
    fake.say(BOB, GAMES, "!accept");
    let thread = the_thread(&fake).await;
    wait_post(&fake, &thread, "accepted").await;

    let id = fake.id();
    let e4 = fake_discord::message(&id, &thread, ALICE, "e4", true);
    fake.dispatch("MESSAGE_CREATE", e4.clone());
    fake.dispatch("MESSAGE_CREATE", e4);
    wait_post(&fake, &thread, "played e4").await;
    fake.say(BOB, &thread, "e5");
    wait_post(&fake, &thread, "played e5").await;
    let reqs = fake.requests();
    let e4_posts = posts(&reqs, &thread)
        .iter()
        .filter(|r| r.content().is_some_and(|c| c.contains("e4")))
        .count();
    assert_eq!(
        e4_posts, 1,
        "the duplicate was applied once and answered once"
    );

    bot.stop().await;
    let bot = start(&fake, &path, config(&fake), 2).await;
    fake.say(ALICE, &thread, "Nf3");
    wait_post(&fake, &thread, "played Nf3").await;
    fake.say(BOB, &thread, "!moves");
    wait_post(&fake, &thread, "1. e4 e5 2. Nf3").await;
    // The second READY found the same commands registered: no registration again.
    let puts = fake
        .requests()
        .iter()
        .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .count();
    assert_eq!(puts, 1, "the unchanged commands are not registered again");
    all_accepted(&fake);
    bot.stop().await;
}

/// A slash command challenge accepted by button; a Chess# game ended by a fast-fifty
/// proposed by slash command and accepted by button; errors are ephemeral.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_and_buttons_fast_fifty() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("fastfifty"), config(&fake), 1).await;
    let put = fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT")
        .unwrap();
    let leaves = fake_discord::leaf_commands(put.json.as_array().unwrap());
    let names: Vec<&str> = leaves.iter().map(|c| c["name"].as_str().unwrap()).collect();
    for n in [
        "challenge",
        "accept",
        "move",
        "fastfifty",
        "draw",
        "resign",
        "private",
    ] {
        assert!(names.contains(&n), "{n} registered");
    }

    let i = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOB.0},
               {"name": "variant", "type": 3, "value": "chess-sharp"},
               {"name": "colour", "type": 3, "value": "white"}]),
    );
    let reqs = fake
        .wait_for("the challenge's response", |r| {
            r.iter()
                .any(|x| x.path.starts_with(&format!("/interactions/{i}/")))
        })
        .await;
    let resp = reqs
        .iter()
        .find(|x| x.path.starts_with(&format!("/interactions/{i}/")))
        .unwrap();
    assert_eq!(resp.json["type"], 4);
    assert_eq!(resp.flags() & 64, 0, "a challenge is public");
    assert!(resp.content().unwrap().contains("challenges"));
    let accept = button(None, "accept 1");
    assert_eq!(button_ids(&resp.json["data"])[0], accept);

    // Alice cannot accept her own challenge: an ephemeral refusal.
    let msg = fake_discord::message(
        &fake.id(),
        GAMES,
        (fake_discord::BOT_ID, "postal"),
        "challenge",
        true,
    );
    let wrong = fake.press(ALICE, &msg, &accept);
    let reqs = fake
        .wait_for("the refusal", |r| r.iter().any(|x| x.path.contains(&wrong)))
        .await;
    let refusal = reqs.iter().find(|x| x.path.contains(&wrong)).unwrap();
    assert_ne!(
        refusal.flags() & 64,
        0,
        "errors are ephemeral: {}",
        refusal.json
    );

    let press = fake.press(BOB, &msg, &accept);
    let thread = the_thread(&fake).await;
    let reqs = fake
        .wait_for("the button's update", |r| {
            r.iter().any(|x| x.path.contains(&press))
        })
        .await;
    let update = reqs.iter().find(|x| x.path.contains(&press)).unwrap();
    assert_eq!(update.json["type"], 7, "the buttons are taken off");
    let start_msg = wait_post(&fake, &thread, "accepted").await;
    assert!(is_png(&start_msg));

    for (who, mv) in [(ALICE, "K@e1"), (BOB, "K@e8"), (ALICE, "e3")] {
        fake.say(who, &thread, mv);
        wait_post(&fake, &thread, &format!("played {mv}")).await;
    }
    let p = fake.slash(
        BOB,
        &thread,
        "fastfifty",
        json!([{"name": "answer", "type": 3, "value": "propose"}]),
    );
    let reqs = fake
        .wait_for("the proposal", |r| {
            r.iter()
                .any(|x| x.path.starts_with(&format!("/interactions/{p}/")))
        })
        .await;
    let proposal = reqs
        .iter()
        .find(|x| x.path.starts_with(&format!("/interactions/{p}/")))
        .unwrap();
    assert!(
        proposal.content().unwrap().contains("fast-fifty"),
        "{}",
        proposal.json
    );
    let ff_accept = button(Some(ALICE), "fastfifty #1 accept");
    assert_eq!(
        button_ids(&proposal.json["data"]),
        [
            ff_accept.clone(),
            button(Some(ALICE), "fastfifty #1 reject")
        ],
        "for the player the proposal is made to"
    );
    let msg = fake_discord::message(
        &fake.id(),
        &thread,
        (fake_discord::BOT_ID, "postal"),
        "proposal",
        true,
    );
    // Bob's press of Alice's answer sends nothing.
    let not_his = fake.press(BOB, &msg, &ff_accept);
    let r = fake.wait_callback(&not_his).await;
    assert_ne!(r.flags() & 64, 0, "{}", r.json);
    assert_says(&r, "for another player");
    fake.press(ALICE, &msg, &ff_accept);
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content().unwrap().contains("impasse by agreement"),
        "{}",
        end.json
    );
    assert!(is_png(&end));

    // Help is ephemeral.
    let h = fake.slash(ALICE, GAMES, "help", json!([]));
    let reqs = fake
        .wait_for("help", |r| {
            r.iter()
                .any(|x| x.path.starts_with(&format!("/interactions/{h}/")))
        })
        .await;
    let help = reqs
        .iter()
        .find(|x| x.path.starts_with(&format!("/interactions/{h}/")))
        .unwrap();
    assert_ne!(help.flags() & 64, 0);
    all_accepted(&fake);
    bot.stop().await;
}

/// Work that takes longer than the acknowledgement window (the database is locked by
/// someone else for 4 s) is deferred within 3 s and answered by a followup.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_work_is_deferred() {
    let fake = Fake::start(TOKEN).await;
    let path = db("defer");
    let bot = start(&fake, &path, config(&fake), 1).await;
    fake.say(
        ALICE,
        GAMES,
        &format!("!challenge <@{}> colour:white", BOB.0),
    );
    wait_post(&fake, GAMES, "challenges").await;
    fake.say(BOB, GAMES, "!accept");
    let thread = the_thread(&fake).await;
    wait_post(&fake, &thread, "accepted").await;

    // Someone else holds the write lock for 4 seconds.
    let (locked_tx, locked_rx) = tokio::sync::oneshot::channel();
    let locker = std::thread::spawn(move || {
        let conn = rusqlite_free_lock(&path);
        let _ = locked_tx.send(());
        std::thread::sleep(Duration::from_secs(4));
        drop(conn);
    });
    locked_rx.await.unwrap();
    let i = fake.slash(
        ALICE,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "e4"}]),
    );
    let reqs = fake
        .wait_for("the followup", |r| {
            r.iter().any(|x| x.path.starts_with("/webhooks/") && x.ok())
        })
        .await;
    let callback = reqs
        .iter()
        .find(|x| x.path.starts_with(&format!("/interactions/{i}/")))
        .expect("acknowledged");
    assert!(
        callback.ok(),
        "acknowledged within 3 s: {}",
        callback.response
    );
    assert_eq!(callback.json["type"], 5, "deferred");
    wait_post(&fake, &thread, "played e4").await;
    locker.join().unwrap();
    all_accepted(&fake);
    bot.stop().await;
}

/// Opens `path` with a second connection and takes the write lock (BEGIN IMMEDIATE),
/// held until the returned connection is dropped.
fn rusqlite_free_lock(path: &str) -> LockHolder {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let conn = rt.block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
            .await
            .unwrap();
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut c)
            .await
            .unwrap();
        c
    });
    LockHolder {
        rt,
        conn: Some(conn),
    }
}

struct LockHolder {
    rt: tokio::runtime::Runtime,
    conn: Option<sqlx::SqliteConnection>,
}

impl Drop for LockHolder {
    fn drop(&mut self) {
        if let Some(mut c) = self.conn.take() {
            self.rt.block_on(async {
                let _ = sqlx::query("ROLLBACK").execute(&mut c).await;
            });
        }
    }
}

/// How many private messages are held for `user` in the database at `path`.
/// Moves every deadline of the database at `path` `seconds` earlier, as if that much time
/// had passed.
async fn pass_time(path: &str, seconds: i64) {
    use sqlx::Connection;
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .unwrap();
    sqlx::query("UPDATE deadlines SET due_at = due_at - $1")
        .bind(seconds)
        .execute(&mut c)
        .await
        .unwrap();
    let _ = c.close().await;
}

async fn held_count(path: &str, user: &str) -> i64 {
    use sqlx::Connection;
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .unwrap();
    let n: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM held_messages WHERE user_id = ?")
        .bind(user)
        .fetch_one(&mut c)
        .await
        .unwrap();
    let _ = c.close().await;
    n.0
}

/// A user whose DMs are closed (50007) still plays: the bot says so in the game's thread
/// without the content, keeps the messages for `/private`, and does not try her DMs
/// again until she interacts. No private text reaches a public place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_dms_fall_back_to_private_command() {
    let fake = Fake::start(TOKEN).await;
    fake.close_dms(ALICE.0);
    let cfg = Config {
        tick_seconds: 1,
        ..config(&fake)
    };
    let path = db("dms");
    let bot = start(&fake, &path, cfg, 1).await;
    // Two games, two days per move; once both are under way, a day passes (their
    // deadlines moved back in the database) and each game's 24-hour reminder to Alice is
    // due at once.
    const OTHER: &str = "400000000000000002";
    for channel in [GAMES, OTHER] {
        fake.say(
            ALICE,
            channel,
            &format!("!challenge <@{}> colour:white days:2", BOB.0),
        );
        wait_post(&fake, channel, "challenges").await;
    }
    for channel in [GAMES, OTHER] {
        fake.say(BOB, channel, "!accept");
        wait_post(&fake, channel, "played in <#").await;
    }
    let threads = fake.threads();
    assert_eq!(threads.len(), 2);
    pass_time(&path, 25 * 3600).await;

    // Both reminders are held; her DMs were tried once, and she is told once, in the
    // thread of the game whose reminder came first.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while held_count(&path, ALICE.0).await < 2 {
        assert!(std::time::Instant::now() < deadline, "two reminders held");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let reqs = fake.requests();
    let refused: Vec<&Recorded> = reqs.iter().filter(|r| r.status == 403).collect();
    assert_eq!(refused.len(), 1, "one try, then no retry: {refused:?}");
    let first = refused[0].content().unwrap().to_string();
    assert!(first.contains("reminder"), "{first}");
    let notes: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| {
            r.content()
                .is_some_and(|c| c.contains("could not send you a private message"))
        })
        .collect();
    assert_eq!(notes.len(), 1);
    let note_channel = notes[0]
        .path
        .trim_start_matches("/channels/")
        .trim_end_matches("/messages");
    assert!(
        threads.contains_key(note_channel),
        "the note is in a game's thread"
    );
    assert!(notes[0]
        .content()
        .unwrap()
        .contains(&format!("<@{}>", ALICE.0)));
    // A deadline message comes from the outbox, with a nonce Discord enforces.
    let nonce = refused[0].json["nonce"].as_str().unwrap_or_default();
    assert!(nonce.starts_with("postal-"), "{:?}", refused[0].json);
    assert_eq!(refused[0].json["enforce_nonce"], true);

    // Alice still plays, and fetches both reminders privately.
    let (thread, _) = threads
        .iter()
        .find(|(_, (parent, _))| parent == GAMES)
        .unwrap();
    fake.say(ALICE, thread, "e4");
    wait_post(&fake, thread, "played e4").await;
    let p = fake.slash(ALICE, thread, "private", json!([]));
    let private = fake.wait_callback(&p).await;
    assert_ne!(private.flags() & 64, 0, "ephemeral");
    assert_eq!(private.content().unwrap(), first);
    let reqs = fake
        .wait_for("the second reminder", |r| {
            r.iter().any(|x| x.path.starts_with("/webhooks/"))
        })
        .await;
    let second = reqs
        .iter()
        .find(|x| x.path.starts_with("/webhooks/"))
        .unwrap();
    assert_ne!(second.flags() & 64, 0, "ephemeral");
    let second = second.content().unwrap().to_string();
    assert!(second.contains("reminder") && second != first, "{second}");
    assert_eq!(held_count(&path, ALICE.0).await, 0, "delivered once");

    // Having interacted, her DMs are tried again at the next private message.
    let dm = fake.id();
    let m = fake_discord::message(&fake.id(), &dm, ALICE, "games", false);
    fake.dispatch("MESSAGE_CREATE", m);
    fake.wait_for("a second try", |r| {
        r.iter().filter(|x| x.status == 403).count() == 2
    })
    .await;

    for secret in [&first, &second] {
        let leaks = public_leaks(&fake.requests(), &fake.dm_channels(), secret);
        assert!(leaks.is_empty(), "private text in public: {leaks:?}");
    }
    bot.stop().await;
}

/// The secret scanner finds a secret in any public request and none in private ones.
#[test]
fn the_secret_scanner_sees_public_secrets_only() {
    let secret = "SECRET-WORD-zebra";
    let rec = |path: &str, body: Value| Recorded {
        method: "POST".into(),
        path: path.into(),
        json: body,
        files: Vec::new(),
        status: 200,
        response: Value::Null,
        at: std::time::Instant::now(),
    };
    let dms = [("500".to_string(), ALICE.0.to_string())]
        .into_iter()
        .collect();
    let private = vec![
        rec("/channels/500/messages", json!({"content": secret})),
        rec(
            "/interactions/1/t/callback",
            json!({"type": 4, "data": {"content": secret, "flags": 64}}),
        ),
        rec("/webhooks/1/t", json!({"content": secret, "flags": 64})),
    ];
    assert!(public_leaks(&private, &dms, secret).is_empty());
    let public = vec![
        rec(
            "/channels/10/messages",
            json!({"content": format!("psst {secret}")}),
        ),
        rec(
            "/interactions/1/t/callback",
            json!({"type": 4, "data": {"content": secret}}),
        ),
        rec(
            "/webhooks/1/t",
            json!({"embeds": [{"description": secret}]}),
        ),
        rec("/channels/10/threads", json!({"name": secret})),
    ];
    assert_eq!(public_leaks(&public, &dms, secret).len(), 4);
    let mut with_file = rec("/channels/10/messages", json!({"content": "board"}));
    with_file.files.push(fake_discord::File {
        field: "files[0]".into(),
        name: "board.png".into(),
        bytes: secret.as_bytes().to_vec(),
    });
    assert_eq!(public_leaks(&[with_file], &dms, secret).len(), 1);
}

/// The names of the choices of an autocompletion response.
fn choice_names(r: &Recorded) -> Vec<String> {
    assert!(r.ok(), "{} {}", r.status, r.response);
    assert_eq!(r.json["type"], 8, "an autocompletion result: {}", r.json);
    r.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(c["name"], c["value"], "a move's name is its value");
            c["name"].as_str().unwrap().to_string()
        })
        .collect()
}

/// Typing the `move` option suggests the legal moves of the user's game there, in SAN,
/// filtered by what was typed, at most 25; nothing when it is not their turn. Typing the
/// `game` option suggests the user's games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_suggests_legal_moves_and_games() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("autocomplete"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    let typing = |v: &str| json!([{"name": "move", "type": 3, "value": v, "focused": true}]);

    let a = fake.autocomplete(ALICE, &thread, "move", typing("N"));
    let names = choice_names(&fake.wait_callback(&a).await);
    assert_eq!(names, ["Na3", "Nc3", "Nf3", "Nh3"]);
    let a = fake.autocomplete(ALICE, &thread, "move", typing(""));
    assert_eq!(choice_names(&fake.wait_callback(&a).await).len(), 20);
    let a = fake.autocomplete(BOB, &thread, "move", typing(""));
    assert!(
        choice_names(&fake.wait_callback(&a).await).is_empty(),
        "not Bob's turn"
    );
    // From the channel the challenge was made in, with the game named.
    let a = fake.autocomplete(
        ALICE,
        GAMES,
        "move",
        json!([{"name": "game", "type": 4, "value": 1},
               {"name": "move", "type": 3, "value": "e", "focused": true}]),
    );
    assert_eq!(choice_names(&fake.wait_callback(&a).await), ["e3", "e4"]);

    for (who, mv) in [(ALICE, "e4"), (BOB, "e5")] {
        fake.say(who, &thread, mv);
        wait_post(&fake, &thread, &format!("played {mv}")).await;
    }
    // White has 29 moves now: Discord's 25 at most.
    let a = fake.autocomplete(ALICE, &thread, "move", typing(""));
    let names = choice_names(&fake.wait_callback(&a).await);
    assert_eq!(names.len(), 25);
    assert!(names.iter().all(|n| n.chars().count() <= 100));
    let a = fake.autocomplete(ALICE, &thread, "move", typing("Q"));
    assert_eq!(
        choice_names(&fake.wait_callback(&a).await),
        ["Qe2", "Qf3", "Qg4", "Qh5"]
    );

    // The game option: Bob's games, as "#id variant vs opponent".
    let a = fake.autocomplete(
        BOB,
        &thread,
        "board",
        json!([{"name": "game", "type": 4, "value": "", "focused": true}]),
    );
    let r = fake.wait_callback(&a).await;
    assert_eq!(r.json["type"], 8);
    let choices = r.json["data"]["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 1, "{}", r.json);
    assert_eq!(choices[0]["value"], 1);
    assert_eq!(choices[0]["name"], "#1 standard vs alice", "{}", r.json);
    all_accepted(&fake);
    bot.stop().await;
}

/// A draw offered by slash command is declined, then accepted, by button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_declined_and_accepted_by_button() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("draw"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    let offer = json!([{"name": "answer", "type": 3, "value": "offer"}]);

    let o = fake.slash(ALICE, &thread, "draw", offer.clone());
    let r = fake.wait_callback(&o).await;
    assert_eq!(r.flags() & 64, 0, "an offer is public: {}", r.json);
    assert_says(&r, "proposes a draw");
    let (yes, no) = (
        button(Some(BOB), "draw #1 accept"),
        button(Some(BOB), "draw #1 decline"),
    );
    assert_eq!(button_ids(&r.json["data"]), [yes.clone(), no.clone()]);

    // Alice cannot accept her own offer: the buttons are Bob's.
    let mine = fake.press(ALICE, &bot_message(&fake, &thread), &yes);
    let r = fake.wait_callback(&mine).await;
    assert_ne!(r.flags() & 64, 0, "a refusal is private: {}", r.json);
    assert_says(&r, "for another player");
    // Nor by typing it.
    fake.say(ALICE, &thread, "!draw accept");
    wait_post(&fake, &thread, "you cannot answer your own draw proposal").await;

    let no = fake.press(BOB, &bot_message(&fake, &thread), &no);
    let r = fake.wait_callback(&no).await;
    assert_eq!(r.json["type"], 7, "the buttons are taken off: {}", r.json);
    wait_post(&fake, &thread, "declined the draw").await;

    let o = fake.slash(ALICE, &thread, "draw", offer);
    fake.wait_callback(&o).await;
    let yes = fake.press(BOB, &bot_message(&fake, &thread), &yes);
    assert_eq!(fake.wait_callback(&yes).await.json["type"], 7);
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content()
            .unwrap()
            .contains("drawn by agreement (1/2-1/2)"),
        "{}",
        end.json
    );

    // A challenge declined by button.
    fake.say(ALICE, GAMES, &format!("!challenge <@{}>", BOB.0));
    wait_post(&fake, GAMES, "game #2:").await;
    let no = fake.press(BOB, &bot_message(&fake, GAMES), &button(None, "decline 2"));
    assert_eq!(fake.wait_callback(&no).await.json["type"], 7);
    wait_post(&fake, GAMES, "the challenge is declined by").await;
    all_accepted(&fake);
    bot.stop().await;
}

/// A takeback proposed by slash command in a game made with `takebacks:on`, accepted with
/// the button that is the opponent's alone; an answer with none pending is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback_proposed_by_slash_and_accepted_by_button() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("takeback"), config(&fake), 1).await;
    let thread = start_game(&fake, "takebacks:on").await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "played e4").await;
    let o = fake.slash(ALICE, &thread, "takeback", json!([]));
    let r = fake.wait_callback(&o).await;
    assert_eq!(r.flags() & 64, 0, "a proposal is public: {}", r.json);
    assert_says(&r, "proposes taking back their last move");
    let yes = button(Some(BOB), "takeback #1 accept");
    let no = button(Some(BOB), "takeback #1 decline");
    assert_eq!(button_ids(&r.json["data"]), [yes.clone(), no]);
    let mine = fake.press(ALICE, &bot_message(&fake, &thread), &yes);
    assert_says(&fake.wait_callback(&mine).await, "for another player");
    let press = fake.press(BOB, &bot_message(&fake, &thread), &yes);
    assert_eq!(fake.wait_callback(&press).await.json["type"], 7);
    wait_post(&fake, &thread, "accepts the takeback proposed by").await;
    let answer = json!([{"name": "answer", "type": 3, "value": "decline"}]);
    let a = fake.slash(BOB, &thread, "takeback", answer);
    assert_says(&fake.wait_callback(&a).await, "no takeback proposal");
    all_accepted(&fake);
    bot.stop().await;
}

/// `/resign` asks for confirmation with a button only the resigning player may press.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resignation_is_confirmed_by_button_by_the_same_player() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("resign"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;

    let r = fake.slash(ALICE, &thread, "resign", json!([]));
    let ask = fake.wait_callback(&r).await;
    assert_ne!(ask.flags() & 64, 0, "the question is private: {}", ask.json);
    assert!(ask.content().unwrap().contains("do you really resign"));
    let confirm = button_ids(&ask.json["data"]);
    assert_eq!(confirm, [format!("resign:1:{}", ALICE.0)]);
    let confirm = &confirm[0];
    let mut question = bot_message(&fake, &thread);
    question["flags"] = json!(64);

    // Bob presses Alice's confirmation: refused, nothing happens.
    let other = fake.press(BOB, &question, confirm);
    let r = fake.wait_callback(&other).await;
    assert_ne!(r.flags() & 64, 0);
    assert_says(&r, "only the player who asked");
    fake.say(BOB, &thread, "!moves");
    wait_post(&fake, &thread, "no moves yet").await;
    assert!(!has_post(&fake.requests(), &thread, "game over"));

    let own = fake.press(ALICE, &question, confirm);
    let r = fake.wait_callback(&own).await;
    assert_ne!(r.flags() & 64, 0, "the button's answer is private");
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content().unwrap().contains("wins by resignation (0-1)"),
        "{}",
        end.json
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// A list longer than 2,000 characters comes in several messages, each within the limit,
/// and nothing of it is lost; as a slash command, every piece is private.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_lists_are_split_under_the_limit() {
    let fake = Fake::start(TOKEN).await;
    logs();
    // 45 challenges waiting at once: above the default cap, which this server raises.
    let settings = Settings {
        max_open_challenges: 50,
        ..settings(&db("long"))
    };
    let bot = Bot::start(settings, config(&fake), TOKEN)
        .await
        .expect("bot starts");
    ready(&fake, 1).await;
    let n = 45;
    for i in 1..=n {
        fake.say(ALICE, GAMES, &format!("!challenge <@{}>", BOB.0));
        wait_post(&fake, GAMES, &format!("game #{i}:")).await;
    }
    let g = fake.slash(ALICE, GAMES, "games", json!([]));
    let prefix = format!("/interactions/{g}/");
    let reqs = fake
        .wait_for("the whole list", |r| {
            let text: String = r
                .iter()
                .filter(|x| x.path.starts_with(&prefix) || x.path.starts_with("/webhooks/"))
                .filter_map(|x| x.content())
                .collect();
            text.contains(&format!("#{n} standard"))
        })
        .await;
    let pieces: Vec<&Recorded> = reqs
        .iter()
        .filter(|x| x.path.starts_with(&prefix) || x.path.starts_with("/webhooks/"))
        .collect();
    assert!(pieces.len() >= 2, "split into several messages");
    let mut all = String::new();
    for p in &pieces {
        let c = p.content().unwrap();
        assert!(c.chars().count() <= CONTENT_LIMIT);
        assert_ne!(p.flags() & 64, 0, "private: {}", p.json);
        all.push_str(c);
        all.push(' ');
    }
    for i in 1..=n {
        assert!(all.contains(&format!("#{i} standard")), "#{i} is listed");
    }
    all_accepted(&fake);
    bot.stop().await;
}

/// Missing permissions (50013): a thread that cannot be opened leaves the game in its
/// channel, and a reply that cannot be posted is lost without losing the move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_permissions_leave_the_game_playable() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("perms"), config(&fake), 1).await;
    fake.say(
        ALICE,
        GAMES,
        &format!("!challenge <@{}> colour:white", BOB.0),
    );
    wait_post(&fake, GAMES, "challenges").await;
    fake.fail_next("POST", "/threads", 403, 50013);
    fake.say(BOB, GAMES, "!accept");
    let start_msg = wait_post(&fake, GAMES, "accepted").await;
    assert!(is_png(&start_msg));
    assert!(fake.threads().is_empty());
    let reqs = fake.requests();
    assert!(reqs
        .iter()
        .any(|r| r.path.ends_with("/threads") && r.status == 403));

    fake.say(ALICE, GAMES, "!e4");
    wait_post(&fake, GAMES, "played e4").await;
    fake.fail_next("POST", &format!("/channels/{GAMES}/messages"), 403, 50013);
    fake.say(BOB, GAMES, "!e5");
    fake.wait_for("the refused reply", |r| {
        r.iter()
            .any(|x| x.path == format!("/channels/{GAMES}/messages") && x.status == 403)
    })
    .await;
    fake.say(ALICE, GAMES, "!moves");
    wait_post(&fake, GAMES, "1. e4 e5").await;
    bot.stop().await;
}

/// A token the gateway refuses (close code 4004) ends the bot with a one-line reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_refused_by_the_gateway_ends_the_bot_with_a_reason() {
    let fake = Fake::start(TOKEN).await;
    fake.refuse_identify();
    let bot = Bot::start(settings(&db("gateway-token")), config(&fake), TOKEN)
        .await
        .expect("REST accepts the token");
    let result = tokio::time::timeout(
        Duration::from_secs(20),
        bot.run_until(std::future::pending()),
    )
    .await
    .expect("the bot gives up");
    let e = result.expect_err("an error");
    assert!(e.contains("rejected DISCORD_TOKEN"), "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
}

/// A missing token and a token Discord rejects (401) each end `postal run` with a
/// one-line explanation and a non-zero exit, without a panic.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postal_run_explains_a_missing_or_rejected_token() {
    let fake = Fake::start(TOKEN).await;
    let dir = scratch("tokens");
    let run = |token: Option<&str>| {
        let mut cmd = postal_run(&fake, &dir, "tokens");
        match token {
            Some(t) => cmd.env("DISCORD_TOKEN", t),
            None => cmd.env_remove("DISCORD_TOKEN"),
        };
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        cmd
    };
    for (token, why) in [
        (None, "DISCORD_TOKEN is not set"),
        (Some("not-the-token"), "Discord rejected DISCORD_TOKEN"),
    ] {
        let out = tokio::task::spawn_blocking({
            let mut cmd = run(token);
            move || cmd.output().unwrap()
        })
        .await
        .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        let last = stderr.lines().last().unwrap_or_default();
        assert!(last.starts_with("postal: "), "{stderr}");
        assert!(last.contains(why), "{stderr}");
        assert!(
            last.contains("discord.com/developers/applications"),
            "says where to get one: {stderr}"
        );
        assert!(
            !stderr.contains("not-the-token"),
            "the token is never printed"
        );
    }
    let reqs = fake.requests();
    assert!(reqs
        .iter()
        .any(|r| r.path == "/users/@me" && r.status == 401));
}

/// The real `postal` binary against the fake: a game started and a few moves played,
/// then Ctrl-C (SIGINT) stops it cleanly, with the moves stored in the database file
/// alone (its WAL emptied).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postal_binary_plays_and_stops_on_ctrl_c() {
    plays_and_stops_on("INT", "binary-int").await;
}

/// The same with SIGTERM, what service managers and containers send.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_postal_binary_plays_and_stops_on_sigterm() {
    plays_and_stops_on("TERM", "binary-term").await;
}

/// Starts `postal run`, plays a few moves, sends `signal` and checks the clean stop.
async fn plays_and_stops_on(signal: &str, name: &str) {
    let fake = Fake::start(TOKEN).await;
    let dir = scratch(name);
    let mut cmd = postal_run(&fake, &dir, name);
    cmd.env("DISCORD_TOKEN", TOKEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().expect("postal run starts");
    fake.wait_identified(1).await;
    fake.wait_for("command registration", |r| {
        r.iter().any(|x| x.method == "PUT" && x.ok())
    })
    .await;
    let thread = start_game(&fake, "").await;
    for (who, mv) in [(ALICE, "e4"), (BOB, "e5"), (ALICE, "Nf3")] {
        fake.say(who, &thread, mv);
        let m = wait_post(&fake, &thread, &format!("played {mv}")).await;
        assert!(is_png(&m));
    }
    let pid = child.id().to_string();
    let status = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid])
        .status()
        .unwrap();
    assert!(status.success());
    let out = tokio::time::timeout(
        Duration::from_secs(20),
        tokio::task::spawn_blocking(move || child.wait_with_output().unwrap()),
    )
    .await
    .expect("postal run stops after the signal")
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stderr}{stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stdout.contains("shutting down") || stderr.contains("shutting down"));
    assert!(
        !stdout.contains(TOKEN) && !stderr.contains(TOKEN),
        "the token is never logged"
    );
    // Everything is in the database file itself.
    let wal = dir.join(format!("{name}.db-wal"));
    assert_eq!(wal.metadata().map_or(0, |m| m.len()), 0, "the WAL is empty");
    let store = postal::store::Store::open(&dir.join(format!("{name}.db")).display().to_string())
        .await
        .unwrap();
    let g = store.game(1).await.unwrap().unwrap();
    assert_eq!(g.status, "active");
    assert!(g.snapshot.contains("g1f3"), "{}", g.snapshot);
    store.close().await;
}

/// A fresh scratch directory for a test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("postal-e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `postal run` against the fake, in `dir` (so no config file is found), with the
/// database `dir/NAME.db`; the caller sets the token.
fn postal_run(fake: &Fake, dir: &std::path::Path, name: &str) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_postal"));
    cmd.arg("run")
        .current_dir(dir)
        .env("DISCORD_API_BASE", fake.base())
        .env(
            "DATABASE_URL",
            dir.join(format!("{name}.db")).display().to_string(),
        )
        .env("RUST_LOG", "postal=info,serenity=warn")
        .env_remove("POSTAL_CONFIG")
        .env_remove("POSTAL_DISCORD_CONFIG")
        .stdin(Stdio::null());
    cmd
}

/// A 429 (rate limited, retry after 300 ms) on a move's message, with serenity's own
/// rate limiter in the loop: the bot talks to the fake as to `https://discord.com`, as in
/// production. The limiter waits, retries, and the message arrives once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limit_is_waited_out_and_the_message_arrives_once() {
    let fake = Fake::start(TOKEN).await;
    let http = fake.discord_http(TOKEN).await;
    let cfg = Config {
        api_base: String::new(),
        ..config(&fake)
    };
    let bot = Bot::start_with(settings(&db("ratelimit")), cfg, http)
        .await
        .expect("bot starts");
    ready(&fake, 1).await;
    let thread = start_game(&fake, "").await;
    let path = format!("/channels/{thread}/messages");
    fake.fail_next("POST", &path, 429, 0);
    fake.say(ALICE, &thread, "e4");
    let played = wait_post(&fake, &thread, "played e4").await;
    assert!(is_png(&played), "the retry carries the board too");
    let reqs = fake.requests();
    let tries: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| r.path == path && r.content().is_some_and(|c| c.contains("played e4")))
        .collect();
    assert_eq!(tries.len(), 2, "one refused, one retried");
    assert_eq!(tries[0].status, 429);
    assert!(tries[1].ok());
    let waited = tries[1].at.duration_since(tries[0].at);
    assert!(
        waited >= fake_discord::RETRY_AFTER - Duration::from_millis(20),
        "waited {waited:?}"
    );
    fake.say(BOB, &thread, "e5");
    wait_post(&fake, &thread, "played e5").await;
    bot.stop().await;
}

/// With guilds in the settings, the commands are registered in each of them by bulk
/// overwrite, and not globally.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_in_the_configured_guilds() {
    let fake = Fake::start(TOKEN).await;
    let guilds = [500000000000000001u64, 500000000000000002];
    let cfg = Config {
        guilds: guilds.to_vec(),
        ..config(&fake)
    };
    let bot = start(&fake, &db("guilds"), cfg, 1).await;
    let reqs = fake
        .wait_for("both guilds", |r| {
            r.iter().filter(|x| x.method == "PUT" && x.ok()).count() == 2
        })
        .await;
    let puts: Vec<&Recorded> = reqs.iter().filter(|x| x.method == "PUT").collect();
    for (put, g) in puts.iter().zip(guilds) {
        assert_eq!(
            put.path,
            format!("/applications/{}/guilds/{g}/commands", fake_discord::BOT_ID)
        );
        let leaves = fake_discord::leaf_commands(put.json.as_array().unwrap());
        assert!(leaves.len() >= 16, "{}", leaves.len());
    }
    bot.stop().await;
}

/// Switching between global and guild registration leaves one copy of the commands:
/// started in guild mode after a global start, the bot clears the global commands; started
/// globally again, it clears those of the guild it is in (READY lists it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn switching_registration_scope_clears_the_other() {
    let fake = Fake::start(TOKEN).await;
    let guild = "500000000000000001";
    fake.set_guilds(&[guild]);
    let path = db("scopes");
    let bot = start(&fake, &path, config(&fake), 1).await;
    bot.stop().await;
    let global = fake.commands_of("global");
    assert!(global.iter().any(|c| c["name"] == "chess"), "{global:?}");
    assert!(fake.commands_of(guild).is_empty());

    let cfg = Config {
        guilds: vec![guild.parse().unwrap()],
        ..config(&fake)
    };
    let bot = start(&fake, &path, cfg, 2).await;
    fake.wait_for("the global commands cleared", |r| {
        r.iter().any(|x| {
            x.method == "PUT"
                && x.path == format!("/applications/{}/commands", fake_discord::BOT_ID)
                && x.json.as_array().is_some_and(Vec::is_empty)
                && x.ok()
        })
    })
    .await;
    bot.stop().await;
    assert!(fake.commands_of("global").is_empty());
    assert_eq!(fake.commands_of(guild).len(), global.len());

    let bot = start(&fake, &path, config(&fake), 3).await;
    fake.wait_for("the guild's commands cleared", |r| {
        r.iter().any(|x| {
            x.method == "PUT"
                && x.path.ends_with(&format!("/guilds/{guild}/commands"))
                && x.json.as_array().is_some_and(Vec::is_empty)
                && x.ok()
        })
    })
    .await;
    bot.stop().await;
    assert!(fake.commands_of(guild).is_empty());
    assert_eq!(fake.commands_of("global").len(), global.len());
}

/// The public requests (not to a DM channel, not ephemeral) made in `[from, to)`.
fn public_between(
    reqs: &[Recorded],
    dms: &std::collections::HashMap<String, String>,
    from: std::time::Instant,
    to: std::time::Instant,
) -> Vec<Recorded> {
    reqs.iter()
        .filter(|r| r.ok() && r.at >= from && r.at < to && !fake_discord::is_private(r, dms))
        .cloned()
        .collect()
}

/// The PNG board of the public `!board` answer in `thread` that follows `after` requests.
async fn public_board(fake: &Fake, thread: &str, who: (&str, &str)) -> Vec<u8> {
    let before = posts(&fake.requests(), thread).len();
    fake.say(who, thread, "!board");
    let reqs = fake
        .wait_for("a board in the thread", |r| posts(r, thread).len() > before)
        .await;
    let p = posts(&reqs, thread)[before];
    assert!(is_png(p), "{}", p.json);
    p.files[0].bytes.clone()
}

/// No private text (a DM or an ephemeral answer, other than "done") appears in any public
/// request, and a private board that was not public when it was sent never becomes
/// public; at least `at_least` private messages were sent.
fn private_stays_private(
    reqs: &[Recorded],
    dms: &std::collections::HashMap<String, String>,
    at_least: usize,
) {
    let private: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| r.ok() && r.method == "POST" && fake_discord::is_private(r, dms))
        .filter(|r| r.content().is_some() || !r.files.is_empty())
        .collect();
    assert!(
        private.len() >= at_least,
        "the game's private messages: {}",
        private.len()
    );
    let public_files: Vec<(std::time::Instant, &[u8])> = reqs
        .iter()
        .filter(|r| r.ok() && !fake_discord::is_private(r, dms))
        .flat_map(|r| r.files.iter().map(|f| (r.at, f.bytes.as_slice())))
        .collect();
    for p in private {
        if let Some(text) = p.content().filter(|t| *t != "done") {
            let leaks = public_leaks(reqs, dms, text);
            assert!(
                leaks.is_empty(),
                "private text in public: {text}: {leaks:?}"
            );
        }
        // A private board may show what was already public (the position before any
        // pick); one that was not public when it was sent privately never becomes so.
        for f in &p.files {
            let same: Vec<std::time::Instant> = public_files
                .iter()
                .filter(|(_, b)| *b == f.bytes.as_slice())
                .map(|(at, _)| *at)
                .collect();
            assert!(
                same.is_empty() || same.iter().any(|at| *at < p.at),
                "a private board became public: {} {}",
                p.path,
                p.content().unwrap_or_default()
            );
        }
    }
}

/// A whole Split-Brain game on Discord: four users, a text challenge with three mentions,
/// four acceptances, a thread; picks by DM and by the ephemeral `/pick`, refused picks,
/// a pick typed in public, reveals in the thread, the opposing chooser's decision by
/// button (refused for anyone else, and by `/decide` for the wrong player), and a mate.
/// Every request of the game is then scanned: no pick appears in public before its
/// reveal, the public board does not change with a pick, and no private message or
/// private board (DMs and ephemeral answers) ever appears in public.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn split_brain_on_discord_keeps_every_pick_secret_until_the_reveal() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("split"), config(&fake), 1).await;
    fake.say(
        ALICE,
        GAMES,
        &format!(
            "!challenge <@{}> <@{}> <@{}> split-brain",
            BOB.0, CAROL.0, DAVE.0
        ),
    );
    let c = wait_post(&fake, GAMES, "challenges").await;
    let accept = button(None, "accept 1");
    assert_eq!(
        button_ids(&c.json),
        [accept.clone(), button(None, "decline 1")]
    );
    for who in [BOB, CAROL] {
        fake.say(who, GAMES, "!accept");
        wait_post(&fake, GAMES, &format!("<@{}> accepted", who.0)).await;
    }
    assert!(
        fake.threads().is_empty(),
        "no thread before all four accept"
    );
    let press = fake.press(DAVE, &bot_message(&fake, GAMES), &accept);
    assert_eq!(fake.wait_callback(&press).await.json["type"], 7);
    let thread = the_thread(&fake).await;
    let name = &fake.threads()[&thread].1;
    assert_eq!(name, "game #1 split-brain: alice & bob vs carol & dave");
    let start = wait_post(&fake, &thread, "accepted").await;
    assert!(is_png(&start));
    // The partners of the team to move are prompted privately, with their own board.
    for who in [ALICE, BOB] {
        let p = wait_dm(&fake, who, "your turn").await;
        assert!(is_png(&p), "a private board comes with the prompt");
    }

    // Round 1, White: alice chooses by DM, bob moves by the ephemeral /pick in the thread.
    let board_before = public_board(&fake, &thread, DAVE).await;
    let mut secrets: Vec<(&str, std::time::Instant)> = Vec::new();
    secrets.push(("e1", std::time::Instant::now()));
    dm(&fake, ALICE, "pick e1");
    wait_dm(&fake, ALICE, "you picked the knight on e1").await;
    assert_eq!(
        public_board(&fake, &thread, DAVE).await,
        board_before,
        "a pick does not change the public board"
    );
    // A pick typed in public is refused privately, and not repeated in the thread.
    let posted = posts(&fake.requests(), &thread).len();
    fake.say(BOB, &thread, "!pick d3");
    wait_dm(&fake, BOB, "`pick` is secret").await;
    // Refused: a square no piece reaches, answered privately.
    let r = private_answer(
        &fake,
        BOB,
        &thread,
        "pick",
        json!([{"name": "square", "type": 3, "value": "c4"}]),
        "a refused pick is private",
    )
    .await;
    assert_says(&r, "can move to c4");
    private_answer(
        &fake,
        BOB,
        &thread,
        "pick",
        json!([{"name": "square", "type": 3, "value": "f3"}]),
        "/pick is answered privately",
    )
    .await;
    let reveal = wait_post(&fake, &thread, "revealed").await;
    let text = reveal.content().unwrap();
    assert!(
        text.contains("picked the knight on e1")
            && text.contains("target f3")
            && text.contains("played Nf3"),
        "{text}"
    );
    assert_eq!(
        posts(&fake.requests(), &thread).len(),
        posted + 1,
        "only the reveal was posted in the thread"
    );

    // Round 1, Black: dave moves, carol's first pick is refused; the pair is not a move.
    for who in [CAROL, DAVE] {
        wait_dm(&fake, who, "your turn").await;
    }
    secrets.push(("c4", std::time::Instant::now()));
    dm(&fake, DAVE, "pick c4");
    wait_dm(&fake, DAVE, "you picked the target c4").await;
    dm(&fake, CAROL, "pick a6");
    wait_dm(&fake, CAROL, "has no legal move").await;
    dm(&fake, CAROL, "pick e6");
    let ask = wait_post(&fake, &thread, "to decide piece or target").await;
    // The buttons come from the referee's prompt of the opposing chooser, for her alone.
    let piece = button(Some(ALICE), "decide #1 piece");
    assert_eq!(
        button_ids(&ask.json),
        [piece.clone(), button(Some(ALICE), "decide #1 target")]
    );
    // Only the opposing chooser decides: bob's press and bob's /decide change nothing.
    let other = fake.press(BOB, &bot_message(&fake, &thread), &piece);
    let r = fake.wait_callback(&other).await;
    assert_ne!(r.flags() & 64, 0);
    assert_says(&r, "for another player");
    let r = private_answer(
        &fake,
        BOB,
        &thread,
        "decide",
        json!([{"name": "stands", "type": 3, "value": "target"}]),
        "a refused decision is private",
    )
    .await;
    assert_says(&r, "White's chooser");
    private_answer(
        &fake,
        CAROL,
        &thread,
        "choose",
        json!([{"name": "square", "type": 3, "value": "c4"}]),
        "nothing to choose: private",
    )
    .await;
    let yes = fake.press(ALICE, &bot_message(&fake, &thread), &piece);
    assert_eq!(
        fake.wait_callback(&yes).await.json["type"],
        7,
        "the buttons are taken off"
    );
    wait_post(&fake, &thread, "the piece stands").await;
    wait_post(&fake, &thread, "played Nd4").await;

    // Round 2 (queen-side partners choose) and round 3, to mate.
    for (user, square, ack) in [
        (ALICE, "d4", None),
        (BOB, "f3", Some("played Nxd4")),
        (DAVE, "f6", None),
        (CAROL, "e6", Some("played Re6")),
        (BOB, "f5", None),
        (ALICE, "d4", Some("checkmate")),
    ] {
        match ack {
            None => {
                secrets.push((square, std::time::Instant::now()));
                if user == ALICE {
                    let p = fake.slash(
                        ALICE,
                        &thread,
                        "pick",
                        json!([{"name": "square", "type": 3, "value": square}]),
                    );
                    let r = fake.wait_callback(&p).await;
                    assert_ne!(r.flags() & 64, 0, "{}", r.json);
                    assert_says(&r, "you picked");
                } else {
                    dm(&fake, user, &format!("pick {square}"));
                    wait_dm(&fake, user, "you picked").await;
                }
            }
            Some(needle) => {
                dm(&fake, user, &format!("pick {square}"));
                wait_post(&fake, &thread, needle).await;
            }
        }
    }
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content()
            .unwrap()
            .contains("(White) win by checkmate (1-0)"),
        "{}",
        end.json
    );

    // The scan, over every request of the game.
    let reqs = fake.requests();
    let dms = fake.dm_channels();
    for (square, from) in &secrets {
        let reveal = reqs
            .iter()
            .find(|r| {
                r.at >= *from
                    && r.path == format!("/channels/{thread}/messages")
                    && r.content().is_some_and(|c| c.contains("revealed"))
            })
            .expect("each pick is revealed");
        assert!(reveal.content().unwrap().contains(square));
        for r in public_between(&reqs, &dms, *from, reveal.at) {
            assert!(
                !r.json.to_string().contains(square),
                "the pick {square} is public before its reveal: {} {}",
                r.path,
                r.json
            );
        }
    }
    private_stays_private(&reqs, &dms, 20);
    all_accepted(&fake);
    bot.stop().await;
}

/// `/challenge` with three opponents, the split-brain choice and `teams:random` makes the
/// same challenge as the text command; a fourth player named twice is refused privately.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_challenge_names_three_opponents_for_split_brain() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("split-slash"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    let variants = option_of(&cmds, "challenge", "variant")["choices"].to_string();
    assert!(
        variants.contains("\"split-brain\"") && variants.contains("\"double-move\""),
        "{variants}"
    );
    for name in ["pick", "decide", "choose"] {
        assert!(
            cmds.iter().any(|c| c["name"] == name),
            "/{name} is registered"
        );
    }

    let r = private_answer(
        &fake,
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOB.0},
               {"name": "opponent2", "type": 6, "value": BOB.0},
               {"name": "opponent3", "type": 6, "value": CAROL.0},
               {"name": "variant", "type": 3, "value": "split-brain"}]),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "name each player once");

    let c = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOB.0},
               {"name": "opponent2", "type": 6, "value": CAROL.0},
               {"name": "opponent3", "type": 6, "value": DAVE.0},
               {"name": "variant", "type": 3, "value": "split-brain"},
               {"name": "teams", "type": 3, "value": "random"}]),
    );
    let r = fake.wait_callback(&c).await;
    assert_eq!(r.flags() & 64, 0, "a challenge is public: {}", r.json);
    let text = r.content().unwrap();
    assert!(
        text.starts_with("game #1:") && text.contains("split-brain"),
        "{text}"
    );
    for who in [BOB, CAROL, DAVE] {
        assert!(text.contains(&format!("<@{}>", who.0)), "{text}");
    }
    all_accepted(&fake);
    bot.stop().await;
}

/// The commands the bot registered (its first bulk registration), each subcommand as a
/// command of its own ([`fake_discord::leaf_commands`]).
fn registered_commands(fake: &Fake) -> Vec<Value> {
    let registered = fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT" && r.path.ends_with("/commands") && r.ok())
        .expect("a registration");
    fake_discord::leaf_commands(registered.json.as_array().unwrap())
}

/// The option `option` of the registered command `command`.
fn option_of<'a>(cmds: &'a [Value], command: &str, option: &str) -> &'a Value {
    let c = cmds
        .iter()
        .find(|c| c["name"] == command)
        .unwrap_or_else(|| panic!("/{command} is registered"));
    c["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == option))
        .unwrap_or_else(|| panic!("/{command} has the option {option}"))
}

/// The fake refuses a registration that breaks one of Discord's limits, and accepts the
/// bot's own commands.
#[test]
fn the_fake_refuses_registrations_beyond_discords_limits() {
    for registry in [
        Registry::builtin(),
        Registry::builtin().with(&toy::KNIGHT_HOP),
    ] {
        let ours: Vec<Value> = postal::discord::slash::commands(&registry)
            .iter()
            .map(|c| serde_json::to_value(c).unwrap())
            .collect();
        assert!(fake_discord::check_commands(&ours).is_ok());
    }
    let cmd = |name: &str| json!({"name": name, "description": "a command", "type": 1});
    let option = |name: &str| json!({"name": name, "description": "an option", "type": 3});
    let refused = |cmds: Vec<Value>, why: &str| {
        let (status, body) = fake_discord::check_commands(&cmds).expect_err(why);
        assert_eq!(status, 400, "{why}: {body}");
    };
    refused(
        (0..101).map(|i| cmd(&format!("c{i}"))).collect(),
        "101 commands",
    );
    refused(vec![cmd("twice"), cmd("twice")], "two commands of one name");
    refused(vec![cmd("Upper")], "an upper-case name");
    let mut long = cmd("long");
    long["description"] = json!("x".repeat(101));
    refused(vec![long], "a description of 101 characters");
    let mut many = cmd("many");
    many["options"] = Value::Array((0..26).map(|i| option(&format!("o{i}"))).collect());
    refused(vec![many], "26 options");
    let mut choices = cmd("choices");
    let mut o = option("pick");
    o["choices"] = Value::Array(
        (0..26)
            .map(|i| json!({"name": format!("n{i}"), "value": format!("v{i}")}))
            .collect(),
    );
    choices["options"] = json!([o]);
    refused(vec![choices], "26 choices");
    let mut long_option = cmd("longoption");
    let mut o = option("o");
    o["description"] = json!("y".repeat(101));
    long_option["options"] = json!([o]);
    refused(vec![long_option], "an option description of 101 characters");
    let mut order = cmd("order");
    let mut required = option("second");
    required["required"] = json!(true);
    order["options"] = json!([option("first"), required]);
    refused(vec![order], "a required option after an optional one");
    let sub = |name: &str| json!({"name": name, "description": "a subcommand", "type": 1});
    let mut mixed = cmd("mixed");
    mixed["options"] = json!([sub("one"), option("two")]);
    refused(vec![mixed], "a subcommand beside a plain option");
    let mut nested = cmd("nested");
    let mut outer = sub("outer");
    outer["options"] = json!([sub("inner")]);
    nested["options"] = json!([outer]);
    refused(vec![nested], "a subcommand inside a subcommand");
    let mut big = cmd("big");
    big["options"] = Value::Array(
        (0..25)
            .map(|i| {
                let mut s = sub(&format!("s{i}"));
                s["description"] = json!("z".repeat(100));
                s["options"] = Value::Array(
                    (0..4)
                        .map(|j| {
                            let mut o = option(&format!("o{j}"));
                            o["description"] = json!("w".repeat(100));
                            o
                        })
                        .collect(),
                );
                s
            })
            .collect(),
    );
    refused(vec![big], "more than 8000 characters in one command");
}

/// The Chesswords commands are registered within Discord's limits: `/challenge` takes a
/// `timer` of 1 to 5 minutes, `/discard` offers the ten kinds of card and none, `/play` and
/// `/letters` suggest moves, and `/help`'s `command` suggests the command names. The
/// secret commands and `/hand` are answered ephemerally even where nothing can be done,
/// and their input is not repeated in public.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chesswords_commands_are_registered_and_help_suggests_commands() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("chesswords-slash"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    assert!(
        cmds.len() > 25,
        "more commands than one list of choices holds"
    );
    for name in [
        "clue", "pass", "play", "letters", "discard", "hand", "words", "guess",
    ] {
        assert!(cmds.iter().any(|c| c["name"] == name), "/{name}");
    }
    let timer = option_of(&cmds, "challenge", "timer");
    assert_eq!(
        (timer["min_value"].as_u64(), timer["max_value"].as_u64()),
        (Some(1), Some(5))
    );
    assert_eq!(
        option_of(&cmds, "discard", "card")["choices"]
            .as_array()
            .unwrap()
            .len(),
        11,
        "the ten kinds of card and none"
    );
    for command in ["play", "letters"] {
        assert_eq!(
            option_of(&cmds, command, "move")["autocomplete"],
            true,
            "/{command}"
        );
    }
    assert_eq!(option_of(&cmds, "help", "command")["autocomplete"], true);

    let typing = |v: &str| json!([{"name": "command", "type": 3, "value": v, "focused": true}]);
    let a = fake.autocomplete(ALICE, GAMES, "help", typing("g"));
    assert_eq!(
        choice_names(&fake.wait_callback(&a).await),
        ["games", "guess"]
    );
    let a = fake.autocomplete(ALICE, GAMES, "help", typing("C"));
    assert_eq!(
        choice_names(&fake.wait_callback(&a).await),
        [
            "cancel",
            "challenge",
            "choose",
            "claim",
            "clue",
            "conditional"
        ]
    );
    let a = fake.autocomplete(ALICE, GAMES, "help", typing(""));
    let all = choice_names(&fake.wait_callback(&a).await);
    assert_eq!(all.len(), 25, "Discord's 25 at most: {all:?}");
    let r = private_answer(
        &fake,
        ALICE,
        GAMES,
        "help",
        json!([{"name": "command", "type": 3, "value": "words"}]),
        "help is ephemeral",
    )
    .await;
    assert_says(&r, "words none");

    // No game: the secret commands and /hand answer privately, and say nothing public.
    for (name, options) in [
        (
            "words",
            json!([{"name": "word1", "type": 3, "value": "zebra"},
                         {"name": "word2", "type": 3, "value": "quartz"}]),
        ),
        (
            "discard",
            json!([{"name": "card", "type": 3, "value": "wN"}]),
        ),
        ("hand", json!([])),
    ] {
        let r = private_answer(&fake, BOB, GAMES, name, options, "/{name} is ephemeral").await;
        assert_says(&r, "no game");
    }
    let reqs = fake.requests();
    for secret in ["zebra", "quartz"] {
        let leaks = public_leaks(&reqs, &fake.dm_channels(), secret);
        assert!(leaks.is_empty(), "{secret} in public: {leaks:?}");
    }
    assert!(
        posts(&reqs, GAMES).is_empty(),
        "nothing was posted in the channel"
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// A slash command by `who` in `channel`; returns the interaction's response.
async fn slash_reply(
    fake: &Fake,
    who: (&str, &str),
    channel: &str,
    name: &str,
    options: Value,
) -> Recorded {
    let i = fake.slash(who, channel, name, options);
    fake.wait_callback(&i).await
}

/// The cards listed after "your hand: " (or "Your hand: ") in a private text.
fn hand_cards(text: &str) -> Vec<String> {
    let Some(at) = text.find("our hand: ") else {
        return Vec::new();
    };
    let rest = &text[at + "our hand: ".len()..];
    let list = rest.split(['(', ';']).next().unwrap_or_default();
    list.split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

/// The alphabetic words of a text, in upper case.
fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_uppercase)
        .collect()
}

/// A whole Secret Chesswords game on Discord, the game of the console transcript
/// `chesswords-game` (the harness's seed deals the same letters and cards): the hands
/// arrive by DM, clues, passes and moves (by text and by slash command) in the game's
/// thread with the board as a PNG, refusals (a move before the clue, a bare move after a
/// clue, a word whose letters do not match the move, a secret typed in public, a move
/// onto a checker), the private word after a capture of what it lets the holder
/// discard, discards by the ephemeral `/discard` and by DM (only the discard is posted),
/// a draw told by DM, the ephemeral `/hand`, a penalty for naming letters, a king
/// captured and the holder's decision on its discard (`/discard none`), the finale's
/// words by the ephemeral `/words` (one pair refused) and by DM, clues and guesses in
/// the thread, and the grade. Then every request is scanned: no card anyone
/// held appears in public except in the announcement of its discard, no finale word
/// before its reveal, and no DM or ephemeral text or private board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chesswords_on_discord_keeps_hands_and_words_secret() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("chesswords"), config(&fake), 1).await;
    let variants =
        option_of(&registered_commands(&fake), "challenge", "variant")["choices"].to_string();
    assert!(
        variants.contains("\"Secret Chesswords\"") && variants.contains("\"chesswords\""),
        "{variants}"
    );
    let thread = start_game(&fake, "chesswords timer:3").await;
    let alice_hand = "your hand: black queen, white pawn, black pawn, black knight (4 cards)";
    let bob_hand = "your hand: black knight, black rook, white pawn, white knight (4 cards)";
    wait_dm(&fake, ALICE, alice_hand).await;
    wait_dm(&fake, BOB, bob_hand).await;
    let text = |s: &str| format!("!{s}");

    fake.say(ALICE, &thread, &text("play attic b3"));
    wait_post(&fake, &thread, "you cannot move now").await;
    let r = slash_reply(
        &fake,
        BOB,
        &thread,
        "clue",
        json!([{"name": "text", "type": 3, "value": "a room under the roof"}]),
    )
    .await;
    assert_eq!(r.flags() & 64, 0, "a clue is public: {}", r.json);
    assert!(
        r.content()
            .unwrap()
            .contains("Black's clue: “a room under the roof”"),
        "{}",
        r.json
    );
    fake.say(ALICE, &thread, "b3");
    wait_post(&fake, &thread, "after a clue say the word you guessed").await;
    fake.say(ALICE, &thread, &text("play above b3"));
    let refused = wait_post(&fake, &thread, "the move goes from A to C").await;
    assert!(!is_png(&refused), "a refused move changes nothing");
    let r = slash_reply(&fake, ALICE, &thread, "play", json!([{"name": "word", "type": 3, "value": "attic"}, {"name": "move", "type": 3, "value": "b3"}])).await;
    assert_eq!(r.flags() & 64, 0, "{}", r.json);
    assert!(
        r.content()
            .unwrap()
            .contains("played b3; with the word ATTIC"),
        "{}",
        r.json
    );
    assert!(is_png(&r), "the board comes with the move");
    for (who, line, needle) in [
        (ALICE, "clue blood of the gods", "White's clue"),
        (BOB, "play ichor c4", "played c4"),
        (BOB, "clue something to sit on", "Black's clue: “something"),
        (ALICE, "play chair bxc4", "played bxc4"),
    ] {
        fake.say(who, &thread, &text(line));
        let p = wait_post(&fake, &thread, needle).await;
        if line.starts_with("play") {
            assert!(is_png(&p), "{line}: the board comes with the move");
        }
    }
    // The capture lets Bob discard: he alone is told, and decides while Alice thinks.
    wait_dm(
        &fake,
        BOB,
        "White's capture of your pawn lets you discard the white pawn (wP), if you wish",
    )
    .await;
    dm(&fake, BOB, "discard wP");
    wait_post(
        &fake,
        &thread,
        "Black discards the white pawn: a checker on b3",
    )
    .await;
    wait_dm(&fake, BOB, "you drew the white pawn; your hand:").await;
    fake.say(ALICE, &thread, &text("clue you knock on it"));
    wait_post(&fake, &thread, "White's clue: “you knock").await;
    let posted = posts(&fake.requests(), &thread).len();
    fake.say(BOB, &thread, &text("play door dxc4"));
    let p = wait_post(&fake, &thread, "played dxc4").await;
    assert!(
        !p.content().unwrap().contains("discard"),
        "no word of a discard in public: {}",
        p.json
    );
    wait_dm(
        &fake,
        ALICE,
        "Black's capture of your pawn lets you discard the white pawn (wP) or the black pawn (bP)",
    )
    .await;
    assert_eq!(
        posts(&fake.requests(), &thread).len(),
        posted + 1,
        "the capture posted only the move"
    );
    // A discard typed in public is refused privately and not repeated in the thread.
    let posted = posts(&fake.requests(), &thread).len();
    fake.say(ALICE, &thread, &text("discard bP"));
    wait_dm(&fake, ALICE, "`discard` is secret").await;
    let r = slash_reply(
        &fake,
        ALICE,
        &thread,
        "discard",
        json!([{"name": "card", "type": 3, "value": "bP"}]),
    )
    .await;
    assert_ne!(
        r.flags() & 64,
        0,
        "/discard is answered privately: {}",
        r.json
    );
    assert_says(&r, "you drew the black pawn");
    wait_post(
        &fake,
        &thread,
        "White discards the black pawn: a checker on d5",
    )
    .await;
    assert_eq!(
        posts(&fake.requests(), &thread).len(),
        posted + 1,
        "only the discard was posted"
    );

    let r = slash_reply(&fake, BOB, &thread, "pass", json!([])).await;
    assert!(
        r.content()
            .unwrap()
            .contains("Black passes: White moves freely"),
        "{}",
        r.json
    );
    fake.say(ALICE, &thread, &text("play hen d3"));
    wait_post(&fake, &thread, "so you move freely").await;
    fake.say(ALICE, &thread, "d3");
    wait_post(&fake, &thread, "played d3").await;
    fake.say(ALICE, &thread, &text("clue a hint"));
    wait_post(&fake, &thread, "White's clue: “a hint”").await;
    fake.say(BOB, &thread, &text("letters rn cxd3"));
    wait_post(&fake, &thread, "one penalty point (1 in all)").await;
    wait_dm(
        &fake,
        ALICE,
        "lets you discard the white pawn (wP) or the black pawn (bP), if you wish",
    )
    .await;
    dm(&fake, ALICE, "discard wP");
    wait_post(
        &fake,
        &thread,
        "White discards the white pawn: a checker on c4",
    )
    .await;
    wait_dm(
        &fake,
        ALICE,
        "you drew the black pawn; your hand: black queen, black knight",
    )
    .await;
    fake.say(BOB, &thread, &text("clue consumed"));
    wait_post(&fake, &thread, "Black's clue: “consumed”").await;
    fake.say(ALICE, &thread, &text("play eaten exd3"));
    wait_post(&fake, &thread, "played exd3").await;
    let r = slash_reply(
        &fake,
        BOB,
        &thread,
        "discard",
        json!([{"name": "card", "type": 3, "value": "wP"}]),
    )
    .await;
    assert_ne!(r.flags() & 64, 0, "{}", r.json);
    wait_post(&fake, &thread, "a checker on e2").await;
    let hand = slash_reply(&fake, BOB, &thread, "hand", json!([])).await;
    assert!(
        hand.content()
            .unwrap()
            .contains("your hand: black knight, black rook, white knight, white pawn (4 cards)"),
        "{}",
        hand.json
    );
    for (who, line, needle) in [
        (ALICE, "clue snatch", "White's clue: “snatch”"),
        (BOB, "play grab a4", "played a4"),
        (
            BOB,
            "clue a short written message",
            "Black's clue: “a short",
        ),
        (ALICE, "play note d4", "played d4"),
        (
            ALICE,
            "clue a double-reed instrument",
            "White's clue: “a double",
        ),
        (BOB, "play oboe exd4", "played exd4"),
        (
            BOB,
            "clue the border of a cliff",
            "Black's clue: “the border",
        ),
        (ALICE, "play edge Ke2", "e2 has a checker"),
        (ALICE, "play edge Nc3", "played Nc3"),
        (ALICE, "clue metropolis", "White's clue: “metropolis”"),
        (BOB, "play city f4", "played f4"),
        (BOB, "clue a volcano in Sicily", "Black's clue: “a volcano"),
        (ALICE, "play etna Ne4", "played Ne4"),
        (ALICE, "clue false hair", "White's clue: “false hair”"),
        (BOB, "play wig Ra5", "played Ra5"),
        (
            BOB,
            "clue the smallest bit of an element",
            "Black's clue: “the smallest",
        ),
        (ALICE, "play atom Nxd6", "play is over: a king was captured"),
    ] {
        fake.say(who, &thread, &text(line));
        wait_post(&fake, &thread, needle).await;
        if line == "play oboe exd4" {
            dm(&fake, ALICE, "discard bP");
            wait_post(&fake, &thread, "a checker on e5").await;
        }
    }
    // The king's capture: Bob decides privately before the finale; he keeps his cards.
    wait_dm(
        &fake,
        BOB,
        "Before the finale, White's last capture lets you discard the white knight (wN)",
    )
    .await;
    let r = slash_reply(
        &fake,
        BOB,
        &thread,
        "discard",
        json!([{"name": "card", "type": 3, "value": "none"}]),
    )
    .await;
    assert_ne!(r.flags() & 64, 0, "{}", r.json);
    wait_dm(&fake, ALICE, "The marked letters are C, D, E, O, R").await;

    // The finale: words privately, clues and guesses in the thread.
    let word = |n: &str, v: &str| json!({"name": n, "type": 3, "value": v});
    let r = slash_reply(
        &fake,
        ALICE,
        &thread,
        "words",
        json!([word("word1", "cord"), word("word2", "ace")]),
    )
    .await;
    assert_ne!(r.flags() & 64, 0, "{}", r.json);
    assert_says(&r, "no checker marks the letter A");
    dm(&fake, ALICE, "words cod re");
    wait_dm(&fake, ALICE, "your words: COD and RE").await;
    wait_post(&fake, &thread, "White has submitted their words").await;
    let r = slash_reply(
        &fake,
        BOB,
        &thread,
        "words",
        json!([word("word1", "doc"), word("word2", "re")]),
    )
    .await;
    assert_ne!(
        r.flags() & 64,
        0,
        "/words is answered privately: {}",
        r.json
    );
    assert_says(&r, "your words: DOC and RE");
    wait_post(
        &fake,
        &thread,
        "Black has submitted their words; White: give a clue",
    )
    .await;
    let r = slash_reply(
        &fake,
        ALICE,
        &thread,
        "clue",
        json!([{"name": "text", "type": 3, "value": "a fish"}]),
    )
    .await;
    assert_says(&r, "clue for one of their words");
    let r = slash_reply(&fake, BOB, &thread, "guess", json!([word("word", "cod")])).await;
    assert_eq!(r.flags() & 64, 0, "{}", r.json);
    assert_says(&r, "Black guesses COD: right!");
    fake.say(BOB, &thread, &text("clue a physician, for short"));
    wait_post(&fake, &thread, "Black's clue for one of their words").await;
    fake.say(ALICE, &thread, &text("guess doc"));
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content()
            .unwrap()
            .contains("total 13: below 50, the game is lost (F)"),
        "{}",
        end.json
    );

    // The scan, over every request of the game.
    let reqs = fake.requests();
    let dms = fake.dm_channels();
    let public: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| r.ok() && !fake_discord::is_private(r, &dms))
        .collect();
    // Every card seen in a private hand, from the first time it was seen.
    let mut held: Vec<(String, std::time::Instant)> = Vec::new();
    for r in reqs
        .iter()
        .filter(|r| r.ok() && fake_discord::is_private(r, &dms))
    {
        for card in hand_cards(r.content().unwrap_or_default()) {
            if !held.iter().any(|(c, _)| *c == card) {
                held.push((card, r.at));
            }
        }
    }
    assert!(held.len() >= 5, "{held:?}");
    for r in &public {
        let mut text = r.json.to_string();
        for (card, _) in &held {
            // A discarded card is shown face up: its announcement is public.
            text = text.replace(&format!("discards the {card}"), "");
        }
        for (card, from) in &held {
            assert!(
                r.at < *from || !text.contains(card.as_str()),
                "a held card ({card}) in public: {} {}",
                r.path,
                r.json
            );
        }
    }
    let revealed = |needle: &str| {
        public
            .iter()
            .find(|r| r.content().is_some_and(|c| c.contains(needle)))
            .map(|r| r.at)
    };
    let (white_reveal, black_reveal) = (revealed("Black guesses"), revealed("White guesses"));
    assert!(white_reveal.is_some() && black_reveal.is_some());
    for (secret, until) in [
        ("CORD", None),
        ("CORD", None),
        ("ACE", None),
        ("COD", white_reveal),
        ("DOC", black_reveal),
    ] {
        for r in public.iter().filter(|r| until.is_none_or(|u| r.at < u)) {
            assert!(
                !tokens(&r.json.to_string()).iter().any(|t| t == secret),
                "the word {secret} is public before its reveal: {} {}",
                r.path,
                r.json
            );
        }
    }
    private_stays_private(&reqs, &dms, 15);
    assert_ne!(
        hand.flags() & 64,
        0,
        "/hand is answered privately: {}",
        hand.json
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// `/help`'s `command` suggests the names of the referee's commands and of every
/// variant's declared ones; `/help` and `/hand` (whose answer is a player's own) are
/// answered privately, and `/hand` with no game posts nothing in public.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_suggests_command_names_and_hand_answers_privately() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("help"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    assert_eq!(option_of(&cmds, "help", "command")["autocomplete"], true);
    let registry = Registry::builtin();
    let mut every: Vec<&str> = postal::service::command::HELP
        .iter()
        .map(|h| h.0)
        .chain(registry.commands().iter().map(|c| c.name))
        .collect();
    every.sort_unstable();
    every.dedup();
    for name in registry.commands().iter().map(|c| c.name) {
        assert!(cmds.iter().any(|c| c["name"] == name), "/{name}");
    }

    let typing = |v: &str| json!([{"name": "command", "type": 3, "value": v, "focused": true}]);
    let a = fake.autocomplete(ALICE, GAMES, "help", typing("C"));
    assert_eq!(
        choice_names(&fake.wait_callback(&a).await),
        [
            "cancel",
            "challenge",
            "choose",
            "claim",
            "clue",
            "conditional"
        ]
    );
    let a = fake.autocomplete(ALICE, GAMES, "help", typing(""));
    let all = choice_names(&fake.wait_callback(&a).await);
    assert_eq!(all, every[..every.len().min(25)]);
    let r = private_answer(
        &fake,
        ALICE,
        GAMES,
        "help",
        json!([{"name": "command", "type": 3, "value": "draw"}]),
        "help is ephemeral",
    )
    .await;
    assert_says(&r, "draw [ID] offer|accept|decline");

    let r = private_answer(&fake, BOB, GAMES, "hand", json!([]), "/hand is ephemeral").await;
    assert_says(&r, "no game");
    assert!(
        posts(&fake.requests(), GAMES).is_empty(),
        "nothing was posted in the channel"
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// A variant is one module: Knight's Hop (`tests/toy`), a puzzle for one player declared
/// outside the crate and added to the registry, is offered by `/challenge`, gets its
/// `/hop` command from its declaration (with the squares the knight may reach suggested),
/// starts from its challenge alone in a thread of its own, and is played to its end
/// through the fake Discord, with its board as a PNG at every hop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_for_one_starts_from_its_challenge_in_a_thread_and_is_played_to_its_end() {
    assert_eq!(toy::fewest(toy::START, toy::GOAL), toy::FEWEST);
    let fake = Fake::start(TOKEN).await;
    let registry = Registry::builtin().with(&toy::KNIGHT_HOP);
    let bot = start_playing(&fake, &db("solitaire"), config(&fake), registry).await;
    let cmds = registered_commands(&fake);
    let variants = option_of(&cmds, "challenge", "variant")["choices"].to_string();
    assert!(
        variants.contains("\"Knight's Hop\"") && variants.contains("\"knight-hop\""),
        "{variants}"
    );
    let square = option_of(&cmds, "hop", "square");
    assert_eq!(square["required"], true);
    assert_eq!(square["autocomplete"], true);
    let hop = |to: &str| json!([{"name": "square", "type": 3, "value": to}]);

    // A game for one takes no opponent.
    let r = private_answer(
        &fake,
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOB.0},
               {"name": "variant", "type": 3, "value": "knight-hop"}]),
        "a refused challenge is private",
    )
    .await;
    assert_says(&r, "is played alone");
    assert!(fake.threads().is_empty());

    // The challenge alone starts it: the answer points to its thread, where it starts.
    let c = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "variant", "type": 3, "value": "knight-hop"}]),
    );
    let pointer = fake.wait_callback(&c).await;
    assert_eq!(pointer.flags() & 64, 0, "public: {}", pointer.json);
    let thread = the_thread(&fake).await;
    assert_says(&pointer, &format!("played in <#{thread}>"));
    assert_eq!(
        fake.threads()[&thread],
        (GAMES.to_string(), "game #1 knight-hop: alice".to_string())
    );
    let start = wait_post(&fake, &thread, "plays knight-hop").await;
    assert!(is_png(&start), "the board comes with the start");
    assert_says(
        &start,
        &format!("<@{}> (Knight) to hop (the knight is on a1)", ALICE.0),
    );
    assert!(button_ids(&start.json).is_empty(), "no one to accept");

    // The squares the knight reaches, suggested as she types.
    let typing = |v: &str| json!([{"name": "square", "type": 3, "value": v, "focused": true}]);
    let a = fake.autocomplete(ALICE, &thread, "hop", typing(""));
    assert_eq!(choice_names(&fake.wait_callback(&a).await), ["b3", "c2"]);
    let a = fake.autocomplete(BOB, &thread, "hop", typing(""));
    assert!(
        choice_names(&fake.wait_callback(&a).await).is_empty(),
        "not Bob's game"
    );

    // A square the knight cannot reach is refused privately; Bob cannot play.
    let r = private_answer(
        &fake,
        ALICE,
        &thread,
        "hop",
        hop("c3"),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "cannot reach c3; it may hop to b3, c2");
    let r = private_answer(&fake, BOB, &thread, "hop", hop("b3"), "not his game").await;
    assert_says(&r, "no game here");

    // Six hops to h8, by slash command and by text, each with the new board.
    let mut boards: Vec<Vec<u8>> = vec![start.files[0].bytes.clone()];
    for (i, to) in ["b3", "c5", "d7", "f8", "g6", "h8"].into_iter().enumerate() {
        let m = if i % 2 == 0 {
            let r = slash_reply(&fake, ALICE, &thread, "hop", hop(to)).await;
            assert_eq!(r.flags() & 64, 0, "a hop is public: {}", r.json);
            assert_says(&r, &format!("hops to {to}"));
            r
        } else {
            fake.say(ALICE, &thread, &format!("!hop {to}"));
            wait_post(&fake, &thread, &format!("hops to {to}")).await
        };
        assert!(is_png(&m), "the board comes with the hop to {to}");
        assert!(!boards.contains(&m.files[0].bytes), "the board changed");
        boards.push(m.files[0].bytes.clone());
    }
    let end = wait_post(&fake, &thread, "game over").await;
    let text = end.content().unwrap();
    assert!(
        text.contains("arriving in 6 hops (the fewest is 6)")
            && text.contains("game over: won by arrival, 6 points"),
        "{text}"
    );
    fake.say(ALICE, &thread, "!hop 1 g6");
    wait_post(&fake, &thread, "game #1 is finished").await;
    fake.say(ALICE, &thread, "!moves");
    wait_post(&fake, &thread, "1. b3 2. c5 3. d7 4. f8 5. g6 6. h8").await;
    assert_eq!(fake.threads().len(), 1, "one thread");
    all_accepted(&fake);
    bot.stop().await;
}

/// A short Gravity Chess game from a `fen:` position, played to its score on Discord:
/// White flips and adds by button, Black moves a bare move in the thread and adds by
/// button, White's last turn ends the game; refusals are answered, every turn's message
/// carries the board, and `/move` suggests the moves gravity allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gravity_game_from_a_position_is_played_to_its_score() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("gravity"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    let variants = option_of(&cmds, "challenge", "variant")["choices"].to_string();
    assert!(variants.contains("\"Gravity Chess\""), "{variants}");
    let column = option_of(&cmds, "add", "column");
    assert_eq!(column["choices"].as_array().map(Vec::len), Some(8));
    assert!(option_of(&cmds, "stay", "square")["required"] == true);

    // White's queen is stacked on d1, Black's pawn over it on d2; each side has one
    // knight still to add.
    let thread = start_game(&fake, r#"gravity fen:"8/8/8/8/8/8/3p4/3Q4[Nn] w""#).await;
    let first = wait_post(&fake, &thread, "to add the black knight on rank 8").await;
    assert!(is_png(&first), "the board comes with the start");
    let add_g = button(Some(ALICE), "add #1 g");
    assert!(button_ids(&first.json).contains(&add_g), "{}", first.json);

    // Bob cannot add for her; she adds by button.
    let r = private_answer(
        &fake,
        BOB,
        &thread,
        "add",
        json!([{"name": "column", "type": 3, "value": "a"}]),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "it is not your turn");
    let p = fake.press(ALICE, &bot_message(&fake, &thread), &add_g);
    fake.wait_callback(&p).await;
    let flipped = wait_post(&fake, &thread, "adds the black knight on g8").await;
    assert_says(&flipped, "flips the 8 of hearts (white knight)");
    assert_says(&flipped, "to move all active pieces (1 left)");
    assert!(is_png(&flipped));

    // Black's knight must fall: /move suggests its moves, an upward one is refused.
    let typing = json!([{"name": "move", "type": 3, "value": "", "focused": true}]);
    let a = fake.autocomplete(BOB, &thread, "move", typing);
    let suggested = choice_names(&fake.wait_callback(&a).await);
    assert_eq!(suggested, ["Ne7", "Nf6", "Nh6"], "{suggested:?}");
    let r = private_answer(
        &fake,
        ALICE,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "Nf6"}]),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "not your turn");
    fake.say(BOB, &thread, "!add a");
    wait_post(&fake, &thread, "first move all your active pieces").await;
    let moved = slash_reply(
        &fake,
        BOB,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "Nf6"}]),
    )
    .await;
    assert_eq!(moved.flags() & 64, 0, "a move is public: {}", moved.json);
    assert_says(&moved, "plays Nf6");
    assert!(is_png(&moved));
    assert_says(&moved, "to add the white knight on rank 8");
    let add_b = button(Some(BOB), "add #1 b");
    assert!(
        button_ids(&moved.json["data"]).contains(&add_b),
        "{}",
        moved.json
    );
    let p = fake.press(BOB, &bot_message(&fake, &thread), &add_b);
    fake.wait_callback(&p).await;
    let last = wait_post(&fake, &thread, "has the last turn").await;
    assert_says(&last, "for the last turn (1 left)");

    // White's last turn: the knight falls, and the game is scored.
    fake.say(ALICE, &thread, "!stay b8");
    wait_post(&fake, &thread, "the knight on b8 can move").await;
    fake.say(ALICE, &thread, "Nc6");
    let end = wait_post(&fake, &thread, "game over").await;
    let text = end.content().unwrap();
    assert!(
        text.contains("final score: White 11") && text.contains("(Black) 12; 0-1 on points"),
        "{text}"
    );
    assert!(is_png(&end), "the final board");
    fake.say(ALICE, &thread, "!moves");
    wait_post(
        &fake,
        &thread,
        "12. bN: N@g8 12... wN: Nf6 N@b8 13. last: Nc6",
    )
    .await;
    all_accepted(&fake);
    bot.stop().await;
}

/// Parade Chess Solitaire on Discord: started by one user's `/challenge`, alone, in a
/// thread of its own; `/move` (the chess command's slash, its moves suggested as typed)
/// and `/add` are the solitaire's; a refusal is private and says why; the board comes as
/// a PNG with every action, and the game ends with its score. Game #1 deals the cards of
/// `tests/transcripts/parade-win.txt` (the same seed), so the same four moves win.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parade_solitaire_is_played_to_its_end_in_its_thread() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("parade"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    let variants = option_of(&cmds, "challenge", "variant")["choices"].to_string();
    assert!(
        variants.contains("\"Parade Chess Solitaire\""),
        "{variants}"
    );
    assert!(
        cmds.iter().any(|c| c["name"] == "add"),
        "/add is registered"
    );
    let mv = |m: &str| json!([{"name": "move", "type": 3, "value": m}]);

    let c = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "variant", "type": 3, "value": "parade"}]),
    );
    fake.wait_callback(&c).await;
    let thread = the_thread(&fake).await;
    let start = wait_post(&fake, &thread, "plays parade").await;
    assert!(is_png(&start), "the board comes with the start");
    assert_says(&start, "to move a piece or add one (8 cards in hand)");
    assert_eq!(
        button_ids(&start.json),
        [button(Some(ALICE), "add #1")],
        "an Add button for Alice"
    );

    // The moves are suggested as she types; a refusal says why, privately.
    let typing = |v: &str| json!([{"name": "move", "type": 3, "value": v, "focused": true}]);
    let a = fake.autocomplete(ALICE, &thread, "move", typing("e2 a2"));
    let suggested = choice_names(&fake.wait_callback(&a).await);
    assert!(suggested.contains(&"e2 a2 c2".to_string()), "{suggested:?}");
    let r = private_answer(&fake, ALICE, &thread, "move", mv("e2 g2 h2"), "refused").await;
    assert_says(
        &r,
        "are both black: a piece moves only pieces of the other colour",
    );
    let r = private_answer(&fake, BOB, &thread, "move", mv("e2 a2 c2"), "not his").await;
    assert_says(&r, "no game here");

    let mut boards: Vec<Vec<u8>> = vec![start.files[0].bytes.clone()];
    for (i, (m, told)) in [
        (
            "e2 a2 c2",
            "the black rook on e2 move the white bishop from a2 to c2",
        ),
        (
            "Rc3: f3-e3",
            "the white rook on c3 move the black bishop from f3 to e3",
        ),
        (
            "c2 a4 d3",
            "the white bishop on c2 move the black bishop from a4 to d3",
        ),
        (
            "Re2: c2-f2",
            "the black rook on e2 move the white bishop from c2 to f2",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let said = if i % 2 == 0 {
            let r = slash_reply(&fake, ALICE, &thread, "move", mv(m)).await;
            assert_eq!(r.flags() & 64, 0, "a move is public: {}", r.json);
            r
        } else {
            // Typed bare, as the record writes it.
            fake.say(ALICE, &thread, &format!("!{m}"));
            wait_post(&fake, &thread, told).await
        };
        assert_says(&said, told);
        assert!(is_png(&said), "the board comes with {m}");
        assert!(!boards.contains(&said.files[0].bytes), "the board changed");
        boards.push(said.files[0].bytes.clone());
    }
    let end = wait_post(&fake, &thread, "game over").await;
    assert_says(&end, "game over: won by connecting the group, 4 points");
    fake.say(ALICE, &thread, "!moves");
    wait_post(
        &fake,
        &thread,
        "1. Re2: a2-c2 2. Rc3: f3-e3 3. Bc2: a4-d3 4. Re2: c2-f2",
    )
    .await;
    all_accepted(&fake);
    bot.stop().await;
}

/// Neighbour Chess Solitaire on Discord, by its other name `neighbor`: the Add and the
/// place buttons answer its prompts, `/add`, `/place`, `/stop` and `/move` its commands,
/// refusals are private, the board comes with every action, and no card is ever shown
/// before it is turned (game #1 deals the cards of `tests/transcripts/neighbour-win.txt`,
/// whose moves win here too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_neighbour_solitaire_is_played_to_its_end_with_buttons_and_slash_commands() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("neighbour"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    for name in ["add", "place", "stop"] {
        assert!(
            cmds.iter().any(|c| c["name"] == name),
            "/{name} is registered"
        );
    }
    fake.say(ALICE, GAMES, "!challenge neighbor");
    let thread = the_thread(&fake).await;
    let start = wait_post(&fake, &thread, "plays neighbour").await;
    assert!(is_png(&start));
    assert_says(
        &start,
        "to add a piece (16 piece cards, 20 position cards left)",
    );
    let add = button(Some(ALICE), "add #1");
    assert_eq!(button_ids(&start.json), std::slice::from_ref(&add));

    // The Add button, /add and a typed add.
    fake.press(ALICE, &bot_message(&fake, &thread), &add);
    wait_post(&fake, &thread, "turns up Q♠ and 5♦").await;
    let r = slash_reply(&fake, ALICE, &thread, "add", json!([])).await;
    assert_says(&r, "turns up 9♥ and 2♥");
    assert!(is_png(&r));
    let r = slash_reply(&fake, ALICE, &thread, "add", json!([])).await;
    assert_says(&r, "turns up 10♠ and 3♦");
    fake.say(ALICE, &thread, "!add");
    let taken = wait_post(&fake, &thread, "which is taken").await;
    assert_says(
        &taken,
        "to place the black knight on a free square nearest to f1",
    );
    let place = |sq: &str| button(Some(ALICE), &format!("place #1 {sq}"));
    assert_eq!(
        button_ids(&taken.json),
        ["e1", "g1", "e2", "f2", "g2"].map(place)
    );
    let r = private_answer(
        &fake,
        ALICE,
        &thread,
        "place",
        json!([{"name": "square", "type": 3, "value": "h8"}]),
        "a refused place is private",
    )
    .await;
    assert_says(&r, "h8 is not among the free squares nearest to f1");
    fake.press(ALICE, &bot_message(&fake, &thread), &place("e1"));
    wait_post(&fake, &thread, "places the black knight on e1").await;
    let r = slash_reply(&fake, ALICE, &thread, "stop", json!([])).await;
    assert_says(&r, "stops adding pieces");

    let mv = |m: &str| json!([{"name": "move", "type": 3, "value": m}]);
    let r = private_answer(&fake, ALICE, &thread, "move", mv("f1 d3"), "refused").await;
    assert_says(&r, "no black neighbour lends the queen on f1 a move to d3");
    let mut boards = vec![start.files[0].bytes.clone()];
    for (i, (m, told)) in [
        (
            "f1 d2",
            "moves the black queen f1-d2 with the move of the black knight on e1",
        ),
        (
            "Rc1-d1",
            "moves the black rook c1-d1 with the move of the black queen on d2",
        ),
        (
            "d2 g2 with d1",
            "moves the black queen d2-g2 with the move of the black rook on d1",
        ),
        (
            "Rd1-f2",
            "moves the black rook d1-f2 with the move of the black knight on e1",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let said = if i % 2 == 0 {
            slash_reply(&fake, ALICE, &thread, "move", mv(m)).await
        } else {
            fake.say(ALICE, &thread, &format!("!{m}"));
            wait_post(&fake, &thread, told).await
        };
        assert_says(&said, told);
        assert!(is_png(&said), "the board comes with {m}");
        assert!(!boards.contains(&said.files[0].bytes), "the board changed");
        boards.push(said.files[0].bytes.clone());
    }
    let end = wait_post(&fake, &thread, "game over").await;
    assert_says(&end, "game over: won by connecting the group, 24 points");

    // No card was shown before it was turned: the twelve piece cards and twelve
    // position cards never turned appear nowhere.
    let turned = ["Q♠", "9♥", "10♠", "8♠", "5♦", "2♥", "3♦", "3♥"];
    let deck = postal::variants::solitaire::piece_deck()
        .into_iter()
        .chain(postal::variants::solitaire::position_deck());
    let reqs = fake.requests();
    for card in deck.map(|c| c.to_string()) {
        if !turned.contains(&card.as_str()) {
            let leaks = public_leaks(&reqs, &HashMap::new(), &card);
            assert!(leaks.is_empty(), "{card} was shown: {:?}", leaks[0].json);
            assert!(
                !reqs.iter().any(|r| r.all_text().contains(&card)),
                "{card} was shown privately"
            );
        }
    }
    all_accepted(&fake);
    bot.stop().await;
}

/// A short Booster Chess game on Discord from a position: each player's hand arrives by
/// DM at the start and again on `/hand`, privately; White moves her boosted king with a
/// bare move in the thread, takes a booster step with `!boost`, is refused a card she
/// does not hold, and ends the turn with the Done button: the king's reach mates. The
/// stacks are on the public board, the hands never reach the thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_booster_game_keeps_the_hands_private_and_ends_in_a_booster_mate() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("booster"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    let variants = option_of(&cmds, "challenge", "variant")["choices"].to_string();
    assert!(variants.contains("\"Booster Chess\""), "{variants}");
    assert!(option_of(&cmds, "boost", "squares")["required"] == true);

    // White's king stands on two white checkers; Black's bare king is in the corner.
    let thread = start_game(&fake, r#"booster fen:"7k/8/8/8/4K3/8/8/8 w - - 0 1 e4:w2""#).await;
    let first = wait_post(&fake, &thread, "accepted").await;
    assert!(is_png(&first), "the board comes with the start");
    let alice_hand = wait_dm(&fake, ALICE, "your hand (6 cards)").await;
    wait_dm(&fake, BOB, "your hand (6 cards)").await;
    let r = private_answer(&fake, BOB, &thread, "hand", json!([]), "a hand is private").await;
    assert_says(&r, "your hand (6 cards)");

    // A move out of turn is refused privately; White's bare move waits for her steps.
    let r = private_answer(
        &fake,
        BOB,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "Kg8"}]),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "not your turn");
    fake.say(ALICE, &thread, "Kf5");
    let moved = wait_post(&fake, &thread, "plays Kf5").await;
    assert!(is_png(&moved));
    assert_says(&moved, "still to choose: boost SQUARE");
    fake.say(ALICE, &thread, "!boost f6");
    let stepped = wait_post(&fake, &thread, "boosts the king to f6").await;
    assert_says(&stepped, "1 white checker on f6: boosted");
    // A card she does not hold (no card of the deck is the 7 of hearts) is refused.
    fake.say(ALICE, &thread, "!card 7h on f6");
    wait_post(
        &fake,
        &thread,
        "card CARD on SQUARE or add SQUARE with CARD",
    )
    .await;
    let done = button(Some(ALICE), "done #1");
    assert!(button_ids(&moved.json).contains(&done), "{}", moved.json);
    let p = fake.press(ALICE, &bot_message(&fake, &thread), &done);
    fake.wait_callback(&p).await;
    let end = wait_post(&fake, &thread, "wins by checkmate (1-0)").await;
    assert!(is_png(&end), "the final board");
    fake.say(ALICE, &thread, "!moves");
    wait_post(&fake, &thread, "1. Kf5 boost f6#").await;

    // Nothing private reached the thread: not the hands, not the private answers.
    let reqs = fake.requests();
    let dms = fake.dm_channels();
    private_stays_private(&reqs, &dms, 3);
    let hand = alice_hand.content().unwrap().to_string();
    let cards: Vec<&str> = hand.split(": ").last().unwrap().split(", ").collect();
    assert_eq!(cards.len(), 6, "{hand}");
    for c in cards {
        assert!(public_leaks(&reqs, &dms, c).is_empty(), "{c} is public");
    }
    all_accepted(&fake);
    bot.stop().await;
}

/// Cloak and Dagger Chess on Discord: both players set up their back ranks by private
/// message (a set-up typed in the thread is refused privately and not repeated); the
/// public board shows numbered checkers and a player's private board their own pieces;
/// `/move` suggests the player's own moves in SAN; a right guess with its bonus move, an
/// uncloak and a capture are announced in the thread; no set-up reaches a public message;
/// after the resignation the full record, every identity included, is public.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cloak_and_dagger_game_is_set_up_by_dm_and_keeps_identities_secret() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("cloak"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    let roles = option_of(&cmds, "guess", "role")["choices"].to_string();
    assert!(
        roles.contains("knight") && roles.contains("king"),
        "{roles}"
    );
    assert_eq!(
        option_of(&cmds, "uncloak", "checker")["choices"]
            .as_array()
            .map(Vec::len),
        Some(8)
    );

    let thread = start_game(&fake, "cloak").await;
    wait_post(&fake, &thread, "to set up their back rank").await;
    let posted = posts(&fake.requests(), &thread).len();
    fake.say(BOB, &thread, "!setup NRKRBBQN");
    wait_dm(&fake, BOB, "`setup` is secret").await;
    dm(&fake, ALICE, "setup RNBQKBNR");
    wait_dm(&fake, ALICE, "your back rank: a1 rook (1), b1 knight (2)").await;
    dm(&fake, BOB, "setup NRKRBBQN");
    wait_dm(&fake, BOB, "your back rank: a8 knight (1), b8 rook (2)").await;
    let begun = wait_post(&fake, &thread, "play begins").await;
    assert!(is_png(&begun), "the board comes with the start");
    assert!(
        posts(&fake.requests(), &thread)[posted..]
            .iter()
            .all(|r| !r.content().unwrap_or("").contains("NRKRBBQN")),
        "the refused set-up is not repeated in the thread"
    );

    // The public board and alice's own differ: hers shows her pieces.
    let public = public_board(&fake, &thread, BOB).await;
    dm(&fake, ALICE, "board");
    let own = wait_dm(&fake, ALICE, "White to move (may guess first)").await;
    assert!(is_png(&own));
    assert_ne!(
        own.files[0].bytes, public,
        "a private board shows her pieces"
    );
    let typing = json!([{"name": "move", "type": 3, "value": "N", "focused": true}]);
    let a = fake.autocomplete(ALICE, &thread, "move", typing);
    let suggested = choice_names(&fake.wait_callback(&a).await);
    assert!(suggested.contains(&"Nc3".to_string()), "{suggested:?}");

    // A right guess, the move by a hidden checker and the bonus pawn move.
    fake.say(ALICE, &thread, "!guess knight 1");
    wait_post(&fake, &thread, "checker 1 is a knight: right").await;
    fake.say(ALICE, &thread, "Nc3");
    wait_post(&fake, &thread, "plays 2:b1-c3").await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "plays the bonus move e2-e4").await;
    // Bob uncloaks his queen at the end of his turn.
    fake.say(BOB, &thread, "!uncloak 7");
    wait_post(&fake, &thread, "will uncloak checker 7").await;
    fake.say(BOB, &thread, "d5");
    wait_post(&fake, &thread, "uncloaks 7 (the queen on g8)").await;
    // A capture announces the captured checker.
    fake.say(ALICE, &thread, "Nxd5");
    wait_post(&fake, &thread, "plays 2:c3xd5").await;
    fake.say(BOB, &thread, "d8d5");
    let taken = wait_post(&fake, &thread, "checker 2 was the knight").await;
    assert!(is_png(&taken));
    fake.say(ALICE, &thread, "!moves");
    wait_post(
        &fake,
        &thread,
        "1. {?1=N yes} Nb1-c3 +e2-e4 1... d7-d5 {uncloaks 7} 2. Nc3xd5 2... 4:d8xd5{2=N}",
    )
    .await;
    let reqs = fake.requests();
    for secret in ["NRKRBBQN", "a8 knight", "b8 rook", "Rd8"] {
        let leaks = public_leaks(&reqs, &fake.dm_channels(), secret);
        assert!(leaks.is_empty(), "{secret} in public: {leaks:?}");
    }

    // Over: the full record, with every identity.
    fake.say(BOB, &thread, "!resign");
    wait_post(&fake, &thread, "game over").await;
    fake.say(ALICE, &thread, "!pgn");
    wait_file(&fake, &thread, "Black: 1=N 2=R 3=K 4=R 5=B 6=B 7=Q 8=N").await;
    wait_file(&fake, &thread, "Rd8xd5{2=N}").await;
    all_accepted(&fake);
    bot.stop().await;
}

/// `/leaderboard` answers privately with the server's ratings from its finished rated
/// games, each player by mention (which Discord shows as their display name, without a
/// ping in a private answer), and `/rating` with one player's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaderboard_and_rating_by_slash_command() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("leaderboard"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "played e4").await;
    fake.say(BOB, &thread, "!resign");
    wait_post(&fake, &thread, "game over").await;
    let variant = json!([{"name": "variant", "type": 3, "value": "standard"}]);
    let r = private_answer(&fake, BOB, GAMES, "leaderboard", variant, "leaderboard").await;
    assert_says(&r, &format!("1. <@{}> 1662 ±290", ALICE.0));
    assert_says(&r, &format!("2. <@{}> 1338 ±290", BOB.0));
    let user = json!([{"name": "user", "type": 6, "value": ALICE.0}]);
    let r = private_answer(&fake, BOB, GAMES, "rating", user, "rating").await;
    assert_says(
        &r,
        "Standard chess: 1662 ±290, 1 game (1 won, 0 drawn, 0 lost)",
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// The users a recorded message may notify (its `allowed_mentions`), and that it lets
/// Discord parse nothing itself (no `@everyone`, roles or users found in the text).
fn notified(r: &Recorded) -> Vec<String> {
    let body = if r.json.get("data").is_some() {
        &r.json["data"]
    } else {
        &r.json
    };
    let am = &body["allowed_mentions"];
    assert!(
        am.is_object(),
        "every message says whom it notifies: {}",
        r.json
    );
    assert_eq!(am["parse"], json!([]), "nothing parsed from the text: {am}");
    assert_eq!(am["roles"], json!([]), "{am}");
    am["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap().to_string())
        .collect()
}

/// Chat in a game's thread gets no answer, from a player or an onlooker; a move, a move
/// out of turn and a command do. The move's message notifies the player to move and
/// nobody else; a public `!games` shows the opponent and notifies nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_in_a_thread_is_left_alone_and_only_the_player_called_on_is_notified() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("quiet"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    let start_msg = wait_post(&fake, &thread, "accepted").await;
    assert_eq!(
        notified(&start_msg),
        [ALICE.0],
        "White is called on to move"
    );

    for chat in [
        "gg",
        "wow",
        "nice one",
        "ok",
        "thanks",
        "GG WP",
        "lol",
        "e4 was better",
    ] {
        fake.say(ALICE, &thread, chat);
        fake.say(BOB, &thread, chat);
        fake.say(CAROL, &thread, chat);
    }
    // An onlooker's move-like text is chat too: the game is not theirs.
    fake.say(CAROL, &thread, "e4");
    // A move out of turn is answered (with the reason), and so is a command.
    fake.say(BOB, &thread, "e5");
    wait_post(&fake, &thread, "not your turn").await;
    fake.say(ALICE, &thread, "e4");
    let moved = wait_post(&fake, &thread, "played e4").await;
    assert_eq!(
        notified(&moved),
        [BOB.0],
        "only Black, to move, is notified"
    );
    fake.say(CAROL, &thread, "board 1");
    wait_post(&fake, &thread, "game #1: Black to move").await;
    let reqs = fake.requests();
    let in_thread: Vec<&str> = posts(&reqs, &thread)
        .iter()
        .filter_map(|r| r.content())
        .collect();
    assert_eq!(
        in_thread.len(),
        4,
        "start, not your turn, e4, board: {in_thread:#?}"
    );

    // A public list of games shows the opponent by mention, and notifies nobody.
    fake.say(ALICE, GAMES, "!games");
    let list = wait_post(&fake, GAMES, "#1 standard vs").await;
    assert!(list.content().unwrap().contains(&format!("<@{}>", BOB.0)));
    assert!(notified(&list).is_empty(), "{}", list.json);
    all_accepted(&fake);
    bot.stop().await;
}

/// The message that ends a game of two carries a Rematch button: Bob presses it, which
/// challenges Alice in the game's thread to the same game with colours swapped, and
/// Alice accepts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematch_button_challenges_with_colours_swapped() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("rematch"), config(&fake), 1).await;
    let thread = start_game(&fake, "days:4").await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "played e4").await;
    fake.say(BOB, &thread, "!resign");
    let end = wait_post(&fake, &thread, "game over").await;
    let rematch = button(None, "rematch #1");
    assert!(
        button_ids(&end.json).contains(&rematch),
        "the last message offers a rematch: {}",
        end.json
    );
    let press = fake.press(BOB, &bot_message(&fake, &thread), &rematch);
    fake.wait_callback(&press).await;
    let challenge = wait_post(&fake, &thread, "game #2:").await;
    let text = challenge.content().unwrap();
    assert!(
        text.contains(&format!(
            "challenges <@{}> to standard (4 days per move)",
            ALICE.0
        )) && text.contains("plays White"),
        "{text}"
    );
    fake.say(ALICE, &thread, "!accept 2");
    wait_post(&fake, &thread, &format!("game #2: <@{}> accepted", ALICE.0)).await;
    all_accepted(&fake);
    bot.stop().await;
}

/// Reads a PGN as a reader does: its tag pairs, and its movetext replayed with
/// `shakmaty` from the standard position; returns the tags and the final position.
fn read_pgn(pgn: &str) -> (HashMap<String, String>, shakmaty::Chess) {
    use shakmaty::{san::San, Position};
    let mut tags = HashMap::new();
    let mut pos = shakmaty::Chess::default();
    for line in pgn.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, value) = tag.split_once(' ').expect("a tag pair");
            let value = value
                .trim()
                .strip_prefix('"')
                .unwrap()
                .strip_suffix('"')
                .unwrap();
            tags.insert(name.to_string(), value.to_string());
            continue;
        }
        for token in line.split_whitespace() {
            if token.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                continue;
            }
            let token = token.rsplit('.').next().unwrap();
            let san: San = token.parse().unwrap_or_else(|_| panic!("SAN {token}"));
            let m = san
                .to_move(&pos)
                .unwrap_or_else(|_| panic!("legal {token}"));
            pos = pos.play(&m).unwrap();
        }
    }
    (tags, pos)
}

/// The end of a game posts its record as a `.pgn` file and its animation as a GIF in
/// its thread; `/pgn` answers with the record as a `.pgn` file, which a reader parses,
/// with the players by display name and their ids in tags of their own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_a_game_and_pgn_attach_the_record_and_the_animation() {
    use shakmaty::Position;
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("records"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    for (who, mv) in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4"), (BOB, "Qh4#")] {
        fake.say(who, &thread, mv);
        wait_post(
            &fake,
            &thread,
            &format!("played {}", mv.trim_end_matches('#')),
        )
        .await;
    }
    let end = wait_post(&fake, &thread, "checkmate").await;
    let names: Vec<&str> = end.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["board.png", "game-1.pgn", "game-1.gif"],
        "{names:?}"
    );
    assert!(end.files[2].bytes.starts_with(b"GIF89a"));
    let (tags, pos) = read_pgn(&String::from_utf8(end.files[1].bytes.clone()).unwrap());
    assert!(pos.is_checkmate());
    assert_eq!(tags["Result"], "0-1");

    let id = fake.slash(ALICE, &thread, "pgn", json!([]));
    let r = fake.wait_callback(&id).await;
    assert_eq!(r.files.len(), 1, "{}", r.json);
    assert_eq!(r.files[0].name, "game-1.pgn");
    assert_eq!(r.content(), Some(""), "the record is the file, not text");
    let (tags, pos) = read_pgn(&String::from_utf8(r.files[0].bytes.clone()).unwrap());
    assert!(pos.is_checkmate());
    assert_eq!(tags["White"], "alice");
    assert_eq!(tags["Black"], "bob");
    assert_eq!(tags["WhiteUserId"], ALICE.0);
    assert_eq!(tags["BlackUserId"], BOB.0);
    all_accepted(&fake);
    bot.stop().await;
}

/// A bot that Discord refuses the Message Content intent (close 4014) starts again
/// without it and plays by slash commands; one set to slash-only never asks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_refused_message_content_runs_slash_only() {
    let fake = Fake::start(TOKEN).await;
    fake.refuse_message_content();
    let bot = start(&fake, &db("slash-only"), config(&fake), 1).await;
    let asked: Vec<u64> = fake
        .frames()
        .into_iter()
        .filter(|f| f["op"] == 2)
        .map(|f| f["d"]["intents"].as_u64().unwrap())
        .collect();
    assert_eq!(asked.len(), 2, "asked, refused, then without: {asked:?}");
    assert_ne!(asked[0] & (1 << 15), 0);
    assert_eq!(asked[1] & (1 << 15), 0);
    let c = fake.slash(ALICE, GAMES, "games", json!([]));
    assert_says(&fake.wait_callback(&c).await, "you have no games");
    bot.stop().await;

    let fake = Fake::start(TOKEN).await;
    let cfg = Config {
        message_content: false,
        ..config(&fake)
    };
    let bot = start(&fake, &db("slash-only-set"), cfg, 1).await;
    let identify = fake.frames().into_iter().find(|f| f["op"] == 2).unwrap();
    assert_eq!(identify["d"]["intents"].as_u64().unwrap() & (1 << 15), 0);
    bot.stop().await;
}
