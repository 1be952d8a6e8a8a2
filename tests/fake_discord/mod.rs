//! A fake Discord for offline end-to-end tests: the gateway websocket and the REST API on
//! one 127.0.0.1 port, enough of both for serenity 0.12 to connect, receive events and make
//! the calls Postal makes (see `../shared/reference/discord-offline.md`).
//!
//! It records every REST request and every frame the bot sends on the gateway, enforces
//! Discord's limits (2,000 characters of content, embed limits, the attachment size limit,
//! buttons (5 rows of 5, custom ids of 1 to 100 characters), one acknowledgement per
//! interaction within 3 seconds, thread names of 1 to 100 characters, the limits of a
//! command registration) and can answer with Discord's errors: a user with closed DMs gets 50007,
//! and [`Fake::fail_next`] makes the next matching request fail with any status and code.
//!
//! It shards as Discord does: `GET /gateway/bot` recommends [`Fake::set_shard_count`]
//! shards, each IDENTIFY's `shard` field is recorded ([`Fake::identified_shards`]), and an
//! event goes only to the connections of its shard: a guild's events to shard
//! `(guild_id >> 22) % total`, private messages to shard 0.

#![allow(dead_code)]

pub mod harness;
mod tls;

use axum::body::Bytes;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify};

/// The bot's user and application id.
pub const BOT_ID: &str = "100000000000000001";
/// The guild every event comes from.
pub const GUILD_ID: &str = "200000000000000001";
/// Discord's content limit.
pub const CONTENT_LIMIT: usize = 2000;
/// The attachment size limit the fake puts in interactions and enforces on uploads.
pub const ATTACHMENT_LIMIT: usize = 10 * 1024 * 1024;
/// How long a 429 from [`Fake::fail_next`] asks the client to wait.
pub const RETRY_AFTER: Duration = Duration::from_millis(300);
/// How long an interaction may wait for its first acknowledgement.
pub const ACK_WINDOW: Duration = Duration::from_secs(3);

/// One uploaded file.
#[derive(Clone, Debug)]
pub struct File {
    /// The multipart field name (`files[0]`).
    pub field: String,
    /// The file name.
    pub name: String,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// One REST request the bot made, with the fake's answer.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// GET, POST, ...
    pub method: String,
    /// The path after `/api/v10`, e.g. `/channels/10/messages`.
    pub path: String,
    /// The JSON body, or the `payload_json` part of a multipart body.
    pub json: Value,
    /// Uploaded files.
    pub files: Vec<File>,
    /// The status the fake answered.
    pub status: u16,
    /// The body the fake answered.
    pub response: Value,
    /// When it arrived.
    pub at: Instant,
}

impl Recorded {
    /// The message content sent, if any (messages, callbacks, followups).
    pub fn content(&self) -> Option<&str> {
        self.json
            .get("content")
            .or_else(|| self.json.get("data").and_then(|d| d.get("content")))
            .and_then(Value::as_str)
    }

    /// Message flags (64 = ephemeral), from a message body or a callback's data.
    pub fn flags(&self) -> u64 {
        self.json
            .get("flags")
            .or_else(|| self.json.get("data").and_then(|d| d.get("flags")))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    }

    /// Whether it succeeded (2xx).
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// Everything the request carried, as text, for scanning.
    pub fn all_text(&self) -> String {
        let mut s = self.json.to_string();
        for f in &self.files {
            s.push(' ');
            s.push_str(&f.name);
            s.push(' ');
            s.push_str(&String::from_utf8_lossy(&f.bytes));
        }
        s
    }
}

struct Interaction {
    token: String,
    channel: String,
    dispatched: Instant,
    acked: bool,
    ephemeral: bool,
}

struct Override {
    method: String,
    path_contains: String,
    status: u16,
    body: Value,
    headers: Vec<(&'static str, String)>,
}

/// One gateway connection that has identified (or resumed): where its events go, and
/// its shard `[id, total]`.
struct Session {
    tx: mpsc::UnboundedSender<String>,
    shard: [u64; 2],
}

impl Session {
    /// Whether Discord would send this connection an event of `guild` (`None`: a private
    /// message, which goes to shard 0).
    fn receives(&self, guild: Option<u64>) -> bool {
        let [id, total] = self.shard;
        guild.map_or(0, |g| (g >> 22) % total.max(1)) == id
    }
}

#[derive(Default)]
struct Inner {
    requests: Vec<Recorded>,
    frames: Vec<Value>,
    sessions: Vec<Session>,
    /// The shard of each session id handed out in a READY, for RESUMEs.
    session_shards: HashMap<String, [u64; 2]>,
    /// The `shard` field of each IDENTIFY, in order (`[0, 1]` when it had none).
    identified_shards: Vec<[u64; 2]>,
    /// The shard count `GET /gateway/bot` recommends (0 is taken as 1).
    shard_count: u64,
    /// The guilds READY lists (as unavailable, as Discord first sends them).
    guilds: Vec<String>,
    interactions: HashMap<String, Interaction>,
    /// DM channel id -> user id.
    dm_channels: HashMap<String, String>,
    /// thread id -> (parent channel, name).
    threads: HashMap<String, (String, String)>,
    /// Threads Discord has archived: a message to one fails with 400 / 50083 until a
    /// `PATCH /channels/{id}` with `archived: false` opens it again, or an interaction
    /// there is answered (the user acted in the thread, which reopens it) or followed up
    /// (a webhook execution, which Discord documents as unarchiving its thread).
    archived: HashSet<String>,
    closed_dms: HashSet<String>,
    overrides: Vec<Override>,
    identifies: usize,
    /// Close every IDENTIFY with 4004 (authentication failed), whatever the token.
    refuse_identify: bool,
    /// Close every IDENTIFY asking for the Message Content intent with 4014.
    refuse_message_content: bool,
    /// Users seen in dispatched events: id -> username (for GET /users/{id}).
    users: HashMap<String, String>,
    /// The registered application commands of each scope (`global` or a guild id), as
    /// `GET .../commands` returns them.
    commands: HashMap<String, Vec<Value>>,
}

struct Shared {
    inner: Mutex<Inner>,
    changed: Notify,
    seq: AtomicU64,
    ids: AtomicU64,
    port: u16,
    token: String,
}

/// A running fake Discord. Dropping it stops the server.
pub struct Fake {
    shared: Arc<Shared>,
    server: tokio::task::JoinHandle<()>,
    app: Router,
    tls: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Drop for Fake {
    fn drop(&mut self) {
        self.server.abort();
        if let Some(t) = self.tls.lock().unwrap().take() {
            t.abort();
        }
    }
}

fn err(status: u16, code: u64, message: &str) -> (u16, Value) {
    (status, json!({"code": code, "message": message}))
}

impl Fake {
    /// Starts a fake on a fresh 127.0.0.1 port that accepts the bot token `token`.
    pub async fn start(token: &str) -> Fake {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1");
        let port = listener.local_addr().expect("local addr").port();
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner::default()),
            changed: Notify::new(),
            seq: AtomicU64::new(0),
            ids: AtomicU64::new(900_000_000_000_000_000),
            port,
            token: token.to_string(),
        });
        let app = Router::new()
            .route("/ws", get(ws_handler))
            .fallback(rest)
            .with_state(shared.clone());
        let server = tokio::spawn({
            let app = app.clone();
            async move {
                let _ = axum::serve(listener, app).await;
            }
        });
        Fake {
            shared,
            server,
            app,
            tls: Mutex::new(None),
        }
    }

    /// A REST client for the bot that talks to this fake as if it were Discord itself
    /// (`https://discord.com`, over TLS), with serenity's rate limiter on, as in
    /// production; the gateway stays on the plain port.
    pub async fn discord_http(&self, token: &str) -> serenity::all::Http {
        let (port, server) = tls::serve(self.app.clone()).await;
        if let Some(old) = self.tls.lock().unwrap().replace(server) {
            old.abort();
        }
        serenity::all::HttpBuilder::new(token)
            .client(tls::client(port))
            .build()
    }

    /// The base URL to give the bot (`DISCORD_API_BASE`).
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.shared.port)
    }

    /// Every REST request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.inner.lock().unwrap().requests.clone()
    }

    /// Every gateway frame the bot sent so far.
    pub fn frames(&self) -> Vec<Value> {
        self.shared.inner.lock().unwrap().frames.clone()
    }

    /// DM channel ids the fake handed out, with their user.
    pub fn dm_channels(&self) -> HashMap<String, String> {
        self.shared.inner.lock().unwrap().dm_channels.clone()
    }

    /// Threads created: id -> (parent, name).
    pub fn threads(&self) -> HashMap<String, (String, String)> {
        self.shared.inner.lock().unwrap().threads.clone()
    }

    /// Archives thread `id` as Discord does after its auto-archive duration without
    /// messages: posting to it fails with 400 / 50083 until it is unarchived (by the bot,
    /// or by answering or following up an interaction there).
    pub fn archive_thread(&self, id: &str) {
        let mut inner = self.shared.inner.lock().unwrap();
        assert!(inner.threads.contains_key(id), "no thread {id}");
        inner.archived.insert(id.to_string());
        drop(inner);
        self.shared.changed.notify_waiters();
    }

    /// Whether thread `id` is archived now.
    pub fn is_archived(&self, id: &str) -> bool {
        self.shared.inner.lock().unwrap().archived.contains(id)
    }

    /// From now on, messages to `user`'s DM channel fail with 403 / 50007.
    pub fn close_dms(&self, user: &str) {
        self.shared
            .inner
            .lock()
            .unwrap()
            .closed_dms
            .insert(user.to_string());
    }

    /// From now on the gateway refuses every IDENTIFY with close code 4004, as Discord
    /// does for a token it does not accept (REST still accepts it).
    pub fn refuse_identify(&self) {
        self.shared.inner.lock().unwrap().refuse_identify = true;
    }

    /// From now on the gateway closes an IDENTIFY that asks for the privileged Message
    /// Content intent (`1 << 15`) with close code 4014 (disallowed intents), as Discord
    /// does for a bot whose intent is not turned on in the developer portal.
    pub fn refuse_message_content(&self) {
        self.shared.inner.lock().unwrap().refuse_message_content = true;
    }

    /// The next request with this method whose path contains `path_contains` gets
    /// `status` with the Discord error `code` instead of its normal answer.
    pub fn fail_next(&self, method: &str, path_contains: &str, status: u16, code: u64) {
        let (body, headers) = if status == 429 {
            let after = RETRY_AFTER.as_secs_f64();
            (
                json!({"message": "You are being rate limited.", "retry_after": after, "global": false, "code": code}),
                vec![
                    ("retry-after", after.to_string()),
                    ("x-ratelimit-scope", "user".to_string()),
                    ("x-ratelimit-limit", "5".to_string()),
                    ("x-ratelimit-remaining", "0".to_string()),
                    ("x-ratelimit-reset-after", after.to_string()),
                ],
            )
        } else {
            (
                json!({"code": code, "message": format!("fake error {code}")}),
                Vec::new(),
            )
        };
        self.shared.inner.lock().unwrap().overrides.push(Override {
            method: method.to_string(),
            path_contains: path_contains.to_string(),
            status,
            body,
            headers,
        });
    }

    /// A fresh snowflake.
    pub fn id(&self) -> String {
        next_id(&self.shared)
    }

    /// Waits until `pred` holds for the recorded requests, up to 10 seconds; returns the
    /// requests then. `pred` runs under the fake's lock: it must not call the fake. Panics (failing the test) with the requests so far on timeout.
    pub async fn wait_for(&self, what: &str, pred: impl Fn(&[Recorded]) -> bool) -> Vec<Recorded> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let notified = self.shared.changed.notified();
            {
                let inner = self.shared.inner.lock().unwrap();
                if pred(&inner.requests) {
                    return inner.requests.clone();
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                let reqs = self.requests();
                let lines: Vec<String> = reqs
                    .iter()
                    .map(|r| format!("{} {} {} {}", r.status, r.method, r.path, r.json))
                    .collect();
                panic!(
                    "timed out waiting for {what}; requests:\n{}",
                    lines.join("\n")
                );
            }
            let _ = tokio::time::timeout(left.min(Duration::from_millis(200)), notified).await;
        }
    }

    /// From now on READY says the bot is in `guilds`.
    pub fn set_guilds(&self, guilds: &[&str]) {
        self.shared.inner.lock().unwrap().guilds = guilds.iter().map(|g| g.to_string()).collect();
    }

    /// The commands registered in a scope (`global` or a guild id), as Discord holds them.
    pub fn commands_of(&self, scope: &str) -> Vec<Value> {
        let inner = self.shared.inner.lock().unwrap();
        inner.commands.get(scope).cloned().unwrap_or_default()
    }

    /// From now on `GET /gateway/bot` recommends `n` shards.
    pub fn set_shard_count(&self, n: u64) {
        self.shared.inner.lock().unwrap().shard_count = n;
    }

    /// The `shard` field (`[id, total]`) of every IDENTIFY so far, in order.
    pub fn identified_shards(&self) -> Vec<[u64; 2]> {
        self.shared.inner.lock().unwrap().identified_shards.clone()
    }

    /// Waits for the `n`th IDENTIFY (counting from 1).
    pub async fn wait_identified(&self, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let notified = self.shared.changed.notified();
            if self.shared.inner.lock().unwrap().identifies >= n {
                return;
            }
            assert!(Instant::now() < deadline, "the bot never identified");
            let _ = tokio::time::timeout(Duration::from_millis(200), notified).await;
        }
    }

    /// Sends a dispatch event to every connected gateway session of its shard: that of
    /// its `guild_id`, or shard 0 when it has none.
    pub fn dispatch(&self, t: &str, d: Value) {
        let guild = d["guild_id"].as_str().and_then(|g| g.parse::<u64>().ok());
        let s = self.shared.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let frame = json!({"op": 0, "t": t, "s": s, "d": d}).to_string();
        let mut inner = self.shared.inner.lock().unwrap();
        for u in [&d["author"], &d["user"], &d["member"]["user"]] {
            if let (Some(id), Some(name)) = (u["id"].as_str(), u["username"].as_str()) {
                inner.users.insert(id.to_string(), name.to_string());
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
                },
            );
        }
        inner
            .sessions
            .retain(|session| !session.receives(guild) || session.tx.send(frame.clone()).is_ok());
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
        let d = interaction_envelope(&id, kind, data, channel, user, None);
        self.dispatch("INTERACTION_CREATE", d);
        id
    }

    /// The interaction data Discord sends for the command a user picked as `name`: a
    /// registered top-level command of that name as it is, else the registered command
    /// holding a subcommand `name`, with `options` inside that subcommand. A name no
    /// scope has registered (yet) is sent as it is.
    fn nest(&self, name: &str, options: Value) -> (String, Value) {
        let inner = self.shared.inner.lock().unwrap();
        let registered = inner.commands.values().flatten();
        let mut holder = None;
        for c in registered {
            if c["name"] == name {
                return (name.to_string(), options);
            }
            let subs = c["options"].as_array().map_or(&[][..], Vec::as_slice);
            if subs.iter().any(|o| o["type"] == 1 && o["name"] == name) {
                holder = c["name"].as_str().map(str::to_string);
            }
        }
        match holder {
            Some(top) => (top, json!([{"name": name, "type": 1, "options": options}])),
            None => (name.to_string(), options),
        }
    }

    /// Waits for the first response (callback) to interaction `id`.
    pub async fn wait_callback(&self, id: &str) -> Recorded {
        let prefix = format!("/interactions/{id}/");
        let reqs = self
            .wait_for(&format!("the response to interaction {id}"), |r| {
                r.iter().any(|x| x.path.starts_with(&prefix))
            })
            .await;
        reqs.into_iter()
            .find(|x| x.path.starts_with(&prefix))
            .expect("found")
    }

    /// Presses a button with `custom_id` on the bot message `msg` (a recorded response
    /// body); returns the interaction id.
    pub fn press(&self, user: (&str, &str), msg: &Value, custom_id: &str) -> String {
        let id = self.id();
        let channel = msg["channel_id"].as_str().unwrap_or_default().to_string();
        let d = interaction_envelope(
            &id,
            3,
            json!({"custom_id": custom_id, "component_type": 2}),
            &channel,
            user,
            Some(msg.clone()),
        );
        self.dispatch("INTERACTION_CREATE", d);
        id
    }
}

impl Fake {
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

fn next_id(shared: &Shared) -> String {
    shared.ids.fetch_add(1, Ordering::SeqCst).to_string()
}

async fn ws_handler(ws: WebSocketUpgrade, State(shared): State<Arc<Shared>>) -> Response {
    ws.on_upgrade(move |socket| session(socket, shared))
}

async fn session(mut socket: WebSocket, shared: Arc<Shared>) {
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}}).to_string();
    if socket.send(WsMessage::Text(hello)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            out = rx.recv() => {
                let Some(text) = out else { return };
                if socket.send(WsMessage::Text(text)).await.is_err() {
                    return;
                }
            }
            msg = socket.recv() => {
                let Some(Ok(msg)) = msg else { return };
                let text = match msg {
                    WsMessage::Text(t) => t,
                    WsMessage::Close(_) => return,
                    _ => continue,
                };
                let Ok(frame) = serde_json::from_str::<Value>(&text) else { continue };
                let op = frame["op"].as_u64().unwrap_or(99);
                shared.inner.lock().unwrap().frames.push(frame.clone());
                let reply = match op {
                    1 => Some(json!({"op": 11}).to_string()),
                    2 => {
                        let token = frame["d"]["token"].as_str().unwrap_or_default();
                        let refuse = shared.inner.lock().unwrap().refuse_identify;
                        if refuse
                            || token != format!("Bot {}", shared.token) && token != shared.token
                        {
                            let _ = socket
                                .send(WsMessage::Close(Some(axum::extract::ws::CloseFrame {
                                    code: 4004,
                                    reason: "Authentication failed.".into(),
                                })))
                                .await;
                            return;
                        }
                        let intents = frame["d"]["intents"].as_u64().unwrap_or(0);
                        let no_content = shared.inner.lock().unwrap().refuse_message_content;
                        if no_content && intents & (1 << 15) != 0 {
                            let _ = socket
                                .send(WsMessage::Close(Some(axum::extract::ws::CloseFrame {
                                    code: 4014,
                                    reason: "Disallowed intent(s).".into(),
                                })))
                                .await;
                            return;
                        }
                        let s = shared.seq.fetch_add(1, Ordering::SeqCst) + 1;
                        let shard = match frame["d"]["shard"].as_array().map(Vec::as_slice) {
                            Some([id, total]) => [id.as_u64().unwrap_or(0), total.as_u64().unwrap_or(1)],
                            _ => [0, 1],
                        };
                        let guilds: Vec<Value> = shared.inner.lock().unwrap().guilds.iter()
                            .map(|g| json!({"id": g, "unavailable": true}))
                            .collect();
                        let ready = json!({"op": 0, "t": "READY", "s": s, "d": {
                            "v": 10,
                            "user": {"id": BOT_ID, "username": "postal", "bot": true, "discriminator": "0"},
                            "guilds": guilds, "session_id": format!("session-{s}"),
                            "resume_gateway_url": format!("ws://127.0.0.1:{}/ws", shared.port),
                            "application": {"id": BOT_ID, "flags": 0},
                            "shard": shard
                        }});
                        {
                            let mut inner = shared.inner.lock().unwrap();
                            inner.identifies += 1;
                            inner.identified_shards.push(shard);
                            inner.session_shards.insert(format!("session-{s}"), shard);
                            inner.sessions.push(Session { tx: tx.clone(), shard });
                        }
                        shared.changed.notify_waiters();
                        Some(ready.to_string())
                    }
                    6 => {
                        let mut inner = shared.inner.lock().unwrap();
                        let id = frame["d"]["session_id"].as_str().unwrap_or_default();
                        let shard = inner.session_shards.get(id).copied().unwrap_or([0, 1]);
                        inner.sessions.push(Session { tx: tx.clone(), shard });
                        drop(inner);
                        let s = shared.seq.load(Ordering::SeqCst);
                        Some(json!({"op": 0, "t": "RESUMED", "s": s, "d": {}}).to_string())
                    }
                    _ => None,
                };
                if let Some(r) = reply {
                    if socket.send(WsMessage::Text(r)).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

async fn rest(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().clone();
    let full = req.uri().path().to_string();
    let path = full.strip_prefix("/api/v10").unwrap_or(&full).to_string();
    let auth = req
        .headers()
        .get("authorization")
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let multipart = req
        .headers()
        .get("content-type")
        .and_then(|h| h.to_str().ok())
        .is_some_and(|c| c.starts_with("multipart/"));
    let mut files = Vec::new();
    let mut json_body = Value::Null;
    let mut total = 0usize;
    if multipart {
        match Multipart::from_request(req, &()).await {
            Ok(mut mp) => {
                while let Ok(Some(field)) = mp.next_field().await {
                    let name = field.name().unwrap_or_default().to_string();
                    let file_name = field.file_name().map(str::to_string);
                    let bytes = field.bytes().await.unwrap_or_default();
                    total += bytes.len();
                    if name == "payload_json" {
                        json_body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                    } else {
                        files.push(File {
                            field: name,
                            name: file_name.unwrap_or_default(),
                            bytes: bytes.to_vec(),
                        });
                    }
                }
            }
            Err(_) => return (StatusCode::BAD_REQUEST, "bad multipart").into_response(),
        }
    } else {
        let bytes: Bytes = axum::body::to_bytes(req.into_body(), 64 << 20)
            .await
            .unwrap_or_default();
        total = bytes.len();
        if !bytes.is_empty() {
            json_body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        }
    }
    let mut headers = Vec::new();
    let (status, response) = {
        let mut inner = shared.inner.lock().unwrap();
        let public = path == "/gateway"
            || path.starts_with("/interactions/")
            || path.starts_with("/webhooks/");
        if !public && auth != format!("Bot {}", shared.token) {
            err(401, 0, "401: Unauthorized")
        } else if let Some(i) = inner
            .overrides
            .iter()
            .position(|o| o.method == method.as_str() && path.contains(&o.path_contains))
        {
            let o = inner.overrides.remove(i);
            headers = o.headers;
            (o.status, o.body)
        } else if total > 25 << 20 {
            err(413, 40005, "Request entity too large")
        } else {
            answer(&shared, &mut inner, &method, &path, &json_body, &files)
        }
    };
    shared.inner.lock().unwrap().requests.push(Recorded {
        method: method.to_string(),
        path,
        json: json_body,
        files,
        status,
        response: response.clone(),
        at: Instant::now(),
    });
    shared.changed.notify_waiters();
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut resp = if status == 204 {
        code.into_response()
    } else {
        (code, Json(response)).into_response()
    };
    for (name, value) in headers {
        if let Ok(v) = axum::http::HeaderValue::from_str(&value) {
            resp.headers_mut().insert(name, v);
        }
    }
    resp
}

/// Checks a message body against Discord's limits: content, embeds, attachment size.
fn check_message(body: &Value, files: &[File]) -> Result<(), (u16, Value)> {
    let content = body.get("content").and_then(Value::as_str).unwrap_or("");
    if content.chars().count() > CONTENT_LIMIT {
        return Err(err(
            400,
            50035,
            "Invalid Form Body: content: Must be 2000 or fewer in length.",
        ));
    }
    if let Some(embeds) = body.get("embeds").and_then(Value::as_array) {
        if embeds.len() > 10 {
            return Err(err(400, 50035, "Invalid Form Body: embeds: at most 10"));
        }
        let mut total = 0;
        for e in embeds {
            let len = |k: &str| {
                e.get(k)
                    .and_then(Value::as_str)
                    .map_or(0, |s| s.chars().count())
            };
            let (t, d) = (len("title"), len("description"));
            if t > 256 || d > 4096 {
                return Err(err(400, 50035, "Invalid Form Body: embed too long"));
            }
            total += t + d;
        }
        if total > 6000 {
            return Err(err(
                400,
                50035,
                "Invalid Form Body: embeds: 6000 characters in all",
            ));
        }
    }
    if content.is_empty()
        && files.is_empty()
        && body
            .get("embeds")
            .and_then(Value::as_array)
            .map_or(true, |e| e.is_empty())
        && body
            .get("components")
            .and_then(Value::as_array)
            .map_or(true, |c| c.is_empty())
    {
        return Err(err(400, 50006, "Cannot send an empty message"));
    }
    if files.iter().any(|f| f.bytes.len() > ATTACHMENT_LIMIT) {
        return Err(err(413, 40005, "Request entity too large"));
    }
    check_allowed_mentions(body)?;
    check_components(body)
}

/// Checks a message's `allowed_mentions` as Discord does: `parse` holds only `users`,
/// `roles` and `everyone`; `users` and `roles` hold at most 100 snowflakes each; and a
/// type in `parse` may not also be listed (`parse: ["users"]` with `users: [...]`).
pub fn check_allowed_mentions(body: &Value) -> Result<(), (u16, Value)> {
    let Some(am) = body.get("allowed_mentions") else {
        return Ok(());
    };
    let bad = |what: &str| {
        Err(err(
            400,
            50035,
            &format!("Invalid Form Body: allowed_mentions: {what}"),
        ))
    };
    let parse: Vec<&str> = match am.get("parse") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        Some(_) => return bad("parse must be an array"),
    };
    if parse
        .iter()
        .any(|p| !["users", "roles", "everyone"].contains(p))
    {
        return bad("parse holds an unknown type");
    }
    for (list, kind) in [("users", "users"), ("roles", "roles")] {
        let ids = match am.get(list) {
            None | Some(Value::Null) => continue,
            Some(Value::Array(a)) => a,
            Some(_) => return bad("users and roles must be arrays"),
        };
        if ids.len() > 100 {
            return bad("at most 100 users or roles");
        }
        if ids.iter().any(|i| {
            i.as_str().map_or(true, |s| {
                s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit())
            })
        }) {
            return bad("users and roles are snowflakes");
        }
        if !ids.is_empty() && parse.contains(&kind) {
            return bad("a type may not be both parsed and listed");
        }
    }
    Ok(())
}

/// Checks a message's buttons against Discord's limits: at most 5 action rows of at most
/// 5 buttons, each custom id 1 to 100 characters and unique in the message, each label
/// at most 80.
pub fn check_components(body: &Value) -> Result<(), (u16, Value)> {
    let bad = |what: &str| {
        Err(err(
            400,
            50035,
            &format!("Invalid Form Body: components: {what}"),
        ))
    };
    let rows = body
        .get("components")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    if rows.len() > 5 {
        return bad("at most 5 rows");
    }
    let mut ids = HashSet::new();
    for row in rows {
        let buttons = row["components"].as_array().map_or(&[][..], Vec::as_slice);
        if buttons.is_empty() || buttons.len() > 5 {
            return bad("1 to 5 components in a row");
        }
        for b in buttons {
            let id = b["custom_id"].as_str().unwrap_or_default();
            if !(1..=100).contains(&id.chars().count()) || !ids.insert(id.to_string()) {
                return bad("custom_id: 1 to 100 characters, unique");
            }
            if b["label"].as_str().is_some_and(|l| l.chars().count() > 80) {
                return bad("label: at most 80 characters");
            }
        }
    }
    Ok(())
}

/// Checks an autocompletion result against Discord's limits: at most 25 choices, each
/// name 1 to 100 characters and each string value at most 100.
fn check_choices(data: &Value) -> Result<(), (u16, Value)> {
    let Some(choices) = data.get("choices").and_then(Value::as_array) else {
        return Err(err(400, 50035, "Invalid Form Body: choices"));
    };
    if choices.len() > 25 {
        return Err(err(400, 50035, "Invalid Form Body: choices: at most 25"));
    }
    for c in choices {
        let name = c["name"].as_str().map_or(0, |n| n.chars().count());
        let value_ok = match &c["value"] {
            Value::String(v) => v.chars().count() <= 100,
            Value::Number(_) => true,
            _ => false,
        };
        if !(1..=100).contains(&name) || !value_ok {
            return Err(err(400, 50035, "Invalid Form Body: choice name or value"));
        }
    }
    Ok(())
}

/// Checks a bulk registration against Discord's limits: at most 100 commands with
/// distinct names; names of 1 to 32 lowercase characters; descriptions of 1 to 100
/// characters; at most 25 options per command (and per subcommand); at most 25 choices
/// per option, each name 1 to 100 characters and each string value at most 100; no
/// choices on an autocompleted option; required options before optional ones; a
/// command's options either all subcommands (or groups) or none, a subcommand holding
/// none and a group only subcommands; at most 8000 characters of names, descriptions
/// and choice values per command.
pub fn check_commands(cmds: &[Value]) -> Result<(), (u16, Value)> {
    if cmds.len() > 100 {
        return Err(err(
            400,
            30032,
            "Maximum number of application commands reached",
        ));
    }
    let bad = |what: String| Err(err(400, 50035, &format!("Invalid Form Body: {what}")));
    let name_ok = |v: &Value| {
        v.as_str().is_some_and(|n| {
            (1..=32).contains(&n.chars().count())
                && n.chars()
                    .all(|c| c.is_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        })
    };
    let text_ok = |v: &Value, max: usize| {
        v.as_str()
            .is_some_and(|d| (1..=max).contains(&d.chars().count()))
    };
    fn options_of(v: &Value) -> &[Value] {
        v.get("options")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }
    let mut names = HashSet::new();
    let mut stack: Vec<(&Value, String)> = Vec::new();
    for c in cmds {
        let n = c["name"].as_str().unwrap_or_default().to_string();
        if !names.insert(n.clone()) {
            return bad(format!("{n}: two commands of one name"));
        }
        stack.push((c, n));
    }
    for c in cmds {
        let n = c["name"].as_str().unwrap_or_default();
        if counted(c) > 8000 {
            return bad(format!(
                "{n}: more than 8000 characters in names, descriptions and values"
            ));
        }
        for o in options_of(c) {
            let kind = o["type"].as_u64().unwrap_or(0);
            let subs_inside = options_of(o).iter().filter(|x| x["type"] == 1).count();
            let groups_inside = options_of(o).iter().filter(|x| x["type"] == 2).count();
            let ok = match kind {
                1 => subs_inside + groups_inside == 0,
                2 => subs_inside == options_of(o).len(),
                _ => true,
            };
            if !ok {
                return bad(format!(
                    "{n}.{}: a subcommand holds no subcommands, a group only subcommands",
                    o["name"]
                ));
            }
        }
        let grouped = options_of(c)
            .iter()
            .filter(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
            .count();
        if grouped != 0 && grouped != options_of(c).len() {
            return bad(format!("{n}: subcommands and plain options mixed"));
        }
    }
    while let Some((item, at)) = stack.pop() {
        if !name_ok(&item["name"]) {
            return bad(format!("{at}: name"));
        }
        if !text_ok(&item["description"], 100) {
            return bad(format!("{at}: description: 1 to 100 characters"));
        }
        let options = options_of(item);
        if options.len() > 25 {
            return bad(format!("{at}: options: at most 25"));
        }
        let mut optional_seen = false;
        let mut option_names = HashSet::new();
        for o in options {
            let on = format!("{at}.{}", o["name"].as_str().unwrap_or_default());
            if !option_names.insert(o["name"].to_string()) {
                return bad(format!("{on}: two options of one name"));
            }
            let required = o["required"].as_bool().unwrap_or(false);
            if required && optional_seen {
                return bad(format!("{on}: required options come first"));
            }
            optional_seen |= !required;
            let choices = o
                .get("choices")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice);
            if choices.len() > 25 {
                return bad(format!("{on}: choices: at most 25"));
            }
            if !choices.is_empty() && o["autocomplete"].as_bool() == Some(true) {
                return bad(format!("{on}: choices and autocomplete"));
            }
            for ch in choices {
                let value_ok = match &ch["value"] {
                    Value::String(v) => (1..=100).contains(&v.chars().count()),
                    Value::Number(_) => true,
                    _ => false,
                };
                if !text_ok(&ch["name"], 100) || !value_ok {
                    return bad(format!("{on}: choice name or value"));
                }
            }
            stack.push((o, on));
        }
    }
    Ok(())
}

/// The commands a user can pick in a registration: each subcommand of a grouped command
/// (`/chess move` as `move`), and each command without subcommands as it is.
pub fn leaf_commands(cmds: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for c in cmds {
        let subs: Vec<Value> = c["options"].as_array().map_or(Vec::new(), |o| {
            o.iter().filter(|o| o["type"] == 1).cloned().collect()
        });
        if subs.is_empty() {
            out.push(c.clone());
        } else {
            out.extend(subs);
        }
    }
    out
}

/// The characters Discord counts towards a command's limit of 8000: every name,
/// description and choice name and value, through its options and subcommands.
fn counted(v: &Value) -> usize {
    let text = |x: &Value, k: &str| x[k].as_str().map_or(0, |t| t.chars().count());
    let choices: usize = v["choices"].as_array().map_or(0, |cs| {
        cs.iter().map(|c| text(c, "name") + text(c, "value")).sum()
    });
    let nested: usize = v["options"]
        .as_array()
        .map_or(0, |os| os.iter().map(counted).sum());
    text(v, "name") + text(v, "description") + choices + nested
}

fn message_response(shared: &Shared, channel: &str, body: &Value, files: &[File]) -> Value {
    let id = next_id(shared);
    let mut m = message(
        &id,
        channel,
        (BOT_ID, "postal"),
        body.get("content").and_then(Value::as_str).unwrap_or(""),
        true,
    );
    m["author"]["bot"] = json!(true);
    m["attachments"] = Value::Array(
        files
            .iter()
            .map(|f| {
                json!({"id": next_id(shared), "filename": f.name, "size": f.bytes.len(),
                       "url": format!("https://cdn.invalid/{}", f.name),
                       "proxy_url": format!("https://cdn.invalid/{}", f.name)})
            })
            .collect(),
    );
    if let Some(c) = body.get("components") {
        m["components"] = c.clone();
    }
    if let Some(f) = body.get("flags") {
        m["flags"] = f.clone();
    }
    m
}

fn channel_object(id: &str, kind: u8, name: &str, parent: Option<&str>) -> Value {
    let mut c = json!({"id": id, "type": kind, "name": name, "guild_id": GUILD_ID});
    if let Some(p) = parent {
        c["parent_id"] = json!(p);
        c["thread_metadata"] = json!({"archived": false, "auto_archive_duration": 10080,
            "archive_timestamp": "2026-01-01T00:00:00.000000+00:00", "locked": false});
    }
    c
}

fn answer(
    shared: &Shared,
    inner: &mut Inner,
    method: &Method,
    path: &str,
    body: &Value,
    files: &[File],
) -> (u16, Value) {
    let seg: Vec<&str> = path.trim_matches('/').split('/').collect();
    let m = method.as_str();
    match (m, seg.as_slice()) {
        ("GET", ["gateway"]) => (
            200,
            json!({"url": format!("ws://127.0.0.1:{}/ws", shared.port)}),
        ),
        ("GET", ["gateway", "bot"]) => (
            200,
            json!({"url": format!("ws://127.0.0.1:{}/ws", shared.port), "shards": inner.shard_count.max(1),
                   "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}),
        ),
        ("GET", ["users", "@me"]) => (
            200,
            json!({"id": BOT_ID, "username": "postal", "bot": true}),
        ),
        ("GET", ["users", id]) => match inner.users.get(*id) {
            Some(name) => (
                200,
                json!({"id": id, "username": name, "discriminator": "0", "global_name": null}),
            ),
            None => err(404, 10013, "Unknown User"),
        },
        ("GET", ["applications", _, "commands"]) => (
            200,
            Value::Array(inner.commands.get("global").cloned().unwrap_or_default()),
        ),
        ("GET", ["applications", _, "guilds", g, "commands"]) => (
            200,
            Value::Array(inner.commands.get(*g).cloned().unwrap_or_default()),
        ),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
            let Some(cmds) = body.as_array() else {
                return err(400, 50035, "Invalid Form Body: expected an array");
            };
            if let Err(e) = check_commands(cmds) {
                return e;
            }
            let out: Vec<Value> = cmds
                .iter()
                .map(|c| {
                    let mut c = c.clone();
                    c["id"] = json!(next_id(shared));
                    c["application_id"] = json!(BOT_ID);
                    c["version"] = json!("1");
                    c["default_member_permissions"] = Value::Null;
                    c["type"] = c.get("type").cloned().unwrap_or(json!(1));
                    c
                })
                .collect();
            let scope = match seg.as_slice() {
                ["applications", _, "guilds", g, "commands"] => g.to_string(),
                _ => "global".to_string(),
            };
            inner.commands.insert(scope, out.clone());
            (200, Value::Array(out))
        }
        ("POST", ["users", "@me", "channels"]) => {
            let Some(user) = body["recipient_id"].as_str() else {
                return err(400, 50035, "Invalid Form Body: recipient_id");
            };
            let id = inner
                .dm_channels
                .iter()
                .find(|(_, u)| *u == user)
                .map(|(c, _)| c.clone())
                .unwrap_or_else(|| {
                    let id = next_id(shared);
                    inner.dm_channels.insert(id.clone(), user.to_string());
                    id
                });
            (
                200,
                json!({"id": id, "type": 1, "recipients": [{"id": user, "username": format!("user{user}"), "discriminator": "0"}]}),
            )
        }
        ("POST", ["channels", c, "messages"]) => {
            if let Some(user) = inner.dm_channels.get(*c) {
                if inner.closed_dms.contains(user) {
                    return err(403, 50007, "Cannot send messages to this user");
                }
            }
            if inner.archived.contains(*c) {
                return err(400, 50083, "Thread is archived");
            }
            if let Err(e) = check_message(body, files) {
                return e;
            }
            (200, message_response(shared, c, body, files))
        }
        ("PATCH", ["channels", c]) => {
            // Only what the bot may change of a thread: unarchiving it.
            let Some((parent, name)) = inner.threads.get(*c).cloned() else {
                return err(404, 10003, "Unknown Channel");
            };
            let fields: Vec<&String> = body
                .as_object()
                .map(|o| o.keys().collect())
                .unwrap_or_default();
            if fields != ["archived"] || body["archived"] != json!(false) {
                return err(
                    400,
                    50035,
                    "Invalid Form Body: the fake only unarchives threads",
                );
            }
            inner.archived.remove(*c);
            (200, channel_object(c, 11, &name, Some(&parent)))
        }
        ("PATCH", ["channels", c, "messages", _]) => {
            if let Err(e) = check_message(body, files) {
                return e;
            }
            (200, message_response(shared, c, body, files))
        }
        ("POST", ["channels", c, "typing"]) => {
            let _ = c;
            (204, Value::Null)
        }
        ("POST", ["channels", c, "messages", _, "threads"])
        | ("POST", ["channels", c, "threads"]) => {
            let name = body["name"].as_str().unwrap_or("");
            let n = name.chars().count();
            if !(1..=100).contains(&n) {
                return err(400, 50035, "Invalid Form Body: name: 1 to 100 characters");
            }
            let from_message = seg.len() == 5;
            let kind = if from_message {
                11
            } else {
                body["type"].as_u64().unwrap_or(12) as u8
            };
            let id = next_id(shared);
            inner
                .threads
                .insert(id.clone(), (c.to_string(), name.to_string()));
            (200, channel_object(&id, kind, name, Some(c)))
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            let Some(i) = inner.interactions.get_mut(*id) else {
                return err(404, 10062, "Unknown interaction");
            };
            if i.token != *token {
                return err(401, 50027, "Invalid Webhook Token");
            }
            if i.acked {
                return err(400, 40060, "Interaction has already been acknowledged.");
            }
            if i.dispatched.elapsed() > ACK_WINDOW {
                return err(404, 10062, "Unknown interaction");
            }
            if body["type"].as_u64() == Some(8) {
                if let Err(e) = check_choices(&body["data"]) {
                    return e;
                }
            } else if let Some(data) = body.get("data") {
                if let Err(e) = check_components(data) {
                    return e;
                }
                if let Err(e) = check_message(data, files) {
                    if body["type"].as_u64() == Some(4) || !files.is_empty() {
                        return e;
                    }
                }
            }
            i.acked = true;
            i.ephemeral = body["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0;
            // An answer with a message (4) or its deferral (5) in an archived thread
            // reopens it: the user acted there.
            if matches!(body["type"].as_u64(), Some(4 | 5)) {
                let channel = i.channel.clone();
                inner.archived.remove(&channel);
            }
            (204, Value::Null)
        }
        ("POST", ["webhooks", _, token])
        | ("PATCH", ["webhooks", _, token, "messages", "@original"]) => {
            let Some(i) = inner.interactions.values().find(|i| i.token == *token) else {
                return err(401, 50027, "Invalid Webhook Token");
            };
            if !i.acked {
                return err(404, 10015, "Unknown Webhook");
            }
            if i.dispatched.elapsed() > Duration::from_secs(15 * 60) {
                return err(401, 50027, "Invalid Webhook Token");
            }
            if let Err(e) = check_message(body, files) {
                return e;
            }
            let channel = i.channel.clone();
            if m == "POST" {
                // A follow-up is a webhook execution, which unarchives its thread.
                inner.archived.remove(&channel);
            }
            (200, message_response(shared, &channel, body, files))
        }
        _ => err(404, 0, &format!("fake: no route {m} {path}")),
    }
}

/// Whether a recorded request is seen by one user only: a message to a DM channel, or an
/// interaction reply or followup flagged ephemeral (64). Everything else is public.
pub fn is_private(r: &Recorded, dm_channels: &HashMap<String, String>) -> bool {
    let seg: Vec<&str> = r.path.trim_matches('/').split('/').collect();
    match seg.as_slice() {
        ["channels", c, "messages", ..] => dm_channels.contains_key(*c),
        ["interactions", _, _, "callback"] | ["webhooks", ..] => r.flags() & 64 != 0,
        // Opening a DM channel, registering commands, typing: carries no message.
        ["users", "@me", "channels"] | ["applications", ..] | ["channels", _, "typing"] => true,
        _ => false,
    }
}

/// The requests that carried `secret` (in their JSON, file names or file bytes) where more
/// than one user could see it. A test fails if this is not empty.
pub fn public_leaks(
    reqs: &[Recorded],
    dm_channels: &HashMap<String, String>,
    secret: &str,
) -> Vec<Recorded> {
    reqs.iter()
        .filter(|r| r.ok() && !is_private(r, dm_channels) && r.all_text().contains(secret))
        .cloned()
        .collect()
}
