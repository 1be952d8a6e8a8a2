//! `rematch [ID]`: after a game of two players, either player challenges the other to the
//! same variant with the same days per move, options and starting position, colours
//! swapped. The other accepts or declines it like any challenge.

use super::marks::command_mark;
use super::parts::Seating;
use super::routing::offers_rematch;
use super::{ChallengeMark, Destination, Fail, Incoming, Listed, Outbound, Place, Reply};
use crate::service::command::{Challenge, ColourChoice};
use crate::store::{GameRow, GameStatus};
use crate::variants::api::RefusalKind;
use std::collections::BTreeMap;

impl Seating<'_> {
    /// `rematch [ID]`: the challenge of a rematch, made by a player of the game that
    /// ended.
    pub(crate) async fn rematch(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let g = self
            .pick(
                inc,
                id,
                &[GameStatus::Finished, GameStatus::Aborted],
                super::lookup::Fit::Live,
            )
            .await?;
        let c = self.rematch_challenge(inc, &g).await?;
        // Asked for in the game's thread: the challenge goes where the game's own was
        // made (the thread's channel), and the thread gets a line pointing to it.
        let parent = match (&inc.place, self.store.thread_of(g.id).await?) {
            (Place::Channel(here), Some((thread, _))) if *here == thread => {
                self.store.thread_parent(&thread).await?
            }
            _ => return self.challenge(inc, c, r).await,
        };
        self.rematch_in_channel(inc, &g, c, parent, r).await
    }

    /// The challenge of a rematch of `g` asked for by `inc`'s user, colours swapped; a
    /// refusal when there can be none (not a player, not ended, a tournament's game, not
    /// a game of two, an opponent forgotten).
    async fn rematch_challenge(&self, inc: &Incoming, g: &GameRow) -> Result<Challenge, Fail> {
        let Some(seat) = g.seat_of(&inc.user) else {
            return Err(Fail::of(
                RefusalKind::NotYourGame,
                format!("game #{}: only its players may ask for a rematch", g.id),
            ));
        };
        if !g.status.is_ended() {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!("game #{} has not ended: a rematch comes after it", g.id),
            ));
        }
        if self.store.tournament_of_game(g.id).await?.is_some() {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!(
                    "game #{} is a tournament's game: the tournament pairs the next games, so it has no rematch",
                    g.id
                ),
            ));
        }
        let spec = self.registry.get(&g.variant)?;
        if !offers_rematch(g, spec.seats().placing) {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!(
                    "a rematch is for games of two players; for {} challenge again ({})",
                    spec.display_name(),
                    command_mark(&format!("challenge {}", spec.id()))
                ),
            ));
        }
        let other = g
            .seats
            .iter()
            .find(|s| s.seat != seat)
            .and_then(|s| s.user.clone())
            .unwrap_or_default();
        if crate::service::names::is_forgotten(&other) {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!(
                    "game #{}: your opponent asked to be forgotten, so there is no one to ask for a rematch",
                    g.id
                ),
            ));
        }
        let options: BTreeMap<String, String> =
            serde_json::from_str(&g.options).unwrap_or_default();
        let c = Challenge {
            opponents: vec![other],
            variant: Some(g.variant.clone()),
            days: u32::try_from(g.days_per_move).ok(),
            // Colours swapped: the seat the asker had goes to the other player.
            colour: Some(if seat == 0 {
                ColourChoice::Black
            } else {
                ColourChoice::White
            }),
            random_teams: false,
            fen: g.start_fen.clone(),
            options: options.into_iter().collect(),
        };
        Ok(c)
    }

    /// Makes the rematch challenge `c` of `g`, asked for in its thread, in the thread's
    /// channel `parent`, where the game's own challenge was made, and tells the thread
    /// where it is.
    async fn rematch_in_channel(
        &self,
        inc: &Incoming,
        g: &GameRow,
        c: Challenge,
        parent: String,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let there = Incoming {
            place: Place::Channel(parent.clone()),
            ..inc.clone()
        };
        let asked_in = std::mem::replace(&mut r.origin, Destination::Channel(parent.clone()));
        let first = r.out.len();
        let made = self.challenge(&there, c, r).await;
        r.origin = asked_in;
        made?;
        let posted = r.out[first..].iter().find_map(|o| match o.challenge {
            Some(ChallengeMark::Posted(id)) => Some(id),
            _ => None,
        });
        if let Some(id) = posted {
            let line = format!(
                "game #{}: the rematch, challenge #{id}, is posted in the channel the game was challenged in",
                g.id
            );
            r.out.push(Outbound {
                to: r.origin.clone(),
                text: line.clone(),
                listing: vec![Listed {
                    game: id,
                    line,
                    server: g.server.clone(),
                    channel: Some(parent),
                }],
                ..Outbound::default()
            });
        }
        Ok(())
    }
}
