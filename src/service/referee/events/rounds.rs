//! A tournament's rounds: paired (a round robin's Berger table, a Swiss's Dutch pairing
//! from the record), started with every game created in the transaction that moves the
//! tournament on (version-checked, so a round starts once whatever the processes), and
//! the standings posted, as text and as a table image, after each round and at the end:
//! every announcement of a round queued in the outbox by the transaction that starts it
//! (`round_outbox`).
//!
//! A tournament goes on when one of its games ends: the command that ended it
//! ([`Service::tournament_games_ended`]) starts the next round in its own answer; the
//! deadline task's sweep ([`Service::advance_tournaments`]) catches the games that end
//! without a command (timeouts) and any round left unstarted by a stopped process.

use super::commit;
use super::marks::DAY;
use super::messages::{Destination, Fail, Outbound, Reply};
use super::parts::Events;
use super::round_outbox::{board_messages, standings_message, tournament_place};
use crate::service::tournament::{format_of, is_competition, record_of, rounds_of};
use crate::store::{
    Drawn, NewBoard, NewGame as StoredGame, RoundMessage, SeatRow, StoreError, TournamentRow,
};
use crate::store::{RoundStep, TournamentState};
use crate::tournament::{
    pair, standings, standings_table, Format, Outcome, Pairing, Player, Record, Side,
};
use crate::variants::api::{read_options, to_stored_text, NewGame, Options, Seat, VariantSpec};
use std::collections::BTreeMap;

/// How many times a tournament's step is tried again when another write came between
/// its read and its write.
pub(crate) const RETRIES: usize = 4;

use super::text::tournament_name;

/// The answer to the creation of tournament `t` (of `spec`'s variant), its `terms` in
/// words (`, 3 days per move, ...`): who made it, how to join it and who starts it.
pub(crate) fn made_text(t: &TournamentRow, spec: &dyn VariantSpec, terms: &str) -> String {
    let creator = super::marks::user_mark(&t.creator);
    format!(
        "{} made by {creator}{terms}: join it with {}; {creator} starts it",
        tournament_name(t, spec.display_name()),
        super::marks::command_mark(&format!("tournament join {}", t.id)),
    )
}

/// Says the creation of tournament `t` ([`made_text`]), with a Join button for anyone (the
/// referee checks who may join, as for a typed `tournament join`).
pub(crate) fn say_made(r: &mut Reply, t: &TournamentRow, spec: &dyn VariantSpec, terms: &str) {
    r.say(made_text(t, spec, terms));
    if let Some(last) = r.out.last_mut() {
        last.buttons.push(super::Button {
            label: "Join".into(),
            command: format!("tournament join {}", t.id),
            for_user: None,
            primary: true,
            danger: false,
            keep: true,
        });
    }
}

/// The standings of `record` as a table of text, with the title above it.
pub(crate) fn standings_of(
    t: &TournamentRow,
    record: &Record,
    names: &[String],
) -> crate::render::table::Table {
    let format = format_of(t);
    let s = standings(record, format);
    let table = standings_table(record, format, &s, names);
    crate::render::table::Table {
        title: String::new(),
        header: table.header,
        rows: table.rows,
    }
}

pub(crate) use super::round_outbox::table_text;

impl Events<'_> {
    /// Tournament `id` goes on if it is running and its started rounds have ended: the
    /// standings are posted and the next round started, or the tournament finished.
    /// Nothing when another process did it first.
    pub(crate) async fn advance_rounds(&self, id: i64, at: i64, r: &mut Reply) -> Result<(), Fail> {
        // Each pass either finds nothing to do, or starts a round (which may end at once:
        // every board of it forfeited), or lost a race and reads again.
        for _ in 0..RETRIES + crate::service::tournament::MAX_ENTRANTS * 2 {
            let Some(t) = self.store.tournament(id).await? else {
                return Ok(());
            };
            if t.state != TournamentState::Running {
                return Ok(());
            }
            if is_competition(&t) {
                return Ok(());
            }
            let entrants = self.store.entrants(id).await?;
            let boards = self.store.boards(id).await?;
            let (record, users) = record_of(&t, &entrants, &boards);
            let started = t.current_round as usize;
            if record.rounds[..started.min(record.rounds.len())]
                .iter()
                .any(|round| !round.is_complete())
            {
                return Ok(());
            }
            self.next_round(&t, &record, &users, at, r).await?;
        }
        Err(Fail::Store(StoreError::Conflict))
    }

    /// Starts tournament `t`'s next round (or, with every round played or no pairing
    /// left, finishes it), posting the standings first: `false` when another write came
    /// between, and nothing was done.
    async fn next_round(
        &self,
        t: &TournamentRow,
        record: &Record,
        users: &[String],
        at: i64,
        r: &mut Reply,
    ) -> Result<bool, Fail> {
        let spec = self.registry.get(&t.variant)?;
        let name = tournament_name(t, spec.display_name());
        let started = t.current_round as usize;
        let total = rounds_of(t, users.len());
        let next: Option<(Vec<Pairing>, Option<Player>)> = if started >= total {
            None
        } else {
            match format_of(t) {
                Format::RoundRobin => {
                    let s = &record.rounds[started];
                    Some((s.boards.iter().map(|b| b.pairing).collect(), s.bye))
                }
                Format::Swiss => pair(record).ok().map(|p| (p.pairings, p.bye)),
            }
        };
        let to = tournament_place(t.channel.as_ref(), r);
        let Some((pairings, bye)) = next else {
            let title = format!("{name}: final standings");
            let messages = [self.standings_message(t, record, users, &title, &to)];
            let step = RoundStep::new(TournamentState::Finished, t.current_round, &[][..]);
            let no_game = |_, _| {
                Err(StoreError::Refused(
                    "a tournament's end starts no game".into(),
                ))
            };
            let finished = self
                .store
                .start_rounds_announced(t.id, t.version, step, &messages, (None, at), no_game)
                .await?;
            if finished.is_some() {
                self.outbox_news.queued();
            }
            return Ok(finished.is_some());
        };
        let round = started as i64 + 1;
        let boards = self.round_boards(t, record, round, &pairings, bye, users, spec)?;
        let mut messages = Vec::new();
        if started > 0 {
            let title = format!("{name}: standings after round {started}");
            messages.push(self.standings_message(t, record, users, &title, &to));
        }
        messages.extend(board_messages(&to, &name, &boards, users));
        self.start_boards(
            t,
            RoundStep::new(TournamentState::Running, round, &boards),
            &messages,
            (None, at),
            spec,
        )
        .await
    }

    /// The boards of round `round` of `t` as stored: each pairing with its game, or, for
    /// a board the record already scores (a withdrawn player's), its forfeit; the bye.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn round_boards(
        &self,
        t: &TournamentRow,
        record: &Record,
        round: i64,
        pairings: &[Pairing],
        bye: Option<Player>,
        users: &[String],
        spec: &'static dyn VariantSpec,
    ) -> Result<Vec<(i64, NewBoard)>, Fail> {
        let scheduled = record.rounds.get(round as usize - 1);
        let mut out = Vec::new();
        for (i, p) in pairings.iter().enumerate() {
            let decided = scheduled
                .and_then(|s| s.boards.iter().find(|b| b.pairing == *p))
                .and_then(|b| b.outcome)
                .or_else(|| {
                    // A player who withdrew is not paired by a Swiss; a round robin's
                    // record already forfeits their games.
                    match (record.has_withdrawn(p.white), record.has_withdrawn(p.black)) {
                        (true, true) => Some(Outcome::DoubleForfeit),
                        (true, false) => Some(Outcome::Forfeit {
                            winner: Side::Black,
                        }),
                        (false, true) => Some(Outcome::Forfeit {
                            winner: Side::White,
                        }),
                        (false, false) => None,
                    }
                });
            let forfeit = decided.map(|o| match o {
                Outcome::Forfeit {
                    winner: Side::White,
                } => "white".to_string(),
                Outcome::Forfeit {
                    winner: Side::Black,
                } => "black".to_string(),
                _ => "double".to_string(),
            });
            let game = match forfeit {
                Some(_) => None,
                None => Some(self.tournament_game(t, &users[p.white], spec)?),
            };
            out.push((
                round,
                NewBoard {
                    board: i as i64 + 1,
                    white: p.white as i64,
                    black: Some(p.black as i64),
                    forfeit,
                    game,
                },
            ));
        }
        if let Some(b) = bye {
            out.push((
                round,
                NewBoard {
                    board: pairings.len() as i64 + 1,
                    white: b as i64,
                    black: None,
                    forfeit: None,
                    game: None,
                },
            ));
        }
        Ok(out)
    }

    /// A game of `t` as the store creates it, before its seats are drawn; White's player
    /// `white` stands as its challenger.
    fn tournament_game(
        &self,
        t: &TournamentRow,
        white: &str,
        spec: &'static dyn VariantSpec,
    ) -> Result<StoredGame, Fail> {
        let rules = spec.new_game(&new_game(t, spec, 0, None)?)?;
        Ok(StoredGame {
            variant: spec.id().into(),
            days_per_move: t.days_per_move,
            colour: "white".into(),
            challenger: white.to_string(),
            channel: t.channel.clone(),
            server: t.server.clone(),
            start_fen: None,
            options: t.options.clone(),
            snapshot: rules.snapshot_text()?,
            max_open: 0,
            one_live: false,
        })
    }

    /// Stores `boards` (rounds up to `rounds_started` now started; `t` then in `state`)
    /// and their games, every seat accepted and the first deadlines set, with the round's
    /// announcements `messages` in the outbox, if `t` is still as read: `false` when
    /// another write came between, and nothing was written. `(event, at)`: the command's
    /// chat event, marked applied with it, if a command starts them; and when.
    pub(crate) async fn start_boards(
        &self,
        t: &TournamentRow,
        step: RoundStep<'_>,
        messages: &[RoundMessage],
        (event, at): (Option<&str>, i64),
        spec: &'static dyn VariantSpec,
    ) -> Result<bool, Fail> {
        // The stored seeds are player numbers here; the store keeps the entrants' seeds.
        let entrants = self.store.entrants(t.id).await?;
        let mut seeds: Vec<i64> = entrants.iter().map(|e| e.seed).collect();
        seeds.sort();
        let users: Vec<String> = {
            let mut e = entrants.clone();
            e.sort_by_key(|e| e.seed);
            e.into_iter().map(|e| e.user).collect()
        };
        let boards = step.boards;
        let stored: Vec<(i64, NewBoard)> = boards
            .iter()
            .map(|(round, b)| {
                let mut b = b.clone();
                b.white = seeds[b.white as usize];
                b.black = b.black.map(|p| seeds[p as usize]);
                (*round, b)
            })
            .collect();
        let seeded = self.settings.seed.is_some();
        let draw = |i: usize, id: i64| -> Result<Drawn, StoreError> {
            let b = &boards[i].1;
            let players = [
                users[b.white as usize].clone(),
                users[b.black.unwrap_or_default() as usize].clone(),
            ];
            let seed = self.seating().game_seed(id);
            let game = new_game(t, spec, seed as u64, seeded.then_some(seed as u64))
                .and_then(|n| spec.new_game(&n))
                .map_err(|e| StoreError::Refused(e.text))?;
            let seats = players
                .iter()
                .enumerate()
                .map(|(s, user)| SeatRow {
                    seat: s as u8,
                    user: Some(user.clone()),
                    role: game.seat_name(Seat(s as u8)).to_lowercase(),
                    accepted: true,
                })
                .collect();
            let start = commit::movers(game.as_ref())
                .into_iter()
                .map(|s| {
                    let time = game.time_limit(s).unwrap_or(t.days_per_move * DAY);
                    (s.0, at + time)
                })
                .collect();
            Ok(Drawn {
                seed,
                seats,
                snapshot: Some(
                    game.snapshot()
                        .map_err(|e| StoreError::Refused(e.text))?
                        .to_string(),
                ),
                start: Some(start),
                start_is_default: false,
            })
        };
        let step = RoundStep::new(step.state, step.rounds_started, &stored[..]);
        let started = self
            .store
            .start_rounds_announced(t.id, t.version, step, messages, (event, at), draw)
            .await?;
        if started.is_some() && !messages.is_empty() {
            self.outbox_news.queued();
        }
        Ok(started.is_some())
    }

    /// The standings of `record` under `title`, as text and as a table image, to post
    /// at `to` where the tournament lives: queued with the round that follows them, the
    /// players by their marks, named at delivery
    /// ([`super::round_outbox::named_standings`]): no display name is stored, and a
    /// forgotten player's mark becomes their label.
    pub(crate) fn standings_message(
        &self,
        t: &TournamentRow,
        record: &Record,
        users: &[String],
        title: &str,
        to: &Destination,
    ) -> RoundMessage {
        let names: Vec<String> = users.iter().map(|u| super::marks::user_mark(u)).collect();
        let mut table = standings_of(t, record, &names);
        table.title = title.to_string();
        let text = format!("{title}\n```\n{}```", table_text(&table));
        standings_message(to, text, &table)
    }

    /// Says `text` where tournament `t` lives.
    pub(crate) fn say_to_tournament(&self, t: &TournamentRow, text: String, r: &mut Reply) {
        r.out.push(Outbound {
            to: tournament_place(t.channel.as_ref(), r),
            text,
            ..Outbound::default()
        });
    }
}

/// The set-up of one of `t`'s games with `seed`: the variant's own options as stored
/// with the tournament (the referee's `rated` left out).
pub(crate) fn new_game(
    t: &TournamentRow,
    spec: &'static dyn VariantSpec,
    seed: u64,
    hidden_seed: Option<u64>,
) -> Result<NewGame<'static>, crate::variants::api::RuleError> {
    let stored: BTreeMap<String, String> = serde_json::from_str(&t.options).unwrap_or_default();
    let own: Vec<(String, String)> = stored.into_iter().filter(|(n, _)| n != "rated").collect();
    let options: Options = read_options(spec.options(), spec.display_name(), &own)?;
    Ok(NewGame {
        fen: None,
        options,
        seed,
        hidden_seed,
    })
}

/// Every option stored with a tournament's games: the variant's, and `rated`.
pub(crate) fn stored_options(
    options: &Options,
    rated: Option<bool>,
) -> Result<String, crate::variants::api::RuleError> {
    let mut stored = options.clone();
    if let Some(yes) = rated {
        stored.insert("rated".into(), if yes { "yes" } else { "no" }.into());
    }
    to_stored_text("the options", &stored)
}

impl Events<'_> {
    /// The game of board `b` of tournament `name` as PGN, tagged with the event, the
    /// round and the board, and a blank line after it; nothing for a board without a
    /// game.
    pub(crate) async fn board_pgn(
        &self,
        name: &str,
        b: &crate::store::BoardRow,
    ) -> Result<String, Fail> {
        let Some(id) = b.game_id else {
            return Ok(String::new());
        };
        let g = self.seating().game_row(id).await?;
        let rules = self.whole(&g).await?;
        let mut tags = super::text::pgn_tags(&g, rules.as_ref(), &self.seat_names(&g));
        super::text::as_tournament_game(&mut tags, name, b.round, b.board);
        let mut pgn = rules.pgn(crate::variants::api::Viewer::Public, &tags);
        if !pgn.ends_with('\n') {
            pgn.push('\n');
        }
        pgn.push('\n');
        Ok(pgn)
    }

    /// Tournament `id`, if there is one.
    pub(crate) async fn tournament_row(
        &self,
        id: i64,
    ) -> Result<crate::store::TournamentRow, Fail> {
        self.store.tournament(id).await?.ok_or_else(|| {
            Fail::of(
                crate::variants::api::RefusalKind::Unknown,
                format!("there is no tournament #{id}"),
            )
        })
    }
}
