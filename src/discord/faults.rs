//! What the adapter adds to serenity against two of Discord's faults.
//!
//! **Events delivered twice.** Discord delivers gateway events at least once: a RESUME
//! may bring again an event the bot already had. The service ignores a second copy of a
//! command that changed something (its event id is stored with the change), but it would
//! answer a second copy of one that changed nothing (`!board`, a refusal) again. So the
//! bot remembers the ids of the messages and interactions it handled lately
//! ([`Seen`]) and drops a copy.
//!
//! **The global rate limit.** Serenity 0.12.5 waits out a 429 on a route for every
//! request of that route, but a global 429 (`X-RateLimit-Global`) only for the request
//! that got it: the bot's other requests go on, and Discord counts each as an invalid
//! request. So the bot notes a global 429 that serenity's rate limiter reports (the
//! event handler's `ratelimit`, [`GlobalLimit::hold`]) and its own requests wait until it
//! is over ([`GlobalLimit::wait`]). Interaction responses are not bound by the global limit and
//! do not wait.

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// How many event ids [`Seen`] remembers: far more than a RESUME sends again.
const REMEMBERED: usize = 16_384;

/// The ids of the gateway events (messages, interactions) handled lately, the oldest
/// forgotten first.
#[derive(Default)]
pub(super) struct Seen(Mutex<(HashSet<u64>, VecDeque<u64>)>);

impl Seen {
    /// Whether the event `id` comes for the first time (and remembers it): false for a
    /// copy, which is to be dropped.
    pub(super) fn first_time(&self, id: u64) -> bool {
        let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (set, order) = &mut *guard;
        if !set.insert(id) {
            return false;
        }
        order.push_back(id);
        if order.len() > REMEMBERED {
            if let Some(old) = order.pop_front() {
                set.remove(&old);
            }
        }
        true
    }
}

/// Until when Discord's global rate limit holds the bot's requests back, as its last
/// global 429 said.
#[derive(Default)]
pub(super) struct GlobalLimit(Mutex<Option<Instant>>);

impl GlobalLimit {
    /// Holds the bot's requests back for `wait` from now (logged once per global 429).
    pub(super) fn hold(&self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if held.map_or(true, |t| t < until) {
            *held = Some(until);
        }
        tracing::warn!(
            retry_after_ms = wait.as_millis() as u64,
            "Discord's global rate limit: every request waits"
        );
    }

    /// Waits until the global limit, if one holds, is over; to be awaited before each
    /// request to Discord's REST API but interaction responses.
    pub(super) async fn wait(&self) {
        loop {
            let until = *self.0.lock().unwrap_or_else(|e| e.into_inner());
            match until {
                Some(t) if t > Instant::now() => tokio::time::sleep_until(t).await,
                _ => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_not_the_first_time_and_old_ids_are_forgotten() {
        let seen = Seen::default();
        assert!(seen.first_time(1_234_567_890_123_456_789));
        assert!(!seen.first_time(1_234_567_890_123_456_789));
        for id in 0..REMEMBERED as u64 {
            assert!(seen.first_time(id));
        }
        assert!(seen.first_time(1_234_567_890_123_456_789), "forgotten");
    }

    /// A later, shorter global 429 does not end the limit sooner (a lower bound on the
    /// wait, which holds however slow the machine is).
    #[tokio::test]
    async fn the_global_limit_holds_until_its_end() {
        let limit = GlobalLimit::default();
        limit.wait().await;
        let start = Instant::now();
        limit.hold(Duration::from_millis(300));
        limit.hold(Duration::from_millis(100));
        limit.wait().await;
        assert!(start.elapsed() >= Duration::from_millis(300));
    }
}
