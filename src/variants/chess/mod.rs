//! The chess variants (standard, Chess#, Los Alamos, Double Move Chess) as games of the
//! referee, wrapping [`rules::Game`](crate::rules::Game). Draw offers, fast-fifty
//! proposals, claims, resignation, timeouts and aborts are actions too, so a game replays
//! from its log.
//!
//! A move's canonical text is its UCI; in Double Move Chess a double move is one action
//! whose text is both halves' UCI separated by a space (`g1f3 f3g5`), and rule 5's capture
//! is written with an `x` (`f6xe4`) since the plain move `f6e4` may exist beside it.

mod read;
mod spec;
mod text;

pub use spec::{
    ChessSpec, CHESS_SHARP, DOUBLE_MOVE, DRAW, DRAW_ANSWER, LOS_ALAMOS, MOVE, STANDARD,
};
pub use text::{diagram, grid, pgn_tags, split_double};

use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::pgn::{numbered_moves, turn_sans};
use crate::notation::{san, write_pgn_annotated, write_pgn_ending};
use crate::render;
use crate::rules::{Claim, Color, EndReason, Game, Move, Outcome, Position, Turn, Variant};
use crate::variants::api::{
    Action, Env, GameCommand, GameOutcome, GameRules, Note, Projection, Prompt, Reading, RuleError,
    Seat, Text, Viewer,
};
use serde::{Deserialize, Serialize};

/// An offer that needs the other side's agreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OfferKind {
    /// A draw by agreement (variants with draws).
    Draw,
    /// Chess#: treat the game as an impasse now.
    FastFifty,
}

impl OfferKind {
    /// The word used in commands and messages.
    pub fn word(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::FastFifty => "fast-fifty",
        }
    }

    /// The command that answers it.
    fn command(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::FastFifty => "fastfifty",
        }
    }

    /// The word for turning it down.
    fn no(self) -> &'static str {
        match self {
            OfferKind::Draw => "decline",
            OfferKind::FastFifty => "reject",
        }
    }
}

/// A claim a player can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClaimKind {
    /// Chess#: the claimant is stalemated.
    Stalemate,
    /// Chess#: an impasse (answered with the count, since impasses are automatic).
    Impasse,
    /// The opponent's time has run out (Chess# rule 11.3); judged by the referee's clock.
    Time,
    /// A draw by threefold repetition or the fifty-move rule.
    Draw,
}

/// What a seat can do in a chess game: the entries of its action log. The JSON form is
/// the one stored since the first release (`{"Move":"e2e4"}`, `"Resign"`), so old logs
/// replay unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChessAction {
    /// A move in UCI; a double move is both halves' UCI separated by a space.
    Move(String),
    /// The seat resigns.
    Resign,
    /// The seat makes an offer.
    Offer(OfferKind),
    /// The seat accepts the pending offer of this kind.
    Accept(OfferKind),
    /// The seat declines the pending offer of this kind.
    Decline(OfferKind),
    /// A claim, optionally with the move the claimant intends to play.
    Claim(ClaimKind, Option<String>),
    /// The referee: this seat's time has run out.
    Timeout,
    /// The game is called off before each side has moved.
    Abort,
}

/// A chess-variant game under the referee.
#[derive(Clone, Debug)]
pub struct ChessRules {
    game: Game,
    /// A pending offer: who made it, and of what.
    offer: Option<(Color, OfferKind)>,
    /// The final outcome; kept here (not only in `game`) so a game loaded from a snapshot
    /// keeps an ending that came from an action rather than from a move.
    outcome: Option<Outcome>,
    aborted: bool,
}

/// The serialisable state of a [`ChessRules`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessSnapshot {
    /// The variant's command name.
    pub variant: String,
    /// The moves played, UCI.
    pub moves: Vec<String>,
    /// The position now, FEN.
    pub fen: String,
    /// The starting position, FEN, when the game did not start from the variant's own
    /// start (a game set up from a FEN for testing or teaching).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// A pending offer: `(seat, kind)`.
    pub offer: Option<(Seat, OfferKind)>,
    /// The outcome, with the engine's reason name (`Checkmate`, `FastFifty`, ...).
    pub outcome: Option<(String, GameOutcome)>,
    /// Whether the game was aborted.
    pub aborted: bool,
    /// Double Move Chess: the tokens each seat has left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_left: Option<[u8; 2]>,
}

const REASONS: [EndReason; 15] = [
    EndReason::Checkmate,
    EndReason::KingCaptured,
    EndReason::Stalemate,
    EndReason::StalemateClaim,
    EndReason::InsufficientMaterial,
    EndReason::FivefoldRepetition,
    EndReason::SeventyFiveMoveRule,
    EndReason::ThreefoldRepetition,
    EndReason::FiftyMoveRule,
    EndReason::Impasse,
    EndReason::FastFifty,
    EndReason::Agreement,
    EndReason::Resignation,
    EndReason::Timeout,
    EndReason::TimeoutVsInsufficientMaterial,
];

fn seat_of(c: Color) -> Seat {
    Seat::of_side(c)
}

fn color_of(seat: Seat) -> Result<Color, RuleError> {
    seat.side()
}

/// The service's form of an engine outcome.
pub fn game_outcome(o: &Outcome) -> GameOutcome {
    GameOutcome {
        result: o.result.pgn().to_string(),
        reason: o.reason.name().to_string(),
        score: o.score.map(|s| s.iter().map(|&p| p as i32).collect()),
    }
}

/// Finds the legal move whose UCI text is `uci` (case-insensitive).
pub fn find_uci(pos: &Position, uci: &str) -> Option<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| m.uci().eq_ignore_ascii_case(uci))
}

/// Finds the turn whose canonical text is `text`: a move's UCI, or a double move's two
/// UCI texts separated by a space. A refused double move says why.
pub fn find_turn(pos: &Position, text: &str) -> Result<Turn, RuleError> {
    let illegal = |t: &str| RuleError::new(format!("{t} is not a legal move here"));
    match text.split_once(' ') {
        None => find_uci(pos, text)
            .map(Turn::Single)
            .ok_or_else(|| illegal(text)),
        Some((a, b)) => {
            let first = find_uci(pos, a).ok_or_else(|| illegal(a))?;
            if let Some(e) = pos.double_move_refusal(first) {
                return Err(RuleError::new(e.to_string()));
            }
            let second = find_uci(&pos.first_half(first), b).ok_or_else(|| {
                RuleError::new(format!("{b} is not a legal second move after {a}"))
            })?;
            Ok(Turn::Double(first, second))
        }
    }
}

impl ChessRules {
    /// The game's record with a comment after the turns `after` names (by the turn's
    /// index from the start): for a variant built on this one whose turns carry more
    /// than the move (Split-Brain's revealed picks).
    pub fn pgn_with_comments(
        &self,
        tags: &[(String, String)],
        after: &[(usize, String)],
    ) -> String {
        write_pgn_annotated(&self.game, self.outcome, &pgn_tags(tags), after, None)
    }

    /// A new game of `variant` from its starting position.
    pub fn new(variant: Variant) -> ChessRules {
        ChessRules {
            game: Game::new(variant),
            offer: None,
            outcome: None,
            aborted: false,
        }
    }

    /// A new game of `variant` from the position `fen` (for testing and teaching). The
    /// position must be possible in the variant and the game not already over in it.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<ChessRules, RuleError> {
        let pos = parse_fen(variant, fen).map_err(|e| RuleError::new(e.to_string()))?;
        let game = Game::from_position(pos);
        if let Some(o) = game.outcome() {
            return Err(RuleError::new(format!(
                "that position is already over ({})",
                game_outcome(&o)
            )));
        }
        Ok(ChessRules {
            game,
            offer: None,
            outcome: None,
            aborted: false,
        })
    }

    /// The engine's game (moves and positions).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Rebuilds a game from its snapshot, replaying its moves and restoring the ending.
    pub fn from_snapshot(snap: &ChessSnapshot) -> Result<ChessRules, RuleError> {
        let variant: Variant = snap
            .variant
            .parse()
            .map_err(|e: crate::rules::UnknownVariant| RuleError::new(e.to_string()))?;
        let mut game = match &snap.start {
            Some(fen) => Game::from_position(
                parse_fen(variant, fen)
                    .map_err(|e| RuleError::new(format!("snapshot start: {e}")))?,
            ),
            None => Game::new(variant),
        };
        for text in &snap.moves {
            let turn = find_turn(game.position(), text)
                .map_err(|e| RuleError::new(format!("snapshot move {text}: {e}")))?;
            game.play_turn(turn)
                .map_err(|e| RuleError::new(format!("snapshot move {text}: {e}")))?;
        }
        let outcome = match &snap.outcome {
            None => None,
            Some((key, o)) => {
                let reason = REASONS
                    .iter()
                    .copied()
                    .find(|r| format!("{r:?}") == *key)
                    .ok_or_else(|| RuleError::new(format!("unknown end reason {key}")))?;
                let result = match o.result.as_str() {
                    "1-0" => crate::rules::GameResult::WhiteWins,
                    "0-1" => crate::rules::GameResult::BlackWins,
                    _ => crate::rules::GameResult::Draw,
                };
                let score = match o.score.as_deref() {
                    Some(&[w, b]) => Some([
                        u32::try_from(w).map_err(|_| RuleError::new("negative chess score"))?,
                        u32::try_from(b).map_err(|_| RuleError::new("negative chess score"))?,
                    ]),
                    _ => None,
                };
                Some(Outcome {
                    result,
                    reason,
                    score,
                })
            }
        };
        let offer = match snap.offer {
            Some((s, k)) => Some((color_of(s)?, k)),
            None => None,
        };
        let rules = ChessRules {
            game,
            offer,
            outcome,
            aborted: snap.aborted,
        };
        if to_fen(rules.game.position()) != snap.fen {
            return Err(RuleError::new("snapshot FEN does not match its moves"));
        }
        Ok(rules)
    }

    /// The typed snapshot.
    pub fn chess_snapshot(&self) -> ChessSnapshot {
        ChessSnapshot {
            variant: self.game.variant().name().to_string(),
            moves: self.game.turns().iter().map(|(_, t)| t.uci()).collect(),
            fen: to_fen(self.game.position()),
            start: Some(self.game.start())
                .filter(|p| **p != Position::start(self.game.variant()))
                .map(to_fen),
            offer: self.offer.map(|(c, k)| (seat_of(c), k)),
            outcome: self
                .outcome
                .map(|o| (format!("{:?}", o.reason), game_outcome(&o))),
            aborted: self.aborted,
            tokens_left: self.tokens_left(),
        }
    }

    /// Double Move Chess: the tokens each side has left.
    fn tokens_left(&self) -> Option<[u8; 2]> {
        self.game
            .position()
            .config()
            .double_move
            .map(|_| self.game.position().tokens())
    }

    fn has_draws(&self) -> bool {
        self.game.position().config().sharp.is_none()
    }

    fn is_sharp(&self) -> bool {
        self.game.position().config().sharp.is_some()
    }

    fn over_check(&self) -> Result<(), RuleError> {
        if self.aborted {
            Err(RuleError::over("the game was aborted"))
        } else if self.outcome.is_some() {
            Err(RuleError::over("the game is over"))
        } else {
            Ok(())
        }
    }

    fn end(&mut self, o: Outcome) {
        self.outcome = Some(o);
        self.offer = None;
    }

    fn play_move(&mut self, color: Color, text: &str) -> Result<Vec<Note>, RuleError> {
        if self.game.turn() != color {
            return Err(RuleError::not_your_turn("it is not your turn"));
        }
        let pos = *self.game.position();
        let turn = find_turn(&pos, text)?;
        let san = text::describe_turn(&pos, turn);
        self.game
            .play_turn(turn)
            .map_err(|e| RuleError::new(e.to_string()))?;
        let mut notes = vec![played(seat_of(color), &san)];
        if let Some((by, kind)) = self.offer {
            if by != color {
                // Moving instead of answering declines the opponent's offer.
                self.offer = None;
                notes.push(lapsed(kind));
            }
        }
        if let Some(o) = self.game.outcome() {
            self.end(o);
        }
        Ok(notes)
    }

    fn offer_allowed(&self, kind: OfferKind) -> Result<(), RuleError> {
        match kind {
            OfferKind::Draw if !self.has_draws() => Err(RuleError::new(format!(
                "{} has no draws",
                self.game.variant().display_name()
            ))),
            OfferKind::FastFifty if !self.is_sharp() => Err(RuleError::new(format!(
                "fast-fifty exists only in Chess#, not in {}",
                self.game.variant().display_name()
            ))),
            _ => Ok(()),
        }
    }
}

/// The note of a move.
fn played(seat: Seat, san: &str) -> Note {
    Note::moved(Text::player(seat, format!(" played {san}")))
}

/// The note of an offer that lapsed because the side it was made to played on (in
/// Split-Brain Chess the move is the team's, so no one partner "declined").
fn lapsed(kind: OfferKind) -> Note {
    Note::public(Text::plain(format!(
        "the {} proposal lapses as play goes on",
        kind.word()
    )))
}

/// The note of an offer turned down.
fn declined(seat: Seat, kind: OfferKind) -> Note {
    Note::public(Text::player(seat, format!(" declined the {}", kind.word())))
}

impl ChessRules {
    /// Whether an abort is still allowed: before each side has moved.
    pub fn can_abort(&self) -> bool {
        !self.is_over() && self.game.moves().len() < 2
    }

    /// The moves `color` may make now, in SAN; empty when it is not their turn.
    fn legal_sans(&self, color: Color) -> Vec<String> {
        if self.is_over() || self.game.turn() != color {
            return Vec::new();
        }
        let pos = self.game.position();
        self.game
            .legal_moves()
            .iter()
            .map(|&m| san(pos, m))
            .collect()
    }

    /// Applies an action of the variant's own type.
    fn act(&mut self, seat: Seat, action: ChessAction) -> Result<Vec<Note>, RuleError> {
        let color = color_of(seat)?;
        self.over_check()?;
        let mut notes = Vec::new();
        match action {
            ChessAction::Move(uci) => return self.play_move(color, &uci),
            ChessAction::Resign => {
                let o = self
                    .game
                    .resign(color)
                    .map_err(|e| RuleError::new(e.to_string()))?;
                self.end(o);
                notes.push(Note::public(Text::player(seat, " resigns")));
            }
            ChessAction::Offer(kind) => {
                self.offer_allowed(kind)?;
                match self.offer {
                    Some((by, k)) if by == color => {
                        return Err(RuleError::new(format!(
                            "you have already proposed a {}",
                            k.word()
                        )))
                    }
                    Some((_, k)) => {
                        return Err(RuleError::new(format!(
                            "your opponent has proposed a {0}: answer it first ({1} accept or {2})",
                            k.word(),
                            k.command(),
                            k.no()
                        )))
                    }
                    None => {}
                }
                self.offer = Some((color, kind));
                notes.push(Note::public(Text::player(
                    seat,
                    format!(
                        " proposes a {}: {} accept or {}",
                        kind.word(),
                        kind.command(),
                        kind.no()
                    ),
                )));
            }
            ChessAction::Accept(kind) | ChessAction::Decline(kind) => {
                self.offer_allowed(kind)?;
                match self.offer {
                    Some((by, k)) if k == kind && by != color => {}
                    Some((_, k)) if k == kind => {
                        return Err(RuleError::new(format!(
                            "you cannot answer your own {} proposal",
                            k.word()
                        )))
                    }
                    _ => {
                        return Err(RuleError::new(format!(
                            "there is no {} proposal to answer",
                            kind.word()
                        )))
                    }
                }
                if matches!(action, ChessAction::Accept(_)) {
                    let o = self
                        .game
                        .agree_to_end()
                        .map_err(|e| RuleError::new(e.to_string()))?;
                    self.end(o);
                } else {
                    self.offer = None;
                    notes.push(declined(seat, kind));
                }
            }
            ChessAction::Claim(kind, intended) => {
                return self.claim(color, kind, intended.as_deref())
            }
            ChessAction::Timeout => {
                // `seat` is the side whose time ran out.
                let o = self
                    .game
                    .timeout(color)
                    .map_err(|e| RuleError::new(e.to_string()))?;
                self.end(o);
            }
            ChessAction::Abort => {
                if !self.can_abort() {
                    return Err(RuleError::new(
                        "both sides have moved: the game can no longer be aborted (resign instead)",
                    ));
                }
                self.aborted = true;
                self.offer = None;
            }
        }
        Ok(notes)
    }

    /// A claim by `color`, with the move it intends (a draw claim may name one).
    fn claim(
        &mut self,
        color: Color,
        kind: ClaimKind,
        intended: Option<&str>,
    ) -> Result<Vec<Note>, RuleError> {
        let claim = match kind {
            ClaimKind::Stalemate => Claim::Stalemate,
            ClaimKind::Impasse => Claim::Impasse,
            ClaimKind::Draw => return self.claim_draw(color, intended),
            ClaimKind::Time => {
                return Err(RuleError::new(
                    "a time claim is judged by the referee's clock",
                ))
            }
        };
        if intended.is_some() {
            return Err(RuleError::new("this claim takes no move"));
        }
        let o = self
            .game
            .claim(color, claim, None)
            .map_err(|e| RuleError::new(e.to_string()))?;
        self.end(o);
        let what = match claim {
            Claim::Stalemate => " claims to be stalemated",
            _ => " claims an impasse",
        };
        Ok(vec![Note::public(Text::player(seat_of(color), what))])
    }

    /// A draw claim: threefold repetition first, then the fifty-move rule, on the
    /// position now or after the intended move.
    fn claim_draw(&mut self, color: Color, intended: Option<&str>) -> Result<Vec<Note>, RuleError> {
        if !self.has_draws() {
            return Err(RuleError::new(format!(
                "{} has no draws",
                self.game.variant().display_name()
            )));
        }
        if intended.is_some_and(|u| u.contains(' ')) {
            return Err(RuleError::new(
                "a draw claim may name a single move, not a double move",
            ));
        }
        let m = match intended {
            Some(u) => Some(
                find_uci(self.game.position(), u)
                    .ok_or_else(|| RuleError::new("the move named with the claim is not legal"))?,
            ),
            None => None,
        };
        let before = *self.game.position();
        let mut trial = self.game.clone();
        // A refused claim tells both counts: the repetitions and the fifty-move count.
        let res = trial
            .claim(color, Claim::ThreefoldRepetition, m)
            .or_else(|e1| {
                let mut t2 = self.game.clone();
                match t2.claim(color, Claim::FiftyMoveRule, m) {
                    Ok(o) => {
                        trial = t2;
                        Ok(o)
                    }
                    Err(e2) if e2.to_string() == e1.to_string() => Err(e1.to_string()),
                    Err(e2) => Err(format!("no draw to claim: {e1}; {e2}")),
                }
            })
            .map_err(RuleError::new)?;
        self.game = trial;
        let mut notes: Vec<Note> = m
            .map(|m| played(seat_of(color), &san(&before, m)))
            .into_iter()
            .collect();
        let by = match res.reason {
            EndReason::FiftyMoveRule => "the fifty-move rule",
            _ => "threefold repetition",
        };
        notes.push(Note::public(Text::player(
            seat_of(color),
            format!(" claims a draw by {by}"),
        )));
        self.end(res);
        Ok(notes)
    }

    /// The engine's view of the board for `viewer`.
    fn board_viewer(viewer: Viewer) -> render::Viewer {
        match viewer {
            Viewer::Public => render::Viewer::Public,
            Viewer::Seat(seat) => match color_of(seat) {
                Ok(color) => render::Viewer::Player(color),
                Err(_) => render::Viewer::Public,
            },
        }
    }
}

impl GameRules for ChessRules {
    fn variant(&self) -> &'static str {
        self.game.variant().name()
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        if seat.0 == 0 {
            "White"
        } else {
            "Black"
        }
    }

    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        if self.is_over() {
            return Vec::new();
        }
        let turn = self.game.turn();
        let mut out = vec![(seat_of(turn), Prompt::turn("move", "to move"))];
        if let Some((by, kind)) = self.offer {
            let to = by.opposite();
            let cmd = kind.command();
            // The side the offer is made to is still to move (playing on lets the offer
            // lapse): its prompt says both, and its deadline is the move's.
            let ask = match (kind, to == turn) {
                (OfferKind::Draw, true) => "to move or answer the draw offer",
                (OfferKind::FastFifty, true) => "to move or answer the fast-fifty",
                (OfferKind::Draw, false) => "to answer the draw offer",
                (OfferKind::FastFifty, false) => "to answer the fast-fifty",
            };
            let answer = |p: Prompt| {
                p.with_answer("Accept", &format!("{cmd} accept"), true)
                    .with_answer(
                        &format!("{}{}", kind.no()[..1].to_uppercase(), &kind.no()[1..]),
                        &format!("{cmd} {}", kind.no()),
                        false,
                    )
            };
            if to == turn {
                out[0].1 = answer(Prompt::turn(kind.command(), ask));
            } else {
                out.push((seat_of(to), answer(Prompt::optional(kind.command(), ask))));
            }
        }
        out
    }

    fn read(&self, seat: Seat, command: &GameCommand, _env: Env) -> Result<Reading, RuleError> {
        read::read(self, seat, command)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError> {
        let action: ChessAction = action.to(self.game.variant().display_name())?;
        self.act(seat, action)
    }

    fn project(&self, viewer: Viewer) -> Projection {
        let pos = self.game.position();
        let legal = match viewer {
            Viewer::Seat(seat) => color_of(seat)
                .map(|c| self.legal_sans(c))
                .unwrap_or_default(),
            Viewer::Public => Vec::new(),
        };
        Projection {
            board: render::BoardView::from_game(
                &self.game,
                ChessRules::board_viewer(viewer),
                render::PublicOrientation::default(),
            ),
            diagram: diagram(pos),
            fen: to_fen(pos),
            last_move: self.game.turns().last().map(|(_, t)| t.uci()),
            record: turn_sans(&self.game),
            numbered: numbered_moves(&self.game).join(" "),
            legal,
            holdings: None,
            counters: self
                .tokens_left()
                .map(|[w, b]| format!("double-move tokens left: White {w}, Black {b}")),
            instructions: None,
        }
    }

    fn outcome(&self) -> Option<GameOutcome> {
        self.outcome.as_ref().map(game_outcome)
    }

    fn aborted(&self) -> bool {
        self.aborted
    }

    fn timeout_is_automatic(&self) -> bool {
        !self.is_sharp()
    }

    fn pgn(&self, _viewer: Viewer, tags: &[(String, String)]) -> String {
        write_pgn_ending(&self.game, self.outcome, &pgn_tags(tags))
    }

    fn animation(
        &self,
        _viewer: Viewer,
        renderer: &render::Renderer,
        names: &[&str],
    ) -> Option<Vec<u8>> {
        let [white, black] = self.side_names(names);
        let options = render::gif::GifOptions {
            white,
            black,
            ..Default::default()
        };
        Some(render::gif::game_gif(renderer, &self.game, &options))
    }

    fn export_fields(&self, _viewer: Viewer) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        if let Some(tokens) = self.tokens_left() {
            m.insert("tokens_left".into(), serde_json::json!(tokens));
        }
        m
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::to_value(self.chess_snapshot()).unwrap_or(serde_json::Value::Null)
    }
}

#[cfg(test)]
mod claim_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(uci: &str) -> Action {
        Action::of(&ChessAction::Move(uci.into()))
    }

    #[test]
    fn legal_moves_are_the_movers_in_san_and_nobody_elses() {
        let mut g = ChessRules::new(Variant::Standard);
        let legal = |g: &ChessRules, s: u8| g.project(Viewer::Seat(Seat(s))).legal;
        let white = legal(&g, 0);
        assert_eq!(white.len(), 20);
        assert!(white.contains(&"Nf3".to_string()) && white.contains(&"e4".to_string()));
        assert!(legal(&g, 1).is_empty(), "not Black's turn");
        assert!(g.project(Viewer::Public).legal.is_empty());
        g.apply(Seat(0), &mv("f2f3")).unwrap();
        g.apply(Seat(1), &mv("e7e5")).unwrap();
        g.apply(Seat(0), &mv("g2g4")).unwrap();
        assert!(legal(&g, 1).contains(&"Qh4#".to_string()));
        g.apply(Seat(1), &mv("d8h4")).unwrap();
        assert!(legal(&g, 0).is_empty(), "the game is over");
        let sharp = ChessRules::new(Variant::ChessSharp);
        assert!(legal(&sharp, 0).iter().all(|m| m.contains('@')));
    }

    #[test]
    fn stored_actions_keep_their_json() {
        let json = |a: &ChessAction| serde_json::to_string(&Action::of(a)).unwrap();
        assert_eq!(
            json(&ChessAction::Move("e2e4".into())),
            r#"{"Move":"e2e4"}"#
        );
        assert_eq!(json(&ChessAction::Resign), r#""Resign""#);
        assert_eq!(
            json(&ChessAction::Claim(ClaimKind::Draw, None)),
            r#"{"Claim":["Draw",null]}"#
        );
        assert_eq!(
            json(&ChessAction::Offer(OfferKind::FastFifty)),
            r#"{"Offer":"FastFifty"}"#
        );
        assert_eq!(Action::timeout(), Action::of(&ChessAction::Timeout));
        assert_eq!(Action::abort(), Action::of(&ChessAction::Abort));
    }
}
