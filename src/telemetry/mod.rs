//! What the bot counts and times for its operator: the metrics `/metrics` serves in the
//! Prometheus text format (the Discord adapter's optional listener, `metrics_addr`).
//!
//! A [`Telemetry`] is a handle the service and the adapters record into; off (the
//! default) it records nothing and costs a branch. On, it holds its own recorder from
//! `metrics-exporter-prometheus`, not the process-wide one of the `metrics` facade, so
//! that two bots in one process (the tests) count apart. Every metric is named in
//! [`METRICS`], with its help text: the README's table is that list.

use metrics::{Key, Label, Level, Metadata, Recorder, Unit};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusRecorder};
use std::sync::Arc;

/// What a metric is: its kind, name, unit and help text.
pub struct MetricSpec {
    /// Counter, gauge or histogram.
    pub kind: MetricKind,
    /// Its name as scraped.
    pub name: &'static str,
    /// Its labels, in the order they are written.
    pub labels: &'static [&'static str],
    /// What it counts, for the `# HELP` line and the README.
    pub help: &'static str,
}

/// The kinds of metric Prometheus knows that Postal uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricKind {
    /// Only goes up.
    Counter,
    /// A value now.
    Gauge,
    /// Observations in buckets of seconds.
    Histogram,
}

/// Commands handled, by command and outcome (`ok`, `refused`, `failed`).
pub const COMMANDS: &str = "postal_commands_total";
/// Refusals, by kind.
pub const REFUSALS: &str = "postal_refusals_total";
/// Players' actions committed (moves, cards, choices), by variant.
pub const MOVES: &str = "postal_moves_accepted_total";
/// Games started, by variant.
pub const GAMES_STARTED: &str = "postal_games_started_total";
/// Games and challenges ended, by variant and how (`finished`, `aborted`, `declined`, `cancelled`).
pub const GAMES_ENDED: &str = "postal_games_ended_total";
/// The time of a game's commit.
pub const DB_WRITE: &str = "postal_database_write_seconds";
/// Requests refused because the database did not answer.
pub const DB_UNAVAILABLE: &str = "postal_database_unavailable_total";
/// Outages of the database (the first failure after an answer).
pub const DB_OUTAGES: &str = "postal_database_outages_total";
/// The time of one deadline check.
pub const DEADLINE_TICK: &str = "postal_deadline_tick_seconds";
/// Outbox messages waiting for delivery at the last check.
pub const OUTBOX_WAITING: &str = "postal_outbox_waiting";
/// The time to deliver one message to Discord.
pub const DELIVERY: &str = "postal_delivery_seconds";
/// Discord's refusals of REST requests, by status.
pub const REST_ERRORS: &str = "postal_discord_rest_errors_total";
/// Discord's rate limits met, by scope (`route` or `global`).
pub const RATE_LIMITED: &str = "postal_discord_rate_limited_total";

/// Engine analyses of finished games, by outcome (`queued`, `done`, `failed`).
pub const ANALYSES: &str = "postal_analyses_total";
/// Engines started again after they crashed, hung or answered garbage.
pub const ENGINE_RESTARTS: &str = "postal_engine_restarts_total";

/// Every metric Postal records.
pub const METRICS: &[MetricSpec] = &[
    MetricSpec {
        kind: MetricKind::Counter,
        name: COMMANDS,
        labels: &["kind", "outcome"],
        help: "Commands handled (typed, slash or button), by command and outcome: ok, refused, failed (the database did not answer)",
    },
    MetricSpec {
        kind: MetricKind::Counter,
        name: REFUSALS,
        labels: &["kind"],
        help: "Commands refused, by kind: syntax, illegal, ambiguous, not_your_turn, not_your_game, not_here, over, secret, unknown, conflict, internal",
    },
    MetricSpec {
        kind: MetricKind::Counter,
        name: MOVES,
        labels: &["variant"],
        help: "Players' actions committed (moves, cards played, choices), by variant",
    },
    MetricSpec {
        kind: MetricKind::Counter,
        name: GAMES_STARTED,
        labels: &["variant"],
        help: "Games started, by variant",
    },
    MetricSpec {
        kind: MetricKind::Counter,
        name: GAMES_ENDED,
        labels: &["variant", "how"],
        help: "Games and challenges ended, by variant and how: finished (a result), aborted, declined, cancelled (a challenge withdrawn or expired)",
    },
    MetricSpec {
        kind: MetricKind::Histogram,
        name: DB_WRITE,
        labels: &[],
        help: "Seconds to commit a change to a game (one transaction)",
    },
    MetricSpec {
        kind: MetricKind::Counter,
        name: DB_UNAVAILABLE,
        labels: &[],
        help: "Requests answered with 'try again in a moment' because the database did not answer",
    },
    MetricSpec {
        kind: MetricKind::Counter,
        name: DB_OUTAGES,
        labels: &[],
        help: "Times the database stopped answering (its first failure after an answer); each is logged once, when it begins and when it ends",
    },
    MetricSpec {
        kind: MetricKind::Histogram,
        name: DEADLINE_TICK,
        labels: &[],
        help: "Seconds one deadline check took (reminders, timeouts, digests, the outbox)",
    },
    MetricSpec {
        kind: MetricKind::Gauge,
        name: OUTBOX_WAITING,
        labels: &[],
        help: "Outbox messages (reminders, timeouts, digests) waiting for delivery at the last deadline check",
    },
    MetricSpec {
        kind: MetricKind::Histogram,
        name: DELIVERY,
        labels: &[],
        help: "Seconds to deliver one message to Discord (its pieces and images)",
    },
    MetricSpec {
        kind: MetricKind::Counter,
        name: REST_ERRORS,
        labels: &["status"],
        help: "Discord REST requests that failed, by HTTP status (0: no answer)",
    },
    MetricSpec {
        kind: MetricKind::Counter,
        name: RATE_LIMITED,
        labels: &["scope"],
        help: "Discord rate limits met (the request waited and was sent again), by scope: route or global",
    },
    MetricSpec {
        kind: MetricKind::Counter,
        name: ANALYSES,
        labels: &["outcome"],
        help: "Engine analyses of finished games, by outcome: queued (a request stored), done, failed (the engine failed every retry, or knows no such variant)",
    },
    MetricSpec {
        kind: MetricKind::Counter,
        name: ENGINE_RESTARTS,
        labels: &[],
        help: "Engines started again after they exited, hung or answered garbage (the position then tried again)",
    },
];

/// The histograms' buckets, in seconds.
const BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Where the recorded metrics come from, for `metrics`' bookkeeping.
static METADATA: Metadata<'static> = Metadata::new("postal", Level::INFO, Some("postal"));

/// A handle to record metrics into: off, or a Prometheus registry of its own. Clones
/// share the registry.
#[derive(Clone, Default)]
pub struct Telemetry {
    recorder: Option<Arc<PrometheusRecorder>>,
}

impl std::fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Telemetry")
            .field("on", &self.recorder.is_some())
            .finish()
    }
}

impl Telemetry {
    /// Records nothing.
    pub fn off() -> Telemetry {
        Telemetry::default()
    }

    /// Records into a new Prometheus registry, every metric of [`METRICS`] described.
    pub fn prometheus() -> Telemetry {
        let recorder = PrometheusBuilder::new()
            .set_buckets(BUCKETS)
            .expect("the buckets are not empty")
            .build_recorder();
        for m in METRICS {
            let unit = match m.kind {
                MetricKind::Histogram => Some(Unit::Seconds),
                _ => None,
            };
            let help = m.help.into();
            match m.kind {
                MetricKind::Counter => recorder.describe_counter(m.name.into(), unit, help),
                MetricKind::Gauge => recorder.describe_gauge(m.name.into(), unit, help),
                MetricKind::Histogram => recorder.describe_histogram(m.name.into(), unit, help),
            }
        }
        Telemetry {
            recorder: Some(Arc::new(recorder)),
        }
    }

    /// Whether this records anything.
    pub fn is_on(&self) -> bool {
        self.recorder.is_some()
    }

    /// Everything recorded, in the Prometheus text format (empty when off).
    pub fn render(&self) -> String {
        self.recorder
            .as_ref()
            .map(|r| r.handle().render())
            .unwrap_or_default()
    }

    fn key(name: &'static str, labels: &[(&'static str, &str)]) -> Key {
        let labels: Vec<Label> = labels
            .iter()
            .map(|(k, v)| Label::new(*k, v.to_string()))
            .collect();
        Key::from_parts(name, labels)
    }

    /// Adds one to counter `name` with `labels`.
    fn count(&self, name: &'static str, labels: &[(&'static str, &str)]) {
        if let Some(r) = &self.recorder {
            r.register_counter(&Self::key(name, labels), &METADATA)
                .increment(1);
        }
    }

    /// Records `seconds` in histogram `name`.
    fn time(&self, name: &'static str, seconds: f64) {
        if let Some(r) = &self.recorder {
            r.register_histogram(&Self::key(name, &[]), &METADATA)
                .record(seconds);
        }
    }

    /// A command handled: `kind` is its command word (a bounded set: never the user's
    /// text), `outcome` `ok`, `refused` or `failed`.
    pub fn command(&self, kind: &str, outcome: &str) {
        self.count(COMMANDS, &[("kind", kind), ("outcome", outcome)]);
    }

    /// A refusal of kind `kind` (snake case).
    pub fn refusal(&self, kind: &str) {
        self.count(REFUSALS, &[("kind", kind)]);
    }

    /// A player's action committed in a game of `variant`.
    pub fn move_accepted(&self, variant: &str) {
        self.count(MOVES, &[("variant", variant)]);
    }

    /// A game of `variant` started.
    pub fn game_started(&self, variant: &str) {
        self.count(GAMES_STARTED, &[("variant", variant)]);
    }

    /// A game of `variant` ended, `how` (`finished`, `aborted`, `cancelled`).
    pub fn game_ended(&self, variant: &str, how: &str) {
        self.count(GAMES_ENDED, &[("variant", variant), ("how", how)]);
    }

    /// An analysis was queued, done or failed (`outcome`).
    pub fn analysis(&self, outcome: &str) {
        self.count(ANALYSES, &[("outcome", outcome)]);
    }

    /// Engines were started again `n` times after failing.
    pub fn engine_restarts(&self, n: u64) {
        for _ in 0..n {
            self.count(ENGINE_RESTARTS, &[]);
        }
    }

    /// A commit took `seconds`.
    pub fn database_write(&self, seconds: f64) {
        self.time(DB_WRITE, seconds);
    }

    /// A request was refused because the database did not answer.
    pub fn database_unavailable(&self) {
        self.count(DB_UNAVAILABLE, &[]);
    }

    /// The database stopped answering.
    pub fn database_outage(&self) {
        self.count(DB_OUTAGES, &[]);
    }

    /// A deadline check took `seconds`.
    pub fn deadline_tick(&self, seconds: f64) {
        self.time(DEADLINE_TICK, seconds);
    }

    /// `n` outbox messages wait for delivery.
    pub fn outbox_waiting(&self, n: usize) {
        if let Some(r) = &self.recorder {
            r.register_gauge(&Self::key(OUTBOX_WAITING, &[]), &METADATA)
                .set(n as f64);
        }
    }

    /// A message took `seconds` to deliver.
    pub fn delivery(&self, seconds: f64) {
        self.time(DELIVERY, seconds);
    }

    /// Discord answered a REST request with `status` (0: no answer at all).
    pub fn rest_error(&self, status: u16) {
        self.count(REST_ERRORS, &[("status", &status.to_string())]);
    }

    /// A request met Discord's rate limit, the global one when `global`.
    pub fn rate_limited(&self, global: bool) {
        let scope = if global { "global" } else { "route" };
        self.count(RATE_LIMITED, &[("scope", scope)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of the sample line `series` (name and labels as written) in `text`.
    fn sample(text: &str, series: &str) -> Option<f64> {
        text.lines()
            .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
    }

    #[test]
    fn off_records_nothing_and_renders_nothing() {
        let t = Telemetry::off();
        t.command("move", "ok");
        assert!(!t.is_on());
        assert_eq!(t.render(), "");
    }

    #[test]
    fn counters_gauges_and_histograms_render_in_the_prometheus_format() {
        let t = Telemetry::prometheus();
        t.command("move", "ok");
        t.command("move", "ok");
        t.command("move", "refused");
        t.refusal("illegal");
        t.game_started("standard");
        t.outbox_waiting(3);
        t.database_write(0.004);
        t.rate_limited(true);
        let text = t.render();
        assert_eq!(
            sample(&text, r#"postal_commands_total{kind="move",outcome="ok"}"#),
            Some(2.0)
        );
        assert_eq!(
            sample(
                &text,
                r#"postal_commands_total{kind="move",outcome="refused"}"#
            ),
            Some(1.0)
        );
        assert_eq!(sample(&text, "postal_outbox_waiting"), Some(3.0));
        assert_eq!(
            sample(&text, "postal_database_write_seconds_count"),
            Some(1.0)
        );
        assert_eq!(
            sample(&text, r#"postal_database_write_seconds_bucket{le="0.005"}"#),
            Some(1.0)
        );
        assert_eq!(
            sample(
                &text,
                r#"postal_discord_rate_limited_total{scope="global"}"#
            ),
            Some(1.0)
        );
        assert!(text.contains("# TYPE postal_commands_total counter"));
        assert!(text.contains("# HELP postal_refusals_total Commands refused"));
    }

    #[test]
    fn two_handles_count_apart_and_clones_together() {
        let a = Telemetry::prometheus();
        let b = Telemetry::prometheus();
        a.clone().game_started("gravity");
        a.game_started("gravity");
        let series = r#"postal_games_started_total{variant="gravity"}"#;
        assert_eq!(sample(&a.render(), series), Some(2.0));
        assert_eq!(sample(&b.render(), series), None);
    }

    #[test]
    fn every_metric_has_a_unique_prometheus_name_and_help() {
        let mut names: Vec<&str> = METRICS.iter().map(|m| m.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), METRICS.len());
        for m in METRICS {
            assert!(m.name.starts_with("postal_"), "{}", m.name);
            assert!(
                m.name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{}",
                m.name
            );
            assert_eq!(m.kind == MetricKind::Counter, m.name.ends_with("_total"));
            assert!(!m.help.is_empty());
        }
    }
}
