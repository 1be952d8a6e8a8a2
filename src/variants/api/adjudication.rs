//! A game ended by a server's moderator rather than by its rules: abandoned (aborted) or
//! adjudicated with a result, for a reason the moderator gives
//! (`{"Adjudication":{"result":"1-0","reason":"..."}}` in the log, `result` `aborted` for
//! an abort). No variant sees the entry: the referee wraps the game in [`Adjudicable`],
//! whose [`GameRules::apply`] takes it and whose outcome, record and prompts then say the
//! game is over; every other call goes to the game inside. The stored snapshot of an
//! adjudicated game is `{"Adjudicated":{"entry":...,"game":SNAPSHOT}}`
//! ([`Adjudicable::unwrap_snapshot`], read by [`crate::variants::Registry::load`]), and a
//! replay of the log wraps the game when it meets the entry
//! ([`crate::variants::Registry::replay`]), so both give the same game.

use super::{Action, Apply, GameOutcome, GameRules, Note, Projection, Prompt, Reason, RuleError};
use super::{Env, GameCommand, Reading, SeatPlan, Viewer};
use super::{Seat, Text};
use crate::render::Renderer;
use serde::{Deserialize, Serialize};

/// The results a moderator may give: a win of the first side, of the second, a draw,
/// or `aborted` (the game called off, unrated).
pub const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", ABORTED];

/// The result of a game a moderator called off.
pub const ABORTED: &str = "aborted";

/// The longest reason a moderator's entry keeps, in characters.
pub const REASON_MAX: usize = 200;

/// The reason an adjudicated game's outcome carries (its `PostalReason` is its name).
pub const ADJUDICATED: Reason = Reason::new("adjudicated", "a moderator's adjudication");

/// A moderator's ending, as the log records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdjudicationEntry {
    /// `1-0`, `0-1`, `1/2-1/2`, or [`ABORTED`].
    pub result: String,
    /// Why, in the moderator's words (at most [`REASON_MAX`] characters).
    pub reason: String,
}

impl AdjudicationEntry {
    /// Whether the entry calls the game off rather than giving it a result.
    pub fn is_abort(&self) -> bool {
        self.result == ABORTED
    }
}

/// Read only: the entry is written out by hand.
#[derive(Deserialize)]
enum Entry {
    Adjudication(AdjudicationEntry),
}

/// The stored form of an adjudicated game's snapshot.
#[derive(Deserialize)]
enum Stored {
    Adjudicated {
        entry: AdjudicationEntry,
        game: serde_json::Value,
    },
}

impl Action {
    /// The referee's log entry of a moderator's ending; `None` when the result is not
    /// one of [`RESULTS`].
    pub fn adjudication(result: &str, reason: &str) -> Option<Action> {
        if !RESULTS.contains(&result) {
            return None;
        }
        let reason: String = reason.chars().take(REASON_MAX).collect();
        Some(Action::referees(serde_json::json!({"Adjudication": {
            "result": result,
            "reason": reason,
        }})))
    }

    /// The moderator's ending this entry records, if it records one.
    pub fn adjudication_entry(&self) -> Option<AdjudicationEntry> {
        match serde_json::from_value::<Entry>(self.json().clone()) {
            Ok(Entry::Adjudication(e)) if RESULTS.contains(&e.result.as_str()) => Some(e),
            _ => None,
        }
    }
}

/// A game a moderator may end: the game inside, and the moderator's ending once given.
pub struct Adjudicable {
    inner: Box<dyn GameRules>,
    ended: Option<AdjudicationEntry>,
}

impl Adjudicable {
    /// `game`, ready to take a moderator's ending; until it does, it is the same game.
    pub fn wrap(game: Box<dyn GameRules>) -> Box<dyn GameRules> {
        Box::new(Adjudicable {
            inner: game,
            ended: None,
        })
    }

    /// `game` ended by `entry`.
    pub fn ended(game: Box<dyn GameRules>, entry: AdjudicationEntry) -> Box<dyn GameRules> {
        Box::new(Adjudicable {
            inner: game,
            ended: Some(entry),
        })
    }

    /// For a stored snapshot of an adjudicated game: the ending and the game's own
    /// snapshot; `None` for any other snapshot.
    pub fn unwrap_snapshot(
        snapshot: &serde_json::Value,
    ) -> Option<(AdjudicationEntry, serde_json::Value)> {
        if !snapshot
            .as_object()
            .is_some_and(|o| o.len() == 1 && o.contains_key("Adjudicated"))
        {
            return None;
        }
        match serde_json::from_value::<Stored>(snapshot.clone()) {
            Ok(Stored::Adjudicated { entry, game }) => Some((entry, game)),
            Err(_) => None,
        }
    }

    /// The ending's words in a record's comment.
    fn comment(e: &AdjudicationEntry) -> String {
        let what = if e.is_abort() {
            "Aborted by a moderator"
        } else {
            "Adjudicated by a moderator"
        };
        if e.reason.is_empty() {
            what.to_string()
        } else {
            format!("{what}: {}", e.reason)
        }
    }

    /// `pgn`, the inner game's record of a game still going on, with the ending: the
    /// `Result` tag and the movetext's last token the result (`*` for an abort), and the
    /// `Termination` (`adjudication` or `abandoned`) and `PostalReason` tags; a comment
    /// with the moderator's reason before the result.
    fn ended_pgn(pgn: &str, e: &AdjudicationEntry) -> String {
        let result = if e.is_abort() { "*" } else { e.result.as_str() };
        let adjudicated = ADJUDICATED;
        let (termination, reason) = if e.is_abort() {
            ("abandoned", "aborted")
        } else {
            ("adjudication", adjudicated.name())
        };
        let (head, body) = match pgn.find("\n\n") {
            Some(at) => (&pgn[..at + 1], &pgn[at + 2..]),
            None => ("", pgn),
        };
        let mut tags = String::new();
        for line in head.lines() {
            if line.starts_with("[Result ") {
                tags.push_str(&format!("[Result \"{result}\"]\n"));
            } else if !line.starts_with("[Termination ") && !line.starts_with("[PostalReason ") {
                tags.push_str(line);
                tags.push('\n');
            }
        }
        tags.push_str(&format!("[Termination \"{termination}\"]\n"));
        tags.push_str(&format!("[PostalReason \"{reason}\"]\n"));
        let body = body.trim_end();
        let body = body.strip_suffix('*').unwrap_or(body).trim_end();
        let comment = crate::notation::pgn::comment(&Self::comment(e));
        let sep = if body.is_empty() { "" } else { " " };
        format!("{tags}\n{body}{sep}{comment} {result}\n")
    }
}

impl Apply for Adjudicable {
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError> {
        if self.ended.is_some() || (self.inner.is_over() && action.adjudication_entry().is_some()) {
            return Err(RuleError::over("the game is over"));
        }
        match action.adjudication_entry() {
            Some(e) => {
                let words = Self::comment(&e);
                let result = if e.is_abort() {
                    String::new()
                } else {
                    format!(" ({})", e.result)
                };
                self.ended = Some(e);
                Ok(vec![Note::public(Text::plain(format!("{words}{result}")))])
            }
            None => self.inner.apply(seat, action),
        }
    }
}

impl GameRules for Adjudicable {
    fn variant(&self) -> &'static str {
        self.inner.variant()
    }
    // A game ended by a moderator is analysed as far as it was played: its last
    // position open, whatever the adjudication said.
    fn engine_record(&self) -> Option<super::EngineRecord> {
        self.inner.engine_record().map(|r| super::EngineRecord {
            end: match self.ended {
                Some(_) => super::BoardEnd::Open,
                None => r.end,
            },
            ..r
        })
    }
    fn line_san(&self, ply: usize, line: &[String]) -> Vec<String> {
        self.inner.line_san(ply, line)
    }
    fn engine_variant(&self) -> Option<&'static str> {
        self.inner.engine_variant()
    }
    // A moderator's ending is written by this wrapper's own record: the plain one.
    fn pgn_analysed(
        &self,
        tags: &[(String, String)],
        after: &[(usize, String)],
        glyphs: &[(usize, &str)],
    ) -> Option<String> {
        match self.ended {
            Some(_) => None,
            None => self.inner.pgn_analysed(tags, after, glyphs),
        }
    }
    fn seats(&self) -> SeatPlan {
        self.inner.seats()
    }
    fn seat_count(&self) -> usize {
        self.inner.seat_count()
    }
    fn seat_name(&self, seat: Seat) -> &'static str {
        self.inner.seat_name(seat)
    }
    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        match self.ended {
            Some(_) => Vec::new(),
            None => self.inner.awaiting(),
        }
    }
    fn read(&self, seat: Seat, command: &GameCommand, env: Env) -> Result<Reading, RuleError> {
        match &self.ended {
            Some(_) => Err(RuleError::over("the game was ended by a moderator")),
            None => self.inner.read(seat, command, env),
        }
    }
    fn project(&self, viewer: Viewer) -> Projection {
        let mut p = self.inner.project(viewer);
        if let Some(e) = &self.ended {
            p.legal.clear();
            p.instructions = None;
            p.board.caption.to_move = None;
            p.board.caption.phase = None;
            p.board.caption.result = Some(if e.is_abort() {
                "Aborted by a moderator".to_string()
            } else {
                format!("{} · adjudicated", e.result.replace("1/2", "½"))
            });
        }
        p
    }
    fn outcome(&self) -> Option<GameOutcome> {
        match &self.ended {
            Some(e) if e.is_abort() => None,
            Some(e) => Some(GameOutcome::new(&e.result, ADJUDICATED)),
            None => self.inner.outcome(),
        }
    }
    fn aborted(&self) -> bool {
        match &self.ended {
            Some(e) => e.is_abort(),
            None => self.inner.aborted(),
        }
    }
    fn timeout_is_automatic(&self) -> bool {
        self.inner.timeout_is_automatic()
    }
    fn time_limit(&self, seat: Seat) -> Option<i64> {
        self.inner.time_limit(seat)
    }
    fn side_names(&self, names: &[&str]) -> [String; 2] {
        self.inner.side_names(names)
    }
    fn caption_names(&self, names: &[&str]) -> [String; 2] {
        self.inner.caption_names(names)
    }
    fn pgn(&self, viewer: Viewer, tags: &[(String, String)]) -> String {
        let pgn = self.inner.pgn(viewer, tags);
        match &self.ended {
            Some(e) => Self::ended_pgn(&pgn, e),
            None => pgn,
        }
    }
    fn animation(&self, viewer: Viewer, renderer: &Renderer, names: &[&str]) -> Option<Vec<u8>> {
        self.inner.animation(viewer, renderer, names)
    }
    fn keep_deal_secret(&mut self) {
        self.inner.keep_deal_secret()
    }
    fn export_fields(&self, viewer: Viewer) -> serde_json::Map<String, serde_json::Value> {
        let mut fields = self.inner.export_fields(viewer);
        if let Some(e) = &self.ended {
            fields.insert(
                "moderator_ending".into(),
                serde_json::json!({"result": e.result, "reason": e.reason}),
            );
        }
        fields
    }
    fn disguised(&self, owner: Seat) -> Option<Box<dyn GameRules>> {
        let inner = self.inner.disguised(owner)?;
        Some(Box::new(Adjudicable {
            inner,
            ended: self.ended.clone(),
        }))
    }
    fn disguised_before(
        &self,
        owner: Seat,
        actor: Seat,
        action: &Action,
    ) -> Option<Box<dyn GameRules>> {
        let inner = self.inner.disguised_before(owner, actor, action)?;
        Some(Box::new(Adjudicable {
            inner,
            ended: self.ended.clone(),
        }))
    }
    fn snapshot_text(&self) -> Result<String, RuleError> {
        match self.ended {
            None => self.inner.snapshot_text(),
            Some(_) => Ok(self.snapshot()?.to_string()),
        }
    }

    fn snapshot(&self) -> Result<serde_json::Value, RuleError> {
        let game = self.inner.snapshot()?;
        Ok(match &self.ended {
            Some(e) => serde_json::json!({"Adjudicated": {
                "entry": {"result": e.result, "reason": e.reason},
                "game": game,
            }}),
            None => game,
        })
    }
    fn state_for_replay_check(&self) -> Result<serde_json::Value, RuleError> {
        let game = self.inner.state_for_replay_check()?;
        Ok(match &self.ended {
            Some(e) => serde_json::json!({"Adjudicated": {
                "entry": {"result": e.result, "reason": e.reason},
                "game": game,
            }}),
            None => game,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_four_results_make_an_entry_and_reasons_are_bounded() {
        assert!(Action::adjudication("2-0", "x").is_none());
        let long = "y".repeat(500);
        let a = Action::adjudication("0-1", &long).unwrap();
        let e = a.adjudication_entry().unwrap();
        assert_eq!(e.result, "0-1");
        assert_eq!(e.reason.chars().count(), REASON_MAX);
        assert!(Action::resign().adjudication_entry().is_none());
    }

    #[test]
    fn an_ended_record_says_the_result_the_termination_and_the_reason() {
        let pgn = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
        let e = AdjudicationEntry {
            result: "1-0".into(),
            reason: "Black left {for good}".into(),
        };
        let out = Adjudicable::ended_pgn(pgn, &e);
        assert!(out.contains("[Result \"1-0\"]"), "{out}");
        assert!(out.contains("[Termination \"adjudication\"]"), "{out}");
        assert!(
            out.ends_with("1. e4 e5 {Adjudicated by a moderator: Black left (for good)} 1-0\n"),
            "{out}"
        );
        let abort = AdjudicationEntry {
            result: ABORTED.into(),
            reason: String::new(),
        };
        let out = Adjudicable::ended_pgn(pgn, &abort);
        assert!(out.contains("[Termination \"abandoned\"]"), "{out}");
        assert!(out.ends_with("{Aborted by a moderator} *\n"), "{out}");
    }
}
