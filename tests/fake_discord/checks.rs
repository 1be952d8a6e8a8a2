//! Discord's validation rules, as the fake enforces them: message content, embeds and
//! attachments, allowed mentions, buttons, autocompletion choices and command
//! registrations.

use super::{err, File, ATTACHMENT_LIMIT, CONTENT_LIMIT};
use serde_json::Value;
use std::collections::HashSet;

/// Checks a message body against Discord's limits: content, embeds, attachment size.
pub(super) fn check_message(body: &Value, files: &[File]) -> Result<(), (u16, Value)> {
    let content = body.get("content").and_then(Value::as_str).unwrap_or("");
    if content.chars().count() > CONTENT_LIMIT {
        return Err(err(
            400,
            50035,
            "Invalid Form Body: content: Must be 2000 or fewer in length.",
        ));
    }
    if let Some(embeds) = body.get("embeds").and_then(Value::as_array) {
        check_embeds(embeds)?;
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

/// Checks a message's embeds against Discord's limits: at most 10; in each, a title of at
/// most 256 characters, a description of at most 4096, at most 25 fields each with a name
/// of 1 to 256 characters and a value of 1 to 1024, a footer of at most 2048 and an
/// author's name of at most 256; and at most 6000 characters in all the message's
/// embeds' titles, descriptions, field names and values, footers and authors' names.
pub fn check_embeds(embeds: &[Value]) -> Result<(), (u16, Value)> {
    let bad = |what: &str| {
        Err(err(
            400,
            50035,
            &format!("Invalid Form Body: embeds: {what}"),
        ))
    };
    if embeds.len() > 10 {
        return bad("at most 10");
    }
    let len = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .map_or(0, |s| s.chars().count())
    };
    let mut total = 0;
    for e in embeds {
        let (t, d) = (len(e, "title"), len(e, "description"));
        let footer = e.get("footer").map_or(0, |f| len(f, "text"));
        let author = e.get("author").map_or(0, |a| len(a, "name"));
        if t > 256 || d > 4096 || footer > 2048 || author > 256 {
            return bad("title, description, footer or author too long");
        }
        if e.get("footer").is_some() && footer == 0 {
            return bad("a footer needs its text");
        }
        let fields = e
            .get("fields")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        if fields.len() > 25 {
            return bad("at most 25 fields");
        }
        for f in fields {
            let (n, v) = (len(f, "name"), len(f, "value"));
            if !(1..=256).contains(&n) || !(1..=1024).contains(&v) {
                return bad("a field's name is 1 to 256 characters, its value 1 to 1024");
            }
            total += n + v;
        }
        total += t + d + footer + author;
    }
    if total > 6000 {
        return bad("6000 characters in all");
    }
    Ok(())
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
pub(super) fn check_choices(data: &Value) -> Result<(), (u16, Value)> {
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
