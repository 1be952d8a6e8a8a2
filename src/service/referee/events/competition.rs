//! Best-score competitions of the one-seat variants (the solitaires): made with
//! `tournament create competition VARIANT [deals:N]`, joined, left and started as any
//! tournament; every entrant plays the same deals, one after another, each in a game of
//! their own played in private, and the best total wins (`docs/tournaments.md`,
//! "Best-score competitions").
//!
//! At the start one secret seed per deal is drawn from the operating system's entropy
//! and stored ([`crate::store::Store::deal_seeds`]); an entrant's game of deal `d` is
//! dealt with that seed as its hidden seed, so every entrant's game of deal `d` deals the
//! same cards. The seeds are read only to deal: no message, image, export or listing
//! holds one, and the games are private, so nobody sees another entrant's cards (a
//! finished attempt shows its whole deal) before the competition is over.

use super::commit::{self, destination_key};
use super::marks::{user_mark, DAY};
use super::messages::{Destination, Fail, Incoming, Outbound, Place, Reply};
use super::parts::Events;
use super::round_outbox::tournament_place;
use super::rounds::{new_game, say_made, stored_options, table_text};
use super::text::tournament_name;
use crate::render::table::Table;
use crate::service::command::TournamentTerms;
use crate::service::competition::{deal_result, Competition, DEFAULT_DEALS, MAX_DEALS};
use crate::store::{
    Drawn, NewBoard, NewGame as StoredGame, NewTournament, RoundMessage, SeatRow, StoreError,
    TournamentRow,
};
use crate::tournament::{solitaire_standings, solitaire_table, DealResult};
use crate::variants::api::random::{splitmix64, OsEntropy, Random};
use crate::variants::api::{read_options, RefusalKind, Seat, VariantSpec};

/// A competition's format as the store reads it.
use crate::service::tournament::{COMPETITION, MAX_ENTRANTS};
use crate::store::{RoundStep, TournamentState};

/// How many times a step is tried again when another write came between.
const RETRIES: usize = 4;

impl Events<'_> {
    /// `tournament create competition VARIANT ...`: checked against the variant (one
    /// seat), stored in sign-up with its number of deals.
    pub(crate) async fn create_competition(
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
        let spec = self.registry.get(&c.variant)?;
        if spec.seats().count() != 1 {
            return Err(Fail::of(
                RefusalKind::Illegal,
                format!(
                    "{} is not a game of one: a best-score competition is for the solitaires ({}); make a round robin or a Swiss",
                    spec.display_name(),
                    self.registry
                        .all()
                        .filter(|v| v.seats().count() == 1)
                        .map(|v| v.id())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        let refuse = |text: &str| Err(Fail::of(RefusalKind::Syntax, text.to_string()));
        if c.rounds.is_some() || c.double || c.together.is_some() {
            return refuse(
                "a competition has deals, not rounds: every entrant plays them one after another (deals:N); leave rounds:, double and together out",
            );
        }
        let deals = c.deals.unwrap_or(DEFAULT_DEALS);
        if deals > MAX_DEALS {
            return refuse(&format!("deals: from 1 to {MAX_DEALS}"));
        }
        if c.limit.is_some_and(|l| l < 2 || l as usize > MAX_ENTRANTS) {
            return refuse(&format!("limit: from 2 to {MAX_ENTRANTS} players"));
        }
        let rated =
            super::standing::rated_choice(spec, c.rated.map(|yes| if yes { "yes" } else { "no" }))?;
        let options = read_options(spec.options(), spec.display_name(), &c.options)?;
        let t = NewTournament {
            server: inc.server.clone(),
            channel: Some(channel.clone()),
            creator: inc.user.clone(),
            format: COMPETITION.into(),
            double: false,
            rounds: deals.into(),
            variant: spec.id().into(),
            options: stored_options(&options, rated)?,
            days_per_move: c.days.unwrap_or(self.settings.default_days).into(),
            rated: rated.unwrap_or(true),
            player_limit: c.limit.map(i64::from),
            signup_until: c.signup.map(|d| inc.at + i64::from(d) * DAY),
            mode: "sequential".into(),
        };
        let id = self
            .store
            .create_competition(&t, deals.into(), Some(&inc.event_id), inc.at)
            .await?;
        let row = self.tournament_row(id).await?;
        say_made(r, &row, spec, &competition_terms(&row));
        Ok(())
    }

    /// `tournament start ID` of competition `t` (its organiser checked, in sign-up): the
    /// deals' seeds drawn and stored, and every entrant's game of the first deal dealt.
    pub(crate) async fn start_competition(
        &self,
        inc: &Incoming,
        t: TournamentRow,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let mut t = t;
        for _ in 0..RETRIES {
            let entrants = self.store.entrants(t.id).await?;
            if entrants.len() < 2 {
                return Err(Fail::of(
                    RefusalKind::Illegal,
                    format!(
                        "tournament #{} has {}: a competition needs 2",
                        t.id,
                        crate::variants::api::plural(entrants.len(), "player", "players")
                    ),
                ));
            }
            let c = Competition::read(t.rounds.max(0) as usize, &entrants, &[]);
            // Marked applied with the deals: a second delivery of the command deals nothing.
            let stamp = (Some(inc.event_id.as_str()), inc.at);
            if self.deal_next(&t, &c, stamp, false, r).await? {
                return Ok(());
            }
            t = self.tournament_row(t.id).await?;
            if t.state != TournamentState::Signup {
                return Err(Fail::of(
                    RefusalKind::Over,
                    format!("tournament #{} has started already", t.id),
                ));
            }
        }
        Err(Fail::Store(StoreError::Conflict))
    }

    /// One step of running competition `t`: each entrant whose attempt has ended is dealt
    /// their next deal (the standings posted when that completes a deal for everyone),
    /// or, with every attempt ended, the competition finished, its final standings
    /// queued in the outbox by the transaction that finishes it. `queued`: the deadline
    /// task's sweep takes the step, and the deals' announcements are queued with them
    /// too (else they are the command's answer). `false` when another write came between
    /// and nothing was done.
    pub(crate) async fn competition_step(
        &self,
        t: &TournamentRow,
        at: i64,
        queued: bool,
        r: &mut Reply,
    ) -> Result<bool, Fail> {
        let (c, _) = self.read_competition(t).await?;
        if !c.due().is_empty() {
            return self.deal_next(t, &c, (None, at), queued, r).await;
        }
        if !c.is_over() {
            return Ok(true);
        }
        let name = tournament_name(t, self.display_name(&t.variant));
        let to = tournament_place(t.channel.as_ref(), r);
        let title = format!("{name}: final standings");
        let messages = [standings_queued(
            &to,
            &competition_table(&c, &title, user_mark),
        )];
        let step = RoundStep::new(TournamentState::Finished, t.current_round, &[][..]);
        let no_game = |_, _| {
            Err(StoreError::Refused(
                "a competition's end deals no game".into(),
            ))
        };
        let finished = self
            .store
            .start_rounds_announced(t.id, t.version, step, &messages, (None, at), no_game)
            .await?;
        if finished.is_some() {
            self.outbox_news.queued();
        }
        Ok(finished.is_some())
    }

    /// Deals each entrant of `c` their due deal, in one write over `t`'s version (which
    /// also moves a competition in sign-up to running; by chat event `event`, marked
    /// applied with it, when a command starts it), and announces the games: in the answer
    /// `r`, or, `queued` (the deadline task's sweep deals them), in the outbox, queued by
    /// the same write. `false` when another write came between.
    pub(crate) async fn deal_next(
        &self,
        t: &TournamentRow,
        c: &Competition,
        (event, at): (Option<&str>, i64),
        queued: bool,
        r: &mut Reply,
    ) -> Result<bool, Fail> {
        let spec = self.registry.get(&t.variant)?;
        let due = c.due();
        let deals = t.rounds.max(0) as usize;
        let drawn: Vec<u64> = (0..deals).map(|d| self.deal_seed(t.id, d)).collect();
        let seeds = self.store.deal_seeds(t.id, &drawn).await?;
        let boards = self.deal_boards(t, c, &due, spec).await?;
        let highest = due.iter().map(|&(_, d)| d as i64).max().unwrap_or(0);
        let draw = |i: usize, id: i64| {
            let (p, deal) = due[i];
            self.drawn_deal(t, spec, &c.users[p], (seeds[deal - 1], at), id)
        };
        let words = DealWords::new(t, c, &due, spec, tournament_place(t.channel.as_ref(), r));
        let messages = match queued {
            true => words.queued(c, &due),
            false => Vec::new(),
        };
        let step = RoundStep::new(
            TournamentState::Running,
            t.current_round.max(highest),
            &boards[..],
        );
        let Some(games) = self
            .store
            .start_rounds_announced(t.id, t.version, step, &messages, (event, at), draw)
            .await?
        else {
            return Ok(false);
        };
        if queued {
            if !messages.is_empty() {
                self.outbox_news.queued();
            }
            return Ok(true);
        }
        self.announce_deals(t, c, &due, &games, words, r).await?;
        Ok(true)
    }

    /// The boards of the deals `due` of `c`: one an entrant, each their own game, the
    /// entrant's stored seed as its "white".
    async fn deal_boards(
        &self,
        t: &TournamentRow,
        c: &Competition,
        due: &[(usize, usize)],
        spec: &'static dyn VariantSpec,
    ) -> Result<Vec<(i64, NewBoard)>, Fail> {
        let mut stored_seeds: Vec<i64> = self
            .store
            .entrants(t.id)
            .await?
            .iter()
            .map(|e| e.seed)
            .collect();
        stored_seeds.sort();
        let mut boards = Vec::with_capacity(due.len());
        for &(p, deal) in due {
            boards.push((
                deal as i64,
                NewBoard {
                    board: p as i64 + 1,
                    white: stored_seeds[p],
                    black: None,
                    forfeit: None,
                    game: Some(self.competition_game(t, &c.users[p], spec)?),
                },
            ));
        }
        Ok(boards)
    }

    /// The game `id` of `user` in a deal, dealt from the deal's secret seed
    /// (`deal_seed`), its clocks started at `at`.
    fn drawn_deal(
        &self,
        t: &TournamentRow,
        spec: &'static dyn VariantSpec,
        user: &str,
        (deal_seed, at): (u64, i64),
        id: i64,
    ) -> Result<Drawn, StoreError> {
        let seed = self.seating().game_seed(id);
        // Every entrant's game of this deal is dealt from the deal's seed.
        let game = new_game(t, spec, seed as u64, Some(deal_seed))
            .and_then(|n| spec.new_game(&n))
            .map_err(|e| StoreError::Refused(e.text))?;
        let start = commit::movers(game.as_ref())
            .into_iter()
            .map(|s| {
                (
                    s.0,
                    at + game.time_limit(s).unwrap_or(t.days_per_move * DAY),
                )
            })
            .collect();
        Ok(Drawn {
            seed,
            seats: vec![SeatRow {
                seat: 0,
                user: Some(user.to_string()),
                role: game.seat_name(Seat(0)).to_lowercase(),
                accepted: true,
            }],
            snapshot: Some(
                game.snapshot_text()
                    .map_err(|e| StoreError::Refused(e.text))?,
            ),
            start: Some(start),
            // Dealt from the deal's secret seed, which the game's row does not hold:
            // its starting state is kept.
            start_is_default: false,
        })
    }

    /// Announces the games just dealt (`games`, by `due`'s order) in the answer `r`: the
    /// start, the standings after a completed deal, each player's opening.
    async fn announce_deals(
        &self,
        t: &TournamentRow,
        c: &Competition,
        due: &[(usize, usize)],
        games: &[Option<i64>],
        words: DealWords,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        if let Some(lead) = words.lead.clone() {
            self.say_to_tournament(t, lead, r);
        }
        if let Some(title) = &words.standings {
            r.out.push(standings_message(
                self.competition_table(c, title),
                words.to.clone(),
            ));
        }
        for (&(p, deal), id) in due.iter().zip(games) {
            let Some(id) = *id else { continue };
            let g = self.seating().game_row(id).await?;
            self.seating()
                .announce_opening(&g, None, &words.heading(deal), r)?;
            self.say_to_tournament(
                t,
                format!(
                    "{}{} is dealt game #{id}, played in private messages",
                    words.heading(deal),
                    user_mark(&c.users[p])
                ),
                r,
            );
        }
        Ok(())
    }

    /// The secret seed of deal `deal` (from 0) of competition `id`: the operating
    /// system's entropy, or, where a seed is configured for reproducible games (the
    /// console's `--seed`, tests), one drawn from it.
    fn deal_seed(&self, id: i64, deal: usize) -> u64 {
        match self.settings.seed {
            Some(seed) => splitmix64(seed ^ splitmix64(!(id as u64)) ^ splitmix64(deal as u64)),
            None => OsEntropy.next_u64(),
        }
    }

    /// A game of competition `t` as the store creates it, before it is dealt: played in
    /// private (no channel, no server), so that nobody but its player reads it.
    fn competition_game(
        &self,
        t: &TournamentRow,
        user: &str,
        spec: &'static dyn VariantSpec,
    ) -> Result<StoredGame, Fail> {
        // A placeholder deal from a fixed seed, replaced in the same write by the deal's.
        let rules = spec.new_game(&new_game(t, spec, 0, Some(0))?)?;
        Ok(StoredGame {
            variant: spec.id().into(),
            days_per_move: t.days_per_move,
            colour: "white".into(),
            challenger: user.to_string(),
            channel: None,
            server: None,
            start_fen: None,
            options: t.options.clone(),
            snapshot: rules.snapshot()?.to_string(),
            max_open: 0,
            one_live: false,
        })
    }

    /// `tournament ID` of competition `t`: its entrants in sign-up, else the standings
    /// as text and as a table image.
    pub(crate) async fn show_competition(
        &self,
        t: &TournamentRow,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let (c, _) = self.read_competition(t).await?;
        let name = tournament_name(t, self.display_name(&t.variant));
        let title = match t.state {
            TournamentState::Signup => {
                let list: Vec<String> = c.users.iter().map(|u| user_mark(u)).collect();
                r.say(format!(
                    "{name}: open for sign-up{}; {}: {}",
                    competition_terms(t),
                    crate::variants::api::plural(c.users.len(), "player", "players"),
                    if list.is_empty() {
                        "nobody yet".to_string()
                    } else {
                        list.join(", ")
                    }
                ));
                return Ok(());
            }
            TournamentState::Finished => format!("{name}: final standings"),
            TournamentState::Cancelled => format!("{name}: cancelled"),
            TournamentState::Paused => format!(
                "{name}: paused, {} of {} deals finished by everyone",
                c.deals_complete(),
                t.rounds
            ),
            _ => format!(
                "{name}: under way, {} of {} deals finished by everyone",
                c.deals_complete(),
                t.rounds
            ),
        };
        let table = self.competition_table(&c, &title);
        r.out.push(standings_message(table, r.origin.clone()));
        Ok(())
    }

    /// `tournament pgn ID` of competition `t`: every attempt in one PGN (the `Round` tag
    /// its deal, `Board` its entrant's place), once no attempt is under way; refused
    /// before, since a finished attempt's record shows its whole deal, which entrants
    /// still playing it (or yet to play it) must not see.
    pub(crate) async fn competition_pgn(
        &self,
        t: &TournamentRow,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let (c, boards) = self.read_competition(t).await?;
        let live = boards.iter().any(|b| deal_result(b) == DealResult::Pending);
        if live || matches!(t.state, TournamentState::Running | TournamentState::Paused) {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!(
                    "tournament #{}: its games are given once the competition is over, since a finished attempt's record shows its deal to entrants still to play it",
                    t.id
                ),
            ));
        }
        let name = tournament_name(t, self.display_name(&t.variant));
        let mut pgn = String::new();
        for b in &boards {
            pgn.push_str(&self.board_pgn(&name, b).await?);
        }
        if pgn.is_empty() {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!("tournament #{} has no game", t.id),
            ));
        }
        r.out.push(Outbound {
            to: r.origin.clone(),
            text: pgn,
            document: Some(format!("tournament-{}.pgn", t.id)),
            ..Outbound::default()
        });
        let table = self.competition_table(&c, &name);
        r.out.push(Outbound {
            to: r.origin.clone(),
            text: format!("{name}\n\n{}", table_text(&table)),
            document: Some(format!("tournament-{}-standings.txt", t.id)),
            ..Outbound::default()
        });
        Ok(())
    }

    /// Competition `t` as stored, read, and its boards.
    async fn read_competition(
        &self,
        t: &TournamentRow,
    ) -> Result<(Competition, Vec<crate::store::BoardRow>), Fail> {
        let entrants = self.store.entrants(t.id).await?;
        let boards = self.store.boards(t.id).await?;
        let c = Competition::read(t.rounds.max(0) as usize, &entrants, &boards);
        Ok((c, boards))
    }

    /// `c`'s standings under `title` as a table (a withdrawn entrant marked `(w)`), the
    /// entrants by the names this process knows.
    fn competition_table(&self, c: &Competition, title: &str) -> Table {
        competition_table(c, title, |u| self.name_of(u))
    }
}

/// `c`'s standings under `title` as a table (a withdrawn entrant marked `(w)`), each
/// entrant written by `name`: their display name for an answer, their mark
/// ([`user_mark`]) for the outbox, named at delivery (so no display name is stored, and
/// a forgotten player's mark becomes their label).
fn competition_table(c: &Competition, title: &str, name: impl Fn(&str) -> String) -> Table {
    let names: Vec<String> = c
        .users
        .iter()
        .zip(&c.withdrawn)
        .map(|(u, &w)| {
            let name = name(u);
            if w {
                format!("{name} (w)")
            } else {
                name
            }
        })
        .collect();
    let s = solitaire_table(&solitaire_standings(&c.results), &names);
    Table {
        title: title.to_string(),
        header: s.header,
        rows: s.rows,
    }
}

/// The standings `table` queued for `to`: the title and the table as text, and the table
/// to draw; its entrants are named at delivery ([`super::round_outbox::named_standings`]).
fn standings_queued(to: &Destination, table: &Table) -> RoundMessage {
    let text = format!("{}\n```\n{}```", table.title, table_text(table));
    super::round_outbox::standings_message(to, text, table)
}

/// Standings to `to`: the title and the table as text, and the table to draw.
fn standings_message(table: Table, to: Destination) -> Outbound {
    Outbound {
        to,
        text: format!("{}\n```\n{}```", table.title, table_text(&table)),
        table: Some(table),
        ..Outbound::default()
    }
}

/// A competition's terms, as `, 3 deals, 3 days per move, ...`.
fn competition_terms(t: &TournamentRow) -> String {
    let mut parts = vec![
        crate::variants::api::plural(t.rounds.max(0) as usize, "deal", "deals"),
        super::text::day_count(t.days_per_move) + " per move",
    ];
    if !t.rated {
        parts.push("unrated".into());
    }
    if let Some(l) = t.player_limit {
        parts.push(format!("at most {l} players"));
    }
    if let Some(until) = t.signup_until {
        parts.push(format!("sign-up until {}", super::marks::time_mark(until)));
    }
    format!(", {}", parts.join(", "))
}

/// What a deal's announcements say: the competition's name, its start, the standings
/// after a deal every entrant has finished, and where it is said.
struct DealWords {
    /// The competition's name.
    name: String,
    /// How many deals the competition has.
    deals: usize,
    /// Where the competition's news goes.
    to: Destination,
    /// The start's announcement, when the deals begin now.
    lead: Option<String>,
    /// The title of the standings after the latest deal all have finished, if one is
    /// finished with these deals.
    standings: Option<String>,
}

impl DealWords {
    /// The words for dealing `due` of `c`, a competition of `t`, said at `to`.
    fn new(
        t: &TournamentRow,
        c: &Competition,
        due: &[(usize, usize)],
        spec: &dyn VariantSpec,
        to: Destination,
    ) -> DealWords {
        let name = tournament_name(t, spec.display_name());
        let deals = t.rounds.max(0) as usize;
        let lead = (t.state == TournamentState::Signup).then(|| {
            format!(
                "{name} starts: {} players, {}, the same for everyone, each dealt in a game of your own played in private messages, one after another",
                c.users.len(),
                crate::variants::api::plural(deals, "deal", "deals"),
            )
        });
        // A deal every entrant has now finished: the standings after it.
        let complete = c.deals_complete();
        let standings = due
            .iter()
            .map(|&(_, d)| d - 1)
            .filter(|&k| k >= 1 && k <= complete)
            .max()
            .map(|k| format!("{name}: standings after deal {k}"));
        DealWords {
            name,
            deals,
            to,
            lead,
            standings,
        }
    }

    /// The heading of deal `deal`'s messages.
    fn heading(&self, deal: usize) -> String {
        format!("{}, deal {deal} of {}: ", self.name, self.deals)
    }

    /// The messages the outbox delivers for deals `due` dealt by the deadline task: the
    /// start, the standings, each game's opening to its player alone (its board shows
    /// the deal) and to the channel who was dealt, and nothing of the cards.
    fn queued(&self, c: &Competition, due: &[(usize, usize)]) -> Vec<RoundMessage> {
        let say = |text: String| RoundMessage {
            destination: destination_key(&self.to),
            text,
            ..RoundMessage::default()
        };
        let mut messages = Vec::new();
        messages.extend(
            self.lead
                .clone()
                .map(|l| say(format!("sign-up is over: {l}"))),
        );
        messages.extend(
            self.standings
                .as_ref()
                .map(|s| standings_queued(&self.to, &competition_table(c, s, user_mark))),
        );
        for (i, &(p, deal)) in due.iter().enumerate() {
            messages.push(RoundMessage {
                board: Some(i),
                destination: destination_key(&Destination::Dm(c.users[p].clone())),
                text: self.heading(deal),
                standings: None,
            });
            messages.push(say(format!(
                "{}{} is dealt {}, played in private messages",
                self.heading(deal),
                user_mark(&c.users[p]),
                crate::store::game_mark(i)
            )));
        }
        messages
    }
}
