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
//! It drops gateway connections with a close code and, on RESUME, sends a session the
//! events it missed ([`Fake::close_gateway`]), and answers storms of 429s on a route and
//! the global limit, then enforces them ([`Fake::rate_limit_storm`], [`Fake::global_limit`]).
//!
//! It shards as Discord does: `GET /gateway/bot` recommends [`Fake::set_shard_count`]
//! shards, each IDENTIFY's `shard` field is recorded ([`Fake::identified_shards`]), and an
//! event goes only to the connections of its shard: a guild's events to shard
//! `(guild_id >> 22) % total`, private messages to shard 0.
//!
//! This module holds the [`Fake`] handle, its shared state and what a test reads back
//! ([`Recorded`], [`File`]); `events` builds what the fake sends the bot, `gateway` runs
//! the websocket (and its drops), `rest` answers the REST API, `limits` its rate limits, `checks` holds Discord's validation rules,
//! `privacy` tells who sees a request, and `harness` is what the tests share.

#![allow(dead_code)]

mod checks;
mod events;
mod gateway;
pub mod harness;
mod limits;
mod openapi;
mod privacy;
mod rest;
mod tls;
mod transcript;

// The functions tests call as `fake_discord::...`; each test binary uses only some of
// them, as with the items `dead_code` is allowed for above.
#[allow(unused_imports)]
pub use checks::{check_allowed_mentions, check_commands, check_components, leaf_commands};
#[allow(unused_imports)]
pub use events::message;
#[allow(unused_imports)]
pub use gateway::GatewayCounts;
#[allow(unused_imports)]
pub use limits::{sent_too_soon, Limited};
#[allow(unused_imports)]
pub use privacy::{is_private, public_leaks};

use axum::routing::get;
use axum::Router;
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

    /// The embeds sent (a message's, a callback's or a followup's), if any.
    pub fn embeds(&self) -> Vec<Value> {
        self.json
            .get("embeds")
            .or_else(|| self.json.get("data").and_then(|d| d.get("embeds")))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }

    /// What a reader sees of the message: its content, then each embed's title,
    /// description, fields (name and value) and footer, a line each.
    pub fn shown(&self) -> String {
        let mut lines: Vec<String> = self.content().into_iter().map(str::to_string).collect();
        for e in self.embeds() {
            let text = |v: &Value| v.as_str().map(str::to_string);
            lines.extend(text(&e["title"]));
            lines.extend(text(&e["description"]));
            for f in e["fields"].as_array().into_iter().flatten() {
                lines.extend(text(&f["name"]));
                lines.extend(text(&f["value"]));
            }
            lines.extend(text(&e["footer"]["text"]));
        }
        lines.join("\n")
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
    /// The message its response (type 4) posted, which `GET .../messages/@original` reads.
    response: Option<Value>,
}

struct Override {
    method: String,
    path_contains: String,
    status: u16,
    body: Value,
    headers: Vec<(&'static str, String)>,
}

/// What the task of a gateway connection is told to do.
enum ToConnection {
    /// Send this text frame.
    Frame(String),
    /// Close the websocket with this close code.
    Close(u16),
}

/// A gateway session, as Discord keeps one: from its READY until it is invalidated. Its
/// dispatches are logged with their sequence numbers, so that a RESUME gets those after
/// its `seq` again, and those dispatched while it was disconnected.
struct Session {
    /// The `session_id` of its READY.
    id: String,
    /// Its shard `[id, total]`.
    shard: [u64; 2],
    /// Its connection, while it has one.
    tx: Option<mpsc::UnboundedSender<ToConnection>>,
    /// Every dispatch sent to it or due to it, with its `s`.
    log: Vec<(u64, String)>,
    /// Whether a RESUME of it is accepted (Discord forgets a session it closed with 4009,
    /// or that [`Fake::expire_sessions`] expired).
    resumable: bool,
}

impl Session {
    /// Whether Discord would send this session an event of `guild` (`None`: a private
    /// message, which goes to shard 0).
    fn receives(&self, guild: Option<u64>) -> bool {
        let [id, total] = self.shard;
        guild.map_or(0, |g| (g >> 22) % total.max(1)) == id
    }
}

#[derive(Default)]
struct Inner {
    requests: Vec<Recorded>,
    /// The events dispatched, kept only while transcripts are asked for
    /// (`transcript.rs`).
    sent: Vec<transcript::Sent>,
    frames: Vec<Value>,
    sessions: Vec<Session>,
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
    /// A server's channels (not threads) seen in its events or added by a test
    /// ([`Fake::add_channel`]): channel id -> guild id, for `GET /channels/{id}`.
    channels: HashMap<String, String>,
    /// Threads Discord has archived: a message to one fails with 400 / 50083 until a
    /// `PATCH /channels/{id}` with `archived: false` opens it again, or an interaction
    /// there is answered (the user acted in the thread, which reopens it) or followed up
    /// (a webhook execution, which Discord documents as unarchiving its thread).
    archived: HashSet<String>,
    closed_dms: HashSet<String>,
    overrides: Vec<Override>,
    /// What happened on the gateway: see [`GatewayCounts`].
    gateway: GatewayCounts,
    /// While set, IDENTIFY and RESUME wait (the bot stays away): see [`Fake::hold_gateway`].
    hold_gateway: bool,
    /// Events the next accepted RESUME sends again from before its `seq`.
    resend_on_resume: usize,
    /// Rate limits the fake is told to answer with, and those in force: see `limits`.
    limits: limits::Limits,
    /// Close every IDENTIFY with 4004 (authentication failed), whatever the token.
    refuse_identify: bool,
    /// Close every IDENTIFY asking for the Message Content intent with 4014.
    refuse_message_content: bool,
    /// Users seen in dispatched events: id -> username (for GET /users/{id}).
    users: HashMap<String, String>,
    /// Every message typed to the bot or posted by it: id -> channel, so that a reply
    /// (`message_reference`) or an edit names a message that exists, where it is.
    messages: HashMap<String, String>,
    /// The messages the bot posted with a nonce it asked Discord to enforce, by channel
    /// and nonce: as Discord does, the same nonce again in that channel returns the
    /// message already made and makes no other (the adapter's guard against posting an
    /// outbox message twice after a crash).
    nonces: HashMap<(String, String), Value>,
    /// The registered application commands of each scope (`global` or a guild id), as
    /// `GET .../commands` returns them.
    commands: HashMap<String, Vec<Value>>,
    /// Server members given permissions or roles ([`Fake::set_member`]): user id ->
    /// (permission bits in the channel, role ids). Every other member has
    /// [`MEMBER_PERMISSIONS`] and no role.
    members: HashMap<String, (u64, Vec<String>)>,
    /// Requests Discord's published API refuses (`openapi`): why, each. A test whose bot
    /// made one fails when its fake is dropped.
    violations: Vec<String>,
}

/// The permissions an ordinary member has in a channel, as an interaction's
/// `member.permissions` gives them: view the channel, send messages, send messages in
/// threads, use application commands.
pub const MEMBER_PERMISSIONS: u64 = (1 << 10) | (1 << 11) | (1 << 38) | (1 << 31);

/// The Manage Server permission (`MANAGE_GUILD`).
pub const MANAGE_GUILD: u64 = 1 << 5;

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
        if let Some(dir) = transcript::folder() {
            let inner = self.shared.inner.lock().unwrap();
            transcript::write(&dir, &inner.sent, &inner.requests);
        }
        // Every request the bot made must be one real Discord accepts: a test fails on
        // any other, whatever it asserted (unless it is failing already).
        let violations = std::mem::take(&mut self.shared.inner.lock().unwrap().violations);
        if !violations.is_empty() && !std::thread::panicking() {
            panic!(
                "the bot made {} request(s) Discord's API refuses:\n{}",
                violations.len(),
                violations.join("\n")
            );
        }
    }
}
/// A Discord error answer: `status` with the JSON error `code` and `message`.
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
            .route("/ws", get(gateway::ws_handler))
            .fallback(rest::rest)
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

    /// Why Discord's published API refuses the requests that broke it so far (the fake
    /// answered each with 400 / 50035).
    pub fn violations(&self) -> Vec<String> {
        self.shared.inner.lock().unwrap().violations.clone()
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

    /// Makes `channel` a text channel of `guild` (one no event was seen in yet, or
    /// another server's), as `GET /channels/{id}` answers it.
    pub fn add_channel(&self, channel: &str, guild: &str) {
        let mut inner = self.shared.inner.lock().unwrap();
        inner
            .channels
            .insert(channel.to_string(), guild.to_string());
    }

    /// Makes `thread` a thread of `parent` (one a member made, not the bot), as
    /// `GET /channels/{id}` answers it.
    pub fn add_thread(&self, thread: &str, parent: &str) {
        let mut inner = self.shared.inner.lock().unwrap();
        inner
            .threads
            .insert(thread.to_string(), (parent.to_string(), "talk".to_string()));
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
        let ten = Duration::from_secs(10);
        self.wait_then(what, ten, pred, <[Recorded]>::to_vec).await
    }

    /// [`Fake::wait_for`] up to `timeout`, without copying the requests (their images
    /// with them): what a measurement of many moves under callgrind waits with, so that
    /// the wait costs the same each move however many came before.
    pub async fn wait_until(
        &self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&[Recorded]) -> bool,
    ) {
        self.wait_then(what, timeout, pred, |_| ()).await
    }

    /// Waits until `pred` holds, up to `timeout`, and returns `take` of the requests then.
    async fn wait_then<T>(
        &self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&[Recorded]) -> bool,
        take: impl Fn(&[Recorded]) -> T,
    ) -> T {
        let deadline = Instant::now() + timeout;
        loop {
            let notified = self.shared.changed.notified();
            {
                let inner = self.shared.inner.lock().unwrap();
                if pred(&inner.requests) {
                    return take(&inner.requests);
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                let reqs = self.requests();
                let lines: Vec<String> = reqs
                    .iter()
                    .map(|r| format!("{} {} {} {}", r.status, r.method, r.path, r.json))
                    .collect();
                let refused = self.violations();
                panic!(
                    "timed out waiting for {what}; requests:\n{}{}",
                    lines.join("\n"),
                    if refused.is_empty() {
                        String::new()
                    } else {
                        format!("\nrefused by Discord's API:\n{}", refused.join("\n"))
                    }
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
            if self.shared.inner.lock().unwrap().gateway.identifies >= n {
                return;
            }
            assert!(Instant::now() < deadline, "the bot never identified");
            let _ = tokio::time::timeout(Duration::from_millis(200), notified).await;
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
}

/// A fresh snowflake, unique in this fake.
fn next_id(shared: &Shared) -> String {
    shared.ids.fetch_add(1, Ordering::SeqCst).to_string()
}
