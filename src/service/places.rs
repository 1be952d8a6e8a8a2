//! What the service may ask the chat platform about a place, where only the platform
//! knows: whether a channel belongs to a server, and whether it is a thread (and of
//! which channel). An adapter that has servers gives the service its [`Places`]
//! ([`crate::service::referee::Service::with_places`]); without one (the console, which
//! has no servers) nothing is asked and nothing is checked.

use std::future::Future;
use std::pin::Pin;

/// A channel of a server, as the platform knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelPlace {
    /// For a thread, the channel it was opened in; `None` for a channel.
    pub parent: Option<String>,
}

/// The platform's answer about a channel: `Ok(Some(_))` a channel (or thread) of the
/// server asked about; `Ok(None)` none of its channels (another server's, a private
/// conversation, or no channel at all); `Err` the platform could not be asked (why).
pub type PlaceAnswer = Result<Option<ChannelPlace>, String>;

/// What the service may ask the platform about places.
pub trait Places: Send + Sync {
    /// Channel `channel` as server `server` has it.
    fn channel<'a>(
        &'a self,
        server: &'a str,
        channel: &'a str,
    ) -> Pin<Box<dyn Future<Output = PlaceAnswer> + Send + 'a>>;
}
