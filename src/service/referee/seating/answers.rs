//! Challenges and seats: who plays which seat, who still has to accept, and the start of
//! a game once every seat is taken (at once, for a game of one).

use super::commit;
use super::lookup::{id_list, is_in, is_in_channel};
use super::marks::{command_mark, user_mark};
use super::parts::Seating;
use super::routing::public_dest;
use super::text::{awaited_users, public_view, seat_list, turn_line, waiting_for};
use super::{ChallengeMark, Destination, Fail, Incoming, Outbound, Place, Reply};
use crate::store::GameStatus;
use crate::store::NewDeadline;
use crate::store::{GameRow, SeatRow, Write};
use crate::variants::api::random::{splitmix64, OsEntropy, Random};
use crate::variants::api::{RefusalKind, Seat};

impl Seating<'_> {
    /// What [`Service::game_seed`](super::Service::game_seed) does.
    pub(crate) fn game_seed(&self, id: i64) -> i64 {
        let z = match self.settings.seed {
            Some(seed) => splitmix64(seed ^ splitmix64(id as u64)),
            None => OsEntropy.next_u64(),
        };
        (z >> 1) as i64
    }

    /// Tells what became of a pending challenge: where it was made, or, for one made in
    /// private, each player it names by private message.
    pub(crate) fn tell_challenge(
        g: &GameRow,
        text: String,
        settled: Option<String>,
        r: &mut Reply,
    ) {
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
    pub(crate) async fn game_row(&self, id: i64) -> Result<GameRow, Fail> {
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
            return named_challenge(inc, g, how, fits);
        }
        let mut all = self
            .store
            .games_of(&inc.user, &[GameStatus::Challenged])
            .await?;
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
    pub(crate) async fn accept(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let g = self.pending(inc, id, Answer::Accept).await?;
        let lock = self.lock_for(g.id);
        let _guard = lock.lock().await;
        let g = self.game_row(g.id).await?;
        if g.status != GameStatus::Challenged {
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
            status: GameStatus::Challenged,
            snapshot: g.snapshot.clone(),
            seats: Some(seats.clone()),
            ..Write::default()
        };
        self.write(&g, &w).await?;
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
            .map(|s| NewDeadline {
                seat: s.0,
                turn: g.version + 1,
                due_at: inc.at + commit::time_for(&g, rules.as_ref(), s),
            })
            .collect();
        let w = Write {
            expected_version: g.version,
            action: None,
            at: inc.at,
            event_id: Some(inc.event_id.clone()),
            status: GameStatus::Active,
            snapshot: g.snapshot.clone(),
            seats: Some(seats),
            deadlines,
            ..Write::default()
        };
        self.write(&g, &w).await?;
        let g = self.game_row(g.id).await?;
        self.announce_start(inc, &g, r)
    }

    /// The messages of a game's start: the public board and whose turn it is, each
    /// seat's secret holdings, and the secret prompts.
    pub(crate) fn announce_start(
        &self,
        inc: &Incoming,
        g: &GameRow,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        self.announce_opening(g, Some(&inc.user), "", r)
    }

    /// [`Service::announce_start`] of a game whose last seat `accepted_by` took (`None`:
    /// a game started by the referee with every seat taken, a tournament's), its
    /// announcement preceded by `heading` (the tournament and round, or nothing).
    pub(crate) fn announce_opening(
        &self,
        g: &GameRow,
        accepted_by: Option<&str>,
        heading: &str,
        r: &mut Reply,
    ) -> Result<(), Fail> {
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
        let variant = self.display_name(&g.variant);
        let opening = match accepted_by {
            _ if users.len() == 1 => format!("{players} {variant}"),
            Some(user) => format!("{} accepted. {players}, {variant}", user_mark(user)),
            None => format!("{players}, {variant}"),
        };
        let text = format!(
            "{heading}game #{}: {opening}. {}",
            g.id,
            turn_line(g, rules.as_ref(), &g.deadlines)
        );
        let buttons = super::routing::answer_buttons(g, rules.as_ref(), &[]);
        for d in public_dest(g) {
            let mut image = public_view(
                g,
                rules.as_ref(),
                self.settings.public_orientation,
                &self.seat_names(g),
            );
            if let Destination::Dm(user) = &d {
                super::routing::turn_to_own_side(g, rules.as_ref(), user, &mut image);
            }
            r.out.push(Outbound {
                to: d,
                text: text.clone(),
                image: Some(image),
                game: Some(g.id),
                buttons: buttons.clone(),
                refusal: None,
                // A game the referee started calls on both its players.
                mentions: match accepted_by {
                    Some(_) => awaited_users(g, rules.as_ref()),
                    None => users.iter().flatten().cloned().collect(),
                },
                challenge: match accepted_by {
                    Some(user) if users.len() > 1 => Some(ChallengeMark::Settled(
                        g.id,
                        format!("accepted by {}", user_mark(user)),
                    )),
                    _ => None,
                },
                started: accepted_by.is_none(),
                ..Outbound::default()
            });
        }
        let first = r.out.len();
        self.prompt_privately(g, rules.as_ref(), &[], r);
        // What each seat holds in secret follows the prompt that tells what to do first
        // (Cloak and Dagger's set-up, then its grid).
        self.tell_holdings(g, rules.as_ref(), r);
        // A game's start is news, not a turn notice: it reaches a player with the daily
        // digest too.
        for o in &mut r.out[first..] {
            o.turn = false;
        }
        Ok(())
    }

    /// `decline [ID]` (a challenge made to the user) or `cancel [ID]` (their own).
    pub(crate) async fn decline(
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
        let status = if cancel {
            GameStatus::Cancelled
        } else {
            GameStatus::Declined
        };
        let w = Write {
            expected_version: g.version,
            at: inc.at,
            event_id: Some(inc.event_id.clone()),
            status,
            snapshot: g.snapshot.clone(),
            ..Write::default()
        };
        self.write(&g, &w).await?;
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

/// Challenge `g`, named by its id, checked as the one `inc`'s user answers `how`: still
/// pending, theirs to answer that way (`fits`), and, for an open challenge accepted, in
/// the channel where it was made.
fn named_challenge(
    inc: &Incoming,
    g: GameRow,
    how: Answer,
    fits: impl Fn(&GameRow) -> bool,
) -> Result<GameRow, Fail> {
    let id = g.id;
    if g.status != GameStatus::Challenged {
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
                Answer::Accept if g.challenger == inc.user => format!(
                    "challenge #{id} is your own: you cannot accept it; withdraw it with {}",
                    command_mark(&format!("cancel {id}"))
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
    Ok(g)
}

/// The buttons under a challenge made by `challenger`: one that names its players has
/// Accept and Decline, for anyone it names (the referee checks who may answer, like for a
/// typed `accept`); an open one (`open`) has Accept, for anyone, and Cancel, for its
/// challenger alone.
pub(crate) fn challenge_buttons(id: i64, challenger: &str, open: bool) -> Vec<super::Button> {
    let second = match open {
        true => ("Cancel", "cancel", Some(challenger.to_string())),
        false => ("Decline", "decline", None),
    };
    [("Accept", "accept", None), second]
        .into_iter()
        .enumerate()
        .map(|(i, (label, word, for_user))| super::Button {
            label: label.into(),
            command: format!("{word} {id}"),
            for_user,
            primary: i == 0,
            danger: false,
            keep: false,
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
