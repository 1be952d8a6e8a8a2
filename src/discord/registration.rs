//! Registering the slash commands: only when the set Discord has differs from the set
//! this build declares (compared with what `GET .../commands` returns), so a reconnect
//! or a restart registers nothing; and clearing the other scope, so switching between
//! global and guild registration leaves no second copy of every command behind.

use super::slash;
use crate::variants::Registry;
use serde_json::Value;
use serenity::all::{Command, CreateCommand, GuildId, Http};

/// Whether a value is one Discord leaves out or answers as null (`false`, `[]`, `{}`).
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// Whether what Discord has (`have`) says everything the declaration `want` says: each
/// field of `want` equal in `have` (numbers by value), an empty field of `want` matching
/// a missing or empty one; fields only Discord adds (ids, versions) are ignored.
fn covers(want: &Value, have: &Value) -> bool {
    match (want, have) {
        (Value::Object(w), Value::Object(h)) => w.iter().all(|(k, wv)| match h.get(k) {
            Some(hv) => covers(wv, hv),
            None => is_empty(wv),
        }),
        (Value::Array(w), Value::Array(h)) => {
            w.len() == h.len() && w.iter().zip(h).all(|(a, b)| covers(a, b))
        }
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (w, h) => w == h || (is_empty(w) && is_empty(h)),
    }
}

/// Whether the commands Discord has are exactly the declared ones, by name.
pub fn unchanged(want: &[Value], have: &[Value]) -> bool {
    want.len() == have.len()
        && want.iter().all(|w| {
            have.iter()
                .find(|h| h.get("name") == w.get("name"))
                .is_some_and(|h| covers(w, h))
        })
}

fn values<T: serde::Serialize>(items: &[T]) -> Vec<Value> {
    items
        .iter()
        .filter_map(|c| serde_json::to_value(c).ok())
        .collect()
}

/// Registers `cmds` in one scope (`None`: global) unless Discord has them already.
async fn register_in(http: &Http, guild: Option<GuildId>, cmds: &[CreateCommand]) {
    let have = match guild {
        Some(g) => g.get_commands(http).await,
        None => Command::get_global_commands(http).await,
    };
    if let Ok(have) = &have {
        if unchanged(&values(cmds), &values(have)) {
            tracing::info!(commands = cmds.len(), guild = ?guild.map(|g| g.get()), "slash commands unchanged; not registered again");
            return;
        }
    }
    let set = match guild {
        Some(g) => g.set_commands(http, cmds.to_vec()).await,
        None => Command::set_global_commands(http, cmds.to_vec()).await,
    };
    match set {
        Ok(c) => {
            tracing::info!(commands = c.len(), guild = ?guild.map(|g| g.get()), "slash commands registered")
        }
        Err(e) => tracing::error!(error = %e, "slash commands could not be registered"),
    }
}

/// Empties a scope's commands (`None`: global) if it has any.
async fn clear(http: &Http, guild: Option<GuildId>) {
    let have = match guild {
        Some(g) => g.get_commands(http).await,
        None => Command::get_global_commands(http).await,
    };
    if have.is_ok_and(|h| !h.is_empty()) {
        let r = match guild {
            Some(g) => g.set_commands(http, Vec::new()).await,
            None => Command::set_global_commands(http, Vec::new()).await,
        };
        match r {
            Ok(_) => {
                tracing::info!(guild = ?guild.map(|g| g.get()), "slash commands of the other scope cleared")
            }
            Err(e) => {
                tracing::warn!(error = %e, "the other scope's slash commands could not be cleared")
            }
        }
    }
}

/// Registers the registry's slash commands in the configured guilds, or globally when
/// none are configured, each scope only if its commands changed; then clears the other
/// scope: the global commands in guild mode, and in global mode those of the guilds the
/// bot is in (`joined`, from READY).
pub async fn register(http: &Http, registry: &Registry, guilds: &[u64], joined: &[GuildId]) {
    let cmds = slash::commands(registry);
    if guilds.is_empty() {
        register_in(http, None, &cmds).await;
        for g in joined {
            clear(http, Some(*g)).await;
        }
    } else {
        for g in guilds {
            register_in(http, Some(GuildId::new(*g)), &cmds).await;
        }
        clear(http, None).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_discord_adds_or_leaves_out_is_no_change_and_a_real_change_is() {
        let want = vec![
            json!({"name": "move", "description": "Play a move", "nsfw": false,
            "options": [{"type": 3, "name": "move", "required": true, "min_length": 1,
                         "choices": [], "description_localizations": {}}]}),
        ];
        let have = vec![json!({"id": "1", "version": "2", "name": "move",
            "description": "Play a move",
            "options": [{"type": 3, "name": "move", "required": true, "min_length": 1.0,
                         "description_localizations": null}]})];
        assert!(unchanged(&want, &have));
        let mut other = have.clone();
        other[0]["description"] = json!("Play");
        assert!(!unchanged(&want, &other));
        let mut fewer = have.clone();
        fewer[0]["options"] = json!([]);
        assert!(!unchanged(&want, &fewer));
        assert!(!unchanged(&want, &[]));
        assert!(!unchanged(&[], &have));
    }
}
