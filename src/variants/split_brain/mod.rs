//! Split-Brain Chess: two teams of two on the Los Alamos board. On each team turn the
//! chooser secretly picks a piece and the mover secretly picks a target square; both are
//! revealed, and an unplayable pair is resolved by the opposing chooser's decision
//! (`decide piece|target`) and the Manhattan-distance rule. The rules are in
//! `docs/rules/split-brain.md`; everything of ordinary chess (check, mate, draws, offers,
//! resignation, timeouts) is delegated to [`ChessRules`] on the Los Alamos board.
//!
//! - this module: the game's state, its actions and how they change it;
//! - `spec`: the registry's entry and the commands;
//! - `read`: typed commands into actions;
//! - `view`: prompts, instructions and what each viewer sees.

mod read;
mod spec;
#[cfg(test)]
mod tests;
mod view;

pub use spec::{SplitBrainSpec, CHOOSE, DECIDE, PICK, SPEC};
pub use view::{choose_prompt, decide_prompt, pick_piece_prompt, pick_target_prompt};

use super::api::{
    Action, Audience, Env, GameCommand, GameOutcome, GameRules, Note, Projection, Prompt, Reading,
    RuleError, Seat, Span, Text, Viewer,
};
use super::chess::{ChessAction, ChessRules, ChessSnapshot, ClaimKind, OfferKind};
use crate::render;
use crate::rules::{Color, Move, Position, Role, Square, Variant};
use serde::{Deserialize, Serialize};

/// The seats: each team's king-side partner, then its queen-side partner, White first.
pub const SEAT_NAMES: [&str; 4] = [
    "White king side",
    "White queen side",
    "Black king side",
    "Black queen side",
];

/// Which half of an unplayable pick stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Standing {
    /// The chosen piece moves, to the square closest to the target.
    Piece,
    /// A piece closest to the chosen one moves to the target.
    Target,
}

impl Standing {
    /// The word used in commands and messages.
    pub fn word(self) -> &'static str {
        match self {
            Standing::Piece => "piece",
            Standing::Target => "target",
        }
    }
}

/// What a seat can do in a Split-Brain game: the entries of its action log. The JSON form
/// is the one stored before the variants had their own action types (`{"Pick":"b1"}`,
/// `{"Decide":"Piece"}`, `"Resign"`), so old logs replay unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SplitAction {
    /// A secret pick of a square as typed: the chooser's piece, or the mover's target
    /// with an optional promotion (`c6=N`).
    Pick(String),
    /// The opposing chooser's answer: which half of the picks stands.
    Decide(Standing),
    /// One of the equally close options, as typed.
    Choose(String),
    /// The seat resigns for its team.
    Resign,
    /// The seat offers (a draw) for its team.
    Offer(OfferKind),
    /// The seat accepts the other team's offer.
    Accept(OfferKind),
    /// The seat declines the other team's offer.
    Decline(OfferKind),
    /// A claim for the team to move (a draw, without a move).
    Claim(ClaimKind, Option<String>),
    /// The referee: this seat's time has run out.
    Timeout,
    /// The game is called off before each team has moved.
    Abort,
}

/// Where a team's turn stands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The partners are picking; a pick may be changed until both have picked.
    #[default]
    Picking,
    /// The picks were revealed and are not a legal move: the opposing chooser decides.
    Deciding,
    /// The decision left several equally close options: `by` picks one of them.
    Choosing {
        /// Which half stands.
        standing: Standing,
        /// The seat that chooses (the mover for a piece, the chooser for a target).
        by: Seat,
        /// The options: target squares (piece stands) or piece squares (target stands).
        options: Vec<String>,
    },
}

/// The picks of the team to move, as squares (`b1`); the target may carry the promotion
/// the mover wants (`c6=N`, stored as `c6n`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Picks {
    /// The chooser's piece.
    pub piece: Option<String>,
    /// The mover's target square.
    pub target: Option<String>,
    /// The promotion letter the mover asked for (`q`, `r`, `n`).
    pub promotion: Option<char>,
}

/// The serialisable state of a [`SplitBrain`] game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitSnapshot {
    /// The chess game underneath (variant `los-alamos`).
    pub chess: ChessSnapshot,
    /// The picks of the team to move.
    pub picks: Picks,
    /// The phase of the team's turn.
    pub phase: Phase,
    /// What each turn's picks were once revealed, by the turn's index from the start
    /// (`piece b1, target c3; the target stands`): the record's comments, public.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub said: Vec<(usize, String)>,
    /// Whether the game keeps `said`: set in games made since; `false` in games stored
    /// before, whose logs must replay to the snapshots they have.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keeps_said: bool,
}

/// A Split-Brain Chess game.
#[derive(Clone, Debug)]
pub struct SplitBrain {
    chess: ChessRules,
    picks: Picks,
    phase: Phase,
    said: Vec<(usize, String)>,
    keeps_said: bool,
}

/// The team a seat plays for.
pub fn team_of(seat: Seat) -> Color {
    if seat.0 < 2 {
        Color::White
    } else {
        Color::Black
    }
}

/// Whether a seat is its team's king-side partner.
pub fn is_king_side(seat: Seat) -> bool {
    seat.0 % 2 == 0
}

/// `White` or `Black`, as written in sentences.
fn team_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The chess layer's seat of a team.
fn color_seat(c: Color) -> Seat {
    Seat(c.index() as u8)
}

/// Steps between two squares without diagonal steps.
pub fn manhattan(a: Square, b: Square) -> u32 {
    (a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank())) as u32
}

/// Squares as a list separated by spaces (`a2 b1 b2`).
fn square_list(squares: &[Square]) -> String {
    squares
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads a pick: a square, optionally with a promotion (`c6=N`, `c6n`, `c6 n`).
fn read_pick(text: &str) -> Result<(Square, Option<char>), RuleError> {
    let t: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '=')
        .collect::<String>()
        .to_ascii_lowercase();
    let bad = || {
        RuleError::syntax(format!(
            "couldn't read '{}' as a square: pick like b1, or c6=N for a promotion",
            text.chars().take(20).collect::<String>()
        ))
    };
    if t.len() < 2 || t.len() > 3 || !t.is_ascii() {
        return Err(bad());
    }
    let sq = Square::parse(&t[..2]).ok_or_else(bad)?;
    let promo = t[2..].chars().next();
    Ok((sq, promo))
}

/// The chess layer's notes with the seat that acted in place of its team's colour (the
/// chess layer names only the side that acted: the mover, the one who offered or
/// declined).
fn as_seat(notes: Vec<Note>, by: Seat) -> Vec<Note> {
    notes
        .into_iter()
        .map(|n| Note {
            to: match n.to {
                Audience::Everyone => Audience::Everyone,
                Audience::Seat(_) => Audience::Seat(by),
            },
            text: Text(
                n.text
                    .0
                    .into_iter()
                    .map(|s| match s {
                        Span::Player(_) => Span::Player(by),
                        text => text,
                    })
                    .collect(),
            ),
            board: n.board,
        })
        .collect()
}

impl SplitBrain {
    /// A new game from the Los Alamos starting position.
    pub fn new() -> SplitBrain {
        SplitBrain {
            chess: ChessRules::new(Variant::LosAlamos),
            picks: Picks::default(),
            phase: Phase::Picking,
            said: Vec::new(),
            keeps_said: true,
        }
    }

    /// A new game from a Los Alamos position (for testing and teaching); the checker's
    /// corner follows from the FEN's move number.
    pub fn from_fen(fen: &str) -> Result<SplitBrain, RuleError> {
        Ok(SplitBrain {
            chess: ChessRules::from_fen(Variant::LosAlamos, fen)?,
            picks: Picks::default(),
            phase: Phase::Picking,
            said: Vec::new(),
            keeps_said: true,
        })
    }

    /// Rebuilds a game from its snapshot.
    pub fn from_snapshot(snap: &SplitSnapshot) -> Result<SplitBrain, RuleError> {
        if snap.chess.variant != Variant::LosAlamos.name() {
            return Err(RuleError::new("a Split-Brain snapshot must be Los Alamos"));
        }
        Ok(SplitBrain {
            chess: ChessRules::from_snapshot(&snap.chess)?,
            picks: snap.picks.clone(),
            phase: snap.phase.clone(),
            said: snap.said.clone(),
            keeps_said: snap.keeps_said,
        })
    }

    /// The typed snapshot.
    pub fn split_snapshot(&self) -> SplitSnapshot {
        SplitSnapshot {
            chess: self.chess.chess_snapshot(),
            picks: self.picks.clone(),
            phase: self.phase.clone(),
            said: self.said.clone(),
            keeps_said: self.keeps_said,
        }
    }

    fn position(&self) -> &Position {
        self.chess.game().position()
    }

    /// The team to move.
    pub fn team_to_move(&self) -> Color {
        self.position().turn()
    }

    /// Whether the checker lies in the king-side corner: at the start and after every
    /// second Black turn (it moves after each Black turn, so it follows the move number).
    pub fn checker_on_king_side(&self) -> bool {
        self.position().fullmoves() % 2 == 1
    }

    /// The chooser of `team` this round: the partner on the checker's side.
    pub fn chooser(&self, team: Color) -> Seat {
        let base = (team.index() * 2) as u8;
        Seat(if self.checker_on_king_side() {
            base
        } else {
            base + 1
        })
    }

    /// The mover of `team` this round: the partner on the other side.
    pub fn mover(&self, team: Color) -> Seat {
        Seat(self.chooser(team).0 ^ 1)
    }

    /// The phase of the current turn.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    fn legal(&self) -> Vec<Move> {
        self.position().legal_moves().iter().copied().collect()
    }

    /// The squares the chooser may pick: the team's pieces that have a legal move.
    pub fn piece_squares(&self) -> Vec<Square> {
        let mut v: Vec<Square> = self.legal().iter().map(|m| m.from).collect();
        v.sort_by_key(|s| (s.file(), s.rank()));
        v.dedup();
        v
    }

    /// The squares the mover may pick: those some piece of the team can legally reach.
    pub fn target_squares(&self) -> Vec<Square> {
        let mut v: Vec<Square> = self.legal().iter().map(|m| m.to).collect();
        v.sort_by_key(|s| (s.file(), s.rank()));
        v.dedup();
        v
    }

    fn piece_text(&self, sq: Square) -> String {
        match self.position().role_at(sq) {
            Some(r) => format!("the {} on {sq}", r.name()),
            None => sq.to_string(),
        }
    }

    /// One move per (from, to): a promotion becomes the piece the mover named, or a queen.
    fn with_promotion(&self, moves: Vec<Move>) -> Vec<Move> {
        let want = self
            .picks
            .promotion
            .and_then(|c| Role::from_char(c.to_ascii_uppercase()))
            .unwrap_or(Role::Queen);
        let mut out: Vec<Move> = Vec::new();
        for m in moves {
            if m.promotion.is_some() && m.promotion != Some(want) {
                continue;
            }
            if !out.iter().any(|o| o.from == m.from && o.to == m.to) {
                out.push(m);
            }
        }
        out
    }

    /// The moves a standing half allows, closest first: for the piece, its legal moves
    /// ending nearest the target; for the target, the legal moves onto it by the pieces
    /// nearest the chosen piece. Only the closest ones are returned (ties included).
    pub fn resolve(&self, standing: Standing, piece: Square, target: Square) -> Vec<Move> {
        let candidates: Vec<Move> = self
            .legal()
            .into_iter()
            .filter(|m| match standing {
                Standing::Piece => m.from == piece,
                Standing::Target => m.to == target,
            })
            .collect();
        let candidates = self.with_promotion(candidates);
        let dist = |m: &Move| match standing {
            Standing::Piece => manhattan(m.to, target),
            Standing::Target => manhattan(m.from, piece),
        };
        let best = candidates.iter().map(dist).min();
        candidates
            .into_iter()
            .filter(|m| Some(dist(m)) == best)
            .collect()
    }

    fn squares(&self) -> Result<(Square, Square), RuleError> {
        let p = self.picks.piece.as_deref().and_then(Square::parse);
        let t = self.picks.target.as_deref().and_then(Square::parse);
        match (p, t) {
            (Some(p), Some(t)) => Ok((p, t)),
            _ => Err(RuleError::new("the picks are not complete")),
        }
    }

    /// Makes this new game one of those stored before the record kept the picks, to
    /// replay their logs to the snapshots they have.
    pub fn keep_no_record_of_picks(&mut self) {
        self.keeps_said = false;
    }

    /// Plays `m` for `team`, announced as `by`'s move, after the picks stood as they were
    /// (`standing` `None`) or after the opposing chooser's decision; the turn passes and
    /// the picks, now public, go to the record.
    fn play(
        &mut self,
        team: Color,
        m: Move,
        by: Seat,
        standing: Option<Standing>,
    ) -> Result<Vec<Note>, RuleError> {
        let turn = self.chess.game().moves().len();
        let said = self.revealed_picks(standing);
        let notes = self
            .chess
            .apply(color_seat(team), &Action::of(&ChessAction::Move(m.uci())))?;
        if self.keeps_said {
            self.said.push((turn, said));
        }
        self.picks = Picks::default();
        self.phase = Phase::Picking;
        Ok(as_seat(notes, by))
    }

    /// Plays the only option, or asks the player whose choice it is to choose among
    /// several.
    fn settle(
        &mut self,
        team: Color,
        standing: Standing,
        options: Vec<Move>,
        mut notes: Vec<Note>,
    ) -> Result<Vec<Note>, RuleError> {
        let by = match standing {
            Standing::Piece => self.mover(team),
            Standing::Target => self.chooser(team),
        };
        if let [only] = options.as_slice() {
            notes.extend(self.play(team, *only, self.mover(team), Some(standing))?);
            return Ok(notes);
        }
        let opts: Vec<String> = options
            .iter()
            .map(|m| match standing {
                Standing::Piece => m.to.to_string(),
                Standing::Target => m.from.to_string(),
            })
            .collect();
        notes.push(Note::public(Text::plain(format!(
            "{} options are equally close ({}): the {} chooses one",
            opts.len(),
            opts.join(", "),
            if standing == Standing::Piece {
                "mover"
            } else {
                "chooser"
            }
        ))));
        self.phase = Phase::Choosing {
            standing,
            by,
            options: opts,
        };
        Ok(notes)
    }

    fn pick(&mut self, seat: Seat, text: &str) -> Result<Vec<Note>, RuleError> {
        let team = self.team_to_move();
        if team_of(seat) != team {
            return Err(RuleError::not_your_turn(format!(
                "it is {}'s turn, not your team's",
                team_name(team)
            )));
        }
        if self.phase != Phase::Picking {
            return Err(RuleError::new(
                "both picks are already revealed: nothing to pick now",
            ));
        }
        let (sq, promo) = read_pick(text)?;
        let chooser = seat == self.chooser(team);
        if chooser {
            if promo.is_some() {
                return Err(RuleError::syntax(
                    "you pick a piece: write only its square, like b1",
                ));
            }
            let valid = self.piece_squares();
            if !valid.contains(&sq) {
                let why = match self.position().piece_at(sq) {
                    Some(p) if p.color == team => {
                        format!("{} has no legal move", self.piece_text(sq))
                    }
                    Some(_) => format!("{sq} holds an opponent's piece"),
                    None => format!("{sq} is empty"),
                };
                return Err(RuleError::new(format!(
                    "{why}: pick one of your pieces that can move: {}",
                    square_list(&valid)
                )));
            }
            self.picks.piece = Some(sq.to_string());
        } else {
            let valid = self.target_squares();
            if !valid.contains(&sq) {
                return Err(RuleError::new(format!(
                    "none of your pieces can move to {sq}: pick one of {}",
                    square_list(&valid)
                )));
            }
            let promotes_here = || {
                self.position()
                    .legal_moves()
                    .iter()
                    .any(|m| m.to == sq && m.promotion.is_some())
            };
            let promo = match promo {
                None => None,
                Some(_) if !promotes_here() => {
                    return Err(RuleError::new(format!(
                        "no pawn of yours can promote on {sq}: pick {sq} without a piece"
                    )))
                }
                Some(c) => {
                    let allowed = self.position().config().promotion;
                    match Role::from_char(c.to_ascii_uppercase()) {
                        Some(r) if allowed.contains(&r) => Some(c),
                        _ => {
                            return Err(RuleError::new(format!(
                                "a pawn may become {}: write c6=N, for example",
                                allowed
                                    .iter()
                                    .map(|r| r.upper_char().to_string())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )))
                        }
                    }
                }
            };
            self.picks.target = Some(sq.to_string());
            self.picks.promotion = promo;
        }
        let (piece, target) = match (&self.picks.piece, &self.picks.target) {
            (Some(_), Some(_)) => self.squares()?,
            _ => {
                let what = if chooser {
                    format!("you picked {}", self.piece_text(sq))
                } else {
                    format!("you picked the target {sq}")
                };
                return Ok(vec![Note::private(
                    seat,
                    Text::plain(format!(
                        "{what}; you may change it until your partner has picked"
                    )),
                )]);
            }
        };
        // Both have picked: reveal, then play or ask the opponents.
        let promo_text = self
            .picks
            .promotion
            .map(|c| format!(" (promoting to {})", c.to_ascii_uppercase()))
            .unwrap_or_default();
        let mut notes = vec![Note::public(
            Text::plain("revealed: ")
                .push_player(self.chooser(team))
                .push(format!(" picked {}, ", self.piece_text(piece)))
                .push_player(self.mover(team))
                .push(format!(" picked the target {target}{promo_text}")),
        )];
        let direct = self.resolve(Standing::Piece, piece, target);
        if let Some(m) = direct.iter().find(|m| m.to == target) {
            let m = *m;
            notes.extend(self.play(team, m, self.mover(team), None)?);
            return Ok(notes);
        }
        notes.push(Note::public(Text::plain(format!(
            "{} cannot move to {target}: the opposing chooser decides whether the piece or the target stands",
            self.piece_text(piece)
        ))));
        self.phase = Phase::Deciding;
        Ok(notes)
    }

    fn decide(&mut self, seat: Seat, standing: Standing) -> Result<Vec<Note>, RuleError> {
        let team = self.team_to_move();
        if self.phase != Phase::Deciding {
            return Err(RuleError::new("there is no decision to make now"));
        }
        if seat != self.chooser(team.opposite()) {
            return Err(RuleError::not_your_turn(format!(
                "the decision is for {}'s chooser this round",
                team_name(team.opposite())
            )));
        }
        let (piece, target) = self.squares()?;
        let options = self.resolve(standing, piece, target);
        let notes = vec![Note::public(Text::plain(format!(
            "the {} stands",
            standing.word()
        )))];
        self.settle(team, standing, options, notes)
    }

    fn choose(&mut self, seat: Seat, text: &str) -> Result<Vec<Note>, RuleError> {
        let team = self.team_to_move();
        let Phase::Choosing {
            standing,
            by,
            options,
        } = self.phase.clone()
        else {
            return Err(RuleError::new("there is nothing to choose now"));
        };
        if seat != by {
            return Err(RuleError::not_your_turn(
                "the choice is not yours this time",
            ));
        }
        let (sq, _) = read_pick(text)?;
        if !options.contains(&sq.to_string()) {
            return Err(RuleError::new(format!(
                "{sq} is not one of the options: choose one of {}",
                options.join(", ")
            )));
        }
        let (piece, target) = self.squares()?;
        let m = self
            .resolve(standing, piece, target)
            .into_iter()
            .find(|m| match standing {
                Standing::Piece => m.to == sq,
                Standing::Target => m.from == sq,
            })
            .ok_or_else(|| RuleError::new("that option is no longer available"))?;
        self.play(team, m, self.mover(team), Some(standing))
    }

    /// The team's picks as revealed, for the record: `piece b1, target c3=Q`, and the
    /// decision when there was one (`; the target stands`).
    fn revealed_picks(&self, standing: Option<Standing>) -> String {
        let mut said = format!(
            "piece {}, target {}",
            self.picks.piece.as_deref().unwrap_or("?"),
            self.picks.target.as_deref().unwrap_or("?")
        );
        if let Some(p) = self.picks.promotion {
            said.push_str(&format!("={}", p.to_ascii_uppercase()));
        }
        if let Some(s) = standing {
            said.push_str(&format!("; the {} stands", s.word()));
        }
        said
    }

    /// The square `seat` has picked and may still change, if any: its own secret.
    fn own_pick(&self, seat: Seat) -> Option<Square> {
        let team = self.team_to_move();
        if team_of(seat) != team || self.phase != Phase::Picking {
            return None;
        }
        let pick = if seat == self.chooser(team) {
            &self.picks.piece
        } else {
            &self.picks.target
        };
        pick.as_deref().and_then(Square::parse)
    }

    /// Applies an action of the variant's own type.
    fn act(&mut self, seat: Seat, action: SplitAction) -> Result<Vec<Note>, RuleError> {
        if seat.0 > 3 {
            return Err(RuleError::new("Split-Brain Chess has four seats"));
        }
        if self.aborted() {
            return Err(RuleError::over("the game was aborted"));
        }
        if self.outcome().is_some() {
            return Err(RuleError::over("the game is over"));
        }
        // What the chess layer does for the team, as a team's action.
        let chess = match action {
            SplitAction::Pick(text) => return self.pick(seat, &text),
            SplitAction::Decide(standing) => return self.decide(seat, standing),
            SplitAction::Choose(text) => return self.choose(seat, &text),
            SplitAction::Claim(ClaimKind::Draw, Some(_)) => {
                return Err(RuleError::syntax(
                    "in Split-Brain Chess a claim names no move: write claim draw",
                ))
            }
            SplitAction::Claim(kind, intended) => ChessAction::Claim(kind, intended),
            SplitAction::Resign => ChessAction::Resign,
            SplitAction::Offer(k) => ChessAction::Offer(k),
            SplitAction::Accept(k) => ChessAction::Accept(k),
            SplitAction::Decline(k) => ChessAction::Decline(k),
            SplitAction::Timeout => ChessAction::Timeout,
            SplitAction::Abort => ChessAction::Abort,
        };
        let notes = self
            .chess
            .apply(color_seat(team_of(seat)), &Action::of(&chess))?;
        Ok(as_seat(notes, seat))
    }
}

impl Default for SplitBrain {
    fn default() -> SplitBrain {
        SplitBrain::new()
    }
}

impl GameRules for SplitBrain {
    fn variant(&self) -> &'static str {
        "split-brain"
    }

    fn seat_count(&self) -> usize {
        4
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        SEAT_NAMES.get(seat.0 as usize).copied().unwrap_or("?")
    }

    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        view::awaiting(self)
    }

    fn read(&self, _seat: Seat, command: &GameCommand, _env: Env) -> Result<Reading, RuleError> {
        read::read(command)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError> {
        let action: SplitAction = action.to("Split-Brain Chess")?;
        // On a refusal nothing changes, whichever step refused.
        let before = self.clone();
        let result = self.act(seat, action);
        if result.is_err() {
            *self = before;
        }
        result
    }

    fn project(&self, viewer: Viewer) -> Projection {
        view::project(self, viewer)
    }

    fn disguised(&self, owner: Seat) -> Option<Box<dyn GameRules>> {
        // A pick is secret until both partners have picked.
        if self.phase != Phase::Picking || self.is_over() {
            return None;
        }
        let team = self.position().turn();
        let other = |now: &Option<String>, valid: Vec<Square>| {
            let now = now.as_deref()?;
            valid.into_iter().map(|s| s.to_string()).find(|s| s != now)
        };
        let mut disguise = self.clone();
        if owner == self.chooser(team) {
            disguise.picks.piece = Some(other(&self.picks.piece, self.piece_squares())?);
        } else if owner == self.mover(team) {
            disguise.picks.target = Some(other(&self.picks.target, self.target_squares())?);
            disguise.picks.promotion = None;
        } else {
            return None;
        }
        Some(Box::new(disguise))
    }

    fn outcome(&self) -> Option<GameOutcome> {
        self.chess.outcome()
    }

    fn aborted(&self) -> bool {
        self.chess.aborted()
    }

    fn timeout_is_automatic(&self) -> bool {
        true
    }

    fn side_names(&self, names: &[&str]) -> [String; 2] {
        let name = |i: usize| names.get(i).copied().unwrap_or("?");
        let team = |c: Color| format!("{} & {}", name(c.index() * 2), name(c.index() * 2 + 1));
        [team(Color::White), team(Color::Black)]
    }

    fn caption_names(&self, names: &[&str]) -> [String; 2] {
        if self.is_over() {
            return self.side_names(names);
        }
        let name = |s: Seat| names.get(s.0 as usize).copied().unwrap_or("?");
        let team = |c: Color| {
            format!(
                "{} (chooser) & {} (mover)",
                name(self.chooser(c)),
                name(self.mover(c))
            )
        };
        [team(Color::White), team(Color::Black)]
    }

    fn pgn(&self, _viewer: Viewer, tags: &[(String, String)]) -> String {
        // The chess layer writes the record, with each turn's revealed picks as its
        // comment (never a pick still secret: only played turns have one); the variant
        // named in it is Split-Brain Chess.
        let mut tags = tags.to_vec();
        tags.push(("Variant".into(), self.variant().into()));
        self.chess.pgn_with_comments(&tags, &self.said)
    }

    fn animation(
        &self,
        _viewer: Viewer,
        renderer: &render::Renderer,
        names: &[&str],
    ) -> Option<Vec<u8>> {
        // The chess layer draws the moves played, which hold no pick; the names are the
        // two teams'.
        let [white, black] = self.side_names(names);
        self.chess
            .animation(Viewer::Public, renderer, &[&white, &black])
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::to_value(self.split_snapshot()).unwrap_or(serde_json::Value::Null)
    }
}
