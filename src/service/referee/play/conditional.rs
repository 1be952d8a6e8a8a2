//! Conditional moves: while waiting for the opponent, a player stores lines privately ("if
//! they play X, I play Y, then if Z, W"). Each move is read, when stored, in the position
//! it would be played in, by the variant's `move` command; the line is kept as the game's
//! actions, with the game's version it applies at. When the opponent's action is accepted
//! and equals a line's first action, the line's answer is applied as the player's own
//! action in a write of its own, under the same lock, before anything is announced.
//! Only variants that declare it ([`crate::variants::api::VariantSpec::conditional_moves`])
//! take lines; their text never reaches anyone but their owner.

use super::commit::{self, Committed};
use super::parts::Play;
use super::text::turn_line;
use super::{lookup, Destination, Fail, Incoming, Outbound, Reply};
use crate::service::command::Conditional;
use crate::store::GameStatus;
use crate::store::{ConditionalLine, GameRow, Write};
use crate::variants::api::{
    to_stored_text, Action, Audience, GameCommand, GameRules, Reading, RefusalKind, RuleError,
    Seat, Text,
};

/// An action just committed under the game's lock, as the opponent's conditional lines
/// are checked against it.
pub(crate) struct Played<'a> {
    /// The game as it was before the action.
    pub game: &'a GameRow,
    /// Who acted.
    pub actor: Seat,
    /// What they did.
    pub action: &'a Action,
    /// The action's outcome, as committed.
    pub done: &'a Committed,
    /// When.
    pub at: i64,
    /// Where the action's own messages start in the reply.
    pub first: usize,
}

/// What an opponent's conditional lines do after an action ([`Service::plan_answer`]),
/// settled once it is committed ([`Service::settle_lines`]).
pub(crate) enum Plan {
    /// No lines apply.
    Nothing,
    /// The game is over: every line is cleared.
    Clear,
    /// The action kept the turn: the lines apply at the next version.
    Carry(Vec<Line>),
    /// Lines `dropped` are deleted, and their owner is `told` privately.
    Drop {
        /// The lines deleted.
        dropped: Vec<i64>,
        /// What their owner is told.
        told: Box<Outbound>,
    },
    /// A line's answer, to commit after the action.
    Answer(Box<Answer>),
}

/// A conditional answer ready to commit ([`Plan::Answer`]).
pub(crate) struct Answer {
    /// Whose answer it is.
    pub user: String,
    /// The turn line of the action it answers.
    pub turn: String,
    /// The game as the action leaves it, to which the answer applies.
    pub now: GameRow,
    /// The write that commits the answer.
    pub write: Write,
    /// The answer applied.
    pub next: Committed,
    /// The lines that matched the action.
    matching: Vec<Line>,
    /// The lines that did not, deleted.
    dropped: Vec<i64>,
    /// The answer's action.
    answer: Action,
}

/// The most lines a player keeps for one game.
pub(crate) const MAX_LINES: usize = 10;

/// A stored line, read back: its actions and the moves as typed.
pub(crate) struct Line {
    row: ConditionalLine,
    actions: Vec<Action>,
    typed: Vec<String>,
}

impl Line {
    fn read(row: ConditionalLine) -> Option<Line> {
        let actions: Vec<Action> = serde_json::from_str(&row.actions).ok()?;
        let typed: Vec<String> = serde_json::from_str(&row.typed).ok()?;
        (actions.len() >= 2 && actions.len() == typed.len()).then_some(Line {
            row,
            actions,
            typed,
        })
    }
}

/// A line as its owner reads it: `if Nf6, e5; then if d6, exd6`.
fn describe(typed: &[String]) -> String {
    typed
        .chunks(2)
        .map(|p| format!("if {}, {}", p[0], p.get(1).map_or("", String::as_str)))
        .collect::<Vec<_>>()
        .join("; then ")
}

/// The refusal of a line that is line `n` (from 0) of those stored, `line`: the same moves,
/// however they were written (`Nf6` or `g8f6`), so it would only use up one of the
/// [`MAX_LINES`].
fn stored_already(id: i64, n: usize, line: &Line) -> Fail {
    Fail::of(
        RefusalKind::Illegal,
        format!(
            "game #{id}: you have stored that line already, as line {}: {}; nothing was stored",
            n + 1,
            describe(&line.typed)
        ),
    )
}

/// Reads and plays `moves` (alternately `opponent`'s and `seat`'s) on `rules`, the game
/// as it is now, each in the position it would be played in; the actions, or why a move
/// cannot be played there.
fn read_line(
    mut rules: Box<dyn GameRules>,
    seat: Seat,
    opponent: Seat,
    moves: &[String],
    env: crate::variants::api::Env,
) -> Result<Vec<Action>, Fail> {
    let mut actions = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let (who, label) = if i % 2 == 0 {
            (opponent, format!("their move {text}"))
        } else {
            (seat, format!("your answer {text}"))
        };
        if rules.is_over() {
            return Err(Fail::of(
                RefusalKind::Illegal,
                format!(
                    "the game would be over before {label}: end the line there; nothing was stored"
                ),
            ));
        }
        let refused = |e: crate::variants::api::RuleError| {
            Fail::of(e.kind, format!("{label}: {}; nothing was stored", e.text))
        };
        let action = match rules.read(who, &GameCommand::new("move", text), env) {
            Ok(Reading::Act(a) | Reading::Noted { action: a, .. }) => a,
            Ok(Reading::ClaimTimeout { .. }) => {
                return Err(Fail::of(
                    RefusalKind::Illegal,
                    format!("{label} is not a move; nothing was stored"),
                ))
            }
            Err(e) => return Err(refused(e)),
        };
        rules.apply(who, &action).map_err(refused)?;
        let next = if who == seat { opponent } else { seat };
        if i + 1 < moves.len() && !rules.is_over() && commit::movers(rules.as_ref()) != [next] {
            return Err(Fail::of(
                RefusalKind::Illegal,
                format!("after {label} it is not the other side's move; nothing was stored"),
            ));
        }
        actions.push(action);
    }
    Ok(actions)
}

impl Play<'_> {
    /// `conditional [ID] ...`: stores a line, lists or clears the user's lines; every
    /// answer goes to the user privately.
    pub(crate) async fn conditional(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        what: Conditional,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let text = match what {
            Conditional::Add(moves) => {
                if inc.place != super::Place::Dm {
                    // Not stored, and not repeated where others read.
                    r.out.push(Outbound {
                        to: Destination::Dm(inc.user.clone()),
                        text: "conditional moves are secret: send the line to me in a private message; nothing was stored".into(),
                        refusal: Some(RefusalKind::Secret),
                        ..Outbound::default()
                    });
                    return Ok(());
                }
                self.add_line(inc, id, &moves).await?
            }
            Conditional::List => self.list_lines(inc, id).await?,
            Conditional::Clear => self.clear_lines(inc, id).await?,
        };
        r.out.push(Outbound {
            to: Destination::Dm(inc.user.clone()),
            text,
            game: id,
            ..Outbound::default()
        });
        Ok(())
    }

    /// The game a line is for: `id`, or the user's one active game (of several, the one
    /// where they wait for their opponent).
    async fn line_game(&self, inc: &Incoming, id: Option<i64>) -> Result<i64, Fail> {
        if id.is_some() {
            return self.pick_id(inc, id, super::lookup::Fit::Live).await;
        }
        let games: Vec<GameRow> = self
            .store
            .games_of(&inc.user, &[GameStatus::Active])
            .await?
            .into_iter()
            .filter(|g| g.seat_of(&inc.user).is_some())
            .collect();
        let waiting: Vec<&GameRow> = games
            .iter()
            .filter(|g| {
                g.seat_of(&inc.user).is_some_and(|s| {
                    !g.deadlines.is_empty() && g.deadlines.iter().all(|d| d.seat != s)
                })
            })
            .collect();
        match (games.as_slice(), waiting.as_slice()) {
            ([only], _) => Ok(only.id),
            (_, [only]) => Ok(only.id),
            ([], _) => Err(Fail::of(RefusalKind::Unknown, "you have no game under way")),
            (_, _) => Err(Fail::of(
                RefusalKind::Ambiguous,
                format!(
                    "you have {} games ({}): say which, for example {}",
                    games.len(),
                    lookup::id_list(&games),
                    crate::variants::api::command_mark(&format!("conditional {} ...", games[0].id))
                ),
            )),
        }
    }

    /// Stores one line of `moves` for the user's game, checked move by move, under the
    /// game's lock; the answer for the user.
    async fn add_line(
        &self,
        inc: &Incoming,
        id: Option<i64>,
        moves: &[String],
    ) -> Result<String, Fail> {
        let id = self.line_game(inc, id).await?;
        let (_guard, in_play, seat) = self.lock_active(id, &inc.user).await?;
        let g = &in_play.game;
        let spec = self.registry.get(&g.variant)?;
        let rules = self.load(g)?;
        if let Err(why) = spec.conditional_moves() {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!("{} has no conditional moves: {why}", spec.display_name()),
            ));
        }
        if rules.seat_count() != 2 || !spec.commands().iter().any(|c| c.is_named("move")) {
            return Err(Fail::of(
                RefusalKind::NotHere,
                format!(
                    "{} has no conditional moves: they answer the one opponent's moves",
                    spec.display_name()
                ),
            ));
        }
        let opponent = Seat(1 - seat.0.min(1));
        if commit::movers(rules.as_ref()) != [opponent] {
            return Err(Fail::of(
                RefusalKind::NotYourTurn,
                format!("game #{id}: you may store conditional moves only while waiting for your opponent's move; nothing was stored"),
            ));
        }
        let actions =
            read_line(rules, seat, opponent, moves, self.env()).map_err(|e| with_game(e, id))?;
        let current = self.lines_now(g, &inc.user).await?;
        if let Some(n) = current.iter().position(|l| l.actions == actions) {
            return Err(stored_already(id, n, &current[n]));
        }
        if current.len() >= MAX_LINES {
            return Err(Fail::of(
                RefusalKind::Illegal,
                format!("game #{id}: you already have {MAX_LINES} conditional lines, the most one game keeps (conditional {id} clear to start again); nothing was stored"),
            ));
        }
        self.store
            .add_conditional_line(
                id,
                &inc.user,
                g.version,
                &to_stored_text("the conditional line", &actions)?,
                &to_stored_text("the conditional line", moves)?,
            )
            .await?;
        Ok(format!(
            "game #{id}: conditional line {} of at most {MAX_LINES} stored, seen only by you: {}. It is played as your opponent's moves match and dropped when one does not (conditional {id} list, conditional {id} clear)",
            current.len() + 1,
            describe(moves)
        ))
    }

    /// `user`'s lines of `g` that still apply (stored at its version, the game under way);
    /// those that no longer do are deleted. Caller holds the game's lock.
    async fn lines_now(&self, g: &GameRow, user: &str) -> Result<Vec<Line>, Fail> {
        let mut current = Vec::new();
        let mut stale = Vec::new();
        for row in self.store.conditional_lines(g.id, user).await? {
            let id = row.id;
            match Line::read(row) {
                Some(l) if l.row.version == g.version && g.status == GameStatus::Active => {
                    current.push(l)
                }
                _ => stale.push(id),
            }
        }
        self.store.delete_conditional_lines(&stale).await?;
        Ok(current)
    }

    /// `user`'s lines of game `game` that still apply, read under the game's lock (its
    /// stale lines deleted there) with the lock still held; `None` when there is no such
    /// game.
    async fn current_lines(
        &self,
        game: i64,
        user: &str,
    ) -> Result<Option<(tokio::sync::OwnedMutexGuard<()>, Vec<Line>)>, Fail> {
        let guard = self.lock_for(game).lock_owned().await;
        let Some(g) = self.store.game(game).await? else {
            return Ok(None);
        };
        Ok(Some((guard, self.lines_now(&g, user).await?)))
    }

    /// The games whose lines `conditional [ID] list|clear` is about: `id`, or every
    /// active game of the user.
    async fn games_with_lines(&self, inc: &Incoming, id: Option<i64>) -> Result<Vec<i64>, Fail> {
        Ok(match id {
            Some(id) => {
                let g = self
                    .pick(inc, Some(id), &[], super::lookup::Fit::Live)
                    .await?;
                lookup::player_seat(&g, &inc.user)?;
                vec![id]
            }
            None => self
                .store
                .games_of(&inc.user, &[GameStatus::Active])
                .await?
                .into_iter()
                .filter(|g| g.seat_of(&inc.user).is_some())
                .map(|g| g.id)
                .collect(),
        })
    }

    /// `conditional [ID] list`: the user's lines that still apply.
    async fn list_lines(&self, inc: &Incoming, id: Option<i64>) -> Result<String, Fail> {
        let mut parts = Vec::new();
        for game in self.games_with_lines(inc, id).await? {
            let Some((_guard, current)) = self.current_lines(game, &inc.user).await? else {
                continue;
            };
            if current.is_empty() {
                continue;
            }
            let lines: Vec<String> = current
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{}. {}", i + 1, describe(&l.typed)))
                .collect();
            parts.push(format!("game #{game}: {}", lines.join("\n")));
        }
        Ok(match (parts.is_empty(), id) {
            (true, Some(id)) => format!("game #{id}: you have no conditional lines"),
            (true, None) => "you have no conditional lines".into(),
            (false, _) => format!("your conditional lines:\n{}", parts.join("\n")),
        })
    }

    /// `conditional [ID] clear`: deletes the user's lines.
    async fn clear_lines(&self, inc: &Incoming, id: Option<i64>) -> Result<String, Fail> {
        let mut n = 0;
        for game in self.games_with_lines(inc, id).await? {
            let Some((_guard, current)) = self.current_lines(game, &inc.user).await? else {
                continue;
            };
            n += current.len();
            self.store
                .clear_conditional_lines(game, Some(&inc.user))
                .await?;
        }
        let whose = id.map_or_else(String::new, |id| format!("game #{id}: "));
        Ok(match n {
            0 => format!("{whose}you had no conditional lines"),
            1 => format!("{whose}your conditional line is cleared"),
            n => format!("{whose}your {n} conditional lines are cleared"),
        })
    }

    /// After an action was committed (`played`, whose messages start at `played.first`
    /// in `r`): when the game is over, its lines are dropped; when the opponent of the
    /// actor is now to move and has a line expecting that action, its answer is applied
    /// and committed as theirs, announced with "(conditional)", and their other lines are
    /// dropped. Caller holds the game's lock (and calls this only when the game has
    /// lines). A failure here is logged: the action itself is committed and announced
    /// whatever happens.
    pub(crate) async fn answer_conditionally(&self, played: Played<'_>, r: &mut Reply) {
        let game = played.game.id;
        if let Err(e) = self.try_answer(played, r).await {
            tracing::warn!(game, "conditional moves not followed: {e:?}");
        }
    }

    /// Keeps `lines` for the game's next version: an action that kept the turn left the
    /// position as the lines expect it.
    async fn carry_over(&self, g: &GameRow, lines: &[Line]) -> Result<(), Fail> {
        for l in lines {
            self.store
                .advance_conditional_line(l.row.id, g.version + 1, &l.row.actions, &l.row.typed)
                .await?;
        }
        Ok(())
    }

    async fn try_answer(&self, played: Played<'_>, r: &mut Reply) -> Result<(), Fail> {
        let Played {
            game: g,
            actor,
            action,
            done,
            at,
            first,
        } = played;
        // The game as the action left it: its answer is applied to that.
        let Some(now) = self.store.game(g.id).await? else {
            return Ok(());
        };
        let mut plan = self.plan_answer(g, &now, actor, action, done, at).await?;
        match &mut plan {
            Plan::Answer(a) => {
                self.write(&a.now, &a.write).await?;
                self.telemetry.move_accepted(&g.variant);
                self.announce_answer(&a.now, &mut a.next, &a.user, &a.turn, first, r)
                    .await;
            }
            Plan::Drop { told, .. } => r.out.push((**told).clone()),
            Plan::Nothing | Plan::Clear | Plan::Carry(_) => {}
        }
        self.settle_lines(g, plan).await
    }

    /// After `actor`'s `action` in game `g` (`done`, which leaves the game as `now`,
    /// committed or about to be): what the opponent's conditional lines do. Nothing is
    /// written but stale lines deleted; [`Service::settle_lines`] does the rest once the
    /// action (and the answer, where there is one) is committed. Caller holds the game's
    /// lock.
    pub(crate) async fn plan_answer(
        &self,
        g: &GameRow,
        now: &GameRow,
        actor: Seat,
        action: &Action,
        done: &Committed,
        at: i64,
    ) -> Result<Plan, Fail> {
        let rules = done.rules.as_ref();
        let owner = Seat(1 - actor.0.min(1));
        let Some(user) = self.lines_may_answer(g, rules, owner) else {
            return Ok(if rules.is_over() {
                Plan::Clear
            } else {
                Plan::Nothing
            });
        };
        // The lines of the game as it was before the action: none of its writes since.
        let lines = self.lines_now(g, user).await?;
        if lines.is_empty() {
            return Ok(Plan::Nothing);
        }
        if commit::movers(rules) != [owner] {
            // An action that keeps the turn (an offer): the position is the same, the
            // lines still apply.
            return Ok(Plan::Carry(lines));
        }
        let (matching, other): (Vec<Line>, Vec<Line>) =
            lines.into_iter().partition(|l| l.actions[0] == *action);
        let mut dropped: Vec<i64> = other.iter().map(|l| l.row.id).collect();
        let Some(chosen) = matching.first() else {
            let told = Box::new(private(g, user, none_matched(dropped.len())));
            return Ok(Plan::Drop { dropped, told });
        };
        let answer = chosen.actions[1].clone();
        let prepared = self
            .load(now)
            .and_then(|rules| commit::prepare(now, rules, owner, user, answer.clone(), at, None));
        let (write, next) = match prepared {
            Ok(p) => p,
            Err(e) => {
                dropped.extend(matching.iter().map(|l| l.row.id));
                let why = match e {
                    Fail::Refuse(e) => e.text,
                    Fail::Store(_) | Fail::Choose(_) => "the game could not be read".into(),
                };
                let told = Box::new(private(g, user, format!(
                    "your conditional answer {} could not be played ({why}): the line is dropped; it is your move",
                    chosen.typed[1]
                )));
                return Ok(Plan::Drop { dropped, told });
            }
        };
        Ok(Plan::Answer(Box::new(Answer {
            user: user.to_string(),
            turn: turn_line(g, rules, &done.deadlines),
            now: now.clone(),
            write,
            next,
            matching,
            dropped,
            answer,
        })))
    }

    /// What `plan` leaves of game `g`'s lines, once what it planned is committed: the
    /// lines dropped are deleted, those an answer played go on with their next pair, and
    /// a game over has none left.
    pub(crate) async fn settle_lines(&self, g: &GameRow, plan: Plan) -> Result<(), Fail> {
        match plan {
            Plan::Nothing => Ok(()),
            Plan::Clear => {
                self.store.clear_conditional_lines(g.id, None).await?;
                Ok(())
            }
            Plan::Carry(lines) => self.carry_over(g, &lines).await,
            Plan::Drop { dropped, .. } => {
                self.store.delete_conditional_lines(&dropped).await?;
                Ok(())
            }
            Plan::Answer(a) => {
                self.store.delete_conditional_lines(&a.dropped).await?;
                if a.next.rules.is_over() {
                    self.store.clear_conditional_lines(g.id, None).await?;
                    return Ok(());
                }
                self.advance_lines(a.matching, &a.answer, a.now.version + 1)
                    .await
            }
        }
    }

    /// Who may have lines to answer the action just played in game `g`, now `rules`, by
    /// `owner`'s opponent: `owner`'s player, where the variant allows conditional moves,
    /// is of two seats and the game goes on.
    fn lines_may_answer<'g>(
        &self,
        g: &'g GameRow,
        rules: &dyn GameRules,
        owner: Seat,
    ) -> Option<&'g str> {
        let allowed = self
            .registry
            .get(&g.variant)
            .is_ok_and(|s| s.conditional_moves().is_ok());
        if !allowed || rules.seat_count() != 2 || rules.is_over() {
            return None;
        }
        g.user_at(owner.0)
    }

    /// Announces the answer `next` played for `user` in game `now`. The player is not
    /// called on for a turn already played for them: the announcement of the action it
    /// answers (the messages from `first`) loses its `turn` line (the answer's own
    /// message says whose turn it is now) and their mention. An answer that ends a rated
    /// game gives its game-over message the rating change, as every other end does.
    pub(crate) async fn announce_answer(
        &self,
        now: &GameRow,
        next: &mut Committed,
        user: &str,
        turn: &str,
        first: usize,
        r: &mut Reply,
    ) {
        let turn = format!(". {turn}");
        for m in &mut r.out[first..] {
            m.mentions.retain(|u| u != user);
            if m.game == Some(now.id) {
                if let Some(text) = m.text.strip_suffix(&turn) {
                    m.text = text.to_string();
                }
            }
        }
        if let Some(note) = next
            .notes
            .iter_mut()
            .find(|n| n.to == Audience::Everyone && !n.text.is_empty())
        {
            note.text = std::mem::replace(&mut note.text, Text::plain("")).push(" (conditional)");
        }
        self.accounts().announce_rated(now, next, r).await;
    }

    /// After `answer` was played from the `matching` lines: the lines that played it go on
    /// with their next pair, from game version `version`; the others end.
    async fn advance_lines(
        &self,
        matching: Vec<Line>,
        answer: &Action,
        version: i64,
    ) -> Result<(), Fail> {
        for l in matching {
            if l.actions[1] == *answer && l.actions.len() > 2 {
                self.store
                    .advance_conditional_line(
                        l.row.id,
                        version,
                        &to_stored_text("the conditional line", &l.actions[2..])?,
                        &to_stored_text("the conditional line", &l.typed[2..])?,
                    )
                    .await?;
            } else {
                self.store.delete_conditional_lines(&[l.row.id]).await?;
            }
        }
        Ok(())
    }
}

/// A private message to `user` about game `g`.
fn private(g: &GameRow, user: &str, text: String) -> Outbound {
    Outbound {
        to: Destination::Dm(user.to_string()),
        text: format!("game #{}: {text}", g.id),
        game: Some(g.id),
        ..Outbound::default()
    }
}

/// A refusal with the game named: `game #12: ...`.
fn with_game(e: Fail, id: i64) -> Fail {
    match e {
        Fail::Refuse(e) => Fail::Refuse(RuleError {
            text: format!("game #{id}: {}", e.text),
            ..e
        }),
        other => other,
    }
}

/// What the owner of `dropped` conditional lines is told when the opponent's move
/// matched none of them.
fn none_matched(dropped: usize) -> String {
    let which = if dropped == 1 {
        "it is".to_string()
    } else {
        format!("all {dropped} are")
    };
    format!("your opponent's move matched none of your conditional lines: {which} dropped")
}
