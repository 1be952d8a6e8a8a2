//! A server's own settings (`server ...`, Discord's `/postal-admin server`): the prefix of typed
//! commands, whether typed commands are read at all, the channels where games may start,
//! the default days per move and variant options of its challenges, and the role whose
//! members are its moderators. What they mean, how they are written and the bounds every
//! value is checked against; the referee's part `server_settings` stores and applies them.

use crate::store::StoredServerSettings;

/// The longest prefix, in characters.
pub const PREFIX_MAX: usize = 5;

/// The most channels a server may name as the places where games start.
pub const CHANNELS_MAX: usize = 20;

/// The most default options a server keeps.
pub const OPTIONS_MAX: usize = 8;

/// Characters a prefix may not hold: those that begin Discord's mentions, code and
/// slash commands, and the `:` that separates a setting from its value.
const PREFIX_REFUSED: &[char] = &['<', '>', '@', '#', '`', '/', '\\', ':', '*', '_', '~', '|'];

/// A server's settings, as the referee uses them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerSettings {
    /// The prefix of typed commands; `None`: the operator's.
    pub prefix: Option<String>,
    /// Whether typed commands are read (slash commands always are).
    pub text_commands: bool,
    /// The channels where games may start, by id; empty: anywhere.
    pub channels: Vec<String>,
    /// The days per move of a challenge that gives none; `None`: the operator's.
    pub days: Option<u32>,
    /// The variant options of a challenge that does not give them, where its variant
    /// takes them: `(name, value)`, each checked against every variant declaring it.
    pub options: Vec<(String, String)>,
    /// The role whose members are the server's moderators, beside those with Manage
    /// Server.
    pub moderator_role: Option<String>,
    /// The version of the stored row these were read from (0: none); a change is written
    /// only over that version.
    pub version: i64,
}

impl ServerSettings {
    /// The settings of a server that never changed any.
    pub fn defaults() -> ServerSettings {
        ServerSettings {
            text_commands: true,
            ..ServerSettings::default()
        }
    }

    /// The settings a stored row holds (a value the store holds but that does not read,
    /// which only an edit by hand could leave, is taken as its default).
    pub fn from_stored(s: &StoredServerSettings) -> ServerSettings {
        let options: std::collections::BTreeMap<String, String> =
            serde_json::from_str(&s.options).unwrap_or_default();
        ServerSettings {
            prefix: Some(s.prefix.clone()).filter(|p| read_prefix(p).is_ok()),
            text_commands: s.text_commands,
            channels: s
                .channels
                .split(',')
                .filter(|c| is_id(c))
                .map(str::to_string)
                .collect(),
            days: s
                .days
                .and_then(|d| u32::try_from(d).ok())
                .filter(|d| (1..=60).contains(d)),
            options: options.into_iter().collect(),
            moderator_role: s.moderator_role.clone().filter(|r| is_id(r)),
            version: s.version,
        }
    }

    /// The row that keeps these settings.
    pub fn to_stored(&self) -> StoredServerSettings {
        let options: std::collections::BTreeMap<&str, &str> = self
            .options
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        StoredServerSettings {
            prefix: self.prefix.clone().unwrap_or_default(),
            text_commands: self.text_commands,
            channels: self.channels.join(","),
            days: self.days.map(i64::from),
            // A map of strings is always written.
            options: serde_json::to_string(&options).unwrap_or_else(|_| "{}".into()),
            moderator_role: self.moderator_role.clone(),
            version: self.version,
        }
    }

    /// Whether a game may start in `channel` (anywhere, when the server names none).
    pub fn allows_games_in(&self, channel: &str) -> bool {
        self.channels.is_empty() || self.channels.iter().any(|c| c == channel)
    }
}

/// Which channels a change names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Channels {
    /// Games may start anywhere.
    Any,
    /// Only where the command is given.
    Here,
    /// These channels, by id.
    These(Vec<String>),
}

/// What `server ...` asks: each setting named, changed; none: the settings shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerChange {
    /// `prefix:P` (`Some(None)`: `prefix:default`, the operator's).
    pub prefix: Option<Option<String>>,
    /// `text:on|off`.
    pub text_commands: Option<bool>,
    /// `channels:any|here|<#ID>,<#ID>`.
    pub channels: Option<Channels>,
    /// `days:N|default`.
    pub days: Option<Option<u32>>,
    /// `options:NAME=VALUE,...|none`, as typed (checked against the variants by the
    /// referee).
    pub options: Option<Vec<(String, String)>>,
    /// `moderators:<@&ROLE>|none`.
    pub moderator_role: Option<Option<String>>,
}

impl ServerChange {
    /// The settings `s` with this change made; `here`, the channel it was asked in, for
    /// `channels:here` (in a DM, where there is none, the channels are left as they were).
    pub fn apply(&self, s: &mut ServerSettings, here: Option<&str>) {
        if let Some(p) = &self.prefix {
            s.prefix.clone_from(p);
        }
        if let Some(t) = self.text_commands {
            s.text_commands = t;
        }
        match &self.channels {
            Some(Channels::Any) => s.channels.clear(),
            Some(Channels::Here) => {
                if let Some(c) = here {
                    s.channels = vec![c.to_string()];
                }
            }
            Some(Channels::These(ids)) => {
                let mut ids = ids.clone();
                ids.dedup();
                s.channels = ids;
            }
            None => {}
        }
        if let Some(d) = self.days {
            s.days = d;
        }
        if let Some(o) = &self.options {
            s.options.clone_from(o);
        }
        if let Some(role) = &self.moderator_role {
            s.moderator_role.clone_from(role);
        }
    }

    /// Whether it changes nothing (and so asks to see the settings).
    pub fn is_show(&self) -> bool {
        *self == ServerChange::default()
    }
}

/// Whether `s` is a Discord id: 17 to 20 digits.
fn is_id(s: &str) -> bool {
    (17..=20).contains(&s.len()) && s.chars().all(|c| c.is_ascii_digit())
}

/// `text`, cut to 20 characters, for a refusal that names what was typed.
fn cut(text: &str) -> String {
    text.chars().take(20).collect()
}

/// Characters of move notation a prefix may not hold, beside letters and digits (and the
/// `@`, `#` and `*` refused already): a prefix of them could begin, or be part of, a move
/// typed bare in a game's thread (`-` of `0-0` or `e2-e4`, `+`, `=` of a promotion).
const PREFIX_NOTATION: &[char] = &['-', '+', '='];

/// A prefix as typed, checked: 1 to [`PREFIX_MAX`] characters of punctuation, none of
/// those that begin Discord's mentions, code or slash commands, nor of move notation.
/// A letter or a digit is refused, as it could begin a move or a word: with prefix `N`,
/// the move `Nf3` typed in a thread would read as the command `f3`; with `e`, `e4` would
/// be no move at all.
pub fn read_prefix(p: &str) -> Result<String, String> {
    let n = p.chars().count();
    if n == 0 || n > PREFIX_MAX {
        return Err(format!(
            "a prefix is 1 to {PREFIX_MAX} characters, e.g. prefix:? or prefix:$"
        ));
    }
    if p.chars().any(|c| c.is_ascii_alphanumeric()) {
        return Err(
            "a prefix is punctuation: a letter or a digit could begin a move or a word (with prefix N, the move Nf3 would read as f3), e.g. prefix:? or prefix:$"
                .into(),
        );
    }
    if p.chars().any(|c| {
        !c.is_ascii_punctuation() || PREFIX_REFUSED.contains(&c) || PREFIX_NOTATION.contains(&c)
    }) {
        return Err(format!(
            "a prefix is punctuation other than {}{} (mentions, code, slash commands and move notation), e.g. prefix:? or prefix:$",
            PREFIX_REFUSED.iter().collect::<String>(),
            PREFIX_NOTATION.iter().collect::<String>()
        ));
    }
    Ok(p.to_string())
}

/// A channel as typed: a mention (`<#ID>`) or its id.
fn read_channel(w: &str) -> Result<String, String> {
    let id = w
        .strip_prefix("<#")
        .and_then(|w| w.strip_suffix('>'))
        .unwrap_or(w);
    if is_id(id) {
        Ok(id.to_string())
    } else {
        Err(format!(
            "`{}` is not a channel: name channels as #channel (or their ids), separated by commas, or say channels:any or channels:here",
            cut(w)
        ))
    }
}

/// A role as typed: a mention (`<@&ID>`) or its id.
fn read_role(w: &str) -> Result<String, String> {
    let id = w
        .strip_prefix("<@&")
        .and_then(|w| w.strip_suffix('>'))
        .unwrap_or(w);
    if is_id(id) {
        Ok(id.to_string())
    } else {
        Err(format!(
            "`{}` is not a role: name the moderators' role as @role (or its id), or say moderators:none",
            cut(w)
        ))
    }
}

/// Reads the words of `server` after its name: `show`, nothing, or settings written
/// `name:value`.
pub fn read_change(words: &[&str]) -> Result<ServerChange, String> {
    let mut c = ServerChange::default();
    if matches!(words, [w] if w.eq_ignore_ascii_case("show")) {
        return Ok(c);
    }
    let mut seen: Vec<String> = Vec::new();
    for w in words {
        let Some((name, value)) = w.split_once(':') else {
            return Err(format!(
                "`{}` is not a setting: write each as name:value (prefix, text, channels, days, options, moderators)",
                cut(w)
            ));
        };
        let name = match name.to_lowercase().as_str() {
            "moderator" => "moderators".to_string(),
            other => other.to_string(),
        };
        // Two values for one setting (`channels:any` beside channels picked): neither
        // is guessed at.
        if seen.contains(&name) {
            return Err(format!(
                "`{}` is given twice: give each setting once",
                cut(&name)
            ));
        }
        seen.push(name.clone());
        read_setting(&mut c, &name, value)?;
    }
    Ok(c)
}

/// Reads the setting `name` (lower case) given `value` into `c`.
fn read_setting(c: &mut ServerChange, name: &str, value: &str) -> Result<(), String> {
    let lower = value.to_lowercase();
    match name {
        "prefix" => {
            c.prefix = Some(match lower.as_str() {
                "default" => None,
                _ => Some(read_prefix(value)?),
            })
        }
        "text" => {
            c.text_commands = Some(match lower.as_str() {
                "on" | "yes" => true,
                "off" | "no" => false,
                _ => return Err("text: is on or off (whether typed commands are read)".into()),
            })
        }
        "channels" => {
            c.channels = Some(match lower.as_str() {
                "any" | "anywhere" | "all" => Channels::Any,
                "here" => Channels::Here,
                _ => Channels::These(read_channels(value)?),
            })
        }
        "days" => c.days = Some(read_days(&lower)?),
        "options" => {
            c.options = Some(match lower.as_str() {
                "none" | "default" => Vec::new(),
                _ => read_options_setting(&lower)?,
            })
        }
        "moderators" => {
            c.moderator_role = Some(match lower.as_str() {
                "none" => None,
                _ => Some(read_role(value)?),
            })
        }
        other => {
            return Err(format!(
                "no server setting `{}`: the settings are prefix, text, channels, days, options and moderators",
                cut(other)
            ))
        }
    }
    Ok(())
}

/// The channels of `channels:`, each named once (`<#ID>,ID` is one channel).
fn read_channels(value: &str) -> Result<Vec<String>, String> {
    let mut ids = Vec::new();
    for w in value.split(',').filter(|s| !s.is_empty()) {
        let id = read_channel(w)?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    if ids.is_empty() || ids.len() > CHANNELS_MAX {
        return Err(format!(
            "channels: names 1 to {CHANNELS_MAX} channels, or any, or here"
        ));
    }
    Ok(ids)
}

/// The days per move of `days:` (lower case): 1 to 60, or `default` (`None`).
fn read_days(lower: &str) -> Result<Option<u32>, String> {
    match lower {
        "default" => Ok(None),
        d => match d.parse::<u32>() {
            Ok(n) if (1..=60).contains(&n) => Ok(Some(n)),
            _ => Err("days: takes a whole number of days from 1 to 60, or default".into()),
        },
    }
}

/// The challenge options of `options:` (lower case), `NAME=VALUE` (or `NAME:VALUE`)
/// separated by commas.
fn read_options_setting(lower: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for o in lower.split(',').filter(|s| !s.is_empty()) {
        let Some((n, v)) = o.split_once('=').or_else(|| o.split_once(':')) else {
            return Err(format!(
                "`{}` is not an option: write options:NAME=VALUE,... (e.g. options:timer=3), or options:none",
                cut(o)
            ));
        };
        out.push((cut(n), cut(v)));
    }
    if out.is_empty() || out.len() > OPTIONS_MAX {
        return Err(format!(
            "options: holds 1 to {OPTIONS_MAX} options, or none"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_and_bounded() {
        let c = read_change(&["prefix:?", "text:off", "days:5", "options:timer=3"]).unwrap();
        assert_eq!(c.prefix, Some(Some("?".into())));
        assert_eq!(c.text_commands, Some(false));
        assert_eq!(c.days, Some(Some(5)));
        assert_eq!(c.options, Some(vec![("timer".into(), "3".into())]));
        assert!(read_change(&["show"]).unwrap().is_show());
        assert!(read_change(&[]).unwrap().is_show());
        let id = "123456789012345678";
        // A channel named twice, as a mention and as an id, is one channel.
        let other = "123456789012345679";
        let c = read_change(&[&format!("channels:<#{id}>,{other},{id}")]).unwrap();
        assert_eq!(
            c.channels,
            Some(Channels::These(vec![id.into(), other.into()]))
        );
        let c = read_change(&[&format!("moderators:<@&{id}>")]).unwrap();
        assert_eq!(c.moderator_role, Some(Some(id.into())));
        assert!(read_change(&["channels:any", &format!("channels:<#{id}>")])
            .unwrap_err()
            .contains("given twice"));
        assert!(read_change(&[&format!("moderator:<@&{id}>"), "moderators:none"]).is_err());
        for bad in [
            "prefix:",
            "prefix:toolong",
            "prefix:<@",
            "prefix:a`",
            "prefix:N",
            "prefix:e",
            "prefix:a",
            "prefix:p!",
            "prefix:7",
            "prefix:-",
            "prefix:!=",
            "prefix:é",
            "text:maybe",
            "days:0",
            "days:61",
            "channels:general",
            "moderators:admins",
            "colour:blue",
            "prefix",
        ] {
            assert!(read_change(&[bad]).is_err(), "{bad}");
        }
        // A refusal never repeats more than 20 characters of what was typed.
        let long = format!("channels:{}", "x".repeat(500));
        let e = read_change(&[&long]).unwrap_err();
        assert!(e.len() < 200, "{e}");
    }

    #[test]
    fn a_prefix_is_punctuation_that_begins_no_move() {
        for letter in ["N", "e", "a", "p!", "!x", "1"] {
            let e = read_prefix(letter).unwrap_err();
            assert!(e.contains("could begin a move or a word"), "{letter}: {e}");
        }
        for notation in ["-", "+", "=", "@", "#", "*"] {
            assert!(read_prefix(notation).is_err(), "{notation}");
        }
        for fine in ["!", "?", "$", "!!", ".", "%", "&", ";;", "^"] {
            assert_eq!(read_prefix(fine).as_deref(), Ok(fine));
        }
        // A refused prefix stored before this rule reads as the operator's.
        let stored = StoredServerSettings {
            prefix: "N".into(),
            ..ServerSettings::defaults().to_stored()
        };
        assert_eq!(ServerSettings::from_stored(&stored).prefix, None);
    }

    #[test]
    fn a_stored_row_reads_back() {
        let s = ServerSettings {
            prefix: Some("?".into()),
            text_commands: false,
            channels: vec!["123456789012345678".into()],
            days: Some(7),
            options: vec![("timer".into(), "3".into())],
            moderator_role: Some("223456789012345678".into()),
            version: 3,
        };
        assert_eq!(ServerSettings::from_stored(&s.to_stored()), s);
        let d = ServerSettings::defaults();
        assert_eq!(ServerSettings::from_stored(&d.to_stored()), d);
        assert!(d.allows_games_in("1"));
        assert!(!s.allows_games_in("1"));
    }
}
