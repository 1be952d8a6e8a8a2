//! A game's public record and animation, for an adapter to attach or export.

use super::messages::record_name;
use super::parts::Play;
use super::text::{as_tournament_game, pgn_tags, tournament_name};
use crate::store::GameRow;
use crate::store::StoreError;
use crate::variants::api::{GameRules, Viewer};
use std::sync::Arc;

impl Play<'_> {
    /// What [`Service::record`](super::Service::record) does.
    pub(crate) async fn record(&self, id: i64) -> Result<Option<(String, String)>, StoreError> {
        let Some(g) = self.store.game(id).await? else {
            return Ok(None);
        };
        let log = self.store.actions(id).await?;
        let Ok(mut rules) = super::whole_with(&self.registry, &g, &log) else {
            return Ok(None);
        };
        self.keep_shared_deal(id, rules.as_mut()).await?;
        let tags = self.record_tags(&g, rules.as_ref()).await?;
        Ok(Some((record_name(id), rules.pgn(Viewer::Public, &tags))))
    }

    /// Keeps `rules`' deal secret ([`GameRules::keep_deal_secret`]) where game `id` is an
    /// attempt of a best-score competition whose deals are still in play
    /// ([`crate::store::Store::deal_in_play`]): every entrant plays the same cards, so no
    /// attempt's record shows them while anyone may still play them.
    pub(crate) async fn keep_shared_deal(
        &self,
        id: i64,
        rules: &mut dyn GameRules,
    ) -> Result<(), StoreError> {
        if self.store.deal_in_play(id).await? {
            rules.keep_deal_secret();
        }
        Ok(())
    }

    /// The PGN tags of game `g`'s record ([`pgn_tags`]); a tournament's game is tagged
    /// with its tournament as the event, its round and its board, as the tournament's own
    /// record tags it.
    pub(crate) async fn record_tags(
        &self,
        g: &GameRow,
        rules: &dyn GameRules,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let mut tags = pgn_tags(g, rules, &self.seat_names(g));
        if let Some((id, round, board)) = self.store.tournament_of_game(g.id).await? {
            if let Some(t) = self.store.tournament(id).await? {
                let name = tournament_name(&t, self.display_name(&t.variant));
                as_tournament_game(&mut tags, &name, round, board);
            }
        }
        Ok(tags)
    }

    /// What [`Service::animation`](super::Service::animation) does.
    pub(crate) async fn animation(
        &self,
        id: i64,
        renderer: Arc<crate::render::Renderer>,
    ) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        let Some(g) = self.store.game(id).await? else {
            return Ok(None);
        };
        let log = self.store.actions(id).await?;
        let Ok(rules) = super::whole_with(&self.registry, &g, &log) else {
            return Ok(None);
        };
        let names = self.seat_names(&g);
        let gif = tokio::task::spawn_blocking(move || {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            rules.animation(Viewer::Public, &renderer, &names)
        })
        .await
        .ok()
        .flatten();
        Ok(gif.map(|bytes| (format!("game-{id}.gif"), bytes)))
    }
}
