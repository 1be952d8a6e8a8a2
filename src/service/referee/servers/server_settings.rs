//! A server's own settings (`server ...`): shown to anyone on the server, changed by its
//! members with Manage Server (as the adapter read it from the platform, never from the
//! text), stored per server, and applied: the prefix and typed commands by the adapter
//! ([`Service::typed_commands`]), where games may start and a challenge's defaults by the
//! referee ([`Service::server_rules`]), moderators by the `moderation` part
//! ([`Service::is_moderator`]).

use super::marks::user_mark;
use super::messages::{Fail, Incoming, Member, Place, Reply};
use super::parts::Servers;
use super::text::day_count;
use super::{Card, Facts};
use crate::service::command::Challenge;
use crate::service::places::ChannelPlace;
use crate::service::server_settings::{
    read_prefix, Channels, ServerChange, ServerSettings, OPTIONS_MAX,
};
use crate::store::StoreError;
use crate::variants::api::{RefusalKind, VariantSpec};

/// How an adapter reads typed messages on a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedCommands {
    /// The server's prefix; `None`: the operator's.
    pub prefix: Option<String>,
    /// Whether typed commands are read at all.
    pub read: bool,
    /// What to say once in the server (the adapter posts it where the message that read
    /// these was typed): that its stored prefix is refused now, as it could begin a move
    /// or a word, so the operator's is used ([`Service::typed_commands`]).
    pub notice: Option<String>,
}

impl TypedCommands {
    /// The operator's prefix, typed commands read, nothing to say: a private message's
    /// way, and the way where the server's settings cannot be read.
    pub fn defaults() -> TypedCommands {
        TypedCommands {
            prefix: None,
            read: true,
            notice: None,
        }
    }
}

/// The server `inc` was given on, for a command that needs one.
fn server_of(inc: &Incoming) -> Result<&str, Fail> {
    match (&inc.place, inc.server.as_deref()) {
        (Place::Channel(_), Some(s)) => Ok(s),
        _ => Err(Fail::of(
            RefusalKind::NotHere,
            "server settings and moderator tools belong to a server: use them in one of its channels",
        )),
    }
}

impl Servers<'_> {
    /// What [`Service::server_settings`](super::Service::server_settings) does.
    pub(crate) async fn server_settings(&self, server: &str) -> Result<ServerSettings, StoreError> {
        Ok(self
            .store
            .server_settings(server)
            .await?
            .map_or_else(ServerSettings::defaults, |s| {
                ServerSettings::from_stored(&s)
            }))
    }

    /// What [`Service::typed_commands`](super::Service::typed_commands) does.
    pub(crate) async fn typed_commands(&self, server: &str) -> Result<TypedCommands, StoreError> {
        let stored = self.store.server_settings(server).await?;
        let s = stored
            .as_ref()
            .map_or_else(ServerSettings::defaults, ServerSettings::from_stored);
        let notice = match &stored {
            Some(row) if !row.prefix.is_empty() && s.prefix.is_none() => {
                self.retire_prefix(server, &row.prefix, &s).await?
            }
            _ => None,
        };
        Ok(TypedCommands {
            prefix: s.prefix,
            read: s.text_commands,
            notice,
        })
    }

    /// Stores `s`, the settings of `server` read with its stored prefix `old` refused,
    /// with the operator's prefix instead (over the version read): the notice to say it,
    /// or `None` when another write came first (which replaced the prefix, or whose
    /// reader says it).
    async fn retire_prefix(
        &self,
        server: &str,
        old: &str,
        s: &ServerSettings,
    ) -> Result<Option<String>, StoreError> {
        let at = crate::store::unix_now();
        if !self
            .store
            .set_server_settings(server, &s.to_stored(), at)
            .await?
        {
            return Ok(None);
        }
        let why = read_prefix(old).err().unwrap_or_default();
        Ok(Some(format!(
            "this server's prefix is refused now ({why}); typed commands use the default prefix until a member with Manage Server chooses another with /postal-admin server prefix:"
        )))
    }

    /// Whether `member` moderates the server `inc` was given on: Manage Server, or the
    /// role its settings name.
    pub(crate) async fn is_moderator(&self, inc: &Incoming, member: &Member) -> Result<bool, Fail> {
        if member.manager {
            return Ok(true);
        }
        let server = server_of(inc)?;
        let role = self.server_settings(server).await?.moderator_role;
        Ok(role.is_some_and(|r| member.roles.contains(&r)))
    }

    /// `server ...`: the settings shown, or changed by a member with Manage Server.
    pub(crate) async fn server_command(
        &self,
        inc: &Incoming,
        member: &Member,
        change: ServerChange,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let server = server_of(inc)?;
        if change.is_show() {
            let s = self.server_settings(server).await?;
            let (text, facts) = self.describe_server(&s, String::new());
            r.say(text);
            r.card(Card::Facts(facts));
            return Ok(());
        }
        if !member.manager {
            return Err(Fail::of(
                RefusalKind::NotAllowed,
                "only members with the Manage Server permission change this server's settings (with the slash command /postal-admin server); nothing was changed",
            ));
        }
        let change = ServerChange {
            options: match &change.options {
                Some(given) => Some(self.checked_options(given)?),
                None => None,
            },
            ..change
        };
        let here = match &inc.place {
            Place::Channel(c) => Some(c.as_str()),
            _ => None,
        };
        // The channels named, checked with the platform, and `here` in a thread its
        // channel: before the lock, as they depend on no stored setting.
        let change = ServerChange {
            channels: match &change.channels {
                Some(asked) => Some(self.checked_channels(server, asked, here).await?),
                None => None,
            },
            ..change
        };
        // Read, changed and written under the server's own lock (a key no game has), and
        // written only over the version read, so that two changes at once, in this process
        // or another, each keep the other's: a write that lost the race reads again.
        let lock = self.lock_for(server_lock_key(server));
        let _guard = lock.lock().await;
        let mut attempts = 0;
        let s = loop {
            let mut s = self.server_settings(server).await?;
            change.apply(&mut s, here);
            if self
                .store
                .set_server_settings(server, &s.to_stored(), inc.at)
                .await?
            {
                s.version += 1;
                break s;
            }
            attempts += 1;
            if attempts == SETTINGS_WRITE_ATTEMPTS {
                return Err(Fail::of(
                    RefusalKind::Conflict,
                    "this server's settings were being changed at the same moment; nothing was changed, try again",
                ));
            }
        };
        let intro = format!("{} changed this server's settings.", user_mark(&inc.user));
        let (text, facts) = self.describe_server(&s, intro);
        r.say(text);
        r.card(Card::Facts(facts));
        Ok(())
    }

    /// Default options as typed, checked: each one some variant takes, its value valid
    /// for every variant that takes it (so that no challenge is refused for a default),
    /// in canonical form.
    fn checked_options(&self, given: &[(String, String)]) -> Result<Vec<(String, String)>, Fail> {
        let mut out: Vec<(String, String)> = Vec::new();
        for (name, value) in given {
            let specs: Vec<_> = self
                .registry
                .all()
                .flat_map(|v| v.options().iter())
                .filter(|o| o.name == name.as_str())
                .collect();
            if specs.is_empty() {
                return Err(Fail::of(
                    RefusalKind::Syntax,
                    format!(
                        "no variant takes an option `{}`: rules VARIANT lists a variant's options; nothing was changed",
                        name.chars().take(20).collect::<String>()
                    ),
                ));
            }
            let mut canonical = String::new();
            for o in specs {
                canonical = o.read(value)?;
            }
            out.retain(|(n, _)| n != name);
            out.push((name.clone(), canonical));
        }
        out.truncate(OPTIONS_MAX);
        Ok(out)
    }

    /// The settings in words, and as named values ([`Facts`], `intro` before them).
    fn describe_server(&self, s: &ServerSettings, intro: String) -> (String, Facts) {
        let (text, typed) = typed_words(s, &self.default_prefix);
        let (channels, start) = channel_words(s);
        let (days, per_move) = day_words(s.days, self.settings.default_days);
        let (options, defaults) = option_words(s);
        let who = match &s.moderator_role {
            Some(role) => format!("members with Manage Server and <@&{role}>"),
            None => "members with Manage Server".to_string(),
        };
        let moderators = format!("moderators: {who}");
        let facts = Facts {
            title: "Server settings".to_string(),
            intro: intro.clone(),
            facts: [
                ("Typed commands", typed),
                ("Games start in", start),
                (
                    "Days per move",
                    format!("{per_move}, unless a challenge says"),
                ),
                ("Default variant options", defaults),
                ("Moderators", who),
            ]
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect(),
            note: String::new(),
        };
        let text = format!("Server settings: {text}; {channels}; {days}; {options}; {moderators}");
        let text = match intro.is_empty() {
            true => text,
            false => format!("{intro} {text}"),
        };
        (text, facts)
    }

    /// Challenge `c` of `spec` as the server's settings make it, where it is given on a
    /// server: refused in a channel where games may not start (a game's own thread, for
    /// a rematch, always may), and given the server's days and options where it names
    /// none.
    pub(crate) async fn server_rules(
        &self,
        inc: &Incoming,
        mut c: Challenge,
        spec: &dyn VariantSpec,
    ) -> Result<Challenge, Fail> {
        if !matches!((&inc.place, &inc.server), (Place::Channel(_), Some(_))) {
            return Ok(c);
        }
        let s = self.games_may_start_here(inc).await?;
        if c.days.is_none() {
            c.days = s.days;
        }
        for (name, value) in &s.options {
            let given = c.options.iter().any(|(n, _)| n == name);
            if !given && spec.options().iter().any(|o| o.name == name) {
                c.options.push((name.clone(), value.clone()));
            }
        }
        Ok(c)
    }
}

impl Servers<'_> {
    /// Refuses a challenge, tournament or competition given where its server does not let
    /// games start (its `channels:`; a game's own thread always may); the server's
    /// settings otherwise (the defaults outside a server).
    pub(crate) async fn games_may_start_here(
        &self,
        inc: &Incoming,
    ) -> Result<ServerSettings, Fail> {
        let (Place::Channel(channel), Some(server)) = (&inc.place, inc.server.as_deref()) else {
            return Ok(ServerSettings::defaults());
        };
        let s = self.server_settings(server).await?;
        if !s.allows_games_in(channel) && !self.store.is_game_thread(channel).await? {
            let list: Vec<String> = s.channels.iter().map(|c| format!("<#{c}>")).collect();
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!(
                    "games start only in {} on this server; nothing was done",
                    list.join(", ")
                ),
            ));
        }
        Ok(s)
    }

    /// The channels a change names, as stored: `here` (the channel the command was given
    /// in) is its channel when it is a thread (a game's, or any the platform knows); each
    /// channel named must be one of `server`'s own, not a thread, as the platform says
    /// ([`Service::with_places`]): otherwise refused with the reason, nothing changed.
    async fn checked_channels(
        &self,
        server: &str,
        asked: &Channels,
        here: Option<&str>,
    ) -> Result<Channels, Fail> {
        match asked {
            Channels::Any => Ok(Channels::Any),
            Channels::Here => {
                let Some(here) = here else {
                    return Ok(Channels::Here);
                };
                let mut channel = self.store.thread_parent(here).await?;
                if let Some(places) = &self.places {
                    if let Ok(Some(ChannelPlace { parent: Some(p) })) =
                        places.channel(server, &channel).await
                    {
                        channel = p;
                    }
                }
                Ok(Channels::These(vec![channel]))
            }
            Channels::These(ids) => {
                let Some(places) = &self.places else {
                    return Ok(asked.clone());
                };
                for id in ids {
                    let refuse = |why: String| {
                        Fail::of(RefusalKind::NotHere, format!("{why}; nothing was changed"))
                    };
                    match places.channel(server, id).await {
                        Ok(Some(ChannelPlace { parent: None })) => {}
                        Ok(Some(ChannelPlace { parent: Some(p) })) => {
                            return Err(refuse(format!(
                                "<#{id}> is a thread: games start in channels (its channel is <#{p}>)"
                            )))
                        }
                        Ok(None) => {
                            return Err(refuse(format!(
                                "`{id}` is not a channel of this server: name this server's channels"
                            )))
                        }
                        Err(why) => {
                            return Err(Fail::of(
                                RefusalKind::Conflict,
                                format!(
                                    "the channel `{id}` could not be checked ({}); nothing was changed, try again",
                                    why.chars().take(80).collect::<String>()
                                ),
                            ))
                        }
                    }
                }
                Ok(asked.clone())
            }
        }
    }
}

/// How many times a change of a server's settings is tried when other processes keep
/// writing them between its read and its write.
const SETTINGS_WRITE_ATTEMPTS: usize = 8;

/// The key of `server`'s settings among the games' locks: a negative number, which no
/// game's id is (a Discord id is below 2^63; any other key is hashed).
fn server_lock_key(server: &str) -> i64 {
    let n = server.parse::<i64>().unwrap_or_else(|_| {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        server.hash(&mut h);
        (h.finish() >> 1) as i64
    });
    -n.max(1)
}

/// Whether typed commands are read, and their prefix: as a sentence's part and as a
/// fact's value.
fn typed_words(s: &ServerSettings, default_prefix: &str) -> (String, String) {
    let prefix = match &s.prefix {
        Some(p) => format!("`{p}`"),
        None => format!("`{default_prefix}`, the default"),
    };
    if s.text_commands {
        (
            format!("typed commands are read (prefix {prefix})"),
            format!("read, prefix {prefix}"),
        )
    } else {
        (
            format!("typed commands are not read, only slash commands (prefix, when on: {prefix})"),
            format!("not read, only slash commands (prefix, when on: {prefix})"),
        )
    }
}

/// Where games may start: as a sentence's part and as a fact's value.
fn channel_words(s: &ServerSettings) -> (String, String) {
    let list: Vec<String> = s.channels.iter().map(|c| format!("<#{c}>")).collect();
    match list.is_empty() {
        true => (
            "games may start in any channel".to_string(),
            "any channel".to_string(),
        ),
        false => (
            format!("games may start only in {}", list.join(", ")),
            list.join(", "),
        ),
    }
}

/// The days per move, the server's `days` or else the bot's `default_days`: as a
/// sentence's part and as a fact's value.
fn day_words(days: Option<u32>, default_days: u32) -> (String, String) {
    match days {
        Some(d) => (
            format!("{d} days per move unless a challenge says"),
            day_count(d),
        ),
        None => (
            format!("{default_days} days per move (the default) unless a challenge says"),
            format!("{} (the default)", day_count(default_days)),
        ),
    }
}

/// The default variant options: as a sentence's part and as a fact's value.
fn option_words(s: &ServerSettings) -> (String, String) {
    let list: Vec<String> = s.options.iter().map(|(k, v)| format!("{k}:{v}")).collect();
    match list.is_empty() {
        true => ("no default variant options".to_string(), "none".to_string()),
        false => (
            format!(
                "default variant options {} (where the variant takes them)",
                list.join(" ")
            ),
            format!("`{}` (where the variant takes them)", list.join(" ")),
        ),
    }
}
