//! How a tournament goes on: after a command that ended one of its games, or at the
//! deadline task's sweep; a best-score competition by its deals
//! ([`Service::competition_step`]), any other by its rounds ([`Service::advance_rounds`]).

use super::commit;
use super::messages::{Destination, Fail, Reply};
use super::parts::Events;
use super::rounds::RETRIES;
use crate::service::tournament::{is_competition, MAX_ENTRANTS};
use crate::store::TournamentState;
use crate::store::{NewMessage, StoreError};

impl Events<'_> {
    /// After a command that ended `games`: each tournament one of them belongs to goes
    /// on (its next round, or its end), its messages added to the answer.
    pub(crate) async fn tournament_games_ended(
        &self,
        games: &[i64],
        at: i64,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let mut done = Vec::new();
        for &g in games {
            if let Some((t, _, _)) = self.store.tournament_of_game(g).await? {
                // A tournament's game is followed by its next round, not a rematch.
                self.no_rematch(g, r).await?;
                if !done.contains(&t) {
                    done.push(t);
                    self.advance(t, at, r).await?;
                }
            }
        }
        Ok(())
    }

    /// Takes the Rematch button off the messages of `r` that end game `id`, a
    /// tournament's game.
    async fn no_rematch(&self, id: i64, r: &mut Reply) -> Result<(), Fail> {
        let Some(g) = self.store.game(id).await? else {
            return Ok(());
        };
        let Some(rematch) = self.rematch_button(&g) else {
            return Ok(());
        };
        for o in r.out.iter_mut().filter(|o| o.game == Some(id) && o.ending) {
            o.buttons.retain(|b| *b != rematch);
        }
        Ok(())
    }

    /// What [`Service::advance_tournaments`](super::Service::advance_tournaments) does.
    pub(crate) async fn advance_tournaments(&self, now: i64) -> Result<(), StoreError> {
        // Tournaments whose sign-up deadline has passed start, or are cancelled.
        self.close_signups(now).await?;
        let mut ids = self.store.tournaments_to_advance().await?;
        ids.extend(self.store.competitions_to_advance().await?);
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            let mut r = Reply {
                out: Vec::new(),
                origin: Destination::default(),
                plain: Vec::new(),
            };
            match self.advance_as(id, now, true, &mut r).await {
                Ok(()) => {}
                Err(Fail::Store(e)) => return Err(e),
                Err(Fail::Refuse(e)) => tracing::error!("tournament #{id}: {}", e.text),
                Err(Fail::Choose(_)) => {}
            }
            let messages: Vec<(Option<i64>, NewMessage)> = r
                .out
                .iter()
                .map(|o| {
                    let m = NewMessage {
                        destination: commit::destination_key(&o.to),
                        text: o.text.clone(),
                        board: o.image.is_some(),
                        ending: false,
                        claim_seat: None,
                    };
                    (o.game, m)
                })
                .collect();
            self.store.queue_messages(&messages, now).await?;
        }
        Ok(())
    }

    /// Tournament `id` goes on if it is running: a competition deals its entrants' next
    /// deals (or ends), any other tournament starts its next round (or ends). Nothing when
    /// another process did it first.
    pub(crate) async fn advance(&self, id: i64, at: i64, r: &mut Reply) -> Result<(), Fail> {
        self.advance_as(id, at, false, r).await
    }

    /// [`Service::advance`]; `queued`: the deadline task's sweep does it, and a
    /// competition's deals are announced from the outbox, queued by the write that deals
    /// them (a round's always are).
    async fn advance_as(&self, id: i64, at: i64, queued: bool, r: &mut Reply) -> Result<(), Fail> {
        for _ in 0..RETRIES + MAX_ENTRANTS * 2 {
            let Some(t) = self.store.tournament(id).await? else {
                return Ok(());
            };
            if t.state != TournamentState::Running {
                return Ok(());
            }
            if !is_competition(&t) {
                return self.advance_rounds(id, at, r).await;
            }
            if self.competition_step(&t, at, queued, r).await? {
                return Ok(());
            }
        }
        Err(Fail::Store(StoreError::Conflict))
    }
}
