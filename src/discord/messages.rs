//! Typed messages: which are for the bot, and answering them. In a server the bot reads
//! only its own commands, with the server's own prefix (servers share `!` among many
//! bots; `/postal-admin server prefix:?`), and, in a game's thread, the moves and commands of
//! the game's players; nothing typed at all in a server that turned typed commands off
//! (`/postal-admin server text:off`: slash commands only, moves in threads included); a message that mentions the bot
//! gets one line pointing to help. In a private message everything is for the bot. Every
//! answer to a message in a server is a reply to it (a message reference, which notifies
//! nobody); when the work fails (the database busy or down), the user is told so rather
//! than left without an answer.

use super::*;

/// The answer to a message that mentions the bot without a command: where help is.
fn pointer(registry: &Registry) -> String {
    format!(
        "I referee correspondence chess and its variants: {} shows what I do and how to play",
        slash::invocation(registry, "help")
    )
}

/// What a user is told when their command could not be handled at all.
const FAILED: &str =
    "something went wrong on my side (the database did not answer); nothing was done, please try again in a moment";

/// What a typed message is to the bot.
enum Heard<'a> {
    /// A command for it: this text.
    Command(&'a str),
    /// A mention of it without a command: pointed to help.
    Mention,
    /// Chat, or another bot's command: left alone.
    Other,
}

impl Core {
    /// `text` with a mention of the bot at its start taken off (`<@ID> board`), or `None`
    /// when it does not start with one.
    fn after_bot_mention<'a>(&self, text: &'a str) -> Option<&'a str> {
        let bot = self.bot.get();
        [format!("<@{bot}>"), format!("<@!{bot}>")]
            .iter()
            .find_map(|m| text.strip_prefix(m.as_str()))
    }

    /// Whether `text` mentions the bot anywhere.
    fn mentions_bot(&self, text: &str) -> bool {
        let bot = self.bot.get();
        text.contains(&format!("<@{bot}>")) || text.contains(&format!("<@!{bot}>"))
    }

    /// A typed message: for the bot (a command in a private message, a Postal command
    /// with the prefix or after a mention of the bot, a move or command of the writer's
    /// game in its thread), answered; a mention of the bot without a command, pointed to
    /// help; anything else (other bots' commands, chat), left alone.
    pub(super) async fn on_message(&self, ctx: &Context, msg: &Message) {
        if msg.author.bot {
            return;
        }
        names::learn_from_message(&self.service, msg);
        let content = msg.content.trim();
        let place = match msg.guild_id {
            None => Place::Dm,
            Some(_) => Place::Channel(msg.channel_id.to_string()),
        };
        // The server's own prefix, and whether it reads typed commands at all: where it
        // does not, nothing typed there is for the bot (a bare move in a game's thread
        // neither), and a mention of the bot is pointed to help, whose slash commands
        // always work. Private messages are no server's.
        let typed = match msg.guild_id {
            Some(guild) => self.typed_commands(guild).await,
            None => TypedCommands::defaults(),
        };
        if let Some(notice) = &typed.notice {
            // Said once in the server: its stored prefix is refused now.
            self.say_here(ctx, msg, notice).await;
        }
        if !typed.read {
            if self.mentions_bot(content) {
                self.point_to_help(ctx, msg).await;
            }
            return;
        }
        let prefix = typed.prefix.as_deref().unwrap_or(self.cfg.prefix.as_str());
        let prefixed = content
            .strip_prefix(prefix)
            .or_else(|| self.after_bot_mention(content));
        let text = match self.heard(msg, &place, content, prefixed).await {
            Heard::Command(text) => text,
            Heard::Mention => return self.point_to_help(ctx, msg).await,
            Heard::Other => return,
        };
        if text.is_empty() {
            if prefixed.is_some() && self.mentions_bot(content) {
                self.point_to_help(ctx, msg).await;
            }
            return;
        }
        // What the command queued (a tournament's next round) goes out after its answer.
        let answering = self.answer_message(ctx, msg, place, text);
        self.service.delivering(answering).await
    }

    /// How typed messages are read on `guild` ([`Service::typed_commands`]); when the
    /// database does not answer, the operator's prefix, read (logged once an outage).
    async fn typed_commands(&self, guild: GuildId) -> TypedCommands {
        match self.service.typed_commands(&guild.to_string()).await {
            Ok(t) => t,
            Err(e) => {
                if !self.service.availability().failed(&e) {
                    tracing::warn!(error = %e, "cannot read the server's settings; its defaults used");
                }
                TypedCommands::defaults()
            }
        }
    }

    /// What a message in `place` is to the bot: `content` trimmed, `prefixed` the rest
    /// of it after the prefix or a mention of the bot.
    async fn heard<'a>(
        &self,
        msg: &Message,
        place: &Place,
        content: &'a str,
        prefixed: Option<&'a str>,
    ) -> Heard<'a> {
        let author = msg.author.id.to_string();
        match (place, prefixed) {
            // In a private message everything is for the bot, with the prefix or not.
            (Place::Dm, p) => Heard::Command(p.unwrap_or(content).trim()),
            (Place::Channel(_), Some(rest)) => {
                let rest = rest.trim();
                match self.is_for_us(&author, place, rest).await {
                    Some(true) => Heard::Command(rest),
                    Some(false) if self.mentions_bot(content) => Heard::Mention,
                    Some(false) => Heard::Other,
                    // The database did not answer: a command some variant declares is
                    // surely ours, and is told to come again; anything else is left alone.
                    None => match self.service.is_declared_command(rest) {
                        true => Heard::Command(rest),
                        false => Heard::Other,
                    },
                }
            }
            (Place::Channel(channel), None) => {
                // In a game's thread, a command or a move of the writer's game there; the
                // rest is chat between people and gets no answer.
                let in_thread = self.service.is_game_thread(channel).await.unwrap_or(false);
                if in_thread
                    && content.chars().count() <= text::THREAD_INPUT_LIMIT
                    && self.is_for_us_unprefixed(&author, place, content).await == Some(true)
                {
                    Heard::Command(content)
                } else if self.mentions_bot(content) {
                    Heard::Mention
                } else {
                    Heard::Other
                }
            }
        }
    }

    /// Runs command `text` of message `msg` and delivers the answer, a reply to the
    /// message where it is one (in a server); when the work fails, says so.
    async fn answer_message(&self, ctx: &Context, msg: &Message, place: Place, text: &str) {
        let origin = match &place {
            Place::Channel(c) => Some(c.clone()),
            Place::Dm => None,
        };
        let reply_to = origin.is_some().then_some((msg.channel_id, msg.id));
        let here = origin_of(&place, msg.author.id);
        let done = self
            .process(
                &ctx.http,
                (msg.author.id, author_of(msg)),
                (place, None, msg.guild_id),
                text.to_string(),
                format!("msg:{}", msg.id),
            )
            .await;
        match done {
            Ok((mut outs, changed)) => {
                for o in outs.iter_mut().filter(|o| o.msg.to == here) {
                    // The answer to the user's own message: a refusal, or what they asked
                    // to see.
                    if o.msg.refusal.is_some() || !changed {
                        o.reply_to = reply_to;
                    }
                }
                self.deliver(&ctx.http, &outs, origin.as_deref()).await;
            }
            Err(e) => {
                // The database not answering is logged once an outage, by the service.
                if !self.service.failed(&e) {
                    tracing::error!(error = %e, "a message could not be handled");
                }
                let out = Out {
                    msg: Outbound {
                        to: here,
                        text: FAILED.into(),
                        ..Outbound::default()
                    },
                    reply_to,
                    ..Out::default()
                };
                self.deliver(&ctx.http, &[out], origin.as_deref()).await
            }
        }
    }

    /// Whether `text` from `user` in `place` is a command for the bot
    /// ([`Service::is_for_referee`]); `None` when that cannot be told now (logged).
    async fn is_for_us(&self, user: &str, place: &Place, text: &str) -> Option<bool> {
        match self.service.is_for_referee(user, place, text).await {
            Ok(yes) => Some(yes),
            Err(e) => {
                // The database not answering is logged once an outage.
                if !self.service.availability().failed(&e) {
                    tracing::warn!(error = %e, "cannot tell chat from a command; left alone");
                }
                None
            }
        }
    }

    /// [`Self::is_for_us`] for a line typed without the prefix in a game's thread
    /// ([`Service::is_for_referee_unprefixed`]: an onlooker's bare `resign` is chat).
    async fn is_for_us_unprefixed(&self, user: &str, place: &Place, text: &str) -> Option<bool> {
        match self
            .service
            .is_for_referee_unprefixed(user, place, text)
            .await
        {
            Ok(yes) => Some(yes),
            Err(e) => {
                if !self.service.availability().failed(&e) {
                    tracing::warn!(error = %e, "cannot tell chat from a command; left alone");
                }
                None
            }
        }
    }

    /// Answers a mention of the bot that holds no command: one line, where help is.
    async fn point_to_help(&self, ctx: &Context, msg: &Message) {
        self.say_here(ctx, msg, &pointer(self.service.registry()))
            .await
    }

    /// Answers `msg` with `text` in its channel, as a reply to it.
    async fn say_here(&self, ctx: &Context, msg: &Message, text: &str) {
        let out = Out {
            msg: Outbound {
                to: Destination::Channel(msg.channel_id.to_string()),
                text: text.to_string(),
                ..Outbound::default()
            },
            reply_to: Some((msg.channel_id, msg.id)),
            ..Out::default()
        };
        self.deliver(&ctx.http, &[out], None).await
    }
}
