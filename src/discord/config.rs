//! The Discord adapter's settings: `config/discord.toml` (or the file named by
//! `POSTAL_DISCORD_CONFIG`), then environment overrides. The referee's settings (the
//! database among them) are the service's [`Settings`](crate::service::settings::Settings).
//! The token is not a setting: it comes from `DISCORD_TOKEN` only.

use super::logging::{LogFormat, LogFormatError};
use super::shards::{Shards, ShardsError};
use serde::Deserialize;
use std::path::Path;

/// Settings of `postal run`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The prefix of text commands.
    pub prefix: String,
    /// The REST base URL; empty for Discord's own.
    pub api_base: String,
    /// Guilds to register slash commands in; empty for global registration.
    pub guilds: Vec<u64>,
    /// Seconds between deadline checks.
    pub tick_seconds: u64,
    /// Milliseconds an interaction may work before its reply is deferred.
    pub defer_after_ms: u64,
    /// The gateway shards this process runs (`0-3/8`, `2/8`, `auto`; default one shard).
    pub shards: Shards,
    /// How log lines are written: text or JSON lines.
    pub log_format: LogFormat,
    /// Whether to ask for the privileged Message Content intent (text commands and bare
    /// moves in threads). When Discord refuses it, the bot runs slash-only anyway;
    /// `false` starts slash-only without asking.
    pub message_content: bool,
    /// Where the operator's HTTP listener serves `/metrics` and `/healthz`
    /// (`127.0.0.1:9100`); empty (the default) serves nothing.
    pub metrics_addr: String,
    /// Days a Discord event's key is kept for the duplicate check (`events`): Discord
    /// redelivers an event only within minutes (a gateway session resumed, an
    /// interaction's 15-minute token), so older keys are pruned; 1 to 365, default 3.
    pub event_key_days: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            prefix: "!".into(),
            api_base: String::new(),
            guilds: Vec::new(),
            tick_seconds: 60,
            defer_after_ms: 1500,
            shards: Shards::default(),
            log_format: LogFormat::Text,
            message_content: true,
            metrics_addr: String::new(),
            event_key_days: 3,
        }
    }
}

/// The default settings file, relative to the working directory.
pub const DEFAULT_FILE: &str = "config/discord.toml";

impl Config {
    /// Reads a settings file.
    pub fn from_toml(text: &str) -> Result<Config, ConfigError> {
        let c: Config = toml::from_str(text).map_err(|e| ConfigError::Toml(Box::new(e)))?;
        c.check()
    }

    fn check(self) -> Result<Config, ConfigError> {
        if self.prefix.is_empty() || self.prefix.chars().count() > 5 {
            return Err(ConfigError::Prefix);
        }
        if self.tick_seconds == 0 {
            return Err(ConfigError::Tick);
        }
        if self.defer_after_ms > 2500 {
            return Err(ConfigError::Defer);
        }
        if !(1..=365).contains(&self.event_key_days) {
            return Err(ConfigError::EventKeyDays(self.event_key_days));
        }
        self.metrics_listener()?;
        Ok(self)
    }

    /// The address of the metrics and health listener, if one is asked for.
    pub fn metrics_listener(&self) -> Result<Option<std::net::SocketAddr>, ConfigError> {
        let addr = self.metrics_addr.trim();
        if addr.is_empty() {
            return Ok(None);
        }
        addr.parse()
            .map(Some)
            .map_err(|_| ConfigError::MetricsAddr(addr.chars().take(60).collect()))
    }

    /// Applies overrides from `var` (an environment lookup).
    pub fn with_env(mut self, var: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        if let Some(v) = var("POSTAL_PREFIX") {
            self.prefix = v;
        }
        if let Some(v) = var("DISCORD_API_BASE") {
            self.api_base = v;
        }
        if let Some(v) = var("POSTAL_GUILDS") {
            self.guilds = v
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().map_err(|_| ConfigError::Guild(s.to_string())))
                .collect::<Result<_, _>>()?;
        }
        let num = |name: &'static str, v: String| -> Result<u64, ConfigError> {
            v.trim()
                .parse()
                .map_err(|_| ConfigError::Number { name, value: v })
        };
        if let Some(v) = var("POSTAL_TICK_SECONDS") {
            self.tick_seconds = num("POSTAL_TICK_SECONDS", v)?;
        }
        if let Some(v) = var("POSTAL_DEFER_AFTER_MS") {
            self.defer_after_ms = num("POSTAL_DEFER_AFTER_MS", v)?;
        }
        if let Some(v) = var("POSTAL_EVENT_KEY_DAYS") {
            let days = num("POSTAL_EVENT_KEY_DAYS", v)?;
            self.event_key_days = u32::try_from(days).unwrap_or(u32::MAX);
        }
        if let Some(v) = var("POSTAL_SHARDS") {
            self.shards = Shards::parse(&v, "POSTAL_SHARDS")?;
        }
        if let Some(v) = var("POSTAL_LOG_FORMAT") {
            self.log_format = LogFormat::parse(&v, "POSTAL_LOG_FORMAT")?;
        }
        if let Some(v) = var("POSTAL_METRICS_ADDR") {
            self.metrics_addr = v;
        }
        if let Some(v) = var("POSTAL_MESSAGE_CONTENT") {
            self.message_content = match v.trim().to_lowercase().as_str() {
                "true" | "on" | "1" | "ask" => true,
                "false" | "off" | "0" | "slash-only" => false,
                _ => {
                    return Err(ConfigError::MessageContent(v.chars().take(20).collect()));
                }
            };
        }
        self.check()
    }

    /// The settings `postal run` uses: the file named by `POSTAL_DISCORD_CONFIG`, else
    /// [`DEFAULT_FILE`] if it exists, else the defaults; then the environment.
    pub fn load() -> Result<Config, ConfigError> {
        let env = |k: &str| std::env::var(k).ok();
        let base = match env("POSTAL_DISCORD_CONFIG") {
            Some(p) => Config::from_file(Path::new(&p))?,
            None if Path::new(DEFAULT_FILE).exists() => Config::from_file(Path::new(DEFAULT_FILE))?,
            None => Config::default(),
        };
        base.with_env(env)
    }

    fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        Config::from_toml(&text).map_err(|error| ConfigError::InFile {
            path: path.to_path_buf(),
            error: Box::new(error),
        })
    }
}

/// Why the bot's settings cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The settings file is not valid TOML of these settings.
    #[error("bad settings: {0}")]
    Toml(Box<toml::de::Error>),
    /// The prefix is empty or too long.
    #[error("prefix must be 1 to 5 characters")]
    Prefix,
    /// The deadline check would never run.
    #[error("tick_seconds must be at least 1")]
    Tick,
    /// Event keys would be kept too briefly or too long.
    #[error("event_key_days is {0}, it must be 1 to 365")]
    EventKeyDays(u32),
    /// Deferral would come after Discord's three seconds.
    #[error("defer_after_ms must be at most 2500 (Discord allows 3 s)")]
    Defer,
    /// An entry of `POSTAL_GUILDS` is not a guild id.
    #[error("POSTAL_GUILDS: '{0}' is not a guild id")]
    Guild(String),
    /// A setting that takes a whole number has something else.
    #[error("{name}: '{value}' is not a whole number")]
    Number {
        /// The setting's name.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// `POSTAL_SHARDS` cannot be used.
    #[error(transparent)]
    Shards(#[from] ShardsError),
    /// `POSTAL_LOG_FORMAT` cannot be used.
    #[error(transparent)]
    LogFormat(#[from] LogFormatError),
    /// `POSTAL_MESSAGE_CONTENT` is neither true nor false (its first 20 characters).
    #[error("POSTAL_MESSAGE_CONTENT: '{0}' is neither true nor false")]
    MessageContent(String),
    /// `metrics_addr` is not an address and port (its first 60 characters).
    #[error("metrics_addr: '{0}' is not an address and port such as 127.0.0.1:9100")]
    MetricsAddr(String),
    /// The settings file cannot be read.
    #[error("cannot read {}: {error}", .path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The settings file holds a bad setting.
    #[error("{}: {error}", .path.display())]
    InFile {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong in it.
        error: Box<ConfigError>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_file_is_the_defaults() {
        let text = include_str!("../../config/discord.toml");
        assert_eq!(Config::from_toml(text).unwrap(), Config::default());
    }

    #[test]
    fn environment_overrides_the_file() {
        let c = Config::default()
            .with_env(|k| match k {
                "POSTAL_PREFIX" => Some("?".into()),
                "DISCORD_API_BASE" => Some("http://127.0.0.1:9".into()),
                "POSTAL_GUILDS" => Some("1, 2".into()),
                _ => None,
            })
            .unwrap();
        assert_eq!(c.prefix, "?");
        assert_eq!(c.api_base, "http://127.0.0.1:9");
        assert_eq!(c.guilds, vec![1, 2]);
        assert!(c.message_content, "asked for by default");
        let off = Config::default()
            .with_env(|k| (k == "POSTAL_MESSAGE_CONTENT").then(|| "off".into()))
            .unwrap();
        assert!(!off.message_content);
        assert!(Config::default()
            .with_env(|k| (k == "POSTAL_MESSAGE_CONTENT").then(|| "maybe".into()))
            .is_err());
        assert!(Config::default()
            .with_env(|k| (k == "POSTAL_GUILDS").then(|| "x".into()))
            .is_err());
        assert!(Config::from_toml("token = \"abc\"").is_err());
        let metrics = Config::default()
            .with_env(|k| (k == "POSTAL_METRICS_ADDR").then(|| "127.0.0.1:9100".into()))
            .unwrap();
        assert_eq!(
            metrics.metrics_listener().unwrap(),
            Some("127.0.0.1:9100".parse().unwrap())
        );
        assert_eq!(Config::default().metrics_listener().unwrap(), None);
        assert!(matches!(
            Config::from_toml("metrics_addr = \"localhost\""),
            Err(ConfigError::MetricsAddr(_))
        ));
    }

    #[test]
    fn shards_and_log_format_come_from_the_file_or_the_environment() {
        let c = Config::from_toml("shards = \"1-2/4\"\nlog_format = \"json\"\n").unwrap();
        assert_eq!(c.shards, Shards::parse("1-2/4", "X").unwrap());
        assert_eq!(c.log_format, LogFormat::Json);
        let c = c
            .with_env(|k| match k {
                "POSTAL_SHARDS" => Some("auto".into()),
                "POSTAL_LOG_FORMAT" => Some("text".into()),
                _ => None,
            })
            .unwrap();
        assert_eq!(c.shards, Shards::Auto);
        assert_eq!(c.log_format, LogFormat::Text);
    }

    #[test]
    fn a_bad_shard_setting_names_the_setting_and_the_form() {
        let e = Config::from_toml("shards = \"0-4/4\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("shards: shard 4 is outside 4 shards"), "{e}");
        let e = Config::from_toml("shards = \"three\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("FIRST-LAST/TOTAL"), "{e}");
        let e = Config::from_toml("shards = 3\n").unwrap_err().to_string();
        assert!(e.contains("shards"), "{e}");
        let e = Config::from_toml("log_format = \"xml\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("log_format") && e.contains("json"), "{e}");
        let e = Config::default()
            .with_env(|k| (k == "POSTAL_SHARDS").then(|| "2/2".into()))
            .unwrap_err()
            .to_string();
        assert_eq!(e, "POSTAL_SHARDS: shard 2 is outside 2 shards (ids 0 to 1)");
        let e = Config::default()
            .with_env(|k| (k == "POSTAL_SHARDS").then(String::new))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("POSTAL_SHARDS is \"\""), "{e}");
    }
}
