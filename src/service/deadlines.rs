//! The background deadline check that `postal run` will start: it runs
//! [`Service::tick`] on an interval and hands the reminders and timeouts it produces to
//! the adapter through a channel, until it is told to stop.
//!
//! A check in progress is never cut short: the stop signal is looked at between checks,
//! so every notice that a check records is also handed over. Because each reminder and
//! timeout is recorded in the database with the change it makes, a check that fails (the
//! database is busy, say) is simply tried again at the next interval.

use super::referee::{Outbound, Service};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

/// What a deadline task did before it stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeadlineStats {
    /// Deadline checks run.
    pub checks: u64,
    /// Messages handed to the adapter.
    pub sent: u64,
    /// Checks that failed (and were tried again at the next interval).
    pub failures: u64,
}

/// A running deadline task; [`DeadlineTask::stop`] ends it.
pub struct DeadlineTask {
    stop: watch::Sender<bool>,
    handle: JoinHandle<DeadlineStats>,
}

/// Seconds since the epoch by the system clock, the clock of `postal run`.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl DeadlineTask {
    /// Starts checking deadlines every `every`, at the time `clock` gives, sending each
    /// message to `out`. The task also ends by itself when `out`'s receiver is dropped.
    pub fn spawn(
        service: Arc<Service>,
        every: Duration,
        clock: impl Fn() -> i64 + Send + 'static,
        out: mpsc::Sender<Outbound>,
    ) -> DeadlineTask {
        let (stop, mut stopped) = watch::channel(false);
        let handle = tokio::spawn(async move {
            let mut stats = DeadlineStats::default();
            let mut interval = tokio::time::interval(every);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = interval.tick() => {}
                    _ = stopped.changed() => break,
                }
                stats.checks += 1;
                match service.tick(clock()).await {
                    Ok(messages) => {
                        for m in messages {
                            if out.send(m).await.is_err() {
                                return stats;
                            }
                            stats.sent += 1;
                        }
                    }
                    Err(e) => {
                        stats.failures += 1;
                        eprintln!("postal: deadline check failed, trying again: {e}");
                    }
                }
                if *stopped.borrow() {
                    break;
                }
            }
            stats
        });
        DeadlineTask { stop, handle }
    }

    /// Asks the task to stop, lets the check in progress finish and hand over its
    /// messages, and returns what the task did.
    pub async fn stop(self) -> DeadlineStats {
        let _ = self.stop.send(true);
        self.handle.await.unwrap_or_default()
    }
}
