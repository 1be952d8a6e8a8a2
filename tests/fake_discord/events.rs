//! What the fake delivers to the bot on the gateway: dispatch events, typed messages,
//! slash commands, autocompletion requests and button presses, and the message and
//! interaction objects they carry.

use super::{Fake, Interaction, ToConnection, ATTACHMENT_LIMIT, BOT_ID, GUILD_ID};
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::time::Instant;

impl Fake {
    /// Sends a dispatch event to every gateway session of its shard (that of its
    /// `guild_id`, or shard 0 when it has none): now to a connected one; to one that is
    /// disconnected but may resume, when it resumes. With no such session Discord sends it
    /// to nobody ([`GatewayCounts::lost`](super::GatewayCounts::lost) counts it).
    pub fn dispatch(&self, t: &str, d: Value) {
        let guild = d["guild_id"].as_str().and_then(|g| g.parse::<u64>().ok());
        let s = self.shared.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let frame = json!({"op": 0, "t": t, "s": s, "d": d}).to_string();
        let mut inner = self.shared.inner.lock().unwrap();
        if super::transcript::folder().is_some() {
            inner.sent.push(super::transcript::Sent {
                at: Instant::now(),
                kind: t.to_string(),
                data: d.clone(),
            });
        }
        for u in [&d["author"], &d["user"], &d["member"]["user"]] {
            if let (Some(id), Some(name)) = (u["id"].as_str(), u["username"].as_str()) {
                inner.users.insert(id.to_string(), name.to_string());
            }
        }
        // A channel an event of a server happened in is a channel of that server.
        if let (Some(g), Some(c)) = (d["guild_id"].as_str(), d["channel_id"].as_str()) {
            if !inner.threads.contains_key(c) {
                inner.channels.insert(c.to_string(), g.to_string());
            }
        }
        if t == "INTERACTION_CREATE" {
            let id = d["id"].as_str().unwrap_or_default().to_string();
            let token = d["token"].as_str().unwrap_or_default().to_string();
            let channel = d["channel_id"].as_str().unwrap_or_default().to_string();
            inner.interactions.insert(
                id,
                Interaction {
                    token,
                    channel,
                    dispatched: Instant::now(),
                    acked: false,
                    ephemeral: false,
                    response: None,
                },
            );
        }
        if t == "MESSAGE_CREATE" {
            if let (Some(id), Some(c)) = (d["id"].as_str(), d["channel_id"].as_str()) {
                inner.messages.insert(id.to_string(), c.to_string());
            }
        }
        // Every session of its shard gets it: a connected one now, a disconnected one
        // that may still resume when it resumes (Discord keeps it for the RESUME).
        let mut delivered = false;
        for session in inner.sessions.iter_mut().filter(|x| x.receives(guild)) {
            if session.tx.is_none() && !session.resumable {
                continue;
            }
            session.log.push((s, frame.clone()));
            delivered = true;
            if let Some(tx) = &session.tx {
                if tx.send(ToConnection::Frame(frame.clone())).is_err() {
                    session.tx = None;
                }
            }
        }
        if !delivered {
            inner.gateway.lost += 1;
        }
        drop(inner);
        self.shared.changed.notify_waiters();
    }

    /// Makes `user` a member of the server with these permissions (bits, e.g.
    /// [`super::MEMBER_PERMISSIONS`]` | `[`super::MANAGE_GUILD`]) and roles: what
    /// Discord puts in the `member` of their interactions (`permissions`, `roles`) and
    /// of their messages (`roles`).
    pub fn set_member(&self, user: &str, permissions: u64, roles: &[&str]) {
        let mut inner = self.shared.inner.lock().unwrap();
        inner.members.insert(
            user.to_string(),
            (permissions, roles.iter().map(|r| r.to_string()).collect()),
        );
    }

    /// `d`'s `member` (an interaction's, or a message's when `message`) given the user's
    /// permissions and roles as the server has them.
    fn dress_member(&self, d: &mut Value, user: &str, message: bool) {
        let inner = self.shared.inner.lock().unwrap();
        let (permissions, roles) = inner
            .members
            .get(user)
            .cloned()
            .unwrap_or((super::MEMBER_PERMISSIONS, Vec::new()));
        drop(inner);
        if message {
            if !roles.is_empty() {
                d["member"] = json!({"roles": roles, "deaf": false, "mute": false, "flags": 0,
                    "joined_at": "2026-01-01T00:00:00.000000+00:00"});
            }
        } else if d.get("member").is_some() {
            d["member"]["permissions"] = json!(permissions.to_string());
            d["member"]["roles"] = json!(roles);
        }
    }

    /// Delivers a message typed by `author` in `channel` of the guild [`GUILD_ID`];
    /// returns the message id.
    pub fn say(&self, author: (&str, &str), channel: &str, content: &str) -> String {
        self.say_in(GUILD_ID, author, channel, content)
    }

    /// Delivers a message typed by `author` in `channel` of the guild `guild`; returns
    /// the message id.
    pub fn say_in(
        &self,
        guild: &str,
        author: (&str, &str),
        channel: &str,
        content: &str,
    ) -> String {
        let id = self.id();
        let mut m = message(&id, channel, author, content, true);
        m["guild_id"] = json!(guild);
        self.dress_member(&mut m, author.0, true);
        self.dispatch("MESSAGE_CREATE", m);
        id
    }

    /// Delivers a slash command; returns its interaction id.
    pub fn slash(&self, user: (&str, &str), channel: &str, name: &str, options: Value) -> String {
        self.command_interaction(2, user, channel, name, options)
    }

    /// Delivers an autocompletion request: `user` is typing the option marked
    /// `"focused": true` among `options` of the slash command `name`; returns the
    /// interaction id.
    pub fn autocomplete(
        &self,
        user: (&str, &str),
        channel: &str,
        name: &str,
        options: Value,
    ) -> String {
        self.command_interaction(4, user, channel, name, options)
    }

    /// An interaction of `kind` (2 command, 4 autocompletion) about the slash command
    /// `name`; returns its id.
    fn command_interaction(
        &self,
        kind: u8,
        user: (&str, &str),
        channel: &str,
        name: &str,
        options: Value,
    ) -> String {
        let id = self.id();
        let (top, options) = self.nest(name, options);
        let data = json!({"id": self.id(), "name": top, "type": 1, "options": options});
        let mut d = interaction_envelope(&id, kind, data, channel, user, None);
        self.dress_member(&mut d, user.0, false);
        self.dispatch("INTERACTION_CREATE", d);
        id
    }

    /// The interaction data Discord sends for the command a user picked as `name`: a
    /// path of two words (`tournament create`) as the subcommand of that top-level
    /// command, with `options` inside it; a registered top-level command of that name as
    /// it is, else the first registered command holding a subcommand `name`, with
    /// `options` inside that subcommand. A name no scope has registered (yet) is sent as it is.
    fn nest(&self, name: &str, options: Value) -> (String, Value) {
        if let Some((top, sub)) = name.split_once(' ') {
            return (
                top.to_string(),
                json!([{"name": sub, "type": 1, "options": options}]),
            );
        }
        let inner = self.shared.inner.lock().unwrap();
        let registered = inner.commands.values().flatten();
        let mut holder = None;
        for c in registered {
            if c["name"] == name {
                return (name.to_string(), options);
            }
            let subs = c["options"].as_array().map_or(&[][..], Vec::as_slice);
            // A subcommand name several commands hold (`pgn` under `/chess` and
            // `/tournament`) is the first registered's; a path names another.
            if holder.is_none() && subs.iter().any(|o| o["type"] == 1 && o["name"] == name) {
                holder = c["name"].as_str().map(str::to_string);
            }
        }
        match holder {
            Some(top) => (top, json!([{"name": name, "type": 1, "options": options}])),
            None => (name.to_string(), options),
        }
    }

    /// Presses a button with `custom_id` on the bot message `msg` (a recorded response
    /// body); returns the interaction id.
    pub fn press(&self, user: (&str, &str), msg: &Value, custom_id: &str) -> String {
        let id = self.id();
        let channel = msg["channel_id"].as_str().unwrap_or_default().to_string();
        let mut d = interaction_envelope(
            &id,
            3,
            json!({"custom_id": custom_id, "component_type": 2}),
            &channel,
            user,
            Some(msg.clone()),
        );
        self.dress_member(&mut d, user.0, false);
        self.dispatch("INTERACTION_CREATE", d);
        id
    }

    /// `user` presses the button `custom_id` under the bot's message `msg` in a private
    /// message: the interaction has no server, and its user is `user` (no member).
    pub fn press_in_dm(&self, user: (&str, &str), msg: &Value, custom_id: &str) -> String {
        let id = self.id();
        let channel = msg["channel_id"].as_str().unwrap_or_default().to_string();
        let mut d = interaction_envelope(
            &id,
            3,
            json!({"custom_id": custom_id, "component_type": 2}),
            &channel,
            user,
            Some(msg.clone()),
        );
        if let Some(o) = d.as_object_mut() {
            o.remove("guild_id");
            o.remove("member");
        }
        d["user"] = json!({"id": user.0, "username": user.1, "discriminator": "0"});
        self.dispatch("INTERACTION_CREATE", d);
        id
    }
}

/// A message object as the gateway sends it.
pub fn message(id: &str, channel: &str, author: (&str, &str), content: &str, guild: bool) -> Value {
    let mut m = json!({
        "id": id, "channel_id": channel,
        "author": {"id": author.0, "username": author.1, "discriminator": "0"},
        "content": content, "timestamp": "2026-01-01T00:00:00.000000+00:00",
        "tts": false, "mention_everyone": false, "mentions": [], "mention_roles": [],
        "attachments": [], "embeds": [], "pinned": false, "type": 0
    });
    if guild {
        m["guild_id"] = json!(GUILD_ID);
    }
    m
}

/// The `d` of an INTERACTION_CREATE of `kind` from `user` in `channel` of the guild
/// [`GUILD_ID`], with `data` and, for a button, the `message` it is under.
fn interaction_envelope(
    id: &str,
    kind: u8,
    data: Value,
    channel: &str,
    user: (&str, &str),
    message: Option<Value>,
) -> Value {
    let mut d = json!({
        "id": id, "application_id": BOT_ID, "type": kind, "data": data,
        "guild_id": GUILD_ID, "channel_id": channel,
        "member": {"user": {"id": user.0, "username": user.1, "discriminator": "0"},
                   "roles": [], "deaf": false, "mute": false, "flags": 0,
                   "joined_at": "2026-01-01T00:00:00.000000+00:00"},
        "token": format!("itok-{id}"), "version": 1, "locale": "en-US",
        "entitlements": [], "attachment_size_limit": ATTACHMENT_LIMIT,
        "app_permissions": "0"
    });
    if let Some(m) = message {
        d["message"] = m;
    }
    d
}
