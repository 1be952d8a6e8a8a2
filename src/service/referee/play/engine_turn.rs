//! The engine's turns in games against the bot. A turn is queued by the write that
//! commits the human's move (the deadline it gives the engine's seat); a process claims
//! it ([`crate::store::Store::claim_engine_turn`]), asks the pool for a move at the
//! game's level, and plays it as any move is played: read by the game from its SAN,
//! applied under the game's lock, committed with its announcement in the outbox in one
//! version-checked write, under the turn's own event id (so that it is played once,
//! whichever process and however often it was computed). An engine that fails leaves
//! the claim to run out, and the turn is tried again; a game never waits forever, since
//! the engine's seat has its deadline like any player's.
//!
//! Besides moving, the engine answers what a player would (docs/engine-games.md):
//! it accepts a draw offered when its evaluation is dead equal ([`DRAW_CP`]), resigns
//! when lost beyond doubt ([`RESIGN_CP`], or a forced mate against it), and claims a
//! draw by repetition or the fifty-move rule when the rules allow one and it is not
//! better.

use super::commit::{new_message, prepare, row_after};
use super::conditional::Plan;
use super::engine_seat::{engine_of, EngineSeat};
use super::lookup::whole_with;
use super::parts::Play;
use super::{Destination, Fail, Reply};
use crate::analysis::Score;
use crate::engines::{Level, Query};
use crate::store::{EngineTurn, GameRow, GameStatus, NewMessage, StoreError};
use crate::variants::api::{Action, GameCommand, GameRules, Reading, Seat};

/// How long a process holds an engine's turn it computes, in seconds, before another may
/// take it over (or, when its engine failed, it tries again).
pub const ENGINE_TURN_LEASE_SECONDS: i64 = 30;

/// Within this many centipawns of equal, the engine takes a position as dead equal and
/// accepts a draw offered.
pub const DRAW_CP: i32 = 15;

/// At this many centipawns down (about a queen and a rook), or facing a forced mate, the
/// engine takes its game as lost beyond doubt and resigns.
pub const RESIGN_CP: i32 = 1500;

/// What the engine decided to do on its turn, in the order it tries them.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Choice {
    /// `draw accept`: a draw was offered and the position is dead equal.
    AcceptDraw,
    /// Resign: lost beyond doubt.
    Resign,
    /// `claim draw`: the engine is not better; refused by the game unless the rules
    /// allow a claim now.
    ClaimDraw,
    /// The move, in SAN.
    Move(String),
}

/// The engine's choices in order, from its score (side to move's view), whether a draw
/// is offered to it, and its move in SAN.
fn choices(score: Score, draw_offered: bool, san: Option<String>) -> Vec<Choice> {
    let mut out = Vec::new();
    let equal = matches!(score, Score::Cp(cp) if cp.abs() <= DRAW_CP);
    let lost = match score {
        Score::Cp(cp) => cp <= -RESIGN_CP,
        Score::Mate(n) => n < 0,
    };
    let better = match score {
        Score::Cp(cp) => cp > DRAW_CP,
        Score::Mate(n) => n > 0,
    };
    if draw_offered && equal {
        out.push(Choice::AcceptDraw);
    }
    if lost {
        out.push(Choice::Resign);
    }
    if !better {
        out.push(Choice::ClaimDraw);
    }
    out.extend(san.map(Choice::Move));
    out
}

impl Play<'_> {
    /// What [`Service::play_engine_next`](super::Service::play_engine_next) does.
    pub(crate) async fn play_engine_next(&self, now: i64) -> Result<Option<i64>, StoreError> {
        let Some(bot) = self.engine_user() else {
            return Ok(None);
        };
        let Some(turn) = self
            .store
            .claim_engine_turn(bot, ENGINE_TURN_LEASE_SECONDS)
            .await?
        else {
            return Ok(None);
        };
        let id = turn.game_id;
        match self.engine_turn(bot, &turn, now).await {
            Ok(()) => {}
            Err(Fail::Store(e)) => return Err(e),
            Err(Fail::Refuse(e)) => {
                tracing::warn!(game = id, error = %e.text, "the engine could not play its turn; it will try again")
            }
            Err(Fail::Choose(_)) => {}
        }
        Ok(Some(id))
    }

    /// What [`Service::take_engine_news`](super::Service::take_engine_news) does.
    pub(crate) fn take_engine_news(&self) -> bool {
        self.engine_news
            .queued
            .swap(false, std::sync::atomic::Ordering::SeqCst)
    }

    /// What [`Service::engine_turns_news`](super::Service::engine_turns_news) does.
    pub(crate) async fn engine_turns_news(&self) {
        self.engine_news.notify.notified().await
    }

    /// Computes and plays turn `turn` of the engine `bot`.
    async fn engine_turn(&self, bot: &str, turn: &EngineTurn, now: i64) -> Result<(), Fail> {
        let id = turn.game_id;
        let Some(g) = self.store.game(id).await? else {
            return Ok(());
        };
        let Some(engine) = engine_of(&g).filter(|e| e.seat == turn.seat) else {
            return Ok(());
        };
        if !still_waiting(&g, turn) {
            return Ok(());
        }
        let log = self.store.actions(id).await?;
        let rules = whole_with(&self.registry, &g, &log)?;
        let record = rules.engine_record().ok_or_else(|| {
            Fail::of(
                crate::variants::api::RefusalKind::NotHere,
                "no engine knows this game",
            )
        })?;
        let Some(level) = Level::of(engine.level) else {
            return Ok(());
        };
        let uci: Vec<String> = record.moves.iter().map(|(u, _)| u.clone()).collect();
        let white_to_move = (uci.len() % 2 == 0) == record.white_first;
        let q = Query {
            variant: record.variant,
            king_takes_rook: record.king_takes_rook,
            fen: &record.start_fen,
            moves: &uci,
            white_to_move,
        };
        let restarts = self.engines.restarts();
        let chosen = {
            let mut lease = self.engines.lease().await;
            lease.play(&q, &level).await
        };
        self.telemetry
            .engine_restarts(self.engines.restarts().saturating_sub(restarts));
        let chosen = chosen
            .map_err(|e| Fail::of(crate::variants::api::RefusalKind::NotHere, e.to_string()))?;
        // The engine's move, as the game writes it: a move the game does not find legal
        // gives none, and the engine is asked again later.
        let san = chosen
            .best
            .as_ref()
            .and_then(|m| rules.line_san(uci.len(), std::slice::from_ref(m)).pop());
        let offered = rules.awaiting().iter().any(|(s, p)| {
            *s == Seat(engine.seat) && p.answers.iter().any(|a| a.command == "draw accept")
        });
        let choices = choices(chosen.score, offered, san);
        self.play_choice(bot, engine, turn, now, &choices).await
    }

    /// Under the game's lock, on the game as it is now: the first of `choices` that the
    /// game accepts, committed with its announcement in the outbox; and, in the same
    /// transaction, the player's conditional answer to it, if a line of theirs expects it
    /// (the engine's next turn is then queued by that answer's write).
    async fn play_choice(
        &self,
        bot: &str,
        engine: EngineSeat,
        turn: &EngineTurn,
        now: i64,
        choices: &[Choice],
    ) -> Result<(), Fail> {
        let id = turn.game_id;
        let lock = self.lock_for(id);
        let _guard = lock.lock().await;
        let Some(in_play) = self.store.game_in_play(id).await? else {
            return Ok(());
        };
        let g = &in_play.game;
        if !still_waiting(g, turn) {
            return Ok(());
        }
        let seat = Seat(engine.seat);
        for choice in choices {
            let rules = self.load(g)?;
            let Some(action) = self.action_of(rules.as_ref(), seat, choice) else {
                continue;
            };
            let event = Some(format!("engine:{id}:{}", turn.turn));
            let Ok((w, done)) = prepare(g, rules, seat, bot, action.clone(), now, event) else {
                continue;
            };
            let mut r = Reply {
                out: Vec::new(),
                origin: Destination::Dm(bot.to_string()),
                plain: Vec::new(),
            };
            self.announce(g, &done, &mut r);
            let mut plan = match in_play.has_lines {
                true => {
                    let after = row_after(g, &w);
                    self.plan_answer(g, &after, seat, &action, &done, now)
                        .await?
                }
                false => Plan::Nothing,
            };
            let mut writes = vec![w];
            match &mut plan {
                Plan::Answer(a) => {
                    // Boards are drawn when delivered, the game as it then stands: the
                    // answer's message carries the one board, after both moves.
                    r.out.iter_mut().for_each(|o| o.image = None);
                    self.announce_answer(&a.now, &mut a.next, &a.user, &a.turn, 0, &mut r)
                        .await;
                    writes.push(a.write.clone());
                }
                Plan::Drop { told, .. } => r.out.push((**told).clone()),
                Plan::Nothing | Plan::Clear | Plan::Carry(_) => {}
            }
            if let Some(last) = writes.last_mut() {
                last.messages = outbox_messages(&r, bot);
            }
            return match self.write_all(g, &writes).await {
                Ok(()) => {
                    for _ in &writes {
                        self.telemetry.move_accepted(&g.variant);
                    }
                    self.outbox_news.queued_now();
                    if writes.len() > 1 {
                        // The answer gave the engine its next turn.
                        self.engine_news.queued_now();
                    }
                    self.settle_lines(g, plan).await
                }
                // Played already, or the game moved meanwhile: nothing to do.
                Err(StoreError::Duplicate) | Err(StoreError::Conflict) => Ok(()),
                Err(e) => Err(e.into()),
            };
        }
        Err(Fail::of(
            crate::variants::api::RefusalKind::Illegal,
            "the game accepted none of the engine's choices",
        ))
    }

    /// The action of `choice` as the game reads it, if it does.
    fn action_of(&self, rules: &dyn GameRules, seat: Seat, choice: &Choice) -> Option<Action> {
        let command = match choice {
            Choice::Resign => return Some(Action::resign()),
            Choice::AcceptDraw => GameCommand::new("draw", "accept"),
            Choice::ClaimDraw => GameCommand::new("claim", "draw"),
            Choice::Move(san) => GameCommand::new("move", san),
        };
        match rules.read(seat, &command, self.env()).ok()? {
            Reading::Act(a) | Reading::Noted { action: a, .. } => Some(a),
            Reading::ClaimTimeout { .. } => None,
        }
    }
}

/// The messages of reply `r` as the outbox keeps them, but those to the bot `bot` itself.
fn outbox_messages(r: &Reply, bot: &str) -> Vec<NewMessage> {
    r.out
        .iter()
        .filter(|o| o.to != Destination::Dm(bot.to_string()))
        .map(|o| NewMessage {
            ending: o.ending,
            ..new_message(&o.to, &o.text, o.image.is_some())
        })
        .collect()
}

/// Whether game `g` still waits for the engine's turn `turn`: live, with that deadline.
fn still_waiting(g: &GameRow, turn: &EngineTurn) -> bool {
    g.status == GameStatus::Active
        && g.deadlines
            .iter()
            .any(|d| d.seat == turn.seat && d.turn == turn.turn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_accepts_equal_draws_resigns_lost_games_and_claims_when_not_better() {
        let m = || Some("e4".to_string());
        let mv = Choice::Move("e4".into());
        assert_eq!(choices(Score::Cp(40), false, m()), vec![mv.clone()]);
        assert_eq!(choices(Score::Cp(40), true, m()), vec![mv.clone()]);
        assert_eq!(
            choices(Score::Cp(-5), true, m()),
            vec![Choice::AcceptDraw, Choice::ClaimDraw, mv.clone()]
        );
        assert_eq!(
            choices(Score::Cp(-1600), false, m()),
            vec![Choice::Resign, Choice::ClaimDraw, mv.clone()]
        );
        assert_eq!(
            choices(Score::Mate(-3), true, m()),
            vec![Choice::Resign, Choice::ClaimDraw, mv.clone()]
        );
        assert_eq!(choices(Score::Mate(2), true, m()), vec![mv]);
        assert_eq!(
            choices(Score::Cp(-100), false, None),
            vec![Choice::ClaimDraw]
        );
    }
}
