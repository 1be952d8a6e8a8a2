//! One game of Gravity Chess as a state machine: whose turn, which phase, which pieces
//! have moved, the decks, the record, and how each action changes them.
//!
//! A turn is a flip, a move phase and an add. The flip needs no decision, so the referee
//! makes it as the turn begins: the top card of the player's deck is turned for all to
//! see. In the move phase the player moves or declares staying each active piece, one at
//! a time; the phase ends by itself when no piece still to move can move. In the add phase
//! the player puts the opponent's piece named by the card on rank 8. Then the other side's
//! turn begins. Once Black has added White's last piece, White has a last turn without a
//! flip or an add, and the game is scored.

use super::board::{Board, Score};
use super::cards::{cards_for, cards_of, piece_name, Card};
use super::fen::{self, Setup};
use crate::notation::san_among;
use crate::render::LastMove;
use crate::rules::{Color, Move, Piece, Role, Square};
use crate::variants::api::random::Random;
use crate::variants::api::{
    won_by, Duel, DuelAction, GameOutcome, Note, Reason, RuleError, Seat, Text, DRAW_OFFER,
    DUEL_WORDS,
};
use serde::{Deserialize, Serialize};

/// The end by the final count of points ([`GravityEnd::Scored`]): its name, `score`, tells
/// a win by score (or, on equal points, by the tie-break) from the other endings.
const FINAL_COUNT: Reason = Reason::new("score", "the final count");

/// What a seat can do in a Gravity Chess game: the entries of its action log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GravityAction {
    /// Move a piece, UCI (`e7f6`).
    Move(String),
    /// Declare that the piece on this square cannot move now: it stays this turn.
    Stay(String),
    /// Add the flipped card's piece on this square of the top row.
    Add(String),
    /// A draw offer or answer, a resignation, a timeout or an abort (`"Offer"`,
    /// `"Resign"`, ...).
    #[serde(untagged)]
    Duel(DuelAction),
}

/// The part of a turn the player is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Moving every active piece.
    Move,
    /// Adding the opponent's piece on the top row.
    Add,
}

/// How a game ended by the rules of Gravity Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GravityEnd {
    /// Played to the end and scored.
    Scored,
}

/// How a game ended: by the rules, or as any game of two sides may.
pub type Ended = crate::variants::api::Ended<GravityEnd>;

/// What a player did with one piece in a move phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// A move, in SAN.
    Moved(String),
    /// The piece on this square was declared unable to move.
    Stayed(String),
}

/// One turn of the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// Whose turn.
    pub seat: Seat,
    /// The turn's number (White's and Black's turns share one, as chess moves do).
    pub number: u32,
    /// The card flipped (none on White's last turn).
    pub flip: Option<Card>,
    /// The moves and stays, in order.
    pub steps: Vec<Step>,
    /// The add, in drop notation (`R@a8`).
    pub add: Option<String>,
}

/// A game of Gravity Chess. Every field is public to the variant's own modules (the
/// projection and the snapshot read them); the decks' order leaves only in the snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gravity {
    /// The pieces on the board.
    pub(super) board: Board,
    /// Each player's face-down deck, by the holder's [`Color::index`]: the opponent's
    /// cards, top first.
    pub(super) decks: [Vec<Card>; 2],
    /// Whose turn it is.
    pub(super) turn: Color,
    /// The turn's number (White's and Black's turns share one).
    pub(super) number: u32,
    /// The phase of the turn.
    pub(super) phase: Phase,
    /// The card flipped this turn, until its piece is added.
    pub(super) flipped: Option<Card>,
    /// The mover's pieces done with this turn, in order: where each stands, and whether it
    /// moved (or stayed).
    pub(super) done: Vec<(Square, bool)>,
    /// White's last turn: no flip, no add.
    pub(super) last_turn: bool,
    /// The enemy pieces each side has captured, by the capturer's [`Color::index`].
    pub(super) captured: [u8; 2],
    /// The record, turn by turn.
    pub(super) record: Vec<TurnRecord>,
    /// The last move or add, for highlighting.
    pub(super) last: Option<LastMove>,
    /// The open draw offer and how the game ended.
    pub(super) duel: Duel<GravityEnd>,
    /// The FEN the game started from, when it did not start empty.
    pub(super) start_fen: Option<String>,
}

/// The seat of a colour: White is seat 0.
pub fn seat_of(c: Color) -> Seat {
    Seat::of_side(c)
}

/// The colour of a seat.
pub fn color_of(seat: Seat) -> Result<Color, RuleError> {
    seat.side()
}

pub use crate::variants::api::square_named as square;

impl Gravity {
    /// A new game: an empty board, each player holding the opponent's twelve cards
    /// shuffled by `rng` (a hidden draw), White's first turn begun.
    pub fn start(rng: &mut impl Random) -> Gravity {
        let mut decks = [cards_of(Color::Black), cards_of(Color::White)];
        for d in &mut decks {
            rng.shuffle(d);
        }
        Gravity::from_decks(
            Setup {
                board: Board::empty(),
                waiting: [Vec::new(), Vec::new()],
                turn: Color::White,
                captured: [0, 0],
            },
            decks,
            None,
        )
    }

    /// A game from a FEN (for testing and teaching): the pieces waiting in the brackets
    /// are shuffled by `rng` into their decks.
    pub fn from_fen(text: &str, rng: &mut impl Random) -> Result<Gravity, RuleError> {
        let setup = fen::parse(text).map_err(|e| RuleError::syntax(e.to_string()))?;
        let mut decks = [Vec::new(), Vec::new()];
        for holder in Color::ALL {
            let owner = holder.opposite();
            let mut cards = cards_for(owner, &setup.waiting[owner.index()])
                .ok_or_else(|| RuleError::syntax("more pieces than a set has"))?;
            rng.shuffle(&mut cards);
            decks[holder.index()] = cards;
        }
        let (board, waiting, turn) = (setup.board, setup.waiting.clone(), setup.turn);
        let mut g = Gravity::from_decks(setup, decks, None);
        g.start_fen = Some(fen::write(&board, &waiting, turn, g.number));
        if g.is_over() {
            return Err(RuleError::syntax(format!(
                "that position is already over: on White's last turn nothing can move ({})",
                g.score_words()
            )));
        }
        Ok(g)
    }

    /// A game from a setup and decks already drawn, its first turn begun.
    pub fn from_decks(setup: Setup, decks: [Vec<Card>; 2], start_fen: Option<String>) -> Gravity {
        // The turn about to begin: White's flips so far, plus one for White's own.
        let white_flipped = 12u32.saturating_sub(decks[0].len() as u32);
        let number = match setup.turn {
            Color::White => white_flipped,
            Color::Black => white_flipped.max(1),
        };
        let mut g = Gravity {
            board: setup.board,
            decks,
            turn: setup.turn,
            number,
            phase: Phase::Move,
            flipped: None,
            done: Vec::new(),
            last_turn: false,
            captured: setup.captured,
            record: Vec::new(),
            last: None,
            duel: Duel::default(),
            start_fen,
        };
        g.begin_turn(setup.turn);
        g
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.duel.is_over()
    }

    /// The side whose turn it is.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The phase of the turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// How the game ended, if it has.
    pub fn ended(&self) -> Option<Ended> {
        self.duel.ended
    }

    /// The score of the board as it stands.
    pub fn score(&self) -> Score {
        Score::of(&self.board, self.captured)
    }

    /// The piece the flipped card names, still to be added.
    pub fn to_add(&self) -> Option<Piece> {
        self.flipped.map(Card::piece)
    }

    /// The cards left in each player's deck, by [`Color::index`].
    pub fn deck_sizes(&self) -> [usize; 2] {
        [self.decks[0].len(), self.decks[1].len()]
    }

    /// Whether `sq` is done with this turn (moved or stayed).
    fn is_done(&self, sq: Square) -> Option<bool> {
        self.done
            .iter()
            .find(|(s, _)| *s == sq)
            .map(|(_, moved)| *moved)
    }

    /// The mover's active pieces still to move this turn (not stacked, not done), with
    /// the moves each may make now (empty: blocked for now).
    pub fn to_move(&self) -> Vec<(Square, Vec<Move>)> {
        if self.is_over() || self.phase != Phase::Move {
            return Vec::new();
        }
        let stacked = self.board.stacked();
        (self.board.of(self.turn) & !stacked)
            .filter(|sq| self.is_done(*sq).is_none())
            .map(|sq| (sq, self.board.moves_from(sq, stacked)))
            .collect()
    }

    /// Every move the mover may make now.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.to_move().into_iter().flat_map(|(_, m)| m).collect()
    }

    /// The row pieces are added on: rank 8, or, when it is full, the highest row with an
    /// empty square.
    pub fn add_rank(&self) -> u8 {
        let occ = self.board.occupied();
        (0..8u8)
            .rev()
            .find(|r| (0..8).any(|f| !occ.contains(Square::new(f, *r))))
            .unwrap_or(7)
    }

    /// The empty squares a piece may be added on now.
    pub fn add_squares(&self) -> Vec<Square> {
        let r = self.add_rank();
        (0..8)
            .map(|f| Square::new(f, r))
            .filter(|s| self.board.get(*s).is_none())
            .collect()
    }

    /// Whether the game may still be called off: before each side has finished a turn.
    pub fn can_abort(&self) -> bool {
        !self.is_over() && self.record.len() <= 2
    }

    /// Starts `color`'s turn: the flip (none on White's last turn), then the move phase,
    /// which ends at once if nothing can move.
    fn begin_turn(&mut self, color: Color) -> Vec<Note> {
        self.turn = color;
        self.done.clear();
        self.phase = Phase::Move;
        if color == Color::White {
            self.number += 1;
        }
        let seat = seat_of(color);
        let mut notes = Vec::new();
        if self.decks[color.index()].is_empty() {
            self.last_turn = true;
            self.flipped = None;
            notes.push(Note::public(Text::player(
                seat,
                " has the last turn: a move phase without a flip or an add",
            )));
        } else {
            let card = self.decks[color.index()].remove(0);
            self.flipped = Some(card);
            let left = self.decks[color.index()].len();
            notes.push(Note::public(Text::player(
                seat,
                format!(
                    " flips {}; {left} card{} left",
                    card.name(),
                    if left == 1 { "" } else { "s" }
                ),
            )));
        }
        self.record.push(TurnRecord {
            seat,
            number: self.number,
            flip: self.flipped,
            steps: Vec::new(),
            add: None,
        });
        notes.extend(self.settle());
        notes
    }

    /// Ends the move phase if no piece still to move can move: on to the add, or, on
    /// White's last turn, to the score.
    fn settle(&mut self) -> Vec<Note> {
        if self.is_over() || self.phase != Phase::Move {
            return Vec::new();
        }
        if self.to_move().iter().any(|(_, m)| !m.is_empty()) {
            return vec![Note::public(Text::plain(self.still_to_move()))];
        }
        let seat = seat_of(self.turn);
        let moved = self.done.iter().any(|(_, m)| *m);
        let mut notes = vec![Note::public(Text::player(
            seat,
            if moved {
                " has no more pieces to move"
            } else {
                " has nothing to move"
            },
        ))];
        if self.last_turn {
            self.duel
                .finish(Ended::Rules(GravityEnd::Scored), &DUEL_WORDS);
            notes.push(Note::moved(Text::plain(self.score_words())));
        } else {
            self.phase = Phase::Add;
        }
        notes
    }

    /// `still to move: Be7, Pe8 (blocked)`.
    pub fn still_to_move(&self) -> String {
        let list: Vec<String> = self
            .to_move()
            .iter()
            .map(|(sq, moves)| {
                let role = self.board.get(*sq).map_or(Role::Pawn, |p| p.role);
                format!(
                    "{}{sq}{}",
                    role.upper_char(),
                    if moves.is_empty() { " (blocked)" } else { "" }
                )
            })
            .collect();
        format!("still to move: {}", list.join(", "))
    }

    /// The final score in words.
    pub fn score_words(&self) -> String {
        let s = self.score();
        let mut text = format!(
            "final score: White {} ({} captured; stacked: {}), Black {} ({} captured; stacked: {})",
            s.points[0],
            s.captured[0],
            rows_words(&s.rows[0]),
            s.points[1],
            s.captured[1],
            rows_words(&s.rows[1]),
        );
        if let Some(row) = s.tie_break_row() {
            text.push_str(&format!(
                "; tied on points, decided by the stacked pieces on row {row}"
            ));
        }
        text
    }

    /// Checks that `seat` may act in `phase` now; the colour of the seat.
    pub fn check_phase(&self, seat: Seat, phase: Phase) -> Result<Color, RuleError> {
        let color = color_of(seat)?;
        self.duel.check_open()?;
        if color != self.turn {
            return Err(RuleError::not_your_turn("it is not your turn"));
        }
        if self.phase != phase {
            return Err(RuleError::new(match self.phase {
                Phase::Move => format!(
                    "first move all your active pieces ({})",
                    self.still_to_move()
                ),
                Phase::Add => format!(
                    "your pieces have moved: now add the {} on rank {} ({})",
                    self.to_add().map_or("piece".into(), piece_name),
                    self.add_rank() + 1,
                    crate::variants::api::command_mark("add COLUMN")
                ),
            }));
        }
        Ok(color)
    }

    /// Why the mover may not move the piece on `from` to `to`, or the move.
    pub fn legal_move(&self, from: Square, to: Square) -> Result<Move, RuleError> {
        let piece = self
            .board
            .get(from)
            .filter(|p| p.color == self.turn)
            .ok_or_else(|| RuleError::new(format!("you have no piece on {from}")))?;
        let stacked = self.board.stacked();
        if !stacked.contains(from) {
            if let Some(moved) = self.is_done(from) {
                return Err(RuleError::new(format!(
                    "the {} on {from} has already {} this turn",
                    piece.role.name(),
                    if moved { "moved" } else { "stayed" }
                )));
            }
        }
        if let Some(m) = self
            .board
            .moves_from(from, stacked)
            .into_iter()
            .find(|m| m.to == to)
        {
            return Ok(m);
        }
        let pattern = self
            .board
            .pattern_moves_from(from)
            .into_iter()
            .find(|m| m.to == to);
        Err(RuleError::new(match pattern {
            Some(m) => self.board.why_not(&m, stacked).unwrap_or_else(|| {
                format!("the {} on {from} cannot go to {to}", piece.role.name())
            }),
            None if self.board.get(to).is_some_and(|p| p.color == self.turn) => {
                format!("{to} holds one of your own pieces")
            }
            None => format!("a {} cannot go from {from} to {to}", piece.role.name()),
        }))
    }

    /// Applies one action of `seat`. On error nothing changed.
    pub fn act(&mut self, seat: Seat, action: GravityAction) -> Result<Vec<Note>, RuleError> {
        // Each play checks the seat, the game's end, the turn and the phase first.
        match action {
            GravityAction::Move(uci) => self.play(seat, &uci),
            GravityAction::Stay(sq) => self.stay(seat, &sq),
            GravityAction::Add(sq) => self.add(seat, &sq),
            GravityAction::Duel(a) => {
                let abortable = self.can_abort();
                self.duel.act(seat, a, &DUEL_WORDS, abortable, |_| false)
            }
        }
    }

    /// A game action by the side not offering declines a pending offer.
    fn play_on(&mut self, seat: Seat, notes: &mut Vec<Note>) {
        if self.duel.play_on(seat) {
            notes.push(DRAW_OFFER.declined.note(seat));
        }
    }

    fn play(&mut self, seat: Seat, uci: &str) -> Result<Vec<Note>, RuleError> {
        self.check_phase(seat, Phase::Move)?;
        let (from, to) = match (uci.get(..2), uci.get(2..)) {
            (Some(a), Some(b)) => (square(a)?, square(b)?),
            _ => return Err(RuleError::syntax("a move is written from-to, like e7f6")),
        };
        let m = self.legal_move(from, to)?;
        let san = san_among(m, &self.legal_moves());
        let piece = self.board.get(from);
        if m.capture.is_some() {
            self.captured[self.turn.index()] += 1;
        }
        self.board.set(to, piece);
        self.board.set(from, None);
        self.done.push((to, true));
        self.last = Some(LastMove::Move { from, to });
        if let Some(t) = self.record.last_mut() {
            t.steps.push(Step::Moved(san.clone()));
        }
        let mut notes = Vec::new();
        self.play_on(seat, &mut notes);
        notes.insert(0, Note::moved(Text::player(seat, format!(" plays {san}"))));
        notes.extend(self.settle());
        Ok(notes)
    }

    fn stay(&mut self, seat: Seat, text: &str) -> Result<Vec<Note>, RuleError> {
        self.check_phase(seat, Phase::Move)?;
        let sq = square(text)?;
        let piece = self
            .board
            .get(sq)
            .filter(|p| p.color == self.turn)
            .ok_or_else(|| RuleError::new(format!("you have no piece on {sq}")))?;
        let name = piece.role.name();
        let entry = self.to_move().into_iter().find(|(s, _)| *s == sq);
        let Some((_, moves)) = entry else {
            return Err(RuleError::new(match self.is_done(sq) {
                Some(true) => format!("the {name} on {sq} has already moved this turn"),
                Some(false) => format!("the {name} on {sq} already stays this turn"),
                None => format!("the {name} on {sq} is stacked: it never moves"),
            }));
        };
        if !moves.is_empty() {
            let all = self.legal_moves();
            let list: Vec<String> = moves.iter().map(|m| san_among(*m, &all)).collect();
            return Err(RuleError::new(format!(
                "the {name} on {sq} can move ({}): only a piece that cannot move may stay",
                list.join(", ")
            )));
        }
        self.done.push((sq, false));
        if let Some(t) = self.record.last_mut() {
            t.steps.push(Step::Stayed(sq.to_string()));
        }
        let mut notes = vec![Note::public(Text::player(
            seat,
            format!(" declares that the {name} on {sq} cannot move: it stays this turn"),
        ))];
        self.play_on(seat, &mut notes);
        notes.extend(self.settle());
        Ok(notes)
    }

    fn add(&mut self, seat: Seat, text: &str) -> Result<Vec<Note>, RuleError> {
        let color = self.check_phase(seat, Phase::Add)?;
        let sq = square(text)?;
        let piece = self
            .to_add()
            .ok_or_else(|| RuleError::new("there is no piece to add"))?;
        let rank = self.add_rank();
        let free: Vec<String> = self.add_squares().iter().map(|s| s.to_string()).collect();
        if sq.rank() != rank {
            return Err(RuleError::new(format!(
                "pieces are added on rank {}{}: free squares {}",
                rank + 1,
                if rank < 7 { " (rank 8 is full)" } else { "" },
                free.join(", ")
            )));
        }
        if let Some(p) = self.board.get(sq) {
            return Err(RuleError::new(format!(
                "{sq} holds the {}: add on an empty square ({})",
                piece_name(p),
                free.join(", ")
            )));
        }
        self.board.set(sq, Some(piece));
        self.last = Some(LastMove::Drop { to: sq });
        let add = format!("{}@{sq}", piece.role.upper_char());
        if let Some(t) = self.record.last_mut() {
            t.add = Some(add);
        }
        let mut notes = vec![Note::moved(Text::player(
            seat,
            format!(" adds the {} on {sq}", piece_name(piece)),
        ))];
        self.play_on(seat, &mut notes);
        self.flipped = None;
        notes.extend(self.begin_turn(color.opposite()));
        Ok(notes)
    }

    /// The outcome, in the referee's form.
    pub fn outcome(&self) -> Option<GameOutcome> {
        self.duel.outcome(|GravityEnd::Scored| {
            let s = self.score();
            GameOutcome {
                score: Some(s.points.iter().map(|p| *p as i32).collect()),
                ..GameOutcome::new(
                    s.winner().map_or("1/2-1/2", |c| won_by(seat_of(c))),
                    FINAL_COUNT,
                )
            }
        })
    }
}

/// `2 on row 1, 3 on row 2` (the rows with stacked pieces), or `none`.
fn rows_words(rows: &[u8; 8]) -> String {
    let parts: Vec<String> = rows
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(r, n)| format!("{n} on row {}", r + 1))
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}
