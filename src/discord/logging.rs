//! The log of `postal run`: `tracing` events to standard error, filtered by `RUST_LOG`
//! (default `postal=info,serenity=warn`), as text or as JSON lines (the `log_format`
//! setting, `POSTAL_LOG_FORMAT`). Colour codes are written only when standard error is a
//! terminal and `NO_COLOR` is not set, so a log collected through a pipe or into a file
//! holds plain text.
//!
//! Serenity's spans are left out whatever the filter ([`serenity_span`]): its HTTP
//! client's spans record each request with its body (a board's PNG as a list of decimal
//! bytes) and its gateway's each event received (a player's message), and the log's
//! layer formats a span's fields when it opens, printed or not. No line of Postal's log
//! shows a span of serenity's, so leaving them out changes no line and makes `RUST_LOG=info`
//! cost what it prints. Serenity's events (a rate limit, a reconnection) stay.

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
    let log = subscriber(format, filter, std::io::stderr, colour_wanted());
    let _ = tracing::subscriber::set_global_default(log);
}

/// The log: the lines `filter` lets through, written in `format` by `writer` (with
/// colour codes when `ansi`), serenity's spans left out ([`serenity_span`]). Public for
/// the benchmarks that measure the log's cost as `postal run` makes it.
pub fn subscriber<W>(
    format: LogFormat,
    filter: tracing_subscriber::EnvFilter,
    writer: W,
    ansi: bool,
) -> Box<dyn tracing::Subscriber + Send + Sync>
where
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    use tracing_subscriber::layer::SubscriberExt;
    let no_payloads = tracing_subscriber::filter::filter_fn(|meta| !serenity_span(meta));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    match format {
        LogFormat::Text => Box::new(builder.with_ansi(ansi).finish().with(no_payloads)),
        LogFormat::Json => Box::new(builder.json().with_ansi(false).finish().with(no_payloads)),
    }
}

/// Whether `meta` is one of serenity's spans, which record requests' bodies and
/// gateway events as their fields: left out of the log whatever the filter says (the
/// module's documentation), decided once per call site.
pub fn serenity_span(meta: &tracing::Metadata<'_>) -> bool {
    meta.is_span() && meta.target().starts_with("serenity")
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

    /// What a log wrote.
    #[derive(Clone, Default)]
    struct Lines(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Lines {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// How many times a request's body was formatted.
    static FORMATTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

    /// A request's body, counting its formatting.
    struct Body;

    impl std::fmt::Debug for Body {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            FORMATTED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            f.write_str("[137, 80, 78, 71, 13, 10, 26, 10]")
        }
    }

    #[test]
    fn serenitys_spans_are_never_formatted_and_the_other_lines_are_written() {
        for format in [LogFormat::Text, LogFormat::Json] {
            let lines = Lines::default();
            let out = lines.clone();
            // The most open filter there is.
            let filter = tracing_subscriber::EnvFilter::new("trace");
            let log = subscriber(format, filter, move || out.clone(), false);
            tracing::subscriber::with_default(log, || {
                let request =
                    tracing::info_span!(target: "serenity::http::client", "request", req = ?Body);
                let _in = request.enter();
                tracing::warn!(target: "serenity::http::ratelimiting", "rate limited");
                let own = tracing::info_span!("command", game = 17);
                let _own = own.enter();
                tracing::info!("a move applied");
            });
            assert_eq!(
                FORMATTED.load(std::sync::atomic::Ordering::SeqCst),
                0,
                "{format:?}"
            );
            let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
            for shown in ["rate limited", "a move applied", "17"] {
                assert!(text.contains(shown), "{format:?}: {shown}: {text}");
            }
            assert!(!text.contains("137, 80"), "{text}");
        }
    }

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
