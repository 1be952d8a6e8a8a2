//! The part [`Analyses`](super::parts::Analyses): finished games analysed by the engines:
//! requests, progress and reports. Each file is an `impl Analyses` of its own.

use super::*;

pub(super) mod analysis;
pub(super) mod analysis_progress;
pub(super) mod analysis_report;
