//! The referee: turns an [`Incoming`] chat message into [`Outbound`] messages, with every
//! accepted change committed to the [`Store`] before any reply is produced. It names no
//! variant: games are reached through the [`Registry`] and the plug-in interface.
//!
//! - this module: the service, its message types and the dispatch of a command;
//! - [`lookup`]: which game a command is about;
//! - [`seating`]: challenges, acceptance and seats;
//! - [`acting`]: applying an action under the game's lock and committing it;
//! - [`locks`]: the games' locks, kept only while in use;
//! - [`routing`]: what each audience is told after a change;
//! - [`takeback`]: takebacks by agreement;
//! - [`vacation`]: players' vacations, which stop their clocks;
//! - [`conditional`]: conditional moves, stored privately and played when they match;
//! - [`outbox`]: deadlines, reminders and timeouts, and the outbox they fill;
//! - [`text`]: status lines, views and record tags.

mod acting;
pub mod adapter;
mod chat;
mod conditional;
mod listing;
mod locks;
mod lookup;
mod outbox;
mod personal;
mod rematch;
mod routing;
mod seating;
mod standing;
mod takeback;
mod text;
mod vacation;

pub use super::settings::Settings;
pub use listing::{Listed, FINISHED_LISTED};
pub use lookup::load_with;
pub use lookup::{Choice, Resolved};
pub use outbox::OUTBOX_LEASE_SECONDS;
pub use text::{
    format_time, pgn_tags, plain_text, render_times, render_users, seat_users, time_mark,
    user_at_mark, user_mark, users_as_keys,
};

use super::command::{self, Command, ParseError};
use crate::render::BoardView;
use crate::store::{Store, StoreError};
use crate::variants::api::{Env, GameCommand, RefusalKind, Resources, RuleError, Seat, Viewer};
use crate::variants::Registry;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// The file name of game `id`'s record.
pub fn record_name(id: i64) -> String {
    format!("game-{id}.pgn")
}

/// The most display names a service keeps ([`Service::learn_name`]).
const MAX_NAMES: usize = 100_000;

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
    /// For a command answered privately though it was given in a channel (a secret slash
    /// command, whose answer only its user sees): that channel. It decides the game as the
    /// channel would for a command typed there ([`Place`] stays [`Place::Dm`]).
    pub via: Option<String>,
    /// The server (Discord guild) the place belongs to; `None` in a private message and
    /// where there are no servers (the console). Someone not seated in a game reads it only
    /// from its own server.
    pub server: Option<String>,
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

/// What a board image shows one viewer, with a text diagram for adapters without images.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The variant's id.
    pub variant: String,
    /// The position as FEN, as far as the viewer may see it.
    pub fen: String,
    /// The last move in UCI form, for highlighting.
    pub last_move: Option<String>,
    /// A text diagram of the board.
    pub diagram: String,
    /// What the board image shows (the adapter renders it to PNG).
    pub board: BoardView,
}

/// A button an adapter may show under a message: pressing it sends `command` as the
/// user who pressed it (the referee checks it like any typed command).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    /// The label.
    pub label: String,
    /// The command it sends, game id included (`draw 12 accept`).
    pub command: String,
    /// The one user it is meant for, when it is meant for one (others are told it is not
    /// theirs without anything being sent).
    pub for_user: Option<String>,
    /// Whether it is the answer to press in most cases.
    pub primary: bool,
}

/// A message from the referee.
#[derive(Clone, Debug, Default)]
pub struct Outbound {
    /// Where it goes.
    pub to: Destination,
    /// The text.
    pub text: String,
    /// A board to draw with the text.
    pub image: Option<View>,
    /// The game it is about, if it is about one.
    pub game: Option<i64>,
    /// Buttons to show with it.
    pub buttons: Vec<Button>,
    /// For a refusal: its kind (the text says why). `None` for everything else.
    pub refusal: Option<RefusalKind>,
    /// The users (keys) this message calls on, and so may notify: the players it asks
    /// to act (whose turn it is, the challenged, the one whose challenge expired). An
    /// adapter notifies these users and nobody else, whatever the text contains; a list
    /// of games, a board or a refusal calls on nobody.
    pub mentions: Vec<String>,
    /// When the text is a document (a game's record): the file name an adapter that
    /// sends files may send it as (`game-12.pgn`), with no other text. Plain-text
    /// adapters print the text.
    pub document: Option<String>,
    /// The message announces the end of its game: an adapter that sends files may attach
    /// the game's record ([`Service::record`]) and animation ([`Service::animation`]).
    pub ending: bool,
    /// For a list of games (`games`): each game's line with where it is played, so an
    /// adapter may show each with a link to its game; the text holds the same lines.
    pub listing: Vec<Listed>,
    /// The message is a turn notice: it tells the users it calls on (in a channel, its
    /// [`Outbound::mentions`]; privately, its recipient) that the game awaits them. A
    /// player who chose the daily digest is neither called on nor sent one: the digest
    /// lists the game instead (docs/service.md, "Daily digest").
    pub turn: bool,
    /// What the message does to a challenge: posts it, or settles one posted before
    /// (an adapter that edits messages then edits the challenge's to say how it ended).
    pub challenge: Option<ChallengeMark>,
    /// The text with the users it names marked ([`user_mark`]), for an adapter that
    /// shows users its own way (Discord as mentions, [`render_users`]); `text` holds the
    /// same with each user as their key, which every reader can show.
    pub marked: String,
}

impl Outbound {
    /// Sets [`Outbound::marked`] from the text as the referee wrote it, and the text to
    /// its plain form (users as their keys): how every message leaves the service.
    fn finish(&mut self) {
        if self.marked.is_empty() {
            self.marked = users_as_keys(&self.text);
            std::mem::swap(&mut self.marked, &mut self.text);
        }
    }

    /// The text with its users marked, for an adapter that shows them: [`Outbound::marked`],
    /// or the text where nothing set it.
    pub fn marked_text(&self) -> &str {
        match self.marked.is_empty() {
            true => &self.text,
            false => &self.marked,
        }
    }
}

/// What a message does to a challenge posted before it ([`Outbound::challenge`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeMark {
    /// The message is game N's challenge, answered with its buttons: an adapter that
    /// edits messages keeps where it posted it.
    Posted(i64),
    /// The message settles game N's challenge, as the words say (`accepted by @bob`): an
    /// adapter that kept the challenge's messages edits them to say so and takes their
    /// buttons off. An adapter that cannot edit shows nothing more (this message says it).
    Settled(i64, String),
}

impl Default for Destination {
    fn default() -> Destination {
        Destination::Channel(String::new())
    }
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

/// The referee service.
pub struct Service {
    store: Store,
    settings: Settings,
    registry: Registry,
    locks: locks::GameLocks,
    /// Users already recorded by this process, so a message costs no write for them.
    known_users: Mutex<HashSet<String>>,
    /// Users' display names as the adapter last saw them ([`Service::learn_name`]): the
    /// names board images and records show; a user not in it is shown by key.
    names: Mutex<HashMap<String, String>>,
    /// The resources the variants declared and the operator configured, read at start.
    resources: Resources,
}

/// The messages a command produces, and where its own answers go.
struct Reply {
    out: Vec<Outbound>,
    origin: Destination,
    /// Players known, from a game read for this reply, to have chosen no settings that
    /// change their messages: [`Service::personalize`] need not read theirs.
    plain: Vec<String>,
}

impl Reply {
    fn say(&mut self, text: impl Into<String>) {
        self.out.push(Outbound {
            to: self.origin.clone(),
            text: text.into(),
            ..Outbound::default()
        });
    }
}

/// Why a command failed: a refusal for the user, or a storage error.
#[derive(Debug)]
pub enum Fail {
    /// A refusal with its kind and reason; nothing changed.
    Refuse(RuleError),
    /// The command fits several of the user's games and named none: nothing changed; the
    /// user is asked which, with a button per game ([`lookup::Choice`]).
    Choose(lookup::Choice),
    /// The database failed.
    Store(StoreError),
}

impl Fail {
    /// A refusal of `kind`.
    fn of(kind: RefusalKind, text: impl Into<String>) -> Fail {
        Fail::Refuse(RuleError::of(kind, text))
    }
}

impl From<StoreError> for Fail {
    fn from(e: StoreError) -> Fail {
        Fail::Store(e)
    }
}

/// Reads the file of every resource a variant of `registry` declares and the settings
/// name, and has its variant parse it; a file that cannot be read or parsed is logged and
/// kept as the reason, which the game gives the players who need it.
fn load_resources(registry: &Registry, settings: &Settings) -> Resources {
    let mut resources = Resources::default();
    for variant in registry.all() {
        for spec in variant.resources() {
            let key = crate::variants::api::setting_key(variant.id(), spec.name);
            let Some(path) = settings.resources.get(&key) else {
                continue;
            };
            let loaded = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {path}: {e}"))
                .and_then(|text| {
                    variant
                        .parse_resource(spec.name, &text)
                        .map_err(|e| format!("{path}: {e}"))
                })
                .inspect_err(|e| tracing::error!("the setting {key} cannot be used: {e}"));
            resources.insert(variant.id(), spec.name, loaded);
        }
    }
    resources
}

impl From<RuleError> for Fail {
    fn from(e: RuleError) -> Fail {
        Fail::Refuse(e)
    }
}

impl Service {
    /// A service over `store` playing the built-in variants.
    pub fn new(store: Store, settings: Settings) -> Service {
        Service::with_registry(store, settings, Registry::builtin())
    }

    /// A service over `store` playing the variants of `registry`.
    pub fn with_registry(store: Store, settings: Settings, registry: Registry) -> Service {
        let resources = load_resources(&registry, &settings);
        Service {
            store,
            resources,
            settings,
            registry,
            locks: locks::GameLocks::new(),
            known_users: Mutex::new(HashSet::new()),
            names: Mutex::new(HashMap::new()),
        }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Records how `user` is called where the adapter saw them (a Discord member's
    /// server nickname, else their global name, else their username), cleaned for
    /// showing ([`crate::service::names::display_name`]). Board captions and records show
    /// this name; the text of messages keeps naming users by key, which an adapter shows
    /// its own way (Discord as a mention, which Discord displays as the name).
    pub fn learn_name(&self, user: &str, raw: &str) {
        let name = crate::service::names::display_name(raw, user);
        let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        if names.get(user) != Some(&name) {
            // Bounded: a bot seeing more users than this keeps the newest.
            if names.len() >= MAX_NAMES {
                names.clear();
            }
            names.insert(user.to_string(), name);
        }
    }

    /// `user`'s display name as last learnt ([`Service::learn_name`]), else the key.
    pub fn name_of(&self, user: &str) -> String {
        self.names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(user)
            .cloned()
            .unwrap_or_else(|| user.to_string())
    }

    /// The display name of each seat's player, in seat order (`?` for an open seat).
    pub fn seat_names(&self, g: &crate::store::GameRow) -> Vec<String> {
        seat_users(g).into_iter().map(|u| self.name_of(u)).collect()
    }

    /// Game `id`'s public record as PGN, with its file name ([`record_name`]); `None`
    /// for no such game.
    pub async fn record(&self, id: i64) -> Result<Option<(String, String)>, StoreError> {
        let Some(g) = self.store.game(id).await? else {
            return Ok(None);
        };
        let Ok(rules) = self.load(&g) else {
            return Ok(None);
        };
        let tags = pgn_tags(&g, rules.as_ref(), &self.seat_names(&g));
        Ok(Some((record_name(id), rules.pgn(Viewer::Public, &tags))))
    }

    /// Game `id`'s public animation as a GIF drawn by `renderer` (off the async runtime's
    /// threads), with its file name; `None` for no such game or a variant without
    /// animations.
    pub async fn animation(
        &self,
        id: i64,
        renderer: Arc<crate::render::Renderer>,
    ) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        let Some(g) = self.store.game(id).await? else {
            return Ok(None);
        };
        let Ok(rules) = self.load(&g) else {
            return Ok(None);
        };
        let names = self.seat_names(&g);
        let gif = tokio::task::spawn_blocking(move || {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            rules.animation(Viewer::Public, &renderer, &names)
        })
        .await
        .ok()
        .flatten();
        Ok(gif.map(|bytes| (format!("game-{id}.gif"), bytes)))
    }

    /// The variants this service plays.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// What a game may consult while reading a command.
    fn env(&self) -> Env<'_> {
        Env {
            resources: Some(&self.resources),
        }
    }

    /// The lock of game `id` ([`locks::GameLocks::of`]).
    fn lock_for(&self, id: i64) -> locks::GameLock {
        self.locks.of(id)
    }

    /// Handles one chat message, its text first cleaned of invisible and look-alike
    /// characters ([`crate::service::input::clean`]). Bad input gets a one-line reason
    /// and changes nothing; a duplicate event id gets no reply and changes nothing.
    ///
    /// The event id is not looked up before the command runs: an accepted change stores
    /// it in the same statement, which refuses an id stored before (and then changes
    /// nothing), and a refusal looks it up before answering, so that a copy of an event
    /// that was applied is answered with nothing rather than, say, "not your turn".
    pub async fn handle(&self, inc: Incoming) -> Result<Vec<Outbound>, StoreError> {
        let mut out = self.answer(inc).await?;
        out.iter_mut().for_each(Outbound::finish);
        Ok(out)
    }

    /// The messages of [`Service::handle`], their users still marked in `text`.
    async fn answer(&self, mut inc: Incoming) -> Result<Vec<Outbound>, StoreError> {
        inc.text = crate::service::input::clean(&inc.text);
        let origin = match &inc.place {
            Place::Channel(c) => Destination::Channel(c.clone()),
            Place::Dm => Destination::Dm(inc.user.clone()),
        };
        let mut r = Reply {
            out: Vec::new(),
            origin,
            plain: Vec::new(),
        };
        let cmd = match command::parse(&inc.text, &self.registry) {
            Ok(c) => c,
            Err(ParseError::Unknown(w)) => {
                // A bare move, where the user has a live game here (in a channel, their
                // game there; in a private message, any of theirs): the game is found as
                // for `move` ([`Service::pick`]), by where it is typed and what it fits.
                if self.candidates(&inc, &["active"]).await?.is_empty() {
                    let over = self.game_over_after(&inc).await?;
                    let e = match over {
                        Some(text) => RuleError::over(text),
                        None => {
                            RuleError::of(RefusalKind::Unknown, ParseError::Unknown(w).to_string())
                        }
                    };
                    return self.refuse(&inc, r, e).await;
                }
                Command::Game(None, GameCommand::new("move", inc.text.trim()))
            }
            // Bad syntax: never stored, so never a copy of an applied event.
            Err(e) => {
                r.say(e.to_string());
                if let Some(last) = r.out.last_mut() {
                    last.refusal = Some(RefusalKind::Syntax);
                }
                return Ok(r.out);
            }
        };
        let refusal = match self.run(&inc, cmd, &mut r).await {
            Ok(()) => {
                // Nobody is called on by their own command (a draw offer, a move after
                // which the mover is still awaited).
                for o in &mut r.out {
                    o.mentions.retain(|u| u != &inc.user);
                }
                self.personalize(&mut r).await?;
                return Ok(r.out);
            }
            Err(Fail::Refuse(e)) => {
                if e.kind == RefusalKind::Internal {
                    // The user is told nothing was done; the operator learns why.
                    tracing::error!("event {}: {}", inc.event_id, e.text);
                }
                e
            }
            Err(Fail::Choose(choice)) => {
                if self.store.event_seen(&inc.event_id).await? {
                    return Ok(Vec::new());
                }
                r.out.push(Outbound {
                    to: r.origin.clone(),
                    text: choice.text,
                    buttons: choice.buttons,
                    refusal: Some(RefusalKind::Ambiguous),
                    ..Outbound::default()
                });
                return Ok(r.out);
            }
            Err(Fail::Store(StoreError::Duplicate)) => return Ok(Vec::new()),
            Err(Fail::Store(StoreError::Conflict)) => RuleError::of(
                RefusalKind::Conflict,
                "the game changed meanwhile; nothing was done, please send it again",
            ),
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
        e: RuleError,
    ) -> Result<Vec<Outbound>, StoreError> {
        if self.store.event_seen(&inc.event_id).await? {
            return Ok(Vec::new());
        }
        r.out.push(Outbound {
            to: r.origin.clone(),
            text: e.text,
            refusal: Some(e.kind),
            ..Outbound::default()
        });
        Ok(r.out)
    }

    /// Records `user` in the database once per process: when they take a seat, never
    /// for a refused command.
    pub(super) async fn ensure_user(&self, user: &str) -> Result<(), StoreError> {
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

    /// Runs one parsed command.
    async fn run(&self, inc: &Incoming, cmd: Command, r: &mut Reply) -> Result<(), Fail> {
        match cmd {
            Command::Help(None) => {
                let mut played: Vec<String> = self
                    .store
                    .games_of(&inc.user, &["challenged", "active"])
                    .await?
                    .into_iter()
                    .map(|g| g.variant)
                    .collect();
                played.dedup();
                r.say(command::help_for(&self.registry, &played))
            }
            Command::Help(t) => r.say(command::help(t.as_deref(), &self.registry)),
            Command::Rules(v) => r.say(self.rules_text(&v)?),
            Command::Challenge(c) => self.challenge(inc, c, r).await?,
            Command::Accept(id) => self.accept(inc, id, r).await?,
            Command::Decline(id) => self.decline(inc, id, false, r).await?,
            Command::Cancel(id) => self.decline(inc, id, true, r).await?,
            Command::Games(false) => self.list_games(inc, r).await?,
            Command::Games(true) => self.list_finished(inc, r).await?,
            Command::Board(id) => {
                let (g, rules) = self.readable(inc, id, lookup::Fit::Live).await?;
                // Asked privately by a player of the game: their seat's view (a game with
                // hidden pieces shows them their own); otherwise the public one.
                let seat = g.seat_of(&inc.user).filter(|_| inc.place == Place::Dm);
                let view = match seat {
                    Some(s) => text::seat_view(
                        &g,
                        rules.as_ref(),
                        Seat(s),
                        self.settings.public_orientation,
                        &self.seat_names(&g),
                    ),
                    None => text::public_view(
                        &g,
                        rules.as_ref(),
                        self.settings.public_orientation,
                        &self.seat_names(&g),
                    ),
                };
                let away = self.vacation_note(&g).await?;
                r.out.push(Outbound {
                    to: r.origin.clone(),
                    text: format!(
                        "game #{}: {}{away}",
                        g.id,
                        text::status_line(&g, rules.as_ref())
                    ),
                    image: Some(view),
                    game: Some(g.id),
                    ..Outbound::default()
                });
            }
            Command::Moves(id) => {
                let (g, rules) = self.readable(inc, id, lookup::Fit::Live).await?;
                let list = rules.project(Viewer::Public).numbered;
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
                let (g, rules) = self.readable(inc, id, lookup::Fit::Live).await?;
                let tags = pgn_tags(&g, rules.as_ref(), &self.seat_names(&g));
                r.out.push(Outbound {
                    to: r.origin.clone(),
                    text: rules.pgn(Viewer::Public, &tags),
                    game: Some(g.id),
                    document: Some(record_name(g.id)),
                    ..Outbound::default()
                });
            }
            Command::Hand(id) => {
                let (g, rules) = self.readable(inc, id, lookup::Fit::Holding).await?;
                let seat = lookup::player_seat(&g, &inc.user)?;
                let text = match rules.project(Viewer::Seat(seat)).holdings {
                    Some(t) => format!("game #{}: {t}", g.id),
                    None => format!(
                        "game #{}: {} has nothing held in hand",
                        g.id,
                        self.display_name(&g.variant)
                    ),
                };
                r.out.push(Outbound {
                    to: Destination::Dm(inc.user.clone()),
                    text,
                    game: Some(g.id),
                    ..Outbound::default()
                });
            }
            Command::Settings(change) => {
                let server = &self.settings.reminder_hours;
                let current = self.settings_of(&inc.user).await?;
                let text = if change.is_empty() {
                    current.describe(server)
                } else {
                    let new = current.changed(&change);
                    // A digest just chosen (or moved to another hour) starts at its next
                    // hour: today's, if it has not come yet.
                    let digest_done = new
                        .digest_hour
                        .filter(|_| new.digest_hour != current.digest_hour)
                        .map(|h| (crate::store::digest_day(inc.at, h), inc.at));
                    self.store
                        .set_player_settings(&inc.user, &new.to_stored(), digest_done)
                        .await?;
                    format!("saved; {}", new.describe(server))
                };
                r.out.push(Outbound {
                    to: Destination::Dm(inc.user.clone()),
                    text,
                    ..Outbound::default()
                });
            }
            Command::Vacation(ask) => self.vacation(inc, ask, r).await?,
            Command::Resign(id) => {
                self.act_simple(inc, id, crate::variants::api::Action::resign(), r)
                    .await?
            }
            Command::Abort(id) => {
                self.act_simple(inc, id, crate::variants::api::Action::abort(), r)
                    .await?
            }
            Command::Game(id, gc) => self.game_command(inc, id, gc, r).await?,
            Command::Takeback(id, step) => self.takeback(inc, id, step, r).await?,
            Command::Conditional(id, what) => self.conditional(inc, id, what, r).await?,
            Command::Rating(who) => self.rating(inc, who, r).await?,
            Command::Rematch(id) => self.rematch(inc, id, r).await?,
            Command::Leaderboard(v) => self.leaderboard(inc, &v, r).await?,
        }
        Ok(())
    }

    /// `rules VARIANT`: what the variant is, its seats and options, and its rules
    /// document.
    fn rules_text(&self, name: &str) -> Result<String, Fail> {
        let v = self.registry.get(name)?;
        let options: Vec<String> = v
            .options()
            .iter()
            .map(|o| format!("{} ({})", o.usage, o.help))
            .collect();
        let commands: Vec<&str> = v.commands().iter().map(|c| c.name).collect();
        // The full document as the link the operator configures, never a repository
        // path a chat user cannot open.
        let full = match &self.settings.rules_url {
            Some(url) => format!("The full rules: {url}{}.md", v.rules_document()),
            None => "Ask the operator for the full rules".to_string(),
        };
        Ok(format!(
            "{} ({}): {}\n{}\n{} player{}; commands: {}{}. {full}",
            v.display_name(),
            v.id(),
            v.summary(),
            v.rules_summary(),
            v.seats().count(),
            if v.seats().count() == 1 { "" } else { "s" },
            commands.join(", "),
            if options.is_empty() {
                String::new()
            } else {
                format!("; options: {}", options.join(", "))
            },
        ))
    }

    /// The display name of the variant `id`.
    fn display_name(&self, id: &str) -> &'static str {
        self.registry
            .find(id)
            .map_or("this game", |v| v.display_name())
    }
}
