//! [`GameRules`] for Split-Brain Chess: two teams of two on the Los Alamos board. On each
//! team turn the chooser secretly picks a piece and the mover secretly picks a target
//! square; both are revealed, and an unplayable pair is resolved by the opposing chooser's
//! decision (`decide piece|target`) and the Manhattan-distance rule. The rules are in
//! `docs/rules/split-brain.md`; everything of ordinary chess (check, mate, draws, offers,
//! resignation, timeouts) is delegated to [`ChessRules`] on the Los Alamos board.

use super::chess::{ChessRules, ChessSnapshot};
use super::rules::{
    Action, ClaimKind, Event, GameOutcome, GameRules, Prompt, RuleError, Seat, Standing, View,
    Viewer,
};
use crate::render::{self, BoardCorner, Disc, Overlay};
use crate::rules::{Color, Move, Position, Role, Square, Variant};
use serde::{Deserialize, Serialize};

/// The seats: each team's king-side partner, then its queen-side partner, White first.
pub const SEAT_NAMES: [&str; 4] = [
    "White king side",
    "White queen side",
    "Black king side",
    "Black queen side",
];

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
}

/// A Split-Brain Chess game.
#[derive(Clone, Debug)]
pub struct SplitBrain {
    chess: ChessRules,
    picks: Picks,
    phase: Phase,
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

fn color_seat(c: Color) -> Seat {
    Seat(c.index() as u8)
}

/// Steps between two squares without diagonal steps.
pub fn manhattan(a: Square, b: Square) -> u32 {
    (a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank())) as u32
}

fn role_name(r: Role) -> &'static str {
    r.name()
}

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
        RuleError::new(format!(
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

impl SplitBrain {
    /// A new game from the Los Alamos starting position.
    pub fn new() -> SplitBrain {
        SplitBrain {
            chess: ChessRules::new(Variant::LosAlamos),
            picks: Picks::default(),
            phase: Phase::Picking,
        }
    }

    /// A new game from a Los Alamos position (for testing and teaching); the checker's
    /// corner follows from the FEN's move number.
    pub fn from_fen(fen: &str) -> Result<SplitBrain, RuleError> {
        Ok(SplitBrain {
            chess: ChessRules::from_fen(Variant::LosAlamos, fen)?,
            picks: Picks::default(),
            phase: Phase::Picking,
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
        })
    }

    fn position(&self) -> &Position {
        self.chess.game().position()
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
            Some(r) => format!("the {} on {sq}", role_name(r)),
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

    /// Plays `m` for `team`; the turn passes and the picks are cleared.
    fn play(&mut self, team: Color, m: Move, by: Seat) -> Result<Vec<Event>, RuleError> {
        let events = self.chess.apply(color_seat(team), &Action::Move(m.uci()))?;
        self.picks = Picks::default();
        self.phase = Phase::Picking;
        Ok(self.map_events(events, by))
    }

    /// Plays the only option, or asks `by` to choose among several.
    fn settle(
        &mut self,
        team: Color,
        standing: Standing,
        options: Vec<Move>,
        mut events: Vec<Event>,
    ) -> Result<Vec<Event>, RuleError> {
        let by = match standing {
            Standing::Piece => self.mover(team),
            Standing::Target => self.chooser(team),
        };
        if let [only] = options.as_slice() {
            events.extend(self.play(team, *only, self.mover(team))?);
            return Ok(events);
        }
        let opts: Vec<String> = options
            .iter()
            .map(|m| match standing {
                Standing::Piece => m.to.to_string(),
                Standing::Target => m.from.to_string(),
            })
            .collect();
        events.push(Event::Said(
            None,
            format!(
                "{} options are equally close ({}): the {} chooses one",
                opts.len(),
                opts.join(", "),
                if standing == Standing::Piece {
                    "mover"
                } else {
                    "chooser"
                }
            ),
        ));
        self.phase = Phase::Choosing {
            standing,
            by,
            options: opts,
        };
        Ok(events)
    }

    fn pick(&mut self, seat: Seat, text: &str) -> Result<Vec<Event>, RuleError> {
        let team = self.position().turn();
        if team_of(seat) != team {
            return Err(RuleError::new(format!(
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
                return Err(RuleError::new(
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
            let promo = match promo {
                None => None,
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
                return Ok(vec![Event::Said(
                    Some(seat),
                    format!("{what}; you may change it until your partner has picked"),
                )]);
            }
        };
        // Both have picked: reveal, then play or ask the opponents.
        let promo_text = self
            .picks
            .promotion
            .map(|c| format!(" (promoting to {})", c.to_ascii_uppercase()))
            .unwrap_or_default();
        let mut events = vec![Event::Revealed(vec![
            (
                self.chooser(team),
                format!("picked {}", self.piece_text(piece)),
            ),
            (
                self.mover(team),
                format!("picked the target {target}{promo_text}"),
            ),
        ])];
        let direct = self.resolve(Standing::Piece, piece, target);
        if let Some(m) = direct.iter().find(|m| m.to == target) {
            let m = *m;
            events.extend(self.play(team, m, self.mover(team))?);
            return Ok(events);
        }
        events.push(Event::Said(
            None,
            format!(
                "{} cannot move to {target}: the opposing chooser decides whether the piece or the target stands",
                self.piece_text(piece)
            ),
        ));
        self.phase = Phase::Deciding;
        Ok(events)
    }

    fn decide(&mut self, seat: Seat, standing: Standing) -> Result<Vec<Event>, RuleError> {
        let team = self.position().turn();
        if self.phase != Phase::Deciding {
            return Err(RuleError::new("there is no decision to make now"));
        }
        if seat != self.chooser(team.opposite()) {
            return Err(RuleError::new(format!(
                "the decision is for {}'s chooser this round",
                team_name(team.opposite())
            )));
        }
        let (piece, target) = self.squares()?;
        let options = self.resolve(standing, piece, target);
        let events = vec![Event::Said(None, format!("the {} stands", standing.word()))];
        self.settle(team, standing, options, events)
    }

    fn choose(&mut self, seat: Seat, text: &str) -> Result<Vec<Event>, RuleError> {
        let team = self.position().turn();
        let Phase::Choosing {
            standing,
            by,
            options,
        } = self.phase.clone()
        else {
            return Err(RuleError::new("there is nothing to choose now"));
        };
        if seat != by {
            return Err(RuleError::new("the choice is not yours this time"));
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
        self.play(team, m, self.mover(team))
    }

    /// The chess layer's events with its colour seats replaced by the seat that acted.
    fn map_events(&self, events: Vec<Event>, by: Seat) -> Vec<Event> {
        events
            .into_iter()
            .map(|e| match e {
                Event::Moved { san, .. } => Event::Moved { seat: by, san },
                Event::Offered(_, k) => Event::Offered(by, k),
                Event::Declined(s, k) => {
                    Event::Declined(if s == color_seat(team_of(by)) { by } else { s }, k)
                }
                other => other,
            })
            .collect()
    }

    fn typed(&self) -> SplitSnapshot {
        SplitSnapshot {
            chess: self.chess.chess_snapshot(),
            picks: self.picks.clone(),
            phase: self.phase.clone(),
        }
    }

    fn own_pick(&self, seat: Seat) -> Option<Square> {
        let team = self.position().turn();
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
        if self.is_over() {
            return Vec::new();
        }
        let team = self.position().turn();
        let mut out = match &self.phase {
            Phase::Picking => {
                let mut v = Vec::new();
                if self.picks.piece.is_none() {
                    v.push((self.chooser(team), Prompt::PickPiece));
                }
                if self.picks.target.is_none() {
                    v.push((self.mover(team), Prompt::PickTarget));
                }
                v
            }
            Phase::Deciding => vec![(self.chooser(team.opposite()), Prompt::Decide)],
            Phase::Choosing { by, options, .. } => vec![(*by, Prompt::Choose(options.clone()))],
        };
        // A pending offer is answered by either partner of the other team.
        for (s, p) in self.chess.awaiting() {
            if p.is_turn() {
                continue;
            }
            let color = if s.0 == 0 { Color::White } else { Color::Black };
            for partner in [color.index() as u8 * 2, color.index() as u8 * 2 + 1] {
                if !out.iter().any(|(o, _)| o.0 == partner) {
                    out.push((Seat(partner), p.clone()));
                }
            }
        }
        out
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, RuleError> {
        if seat.0 > 3 {
            return Err(RuleError::new("Split-Brain Chess has four seats"));
        }
        if self.aborted() {
            return Err(RuleError::new("the game was aborted"));
        }
        if self.outcome().is_some() {
            return Err(RuleError::new("the game is over"));
        }
        let team = color_seat(team_of(seat));
        match action {
            Action::Pick(text) => self.pick(seat, text),
            Action::Decide(standing) => self.decide(seat, *standing),
            Action::Choose(text) => self.choose(seat, text),
            Action::Move(_) => Err(RuleError::new(
                "in Split-Brain Chess moves come from picks: send me `pick SQUARE` privately",
            )),
            Action::Claim(ClaimKind::Draw, Some(_)) => Err(RuleError::new(
                "in Split-Brain Chess a claim names no move: write claim draw",
            )),
            Action::Clue(_)
            | Action::Pass
            | Action::Play { .. }
            | Action::Letters { .. }
            | Action::Discard(_)
            | Action::Words(_)
            | Action::Guess(_) => Err(action.not_in("Split-Brain Chess")),
            Action::Resign
            | Action::Offer(_)
            | Action::Accept(_)
            | Action::Decline(_)
            | Action::Claim(..)
            | Action::Timeout
            | Action::Abort => {
                let events = self.chess.apply(team, action)?;
                Ok(self.map_events(events, seat))
            }
        }
    }

    fn parse_move(&self, _seat: Seat, _text: &str) -> Result<String, RuleError> {
        Err(RuleError::new(
            "in Split-Brain Chess moves come from picks: send me `pick SQUARE` privately",
        ))
    }

    fn view(&self, viewer: Viewer) -> View {
        let inner = match viewer {
            Viewer::Public => Viewer::Public,
            Viewer::Seat(s) => Viewer::Seat(color_seat(team_of(s))),
        };
        let mut view = self.chess.view(inner);
        let king_side = self.checker_on_king_side();
        view.board.overlays.push(Overlay::CornerMarker(BoardCorner {
            high_file: king_side,
            high_rank: true,
        }));
        let corner = if king_side { "f6" } else { "a6" };
        view.diagram.push_str(&format!(
            "\n  checker on {corner}: the {} partners choose",
            if king_side { "king-side" } else { "queen-side" }
        ));
        if let Viewer::Seat(s) = viewer {
            if let Some(sq) = self.own_pick(s) {
                view.board.overlays.push(Overlay::Discs(vec![Disc {
                    square: sq,
                    color: team_of(s),
                    label: Some("?".into()),
                }]));
                view.diagram.push_str(&format!("\n  your pick: {sq}"));
            }
        }
        view.variant = self.variant().to_string();
        view
    }

    fn outcome(&self) -> Option<GameOutcome> {
        self.chess.outcome()
    }

    fn aborted(&self) -> bool {
        self.chess.aborted()
    }

    fn can_abort(&self) -> bool {
        self.chess.can_abort()
    }

    fn timeout_is_automatic(&self) -> bool {
        true
    }

    fn move_list(&self) -> Vec<String> {
        self.chess.move_list()
    }

    fn legal_moves(&self, _seat: Seat) -> Vec<String> {
        // No seat types a move here (moves come from picks), so there is nothing to suggest.
        Vec::new()
    }

    fn numbered_moves(&self) -> String {
        self.chess.numbered_moves()
    }

    fn pgn(&self, tags: &[(String, String)]) -> String {
        // The chess layer writes the record; the variant named in it is Split-Brain Chess.
        let mut tags = tags.to_vec();
        tags.push(("Variant".into(), self.variant().into()));
        self.chess.pgn(&tags)
    }

    fn animation(&self, renderer: &render::Renderer, names: &[&str]) -> Option<Vec<u8>> {
        // The chess layer draws the game; the names are the two teams'.
        let [white, black] = self.side_names(names);
        self.chess.animation(renderer, &[&white, &black])
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

    fn instructions(&self, seat: Seat) -> Option<String> {
        let prompt = self
            .awaiting()
            .into_iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, p)| p)?;
        match prompt {
            Prompt::PickPiece => Some(format!(
                "you are the chooser: pick one of your pieces that can move, privately, e.g. `pick {0}`. Your choices: {1}",
                self.piece_squares().first().map(|s| s.to_string()).unwrap_or_default(),
                square_list(&self.piece_squares())
            )),
            Prompt::PickTarget => Some(format!(
                "you are the mover: pick a square one of your pieces can reach, privately, e.g. `pick {0}`. Your choices: {1}",
                self.target_squares().first().map(|s| s.to_string()).unwrap_or_default(),
                square_list(&self.target_squares())
            )),
            _ => None,
        }
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::to_value(self.typed()).unwrap_or(serde_json::Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WK: Seat = Seat(0);
    const WQ: Seat = Seat(1);
    const BK: Seat = Seat(2);
    const BQ: Seat = Seat(3);

    fn pick(g: &mut SplitBrain, seat: Seat, sq: &str) -> Result<Vec<Event>, RuleError> {
        g.apply(seat, &Action::Pick(sq.into()))
    }

    fn fen(g: &SplitBrain) -> String {
        g.view(Viewer::Public).fen
    }

    fn moved(events: &[Event]) -> Option<&str> {
        events.iter().find_map(|e| match e {
            Event::Moved { san, .. } => Some(san.as_str()),
            _ => None,
        })
    }

    #[test]
    fn a_direct_legal_pick_is_played() {
        let mut g = SplitBrain::new();
        assert_eq!(
            g.awaiting(),
            vec![(WK, Prompt::PickPiece), (WQ, Prompt::PickTarget)]
        );
        let ev = pick(&mut g, WK, "e1").unwrap();
        assert!(matches!(ev.as_slice(), [Event::Said(Some(s), _)] if *s == WK));
        assert_eq!(g.awaiting(), vec![(WQ, Prompt::PickTarget)]);
        let ev = pick(&mut g, WQ, "d3").unwrap();
        assert!(matches!(&ev[0], Event::Revealed(p) if p.len() == 2));
        assert_eq!(moved(&ev), Some("Nd3"));
        assert_eq!(fen(&g), "rnqknr/pppppp/6/3N2/PPPPPP/RNQK1R b - - 1 1");
        assert_eq!(
            g.awaiting(),
            vec![(BK, Prompt::PickPiece), (BQ, Prompt::PickTarget)]
        );
    }

    #[test]
    fn the_piece_standing_with_one_closest_move_is_played_by_the_bot() {
        let mut g = SplitBrain::new();
        pick(&mut g, WQ, "a3").unwrap();
        let ev = pick(&mut g, WK, "e1").unwrap();
        assert!(moved(&ev).is_none(), "Ne1 cannot reach a3");
        assert_eq!(g.awaiting(), vec![(BK, Prompt::Decide)]);
        // Only Black's chooser of this round decides.
        for s in [WK, WQ, BQ] {
            assert!(g.apply(s, &Action::Decide(Standing::Piece)).is_err());
        }
        let ev = g.apply(BK, &Action::Decide(Standing::Piece)).unwrap();
        // Ne1's moves: d3 (3 steps from a3) and f3 (5 steps).
        assert_eq!(moved(&ev), Some("Nd3"));
    }

    #[test]
    fn the_target_standing_with_a_tie_is_chosen_by_the_chooser() {
        let mut g = SplitBrain::new();
        pick(&mut g, WK, "e1").unwrap();
        pick(&mut g, WQ, "c3").unwrap();
        let ev = g.apply(BK, &Action::Decide(Standing::Target)).unwrap();
        assert!(moved(&ev).is_none());
        // c3 is reached by the pawn c2 and the knight b1, both three steps from e1.
        let options = vec!["b1".to_string(), "c2".to_string()];
        assert_eq!(g.awaiting(), vec![(WK, Prompt::Choose(options))]);
        assert!(g.apply(WQ, &Action::Choose("b1".into())).is_err());
        let err = g.apply(WK, &Action::Choose("e1".into())).unwrap_err();
        assert!(err.0.contains("not one of the options"), "{err}");
        let ev = g.apply(WK, &Action::Choose("b1".into())).unwrap();
        assert_eq!(moved(&ev), Some("Nc3"));
    }

    #[test]
    fn the_piece_standing_with_a_tie_is_chosen_by_the_mover() {
        let mut g = SplitBrain::new();
        pick(&mut g, WK, "b1").unwrap();
        pick(&mut g, WQ, "b3").unwrap();
        g.apply(BK, &Action::Decide(Standing::Piece)).unwrap();
        let options = vec!["a3".to_string(), "c3".to_string()];
        assert_eq!(g.awaiting(), vec![(WQ, Prompt::Choose(options))]);
        let ev = g.apply(WQ, &Action::Choose("a3".into())).unwrap();
        assert_eq!(moved(&ev), Some("Na3"));
    }

    #[test]
    fn the_chooser_role_alternates_every_round() {
        let mut g = SplitBrain::new();
        let mut choosers = Vec::new();
        let plays = [
            ("e1", "d3"),
            ("e6", "d4"),
            ("b1", "c3"),
            ("b6", "c4"),
            ("a2", "a3"),
        ];
        for (piece, target) in plays {
            let team = g.position().turn();
            let (c, m) = (g.chooser(team), g.mover(team));
            choosers.push((team, c, g.checker_on_king_side()));
            pick(&mut g, c, piece).unwrap();
            let ev = pick(&mut g, m, target).unwrap();
            assert!(moved(&ev).is_some(), "{piece}-{target}");
        }
        assert_eq!(
            choosers,
            vec![
                (Color::White, WK, true),
                (Color::Black, BK, true),
                (Color::White, WQ, false),
                (Color::Black, BQ, false),
                (Color::White, WK, true),
            ]
        );
    }

    #[test]
    fn invalid_picks_are_refused_with_the_valid_squares() {
        let mut g = SplitBrain::new();
        let e = pick(&mut g, WK, "c4").unwrap_err();
        assert!(
            e.0.starts_with("c4 is empty: pick one of your pieces that can move: a2 b1 b2"),
            "{e}"
        );
        assert!(e.0.contains("b1") && !e.0.contains("a1"), "{e}");
        let e = pick(&mut g, WK, "a1").unwrap_err();
        assert!(e.0.starts_with("the rook on a1 has no legal move"), "{e}");
        let e = pick(&mut g, WK, "d6").unwrap_err();
        assert!(e.0.starts_with("d6 holds an opponent's piece"), "{e}");
        let e = pick(&mut g, WQ, "c4").unwrap_err();
        assert!(
            e.0.starts_with("none of your pieces can move to c4: pick one of a3"),
            "{e}"
        );
        let e = pick(&mut g, WQ, "z9").unwrap_err();
        assert!(e.0.contains("couldn't read 'z9'"), "{e}");
        let e = pick(&mut g, WQ, "a3=B").unwrap_err();
        assert!(e.0.contains("Q, R, N"), "{e}");
        let e = pick(&mut g, BK, "e6").unwrap_err();
        assert!(e.0.contains("not your team's"), "{e}");
        assert!(g.apply(WK, &Action::Move("e1d3".into())).is_err());
        assert_eq!(
            g.snapshot(),
            SplitBrain::new().snapshot(),
            "nothing changed"
        );
    }

    #[test]
    fn a_pick_may_change_until_the_partner_picks() {
        let mut g = SplitBrain::new();
        pick(&mut g, WK, "b1").unwrap();
        pick(&mut g, WK, "e1").unwrap();
        let ev = pick(&mut g, WQ, "f3").unwrap();
        assert_eq!(moved(&ev), Some("Nf3"));
        // Both picked: the next pick belongs to the next turn, and White's is refused.
        assert!(pick(&mut g, WK, "b1").is_err());
    }

    #[test]
    fn picks_stay_secret_until_the_reveal() {
        let mut g = SplitBrain::new();
        pick(&mut g, WK, "e1").unwrap();
        let public = g.view(Viewer::Public);
        let partner = g.view(Viewer::Seat(WQ));
        let own = g.view(Viewer::Seat(WK));
        for v in [&public, &partner] {
            assert!(!v.diagram.contains("e1") && !v.diagram.contains("pick"));
            assert!(!v
                .board
                .overlays
                .iter()
                .any(|o| matches!(o, Overlay::Discs(_))));
        }
        assert!(own.diagram.contains("your pick: e1"));
        assert!(own
            .board
            .overlays
            .iter()
            .any(|o| matches!(o, Overlay::Discs(_))));
        assert!(g.instructions(WQ).unwrap().contains("Your choices: a3 b3"));
        assert!(g.instructions(WK).is_none(), "the chooser has answered");
    }

    #[test]
    fn snapshots_keep_picks_and_phase() {
        let mut g = SplitBrain::new();
        pick(&mut g, WK, "e1").unwrap();
        let snap: SplitSnapshot = serde_json::from_value(g.snapshot()).unwrap();
        let mut h = SplitBrain::from_snapshot(&snap).unwrap();
        assert_eq!(h.snapshot(), g.snapshot());
        pick(&mut h, WQ, "a3").unwrap();
        let snap: SplitSnapshot = serde_json::from_value(h.snapshot()).unwrap();
        assert_eq!(snap.phase, Phase::Deciding);
        let h2 = SplitBrain::from_snapshot(&snap).unwrap();
        assert_eq!(h2.awaiting(), vec![(BK, Prompt::Decide)]);
    }

    #[test]
    fn promotion_follows_the_movers_letter_or_is_a_queen() {
        let start = "3k2/P5/6/6/6/3K2 w - - 0 1";
        let mut g = SplitBrain::from_fen(start).unwrap();
        pick(&mut g, WK, "a5").unwrap();
        let ev = pick(&mut g, WQ, "a6=N").unwrap();
        assert_eq!(moved(&ev), Some("a6=N"));
        let mut g = SplitBrain::from_fen(start).unwrap();
        pick(&mut g, WK, "a5").unwrap();
        let ev = pick(&mut g, WQ, "a6").unwrap();
        assert_eq!(moved(&ev), Some("a6=Q+"));
    }

    #[test]
    fn team_actions_resign_and_draws() {
        let mut g = SplitBrain::new();
        let ev = g
            .apply(WQ, &Action::Offer(crate::service::OfferKind::Draw))
            .unwrap();
        assert!(matches!(ev[0], Event::Offered(s, _) if s == WQ));
        assert!(g.awaiting().contains(&(BK, Prompt::AnswerDraw)));
        assert!(g.awaiting().contains(&(BQ, Prompt::AnswerDraw)));
        g.apply(BQ, &Action::Decline(crate::service::OfferKind::Draw))
            .unwrap();
        let ev = g.apply(BK, &Action::Resign).unwrap();
        assert!(matches!(&ev[0], Event::Ended(o) if o.result == "1-0"));
        assert!(g.awaiting().is_empty());
    }
}
