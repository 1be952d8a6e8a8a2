//! The part [`Servers`](super::parts::Servers): a server's own settings, stored and
//! applied. Each file is an `impl Servers` of its own.

use super::*;

pub(super) mod server_settings;
