//! [`GameRules`] for the chess variants (standard, Chess#, Los Alamos, Double Move Chess),
//! wrapping [`rules::Game`](crate::rules::Game). Draw offers, fast-fifty proposals, claims,
//! resignation, timeouts and aborts are actions too, so a game replays from its log.
//!
//! A move's canonical text is its UCI; in Double Move Chess a double move is one action
//! whose text is both halves' UCI separated by a space (`g1f3 f3g5`), and rule 5's capture
//! is written with an `x` (`f6xe4`) since the plain move `f6e4` may exist beside it.

use super::rules::{
    Action, ClaimKind, Event, GameOutcome, GameRules, OfferKind, Prompt, RuleError, Seat, View,
    Viewer,
};
use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::pgn::{numbered_moves, turn_san, turn_sans};
use crate::notation::{parse_move, san, write_pgn_ending, PgnTags};
use crate::render;
use crate::rules::{
    Claim, Color, EndReason, Game, Move, MoveKind, Outcome, Position, Turn, Variant,
};
use serde::{Deserialize, Serialize};

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
    Seat(c.index() as u8)
}

fn color_of(seat: Seat) -> Result<Color, RuleError> {
    match seat.0 {
        0 => Ok(Color::White),
        1 => Ok(Color::Black),
        _ => Err(RuleError::new("chess has two seats")),
    }
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
            Err(RuleError::new("the game was aborted"))
        } else if self.outcome.is_some() {
            Err(RuleError::new("the game is over"))
        } else {
            Ok(())
        }
    }

    fn end(&mut self, o: Outcome, events: &mut Vec<Event>) {
        self.outcome = Some(o);
        self.offer = None;
        events.push(Event::Ended(game_outcome(&o)));
    }

    fn play_move(&mut self, color: Color, text: &str) -> Result<Vec<Event>, RuleError> {
        if self.game.turn() != color {
            return Err(RuleError::new("it is not your turn"));
        }
        let pos = *self.game.position();
        let turn = find_turn(&pos, text)?;
        let san = describe_turn(&pos, turn);
        self.game
            .play_turn(turn)
            .map_err(|e| RuleError::new(e.to_string()))?;
        let mut events = vec![Event::Moved {
            seat: seat_of(color),
            san,
        }];
        if let Some((by, kind)) = self.offer {
            if by != color {
                // Moving instead of answering declines the opponent's offer.
                self.offer = None;
                events.push(Event::Declined(seat_of(color), kind));
            }
        }
        if let Some(o) = self.game.outcome() {
            self.end(o, &mut events);
        }
        Ok(events)
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
        let mut out = vec![(seat_of(turn), Prompt::Move)];
        if let Some((by, kind)) = self.offer {
            let prompt = match kind {
                OfferKind::Draw => Prompt::AnswerDraw,
                OfferKind::FastFifty => Prompt::AnswerFastFifty,
            };
            let to = by.opposite();
            if to == turn {
                out[0].1 = prompt;
            } else {
                out.push((seat_of(to), prompt));
            }
        }
        out
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, RuleError> {
        let color = color_of(seat)?;
        self.over_check()?;
        let mut events = Vec::new();
        match action {
            Action::Move(uci) => return self.play_move(color, uci),
            Action::Resign => {
                let o = self
                    .game
                    .resign(color)
                    .map_err(|e| RuleError::new(e.to_string()))?;
                self.end(o, &mut events);
            }
            Action::Offer(kind) => {
                self.offer_allowed(*kind)?;
                match self.offer {
                    Some((by, k)) if by == color => {
                        return Err(RuleError::new(format!(
                            "you have already proposed a {}",
                            k.word()
                        )))
                    }
                    Some((_, k)) => {
                        return Err(RuleError::new(format!(
                        "your opponent has proposed a {0}: answer it first ({0} accept or decline)",
                        k.word()
                    )))
                    }
                    None => {}
                }
                self.offer = Some((color, *kind));
                events.push(Event::Offered(seat, *kind));
            }
            Action::Accept(kind) | Action::Decline(kind) => {
                self.offer_allowed(*kind)?;
                match self.offer {
                    Some((by, k)) if k == *kind && by != color => {}
                    Some((_, k)) if k == *kind => {
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
                if matches!(action, Action::Accept(_)) {
                    let o = self
                        .game
                        .agree_to_end()
                        .map_err(|e| RuleError::new(e.to_string()))?;
                    self.end(o, &mut events);
                } else {
                    self.offer = None;
                    events.push(Event::Declined(seat, *kind));
                }
            }
            Action::Claim(kind, intended) => {
                let claim = match kind {
                    ClaimKind::Stalemate => Claim::Stalemate,
                    ClaimKind::Impasse => Claim::Impasse,
                    ClaimKind::Draw => {
                        if !self.has_draws() {
                            return Err(RuleError::new(format!(
                                "{} has no draws",
                                self.game.variant().display_name()
                            )));
                        }
                        if intended.as_deref().is_some_and(|u| u.contains(' ')) {
                            return Err(RuleError::new(
                                "a draw claim may name a single move, not a double move",
                            ));
                        }
                        // Threefold repetition first, then the fifty-move rule.
                        let m = match intended {
                            Some(u) => {
                                Some(find_uci(self.game.position(), u).ok_or_else(|| {
                                    RuleError::new("the move named with the claim is not legal")
                                })?)
                            }
                            None => None,
                        };
                        let before = *self.game.position();
                        let mut trial = self.game.clone();
                        let res = trial
                            .claim(color, Claim::ThreefoldRepetition, m)
                            .or_else(|e1| {
                                let mut t2 = self.game.clone();
                                match t2.claim(color, Claim::FiftyMoveRule, m) {
                                    Ok(o) => {
                                        trial = t2;
                                        Ok(o)
                                    }
                                    Err(_) => Err(e1),
                                }
                            })
                            .map_err(|e| RuleError::new(e.to_string()))?;
                        self.game = trial;
                        if let Some(m) = m {
                            events.push(Event::Moved {
                                seat,
                                san: san(&before, m),
                            });
                        }
                        self.end(res, &mut events);
                        return Ok(events);
                    }
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
                self.end(o, &mut events);
            }
            Action::Timeout => {
                // `seat` is the side whose time ran out.
                let o = self
                    .game
                    .timeout(color)
                    .map_err(|e| RuleError::new(e.to_string()))?;
                self.end(o, &mut events);
            }
            Action::Abort => {
                if !self.can_abort() {
                    return Err(RuleError::new(
                        "both sides have moved: the game can no longer be aborted (resign instead)",
                    ));
                }
                self.aborted = true;
                self.offer = None;
                events.push(Event::Aborted);
            }
            Action::Pick(_) | Action::Decide(_) | Action::Choose(_) => {
                return Err(RuleError::new(format!(
                    "there is nothing to pick, decide or choose in {}: just move",
                    self.game.variant().display_name()
                )))
            }
            Action::Clue(_)
            | Action::Pass
            | Action::Play { .. }
            | Action::Letters { .. }
            | Action::Discard(_)
            | Action::Words(_)
            | Action::Guess(_) => {
                return Err(action.not_in(self.game.variant().display_name()));
            }
        }
        Ok(events)
    }

    fn parse_move(&self, seat: Seat, text: &str) -> Result<String, RuleError> {
        let color = color_of(seat)?;
        self.over_check()?;
        if self.game.turn() != color {
            return Err(RuleError::new("it is not your turn"));
        }
        let pos = self.game.position();
        if pos.config().double_move.is_some() {
            if let Some((first, second)) = super::command::split_double(text) {
                return self.parse_double(seat, first, second);
            }
        }
        parse_move(pos, text)
            .map(|m| m.uci())
            .map_err(|e| RuleError::new(e.to_string()))
    }

    fn parse_double(&self, seat: Seat, first: &str, second: &str) -> Result<String, RuleError> {
        let color = color_of(seat)?;
        self.over_check()?;
        if self.game.turn() != color {
            return Err(RuleError::new("it is not your turn"));
        }
        let pos = self.game.position();
        if pos.config().double_move.is_none() {
            return Err(RuleError::new(format!(
                "there are no double moves in {} (only in double-move games)",
                self.game.variant().display_name()
            )));
        }
        let a = parse_move(pos, first).map_err(|e| RuleError::new(format!("first move: {e}")))?;
        if let Some(e) = pos.double_move_refusal(a) {
            return Err(RuleError::new(e.to_string()));
        }
        let middle = pos.first_half(a);
        let b = parse_move(&middle, second).map_err(|e| {
            RuleError::new(format!(
                "second move, after {}: {e}",
                crate::notation::san(pos, a)
            ))
        })?;
        Ok(format!("{} {}", a.uci(), b.uci()))
    }

    fn tokens_left(&self) -> Option<Vec<u8>> {
        ChessRules::tokens_left(self).map(|t| t.to_vec())
    }

    fn animation(&self, renderer: &render::Renderer, names: &[&str]) -> Option<Vec<u8>> {
        let [white, black] = self.side_names(names);
        let options = render::gif::GifOptions {
            white,
            black,
            ..Default::default()
        };
        Some(render::gif::game_gif(renderer, &self.game, &options))
    }

    fn view(&self, viewer: Viewer) -> View {
        let pos = self.game.position();
        let board_viewer = match viewer {
            Viewer::Public => render::Viewer::Public,
            Viewer::Seat(seat) => match color_of(seat) {
                Ok(color) => render::Viewer::Player(color),
                Err(_) => render::Viewer::Public,
            },
        };
        View {
            variant: self.variant().to_string(),
            fen: to_fen(pos),
            last_move: self.game.turns().last().map(|(_, t)| t.uci()),
            diagram: diagram(pos),
            board: render::BoardView::from_game(
                &self.game,
                board_viewer,
                render::PublicOrientation::default(),
            ),
        }
    }

    fn outcome(&self) -> Option<GameOutcome> {
        self.outcome.as_ref().map(game_outcome)
    }

    fn aborted(&self) -> bool {
        self.aborted
    }

    fn can_abort(&self) -> bool {
        !self.is_over() && self.game.moves().len() < 2
    }

    fn timeout_is_automatic(&self) -> bool {
        !self.is_sharp()
    }

    fn move_list(&self) -> Vec<String> {
        turn_sans(&self.game)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<String> {
        match color_of(seat) {
            Ok(c) if !self.is_over() && self.game.turn() == c => {
                let pos = self.game.position();
                let moves = self.game.legal_moves();
                moves.iter().map(|&m| san(pos, m)).collect()
            }
            _ => Vec::new(),
        }
    }

    fn numbered_moves(&self) -> String {
        numbered_moves(&self.game).join(" ")
    }

    fn pgn(&self, tags: &[(String, String)]) -> String {
        pgn_text(self, tags)
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::to_value(self.chess_snapshot()).unwrap_or(serde_json::Value::Null)
    }
}

/// A text diagram: ranks from the top, `.` for an empty square, reserves below.
pub fn diagram(pos: &Position) -> String {
    let cfg = pos.config();
    let mut out = String::new();
    for rank in (0..cfg.height).rev() {
        out.push((b'1' + rank) as char);
        out.push(' ');
        for file in 0..cfg.width {
            let sq = crate::rules::Square::new(file, rank);
            out.push(pos.piece_at(sq).map(|p| p.fen_char()).unwrap_or('.'));
        }
        out.push('\n');
    }
    out.push_str("  ");
    for file in 0..cfg.width {
        out.push((b'a' + file) as char);
    }
    if cfg.drops.is_some() {
        let fen = crate::notation::fen::board_fen(pos);
        if let Some(i) = fen.find('[') {
            out.push_str("  reserve ");
            out.push_str(&fen[i..]);
        }
    }
    if let Some(dm) = cfg.double_move {
        let [w, b] = pos.tokens();
        out.push_str(&format!(
            "\ndouble-move tokens left: White {w} of {0}, Black {b} of {0}",
            dm.tokens
        ));
    }
    out
}

/// How a turn is announced: its SAN, a double move with the tokens left, and rule 5's
/// capture with what it takes.
fn describe_turn(pos: &Position, turn: Turn) -> String {
    let text = turn_san(pos, turn);
    match turn {
        Turn::Double(..) => {
            let left = pos.tokens()[pos.turn().index()].saturating_sub(1);
            format!(
                "the double move {} ({left} token{} left)",
                text.replace(',', ", "),
                if left == 1 { "" } else { "s" }
            )
        }
        Turn::Single(m) if m.kind == MoveKind::CaptureTwiceMoved => {
            let at = pos.twice_moved().map(|(_, at)| at.to_string());
            format!(
                "{text}, taking the twice-moved {} on {} en passant",
                m.capture.map(|r| r.name()).unwrap_or("piece"),
                at.unwrap_or_default()
            )
        }
        Turn::Single(_) => text,
    }
}

fn pgn_text(rules: &ChessRules, tags: &[(String, String)]) -> String {
    write_pgn_ending(&rules.game, rules.outcome, &pgn_tags(tags))
}

/// The PGN tags of the values the service knows (`Event`, `White`, `Variant`, ...); a name
/// that is not one of the roster's is an extra tag.
pub fn pgn_tags(tags: &[(String, String)]) -> PgnTags {
    let mut t = PgnTags::default();
    for (k, v) in tags {
        let field = match k.as_str() {
            "Event" => &mut t.event,
            "Site" => &mut t.site,
            "Date" => &mut t.date,
            "Round" => &mut t.round,
            "White" => &mut t.white,
            "Black" => &mut t.black,
            "Variant" => {
                t.variant = Some(v.clone());
                continue;
            }
            _ => {
                t.extra.push((k.clone(), v.clone()));
                continue;
            }
        };
        *field = v.clone();
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_moves_are_the_movers_in_san_and_nobody_elses() {
        let mut g = ChessRules::new(Variant::Standard);
        let white = g.legal_moves(Seat(0));
        assert_eq!(white.len(), 20);
        assert!(white.contains(&"Nf3".to_string()) && white.contains(&"e4".to_string()));
        assert!(g.legal_moves(Seat(1)).is_empty(), "not Black's turn");
        g.apply(Seat(0), &Action::Move("f2f3".into())).unwrap();
        g.apply(Seat(1), &Action::Move("e7e5".into())).unwrap();
        g.apply(Seat(0), &Action::Move("g2g4".into())).unwrap();
        assert!(g.legal_moves(Seat(1)).contains(&"Qh4#".to_string()));
        g.apply(Seat(1), &Action::Move("d8h4".into())).unwrap();
        assert!(g.legal_moves(Seat(0)).is_empty(), "the game is over");
        let sharp = ChessRules::new(Variant::ChessSharp);
        assert!(sharp.legal_moves(Seat(0)).iter().all(|m| m.contains('@')));
    }
}
