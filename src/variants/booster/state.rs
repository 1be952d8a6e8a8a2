//! One game of Booster Chess as a state machine: the position, the hands, the draw and
//! discard piles, the phase of the turn, the record, and how each action changes them.
//!
//! A turn has up to four parts: the move (required); king steps if the piece moved was
//! boosted (each spends one of its checkers); one card played to add a checker; the draw.
//! After the move the game waits for the steps while the piece may still take one, then
//! for a card while the mover holds a card and has a checker in front of them (both
//! public counts), and the turn ends with `done`, with a card, or by itself when nothing
//! is left to choose. The draw needs no decision: the referee makes it as the turn ends.
//!
//! The secret reshuffle seed is drawn at the start from the hidden draws and kept here:
//! every reshuffle of the discard pile is random to the players and the same on replay.

use super::cards::{self, Card, CardKind};
use super::position::{far_rank, Effects, Pos, Step};
use super::record::stack_news;
pub use super::record::{plural, read_step, step_text, TurnRecord};
use crate::notation::san_among;
use crate::rules::{Color, EndReason, Move, Role, Square};
use crate::variants::api::random::{splitmix64, Random, SeededRng};
use crate::variants::api::{
    command_mark, command_mark_str, lost_by, Duel, DuelAction, GameOutcome, Note, Reason,
    RuleError, Seat, Text, DUEL_WORDS,
};
use serde::{Deserialize, Serialize};

/// What a turn may hold after its move, each command marked for the reader's form.
pub(super) const AFTER_THE_MOVE: &str = concat!(
    command_mark_str!("boost SQUARE"),
    ", ",
    command_mark_str!("add SQUARE with CARD"),
    ", or ",
    command_mark_str!("done")
);

/// The draw when a position occurs the third time ([`BoosterEnd::Repetition`]).
const REPETITION: Reason = Reason::new("repetition", "repetition");

/// The draw after fifty moves of each side without a pawn move or a capture
/// ([`BoosterEnd::FiftyMoves`]).
const FIFTY_MOVES: Reason = Reason::new("fifty-moves", "the fifty-move rule");

/// Cards dealt to each player at the start.
pub const HAND: usize = 6;

/// One part of a turn, as stored in the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Part {
    /// The normal move, UCI (`g1f3`, `e7e8q`).
    Move(String),
    /// A king step, the square and an optional promotion letter (`g5`, `e8q`).
    Step(String),
    /// A card played: a checker under the piece on the square.
    Card {
        /// The card.
        card: Card,
        /// The piece's square.
        on: String,
    },
    /// The turn ends here.
    Done,
}

/// What a seat can do: the entries of the action log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoosterAction {
    /// Parts of the mover's turn, in order (one typed line).
    Turn(Vec<Part>),
    /// A draw offer or answer, a resignation, a timeout or an abort (`"Offer"`,
    /// `"Resign"`, ...).
    #[serde(untagged)]
    Duel(DuelAction),
}

/// The part of a turn the mover is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The move is still to make.
    Move,
    /// The boosted piece on this square may take king steps.
    Steps(u8),
    /// A card may be played.
    Card,
}

/// How a game ended by the rules of Booster Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoosterEnd {
    /// This seat was checkmated.
    Mated(Seat),
    /// The side to move had no move and was not in check.
    Stalemate,
    /// The same position (stacks, checkers in front and side to move included) for the
    /// third time.
    Repetition,
    /// Fifty moves of each side without a pawn move or a capture.
    FiftyMoves,
}

/// How a game ended: by the rules, or as any game of two sides may.
pub type Ended = crate::variants::api::Ended<BoosterEnd>;

/// A game of Booster Chess. The hands, the pile's order and the reshuffle seed leave it
/// only through the snapshot and each holder's own projection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Booster {
    pub(super) pos: Pos,
    pub(super) hands: [Vec<Card>; 2],
    /// The draw pile, top first.
    pub(super) pile: Vec<Card>,
    /// The discard pile, oldest first.
    pub(super) discard: Vec<Card>,
    /// The secret seed of the reshuffles.
    pub(super) secret: u64,
    pub(super) reshuffles: u32,
    pub(super) phase: Phase,
    pub(super) record: Vec<TurnRecord>,
    /// The position keys at the start of each turn, for repetitions.
    pub(super) keys: Vec<String>,
    pub(super) last: Option<(Square, Square)>,
    /// The open draw offer and how the game ended.
    pub(super) duel: Duel<BoosterEnd>,
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

impl Booster {
    /// A new game from `pos`: the deck shuffled and six cards dealt to each player by
    /// `rng` (a hidden draw), which also gives the secret seed of later reshuffles.
    pub fn new(pos: Pos, rng: &mut impl Random, start_fen: Option<String>) -> Booster {
        let mut pile = cards::deck();
        rng.shuffle(&mut pile);
        let secret = rng.next_u64();
        let white: Vec<Card> = pile.drain(..HAND).collect();
        let black: Vec<Card> = pile.drain(..HAND).collect();
        let key = pos.key();
        let mut g = Booster {
            pos,
            hands: [white, black],
            pile,
            discard: Vec::new(),
            secret,
            reshuffles: 0,
            phase: Phase::Move,
            record: Vec::new(),
            keys: vec![key],
            last: None,
            duel: Duel::default(),
            start_fen,
        };
        g.check_end();
        g
    }

    /// The position.
    pub fn position(&self) -> &Pos {
        &self.pos
    }

    /// The side whose turn it is.
    pub fn turn(&self) -> Color {
        self.pos.turn
    }

    /// The phase of the turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How the game ended, if it has.
    pub fn ended(&self) -> Option<Ended> {
        self.duel.ended
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.duel.is_over()
    }

    /// The hand of `c`.
    pub fn hand(&self, c: Color) -> &[Card] {
        &self.hands[c.index()]
    }

    /// Cards left in the draw pile.
    pub fn pile_len(&self) -> usize {
        self.pile.len()
    }

    /// The discard pile, oldest first.
    pub fn discards(&self) -> &[Card] {
        &self.discard
    }

    /// Whether the game may still be called off: before each side has finished a turn.
    pub fn can_abort(&self) -> bool {
        !self.is_over() && self.record.len() < 2
    }

    /// The square of the piece taking booster steps, in the steps phase.
    pub fn stepping(&self) -> Option<Square> {
        match self.phase {
            Phase::Steps(i) => Some(Square::from_index(i)),
            _ => None,
        }
    }

    /// The normal moves the mover may make (none outside the move phase).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() || self.phase != Phase::Move {
            return Vec::new();
        }
        self.pos.legal_moves()
    }

    /// The steps the mover's piece may take now (none outside the steps phase).
    pub fn legal_steps(&self) -> Vec<Step> {
        match self.stepping() {
            Some(at) if !self.is_over() => self.pos.legal_steps(at),
            _ => Vec::new(),
        }
    }

    /// Whether a card may be played now: after the move, with a card in hand and a
    /// checker in front of the mover (public counts only).
    pub fn card_open(&self) -> bool {
        !self.is_over()
            && self.phase != Phase::Move
            && !self.hands[self.turn().index()].is_empty()
            && self.pos.reserve(self.turn()) > 0
    }

    /// The pieces `card` lets the mover put a checker under: the pieces it matches, or,
    /// if none of them is left (or it is a checker card), every piece of its colour.
    pub fn card_targets(&self, card: Card) -> Vec<Square> {
        let color = card.color();
        let of_color: Vec<Square> = self.pos.of(color).collect();
        let matching: Vec<Square> = match card.kind() {
            CardKind::Piece(p) => of_color
                .iter()
                .copied()
                .filter(|s| self.pos.piece(*s) == Some(p))
                .collect(),
            CardKind::Checker(_) => Vec::new(),
        };
        if matching.is_empty() {
            of_color
        } else {
            matching
        }
    }

    /// Why the mover may not put a checker under the piece on `sq` with `card`, or the
    /// position after it.
    pub fn card_play(&self, card: Card, sq: Square) -> Result<(Pos, Effects), RuleError> {
        let us = self.turn();
        if !self.card_open() {
            return Err(RuleError::new(if self.phase == Phase::Move {
                "first move a piece; then you may play a card"
            } else {
                "you have no card to play or no checker in front of you"
            }));
        }
        if !self.hands[us.index()].contains(&card) {
            return Err(RuleError::new(
                "you do not hold that card (type hand to see your cards privately)",
            ));
        }
        let targets = self.card_targets(card);
        if !targets.contains(&sq) {
            let what = match self.pos.piece(sq) {
                None => format!("{sq} is empty"),
                Some(p) => format!(
                    "the {} {} on {sq} does not match it",
                    p.color.name().to_lowercase(),
                    p.role.name()
                ),
            };
            return Err(RuleError::new(format!(
                "{} adds a checker under {}; {what}",
                card.code(),
                match card.kind() {
                    CardKind::Piece(p) if targets.iter().any(|s| self.pos.piece(*s) == Some(p)) =>
                        format!("a {} {}", p.color.name().to_lowercase(), p.role.name()),
                    _ => format!("any {} piece", card.color().name().to_lowercase()),
                }
            )));
        }
        if let Some(p) = self.pos.piece(sq) {
            if p.color != us && sq.rank() == far_rank(p.color) {
                return Err(RuleError::new(format!(
                    "the piece on {sq} stands on its far rank: a hobble checker there would fall off at once"
                )));
            }
        }
        let mut after = self.pos.clone();
        let effects = after.add_checker(sq, us);
        if after.in_check(us) {
            return Err(RuleError::new(format!(
                "a checker under the piece on {sq} would leave your king attacked"
            )));
        }
        Ok((after, effects))
    }

    /// Applies one action of `seat`; on error the game is unchanged (the caller works on
    /// a copy).
    pub fn act(&mut self, seat: Seat, action: &BoosterAction) -> Result<Vec<Note>, RuleError> {
        match action {
            BoosterAction::Turn(parts) => {
                let color = color_of(seat)?;
                self.duel.check_open()?;
                self.turn_parts(seat, color, parts)
            }
            BoosterAction::Duel(a) => {
                let abortable = self.can_abort();
                self.duel.act(seat, *a, &DUEL_WORDS, abortable, |_| false)
            }
        }
    }

    /// The parts of one typed line of the mover's turn, in order.
    fn turn_parts(
        &mut self,
        seat: Seat,
        color: Color,
        parts: &[Part],
    ) -> Result<Vec<Note>, RuleError> {
        if color != self.turn() {
            return Err(RuleError::not_your_turn("it is not your turn"));
        }
        if parts.is_empty() {
            return Err(RuleError::syntax(format!(
                "say what to do: a move, {AFTER_THE_MOVE}"
            )));
        }
        let mut said: Vec<String> = Vec::new();
        let mut private: Vec<String> = Vec::new();
        // Whether the turn has ended, and whether by the mover's card or `done` (rather
        // than by itself, when nothing was left to choose).
        let mut ended_turn = false;
        let mut chosen_end = false;
        for (i, part) in parts.iter().enumerate() {
            if ended_turn && *part == Part::Done {
                // A `done` after a turn that has ended by itself changes nothing.
                continue;
            }
            match self.play_part(part, chosen_end) {
                Ok(text) => said.extend(text),
                Err(e) => {
                    let fix = self.fixed_part(part);
                    return Err(self.line_dropped(e, parts, i, fix));
                }
            }
            if matches!(part, Part::Card { .. } | Part::Done) {
                chosen_end = true;
                ended_turn = true;
            }
            if !ended_turn && !self.is_waiting() {
                ended_turn = true;
            }
        }
        if ended_turn {
            if said.is_empty() {
                // A bare `done`: the announcement still says what the player did.
                said.push("ends the turn".into());
            }
            let (public, mine) = self.end_turn();
            said.extend(public);
            private.extend(mine);
        } else {
            said.push(self.still_to_choose());
        }
        if self.duel.play_on(seat) {
            said.push("the draw offer is declined by playing on".into());
        }
        let mut notes = vec![Note::moved(Text::player(
            seat,
            format!(" {}", said.join("; ")),
        ))];
        if !private.is_empty() {
            notes.push(Note::private(seat, Text::plain(private.join("; "))));
        }
        Ok(notes)
    }

    /// Plays one part of the mover's line (`chosen_end`: the turn was already ended by
    /// a card or `done`); what it says, if anything.
    fn play_part(&mut self, part: &Part, chosen_end: bool) -> Result<Option<String>, RuleError> {
        match part {
            _ if chosen_end => Err(RuleError::new(
                "your turn ends with the card or done: nothing may follow it",
            )),
            Part::Move(uci) => self.play_move(uci).map(Some),
            Part::Step(text) => self.play_step(text).map(Some),
            Part::Card { card, on } => self.play_card(*card, on).map(Some),
            Part::Done if self.phase == Phase::Move => Err(RuleError::new(
                "you must move a piece before your turn can end",
            )),
            Part::Done => Ok(None),
        }
    }

    /// The part that would have worked in place of the refused `part`, where one can be
    /// told (a booster step to a square the piece may reach).
    fn fixed_part(&self, part: &Part) -> Option<Part> {
        match part {
            Part::Step(text) => self
                .stepping()
                .zip(read_step(text).ok())
                .and_then(|(at, step)| self.why_no_step(at, step).1)
                .map(Part::Step),
            _ => None,
        }
    }

    /// Whether the turn still waits for a choice (a step or a card) after its move.
    fn is_waiting(&self) -> bool {
        !self.legal_steps().is_empty() || self.card_open()
    }

    /// What the mover may still do, for the note.
    fn still_to_choose(&self) -> String {
        let mut options = Vec::new();
        if let Some(at) = self.stepping() {
            if !self.legal_steps().is_empty() {
                options.push(format!(
                    "{} (the piece on {at} has {} to spend)",
                    command_mark("boost SQUARE"),
                    plural(self.pos.boost(at) as usize, "checker")
                ));
            }
        }
        if self.card_open() {
            options.push(command_mark("add SQUARE with CARD"));
        }
        options.push(command_mark("done"));
        format!("still to choose: {}", options.join(", or "))
    }

    fn play_move(&mut self, uci: &str) -> Result<String, RuleError> {
        if self.phase != Phase::Move {
            return Err(RuleError::new(format!(
                "you have already moved this turn: {AFTER_THE_MOVE}"
            )));
        }
        let legal = self.pos.legal_moves();
        let m = legal
            .iter()
            .find(|m| m.uci() == uci)
            .copied()
            .ok_or_else(|| {
                RuleError::new(format!(
                    "{} is not a legal move here",
                    uci.chars().take(8).collect::<String>()
                ))
            })?;
        let san = san_among(m, &legal);
        let steps = self.pos.may_step_after(&m);
        let effects = self.pos.play_move(&m);
        self.last = Some((m.from, m.to));
        self.record.push(TurnRecord {
            san: san.clone(),
            ..TurnRecord::default()
        });
        self.phase = Phase::Steps(m.to.index() as u8);
        if !steps || self.legal_steps().is_empty() {
            self.phase = Phase::Card;
        }
        let mut text = format!("plays {san}");
        text.push_str(&stack_news(effects, &self.pos, m.to));
        Ok(text)
    }

    fn play_step(&mut self, text: &str) -> Result<String, RuleError> {
        let Some(at) = self.stepping() else {
            return Err(RuleError::new(self.why_no_more_steps()));
        };
        let step = read_step(text)?;
        let legal = self.pos.legal_steps(at);
        let ok = legal.iter().find(|s| {
            s.to == step.to
                && (s.promotion == step.promotion
                    || (s.promotion.is_none() && step.promotion.is_none()))
        });
        let Some(&ok) = ok else {
            return Err(RuleError::new(self.why_no_step(at, step).0));
        };
        let effects = self.pos.play_step(at, ok);
        self.last = Some((self.last.map_or(at, |l| l.0), ok.to));
        let word = step_text(ok);
        if let Some(r) = self.record.last_mut() {
            r.steps.push(word.clone());
        }
        let role = self.pos.piece(ok.to).map_or(Role::Pawn, |p| p.role);
        let mut out = format!("boosts the {} to {word} (a checker spent)", role.name());
        out.push_str(&stack_news(effects, &self.pos, ok.to));
        self.phase = Phase::Steps(ok.to.index() as u8);
        if self.legal_steps().is_empty() {
            self.phase = Phase::Card;
        }
        Ok(out)
    }

    fn play_card(&mut self, card: Card, on: &str) -> Result<String, RuleError> {
        let sq = square(on)?;
        // Why a card cannot be played may tell what the player holds: their reason is
        // theirs alone (docs/rules/booster.md, rule 17).
        let (after, effects) = self.card_play(card, sq).map_err(RuleError::privately)?;
        let us = self.turn();
        self.pos = after;
        let hand = &mut self.hands[us.index()];
        if let Some(i) = hand.iter().position(|c| *c == card) {
            hand.remove(i);
        }
        self.discard.push(card);
        if let Some(r) = self.record.last_mut() {
            r.card = Some((card, sq.to_string()));
        }
        let piece = self
            .pos
            .piece(sq)
            .map(|p| format!("{} {}", p.color.name().to_lowercase(), p.role.name()));
        let mut out = format!(
            "plays {}: a {} checker under the {} on {sq}",
            card.name(),
            us.name().to_lowercase(),
            piece.unwrap_or_default()
        );
        out.push_str(&stack_news(effects, &self.pos, sq));
        Ok(out)
    }

    /// Ends the mover's turn: the draw, then the other side's turn, and the game's end if
    /// it has come. Returns what everyone is told and what the mover alone is told.
    fn end_turn(&mut self) -> (Vec<String>, Vec<String>) {
        let us = self.turn();
        let mut public = Vec::new();
        let mut drawn = Vec::new();
        let want = self.pos.reserve(us) as usize;
        while self.hands[us.index()].len() + drawn.len() < want {
            if self.pile.is_empty() {
                if self.discard.is_empty() {
                    break;
                }
                self.reshuffle();
                public.push(format!(
                    "the discard pile is shuffled into a new draw pile of {}",
                    plural(self.pile.len(), "card")
                ));
            }
            drawn.push(self.pile.remove(0));
        }
        let mut private = Vec::new();
        if !drawn.is_empty() {
            public.push(format!("draws {}", plural(drawn.len(), "card")));
            private.push(format!("you draw {}", cards::list(&drawn)));
        }
        self.hands[us.index()].extend(drawn);
        self.pos.pass_turn();
        self.phase = Phase::Move;
        self.keys.push(self.pos.key());
        let check = self.pos.in_check(self.pos.turn);
        self.check_end();
        if let Some(r) = self.record.last_mut() {
            r.suffix = match (self.duel.ended, check) {
                (Some(Ended::Rules(BoosterEnd::Mated(_))), _) => "#".into(),
                (_, true) => "+".into(),
                _ => String::new(),
            };
        }
        // Each a clause whose subject is the mover, as the rest of the announcement.
        let them = match self.pos.turn {
            Color::White => "White",
            Color::Black => "Black",
        };
        match self.ended() {
            Some(Ended::Rules(BoosterEnd::Mated(_))) => public.push(format!("checkmates {them}")),
            Some(Ended::Rules(BoosterEnd::Stalemate)) => {
                public.push(format!("stalemates {them}: the game is drawn"))
            }
            Some(Ended::Rules(BoosterEnd::Repetition)) => public.push(
                "brings about the same position for the third time: the game is drawn".into(),
            ),
            Some(Ended::Rules(BoosterEnd::FiftyMoves)) => public.push(
                "completes fifty moves each without a pawn move or a capture: the game is drawn"
                    .into(),
            ),
            _ if check => public.push(format!("gives check to {them}")),
            _ => {}
        }
        (public, private)
    }

    /// Shuffles the discard pile into a new draw pile, by the secret seed.
    fn reshuffle(&mut self) {
        self.reshuffles += 1;
        let mut rng = SeededRng::new(splitmix64(self.secret ^ u64::from(self.reshuffles)));
        self.pile = std::mem::take(&mut self.discard);
        rng.shuffle(&mut self.pile);
    }

    /// Ends the game if the side to move has no move, or a draw rule applies.
    fn check_end(&mut self) {
        if self.is_over() {
            return;
        }
        let end = if self.pos.legal_moves().is_empty() {
            Some(if self.pos.in_check(self.pos.turn) {
                BoosterEnd::Mated(seat_of(self.pos.turn))
            } else {
                BoosterEnd::Stalemate
            })
        } else if let Some(k) = self.keys.last() {
            if self.keys.iter().filter(|x| *x == k).count() >= 3 {
                Some(BoosterEnd::Repetition)
            } else if self.pos.halfmoves >= 100 {
                Some(BoosterEnd::FiftyMoves)
            } else {
                None
            }
        } else {
            None
        };
        if let Some(end) = end {
            self.duel.finish(Ended::Rules(end), &DUEL_WORDS);
        }
    }

    /// The outcome, in the referee's form.
    pub fn outcome(&self) -> Option<GameOutcome> {
        self.duel.outcome(|end| match end {
            BoosterEnd::Mated(s) => GameOutcome::new(lost_by(s), EndReason::Checkmate),
            BoosterEnd::Stalemate => GameOutcome::new("1/2-1/2", EndReason::Stalemate),
            BoosterEnd::Repetition => GameOutcome::new("1/2-1/2", REPETITION),
            BoosterEnd::FiftyMoves => GameOutcome::new("1/2-1/2", FIFTY_MOVES),
        })
    }
}
