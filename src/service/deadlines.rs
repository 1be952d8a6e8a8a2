//! The background deadline check that `postal run` starts: it runs [`Service::tick`] on
//! an interval and hands the reminders and timeouts waiting in the outbox to the adapter
//! through a channel, until it is told to stop. Several processes may run it on one
//! database: each message is claimed by one of them before it is handed over
//! ([`Service::claim_undelivered`]), so exactly one delivers it.
//!
//! **Delivery guarantee.** Each message is stored in the outbox in the same transaction
//! as the notice or the game's change that caused it, and stays there until the adapter,
//! having delivered it, calls [`Service::delivered`] with its id. This task hands each
//! undelivered message over once per process: again only after a restart, when every
//! message still undelivered is handed over at the first check. So no reminder or timeout
//! is lost to a crash, and the only repeat possible is of a message delivered just before
//! a crash and not yet marked (at most the messages in flight at that moment); the
//! Discord adapter sends each with a nonce Discord enforces, which lets Discord drop such
//! a repeat within its nonce window.
//!
//! **Cost.** A check reads what is due, not what is stored: range queries on indexes of
//! the times deadlines are next to be looked at, of the players' next digests and of open
//! challenges by age (`store/deadlines.rs`, migration 0019). Once, when the task starts,
//! every deadline's next look is brought forward to this process's reminder hours
//! ([`Service::recheck_deadlines`]), which the database does not hold.
//!
//! A check in progress is never cut short: the stop signal is looked at between checks.
//! A check that fails (the database is busy, say) is simply tried again at the next
//! interval.

use super::referee::{Queued, Service};
use crate::store::StoreError;
use std::collections::HashSet;
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

/// Seconds between two prunings of event keys ([`DeadlineTask::spawn_pruning`]).
const PRUNE_EVERY: i64 = 3600;

/// A running deadline task; [`DeadlineTask::stop`] ends it.
pub struct DeadlineTask {
    stop: watch::Sender<bool>,
    handle: JoinHandle<DeadlineStats>,
}

pub use crate::store::unix_now;

impl DeadlineTask {
    /// Starts checking deadlines every `every` (the first check at once), at the time
    /// `clock` gives, sending each undelivered outbox message to `out` once. Whoever
    /// receives them calls [`Service::delivered`] after delivering each. The task also
    /// ends by itself when `out`'s receiver is dropped.
    pub fn spawn(
        service: Arc<Service>,
        every: Duration,
        clock: impl Fn() -> i64 + Send + 'static,
        out: mpsc::Sender<Queued>,
    ) -> DeadlineTask {
        DeadlineTask::spawn_pruning(service, every, clock, out, None)
    }

    /// [`DeadlineTask::spawn`] that also prunes, at its first check and then hourly (by
    /// `clock`), the keys of Discord events older than `event_key_days` days
    /// ([`Service::prune_event_keys`]); `None` prunes nothing.
    pub fn spawn_pruning(
        service: Arc<Service>,
        every: Duration,
        clock: impl Fn() -> i64 + Send + 'static,
        out: mpsc::Sender<Queued>,
        event_key_days: Option<u32>,
    ) -> DeadlineTask {
        let (stop, mut stopped) = watch::channel(false);
        let handle = tokio::spawn(async move {
            let mut stats = DeadlineStats::default();
            // Handed over and not yet marked delivered: not handed over again.
            let mut handed: HashSet<i64> = HashSet::new();
            // The deadlines' next looks brought forward to this process's reminder
            // hours, once, before its first check ([`Service::recheck_deadlines`]).
            let mut rechecked = false;
            let mut pruned_at = i64::MIN;
            let mut interval = tokio::time::interval(every);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = interval.tick() => {}
                    // A command queued messages (a tournament's round): delivered now.
                    _ = service.outbox_news() => {}
                    _ = stopped.changed() => break,
                }
                stats.checks += 1;
                let started = std::time::Instant::now();
                let now = clock();
                let checked = check(&service, now, &mut rechecked).await;
                service
                    .telemetry()
                    .deadline_tick(started.elapsed().as_secs_f64());
                match checked {
                    Ok(queued) => {
                        service.availability().answered();
                        service.telemetry().outbox_waiting(queued.len());
                        if !hand_over(queued, &mut handed, &out, &mut stats).await {
                            return stats;
                        }
                    }
                    Err(e) => {
                        stats.failures += 1;
                        // The database not answering is logged once, by its outage.
                        if !service.failed(&e) {
                            tracing::warn!(error = %e, "deadline check failed; trying again");
                        }
                    }
                }
                if let Some(days) =
                    event_key_days.filter(|_| now >= pruned_at.saturating_add(PRUNE_EVERY))
                {
                    pruned_at = now;
                    prune(&service, days).await;
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

/// One deadline check at `now`; the first (`rechecked` false until it succeeds) first
/// brings the deadlines' next looks forward to this process's reminder hours.
async fn check(
    service: &Service,
    now: i64,
    rechecked: &mut bool,
) -> Result<Vec<Queued>, StoreError> {
    if !*rechecked {
        service.recheck_deadlines(now).await?;
        *rechecked = true;
    }
    service.tick(now).await
}

/// Hands the messages `queued` to `out`, but those already handed over and not yet
/// marked delivered (`handed`, which forgets those no longer waiting); `false` when the
/// receiver is gone.
async fn hand_over(
    queued: Vec<Queued>,
    handed: &mut HashSet<i64>,
    out: &mpsc::Sender<Queued>,
    stats: &mut DeadlineStats,
) -> bool {
    let waiting: HashSet<i64> = queued.iter().map(|q| q.id).collect();
    handed.retain(|id| waiting.contains(id));
    for q in queued {
        if !handed.insert(q.id) {
            continue;
        }
        if out.send(q).await.is_err() {
            return false;
        }
        stats.sent += 1;
    }
    true
}

/// Prunes the keys of Discord events older than `days` days, saying how many.
async fn prune(service: &Service, days: u32) {
    match service.prune_event_keys(days).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(
            keys = n,
            "pruned the keys of events Discord can no longer deliver again"
        ),
        Err(e) => {
            tracing::warn!(error = %e, "cannot prune event keys; trying again in an hour")
        }
    }
}
