//! What a player may read of a game: its board, its moves, its record and their own
//! hand, each as the reader may see it.

use super::lookup::{self, Fit};
use super::messages::record_name;
use super::parts::Play;
use super::text;
use super::{Destination, Fail, Incoming, Outbound, Place, Reply};
use crate::variants::api::{Seat, Viewer};

impl Play<'_> {
    /// `board [ID]`: the game's board and status line; asked privately by a player of the
    /// game, their seat's view (a game with hidden pieces shows them their own),
    /// otherwise the public one.
    pub(crate) async fn show_board(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let (g, rules) = self.readable(inc, id, Fit::Live).await?;
        // Asked privately by a player of the game: their seat's view (a game with
        // hidden pieces shows them their own); otherwise the public one.
        let seat = g.seat_of(&inc.user).filter(|_| inc.place == Place::Dm);
        let view = match seat {
            Some(s) => text::seat_view(
                &g,
                rules.as_ref(),
                Seat(s),
                self.settings.public_orientation,
                &self.seat_names(&g),
            ),
            None => text::public_view(
                &g,
                rules.as_ref(),
                self.settings.public_orientation,
                &self.seat_names(&g),
            ),
        };
        let away = self.accounts().vacation_note(&g).await?;
        r.out.push(Outbound {
            to: r.origin.clone(),
            text: format!(
                "game #{}: {}{away}",
                g.id,
                text::status_line(&g, rules.as_ref())
            ),
            image: Some(view),
            game: Some(g.id),
            ..Outbound::default()
        });
        Ok(())
    }

    /// `moves [ID]`: the game's moves, numbered, as the public sees them.
    pub(crate) async fn show_moves(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let (g, _) = self.readable(inc, id, Fit::Live).await?;
        let list = self.whole(&g).await?.project(Viewer::Public).numbered;
        r.say(format!(
            "game #{}: {}",
            g.id,
            if list.is_empty() {
                "no moves yet".into()
            } else {
                list
            }
        ));
        Ok(())
    }

    /// `pgn [ID]`: the game's public record, as a document.
    pub(crate) async fn show_pgn(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let (g, _) = self.readable(inc, id, Fit::Live).await?;
        let mut rules = self.whole(&g).await?;
        self.keep_shared_deal(g.id, rules.as_mut()).await?;
        let tags = self.record_tags(&g, rules.as_ref()).await?;
        // A finished game's analysis, once made, goes with its record.
        let stored = match g.status {
            crate::store::GameStatus::Finished => self.store.analysis_positions(g.id).await?,
            _ => Vec::new(),
        };
        let text = super::analysis_report::analysed_pgn(rules.as_ref(), &tags, &stored)
            .unwrap_or_else(|| rules.pgn(Viewer::Public, &tags));
        r.out.push(Outbound {
            to: r.origin.clone(),
            text,
            game: Some(g.id),
            document: Some(record_name(g.id)),
            ..Outbound::default()
        });
        Ok(())
    }

    /// `hand [ID]`: what the player holds in the game, told privately.
    pub(crate) async fn show_hand(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let (g, rules) = self.readable(inc, id, Fit::Holding).await?;
        let seat = lookup::player_seat(&g, &inc.user)?;
        let text = match rules.project(Viewer::Seat(seat)).holdings {
            Some(t) => format!("game #{}: {t}", g.id),
            // Nothing shown to this player alone: say so without denying what the game
            // calls a hand (Parade's face-down hand, which nobody sees, is on the board).
            None => format!(
                "game #{id}: you hold nothing secret in {}: all you may see is on the board ({}), any face-down cards as a count",
                self.display_name(&g.variant),
                crate::variants::api::command_mark(&format!("board {}", g.id)),
                id = g.id,
            ),
        };
        r.out.push(Outbound {
            to: Destination::Dm(inc.user.clone()),
            text,
            game: Some(g.id),
            ..Outbound::default()
        });
        Ok(())
    }
}
