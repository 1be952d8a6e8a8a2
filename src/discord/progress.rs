//! An analysis's progress message on Discord: the first update of an analysis is posted
//! as a small embed (a bar and "24 of 61 positions") in the game's place, and every later
//! one edits that message, found again through the service ([`Service::analysis_post`]),
//! so that an analysis resumed after a restart edits the same message; the last (done or
//! failed) edits it once more and forgets it. A message deleted meanwhile is posted
//! anew. docs/discord.md, "Analysis".

use super::*;
use crate::service::referee::{AnalysisPost, AnalysisProgress, ProgressState};

/// How many cells the progress bar has.
const BAR: u32 = 10;

/// The embed of progress `p`: the game in its title, a bar and the count below.
pub(super) fn progress_page(p: &AnalysisProgress) -> embeds::Page {
    let full = (p.percent() * BAR / 100).min(BAR) as usize;
    let bar = format!(
        "{}{}",
        "\u{25b0}".repeat(full),
        "\u{25b1}".repeat(BAR as usize - full)
    );
    let (title, line) = match p.state {
        ProgressState::Running => (
            format!("Analysing game #{}", p.game),
            format!("{bar} {} of {} positions ({} %)", p.done, p.of, p.percent()),
        ),
        ProgressState::Done => (
            format!("Analysed game #{}", p.game),
            format!("{bar} all {} positions: the report follows", p.of),
        ),
        ProgressState::Failed => (
            format!("Analysis of game #{} stopped", p.game),
            format!(
                "{bar} {} of {} positions: the analysis failed (why follows)",
                p.done, p.of
            ),
        ),
    };
    embeds::Page {
        title,
        description: line,
        ..embeds::Page::default()
    }
}

impl Core {
    /// Delivers update `p` (outbox message `id`) of an analysis's progress message:
    /// an edit of the message posted for its game and place, else a new post kept for
    /// the next update.
    pub(super) async fn deliver_progress(
        &self,
        http: &Http,
        id: i64,
        message: Outbound,
        p: AnalysisProgress,
    ) {
        let to = message.to.clone();
        let post = match self.service.analysis_post(p.game, &to).await {
            Ok(post) => post,
            Err(e) => {
                tracing::warn!(game = p.game, error = %e, "cannot read where an analysis's progress is shown");
                None
            }
        };
        let edited = match &post {
            Some(post) => self.edit_progress(http, post, &p).await,
            None => false,
        };
        if !edited {
            let out = Out {
                msg: message,
                buttons: Vec::new(),
                nonce: Some(format!("postal-{id}")),
                reply_to: None,
            };
            let sent = match &to {
                Destination::Channel(c) => self.send_channel(http, c, &out).await,
                Destination::Dm(u) => self.send_dm(http, u, &out, None).await,
            };
            match sent {
                Ok(Some(m)) => {
                    let post = AnalysisPost {
                        channel: m.channel_id.to_string(),
                        message: m.id.to_string(),
                    };
                    if let Err(e) = self.service.record_analysis_post(p.game, &to, &post).await {
                        tracing::warn!(game = p.game, error = %e, "cannot keep where an analysis's progress is shown");
                    }
                }
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(game = p.game, error = %e, "cannot show an analysis's progress")
                }
            }
        }
        if p.state != ProgressState::Running {
            if let Err(e) = self.service.forget_analysis_post(p.game, &to).await {
                tracing::warn!(game = p.game, error = %e, "cannot forget an analysis's progress message");
            }
        }
    }

    /// Edits progress message `post` to show `p`: `false` when Discord no longer has it
    /// (deleted), to post it anew; any other refusal is logged, and the next update
    /// tries again.
    async fn edit_progress(&self, http: &Http, post: &AnalysisPost, p: &AnalysisProgress) -> bool {
        let (Ok(channel), Ok(message)) = (post.channel.parse::<u64>(), post.message.parse::<u64>())
        else {
            return false;
        };
        let edit = EditMessage::new()
            .embed(progress_page(p).embed())
            .allowed_mentions(CreateAllowedMentions::new());
        self.global.wait().await;
        match ChannelId::new(channel)
            .edit_message(http, MessageId::new(message), edit)
            .await
        {
            Ok(_) => true,
            Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)))
                if r.error.code == 10008 =>
            {
                false
            }
            Err(e) => {
                tracing::warn!(game = p.game, error = %e, "cannot edit an analysis's progress message");
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_embed_fits_and_says_where_the_analysis_stands() {
        for (done, of, state) in [
            (0, 1, ProgressState::Running),
            (24, 61, ProgressState::Running),
            (u32::MAX, u32::MAX, ProgressState::Done),
            (3, 9, ProgressState::Failed),
        ] {
            let p = AnalysisProgress {
                game: i64::MAX,
                done,
                of,
                state,
            };
            let page = progress_page(&p);
            assert!(page.fits(), "{page:?}");
            assert!(page.size() < 200, "{page:?}");
        }
        let p = AnalysisProgress {
            game: 12,
            done: 24,
            of: 61,
            state: ProgressState::Running,
        };
        let page = progress_page(&p);
        assert_eq!(page.title, "Analysing game #12");
        assert_eq!(
            page.description,
            "\u{25b0}\u{25b0}\u{25b0}\u{25b1}\u{25b1}\u{25b1}\u{25b1}\u{25b1}\u{25b1}\u{25b1} 24 of 61 positions (39 %)"
        );
    }
}
