//! The part [`Seating`](super::parts::Seating): seats taken: challenges made and
//! answered, games started, rematches. Each file is an `impl Seating` of its own.

use super::*;

pub(super) mod answers;
pub(super) mod challenge;
pub(super) mod rematch;
