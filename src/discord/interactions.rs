//! Answering interactions: slash commands, buttons and autocompletion, each answered in
//! Discord's three seconds (deferred when the work is slow), ephemerally when it changed
//! nothing, with the rest of its messages delivered where they belong.

use super::*;
use serenity::all::{CreateActionRow, EditInteractionResponse};

/// One message of an interaction's answer: its text, image, buttons and the users it
/// may notify.
pub(super) type Piece<'a> = (Part, Vec<CreateAttachment>, Vec<Button>, &'a [String]);

/// An interaction's answer.
pub(super) struct Reply {
    /// The first message to the user where they are: the interaction response.
    first: Option<Out>,
    /// Further messages there: followups.
    rest: Vec<Out>,
    /// Visible to the user alone.
    ephemeral: bool,
    /// A button's command was carried out, or its moment has passed: update its message,
    /// its buttons disabled (these rows).
    update: Option<Vec<CreateActionRow>>,
    /// A destructive confirmation carried out: the text its message says instead, its
    /// answer to the presser (rendered for Discord).
    update_text: Option<String>,
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
            reply_to: None,
        });
        Reply {
            first: outs.next(),
            rest: outs.collect(),
            ephemeral: true,
            update: None,
            update_text: None,
            origin: None,
            others: Vec::new(),
        }
    }
}

/// What a command that said nothing to its user where they are answers them: done, and
/// the channels what it did was posted in (which Discord shows as links), so that a
/// secret pick whose turn was revealed in the game's thread is not met with a bare word.
/// Private messages are not named: one may be another player's.
fn done_words(others: &[Out]) -> String {
    let mut channels: Vec<&str> = Vec::new();
    for o in others {
        if let Destination::Channel(c) = &o.msg.to {
            if !channels.contains(&c.as_str()) && c.bytes().all(|b| b.is_ascii_digit()) {
                channels.push(c);
            }
        }
    }
    match channels.as_slice() {
        [] => "Done.".to_string(),
        shown => {
            let links: Vec<String> = shown.iter().take(3).map(|c| format!("<#{c}>")).collect();
            format!("Done: posted in {}.", links.join(", "))
        }
    }
}

/// Sends the rest of an interaction's answer as followups (private when the answer
/// is, or was deferred); a deferred answer with nothing more says `done` ([`done_words`]).
async fn follow_up(
    http: &Http,
    token: &str,
    pieces: impl Iterator<Item = Piece<'_>>,
    (ephemeral, deferred): (bool, bool),
    done: String,
) -> serenity::Result<()> {
    let mut sent = 0;
    for ((text, embeds), file, buttons, mentions) in pieces {
        CreateInteractionResponseFollowup::new()
            .content(text)
            .embeds(embeds)
            .ephemeral(ephemeral || deferred)
            .allowed_mentions(allowed_mentions(mentions))
            .components(action_rows(&buttons))
            .add_files(file)
            .execute(http, (None, token))
            .await?;
        sent += 1;
    }
    if deferred && sent == 0 {
        CreateInteractionResponseFollowup::new()
            .content(done)
            .ephemeral(true)
            .execute(http, (None, token))
            .await?;
    }
    Ok(())
}

impl Core {
    /// Acknowledges an interaction: answers at once when `work` is quick, otherwise
    /// defers (ephemerally) after `defer_after_ms` and follows up. What the command
    /// queued (a tournament's next round) goes out after its answer
    /// ([`crate::service::referee::Service::delivering`]).
    pub(super) async fn answer<F>(
        &self,
        http: &Http,
        id: InteractionId,
        token: &str,
        component: bool,
        work: F,
    ) where
        F: Future<Output = Result<Reply, StoreError>>,
    {
        self.service
            .delivering(async move {
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
                    // The database not answering is logged once an outage, by the service.
                    if !self.service.failed(&e) {
                        tracing::error!(error = %e, "an interaction could not be handled");
                    }
                    Reply::private(
                        "something went wrong on my side; nothing was done, please try again in a moment",
                    )
                });
                if let Err(e) = self.send_reply(http, id, token, reply, deferred).await {
                    tracing::warn!(error = %e, "cannot answer an interaction");
                }
            })
            .await
    }

    /// Sends an interaction's answer: the response (or, for a button carried out, its
    /// message with the buttons disabled), the followups, and the messages for elsewhere.
    pub(super) async fn send_reply(
        &self,
        http: &Http,
        id: InteractionId,
        token: &str,
        reply: Reply,
        deferred: bool,
    ) -> serenity::Result<()> {
        let Reply {
            mut first,
            mut rest,
            ephemeral,
            update,
            update_text,
            origin,
            mut others,
        } = reply;
        if deferred && !ephemeral {
            // The deferral was private: public messages go to their channel instead.
            others.splice(0..0, first.take().into_iter().chain(rest.drain(..)));
        }
        let pieces = self.pieces(first.iter().chain(rest.iter())).await;
        // A challenge posted by the response itself is kept, to be edited when settled.
        let posted = first
            .as_ref()
            .filter(|o| matches!(o.msg.challenge, Some(ChallengeMark::Posted(_))))
            .cloned();
        let settling: Vec<Out> = first
            .iter()
            .chain(rest.iter())
            .filter(|o| matches!(o.msg.challenge, Some(ChallengeMark::Settled(..))))
            .cloned()
            .collect();
        let mut iter = pieces.into_iter();
        match (update, deferred) {
            // A button whose command was carried out: its message's buttons are disabled.
            (Some(rows), false) => {
                let mut m = CreateInteractionResponseMessage::new().components(rows);
                if let Some(t) = update_text {
                    m = m.content(t).allowed_mentions(CreateAllowedMentions::new());
                }
                CreateInteractionResponse::UpdateMessage(m)
                    .execute(http, (id, token))
                    .await?;
            }
            (Some(rows), true) => {
                let mut m = EditInteractionResponse::new().components(rows);
                if let Some(t) = update_text {
                    m = m.content(t).allowed_mentions(CreateAllowedMentions::new());
                }
                m.execute(http, token).await?;
            }
            (None, true) => {}
            (None, false) => {
                let piece = iter.next().unwrap_or_else(|| {
                    (
                        (done_words(&others), Vec::new()),
                        Vec::new(),
                        Vec::new(),
                        &[],
                    )
                });
                self.respond(http, (id, token), piece, ephemeral, posted.as_ref())
                    .await?;
                if let Some(f) = &first {
                    self.lapse_answered(http, token, f, origin.as_deref(), ephemeral)
                        .await;
                }
            }
        }
        for o in &settling {
            self.after_sent(http, o, None).await;
        }
        let done = done_words(&others);
        follow_up(http, token, iter, (ephemeral, deferred), done).await?;
        self.deliver(http, &others, origin.as_deref()).await;
        Ok(())
    }

    /// Messages as the pieces of an interaction's answer, each under the length limit;
    /// the files and buttons of a message go with its last piece.
    async fn pieces<'a>(&self, outs: impl Iterator<Item = &'a Out>) -> Vec<Piece<'a>> {
        let mut pieces: Vec<Piece> = Vec::new();
        for o in outs {
            let (parts, files) = self.body(o).await;
            let parts = if parts.is_empty() && !files.is_empty() {
                vec![(String::new(), Vec::new())]
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
        pieces
    }

    /// Sends `piece` as the interaction's response; when it posts a challenge
    /// (`posted`), keeps where, to edit it once the challenge is settled.
    async fn respond(
        &self,
        http: &Http,
        (id, token): (InteractionId, &str),
        ((text, embeds), file, buttons, mentions): Piece<'_>,
        ephemeral: bool,
        posted: Option<&Out>,
    ) -> serenity::Result<()> {
        let m = CreateInteractionResponseMessage::new()
            .content(text)
            .embeds(embeds)
            .ephemeral(ephemeral)
            .allowed_mentions(allowed_mentions(mentions))
            .components(action_rows(&buttons))
            .add_files(file);
        CreateInteractionResponse::Message(m)
            .execute(http, (id, token))
            .await?;
        if let Some(o) = posted {
            match http.get_original_interaction_response(token).await {
                Ok(m) => self.after_sent(http, o, Some(&m)).await,
                Err(e) => tracing::warn!(error = %e, "cannot read a challenge's message"),
            }
        }
        Ok(())
    }

    /// Splits a command's messages into the interaction's own reply and the rest.
    pub(super) fn reply_for(
        outs: Vec<Out>,
        changed: bool,
        origin: &Destination,
        button: Option<Vec<CreateActionRow>>,
    ) -> Reply {
        let mut mine = Vec::new();
        let mut others = Vec::new();
        for o in outs {
            if &o.msg.to == origin && !(button.is_some() && changed) {
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
            update: button.filter(|_| changed),
            update_text: None,
            origin: origin_channel,
            others,
        }
    }

    pub(super) async fn on_command(&self, ctx: &Context, cmd: &CommandInteraction) {
        let http = &ctx.http;
        names::learn_from_interaction(&self.service, &cmd.user, cmd.member.as_deref(), Some(cmd));
        let (name, text) =
            slash::command_line(self.service.registry(), &cmd.data.name, &cmd.data.options);
        let user = cmd.user.id;
        if name == slash::PRIVATE {
            let work = async {
                self.service
                    .reopen_dms(&user.to_string(), unix_now())
                    .await?;
                let held = self.service.take_held_messages(&user.to_string()).await?;
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
            let confirm = match self
                .confirm_resign(user, cmd.guild_id, cmd.channel_id, &text)
                .await
            {
                Ok(r) => r,
                Err(e) => Reply::private(e.to_string()),
            };
            self.answer(http, cmd.id, &cmd.token, false, async { Ok(confirm) })
                .await;
            return;
        }
        // A pick, a discard, finale words and a hand are secret: wherever the command is
        // typed, it is a private message to the bot, and its answer is for the user alone
        // (ephemeral).
        let secret = self.service.runs_privately(name);
        let typed_in = place_of(cmd.guild_id, cmd.channel_id);
        // Given in a channel (a game's thread), the channel still decides the game.
        let (place, via) = match (secret, typed_in) {
            (true, Place::Channel(c)) => (Place::Dm, Some(c)),
            (_, typed_in) => (typed_in, None),
        };
        let origin = origin_of(&place, user);
        let work = async {
            let (outs, changed) = self
                .process(
                    http,
                    (user, member_of(cmd.member.as_deref())),
                    (place, via, cmd.guild_id),
                    text,
                    format!("int:{}", cmd.id),
                )
                .await?;
            let mut r = Core::reply_for(outs, changed, &origin, None);
            if secret {
                r.ephemeral = true;
            }
            Ok(r)
        };
        self.answer(http, cmd.id, &cmd.token, false, work).await;
    }

    /// `/resign` asks for confirmation with a button, after the referee says which game
    /// it is (the one named, or the one the place decides); where several could be
    /// meant, a confirmation button per game.
    pub(super) async fn confirm_resign(
        &self,
        user: UserId,
        guild: Option<GuildId>,
        channel: ChannelId,
        text: &str,
    ) -> Result<Reply, StoreError> {
        let place = place_of(guild, channel);
        let inc = Incoming {
            event_id: String::new(),
            user: user.to_string(),
            server: guild.filter(|_| place != Place::Dm).map(|g| g.to_string()),
            place,
            via: None,
            text: text.to_string(),
            at: unix_now(),
        };
        let confirm = |game: i64, label: String| Button {
            id: format!("resign:{game}:{user}"),
            label,
            style: ButtonStyle::Danger,
        };
        let resolved = self.service.game_to_resign(&inc).await?;
        let (text, buttons) = match resolved {
            Resolved::Refused(e) => return Ok(Reply::private(e.text)),
            Resolved::Game(game) => (
                format!("game #{game}: do you really resign? Press the button to confirm."),
                vec![confirm(game, "Resign".into())],
            ),
            Resolved::Choose(choice) => (
                "Which game do you resign? Press its button to resign it.".to_string(),
                choice
                    .games
                    .iter()
                    .zip(&choice.buttons)
                    .map(|(g, b)| confirm(*g, format!("Resign {}", b.label)))
                    .collect(),
            ),
        };
        let mut r = Reply::private(text);
        if let Some(f) = r.first.as_mut() {
            f.buttons = buttons;
        }
        Ok(r)
    }

    pub(super) async fn on_component(&self, ctx: &Context, comp: &ComponentInteraction) {
        let http = &ctx.http;
        names::learn_from_interaction(&self.service, &comp.user, comp.member.as_ref(), None);
        let text = match button_text(&comp.data.custom_id, comp.user.id) {
            Press::Command(t) => t,
            Press::Page(variant, page) => {
                self.turn_page(http, comp, &variant, page).await;
                return;
            }
            Press::Refused(why) => {
                let r = Reply::private(why);
                self.answer(http, comp.id, &comp.token, true, async { Ok(r) })
                    .await;
                return;
            }
        };
        let user = comp.user.id;
        // A button that sends a secret command (a pick offered by a "which game?" answer)
        // sends it privately, as the slash command would.
        let secret = self.service.runs_privately(&text);
        let (place, via) = match (secret, place_of(comp.guild_id, comp.channel_id)) {
            (true, Place::Channel(c)) => (Place::Dm, Some(c)),
            (_, place) => (place, None),
        };
        let origin = origin_of(&place, user);
        // An ephemeral message (the resignation's confirmation, a private "which game?"):
        // its buttons are disabled once used, and the answer is private too.
        let ephemeral_source = comp.message.flags.is_some_and(|f| f.bits() & 64 != 0)
            || comp.data.custom_id.starts_with("resign:");
        let disabled = buttons::disabled_rows(&comp.message.components);
        let danger = buttons::is_danger(&comp.message.components, &comp.data.custom_id);
        let custom_id = comp.data.custom_id.as_str();
        let work = async {
            let (outs, changed) = self
                .process(
                    http,
                    (user, member_of(comp.member.as_ref())),
                    (place, via, comp.guild_id),
                    text,
                    format!("int:{}", comp.id),
                )
                .await?;
            // A button that stays for others (a tournament's Join) is answered as its
            // command typed would be, its message left as it is.
            let used = (!buttons::is_kept(custom_id)).then(|| disabled.clone());
            let mut r = Core::reply_for(outs, changed, &origin, used);
            if danger && changed && custom_id.starts_with("cmd:") {
                self.answer_in_place(&mut r, user);
                return Ok(r);
            }
            if !changed {
                Core::late_press(&mut r, custom_id, disabled);
            }
            if ephemeral_source && changed {
                // Everything public goes to the channel; the private answers follow up.
                r.others.extend(r.first.take());
                r.others.append(&mut r.rest);
                r.ephemeral = true;
            }
            Ok(r)
        };
        self.answer(http, comp.id, &comp.token, true, work).await;
    }

    /// A destructive confirmation of the referee's carried out: its private answer to the
    /// presser takes the place of the pressed message's text, its buttons gone, and is
    /// sent nowhere else; anything public goes where it belongs.
    fn answer_in_place(&self, r: &mut Reply, user: UserId) {
        let me = Destination::Dm(user.to_string());
        let all: Vec<Out> = r
            .first
            .take()
            .into_iter()
            .chain(r.rest.drain(..))
            .chain(r.others.drain(..))
            .collect();
        for o in all {
            if r.update_text.is_none() && o.msg.to == me {
                let shown = text::slash_commands(self.service.registry(), o.msg.marked_text());
                let shown = text::for_discord(&shown);
                r.update_text = Some(shown.chars().take(text::MESSAGE_LIMIT).collect());
            } else {
                r.others.push(o);
            }
        }
        r.update = Some(Vec::new());
        r.ephemeral = true;
    }

    /// A press refused because its button's moment has passed (the offer answered, the
    /// turn over, the game ended): the pressed message's buttons are disabled (`rows`), and
    /// the presser alone is told what happened.
    fn late_press(r: &mut Reply, custom_id: &str, rows: Vec<CreateActionRow>) {
        let Some(first) = r.first.as_mut() else {
            return;
        };
        let passed = first
            .msg
            .refusal
            .is_some_and(|kind| buttons::moment_passed(custom_id, kind));
        if !passed {
            return;
        }
        let marked = buttons::late_press(first.msg.marked_text());
        first.msg.text = buttons::late_press(&first.msg.text);
        first.msg.marked = marked;
        r.update = Some(rows);
        r.ephemeral = true;
    }

    /// Turns a variant's rules to page `page` in the pressed message itself: its embed
    /// and its buttons replaced, nothing else sent. Anyone may turn a page.
    async fn turn_page(
        &self,
        http: &Http,
        comp: &ComponentInteraction,
        variant: &str,
        page: usize,
    ) {
        let card = match self.service.rules_card(variant) {
            Ok(card) => card,
            Err(e) => {
                let r = Reply::private(e.text);
                self.answer(http, comp.id, &comp.token, true, async { Ok(r) })
                    .await;
                return;
            }
        };
        let (shown, buttons) = embeds::rules_page(self.service.registry(), &card, page);
        let update = CreateInteractionResponse::UpdateMessage(
            CreateInteractionResponseMessage::new()
                .embed(shown.embed())
                .components(action_rows(&buttons)),
        );
        if let Err(e) = update.execute(http, (comp.id, &comp.token)).await {
            tracing::warn!(error = %e, "cannot turn a page of the rules");
        }
    }

    /// Suggestions while a user types an option: their games for `game` (filtered by
    /// what they typed), for an argument a variant declares as a move
    /// ([`ArgKind::Move`]) the moves their seat may make now in their game here, as
    /// they would type them, beginning with what they typed, for a choice of more values
    /// than Discord lists the values beginning with it, and for `/help`'s `command` the
    /// command names beginning with it. Discord shows at most 25
    /// choices, each name and value within 100 characters; only the typing user sees
    /// them.
    pub(super) async fn on_autocomplete(&self, ctx: &Context, ac: &CommandInteraction) {
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
        let own = slash::suggestions(
            self.service.registry(),
            &ac.data.name,
            &ac.data.options,
            focused.name,
            typed,
        );
        let mut choices: Vec<AutocompleteChoice> = match (command_name, focused.name) {
            // A variant of `/tournament create`: the registry's, as the format allows.
            _ if own.is_some() => own
                .unwrap_or_default()
                .into_iter()
                .map(|(name, id)| AutocompleteChoice::new(name, id))
                .collect(),
            (_, "game") => self.game_choices(&user, command_name, typed).await,
            _ if is_move => {
                let place = place_of(ac.guild_id, ac.channel_id);
                self.move_choices(&user, &place, game_option(options), typed)
                    .await
            }
            // A choice of more values than Discord lists: those beginning with what was
            // typed (its value or its label).
            _ if argument.as_ref().is_some_and(|a| !a.choices.is_empty()) => {
                let values = argument.map(|a| a.choices).unwrap_or_default();
                value_choices(values, typed)
            }
            ("help", "command") => self.help_choices(typed),
            _ => Vec::new(),
        };
        choices.truncate(CHOICES);
        let resp = CreateAutocompleteResponse::new().set_choices(choices);
        if let Err(e) = CreateInteractionResponse::Autocomplete(resp)
            .execute(&ctx.http, (ac.id, &ac.token))
            .await
        {
            tracing::warn!(error = %e, "cannot answer an autocompletion");
        }
    }

    /// `user`'s games that `command` may be about whose number begins with `typed`,
    /// each labelled with its variant and the other players.
    async fn game_choices(
        &self,
        user: &str,
        command: &str,
        typed: &str,
    ) -> Vec<AutocompleteChoice> {
        let games = match self.service.games_to_suggest(user, command).await {
            Ok(games) => games,
            Err(e) => {
                tracing::warn!(error = %e, "cannot list games to suggest");
                return Vec::new();
            }
        };
        let mut choices = Vec::new();
        for g in games.iter().filter(|g| g.id.to_string().starts_with(typed)) {
            // The other players, partners apart from opponents (`with carol vs bob, dave`).
            let others = self.service.others_label(g, user);
            let variant = self.service.display_name(&g.variant);
            let label = if others.is_empty() {
                format!("#{} {variant}", g.id)
            } else {
                format!("#{} {variant} {others}", g.id)
            };
            choices.push(AutocompleteChoice::new(
                label.chars().take(CHOICE_LIMIT).collect::<String>(),
                g.id,
            ));
        }
        choices
    }

    /// The moves `user`'s seat may make now in `game` (or their game at `place`),
    /// beginning with `typed`, as they would type them.
    async fn move_choices(
        &self,
        user: &str,
        place: &Place,
        game: Option<i64>,
        typed: &str,
    ) -> Vec<AutocompleteChoice> {
        match self
            .service
            .move_suggestions(user, place, game, typed, CHOICES)
            .await
        {
            Ok(moves) => moves
                .into_iter()
                .filter(|m| m.chars().count() <= CHOICE_LIMIT)
                .map(|m| AutocompleteChoice::new(m.clone(), m))
                .collect(),
            Err(e) => {
                tracing::warn!(error = %e, "cannot list moves to suggest");
                Vec::new()
            }
        }
    }

    /// `/help`'s command names beginning with `typed`.
    fn help_choices(&self, typed: &str) -> Vec<AutocompleteChoice> {
        let typed = typed.to_lowercase();
        let registry = self.service.registry();
        let mut names: Vec<&str> = command::REFEREE_COMMANDS
            .iter()
            .map(|c| c.name)
            .chain(registry.commands().into_iter().map(|c| c.name))
            .filter(|n| n.starts_with(&typed))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
            .into_iter()
            .map(|n| AutocompleteChoice::new(n, n))
            .collect()
    }
}

/// The game number already given in a command's `game` option, if any.
fn game_option(options: &[serenity::all::CommandDataOption]) -> Option<i64> {
    options
        .iter()
        .find(|o| o.name == "game")
        .and_then(|o| match &o.value {
            CommandDataOptionValue::Integer(i) => Some(*i),
            CommandDataOptionValue::Autocomplete { value, .. } => {
                value.trim_start_matches('#').parse().ok()
            }
            _ => None,
        })
}

/// The values of a choice (value, label) whose value or label begins with `typed`.
fn value_choices(values: Vec<(&str, &str)>, typed: &str) -> Vec<AutocompleteChoice> {
    let typed = typed.to_lowercase();
    values
        .into_iter()
        .filter(|(value, label)| {
            value.to_lowercase().starts_with(&typed) || label.to_lowercase().starts_with(&typed)
        })
        .map(|(value, label)| AutocompleteChoice::new(label, value))
        .collect()
}
