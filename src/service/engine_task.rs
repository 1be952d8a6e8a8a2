//! The background task that `postal run` starts for games against the bot: it plays the
//! engine's turns one after another ([`Service::play_engine_next`]), waking when a move
//! gives the engine a turn and on an interval (for a turn another process left when it
//! died, or whose engine failed, once its claim has run out), until it is told to stop.
//! Several processes may run it on one database: each turn is claimed by one of them.
//! Its moves go through the outbox, which the deadline task delivers.
//!
//! It shares the engine pool with the analysis task: the pool is taken for one
//! position at a time, in the order asked, so neither starves the other; and a human
//! move's command never waits for either.

use super::referee::Service;
use crate::store::unix_now;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// A running engine task; [`EngineTask::stop`] ends it.
pub struct EngineTask {
    stop: watch::Sender<bool>,
    handle: JoinHandle<u64>,
}

impl EngineTask {
    /// Starts playing the engine's turns, looking for them every `every` and whenever a
    /// move gives the engine one.
    pub fn spawn(service: Arc<Service>, every: Duration) -> EngineTask {
        let (stop, mut stopped) = watch::channel(false);
        let handle = tokio::spawn(async move {
            let mut played = 0;
            let mut interval = tokio::time::interval(every);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = interval.tick() => {}
                    _ = service.engine_turns_news() => {}
                    _ = stopped.changed() => break,
                }
                loop {
                    if *stopped.borrow() {
                        return played;
                    }
                    let next = tokio::select! {
                        next = service.play_engine_next(unix_now()) => next,
                        _ = stopped.changed() => return played,
                    };
                    match next {
                        Ok(Some(_)) => played += 1,
                        Ok(None) => break,
                        Err(e) => {
                            if !service.failed(&e) {
                                tracing::warn!(error = %e, "an engine's turn failed on the database; trying again");
                            }
                            break;
                        }
                    }
                }
            }
            played
        });
        EngineTask { stop, handle }
    }

    /// Asks the task to stop and returns how many turns it looked at. A turn it was
    /// computing stays queued (the engine seat's deadline) for the next start.
    pub async fn stop(self) -> u64 {
        let _ = self.stop.send(true);
        self.handle.await.unwrap_or_default()
    }
}
