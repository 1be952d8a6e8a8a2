//! What the end-to-end tests of the adapter share: the test users and channel, a scratch
//! database per test, and reading the requests the bot made to the fake.

use super::{Fake, Recorded};
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

/// Whether the bot posted to `channel` a message containing `needle`.
pub fn has_post(reqs: &[Recorded], channel: &str, needle: &str) -> bool {
    posts(reqs, channel)
        .iter()
        .any(|r| r.content().is_some_and(|c| c.contains(needle)))
}

/// Whether a request carried a PNG image.
pub fn is_png(r: &Recorded) -> bool {
    r.files
        .iter()
        .any(|f| f.name.ends_with(".png") && f.bytes.starts_with(b"\x89PNG\r\n\x1a\n"))
}

/// Waits for a POST to `channel` whose content contains `needle`; returns it.
pub async fn wait_post(fake: &Fake, channel: &str, needle: &str) -> Recorded {
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

/// Waits for a private message to `user` containing `needle`; returns it.
pub async fn wait_dm(fake: &Fake, user: (&str, &str), needle: &str) -> Recorded {
    let find = |reqs: &[Recorded]| {
        let c = dm_channel_of(reqs, user.0)?;
        posts(reqs, &c)
            .into_iter()
            .find(|r| r.content().is_some_and(|t| t.contains(needle)))
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
