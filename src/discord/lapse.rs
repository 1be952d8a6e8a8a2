//! Buttons whose moment passes: a message that offers a game's players an answer (Booster's
//! Done, a draw offer's Accept, a Claim on time) keeps its buttons until a later turn of
//! its game, or its end, is posted in the same channel; its message is then edited to take
//! them off. Kept in memory: after a restart, a button left behind is taken off when
//! pressed, the press refused as late (`interactions.rs`).

use super::{Core, Out};
use serenity::all::{ChannelId, EditMessage, Http, MessageId};
use std::collections::HashMap;
use std::sync::Mutex;

/// The most messages kept with lapsing buttons for one game in one channel; older ones
/// are left to be taken off when pressed.
const KEPT: usize = 16;

/// The messages of each game, in each channel, whose buttons lapse when it moves on.
#[derive(Default)]
pub(super) struct Lapsing(Mutex<HashMap<(i64, u64), Vec<u64>>>);

impl Lapsing {
    /// The messages of `game` in `channel` whose buttons lapse, forgotten here.
    fn take(&self, game: i64, channel: u64) -> Vec<u64> {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.remove(&(game, channel)).unwrap_or_default()
    }

    /// Keeps `message` of `game` in `channel` as one whose buttons lapse.
    fn keep(&self, game: i64, channel: u64, message: u64) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let messages = kept.entry((game, channel)).or_default();
        messages.push(message);
        if messages.len() > KEPT {
            messages.remove(0);
        }
    }
}

/// Whether `out` moves its game on: a turn, or the game's end.
pub(super) fn moves_on(out: &Out) -> bool {
    out.msg.game.is_some() && (out.msg.turn || out.msg.ending)
}

/// Whether `out`'s buttons lapse when its game moves on: a game's message with a button
/// that does not stay once pressed, other than the end's (Rematch, Analyse).
pub(super) fn lapses(out: &Out) -> bool {
    out.msg.game.is_some() && !out.msg.ending && out.msg.buttons.iter().any(|b| !b.keep)
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
            for m in self.lapsing.take(game, channel.get()) {
                if Some(m) == sent.map(MessageId::get) {
                    continue;
                }
                let edit = EditMessage::new().components(Vec::new());
                self.global.wait().await;
                if let Err(e) = channel.edit_message(http, MessageId::new(m), edit).await {
                    tracing::warn!(game, error = %e, "cannot take lapsed buttons off");
                }
            }
        }
        if let (true, Some(sent)) = (lapses(out), sent) {
            self.lapsing.keep(game, channel.get(), sent.get());
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
