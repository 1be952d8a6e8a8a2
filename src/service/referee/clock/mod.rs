//! The part [`Clock`](super::parts::Clock): time passing: deadlines, reminders and
//! timeouts, and the outbox they fill. Each file is an `impl Clock` of its own.

use super::*;

pub(super) mod outbox;
