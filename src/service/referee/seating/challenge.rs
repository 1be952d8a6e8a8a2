//! Making a challenge, in steps: its terms read and checked against the variant
//! ([`Terms`]), its players checked against the variant's seats, the challenge stored with
//! its seats drawn in the transaction that creates it, and then announced (or, for a game
//! of one, started at once).

use super::answers::challenge_buttons;
use super::commit;
use super::engine_seat::ENGINE_OPTION;
use super::marks::{command_mark, user_at_mark, user_mark, DAY};
use super::parts::Seating;
use super::text::{day_count, seat_list};
use super::{takeback, ChallengeMark, Destination, Fail, Incoming, Outbound, Place, Reply};
use crate::service::command::{Challenge, ColourChoice};
use crate::store::{Drawn, NewGame as StoredGame, SeatRow, StoreError};
use crate::variants::api::random::shuffle;
use crate::variants::api::{
    plural, read_options, to_stored_text, GameRules, NewGame, Options, Placing, RefusalKind, Seat,
    VariantSpec, Viewer,
};

/// A challenge's terms, read from what was asked and checked against its variant.
struct Terms {
    /// The variant's own options, as it read them.
    options: Options,
    /// Every option stored with the game: the variant's, and the referee's own `rated`
    /// and `takebacks` where they apply.
    stored: Options,
    /// Rated or not, where the variant lets the challenger choose (`None`: the default).
    rated: Option<bool>,
    /// Whether takebacks are allowed.
    takebacks: bool,
    /// The challenger's colour choice.
    colour: ColourChoice,
    /// Days per move.
    days: i64,
}

/// A challenge being made: what was asked, of which variant, and the unseeded game that
/// checked it.
struct Making<'a> {
    inc: &'a Incoming,
    asked: &'a Challenge,
    spec: &'static dyn VariantSpec,
    terms: Terms,
    /// The game as asked, set up without its seed: it checks the challenge (a position,
    /// the options), names the seats and gives the snapshot stored until the seats are
    /// drawn.
    rules: Box<dyn GameRules>,
    /// Whether hidden draws come from the game's seed (`--seed`, tests) rather than the
    /// operating system's entropy.
    seeded: bool,
    /// The engine's level, in a challenge to the bot.
    engine: Option<u8>,
}

impl Seating<'_> {
    /// `challenge ...`: checks what is asked against the variant, stores the challenge
    /// with its seats drawn, and starts a game whose every seat is taken already.
    pub(crate) async fn challenge(
        &self,
        inc: &Incoming,
        c: Challenge,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let name = c
            .variant
            .clone()
            .unwrap_or_else(|| self.settings.default_variant.clone());
        let spec = self.registry.get(&name)?;
        // Where games may start on this server, and its defaults for what `c` leaves out.
        let mut c = self.servers().server_rules(inc, c, spec).await?;
        // A challenge to the bot: its level taken out of the options.
        let engine = engine_asked(&mut c, self.engine_user())?;
        if c.fen.is_some() && !spec.takes_fen() {
            return Err(Fail::of(
                RefusalKind::Syntax,
                format!(
                    "{} cannot start from a position (fen:)",
                    spec.display_name()
                ),
            ));
        }
        let mut terms = self.terms(&c, spec)?;
        if let Some(level) = engine {
            terms.stored.insert(ENGINE_OPTION.into(), level.to_string());
        }
        let seeded = self.settings.seed.is_some();
        let making = Making {
            inc,
            asked: &c,
            spec,
            seeded,
            rules: spec.new_game(&setup(&c, &terms, seeded, 0))?,
            terms,
            engine,
        };
        check_players(inc, &c, spec)?;
        if engine.is_some() {
            self.check_engine_game(&making).await?;
        }
        let (id, seats) = self.store_challenge(&making).await?;
        if engine.is_some() {
            // Every seat taken: the game starts now, and the engine plays if it is White.
            let g = self.game_row(id).await?;
            self.announce_opening(&g, None, "", r)?;
            self.engine_news.queued_now();
            return Ok(());
        }
        if spec.seats().placing == Placing::Alone {
            let g = self.game_row(id).await?;
            self.announce_start(inc, &g, r)?;
            return Ok(());
        }
        let text = making.announcement(id, &seats);
        post_challenge(inc, &c, id, text, r);
        Ok(())
    }

    /// The terms of challenge `c` of `spec`: the referee's own options (`rated`,
    /// `takebacks`) and the variant's, each checked.
    fn terms(&self, c: &Challenge, spec: &'static dyn VariantSpec) -> Result<Terms, Fail> {
        let plan = spec.seats();
        let asked = |name: &str| {
            c.options
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        // `rated:` is the referee's own option; the rest are the variant's.
        let rated_asked = asked("rated");
        let rated = super::standing::rated_choice(spec, rated_asked)?;
        // So is `takebacks:`, which makes a game unrated.
        let (takebacks, rated) = takeback::choice(
            asked(takeback::OPTION),
            spec.takebacks(),
            plan.placing == Placing::Sides && plan.count() == 2,
            spec.display_name(),
            rated_asked,
            rated,
        )?;
        let own: Vec<(String, String)> = c
            .options
            .iter()
            .filter(|(n, _)| n != "rated" && n != takeback::OPTION)
            .cloned()
            .collect();
        let options = read_options(spec.options(), spec.display_name(), &own)?;
        let mut stored = options.clone();
        if let Some(yes) = rated {
            stored.insert("rated".into(), if yes { "yes" } else { "no" }.into());
        }
        if takebacks {
            stored.insert(takeback::OPTION.into(), "on".into());
        }
        Ok(Terms {
            options,
            stored,
            rated,
            takebacks,
            colour: c.colour.unwrap_or(ColourChoice::Random),
            days: c.days.unwrap_or(self.settings.default_days) as i64,
        })
    }

    /// Stores the challenge, its players recorded and its seats drawn by the transaction
    /// that creates it (a refused command leaves no trace, not even a user row): its id
    /// and seats.
    async fn store_challenge(&self, m: &Making<'_>) -> Result<(i64, Vec<SeatRow>), Fail> {
        let max = self.settings.max_open_challenges;
        let ng = m.stored_game(i64::from(max))?;
        let draw = |id: i64| m.draw(self.game_seed(id), &ng);
        match self
            .store
            .create_game(&ng, Some(&m.inc.event_id), m.inc.at, draw)
            .await
        {
            Err(StoreError::OverLimit) => Err(Fail::of(
                RefusalKind::Illegal,
                format!(
                    "you have {} waiting for an answer, the most this server allows: cancel one (cancel ID) or wait for an answer",
                    plural(max, "challenge", "challenges")
                ),
            )),
            Err(StoreError::LiveGame(live)) => Err(Fail::of(
                RefusalKind::Illegal,
                format!(
                    "your {} attempt, game #{live}, is still under way: finish it (or {}) before you start another; a deal, once shown, counts",
                    m.spec.display_name(),
                    command_mark(&format!("resign {live}"))
                ),
            )),
            Err(e) => Err(e.into()),
            Ok((id, _, seats)) => Ok((id, seats)),
        }
    }
}

/// The game as challenge `c` asks it, set up with `seed` (and, where every draw must be
/// reproducible, hidden draws from it too; on the bot, from the operating system's
/// entropy).
fn setup<'a>(c: &'a Challenge, terms: &Terms, seeded: bool, seed: u64) -> NewGame<'a> {
    NewGame {
        fen: c.fen.as_deref(),
        options: terms.options.clone(),
        seed,
        hidden_seed: seeded.then_some(seed),
    }
}

/// Checks the players challenge `c` names against the seats of `spec`: opponents for a
/// game of one, a colour for teams, `teams:random` for two, their number, a private
/// challenge naming nobody, the challenger named, a player named twice.
fn check_players(inc: &Incoming, c: &Challenge, spec: &dyn VariantSpec) -> Result<(), Fail> {
    let plan = spec.seats();
    let n = plan.count();
    let refuse = |text: String| Err(Fail::of(RefusalKind::Syntax, text));
    match plan.placing {
        Placing::Alone if !c.opponents.is_empty() => {
            return refuse(format!(
                "{} is played alone: name no opponent (challenge {})",
                spec.display_name(),
                spec.id()
            ))
        }
        Placing::Alone | Placing::Teams if c.colour.is_some() => {
            return refuse(if n == 1 {
                format!(
                    "{} is played alone: there is no colour to choose",
                    spec.display_name()
                )
            } else {
                format!(
                    "{} is played in teams: you and the first player named are partners, or write teams:random",
                    spec.display_name()
                )
            })
        }
        Placing::Alone | Placing::Sides if c.random_teams => {
            return refuse(format!(
                "teams:random is for team games; {} has {} player{}{}",
                spec.display_name(),
                if n == 1 { "one" } else { "two" },
                if n == 1 { "" } else { "s" },
                if n == 2 { ": use colour:random" } else { "" }
            ))
        }
        Placing::Sides | Placing::Teams
            if !c.opponents.is_empty() && c.opponents.len() + 1 != n =>
        {
            return refuse(format!(
                "{} is for {} players: name {}",
                spec.id(),
                n,
                plural(n - 1, "opponent", "opponents")
            ))
        }
        _ => {}
    }
    // A challenge made in private reaches only the players it names: an open one would
    // reach nobody.
    if inc.place == Place::Dm && c.opponents.is_empty() && plan.placing != Placing::Alone {
        return refuse(format!(
            "an open challenge is made in a channel, where others can see it; in a private message name your opponent (challenge @user {})",
            spec.id()
        ));
    }
    if c.opponents.contains(&inc.user) {
        return refuse("you cannot challenge yourself".into());
    }
    if (1..c.opponents.len()).any(|i| c.opponents[..i].contains(&c.opponents[i])) {
        return refuse("name each player once".into());
    }
    Ok(())
}

impl Making<'_> {
    /// The challenge as the store keeps it, the challenger allowed `max_open` challenges
    /// waiting for an answer.
    fn stored_game(&self, max_open: i64) -> Result<StoredGame, Fail> {
        let (inc, c, terms) = (self.inc, self.asked, &self.terms);
        Ok(StoredGame {
            variant: self.spec.id().into(),
            days_per_move: terms.days,
            colour: match self.spec.seats().placing {
                Placing::Sides => format!("{:?}", terms.colour).to_lowercase(),
                Placing::Teams if c.random_teams => "teams:random".into(),
                Placing::Teams => "teams:named".into(),
                Placing::Alone => "alone".into(),
            },
            challenger: inc.user.clone(),
            channel: match &inc.place {
                Place::Channel(ch) => Some(ch.clone()),
                Place::Dm => None,
            },
            server: match &inc.place {
                Place::Channel(_) => inc.server.clone(),
                Place::Dm => None,
            },
            max_open,
            one_live: self.spec.shown_deal_counts(),
            start_fen: c
                .fen
                .as_ref()
                .map(|_| self.rules.project(Viewer::Public).fen),
            options: to_stored_text("the options", &terms.stored)?,
            snapshot: self.rules.snapshot_text()?,
        })
    }

    /// The players in seat order, drawn with the game's `seed`: two players by colour;
    /// teams in the order named (the challenger and the first named are partners), or
    /// drawn; with the game set up with the seed and, for a game of one, its first
    /// deadlines.
    fn draw(&self, seed: i64, stored: &StoredGame) -> Result<Drawn, StoreError> {
        let (inc, c, n) = (self.inc, self.asked, self.spec.seats().count());
        let placing = self.spec.seats().placing;
        let mut users: Vec<Option<String>> = std::iter::once(Some(inc.user.clone()))
            .chain(c.opponents.iter().cloned().map(Some))
            .chain(std::iter::repeat(None))
            .take(n)
            .collect();
        match placing {
            Placing::Sides => {
                let challenger_seat = match self.terms.colour {
                    ColourChoice::White => 0,
                    ColourChoice::Black => 1,
                    ColourChoice::Random => (seed & 1) as usize,
                };
                users.swap(0, challenger_seat);
            }
            Placing::Teams if c.random_teams => shuffle(&mut users, seed as u64),
            _ => {}
        }
        let seats = users
            .into_iter()
            .enumerate()
            .map(|(s, user)| SeatRow {
                seat: s as u8,
                // The bot takes its seat as it is challenged.
                accepted: user.as_deref() == Some(inc.user.as_str()) || self.engine.is_some(),
                user,
                role: self.rules.seat_name(Seat(s as u8)).to_lowercase(),
            })
            .collect();
        // The same variant and position were accepted above, so this cannot fail; if it
        // did, the unseeded game's snapshot would stand. A snapshot that cannot be
        // written undoes the challenge.
        let game = self
            .spec
            .new_game(&setup(c, &self.terms, self.seeded, seed as u64))
            .ok();
        let snapshot = match &game {
            Some(g) => Some(
                g.snapshot()
                    .map_err(|e| StoreError::Refused(e.text))?
                    .to_string(),
            ),
            None => None,
        };
        // A game of one starts as it is made: its first deadlines now.
        let start = (placing == Placing::Alone || self.engine.is_some()).then(|| {
            let g = game.as_deref().unwrap_or(self.rules.as_ref());
            commit::movers(g)
                .into_iter()
                .map(|s| {
                    let time = g.time_limit(s).unwrap_or(self.terms.days * DAY);
                    (s.0, inc.at + time)
                })
                .collect()
        });
        let start_is_default = self.start_is_default(
            stored,
            seed,
            snapshot.as_deref().unwrap_or(&stored.snapshot),
        );
        Ok(Drawn {
            seed,
            seats,
            snapshot,
            start,
            start_is_default,
        })
    }

    /// Whether `snapshot`, the game as set up with `seed`, is what the variant sets up
    /// from the stored row alone (its position, options and seed: a replay's start where
    /// no starting state is stored), so that the starting state need not be stored.
    fn start_is_default(&self, stored: &StoredGame, seed: i64, snapshot: &str) -> bool {
        let Ok(options) = serde_json::from_str(&stored.options) else {
            return false;
        };
        let setup = NewGame {
            fen: stored.start_fen.as_deref(),
            options,
            seed: seed as u64,
            hidden_seed: None,
        };
        // The snapshot's text compared, as stored (a JSON value compared with a `&str`
        // would be compared with a JSON string).
        let default = self
            .spec
            .new_game_stored_before(&setup)
            .ok()
            .and_then(|g| g.snapshot().ok())
            .and_then(|s| serde_json::to_string(&s).ok());
        default.as_deref() == Some(snapshot)
    }

    /// The challenge's announcement: who challenges whom to what, on which terms, and who
    /// is to answer.
    fn announcement(&self, id: i64, seats: &[SeatRow]) -> String {
        let (inc, c, terms) = (self.inc, self.asked, &self.terms);
        let challenger_seat = seats
            .iter()
            .find(|s| s.user.as_deref() == Some(inc.user.as_str()))
            .map_or(0, |s| s.seat);
        let side = self.rules.seat_name(Seat(challenger_seat));
        let named: Vec<String> = c.opponents.iter().map(|o| user_at_mark(o)).collect();
        let me = user_mark(&inc.user);
        let variant = self.spec.display_name();
        let days = day_count(terms.days);
        if self.spec.seats().count() > 2 {
            let who = if named.is_empty() {
                format!("opens a challenge to {variant}")
            } else {
                format!("challenges {} to {variant}", named.join(", "))
            };
            let answer = if named.is_empty() {
                format!("Anyone: {}", command_mark(&format!("accept {id}")))
            } else {
                format!("{}: each of you, accept or decline", named.join(", "))
            };
            let users: Vec<Option<String>> = seats.iter().map(|s| s.user.clone()).collect();
            let seat_list = seat_list(&users, self.rules.as_ref());
            return format!(
                "game #{id}: {me} {who} ({days} per move). Seats: {seat_list}. {answer}"
            );
        }
        let unrated = match (terms.rated == Some(false), terms.takebacks) {
            (true, true) => ", unrated, takebacks allowed",
            (true, false) => ", unrated",
            (false, true) => ", takebacks allowed",
            (false, false) => "",
        };
        match named.first() {
            Some(o) => format!(
                "game #{id}: {me} challenges {o} to {variant} ({days} per move{unrated}), {me} plays {side}. {o}: accept or decline"
            ),
            None => format!(
                "game #{id}: {me} opens a challenge to {variant} ({days} per move{unrated}), {me} plays {side}. Anyone: {}",
                command_mark(&format!("accept {id}"))
            ),
        }
    }
}

/// Posts the challenge `text` of game `id`: where it was made, with the buttons to answer
/// it; made in private, the challenger is told there and each player named gets it by
/// private message with the buttons.
fn post_challenge(inc: &Incoming, c: &Challenge, id: i64, text: String, r: &mut Reply) {
    if inc.place == Place::Dm {
        r.out.push(Outbound {
            to: r.origin.clone(),
            text: text.clone(),
            game: Some(id),
            ..Outbound::default()
        });
        for o in &c.opponents {
            r.out.push(Outbound {
                to: Destination::Dm(o.clone()),
                text: text.clone(),
                game: Some(id),
                buttons: challenge_buttons(id, &inc.user, false),
                challenge: Some(ChallengeMark::Posted(id)),
                ..Outbound::default()
            });
        }
        return;
    }
    r.out.push(Outbound {
        to: r.origin.clone(),
        text,
        game: Some(id),
        buttons: challenge_buttons(id, &inc.user, c.opponents.is_empty()),
        mentions: c.opponents.clone(),
        challenge: Some(ChallengeMark::Posted(id)),
        ..Outbound::default()
    });
}

/// The engine's level asked in challenge `c`, when it names the bot (`engine_user`) as
/// its one opponent: `level:N` (1 to 8; 1 when left out) taken out of its options, and
/// `rated:no` put in (a game against the bot is never rated). `None` for a challenge
/// between people, where `level:` is refused.
fn engine_asked(c: &mut Challenge, engine_user: Option<&str>) -> Result<Option<u8>, Fail> {
    let names_bot = engine_user.is_some_and(|bot| c.opponents.iter().any(|o| o == bot));
    let asked: Vec<String> = c
        .options
        .iter()
        .filter(|(n, _)| n == LEVEL_OPTION)
        .map(|(_, v)| v.clone())
        .collect();
    if !names_bot {
        if asked.is_empty() {
            return Ok(None);
        }
        return Err(Fail::of(
            RefusalKind::Syntax,
            "level: is for a game against the bot: name the bot as your opponent (challenge @Postal chess level:3)",
        ));
    }
    if c.opponents.len() != 1 {
        return Err(Fail::of(
            RefusalKind::Syntax,
            "the bot plays only games of two: name it alone as your opponent",
        ));
    }
    let range = format!(
        "level: is a whole number from {} (a beginner's opponent) to {} (the engine's full strength)",
        crate::engines::levels::MIN_LEVEL,
        crate::engines::levels::MAX_LEVEL
    );
    let level = match asked.last() {
        None => crate::engines::levels::MIN_LEVEL,
        Some(v) => {
            v.parse::<u8>()
                .ok()
                .and_then(crate::engines::Level::of)
                .ok_or_else(|| Fail::of(RefusalKind::Syntax, range))?
                .level
        }
    };
    let rated = c.options.iter().rev().find(|(n, _)| n == "rated");
    if rated.is_some_and(|(_, v)| v == "yes") {
        return Err(Fail::of(
            RefusalKind::Illegal,
            "a game against the bot is never rated: leave out rated:yes",
        ));
    }
    c.options.retain(|(n, _)| n != LEVEL_OPTION && n != "rated");
    c.options.push(("rated".into(), "no".into()));
    Ok(Some(level))
}

/// The challenge's option that sets the engine's level.
const LEVEL_OPTION: &str = "level";

impl Seating<'_> {
    /// Checks a challenge to the bot: a game of two sides, played in plain sight, that an
    /// engine this server runs knows, from a position it can read.
    async fn check_engine_game(&self, m: &Making<'_>) -> Result<(), Fail> {
        let name = m.spec.display_name();
        let refuse = |text: String| Err(Fail::of(RefusalKind::NotHere, text));
        let plan = m.spec.seats();
        if plan.placing != Placing::Sides || plan.count() != 2 {
            return refuse(format!(
                "the bot plays only games of two sides, and {name} is not one"
            ));
        }
        // The engine must never see what a player may not: no variant with hidden
        // pieces, hands or secret choices (the same test as for takebacks).
        if m.spec.takebacks().is_err() {
            return refuse(format!(
                "{name} is not played in plain sight (hidden pieces, hands or secret choices), so the bot does not play it"
            ));
        }
        let Some(record) = m.rules.engine_record() else {
            return refuse(format!(
                "no engine this bot runs knows {name}, so the bot cannot play it"
            ));
        };
        if !self.engines.has_engine_for(record.variant) {
            let engine = crate::engines::engine_name(record.variant);
            return refuse(format!(
                "this server has no engine for {name} ({engine} is not installed or not configured), so the bot cannot play it here"
            ));
        }
        let knows = self.engines.lease().await.knows(record.variant).await;
        match knows {
            Ok(true) => Ok(()),
            Ok(false) => refuse(format!(
                "the {} this server runs does not know {name}, so the bot cannot play it here",
                crate::engines::engine_name(record.variant)
            )),
            Err(e) => refuse(format!("the bot cannot play {name} now: {e}")),
        }
    }
}
