//! The Discord adapter (`postal run`): turns gateway events into the service's text
//! commands and delivers the service's [`Outbound`] messages, with serenity 0.12. Like the
//! console it holds no game logic: a slash command, a button and a typed `!command` all
//! become one line of the service's grammar and go through [`Service::handle`].
//!
//! What it adds is Discord's: a public thread per game (opened when the game starts; the
//! game's messages go there), board images as PNG attachments, buttons for the answers
//! the referee offers ([`Outbound::buttons`]), ephemeral replies to commands that changed
//! nothing (errors, help, lists), deferral of slow interactions, messages split under
//! 2,000 characters, and private messages that fall back to `/private` when a user's DMs
//! are closed. It reads the referee's structured answers (the game a message is about,
//! its buttons), never its English, and names no variant: the slash commands are
//! generated from the registry's declarations ([`slash`]).
//!
//! Its parts: this module starts the bot and turns gateway events into commands;
//! `delivery` sends the service's messages; `interactions` answers slash commands,
//! buttons and autocompletion; [`slash`] and [`registration`] declare and register the
//! commands; [`text`] splits and formats messages; `faults` drops an event Discord sends
//! twice and holds every request back through a global rate limit.

mod buttons;
pub mod config;
mod delivery;
mod dm_channels;
mod embeds;
mod error;
mod faults;
mod interactions;
mod lapse;
mod lists;
pub mod logging;
mod messages;
mod monitor;
pub mod names;
mod places;
mod progress;
pub mod registration;
mod retitle;
pub mod shards;
pub mod slash;
pub mod text;

pub use config::Config;
pub use error::{BotError, SendError};

use delivery::*;

use crate::render::{RenderOptions, Renderer};
use crate::service::analysis_task::AnalysisTask;
use crate::service::command;
use crate::service::deadlines::{unix_now, DeadlineTask};
use crate::service::engine_task::EngineTask;
use crate::service::referee::adapter::{ChallengePost, GameRow, StoreError};
use crate::service::referee::{
    ChallengeMark, Destination, Incoming, Member, Outbound, Place, Queued, Resolved, Service,
    TypedCommands, View,
};
use crate::service::settings::Settings;
use crate::telemetry::Telemetry;
use crate::variants::api::ArgKind;
use crate::variants::Registry;
use buttons::{action_rows, button_text, buttons_of, Button, Press};
use serenity::all::{
    AutoArchiveDuration, AutocompleteChoice, ButtonStyle, ChannelId, ChannelType, Client,
    CommandDataOptionValue, CommandInteraction, ComponentInteraction, Context,
    CreateAllowedMentions, CreateAttachment, CreateAutocompleteResponse, CreateEmbed,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, CreateThread, EditMessage, EditThread, EventHandler, GatewayIntents, GuildId,
    Http, HttpBuilder, Interaction, InteractionId, Message, MessageId, Ready, ShardManager, UserId,
};
use serenity::builder::Builder;
use shards::ShardRange;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// The gateway intents the bot asks for: guild and direct messages, and, when `content`,
/// their content (a privileged intent, needed for text commands and moves typed in
/// threads; without it the bot is slash-only: slash commands, buttons, autocompletion).
pub fn intents(content: bool) -> GatewayIntents {
    let base =
        GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES | GatewayIntents::DIRECT_MESSAGES;
    if content {
        base | GatewayIntents::MESSAGE_CONTENT
    } else {
        base
    }
}

/// The start log's line on the Message Content intent.
const SLASH_ONLY: &str = "slash-only: slash commands, buttons and autocompletion work; text commands and bare moves in threads do not (turn on \"Message Content Intent\" under Bot in the developer portal and set message_content = true for them)";

/// Discord's limit on an attachment's size (without boosts), in bytes: a bigger
/// animation is left out.
const ATTACHMENT_LIMIT: usize = 10 * 1024 * 1024;

/// Discord shows at most this many autocompletion choices.
const CHOICES: usize = 25;
/// Discord's limit on an autocompletion choice's name and value, in characters.
const CHOICE_LIMIT: usize = 100;

/// The one line printed when there is no usable token.
pub const TOKEN_HELP: &str =
    "create an application at https://discord.com/developers/applications, \
add a bot, copy its token (Bot > Reset Token) and set DISCORD_TOKEN to it; see README.md";

/// An outbound message with Discord extras.
#[derive(Clone, Debug, Default)]
struct Out {
    msg: Outbound,
    buttons: Vec<Button>,
    /// A nonce Discord enforces, so that sending the same message again (an outbox
    /// message delivered just before a crash and not yet marked) is dropped by Discord.
    nonce: Option<String>,
    /// The user's message this one answers (a refusal, a look at the board): sent as a
    /// reply to it, which notifies nobody.
    reply_to: Option<(ChannelId, MessageId)>,
}

/// What the bot shares between events.
pub struct Core {
    service: Arc<Service>,
    renderer: Arc<Renderer>,
    cfg: Config,
    /// Held while a game starts (the acceptance is committed and the game moved to its
    /// thread), so that a deadline notice read in between is delivered after the move.
    starting: tokio::sync::Mutex<()>,
    /// The bot's own user id, for telling a mention of it.
    bot: UserId,
    /// The gateway events handled lately: a copy Discord sends again is dropped.
    seen: faults::Seen,
    /// Discord's global rate limit, which every request but an interaction's waits out.
    global: Arc<faults::GlobalLimit>,
    /// Each user's DM channel, once Discord gave it.
    dm_channels: dm_channels::DmChannels,
}

impl Core {
    /// Runs one command line for `user`, whose standing on the server (`member`) is as
    /// Discord's payload gave it ([`member_of`], [`author_of`]); returns the messages and
    /// whether the command changed anything.
    async fn process(
        &self,
        http: &Http,
        (user, member): (UserId, Member),
        (place, via, server): (Place, Option<String>, Option<GuildId>),
        text: String,
        event_id: String,
    ) -> Result<(Vec<Out>, bool), StoreError> {
        let user_key = user.to_string();
        let at = unix_now();
        // Any interaction reopens the user's DMs for another try.
        self.service.reopen_dms(&user_key, at).await?;
        // An acceptance starts a game once every seat is taken, and a challenge to a game
        // of one starts it at once: either may open a thread.
        let may_start = self.service.may_start_game(&text);
        let _starting = match may_start {
            true => Some(self.starting.lock().await),
            false => None,
        };
        let inc = Incoming {
            event_id,
            user: user_key,
            place: place.clone(),
            via,
            server: match place {
                Place::Channel(_) => server.map(|g| g.to_string()),
                Place::Dm => None,
            },
            text,
            at,
        };
        let (outs, changed) = self.service.handle_applied(inc, member).await?;
        let mut outs: Vec<Out> = outs
            .into_iter()
            .map(|msg| Out {
                buttons: buttons_of(&msg),
                msg,
                nonce: None,
                reply_to: None,
            })
            .collect();
        // A game gets its thread when it starts; if Discord refuses the thread then, the
        // game stays in its channel rather than moving under the players' feet later.
        // A game the referee started (a tournament's round) gets its thread in the channel
        // its start is announced in, wherever the command that started it was given.
        let mut channels: Vec<String> = Vec::new();
        if let (true, Place::Channel(c)) = (may_start, &place) {
            channels.push(c.clone());
        }
        for o in outs.iter().filter(|o| o.msg.started) {
            if let Destination::Channel(c) = &o.msg.to {
                if !channels.contains(c) {
                    channels.push(c.clone());
                }
            }
        }
        // (A tournament's command records no chat event of its own: its games are what
        // it changed.)
        if changed || outs.iter().any(|o| o.msg.started) {
            for c in channels {
                self.open_threads(http, &c, &mut outs).await?;
            }
        }
        Ok((outs, changed))
    }

    /// Gives each game that this command's messages to `channel` are about, and that has
    /// started there without a thread, its public thread; moves the game there, and sends
    /// the game's messages of this turn there instead, leaving a pointer. Only the games
    /// the command is about: one whose thread Discord refused earlier stays where it is.
    async fn open_threads(
        &self,
        http: &Http,
        channel: &str,
        outs: &mut Vec<Out>,
    ) -> Result<(), StoreError> {
        let here = Destination::Channel(channel.to_string());
        let about: Vec<i64> = outs
            .iter()
            .filter(|o| o.msg.to == here)
            .filter_map(|o| o.msg.game)
            .collect();
        if about.is_empty() {
            return Ok(());
        }
        let games = self.service.games_needing_thread(channel).await?;
        // A thread opens from a channel: a rematch asked for in its first game's thread
        // gets a thread of its own beside it.
        let parent = self.service.thread_parent(channel).await?;
        let Ok(parent) = parent.parse::<u64>() else {
            return Ok(());
        };
        for g in games.into_iter().filter(|g| about.contains(&g.id)) {
            let (title, players) = self.thread_title(http, &g).await;
            self.global.wait().await;
            let Some(thread) = create_thread(http, parent, &g, &title).await else {
                continue;
            };
            self.service.move_to_thread(g.id, channel, &thread).await?;
            move_to_thread(outs, &here, g.id, &thread, &players);
        }
        Ok(())
    }

    /// A game's thread title and how its pointer names the players: by display name, the
    /// one player of a game alone; else White's and Black's, or both partners of each
    /// team.
    async fn thread_title(&self, http: &Http, g: &GameRow) -> (String, String) {
        let mut names = Vec::new();
        for seat in 0..g.seats.len() as u8 {
            names.push(
                self.display_name(http, g.user_at(seat).unwrap_or("?"))
                    .await,
            );
        }
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let (title, players) = match names.as_slice() {
            [one] => (one.to_string(), one.to_string()),
            _ => {
                let [white, black] = self.service.side_names(g, &names);
                (
                    format!("{white} vs {black}"),
                    format!("{white} against {black}"),
                )
            }
        };
        // A tournament's game names the tournament, round and board first.
        match self.service.tournament_tag(g.id).await {
            Ok(Some(tag)) => (format!("{tag}: {title}"), players),
            _ => (title, players),
        }
    }

    /// A user's name as Discord shows it (a thread's name cannot hold a mention): as
    /// learnt from their events ([`names`]), else asked of Discord once (a player
    /// challenged who has not written yet); the key itself when Discord cannot say.
    async fn display_name(&self, http: &Http, key: &str) -> String {
        let known = self.service.name_of(key);
        if known != key {
            return known;
        }
        let Ok(id) = key.parse::<u64>() else {
            return key.to_string();
        };
        self.global.wait().await;
        match UserId::new(id).to_user(http).await {
            Ok(u) => {
                self.service.learn_name(key, names::shown_name(&u, None));
                self.service.name_of(key)
            }
            Err(e) => {
                tracing::warn!(user = key, error = %e, "cannot read a user's name");
                key.to_string()
            }
        }
    }

    async fn register(&self, http: &Http, joined: &[GuildId]) {
        registration::register(http, self.service.registry(), &self.cfg.guilds, joined).await;
    }
}

/// Opens game `g`'s public thread titled `title` under channel `parent`; its id, or
/// `None` when Discord refuses (logged: the game stays in its channel).
async fn create_thread(http: &Http, parent: u64, g: &GameRow, title: &str) -> Option<String> {
    let name = thread_name(g, title);
    let thread = ChannelId::new(parent)
        .create_thread(
            http,
            CreateThread::new(name)
                .kind(ChannelType::PublicThread)
                .auto_archive_duration(AutoArchiveDuration::OneWeek),
        )
        .await;
    match thread {
        Ok(t) => Some(t.id.to_string()),
        Err(e) => {
            tracing::warn!(game = g.id, error = %e, "cannot open a thread; the game stays in its channel");
            None
        }
    }
}

/// Game `g`'s thread name with `title` (its players, [`Core::thread_title`]):
/// `game #17 standard: Dave vs Erin`, cut to Discord's limit on a channel name.
fn thread_name(g: &GameRow, title: &str) -> String {
    format!("game #{} {}: {title}", g.id, g.variant)
        .chars()
        .take(100)
        .collect()
}

/// Sends game `game`'s messages to `here` in its new `thread` instead, and puts first a
/// pointer to the thread naming its `players`.
fn move_to_thread(outs: &mut Vec<Out>, here: &Destination, game: i64, thread: &str, players: &str) {
    for o in outs.iter_mut() {
        if &o.msg.to == here && o.msg.game == Some(game) {
            o.msg.to = Destination::Channel(thread.to_string());
        }
    }
    outs.insert(
        0,
        Out {
            msg: Outbound {
                to: here.clone(),
                text: format!("game #{game}: {players}, played in <#{thread}>"),
                game: Some(game),
                ..Outbound::default()
            },
            buttons: Vec::new(),
            nonce: None,
            reply_to: None,
        },
    );
}

/// The standing of an interaction's member on its server, from the payload: Manage Server
/// (or Administrator) in the permissions Discord computed for them in the channel, and
/// their roles. Nothing in a private message.
fn member_of(member: Option<&serenity::all::Member>) -> Member {
    let Some(m) = member else {
        return Member::default();
    };
    Member {
        manager: m.permissions.is_some_and(|p| {
            p.contains(serenity::all::Permissions::MANAGE_GUILD)
                || p.contains(serenity::all::Permissions::ADMINISTRATOR)
        }),
        roles: m.roles.iter().map(|r| r.to_string()).collect(),
    }
}

/// The standing of a typed message's author on its server: their roles, which the
/// message carries; not their permissions, which a message does not (a manager changes
/// settings with the slash command, whose payload has them).
fn author_of(msg: &Message) -> Member {
    Member {
        manager: false,
        roles: msg
            .member
            .as_ref()
            .map(|m| m.roles.iter().map(|r| r.to_string()).collect())
            .unwrap_or_default(),
    }
}

fn place_of(guild: Option<GuildId>, channel: ChannelId) -> Place {
    match guild {
        Some(_) => Place::Channel(channel.to_string()),
        None => Place::Dm,
    }
}

fn origin_of(place: &Place, user: UserId) -> Destination {
    match place {
        Place::Channel(c) => Destination::Channel(c.clone()),
        Place::Dm => Destination::Dm(user.to_string()),
    }
}

/// The serenity event handler: every event goes to [`Core`].
struct Handler {
    core: Arc<Core>,
    /// The first shard this process runs: its READY registers the slash commands (once
    /// per process and connection, not once per shard).
    first_shard: u32,
}

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        let shard = ready.shard.map_or(0, |s| s.id.0);
        tracing::info!(user = %ready.user.name, shard, "connected to Discord");
        if shard == self.first_shard {
            let joined: Vec<GuildId> = ready.guilds.iter().map(|g| g.id).collect();
            self.core.register(&ctx.http, &joined).await;
        }
    }

    async fn message(&self, ctx: Context, msg: Message) {
        if self.core.seen.first_time(msg.id.get()) {
            self.core.on_message(&ctx, &msg).await;
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        if !self.core.seen.first_time(interaction.id().get()) {
            return;
        }
        match interaction {
            Interaction::Command(c) => self.core.on_command(&ctx, &c).await,
            Interaction::Component(c) => self.core.on_component(&ctx, &c).await,
            Interaction::Autocomplete(a) => self.core.on_autocomplete(&ctx, &a).await,
            _ => {}
        }
    }

    /// Serenity's rate limiter met a 429 (or waits before a request): a global one holds
    /// back every request of the bot's own ([`faults::GlobalLimit`]).
    async fn ratelimit(&self, info: serenity::http::RatelimitInfo) {
        self.core.service.telemetry().rate_limited(info.global);
        if info.global {
            self.core.global.hold(info.timeout);
        }
    }
}

/// Builds the REST client: Discord's, or the one at `api_base` (a proxy base such as
/// `http://127.0.0.1:4000`; serenity only honours it with its rate limiter off, so the
/// limits are then the server's business).
pub fn http(token: &str, api_base: &str) -> Http {
    let b = HttpBuilder::new(token);
    if api_base.is_empty() {
        b.build()
    } else {
        b.proxy(api_base.trim_end_matches('/'))
            .ratelimiter_disabled(true)
            .build()
    }
}

/// A running bot.
pub struct Bot {
    /// The shard manager of the client running now (replaced when the bot restarts
    /// slash-only).
    shards: Arc<std::sync::Mutex<Arc<ShardManager>>>,
    client: tokio::task::JoinHandle<Result<(), BotError>>,
    deadlines: DeadlineTask,
    delivery: tokio::task::JoinHandle<()>,
    /// The engine analyses of finished games, made in the background.
    analyses: AnalysisTask,
    /// The engine's turns in games against the bot, played in the background.
    engine_turns: EngineTask,
    core: Arc<Core>,
    /// The metrics and health listener, when one was asked for: its address and task.
    monitor: Option<(std::net::SocketAddr, tokio::task::JoinHandle<()>)>,
}

impl Bot {
    /// Opens the database of `settings` (applying migrations), checks the token,
    /// connects to the gateway and starts the deadline checks. New games draw from
    /// `settings.seed` as given (a test chooses its draws); [`run`] has none.
    pub async fn start(settings: Settings, cfg: Config, token: &str) -> Result<Bot, BotError> {
        let token = token.trim();
        if token.is_empty() {
            return Err(BotError::EmptyToken);
        }
        let http = http(token, &cfg.api_base);
        Bot::start_with(settings, cfg, http).await
    }

    /// [`Bot::start`] with a REST client built by the caller (a test may point one at a
    /// local server while keeping serenity's rate limiter).
    pub async fn start_with(settings: Settings, cfg: Config, http: Http) -> Result<Bot, BotError> {
        Bot::start_with_registry(settings, cfg, http, Registry::builtin()).await
    }

    /// [`Bot::start_with`] playing the variants of `registry` (the built-in ones and a
    /// test's own): its slash commands, choices and suggestions are those of `registry`.
    pub async fn start_with_registry(
        settings: Settings,
        cfg: Config,
        http: Http,
        registry: Registry,
    ) -> Result<Bot, BotError> {
        let metrics_addr = cfg
            .metrics_listener()
            .map_err(|e| BotError::Config(Box::new(e)))?;
        let telemetry = match metrics_addr {
            Some(_) => Telemetry::prometheus(),
            None => Telemetry::off(),
        };
        let service = open_service(settings, &cfg, &http, registry)
            .await?
            .with_telemetry(telemetry.clone());
        let (bot, shards) = closing_on_error(&service, check_discord(&http, &cfg).await).await?;
        // The bot itself plays the engine's seat: challenging it challenges the engine.
        service.set_engine_user(&bot.to_string());
        let renderer = prepare_board_images(service.registry());
        let core = Arc::new(Core {
            service: Arc::new(service),
            renderer,
            starting: tokio::sync::Mutex::new(()),
            bot,
            cfg,
            seen: faults::Seen::default(),
            global: Arc::default(),
            dm_channels: Default::default(),
        });
        let content = core.cfg.message_content;
        log_intents(content);
        let client = serenity::all::ClientBuilder::new_with_http(http, intents(content))
            .event_handler(Handler {
                core: core.clone(),
                first_shard: shards.first(),
            })
            .await;
        let client = client.map_err(|e| BotError::Client(Box::new(e)));
        let client = closing_on_error(&core.service, client).await?;
        let manager = Arc::new(std::sync::Mutex::new(client.shard_manager.clone()));
        let monitor = match metrics_addr {
            Some(addr) => {
                let probe = monitor::Probe {
                    telemetry,
                    service: core.service.clone(),
                    shards: manager.clone(),
                    expected_shards: shards.last() - shards.first() + 1,
                };
                Some(serve_metrics(addr, probe, &core).await?)
            }
            None => None,
        };
        let http = client.http.clone();
        let client = tokio::spawn(connect(client, shards, manager.clone(), core.clone()));
        let (deadlines, delivery) = start_deadlines(&core, http);
        let every = Duration::from_secs(core.cfg.tick_seconds);
        let lease = core.service.analysis_lease_seconds();
        let analyses = AnalysisTask::spawn(core.service.clone(), every, lease);
        let engine_turns = EngineTask::spawn(core.service.clone(), every);
        Ok(Bot {
            shards: manager,
            client,
            deadlines,
            delivery,
            analyses,
            engine_turns,
            core,
            monitor,
        })
    }

    /// The address the metrics and health listener serves on, when there is one.
    pub fn metrics_addr(&self) -> Option<std::net::SocketAddr> {
        self.monitor.as_ref().map(|(addr, _)| *addr)
    }

    /// Runs until the connection ends (an error) or `stop` resolves (a clean shutdown).
    pub async fn run_until(mut self, stop: impl Future<Output = ()>) -> Result<(), BotError> {
        let result = tokio::select! {
            r = &mut self.client => Some(r.unwrap_or_else(|e| Err(BotError::Task(e)))),
            _ = stop => None,
        };
        match result {
            Some(r) => {
                if let Some((_, task)) = self.monitor.take() {
                    task.abort();
                }
                self.analyses.stop().await;
                self.engine_turns.stop().await;
                stop_deadlines(self.deadlines, self.delivery).await;
                self.core.service.close().await;
                r
            }
            None => {
                self.stop().await;
                Ok(())
            }
        }
    }

    /// Stops the deadline checks (delivering what they found), disconnects and closes
    /// the database.
    pub async fn stop(self) {
        if let Some((_, task)) = self.monitor {
            task.abort();
        }
        self.analyses.stop().await;
        self.engine_turns.stop().await;
        stop_deadlines(self.deadlines, self.delivery).await;
        let manager = self
            .shards
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        manager.shutdown_all().await;
        let _ = tokio::time::timeout(Duration::from_secs(5), self.client).await;
        self.core.service.close().await;
    }
}

/// Checks the token with Discord's REST API and resolves the shards to run: the bot's
/// own user id and the range.
async fn check_discord(http: &Http, cfg: &Config) -> Result<(UserId, ShardRange), BotError> {
    let bot = match http.get_current_user().await {
        Ok(me) => me.id,
        Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)))
            if r.status_code.as_u16() == 401 =>
        {
            return Err(BotError::TokenRejected);
        }
        Err(e) => return Err(BotError::Unreachable(Box::new(e))),
    };
    let shards = cfg.shards.resolve(http).await?;
    Ok((bot, shards))
}

/// Every board shape's assets, prepared in the background from the start, off the async
/// runtime's threads, so that the bot connects to Discord at once rather than after them
/// (issue 57: they took 95% of a start). A board drawn before its shape is ready prepares
/// what it needs itself, as [`Renderer`] allows (two preparations of a shape racing keep
/// one), so no interaction waits for the other shapes.
fn prepare_board_images(registry: &Registry) -> Arc<Renderer> {
    let shapes = registry.board_shapes();
    let renderer = Arc::new(Renderer::default());
    let preparing = renderer.clone();
    let started = std::time::Instant::now();
    tokio::task::spawn_blocking(move || {
        preparing.prepare_all(&shapes, &RenderOptions::default());
        tracing::info!(
            shapes = shapes.len(),
            ms = started.elapsed().as_millis() as u64,
            "board images prepared"
        );
    });
    renderer
}

/// Runs the gateway connection of `client` until it ends; refused the privileged
/// Message Content intent, starts again without it (its shard manager put in `slot`).
async fn connect(
    mut client: Client,
    shards: ShardRange,
    slot: Arc<std::sync::Mutex<Arc<ShardManager>>>,
    core: Arc<Core>,
) -> Result<(), BotError> {
    use serenity::gateway::GatewayError;
    let first = shards.start(&mut client).await;
    let result = match first {
        Err(serenity::Error::Gateway(GatewayError::DisallowedGatewayIntents))
            if core.cfg.message_content =>
        {
            tracing::warn!("Discord refused the Message Content intent; {SLASH_ONLY}");
            let http = self::http(client.http.token(), &core.cfg.api_base);
            let retry = serenity::all::ClientBuilder::new_with_http(http, intents(false))
                .event_handler(Handler {
                    first_shard: shards.first(),
                    core,
                })
                .await;
            let mut retry = retry.map_err(|e| BotError::Client(Box::new(e)))?;
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = retry.shard_manager.clone();
            shards.start(&mut retry).await
        }
        r => r,
    };
    result.map_err(|e| match e {
        serenity::Error::Gateway(GatewayError::InvalidAuthentication) => BotError::TokenRejected,
        serenity::Error::Gateway(GatewayError::DisallowedGatewayIntents) => {
            BotError::IntentNotEnabled
        }
        e => BotError::Connection(Box::new(e)),
    })
}

/// Starts the reminders and timeouts: the service's deadline task checks, and a loop
/// delivers what it finds through `http`.
fn start_deadlines(
    core: &Arc<Core>,
    http: Arc<Http>,
) -> (DeadlineTask, tokio::task::JoinHandle<()>) {
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Queued>(64);
    let every = Duration::from_secs(core.cfg.tick_seconds);
    let days = Some(core.cfg.event_key_days);
    let deadlines = DeadlineTask::spawn_pruning(core.service.clone(), every, unix_now, tx, days);
    let delivery_core = core.clone();
    let delivery = tokio::spawn(async move {
        while let Some(queued) = rx.recv().await {
            delivery_core.deliver_notice(&http, queued).await;
        }
    });
    (deadlines, delivery)
}

/// Lets the deadline check in progress finish and its messages go out, then ends the
/// deadline task and its delivery loop (which ends when the task drops its sender).
async fn stop_deadlines(task: DeadlineTask, mut delivery: tokio::task::JoinHandle<()>) {
    let stats = task.stop().await;
    tracing::info!(
        checks = stats.checks,
        sent = stats.sent,
        "deadline checks stopped"
    );
    if tokio::time::timeout(Duration::from_secs(10), &mut delivery)
        .await
        .is_err()
    {
        delivery.abort();
    }
}

/// `postal run`: the bot until Ctrl-C or SIGTERM, logging with `tracing` (`RUST_LOG` filters).
pub async fn run(settings: Settings, cfg: Config, token: Option<String>) -> Result<(), BotError> {
    let token = token.ok_or(BotError::NoToken)?;
    tracing::info!(
        database = %settings.database_name(),
        api = if cfg.api_base.is_empty() { "discord.com" } else { cfg.api_base.as_str() },
        "starting"
    );
    // Every draw, public or hidden, comes from the operating system's entropy: the bot
    // never has a seed anyone could search for.
    let settings = Settings {
        seed: None,
        ..settings
    };
    // Listening before the start: a SIGTERM while the bot connects stops it cleanly.
    let stop = crate::service::shutdown::StopSignal::listen();
    let bot = Bot::start(settings, cfg, &token).await?;
    bot.run_until(async {
        let which = stop.wait().await;
        tracing::info!("{which}: shutting down");
    })
    .await
}

/// The bot's service over the database of `settings` playing `registry`, finding places
/// through Discord's REST API (`http`'s token, `cfg`'s base) and with `cfg`'s prefix.
async fn open_service(
    settings: Settings,
    cfg: &Config,
    http: &Http,
    registry: Registry,
) -> Result<Service, BotError> {
    let url = settings.database_url.clone();
    let name = settings.database_name();
    let places = places::DiscordPlaces(self::http(http.token(), &cfg.api_base));
    Ok(Service::open(&url, settings, registry)
        .await
        .map_err(|error| BotError::Database { url: name, error })?
        .with_places(Arc::new(places))
        .with_default_prefix(&cfg.prefix))
}

/// `result`, the service closed first when it is a failure (a start refused after the
/// database was opened).
async fn closing_on_error<T>(
    service: &Service,
    result: Result<T, BotError>,
) -> Result<T, BotError> {
    if result.is_err() {
        service.close().await;
    }
    result
}

/// Says in the log whether the bot asks for the Message Content intent (typed commands
/// and bare moves) or reads slash commands only.
fn log_intents(content: bool) {
    if content {
        tracing::info!(
            "asking for the Message Content intent (text commands and bare moves in threads)"
        );
    } else {
        tracing::warn!("{SLASH_ONLY}");
    }
}

/// Serves the operator's metrics and health listener on `addr` with `probe`; when it
/// cannot, the bot's service is closed and the start refused.
async fn serve_metrics(
    addr: std::net::SocketAddr,
    probe: monitor::Probe,
    core: &Core,
) -> Result<(std::net::SocketAddr, tokio::task::JoinHandle<()>), BotError> {
    let serving = monitor::serve(addr, probe, monitor::Limits::bot()).await;
    let serving = serving.map_err(|error| BotError::Metrics { addr, error });
    closing_on_error(&core.service, serving).await
}
