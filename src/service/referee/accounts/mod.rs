//! The part [`Accounts`](super::parts::Accounts): players' standing and what is theirs:
//! ratings and the leaderboard, vacations, the games each has, personal settings and
//! digests, and forgetting a player. Each file is an `impl Accounts` of its own.

use super::*;

pub(super) mod forget;
pub(super) mod listing;
pub(super) mod personal;
pub(super) mod standing;
pub(super) mod vacation;
