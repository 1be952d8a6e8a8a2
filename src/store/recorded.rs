//! Whether a command's chat event is stored, known without asking the database again:
//! the store notes, in the task that runs the command, each write that stored an event
//! id (or found it stored by an earlier delivery), and [`recording_events`] hands the
//! note back with the command's result. A lookup of the event ([`super::Store::event_seen`],
//! which a refusal makes before answering) replaces the note with what is stored. An
//! adapter learns from it whether the command changed anything, where it used to read
//! the event back after every command.

use std::cell::Cell;
use std::future::Future;

tokio::task_local! {
    /// Set once a write in the current [`recording_events`] stored its event id.
    static RECORDED: Cell<bool>;
}

/// Runs `work` and returns its output with whether any store call it made stored a chat
/// event id, or found one stored ([`super::Store::event_seen`], a duplicate delivery).
/// Only calls made in this task count (not in tasks it spawns).
pub async fn recording_events<F: Future>(work: F) -> (F::Output, bool) {
    RECORDED
        .scope(Cell::new(false), async move {
            let out = work.await;
            (out, RECORDED.with(Cell::get))
        })
        .await
}

/// Notes that the running command's event is stored; nothing outside
/// [`recording_events`].
pub(super) fn note() {
    set(true);
}

/// Notes whether the running command's event is stored, as the database just said.
pub(super) fn set(stored: bool) {
    let _ = RECORDED.try_with(|r| r.set(stored));
}
