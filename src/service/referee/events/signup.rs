//! A tournament's start: its first round (a round robin played together: every round)
//! paired and started with its announcements queued in the outbox, by `tournament start`
//! or, once its sign-up deadline (`signup:DAYS`) has passed, by the deadline task's sweep
//! ([`Service::close_signups`]), which deals a best-score competition's first deal
//! instead ([`Service::deal_next`]). A tournament whose sign-up closes with too few
//! players is cancelled, saying why in the channel it was made in. Each is one
//! version-checked transaction with its messages, so it happens once, whatever the
//! processes.

use super::messages::{Destination, Fail, Reply};
use super::parts::Events;
use super::round_outbox::{board_messages, tournament_place};
use super::text::tournament_name;
use crate::service::competition::Competition;
use crate::service::tournament::{format_of, is_competition, record_of, rounds_of, seed_order};
use crate::store::{EntrantRow, RoundMessage, StoreError, TournamentRow};
use crate::store::{RoundStep, TournamentState};
use crate::tournament::{schedule, Format, Pairing};
use crate::variants::api::RefusalKind;

/// How many times a sign-up's close is tried again when another write came between.
const RETRIES: usize = 4;

/// The fewest players tournament `t` starts with: 2 for a round robin or a best-score
/// competition, 3 for a Swiss.
pub(crate) fn players_needed(t: &TournamentRow) -> usize {
    if is_competition(t) {
        return 2;
    }
    match format_of(t) {
        Format::RoundRobin => 2,
        Format::Swiss => 3,
    }
}

impl Events<'_> {
    /// Starts tournament `t` (in sign-up, read with its `entrants`, enough of them) with
    /// its first round, or every round of a round robin played together: the games
    /// created and their announcements queued in the outbox, in one transaction, by chat
    /// event `event` if a command does it, at `at`. The line that says it starts is the
    /// command's answer, or (`lead_queued`: the sweep starts it) queued first. `false`
    /// when another write came between, and nothing was done.
    pub(crate) async fn begin_rounds(
        &self,
        t: &TournamentRow,
        entrants: &[EntrantRow],
        (event, at): (Option<&str>, i64),
        lead_queued: bool,
        r: &mut Reply,
    ) -> Result<bool, Fail> {
        let Some((t, entrants)) = self.seeded(t, entrants, at).await? else {
            return Ok(false);
        };
        let (t, entrants) = (&t, &entrants[..]);
        let spec = self.registry.get(&t.variant)?;
        let (record, users) = record_of(t, entrants, &[]);
        let rounds: Vec<(Vec<Pairing>, Option<usize>)> = match format_of(t) {
            Format::RoundRobin => {
                let all = schedule(users.len(), t.double);
                let n = if t.mode == "together" { all.len() } else { 1 };
                all.into_iter()
                    .take(n)
                    .map(|s| (s.pairings, s.bye))
                    .collect()
            }
            Format::Swiss => {
                let p = crate::tournament::pair(&record).map_err(|e| {
                    Fail::of(RefusalKind::Illegal, format!("tournament #{}: {e}", t.id))
                })?;
                vec![(p.pairings, p.bye)]
            }
        };
        let mut boards = Vec::new();
        for (i, (pairings, bye)) in rounds.iter().enumerate() {
            let round = i as i64 + 1;
            boards.extend(self.round_boards(t, &record, round, pairings, *bye, &users, spec)?);
        }
        let name = tournament_name(t, spec.display_name());
        let lead = format!(
            "{name} starts: {} players, {} rounds; seeded by rating, then in the order they joined",
            users.len(),
            rounds_of(t, users.len())
        );
        // The games are announced from the outbox, queued with the round.
        let to = tournament_place(t.channel.as_ref(), r);
        let mut messages = Vec::new();
        if lead_queued {
            messages.push(RoundMessage {
                destination: super::commit::destination_key(&to),
                text: format!("sign-up is over: {lead}"),
                ..RoundMessage::default()
            });
        }
        messages.extend(board_messages(&to, &name, &boards, &users));
        let step = RoundStep::new(TournamentState::Running, rounds.len() as i64, &boards[..]);
        if !self
            .start_boards(t, step, &messages, (event, at), spec)
            .await?
        {
            return Ok(false);
        }
        if !lead_queued {
            self.say_to_tournament(t, lead, r);
        }
        Ok(true)
    }

    /// Tournament `t` (in sign-up) and its `entrants` seeded for the start
    /// ([`seed_order`]: by their rating in its variant on its server, then in the order
    /// they joined): as read, when their seeds are in that order already; else the
    /// entrants renumbered (a write of its own over `t`'s version) and both read again.
    /// `None` when another write came between, or the tournament is no longer in
    /// sign-up.
    async fn seeded(
        &self,
        t: &TournamentRow,
        entrants: &[EntrantRow],
        at: i64,
    ) -> Result<Option<(TournamentRow, Vec<EntrantRow>)>, Fail> {
        let ratings = self
            .accounts()
            .ratings_in(t.server.as_deref(), &t.variant)
            .await?;
        let order = seed_order(entrants, &ratings);
        let mut joined: Vec<&EntrantRow> = entrants.iter().collect();
        joined.sort_by_key(|e| e.seed);
        if joined.iter().map(|e| &e.user).eq(order.iter()) {
            return Ok(Some((t.clone(), entrants.to_vec())));
        }
        if !self
            .store
            .seed_entrants(t.id, t.version, &order, at)
            .await?
        {
            return Ok(None);
        }
        let t = self.tournament_row(t.id).await?;
        if t.state != TournamentState::Signup {
            return Ok(None);
        }
        let entrants = self.store.entrants(t.id).await?;
        Ok(Some((t, entrants)))
    }

    /// The deadline task's sweep at `now`: each tournament whose sign-up deadline has
    /// passed while it was open starts if enough players joined, else is cancelled.
    pub(crate) async fn close_signups(&self, now: i64) -> Result<(), StoreError> {
        for id in self.store.tournaments_signup_closed(now).await? {
            match self.close_signup(id, now).await {
                Ok(()) | Err(Fail::Choose(_)) => {}
                Err(Fail::Store(e)) => return Err(e),
                Err(Fail::Refuse(e)) => tracing::error!("tournament #{id}: {}", e.text),
            }
        }
        Ok(())
    }

    /// Tournament `id`'s sign-up, closed at `now`: started, or cancelled with the reason
    /// told where it was made; nothing if it is no longer open (another process did it).
    async fn close_signup(&self, id: i64, now: i64) -> Result<(), Fail> {
        for _ in 0..RETRIES {
            let Some(t) = self.store.tournament(id).await? else {
                return Ok(());
            };
            if t.state != TournamentState::Signup
                || !matches!(t.signup_until, Some(until) if until <= now)
            {
                return Ok(());
            }
            let entrants = self.store.entrants(id).await?;
            let mut r = Reply {
                out: Vec::new(),
                origin: Destination::default(),
                plain: Vec::new(),
            };
            let needed = players_needed(&t);
            if entrants.len() >= needed && is_competition(&t) {
                // A best-score competition deals its first deal to everyone instead.
                let c = Competition::read(t.rounds.max(0) as usize, &entrants, &[]);
                if self.deal_next(&t, &c, (None, now), true, &mut r).await? {
                    return Ok(());
                }
                continue;
            }
            if entrants.len() >= needed {
                if self
                    .begin_rounds(&t, &entrants, (None, now), true, &mut r)
                    .await?
                {
                    return Ok(());
                }
                continue;
            }
            let name = tournament_name(&t, self.display_name(&t.variant));
            let text = format!(
                "{name}: sign-up is over with {} and it needs at least {needed} to start: it is cancelled",
                crate::variants::api::plural(entrants.len(), "player", "players")
            );
            let to = tournament_place(t.channel.as_ref(), &r);
            let message = RoundMessage {
                destination: super::commit::destination_key(&to),
                text,
                ..RoundMessage::default()
            };
            let step = RoundStep::new(TournamentState::Cancelled, t.current_round, &[][..]);
            let no_game = |_, _| Err(StoreError::Refused("a cancellation starts no game".into()));
            let cancelled = self
                .store
                .start_rounds_announced(id, t.version, step, &[message], (None, now), no_game)
                .await?;
            if cancelled.is_some() {
                self.outbox_news.queued();
                return Ok(());
            }
        }
        Err(Fail::Store(StoreError::Conflict))
    }
}
