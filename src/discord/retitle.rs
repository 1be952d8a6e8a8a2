//! A game's thread named again once a player of it was forgotten
//! ([`Outbound::retitle`](crate::service::referee::Outbound::retitle)): the name given
//! when the thread opened holds its players' display names, and the forgotten player's
//! becomes their label (`game #17 standard: Former player 1 vs Erin`).

use super::delivery::thread_archived;
use super::{thread_name, Core};
use serenity::all::{ChannelId, EditThread, Http};

impl Core {
    /// Names game `game`'s thread `thread` again from the game as stored
    /// ([`Core::thread_title`]). Discord renames no archived thread (50083): it is opened
    /// with its new name and archived again. A thread Discord no longer has, or any
    /// other refusal, is logged (the ids, never a name) and left, as a message that
    /// cannot be delivered is.
    pub(super) async fn retitle_thread(&self, http: &Http, game: i64, thread: &str) {
        let Ok(id) = thread.parse::<u64>() else {
            return;
        };
        let g = match self.service.stored_game(game).await {
            Ok(Some(g)) => g,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot read a game to rename its thread");
                return;
            }
        };
        let (title, _) = self.thread_title(http, &g).await;
        let name = thread_name(&g, &title);
        let channel = ChannelId::new(id);
        self.global.wait().await;
        let renamed = match channel
            .edit_thread(http, EditThread::new().name(name.clone()))
            .await
        {
            Err(serenity::Error::Http(e)) if thread_archived(&e) => {
                self.global.wait().await;
                let open = EditThread::new().archived(false).name(name);
                match channel.edit_thread(http, open).await {
                    Ok(_) => {
                        self.global.wait().await;
                        let closed = EditThread::new().archived(true);
                        channel.edit_thread(http, closed).await
                    }
                    Err(e) => Err(e),
                }
            }
            other => other,
        };
        match renamed {
            Ok(_) => tracing::info!(
                game,
                thread,
                "renamed the thread of a forgotten player's game"
            ),
            Err(e) => tracing::warn!(game, thread, error = %e, "cannot rename a game's thread"),
        }
    }
}
