//! One game of Cloak and Dagger Chess as a state machine: the secret set-up, then turns
//! of an owed bonus move, a guess, the regular move, a bonus move and the uncloaking.

use super::board::{
    arrangement_text, home_rank, parse_arrangement, pawn_rank, Arrangement, Board, Man,
};
use super::record::{role_word, Event, Played, TurnRec};
use crate::rules::{Color, EndReason, Move, MoveKind, Role, Square};
use crate::variants::api::{
    won_by, Duel, DuelAction, DuelWords, GameOutcome, Note, OfferWords, Reason, RuleError, Said,
    Seat, Text,
};
use serde::{Deserialize, Serialize};

/// The draw when only the two kings are left ([`CloakEnd::BareKings`]).
const BARE_KINGS: Reason = Reason::new("bare-kings", "bare kings");

pub use super::board::{color, move_code, role_from_word, Known};

/// What a seat can do: the entries of the game's action log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CloakAction {
    /// The seat's back rank (`RNBQKBNR`), or `None` for the one drawn for it in secret
    /// when the game began.
    Setup(Option<String>),
    /// A guess at an enemy checker: its number and a role letter.
    Guess(u8, char),
    /// A move in UCI (`b1c3`, `e7e8q`, `P@b2`), or `O-O` / `O-O-O`.
    Move(String),
    /// The seat does without the bonus move it may make.
    Skip,
    /// Checkers to uncloak at the end of the turn.
    Uncloak(Vec<u8>),
    /// A draw offer or answer, a resignation, a timeout or an abort (`"Offer"`,
    /// `"Resign"`, ...).
    #[serde(untagged)]
    Duel(DuelAction),
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// Both players set up their back ranks, in secret.
    Setup,
    /// The player to move may make the bonus move owed to them by a wrong guess.
    Owed,
    /// The player may guess, then must make the regular move.
    Start,
    /// After a right guess and the regular move, the bonus move.
    Bonus,
}

/// How the game ended by the rules of Cloak and Dagger Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CloakEnd {
    /// This seat captured the enemy king.
    KingCaptured(Seat),
    /// This seat checkmated the enemy's uncloaked king.
    Checkmate(Seat),
    /// The player to move had no legal move and was not in check.
    Stalemate,
    /// Only the two kings are left.
    BareKings,
}

/// How the game ended: by the rules, or as any game of two sides may.
pub type Ended = crate::variants::api::Ended<CloakEnd>;

/// What the lifecycle says in Cloak and Dagger Chess, which kept its own words. An
/// ending leaves an open offer as it was: games were stored so.
const CLOAK_WORDS: DuelWords = DuelWords {
    offer: OfferWords {
        already_made: "a draw offer is already open",
        answer_first: "a draw offer is already open",
        own: "there is no draw offer to answer",
        none: "there is no draw offer to answer",
        made: Said::public(" offers a draw"),
        accepted: Some(Said::moved(" accepts the draw: the game is drawn")),
        declined: Said::public(" declines the draw"),
    },
    resigned: Said::moved(" resigns"),
    timed_out: Some(Said::moved(" ran out of time")),
    aborted: Some(Said::public(" aborts the game")),
    too_late: "too late to abort: both sides have had a turn (resign instead)",
    ending_closes_offer: false,
};

/// A guess, as made and answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guess {
    /// The enemy checker's number.
    pub id: u8,
    /// The role guessed (its letter).
    pub role: char,
    /// Whether it was right.
    pub right: bool,
}

/// A game of Cloak and Dagger Chess. The state holds every secret (the set-ups and the
/// hidden draws for `setup random`); they leave it only through the projections.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cloak {
    /// The men on the board.
    pub(super) board: Board,
    /// Each seat's back rank once set up.
    pub(super) setups: [Option<String>; 2],
    /// The back rank drawn in secret for each seat at the start, for `setup random`.
    pub(super) draws: [String; 2],
    /// The seat to move.
    pub(super) turn: u8,
    /// The step of the game or turn.
    pub(super) step: Step,
    /// The move number (it goes up after Black's turn).
    pub(super) number: u32,
    /// This turn's guess.
    pub(super) guessed: Option<Guess>,
    /// Which seats are owed a bonus move before their next turn.
    pub(super) owed: [bool; 2],
    /// The mover's checkers to uncloak at the end of this turn.
    pub(super) queue: Vec<u8>,
    /// Which checkers' identities are public, by seat and number.
    pub(super) known: [[bool; 9]; 2],
    /// The roles each checker was wrongly guessed to be (a bit per role index).
    pub(super) crosses: [[u8; 9]; 2],
    /// The checkers that never moved (a bit per number), for castling.
    pub(super) unmoved: [u16; 2],
    /// The square a pawn just passed with its double step.
    pub(super) ep: Option<u8>,
    /// Each seat's pawns captured by the opponent, which a bonus move may drop back.
    pub(super) hand: [u8; 2],
    /// The record, turn by turn.
    pub(super) record: Vec<TurnRec>,
    /// The last move's squares (`from` = `to` for a drop).
    pub(super) last: Option<(u8, u8)>,
    /// The open draw offer (`offer`: by this seat) and how the game ended (`ended`),
    /// stored as two fields of the game.
    #[serde(flatten)]
    pub(super) duel: Duel<CloakEnd>,
    /// Turns completed.
    pub(super) turns_done: u32,
}

impl Cloak {
    /// A new game: `draws` are the back ranks drawn in secret for `setup random`.
    pub fn new(draws: [Arrangement; 2]) -> Cloak {
        Cloak {
            board: Board::start([super::board::SET_ORDER, super::board::SET_ORDER]),
            setups: [None, None],
            draws: [arrangement_text(&draws[0]), arrangement_text(&draws[1])],
            turn: 0,
            step: Step::Setup,
            number: 1,
            guessed: None,
            owed: [false, false],
            queue: Vec::new(),
            known: [[false; 9]; 2],
            crosses: [[0; 9]; 2],
            unmoved: [0x1fe, 0x1fe],
            ep: None,
            hand: [0, 0],
            record: Vec::new(),
            last: None,
            duel: Duel::default(),
            turns_done: 0,
        }
    }

    /// The public knowledge.
    pub fn knowledge(&self) -> Known<'_> {
        Known(&self.known)
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.duel.is_over()
    }

    /// The seat to move.
    pub fn to_move(&self) -> Seat {
        Seat(self.turn)
    }

    /// The step of the game.
    pub fn step(&self) -> Step {
        self.step
    }

    /// How it ended.
    pub fn ended(&self) -> Option<Ended> {
        self.duel.ended
    }

    /// Whether the mover's king will be uncloaked at the end of this turn.
    fn uncloaking_king(&self, c: Color) -> bool {
        self.board
            .king(c)
            .is_some_and(|(_, k)| k.id > 0 && self.queue.contains(&k.id))
            && c == color(self.turn)
    }

    /// `c`'s regular moves: by true roles, an uncloaked king (or one to be uncloaked
    /// this turn) never left attacked by an enemy piece of public identity.
    pub fn regular_moves(&self, c: Color) -> Vec<Move> {
        let k = self.knowledge();
        let unc = self.uncloaking_king(c);
        let unmoved = self.unmoved[c.index()];
        let ep = self.ep.map(Square::from_index);
        self.board
            .pseudo_moves(c, ep, unmoved, unc, &k)
            .into_iter()
            .filter(|m| !self.board.leaves_check(c, m, unmoved, unc, &k))
            .collect()
    }

    /// `c`'s bonus moves: its regular pawn moves, and drops of its captured pawns on the
    /// empty squares of its pawn rank.
    pub fn bonus_moves(&self, c: Color) -> Vec<Move> {
        let mut out: Vec<Move> = self
            .regular_moves(c)
            .into_iter()
            .filter(|m| m.role == Role::Pawn)
            .collect();
        if self.hand[c.index()] > 0 {
            let k = self.knowledge();
            let unc = self.uncloaking_king(c);
            for f in 0..8 {
                let to = Square::new(f, pawn_rank(c));
                let m = Move {
                    from: to,
                    to,
                    role: Role::Pawn,
                    capture: None,
                    promotion: None,
                    kind: MoveKind::Drop,
                };
                if self.board.get(to).is_none()
                    && !self
                        .board
                        .leaves_check(c, &m, self.unmoved[c.index()], unc, &k)
                {
                    out.push(m);
                }
            }
        }
        out
    }

    /// The moves the player to move may make now (bonus or regular); none in set-up or
    /// once over.
    pub fn moves_now(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        let c = color(self.turn);
        match self.step {
            Step::Setup => Vec::new(),
            Step::Owed | Step::Bonus => self.bonus_moves(c),
            Step::Start => self.regular_moves(c),
        }
    }

    /// Checks that `seat` is to act in play (not in the set-up).
    pub fn check_turn(&self, seat: Seat) -> Result<Color, RuleError> {
        self.duel.check_open()?;
        if seat.0 > 1 {
            return Err(RuleError::new("Cloak and Dagger Chess has two seats"));
        }
        if self.step == Step::Setup {
            return Err(RuleError::not_your_turn(concat!(
                "the back ranks are being set up: play begins when both players have answered ",
                crate::variants::api::command_mark_str!("setup")
            )));
        }
        if seat.0 != self.turn {
            return Err(RuleError::not_your_turn("it is not your turn"));
        }
        Ok(color(seat.0))
    }

    /// Applies one action of `seat`; on error nothing changed (the caller works on a copy).
    pub fn act(&mut self, seat: Seat, action: CloakAction) -> Result<Vec<Note>, RuleError> {
        match action {
            CloakAction::Setup(a) => self.setup(seat, a),
            CloakAction::Guess(id, role) => self.guess(seat, id, role),
            CloakAction::Move(uci) => self.play_uci(seat, &uci),
            CloakAction::Skip => self.skip(seat),
            CloakAction::Uncloak(ids) => self.uncloak(seat, &ids),
            CloakAction::Duel(a) => {
                if matches!(
                    a,
                    DuelAction::Offer | DuelAction::Accept | DuelAction::Decline
                ) {
                    self.check_turn_free(seat)?;
                }
                let abortable = !self.is_over() && self.turns_done < 2;
                self.duel.act(seat, a, &CLOAK_WORDS, abortable, |_| false)
            }
        }
    }

    /// A draw may be offered or answered in play, by either seat.
    fn check_turn_free(&self, seat: Seat) -> Result<(), RuleError> {
        self.duel.check_open()?;
        if self.step == Step::Setup {
            return Err(RuleError::new("draws are offered once play has begun"));
        }
        if seat.0 > 1 {
            return Err(RuleError::new("Cloak and Dagger Chess has two seats"));
        }
        Ok(())
    }

    fn setup(&mut self, seat: Seat, text: Option<String>) -> Result<Vec<Note>, RuleError> {
        self.duel.check_open()?;
        let i = seat.0 as usize;
        if self.step != Step::Setup || i > 1 {
            return Err(RuleError::new("the back ranks are already set up"));
        }
        if self.setups[i].is_some() {
            return Err(RuleError::new("you have already set up your back rank"));
        }
        let chosen = text.unwrap_or_else(|| self.draws[i].clone());
        let a = parse_arrangement(&chosen).map_err(|e| RuleError::syntax(e.to_string()))?;
        self.setups[i] = Some(arrangement_text(&a));
        self.board.assign(color(seat.0), &a);
        let mut notes = vec![
            Note::public(Text::player(seat, " has set up their back rank")),
            Note::private(
                seat,
                Text::plain(format!(
                    "your back rank: {}",
                    super::record::arrangement_words(&a, color(seat.0))
                )),
            ),
        ];
        if self.setups.iter().all(Option::is_some) {
            self.step = Step::Start;
            notes.push(Note::moved(
                Text::plain("both back ranks are set: play begins; ")
                    .push_player(Seat(0))
                    .push(" to move"),
            ));
        }
        Ok(notes)
    }

    fn guess(&mut self, seat: Seat, id: u8, letter: char) -> Result<Vec<Note>, RuleError> {
        let c = self.check_turn(seat)?;
        match self.step {
            Step::Owed => {
                return Err(RuleError::new(
                    "first make or skip the bonus move you are owed: the guess comes at the start of your turn",
                ))
            }
            Step::Bonus => {
                return Err(RuleError::new(
                    "a guess is made at the start of your turn, before your move",
                ))
            }
            _ => {}
        }
        if self.guessed.is_some() {
            return Err(RuleError::new("you have already guessed this turn"));
        }
        let role = role_from_word(&letter.to_string())
            .ok_or_else(|| RuleError::syntax("guess a king, queen, rook, bishop or knight"))?;
        let o = c.opposite();
        if !(1..=8).contains(&id) {
            return Err(RuleError::syntax("checkers are numbered 1 to 8"));
        }
        if self.board.find(o, id).is_none() {
            return Err(RuleError::new(format!(
                "your opponent's checker {id} is no longer on the board"
            )));
        }
        if self.known[o.index()][id as usize] {
            return Err(RuleError::new(format!(
                "checker {id}'s identity is already known: guess a checker still unknown"
            )));
        }
        if self.crosses[o.index()][id as usize] & (1 << role.index()) != 0 {
            return Err(RuleError::new(format!(
                "checker {id} is already known not to be a {}",
                role.name()
            )));
        }
        let truth = self
            .board
            .find(o, id)
            .and_then(|s| self.board.get(s))
            .map(|m| m.role);
        let right = truth == Some(role);
        let g = Guess {
            id,
            role: role.upper_char(),
            right,
        };
        self.guessed = Some(g);
        self.turn_rec().events.push(Event::Guess(g));
        let them = Seat(o.index() as u8);
        let text = Text::player(
            seat,
            format!(" guesses that checker {id} is a {}: ", role.name()),
        );
        Ok(vec![Note::public(if right {
            self.known[o.index()][id as usize] = true;
            text.push("right, a bonus move after the regular move")
        } else {
            self.crosses[o.index()][id as usize] |= 1 << role.index();
            self.owed[o.index()] = true;
            text.push("wrong, so ")
                .push_player(them)
                .push(" may make a bonus move before their next turn")
        })])
    }

    /// The record of the turn under way (started on demand).
    fn turn_rec(&mut self) -> &mut TurnRec {
        let fresh = self.record.last().map_or(true, |t| t.done);
        if fresh {
            self.record.push(TurnRec {
                seat: self.turn,
                number: self.number,
                ..TurnRec::default()
            });
        }
        let n = self.record.len() - 1;
        &mut self.record[n]
    }

    fn play_uci(&mut self, seat: Seat, uci: &str) -> Result<Vec<Note>, RuleError> {
        let c = self.check_turn(seat)?;
        let moves = self.moves_now();
        let m = moves
            .iter()
            .find(|m| move_code(m) == uci)
            .copied()
            .ok_or_else(|| {
                RuleError::new(format!(
                    "{} is not a move you may make now",
                    uci.chars().take(10).collect::<String>()
                ))
            })?;
        let bonus = self.step != Step::Start;
        let mut notes = self.play(seat, c, m, bonus);
        if self.is_over() {
            return Ok(notes);
        }
        match self.step {
            Step::Owed => {
                self.owed[c.index()] = false;
                self.step = Step::Start;
            }
            Step::Start if self.guessed.is_some_and(|g| g.right) => {
                if self.bonus_moves(c).is_empty() {
                    notes.push(Note::public(Text::player(
                        seat,
                        " has no bonus move to make (no pawn move, no pawn to drop)",
                    )));
                    notes.extend(self.end_turn());
                } else {
                    self.step = Step::Bonus;
                }
            }
            _ => notes.extend(self.end_turn()),
        }
        Ok(notes)
    }

    fn skip(&mut self, seat: Seat) -> Result<Vec<Note>, RuleError> {
        let c = self.check_turn(seat)?;
        match self.step {
            Step::Owed => {
                self.owed[c.index()] = false;
                self.step = Step::Start;
                Ok(vec![Note::public(Text::player(
                    seat,
                    " does without the bonus move",
                ))])
            }
            Step::Bonus => {
                self.turn_rec().events.push(Event::Skip);
                let mut notes = vec![Note::public(Text::player(
                    seat,
                    " does without the bonus move",
                ))];
                notes.extend(self.end_turn());
                Ok(notes)
            }
            _ => Err(RuleError::new(
                "there is no bonus move to skip: make your move",
            )),
        }
    }

    fn uncloak(&mut self, seat: Seat, ids: &[u8]) -> Result<Vec<Note>, RuleError> {
        let c = self.check_turn(seat)?;
        if ids.is_empty() {
            return Err(RuleError::syntax(concat!(
                "name the checkers to uncloak: ",
                crate::variants::api::command_mark_str!("uncloak 3 5")
            )));
        }
        let mut queue = self.queue.clone();
        for &id in ids {
            let sq = self
                .board
                .find(c, id)
                .ok_or_else(|| RuleError::new(format!("you have no checker {id} on the board")))?;
            let man = self
                .board
                .get(sq)
                .filter(|m| m.cloaked)
                .ok_or_else(|| RuleError::new(format!("checker {id} is already uncloaked")))?;
            if queue.contains(&id) {
                continue;
            }
            if man.role == Role::King && self.board.in_check(c, true, &self.knowledge()) {
                return Err(RuleError::new(
                    "your king stands in check from a piece you know: an uncloaked king may not, so it cannot uncloak now",
                ));
            }
            queue.push(id);
        }
        let before = std::mem::replace(&mut self.queue, queue.clone());
        if self.step == Step::Start && self.regular_moves(c).is_empty() {
            self.queue = before;
            return Err(RuleError::new(
                "with your king uncloaked you would have no legal move: keep it cloaked",
            ));
        }
        let list: Vec<String> = queue.iter().map(|i| i.to_string()).collect();
        Ok(vec![Note::public(Text::player(
            seat,
            format!(
                " will uncloak checker{} {} at the end of the turn",
                if queue.len() == 1 { "" } else { "s" },
                list.join(", ")
            ),
        ))])
    }

    /// Plays `m` for `c` and notes it for everyone.
    fn play(&mut self, seat: Seat, c: Color, m: Move, bonus: bool) -> Vec<Note> {
        let i = c.index();
        let unmoved = self.unmoved[i];
        let mover = self.board.get(m.from);
        let (board, taken) = self.board.after(c, &m, unmoved);
        let mut played = Played {
            id: mover.map_or(0, |x| x.id),
            role: m.role.upper_char(),
            from: m.from.index() as u8,
            to: m.to.index() as u8,
            capture: taken.map(|t| (t.id, t.role.upper_char())),
            promotion: m.promotion.map(|p| p.upper_char()),
            castle: None,
            drop: m.kind == MoveKind::Drop,
            en_passant: m.kind == MoveKind::EnPassant,
            bonus,
        };
        if let MoveKind::Castle(side) = m.kind {
            if let Some(r) = self.board.castling_rook(c, side, unmoved) {
                let rook = self.board.get(r).map_or(0, |x| x.id);
                played.castle = Some((side == crate::rules::CastlingSide::KingSide, rook));
                self.known[i][rook as usize] = true;
                self.unmoved[i] &= !(1 << rook);
            }
            if let Some(k) = mover {
                self.known[i][k.id as usize] = true;
            }
        }
        if let Some(x) = mover {
            self.unmoved[i] &= !(1u16 << x.id);
        }
        if m.kind == MoveKind::Drop {
            self.hand[i] = self.hand[i].saturating_sub(1);
        }
        self.board = board;
        self.ep = (m.role == Role::Pawn && m.from.rank().abs_diff(m.to.rank()) == 2)
            .then(|| Square::new(m.from.file(), (m.from.rank() + m.to.rank()) / 2).index() as u8);
        self.last = Some((m.from.index() as u8, m.to.index() as u8));
        let o = c.opposite().index();
        if let Some(t) = taken {
            if t.id > 0 {
                self.known[o][t.id as usize] = true;
            } else if t.role == Role::Pawn {
                self.hand[o] += 1;
            }
        }
        let text =
            super::record::move_text(&played, c, |col, id| self.known[col.index()][id as usize]);
        self.turn_rec().events.push(Event::Move(played));
        let mut line = Text::player(
            seat,
            format!(
                " plays {}{text}",
                if bonus { "the bonus move " } else { "" }
            ),
        );
        if let Some(t) = taken {
            if t.id > 0 {
                line = line.push(format!("; checker {} was the {}", t.id, role_word(t.role)));
            }
            if t.role == Role::King {
                self.duel
                    .finish(Ended::Rules(CloakEnd::KingCaptured(seat)), &CLOAK_WORDS);
                line = line
                    .push(": the king is captured, ")
                    .push_player(seat)
                    .push(" wins");
            }
        }
        vec![Note::moved(line)]
    }

    /// Ends the turn: the queued checkers are uncloaked, the turn passes, and the game
    /// ends if the next player has no legal move (checkmate of an uncloaked king in check
    /// by a known piece, stalemate otherwise) or only the kings are left.
    fn end_turn(&mut self) -> Vec<Note> {
        let seat = Seat(self.turn);
        let c = color(self.turn);
        let mut notes = Vec::new();
        if !self.queue.is_empty() {
            let mut words = Vec::new();
            let mut ids = Vec::new();
            for id in std::mem::take(&mut self.queue) {
                if let Some(sq) = self.board.find(c, id) {
                    if let Some(mut man) = self.board.get(sq) {
                        man.cloaked = false;
                        self.board.set(sq, Some(man));
                        self.known[c.index()][id as usize] = true;
                        ids.push(id);
                        words.push(format!("{id} (the {} on {sq})", role_word(man.role)));
                    }
                }
            }
            self.turn_rec().events.push(Event::Uncloak(ids));
            notes.push(Note::moved(Text::player(
                seat,
                format!(" uncloaks {}", words.join(", ")),
            )));
        }
        self.turn_rec().done = true;
        self.turns_done += 1;
        self.guessed = None;
        if c == Color::Black {
            self.number += 1;
        }
        self.duel.play_on(seat);
        self.turn ^= 1;
        let next = color(self.turn);
        let next_seat = Seat(self.turn);
        if self.board.men().all(|(_, m)| m.role == Role::King) {
            self.duel
                .finish(Ended::Rules(CloakEnd::BareKings), &CLOAK_WORDS);
            notes.push(Note::moved(Text::plain(
                "only the two kings are left: the game is drawn",
            )));
            return notes;
        }
        let check = self.board.in_check(next, false, &self.knowledge());
        if self.regular_moves(next).is_empty() {
            if check {
                self.duel
                    .finish(Ended::Rules(CloakEnd::Checkmate(seat)), &CLOAK_WORDS);
                notes.push(Note::moved(
                    Text::plain("checkmate: ").push_player(seat).push(" wins"),
                ));
            } else {
                self.duel
                    .finish(Ended::Rules(CloakEnd::Stalemate), &CLOAK_WORDS);
                notes.push(Note::moved(Text::player(
                    next_seat,
                    " has no legal move: stalemate, the game is drawn",
                )));
            }
            return notes;
        }
        if check {
            notes.push(Note::public(Text::player(
                next_seat,
                "'s uncloaked king is in check",
            )));
        }
        self.step = Step::Start;
        if self.owed[next.index()] {
            if self.bonus_moves(next).is_empty() {
                self.owed[next.index()] = false;
                notes.push(Note::public(Text::player(
                    next_seat,
                    " is owed a bonus move but has none to make (no pawn move, no pawn to drop)",
                )));
            } else {
                self.step = Step::Owed;
            }
        }
        notes
    }

    /// The outcome, in the referee's form.
    pub fn outcome(&self) -> Option<GameOutcome> {
        self.duel.outcome(|end| match end {
            CloakEnd::KingCaptured(s) => GameOutcome::new(won_by(s), EndReason::KingCaptured),
            CloakEnd::Checkmate(s) => GameOutcome::new(won_by(s), EndReason::Checkmate),
            CloakEnd::Stalemate => GameOutcome::new("1/2-1/2", EndReason::Stalemate),
            CloakEnd::BareKings => GameOutcome::new("1/2-1/2", BARE_KINGS),
        })
    }

    /// The back rank of `seat` once set up.
    pub fn arrangement(&self, seat: u8) -> Option<Arrangement> {
        self.setups
            .get(seat as usize)?
            .as_deref()
            .and_then(|t| parse_arrangement(t).ok())
    }

    /// The man standing where `c`'s checker `id` is.
    pub fn checker(&self, c: Color, id: u8) -> Option<(Square, Man)> {
        let sq = self.board.find(c, id)?;
        self.board.get(sq).map(|m| (sq, m))
    }

    /// The home rank's squares of `c`, for tests.
    pub fn home(c: Color) -> Vec<Square> {
        (0..8).map(|f| Square::new(f, home_rank(c))).collect()
    }
}
