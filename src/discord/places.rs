//! The service's questions about a server's channels ([`Places`]), answered by
//! Discord: `GET /channels/{id}` says a channel's server and, for a thread, its parent
//! channel. Asked only when a server's settings name channels, never on a move.

use crate::service::places::{ChannelPlace, PlaceAnswer, Places};
use serenity::all::{Channel, ChannelId, ChannelType, Http};
use std::future::Future;
use std::pin::Pin;

/// Discord as the service's [`Places`].
pub(super) struct DiscordPlaces(pub(super) Http);

impl Places for DiscordPlaces {
    fn channel<'a>(
        &'a self,
        server: &'a str,
        channel: &'a str,
    ) -> Pin<Box<dyn Future<Output = PlaceAnswer> + Send + 'a>> {
        Box::pin(async move {
            let Ok(id) = channel.parse::<u64>() else {
                return Ok(None);
            };
            if id == 0 {
                return Ok(None);
            }
            match self.0.get_channel(ChannelId::new(id)).await {
                Ok(Channel::Guild(c)) if c.guild_id.to_string() == server => {
                    let thread = matches!(
                        c.kind,
                        ChannelType::PublicThread
                            | ChannelType::PrivateThread
                            | ChannelType::NewsThread
                    );
                    let parent = match thread {
                        true => c.parent_id.map(|p| p.to_string()),
                        false => None,
                    };
                    Ok(Some(ChannelPlace { parent }))
                }
                Ok(_) => Ok(None),
                // Unknown to Discord, or not visible to the bot: none of the server's
                // channels it could use.
                Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)))
                    if matches!(r.status_code.as_u16(), 403 | 404) =>
                {
                    Ok(None)
                }
                Err(e) => Err(e.to_string()),
            }
        })
    }
}
