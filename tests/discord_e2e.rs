//! End-to-end tests of the Discord adapter: the real `postal run` code (serenity client,
//! gateway, REST calls) against a fake Discord on 127.0.0.1, one fake and one database per
//! test, in parallel.

mod fake_discord;

use fake_discord::{public_leaks, Fake, Recorded, ATTACHMENT_LIMIT, CONTENT_LIMIT};
use postal::discord::{Bot, Config};
use postal::service::settings::Settings;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;

const TOKEN: &str = "test-token.not-a-real-one";
const ALICE: (&str, &str) = ("300000000000000001", "alice");
const BOB: (&str, &str) = ("300000000000000002", "bob");
const GAMES: &str = "400000000000000001";

/// A database file of its own for a test, removed first.
fn db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("postal-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(format!("{name}.db"));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
    path.display().to_string()
}

fn config(fake: &Fake) -> Config {
    Config {
        api_base: fake.base(),
        tick_seconds: 3600,
        ..Config::default()
    }
}

fn settings(db: &str) -> Settings {
    Settings {
        database_url: db.to_string(),
        ..Settings::default()
    }
}

/// Starts the bot against the fake and waits until it has identified and registered its
/// commands (the `n`th time).
async fn start(fake: &Fake, db: &str, cfg: Config, n: usize) -> Bot {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            std::env::var("RUST_LOG").unwrap_or_else(|_| "postal=info,serenity=warn".into()),
        )
        .with_test_writer()
        .try_init();
    let bot = Bot::start(settings(db), cfg, TOKEN)
        .await
        .expect("bot starts");
    fake.wait_identified(n).await;
    fake.wait_for("command registration", |r| {
        r.iter()
            .filter(|x| x.method == "PUT" && x.path.ends_with("/commands") && x.ok())
            .count()
            >= n
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

fn has_post(reqs: &[Recorded], channel: &str, needle: &str) -> bool {
    posts(reqs, channel)
        .iter()
        .any(|r| r.content().is_some_and(|c| c.contains(needle)))
}

fn is_png(r: &Recorded) -> bool {
    r.files
        .iter()
        .any(|f| f.name.ends_with(".png") && f.bytes.starts_with(b"\x89PNG\r\n\x1a\n"))
}

/// Waits for a POST to `channel` whose content contains `needle`; returns its response.
async fn wait_post(fake: &Fake, channel: &str, needle: &str) -> Recorded {
    let reqs = fake
        .wait_for(&format!("a message with '{needle}' in {channel}"), |r| {
            has_post(r, channel, needle)
        })
        .await;
    posts(&reqs, channel)
        .into_iter()
        .find(|r| r.content().is_some_and(|c| c.contains(needle)))
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

/// A text challenge accepted by text; the game gets a thread, moves are typed bare in it,
/// every turn's message carries the board as a PNG, and the game ends in checkmate.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_challenge_thread_and_checkmate() {
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

    fake.say(
        ALICE,
        GAMES,
        &format!("!challenge <@{}> colour:white", BOB.0),
    );
    let challenge = wait_post(&fake, GAMES, "challenges").await;
    let text = challenge.content().unwrap();
    assert!(text.contains(&format!("<@{}>", ALICE.0)), "{text}");
    assert!(text.contains(&format!("<@{}>", BOB.0)), "{text}");
    // Accept and decline buttons under the challenge.
    let ids: Vec<&str> = challenge.json["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["custom_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["accept:1", "decline:1"]);

    fake.say(BOB, GAMES, "!accept");
    let thread = the_thread(&fake).await;
    let created = fake
        .requests()
        .into_iter()
        .find(|r| r.path == format!("/channels/{GAMES}/threads"))
        .unwrap();
    assert_eq!(created.json["type"], 11, "a public thread");
    assert!(created.json["name"]
        .as_str()
        .unwrap()
        .starts_with("game #1"));
    wait_post(&fake, GAMES, &format!("<#{thread}>")).await;
    let start = wait_post(&fake, &thread, "accepted").await;
    assert!(is_png(&start));

    // Chat in the thread is not a move; moves are.
    fake.say(ALICE, &thread, "good luck, have fun");
    for (who, mv) in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4"), (BOB, "Qh4#")] {
        fake.say(who, &thread, mv);
        let m = wait_post(
            &fake,
            &thread,
            &format!("played {}", mv.trim_end_matches('#')),
        )
        .await;
        assert!(is_png(&m), "the board comes with {mv}");
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
    let names: Vec<&str> = put
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
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
    let buttons = &resp.json["data"]["components"][0]["components"];
    assert_eq!(buttons[0]["custom_id"], "accept:1");

    // Alice cannot accept her own challenge: an ephemeral refusal.
    let msg = fake_discord::message(
        &fake.id(),
        GAMES,
        (fake_discord::BOT_ID, "postal"),
        "challenge",
        true,
    );
    let wrong = fake.press(ALICE, &msg, "accept:1");
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

    let press = fake.press(BOB, &msg, "accept:1");
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
    assert_eq!(
        proposal.json["data"]["components"][0]["components"][0]["custom_id"],
        "ff-accept:1"
    );
    let msg = fake_discord::message(
        &fake.id(),
        &thread,
        (fake_discord::BOT_ID, "postal"),
        "proposal",
        true,
    );
    fake.press(ALICE, &msg, "ff-accept:1");
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content().unwrap().contains("fast-fifty"),
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

/// A user whose DMs are closed (50007) still plays: the bot says so in the thread without
/// the content, keeps the message for `/private`, and does not retry until they interact.
/// No private text reaches a public place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_dms_fall_back_to_private_command() {
    let fake = Fake::start(TOKEN).await;
    fake.close_dms(ALICE.0);
    let cfg = Config {
        tick_seconds: 1,
        ..config(&fake)
    };
    let bot = start(&fake, &db("dms"), cfg, 1).await;
    // One day per move: the 24-hour reminder is due at once.
    fake.say(
        ALICE,
        GAMES,
        &format!("!challenge <@{}> colour:white days:1", BOB.0),
    );
    wait_post(&fake, GAMES, "challenges").await;
    fake.say(BOB, GAMES, "!accept");
    let thread = the_thread(&fake).await;
    wait_post(&fake, &thread, "accepted").await;
    let note = wait_post(&fake, &thread, "could not send you a private message").await;
    assert!(note.content().unwrap().contains(&format!("<@{}>", ALICE.0)));
    let reqs = fake.requests();
    let refused: Vec<&Recorded> = reqs.iter().filter(|r| r.status == 403).collect();
    assert_eq!(refused.len(), 1, "one try, then no retry");
    let secret = refused[0].content().unwrap().to_string();
    assert!(secret.contains("reminder"), "{secret}");
    // A deadline message comes from the outbox, with a nonce Discord enforces.
    let nonce = refused[0].json["nonce"].as_str().unwrap_or_default();
    assert!(nonce.starts_with("postal-"), "{:?}", refused[0].json);
    assert_eq!(refused[0].json["enforce_nonce"], true);

    // Alice still plays, and fetches the message privately.
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "played e4").await;
    let p = fake.slash(ALICE, &thread, "private", json!([]));
    let reqs = fake
        .wait_for("/private", |r| {
            r.iter()
                .any(|x| x.path.starts_with(&format!("/interactions/{p}/")))
        })
        .await;
    let private = reqs
        .iter()
        .find(|x| x.path.starts_with(&format!("/interactions/{p}/")))
        .unwrap();
    assert_ne!(private.flags() & 64, 0, "ephemeral");
    assert_eq!(private.content().unwrap(), secret);

    let leaks = public_leaks(&fake.requests(), &fake.dm_channels(), &secret);
    assert!(leaks.is_empty(), "private text in public: {leaks:?}");
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
