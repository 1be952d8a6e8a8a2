//! Whether the database answers, as the requests find it: an outage (the PostgreSQL
//! server restarting, its connections killed, SQLite's file locked past the busy
//! timeout) is logged once when it begins and once when it ends, with how long it lasted
//! and how many requests and checks failed meanwhile, rather than once a request. The requests themselves fail whole: each is one transaction, so none
//! is half applied, and the pool opens new connections once the server is back.

use crate::store::StoreError;
use crate::telemetry::Telemetry;
use std::sync::Mutex;
use std::time::Instant;

/// The outage under way, if any.
#[derive(Debug, Default)]
pub struct Availability {
    outage: Mutex<Option<Outage>>,
    /// Where outages are counted.
    telemetry: Telemetry,
}

/// An outage: since when, and how many failures it caused.
#[derive(Debug)]
struct Outage {
    since: Instant,
    failures: u64,
}

impl Availability {
    /// Outages counted in `telemetry`.
    pub fn counted_in(telemetry: Telemetry) -> Availability {
        Availability {
            outage: Mutex::default(),
            telemetry,
        }
    }

    /// Notes that a request failed with `e`. Returns whether the failure is the
    /// database not answering, which this logs (once an outage): the caller logs
    /// other failures itself.
    pub fn failed(&self, e: &StoreError) -> bool {
        if !e.is_unavailable() {
            return false;
        }
        let mut outage = self.outage.lock().unwrap_or_else(|p| p.into_inner());
        match outage.as_mut() {
            Some(o) => o.failures += 1,
            None => {
                self.telemetry.database_outage();
                tracing::error!(
                    error = %e,
                    "the database is not answering; requests are answered \"try again in a moment\" until it is back"
                );
                *outage = Some(Outage {
                    since: Instant::now(),
                    failures: 1,
                });
            }
        }
        true
    }

    /// Notes that a request reached the database: ends an outage, logging it.
    pub fn answered(&self) {
        let mut outage = self.outage.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(o) = outage.take() {
            tracing::warn!(
                seconds = o.since.elapsed().as_secs_f64(),
                failures = o.failures,
                "the database answers again"
            );
        }
    }

    /// Whether an outage is under way (the last request found the database silent).
    pub fn in_outage(&self) -> bool {
        self.outage
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unavailable() -> StoreError {
        StoreError::Db(sqlx::Error::PoolTimedOut)
    }

    #[test]
    fn an_outage_begins_at_its_first_failure_and_ends_at_the_first_answer() {
        let a = Availability::default();
        assert!(!a.in_outage());
        assert!(a.failed(&unavailable()));
        assert!(a.failed(&unavailable()));
        assert!(a.in_outage());
        a.answered();
        assert!(!a.in_outage());
    }

    #[test]
    fn an_outage_is_counted_once() {
        let telemetry = Telemetry::prometheus();
        let a = Availability::counted_in(telemetry.clone());
        for _ in 0..3 {
            a.failed(&unavailable());
        }
        a.answered();
        a.failed(&unavailable());
        let text = telemetry.render();
        assert!(
            text.lines().any(|l| l == "postal_database_outages_total 2"),
            "{text}"
        );
    }

    #[test]
    fn other_failures_are_the_callers_to_log() {
        let a = Availability::default();
        assert!(!a.failed(&StoreError::Conflict));
        assert!(!a.failed(&StoreError::Db(sqlx::Error::RowNotFound)));
        assert!(!a.in_outage());
    }
}
