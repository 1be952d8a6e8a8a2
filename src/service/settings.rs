//! The service's settings: built-in defaults, equal to the committed
//! `config/postal.toml`, read from that file at start, with environment overrides.

use crate::render::PublicOrientation;
use crate::variants::api::setting_key;
use crate::variants::Registry;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The setting keys of every resource the built-in variants declare.
fn resource_keys() -> Vec<String> {
    Registry::builtin()
        .all()
        .flat_map(|v| v.resources().iter().map(|r| setting_key(v.id(), r.name)))
        .collect()
}

/// Where the configuration is read from unless `POSTAL_CONFIG` names another file.
pub const DEFAULT_CONFIG_PATH: &str = "config/postal.toml";

/// Service settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The database URL (`sqlite://postal.db`, `sqlite::memory:`).
    pub database_url: String,
    /// Days per move when a challenge names none.
    pub default_days: u32,
    /// Reminders, in hours before a deadline.
    pub reminder_hours: Vec<i64>,
    /// Days of vacation each player may take per calendar year (UTC); 0: none.
    pub vacation_days_per_year: u32,
    /// How many pending challenges one user may have made at once (a bound on the work
    /// and the lists one user can cause).
    pub max_open_challenges: u32,
    /// Days an unanswered challenge waits before it expires (its challenger is told).
    pub challenge_expiry_days: u32,
    /// The variant when a challenge names none.
    pub default_variant: String,
    /// Which side is at the bottom of the board image posted in a game's channel
    /// (private images are always from the viewer's side).
    pub public_orientation: PublicOrientation,
    /// The files of the resources variants declare, by setting key
    /// ([`setting_key`]: the variant's id and the resource's name, `chesswords_words`),
    /// written in `[games]` or as `POSTAL_` and the key in capitals. The service reads each
    /// file at start and its variant parses it; a file that cannot be read is reported
    /// then and refused to the players who need it.
    pub resources: BTreeMap<String, String>,
    /// Where the full rules documents are published (a web address ending before the
    /// document's name, e.g. `https://example.org/postal/rules/`): `rules VARIANT` links
    /// `{rules_url}{document}.md` beside the document itself (embedded in the binary, so
    /// shown whether or not this is set).
    pub rules_url: Option<String>,
    /// The seed that makes new games' random draws reproducible, public and hidden alike
    /// (each game's seed is derived from it and the game's id): only the console's
    /// `--seed` and tests set it, and it is not in the file. `None`, what `postal run`
    /// always has: every draw comes from the operating system's entropy.
    pub seed: Option<u64>,
    /// The engines that analyse finished games (`[engines]`).
    pub engines: crate::engines::EngineSettings,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            database_url: "sqlite://postal.db".into(),
            default_days: 3,
            reminder_hours: vec![24, 1],
            vacation_days_per_year: 30,
            default_variant: "standard".into(),
            max_open_challenges: 10,
            challenge_expiry_days: 7,
            public_orientation: PublicOrientation::SideToMove,
            resources: BTreeMap::new(),
            rules_url: None,
            seed: None,
            engines: crate::engines::EngineSettings::default(),
        }
    }
}

/// A configuration that cannot be used; the text says which setting and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// The file's layout. Every key is optional (the default stands in) and unknown keys are
/// refused, so a misspelt setting is not silently ignored.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    database_url: Option<String>,
    #[serde(default)]
    games: Games,
    #[serde(default)]
    clock: Clock,
    #[serde(default)]
    images: Images,
    #[serde(default)]
    engines: Engines,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Engines {
    stockfish: Option<String>,
    fairy_stockfish: Option<String>,
    pool: Option<u32>,
    threads: Option<u32>,
    hash_mb: Option<u32>,
    nodes: Option<u64>,
    timeout_seconds: Option<u64>,
    retries: Option<u32>,
    progress_seconds: Option<u64>,
    lease_seconds: Option<u64>,
}

impl Engines {
    /// The engines' settings: the defaults with the file's values; an empty path, none.
    fn settings(self) -> crate::engines::EngineSettings {
        let d = crate::engines::EngineSettings::default();
        let path = |p: Option<String>, d: Option<std::path::PathBuf>| match p {
            Some(p) if p.trim().is_empty() => None,
            Some(p) => Some(p.into()),
            None => d,
        };
        crate::engines::EngineSettings {
            stockfish: path(self.stockfish, d.stockfish),
            fairy_stockfish: path(self.fairy_stockfish, d.fairy_stockfish),
            pool: self.pool.unwrap_or(d.pool),
            threads: self.threads.unwrap_or(d.threads),
            hash_mb: self.hash_mb.unwrap_or(d.hash_mb),
            nodes: self.nodes.unwrap_or(d.nodes),
            timeout_seconds: self.timeout_seconds.unwrap_or(d.timeout_seconds),
            retries: self.retries.unwrap_or(d.retries),
            progress_seconds: self.progress_seconds.unwrap_or(d.progress_seconds),
            lease_seconds: self.lease_seconds.unwrap_or(d.lease_seconds),
        }
    }
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Images {
    public_orientation: Option<String>,
}

fn orientation(text: &str, source: &str) -> Result<PublicOrientation, ConfigError> {
    text.parse().map_err(|_| {
        ConfigError(format!(
            "{source} is {text:?}: write \"side-to-move\" or \"white\""
        ))
    })
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Games {
    default_variant: Option<String>,
    days_per_move: Option<u32>,
    max_open_challenges: Option<u32>,
    challenge_expiry_days: Option<u32>,
    rules_url: Option<String>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Clock {
    reminder_hours: Option<Vec<i64>>,
    vacation_days_per_year: Option<u32>,
}

impl Settings {
    /// The database, for logs and messages: `database_url` without any secret in it
    /// (`store::database_name`).
    pub fn database_name(&self) -> String {
        crate::store::database_name(&self.database_url)
    }

    /// The defaults with the values of a configuration file's text, checked.
    pub fn from_toml(text: &str) -> Result<Settings, ConfigError> {
        let mut table: toml::Table =
            toml::from_str(text).map_err(|e| ConfigError(e.message().to_string()))?;
        // The variants' resources are `[games]` keys that the variants declare, taken out
        // before the fixed keys are read (which refuse anything unknown).
        let mut resources = BTreeMap::new();
        if let Some(toml::Value::Table(games)) = table.get_mut("games") {
            for key in resource_keys() {
                match games.remove(&key) {
                    None => {}
                    Some(toml::Value::String(path)) => {
                        resources.insert(key, path);
                    }
                    Some(_) => {
                        return Err(ConfigError(format!(
                            "games.{key} must be a string (a file's path)"
                        )))
                    }
                }
            }
        }
        let f: File = table
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError(e.message().to_string()))?;
        let d = Settings::default();
        Settings {
            database_url: f.database_url.unwrap_or(d.database_url),
            default_days: f.games.days_per_move.unwrap_or(d.default_days),
            reminder_hours: f.clock.reminder_hours.unwrap_or(d.reminder_hours),
            vacation_days_per_year: f
                .clock
                .vacation_days_per_year
                .unwrap_or(d.vacation_days_per_year),
            default_variant: f.games.default_variant.unwrap_or(d.default_variant),
            max_open_challenges: f.games.max_open_challenges.unwrap_or(d.max_open_challenges),
            challenge_expiry_days: f
                .games
                .challenge_expiry_days
                .unwrap_or(d.challenge_expiry_days),
            public_orientation: match f.images.public_orientation {
                Some(o) => orientation(&o, "images.public_orientation")?,
                None => d.public_orientation,
            },
            resources,
            rules_url: f
                .games
                .rules_url
                .filter(|u| !u.trim().is_empty())
                .or(d.rules_url),
            seed: d.seed,
            engines: f.engines.settings(),
        }
        .checked()
    }

    /// These settings with the environment's overrides (`DATABASE_URL`,
    /// `POSTAL_DEFAULT_VARIANT`, `POSTAL_DAYS_PER_MOVE`, `POSTAL_REMINDER_HOURS`,
    /// `POSTAL_PUBLIC_ORIENTATION`, `POSTAL_VACATION_DAYS`, and for each resource a
    /// variant declares `POSTAL_` and its setting key in capitals, such as
    /// `POSTAL_CHESSWORDS_WORDS`: an empty value means none), read through `var`, checked.
    pub fn with_env(self, var: impl Fn(&str) -> Option<String>) -> Result<Settings, ConfigError> {
        let mut s = self;
        if let Some(url) = var("DATABASE_URL") {
            s.database_url = url;
        }
        if let Some(v) = var("POSTAL_DEFAULT_VARIANT") {
            s.default_variant = v;
        }
        if let Some(o) = var("POSTAL_PUBLIC_ORIENTATION") {
            s.public_orientation = orientation(&o, "POSTAL_PUBLIC_ORIENTATION")?;
        }
        for key in resource_keys() {
            if let Some(path) = var(&format!("POSTAL_{}", key.to_ascii_uppercase())) {
                if path.trim().is_empty() {
                    s.resources.remove(&key);
                } else {
                    s.resources.insert(key, path);
                }
            }
        }
        for (name, slot) in [
            ("POSTAL_STOCKFISH", &mut s.engines.stockfish),
            ("POSTAL_FAIRY_STOCKFISH", &mut s.engines.fairy_stockfish),
        ] {
            if let Some(path) = var(name) {
                *slot = Some(path).filter(|p| !p.trim().is_empty()).map(Into::into);
            }
        }
        if let Some(d) = var("POSTAL_DAYS_PER_MOVE") {
            s.default_days = d.trim().parse().map_err(|_| {
                ConfigError(format!("POSTAL_DAYS_PER_MOVE={d:?} is not a whole number"))
            })?;
        }
        if let Some(d) = var("POSTAL_VACATION_DAYS") {
            s.vacation_days_per_year = d.trim().parse().map_err(|_| {
                ConfigError(format!("POSTAL_VACATION_DAYS={d:?} is not a whole number"))
            })?;
        }
        if let Some(h) = var("POSTAL_REMINDER_HOURS") {
            s.reminder_hours = h
                .split(',')
                .filter(|x| !x.trim().is_empty())
                .map(|x| x.trim().parse())
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    ConfigError(format!(
                        "POSTAL_REMINDER_HOURS={h:?} is not a comma-separated list of hours"
                    ))
                })?;
        }
        s.checked()
    }

    /// Reads the configuration at start: the file named by `POSTAL_CONFIG`, else
    /// [`DEFAULT_CONFIG_PATH`] if it exists, else the defaults; then the environment's
    /// overrides. A named file that is missing, or any bad value, is an error.
    pub fn load() -> Result<Settings, ConfigError> {
        let named = std::env::var("POSTAL_CONFIG").ok();
        let path = named.as_deref().unwrap_or(DEFAULT_CONFIG_PATH);
        let base = match std::fs::read_to_string(Path::new(path)) {
            Ok(text) => {
                Settings::from_toml(&text).map_err(|e| ConfigError(format!("{path}: {e}")))?
            }
            Err(e) if named.is_none() && e.kind() == std::io::ErrorKind::NotFound => {
                Settings::default()
            }
            Err(e) => return Err(ConfigError(format!("{path}: {e}"))),
        };
        base.with_env(|k| std::env::var(k).ok())
    }

    fn checked(self) -> Result<Settings, ConfigError> {
        if self.database_url.trim().is_empty() {
            return Err(ConfigError("database_url is empty".into()));
        }
        if let Some(problem) = self.engines.problem() {
            return Err(ConfigError(problem));
        }
        if !(1..=365).contains(&self.challenge_expiry_days) {
            return Err(ConfigError(format!(
                "challenge_expiry_days is {}, it must be 1 to 365",
                self.challenge_expiry_days
            )));
        }
        if self.vacation_days_per_year > 365 {
            return Err(ConfigError(format!(
                "vacation_days_per_year is {}, it must be 0 to 365",
                self.vacation_days_per_year
            )));
        }
        if !(1..=1000).contains(&self.max_open_challenges) {
            return Err(ConfigError(format!(
                "max_open_challenges is {}, it must be 1 to 1000",
                self.max_open_challenges
            )));
        }
        if !(1..=60).contains(&self.default_days) {
            return Err(ConfigError(format!(
                "days_per_move is {}, it must be 1 to 60",
                self.default_days
            )));
        }
        if let Some((key, _)) = self.resources.iter().find(|(_, p)| p.trim().is_empty()) {
            return Err(ConfigError(format!(
                "{key} is empty: name the file or leave the setting out"
            )));
        }
        let max_hours = i64::from(self.default_days) * 24;
        if let Some(h) = self
            .reminder_hours
            .iter()
            .find(|h| !(1..max_hours).contains(*h))
        {
            return Err(ConfigError(format!(
                "a reminder {h} h before the deadline does not fit: reminders are 1 h to {} h",
                max_hours - 1
            )));
        }
        crate::variants::Registry::builtin()
            .get(&self.default_variant)
            .map_err(|e| ConfigError(format!("default_variant: {e}")))?;
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_file_equals_the_defaults() {
        let text = include_str!("../../config/postal.toml");
        assert_eq!(Settings::from_toml(text).unwrap(), Settings::default());
    }

    #[test]
    fn the_environment_overrides_the_file() {
        let env = |k: &str| match k {
            "DATABASE_URL" => Some("sqlite::memory:".to_string()),
            "POSTAL_REMINDER_HOURS" => Some("48, 2".to_string()),
            "POSTAL_DAYS_PER_MOVE" => Some("5".to_string()),
            "POSTAL_VACATION_DAYS" => Some("14".to_string()),
            _ => None,
        };
        let s = Settings::from_toml("[games]\ndefault_variant = \"chess-sharp\"\n")
            .unwrap()
            .with_env(env)
            .unwrap();
        assert_eq!(s.database_url, "sqlite::memory:");
        assert_eq!(s.reminder_hours, vec![48, 2]);
        assert_eq!(s.default_days, 5);
        assert_eq!(s.vacation_days_per_year, 14);
        assert_eq!(s.default_variant, "chess-sharp");
    }

    #[test]
    fn bad_settings_are_refused_with_the_reason() {
        for (text, says) in [
            ("[games]\ndays_per_move = 0\n", "days_per_move"),
            ("[games]\ndefault_variant = \"shogi\"\n", "default_variant"),
            ("[clock]\nreminder_hours = [100]\n", "reminder 100 h"),
            ("[clock]\nreminders = [1]\n", "unknown field"),
            ("database_url = 3\n", "string"),
            ("[images]\npublic_orientation = \"black\"\n", "side-to-move"),
            (
                "[games]\nchesswords_words = \" \"\n",
                "chesswords_words is empty",
            ),
            ("[games]\nchesswords_words = 3\n", "string"),
            (
                "[clock]\nvacation_days_per_year = 400\n",
                "vacation_days_per_year is 400",
            ),
        ] {
            let err = Settings::from_toml(text).unwrap_err();
            assert!(err.0.contains(says), "{text}: {err}");
        }
        let env = |k: &str| (k == "POSTAL_DAYS_PER_MOVE").then(|| "three".to_string());
        assert!(Settings::default().with_env(env).is_err());
    }

    #[test]
    fn public_orientation_is_a_setting_with_side_to_move_as_default() {
        assert_eq!(
            Settings::default().public_orientation,
            PublicOrientation::SideToMove
        );
        let s = Settings::from_toml("[images]\npublic_orientation = \"white\"\n").unwrap();
        assert_eq!(s.public_orientation, PublicOrientation::WhiteAlways);
        let env = |k: &str| (k == "POSTAL_PUBLIC_ORIENTATION").then(|| "side-to-move".to_string());
        let s = s.with_env(env).unwrap();
        assert_eq!(s.public_orientation, PublicOrientation::SideToMove);
    }

    #[test]
    fn a_variants_resource_is_an_optional_path_under_its_setting_key() {
        let words = |s: &Settings| s.resources.get("chesswords_words").cloned();
        assert_eq!(words(&Settings::default()), None);
        assert_eq!(Settings::default().rules_url, None);
        let r =
            Settings::from_toml("[games]\nrules_url = \"https://example.org/rules/\"\n").unwrap();
        assert_eq!(r.rules_url.as_deref(), Some("https://example.org/rules/"));
        let s = Settings::from_toml("[games]\nchesswords_words = \"words.txt\"\n").unwrap();
        assert_eq!(words(&s).as_deref(), Some("words.txt"));
        let env = |k: &str| (k == "POSTAL_CHESSWORDS_WORDS").then(|| "/srv/w.txt".to_string());
        let s2 = s.clone().with_env(env).unwrap();
        assert_eq!(words(&s2).as_deref(), Some("/srv/w.txt"));
        let env = |k: &str| (k == "POSTAL_CHESSWORDS_WORDS").then(String::new);
        assert_eq!(words(&s.with_env(env).unwrap()), None);
        let err = Settings::from_toml("[games]\nno_such_words = \"w.txt\"\n").unwrap_err();
        assert!(err.0.contains("no_such_words"), "{err}");
    }
}
