//! An analysis's progress message: when an analysis starts, its game's place is told
//! where it stands ("Analysing game #12: 24 of 61 positions"), and the same message is
//! brought up to date as it goes and told at the end whether it is done or failed; the
//! report itself follows as a message of its own. Each update goes through the outbox,
//! queued under the analysis's claim (superseding the updates not yet delivered), and
//! only so often ([`Pace`]): at each fifth of the positions, never sooner than
//! `engines.progress_seconds` after the last. An adapter that edits messages posts the
//! progress message once and edits it for every later update, keeping where it posted it
//! through the service ([`Service::analysis_post`]), so that an analysis resumed after a
//! restart edits the same message; one that cannot edit shows nothing of it (the console:
//! its analyses are made before its next line is read).

use super::commit::{destination_from_key, destination_key};
use super::messages::AnalysisProgress;
use super::parts::Analyses;
use super::Destination;
use crate::store::{AnalysisRow, ProgressUpdate, StoreError};
use std::time::{Duration, Instant};

/// When an analysis's progress message is brought up to date: at each fifth of the
/// positions, but never sooner than `pause` after the last update (with no pause, at
/// each fifth only); after four pauses without a fifth, at the next position all the
/// same, so that a slow analysis still shows it moves. Never once per position of a
/// game of more than five.
#[derive(Clone, Debug)]
pub struct Pace {
    pause: Duration,
    last_at: Instant,
    last_done: u32,
}

impl Pace {
    /// A pace from an update showing `done` positions at `now`.
    pub fn new(pause: Duration, done: u32, now: Instant) -> Pace {
        Pace {
            pause,
            last_at: now,
            last_done: done,
        }
    }

    /// Whether `done` of `of` positions at `now` is worth an update; if so, it counts as
    /// the last one.
    pub fn due(&mut self, done: u32, of: u32, now: Instant) -> bool {
        if done <= self.last_done {
            return false;
        }
        let fifth = |d: u32| u64::from(d) * 5 / u64::from(of.max(1));
        let crossed = fifth(done) > fifth(self.last_done);
        let waited = now.saturating_duration_since(self.last_at);
        let due = match self.pause.is_zero() {
            true => crossed,
            false => waited >= self.pause && (crossed || waited >= self.pause * 4),
        };
        if due {
            self.last_at = now;
            self.last_done = done;
        }
        due
    }
}

/// Where an adapter posted an analysis's progress message, to edit it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisPost {
    /// The channel (or private-message channel) it is in.
    pub channel: String,
    /// The message's id.
    pub message: String,
}

/// Update `p` of analysis `a`'s progress message, for each of its places.
pub(crate) fn progress_update(a: &AnalysisRow, p: AnalysisProgress) -> ProgressUpdate {
    ProgressUpdate {
        destinations: a
            .destination
            .lines()
            .filter(|d| destination_from_key(d).is_some())
            .map(str::to_string)
            .collect(),
        text: p.words(),
        progress: serde_json::to_string(&p).unwrap_or_default(),
    }
}

/// An update read back from the outbox; `None` for one this service did not write.
pub(crate) fn read_progress(json: &str) -> Option<AnalysisProgress> {
    serde_json::from_str(json).ok()
}

impl Analyses<'_> {
    /// Queues update `p` of analysis `a`'s progress message, and wakes its deliverer;
    /// `false`, and nothing queued, when this process no longer holds the analysis.
    pub(crate) async fn queue_progress(
        &self,
        a: &AnalysisRow,
        p: AnalysisProgress,
    ) -> Result<bool, StoreError> {
        let queued = self
            .store
            .queue_progress(a.game_id, &progress_update(a, p))
            .await?;
        if queued {
            self.outbox_news.queued_now();
        }
        Ok(queued)
    }

    /// The pace of progress updates this server's settings ask for.
    pub(crate) fn progress_pace(&self, done: u32) -> Pace {
        let pause = Duration::from_secs(self.settings.engines.progress_seconds);
        Pace::new(pause, done, Instant::now())
    }

    /// What [`Service::analysis_lease_seconds`](super::Service::analysis_lease_seconds) does.
    pub(crate) fn analysis_lease_seconds(&self) -> i64 {
        i64::try_from(self.settings.engines.lease_seconds).unwrap_or(i64::MAX)
    }

    /// What [`Service::analysis_post`](super::Service::analysis_post) does.
    pub(crate) async fn analysis_post(
        &self,
        game: i64,
        to: &Destination,
    ) -> Result<Option<AnalysisPost>, StoreError> {
        let post = self.store.analysis_post(game, &destination_key(to)).await?;
        Ok(post.map(|(channel, message)| AnalysisPost { channel, message }))
    }

    /// What [`Service::record_analysis_post`](super::Service::record_analysis_post) does.
    pub(crate) async fn record_analysis_post(
        &self,
        game: i64,
        to: &Destination,
        post: &AnalysisPost,
    ) -> Result<(), StoreError> {
        let key = destination_key(to);
        self.store
            .record_analysis_post(game, &key, (&post.channel, &post.message))
            .await
    }

    /// What [`Service::forget_analysis_post`](super::Service::forget_analysis_post) does.
    pub(crate) async fn forget_analysis_post(
        &self,
        game: i64,
        to: &Destination,
    ) -> Result<(), StoreError> {
        self.store
            .forget_analysis_post(game, &destination_key(to))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::referee::messages::ProgressState;

    #[test]
    fn updates_come_at_each_fifth_and_never_sooner_than_the_pause() {
        let t0 = Instant::now();
        let s = Duration::from_secs(1);
        // No pause: at each fifth of 61 positions only (13, 25, 37, 49, 61).
        let mut pace = Pace::new(Duration::ZERO, 0, t0);
        let due: Vec<u32> = (1..=61).filter(|&d| pace.due(d, 61, t0)).collect();
        assert_eq!(due, [13, 25, 37, 49, 61]);
        // A pause of a second: a fifth reached sooner waits for the pause.
        let mut pace = Pace::new(s, 0, t0);
        assert!(!pace.due(13, 61, t0 + s / 2));
        assert!(pace.due(14, 61, t0 + s));
        // Four pauses without a fifth: an update all the same.
        assert!(!pace.due(15, 61, t0 + s * 3));
        assert!(pace.due(16, 61, t0 + s * 5));
        // Nothing new, nothing to show.
        assert!(!pace.due(16, 61, t0 + s * 60));
    }

    #[test]
    fn a_progress_reads_back_as_written_and_says_where_it_stands() {
        let p = AnalysisProgress {
            game: 12,
            done: 24,
            of: 61,
            state: ProgressState::Running,
        };
        let a = AnalysisRow {
            game_id: 12,
            status: crate::store::AnalysisStatus::Queued,
            destination: "channel:7\nnot a key".into(),
            error: None,
            positions: 24,
        };
        let u = progress_update(&a, p);
        assert_eq!(u.destinations, ["channel:7"]);
        assert_eq!(read_progress(&u.progress), Some(p));
        assert_eq!(u.text, "Analysing game #12: 24 of 61 positions (39 %)");
        assert_eq!(read_progress("{}"), None);
    }
}
