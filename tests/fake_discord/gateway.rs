//! The gateway websocket: HELLO, heartbeats, IDENTIFY (with the refusals the fake can be
//! told to make and the shard it records) and RESUME, as Discord answers them: a session
//! it still knows gets the dispatches after the RESUME's `seq` again, then RESUMED; one it
//! has forgotten gets op 9 (invalid session, not resumable), after which the client must
//! IDENTIFY afresh. A test closes live connections with a close code
//! ([`Fake::close_gateway`]), forgets sessions ([`Fake::expire_sessions`]), keeps the bot
//! away while it types ([`Fake::hold_gateway`]) and reads what happened
//! ([`Fake::gateway_counts`]).

use super::{Fake, Session, Shared, ToConnection, BOT_ID};
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// What happened on the fake's gateway so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GatewayCounts {
    /// IDENTIFYs answered with READY (a new session each).
    pub identifies: usize,
    /// RESUMEs of a known session, answered with its missed events and RESUMED.
    pub resumes: usize,
    /// Events sent on RESUMEs that the session had missed.
    pub missed_sent: usize,
    /// Events sent again on RESUMEs that the session had already received
    /// ([`Fake::resend_on_next_resume`]).
    pub sent_again: usize,
    /// RESUMEs of a session Discord no longer knows, answered with op 9 `d: false`.
    pub invalid_sessions: usize,
    /// Connections the fake closed ([`Fake::close_gateway`]).
    pub closes: usize,
    /// Dispatches no session was there to receive (Discord sends them to nobody).
    pub lost: usize,
}

/// Upgrades `/ws` to a gateway session.
pub(super) async fn ws_handler(
    ws: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
) -> Response {
    ws.on_upgrade(move |socket| connection(socket, shared))
}

/// Closes `socket` with `code` and `reason`.
async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: reason.to_string().into(),
    };
    let _ = socket.send(WsMessage::Close(Some(frame))).await;
}

/// One gateway connection, from HELLO until either side closes it; then its session, if
/// it has one, is disconnected (and keeps its events for a RESUME).
async fn connection(mut socket: WebSocket, shared: Arc<Shared>) {
    let (tx, mut rx) = mpsc::unbounded_channel::<ToConnection>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}}).to_string();
    if socket.send(WsMessage::Text(hello)).await.is_ok() {
        serve(&mut socket, &shared, &tx, &mut rx).await;
    }
    let mut inner = shared.inner.lock().unwrap();
    for s in inner.sessions.iter_mut() {
        if s.tx.as_ref().is_some_and(|t| t.same_channel(&tx)) {
            s.tx = None;
        }
    }
}

/// Answers the frames of one connection until it closes.
async fn serve(
    socket: &mut WebSocket,
    shared: &Arc<Shared>,
    tx: &mpsc::UnboundedSender<ToConnection>,
    rx: &mut mpsc::UnboundedReceiver<ToConnection>,
) {
    loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(ToConnection::Frame(text)) => {
                    if socket.send(WsMessage::Text(text)).await.is_err() {
                        return;
                    }
                }
                Some(ToConnection::Close(code)) => {
                    close(socket, code, "closed by the test").await;
                    return;
                }
                None => return,
            },
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
                if matches!(op, 2 | 6) {
                    wait_while_held(shared).await;
                }
                let reply = match op {
                    1 => Some(json!({"op": 11}).to_string()),
                    2 => match identify(shared, &frame, tx) {
                        Ok(ready) => Some(ready),
                        Err((code, reason)) => {
                            close(socket, code, reason).await;
                            return;
                        }
                    },
                    6 => {
                        resume(shared, &frame, tx);
                        None
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

/// Waits while the test holds the gateway ([`Fake::hold_gateway`]).
async fn wait_while_held(shared: &Shared) {
    loop {
        let notified = shared.changed.notified();
        if !shared.inner.lock().unwrap().hold_gateway {
            return;
        }
        let _ = tokio::time::timeout(Duration::from_millis(200), notified).await;
    }
}

/// Answers an IDENTIFY: READY for a new session of the shard it names, or the close code
/// Discord closes with.
fn identify(
    shared: &Shared,
    frame: &Value,
    tx: &mpsc::UnboundedSender<ToConnection>,
) -> Result<String, (u16, &'static str)> {
    let token = frame["d"]["token"].as_str().unwrap_or_default();
    let mut inner = shared.inner.lock().unwrap();
    if inner.refuse_identify || token != format!("Bot {}", shared.token) && token != shared.token {
        return Err((4004, "Authentication failed."));
    }
    let intents = frame["d"]["intents"].as_u64().unwrap_or(0);
    if inner.refuse_message_content && intents & (1 << 15) != 0 {
        return Err((4014, "Disallowed intent(s)."));
    }
    let s = shared.seq.fetch_add(1, Ordering::SeqCst) + 1;
    let shard = match frame["d"]["shard"].as_array().map(Vec::as_slice) {
        Some([id, total]) => [id.as_u64().unwrap_or(0), total.as_u64().unwrap_or(1)],
        _ => [0, 1],
    };
    let guilds: Vec<Value> = inner
        .guilds
        .iter()
        .map(|g| json!({"id": g, "unavailable": true}))
        .collect();
    let id = format!("session-{s}");
    let ready = json!({"op": 0, "t": "READY", "s": s, "d": {
        "v": 10,
        "user": {"id": BOT_ID, "username": "postal", "bot": true, "discriminator": "0"},
        "guilds": guilds, "session_id": id,
        "resume_gateway_url": format!("ws://127.0.0.1:{}/ws", shared.port),
        "application": {"id": BOT_ID, "flags": 0},
        "shard": shard
    }});
    inner.gateway.identifies += 1;
    inner.identified_shards.push(shard);
    inner.sessions.push(Session {
        id,
        shard,
        tx: Some(tx.clone()),
        log: Vec::new(),
        resumable: true,
    });
    drop(inner);
    shared.changed.notify_waiters();
    Ok(ready.to_string())
}

/// Answers a RESUME on the connection `tx`: for a session Discord still knows, the
/// dispatches logged after the client's `seq` (and, when the test asked for it, some
/// before it again), then RESUMED; for any other, op 9 with `d: false`. Under the fake's
/// lock, so that no dispatch falls between the replay and the connection.
fn resume(shared: &Shared, frame: &Value, tx: &mpsc::UnboundedSender<ToConnection>) {
    let id = frame["d"]["session_id"].as_str().unwrap_or_default();
    let seq = frame["d"]["seq"].as_u64().unwrap_or(0);
    let mut inner = shared.inner.lock().unwrap();
    let again = std::mem::take(&mut inner.resend_on_resume);
    let Some(session) = inner
        .sessions
        .iter_mut()
        .find(|s| s.id == id && s.resumable)
    else {
        inner.gateway.invalid_sessions += 1;
        let _ = tx.send(ToConnection::Frame(
            json!({"op": 9, "d": false}).to_string(),
        ));
        drop(inner);
        shared.changed.notify_waiters();
        return;
    };
    let seen = session.log.iter().filter(|(s, _)| *s <= seq).count();
    let from = seen.saturating_sub(again);
    for (_, f) in &session.log[from..] {
        let _ = tx.send(ToConnection::Frame(f.clone()));
    }
    session.tx = Some(tx.clone());
    let (resent, missed) = (seen - from, session.log.len() - seen);
    inner.gateway.sent_again += resent;
    inner.gateway.missed_sent += missed;
    let s = shared.seq.fetch_add(1, Ordering::SeqCst) + 1;
    let resumed = json!({"op": 0, "t": "RESUMED", "s": s, "d": {}}).to_string();
    let _ = tx.send(ToConnection::Frame(resumed));
    inner.gateway.resumes += 1;
    drop(inner);
    shared.changed.notify_waiters();
}

/// Whether Discord keeps a session it closed with `code` for a RESUME: not after 4009
/// (session timed out) nor the codes after which it asks for no reconnection at all.
fn resumable_after(code: u16) -> bool {
    !matches!(code, 4004 | 4009 | 4010..=4014)
}

impl Fake {
    /// Closes every live gateway connection with close `code`, as Discord does when it
    /// drops a session (4000 unknown error, 1000 a normal close, 4009 session timed
    /// out...). After 4009 (and the codes that forbid reconnecting) Discord forgets the
    /// session: a RESUME of it gets op 9; after the others it may be resumed. Returns
    /// how many connections were closed. Events dispatched from now on wait in their
    /// session for a RESUME.
    pub fn close_gateway(&self, code: u16) -> usize {
        let mut inner = self.shared.inner.lock().unwrap();
        let mut n = 0;
        for s in inner.sessions.iter_mut() {
            let Some(tx) = s.tx.take() else { continue };
            let _ = tx.send(ToConnection::Close(code));
            s.resumable &= resumable_after(code);
            n += 1;
        }
        inner.gateway.closes += n;
        drop(inner);
        self.shared.changed.notify_waiters();
        n
    }

    /// Forgets every session (as Discord does once a disconnected session has waited too
    /// long): a RESUME of one gets op 9 `d: false`.
    pub fn expire_sessions(&self) {
        let mut inner = self.shared.inner.lock().unwrap();
        for s in inner.sessions.iter_mut() {
            s.resumable = false;
        }
    }

    /// From now on an IDENTIFY or RESUME waits for [`Fake::release_gateway`]: a test types
    /// while the bot is away, knowing it is away.
    pub fn hold_gateway(&self) {
        self.shared.inner.lock().unwrap().hold_gateway = true;
    }

    /// Lets held and later IDENTIFYs and RESUMEs through.
    pub fn release_gateway(&self) {
        self.shared.inner.lock().unwrap().hold_gateway = false;
        self.shared.changed.notify_waiters();
    }

    /// The next accepted RESUME sends again, before the events the client missed, the
    /// last `n` events it had already received (Discord promises at-least-once delivery:
    /// an event may come twice).
    pub fn resend_on_next_resume(&self, n: usize) {
        self.shared.inner.lock().unwrap().resend_on_resume = n;
    }

    /// What happened on the gateway so far.
    pub fn gateway_counts(&self) -> GatewayCounts {
        self.shared.inner.lock().unwrap().gateway
    }

    /// Whether some session is connected now.
    pub fn connected(&self) -> bool {
        let inner = self.shared.inner.lock().unwrap();
        inner.sessions.iter().any(|s| s.tx.is_some())
    }

    /// Waits, up to 20 seconds, until `pred` holds for the gateway's counts and some
    /// session is connected; returns the counts then. (20 seconds: after a session is
    /// lost, serenity waits 5 seconds between two IDENTIFYs.)
    pub async fn wait_gateway(
        &self,
        what: &str,
        pred: impl Fn(&GatewayCounts) -> bool,
    ) -> GatewayCounts {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let notified = self.shared.changed.notified();
            let counts = self.gateway_counts();
            if pred(&counts) && self.connected() {
                return counts;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {counts:?}"
            );
            let _ = tokio::time::timeout(Duration::from_millis(200), notified).await;
        }
    }
}
