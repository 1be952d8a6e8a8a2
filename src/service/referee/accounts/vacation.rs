//! Vacations: `vacation DAYS` stops the player's clocks in every game for up to DAYS whole
//! days (a yearly allowance, `vacation_days_per_year`); `vacation` shows the days left,
//! `vacation end` (or any accepted action of theirs) ends it early. While it runs the
//! deadline check neither reminds nor times out a deadline of theirs, and a claim of
//! their time is refused. When it ends, each of their deadlines that ran during it is
//! extended by the part of the vacation it ran, in the game's own write with a referee's
//! log entry ([`crate::variants::api::VacationEntry`]) that replays change nothing with;
//! the vacation is then settled. Each step is committed before it is told, and a restart
//! finishes a settlement left half done (the log entry says which deadlines were
//! extended). See docs/service.md, "Vacation".

use super::commit;
use super::commit::new_message;
use super::marks::DAY;
use super::marks::{civil, time_mark};
use super::parts::Accounts;
use super::routing::public_dest;
use super::text::day_count;
use super::{Destination, Fail, Incoming, Outbound, Reply};
use crate::service::command::VacationAsk;
use crate::store::GameStatus;
use crate::store::NewAction;
use crate::store::NewDeadline;
use crate::store::NewMessage;
use crate::store::{Deadline, GameRow, InPlay, StoreError, Vacation, Write};
use crate::variants::api::{Action, RefusalKind, Seat, VacationEntry};

/// The first second of the UTC calendar year `y`.
fn year_start(y: i64) -> i64 {
    // Days from civil (Howard Hinnant's algorithm), for 1 January.
    let y1 = y - 1; // January counts with the year before, March-based
    let era = y1.div_euclid(400);
    let yoe = y1 - era * 400;
    let doy = 306; // 1 January, counted from 1 March
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    (era * 146_097 + doe - 719_468) * DAY
}

/// The calendar year (UTC) of `t` as `[start, end)`.
fn year_of(t: i64) -> (i64, i64) {
    let (y, ..) = civil(t);
    (year_start(y), year_start(y + 1))
}

/// The days a vacation from `from` ended at `to` counts: the whole days begun, at least
/// one, at most the `planned` days.
pub(crate) fn days_counted(from: i64, to: i64, planned: i64) -> i64 {
    let begun = (to - from + DAY - 1).div_euclid(DAY);
    begun.clamp(1, planned.max(1))
}

/// How long a vacation stopped a deadline `d` of a turn `length` seconds long, from
/// `from` to `to`: the part of the vacation its turn was running. The turn began at
/// `due_at - length` (its deadline less what earlier vacations added, which all ended
/// before this one began, so the start read is before `from` exactly when the real one
/// is); a deadline already past when the vacation began is not stopped.
pub(crate) fn stopped_for(d: &Deadline, length: i64, from: i64, to: i64) -> i64 {
    if d.due_at <= from {
        return 0;
    }
    (to - from.max(d.due_at - length)).max(0)
}

/// A player's vacation days this year: how many the server allows and how many they
/// have used.
#[derive(Clone, Copy)]
struct Allowance {
    days: i64,
    used: i64,
}

impl Allowance {
    /// The days left.
    fn left(&self) -> i64 {
        (self.days - self.used).max(0)
    }
}

/// `vacation` alone: whether the player is away, and the days left this year.
fn vacation_shown(running: Option<&Vacation>, year: &Allowance) -> String {
    let now = match running {
        Some(v) => format!(
            "you are on vacation until {}: your clocks are stopped (vacation end to come back now). ",
            time_mark(v.planned_end)
        ),
        None => "you are not on vacation. ".into(),
    };
    format!(
        "{now}{} of your {} of vacation left this year{}",
        day_count(year.left()),
        day_count(year.days),
        if running.is_none() && year.left() > 0 {
            " (vacation DAYS stops your clocks from now)"
        } else {
            ""
        }
    )
}

impl Accounts<'_> {
    /// `vacation [DAYS|end]`, answered privately.
    pub(crate) async fn vacation(
        &self,
        inc: &Incoming,
        ask: VacationAsk,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let user = &inc.user;
        // An ended vacation not yet settled is settled first (a restart may leave one), and
        // one whose planned end has come is ended there, before the deadline check does.
        if let Some(v) = self.store.open_vacation(user).await? {
            if v.ended_at.is_some() {
                self.settle(&v, inc.at).await?;
            } else if v.planned_end <= inc.at {
                self.end_vacation(&v, inc.at).await?;
            }
        }
        let running = self
            .store
            .open_vacation(user)
            .await?
            .filter(|v| v.ended_at.is_none());
        let (from, to) = year_of(inc.at);
        let year = Allowance {
            days: i64::from(self.settings.vacation_days_per_year),
            used: self.store.vacation_days(user, from, to).await?,
        };
        let text = match ask {
            VacationAsk::Show => vacation_shown(running.as_ref(), &year),
            VacationAsk::Start(days) => {
                self.start_vacation(inc, i64::from(days), running.as_ref(), &year)
                    .await?
            }
            VacationAsk::End => {
                let Some(v) = running else {
                    return Err(Fail::of(RefusalKind::Illegal, "you are not on vacation"));
                };
                self.end_vacation(&v, inc.at).await?;
                let used = self.store.vacation_days(user, from, to).await?;
                format!(
                    "welcome back: your vacation is over and your clocks run again, each deadline moved on by the time it was stopped; {} counted, {} left this year",
                    day_count(days_counted(v.started_at, inc.at, v.days)),
                    day_count(Allowance { used, ..year }.left())
                )
            }
        };
        r.out.push(Outbound {
            to: Destination::Dm(user.clone()),
            text,
            ..Outbound::default()
        });
        Ok(())
    }

    /// `vacation DAYS` by `inc`'s user, with `running` their vacation now and `year` their
    /// allowance: their clocks stopped and their games told; what to answer them.
    async fn start_vacation(
        &self,
        inc: &Incoming,
        days: i64,
        running: Option<&Vacation>,
        year: &Allowance,
    ) -> Result<String, Fail> {
        if year.days == 0 {
            return Err(Fail::of(
                RefusalKind::NotHere,
                "vacations are off on this server: nothing was done",
            ));
        }
        if let Some(v) = running {
            return Err(Fail::of(
                RefusalKind::Illegal,
                format!(
                    "you are already on vacation until {}: say vacation end first to take another",
                    time_mark(v.planned_end)
                ),
            ));
        }
        if days > year.left() {
            return Err(Fail::of(
                RefusalKind::Illegal,
                format!(
                    "you have {} of vacation left this year (of {}): nothing was done",
                    day_count(year.left()),
                    day_count(year.days)
                ),
            ));
        }
        if !self.store.start_vacation(&inc.user, inc.at, days).await? {
            return Err(Fail::of(
                RefusalKind::Conflict,
                "you are already on vacation: nothing was done",
            ));
        }
        let until = inc.at + days * DAY;
        let games = self.announce_vacation(&inc.user, inc.at, until).await?;
        Ok(format!(
            "you are on vacation until {}: your clocks are stopped in {} (their deadlines move on by the time you are away); {} left this year. Moving or vacation end brings you back early",
            time_mark(until),
            match games {
                1 => "your 1 game".to_string(),
                n => format!("your {n} games"),
            },
            day_count(year.left() - days)
        ))
    }

    /// Tells each active game of `user` that they are away until `until` (through the
    /// outbox, recorded once per game and vacation); returns how many games.
    async fn announce_vacation(&self, user: &str, from: i64, until: i64) -> Result<usize, Fail> {
        let games = self.store.games_of(user, &[GameStatus::Active]).await?;
        for g in &games {
            let Some(seat) = g.seat_of(user) else {
                continue;
            };
            let text = away_notice(g.id, user, until);
            // Told where the game is played, to its other players, calling on nobody: a
            // player with many games would otherwise ping themselves and their opponents
            // in every one of them.
            let messages: Vec<_> = public_dest(g)
                .iter()
                .filter(|d| **d != Destination::Dm(user.to_string()))
                .map(|to| match to {
                    Destination::Channel(_) => NewMessage {
                        destination: commit::quiet_destination_key(to),
                        ..new_message(to, &text, false)
                    },
                    Destination::Dm(_) => new_message(to, &text, false),
                })
                .collect();
            self.store
                .record_notice(
                    g.id,
                    (seat, g.version, &format!("vacation-{from}")),
                    from,
                    &messages,
                )
                .await?;
        }
        Ok(games.len())
    }

    /// Ends `user`'s running vacation at `at` (an accepted action of theirs), if they
    /// have one, and extends their deadlines; the private note for them, if it ended.
    pub(crate) async fn back_from_vacation(
        &self,
        user: &str,
        at: i64,
    ) -> Result<Option<Outbound>, StoreError> {
        let Some(v) = self.store.open_vacation(user).await? else {
            return Ok(None);
        };
        if v.ended_at.is_some() {
            self.settle(&v, at).await?;
            return Ok(None);
        }
        self.end_vacation(&v, at).await?;
        Ok(Some(Outbound {
            to: Destination::Dm(user.to_string()),
            text: format!(
                "welcome back: your vacation ended as you acted, and your clocks run again ({} counted)",
                day_count(days_counted(v.started_at, at, v.days))
            ),
            ..Outbound::default()
        }))
    }

    /// Ends the running vacation `v` at `at` (its days counted then) and settles it.
    async fn end_vacation(&self, v: &Vacation, at: i64) -> Result<(), StoreError> {
        let end = at.min(v.planned_end);
        let days = days_counted(v.started_at, end, v.days);
        self.store
            .end_vacation(&v.user, v.started_at, end, days)
            .await?;
        let ended = Vacation {
            ended_at: Some(end),
            days,
            ..v.clone()
        };
        self.settle(&ended, at).await
    }

    /// The deadline check's part: ends the vacations whose planned end has come (at that
    /// end) and settles every ended one not yet settled.
    pub(crate) async fn settle_vacations(&self, now: i64) -> Result<(), StoreError> {
        for v in self.store.vacations_to_settle(now).await? {
            match v.ended_at {
                Some(_) => self.settle(&v, now).await?,
                None => self.end_vacation(&v, now).await?,
            }
        }
        Ok(())
    }

    /// Extends every deadline of `v`'s player that ran during the ended vacation `v`, one
    /// write per game seat with its log entry and a public note, then marks `v` settled.
    /// A seat whose log already records this vacation is left alone, so a settlement
    /// repeated after a restart extends nothing twice; one whose write lost a race is left
    /// for the next deadline check, and `v` stays unsettled until then.
    async fn settle(&self, v: &Vacation, now: i64) -> Result<(), StoreError> {
        let Some(to) = v.ended_at else {
            return Ok(());
        };
        let games: Vec<i64> = (self.store.games_of(&v.user, &[GameStatus::Active]).await?)
            .iter()
            .map(|g| g.id)
            .collect();
        // The notice that the player is away, where it has not gone out yet (the deadline
        // check ran late, or the vacation ended early), would now be false: withdrawn.
        for &id in &games {
            let notice = away_notice(id, &v.user, v.planned_end);
            self.store.withdraw_undelivered(id, &notice, now).await?;
        }
        let mut complete = true;
        for id in games {
            let lock = self.lock_for(id);
            let _guard = lock.lock().await;
            // One write per seat to extend, each read afresh (the log then records it).
            loop {
                let Some(g) = self.store.game(id).await? else {
                    break;
                };
                if g.status != GameStatus::Active {
                    break;
                }
                let Ok(rules) = self.load(&g) else { break };
                let log = crate::service::replay::read_log(id, &self.store.actions(id).await?)
                    .unwrap_or_default();
                let next = g.deadlines.iter().find_map(|d| {
                    let recorded = log.iter().any(|(s, a)| {
                        s.0 == d.seat && a.vacation_entry().is_some_and(|e| e.from == v.started_at)
                    });
                    let length = commit::time_for(&g, rules.as_ref(), Seat(d.seat));
                    let seconds = stopped_for(d, length, v.started_at, to);
                    (g.user_at(d.seat) == Some(&v.user) && !recorded && seconds > 0)
                        .then_some((d, seconds))
                });
                let Some((d, seconds)) = next else { break };
                match self.extend(&g, d, v, to, seconds, now).await {
                    Ok(()) => {}
                    Err(StoreError::Conflict) | Err(StoreError::Duplicate) => {
                        // Another process changed the game: the next check finishes it.
                        complete = false;
                        break;
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        if complete {
            self.store.settle_vacation(&v.user, v.started_at).await?;
        }
        Ok(())
    }

    /// Extends deadline `d` of `g` by `seconds` for vacation `v` (ended at `to`), in one
    /// write with the referee's log entry and a note to the game. Caller holds the lock.
    async fn extend(
        &self,
        g: &GameRow,
        d: &Deadline,
        v: &Vacation,
        to: i64,
        seconds: i64,
        now: i64,
    ) -> Result<(), StoreError> {
        let turn = g.version + 1;
        let deadlines: Vec<NewDeadline> = g
            .deadlines
            .iter()
            .map(|x| {
                if x.seat == d.seat {
                    // A new turn number: the reminders of the extended deadline are sent
                    // again before it.
                    NewDeadline {
                        seat: x.seat,
                        turn,
                        due_at: x.due_at + seconds,
                    }
                } else {
                    NewDeadline::from(x)
                }
            })
            .collect();
        let entry = Action::vacation(VacationEntry {
            from: v.started_at,
            to,
            seconds,
        });
        let text = format!(
            "game #{}: {} is back from vacation; their clock was stopped for {}, so they have until {}",
            g.id,
            v.user,
            duration(seconds),
            time_mark(d.due_at + seconds)
        );
        let w = Write {
            expected_version: g.version,
            action: Some(NewAction {
                seat: d.seat,
                author: "referee".into(),
                json: entry.json().to_string(),
            }),
            at: now,
            status: g.status,
            snapshot: g.snapshot.clone(),
            deadlines,
            messages: public_dest(g)
                .iter()
                .map(|to| new_message(to, &text, false))
                .collect(),
            ..Write::default()
        };
        self.write(g, &w).await
    }

    /// The running or unsettled vacation that stops deadline `d` of `g`, if any: its
    /// player's, begun before the deadline came.
    pub(crate) async fn stopping(
        &self,
        g: &GameRow,
        d: &Deadline,
    ) -> Result<Option<Vacation>, StoreError> {
        let Some(user) = g.user_at(d.seat) else {
            return Ok(None);
        };
        Ok(self
            .store
            .open_vacation(user)
            .await?
            .filter(|v| stops(v, d)))
    }

    /// The vacations not settled of `g`'s players.
    pub(crate) async fn players_vacations(&self, g: &GameRow) -> Result<Vec<Vacation>, StoreError> {
        let mut users: Vec<&str> = g.seats.iter().filter_map(|s| s.user.as_deref()).collect();
        users.sort_unstable();
        users.dedup();
        self.store.open_vacations_of(&users).await
    }

    /// [`away_note`] for the players of `g`.
    pub(crate) async fn vacation_note(&self, g: &GameRow) -> Result<String, StoreError> {
        Ok(away_note(&self.players_vacations(g).await?))
    }
}

/// The notice to game `id` that `user` is on vacation until `until`, as
/// [`Service::announce_vacation`] records it and [`Service::settle`] withdraws it when it
/// has not gone out by the vacation's end.
fn away_notice(id: i64, user: &str, until: i64) -> String {
    format!(
        "game #{id}: {} is on vacation until {}: their clock is stopped",
        super::marks::user_mark(user),
        time_mark(until)
    )
}

/// `; alice is on vacation until ...: their clock is stopped` for each vacation of `away`
/// that runs now, or "".
pub(crate) fn away_note(away: &[Vacation]) -> String {
    away.iter()
        .filter(|v| v.ended_at.is_none())
        .map(|v| {
            format!(
                "; {} is on vacation until {}: their clock is stopped",
                super::marks::user_mark(&v.user),
                time_mark(v.planned_end)
            )
        })
        .collect()
}

/// Whether vacation `v` (of the deadline's player) stops deadline `d`: it began before
/// the deadline came.
fn stops(v: &Vacation, d: &Deadline) -> bool {
    v.started_at < d.due_at
}

/// Of `away`, the vacations not settled of `g`'s players, the one that stops deadline `d`
/// of `g` (as [`Service::stopping`] reads it), if any.
pub(crate) fn stopped_by<'a>(
    away: &'a [Vacation],
    g: &GameRow,
    d: &Deadline,
) -> Option<&'a Vacation> {
    let user = g.user_at(d.seat)?;
    away.iter().find(|v| v.user == user && stops(v, d))
}

/// [`stopped_by`] on the vacations read with the game (`in_play`), under its lock.
pub(crate) fn stopping_in<'a>(in_play: &'a InPlay, d: &Deadline) -> Option<&'a Vacation> {
    stopped_by(&in_play.vacations, &in_play.game, d)
}

/// A length of time as days, hours and minutes (`2 days 3 h`, `45 min`).
fn duration(seconds: i64) -> String {
    let (d, h, m) = (seconds / DAY, seconds % DAY / 3600, seconds % 3600 / 60);
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(day_count(d));
    }
    if h > 0 {
        parts.push(format!("{h} h"));
    }
    if m > 0 || parts.is_empty() {
        parts.push(format!("{m} min"));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_begin_on_the_first_of_january() {
        // 2026-01-01 00:00 UTC.
        assert_eq!(year_start(2026), 1_767_225_600);
        assert_eq!(year_of(1_767_225_600), (1_767_225_600, year_start(2027)));
        assert_eq!(year_of(1_767_225_599).1, 1_767_225_600);
        assert_eq!(year_start(2025) + 365 * DAY, year_start(2026));
        assert_eq!(year_start(2024) + 366 * DAY, year_start(2025));
    }

    #[test]
    fn days_counted_are_the_whole_days_begun() {
        assert_eq!(days_counted(0, 1, 7), 1);
        assert_eq!(days_counted(0, 0, 7), 1);
        assert_eq!(days_counted(0, DAY, 7), 1);
        assert_eq!(days_counted(0, DAY + 1, 7), 2);
        assert_eq!(days_counted(0, 9 * DAY, 7), 7);
    }

    #[test]
    fn a_deadline_is_stopped_for_the_part_of_the_vacation_its_turn_ran() {
        let d = |due_at| Deadline {
            game_id: 1,
            seat: 0,
            turn: 1,
            due_at,
        };
        let len = 3 * DAY;
        // Turn began at 0, vacation from DAY to 2 DAY: one day.
        assert_eq!(stopped_for(&d(len), len, DAY, 2 * DAY), DAY);
        // Turn began during the vacation (at 1.5 DAY): half a day.
        assert_eq!(
            stopped_for(&d(DAY * 3 / 2 + len), len, DAY, 2 * DAY),
            DAY / 2
        );
        // Already past when the vacation began: nothing.
        assert_eq!(stopped_for(&d(DAY / 2), len, DAY, 2 * DAY), 0);
        assert_eq!(duration(2 * DAY + 3 * 3600), "2 days 3 h");
        assert_eq!(duration(45 * 60), "45 min");
    }
}
