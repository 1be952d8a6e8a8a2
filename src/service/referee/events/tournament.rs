//! `tournament ...` and `tournaments`: a tournament made in a server's channel, joined
//! and left, started, paused, resumed or cancelled by its creator or a moderator, a
//! player removed; its standings; every game as one PGN. Each change is written over
//! the version read ([`crate::store::Store::join_tournament`] and the others) and read
//! again when another came between, so the checks hold on the state written.

use super::marks::{command_mark, user_at_mark, user_mark, DAY};
use super::messages::{Fail, Incoming, Member, Outbound, Place, Reply};
use super::parts::Events;
use super::rounds::{say_made, standings_of, stored_options, table_text};
use super::text::tournament_name;
use crate::service::command::{TournamentCommand, TournamentFormat, TournamentTerms};
use crate::service::tournament::{is_competition, record_of, rounds_of, MAX_ENTRANTS};
use crate::store::TournamentState;
use crate::store::{GameStatus, NewTournament, TournamentRow};
use crate::variants::api::{read_options, Placing, RefusalKind, VariantSpec};

/// How many tournaments `tournaments` lists.
const LISTED: i64 = 25;
/// How many times a change is tried again when another came between.
const RETRIES: usize = 4;

impl Events<'_> {
    /// `tournament ...`.
    pub(crate) async fn tournament(
        &self,
        inc: &Incoming,
        member: &Member,
        c: TournamentCommand,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        match c {
            TournamentCommand::Create(terms) => self.create_tournament(inc, terms, r).await,
            TournamentCommand::Show(id) => self.show_tournament(inc, id, r).await,
            TournamentCommand::Pgn(id) => self.tournament_pgn(inc, id, r).await,
            TournamentCommand::Join(id) => self.join_tournament(inc, id, r).await,
            TournamentCommand::Leave(id) => {
                let user = inc.user.clone();
                self.leave_tournament(inc, id, &user, r).await
            }
            TournamentCommand::Remove(id, user) => {
                let t = self.tournament_here(inc, id).await?;
                self.check_organiser(inc, member, &t).await?;
                self.leave_tournament(inc, id, &user, r).await
            }
            TournamentCommand::Start(id) => self.start_tournament(inc, member, id, r).await,
            TournamentCommand::Pause(id) => {
                self.change_state(
                    inc,
                    member,
                    id,
                    &[TournamentState::Running],
                    TournamentState::Paused,
                    r,
                )
                .await
            }
            TournamentCommand::Resume(id) => {
                self.change_state(
                    inc,
                    member,
                    id,
                    &[TournamentState::Paused],
                    TournamentState::Running,
                    r,
                )
                .await?;
                self.advance(id, inc.at, r).await
            }
            TournamentCommand::Cancel(id) => {
                self.change_state(
                    inc,
                    member,
                    id,
                    &[
                        TournamentState::Signup,
                        TournamentState::Running,
                        TournamentState::Paused,
                    ],
                    TournamentState::Cancelled,
                    r,
                )
                .await
            }
        }
    }

    /// `tournaments`: this server's tournaments in sign-up or under way.
    pub(crate) async fn list_tournaments(&self, inc: &Incoming, r: &mut Reply) -> Result<(), Fail> {
        let ts = self
            .store
            .tournaments_in(
                inc.server.as_deref(),
                &[
                    TournamentState::Signup,
                    TournamentState::Running,
                    TournamentState::Paused,
                ],
                LISTED,
            )
            .await?;
        if ts.is_empty() {
            r.say(format!(
                "no tournament here is open or under way: make one with {}",
                super::marks::command_mark("tournament create swiss standard")
            ));
            return Ok(());
        }
        let mut lines = vec!["tournaments here:".to_string()];
        for t in ts {
            let n = self.store.entrants(t.id).await?.len();
            let state = match t.state {
                TournamentState::Signup => format!(
                    "open for sign-up ({})",
                    super::marks::command_mark(&format!("tournament join {}", t.id))
                ),
                TournamentState::Paused => format!("paused after round {}", t.current_round),
                _ => format!("round {} of {}", t.current_round, rounds_of(&t, n)),
            };
            lines.push(format!(
                "{}: {} players, {state}",
                tournament_name(&t, self.display_name(&t.variant)),
                n
            ));
        }
        r.say(lines.join("\n"));
        Ok(())
    }

    /// `tournament create ...`: checked against the variant, stored in sign-up.
    async fn create_tournament(
        &self,
        inc: &Incoming,
        c: TournamentTerms,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let Place::Channel(channel) = &inc.place else {
            return Err(Fail::of(
                RefusalKind::NotHere,
                "a tournament is made in a server's channel, where its players can join it",
            ));
        };
        // Its games start where it is made: only where the server lets games start.
        self.servers().games_may_start_here(inc).await?;
        if c.format == TournamentFormat::Competition {
            return self.create_competition(inc, c, r).await;
        }
        let spec = self.registry.get(&c.variant)?;
        check_pairing_terms(spec, &c)?;
        let swiss = c.format == TournamentFormat::Swiss;
        let rated =
            super::standing::rated_choice(spec, c.rated.map(|yes| if yes { "yes" } else { "no" }))?;
        let options = read_options(spec.options(), spec.display_name(), &c.options)?;
        let t = NewTournament {
            server: inc.server.clone(),
            channel: Some(channel.clone()),
            creator: inc.user.clone(),
            format: if swiss { "swiss" } else { "round-robin" }.into(),
            double: c.double,
            rounds: c.rounds.unwrap_or(0).into(),
            variant: spec.id().into(),
            options: stored_options(&options, rated)?,
            days_per_move: c.days.unwrap_or(self.settings.default_days).into(),
            rated: rated.unwrap_or(true),
            player_limit: c.limit.map(i64::from),
            signup_until: c.signup.map(|d| inc.at + i64::from(d) * DAY),
            mode: if c.together == Some(true) {
                "together"
            } else {
                "sequential"
            }
            .into(),
        };
        let id = self
            .store
            .create_tournament(&t, Some(&inc.event_id), inc.at)
            .await?;
        let row = self.tournament_row(id).await?;
        say_made(r, &row, spec, &terms_line(&row));
        Ok(())
    }

    /// Tournament `id` of the server the command comes from (a tournament is another
    /// server's business: unknown here).
    async fn tournament_here(&self, inc: &Incoming, id: i64) -> Result<TournamentRow, Fail> {
        let t = self.tournament_row(id).await?;
        if t.server != inc.server {
            return Err(Fail::of(
                RefusalKind::Unknown,
                format!("there is no tournament #{id} on this server"),
            ));
        }
        Ok(t)
    }

    /// Refuses anyone but `t`'s creator and the server's moderators.
    async fn check_organiser(
        &self,
        inc: &Incoming,
        member: &Member,
        t: &TournamentRow,
    ) -> Result<(), Fail> {
        if inc.user == t.creator
            || (inc.server.is_some() && self.servers().is_moderator(inc, member).await?)
        {
            return Ok(());
        }
        Err(Fail::of(
            RefusalKind::NotAllowed,
            format!(
                "tournament #{}: only its creator or this server's moderators may do this; nothing was done",
                t.id
            ),
        ))
    }

    /// `tournament join ID`.
    async fn join_tournament(&self, inc: &Incoming, id: i64, r: &mut Reply) -> Result<(), Fail> {
        // Marked applied with the entry: a second delivery of the event joins nobody.
        let event = Some(inc.event_id.as_str());
        for _ in 0..RETRIES {
            let t = self.tournament_here(inc, id).await?;
            let entrants = self.store.entrants(id).await?;
            if entrants.iter().any(|e| e.user == inc.user) {
                return Err(Fail::of(
                    RefusalKind::Illegal,
                    format!("you have already joined tournament #{id}"),
                ));
            }
            if t.state != TournamentState::Signup
                || t.signup_until.is_some_and(|until| inc.at >= until)
            {
                return Err(Fail::of(
                    RefusalKind::Over,
                    format!("tournament #{id} is not open for sign-up any more"),
                ));
            }
            let limit = t.player_limit.map_or(MAX_ENTRANTS, |l| l as usize);
            if entrants.len() >= limit {
                return Err(Fail::of(
                    RefusalKind::Illegal,
                    format!("tournament #{id} is full ({limit} players)"),
                ));
            }
            let seed = entrants.iter().map(|e| e.seed + 1).max().unwrap_or(0);
            if self
                .store
                .join_tournament(id, t.version, (&inc.user, seed), event, inc.at)
                .await?
            {
                r.say(format!(
                    "{} joined tournament #{id} ({})",
                    user_mark(&inc.user),
                    crate::variants::api::plural(entrants.len() + 1, "player", "players")
                ));
                return Ok(());
            }
        }
        Err(Fail::Store(crate::store::StoreError::Conflict))
    }

    /// `tournament leave ID` by `user` (or `tournament remove ID @user`): before the
    /// start, the entry removed; after it, a withdrawal: their boards not yet ended are
    /// forfeited, and the games on them resigned.
    async fn leave_tournament(
        &self,
        inc: &Incoming,
        id: i64,
        user: &str,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let event = Some(inc.event_id.as_str());
        let who = if user == inc.user {
            "you are".to_string()
        } else {
            format!("{} is", user_at_mark(user))
        };
        // Taken out by the creator or a moderator, not gone of their own accord.
        let removed = user != inc.user;
        let went = if removed { "was removed from" } else { "left" };
        for _ in 0..RETRIES {
            let t = self.tournament_here(inc, id).await?;
            let entrants = self.store.entrants(id).await?;
            let Some(e) = entrants.iter().find(|e| e.user == user) else {
                return Err(Fail::of(
                    RefusalKind::Unknown,
                    format!("{who} not in tournament #{id}"),
                ));
            };
            if e.withdrawn_at.is_some()
                || matches!(
                    t.state,
                    TournamentState::Finished | TournamentState::Cancelled
                )
            {
                return Err(Fail::of(
                    RefusalKind::Over,
                    format!("{who} no longer playing tournament #{id}"),
                ));
            }
            if t.state == TournamentState::Signup {
                if self
                    .store
                    .leave_tournament(id, t.version, user, event, inc.at)
                    .await?
                {
                    r.say(format!("{} {} tournament #{id}", user_mark(user), went));
                    return Ok(());
                }
                continue;
            }
            let (forfeits, games) = unfinished_boards(&self.store.boards(id).await?, e.seed);
            if !self
                .store
                .withdraw_entrant(
                    id,
                    t.version,
                    user,
                    t.current_round,
                    &forfeits,
                    event,
                    inc.at,
                )
                .await?
            {
                continue;
            }
            let withdrew = if removed { went } else { "withdrew from" };
            r.say(format!(
                "{} {withdrew} tournament #{id}: their remaining games are forfeited",
                user_mark(user)
            ));
            for g in games {
                self.forfeit_game(inc, g, user, r).await?;
            }
            return self.advance(id, inc.at, r).await;
        }
        Err(Fail::Store(crate::store::StoreError::Conflict))
    }

    /// Ends game `id` of a withdrawn `user` by their resignation, written by the referee
    /// under the game's lock; nothing if it ended meanwhile.
    async fn forfeit_game(
        &self,
        inc: &Incoming,
        id: i64,
        user: &str,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let lock = self.lock_for(id);
        let _guard = lock.lock().await;
        let g = self.seating().game_row(id).await?;
        let Some(seat) = g.seat_of(user) else {
            return Ok(());
        };
        if g.status != GameStatus::Active {
            return Ok(());
        }
        let rules = self.load(&g)?;
        let (w, done) = super::commit::prepare(
            &g,
            rules,
            crate::variants::api::Seat(seat),
            "referee",
            crate::variants::api::Action::resign(),
            inc.at,
            None,
        )?;
        self.write(&g, &w).await?;
        self.accounts().announce_rated(&g, &done, r).await;
        Ok(())
    }

    /// Moves tournament `id` from one of `from` to `to`, by its creator or a moderator.
    async fn change_state(
        &self,
        inc: &Incoming,
        member: &Member,
        id: i64,
        from: &[TournamentState],
        to: TournamentState,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let event = Some(inc.event_id.as_str());
        for _ in 0..RETRIES {
            let t = self.tournament_here(inc, id).await?;
            self.check_organiser(inc, member, &t).await?;
            if !from.contains(&t.state) {
                return Err(Fail::of(
                    RefusalKind::Over,
                    format!(
                        "tournament #{id} is {}: it cannot be {} now",
                        state_words(t.state),
                        to.as_str()
                    ),
                ));
            }
            if self
                .store
                .set_tournament_state(id, t.version, to, event, inc.at)
                .await?
            {
                let name = tournament_name(&t, self.display_name(&t.variant));
                let text = match to {
                    TournamentState::Cancelled => format!("{name} is cancelled by {}; games under way play on but count for nothing", user_mark(&inc.user)),
                    TournamentState::Paused => format!("{name} is paused by {}: games under way play on; no new round starts until it is resumed", user_mark(&inc.user)),
                    _ => format!("{name} is resumed by {}", user_mark(&inc.user)),
                };
                self.say_to_tournament(&t, text.clone(), r);
                if t.channel
                    .as_ref()
                    .map(|c| super::messages::Destination::Channel(c.clone()))
                    != Some(r.origin.clone())
                {
                    r.say(text);
                }
                return Ok(());
            }
        }
        Err(Fail::Store(crate::store::StoreError::Conflict))
    }

    /// `tournament start ID`: its first round (a round robin played together: every
    /// round) paired and started.
    async fn start_tournament(
        &self,
        inc: &Incoming,
        member: &Member,
        id: i64,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        for _ in 0..RETRIES {
            let t = self.tournament_here(inc, id).await?;
            self.check_organiser(inc, member, &t).await?;
            if t.state != TournamentState::Signup {
                return Err(Fail::of(
                    RefusalKind::Over,
                    format!(
                        "tournament #{id} is {}: it has started already",
                        state_words(t.state)
                    ),
                ));
            }
            if is_competition(&t) {
                return self.start_competition(inc, t, r).await;
            }
            let entrants = self.store.entrants(id).await?;
            if entrants.len() < super::signup::players_needed(&t) {
                return Err(Fail::of(
                    RefusalKind::Illegal,
                    format!(
                        "tournament #{id} has {} {}: a round robin needs 2, a Swiss 3",
                        entrants.len(),
                        if entrants.len() == 1 {
                            "player"
                        } else {
                            "players"
                        }
                    ),
                ));
            }
            let stamp = (Some(inc.event_id.as_str()), inc.at);
            if self.begin_rounds(&t, &entrants, stamp, false, r).await? {
                return Ok(());
            }
        }
        Err(Fail::Store(crate::store::StoreError::Conflict))
    }

    /// `tournament ID`: the standings, as text and as a table image.
    async fn show_tournament(&self, inc: &Incoming, id: i64, r: &mut Reply) -> Result<(), Fail> {
        let t = self.tournament_here(inc, id).await?;
        if is_competition(&t) {
            return self.show_competition(&t, r).await;
        }
        let entrants = self.store.entrants(id).await?;
        let boards = self.store.boards(id).await?;
        let (record, users) = record_of(&t, &entrants, &boards);
        let name = tournament_name(&t, self.display_name(&t.variant));
        let total = rounds_of(&t, users.len());
        let title = match t.state {
            TournamentState::Signup => {
                let list: Vec<String> = users.iter().map(|u| user_mark(u)).collect();
                r.say(format!(
                    "{name}: open for sign-up{}; {} {}: {}",
                    terms_line(&t),
                    users.len(),
                    if users.len() == 1 {
                        "player"
                    } else {
                        "players"
                    },
                    if list.is_empty() {
                        "nobody yet".to_string()
                    } else {
                        list.join(", ")
                    }
                ));
                return Ok(());
            }
            TournamentState::Finished => format!("{name}: final standings"),
            state => format!(
                "{name}: round {} of {total}, {}",
                t.current_round,
                state_words(state)
            ),
        };
        let names: Vec<String> = users.iter().map(|u| self.name_of(u)).collect();
        let mut table = standings_of(&t, &record, &names);
        table.title = title.clone();
        r.out.push(Outbound {
            to: r.origin.clone(),
            text: format!("{title}\n```\n{}```", table_text(&table)),
            table: Some(table),
            ..Outbound::default()
        });
        Ok(())
    }

    /// `tournament pgn ID`: every game of the tournament in one PGN, tagged with the
    /// event, round and board, and the standings with the crosstable as a text document.
    async fn tournament_pgn(&self, inc: &Incoming, id: i64, r: &mut Reply) -> Result<(), Fail> {
        let t = self.tournament_here(inc, id).await?;
        if is_competition(&t) {
            return self.competition_pgn(&t, r).await;
        }
        let entrants = self.store.entrants(id).await?;
        let boards = self.store.boards(id).await?;
        let name = tournament_name(&t, self.display_name(&t.variant));
        let mut pgn = String::new();
        for b in &boards {
            pgn.push_str(&self.board_pgn(&name, b).await?);
        }
        if pgn.is_empty() {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!("tournament #{id} has no game yet"),
            ));
        }
        r.out.push(Outbound {
            to: r.origin.clone(),
            text: pgn,
            document: Some(format!("tournament-{id}.pgn")),
            ..Outbound::default()
        });
        let (record, users) = record_of(&t, &entrants, &boards);
        let names: Vec<String> = users.iter().map(|u| self.name_of(u)).collect();
        let table = standings_of(&t, &record, &names);
        r.out.push(Outbound {
            to: r.origin.clone(),
            text: format!("{name}\n\n{}", table_text(&table)),
            document: Some(format!("tournament-{id}-crosstable.txt")),
            ..Outbound::default()
        });
        Ok(())
    }
}

impl Events<'_> {}

/// A tournament's terms, as `, 3 days per move, unrated, ...`.
fn terms_line(t: &TournamentRow) -> String {
    let mut parts = vec![super::text::day_count(t.days_per_move) + " per move"];
    if t.format == "swiss" {
        parts.push(format!("{} rounds", t.rounds));
    }
    if !t.rated {
        parts.push("unrated".into());
    }
    if let Some(l) = t.player_limit {
        parts.push(format!("at most {l} players"));
    }
    if let Some(until) = t.signup_until {
        parts.push(format!("sign-up until {}", super::marks::time_mark(until)));
    }
    parts.push(
        if t.mode == "together" {
            "rounds together"
        } else {
            "each round after the last"
        }
        .into(),
    );
    format!(", {}", parts.join(", "))
}

/// A state in words.
fn state_words(state: TournamentState) -> &'static str {
    match state {
        TournamentState::Signup => "open for sign-up",
        TournamentState::Running => "under way",
        TournamentState::Paused => "paused",
        TournamentState::Finished => "finished",
        TournamentState::Cancelled => "cancelled",
    }
}

/// The boards not yet ended of the entrant of seed `seed` among `boards`, each as
/// `(round, board, the side that wins it by forfeit)`, and the games on them.
fn unfinished_boards(
    boards: &[crate::store::BoardRow],
    seed: i64,
) -> (Vec<(i64, i64, &'static str)>, Vec<i64>) {
    let mut forfeits = Vec::new();
    let mut games = Vec::new();
    for b in boards {
        let side = if b.white == seed {
            "black"
        } else if b.black == Some(seed) {
            "white"
        } else {
            continue;
        };
        if crate::service::tournament::board_outcome(b).is_none() {
            forfeits.push((b.round, b.board, side));
            games.extend(b.game_id);
        }
    }
    (forfeits, games)
}

/// Refuses the terms `c` of a round robin or Swiss of `spec` that cannot be: a variant
/// not of two sides, rounds given to a round robin or missing from a Swiss, a double or
/// simultaneous Swiss, a player limit out of range.
fn check_pairing_terms(spec: &dyn VariantSpec, c: &TournamentTerms) -> Result<(), Fail> {
    let plan = spec.seats();
    if plan.placing != Placing::Sides || plan.count() != 2 {
        let hint = if plan.count() == 1 {
            format!(
                " (a solitaire runs as a best-score competition: {})",
                command_mark(&format!("tournament create competition {}", spec.id()))
            )
        } else {
            String::new()
        };
        return Err(Fail::of(
                RefusalKind::Illegal,
                format!(
                    "{} is not a game of two players: a round robin or Swiss is for two-player variants{hint}",
                    spec.display_name()
                ),
            ));
    }
    let refuse = |text: &str| Err(Fail::of(RefusalKind::Syntax, text.to_string()));
    let swiss = c.format == TournamentFormat::Swiss;
    match (swiss, c.rounds, c.double, c.together) {
        (true, None, _, _) => return refuse("a Swiss needs its number of rounds: rounds:N"),
        (true, _, true, _) => return refuse("double is for a round robin"),
        (true, _, _, Some(true)) => {
            return refuse(
                "a Swiss's rounds are paired from the results: they cannot start together",
            )
        }
        (false, Some(_), _, _) => {
            return refuse("a round robin's rounds follow from its players: leave rounds: out")
        }
        _ => {}
    }
    if c.limit.is_some_and(|l| l < 2 || l as usize > MAX_ENTRANTS) {
        return Err(Fail::of(
            RefusalKind::Syntax,
            format!("limit: from 2 to {MAX_ENTRANTS} players"),
        ));
    }
    Ok(())
}
