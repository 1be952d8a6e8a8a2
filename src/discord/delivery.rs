//! Delivering the service's messages to Discord: text split under the limit with its
//! files (board image, record, animation) and buttons, to a channel (unarchiving a game's
//! thread) or a DM (held for `/postal private` when DMs are closed), and the outbox's notices
//! (a tournament round's games opening their threads as they are announced).

use super::faults::GlobalLimit;
use super::*;

/// One Discord message of a service message: its text and its embeds.
pub(super) type Part = (String, Vec<CreateEmbed>);

/// `m`, piece `i` of `out`, with `out`'s nonce (one per piece) if it has one.
pub(super) fn with_nonce(m: CreateMessage, out: &Out, i: usize) -> CreateMessage {
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
pub(super) fn allowed_mentions(users: &[String]) -> CreateAllowedMentions {
    CreateAllowedMentions::new().replied_user(false).users(
        users
            .iter()
            .filter_map(|u| u.parse::<u64>().ok())
            .filter(|&id| id != 0)
            .map(UserId::new),
    )
}

/// Draws a service view's board as a PNG, off the async runtime's threads.
pub(super) async fn board_png(renderer: &Arc<Renderer>, view: &View) -> Option<Vec<u8>> {
    let renderer = renderer.clone();
    let board = view.board.clone();
    tokio::task::spawn_blocking(move || renderer.render_png(&board, &RenderOptions::default()))
        .await
        .ok()
}

/// Sends `m` to `channel`; when Discord answers that the channel is an archived thread
/// (50083: a game's thread archives itself after a week without messages, while a move
/// may take far longer), unarchives it and sends once more. Each request first waits
/// out Discord's `global` rate limit.
pub(super) async fn send_unarchiving(
    http: &Http,
    global: &GlobalLimit,
    channel: ChannelId,
    m: CreateMessage,
) -> serenity::Result<Message> {
    global.wait().await;
    match channel.send_message(http, m.clone()).await {
        Ok(sent) => Ok(sent),
        Err(serenity::Error::Http(e)) if thread_archived(&e) => {
            global.wait().await;
            channel
                .edit_thread(http, EditThread::new().archived(false))
                .await?;
            tracing::info!(%channel, "unarchived a thread to post in it");
            global.wait().await;
            channel.send_message(http, m).await
        }
        Err(e) => Err(e),
    }
}

/// The HTTP status of Discord's refusal `e` (0 when it never answered).
fn rest_status(e: &serenity::Error) -> u16 {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            r.status_code.as_u16()
        }
        _ => 0,
    }
}

/// Whether Discord refused a message because its thread is archived (50083).
pub(super) fn thread_archived(e: &serenity::http::HttpError) -> bool {
    matches!(e, serenity::http::HttpError::UnsuccessfulRequest(r) if r.error.code == 50083)
}

/// Whether Discord refused a private message because the user does not take them (50007).
pub(super) fn dm_refused(e: &serenity::http::HttpError) -> bool {
    matches!(e, serenity::http::HttpError::UnsuccessfulRequest(r) if r.error.code == 50007)
}

/// Whether Discord refused a request for naming a channel it does not know (10003).
fn unknown_channel(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) if r.error.code == 10003)
}

impl Core {
    pub(super) async fn png(&self, view: &Option<View>) -> Option<CreateAttachment> {
        let view = view.clone()?;
        board_png(&self.renderer, &view)
            .await
            .map(|bytes| CreateAttachment::bytes(bytes, "board.png"))
    }

    /// A message as Discord pieces under the length limit, and the files that go with
    /// the last piece: the board image; a document (a record) as a file of its own name
    /// instead of text; and, on a message announcing a game's end, the game's record
    /// (`.pgn`) and its animation (`.gif`).
    pub(super) async fn body(&self, out: &Out) -> (Vec<Part>, Vec<CreateAttachment>) {
        if let Some(p) = &out.msg.progress {
            // An analysis's progress: a small embed, nothing else.
            let page = super::progress::progress_page(p);
            return (vec![(String::new(), vec![page.embed()])], Vec::new());
        }
        let mut files: Vec<CreateAttachment> = self.png(&out.msg.image).await.into_iter().collect();
        if let Some(table) = &out.msg.table {
            // A tournament's standings, drawn off the async runtime's threads.
            let (renderer, table) = (self.renderer.clone(), table.clone());
            let png = tokio::task::spawn_blocking(move || {
                crate::render::table::render_table(&table, renderer.theme()).to_png()
            })
            .await;
            if let Ok(png) = png {
                files.push(CreateAttachment::bytes(png, "standings.png"));
            }
        }
        if let Some(graph) = &out.msg.graph {
            // An analysis's evaluation graph, drawn off the async runtime's threads.
            let graph = graph.clone();
            if let Ok(png) = tokio::task::spawn_blocking(move || graph.to_png()).await {
                files.push(CreateAttachment::bytes(png, "analysis.png"));
            }
        }
        if let Some(card) = &out.msg.card {
            // Laid out as embeds (help, rules, the variants), in place of the typed text.
            let (messages, _) = embeds::card(self.service.registry(), card);
            let parts = messages
                .iter()
                .map(|m| (String::new(), m.iter().map(embeds::Page::embed).collect()))
                .collect();
            return (parts, files);
        }
        if let Some(table) = &out.msg.table {
            // A tournament's standings: their table as an embed, beside its image.
            let page = lists::standings(table);
            return (vec![(String::new(), vec![page.embed()])], files);
        }
        let pieces = match &out.msg.document {
            Some(name) => {
                files.push(CreateAttachment::bytes(
                    out.msg.text.clone().into_bytes(),
                    name.clone(),
                ));
                Vec::new()
            }
            None if !out.msg.listing.is_empty() => {
                // Each line's marked commands as slash commands, as in any text.
                let registry = self.service.registry();
                let items: Vec<crate::service::referee::Listed> = (out.msg.listing.iter())
                    .map(|l| crate::service::referee::Listed {
                        line: text::slash_commands(registry, &l.line),
                        ..l.clone()
                    })
                    .collect();
                text::split(&text::listing(&items), text::MESSAGE_LIMIT)
            }
            None => text::split(
                &text::for_discord(&text::slash_commands(
                    self.service.registry(),
                    out.msg.marked_text(),
                )),
                text::MESSAGE_LIMIT,
            ),
        };
        if let (true, Some(id)) = (out.msg.ending, out.msg.game) {
            self.attach_ending(id, &mut files).await;
        }
        let parts = pieces.into_iter().map(|p| (p, Vec::new())).collect();
        (parts, files)
    }

    /// Adds to `files` what a message announcing game `id`'s end carries: its record
    /// (`.pgn`) and its animation (`.gif`, when within Discord's attachment limit); what
    /// cannot be read or drawn is logged and left out.
    async fn attach_ending(&self, id: i64, files: &mut Vec<CreateAttachment>) {
        match self.service.record(id).await {
            Ok(Some((name, pgn))) => files.push(CreateAttachment::bytes(pgn.into_bytes(), name)),
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

    /// Sends one message to a channel, split under the limit; the files and buttons go
    /// with the last piece, which is returned.
    pub(super) async fn send_channel(
        &self,
        http: &Http,
        channel: &str,
        out: &Out,
    ) -> Result<Option<Message>, SendError> {
        let Ok(id) = channel.parse::<u64>() else {
            return Err(SendError::BadChannel(channel.to_string()));
        };
        let mut last = None;
        for m in self.messages(out).await {
            last = Some(send_unarchiving(http, &self.global, ChannelId::new(id), m).await?);
        }
        Ok(last)
    }

    /// A message as the Discord messages that send it, to a channel or a DM alike: its
    /// pieces under the length limit ([`Core::body`]), each with its nonce and the users
    /// it may notify; the files and buttons (a challenge's or a game's, a proposal's) go
    /// with the last piece, which is empty when there are files and no text. None when
    /// there is neither.
    pub(super) async fn messages(&self, out: &Out) -> Vec<CreateMessage> {
        let (pieces, files) = self.body(out).await;
        let pieces = match (pieces.is_empty(), files.is_empty()) {
            (true, true) => return Vec::new(),
            (true, false) => vec![(String::new(), Vec::new())],
            (false, _) => pieces,
        };
        let last = pieces.len() - 1;
        let mut files = Some(files);
        pieces
            .into_iter()
            .enumerate()
            .map(|(i, (p, embeds))| {
                let m = with_nonce(
                    CreateMessage::new()
                        .content(p)
                        .embeds(embeds)
                        .allowed_mentions(allowed_mentions(&out.msg.mentions)),
                    out,
                    i,
                );
                // The first piece answers the user's message, when it answers one.
                let m = match (i, out.reply_to) {
                    (0, Some(to)) => m.reference_message(to),
                    _ => m,
                };
                match (i == last).then(|| files.take()).flatten() {
                    Some(files) => m.add_files(files).components(action_rows(&out.buttons)),
                    None => m,
                }
            })
            .collect()
    }

    /// Sends a private message; when the user's DMs are closed (50007), keeps it for
    /// `/private`, says so where the game is (without the content), and stops trying
    /// until the user interacts again.
    pub(super) async fn send_dm(
        &self,
        http: &Http,
        user: &str,
        out: &Out,
        origin: Option<&str>,
    ) -> Result<Option<Message>, SendError> {
        let closed = self.service.dms_closed(user).await?;
        if !closed {
            let Ok(uid) = user.parse::<u64>() else {
                return Err(SendError::BadUser(user.to_string()));
            };
            match self.try_dm(http, UserId::new(uid), out).await {
                Ok(last) => return Ok(last),
                Err(serenity::Error::Http(e)) if dm_refused(&e) => {
                    self.service.refuse_dms(user, unix_now()).await?;
                }
                Err(e) => return Err(e.into()),
            }
        }
        self.service
            .hold_message(user, out.msg.marked_text(), unix_now())
            .await?;
        if closed {
            return Ok(None);
        }
        // Where to say so: where the user spoke, else the game's home.
        let place = match (origin, out.msg.game) {
            (Some(c), _) => Some(c.to_string()),
            (None, Some(g)) => self.service.home_of(g).await?,
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
                reply_to: None,
            };
            self.send_channel(http, &c, &note).await?;
        }
        Ok(None)
    }

    /// Delivers a reminder or timeout from the deadline task's outbox with its enforced
    /// nonce and its buttons (a timeout's Rematch), through the same sending as every
    /// message (a thread Discord archived is unarchived; an end of a game gets its
    /// record and animation), then marks it delivered (a failed send is logged and marked, not retried
    /// at every check). One produced from a game read just before the game moved to its
    /// thread still goes to the thread, and so does the note about a private message
    /// that could not be sent.
    pub(super) async fn deliver_notice(&self, http: &Http, queued: Queued) {
        // A game starting now is in its thread once this lock is free; a game this
        // message starts (a tournament's round) gets its thread under it.
        let Queued { id, mut message } = queued;
        if message.retitle {
            // A thread to name again (a player of its game was forgotten), no message.
            if let (Destination::Channel(thread), Some(g)) = (&message.to, message.game) {
                self.retitle_thread(http, g, thread).await;
            }
            if let Err(e) = self.service.delivered(id, unix_now()).await {
                tracing::error!(error = %e, "cannot mark a message delivered");
            }
            return;
        }
        let starting = self.starting.lock().await;
        if let (Destination::Channel(c), Some(g)) = (&message.to, message.game) {
            match self.service.thread_of(g).await {
                Ok(Some((thread, parent))) if &parent == c => {
                    message.to = Destination::Channel(thread)
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "cannot look up a game's thread"),
            }
        }
        if let Some(p) = message.progress {
            // An analysis's progress: its message edited, or posted the first time.
            drop(starting);
            self.deliver_progress(http, id, message, p).await;
            if let Err(e) = self.service.delivered(id, unix_now()).await {
                tracing::error!(error = %e, "cannot mark a message delivered");
            }
            return;
        }
        // The end of a game carries its Rematch button, as an end by a move does.
        let mut outs = vec![Out {
            buttons: buttons_of(&message),
            msg: message,
            nonce: Some(format!("postal-{id}")),
            reply_to: None,
        }];
        self.open_started_thread(http, &mut outs).await;
        drop(starting);
        self.deliver(http, &outs, None).await;
        if let Err(e) = self.service.delivered(id, unix_now()).await {
            tracing::error!(error = %e, "cannot mark a message delivered");
        }
    }

    /// A game the referee started, announced by `outs[0]` from the outbox (a tournament's
    /// round, [`Outbound::started`]), gets its thread in the channel the announcement
    /// goes to, as a game started by a command does: the announcement goes to the thread,
    /// a pointer to it stays in the channel. Nothing for any other message, or a game
    /// that has its thread already (a message delivered again after a restart).
    async fn open_started_thread(&self, http: &Http, outs: &mut Vec<Out>) {
        let Some(first) = outs.first() else {
            return;
        };
        let Destination::Channel(c) = &first.msg.to else {
            return;
        };
        if !first.msg.started {
            return;
        }
        let channel = c.clone();
        if let Err(e) = self.open_threads(http, &channel, outs).await {
            tracing::warn!(error = %e, "cannot open a started game's thread");
        }
    }

    /// Sends a private message to `user` (nothing when it has neither text nor files),
    /// returning its last piece; Discord's refusal is returned as it came, for
    /// [`Core::send_dm`] to read.
    pub(super) async fn try_dm(
        &self,
        http: &Http,
        user: UserId,
        out: &Out,
    ) -> serenity::Result<Option<Message>> {
        let messages = self.messages(out).await;
        if messages.is_empty() {
            return Ok(None);
        }
        let dm = match self.dm_channels.get(user) {
            Some(known) => known,
            None => {
                self.global.wait().await;
                let dm = user.create_dm_channel(http).await?.id;
                self.dm_channels.remember(user, dm);
                dm
            }
        };
        let mut last = None;
        for m in messages {
            self.global.wait().await;
            match dm.send_message(http, m).await {
                Ok(sent) => last = Some(sent),
                Err(e) => {
                    // A channel Discord no longer knows is asked for again next time.
                    if unknown_channel(&e) {
                        self.dm_channels.forget(user);
                    }
                    return Err(e);
                }
            }
        }
        Ok(last)
    }

    /// Delivers messages; `origin` is the channel the triggering event came from.
    pub(super) async fn deliver(&self, http: &Http, outs: &[Out], origin: Option<&str>) {
        for o in outs {
            let started = std::time::Instant::now();
            let r = match &o.msg.to {
                Destination::Channel(c) => self.send_channel(http, c, o).await,
                Destination::Dm(u) => self.send_dm(http, u, o, origin).await,
            };
            let telemetry = self.service.telemetry();
            telemetry.delivery(started.elapsed().as_secs_f64());
            match r {
                Err(e) => {
                    if let SendError::Discord(d) = &e {
                        telemetry.rest_error(rest_status(d));
                    }
                    tracing::warn!(error = %e, "a message could not be delivered")
                }
                Ok(sent) => self.after_sent(http, o, sent.as_ref()).await,
            }
        }
    }

    /// What follows the sending of `out` (its last piece `sent`, when Discord answered
    /// with it): a challenge's post is kept, to be edited when the challenge is settled;
    /// a message that settles one edits its posts; a game's buttons lapse as it moves on
    /// ([`Core::lapse_buttons`]).
    pub(super) async fn after_sent(&self, http: &Http, out: &Out, sent: Option<&Message>) {
        if let Some(sent) = sent {
            self.lapse_buttons(http, out, sent.channel_id, Some(sent.id))
                .await;
        }
        match (&out.msg.challenge, sent) {
            (Some(ChallengeMark::Posted(game)), Some(sent)) => {
                let post = ChallengePost {
                    channel: sent.channel_id.to_string(),
                    message: sent.id.to_string(),
                    text: sent.content.clone(),
                };
                let kept = self.service.record_challenge_post(*game, &post).await;
                if let Err(e) = kept {
                    tracing::warn!(game, error = %e, "cannot keep where a challenge was posted");
                }
            }
            (Some(ChallengeMark::Settled(game, how)), _) => {
                self.settle_challenge(http, *game, how).await
            }
            _ => {}
        }
    }

    /// Edits the messages that posted game `game`'s challenge once it is settled: its
    /// text stays, with how it ended (`how`) under it, and its buttons go.
    async fn settle_challenge(&self, http: &Http, game: i64, how: &str) {
        let posts = match self.service.take_challenge_posts(game).await {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot read where a challenge was posted");
                return;
            }
        };
        for post in posts {
            let (Ok(channel), Ok(message)) =
                (post.channel.parse::<u64>(), post.message.parse::<u64>())
            else {
                continue;
            };
            let how = text::slash_commands(self.service.registry(), how);
            let content = format!("{}\n\u{2192} {}", post.text, text::for_discord(&how));
            let edit = EditMessage::new()
                .content(
                    content
                        .chars()
                        .take(text::MESSAGE_LIMIT)
                        .collect::<String>(),
                )
                .components(Vec::new())
                .allowed_mentions(CreateAllowedMentions::new());
            self.global.wait().await;
            if let Err(e) = ChannelId::new(channel)
                .edit_message(http, MessageId::new(message), edit)
                .await
            {
                tracing::warn!(game, error = %e, "cannot mark a challenge settled");
            }
        }
    }
}
