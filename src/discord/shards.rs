//! Which of the bot's gateway shards a `postal run` process runs: the `shards` setting
//! (`config/discord.toml`) or `POSTAL_SHARDS`.
//!
//! Discord splits a bot's guilds over its shards: guild `g` belongs to shard
//! `(g >> 22) % total`, and private messages come through shard 0. A bot in more than
//! 2,500 guilds must shard, and several processes can then each run a range of the
//! shards, all on one database (README, "Running several processes").
//!
//! The forms: `FIRST-LAST/TOTAL` (`0-3/8`: shards 0 to 3 of 8, both included),
//! `ID/TOTAL` (`2/8`: shard 2 of 8) and `auto` (ask Discord how many shards the bot
//! needs, `GET /gateway/bot`, and run them all). The default is `0/1`: one shard, the
//! whole bot in one process.

use serde::Deserialize;
use serenity::all::{Client, Http};
use std::fmt;

/// The forms a shard setting may take, for error messages.
const FORMS: &str = "write FIRST-LAST/TOTAL (0-3/8: shards 0 to 3 of 8), ID/TOTAL (2/8) or auto";

/// The shards a process runs: a range of a known total, or all of the count Discord
/// recommends ([`Shards::Auto`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum Shards {
    /// Shards `first..=last` of `total`.
    Range(ShardRange),
    /// Every shard, as many as Discord's `GET /gateway/bot` recommends.
    Auto,
}

impl Default for Shards {
    /// One shard, `0/1`.
    fn default() -> Shards {
        Shards::Range(ShardRange {
            first: 0,
            last: 0,
            total: 1,
        })
    }
}

/// Shards `first` to `last` (both included) of `total`; `first <= last < total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    first: u32,
    last: u32,
    total: u32,
}

impl ShardRange {
    /// Shards `first..=last` of `total`, or why not (`source` names the setting).
    pub fn new(first: u32, last: u32, total: u32, source: &str) -> Result<ShardRange, ShardsError> {
        let setting = source.to_string();
        if total == 0 {
            return Err(ShardsError::NoShard { setting });
        }
        if first > last {
            return Err(ShardsError::Backwards {
                setting,
                first,
                last,
            });
        }
        if last >= total {
            return Err(ShardsError::Outside {
                setting,
                last,
                total,
            });
        }
        Ok(ShardRange { first, last, total })
    }

    /// The first shard this process runs.
    pub fn first(&self) -> u32 {
        self.first
    }

    /// The last shard this process runs (included).
    pub fn last(&self) -> u32 {
        self.last
    }

    /// The bot's total shard count.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// Connects the client's shards (until they end) through serenity's shard manager.
    pub async fn start(&self, client: &mut Client) -> serenity::Result<()> {
        if self.first == 0 && self.last + 1 == self.total {
            client.start_shards(self.total).await
        } else {
            // serenity 0.12 reads this range's end as the last shard, included
            // (`start_connection(range.start, range.end, total)`), unlike Rust's ranges.
            client
                .start_shard_range(self.first..self.last, self.total)
                .await
        }
    }
}

impl fmt::Display for ShardRange {
    /// `shard 2 of 8`, `shards 0-3 of 8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "shard {} of {}", self.first, self.total)
        } else {
            write!(f, "shards {}-{} of {}", self.first, self.last, self.total)
        }
    }
}

impl Shards {
    /// Reads a setting's value; `source` names the setting in the error
    /// (`POSTAL_SHARDS`, `shards`).
    pub fn parse(text: &str, source: &str) -> Result<Shards, ShardsError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("auto") {
            return Ok(Shards::Auto);
        }
        let bad = || ShardsError::Form {
            setting: source.to_string(),
            value: bounded(text),
        };
        let (ids, total) = t.split_once('/').ok_or_else(bad)?;
        let number = |s: &str| -> Result<u32, ShardsError> {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse().map_err(|_| ShardsError::TooLarge {
                setting: source.to_string(),
                value: bounded(text),
                number: bounded(s),
            })
        };
        let total = number(total)?;
        let (first, last) = match ids.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let id = number(ids)?;
                (id, id)
            }
        };
        ShardRange::new(first, last, total, source).map(Shards::Range)
    }

    /// The range to run: this one, or for [`Shards::Auto`] all the shards Discord
    /// recommends (asked through `http`); logged, so that the log of each process says
    /// which shards it runs.
    pub async fn resolve(&self, http: &Http) -> Result<ShardRange, ShardsError> {
        let range = match *self {
            Shards::Range(r) => r,
            Shards::Auto => {
                let gateway = http
                    .get_bot_gateway()
                    .await
                    .map_err(|e| ShardsError::Unanswered(Box::new(e)))?;
                ShardRange::new(
                    0,
                    gateway.shards.saturating_sub(1),
                    gateway.shards,
                    "the shard count Discord recommends",
                )?
            }
        };
        tracing::info!(
            first = range.first,
            last = range.last,
            total = range.total,
            "this process runs {range}"
        );
        Ok(range)
    }
}

impl TryFrom<String> for Shards {
    type Error = ShardsError;

    fn try_from(text: String) -> Result<Shards, ShardsError> {
        Shards::parse(&text, "shards")
    }
}

/// Why a shard setting cannot be used; `setting` names it (`POSTAL_SHARDS`, `shards`).
#[derive(Debug, thiserror::Error)]
pub enum ShardsError {
    /// Not one of the forms.
    #[error("{setting} is {value:?}: {}", FORMS)]
    Form {
        /// The setting's name.
        setting: String,
        /// Its value, bounded.
        value: String,
    },
    /// A shard number past `u32`.
    #[error("{setting} is {value:?}: {number} is too large a shard number")]
    TooLarge {
        /// The setting's name.
        setting: String,
        /// Its value, bounded.
        value: String,
        /// The number, bounded.
        number: String,
    },
    /// A total of 0.
    #[error("{setting}: a bot has at least 1 shard, not 0")]
    NoShard {
        /// The setting's name.
        setting: String,
    },
    /// A range whose first shard comes after its last.
    #[error("{setting}: the range {first}-{last} runs backwards: the first shard comes first")]
    Backwards {
        /// The setting's name.
        setting: String,
        /// The first shard.
        first: u32,
        /// The last shard.
        last: u32,
    },
    /// A shard past the total.
    #[error(
        "{setting}: shard {last} is outside {total} shard{} (ids 0 to {})",
        if *.total == 1 { "" } else { "s" },
        .total - 1
    )]
    Outside {
        /// The setting's name.
        setting: String,
        /// The last shard.
        last: u32,
        /// The total.
        total: u32,
    },
    /// `auto`, and Discord did not say how many shards.
    #[error("shards = auto: cannot ask Discord for the shard count: {0}")]
    Unanswered(Box<serenity::Error>),
}

/// At most 40 characters of a value, for an error message.
fn bounded(text: &str) -> String {
    if text.chars().count() <= 40 {
        text.to_string()
    } else {
        text.chars().take(40).chain("...".chars()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(first: u32, last: u32, total: u32) -> Shards {
        Shards::Range(ShardRange { first, last, total })
    }

    #[test]
    fn the_three_forms_are_read() {
        assert_eq!(Shards::parse("0-3/8", "X").ok(), Some(range(0, 3, 8)));
        assert_eq!(Shards::parse(" 2/8 ", "X").ok(), Some(range(2, 2, 8)));
        assert_eq!(Shards::parse("7-7/8", "X").ok(), Some(range(7, 7, 8)));
        assert_eq!(Shards::parse("0/1", "X").ok(), Some(Shards::default()));
        assert_eq!(Shards::parse("auto", "X").ok(), Some(Shards::Auto));
        assert_eq!(Shards::parse("AUTO", "X").ok(), Some(Shards::Auto));
    }

    #[test]
    fn bad_values_name_the_setting_and_the_expected_form() {
        for text in [
            "", "8", "a/8", "0-/8", "-1/8", "0-3", "0-3/", "1/8/2", "+1/8", "0..3/8", "autox",
        ] {
            let e = Shards::parse(text, "POSTAL_SHARDS")
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("POSTAL_SHARDS is "), "{text}: {e}");
            assert!(e.contains("FIRST-LAST/TOTAL"), "{text}: {e}");
        }
    }

    #[test]
    fn a_range_outside_the_total_is_refused() {
        let e = Shards::parse("0-8/8", "POSTAL_SHARDS")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "POSTAL_SHARDS: shard 8 is outside 8 shards (ids 0 to 7)");
        let e = Shards::parse("1/1", "shards").unwrap_err().to_string();
        assert_eq!(e, "shards: shard 1 is outside 1 shard (ids 0 to 0)");
        let e = Shards::parse("0/0", "shards").unwrap_err().to_string();
        assert!(e.contains("at least 1 shard"), "{e}");
        let e = Shards::parse("3-1/8", "shards").unwrap_err().to_string();
        assert!(e.contains("backwards"), "{e}");
        let e = Shards::parse("0-99999999999/8", "shards")
            .unwrap_err()
            .to_string();
        assert!(e.contains("too large"), "{e}");
    }

    #[test]
    fn an_error_does_not_echo_a_long_value() {
        let long = "x".repeat(5000);
        let e = Shards::parse(&long, "POSTAL_SHARDS")
            .unwrap_err()
            .to_string();
        assert!(e.len() < 200, "{e}");
    }

    #[test]
    fn a_range_says_which_shards() {
        let Ok(Shards::Range(r)) = Shards::parse("0-3/8", "X") else {
            panic!()
        };
        assert_eq!(r.to_string(), "shards 0-3 of 8");
        let Ok(Shards::Range(r)) = Shards::parse("2/8", "X") else {
            panic!()
        };
        assert_eq!(r.to_string(), "shard 2 of 8");
    }
}
