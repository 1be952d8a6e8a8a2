//! The log of `postal run`: `tracing` events to standard error, filtered by `RUST_LOG`
//! (default `postal=info,serenity=warn`), as text or as JSON lines (the `log_format`
//! setting, `POSTAL_LOG_FORMAT`). Colour codes are written only when standard error is a
//! terminal and `NO_COLOR` is not set, so a log collected through a pipe or into a file
//! holds plain text.

use serde::Deserialize;
use std::io::IsTerminal;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// One readable line per event: time, level, target, message and fields.
    #[default]
    Text,
    /// One JSON object per line (`timestamp`, `level`, `target`, `fields` with
    /// `message`, and the spans), for log collectors.
    Json,
}

impl LogFormat {
    /// Reads a setting's value; `source` names the setting in the error.
    pub fn parse(text: &str, source: &str) -> Result<LogFormat, LogFormatError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            _ => Err(LogFormatError {
                setting: source.to_string(),
                value: text.chars().take(40).collect(),
            }),
        }
    }
}

/// A log format setting that is neither `text` nor `json`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{setting} is {value:?}: write \"text\" or \"json\"")]
pub struct LogFormatError {
    /// The setting's name.
    pub setting: String,
    /// Its value, at most 40 characters of it.
    pub value: String,
}

/// Installs the process's log subscriber (once, at start).
pub fn init(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "postal=info,serenity=warn".into());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.with_ansi(colour_wanted()).init(),
        LogFormat::Json => builder.json().with_ansi(false).init(),
    }
}

/// Whether text logs may carry colour codes: standard error is a terminal and the
/// `NO_COLOR` convention (no-color.org) is not asking otherwise.
fn colour_wanted() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    std::io::stderr().is_terminal() && !no_color
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_formats_are_read_and_others_refused_naming_the_setting() {
        assert_eq!(LogFormat::parse("json", "X"), Ok(LogFormat::Json));
        assert_eq!(LogFormat::parse(" Text ", "X"), Ok(LogFormat::Text));
        let e = LogFormat::parse("xml", "POSTAL_LOG_FORMAT")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "POSTAL_LOG_FORMAT is \"xml\": write \"text\" or \"json\""
        );
    }
}
