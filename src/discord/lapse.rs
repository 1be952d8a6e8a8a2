//! Buttons whose moment passes: a message that offers a game's players an answer (Booster's
//! Done, a draw offer's Accept, a Claim on time) keeps its buttons until a later turn of
//! its game is posted in the same channel, or the game ends; its message is then edited to
//! take them off. Which messages hold such buttons is stored (migration 0029,
//! [`Service::keep_lapsing`](crate::service::referee::Service::keep_lapsing)), so that
//! after a restart the game's next turn still takes them off; a button left behind all the
//! same (past the few kept per game and channel) is taken off when pressed, the press
//! refused as late (`interactions.rs`).

use super::{Core, Out};
use crate::service::referee::adapter::PostedMessage;
use crate::service::referee::ChallengeMark;
use serenity::all::{ChannelId, EditMessage, Http, MessageId};

/// Whether `out` moves its game on: a turn, or the game's end.
pub(super) fn moves_on(out: &Out) -> bool {
    out.msg.game.is_some() && (out.msg.turn || out.msg.ending)
}

/// Whether `out`'s buttons lapse when its game moves on: a game's message with a button
/// that does not stay once pressed, other than the end's (Rematch, Analyse) and a
/// challenge's (Accept, Decline, Cancel: edited once the challenge is settled, as
/// `delivery.rs` keeps them).
pub(super) fn lapses(out: &Out) -> bool {
    let challenge = matches!(out.msg.challenge, Some(ChallengeMark::Posted(_)));
    out.msg.game.is_some()
        && !out.msg.ending
        && !challenge
        && out.msg.buttons.iter().any(|b| !b.keep)
}

impl Core {
    /// After `out` was posted in `channel` (as message `sent`, when Discord said which):
    /// when it moves its game on, the earlier messages of that game there lose their
    /// lapsing buttons; when its own buttons lapse, it is kept to lose them in turn.
    pub(super) async fn lapse_buttons(
        &self,
        http: &Http,
        out: &Out,
        channel: ChannelId,
        sent: Option<MessageId>,
    ) {
        let Some(game) = out.msg.game else {
            return;
        };
        if moves_on(out) {
            // The end takes off every one of the game's lapsing buttons, wherever they are.
            let here = channel.to_string();
            let which = (!out.msg.ending).then_some(here.as_str());
            let taken = match self.service.take_lapsing(game, which).await {
                Ok(taken) => taken,
                Err(e) => {
                    tracing::warn!(game, error = %e, "cannot read the lapsing buttons");
                    Vec::new()
                }
            };
            let sent = sent.map(|m| m.to_string());
            for p in taken
                .into_iter()
                .filter(|p| Some(&p.message) != sent.as_ref())
            {
                let (Ok(at), Ok(m)) = (p.channel.parse::<u64>(), p.message.parse::<u64>()) else {
                    continue;
                };
                if at == 0 || m == 0 {
                    continue;
                }
                let edit = EditMessage::new().components(Vec::new());
                self.global.wait().await;
                let edited = ChannelId::new(at).edit_message(http, MessageId::new(m), edit);
                if let Err(e) = edited.await {
                    tracing::warn!(game, error = %e, "cannot take lapsed buttons off");
                }
            }
        }
        if let (true, Some(sent)) = (lapses(out), sent) {
            let posted = PostedMessage {
                channel: channel.to_string(),
                message: sent.to_string(),
            };
            let kept = self.service.keep_lapsing(game, &posted).await;
            if let Err(e) = kept {
                tracing::warn!(game, error = %e, "cannot keep a message's lapsing buttons");
            }
        }
    }

    /// After an interaction in `channel` (`None`: in a DM) was answered with `out`: as
    /// [`Core::lapse_buttons`], the answer read back from Discord when its own buttons
    /// lapse (an ephemeral one, which only its reader sees, is left alone).
    pub(super) async fn lapse_answered(
        &self,
        http: &Http,
        token: &str,
        out: &Out,
        channel: Option<&str>,
        ephemeral: bool,
    ) {
        let Some(channel) = channel
            .and_then(|c| c.parse::<u64>().ok())
            .filter(|c| *c > 0)
        else {
            return;
        };
        let sent = match !ephemeral && lapses(out) {
            true => match http.get_original_interaction_response(token).await {
                Ok(m) => Some(m.id),
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read an answer with buttons");
                    None
                }
            },
            false => None,
        };
        if moves_on(out) || sent.is_some() {
            self.lapse_buttons(http, out, ChannelId::new(channel), sent)
                .await;
        }
    }
}
