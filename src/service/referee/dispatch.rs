//! The dispatch of a command: a message is cleaned, parsed and run by the part of the
//! referee it is for, and its refusal or answer assembled. The top of the referee: it
//! depends on every part, and none depends on it.

use super::messages::{
    Card, Destination, Fail, Incoming, Member, Outbound, Place, Reply, RulesCard, VariantLine,
};
use super::Service;
use crate::service::command::{self, help, Command, ParseError};
use crate::store::recording_events;
use crate::store::GameStatus;
use crate::store::StoreError;
use crate::variants::api::{GameCommand, RefusalKind, RuleError};

/// What others read when a player's action is refused for a reason about their secrets
/// ([`RuleError::private`]): the same words whatever the reason, which goes to the player
/// alone.
pub const PRIVATE_REFUSAL: &str =
    "refused: the reason concerns your hand, so it is sent to you privately";

impl Service {
    /// Handles one chat message, its text first cleaned of invisible and look-alike
    /// characters ([`crate::service::input::clean`]). Bad input gets a one-line reason
    /// and changes nothing; a duplicate event id gets no reply and changes nothing.
    ///
    /// The event id is not looked up before the command runs: an accepted change stores
    /// it in the same statement, which refuses an id stored before (and then changes
    /// nothing), and a refusal looks it up before answering, so that a copy of an event
    /// that was applied is answered with nothing rather than, say, "not your turn".
    pub async fn handle(&self, inc: Incoming) -> Result<Vec<Outbound>, StoreError> {
        self.handle_as(inc, Member::default()).await
    }

    /// [`Service::handle`] for a sender whose standing on the server (`member`: Manage
    /// Server, roles) the adapter read from the platform: what a server's settings and
    /// moderator tools are checked against. [`Service::handle`] is this for a sender
    /// with none.
    pub async fn handle_as(
        &self,
        inc: Incoming,
        member: Member,
    ) -> Result<Vec<Outbound>, StoreError> {
        // The command word is read for the metrics alone: not at all when they are off.
        let kind = self
            .telemetry
            .is_on()
            .then(|| command::kind_of(&inc.text, &self.registry));
        let answered = self.answer(inc, &member).await;
        if answered.is_ok() {
            self.availability.answered();
        }
        if let Some(kind) = kind {
            self.count_command(kind, &answered);
        }
        let mut out = answered?;
        out.iter_mut().for_each(Outbound::finish);
        Ok(out)
    }

    /// [`Service::handle_as`], with whether the event is applied, that is, changed
    /// something: stored by this command, or by an earlier delivery of the same event
    /// (which this one then answers with nothing). Known from the command's own writes
    /// and duplicate checks ([`crate::store::recording_events`]), without reading the
    /// event back.
    pub async fn handle_applied(
        &self,
        inc: Incoming,
        member: Member,
    ) -> Result<(Vec<Outbound>, bool), StoreError> {
        let (out, applied) = recording_events(self.handle_as(inc, member)).await;
        Ok((out?, applied))
    }

    /// Counts a command of `kind` and its refusals in the operator's metrics.
    fn count_command(&self, kind: &str, answered: &Result<Vec<Outbound>, StoreError>) {
        let outcome = match answered {
            Err(_) => "failed",
            Ok(out) => {
                let mut refused = false;
                for r in out.iter().filter_map(|o| o.refusal) {
                    self.telemetry.refusal(r.name());
                    refused = true;
                }
                if refused {
                    "refused"
                } else {
                    "ok"
                }
            }
        };
        self.telemetry.command(kind, outcome);
    }

    /// The messages of [`Service::handle`], their users still marked in `text`.
    async fn answer(
        &self,
        mut inc: Incoming,
        member: &Member,
    ) -> Result<Vec<Outbound>, StoreError> {
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
                let live = self.candidates(&inc, &[GameStatus::Active]).await?;
                if live.is_empty() {
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
        let ran = match self.run(&inc, member, cmd, &mut r).await {
            // A game that ended may move its tournament on: in this answer.
            Ok(()) => self.after_endings(&inc, &mut r).await,
            e => e,
        };
        self.finish(inc, r, ran).await
    }

    /// The messages of a command run by `inc` whose outcome is `ran` (`r` its answer so
    /// far): on success the answer, none calling on its own user; a choice of games; a
    /// refusal, said as one; nothing for a copy of an event already applied.
    async fn finish(
        &self,
        inc: Incoming,
        mut r: Reply,
        ran: Result<(), Fail>,
    ) -> Result<Vec<Outbound>, StoreError> {
        let refusal = match ran {
            Ok(()) => {
                // Nobody is called on by their own command (a draw offer, a move after
                // which the mover is still awaited).
                for o in &mut r.out {
                    o.mentions.retain(|u| u != &inc.user);
                }
                self.accounts().personalize(&mut r).await?;
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

    /// The tournaments of the games this answer announces the end of go on.
    async fn after_endings(&self, inc: &Incoming, r: &mut Reply) -> Result<(), Fail> {
        let mut ended: Vec<i64> = r
            .out
            .iter()
            .filter(|o| o.ending)
            .filter_map(|o| o.game)
            .collect();
        ended.dedup();
        if ended.is_empty() {
            return Ok(());
        }
        // The command is done and committed whatever happens here: a round that could not
        // start now is started by the deadline task's sweep.
        if let Err(e) = self
            .events()
            .tournament_games_ended(&ended, inc.at, r)
            .await
        {
            let why = match e {
                Fail::Refuse(e) => e.text,
                Fail::Store(e) => e.to_string(),
                Fail::Choose(c) => c.text,
            };
            tracing::warn!("event {}: a tournament did not go on: {why}", inc.event_id);
        }
        Ok(())
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
        let mut to = r.origin.clone();
        if e.private && matches!(to, Destination::Channel(_)) {
            // Where others read: the same words whatever the reason; the reason privately.
            r.out.push(Outbound {
                to,
                text: PRIVATE_REFUSAL.to_string(),
                refusal: Some(RefusalKind::Illegal),
                ..Outbound::default()
            });
            to = Destination::Dm(inc.user.clone());
        }
        r.out.push(Outbound {
            to,
            text: e.text,
            refusal: Some(e.kind),
            ..Outbound::default()
        });
        Ok(r.out)
    }

    /// Runs one parsed command.
    async fn run(
        &self,
        inc: &Incoming,
        member: &Member,
        cmd: Command,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        match cmd {
            Command::Help(topic, variant) => self.help(inc, topic, variant, r).await?,
            Command::Rules(Some(v)) => {
                let card = self.rules_card(&v)?;
                r.say(rules_text(&card));
                r.card(Card::Rules(card));
            }
            Command::Rules(None) => {
                let lines = self.variant_lines();
                r.say(variant_list(&lines));
                r.card(Card::Variants(lines));
            }
            Command::Challenge(c) => self.seating().challenge(inc, c, r).await?,
            Command::Accept(id) => self.seating().accept(inc, id, r).await?,
            Command::Decline(id) => self.seating().decline(inc, id, false, r).await?,
            Command::Cancel(id) => self.seating().decline(inc, id, true, r).await?,
            Command::Games(false) => self.accounts().list_games(inc, r).await?,
            Command::Games(true) => self.accounts().list_finished(inc, r).await?,
            Command::Board(id) => self.play().show_board(inc, id, r).await?,
            Command::Moves(id) => self.play().show_moves(inc, id, r).await?,
            Command::Pgn(id) => self.play().show_pgn(inc, id, r).await?,
            Command::Analyse(id) => self.analyses().request_analysis(inc, id, r).await?,
            Command::Hand(id) => self.play().show_hand(inc, id, r).await?,
            Command::Settings(change) => self.accounts().change_settings(inc, &change, r).await?,
            Command::Vacation(ask) => self.accounts().vacation(inc, ask, r).await?,
            Command::Resign(id) => {
                self.play()
                    .act_simple(inc, id, crate::variants::api::Action::resign(), r)
                    .await?
            }
            Command::Abort(id) => {
                self.play()
                    .act_simple(inc, id, crate::variants::api::Action::abort(), r)
                    .await?
            }
            Command::Game(id, gc) => self.play().game_command(inc, id, gc, r).await?,
            Command::Takeback(id, step) => self.play().takeback(inc, id, step, r).await?,
            Command::Conditional(id, what) => self.play().conditional(inc, id, what, r).await?,
            Command::Rating(who) => self.accounts().rating(inc, who, r).await?,
            Command::Rematch(id) => self.seating().rematch(inc, id, r).await?,
            Command::Leaderboard(v) => self.accounts().leaderboard(inc, &v, r).await?,
            Command::ForgetMe(confirm) => self.accounts().forget_me(inc, confirm, r).await?,
            Command::Server(change) => {
                self.servers()
                    .server_command(inc, member, change, r)
                    .await?
            }
            Command::Moderate(m) => self.moderators().moderate(inc, member, m, r).await?,
            Command::Tournament(c) => self.events().tournament(inc, member, c, r).await?,
            Command::Tournaments => self.events().list_tournaments(inc, r).await?,
        }
        Ok(())
    }

    /// `help`: the commands (with those of the variants the user plays), one command
    /// (as the variants asked for, or those the user plays, declare it) or one variant's
    /// commands; an unknown topic is refused.
    async fn help(
        &self,
        inc: &Incoming,
        topic: Option<String>,
        variant: Option<String>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let mut played: Vec<String> = self
            .store
            .games_of(&inc.user, &[GameStatus::Challenged, GameStatus::Active])
            .await?
            .into_iter()
            .map(|g| g.variant)
            .collect();
        played.sort();
        played.dedup();
        let help = match topic {
            None => help::listing(&self.registry, &played, false),
            Some(t) => help::topic(&self.registry, &t, variant.as_deref(), &played)
                .map_err(|e| Fail::of(RefusalKind::Unknown, e))?,
        };
        r.say(help.text());
        r.card(Card::Help(help));
        Ok(())
    }

    /// Every variant this service plays: its id, its name, the number of players and what
    /// it is.
    fn variant_lines(&self) -> Vec<VariantLine> {
        self.registry
            .all()
            .map(|v| VariantLine {
                variant: v.id(),
                name: v.display_name(),
                players: v.seats().count(),
                summary: v.summary(),
            })
            .collect()
    }

    /// `rules VARIANT`: what the variant is, its seats, commands and options, and its
    /// whole rules document (embedded from `docs/rules/` when the binary is built), with
    /// the operator's link to it where one is configured.
    pub fn rules_card(&self, name: &str) -> Result<RulesCard, RuleError> {
        let v = self.registry.get(name)?;
        let link = self
            .settings
            .rules_url
            .as_ref()
            .map(|url| format!("{url}{}.md", v.rules_document()));
        Ok(RulesCard::of(v, link))
    }
}

/// "N players" for `n`.
fn players(n: usize) -> String {
    format!("{n} player{}", if n == 1 { "" } else { "s" })
}

/// The list of variants as typed text: a line each, then how to read one's rules.
fn variant_list(lines: &[VariantLine]) -> String {
    let mut out = vec![format!("{} variants:", lines.len())];
    for l in lines {
        out.push(format!(
            "{} ({}, {}): {}",
            l.variant,
            l.name,
            players(l.players),
            l.summary
        ));
    }
    out.push("rules VARIANT shows one's whole rules".into());
    out.join("\n")
}

/// A variant's rules as typed text: what it is, in brief, its players, commands and
/// options, then the whole document.
fn rules_text(c: &RulesCard) -> String {
    let options: Vec<String> = c
        .options
        .iter()
        .map(|(usage, help)| format!("{usage} ({help})"))
        .collect();
    let mut head = format!(
        "{} ({}): {}\n{}\n{}; commands: {}",
        c.name,
        c.variant,
        c.summary,
        c.brief,
        players(c.players),
        c.commands.join(", ")
    );
    if !options.is_empty() {
        head.push_str(&format!("; options: {}", options.join(", ")));
    }
    if let Some(link) = &c.link {
        head.push_str(&format!("\nThe rules online: {link}"));
    }
    format!("{head}\n\n{}", c.document.trim_end())
}
