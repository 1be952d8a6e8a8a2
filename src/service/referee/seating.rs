//! Challenges and seats: who plays which seat, who still has to accept, and the start of
//! a game once every seat is taken (at once, for a game of one).

use super::commit;
use super::lookup::{id_list, is_in, is_in_channel};
use super::marks::DAY;
use super::marks::{user_at_mark, user_mark};
use super::routing::public_dest;
use super::text::{awaited_users, day_count, public_view, seat_list, turn_line, waiting_for};
use super::{
    takeback, ChallengeMark, Destination, Fail, Incoming, Outbound, Place, Reply, Service,
};
use crate::service::command::{Challenge, ColourChoice};
use crate::store::{Drawn, GameRow, NewGame as StoredGame, SeatRow, StoreError, Write};
use crate::variants::api::random::{shuffle, splitmix64, OsEntropy, Random};
use crate::variants::api::{
    plural, read_options, to_stored_text, NewGame, Placing, RefusalKind, Seat,
};

impl Service {
    /// The seed of game `id`'s public draws (colours, teams, a letter grid), stored with
    /// the game: with a configured seed (`--seed`, tests), that seed mixed with the
    /// game's id, which the database hands out once, so the same settings give the same
    /// draws game by game; without one (the bot), the operating system's entropy.
    pub fn game_seed(&self, id: i64) -> i64 {
        let z = match self.settings.seed {
            Some(seed) => splitmix64(seed ^ splitmix64(id as u64)),
            None => OsEntropy.next_u64(),
        };
        (z >> 1) as i64
    }

    /// `challenge ...`: checks what is asked against the variant, stores the challenge
    /// with its seats drawn, and starts a game whose every seat is taken already.
    pub(super) async fn challenge(
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
        let plan = spec.seats();
        let n = plan.count();
        if c.fen.is_some() && !spec.takes_fen() {
            return Err(Fail::of(
                RefusalKind::Syntax,
                format!(
                    "{} cannot start from a position (fen:)",
                    spec.display_name()
                ),
            ));
        }
        // `rated:` is the referee's own option; the rest are the variant's.
        let rated_asked = c
            .options
            .iter()
            .rev()
            .find(|(n, _)| n == "rated")
            .map(|(_, v)| v.as_str());
        let rated = super::standing::rated_choice(spec, rated_asked)?;
        // So is `takebacks:`, which makes a game unrated.
        let takebacks_asked = c
            .options
            .iter()
            .rev()
            .find(|(n, _)| n == takeback::OPTION)
            .map(|(_, v)| v.as_str());
        let (takebacks, rated) = takeback::choice(
            takebacks_asked,
            spec.takebacks(),
            plan.placing == Placing::Sides && n == 2,
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
        let mut stored_options = options.clone();
        if let Some(yes) = rated {
            stored_options.insert("rated".into(), if yes { "yes" } else { "no" }.into());
        }
        if takebacks {
            stored_options.insert(takeback::OPTION.into(), "on".into());
        }
        // Where every draw is to be reproducible (`--seed`, tests), hidden draws come
        // from the game's seed too; on the bot, from the operating system's entropy.
        let seeded = self.settings.seed.is_some();
        let setup = |seed: u64| NewGame {
            fen: c.fen.as_deref(),
            options: options.clone(),
            seed,
            hidden_seed: seeded.then_some(seed),
        };
        // This game checks the challenge; the game itself is set up with its seed once
        // its id is known.
        let rules = spec.new_game(&setup(0))?;
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
        // A challenge made in private reaches only the players it names: an open one
        // would reach nobody.
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
        let colour = c.colour.unwrap_or(ColourChoice::Random);
        let days = c.days.unwrap_or(self.settings.default_days) as i64;
        // The players in seat order: two players by colour; teams in the order named
        // (the challenger and the first named are partners), or drawn with the seed.
        let draw = |id: i64| {
            let seed = self.game_seed(id);
            let mut users: Vec<Option<String>> = std::iter::once(Some(inc.user.clone()))
                .chain(c.opponents.iter().cloned().map(Some))
                .chain(std::iter::repeat(None))
                .take(n)
                .collect();
            match plan.placing {
                Placing::Sides => {
                    let challenger_seat = match colour {
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
                    accepted: user.as_deref() == Some(inc.user.as_str()),
                    user,
                    role: rules.seat_name(Seat(s as u8)).to_lowercase(),
                })
                .collect();
            // The same variant and position were accepted above, so this cannot fail; if
            // it did, the unseeded game's snapshot would stand. A snapshot that cannot be
            // written undoes the challenge.
            let game = spec.new_game(&setup(seed as u64)).ok();
            let snapshot = match &game {
                Some(g) => Some(
                    g.snapshot()
                        .map_err(|e| StoreError::Refused(e.text))?
                        .to_string(),
                ),
                None => None,
            };
            // A game of one starts as it is made: its first deadlines now.
            let start = (plan.placing == Placing::Alone).then(|| {
                let g = game.as_deref().unwrap_or(rules.as_ref());
                commit::movers(g)
                    .into_iter()
                    .map(|s| {
                        let time = g.time_limit(s).unwrap_or(days * DAY);
                        (s.0, inc.at + time)
                    })
                    .collect()
            });
            Ok(Drawn {
                seed,
                seats,
                snapshot,
                start,
            })
        };
        let max = self.settings.max_open_challenges;
        let ng = StoredGame {
            variant: spec.id().into(),
            days_per_move: days,
            colour: match plan.placing {
                Placing::Sides => format!("{colour:?}").to_lowercase(),
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
            max_open: i64::from(max),
            start_fen: c
                .fen
                .as_ref()
                .map(|_| rules.project(crate::variants::api::Viewer::Public).fen),
            options: to_stored_text("the options", &stored_options)?,
            snapshot: rules.snapshot()?.to_string(),
        };
        // The players are recorded by the transaction that creates the game: a refused
        // command leaves no trace, not even a user row.
        let (id, _, seats) = match self
            .store
            .create_game(&ng, Some(&inc.event_id), inc.at, draw)
            .await
        {
            Err(StoreError::OverLimit) => {
                return Err(Fail::of(
                    RefusalKind::Illegal,
                    format!(
                        "you have {} waiting for an answer, the most this server allows: cancel one (cancel ID) or wait for an answer",
                        plural(max, "challenge", "challenges")
                    ),
                ))
            }
            other => other?,
        };
        if plan.placing == Placing::Alone {
            let g = self.game_row(id).await?;
            self.announce_start(inc, &g, r)?;
            return Ok(());
        }
        let challenger_seat = seats
            .iter()
            .find(|s| s.user.as_deref() == Some(inc.user.as_str()))
            .map_or(0, |s| s.seat);
        let side = rules.seat_name(Seat(challenger_seat));
        let named: Vec<String> = c.opponents.iter().map(|o| user_at_mark(o)).collect();
        let me = user_mark(&inc.user);
        let variant = rules.variant();
        let unrated = match (rated == Some(false), takebacks) {
            (true, true) => ", unrated, takebacks allowed",
            (true, false) => ", unrated",
            (false, true) => ", takebacks allowed",
            (false, false) => "",
        };
        let text = if n > 2 {
            let who = if named.is_empty() {
                format!("opens a challenge to {variant}")
            } else {
                format!("challenges {} to {variant}", named.join(", "))
            };
            let answer = if named.is_empty() {
                format!("Anyone: accept {id}")
            } else {
                format!("{}: each of you, accept or decline", named.join(", "))
            };
            let users: Vec<Option<String>> = seats.iter().map(|s| s.user.clone()).collect();
            format!(
                "game #{id}: {} {who} ({} per move). Seats: {}. {answer}",
                me,
                day_count(days),
                seat_list(&users, rules.as_ref())
            )
        } else {
            match named.first() {
                Some(o) => format!(
                    "game #{id}: {} challenges {o} to {variant} ({} per move{unrated}), {} plays {side}. {o}: accept or decline",
                    me,
                    day_count(days),
                    me
                ),
                None => format!(
                    "game #{id}: {} opens a challenge to {variant} ({} per move{unrated}), {} plays {side}. Anyone: accept {id}",
                    me,
                    day_count(days),
                    me
                ),
            }
        };
        if inc.place == Place::Dm {
            // Made in private: the challenger is told here, and each player named gets it
            // by private message with the buttons to answer it.
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
                    buttons: challenge_buttons(id),
                    challenge: Some(ChallengeMark::Posted(id)),
                    ..Outbound::default()
                });
            }
            return Ok(());
        }
        r.out.push(Outbound {
            to: r.origin.clone(),
            text,
            game: Some(id),
            buttons: challenge_buttons(id),
            mentions: c.opponents.clone(),
            challenge: Some(ChallengeMark::Posted(id)),
            ..Outbound::default()
        });
        Ok(())
    }

    /// Tells what became of a pending challenge: where it was made, or, for one made in
    /// private, each player it names by private message.
    fn tell_challenge(g: &GameRow, text: String, settled: Option<String>, r: &mut Reply) {
        let challenge = settled.map(|how| ChallengeMark::Settled(g.id, how));
        let places = match g.channel {
            Some(_) => vec![r.origin.clone()],
            None => public_dest(g),
        };
        for d in places {
            r.out.push(Outbound {
                to: d,
                text: text.clone(),
                game: Some(g.id),
                challenge: challenge.clone(),
                ..Outbound::default()
            });
        }
    }

    /// The stored game `id`.
    async fn game_row(&self, id: i64) -> Result<GameRow, Fail> {
        self.store
            .game(id)
            .await?
            .ok_or_else(|| Fail::of(RefusalKind::Unknown, format!("there is no game #{id}")))
    }

    /// The pending challenge `id` (or the one here) that the user may answer as `how`:
    /// accept one made to them or open, decline one made to them by name, cancel their
    /// own.
    async fn pending(&self, inc: &Incoming, id: Option<i64>, how: Answer) -> Result<GameRow, Fail> {
        let mine = how == Answer::Cancel;
        let fits = |g: &GameRow| match how {
            Answer::Cancel => g.challenger == inc.user,
            Answer::Accept => {
                g.challenger != inc.user
                    && (g.seat_of(&inc.user).is_some() || g.seats.iter().any(|s| s.user.is_none()))
            }
            // An open challenge is anyone's to accept and nobody's to decline: only its
            // challenger can withdraw it.
            Answer::Decline => g.challenger != inc.user && g.seat_of(&inc.user).is_some(),
        };
        // Without an id, a challenge the user has already accepted is not a candidate.
        let open_to_me = |g: &GameRow| {
            mine || g
                .seats
                .iter()
                .find(|s| s.user.as_deref() == Some(inc.user.as_str()))
                .map_or(true, |s| !s.accepted)
        };
        if let Some(id) = id {
            let g = self.game_row(id).await?;
            if g.status != "challenged" {
                return Err(Fail::of(
                    RefusalKind::Over,
                    format!("game #{id} is not a pending challenge"),
                ));
            }
            if !fits(&g) {
                return Err(Fail::of(
                    RefusalKind::NotYourGame,
                    match how {
                        Answer::Cancel => {
                            format!("game #{id} is not your challenge: only its challenger can cancel it")
                        }
                        Answer::Decline => format!(
                            "challenge #{id} is not addressed to you: only a player it names can decline it"
                        ),
                        Answer::Accept => format!("challenge #{id} is not addressed to you"),
                    },
                ));
            }
            // An open challenge belongs to the channel where it was made.
            let named = g.seat_of(&inc.user).is_some();
            if how == Answer::Accept && !named && !is_in_channel(&g, &inc.place) {
                return Err(Fail::of(
                    RefusalKind::NotYourGame,
                    format!(
                        "challenge #{id} is open to the players of the channel where it was made: accept it there"
                    ),
                ));
            }
            return Ok(g);
        }
        let mut all = self.store.games_of(&inc.user, &["challenged"]).await?;
        if let (Answer::Accept, Place::Channel(c)) = (how, &inc.place) {
            for g in self.store.open_challenges(c, OPEN_CHALLENGES_SHOWN).await? {
                if !all.iter().any(|a| a.id == g.id) {
                    all.push(g);
                }
            }
        }
        let here: Vec<GameRow> = all
            .into_iter()
            .filter(fits)
            .filter(open_to_me)
            .filter(|g| is_in(g, &inc.place))
            .collect();
        match here.len() {
            0 => Err(Fail::of(
                RefusalKind::Unknown,
                "there is no challenge for you here",
            )),
            1 => Ok(here.into_iter().next().expect("one")),
            _ => Err(Fail::of(
                RefusalKind::Ambiguous,
                format!(
                    "there are {} challenges here ({}): add the game id",
                    here.len(),
                    id_list(&here)
                ),
            )),
        }
    }

    /// `accept [ID]`: takes the user's seat (or the first open one); the game starts
    /// once every seat is taken.
    pub(super) async fn accept(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let g = self.pending(inc, id, Answer::Accept).await?;
        let lock = self.lock_for(g.id);
        let _guard = lock.lock().await;
        let g = self.game_row(g.id).await?;
        if g.status != "challenged" {
            return Err(Fail::of(
                RefusalKind::Over,
                format!("game #{} is not a pending challenge", g.id),
            ));
        }
        // The acceptor's own seat, or else the first open one.
        let mut seats = g.seats.clone();
        let mine = match seats
            .iter()
            .position(|s| s.user.as_deref() == Some(inc.user.as_str()))
        {
            Some(i) => i,
            None => seats.iter().position(|s| s.user.is_none()).ok_or_else(|| {
                Fail::of(
                    RefusalKind::Over,
                    format!("game #{} has no open seat", g.id),
                )
            })?,
        };
        if seats[mine].accepted {
            return Err(Fail::of(
                RefusalKind::Illegal,
                format!(
                    "you have already accepted game #{}; waiting for {}",
                    g.id,
                    waiting_for(&seats)
                ),
            ));
        }
        if seats[mine].user.is_none() {
            // Taking an open seat: the user is recorded with the seat.
            self.ensure_user(&inc.user).await?;
        }
        seats[mine].user = Some(inc.user.clone());
        seats[mine].accepted = true;
        if seats.iter().all(|s| s.accepted && s.user.is_some()) {
            return self.start(inc, g, seats, r).await;
        }
        let w = Write {
            expected_version: g.version,
            action: None,
            at: inc.at,
            event_id: Some(inc.event_id.clone()),
            status: "challenged".into(),
            snapshot: g.snapshot.clone(),
            seats: Some(seats.clone()),
            ..Write::default()
        };
        self.store.write(g.id, &w).await?;
        let text = format!(
            "game #{}: {} accepted; waiting for {}",
            g.id,
            user_mark(&inc.user),
            waiting_for(&seats)
        );
        Self::tell_challenge(&g, text, None, r);
        Ok(())
    }

    /// Starts `g` with every seat taken (`seats`): the game becomes active with its first
    /// deadlines, then its start is announced. Caller holds the game's lock.
    async fn start(
        &self,
        inc: &Incoming,
        g: GameRow,
        seats: Vec<SeatRow>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let rules = self.load(&g)?;
        let deadlines = commit::movers(rules.as_ref())
            .into_iter()
            .map(|s| {
                (
                    s.0,
                    g.version + 1,
                    inc.at + commit::time_for(&g, rules.as_ref(), s),
                )
            })
            .collect();
        let w = Write {
            expected_version: g.version,
            action: None,
            at: inc.at,
            event_id: Some(inc.event_id.clone()),
            status: "active".into(),
            snapshot: g.snapshot.clone(),
            seats: Some(seats),
            deadlines,
            ..Write::default()
        };
        self.store.write(g.id, &w).await?;
        let g = self.game_row(g.id).await?;
        self.announce_start(inc, &g, r)
    }

    /// The messages of a game's start: the public board and whose turn it is, each
    /// seat's secret holdings, and the secret prompts.
    fn announce_start(&self, inc: &Incoming, g: &GameRow, r: &mut Reply) -> Result<(), Fail> {
        let rules = self.load(g)?;
        let users: Vec<Option<String>> = g.seats.iter().map(|s| s.user.clone()).collect();
        let players = match users.as_slice() {
            [one] => format!("{} plays", user_mark(one.as_deref().unwrap_or("?"))),
            [_, _] => format!(
                "{} ({}) against {} ({})",
                user_mark(g.user_at(0).unwrap_or("?")),
                rules.seat_name(Seat(0)),
                user_mark(g.user_at(1).unwrap_or("?")),
                rules.seat_name(Seat(1))
            ),
            _ => seat_list(&users, rules.as_ref()),
        };
        let opening = if users.len() == 1 {
            format!("{players} {}", rules.variant())
        } else {
            format!(
                "{} accepted. {players}, {}",
                user_mark(&inc.user),
                rules.variant()
            )
        };
        let text = format!(
            "game #{}: {opening}. {}",
            g.id,
            turn_line(g, rules.as_ref(), &g.deadlines)
        );
        let buttons = super::routing::answer_buttons(g, rules.as_ref(), &[]);
        for d in public_dest(g) {
            r.out.push(Outbound {
                to: d,
                text: text.clone(),
                image: Some(public_view(
                    g,
                    rules.as_ref(),
                    self.settings.public_orientation,
                    &self.seat_names(g),
                )),
                game: Some(g.id),
                buttons: buttons.clone(),
                refusal: None,
                mentions: awaited_users(g, rules.as_ref()),
                challenge: (users.len() > 1).then(|| {
                    ChallengeMark::Settled(g.id, format!("accepted by {}", user_mark(&inc.user)))
                }),
                ..Outbound::default()
            });
        }
        self.tell_holdings(g, rules.as_ref(), r);
        let first = r.out.len();
        self.prompt_privately(g, rules.as_ref(), &[], r);
        // A game's start is news, not a turn notice: it reaches a player with the daily
        // digest too.
        for o in &mut r.out[first..] {
            o.turn = false;
        }
        Ok(())
    }

    /// `decline [ID]` (a challenge made to the user) or `cancel [ID]` (their own).
    pub(super) async fn decline(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        cancel: bool,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let how = if cancel {
            Answer::Cancel
        } else {
            Answer::Decline
        };
        let g = self.pending(inc, id, how).await?;
        let lock = self.lock_for(g.id);
        let _guard = lock.lock().await;
        let status = if cancel { "cancelled" } else { "declined" };
        let w = Write {
            expected_version: g.version,
            at: inc.at,
            event_id: Some(inc.event_id.clone()),
            status: status.into(),
            snapshot: g.snapshot.clone(),
            ..Write::default()
        };
        self.store.write(g.id, &w).await?;
        let text = format!(
            "game #{}: the challenge is {status} by {}",
            g.id,
            user_mark(&inc.user)
        );
        let how = format!("{status} by {}", user_mark(&inc.user));
        Self::tell_challenge(&g, text, Some(how), r);
        Ok(())
    }
}

/// The buttons under a challenge: anyone it is made to may press them (the referee checks
/// who may answer, like for a typed `accept`).
fn challenge_buttons(id: i64) -> Vec<super::Button> {
    [("Accept", "accept", true), ("Decline", "decline", false)]
        .into_iter()
        .map(|(label, word, primary)| super::Button {
            label: label.into(),
            command: format!("{word} {id}"),
            for_user: None,
            primary,
        })
        .collect()
}

/// How a user answers a pending challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// `accept`: one made to them, or an open one.
    Accept,
    /// `decline`: one that names them.
    Decline,
    /// `cancel`: their own.
    Cancel,
}

/// How many open challenges of a channel an `accept` without an id considers.
const OPEN_CHALLENGES_SHOWN: i64 = 20;
