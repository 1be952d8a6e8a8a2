//! The gateway websocket: HELLO, heartbeats, IDENTIFY (with the refusals the fake can be
//! told to make and the shard it records) and RESUME; the events of a session go out on
//! its channel.

use super::{Session, Shared, BOT_ID};
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Upgrades `/ws` to a gateway session.
pub(super) async fn ws_handler(
    ws: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
) -> Response {
    ws.on_upgrade(move |socket| session(socket, shared))
}

/// One gateway connection, from HELLO until either side closes it.
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
