//! The REST API: every request is recorded with the fake's answer; authorization, the
//! rate limits (`limits`), [`Fake::fail_next`](super::Fake::fail_next) overrides and the
//! body size limit come first, then each route answers as Discord does, through the checks of
//! [`super::checks`].

use super::checks::{check_choices, check_commands, check_components, check_embeds, check_message};
use super::events::message;
use super::openapi;
use super::{
    err, next_id, File, Inner, Interaction, Recorded, Shared, ACK_WINDOW, BOT_ID, GUILD_ID,
};
use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Answers and records one REST request (every path but `/ws`).
pub(super) async fn rest(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().clone();
    let full = req.uri().path().to_string();
    let path = full.strip_prefix("/api/v10").unwrap_or(&full).to_string();
    let query = req.uri().query().map(str::to_string);
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
    // Whether the request had a body, for Discord's contract (a multipart body always has).
    let mut has_body = multipart;
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
        has_body = !bytes.is_empty();
        if !bytes.is_empty() {
            json_body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        }
    }
    let mut headers = Vec::new();
    // Checked against Discord's own description of its API before anything else answers.
    let refused = openapi::violation(
        method.as_str(),
        &path,
        query.as_deref(),
        has_body.then_some(&json_body),
    );
    let (status, response) = {
        let mut inner = shared.inner.lock().unwrap();
        let public = path == "/gateway"
            || path.starts_with("/interactions/")
            || path.starts_with("/webhooks/");
        if !public && auth != format!("Bot {}", shared.token) {
            err(401, 0, "401: Unauthorized")
        } else if let Some(why) = refused {
            inner.violations.push(why.clone());
            err(400, 50035, &format!("Invalid Form Body: {why}"))
        } else if let Some((status, body, limit_headers)) =
            inner.limits.check(method.as_str(), &path, Instant::now())
        {
            headers = limit_headers;
            (status, body)
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

/// The message object Discord answers a message the bot sent (or edited) in `channel`.
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
    if let Some(e) = body.get("embeds") {
        m["embeds"] = e.clone();
    }
    if let Some(f) = body.get("flags") {
        m["flags"] = f.clone();
    }
    m
}

/// A channel object: a thread when it has a `parent`.
fn channel_object(id: &str, kind: u8, name: &str, parent: Option<&str>) -> Value {
    let mut c = json!({"id": id, "type": kind, "name": name, "guild_id": GUILD_ID});
    if let Some(p) = parent {
        c["parent_id"] = json!(p);
        c["thread_metadata"] = json!({"archived": false, "auto_archive_duration": 10080,
            "archive_timestamp": "2026-01-01T00:00:00.000000+00:00", "locked": false});
    }
    c
}

/// The status and body Discord answers to `method` on `path` (under `/api/v10`).
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
        // The bot is a user like any other (a slash option naming it resolves to it).
        ("GET", ["users", id]) if *id == BOT_ID => (
            200,
            json!({"id": BOT_ID, "username": "postal", "discriminator": "0", "global_name": null, "bot": true}),
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
                    // Kept as sent (a string of permission bits), null when not sent.
                    c["default_member_permissions"] = c
                        .get("default_member_permissions")
                        .cloned()
                        .unwrap_or(Value::Null);
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
            if let Some(reference) = body.get("message_reference") {
                // A reply names a message of this channel that exists.
                let id = reference["message_id"].as_str().unwrap_or_default();
                let same_channel = reference["channel_id"].as_str().map_or(true, |rc| rc == *c);
                if inner.messages.get(id).map(String::as_str) != Some(*c) || !same_channel {
                    return err(
                        400,
                        50035,
                        "Invalid Form Body: message_reference: Unknown message",
                    );
                }
            }
            let enforced = match (&body["nonce"], body["enforce_nonce"].as_bool()) {
                (Value::String(n), Some(true)) => Some((c.to_string(), n.clone())),
                _ => None,
            };
            if let Some(made) = enforced.as_ref().and_then(|k| inner.nonces.get(k)) {
                return (200, made.clone());
            }
            let m = message_response(shared, c, body, files);
            if let Some(id) = m["id"].as_str() {
                inner.messages.insert(id.to_string(), c.to_string());
            }
            if let Some(key) = enforced {
                inner.nonces.insert(key, m.clone());
            }
            (200, m)
        }
        ("GET", ["channels", c]) => {
            if let Some((parent, name)) = inner.threads.get(*c) {
                (200, channel_object(c, 11, name, Some(parent)))
            } else if let Some(guild) = inner.channels.get(*c) {
                (
                    200,
                    json!({"id": c, "type": 0, "name": "games", "guild_id": guild}),
                )
            } else if inner.dm_channels.contains_key(*c) {
                (200, json!({"id": c, "type": 1, "recipients": []}))
            } else {
                err(404, 10003, "Unknown Channel")
            }
        }
        ("PATCH", ["channels", c]) => {
            // What the bot may change of a thread: its name and whether it is archived.
            // As Discord, an archived thread takes no change but being opened again
            // (400 / 50083), which may rename it in the same request.
            let Some((parent, name)) = inner.threads.get(*c).cloned() else {
                return err(404, 10003, "Unknown Channel");
            };
            let fields: Vec<&String> = body
                .as_object()
                .map(|o| o.keys().collect())
                .unwrap_or_default();
            if fields.is_empty() || fields.iter().any(|f| *f != "archived" && *f != "name") {
                return err(
                    400,
                    50035,
                    "Invalid Form Body: the fake changes a thread's name and archiving only",
                );
            }
            let archived = body.get("archived").and_then(Value::as_bool);
            if inner.archived.contains(*c) && archived != Some(false) {
                return err(400, 50083, "Thread is archived");
            }
            let name = match body.get("name") {
                None => name,
                Some(n) => match n.as_str() {
                    Some(n) if (1..=100).contains(&n.chars().count()) => n.to_string(),
                    _ => {
                        return err(
                            400,
                            50035,
                            "Invalid Form Body: name: must be between 1 and 100 in length",
                        )
                    }
                },
            };
            inner
                .threads
                .insert(c.to_string(), (parent.clone(), name.clone()));
            match archived {
                Some(true) => inner.archived.insert(c.to_string()),
                Some(false) => inner.archived.remove(*c),
                None => false,
            };
            (200, channel_object(c, 11, &name, Some(&parent)))
        }
        ("PATCH", ["channels", c, "messages", id]) => {
            if inner.messages.get(*id).map(String::as_str) != Some(*c) {
                return err(404, 10008, "Unknown Message");
            }
            // An edit changes only what it names: one that leaves the content, embeds and
            // attachments as they were (its buttons taken off) cannot empty the message.
            let keeps_body = files.is_empty()
                && ["content", "embeds", "attachments"]
                    .iter()
                    .all(|k| body.get(k).is_none());
            let checked = match keeps_body {
                true => check_components(body),
                false => check_message(body, files),
            };
            if let Err(e) = checked {
                return e;
            }
            let mut m = message_response(shared, c, body, files);
            m["id"] = json!(id);
            (200, m)
        }
        ("POST", ["channels", c, "typing"]) => {
            let _ = c;
            (204, Value::Null)
        }
        ("POST", ["channels", c, "messages", _, "threads"])
        | ("POST", ["channels", c, "threads"]) => {
            if inner.threads.contains_key(*c) {
                // Discord opens no thread inside a thread.
                return err(400, 50024, "Cannot execute action on this channel type");
            }
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
                // An update (7) is checked for its embeds and buttons, whatever it leaves.
                let embeds = data.get("embeds").and_then(Value::as_array);
                if let Err(e) = check_embeds(embeds.map_or(&[][..], Vec::as_slice)) {
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
            let channel = i.channel.clone();
            if body["type"].as_u64() == Some(4) {
                // The response is a message of its channel, which the bot may edit later.
                let m = message_response(shared, &channel, &body["data"], files);
                if let Some(mid) = m["id"].as_str() {
                    inner.messages.insert(mid.to_string(), channel.clone());
                }
                if let Some(i) = inner.interactions.get_mut(*id) {
                    i.response = Some(m);
                }
            }
            // An answer with a message (4) or its deferral (5) in an archived thread
            // reopens it: the user acted there.
            if matches!(body["type"].as_u64(), Some(4 | 5)) {
                inner.archived.remove(&channel);
            }
            (204, Value::Null)
        }
        ("GET", ["webhooks", _, token, "messages", "@original"]) => {
            match inner.interactions.values().find(|i| i.token == *token) {
                Some(Interaction {
                    response: Some(m), ..
                }) => (200, m.clone()),
                Some(_) => err(404, 10008, "Unknown Message"),
                None => err(401, 50027, "Invalid Webhook Token"),
            }
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
            let m = message_response(shared, &channel, body, files);
            if let Some(id) = m["id"].as_str() {
                inner.messages.insert(id.to_string(), channel);
            }
            (200, m)
        }
        _ => err(404, 0, &format!("fake: no route {m} {path}")),
    }
}
