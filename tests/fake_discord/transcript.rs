//! A readable record of a fake Discord's conversation, for a developer to look at what
//! players would see: with `POSTAL_FAKE_DISCORD_TRANSCRIPTS=DIR` set, each fake writes,
//! when dropped, `DIR/<test name>.txt` (every event a player sent and every request the
//! bot made, in order, with each message's text, embeds, buttons and files) and each
//! uploaded image beside it as `DIR/<test name>-<n>-<file name>`. Unset, nothing is kept.

use super::Recorded;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// The folder transcripts go to, when asked for.
pub(super) fn folder() -> Option<PathBuf> {
    std::env::var_os("POSTAL_FAKE_DISCORD_TRANSCRIPTS").map(PathBuf::from)
}

/// An event the fake dispatched, kept for the transcript.
pub(super) struct Sent {
    /// When.
    pub at: Instant,
    /// The event's type (`MESSAGE_CREATE`, `INTERACTION_CREATE`).
    pub kind: String,
    /// Its data.
    pub data: Value,
}

/// Writes the transcript of `sent` and `requests` into `dir`, named after the running
/// test (libtest names its threads after the tests).
pub(super) fn write(dir: &std::path::Path, sent: &[Sent], requests: &[Recorded]) {
    let name = std::thread::current()
        .name()
        .unwrap_or("fake")
        .replace("::", "-");
    let _ = std::fs::create_dir_all(dir);
    let mut lines: Vec<(Instant, String)> = sent
        .iter()
        .filter_map(|s| event_line(s).map(|l| (s.at, l)))
        .collect();
    let mut image = 0;
    for r in requests {
        let mut line = request_line(r);
        for f in &r.files {
            image += 1;
            let file = format!("{name}-{image}-{}", f.name);
            let _ = std::fs::write(dir.join(&file), &f.bytes);
            let _ = write!(line, "\n      file {file} ({} bytes)", f.bytes.len());
        }
        lines.push((r.at, line));
    }
    lines.sort_by_key(|l| l.0);
    let text: Vec<String> = lines.into_iter().map(|l| l.1).collect();
    let _ = std::fs::write(dir.join(format!("{name}.txt")), text.join("\n") + "\n");
}

/// What a player did, as one line (gateway bookkeeping left out).
fn event_line(s: &Sent) -> Option<String> {
    let d = &s.data;
    let user = |u: &Value| u["username"].as_str().unwrap_or("?").to_string();
    match s.kind.as_str() {
        "MESSAGE_CREATE" => Some(format!(
            "> {} in {}: {}",
            user(&d["author"]),
            d["channel_id"].as_str().unwrap_or("?"),
            d["content"].as_str().unwrap_or("")
        )),
        "INTERACTION_CREATE" => {
            let who = if d["member"]["user"].is_object() {
                user(&d["member"]["user"])
            } else {
                user(&d["user"])
            };
            let what = match d["type"].as_u64() {
                Some(3) => format!(
                    "presses [{}]",
                    d["data"]["custom_id"].as_str().unwrap_or("")
                ),
                Some(4) => format!("autocompletes /{}", command_text(&d["data"])),
                _ => format!("/{}", command_text(&d["data"])),
            };
            Some(format!(
                "> {who} in {}: {what}",
                d["channel_id"].as_str().unwrap_or("?")
            ))
        }
        _ => None,
    }
}

/// A slash command's name and options as one line.
fn command_text(data: &Value) -> String {
    let mut out = data["name"].as_str().unwrap_or("?").to_string();
    let mut options = data["options"].as_array().cloned().unwrap_or_default();
    while let Some(o) = options.first().cloned() {
        if o["type"] == 1 || o["type"] == 2 {
            let _ = write!(out, " {}", o["name"].as_str().unwrap_or(""));
            options = o["options"].as_array().cloned().unwrap_or_default();
            continue;
        }
        break;
    }
    for o in options {
        let _ = write!(out, " {}:{}", o["name"].as_str().unwrap_or(""), o["value"]);
    }
    out
}

/// What the bot did, as a line and the message's parts below it.
fn request_line(r: &Recorded) -> String {
    let mut line = format!("< {} {} ({})", r.method, r.path, r.status);
    let body = match r.json.get("data") {
        Some(d) if r.path.contains("/callback") => d,
        _ => &r.json,
    };
    if let Some(c) = body["content"].as_str() {
        for l in c.lines() {
            let _ = write!(line, "\n    | {l}");
        }
    }
    for e in body["embeds"].as_array().into_iter().flatten() {
        for key in ["title", "description"] {
            if let Some(t) = e[key].as_str() {
                for l in t.lines() {
                    let _ = write!(line, "\n    [{key}] {l}");
                }
            }
        }
        for f in e["fields"].as_array().into_iter().flatten() {
            let _ = write!(
                line,
                "\n    [field {}] {}",
                f["name"].as_str().unwrap_or(""),
                f["value"].as_str().unwrap_or("").replace('\n', " / ")
            );
        }
        if let Some(t) = e["footer"]["text"].as_str() {
            let _ = write!(line, "\n    [footer] {t}");
        }
    }
    for row in body["components"].as_array().into_iter().flatten() {
        let buttons: Vec<String> = row["components"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|b| {
                format!(
                    "[{}{}]",
                    b["label"].as_str().unwrap_or("?"),
                    if b["disabled"] == true { " (off)" } else { "" }
                )
            })
            .collect();
        let _ = write!(line, "\n    buttons {}", buttons.join(" "));
    }
    for c in body["choices"].as_array().into_iter().flatten() {
        let _ = write!(line, "\n    choice {}", c["name"].as_str().unwrap_or(""));
    }
    line
}
