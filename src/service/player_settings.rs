//! Each player's own settings, changed privately with `settings`: the hours before a
//! deadline at which they are reminded, and whether the referee claims a win on time for
//! them where the rules leave it to a claim (Chess#).

use std::fmt;

/// The most reminders one player may ask for.
pub const MAX_REMINDERS: usize = 4;

/// The furthest ahead of a deadline a player may be reminded, in hours (a week).
pub const MAX_REMINDER_HOURS: i64 = 168;

/// One player's settings as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerSettings {
    /// Hours before a deadline to remind them, most distant first; `None`: the server's
    /// (`reminder_hours`); an empty list: no reminders.
    pub reminder_hours: Option<Vec<i64>>,
    /// Whether the referee claims a win on time for them as soon as an opponent's time
    /// runs out, in a variant where the rules make it the opponent's claim.
    pub auto_claim: bool,
}

/// A change to a player's settings; what is `None` stays as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsChange {
    /// New reminder hours: `Some(None)` back to the server's, `Some(Some(vec![]))` none.
    pub reminder_hours: Option<Option<Vec<i64>>>,
    /// Auto-claim on or off.
    pub auto_claim: Option<bool>,
}

impl SettingsChange {
    /// Whether the change changes nothing (`settings` alone shows the settings).
    pub fn is_empty(&self) -> bool {
        self.reminder_hours.is_none() && self.auto_claim.is_none()
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
        }
    }

    /// The hours at which this player is reminded, given the server's.
    pub fn hours(&self, server: &[i64]) -> Vec<i64> {
        self.reminder_hours
            .clone()
            .unwrap_or_else(|| server.to_vec())
    }

    /// The reminder hours as the store keeps them (`None`, `""` or `"24,1"`).
    pub fn stored_hours(&self) -> Option<String> {
        self.reminder_hours
            .as_ref()
            .map(|h| h.iter().map(i64::to_string).collect::<Vec<_>>().join(","))
    }

    /// Settings read back from the store; hours that do not read are the server's.
    pub fn from_stored(hours: Option<&str>, auto_claim: bool) -> PlayerSettings {
        PlayerSettings {
            reminder_hours: hours.and_then(|h| read_hours(h).ok()),
            auto_claim,
        }
    }

    /// The settings described for their owner, with the server's reminder hours.
    pub fn describe(&self, server: &[i64]) -> String {
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
        format!(
            "your settings: reminders {reminders}; auto-claim of wins on time {}. \
             Change them with `settings reminders:24,1` (or `none`, `default`) and `settings autoclaim:on` (or `off`)",
            if self.auto_claim { "on" } else { "off" }
        )
    }
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

/// A settings command's words (`reminders:24,1`, `autoclaim:on`) read into a change.
pub fn read_change<S: AsRef<str>>(words: &[S]) -> Result<SettingsChange, BadSetting> {
    let mut change = SettingsChange::default();
    for w in words {
        let w = w.as_ref();
        let Some((key, value)) = w.split_once(':') else {
            return Err(BadSetting(
                "settings are written key:value: reminders:24,1 (or none, default) and autoclaim:on (or off)".into(),
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
            _ => {
                return Err(BadSetting(
                    "the settings are reminders and autoclaim".into(),
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
    fn stored_hours_round_trip() {
        for s in [
            PlayerSettings::default(),
            PlayerSettings {
                reminder_hours: Some(vec![]),
                auto_claim: true,
            },
            PlayerSettings {
                reminder_hours: Some(vec![24, 1]),
                auto_claim: false,
            },
        ] {
            let back = PlayerSettings::from_stored(s.stored_hours().as_deref(), s.auto_claim);
            assert_eq!(back, s);
        }
        let d = PlayerSettings::default().describe(&[24]);
        assert!(d.contains("the server's (24 h before a deadline)"), "{d}");
        assert!(d.contains("auto-claim of wins on time off"), "{d}");
    }
}
