//! The referee: turns an [`Incoming`] chat message into [`Outbound`] messages, with every
//! accepted change committed to the [`Store`] before any reply is produced.

use super::chesswords::score::WordList;
use super::command::{self, Answer, ColourChoice, Command, ParseError};
use super::random::{shuffle, splitmix64, OsEntropy, Random};
use super::rules::{
    Action, ClaimKind, Event, GameOptions, GameRules, OfferKind, Prompt, RuleError, Seat, View,
    Viewer,
};
pub use super::settings::Settings;
use crate::render::PublicOrientation;
use crate::store::{
    Deadline, GameRow, NewGame, NewMessage, QueuedMessage, SeatRow, Store, StoreError, Write,
};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// Where a message was typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A channel or thread, by id.
    Channel(String),
    /// A private message to the bot.
    Dm,
}

/// A chat message to the referee.
#[derive(Clone, Debug)]
pub struct Incoming {
    /// The chat event's id; an id seen twice is applied once.
    pub event_id: String,
    /// The sender's stable user key (lowercase name in the console).
    pub user: String,
    /// Where it was typed.
    pub place: Place,
    /// The text.
    pub text: String,
    /// When, in seconds since the epoch.
    pub at: i64,
}

/// Where a reply goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// A channel or thread.
    Channel(String),
    /// A private message to a user.
    Dm(String),
}

/// A message from the referee; `image` asks the adapter to draw the board.
#[derive(Clone, Debug)]
pub struct Outbound {
    /// Where it goes.
    pub to: Destination,
    /// The text.
    pub text: String,
    /// A board to draw with the text.
    pub image: Option<View>,
}

/// A message of the deadline check, kept in the outbox until its deliverer calls
/// [`Service::delivered`] with its id.
#[derive(Clone, Debug)]
pub struct Queued {
    /// The outbox id.
    pub id: i64,
    /// The message.
    pub message: Outbound,
}

/// An action applied (and, once its write is done, committed): what happened, the game's
/// new state, and its deadlines now.
struct Committed {
    events: Vec<Event>,
    rules: Box<dyn GameRules>,
    deadlines: Vec<Deadline>,
    /// Who was awaited, for what, before the action (new secret prompts are sent privately).
    before: Vec<(Seat, Prompt)>,
}

/// What a challenge asks for, beyond whom it challenges.
struct Setup {
    variant: Option<String>,
    days: Option<u32>,
    colour: Option<ColourChoice>,
    fen: Option<String>,
    random_teams: bool,
    timer: Option<u8>,
}

/// The referee service.
pub struct Service {
    store: Store,
    settings: Settings,
    locks: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>,
    /// Users already recorded by this process, so a message costs no write for them.
    known_users: Mutex<HashSet<String>>,
    /// The operator's word list for Chesswords finale words (`games.chesswords_words`):
    /// none configured, or the list, or why it could not be read.
    word_list: Option<Result<WordList, String>>,
}

const DAY: i64 = 86_400;

/// `YYYY-MM-DD HH:MM UTC` for a time in seconds since the epoch.
pub fn format_time(t: i64) -> String {
    let days = t.div_euclid(DAY);
    let secs = t.rem_euclid(DAY);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60
    )
}

struct Reply {
    out: Vec<Outbound>,
    origin: Destination,
}

impl Reply {
    fn say(&mut self, text: impl Into<String>) {
        self.out.push(Outbound {
            to: self.origin.clone(),
            text: text.into(),
            image: None,
        });
    }
}

fn public_dest(g: &GameRow) -> Vec<Destination> {
    match &g.channel {
        Some(c) => vec![Destination::Channel(c.clone())],
        None => g
            .seats
            .iter()
            .filter_map(|s| s.user.clone())
            .map(Destination::Dm)
            .collect(),
    }
}

impl Service {
    /// A service over `store`.
    pub fn new(store: Store, settings: Settings) -> Service {
        let word_list = settings.chesswords_words.as_deref().map(|path| {
            WordList::load(path).inspect_err(|e| {
                tracing::error!("the chesswords word list {path} cannot be read: {e}")
            })
        });
        Service {
            store,
            word_list,
            settings,
            locks: Mutex::new(HashMap::new()),
            known_users: Mutex::new(HashSet::new()),
        }
    }

    /// Why a finale word is refused by the operator's word list, if it is.
    fn unlisted_word(&self, words: &[String]) -> Option<String> {
        match self.word_list.as_ref()? {
            Err(e) => Some(format!(
                "the word list for finale words cannot be read ({e}); ask the operator"
            )),
            Ok(list) => words.iter().find(|w| !list.contains(w)).map(|w| {
                format!(
                    "'{}' is not in this server's word list; nothing was recorded",
                    w.chars().take(30).collect::<String>()
                )
            }),
        }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The seed of game `id`'s public draws (colours, teams, letters): without a
    /// configured seed, fresh from the operating system's entropy on every call (the bot);
    /// with one (`--seed`, tests), that seed mixed with the game's id, which the database
    /// hands out once, so the same settings give the same draws game by game and a
    /// restarted process does not repeat the earlier games'.
    pub fn game_seed(&self, id: i64) -> i64 {
        let z = match self.settings.seed {
            Some(seed) => splitmix64(seed ^ splitmix64(id as u64)),
            None => OsEntropy.next_u64(),
        };
        (z >> 1) as i64
    }

    /// The seed of game `id`'s hidden draws (Chesswords' deal): only with a configured
    /// seed, mixed with the id differently from [`Service::game_seed`] (the ASCII bytes of
    /// `HIDDEN!!`); `None`, the bot's case: the operating system's entropy.
    fn hidden_seed(&self, id: i64) -> Option<u64> {
        const HIDDEN_STREAM: u64 = 0x4849_4444_454E_2121;
        let seed = self.settings.seed?;
        Some(splitmix64(splitmix64(seed ^ HIDDEN_STREAM) ^ id as u64))
    }

    fn lock_for(&self, id: i64) -> Arc<tokio::sync::Mutex<()>> {
        let mut m = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        m.entry(id).or_default().clone()
    }

    /// Handles one chat message. Bad input gets a one-line reason and changes nothing;
    /// a duplicate event id gets no reply and changes nothing.
    ///
    /// The event id is not looked up before the command runs: an accepted change stores
    /// it in the same statement, which refuses an id stored before (and then changes
    /// nothing), and a refusal looks it up before answering, so that a copy of an event
    /// that was applied is answered with nothing rather than, say, "not your turn".
    pub async fn handle(&self, inc: Incoming) -> Result<Vec<Outbound>, StoreError> {
        let origin = match &inc.place {
            Place::Channel(c) => Destination::Channel(c.clone()),
            Place::Dm => Destination::Dm(inc.user.clone()),
        };
        let mut r = Reply {
            out: Vec::new(),
            origin,
        };
        let cmd = match command::parse(&inc.text) {
            Ok(c) => c,
            Err(ParseError::Unknown(w)) => {
                // A bare move, where the user has exactly one game here.
                let games = self.games_here(&inc).await?;
                if games.len() == 1 && matches!(inc.place, Place::Channel(_)) {
                    Command::Move(Some(games[0].id), inc.text.trim().to_string())
                } else if games.len() > 1 {
                    let text = format!(
                        "you have {} games here ({}): say which, for example `move {} {}`",
                        games.len(),
                        id_list(&games),
                        games[0].id,
                        inc.text.trim()
                    );
                    return self.refuse(&inc, r, text).await;
                } else {
                    let over = match inc.place {
                        Place::Channel(_) => self.game_over_here(&inc).await?,
                        Place::Dm => None,
                    };
                    let text = over.unwrap_or_else(|| ParseError::Unknown(w).to_string());
                    return self.refuse(&inc, r, text).await;
                }
            }
            // Bad syntax: never stored, so never a copy of an applied event.
            Err(e) => {
                r.say(e.to_string());
                return Ok(r.out);
            }
        };
        self.ensure_user(&inc.user).await?;
        let refusal = match self.run(&inc, cmd, &mut r).await {
            Ok(()) => return Ok(r.out),
            Err(Fail::Say(s)) => s,
            Err(Fail::Store(StoreError::Duplicate)) => return Ok(Vec::new()),
            Err(Fail::Store(StoreError::Conflict)) => {
                "the game changed meanwhile; nothing was done, please send it again".to_string()
            }
            Err(Fail::Store(e)) => return Err(e),
        };
        self.refuse(&inc, r, refusal).await
    }

    /// Answers with a refusal, or with nothing when the event was applied before (a
    /// second delivery of an accepted command, which would now be refused: a bare move
    /// that ended the game, say).
    async fn refuse(
        &self,
        inc: &Incoming,
        mut r: Reply,
        text: String,
    ) -> Result<Vec<Outbound>, StoreError> {
        if self.store.event_seen(&inc.event_id).await? {
            return Ok(Vec::new());
        }
        r.say(text);
        Ok(r.out)
    }

    /// For text that is not a command, typed in a channel where the user has no active
    /// game: when their latest game here is over, says so (a move typed after the end).
    async fn game_over_here(&self, inc: &Incoming) -> Result<Option<String>, StoreError> {
        let games = self
            .store
            .games_of(&inc.user, &["finished", "aborted"])
            .await?;
        let Some(g) = games
            .iter()
            .filter(|g| g.seat_of(&inc.user).is_some() && is_in(g, &inc.place))
            .max_by_key(|g| g.id)
        else {
            return Ok(None);
        };
        let how = match load(g).ok().and_then(|r| r.outcome()) {
            Some(o) => o.to_string(),
            None => g.status.clone(),
        };
        Ok(Some(format!(
            "game #{} is over ({how}), so `{}` was not played. Start another with `challenge @user [VARIANT]`, see yours with `games`, look back with `board {}` or `pgn {}`; type help for every command",
            g.id,
            inc.text.trim().chars().take(30).collect::<String>(),
            g.id,
            g.id
        )))
    }

    /// Records `user` in the database once per process.
    async fn ensure_user(&self, user: &str) -> Result<(), StoreError> {
        let seen = self
            .known_users
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(user);
        if !seen {
            self.store.ensure_user(user, user).await?;
            self.known_users
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(user.to_string());
        }
        Ok(())
    }

    async fn games_here(&self, inc: &Incoming) -> Result<Vec<GameRow>, StoreError> {
        self.games_at(&inc.user, &inc.place).await
    }

    /// The active games `user` plays in `place`.
    async fn games_at(&self, user: &str, place: &Place) -> Result<Vec<GameRow>, StoreError> {
        let games = self.store.games_of(user, &["active"]).await?;
        Ok(games
            .into_iter()
            .filter(|g| g.seat_of(user).is_some())
            .filter(|g| is_in(g, place))
            .collect())
    }

    /// Suggestions for the move `user` is typing in `place`: the moves (SAN) their seat
    /// may make now in game `id`, or else in the one game here where it is their turn,
    /// that begin with `typed` (ignoring case), at most `limit`. None when it is not
    /// their turn, or when several games here wait for them and `id` does not say which.
    /// Reads only; changes nothing.
    pub async fn move_suggestions(
        &self,
        user: &str,
        place: &Place,
        id: Option<i64>,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let games = match id {
            Some(id) => self.store.game(id).await?.into_iter().collect(),
            None => self.games_at(user, place).await?,
        };
        let mut options: Vec<Vec<String>> = games
            .iter()
            .filter(|g| g.status == "active")
            .filter_map(|g| {
                let seat = g.seat_of(user)?;
                let moves = load(g).ok()?.legal_moves(Seat(seat));
                (!moves.is_empty()).then_some(moves)
            })
            .collect();
        if options.len() != 1 {
            return Ok(Vec::new());
        }
        let typed = typed.trim().to_lowercase();
        let mut moves: Vec<String> = options
            .swap_remove(0)
            .into_iter()
            .filter(|m| m.to_lowercase().starts_with(&typed))
            .collect();
        moves.sort();
        moves.truncate(limit);
        Ok(moves)
    }

    async fn pick(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        statuses: &[&str],
    ) -> Result<GameRow, Fail> {
        if let Some(id) = id {
            let g = self
                .store
                .game(id)
                .await?
                .ok_or_else(|| Fail::Say(format!("there is no game #{id}")))?;
            return Ok(g);
        }
        let games: Vec<GameRow> = self
            .store
            .games_of(&inc.user, statuses)
            .await?
            .into_iter()
            .filter(|g| g.seat_of(&inc.user).is_some())
            .filter(|g| is_in(g, &inc.place))
            .collect();
        match games.len() {
            0 => Err(Fail::Say("you have no game here".into())),
            1 => Ok(games.into_iter().next().expect("one game")),
            _ => Err(Fail::Say(format!(
                "you have {} games here ({}): say which, for example `move {} e4`",
                games.len(),
                id_list(&games),
                games[0].id
            ))),
        }
    }

    async fn run(&self, inc: &Incoming, cmd: Command, r: &mut Reply) -> Result<(), Fail> {
        if cmd.is_secret() && inc.place != Place::Dm {
            // Neither acted on nor repeated where others read: the answer goes privately.
            r.out.push(Outbound {
                to: Destination::Dm(inc.user.clone()),
                text: format!(
                    "`{}` is secret: send it to me in a private message; nothing was done",
                    cmd.name()
                ),
                image: None,
            });
            return Ok(());
        }
        match cmd {
            Command::Help(t) => r.say(command::help(t.as_deref())),
            Command::Rules(v) => match super::new_game(&v) {
                Ok(g) => r.say(format!(
                    "{}: the rules are in docs/rules/{}.md",
                    g.variant(),
                    g.variant()
                )),
                Err(e) => r.say(e.0),
            },
            Command::Challenge {
                opponents,
                variant,
                days,
                colour,
                fen,
                random_teams,
                timer,
            } => {
                let setup = Setup {
                    variant,
                    days,
                    colour,
                    fen,
                    random_teams,
                    timer,
                };
                self.challenge(inc, opponents, setup, r).await?
            }
            Command::Accept(id) => self.accept(inc, id, r).await?,
            Command::Decline(id) | Command::Cancel(id) => {
                let cancel = matches!(cmd, Command::Cancel(_));
                self.decline(inc, id, cancel, r).await?
            }
            Command::Games => self.list_games(inc, r).await?,
            Command::Board(id) => {
                let g = self
                    .pick(inc, id, &["active", "finished", "aborted"])
                    .await?;
                let rules = load(&g)?;
                let view = public_view(&g, rules.as_ref(), self.settings.public_orientation);
                r.out.push(Outbound {
                    to: r.origin.clone(),
                    text: format!("game #{}: {}", g.id, status_line(&g, rules.as_ref())),
                    image: Some(view),
                });
            }
            Command::Moves(id) => {
                let g = self
                    .pick(inc, id, &["active", "finished", "aborted"])
                    .await?;
                let rules = load(&g)?;
                let list = rules.numbered_moves();
                r.say(format!(
                    "game #{}: {}",
                    g.id,
                    if list.is_empty() {
                        "no moves yet".into()
                    } else {
                        list
                    }
                ));
            }
            Command::Pgn(id) => {
                let g = self
                    .pick(inc, id, &["active", "finished", "aborted"])
                    .await?;
                let rules = load(&g)?;
                r.say(rules.pgn(&pgn_tags(&g, rules.as_ref())));
            }
            Command::Move(id, text) => {
                // The text is always there, so the move is too (an empty one would only be
                // refused as illegal).
                let play = |uci: Option<String>| Action::Move(uci.unwrap_or_default());
                self.act_on_move(inc, id, Some(text), play, r).await?
            }
            Command::Play(id, text) => {
                // `play WORD MOVE` where moves are said with a word; a move elsewhere.
                let id = self.pick_id(inc, id).await?;
                let decide = |g: &GameRow, rules: &dyn GameRules| {
                    let seat = player_seat(g, &inc.user)?;
                    let said = |e: RuleError| Fail::Say(e.0);
                    let action = match text.split_once(' ') {
                        Some((word, mv)) if rules.moves_name_words() => Action::Play {
                            word: word.to_string(),
                            mv: rules.parse_move(seat, mv).map_err(said)?,
                        },
                        _ => Action::Move(rules.parse_move(seat, &text).map_err(said)?),
                    };
                    Ok((seat, action))
                };
                self.act(inc, id, decide, r).await?
            }
            Command::Letters(id, letters, mv) => {
                let id = self.pick_id(inc, id).await?;
                let decide = |g: &GameRow, rules: &dyn GameRules| {
                    let seat = player_seat(g, &inc.user)?;
                    let mv = rules.parse_move(seat, &mv).map_err(|e| Fail::Say(e.0))?;
                    Ok((seat, Action::Letters { letters, mv }))
                };
                self.act(inc, id, decide, r).await?
            }
            Command::Clue(id, text) => self.simple(inc, id, Action::Clue(text), r).await?,
            Command::Pass(id) => self.simple(inc, id, Action::Pass, r).await?,
            Command::Discard(id, card) => self.simple(inc, id, Action::Discard(card), r).await?,
            Command::Guess(id, word) => self.simple(inc, id, Action::Guess(word), r).await?,
            Command::Words(id, words) => {
                if let Some(reason) = self.unlisted_word(&words) {
                    return Err(Fail::Say(reason));
                }
                self.simple(inc, id, Action::Words(words), r).await?
            }
            Command::Hand(id) => {
                let g = self
                    .pick(inc, id, &["active", "finished", "aborted"])
                    .await?;
                let seat = player_seat(&g, &inc.user)?;
                let rules = load(&g)?;
                let text = match rules.secret_summary(seat) {
                    Some(t) => format!("game #{}: {t}", g.id),
                    None => format!("game #{}: {} has no hands of cards", g.id, rules.variant()),
                };
                r.out.push(Outbound {
                    to: Destination::Dm(inc.user.clone()),
                    text,
                    image: None,
                });
            }
            Command::Double(id, first, second) => {
                let id = self.pick_id(inc, id).await?;
                let decide = |g: &GameRow, rules: &dyn GameRules| {
                    let seat = player_seat(g, &inc.user)?;
                    let text = rules
                        .parse_double(seat, &first, &second)
                        .map_err(|e| Fail::Say(e.0))?;
                    Ok((seat, Action::Move(text)))
                };
                self.act(inc, id, decide, r).await?
            }
            Command::Resign(id) => self.simple(inc, id, Action::Resign, r).await?,
            Command::Pick(id, text) => self.simple(inc, id, Action::Pick(text), r).await?,
            Command::Decide(id, standing) => {
                self.simple(inc, id, Action::Decide(standing), r).await?
            }
            Command::Choose(id, text) => self.simple(inc, id, Action::Choose(text), r).await?,
            Command::Abort(id) => self.simple(inc, id, Action::Abort, r).await?,
            Command::Draw(id, a) => {
                self.simple(inc, id, offer_action(OfferKind::Draw, a), r)
                    .await?
            }
            Command::FastFifty(id, a) => {
                self.simple(inc, id, offer_action(OfferKind::FastFifty, a), r)
                    .await?
            }
            Command::Claim(id, ClaimKind::Time, _) => {
                let g = self.pick(inc, id, &["active"]).await?;
                let seat = player_seat(&g, &inc.user)?;
                let rules = load(&g)?;
                if rules.timeout_is_automatic() {
                    return Err(Fail::Say(format!("in {} the referee ends a game on time by itself; there is nothing to claim", rules.variant())));
                }
                let other = Seat(1 - seat.0);
                let late = g
                    .deadlines
                    .iter()
                    .find(|d| d.seat == other.0 && d.due_at <= inc.at);
                if late.is_none() {
                    return Err(Fail::Say("your opponent's time has not run out".into()));
                }
                self.act(inc, g.id, |_, _| Ok((other, Action::Timeout)), r)
                    .await?;
            }
            Command::Claim(id, kind, mv) => {
                let claim = |intended| Action::Claim(kind, intended);
                self.act_on_move(inc, id, mv, claim, r).await?
            }
        }
        Ok(())
    }

    /// The id of the user's active game here: `id` itself when given (the game is then
    /// read under its lock by [`Service::act`]), else the one game [`Service::pick`] finds.
    async fn pick_id(&self, inc: &Incoming, id: Option<i64>) -> Result<i64, Fail> {
        match id {
            Some(id) => Ok(id),
            None => Ok(self.pick(inc, None, &["active"]).await?.id),
        }
    }

    /// An action of the user's seat built by `wrap` from `text` read as a move of the game
    /// as it is under its lock (a move, or a claim with the move it intends).
    async fn act_on_move(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        text: Option<String>,
        wrap: impl FnOnce(Option<String>) -> Action,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let id = self.pick_id(inc, id).await?;
        let decide = |g: &GameRow, rules: &dyn GameRules| {
            let seat = player_seat(g, &inc.user)?;
            let uci = match text {
                Some(t) => Some(rules.parse_move(seat, &t).map_err(|e| Fail::Say(e.0))?),
                None => None,
            };
            Ok((seat, wrap(uci)))
        };
        self.act(inc, id, decide, r).await
    }

    async fn simple(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        action: Action,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let id = self.pick_id(inc, id).await?;
        self.act(inc, id, |g, _| Ok((player_seat(g, &inc.user)?, action)), r)
            .await
    }

    /// Under game `id`'s lock: reads the game once, lets `decide` choose the seat and the
    /// action from the game as it is now, applies and commits it, then produces the
    /// messages from the state in hand.
    async fn act(
        &self,
        inc: &Incoming,
        id: i64,
        decide: impl FnOnce(&GameRow, &dyn GameRules) -> Result<(Seat, Action), Fail>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let lock = self.lock_for(id);
        let _guard = lock.lock().await;
        let g = self
            .store
            .game(id)
            .await?
            .ok_or_else(|| Fail::Say(format!("there is no game #{id}")))?;
        let rules = load(&g)?;
        let (seat, action) = decide(&g, rules.as_ref())?;
        if g.status != "active" {
            return Err(Fail::Say(format!("game #{id} is {}", g.status)));
        }
        let done = self
            .commit(
                &g,
                rules,
                seat,
                &inc.user,
                action,
                inc.at,
                Some(inc.event_id.clone()),
            )
            .await?;
        self.announce(&g, &done, r);
        Ok(())
    }

    /// Applies and commits one action to `rules`, the state of `g`; returns the events and
    /// the new state. Caller holds the game's lock.
    #[allow(clippy::too_many_arguments)]
    async fn commit(
        &self,
        g: &GameRow,
        rules: Box<dyn GameRules>,
        seat: Seat,
        author: &str,
        action: Action,
        at: i64,
        event_id: Option<String>,
    ) -> Result<Committed, Fail> {
        let (w, done) = prepare(g, rules, seat, author, action, at, event_id)?;
        self.store.write(g.id, &w).await?;
        Ok(done)
    }
}

/// Applies one action to `rules`, the state of `g`, and returns the write that commits it
/// with what happened and the new state.
#[allow(clippy::too_many_arguments)]
fn prepare(
    g: &GameRow,
    mut rules: Box<dyn GameRules>,
    seat: Seat,
    author: &str,
    action: Action,
    at: i64,
    event_id: Option<String>,
) -> Result<(Write, Committed), Fail> {
    let awaited_before = rules.awaiting();
    let before: Vec<Seat> = movers(rules.as_ref());
    let events = rules.apply(seat, &action).map_err(|e| Fail::Say(e.0))?;
    let status = if rules.aborted() {
        "aborted"
    } else if rules.outcome().is_some() {
        "finished"
    } else {
        "active"
    };
    let outcome = rules.outcome().map(|o| {
        (
            o.result.clone(),
            o.reason.clone(),
            o.score
                .as_ref()
                .map(|s| serde_json::to_string(s).unwrap_or_default()),
        )
    });
    let old = &g.deadlines;
    let turn = g.version + 1;
    let deadlines = if status == "active" {
        movers(rules.as_ref())
            .into_iter()
            .map(|s| match old.iter().find(|d| d.seat == s.0) {
                Some(d) if before.contains(&s) && s != seat => (s.0, d.turn, d.due_at),
                _ => (s.0, turn, at + time_for(g, rules.as_ref(), s)),
            })
            .collect()
    } else {
        Vec::new()
    };
    let w = Write {
        expected_version: g.version,
        action: Some((
            seat.0,
            author.to_string(),
            serde_json::to_string(&action).unwrap_or_default(),
        )),
        at,
        event_id,
        status: status.into(),
        snapshot: rules.snapshot().to_string(),
        outcome,
        seats: None,
        deadlines,
        notice: None,
        messages: Vec::new(),
    };
    let deadlines = w
        .deadlines
        .iter()
        .map(|&(seat, turn, due_at)| Deadline {
            game_id: g.id,
            seat,
            turn,
            due_at,
        })
        .collect();
    Ok((
        w,
        Committed {
            events,
            rules,
            deadlines,
            before: awaited_before,
        },
    ))
}

impl Service {
    fn announce(&self, g: &GameRow, done: &Committed, r: &mut Reply) {
        let (rules, events) = (&done.rules, &done.events);
        let name = |s: &Seat| {
            format!(
                "{} ({})",
                g.user_at(s.0).unwrap_or("?"),
                rules.seat_name(*s)
            )
        };
        let mut lines = Vec::new();
        let mut private: Vec<(Seat, String)> = Vec::new();
        let mut moved = false;
        for e in events {
            match e {
                Event::Moved { seat, san } => {
                    moved = true;
                    lines.push(format!("{} played {san}", name(seat)))
                }
                Event::Offered(s, k) => lines.push(format!(
                    "{} proposes a {}: {} accept or {}",
                    name(s),
                    k.word(),
                    cmd_word(*k),
                    if *k == OfferKind::Draw {
                        "decline"
                    } else {
                        "reject"
                    }
                )),
                Event::Declined(s, k) => {
                    lines.push(format!("{} declined the {}", name(s), k.word()))
                }
                Event::Aborted => lines.push("the game is aborted".into()),
                Event::Ended(o) => lines.push(format!("game over: {o}")),
                Event::Revealed(picks) => lines.push(format!(
                    "revealed: {}",
                    picks
                        .iter()
                        .map(|(s, what)| format!("{} {what}", name(s)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                Event::Said(None, text) => lines.push(text.clone()),
                Event::Said(Some(s), text) => private.push((*s, text.clone())),
            }
        }
        if !lines.is_empty() {
            let mut text = format!("game #{}: {}", g.id, lines.join("; "));
            if !rules.is_over() {
                text.push_str(". ");
                text.push_str(&turn_line(g, rules.as_ref(), &done.deadlines));
            }
            let image = if moved || rules.is_over() {
                Some(public_view(
                    g,
                    rules.as_ref(),
                    self.settings.public_orientation,
                ))
            } else {
                None
            };
            for d in public_dest(g) {
                r.out.push(Outbound {
                    to: d,
                    text: text.clone(),
                    image: image.clone(),
                });
            }
        }
        for (s, text) in private {
            if let Some(user) = g.user_at(s.0) {
                r.out.push(Outbound {
                    to: Destination::Dm(user.to_string()),
                    text: format!("game #{}: {text}", g.id),
                    image: None,
                });
            }
        }
        self.prompt_privately(g, rules.as_ref(), &done.before, r);
    }

    /// Asks each seat newly awaited for a secret answer, privately, with its own view of
    /// the board and what it may answer.
    fn prompt_privately(
        &self,
        g: &GameRow,
        rules: &dyn GameRules,
        before: &[(Seat, Prompt)],
        r: &mut Reply,
    ) {
        for (seat, prompt) in rules.awaiting() {
            if !prompt.is_secret() || before.contains(&(seat, prompt.clone())) {
                continue;
            }
            let Some(user) = g.user_at(seat.0) else {
                continue;
            };
            let text = rules
                .instructions(seat)
                .unwrap_or_else(|| prompt.describe());
            r.out.push(Outbound {
                to: Destination::Dm(user.to_string()),
                text: format!("game #{}: your turn. {text}", g.id),
                image: Some(named_view(
                    g,
                    rules,
                    Viewer::Seat(seat),
                    self.settings.public_orientation,
                )),
            });
        }
    }

    async fn challenge(
        &self,
        inc: &Incoming,
        opponents: Vec<String>,
        setup: Setup,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let Setup {
            variant,
            days,
            colour,
            fen,
            random_teams,
            timer,
        } = setup;
        let variant = variant.unwrap_or_else(|| self.settings.default_variant.clone());
        // This game checks the challenge; the game itself is set up with its seeds once its
        // id is known.
        let options = |seed: i64, hidden_seed: Option<u64>| GameOptions {
            seed: seed as u64,
            timer_minutes: timer,
            hidden_seed,
        };
        let rules = super::new_game_with(&variant, fen.as_deref(), &options(0, None))
            .map_err(|e| Fail::Say(e.0))?;
        let n = rules.seat_count();
        if opponents.len() + 1 != n && !opponents.is_empty() {
            return Err(Fail::Say(format!(
                "{} is for {} players: name {} opponent(s)",
                rules.variant(),
                n,
                n - 1
            )));
        }
        if opponents.contains(&inc.user) {
            return Err(Fail::Say("you cannot challenge yourself".into()));
        }
        if (1..opponents.len()).any(|i| opponents[..i].contains(&opponents[i])) {
            return Err(Fail::Say("name each player once".into()));
        }
        if n == 2 && random_teams {
            return Err(Fail::Say(format!(
                "teams:random is for team games; {} has two players: use colour:random",
                rules.variant()
            )));
        }
        if n > 2 && colour.is_some() {
            return Err(Fail::Say(format!(
                "{} is played in teams: you and the first player named are partners, or write teams:random",
                rules.variant()
            )));
        }
        let colour = colour.unwrap_or(ColourChoice::Random);
        for o in &opponents {
            self.ensure_user(o).await?;
        }
        // The players in seat order: two players by colour; teams in the order named
        // (the challenger and the first named are partners), or drawn with the seed.
        let draw = |id: i64| {
            let seed = self.game_seed(id);
            let mut users: Vec<Option<String>> = std::iter::once(Some(inc.user.clone()))
                .chain(opponents.iter().cloned().map(Some))
                .chain(std::iter::repeat(None))
                .take(n)
                .collect();
            if n == 2 {
                let challenger_seat = match colour {
                    ColourChoice::White => 0,
                    ColourChoice::Black => 1,
                    ColourChoice::Random => (seed & 1) as usize,
                };
                users.swap(0, challenger_seat);
            } else if random_teams {
                shuffle(&mut users, seed as u64);
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
            // it did, the unseeded game's snapshot would stand.
            let options = options(seed, self.hidden_seed(id));
            let snapshot = super::new_game_with(&variant, fen.as_deref(), &options)
                .ok()
                .map(|g| g.snapshot().to_string());
            (seed, seats, snapshot)
        };
        let days = days.unwrap_or(self.settings.default_days) as i64;
        let ng = NewGame {
            variant: rules.variant().into(),
            days_per_move: days,
            colour: if n == 2 {
                format!("{colour:?}").to_lowercase()
            } else if random_teams {
                "teams:random".into()
            } else {
                "teams:named".into()
            },
            challenger: inc.user.clone(),
            channel: match &inc.place {
                Place::Channel(c) => Some(c.clone()),
                Place::Dm => None,
            },
            start_fen: fen.as_ref().map(|_| rules.view(Viewer::Public).fen),
            snapshot: rules.snapshot().to_string(),
        };
        let (id, _, seats) = self
            .store
            .create_game(&ng, Some(&inc.event_id), inc.at, draw)
            .await?;
        let challenger_seat = seats
            .iter()
            .find(|s| s.user.as_deref() == Some(inc.user.as_str()))
            .map_or(0, |s| s.seat);
        let side = rules.seat_name(Seat(challenger_seat));
        let named: Vec<String> = opponents.iter().map(|o| format!("@{o}")).collect();
        let text = if n > 2 {
            let who = if named.is_empty() {
                format!("opens a challenge to {}", rules.variant())
            } else {
                format!("challenges {} to {}", named.join(", "), rules.variant())
            };
            let answer = if named.is_empty() {
                format!("Anyone: accept {id}")
            } else {
                format!("{}: each of you, accept or decline", named.join(", "))
            };
            let users: Vec<Option<String>> = seats.iter().map(|s| s.user.clone()).collect();
            format!(
                "game #{id}: {} {who} ({days} days per move). Seats: {}. {answer}",
                inc.user,
                seat_list(&users, rules.as_ref())
            )
        } else {
            match named.first() {
                Some(o) => format!(
                    "game #{id}: {} challenges {o} to {} ({days} days per move), {} plays {side}. {o}: accept or decline",
                    inc.user, rules.variant(), inc.user
                ),
                None => format!(
                    "game #{id}: {} opens a challenge to {} ({days} days per move), {} plays {side}. Anyone: accept {id}",
                    inc.user, rules.variant(), inc.user
                ),
            }
        };
        r.say(text);
        Ok(())
    }

    async fn pending(&self, inc: &Incoming, id: Option<i64>, mine: bool) -> Result<GameRow, Fail> {
        let all = self.store.games_of(&inc.user, &["challenged"]).await?;
        let fits = |g: &GameRow| {
            if mine {
                g.challenger == inc.user
            } else {
                g.challenger != inc.user
                    && (g.seat_of(&inc.user).is_some() || g.seats.iter().any(|s| s.user.is_none()))
            }
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
            let g = self
                .store
                .game(id)
                .await?
                .ok_or_else(|| Fail::Say(format!("there is no game #{id}")))?;
            if g.status != "challenged" {
                return Err(Fail::Say(format!("game #{id} is not a pending challenge")));
            }
            if !fits(&g) {
                return Err(Fail::Say(if mine {
                    format!("game #{id} is not your challenge")
                } else {
                    format!("challenge #{id} is not addressed to you")
                }));
            }
            return Ok(g);
        }
        let here: Vec<GameRow> = all
            .into_iter()
            .filter(fits)
            .filter(open_to_me)
            .filter(|g| is_in(g, &inc.place))
            .collect();
        match here.len() {
            0 => Err(Fail::Say("there is no challenge for you here".into())),
            1 => Ok(here.into_iter().next().expect("one")),
            _ => Err(Fail::Say(format!(
                "there are {} challenges here ({}): add the game id",
                here.len(),
                id_list(&here)
            ))),
        }
    }

    async fn accept(&self, inc: &Incoming, id: Option<i64>, r: &mut Reply) -> Result<(), Fail> {
        let g = self.pending(inc, id, false).await?;
        let lock = self.lock_for(g.id);
        let _guard = lock.lock().await;
        let g = self
            .store
            .game(g.id)
            .await?
            .ok_or_else(|| Fail::Say("the game vanished".into()))?;
        if g.status != "challenged" {
            return Err(Fail::Say(format!(
                "game #{} is not a pending challenge",
                g.id
            )));
        }
        // The acceptor's own seat, or else the first open one.
        let mut seats = g.seats.clone();
        let mine = match seats
            .iter()
            .position(|s| s.user.as_deref() == Some(inc.user.as_str()))
        {
            Some(i) => i,
            None => seats
                .iter()
                .position(|s| s.user.is_none())
                .ok_or_else(|| Fail::Say(format!("game #{} has no open seat", g.id)))?,
        };
        if seats[mine].accepted {
            return Err(Fail::Say(format!(
                "you have already accepted game #{}; waiting for {}",
                g.id,
                waiting_for(&seats)
            )));
        }
        seats[mine].user = Some(inc.user.clone());
        seats[mine].accepted = true;
        let rules = load(&g)?;
        let starts = seats.iter().all(|s| s.accepted && s.user.is_some());
        let deadlines = if starts {
            movers(rules.as_ref())
                .into_iter()
                .map(|s| (s.0, g.version + 1, inc.at + time_for(&g, rules.as_ref(), s)))
                .collect()
        } else {
            Vec::new()
        };
        let w = Write {
            expected_version: g.version,
            action: None,
            at: inc.at,
            event_id: Some(inc.event_id.clone()),
            status: if starts { "active" } else { "challenged" }.into(),
            snapshot: g.snapshot.clone(),
            outcome: None,
            seats: Some(seats.clone()),
            deadlines,
            notice: None,
            messages: Vec::new(),
        };
        self.store.write(g.id, &w).await?;
        if !starts {
            r.say(format!(
                "game #{}: {} accepted; waiting for {}",
                g.id,
                inc.user,
                waiting_for(&seats)
            ));
            return Ok(());
        }
        let g = self
            .store
            .game(g.id)
            .await?
            .ok_or_else(|| Fail::Say("the game vanished".into()))?;
        let players = if g.seats.len() == 2 {
            format!(
                "{} (White) against {} (Black)",
                g.user_at(0).unwrap_or("?"),
                g.user_at(1).unwrap_or("?")
            )
        } else {
            let users: Vec<Option<String>> = g.seats.iter().map(|s| s.user.clone()).collect();
            seat_list(&users, rules.as_ref())
        };
        let text = format!(
            "game #{}: {} accepted. {players}, {}. {}",
            g.id,
            inc.user,
            rules.variant(),
            turn_line(&g, rules.as_ref(), &g.deadlines)
        );
        for d in public_dest(&g) {
            r.out.push(Outbound {
                to: d,
                text: text.clone(),
                image: Some(public_view(
                    &g,
                    rules.as_ref(),
                    self.settings.public_orientation,
                )),
            });
        }
        for seat in (0..rules.seat_count()).map(|s| Seat(s as u8)) {
            if let (Some(user), Some(text)) = (g.user_at(seat.0), rules.secret_summary(seat)) {
                r.out.push(Outbound {
                    to: Destination::Dm(user.to_string()),
                    text: format!("game #{}: {text}", g.id),
                    image: None,
                });
            }
        }
        self.prompt_privately(&g, rules.as_ref(), &[], r);
        Ok(())
    }

    async fn decline(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        cancel: bool,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let g = self.pending(inc, id, cancel).await?;
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
        r.say(format!(
            "game #{}: the challenge is {status} by {}",
            g.id, inc.user
        ));
        Ok(())
    }

    async fn list_games(&self, inc: &Incoming, r: &mut Reply) -> Result<(), Fail> {
        let games = self
            .store
            .games_of(&inc.user, &["challenged", "active"])
            .await?;
        let mut lines = Vec::new();
        for g in games.iter().filter(|g| g.seat_of(&inc.user).is_some()) {
            let rules = load(g)?;
            let opp: Vec<&str> = g
                .seats
                .iter()
                .filter_map(|s| s.user.as_deref())
                .filter(|u| *u != inc.user)
                .collect();
            let line = if g.status == "challenged" {
                format!(
                    "#{} {} vs {}: challenge pending",
                    g.id,
                    rules.variant(),
                    opp.join(", ")
                )
            } else {
                format!(
                    "#{} {} vs {}: {}{}",
                    g.id,
                    rules.variant(),
                    opp.join(", "),
                    turn_line(g, rules.as_ref(), &g.deadlines),
                    tokens_note(rules.as_ref())
                )
            };
            lines.push(line);
        }
        r.say(if lines.is_empty() {
            "you have no games".to_string()
        } else {
            lines.join(" | ")
        });
        Ok(())
    }

    /// Runs the deadline check at `now` ([`Service::check_deadlines`]) and returns every
    /// message in the outbox not yet delivered, the ones an earlier process left
    /// included. The deliverer calls [`Service::delivered`] for each once it is handed
    /// over; until then it is returned again by every call.
    pub async fn tick(&self, now: i64) -> Result<Vec<Queued>, StoreError> {
        self.check_deadlines(now).await?;
        self.undelivered().await
    }

    /// Sends reminders and applies timeouts due at `now`. Each reminder, "time has run
    /// out" and timeout is recorded once, together with its messages in the outbox, in the
    /// same transaction (a timeout: the same statement as the game's change), so a
    /// restart neither skips nor repeats one. The messages wait in the outbox
    /// ([`Service::undelivered`]).
    pub async fn check_deadlines(&self, now: i64) -> Result<(), StoreError> {
        let horizon = self
            .settings
            .reminder_hours
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
            * 3600;
        for d in self.store.deadlines_before(now + horizon).await? {
            let lock = self.lock_for(d.game_id);
            let _guard = lock.lock().await;
            let Some(g) = self.store.game(d.game_id).await? else {
                continue;
            };
            // The deadline as it is now, under the lock (a move may have replaced it).
            let Some(d) = g
                .deadlines
                .iter()
                .find(|x| x.seat == d.seat && x.turn == d.turn)
                .cloned()
            else {
                continue;
            };
            if g.status != "active" {
                continue;
            }
            let Ok(rules) = load(&g) else { continue };
            let user = g.user_at(d.seat).unwrap_or("?").to_string();
            if d.due_at <= now {
                if rules.timeout_is_automatic() {
                    self.time_out(&g, rules, &d, now).await?;
                } else {
                    let opp = g.user_at(1 - d.seat).unwrap_or("?");
                    let text = format!("game #{}: {user}'s time has run out. @{opp}: you may claim the win with `claim time`", g.id);
                    let messages: Vec<NewMessage> = public_dest(&g)
                        .iter()
                        .map(|to| new_message(to, &text, false))
                        .collect();
                    self.store
                        .record_notice(g.id, (d.seat, d.turn, "claimable"), now, &messages)
                        .await?;
                }
                continue;
            }
            // The most urgent reminder not yet sent; the less urgent ones are recorded as
            // superseded so they are not sent late.
            let mut hours = self.settings.reminder_hours.clone();
            hours.sort_unstable();
            let due: Vec<i64> = hours
                .iter()
                .copied()
                .filter(|h| d.due_at - h * 3600 <= now)
                .collect();
            let Some(&first) = due.first() else { continue };
            let text = format!(
                "game #{}: reminder, your move is due by {} (in less than {first} h)",
                g.id,
                format_time(d.due_at)
            );
            let reminder = [new_message(&Destination::Dm(user.clone()), &text, false)];
            for h in &due {
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
        }
        Ok(())
    }

    /// Ends `g` on time for the seat of deadline `d`, with the announcement in the outbox,
    /// in one write; a deadline already handled (the notice exists) or a game that moved
    /// meanwhile changes nothing. Caller holds the game's lock.
    async fn time_out(
        &self,
        g: &GameRow,
        rules: Box<dyn GameRules>,
        d: &Deadline,
        now: i64,
    ) -> Result<(), StoreError> {
        let user = g.user_at(d.seat).unwrap_or("?");
        let Ok((mut w, done)) = prepare(
            g,
            rules,
            Seat(d.seat),
            "referee",
            Action::Timeout,
            now,
            None,
        ) else {
            return Ok(());
        };
        let mut r = Reply {
            out: Vec::new(),
            origin: Destination::Dm(user.to_string()),
        };
        self.announce(g, &done, &mut r);
        w.notice = Some((d.seat, d.turn, "timeout".to_string()));
        w.messages = r
            .out
            .iter()
            .map(|o| {
                let text = format!(
                    "game #{}: {user}'s time ran out. {}",
                    g.id,
                    o.text.split_once(": ").map(|x| x.1).unwrap_or("")
                );
                new_message(&o.to, &text, o.image.is_some())
            })
            .collect();
        match self.store.write(g.id, &w).await {
            Ok(()) | Err(StoreError::Duplicate) | Err(StoreError::Conflict) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// The outbox's undelivered messages, oldest first, each with the game's public board
    /// when it carries one.
    pub async fn undelivered(&self) -> Result<Vec<Queued>, StoreError> {
        let mut out = Vec::new();
        for q in self.store.undelivered().await? {
            let QueuedMessage {
                id,
                game_id,
                destination,
                text,
                board,
            } = q;
            let Some(to) = destination_from_key(&destination) else {
                // Not written by this service: nothing to deliver.
                self.store.mark_delivered(id, 0).await?;
                continue;
            };
            let image = match (board, game_id) {
                (true, Some(gid)) => self.store.game(gid).await?.and_then(|g| {
                    let rules = load(&g).ok()?;
                    Some(public_view(
                        &g,
                        rules.as_ref(),
                        self.settings.public_orientation,
                    ))
                }),
                _ => None,
            };
            out.push(Queued {
                id,
                message: Outbound { to, text, image },
            });
        }
        Ok(out)
    }

    /// Marks an outbox message delivered at `at`: its deliverer has handed it over.
    pub async fn delivered(&self, id: i64, at: i64) -> Result<(), StoreError> {
        self.store.mark_delivered(id, at).await
    }
}

/// An outbox message to `to`.
fn new_message(to: &Destination, text: &str, board: bool) -> NewMessage {
    NewMessage {
        destination: destination_key(to),
        text: text.to_string(),
        board,
    }
}

/// How a destination is stored in the outbox: `channel:ID` or `dm:USER`.
fn destination_key(to: &Destination) -> String {
    match to {
        Destination::Channel(c) => format!("channel:{c}"),
        Destination::Dm(u) => format!("dm:{u}"),
    }
}

/// The destination stored as `key`.
fn destination_from_key(key: &str) -> Option<Destination> {
    if let Some(c) = key.strip_prefix("channel:") {
        Some(Destination::Channel(c.to_string()))
    } else {
        key.strip_prefix("dm:")
            .map(|u| Destination::Dm(u.to_string()))
    }
}

/// Who is awaited, for what, and by when.
/// Seconds `seat` has to act in `g` from now: what the variant sets for the prompt, or
/// the game's days per move.
fn time_for(g: &GameRow, rules: &dyn GameRules, seat: Seat) -> i64 {
    rules.time_limit(seat).unwrap_or(g.days_per_move * DAY)
}

fn turn_line(g: &GameRow, rules: &dyn GameRules, dl: &[Deadline]) -> String {
    let parts: Vec<String> = rules
        .awaiting()
        .iter()
        .map(|(s, p)| {
            let who = format!(
                "@{} ({})",
                g.user_at(s.0).unwrap_or("?"),
                rules.seat_name(*s)
            );
            let what = p.describe();
            match dl.iter().find(|d| d.seat == s.0) {
                Some(d) => format!("{who} {what}, by {}", format_time(d.due_at)),
                None => format!("{who} {what}"),
            }
        })
        .collect();
    parts.join("; ")
}

fn cmd_word(k: OfferKind) -> &'static str {
    match k {
        OfferKind::Draw => "draw",
        OfferKind::FastFifty => "fastfifty",
    }
}

fn offer_action(kind: OfferKind, a: Answer) -> Action {
    match a {
        Answer::Offer => Action::Offer(kind),
        Answer::Accept => Action::Accept(kind),
        Answer::Decline => Action::Decline(kind),
    }
}

/// The seats that hold the game up, each of which gets a deadline: every awaited seat
/// whose prompt is a turn; when only answers to an offer are awaited (the offer was made
/// to the side to move), the first awaited seat.
fn movers(rules: &dyn GameRules) -> Vec<Seat> {
    let awaiting = rules.awaiting();
    let mut seats: Vec<Seat> = awaiting
        .iter()
        .filter(|(_, p)| p.is_turn())
        .map(|(s, _)| *s)
        .collect();
    if seats.is_empty() {
        seats.extend(awaiting.first().map(|(s, _)| *s));
    }
    seats.dedup();
    seats
}

/// The player of each seat, in seat order (`?` for an open seat).
pub fn seat_users(g: &GameRow) -> Vec<&str> {
    (0..g.seats.len() as u8)
        .map(|s| g.user_at(s).unwrap_or("?"))
        .collect()
}

/// The PGN tags the service knows for a game.
pub fn pgn_tags(g: &GameRow, rules: &dyn GameRules) -> Vec<(String, String)> {
    let [white, black] = rules.side_names(&seat_users(g));
    vec![
        ("Event".into(), format!("Postal game #{}", g.id)),
        ("Site".into(), "Postal".into()),
        ("White".into(), white),
        ("Black".into(), black),
    ]
}

/// Double Move Chess: `; tokens left: White 3, Black 4` (nothing in other variants).
fn tokens_note(rules: &dyn GameRules) -> String {
    match rules.tokens_left() {
        Some(t) => format!(
            "; double-move tokens left: {}",
            t.iter()
                .enumerate()
                .map(|(s, n)| format!("{} {n}", rules.seat_name(Seat(s as u8))))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => String::new(),
    }
}

fn status_line(g: &GameRow, rules: &dyn GameRules) -> String {
    let line = status_words(g, rules);
    format!("{line}{}", tokens_note(rules))
}

fn status_words(g: &GameRow, rules: &dyn GameRules) -> String {
    match (&g.status[..], rules.outcome()) {
        (_, Some(o)) => format!("finished, {o}"),
        ("aborted", _) => "aborted".into(),
        _ => {
            let a = rules.awaiting();
            a.first()
                .map(|(s, _)| format!("{} to move", rules.seat_name(*s)))
                .unwrap_or_default()
        }
    }
}

/// The public view of a game, oriented as the settings say, with the players' names in
/// the board image's caption.
fn public_view(g: &GameRow, rules: &dyn GameRules, orientation: PublicOrientation) -> View {
    named_view(g, rules, Viewer::Public, orientation)
}

/// What `viewer` sees of a game, with the players' names (and, in team games, their
/// roles) in the caption; a seat's own view is drawn from its side.
fn named_view(
    g: &GameRow,
    rules: &dyn GameRules,
    viewer: Viewer,
    orientation: PublicOrientation,
) -> View {
    let mut view = rules.view(viewer);
    if viewer == Viewer::Public {
        view.board.bottom = orientation.bottom(view.board.caption.to_move);
    }
    let [white, black] = rules.caption_names(&seat_users(g));
    view.board.caption.white = white;
    view.board.caption.black = black;
    view
}

/// The players still to accept a challenge (`@carol, @dave`, or `anyone` for open seats).
fn waiting_for(seats: &[SeatRow]) -> String {
    seats
        .iter()
        .filter(|s| !s.accepted)
        .map(|s| match &s.user {
            Some(u) => format!("@{u}"),
            None => "anyone".into(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every seat with its player (`open` for a seat anyone may take): `alice (White king
/// side), bob (White queen side), ...`.
fn seat_list(users: &[Option<String>], rules: &dyn GameRules) -> String {
    users
        .iter()
        .enumerate()
        .map(|(s, u)| {
            format!(
                "{} ({})",
                u.as_deref().unwrap_or("open"),
                rules.seat_name(Seat(s as u8))
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The games' ids as players write them: `#3, #7`.
fn id_list(games: &[GameRow]) -> String {
    games
        .iter()
        .map(|g| format!("#{}", g.id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `g` lives in `place`: its channel, or anywhere when the user writes privately.
fn is_in(g: &GameRow, place: &Place) -> bool {
    match place {
        Place::Channel(c) => g.channel.as_deref() == Some(c),
        Place::Dm => true,
    }
}

fn player_seat(g: &GameRow, user: &str) -> Result<Seat, Fail> {
    g.seat_of(user)
        .map(Seat)
        .ok_or_else(|| Fail::Say(format!("game #{} is not your game", g.id)))
}

/// Loads a stored game's rules from its snapshot.
pub fn load(g: &GameRow) -> Result<Box<dyn GameRules>, Fail> {
    let snap: serde_json::Value = serde_json::from_str(&g.snapshot)
        .map_err(|e| Fail::Say(format!("game #{} is damaged: {e}", g.id)))?;
    super::load_game(&g.variant, &snap)
        .map_err(|e| Fail::Say(format!("game #{} is damaged: {}", g.id, e.0)))
}

/// Why a command failed: a reason for the user, or a storage error.
#[derive(Debug)]
pub enum Fail {
    /// A one-line reason; nothing changed.
    Say(String),
    /// The database failed.
    Store(StoreError),
}

impl From<StoreError> for Fail {
    fn from(e: StoreError) -> Fail {
        Fail::Store(e)
    }
}

#[cfg(test)]
mod suggestion_tests {
    use super::*;

    async fn say(svc: &Service, event: &str, user: &str, place: &str, text: &str) {
        svc.handle(Incoming {
            event_id: event.into(),
            user: user.into(),
            place: Place::Channel(place.into()),
            text: text.into(),
            at: 1_767_225_600,
        })
        .await
        .unwrap();
    }

    #[tokio::test]
    async fn move_suggestions_come_from_the_users_game_here_on_their_turn() {
        let store = Store::open("sqlite::memory:").await.unwrap();
        let svc = Service::new(store, Settings::default());
        let here = Place::Channel("c".into());
        say(&svc, "1", "alice", "c", "challenge @bob colour:white").await;
        say(&svc, "2", "bob", "c", "accept").await;
        let all = svc
            .move_suggestions("alice", &here, None, "", 25)
            .await
            .unwrap();
        assert_eq!(all.len(), 20);
        let n = svc
            .move_suggestions("alice", &here, None, "n", 25)
            .await
            .unwrap();
        assert_eq!(n, ["Na3", "Nc3", "Nf3", "Nh3"]);
        let few = svc
            .move_suggestions("alice", &here, Some(1), "", 3)
            .await
            .unwrap();
        assert_eq!(few.len(), 3);
        // Not Bob's turn; no game of Carol's; no game in another channel.
        for (user, place) in [("bob", &here), ("carol", &here)] {
            let s = svc.move_suggestions(user, place, None, "", 25).await;
            assert!(s.unwrap().is_empty(), "{user}");
        }
        let elsewhere = Place::Channel("d".into());
        let s = svc
            .move_suggestions("alice", &elsewhere, None, "", 25)
            .await;
        assert!(s.unwrap().is_empty());
        // Nobody else reads Alice's options through her game's id.
        let s = svc.move_suggestions("carol", &here, Some(1), "", 25).await;
        assert!(s.unwrap().is_empty());
    }
}
