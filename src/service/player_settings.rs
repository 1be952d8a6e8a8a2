//! Each player's own settings, changed privately with `settings`: the hours before a
//! deadline at which they are reminded, whether the referee claims a win on time for
//! them where the rules leave it to a claim (Chess#), a daily digest in place of the
//! messages that tell them it is their turn, and how the boards sent to them privately
//! are turned.

use crate::store::StoredSettings;
use std::fmt;

/// The most reminders one player may ask for.
pub const MAX_REMINDERS: usize = 4;

/// The furthest ahead of a deadline a player may be reminded, in hours (a week).
pub const MAX_REMINDER_HOURS: i64 = 168;

/// The hour (UTC) of the digest of a player who says `digest:on` without an hour.
pub const DEFAULT_DIGEST_HOUR: u8 = 9;

/// How the boards sent to a player privately are turned, by their choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrivateOrientation {
    /// The side they play at the bottom, in every board sent to them privately.
    Own,
    /// White at the bottom, as in printed diagrams.
    White,
}

impl PrivateOrientation {
    /// The setting's name in commands and the store (`own`, `white`).
    pub fn name(self) -> &'static str {
        match self {
            PrivateOrientation::Own => "own",
            PrivateOrientation::White => "white",
        }
    }

    /// The orientation named `name`, if it is one.
    pub fn named(name: &str) -> Option<PrivateOrientation> {
        match name.to_ascii_lowercase().as_str() {
            "own" | "mine" => Some(PrivateOrientation::Own),
            "white" => Some(PrivateOrientation::White),
            _ => None,
        }
    }
}

/// One player's settings as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerSettings {
    /// Hours before a deadline to remind them, most distant first; `None`: the server's
    /// (`reminder_hours`); an empty list: no reminders.
    pub reminder_hours: Option<Vec<i64>>,
    /// Whether the referee claims a win on time for them as soon as an opponent's time
    /// runs out, in a variant where the rules make it the opponent's claim.
    pub auto_claim: bool,
    /// The hour of the day (UTC, 0 to 23) of their daily digest of the games awaiting
    /// them, which then replaces the direct messages and pings telling them it is their
    /// turn; `None`: no digest.
    pub digest_hour: Option<u8>,
    /// How the boards sent to them privately are turned; `None`: as the server draws
    /// them (a seat's own board from its side, a game's public board as the server's
    /// `public_orientation` says).
    pub orientation: Option<PrivateOrientation>,
}

/// A change to a player's settings; what is `None` stays as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsChange {
    /// New reminder hours: `Some(None)` back to the server's, `Some(Some(vec![]))` none.
    pub reminder_hours: Option<Option<Vec<i64>>>,
    /// Auto-claim on or off.
    pub auto_claim: Option<bool>,
    /// The digest: `Some(None)` off, `Some(Some(h))` at hour `h`.
    pub digest_hour: Option<Option<u8>>,
    /// Private boards' orientation: `Some(None)` back to the server's way.
    pub orientation: Option<Option<PrivateOrientation>>,
}

impl SettingsChange {
    /// Whether the change changes nothing (`settings` alone shows the settings).
    pub fn is_empty(&self) -> bool {
        *self == SettingsChange::default()
    }
}

impl PlayerSettings {
    /// These settings with `change` made.
    pub fn changed(&self, change: &SettingsChange) -> PlayerSettings {
        PlayerSettings {
            reminder_hours: change
                .reminder_hours
                .clone()
                .unwrap_or_else(|| self.reminder_hours.clone()),
            auto_claim: change.auto_claim.unwrap_or(self.auto_claim),
            digest_hour: change.digest_hour.unwrap_or(self.digest_hour),
            orientation: change.orientation.unwrap_or(self.orientation),
        }
    }

    /// The hours at which this player is reminded, given the server's.
    pub fn hours(&self, server: &[i64]) -> Vec<i64> {
        self.reminder_hours
            .clone()
            .unwrap_or_else(|| server.to_vec())
    }

    /// The settings as the store keeps them (reminder hours as `None`, `""` or `"24,1"`).
    pub fn to_stored(&self) -> StoredSettings {
        StoredSettings {
            reminder_hours: self
                .reminder_hours
                .as_ref()
                .map(|h| h.iter().map(i64::to_string).collect::<Vec<_>>().join(",")),
            auto_claim: self.auto_claim,
            digest_hour: self.digest_hour.map(i64::from),
            orientation: self.orientation.map(|o| o.name().to_string()),
        }
    }

    /// Settings read back from the store; hours that do not read are the server's, a
    /// digest hour or an orientation that does not read is none.
    pub fn from_stored(stored: &StoredSettings) -> PlayerSettings {
        PlayerSettings {
            reminder_hours: stored
                .reminder_hours
                .as_deref()
                .and_then(|h| read_hours(h).ok()),
            auto_claim: stored.auto_claim,
            digest_hour: stored
                .digest_hour
                .and_then(|h| u8::try_from(h).ok())
                .filter(|h| *h < 24),
            orientation: stored
                .orientation
                .as_deref()
                .and_then(PrivateOrientation::named),
        }
    }

    /// The settings described for their owner, with the server's reminder hours: each
    /// setting as [`PlayerSettings::facts`] names it, and how to change them.
    pub fn describe(&self, server: &[i64]) -> String {
        let facts: Vec<String> = self
            .facts(server)
            .into_iter()
            .map(|(name, value)| format!("{} {value}", name.to_lowercase()))
            .collect();
        format!("your settings: {}. {}", facts.join("; "), change_note())
    }

    /// Each setting by name, with its value in words (the server's reminder hours where
    /// the player chose none).
    pub fn facts(&self, server: &[i64]) -> Vec<(&'static str, String)> {
        let hours = |h: &[i64]| {
            if h.is_empty() {
                "none".to_string()
            } else {
                h.iter()
                    .map(|x| format!("{x} h"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            }
        };
        let reminders = match &self.reminder_hours {
            Some(h) if h.is_empty() => "none".to_string(),
            Some(h) => format!("{} before a deadline", hours(h)),
            None => format!("the server's ({} before a deadline)", hours(server)),
        };
        let digest = match self.digest_hour {
            Some(h) => format!(
                "daily at {h:02}:00 UTC, in place of the messages and pings telling you it is your turn"
            ),
            None => "off (you are told at each turn)".to_string(),
        };
        let orientation = match self.orientation {
            Some(PrivateOrientation::Own) => "your side at the bottom",
            Some(PrivateOrientation::White) => "White at the bottom",
            None => "the server's (your own board from your side)",
        };
        let on = |b: bool| if b { "on" } else { "off" };
        vec![
            ("Reminders", reminders),
            (
                "Auto-claim of wins on time",
                on(self.auto_claim).to_string(),
            ),
            ("Digest", digest),
            ("Private boards", orientation.to_string()),
        ]
    }
}

/// How to change the settings, each command marked
/// ([`crate::variants::api::command_mark`]).
pub fn change_note() -> String {
    let change = crate::variants::api::command_mark;
    format!(
        "Change them with {} (or `none`, `default`), {} (or `off`), {} (an hour UTC, or `on`, `off`) and {} (or `own`, `default`)",
        change("settings reminders:24,1"),
        change("settings autoclaim:on"),
        change("settings digest:18"),
        change("settings orientation:white"),
    )
}

/// Why a settings value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSetting(pub String);

impl fmt::Display for BadSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reminder hours as typed: `none`, or up to [`MAX_REMINDERS`] whole numbers of hours
/// from 1 to [`MAX_REMINDER_HOURS`] separated by commas (`24,1`), each once; returned
/// most distant first. (`default` is read by the caller.)
pub fn read_hours(text: &str) -> Result<Vec<i64>, BadSetting> {
    let text = text.trim();
    if text.is_empty() || text.eq_ignore_ascii_case("none") {
        return Ok(Vec::new());
    }
    let bad = || {
        BadSetting(format!(
            "reminders are hours before a deadline from 1 to {MAX_REMINDER_HOURS}, separated by commas (reminders:24,1), or none or default"
        ))
    };
    let mut hours = Vec::new();
    for part in text.split(',') {
        let part = part.trim().trim_end_matches('h').trim();
        if part.is_empty() || part.len() > 3 || !part.chars().all(|c| c.is_ascii_digit()) {
            return Err(bad());
        }
        let h: i64 = part.parse().map_err(|_| bad())?;
        if !(1..=MAX_REMINDER_HOURS).contains(&h) {
            return Err(bad());
        }
        if !hours.contains(&h) {
            hours.push(h);
        }
    }
    if hours.len() > MAX_REMINDERS {
        return Err(BadSetting(format!(
            "at most {MAX_REMINDERS} reminders per deadline"
        )));
    }
    hours.sort_unstable_by(|a, b| b.cmp(a));
    Ok(hours)
}

/// A digest setting as typed: `off`, `on` (at [`DEFAULT_DIGEST_HOUR`]), or an hour of the
/// day, UTC, from 0 to 23 (`18`, `18h`, `18:00`).
pub fn read_digest(text: &str) -> Result<Option<u8>, BadSetting> {
    let t = text.trim().to_ascii_lowercase();
    match t.as_str() {
        "off" | "no" | "none" => return Ok(None),
        "on" | "yes" | "daily" => return Ok(Some(DEFAULT_DIGEST_HOUR)),
        _ => {}
    }
    let hour = t
        .strip_suffix(":00")
        .or_else(|| t.strip_suffix('h'))
        .unwrap_or(&t);
    match hour.parse::<u8>() {
        Ok(h) if h < 24 && hour.len() <= 2 => Ok(Some(h)),
        _ => Err(BadSetting(
            "digest is an hour of the day, UTC, from 0 to 23 (digest:18), or on or off".into(),
        )),
    }
}

/// A settings command's words (`reminders:24,1`, `autoclaim:on`) read into a change.
pub fn read_change<S: AsRef<str>>(words: &[S]) -> Result<SettingsChange, BadSetting> {
    let mut change = SettingsChange::default();
    for w in words {
        let w = w.as_ref();
        let Some((key, value)) = w.split_once(':') else {
            return Err(BadSetting(
                "settings are written key:value: reminders:24,1 (or none, default), autoclaim:on (or off), digest:18 (or on, off) and orientation:white (or own, default)".into(),
            ));
        };
        match key.to_ascii_lowercase().as_str() {
            "reminders" | "reminder" => {
                change.reminder_hours = Some(if value.eq_ignore_ascii_case("default") {
                    None
                } else {
                    Some(read_hours(value)?)
                });
            }
            "autoclaim" | "auto-claim" | "auto_claim" => {
                change.auto_claim = Some(match value.to_ascii_lowercase().as_str() {
                    "on" | "yes" | "true" => true,
                    "off" | "no" | "false" => false,
                    _ => return Err(BadSetting("autoclaim is on or off".into())),
                });
            }
            "digest" => change.digest_hour = Some(read_digest(value)?),
            "orientation" | "board" => {
                change.orientation =
                    Some(if value.eq_ignore_ascii_case("default") {
                        None
                    } else {
                        Some(PrivateOrientation::named(value).ok_or_else(|| {
                            BadSetting("orientation is own, white or default".into())
                        })?)
                    });
            }
            _ => {
                return Err(BadSetting(
                    "the settings are reminders, autoclaim, digest and orientation".into(),
                ))
            }
        }
    }
    Ok(change)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reminder_hours_read_most_distant_first_and_refuse_the_rest() {
        assert_eq!(read_hours("1,24"), Ok(vec![24, 1]));
        assert_eq!(read_hours(" 48h , 2 "), Ok(vec![48, 2]));
        assert_eq!(read_hours("none"), Ok(vec![]));
        assert_eq!(read_hours("6,6"), Ok(vec![6]));
        for bad in ["0", "169", "-1", "x", "1,,2", "1.5", "99999999999999999999"] {
            assert!(read_hours(bad).is_err(), "{bad}");
        }
        assert!(read_hours("1,2,3,4,5").is_err());
    }

    #[test]
    fn a_change_reads_each_setting_and_keeps_the_others() {
        let c = read_change(&["reminders:24,1", "autoclaim:on"]).unwrap();
        let s = PlayerSettings::default().changed(&c);
        assert_eq!(s.reminder_hours, Some(vec![24, 1]));
        assert!(s.auto_claim);
        let back = s.changed(&read_change(&["reminders:default"]).unwrap());
        assert_eq!(back.reminder_hours, None);
        assert!(back.auto_claim);
        assert_eq!(back.hours(&[12]), vec![12]);
        assert!(read_change(&["autoclaim:maybe"]).is_err());
        assert!(read_change(&["colour:white"]).is_err());
        assert!(read_change(&["reminders"]).is_err());
        assert!(read_change::<&str>(&[]).unwrap().is_empty());
    }

    #[test]
    fn digest_and_orientation_read_and_refuse_the_rest() {
        assert_eq!(read_digest("18"), Ok(Some(18)));
        assert_eq!(read_digest("7h"), Ok(Some(7)));
        assert_eq!(read_digest("0:00"), Ok(Some(0)));
        assert_eq!(read_digest("on"), Ok(Some(DEFAULT_DIGEST_HOUR)));
        assert_eq!(read_digest("OFF"), Ok(None));
        for bad in ["24", "-1", "x", "", "018", "9am", "99999999999"] {
            assert!(read_digest(bad).is_err(), "{bad}");
        }
        let c = read_change(&["digest:18", "orientation:white"]).unwrap();
        let s = PlayerSettings::default().changed(&c);
        assert_eq!(s.digest_hour, Some(18));
        assert_eq!(s.orientation, Some(PrivateOrientation::White));
        let back = s.changed(&read_change(&["digest:off", "orientation:default"]).unwrap());
        assert_eq!((back.digest_hour, back.orientation), (None, None));
        assert!(read_change(&["orientation:sideways"]).is_err());
        let d = s.describe(&[24]);
        assert!(d.contains("digest daily at 18:00 UTC"), "{d}");
        assert!(d.contains("private boards White at the bottom"), "{d}");
        // A stored value no longer valid reads as none.
        let odd = PlayerSettings::from_stored(&StoredSettings {
            digest_hour: Some(99),
            orientation: Some("sideways".into()),
            ..StoredSettings::default()
        });
        assert_eq!((odd.digest_hour, odd.orientation), (None, None));
    }

    #[test]
    fn stored_hours_round_trip() {
        for s in [
            PlayerSettings::default(),
            PlayerSettings {
                reminder_hours: Some(vec![]),
                auto_claim: true,
                digest_hour: Some(0),
                orientation: Some(PrivateOrientation::White),
            },
            PlayerSettings {
                reminder_hours: Some(vec![24, 1]),
                auto_claim: false,
                digest_hour: Some(23),
                orientation: Some(PrivateOrientation::Own),
            },
        ] {
            assert_eq!(PlayerSettings::from_stored(&s.to_stored()), s);
        }
        let d = PlayerSettings::default().describe(&[24]);
        assert!(d.contains("the server's (24 h before a deadline)"), "{d}");
        assert!(d.contains("auto-claim of wins on time off"), "{d}");
    }
}
