//! Who sees a recorded request: the private ones (DMs, ephemeral replies) and the
//! public requests that carried a secret.

use super::Recorded;
use std::collections::HashMap;

/// Whether a recorded request is seen by one user only: a message to a DM channel, or an
/// interaction reply or followup flagged ephemeral (64). Everything else is public.
pub fn is_private(r: &Recorded, dm_channels: &HashMap<String, String>) -> bool {
    let seg: Vec<&str> = r.path.trim_matches('/').split('/').collect();
    match seg.as_slice() {
        ["channels", c, "messages", ..] => dm_channels.contains_key(*c),
        ["interactions", _, _, "callback"] | ["webhooks", ..] => r.flags() & 64 != 0,
        // Opening a DM channel, registering commands, typing: carries no message.
        ["users", "@me", "channels"] | ["applications", ..] | ["channels", _, "typing"] => true,
        _ => false,
    }
}

/// The requests that carried `secret` (in their JSON, file names or file bytes) where more
/// than one user could see it. A test fails if this is not empty.
pub fn public_leaks(
    reqs: &[Recorded],
    dm_channels: &HashMap<String, String>,
    secret: &str,
) -> Vec<Recorded> {
    reqs.iter()
        .filter(|r| r.ok() && !is_private(r, dm_channels) && r.all_text().contains(secret))
        .cloned()
        .collect()
}
