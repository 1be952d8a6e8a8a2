//! The referee's messages: what comes in ([`Incoming`]), what goes out ([`Outbound`] and
//! its parts), and why a command failed ([`Fail`]). The foundation every part of the
//! referee builds on; it depends on none of them.

use super::marks::{typed_commands, users_as_keys};
use crate::render::BoardView;
use crate::store::StoreError;
use crate::variants::api::{RefusalKind, RuleError, VariantSpec};
use serde::{Deserialize, Serialize};

/// The file name of game `id`'s record.
pub fn record_name(id: i64) -> String {
    format!("game-{id}.pgn")
}

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

/// Who the sender of an [`Incoming`] is on its server, as the adapter read it from the
/// platform's own data (Discord's interaction payload and message author), never from
/// the text: what a server's settings and moderator tools are checked against.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Member {
    /// The sender holds the server's Manage Server permission (or Administrator).
    pub manager: bool,
    /// The server's roles the sender holds, by id.
    pub roles: Vec<String>,
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
    /// Whether pressing it destroys something that cannot be had back (forget-me's
    /// confirmation): an adapter shows it as a warning, and answers on the message pressed.
    pub danger: bool,
    /// Whether it stays for others to press once one has (a tournament's Join): an
    /// adapter leaves its message as it is, where it would take used buttons off.
    pub keep: bool,
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
    /// The games the message points to (a rematch posted elsewhere, an action done in
    /// its game's channel): each one's line with where it is played, so an adapter may
    /// show each with a link to its game; the text holds the same lines.
    pub listing: Vec<Listed>,
    /// The message is a turn notice: it tells the users it calls on (in a channel, its
    /// [`Outbound::mentions`]; privately, its recipient) that the game awaits them. A
    /// player who chose the daily digest is neither called on nor sent one: the digest
    /// lists the game instead (docs/service.md, "Daily digest").
    pub turn: bool,
    /// What the message does to a challenge: posts it, or settles one posted before
    /// (an adapter that edits messages then edits the challenge's to say how it ended).
    pub challenge: Option<ChallengeMark>,
    /// The text with the users it names and the commands it quotes marked ([`user_mark`],
    /// [`command_mark`]), for an adapter that shows them its own way (Discord as mentions
    /// and slash commands, [`render_users`], [`render_commands`]); `text` holds the same
    /// with each user as their key and each command as typed, which every reader can show.
    pub marked: String,
    /// What the message says, as structured data, for an adapter that lays it out its own
    /// way (Discord's embeds): help, a variant's rules, the list of variants, a player's
    /// games, settings, a leaderboard. The text
    /// holds the same in typed form, for every other reader.
    pub card: Option<Card>,
    /// A table an adapter that sends images may draw as one
    /// ([`crate::render::table::render_table`]): a tournament's standings. The text holds
    /// the same table in monospace.
    pub table: Option<crate::render::table::Table>,
    /// An analysis's evaluation graph, which an adapter that sends images draws
    /// ([`crate::render::graph::EvalGraph::to_png`]); the text holds the figures.
    pub graph: Option<crate::render::graph::EvalGraph>,
    /// The message announces a game the referee started with every seat taken (a
    /// tournament's), in the message's channel: an adapter that gives games threads opens
    /// the game's thread there, as it does for a challenge accepted.
    pub started: bool,
    /// The message asks for its game's thread to be named again, and has no text: a
    /// player of the game was forgotten, and the thread's name still shows their name. An
    /// adapter that gives games threads names it again from the game as it now stands
    /// (the label in their place); any other has nothing to do.
    pub retitle: bool,
    /// The message updates an analysis's progress message: an adapter that edits
    /// messages posts it the first time and edits that post for every later update of the
    /// same game's analysis ([`Service::analysis_post`]); the text says the same in words.
    /// The console shows none.
    pub progress: Option<AnalysisProgress>,
}

/// A message's content as structured data ([`Outbound::card`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Card {
    /// A help answer.
    Help(crate::service::command::help::Help),
    /// One variant's rules.
    Rules(RulesCard),
    /// Every variant, a line each.
    Variants(Vec<VariantLine>),
    /// A player's games (`games`): each with where it is played, whether it awaits the
    /// player, and its deadline.
    Games(GameList),
    /// Settings as named values: a player's own (`settings`), a server's (`server`).
    Facts(Facts),
    /// Players ranked (`leaderboard`): by rating, points or best score.
    Rankings(Vec<Ranking>),
}

/// A player's games ([`Card::Games`]), in the order the text lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameList {
    /// Whether these are finished games (`games finished`), the most recent first.
    pub finished: bool,
    /// The games.
    pub games: Vec<ListedGame>,
}

/// One game of a [`GameList`]: its parts as the text's line shows them
/// (`#12 standard vs @bob: @alice (White) to move, by ...`), users and times marked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedGame {
    /// The game's id.
    pub game: i64,
    /// Its variant's display name.
    pub variant: &'static str,
    /// The other players (` vs @bob`), marked; empty for a game of one.
    pub against: String,
    /// Where it stands (whose turn and by when, pending, or its result), marked.
    pub state: String,
    /// Whether it is a challenge not yet accepted.
    pub pending: bool,
    /// Whether it awaits the player who asked.
    pub turn: bool,
    /// Its nearest deadline shown, in seconds since the epoch.
    pub due: Option<i64>,
    /// The server (Discord guild) it was made in; `None` for a game made in private.
    pub server: Option<String>,
    /// The channel or thread it is played in; `None` for a game made in private.
    pub channel: Option<String>,
}

/// Settings as named values ([`Card::Facts`]): a title, a line before them, the values,
/// and a note after them (how to change them). Names are plain; the rest is marked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// What they are (`Your settings`).
    pub title: String,
    /// A line before the values (who changed them); may be empty.
    pub intro: String,
    /// Each setting's name and value.
    pub facts: Vec<(String, String)>,
    /// A line after the values; may be empty.
    pub note: String,
}

/// Players ranked ([`Card::Rankings`]): a title, and a row per player, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranking {
    /// What is ranked (`Chess# ratings here`).
    pub title: String,
    /// How many players the ranking has (the rows may show fewer).
    pub players: usize,
    /// The rows shown, best first.
    pub rows: Vec<Ranked>,
}

/// One row of a [`Ranking`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// The player, marked ([`user_mark`]).
    pub player: String,
    /// What ranks them (`1662 (±80)`, `5 points`, `312`).
    pub score: String,
    /// What else the row says (their record); may be empty.
    pub detail: String,
}

/// One variant's rules: what it is, in brief, and its whole rules document
/// (`docs/rules/`, embedded in the binary).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesCard {
    /// The variant's id.
    pub variant: &'static str,
    /// Its display name.
    pub name: &'static str,
    /// What it is, in one line.
    pub summary: &'static str,
    /// The rules in brief, the commands it quotes marked ([`command_mark`]).
    pub brief: String,
    /// How many players it takes.
    pub players: usize,
    /// Its own commands' names.
    pub commands: Vec<&'static str>,
    /// The options a challenge may give it: how to write each, and what it does.
    pub options: Vec<(&'static str, &'static str)>,
    /// The whole rules document, in the form a chat shows
    /// ([`VariantSpec::rules_text`]), with the decisions the project took where the source
    /// is silent, the commands it quotes marked ([`command_mark`]).
    pub document: String,
    /// Where the operator publishes the document, if configured.
    pub link: Option<String>,
}

impl RulesCard {
    /// The card of variant `v`, with the operator's `link` to its document, if any. The
    /// commands its texts quote (inline code whose first word names one of the referee's
    /// commands or the variant's) are marked, for each reader to write its own way.
    pub fn of(v: &dyn VariantSpec, link: Option<String>) -> RulesCard {
        let is_command = |word: &str| {
            crate::service::command::find(word).is_some()
                || v.commands().iter().any(|c| c.is_named(word))
        };
        let mark = |text: &str| crate::variants::player_text::mark_commands(text, &is_command);
        RulesCard {
            variant: v.id(),
            name: v.display_name(),
            summary: v.summary(),
            brief: mark(v.rules_summary()),
            players: v.seats().count(),
            commands: v.commands().iter().map(|c| c.name).collect(),
            options: v.options().iter().map(|o| (o.usage, o.help)).collect(),
            document: mark(v.rules_text()),
            link,
        }
    }
}

/// One variant in the list of variants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantLine {
    /// Its id.
    pub variant: &'static str,
    /// Its display name.
    pub name: &'static str,
    /// How many players it takes.
    pub players: usize,
    /// What it is, in one line.
    pub summary: &'static str,
}

impl Outbound {
    /// Sets [`Outbound::marked`] from the text as the referee wrote it, and the text to
    /// its plain form (users as their keys, commands as typed): how every message leaves
    /// the service.
    pub(super) fn finish(&mut self) {
        if self.marked.is_empty() {
            self.marked = typed_commands(&users_as_keys(&self.text));
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

/// The messages a command produces, and where its own answers go.
pub(super) struct Reply {
    pub(super) out: Vec<Outbound>,
    pub(super) origin: Destination,
    /// Players known, from a game read for this reply, to have chosen no settings that
    /// change their messages: [`Service::personalize`] need not read theirs.
    pub(super) plain: Vec<String>,
}

impl Reply {
    pub(super) fn say(&mut self, text: impl Into<String>) {
        self.out.push(Outbound {
            to: self.origin.clone(),
            text: text.into(),
            ..Outbound::default()
        });
    }

    /// Gives the last message said its structured form ([`Outbound::card`]).
    pub(super) fn card(&mut self, card: Card) {
        if let Some(last) = self.out.last_mut() {
            last.card = Some(card);
        }
    }
}

/// Why a command failed: a refusal for the user, or a storage error.
#[derive(Debug)]
pub enum Fail {
    /// A refusal with its kind and reason; nothing changed.
    Refuse(RuleError),
    /// The command fits several of the user's games and named none: nothing changed; the
    /// user is asked which, with a button per game ([`Choice`]).
    Choose(Choice),
    /// The database failed.
    Store(StoreError),
}

impl Fail {
    /// A refusal of `kind`.
    pub(super) fn of(kind: RefusalKind, text: impl Into<String>) -> Fail {
        Fail::Refuse(RuleError::of(kind, text))
    }
}

impl From<StoreError> for Fail {
    fn from(e: StoreError) -> Fail {
        Fail::Store(e)
    }
}

impl From<RuleError> for Fail {
    fn from(e: RuleError) -> Fail {
        Fail::Refuse(e)
    }
}

/// "Which game?": the question's text and a button per game that fits.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The question, listing the games.
    pub text: String,
    /// One button per game (at most 25, Discord's limit), sending the command with its id.
    pub buttons: Vec<Button>,
    /// The games offered, in the order of the buttons.
    pub games: Vec<i64>,
}

/// One game a message points to ([`Outbound::listing`]): its line as the text shows it,
/// and where the game is played, so an adapter may show the line with a link to the
/// game's channel or thread. The message's text holds the same lines, for adapters
/// without links.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The game's id.
    pub game: i64,
    /// Its line (`#12 standard vs bob: White to move, by ...`).
    pub line: String,
    /// The server (Discord guild) it was made in; `None` for a game made in private or in
    /// the console.
    pub server: Option<String>,
    /// The channel or thread it is played in; `None` for a game made in private.
    pub channel: Option<String>,
}

/// Where an analysis stands, on a message that updates its progress message
/// ([`super::Outbound::progress`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisProgress {
    /// The game analysed.
    pub game: i64,
    /// How many of its positions are evaluated.
    pub done: u32,
    /// How many positions it has (its moves and the start).
    pub of: u32,
    /// Whether it runs, is done or failed.
    pub state: ProgressState,
}

/// Whether an analysis runs, is done or failed ([`AnalysisProgress::state`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProgressState {
    /// It runs.
    Running,
    /// Every position is evaluated: the report follows.
    Done,
    /// It failed: the message saying why follows.
    Failed,
}

impl AnalysisProgress {
    /// How far it is, in whole percent (0 to 100).
    pub fn percent(&self) -> u32 {
        (u64::from(self.done.min(self.of)) * 100 / u64::from(self.of.max(1))) as u32
    }

    /// What it says, in one line.
    pub fn words(&self) -> String {
        let (game, done, of) = (self.game, self.done, self.of);
        match self.state {
            ProgressState::Running => format!(
                "Analysing game #{game}: {done} of {of} positions ({} %)",
                self.percent()
            ),
            ProgressState::Done => {
                format!("Analysed game #{game}: all {of} positions; the report follows")
            }
            ProgressState::Failed => format!(
                "The analysis of game #{game} stopped at {done} of {of} positions; why follows"
            ),
        }
    }
}
