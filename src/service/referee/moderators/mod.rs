//! The part [`Moderators`](super::parts::Moderators): a moderator's abort or adjudication
//! of a stuck game and ending of a player's challenges. Each file is an `impl Moderators`
//! of its own.

use super::*;

pub(super) mod moderation;
