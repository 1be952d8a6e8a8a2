//! The part [`Events`](super::parts::Events): tournaments and competitions: rounds,
//! sign-up, standings and their announcements. Each file is an `impl Events` of its own.

use super::*;

pub(super) mod competition;
pub(super) mod progress;
pub(super) mod round_outbox;
pub(super) mod rounds;
pub(super) mod signup;
pub(super) mod tournament;
