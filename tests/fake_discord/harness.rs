//! What the end-to-end tests of the adapter share: the test users and channel, a scratch
//! database per test, starting the bot against the fake, starting a game, clicking and
//! slash commands, reading the requests the bot made to the fake, and the checks that
//! private text stays private.

use super::{public_leaks, Fake, Recorded, ATTACHMENT_LIMIT, CONTENT_LIMIT};
use postal::discord::{Bot, Config};
use postal::service::settings::Settings;
use postal::variants::Registry;
use serde_json::Value;
use std::path::PathBuf;

/// The bot token every test starts the bot with.
pub const TOKEN: &str = "test-token.not-a-real-one";
/// The players, as (user id, username).
pub const ALICE: (&str, &str) = ("300000000000000001", "alice");
/// See [`ALICE`].
pub const BOB: (&str, &str) = ("300000000000000002", "bob");
/// See [`ALICE`].
pub const CAROL: (&str, &str) = ("300000000000000003", "carol");
/// See [`ALICE`].
pub const DAVE: (&str, &str) = ("300000000000000004", "dave");
/// The server channel where challenges are made.
pub const GAMES: &str = "400000000000000001";

/// A database file of its own for a test (`name`, unique in its test binary), removed
/// first.
pub fn db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("postal-discord-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(format!("{name}.db"));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
    path.display().to_string()
}

/// The messages the bot posted to `channel` and Discord accepted.
pub fn posts<'a>(reqs: &'a [Recorded], channel: &str) -> Vec<&'a Recorded> {
    let path = format!("/channels/{channel}/messages");
    reqs.iter()
        .filter(|r| r.method == "POST" && r.path == path && r.ok())
        .collect()
}

/// Whether the bot posted to `channel` a message showing `needle` (in its content or
/// its embeds).
pub fn has_post(reqs: &[Recorded], channel: &str, needle: &str) -> bool {
    posts(reqs, channel)
        .iter()
        .any(|r| r.shown().contains(needle))
}

/// Whether a request carried a PNG image.
pub fn is_png(r: &Recorded) -> bool {
    r.files
        .iter()
        .any(|f| f.name.ends_with(".png") && f.bytes.starts_with(b"\x89PNG\r\n\x1a\n"))
}

/// Waits for a POST to `channel` that shows `needle` (in its content or its embeds);
/// returns it.
pub async fn wait_post(fake: &Fake, channel: &str, needle: &str) -> Recorded {
    let reqs = fake
        .wait_for(&format!("a message with '{needle}' in {channel}"), |r| {
            has_post(r, channel, needle)
        })
        .await;
    posts(&reqs, channel)
        .into_iter()
        .find(|r| r.shown().contains(needle))
        .cloned()
        .unwrap()
}

/// `user` writes `text` to the bot in a private message (returns when it is dispatched).
pub fn dm(fake: &Fake, user: (&str, &str), text: &str) {
    // The channel a user writes in; the bot answers in the DM channel it opens itself.
    let channel = format!("7{}", &user.0[1..]);
    let m = super::message(&fake.id(), &channel, user, text, false);
    fake.dispatch("MESSAGE_CREATE", m);
}

/// The DM channel the bot opened with `user`, from the recorded requests.
pub fn dm_channel_of(reqs: &[Recorded], user: &str) -> Option<String> {
    reqs.iter()
        .find(|r| {
            r.ok()
                && r.path == "/users/@me/channels"
                && r.json["recipient_id"].to_string().contains(user)
        })
        .and_then(|r| r.response["id"].as_str().map(str::to_string))
}

/// Waits for a private message to `user` showing `needle`; returns it.
pub async fn wait_dm(fake: &Fake, user: (&str, &str), needle: &str) -> Recorded {
    let find = |reqs: &[Recorded]| {
        let c = dm_channel_of(reqs, user.0)?;
        posts(reqs, &c)
            .into_iter()
            .find(|r| r.shown().contains(needle))
            .cloned()
    };
    let reqs = fake
        .wait_for(&format!("a DM to {} with '{needle}'", user.1), |r| {
            find(r).is_some()
        })
        .await;
    find(&reqs).unwrap()
}

/// The custom ids of the buttons of a message body (a channel message, or an interaction
/// response's `data`).
pub fn button_ids(body: &Value) -> Vec<String> {
    body["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .collect()
}

/// The bot's configuration against `fake`: its API, and no deadline check during a test.
pub fn config(fake: &Fake) -> Config {
    Config {
        api_base: fake.base(),
        tick_seconds: 3600,
        ..Config::default()
    }
}

/// The seed of the bot's draws in every test: that of the console transcripts, so game
/// #1 of a test deals the letters and cards of game #1 of `tests/transcripts`.
pub const SEED: u64 = 1;

/// The service's settings on the database `db`, with the tests' [`SEED`].
pub fn settings(db: &str) -> Settings {
    Settings {
        database_url: db.to_string(),
        seed: Some(SEED),
        ..Settings::default()
    }
}

/// Logs to the test's output (`RUST_LOG`, by default postal's at info), once per process.
pub fn logs() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            std::env::var("RUST_LOG").unwrap_or_else(|_| "postal=info,serenity=warn".into()),
        )
        .with_test_writer()
        .try_init();
}

/// Starts the bot against the fake and waits until it has identified and registered its
/// commands (the `n`th time).
pub async fn start(fake: &Fake, db: &str, cfg: Config, n: usize) -> Bot {
    logs();
    let bot = Bot::start(settings(db), cfg, TOKEN)
        .await
        .expect("bot starts");
    ready(fake, n).await;
    bot
}

/// [`start`] with the variants of `registry` (a test's own variant added).
pub async fn start_playing(fake: &Fake, db: &str, cfg: Config, registry: Registry) -> Bot {
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
pub async fn ready(fake: &Fake, n: usize) {
    fake.wait_identified(n).await;
    let global = format!("/applications/{}/commands", super::BOT_ID);
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
pub async fn wait_file(fake: &Fake, channel: &str, needle: &str) -> Recorded {
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
pub async fn the_thread(fake: &Fake) -> String {
    fake.wait_for("a thread", |r| {
        r.iter().any(|x| x.path.ends_with("/threads") && x.ok())
    })
    .await;
    let threads = fake.threads();
    assert_eq!(threads.len(), 1, "{threads:?}");
    threads.keys().next().unwrap().clone()
}

/// The thread the fake opened for game `id` (named `game #ID ...`), waiting up to 10
/// seconds for it.
pub async fn thread_of_game(fake: &Fake, id: i64) -> String {
    let prefix = format!("game #{id} ");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let found = fake
            .threads()
            .into_iter()
            .find(|(_, (_, name))| name.starts_with(&prefix))
            .map(|(thread, _)| thread);
        match found {
            Some(thread) => return thread,
            None if std::time::Instant::now() > deadline => {
                panic!("no thread for game #{id}: {:?}", fake.threads())
            }
            None => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
        }
    }
}

/// Alice challenges Bob by text (with `extra` options) and Bob accepts; returns the
/// game's thread once the game's first message is there.
pub async fn start_game(fake: &Fake, extra: &str) -> String {
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

/// Plays 1. e4 e5 in `thread`, `white` then `black`, each move awaited: from then on a
/// resignation is a result, not the abort of a game neither side has moved in.
pub async fn both_move(fake: &Fake, thread: &str, white: (&str, &str), black: (&str, &str)) {
    for (who, mv) in [(white, "e4"), (black, "e5")] {
        fake.say(who, thread, mv);
        wait_post(fake, thread, &format!("played {mv}")).await;
    }
}

/// The custom id of the referee's button that sends `command` for `user` (`None`: for
/// anyone).
pub fn button(user: Option<(&str, &str)>, command: &str) -> String {
    format!("cmd:{}:{command}", user.map_or("-", |u| u.0))
}

/// Runs slash command `name` as `user` in `channel` and returns the answer, which must be
/// ephemeral (only the user sees it); `what` says why, for the failure message.
pub async fn private_answer(
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

/// Asserts that the interaction answer `r` shows `needle` (in its content or embeds).
pub fn assert_says(r: &Recorded, needle: &str) {
    assert!(r.shown().contains(needle), "{}", r.json);
}

/// A message by the bot in `channel`, as the message whose buttons a user clicks.
pub fn bot_message(fake: &Fake, channel: &str) -> Value {
    super::message(
        &fake.id(),
        channel,
        (super::BOT_ID, "postal"),
        "buttons",
        true,
    )
}

/// Every limit the fake enforces held for every request: no request was refused.
pub fn all_accepted(fake: &Fake) {
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

/// The names of the choices of an autocompletion response.
pub fn choice_names(r: &Recorded) -> Vec<String> {
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

/// The public requests (not to a DM channel, not ephemeral) made in `[from, to)`.
pub fn public_between(
    reqs: &[Recorded],
    dms: &std::collections::HashMap<String, String>,
    from: std::time::Instant,
    to: std::time::Instant,
) -> Vec<Recorded> {
    reqs.iter()
        .filter(|r| r.ok() && r.at >= from && r.at < to && !super::is_private(r, dms))
        .cloned()
        .collect()
}

/// The PNG board of the public `!board` answer in `thread` that follows `after` requests.
pub async fn public_board(fake: &Fake, thread: &str, who: (&str, &str)) -> Vec<u8> {
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
pub fn private_stays_private(
    reqs: &[Recorded],
    dms: &std::collections::HashMap<String, String>,
    at_least: usize,
) {
    let private: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| r.ok() && r.method == "POST" && super::is_private(r, dms))
        .filter(|r| r.content().is_some() || !r.files.is_empty())
        .collect();
    assert!(
        private.len() >= at_least,
        "the game's private messages: {}",
        private.len()
    );
    let public_files: Vec<(std::time::Instant, &[u8])> = reqs
        .iter()
        .filter(|r| r.ok() && !super::is_private(r, dms))
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

/// The commands the bot registered (its first bulk registration), each subcommand as a
/// command of its own ([`super::leaf_commands`]).
pub fn registered_commands(fake: &Fake) -> Vec<Value> {
    let registered = fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT" && r.path.ends_with("/commands") && r.ok())
        .expect("a registration");
    super::leaf_commands(registered.json.as_array().unwrap())
}

/// The option `option` of the registered command `command`.
pub fn option_of<'a>(cmds: &'a [Value], command: &str, option: &str) -> &'a Value {
    let c = cmds
        .iter()
        .find(|c| c["name"] == command)
        .unwrap_or_else(|| panic!("/{command} is registered"));
    c["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == option))
        .unwrap_or_else(|| panic!("/{command} has the option {option}"))
}

/// The variants `/chess challenge` suggests to Alice as she types `typed` in its
/// `variant` option: the autocompletion's choices as JSON (`[{"name":"Chess960",
/// "value":"chess960"}]`), every variant for an empty `typed` (the registry has fewer
/// than Discord's 25).
pub async fn variants_suggested(fake: &Fake, typed: &str) -> String {
    let typing =
        serde_json::json!([{"name": "variant", "type": 3, "value": typed, "focused": true}]);
    let a = fake.autocomplete(ALICE, GAMES, "challenge", typing);
    let r = fake.wait_callback(&a).await;
    assert_eq!(r.json["type"], 8, "an autocompletion result: {}", r.json);
    r.json["data"]["choices"].to_string()
}

/// A slash command by `who` in `channel`; returns the interaction's response.
pub async fn slash_reply(
    fake: &Fake,
    who: (&str, &str),
    channel: &str,
    name: &str,
    options: Value,
) -> Recorded {
    let i = fake.slash(who, channel, name, options);
    fake.wait_callback(&i).await
}

/// Asserts that interaction callback `r` updates the pressed message with its buttons
/// disabled (so the same question cannot be answered twice).
pub fn assert_buttons_disabled(r: &Recorded) {
    assert_eq!(r.json["type"], 7, "{}", r.json);
    assert!(
        r.json["data"]["components"]
            .to_string()
            .contains("\"disabled\":true"),
        "{}",
        r.json
    );
}
