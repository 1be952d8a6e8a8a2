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

mod buttons;
pub mod config;
pub mod logging;
pub mod names;
pub mod registration;
pub mod shards;
pub mod slash;
pub mod text;

pub use config::Config;

use crate::render::{RenderOptions, Renderer};
use crate::service::command::{self, Command};
use crate::service::deadlines::{unix_now, DeadlineTask};
use crate::service::referee::{Destination, Incoming, Outbound, Place, Queued, Service, View};
use crate::service::settings::Settings;
use crate::store::Store;
use crate::variants::api::ArgKind;
use crate::variants::Registry;
use buttons::{action_rows, button_text, buttons_of, Button, Press};
use serenity::all::{
    AutoArchiveDuration, AutocompleteChoice, ButtonStyle, ChannelId, ChannelType,
    CommandDataOptionValue, CommandInteraction, ComponentInteraction, Context,
    CreateAllowedMentions, CreateAttachment, CreateAutocompleteResponse, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    CreateThread, EditThread, EventHandler, GatewayIntents, GuildId, Http, HttpBuilder,
    Interaction, InteractionId, Message, Ready, ShardManager, UserId,
};
use serenity::builder::Builder;
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

/// Whom a message may notify: exactly the users the service says it calls on
/// ([`Outbound::mentions`]), never a role, `@everyone` or `@here`, and never a user
/// only because the text shows them (a list of games shows every opponent and notifies
/// nobody).
fn allowed_mentions(users: &[String]) -> CreateAllowedMentions {
    CreateAllowedMentions::new().users(
        users
            .iter()
            .filter_map(|u| u.parse::<u64>().ok())
            .filter(|&id| id != 0)
            .map(UserId::new),
    )
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
        (place, server): (Place, Option<GuildId>),
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
        // An acceptance starts a game once every seat is taken, and a challenge to a game
        // of one starts it at once: either may open a thread.
        let may_start = matches!(
            command::parse(&text, self.service.registry()),
            Ok(Command::Accept(_) | Command::Challenge(_))
        );
        let _starting = match may_start {
            true => Some(self.starting.lock().await),
            false => None,
        };
        let inc = Incoming {
            event_id: event_id.clone(),
            user: user_key,
            place: place.clone(),
            server: match place {
                Place::Channel(_) => server.map(|g| g.to_string()),
                Place::Dm => None,
            },
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
            .map(|msg| Out {
                buttons: buttons_of(&msg),
                msg,
                nonce: None,
            })
            .collect();
        // A game gets its thread when it starts; if Discord refuses the thread then, the
        // game stays in its channel rather than moving under the players' feet later.
        if changed && may_start {
            if let Place::Channel(c) = &place {
                self.open_threads(http, c, &mut outs).await?;
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
    ) -> Result<(), String> {
        let here = Destination::Channel(channel.to_string());
        let about: Vec<i64> = outs
            .iter()
            .filter(|o| o.msg.to == here)
            .filter_map(|o| o.msg.game)
            .collect();
        if about.is_empty() {
            return Ok(());
        }
        let games = self
            .store()
            .games_needing_thread(channel)
            .await
            .map_err(|e| e.to_string())?;
        let Ok(parent) = channel.parse::<u64>() else {
            return Ok(());
        };
        for g in games.into_iter().filter(|g| about.contains(&g.id)) {
            // The players by display name: the one player of a game alone; else White's
            // and Black's, or both partners of each team.
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
                    let [white, black] =
                        match crate::service::referee::load_with(self.service.registry(), &g) {
                            Ok(rules) => rules.side_names(&names),
                            Err(_) => ["?".to_string(), "?".to_string()],
                        };
                    (
                        format!("{white} vs {black}"),
                        format!("{white} against {black}"),
                    )
                }
            };
            // Discord's limit on a channel name.
            let name: String = format!("game #{} {}: {title}", g.id, g.variant)
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
                if o.msg.to == here && o.msg.game == Some(g.id) {
                    o.msg.to = Destination::Channel(thread.clone());
                }
            }
            outs.insert(
                0,
                Out {
                    msg: Outbound {
                        to: here.clone(),
                        text: format!("game #{}: {players}, played in <#{thread}>", g.id),
                        game: Some(g.id),
                        ..Outbound::default()
                    },
                    buttons: Vec::new(),
                    nonce: None,
                },
            );
        }
        Ok(())
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

    async fn png(&self, view: &Option<View>) -> Option<CreateAttachment> {
        let view = view.clone()?;
        board_png(&self.renderer, &view)
            .await
            .map(|bytes| CreateAttachment::bytes(bytes, "board.png"))
    }

    /// A message as Discord pieces under the length limit, and the files that go with
    /// the last piece: the board image; a document (a record) as a file of its own name
    /// instead of text; and, on a message announcing a game's end, the game's record
    /// (`.pgn`) and its animation (`.gif`).
    async fn body(&self, out: &Out) -> (Vec<String>, Vec<CreateAttachment>) {
        let mut files: Vec<CreateAttachment> = self.png(&out.msg.image).await.into_iter().collect();
        let pieces = match &out.msg.document {
            Some(name) => {
                files.push(CreateAttachment::bytes(
                    out.msg.text.clone().into_bytes(),
                    name.clone(),
                ));
                Vec::new()
            }
            None if !out.msg.listing.is_empty() => {
                text::split(&text::listing(&out.msg.listing), text::MESSAGE_LIMIT)
            }
            None => text::split(&text::for_discord(&out.msg.text), text::MESSAGE_LIMIT),
        };
        if let (true, Some(id)) = (out.msg.ending, out.msg.game) {
            match self.service.record(id).await {
                Ok(Some((name, pgn))) => {
                    files.push(CreateAttachment::bytes(pgn.into_bytes(), name))
                }
                Ok(None) => {}
                Err(e) => tracing::warn!(game = id, error = %e, "cannot read a game's record"),
            }
            match self.service.animation(id, self.renderer.clone()).await {
                Ok(Some((name, gif))) if gif.len() <= ATTACHMENT_LIMIT => {
                    files.push(CreateAttachment::bytes(gif, name))
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(game = id, error = %e, "cannot draw a game's animation"),
            }
        }
        (pieces, files)
    }

    /// Sends one message to a channel, split under the limit; the files and buttons go
    /// with the last piece.
    async fn send_channel(&self, http: &Http, channel: &str, out: &Out) -> Result<(), String> {
        let Ok(id) = channel.parse::<u64>() else {
            return Err(format!("bad channel id {channel}"));
        };
        let (pieces, files) = self.body(out).await;
        let n = pieces.len();
        if n == 0 && files.is_empty() {
            return Ok(());
        }
        let pieces = if n == 0 { vec![String::new()] } else { pieces };
        let last = pieces.len() - 1;
        for (i, p) in pieces.into_iter().enumerate() {
            let mut m = with_nonce(
                CreateMessage::new()
                    .content(p)
                    .allowed_mentions(allowed_mentions(&out.msg.mentions)),
                out,
                i,
            );
            if i == last {
                m = m.add_files(files.clone());
                m = m.components(action_rows(&out.buttons));
            }
            send_unarchiving(http, ChannelId::new(id), m).await?;
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
        let place = match (origin, out.msg.game) {
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
                         Use {} to read it; only you will see it.",
                        slash::invocation(self.service.registry(), slash::PRIVATE)
                    ),
                    game: out.msg.game,
                    mentions: vec![user.to_string()],
                    ..Outbound::default()
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
    /// nonce and its buttons (a timeout's Rematch), through the same sending as every
    /// message (a thread Discord archived is unarchived; an end of a game gets its
    /// record and animation), then marks it delivered (a failed send is logged and marked, not retried
    /// at every check). One produced from a game read just before the game moved to its
    /// thread still goes to the thread, and so does the note about a private message
    /// that could not be sent.
    async fn deliver_notice(&self, http: &Http, queued: Queued) {
        // A game starting now is in its thread once this lock is free.
        drop(self.starting.lock().await);
        let Queued { id, mut message } = queued;
        if let (Destination::Channel(c), Some(g)) = (&message.to, message.game) {
            match self.store().thread_of(g).await {
                Ok(Some((thread, parent))) if &parent == c => {
                    message.to = Destination::Channel(thread)
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "cannot look up a game's thread"),
            }
        }
        // The end of a game carries its Rematch button, as an end by a move does.
        let out = Out {
            buttons: buttons_of(&message),
            msg: message,
            nonce: Some(format!("postal-{id}")),
        };
        self.deliver(http, std::slice::from_ref(&out), None).await;
        if let Err(e) = self.service.delivered(id, unix_now()).await {
            tracing::error!(error = %e, "cannot mark a message delivered");
        }
    }

    async fn try_dm(&self, http: &Http, user: UserId, out: &Out) -> serenity::Result<()> {
        let dm = user.create_dm_channel(http).await?;
        let (pieces, files) = self.body(out).await;
        let pieces = if pieces.is_empty() && !files.is_empty() {
            vec![String::new()]
        } else {
            pieces
        };
        let last = pieces.len().saturating_sub(1);
        for (i, p) in pieces.into_iter().enumerate() {
            let mut m = with_nonce(
                CreateMessage::new()
                    .content(p)
                    .allowed_mentions(allowed_mentions(&out.msg.mentions)),
                out,
                i,
            );
            if i == last {
                // A challenge or a game made in private carries its buttons here.
                m = m.add_files(files.clone());
                m = m.components(action_rows(&out.buttons));
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
        names::learn_from_message(&self.service, msg);
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
            // In a game's thread, a command or a move of the writer's game there; the
            // rest is chat between people and gets no answer.
            let channel = msg.channel_id.to_string();
            let in_thread = self.store().is_game_thread(&channel).await.unwrap_or(false);
            if !in_thread || content.chars().count() > text::THREAD_INPUT_LIMIT {
                return;
            }
            let place = Place::Channel(channel);
            let author = msg.author.id.to_string();
            match self.service.is_for_referee(&author, &place, content).await {
                Ok(true) => {}
                Ok(false) => return,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot tell chat from a move; left alone");
                    return;
                }
            }
            (content.to_string(), place)
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
                (place, msg.guild_id),
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
        let mut pieces: Vec<Piece> = Vec::new();
        for o in first.iter().chain(rest.iter()) {
            let (parts, files) = self.body(o).await;
            let parts = if parts.is_empty() && !files.is_empty() {
                vec![String::new()]
            } else {
                parts
            };
            let last = parts.len().saturating_sub(1);
            for (i, p) in parts.into_iter().enumerate() {
                if i == last {
                    pieces.push((p, files.clone(), o.buttons.clone(), &o.msg.mentions[..]));
                } else {
                    pieces.push((p, Vec::new(), Vec::new(), &o.msg.mentions[..]));
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
            let (text, file, buttons, mentions) = iter
                .next()
                .unwrap_or_else(|| ("done".to_string(), Vec::new(), Vec::new(), &[]));
            let m = CreateInteractionResponseMessage::new()
                .content(text)
                .ephemeral(ephemeral)
                .allowed_mentions(allowed_mentions(mentions))
                .components(action_rows(&buttons))
                .add_files(file);
            CreateInteractionResponse::Message(m)
                .execute(http, (id, token))
                .await
                .map_err(|e| e.to_string())?;
        }
        let mut sent = 0;
        for (text, file, buttons, mentions) in iter {
            let m = CreateInteractionResponseFollowup::new()
                .content(text)
                .ephemeral(ephemeral || deferred)
                .allowed_mentions(allowed_mentions(mentions))
                .components(action_rows(&buttons))
                .add_files(file);
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
        names::learn_from_interaction(&self.service, &cmd.user, cmd.member.as_deref(), Some(cmd));
        let (name, options) = slash::leaf(&cmd.data.name, &cmd.data.options);
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
            let text = slash::to_text(self.service.registry(), name, options);
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
        let text = slash::to_text(self.service.registry(), name, options);
        // A pick, a discard, finale words and a hand are secret: wherever the command is
        // typed, it is a private message to the bot, and its answer is for the user alone
        // (ephemeral).
        let secret = slash::is_private(self.service.registry(), name);
        let place = if secret {
            Place::Dm
        } else {
            place_of(cmd.guild_id, cmd.channel_id)
        };
        let origin = origin_of(&place, user);
        let work = async {
            let (outs, changed) = self
                .process(
                    http,
                    user,
                    (place, cmd.guild_id),
                    text,
                    format!("int:{}", cmd.id),
                )
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
        let id = match command::parse(text, self.service.registry()) {
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
                label: "Resign".into(),
                style: ButtonStyle::Danger,
            }];
        }
        Ok(r)
    }

    async fn on_component(&self, ctx: &Context, comp: &ComponentInteraction) {
        let http = &ctx.http;
        names::learn_from_interaction(&self.service, &comp.user, comp.member.as_ref(), None);
        let text = match button_text(&comp.data.custom_id, comp.user.id) {
            Press::Command(t) => t,
            Press::Refused(why) => {
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
                .process(
                    http,
                    user,
                    (place, comp.guild_id),
                    text,
                    format!("int:{}", comp.id),
                )
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
                        ..Outbound::default()
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
    /// what they typed), for an argument a variant declares as a move
    /// ([`ArgKind::Move`]) the moves their seat may make now in their game here, as
    /// they would type them, beginning with what they typed, for a choice of more values
    /// than Discord lists the values beginning with it, and for `/help`'s `command` the
    /// command names beginning with it. Discord shows at most 25
    /// choices, each name and value within 100 characters; only the typing user sees
    /// them.
    async fn on_autocomplete(&self, ctx: &Context, ac: &CommandInteraction) {
        let Some(focused) = ac.data.autocomplete() else {
            return;
        };
        let user = ac.user.id.to_string();
        let typed = focused.value.trim().trim_start_matches('#');
        let (command_name, options) = slash::leaf(&ac.data.name, &ac.data.options);
        let argument = slash::arguments(self.service.registry(), command_name)
            .into_iter()
            .find(|a| a.name == focused.name);
        let is_move = argument.as_ref().is_some_and(|a| a.kind == ArgKind::Move);
        let mut choices: Vec<AutocompleteChoice> = Vec::new();
        match (command_name, focused.name) {
            (_, "game") => {
                let statuses: &[&str] = match command_name {
                    "accept" | "decline" | "cancel" => &["challenged"],
                    "board" | "moves" | "pgn" => &["active", "finished"],
                    _ => &["active"],
                };
                match self.store().games_of(&user, statuses).await {
                    Ok(games) => {
                        for g in games.iter().filter(|g| g.id.to_string().starts_with(typed)) {
                            let others: Vec<String> = g
                                .seats
                                .iter()
                                .filter_map(|s| s.user.as_deref())
                                .filter(|u| *u != user)
                                .map(|u| self.service.name_of(u))
                                .collect();
                            let label = if others.is_empty() {
                                format!("#{} {}", g.id, g.variant)
                            } else {
                                format!("#{} {} vs {}", g.id, g.variant, others.join(", "))
                            };
                            choices.push(AutocompleteChoice::new(
                                label.chars().take(CHOICE_LIMIT).collect::<String>(),
                                g.id,
                            ));
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "cannot list games to suggest"),
                }
            }
            _ if is_move => {
                let game = options
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
            // A choice of more values than Discord lists: those beginning with what was
            // typed (its value or its label).
            _ if argument.as_ref().is_some_and(|a| !a.choices.is_empty()) => {
                let typed = typed.to_lowercase();
                let values = argument.map(|a| a.choices).unwrap_or_default();
                choices.extend(
                    values
                        .into_iter()
                        .filter(|(value, label)| {
                            value.to_lowercase().starts_with(&typed)
                                || label.to_lowercase().starts_with(&typed)
                        })
                        .map(|(value, label)| AutocompleteChoice::new(label, value)),
                );
            }
            ("help", "command") => {
                let typed = typed.to_lowercase();
                let registry = self.service.registry();
                let mut names: Vec<&str> = command::HELP
                    .iter()
                    .map(|h| h.0)
                    .chain(registry.commands().into_iter().map(|c| c.name))
                    .filter(|n| n.starts_with(&typed))
                    .collect();
                names.sort_unstable();
                names.dedup();
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

    async fn register(&self, http: &Http, joined: &[GuildId]) {
        registration::register(http, self.service.registry(), &self.cfg.guilds, joined).await;
    }
}

/// One message of an interaction's answer: its text, image, buttons and the users it
/// may notify.
type Piece<'a> = (String, Vec<CreateAttachment>, Vec<Button>, &'a [String]);

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
                ..Outbound::default()
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

/// Sends `m` to `channel`; when Discord answers that the channel is an archived thread
/// (50083: a game's thread archives itself after a week without messages, while a move
/// may take far longer), unarchives it and sends once more.
async fn send_unarchiving(http: &Http, channel: ChannelId, m: CreateMessage) -> Result<(), String> {
    match channel.send_message(http, m.clone()).await {
        Ok(_) => Ok(()),
        Err(serenity::Error::Http(e)) if thread_archived(&e) => {
            channel
                .edit_thread(http, EditThread::new().archived(false))
                .await
                .map_err(|e| e.to_string())?;
            tracing::info!(%channel, "unarchived a thread to post in it");
            channel
                .send_message(http, m)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Whether Discord refused a message because its thread is archived (50083).
fn thread_archived(e: &serenity::http::HttpError) -> bool {
    matches!(e, serenity::http::HttpError::UnsuccessfulRequest(r) if r.error.code == 50083)
}

fn dm_refused(e: &serenity::http::HttpError) -> bool {
    matches!(e, serenity::http::HttpError::UnsuccessfulRequest(r) if r.error.code == 50007)
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
    /// The shard manager of the client running now (replaced when the bot restarts
    /// slash-only).
    shards: Arc<std::sync::Mutex<Arc<ShardManager>>>,
    client: tokio::task::JoinHandle<Result<(), String>>,
    deadlines: DeadlineTask,
    delivery: tokio::task::JoinHandle<()>,
    core: Arc<Core>,
}

impl Bot {
    /// Opens the database of `settings` (applying migrations), checks the token,
    /// connects to the gateway and starts the deadline checks. New games draw from
    /// `settings.seed` as given (a test chooses its draws); [`run`] has none.
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
        Bot::start_with_registry(settings, cfg, http, Registry::builtin()).await
    }

    /// [`Bot::start_with`] playing the variants of `registry` (the built-in ones and a
    /// test's own): its slash commands, choices and suggestions are those of `registry`.
    pub async fn start_with_registry(
        settings: Settings,
        cfg: Config,
        http: Http,
        registry: Registry,
    ) -> Result<Bot, String> {
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
        let shards = match cfg.shards.resolve(&http).await {
            Ok(r) => r,
            Err(e) => {
                store.close().await;
                return Err(e);
            }
        };
        // Every board shape's assets, before connecting: no interaction pays for them.
        let shapes = registry.board_shapes();
        let renderer = Arc::new(Renderer::default());
        let preparing = renderer.clone();
        let started = std::time::Instant::now();
        let count = shapes.len();
        if let Err(e) = tokio::task::spawn_blocking(move || {
            preparing.prepare_all(&shapes, &RenderOptions::default())
        })
        .await
        {
            tracing::warn!(error = %e, "board images could not be prepared at start");
        }
        tracing::info!(
            shapes = count,
            ms = started.elapsed().as_millis() as u64,
            "board images prepared"
        );
        let core = Arc::new(Core {
            service: Arc::new(Service::with_registry(store, settings, registry)),
            renderer,
            starting: tokio::sync::Mutex::new(()),
            cfg,
        });
        let content = core.cfg.message_content;
        if content {
            tracing::info!(
                "asking for the Message Content intent (text commands and bare moves in threads)"
            );
        } else {
            tracing::warn!("{SLASH_ONLY}");
        }
        let client = serenity::all::ClientBuilder::new_with_http(http, intents(content))
            .event_handler(Handler {
                core: core.clone(),
                first_shard: shards.first(),
            })
            .await;
        let mut client = match client {
            Ok(c) => c,
            Err(e) => {
                core.store().close().await;
                return Err(format!("cannot start the Discord client: {e}"));
            }
        };
        let manager = Arc::new(std::sync::Mutex::new(client.shard_manager.clone()));
        let http = client.http.clone();
        let (slot, again) = (manager.clone(), core.clone());
        let client = tokio::spawn(async move {
            let first = shards.start(&mut client).await;
            let result = match first {
                Err(serenity::Error::Gateway(
                    serenity::gateway::GatewayError::DisallowedGatewayIntents,
                )) if content => {
                    // Refused the privileged intent: start again without it.
                    tracing::warn!("Discord refused the Message Content intent; {SLASH_ONLY}");
                    let http = self::http(client.http.token(), &again.cfg.api_base);
                    let retry = serenity::all::ClientBuilder::new_with_http(http, intents(false))
                        .event_handler(Handler {
                            first_shard: shards.first(),
                            core: again,
                        })
                        .await;
                    let mut retry = match retry {
                        Ok(c) => c,
                        Err(e) => return Err(format!("cannot start the Discord client: {e}")),
                    };
                    *slot.lock().unwrap_or_else(|e| e.into_inner()) = retry.shard_manager.clone();
                    shards.start(&mut retry).await
                }
                r => r,
            };
            result.map_err(|e| match e {
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
            shards: manager,
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
        let manager = self
            .shards
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        manager.shutdown_all().await;
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

/// `postal run`: the bot until Ctrl-C or SIGTERM, logging with `tracing` (`RUST_LOG` filters).
pub async fn run(settings: Settings, cfg: Config, token: Option<String>) -> Result<(), String> {
    let token = token.ok_or_else(|| format!("DISCORD_TOKEN is not set: {TOKEN_HELP}"))?;
    tracing::info!(
        database = %settings.database_url,
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
