//! Split-Brain Chess: two teams of two on the Los Alamos board. On each team turn the
//! chooser secretly picks a piece and the mover secretly picks a target square; both are
//! revealed, and an unplayable pair is resolved by the opposing chooser's decision
//! (`decide piece|target`) and the Manhattan-distance rule. The rules are in
//! `docs/rules/split-brain.md`; everything of ordinary chess (check, mate, draws, offers,
//! resignation, timeouts) is delegated to [`ChessRules`] on the Los Alamos board.
//!
//! - this module: the game's state and what it allows, and its [`GameRules`];
//! - `turn`: the actions and how they change the state;
//! - `spec`: the registry's entry and the commands;
//! - `read`: typed commands into actions;
//! - `view`: prompts, instructions and what each viewer sees.

mod read;
mod spec;
#[cfg(test)]
mod tests;
mod turn;
mod view;

pub use spec::{SplitBrainSpec, CHOOSE, DECIDE, PICK, SPEC};
pub use view::{choose_prompt, decide_prompt, pick_piece_prompt, pick_target_prompt};

use super::api::{
    to_stored, ActsOnCopy, Env, GameCommand, GameOutcome, GameRules, Note, Projection, Prompt,
    Reading, RuleError, Seat, SeatPlan, VariantSpec, Viewer,
};
use super::chess::{ChessRules, ChessSnapshot, ClaimKind, OfferKind};
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

impl SplitBrain {
    /// A new game from the Los Alamos starting position.
    pub fn new() -> SplitBrain {
        SplitBrain {
            chess: ChessRules::new(Variant::LOS_ALAMOS),
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
            chess: ChessRules::from_fen(Variant::LOS_ALAMOS, fen)?,
            picks: Picks::default(),
            phase: Phase::Picking,
            said: Vec::new(),
            keeps_said: true,
        })
    }

    /// Rebuilds a game from its snapshot.
    pub fn from_snapshot(snap: &SplitSnapshot) -> Result<SplitBrain, RuleError> {
        if snap.chess.variant != Variant::LOS_ALAMOS.name() {
            return Err(RuleError::new("a Split-Brain snapshot must be Los Alamos"));
        }
        Ok(SplitBrain {
            chess: ChessRules::from_snapshot(Variant::LOS_ALAMOS, &snap.chess)?,
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
}

impl Default for SplitBrain {
    fn default() -> SplitBrain {
        SplitBrain::new()
    }
}

impl ActsOnCopy for SplitBrain {
    type Action = SplitAction;
    const NAME: &'static str = spec::DESCRIPTION.display_name;

    fn act(&mut self, seat: Seat, action: SplitAction) -> Result<Vec<Note>, RuleError> {
        SplitBrain::act(self, seat, action)
    }
}

impl GameRules for SplitBrain {
    fn variant(&self) -> &'static str {
        "split-brain"
    }

    fn seats(&self) -> SeatPlan {
        SPEC.seats()
    }

    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        view::awaiting(self)
    }

    fn read(&self, _seat: Seat, command: &GameCommand, _env: Env) -> Result<Reading, RuleError> {
        read::read(command)
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

    fn snapshot(&self) -> Result<serde_json::Value, RuleError> {
        to_stored("the game's state", &self.split_snapshot())
    }
}
