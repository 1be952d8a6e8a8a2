//! End-to-end tests of the Discord adapter: the real `postal run` code (serenity client,
//! gateway, REST calls) against a fake Discord on 127.0.0.1, one fake and one database per
//! test, in parallel. This file: a game from challenge to checkmate, a restart, slow work
//! deferred, missing permissions, the token and the process's signals, rate limits, and
//! the registration of the commands. The other `tests/discord_*.rs` files test the rest,
//! with the helpers of `tests/fake_discord/harness.rs`.

use crate::fake_discord;
use crate::toy;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded};
use postal::discord::{Bot, Config};
use postal::variants::Registry;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

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

/// Work that takes longer than the acknowledgement window (the database is locked by
/// someone else until the answer is deferred) is deferred within 3 s and answered by a
/// followup.
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

    // Someone else holds the write lock until the bot has deferred its answer.
    let (locked_tx, locked_rx) = tokio::sync::oneshot::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let locker = std::thread::spawn(move || {
        let conn = rusqlite_free_lock(&path);
        let _ = locked_tx.send(());
        let _ = release_rx.recv_timeout(Duration::from_secs(30));
        drop(conn);
    });
    locked_rx.await.unwrap();
    let i = fake.slash(
        ALICE,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "e4"}]),
    );
    let callback_path = format!("/interactions/{i}/");
    fake.wait_for("the deferral", |r| {
        r.iter().any(|x| x.path.starts_with(&callback_path))
    })
    .await;
    release_tx.send(()).unwrap();
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
    let e = result.expect_err("an error").to_string();
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
    assert!(g.snapshot.contains("\"plies\":3"), "{}", g.snapshot);
    let log = store.actions(1).await.unwrap();
    assert!(log.iter().any(|a| a.action.contains("g1f3")), "{log:?}");
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
    assert_says(
        &fake.wait_callback(&c).await,
        "You have no live games here.",
    );
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
