//! Deadlines and the outbox: reminders, "time has run out" and timeouts, each recorded
//! once with its messages in the same transaction, and delivered until the adapter says
//! it has handed them over.

use super::commit::{self, destination_from_key, new_message, prepare};
use super::marks::{command_mark, time_mark, user_at_mark, user_mark};
use super::parts::Clock;
use super::routing::public_dest;
use super::text::public_view;
use super::{Button, ChallengeMark, Destination, Outbound, Queued, Reply};
use crate::service::player_settings::read_hours;
use crate::store::GameStatus;
use crate::store::NewNotice;
use crate::store::{
    Deadline, DeadlineToCheck, GameRow, NewMessage, QueuedMessage, StoreError, Write,
};
use crate::variants::api::{Action, GameRules, Seat};

/// How long a process holds the outbox messages it claimed before another may deliver
/// them: the longest a message waits when its deliverer dies. A live deliverer renews its
/// claim at every deadline check.
pub const OUTBOX_LEASE_SECONDS: i64 = 120;

/// How many deadlines the deadline check reads at a time.
const CHECK_BATCH: i64 = 256;

/// The most batches of deadlines one check reads; what is left waits for the next.
const CHECK_PASSES: usize = 64;

impl Clock<'_> {
    /// What [`Service::tick`](super::Service::tick) does.
    pub(crate) async fn tick(&self, now: i64) -> Result<Vec<Queued>, StoreError> {
        self.check_deadlines(now).await?;
        self.claim_undelivered().await
    }

    /// What [`Service::check_deadlines`](super::Service::check_deadlines) does.
    pub(crate) async fn check_deadlines(&self, now: i64) -> Result<(), StoreError> {
        // Vacations whose end has come give their deadlines back first, extended.
        self.accounts().settle_vacations(now).await?;
        // Each deadline looked at is moved on (to a later time, or set aside), so each
        // batch reads what the last left; one shorter than a batch is the last. (Bounded
        // all the same: a deadline replaced meanwhile by a move is read again.)
        for _ in 0..CHECK_PASSES {
            let due = self.store.deadlines_to_check(now, CHECK_BATCH).await?;
            for d in &due {
                self.look_at(d, now).await?;
            }
            if (due.len() as i64) < CHECK_BATCH {
                break;
            }
        }
        self.accounts().send_digests(now).await?;
        self.expire_challenges(now).await?;
        // Tournaments whose last games ended by timeout (or before a restart) go on.
        self.events().advance_tournaments(now).await
    }

    /// What [`Service::recheck_deadlines`](super::Service::recheck_deadlines) does.
    pub(crate) async fn recheck_deadlines(&self, now: i64) -> Result<u64, StoreError> {
        let horizon = self.reminder_horizon().await?;
        self.store.recheck_deadlines(now, horizon).await
    }

    /// Deadline `c`, whose time to be looked at has come by `now`: the full check
    /// ([`Service::check_deadline`], which reads the game) only when something may be due,
    /// a timeout or a reminder not yet recorded; then the time it is next looked at, the
    /// next reminder's hour or the deadline itself, or none once it has passed (a claim,
    /// a write or a player's change of settings or vacation sets it again).
    async fn look_at(&self, c: &DeadlineToCheck, now: i64) -> Result<(), StoreError> {
        let d = &c.deadline;
        let next = if d.due_at <= now {
            self.check_deadline(d, now).await?;
            None
        } else {
            let hours = match &c.user {
                Some(u) => self
                    .accounts()
                    .settings_of(u)
                    .await?
                    .hours(&self.settings.reminder_hours),
                None => self.settings.reminder_hours.clone(),
            };
            let at = |h: i64| d.due_at - h * 3600;
            // The most urgent reminder due: when it is recorded, so is every other due
            // (they are recorded together), and there is nothing to do.
            if let Some(first) = hours.iter().copied().filter(|h| at(*h) <= now).min() {
                let kind = format!("remind-{first}h");
                if !self
                    .store
                    .has_notice(d.game_id, d.seat, d.turn, &kind)
                    .await?
                {
                    self.check_deadline(d, now).await?;
                }
            }
            let later = hours.iter().map(|h| at(*h)).filter(|t| *t > now).min();
            Some(later.map_or(d.due_at, |t| t.min(d.due_at)))
        };
        self.store.set_deadline_check(d, c.check_at, next).await?;
        Ok(())
    }

    /// How far ahead of a deadline the most distant reminder the server or a player asks
    /// for comes, in seconds.
    async fn reminder_horizon(&self) -> Result<i64, StoreError> {
        let chosen = self.store.chosen_reminder_hours().await?;
        Ok(self
            .settings
            .reminder_hours
            .iter()
            .copied()
            .chain(
                chosen
                    .iter()
                    .flat_map(|h| read_hours(h).unwrap_or_default()),
            )
            .max()
            .unwrap_or(0)
            * 3600)
    }

    /// Deadline `d` at `now`, checked again under its game's lock (a move may have
    /// replaced it): a timeout or a "time has run out" once it has passed, else the
    /// reminders due. A player on vacation is neither reminded nor timed out: the deadline
    /// is extended when the vacation ends (docs/service.md, "Vacation").
    async fn check_deadline(&self, d: &Deadline, now: i64) -> Result<(), StoreError> {
        let lock = self.lock_for(d.game_id);
        let _guard = lock.lock().await;
        let Some(g) = self.store.game(d.game_id).await? else {
            return Ok(());
        };
        let Some(d) = g
            .deadlines
            .iter()
            .find(|x| x.seat == d.seat && x.turn == d.turn)
            .cloned()
        else {
            return Ok(());
        };
        if g.status != GameStatus::Active {
            return Ok(());
        }
        let Ok(rules) = self.load(&g) else {
            return Ok(());
        };
        if self.accounts().stopping(&g, &d).await?.is_some() {
            return Ok(());
        }
        if d.due_at > now {
            return self.remind(&g, rules.as_ref(), &d, now).await;
        }
        if rules.timeout_is_automatic() {
            self.time_out(&g, rules, &d, now, None).await
        } else if let Some(claimer) = self.auto_claimer(&g, d.seat).await? {
            self.time_out(&g, rules, &d, now, Some(&claimer)).await
        } else {
            self.time_has_run_out(&g, &d, now).await
        }
    }

    /// Tells game `g`'s players that the time of deadline `d` has run out and that the
    /// others may claim the win, recorded once.
    async fn time_has_run_out(
        &self,
        g: &GameRow,
        d: &Deadline,
        now: i64,
    ) -> Result<(), StoreError> {
        let user = g.user_at(d.seat).unwrap_or("?");
        let others: Vec<String> = g
            .seats
            .iter()
            .filter(|s| s.seat != d.seat)
            .filter_map(|s| s.user.as_deref())
            .map(user_at_mark)
            .collect();
        let text = format!(
            "game #{}: {}'s time has run out. {}: you may claim the win with {}",
            g.id,
            user_mark(user),
            others.join(", "),
            command_mark(&format!("claim {} time", g.id))
        );
        // The Claim button is stored with the notice: its deliverer offers it while the
        // game is live.
        let messages: Vec<NewMessage> = public_dest(g)
            .iter()
            .map(|to| NewMessage {
                claim_seat: Some(d.seat),
                ..new_message(to, &text, false)
            })
            .collect();
        self.store
            .record_notice(g.id, (d.seat, d.turn, "claimable"), now, &messages)
            .await?;
        Ok(())
    }

    /// The most urgent reminder of deadline `d` not yet sent, at `now`; the less urgent
    /// ones are recorded as superseded so they are not sent late.
    async fn remind(
        &self,
        g: &GameRow,
        rules: &dyn GameRules,
        d: &Deadline,
        now: i64,
    ) -> Result<(), StoreError> {
        let user = g.user_at(d.seat).unwrap_or("?").to_string();
        let mut hours = self
            .accounts()
            .settings_of(&user)
            .await?
            .hours(&self.settings.reminder_hours);
        hours.sort_unstable();
        // A reminder `h` hours ahead only for a turn longer than `h` hours: with one day
        // per move the 24-hour reminder would come the moment the turn starts, and a
        // Chesswords finale of a few minutes needs none (docs/service.md, "Reminders").
        let turn_length = commit::time_for(g, rules, Seat(d.seat));
        let due: Vec<i64> = hours
            .iter()
            .copied()
            .filter(|h| d.due_at - h * 3600 <= now)
            .collect();
        let Some(&first) = due.first() else {
            return Ok(());
        };
        let asked = rules
            .awaiting()
            .into_iter()
            .find(|(s, _)| s.0 == d.seat)
            .map_or_else(|| "to move".to_string(), |(_, p)| p.ask);
        let text = format!(
            "game #{}: reminder, you have until {} {asked} (less than {first} h left)",
            g.id,
            time_mark(d.due_at)
        );
        let text = (first * 3600 < turn_length).then_some(text);
        let reminder: Vec<NewMessage> = text
            .iter()
            .map(|t| new_message(&Destination::Dm(user.clone()), t, false))
            .collect();
        for h in &due {
            // Recorded even when not sent, so that it is not sent later either.
            let messages: &[NewMessage] = if *h == first { &reminder } else { &[] };
            self.store
                .record_notice(
                    g.id,
                    (d.seat, d.turn, &format!("remind-{h}h")),
                    now,
                    messages,
                )
                .await?;
        }
        Ok(())
    }

    /// Ends the challenges left unanswered for `challenge_expiry_days`, each in one write
    /// with its notice to the challenger in the outbox; one answered or withdrawn
    /// meanwhile (the version check) is left alone.
    async fn expire_challenges(&self, now: i64) -> Result<(), StoreError> {
        let days = i64::from(self.settings.challenge_expiry_days);
        for id in self
            .store
            .challenges_made_before(now - days * 86_400)
            .await?
        {
            let lock = self.lock_for(id);
            let _guard = lock.lock().await;
            let Some(g) = self.store.game(id).await? else {
                continue;
            };
            if g.status != GameStatus::Challenged {
                continue;
            }
            let text = format!(
                "game #{id}: {}, your challenge went unanswered for {} and has expired; challenge again any time",
                user_at_mark(&g.challenger),
                super::text::day_count(days)
            );
            let w = Write {
                expected_version: g.version,
                at: now,
                // Stored as cancelled (by the referee): the statuses a game may have are
                // fixed by the schema, and the notice says why.
                status: GameStatus::Cancelled,
                snapshot: g.snapshot.clone(),
                messages: public_dest(&g)
                    .iter()
                    .map(|to| new_message(to, &text, false))
                    .collect(),
                ..Write::default()
            };
            match self.write(&g, &w).await {
                Ok(()) | Err(StoreError::Conflict) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The one opponent of the late seat who asked for wins on time to be claimed for
    /// them (`settings autoclaim:on`), in a game where the rules leave it to a claim; none
    /// where the late player has several opponents or none asked.
    async fn auto_claimer(&self, g: &GameRow, late: u8) -> Result<Option<String>, StoreError> {
        let late_user = g.user_at(late);
        let mut others: Vec<&str> = g
            .seats
            .iter()
            .filter(|s| s.seat != late)
            .filter_map(|s| s.user.as_deref())
            .filter(|u| Some(*u) != late_user)
            .collect();
        others.dedup();
        match others.as_slice() {
            [only] if self.accounts().settings_of(only).await?.auto_claim => {
                Ok(Some(only.to_string()))
            }
            _ => Ok(None),
        }
    }

    /// Ends `g` on time for the seat of deadline `d`, with the announcement in the outbox,
    /// in one write: by the referee, or claimed for `claimer` by their auto-claim setting.
    /// A deadline already handled (the notice exists) or a game that moved meanwhile
    /// changes nothing. Caller holds the game's lock.
    async fn time_out(
        &self,
        g: &GameRow,
        rules: Box<dyn GameRules>,
        d: &Deadline,
        now: i64,
        claimer: Option<&str>,
    ) -> Result<(), StoreError> {
        let user = g.user_at(d.seat).unwrap_or("?");
        let action = self
            .play()
            .abort_if_unplayed(g, Seat(d.seat), Action::timeout())
            .await?;
        let called_off = action == Action::abort();
        let Ok((mut w, done)) = prepare(
            g,
            rules,
            Seat(d.seat),
            claimer.unwrap_or("referee"),
            action,
            now,
            None,
        ) else {
            return Ok(());
        };
        let mut r = Reply {
            out: Vec::new(),
            origin: Destination::Dm(user.to_string()),
            plain: Vec::new(),
        };
        self.accounts().announce_rated(g, &done, &mut r).await;
        w.notice = Some(NewNotice {
            seat: d.seat,
            turn: d.turn,
            kind: "timeout".to_string(),
        });
        w.messages = r
            .out
            .iter()
            .map(|o| {
                let claimed = claimer
                    .map(|c| {
                        format!(
                            "; claimed for {} by their auto-claim setting",
                            user_at_mark(c)
                        )
                    })
                    .unwrap_or_default();
                let then = match called_off {
                    true => " before both players had moved: no result, no rating change",
                    false => "",
                };
                let text = format!(
                    "game #{}: {}'s time ran out{then}{claimed}. {}",
                    g.id,
                    user_mark(user),
                    o.text.split_once(": ").map(|x| x.1).unwrap_or("")
                );
                NewMessage {
                    // The public message that ends the game says so, to be delivered
                    // as every end is (record, animation, rematch), after any restart.
                    ending: o.ending,
                    ..new_message(&o.to, &text, o.image.is_some())
                }
            })
            .collect();
        match self.write(g, &w).await {
            Ok(()) | Err(StoreError::Duplicate) | Err(StoreError::Conflict) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// What [`Service::claim_undelivered`](super::Service::claim_undelivered) does.
    pub(crate) async fn claim_undelivered(&self) -> Result<Vec<Queued>, StoreError> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for q in self.store.claim_undelivered(OUTBOX_LEASE_SECONDS).await? {
            let id = q.id;
            match self.outbound_of(q).await? {
                Some(o) => {
                    ids.push(id);
                    out.push(o);
                }
                // Nothing to deliver: marked delivered, never handed over.
                None => self.store.mark_delivered(id, 0).await?,
            }
        }
        // Boards sent privately are turned as their recipients chose. (The outbox holds
        // no turn notice: a reminder is sent whatever the digest.)
        let settings = self.accounts().settings_of_recipients(&out, &[]).await?;
        self.accounts()
            .turn_private_boards(&mut out, &settings)
            .await?;
        out.iter_mut().for_each(Outbound::finish);
        Ok(ids
            .into_iter()
            .zip(out)
            .map(|(id, message)| Queued { id, message })
            .collect())
    }

    /// The message to deliver for the outbox's `q`; `None` when there is nothing to
    /// deliver (a destination not written by this service, a progress it cannot read).
    async fn outbound_of(&self, q: QueuedMessage) -> Result<Option<Outbound>, StoreError> {
        let Some(to) = destination_from_key(&q.destination) else {
            return Ok(None);
        };
        if q.retitle {
            // A thread to name again: the adapter reads the game itself.
            return Ok(Some(Outbound {
                to,
                game: q.game_id,
                retitle: true,
                ..Outbound::default()
            }));
        }
        if let Some(json) = q.progress {
            // An update of an analysis's progress message: where it stands, no more.
            let progress = super::analysis_progress::read_progress(&json);
            return Ok(progress.map(|p| Outbound {
                to,
                text: q.text,
                game: q.game_id,
                progress: Some(p),
                ..Outbound::default()
            }));
        }
        let game = match q.game_id {
            Some(gid) => self.store.game(gid).await?,
            None => None,
        };
        // A game of a tournament's round: announced as the game as stored stands.
        if let (true, Some(g)) = (q.started, &game) {
            if let Some(o) = self.events().opening_from_outbox(g, &q.text, &to) {
                return Ok(Some(o));
            }
        }
        let image = match (q.board, &game) {
            (true, Some(g)) => self.queued_board(g, &to),
            _ => None,
        };
        let calls = !q.analysis && commit::calls_on_players(&q.destination);
        let mentions = called_on(&to, game.as_ref(), calls);
        let buttons = match &game {
            Some(g) => self.queued_buttons(g, q.ending, q.claim_seat, &to).await?,
            None => Vec::new(),
        };
        // An analysis's report carries its graph.
        let graph = match (q.analysis, &game) {
            (true, Some(g)) => self.analyses().analysis_graph(g).await,
            _ => None,
        };
        // The only message of the outbox about a challenge is its expiry.
        let challenge = game
            .as_ref()
            .filter(|g| g.status == GameStatus::Cancelled)
            .map(|g| ChallengeMark::Settled(g.id, "expired unanswered".into()));
        let (table, text) = self.named_standings(q.standings.as_deref(), q.text);
        Ok(Some(Outbound {
            to,
            text,
            image,
            game: q.game_id,
            buttons,
            mentions,
            ending: q.ending,
            challenge,
            table,
            graph,
            ..Outbound::default()
        }))
    }

    /// The standings queued with their players' marks (`standings`), named now, and the
    /// message's text; a message without standings keeps its `text`.
    fn named_standings(
        &self,
        standings: Option<&str>,
        text: String,
    ) -> (Option<crate::render::table::Table>, String) {
        match super::round_outbox::queued_table(standings) {
            Some(t) => {
                let (t, words) = super::round_outbox::named_standings(t, |u| self.name_of(u));
                (Some(t), words)
            }
            None => (None, text),
        }
    }

    /// The public board of `g` for a queued message to `to`, turned to its reader's
    /// side in a private message.
    fn queued_board(&self, g: &GameRow, to: &Destination) -> Option<super::messages::View> {
        self.load(g).ok().map(|rules| {
            let mut view = public_view(
                g,
                rules.as_ref(),
                self.settings.public_orientation,
                &self.seat_names(g),
            );
            if let Destination::Dm(user) = to {
                super::routing::turn_to_own_side(g, rules.as_ref(), user, &mut view);
            }
            view
        })
    }

    /// The buttons of a queued message about `g` to `to`: an end of a game gets what
    /// every end gets (Rematch, unless it is a tournament's game, which its next round
    /// follows; Analyse); the notice that a player's time has run out in a game still
    /// live (`claim_seat`, the late seat) lets the others claim the win.
    async fn queued_buttons(
        &self,
        g: &GameRow,
        ending: bool,
        claim_seat: Option<u8>,
        to: &Destination,
    ) -> Result<Vec<Button>, StoreError> {
        if ending {
            let rematch = match self.store.tournament_of_game(g.id).await? {
                Some(_) => None,
                None => self.rematch_button(g),
            };
            let mut b: Vec<_> = rematch.into_iter().collect();
            if let Ok(rules) = self.load(g) {
                b.extend(self.analyse_button(g, rules.as_ref()));
            }
            return Ok(b);
        }
        Ok(match g.status == GameStatus::Active {
            true => claim_seat
                .and_then(|late| claim_button(g, late, to))
                .into_iter()
                .collect(),
            false => Vec::new(),
        })
    }

    /// What [`Service::delivered`](super::Service::delivered) does.
    pub(crate) async fn delivered(&self, id: i64, at: i64) -> Result<(), StoreError> {
        self.store.mark_delivered(id, at).await
    }
}

/// The Claim button of live game `g`, whose seat `late` has run out of time, under a
/// message to `to`: for the one other player (for anyone, the referee checking, where
/// there are several); none in the private messages of the late player.
fn claim_button(g: &GameRow, late: u8, to: &Destination) -> Option<Button> {
    let others: Vec<&str> = g
        .seats
        .iter()
        .filter(|s| s.seat != late)
        .filter_map(|s| s.user.as_deref())
        .collect();
    if matches!(to, Destination::Dm(u) if Some(u.as_str()) == g.user_at(late)) {
        return None;
    }
    Some(Button {
        label: "Claim the win".into(),
        command: format!("claim {} time", g.id),
        for_user: match others.as_slice() {
            [one] => Some(one.to_string()),
            _ => None,
        },
        primary: true,
        danger: false,
        keep: false,
    })
}

/// Whom a queued message about `game` to `to` calls on: every notice of the outbox
/// concerns the game's players (a reminder, a time run out, a timeout, an expired
/// challenge), and in a channel it calls on them; a notice stored quiet (`calls` false:
/// a player's vacation, an analysis) calls on nobody.
fn called_on(to: &Destination, game: Option<&GameRow>, calls: bool) -> Vec<String> {
    match (to, game) {
        (Destination::Channel(_), Some(g)) if calls => super::text::players(g),
        _ => Vec::new(),
    }
}
