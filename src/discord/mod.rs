//! The Discord adapter (`postal run`): turns gateway events into the service's text
//! commands and delivers the service's [`Outbound`] messages, with serenity 0.12. Like the
//! console it holds no game logic: a slash command, a button and a typed `!command` all
//! become one line of the service's grammar and go through [`Service::handle`].
//!
//! What it adds is Discord's: a public thread per game (opened when a challenge is
//! accepted; the game's messages go there), board images as PNG attachments, buttons for
//! yes/no answers, ephemeral replies to commands that changed nothing (errors, help,
//! lists), deferral of slow interactions, messages split under 2,000 characters, and
//! private messages that fall back to `/private` when a user's DMs are closed.

pub mod config;
pub mod slash;
pub mod text;

pub use config::Config;

use crate::render::{RenderOptions, Renderer};
use crate::service::command::{self, Answer, Command};
use crate::service::deadlines::{unix_now, DeadlineTask};
use crate::service::referee::{Destination, Incoming, Outbound, Place, Queued, Service};
use crate::service::settings::Settings;
use crate::service::View;
use crate::store::Store;
use serenity::all::{
    AutoArchiveDuration, AutocompleteChoice, ButtonStyle, ChannelId, ChannelType,
    CommandDataOptionValue, CommandInteraction, ComponentInteraction, Context, CreateActionRow,
    CreateAllowedMentions, CreateAttachment, CreateAutocompleteResponse, CreateButton,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, CreateThread, EventHandler, GatewayIntents, GuildId, Http, HttpBuilder,
    Interaction, InteractionId, Message, Ready, ShardManager, UserId,
};
use serenity::builder::Builder;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// The gateway intents the bot asks for: guild and direct messages, and their content
/// (a privileged intent, needed for text commands and moves typed in threads).
pub fn intents() -> GatewayIntents {
    GatewayIntents::GUILDS
        | GatewayIntents::GUILD_MESSAGES
        | GatewayIntents::DIRECT_MESSAGES
        | GatewayIntents::MESSAGE_CONTENT
}

/// Discord shows at most this many autocompletion choices.
const CHOICES: usize = 25;
/// Discord's limit on an autocompletion choice's name and value, in characters.
const CHOICE_LIMIT: usize = 100;

/// What the service's public message says when an opposing chooser must decide.
const DECISION_ASKED: &str = "to decide piece or target";

/// The one line printed when there is no usable token.
pub const TOKEN_HELP: &str =
    "create an application at https://discord.com/developers/applications, \
add a bot, copy its token (Bot > Reset Token) and set DISCORD_TOKEN to it; see README.md";

/// A button under a message: what it says, and the command line it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Button {
    id: String,
    label: &'static str,
    style: ButtonStyle,
}

/// An outbound message with Discord extras.
#[derive(Clone, Debug)]
struct Out {
    msg: Outbound,
    buttons: Vec<Button>,
    /// A nonce Discord enforces, so that sending the same message again (an outbox
    /// message delivered just before a crash and not yet marked) is dropped by Discord.
    nonce: Option<String>,
}

/// `m`, piece `i` of `out`, with `out`'s nonce (one per piece) if it has one.
fn with_nonce(m: CreateMessage, out: &Out, i: usize) -> CreateMessage {
    match &out.nonce {
        Some(n) => m
            .nonce(serenity::all::Nonce::String(format!("{n}-{i}")))
            .enforce_nonce(true),
        None => m,
    }
}

fn buttons_for(cmd: &Command, game: i64) -> Vec<Button> {
    let b = |id: String, label, style| Button { id, label, style };
    match cmd {
        Command::Challenge { .. } => vec![
            b(format!("accept:{game}"), "Accept", ButtonStyle::Success),
            b(format!("decline:{game}"), "Decline", ButtonStyle::Danger),
        ],
        Command::Draw(_, Answer::Offer) => vec![
            b(
                format!("draw-accept:{game}"),
                "Accept draw",
                ButtonStyle::Success,
            ),
            b(
                format!("draw-decline:{game}"),
                "Decline draw",
                ButtonStyle::Danger,
            ),
        ],
        Command::FastFifty(_, Answer::Offer) => vec![
            b(
                format!("ff-accept:{game}"),
                "Accept fast-fifty",
                ButtonStyle::Success,
            ),
            b(
                format!("ff-reject:{game}"),
                "Reject fast-fifty",
                ButtonStyle::Danger,
            ),
        ],
        _ => Vec::new(),
    }
}

/// The command line a button stands for, when `presser` may press it. A resignation
/// button carries the user who asked to resign, and nobody else may confirm it.
fn button_text(custom_id: &str, presser: UserId) -> Result<String, &'static str> {
    const STALE: &str = "this button is not mine any more";
    let mut parts = custom_id.split(':');
    let (Some(what), Some(game)) = (parts.next(), parts.next()) else {
        return Err(STALE);
    };
    let game: i64 = game.parse().map_err(|_| STALE)?;
    let owner = parts.next();
    Ok(match (what, owner) {
        ("accept", None) => format!("accept {game}"),
        ("decline", None) => format!("decline {game}"),
        ("draw-accept", None) => format!("draw {game} accept"),
        ("draw-decline", None) => format!("draw {game} decline"),
        ("ff-accept", None) => format!("fastfifty {game} accept"),
        ("ff-reject", None) => format!("fastfifty {game} reject"),
        ("resign", Some(owner)) if owner == presser.to_string() => format!("resign {game}"),
        ("resign", Some(_)) => {
            return Err("only the player who asked to resign can confirm it; nothing was done")
        }
        ("decide-piece" | "decide-target", Some(owner)) if owner == presser.to_string() => {
            format!("decide {game} {}", &what["decide-".len()..])
        }
        ("decide-piece" | "decide-target", Some(_)) => {
            return Err(
                "only the opposing chooser who must decide can press this; nothing was done",
            )
        }
        _ => return Err(STALE),
    })
}

fn action_rows(buttons: &[Button]) -> Vec<CreateActionRow> {
    if buttons.is_empty() {
        return Vec::new();
    }
    vec![CreateActionRow::Buttons(
        buttons
            .iter()
            .map(|b| {
                CreateButton::new(b.id.clone())
                    .label(b.label)
                    .style(b.style)
            })
            .collect(),
    )]
}

fn allowed_mentions() -> CreateAllowedMentions {
    CreateAllowedMentions::new().all_users(true)
}

/// Draws a service view's board as a PNG, off the async runtime's threads.
async fn board_png(renderer: &Arc<Renderer>, view: &View) -> Option<Vec<u8>> {
    let renderer = renderer.clone();
    let board = view.board.clone();
    tokio::task::spawn_blocking(move || renderer.render_png(&board, &RenderOptions::default()))
        .await
        .ok()
}

/// What the bot shares between events.
pub struct Core {
    service: Arc<Service>,
    renderer: Arc<Renderer>,
    cfg: Config,
    /// Held while a game starts (the acceptance is committed and the game moved to its
    /// thread), so that a deadline notice read in between is delivered after the move.
    starting: tokio::sync::Mutex<()>,
}

impl Core {
    fn store(&self) -> &Store {
        self.service.store()
    }

    /// Runs one command line for `user`; returns the messages, whether the command
    /// changed anything, and the parsed command.
    async fn process(
        &self,
        http: &Http,
        user: UserId,
        place: Place,
        text: String,
        event_id: String,
    ) -> Result<(Vec<Out>, bool), String> {
        let user_key = user.to_string();
        let at = unix_now();
        // Any interaction reopens the user's DMs for another try.
        self.store()
            .set_dm_closed(&user_key, false, at)
            .await
            .map_err(|e| e.to_string())?;
        let parsed = command::parse(&text).ok();
        let _starting = match parsed {
            Some(Command::Accept(_)) => Some(self.starting.lock().await),
            _ => None,
        };
        let inc = Incoming {
            event_id: event_id.clone(),
            user: user_key,
            place: place.clone(),
            text,
            at,
        };
        let outs = self.service.handle(inc).await.map_err(|e| e.to_string())?;
        let changed = self
            .store()
            .event_seen(&event_id)
            .await
            .map_err(|e| e.to_string())?;
        let mut outs: Vec<Out> = outs
            .into_iter()
            .map(|msg| {
                let buttons = match (&parsed, changed, text::game_id(&msg.text)) {
                    (Some(cmd), true, Some(g)) => buttons_for(cmd, g),
                    _ => Vec::new(),
                };
                Out {
                    msg,
                    buttons,
                    nonce: None,
                }
            })
            .collect();
        if changed {
            self.add_decision_buttons(&mut outs).await?;
        }
        // A game gets its thread when it starts; if Discord refuses the thread then, the
        // game stays in its channel rather than moving under the players' feet later.
        if changed && matches!(parsed, Some(Command::Accept(_))) {
            if let Place::Channel(c) = &place {
                self.open_threads(http, c, &mut outs).await?;
            }
        }
        Ok((outs, changed))
    }

    /// Puts the buttons "Piece stands" and "Target stands" under the public message that
    /// asks a split-brain game's opposing chooser to decide; only that player may press
    /// them (their user id is in the buttons' ids).
    async fn add_decision_buttons(&self, outs: &mut [Out]) -> Result<(), String> {
        for o in outs.iter_mut() {
            let Some(g) = text::game_id(&o.msg.text) else {
                continue;
            };
            if !matches!(o.msg.to, Destination::Channel(_)) || !o.msg.text.contains(DECISION_ASKED)
            {
                continue;
            }
            let Some(game) = self.store().game(g).await.map_err(|e| e.to_string())? else {
                continue;
            };
            let Ok(rules) = crate::service::referee::load(&game) else {
                continue;
            };
            let decider = rules
                .awaiting()
                .into_iter()
                .find(|(_, p)| *p == crate::service::rules::Prompt::Decide)
                .and_then(|(seat, _)| game.user_at(seat.0).map(str::to_string));
            if let Some(user) = decider {
                o.buttons = vec![
                    Button {
                        id: format!("decide-piece:{g}:{user}"),
                        label: "Piece stands",
                        style: ButtonStyle::Primary,
                    },
                    Button {
                        id: format!("decide-target:{g}:{user}"),
                        label: "Target stands",
                        style: ButtonStyle::Primary,
                    },
                ];
            }
        }
        Ok(())
    }

    /// Gives every newly started game in `channel` its public thread, moves the game
    /// there, and sends the game's messages of this turn there instead, leaving a pointer.
    async fn open_threads(
        &self,
        http: &Http,
        channel: &str,
        outs: &mut Vec<Out>,
    ) -> Result<(), String> {
        let games = self
            .store()
            .games_needing_thread(channel)
            .await
            .map_err(|e| e.to_string())?;
        let Ok(parent) = channel.parse::<u64>() else {
            return Ok(());
        };
        for g in games {
            // White's and Black's players by display name: the two names, or both
            // partners of each team.
            let mut names = Vec::new();
            for seat in 0..g.seats.len() as u8 {
                names.push(
                    self.display_name(http, g.user_at(seat).unwrap_or("?"))
                        .await,
                );
            }
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let [white, black] = match crate::service::referee::load(&g) {
                Ok(rules) => rules.side_names(&names),
                Err(_) => ["?".to_string(), "?".to_string()],
            };
            // Discord's limit on a channel name.
            let name: String = format!("game #{} {}: {white} vs {black}", g.id, g.variant)
                .chars()
                .take(100)
                .collect();
            let thread = ChannelId::new(parent)
                .create_thread(
                    http,
                    CreateThread::new(name)
                        .kind(ChannelType::PublicThread)
                        .auto_archive_duration(AutoArchiveDuration::OneWeek),
                )
                .await;
            let thread = match thread {
                Ok(t) => t.id.to_string(),
                Err(e) => {
                    tracing::warn!(game = g.id, error = %e, "cannot open a thread; the game stays in its channel");
                    continue;
                }
            };
            self.store()
                .move_to_thread(g.id, channel, &thread)
                .await
                .map_err(|e| e.to_string())?;
            for o in outs.iter_mut() {
                if o.msg.to == Destination::Channel(channel.to_string())
                    && text::game_id(&o.msg.text) == Some(g.id)
                {
                    o.msg.to = Destination::Channel(thread.clone());
                }
            }
            outs.insert(
                0,
                Out {
                    msg: Outbound {
                        to: Destination::Channel(channel.to_string()),
                        text: format!(
                            "game #{}: {white} against {black}, played in <#{thread}>",
                            g.id
                        ),
                        image: None,
                    },
                    buttons: Vec::new(),
                    nonce: None,
                },
            );
        }
        Ok(())
    }

    /// A user's name as Discord shows it (a thread's name cannot hold a mention); the
    /// key itself when Discord cannot say.
    async fn display_name(&self, http: &Http, key: &str) -> String {
        let Ok(id) = key.parse::<u64>() else {
            return key.to_string();
        };
        match UserId::new(id).to_user(http).await {
            Ok(u) => u.display_name().to_string(),
            Err(e) => {
                tracing::warn!(user = key, error = %e, "cannot read a user's name");
                key.to_string()
            }
        }
    }

    async fn png(&self, view: &Option<View>) -> Option<CreateAttachment> {
        let view = view.clone()?;
        board_png(&self.renderer, &view)
            .await
            .map(|bytes| CreateAttachment::bytes(bytes, "board.png"))
    }

    /// Sends one message to a channel, split under the limit; the image and buttons go
    /// with the last piece.
    async fn send_channel(&self, http: &Http, channel: &str, out: &Out) -> Result<(), String> {
        let Ok(id) = channel.parse::<u64>() else {
            return Err(format!("bad channel id {channel}"));
        };
        let pieces = text::split(&text::mentions(&out.msg.text), text::MESSAGE_LIMIT);
        let n = pieces.len();
        let file = self.png(&out.msg.image).await;
        if n == 0 && file.is_none() {
            return Ok(());
        }
        let pieces = if n == 0 { vec![String::new()] } else { pieces };
        let last = pieces.len() - 1;
        for (i, p) in pieces.into_iter().enumerate() {
            let mut m = with_nonce(
                CreateMessage::new()
                    .content(p)
                    .allowed_mentions(allowed_mentions()),
                out,
                i,
            );
            if i == last {
                if let Some(f) = &file {
                    m = m.add_file(f.clone());
                }
                m = m.components(action_rows(&out.buttons));
            }
            ChannelId::new(id)
                .send_message(http, m)
                .await
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Sends a private message; when the user's DMs are closed (50007), keeps it for
    /// `/private`, says so where the game is (without the content), and stops trying
    /// until the user interacts again.
    async fn send_dm(
        &self,
        http: &Http,
        user: &str,
        out: &Out,
        origin: Option<&str>,
    ) -> Result<(), String> {
        let store = self.store();
        let closed = store.dm_closed(user).await.map_err(|e| e.to_string())?;
        if !closed {
            let Ok(uid) = user.parse::<u64>() else {
                return Err(format!("bad user id {user}"));
            };
            match self.try_dm(http, UserId::new(uid), out).await {
                Ok(()) => return Ok(()),
                Err(serenity::Error::Http(e)) if dm_refused(&e) => {
                    store
                        .set_dm_closed(user, true, unix_now())
                        .await
                        .map_err(|e| e.to_string())?;
                }
                Err(e) => return Err(e.to_string()),
            }
        }
        store
            .hold_message(user, &out.msg.text, unix_now())
            .await
            .map_err(|e| e.to_string())?;
        if closed {
            return Ok(());
        }
        // Where to say so: where the user spoke, else the game's home.
        let place = match (origin, text::game_id(&out.msg.text)) {
            (Some(c), _) => Some(c.to_string()),
            (None, Some(g)) => self.home_of(g).await?,
            (None, None) => None,
        };
        if let Some(c) = place {
            let note = Out {
                msg: Outbound {
                    to: Destination::Channel(c.clone()),
                    text: format!(
                        "<@{user}>: I could not send you a private message (your DMs are closed). \
                         Use /{} to read it; only you will see it.",
                        slash::PRIVATE
                    ),
                    image: None,
                },
                buttons: Vec::new(),
                nonce: None,
            };
            self.send_channel(http, &c, &note).await?;
        }
        Ok(())
    }

    /// Where game `id`'s messages go: its thread, else its channel.
    async fn home_of(&self, id: i64) -> Result<Option<String>, String> {
        let store = self.store();
        if let Some((thread, _)) = store.thread_of(id).await.map_err(|e| e.to_string())? {
            return Ok(Some(thread));
        }
        let game = store.game(id).await.map_err(|e| e.to_string())?;
        Ok(game.and_then(|g| g.channel))
    }

    /// Delivers a reminder or timeout from the deadline task's outbox with its enforced
    /// nonce, then marks it delivered (a failed send is logged and marked, not retried
    /// at every check). One produced from a game read just before the game moved to its
    /// thread still goes to the thread, and so does the note about a private message
    /// that could not be sent.
    async fn deliver_notice(&self, http: &Http, queued: Queued) {
        // A game starting now is in its thread once this lock is free.
        drop(self.starting.lock().await);
        let Queued { id, mut message } = queued;
        if let (Destination::Channel(c), Some(g)) = (&message.to, text::game_id(&message.text)) {
            match self.store().thread_of(g).await {
                Ok(Some((thread, parent))) if &parent == c => {
                    message.to = Destination::Channel(thread)
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "cannot look up a game's thread"),
            }
        }
        let out = Out {
            msg: message,
            buttons: Vec::new(),
            nonce: Some(format!("postal-{id}")),
        };
        self.deliver(http, std::slice::from_ref(&out), None).await;
        if let Err(e) = self.service.delivered(id, unix_now()).await {
            tracing::error!(error = %e, "cannot mark a message delivered");
        }
    }

    async fn try_dm(&self, http: &Http, user: UserId, out: &Out) -> serenity::Result<()> {
        let dm = user.create_dm_channel(http).await?;
        let pieces = text::split(&text::mentions(&out.msg.text), text::MESSAGE_LIMIT);
        let file = self.png(&out.msg.image).await;
        let last = pieces.len().saturating_sub(1);
        for (i, p) in pieces.into_iter().enumerate() {
            let mut m = with_nonce(CreateMessage::new().content(p), out, i);
            if i == last {
                if let Some(f) = &file {
                    m = m.add_file(f.clone());
                }
            }
            dm.id.send_message(http, m).await?;
        }
        Ok(())
    }

    /// Delivers messages; `origin` is the channel the triggering event came from.
    async fn deliver(&self, http: &Http, outs: &[Out], origin: Option<&str>) {
        for o in outs {
            let r = match &o.msg.to {
                Destination::Channel(c) => self.send_channel(http, c, o).await,
                Destination::Dm(u) => self.send_dm(http, u, o, origin).await,
            };
            if let Err(e) = r {
                tracing::warn!(error = %e, "a message could not be delivered");
            }
        }
    }

    async fn on_message(&self, ctx: &Context, msg: &Message) {
        if msg.author.bot {
            return;
        }
        let content = msg.content.trim();
        let dm = msg.guild_id.is_none();
        let (text, place) = if let Some(rest) = content.strip_prefix(self.cfg.prefix.as_str()) {
            let place = if dm {
                Place::Dm
            } else {
                Place::Channel(msg.channel_id.to_string())
            };
            (rest.trim().to_string(), place)
        } else if dm {
            (content.to_string(), Place::Dm)
        } else {
            // A bare move, in a game's thread only.
            let channel = msg.channel_id.to_string();
            let in_thread = self.store().is_game_thread(&channel).await.unwrap_or(false);
            if !in_thread || !text::looks_like_move(content) {
                return;
            }
            (content.to_string(), Place::Channel(channel))
        };
        if text.is_empty() {
            return;
        }
        let origin = match &place {
            Place::Channel(c) => Some(c.clone()),
            Place::Dm => None,
        };
        match self
            .process(
                &ctx.http,
                msg.author.id,
                place,
                text,
                format!("msg:{}", msg.id),
            )
            .await
        {
            Ok((outs, _)) => self.deliver(&ctx.http, &outs, origin.as_deref()).await,
            Err(e) => tracing::error!(error = %e, "a message could not be handled"),
        }
    }

    /// Acknowledges an interaction: answers at once when `work` is quick, otherwise
    /// defers (ephemerally) after `defer_after_ms` and follows up.
    async fn answer<F>(&self, http: &Http, id: InteractionId, token: &str, component: bool, work: F)
    where
        F: Future<Output = Result<Reply, String>>,
    {
        tokio::pin!(work);
        let wait = Duration::from_millis(self.cfg.defer_after_ms);
        let (reply, deferred) = tokio::select! {
            r = &mut work => (r, false),
            _ = tokio::time::sleep(wait) => {
                let defer = if component {
                    CreateInteractionResponse::Acknowledge
                } else {
                    CreateInteractionResponse::Defer(
                        CreateInteractionResponseMessage::new().ephemeral(true),
                    )
                };
                if let Err(e) = defer.execute(http, (id, token)).await {
                    tracing::warn!(error = %e, "cannot defer an interaction");
                }
                (work.await, true)
            }
        };
        let reply = reply.unwrap_or_else(|e| {
            tracing::error!(error = %e, "an interaction could not be handled");
            Reply::private("something went wrong on my side; nothing was done, please try again")
        });
        if let Err(e) = self.send_reply(http, id, token, reply, deferred).await {
            tracing::warn!(error = %e, "cannot answer an interaction");
        }
    }

    async fn send_reply(
        &self,
        http: &Http,
        id: InteractionId,
        token: &str,
        reply: Reply,
        deferred: bool,
    ) -> Result<(), String> {
        let Reply {
            mut first,
            mut rest,
            ephemeral,
            update,
            origin,
            mut others,
        } = reply;
        if deferred && !ephemeral {
            // The deferral was private: public messages go to their channel instead.
            others.splice(0..0, first.take().into_iter().chain(rest.drain(..)));
        }
        let mut pieces: Vec<(String, Option<CreateAttachment>, Vec<Button>)> = Vec::new();
        for o in first.iter().chain(rest.iter()) {
            let file = self.png(&o.msg.image).await;
            let parts = text::split(&text::mentions(&o.msg.text), text::MESSAGE_LIMIT);
            let last = parts.len().saturating_sub(1);
            for (i, p) in parts.into_iter().enumerate() {
                if i == last {
                    pieces.push((p, file.clone(), o.buttons.clone()));
                } else {
                    pieces.push((p, None, Vec::new()));
                }
            }
        }
        let mut iter = pieces.into_iter();
        if update && !deferred {
            // A button whose command was carried out: take the buttons off its message.
            CreateInteractionResponse::UpdateMessage(
                CreateInteractionResponseMessage::new().components(Vec::new()),
            )
            .execute(http, (id, token))
            .await
            .map_err(|e| e.to_string())?;
        } else if !deferred {
            let (text, file, buttons) = iter
                .next()
                .unwrap_or_else(|| ("done".to_string(), None, Vec::new()));
            let mut m = CreateInteractionResponseMessage::new()
                .content(text)
                .ephemeral(ephemeral)
                .allowed_mentions(allowed_mentions())
                .components(action_rows(&buttons));
            if let Some(f) = file {
                m = m.add_file(f);
            }
            CreateInteractionResponse::Message(m)
                .execute(http, (id, token))
                .await
                .map_err(|e| e.to_string())?;
        }
        let mut sent = 0;
        for (text, file, buttons) in iter {
            let mut m = CreateInteractionResponseFollowup::new()
                .content(text)
                .ephemeral(ephemeral || deferred)
                .allowed_mentions(allowed_mentions())
                .components(action_rows(&buttons));
            if let Some(f) = file {
                m = m.add_file(f);
            }
            m.execute(http, (None, token))
                .await
                .map_err(|e| e.to_string())?;
            sent += 1;
        }
        if deferred && sent == 0 {
            CreateInteractionResponseFollowup::new()
                .content("done")
                .ephemeral(true)
                .execute(http, (None, token))
                .await
                .map_err(|e| e.to_string())?;
        }
        self.deliver(http, &others, origin.as_deref()).await;
        Ok(())
    }

    /// Splits a command's messages into the interaction's own reply and the rest.
    fn reply_for(outs: Vec<Out>, changed: bool, origin: &Destination, button: bool) -> Reply {
        let mut mine = Vec::new();
        let mut others = Vec::new();
        for o in outs {
            if &o.msg.to == origin && !(button && changed) {
                mine.push(o);
            } else {
                others.push(o);
            }
        }
        let origin_channel = match origin {
            Destination::Channel(c) => Some(c.clone()),
            Destination::Dm(_) => None,
        };
        let mut mine = mine.into_iter();
        Reply {
            first: mine.next(),
            rest: mine.collect(),
            ephemeral: !changed,
            update: button && changed,
            origin: origin_channel,
            others,
        }
    }

    async fn on_command(&self, ctx: &Context, cmd: &CommandInteraction) {
        let http = &ctx.http;
        let name = cmd.data.name.as_str();
        let user = cmd.user.id;
        if name == slash::PRIVATE {
            let work = async {
                let store = self.store();
                store
                    .set_dm_closed(&user.to_string(), false, unix_now())
                    .await
                    .map_err(|e| e.to_string())?;
                let held = store
                    .take_held(&user.to_string())
                    .await
                    .map_err(|e| e.to_string())?;
                Ok(if held.is_empty() {
                    Reply::private("no private messages are waiting for you")
                } else {
                    Reply::private_many(held)
                })
            };
            self.answer(http, cmd.id, &cmd.token, false, work).await;
            return;
        }
        if name == "resign" {
            let text = slash::to_text(name, &cmd.data.options);
            let confirm = match self
                .confirm_resign(user, cmd.guild_id, cmd.channel_id, &text)
                .await
            {
                Ok(r) => r,
                Err(e) => Reply::private(e),
            };
            self.answer(http, cmd.id, &cmd.token, false, async { Ok(confirm) })
                .await;
            return;
        }
        let text = slash::to_text(name, &cmd.data.options);
        // A pick, a discard, finale words and a hand are secret: wherever the command is
        // typed, it is a private message to the bot, and its answer is for the user alone
        // (ephemeral).
        let secret = slash::is_private(name);
        let place = if secret {
            Place::Dm
        } else {
            place_of(cmd.guild_id, cmd.channel_id)
        };
        let origin = origin_of(&place, user);
        let work = async {
            let (outs, changed) = self
                .process(http, user, place, text, format!("int:{}", cmd.id))
                .await?;
            let mut r = Core::reply_for(outs, changed, &origin, false);
            if secret {
                r.ephemeral = true;
            }
            Ok(r)
        };
        self.answer(http, cmd.id, &cmd.token, false, work).await;
    }

    /// `/resign` asks for confirmation with a button, after checking which game it is.
    async fn confirm_resign(
        &self,
        user: UserId,
        guild: Option<GuildId>,
        channel: ChannelId,
        text: &str,
    ) -> Result<Reply, String> {
        let id = match command::parse(text) {
            Ok(Command::Resign(Some(id))) => Some(id),
            _ => None,
        };
        let place = place_of(guild, channel);
        let games: Vec<i64> = self
            .store()
            .games_of(&user.to_string(), &["active"])
            .await
            .map_err(|e| e.to_string())?
            .into_iter()
            .filter(|g| g.seat_of(&user.to_string()).is_some())
            .filter(|g| match &place {
                Place::Channel(c) => g.channel.as_deref() == Some(c.as_str()),
                Place::Dm => true,
            })
            .map(|g| g.id)
            .collect();
        let game = match (id, games.as_slice()) {
            (Some(id), _) => id,
            (None, [one]) => *one,
            (None, []) => return Ok(Reply::private("you have no game here")),
            (None, many) => {
                return Ok(Reply::private(format!(
                    "you have {} games here: say which, for example /resign game:{}",
                    many.len(),
                    many[0]
                )))
            }
        };
        let mut r = Reply::private(format!(
            "game #{game}: do you really resign? Press the button to confirm."
        ));
        if let Some(f) = r.first.as_mut() {
            f.buttons = vec![Button {
                id: format!("resign:{game}:{user}"),
                label: "Resign",
                style: ButtonStyle::Danger,
            }];
        }
        Ok(r)
    }

    async fn on_component(&self, ctx: &Context, comp: &ComponentInteraction) {
        let http = &ctx.http;
        let text = match button_text(&comp.data.custom_id, comp.user.id) {
            Ok(t) => t,
            Err(why) => {
                let r = Reply::private(why);
                self.answer(http, comp.id, &comp.token, true, async { Ok(r) })
                    .await;
                return;
            }
        };
        let user = comp.user.id;
        let place = place_of(comp.guild_id, comp.channel_id);
        let origin = origin_of(&place, user);
        // The resignation button sits on an ephemeral message: leave it, answer privately.
        let ephemeral_source = comp.message.flags.is_some_and(|f| f.bits() & 64 != 0)
            || comp.data.custom_id.starts_with("resign:");
        let work = async {
            let (outs, changed) = self
                .process(http, user, place, text, format!("int:{}", comp.id))
                .await?;
            let mut r = Core::reply_for(outs, changed, &origin, !ephemeral_source);
            if ephemeral_source && changed {
                // Everything public goes to the channel; the button's answer is private.
                r.others.extend(r.first.take());
                r.others.append(&mut r.rest);
                r.first = Some(Out {
                    msg: Outbound {
                        to: origin.clone(),
                        text: "done".into(),
                        image: None,
                    },
                    buttons: Vec::new(),
                    nonce: None,
                });
                r.ephemeral = true;
            }
            Ok(r)
        };
        self.answer(http, comp.id, &comp.token, true, work).await;
    }

    /// Suggestions while a user types an option: their games for `game` (filtered by
    /// what they typed), for `move` the legal moves of their game here, in SAN,
    /// beginning with what they typed, and for `/help`'s `command` the command names
    /// beginning with it. Discord shows at most 25 choices, each name and
    /// value within 100 characters; only the typing user sees them.
    async fn on_autocomplete(&self, ctx: &Context, ac: &CommandInteraction) {
        let Some(focused) = ac.data.autocomplete() else {
            return;
        };
        let user = ac.user.id.to_string();
        let typed = focused.value.trim().trim_start_matches('#');
        let mut choices: Vec<AutocompleteChoice> = Vec::new();
        match focused.name {
            "game" => {
                let statuses: &[&str] = match ac.data.name.as_str() {
                    "accept" | "decline" | "cancel" => &["challenged"],
                    "board" | "moves" | "pgn" => &["active", "finished"],
                    _ => &["active"],
                };
                match self.store().games_of(&user, statuses).await {
                    Ok(games) => {
                        for g in games.iter().filter(|g| g.id.to_string().starts_with(typed)) {
                            let others: Vec<&str> = g
                                .seats
                                .iter()
                                .filter_map(|s| s.user.as_deref())
                                .filter(|u| *u != user)
                                .collect();
                            let label = format!("#{} {} vs {}", g.id, g.variant, others.join(", "));
                            choices.push(AutocompleteChoice::new(
                                label.chars().take(CHOICE_LIMIT).collect::<String>(),
                                g.id,
                            ));
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "cannot list games to suggest"),
                }
            }
            "move" => {
                let game = ac
                    .data
                    .options
                    .iter()
                    .find(|o| o.name == "game")
                    .and_then(|o| match &o.value {
                        CommandDataOptionValue::Integer(i) => Some(*i),
                        CommandDataOptionValue::Autocomplete { value, .. } => {
                            value.trim_start_matches('#').parse().ok()
                        }
                        _ => None,
                    });
                let place = place_of(ac.guild_id, ac.channel_id);
                match self
                    .service
                    .move_suggestions(&user, &place, game, typed, CHOICES)
                    .await
                {
                    Ok(moves) => choices.extend(
                        moves
                            .into_iter()
                            .filter(|m| m.chars().count() <= CHOICE_LIMIT)
                            .map(|m| AutocompleteChoice::new(m.clone(), m)),
                    ),
                    Err(e) => tracing::warn!(error = %e, "cannot list moves to suggest"),
                }
            }
            "command" => {
                let typed = typed.to_lowercase();
                let mut names: Vec<&str> = command::HELP
                    .iter()
                    .map(|h| h.0)
                    .filter(|n| n.starts_with(&typed))
                    .collect();
                names.sort_unstable();
                choices.extend(names.into_iter().map(|n| AutocompleteChoice::new(n, n)));
            }
            _ => {}
        }
        choices.truncate(CHOICES);
        let resp = CreateAutocompleteResponse::new().set_choices(choices);
        if let Err(e) = CreateInteractionResponse::Autocomplete(resp)
            .execute(&ctx.http, (ac.id, &ac.token))
            .await
        {
            tracing::warn!(error = %e, "cannot answer an autocompletion");
        }
    }

    async fn register(&self, http: &Http) {
        let cmds = slash::commands();
        let result = if self.cfg.guilds.is_empty() {
            serenity::all::Command::set_global_commands(http, cmds)
                .await
                .map(|c| c.len())
        } else {
            let mut n = 0;
            let mut r = Ok(0);
            for g in &self.cfg.guilds {
                match GuildId::new(*g).set_commands(http, cmds.clone()).await {
                    Ok(c) => n = c.len(),
                    Err(e) => r = Err(e),
                }
            }
            r.map(|_| n)
        };
        match result {
            Ok(n) => tracing::info!(commands = n, "slash commands registered"),
            Err(e) => tracing::error!(error = %e, "slash commands could not be registered"),
        }
    }
}

/// An interaction's answer.
struct Reply {
    /// The first message to the user where they are: the interaction response.
    first: Option<Out>,
    /// Further messages there: followups.
    rest: Vec<Out>,
    /// Visible to the user alone.
    ephemeral: bool,
    /// A button's command was carried out: update its message (remove the buttons).
    update: bool,
    /// The channel the interaction came from.
    origin: Option<String>,
    /// Messages for elsewhere, delivered normally.
    others: Vec<Out>,
}

impl Reply {
    fn private(text: impl Into<String>) -> Reply {
        Reply::private_many(vec![text.into()])
    }

    fn private_many(texts: Vec<String>) -> Reply {
        let mut outs = texts.into_iter().map(|t| Out {
            msg: Outbound {
                to: Destination::Dm(String::new()),
                text: t,
                image: None,
            },
            buttons: Vec::new(),
            nonce: None,
        });
        Reply {
            first: outs.next(),
            rest: outs.collect(),
            ephemeral: true,
            update: false,
            origin: None,
            others: Vec::new(),
        }
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

fn dm_refused(e: &serenity::http::HttpError) -> bool {
    matches!(e, serenity::http::HttpError::UnsuccessfulRequest(r) if r.error.code == 50007)
}

/// The serenity event handler: every event goes to [`Core`].
struct Handler {
    core: Arc<Core>,
}

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        tracing::info!(user = %ready.user.name, "connected to Discord");
        self.core.register(&ctx.http).await;
    }

    async fn message(&self, ctx: Context, msg: Message) {
        self.core.on_message(&ctx, &msg).await;
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        match interaction {
            Interaction::Command(c) => self.core.on_command(&ctx, &c).await,
            Interaction::Component(c) => self.core.on_component(&ctx, &c).await,
            Interaction::Autocomplete(a) => self.core.on_autocomplete(&ctx, &a).await,
            _ => {}
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
    shards: Arc<ShardManager>,
    client: tokio::task::JoinHandle<Result<(), String>>,
    deadlines: DeadlineTask,
    delivery: tokio::task::JoinHandle<()>,
    core: Arc<Core>,
}

impl Bot {
    /// Opens the database of `settings` (applying migrations), checks the token,
    /// connects to the gateway and starts the deadline checks. New games draw from
    /// `settings.seed` as given: a test may set one to choose its games' draws; [`run`]
    /// never does, so every draw comes from the operating system's entropy.
    pub async fn start(settings: Settings, cfg: Config, token: &str) -> Result<Bot, String> {
        let token = token.trim();
        if token.is_empty() {
            return Err(format!("DISCORD_TOKEN is empty: {TOKEN_HELP}"));
        }
        let http = http(token, &cfg.api_base);
        Bot::start_with(settings, cfg, http).await
    }

    /// [`Bot::start`] with a REST client built by the caller (a test may point one at a
    /// local server while keeping serenity's rate limiter).
    pub async fn start_with(settings: Settings, cfg: Config, http: Http) -> Result<Bot, String> {
        let store = Store::open(&settings.database_url)
            .await
            .map_err(|e| format!("cannot open the database {}: {e}", settings.database_url))?;
        match http.get_current_user().await {
            Ok(_) => {}
            Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)))
                if r.status_code.as_u16() == 401 =>
            {
                store.close().await;
                return Err(format!("Discord rejected DISCORD_TOKEN: {TOKEN_HELP}"));
            }
            Err(e) => {
                store.close().await;
                return Err(format!("cannot reach Discord: {e}"));
            }
        }
        let core = Arc::new(Core {
            service: Arc::new(Service::new(store, settings)),
            renderer: Arc::new(Renderer::default()),
            starting: tokio::sync::Mutex::new(()),
            cfg,
        });
        let client = serenity::all::ClientBuilder::new_with_http(http, intents())
            .event_handler(Handler { core: core.clone() })
            .await;
        let mut client = match client {
            Ok(c) => c,
            Err(e) => {
                core.store().close().await;
                return Err(format!("cannot start the Discord client: {e}"));
            }
        };
        let shards = client.shard_manager.clone();
        let http = client.http.clone();
        let client = tokio::spawn(async move {
            client.start().await.map_err(|e| match e {
                serenity::Error::Gateway(
                    serenity::gateway::GatewayError::InvalidAuthentication,
                ) => {
                    format!("Discord rejected DISCORD_TOKEN: {TOKEN_HELP}")
                }
                serenity::Error::Gateway(
                    serenity::gateway::GatewayError::DisallowedGatewayIntents,
                ) => {
                    "the message content intent is not enabled: turn on \"Message Content Intent\" \
                     under Bot in the developer portal (see README.md)"
                        .to_string()
                }
                e => format!("the Discord connection failed: {e}"),
            })
        });
        // Reminders and timeouts: the service's deadline task checks, this loop delivers.
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Queued>(64);
        let every = Duration::from_secs(core.cfg.tick_seconds);
        let deadlines = DeadlineTask::spawn(core.service.clone(), every, unix_now, tx);
        let delivery_core = core.clone();
        let delivery = tokio::spawn(async move {
            while let Some(queued) = rx.recv().await {
                delivery_core.deliver_notice(&http, queued).await;
            }
        });
        Ok(Bot {
            shards,
            client,
            deadlines,
            delivery,
            core,
        })
    }

    /// Runs until the connection ends (an error) or `stop` resolves (a clean shutdown).
    pub async fn run_until(mut self, stop: impl Future<Output = ()>) -> Result<(), String> {
        let result = tokio::select! {
            r = &mut self.client => Some(r.unwrap_or_else(|e| Err(e.to_string()))),
            _ = stop => None,
        };
        match result {
            Some(r) => {
                stop_deadlines(self.deadlines, self.delivery).await;
                self.core.store().close().await;
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
        stop_deadlines(self.deadlines, self.delivery).await;
        self.shards.shutdown_all().await;
        let _ = tokio::time::timeout(Duration::from_secs(5), self.client).await;
        self.core.store().close().await;
    }
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

/// `postal run`: the bot until Ctrl-C, logging with `tracing` (`RUST_LOG` filters).
pub async fn run(settings: Settings, cfg: Config, token: Option<String>) -> Result<(), String> {
    let token = token.ok_or_else(|| format!("DISCORD_TOKEN is not set: {TOKEN_HELP}"))?;
    tracing::info!(
        database = %settings.database_url,
        api = if cfg.api_base.is_empty() { "discord.com" } else { cfg.api_base.as_str() },
        "starting"
    );
    // No seed, whatever the settings say: no draw, public or hidden, is predictable.
    let settings = Settings {
        seed: None,
        ..settings
    };
    let bot = Bot::start(settings, cfg, &token).await?;
    bot.run_until(async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("Ctrl-C: shutting down");
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_read_as_command_lines_for_whoever_may_press_them() {
        let alice = UserId::new(300_000_000_000_000_001);
        let bob = UserId::new(300_000_000_000_000_002);
        assert_eq!(button_text("accept:3", bob).unwrap(), "accept 3");
        assert_eq!(
            button_text("draw-decline:3", bob).unwrap(),
            "draw 3 decline"
        );
        assert_eq!(
            button_text("ff-accept:3", alice).unwrap(),
            "fastfifty 3 accept"
        );
        let resign = format!("resign:3:{alice}");
        assert_eq!(button_text(&resign, alice).unwrap(), "resign 3");
        assert!(button_text(&resign, bob)
            .unwrap_err()
            .contains("only the player who asked"));
        let piece = format!("decide-piece:3:{alice}");
        assert_eq!(button_text(&piece, alice).unwrap(), "decide 3 piece");
        let target = format!("decide-target:3:{alice}");
        assert_eq!(button_text(&target, alice).unwrap(), "decide 3 target");
        assert!(button_text(&target, bob)
            .unwrap_err()
            .contains("only the opposing chooser"));
        for stale in [
            "resign:3",
            "accept:x",
            "accept",
            "open:3",
            "accept:3:1",
            "decide-piece:3",
        ] {
            assert!(button_text(stale, alice).is_err(), "{stale}");
        }
    }
}
