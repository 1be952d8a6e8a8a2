//! The background analysis task that `postal run` starts: it makes the queued analyses
//! one after another ([`Service::analyse_next`]), waking when a command queues one and
//! on an interval (for one another process left when it died, whose claim has run out),
//! until it is told to stop. Several processes may run it on one database: each
//! analysis is claimed by one of them at a time. Its reports go through the outbox,
//! which the deadline task delivers.
//!
//! An analysis never slows play: it runs here, on its own task, and its engines are
//! child processes; a move's command never waits for it.

use super::referee::Service;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// A running analysis task; [`AnalysisTask::stop`] ends it.
pub struct AnalysisTask {
    stop: watch::Sender<bool>,
    handle: JoinHandle<u64>,
}

impl AnalysisTask {
    /// Starts making queued analyses, looking for them every `every` and whenever a
    /// command queues one, each claimed for `lease_seconds` at a time.
    pub fn spawn(service: Arc<Service>, every: Duration, lease_seconds: i64) -> AnalysisTask {
        let (stop, mut stopped) = watch::channel(false);
        let handle = tokio::spawn(async move {
            let mut made = 0;
            let mut interval = tokio::time::interval(every);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = interval.tick() => {}
                    _ = service.analysis_news() => {}
                    _ = stopped.changed() => break,
                }
                loop {
                    if *stopped.borrow() {
                        return made;
                    }
                    // An analysis in progress finishes its position before a stop.
                    let next = tokio::select! {
                        next = service.analyse_next(lease_seconds) => next,
                        _ = stopped.changed() => return made,
                    };
                    match next {
                        Ok(Some(_)) => made += 1,
                        Ok(None) => break,
                        Err(e) => {
                            if !service.failed(&e) {
                                tracing::warn!(error = %e, "an analysis failed on the database; trying again");
                            }
                            break;
                        }
                    }
                }
            }
            made
        });
        AnalysisTask { stop, handle }
    }

    /// Asks the task to stop and returns how many analyses it finished. An analysis it
    /// was making stays queued, with the positions it stored, for the next start.
    pub async fn stop(self) -> u64 {
        let _ = self.stop.send(true);
        self.handle.await.unwrap_or_default()
    }
}
