//! [`GameRules`] for Secret Chesswords (`docs/rules/chesswords.md`): two partners on the
//! engine's Chesswords board (Los Alamos without check), a letter on every square, secret
//! hands of piece cards, turns of a clue (or pass) and a move named by a word's first and
//! last letters, discards that place checkers, and the finale of secret words, clues and
//! guesses that ends in a score and a grade.
//!
//! The moves are the engine's [`Game`]; everything else is [`State`], which is also the
//! snapshot. Secrets (the deal, the hands, the pile, the words before their reveal) leave
//! the state only through private events, [`GameRules::secret_summary`] and
//! [`GameRules::instructions`] of their own seat, and the export once the game is over.
//! The deal is a hidden draw from the operating system's entropy, stored in the state, and
//! discards are optional and private: nothing public depends on whether a player holds a
//! card that qualifies (rules 4, 6 and 8).

use super::cards::{self, Card, Deal};
use super::letters::LetterGrid;
use super::score::{self, PlayerScore};
use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::pgn::{numbered_moves, turn_sans};
use crate::notation::{parse_move, san, write_pgn_ending};
use crate::render::{self, BoardView, Disc, Overlay};
use crate::rules::{Color, Game, Move, Position, Role, Square, Variant};
use crate::service::chess::{diagram, find_uci, pgn_tags};
use crate::service::random::Hidden;
use crate::service::rules::{
    Action, Event, GameOptions, GameOutcome, GameRules, Prompt, RuleError, Seat, View, Viewer,
};
use serde::{Deserialize, Serialize};

/// The longest clue, in characters (rule 5).
pub const MAX_CLUE: usize = 100;

/// The finale timer's range, in minutes (rule 10).
pub const TIMER_MINUTES: std::ops::RangeInclusive<u8> = 1..=5;

/// White's seat and Black's.
const SEATS: [Seat; 2] = [Seat(0), Seat(1)];

/// Why play ended (rule 8, and rule 13 for the mover's time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayEnd {
    /// A king was captured (after the discard the capture earned).
    KingCaptured,
    /// Both players passed in a row.
    Passes,
    /// The player about to move had no move that does not end on a checker.
    NoMoves,
    /// The mover's time ran out.
    Timeout,
}

impl PlayEnd {
    /// The name in outcomes and exports (`king-captured`).
    pub fn name(self) -> &'static str {
        match self {
            PlayEnd::KingCaptured => "king-captured",
            PlayEnd::Passes => "passes",
            PlayEnd::NoMoves => "no-moves",
            PlayEnd::Timeout => "timeout",
        }
    }

    fn words(self) -> &'static str {
        match self {
            PlayEnd::KingCaptured => "a king was captured",
            PlayEnd::Passes => "both players passed in a row",
            PlayEnd::NoMoves => "the player to move has no move that does not end on a checker",
            PlayEnd::Timeout => "the mover's time ran out",
        }
    }
}

/// Where the game stands: whom it waits for, and for what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The partner of the side to move gives a clue or passes.
    Clue,
    /// The side to move moves: with a word or its letters after a clue (`clue: Some`),
    /// freely after a pass (`clue: None`).
    Move {
        /// The clue given, or `None` after a pass.
        clue: Option<String>,
    },
    /// Games stored before discards were private only: `holder` chooses which of two
    /// qualifying kinds of card to discard, and the game waits.
    Discard {
        /// Who discards.
        holder: Seat,
        /// The kinds of card that qualify, in hand order.
        options: Vec<Card>,
        /// Where the checker goes: the capturing piece's starting square.
        square: String,
    },
    /// Play is over with a discard still open to `holder`, who decides privately whether
    /// to discard before the finale (rule 8). Entered whenever play ends with a discard
    /// open, whatever the holder holds.
    LastDiscard {
        /// Who decides.
        holder: Seat,
    },
    /// Both players submit their finale words privately (rule 9).
    Words,
    /// `giver` gives a clue for one of their words (rule 11).
    FinaleClue {
        /// Whose words are being guessed.
        giver: Seat,
    },
    /// The partner of `giver` guesses.
    FinaleGuess {
        /// Whose words are being guessed.
        giver: Seat,
    },
    /// The game is over (scored, resigned or aborted).
    Over,
}

/// A discarded card and the checker it placed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discarded {
    /// Who discarded it.
    pub by: Seat,
    /// The card, face up from now on.
    pub card: Card,
    /// The checker's square.
    pub square: String,
    /// How many moves had been played when it was placed (the position it first shows in).
    pub ply: usize,
}

/// A discard a capture has opened (rule 6): the holder may discard a card equal to
/// `captured` or to `capturer` until their next public action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenDiscard {
    /// The player whose piece was captured, who may discard.
    pub holder: Seat,
    /// The captured piece, as a card (the holder's colour).
    pub captured: Card,
    /// The capturing piece, as a card (the partner's colour; a promoting pawn is a pawn).
    pub capturer: Card,
    /// Where the checker goes: the capturing piece's starting square.
    pub square: String,
}

/// One player's part of the finale: the clue for their words and the partner's guess.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinaleTurn {
    /// The clue for one of the player's words.
    pub clue: Option<String>,
    /// The partner's guess.
    pub guess: Option<String>,
    /// Whether the partner guessed one of the words; `None` until settled.
    pub guessed: Option<bool>,
}

/// Everything of a game but the engine's positions: the snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The seed the letters were drawn with (and the deal, in games stored before deals
    /// were hidden draws): secret until the game is over.
    pub seed: u64,
    /// Minutes for the finale's words (`timer:N`), if set.
    pub timer_minutes: Option<u8>,
    /// The starting position, FEN, when the game did not start from the usual one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The letter grid.
    pub letters: LetterGrid,
    /// The cards as dealt: a hidden draw, kept so that the game's record replays to the
    /// same cards. `None` in games stored before, whose deal is [`cards::seed_deal`] of
    /// `seed`. Secret until the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<Deal>,
    /// Whether discards are optional and private (rules 6 and 8). `false` in games stored
    /// before, which keep the discard rules they began with (one qualifying kind
    /// discarded at once, a choice between two asked while the game waits), so that their
    /// logs replay to the same state.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret_discards: bool,
    /// The moves played, UCI.
    pub moves: Vec<String>,
    /// White's hand and Black's: secret.
    pub hands: [Vec<Card>; 2],
    /// The draw pile, top card first: secret.
    pub pile: Vec<Card>,
    /// The discards, in order; each placed a checker.
    pub discards: Vec<Discarded>,
    /// The discard the last capture opened, until its holder discards or makes their next
    /// public action: secret in that the cards it allows are known only to the holder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_discard: Option<OpenDiscard>,
    /// Penalty points: moves made by naming their letters.
    pub penalties: u32,
    /// Whether a king was captured.
    pub king_captured: bool,
    /// Whether the last clue half of play was a pass.
    pub last_pass: bool,
    /// Where the game stands.
    pub phase: Phase,
    /// Why play ended, once it has.
    pub play_end: Option<PlayEnd>,
    /// Each player's finale words (upper case; empty: none), once submitted: secret
    /// until revealed.
    pub words: [Option<Vec<String>>; 2],
    /// Each player's finale clue and the partner's guess.
    pub finale: [FinaleTurn; 2],
    /// The outcome, once the game is over.
    pub outcome: Option<GameOutcome>,
    /// Whether the game was aborted.
    pub aborted: bool,
}

/// A Secret Chesswords game.
#[derive(Clone, Debug)]
pub struct Chesswords {
    state: State,
    game: Game,
}

/// The position a stored game started from.
fn start_position(state: &State) -> Result<Position, RuleError> {
    match &state.start {
        None => Ok(Position::start(Variant::Chesswords)),
        Some(f) => parse_fen(Variant::Chesswords, f)
            .map_err(|e| RuleError::new(format!("snapshot start: {e}"))),
    }
}

fn color_of(seat: Seat) -> Result<Color, RuleError> {
    match seat.0 {
        0 => Ok(Color::White),
        1 => Ok(Color::Black),
        _ => Err(RuleError::new("Secret Chesswords has two seats")),
    }
}

fn seat_of(color: Color) -> Seat {
    Seat(color.index() as u8)
}

fn partner(seat: Seat) -> Seat {
    Seat(u8::from(seat.0 == 0))
}

/// `White` or `Black`, as in sentences.
fn side(seat: Seat) -> &'static str {
    if seat.0 == 0 {
        "White"
    } else {
        "Black"
    }
}

fn said(text: impl Into<String>) -> Event {
    Event::Said(None, text.into())
}

fn whisper(seat: Seat, text: impl Into<String>) -> Event {
    Event::Said(Some(seat), text.into())
}

/// Cards to choose from, as a sentence: `the white pawn (wP) or the black pawn (bP)`.
fn card_choice(options: &[Card]) -> String {
    options
        .iter()
        .map(|c| format!("the {c} ({})", c.short()))
        .collect::<Vec<_>>()
        .join(" or ")
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// A clue as typed, trimmed, or why it is not one (rule 5: 1 to 100 characters on one
/// line).
fn clue_text(text: &str) -> Result<String, RuleError> {
    let clue = text.trim();
    if clue.is_empty() || clue.contains(['\n', '\r']) || clue.chars().count() > MAX_CLUE {
        return Err(RuleError::new(format!(
            "a clue is 1 to {MAX_CLUE} characters on one line: clue TEXT (or pass)"
        )));
    }
    Ok(clue.to_string())
}

/// Two letters, as typed for `letters XY MOVE`, in upper case.
fn two_letters(text: &str) -> Result<(char, char), RuleError> {
    let letters: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    match letters.as_slice() {
        [a, b] if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
            Ok((a.to_ascii_uppercase(), b.to_ascii_uppercase()))
        }
        _ => Err(RuleError::new(format!(
            "'{}' is not two letters: name the move's first and last letters, e.g. letters te Qc2",
            text.chars().take(20).collect::<String>()
        ))),
    }
}

impl Chesswords {
    /// A new game, its letters drawn from `options.seed` and its cards dealt by the
    /// operating system's entropy (from `options.hidden_seed` only where one is set, for
    /// reproducible games), from the Chesswords start or from `fen` (for testing and
    /// teaching), with the finale timer of `options.timer_minutes` (1 to 5).
    pub fn new(fen: Option<&str>, options: &GameOptions) -> Result<Chesswords, RuleError> {
        if let Some(t) = options.timer_minutes {
            if !TIMER_MINUTES.contains(&t) {
                return Err(RuleError::new(format!(
                    "timer:{t} is not allowed: the finale timer is 1 to 5 minutes (timer:3)"
                )));
            }
        }
        let start = match fen {
            None => Position::start(Variant::Chesswords),
            Some(f) => {
                parse_fen(Variant::Chesswords, f).map_err(|e| RuleError::new(e.to_string()))?
            }
        };
        let deal = cards::deal_from(&mut Hidden::new(options.hidden_seed));
        let game = Chesswords::set_up(start, options.seed, options.timer_minutes, Some(deal), true);
        if game.playable_moves().is_empty() {
            return Err(RuleError::new(
                "that position is already over: the side to move has no move",
            ));
        }
        Ok(game)
    }

    /// A game before its first action: from `start`, the letters of `seed`, the cards of
    /// `deal` (`None`: a game stored before deals were hidden draws, dealt from its seed).
    fn set_up(
        start: Position,
        seed: u64,
        timer_minutes: Option<u8>,
        deal: Option<Deal>,
        secret_discards: bool,
    ) -> Chesswords {
        let dealt = deal.clone().unwrap_or_else(|| cards::seed_deal(seed));
        Chesswords {
            state: State {
                seed,
                timer_minutes,
                start: (start != Position::start(Variant::Chesswords)).then(|| to_fen(&start)),
                letters: LetterGrid::from_seed(seed),
                deal,
                secret_discards,
                moves: Vec::new(),
                hands: dealt.hands,
                pile: dealt.pile,
                discards: Vec::new(),
                open_discard: None,
                penalties: 0,
                king_captured: false,
                last_pass: false,
                phase: Phase::Clue,
                play_end: None,
                words: [None, None],
                finale: Default::default(),
                outcome: None,
                aborted: false,
            },
            game: Game::from_position(start),
        }
    }

    /// The game `state` began as, before its first action: the same position, letters,
    /// timer, deal and discard rules. A game's action log replays from here, since its
    /// deal was a hidden draw that no seed gives again.
    pub fn initial(state: &State) -> Result<Chesswords, RuleError> {
        Ok(Chesswords::set_up(
            start_position(state)?,
            state.seed,
            state.timer_minutes,
            state.deal.clone(),
            state.secret_discards,
        ))
    }

    /// Rebuilds a game from its snapshot, replaying its moves.
    pub fn from_snapshot(state: &State) -> Result<Chesswords, RuleError> {
        let mut game = Game::from_position(start_position(state)?);
        for text in &state.moves {
            let m = find_uci(game.position(), text)
                .ok_or_else(|| RuleError::new(format!("snapshot move {text} is not legal")))?;
            game.play(m)
                .map_err(|e| RuleError::new(format!("snapshot move {text}: {e}")))?;
        }
        Ok(Chesswords {
            state: state.clone(),
            game,
        })
    }

    /// The state (the snapshot's content).
    pub fn state(&self) -> &State {
        &self.state
    }

    fn position(&self) -> &Position {
        self.game.position()
    }

    /// The squares under checkers, in the order they were placed.
    pub fn checkers(&self) -> Vec<Square> {
        self.state
            .discards
            .iter()
            .filter_map(|d| Square::parse(&d.square))
            .collect()
    }

    /// The letters under the checkers, in the order they were placed.
    pub fn marked_letters(&self) -> Vec<char> {
        self.checkers()
            .into_iter()
            .map(|sq| self.state.letters.letter_at(sq))
            .collect()
    }

    fn marked_text(&self) -> String {
        let mut letters: Vec<String> = self
            .marked_letters()
            .iter()
            .map(|c| c.to_string())
            .collect();
        letters.sort();
        letters.join(", ")
    }

    /// The legal moves now that do not end on a checker (rule 7).
    pub fn playable_moves(&self) -> Vec<Move> {
        let checkers = self.checkers();
        self.game
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !checkers.contains(&m.to))
            .collect()
    }

    /// The seat whose move it is (in play).
    fn mover(&self) -> Seat {
        seat_of(self.position().turn())
    }

    /// What the game waits for, as a sentence for refusals.
    fn waiting_for(&self) -> String {
        match &self.state.phase {
            Phase::Clue => format!(
                "{} gives a clue (clue TEXT) or passes, then {} moves",
                side(partner(self.mover())),
                side(self.mover())
            ),
            Phase::Move { clue: Some(_) } => format!(
                "{} names the word and moves (play WORD MOVE, or letters XY MOVE)",
                side(self.mover())
            ),
            Phase::Move { clue: None } => format!("{} moves freely", side(self.mover())),
            Phase::Discard { holder, .. } => {
                format!("{} is choosing a card to discard", side(*holder))
            }
            Phase::LastDiscard { holder } => format!(
                "play is over, and {} decides privately whether to discard for the last \
                 capture",
                side(*holder)
            ),
            Phase::Words => "play is over: the players are sending their words privately \
                 (words WORD1 WORD2)"
                .into(),
            Phase::FinaleClue { giver } => {
                format!("{} gives a clue for one of their words", side(*giver))
            }
            Phase::FinaleGuess { giver } => format!(
                "{} guesses {}'s word (guess WORD)",
                side(partner(*giver)),
                side(*giver)
            ),
            Phase::Over => "the game is over".into(),
        }
    }

    fn refuse<T>(&self, what: &str) -> Result<T, RuleError> {
        Err(RuleError::new(format!(
            "{what} now: {}",
            self.waiting_for()
        )))
    }

    fn letter(&self, sq: Square) -> char {
        self.state.letters.letter_at(sq)
    }

    /// The playable move whose UCI is `uci`, or why there is none.
    fn find_move(&self, uci: &str) -> Result<Move, RuleError> {
        let m = find_uci(self.position(), uci)
            .ok_or_else(|| RuleError::new(format!("{uci} is not a legal move here")))?;
        if self.checkers().contains(&m.to) {
            return Err(RuleError::new(format!(
                "{} has a checker: no piece may move onto a checker (sliding across one is \
                 allowed)",
                m.to
            )));
        }
        Ok(m)
    }

    // ----- play -----

    fn clue(&mut self, seat: Seat, text: &str) -> Result<Vec<Event>, RuleError> {
        match self.state.phase {
            Phase::Clue if seat == partner(self.mover()) => {
                let clue = clue_text(text)?;
                let events = vec![said(format!("{}'s clue: “{clue}”", side(seat)))];
                self.close_discard_of(seat);
                self.state.last_pass = false;
                self.state.phase = Phase::Move { clue: Some(clue) };
                Ok(events)
            }
            Phase::FinaleClue { giver } if seat == giver => {
                let clue = clue_text(text)?;
                let events = vec![said(format!(
                    "{}'s clue for one of their words: “{clue}”. {}: guess WORD",
                    side(seat),
                    side(partner(seat))
                ))];
                self.state.finale[seat.0 as usize].clue = Some(clue);
                self.state.phase = Phase::FinaleGuess { giver };
                Ok(events)
            }
            _ => self.refuse("you cannot give a clue"),
        }
    }

    fn pass(&mut self, seat: Seat) -> Result<Vec<Event>, RuleError> {
        if self.state.phase != Phase::Clue || seat != partner(self.mover()) {
            return match self.state.phase {
                Phase::FinaleClue { giver } if giver == seat => Err(RuleError::new(
                    "in the finale there is no passing: give a clue for one of your words \
                     (clue TEXT)",
                )),
                _ => self.refuse("you cannot pass"),
            };
        }
        let mut events = Vec::new();
        self.close_discard_of(seat);
        if self.state.last_pass {
            events.push(said(format!(
                "{} passes after {}'s pass",
                side(seat),
                side(partner(seat))
            )));
            self.end_play(PlayEnd::Passes, &mut events);
        } else {
            events.push(said(format!(
                "{} passes: {} moves freely",
                side(seat),
                side(partner(seat))
            )));
            self.state.last_pass = true;
            self.state.phase = Phase::Move { clue: None };
        }
        Ok(events)
    }

    /// The mover's move, checked against what the turn's first half allows: a word after
    /// a clue (`Some(Ok(word))`), two letters (`Some(Err(letters))`), nothing after a
    /// pass (`None`).
    fn play(
        &mut self,
        seat: Seat,
        said_with: Option<Result<&str, &str>>,
        uci: &str,
    ) -> Result<Vec<Event>, RuleError> {
        let clue = match &self.state.phase {
            Phase::Move { clue } if seat == self.mover() => clue.clone(),
            _ => return self.refuse("you cannot move"),
        };
        match (&clue, &said_with) {
            (Some(_), None) => {
                return Err(RuleError::new(
                    "after a clue say the word you guessed with your move: play WORD MOVE \
                     (or letters XY MOVE for a penalty point)",
                ))
            }
            (None, Some(_)) => {
                return Err(RuleError::new(format!(
                    "{} passed, so you move freely: move MOVE (no word or letters)",
                    side(partner(seat))
                )))
            }
            _ => {}
        }
        let m = self.find_move(uci)?;
        let (from, to) = (self.letter(m.from), self.letter(m.to));
        let note = match said_with {
            None => None,
            Some(Ok(word)) => {
                let word = score::word_form(word).map_err(RuleError::new)?;
                score::matches_move(&word, from, to).map_err(|e| {
                    RuleError::new(format!(
                        "{e}: choose a move from {}… to …{} of your word, or name the \
                         letters (letters XY MOVE, one penalty point)",
                        &word[..1],
                        &word[word.len() - 1..]
                    ))
                })?;
                Some(format!("with the word {word} ({from} to {to})"))
            }
            Some(Err(letters)) => {
                let (a, b) = two_letters(letters)?;
                if (a, b) != (from, to) {
                    return Err(RuleError::new(format!(
                        "the move goes from {from} to {to}, not from {a} to {b}"
                    )));
                }
                Some(format!(
                    "naming the letters {from} and {to}: one penalty point ({} in all)",
                    self.state.penalties + 1
                ))
            }
        };
        let before = *self.position();
        self.close_discard_of(seat);
        self.game
            .play(m)
            .map_err(|e| RuleError::new(e.to_string()))?;
        self.state.moves.push(m.uci());
        if matches!(said_with, Some(Err(_))) {
            self.state.penalties += 1;
        }
        let mut events = vec![Event::Moved {
            seat,
            san: san(&before, m),
        }];
        events.extend(note.map(said));
        self.after_move(seat, m, &mut events);
        Ok(events)
    }

    /// A capture opens a discard to the partner (rule 6), told to the partner privately
    /// and to nobody else; then play goes on or ends.
    fn after_move(&mut self, mover: Seat, m: Move, events: &mut Vec<Event>) {
        if !self.state.secret_discards {
            return self.after_move_before_secret_discards(mover, m, events);
        }
        if let Some(captured) = m.capture {
            let holder = partner(mover);
            if captured == Role::King {
                self.state.king_captured = true;
            }
            self.state.open_discard = Some(OpenDiscard {
                holder,
                captured: Card {
                    color: color_of_seat(holder),
                    role: captured,
                },
                capturer: Card {
                    color: color_of_seat(mover),
                    role: m.role,
                },
                square: m.from.to_string(),
            });
        }
        self.continue_play(events);
        // In play the holder is told privately what they may discard (at the end of play
        // the prompt of rule 8 tells them), after every capture, whether or not a card
        // fits: even the coming and going of private messages tells nothing.
        if let (Some(open), Phase::Clue) = (&self.state.open_discard, &self.state.phase) {
            let options = self.discardable(open);
            let what = if options.is_empty() {
                format!(
                    "with their {} would let you discard a card of either piece, and you hold \
                     neither",
                    open.capturer.role.name()
                )
            } else {
                format!(
                    "lets you discard {}, if you wish: send me discard CARD privately before \
                     your next move",
                    card_choice(&options)
                )
            };
            events.push(whisper(
                open.holder,
                format!(
                    "{}'s capture of your {} {what}. Your hand: {}",
                    side(mover),
                    open.captured.role.name(),
                    cards::hand_text(&self.state.hands[open.holder.0 as usize])
                ),
            ));
        }
    }

    /// The kinds of card in the holder's hand that `open` lets them discard, in hand order.
    fn discardable(&self, open: &OpenDiscard) -> Vec<Card> {
        cards::qualifying(
            &self.state.hands[open.holder.0 as usize],
            open.captured.color,
            open.captured.role,
            open.capturer.role,
        )
    }

    /// A public action of `seat` closes the discard open to them (rule 6).
    fn close_discard_of(&mut self, seat: Seat) {
        if self
            .state
            .open_discard
            .as_ref()
            .is_some_and(|o| o.holder == seat)
        {
            self.state.open_discard = None;
        }
    }

    /// `discard CARD` (or `discard none` as play ends) under rules 6 and 8, sent privately:
    /// a refusal goes only to the sender, and only a discard is announced.
    fn discard_secretly(&mut self, seat: Seat, text: &str) -> Result<Vec<Event>, RuleError> {
        let none = text.trim().eq_ignore_ascii_case("none");
        let open = match (&self.state.phase, &self.state.open_discard) {
            (Phase::Clue | Phase::Move { .. } | Phase::LastDiscard { .. }, Some(o))
                if o.holder == seat =>
            {
                o.clone()
            }
            _ => {
                return Err(RuleError::new(
                    "you have no discard open: when your partner captures one of your pieces \
                     you may discard a matching card, until your next move",
                ))
            }
        };
        let last = matches!(self.state.phase, Phase::LastDiscard { .. });
        let mut events = Vec::new();
        if none {
            if !last {
                return Err(RuleError::new(
                    "there is nothing to decline: you may discard until your next move, and \
                     keep your cards by simply moving",
                ));
            }
        } else {
            let card = Card::parse(text).map_err(RuleError::new)?;
            let options = self.discardable(&open);
            if !options.contains(&card) {
                let keep = if last { " (or discard none)" } else { "" };
                return Err(RuleError::new(match options.first() {
                    None => format!(
                        "no card in your hand fits: the capture of your {} by their {} lets you \
                         discard a card of either piece, and you hold neither{}",
                        open.captured.role.name(),
                        open.capturer.role.name(),
                        if last { ": discard none" } else { "" }
                    ),
                    Some(first) => format!(
                        "you may discard {}: discard {}{keep}",
                        card_choice(&options),
                        first.short()
                    ),
                }));
            }
            let square =
                Square::parse(&open.square).ok_or_else(|| RuleError::new("bad checker square"))?;
            self.discard(seat, card, square, &mut events);
        }
        self.state.open_discard = None;
        if last {
            self.begin_finale(&mut events);
        } else if self.playable_moves().is_empty() {
            // The new checker leaves the player to move without a move.
            self.end_play(PlayEnd::NoMoves, &mut events);
        }
        Ok(events)
    }

    /// Games stored before discards were private: a capture's one qualifying kind of card
    /// is discarded at once, and a choice between two is asked while the game waits.
    fn after_move_before_secret_discards(&mut self, mover: Seat, m: Move, events: &mut Vec<Event>) {
        if let Some(captured) = m.capture {
            let holder = partner(mover);
            if captured == Role::King {
                self.state.king_captured = true;
            }
            let hand = &self.state.hands[holder.0 as usize];
            let options = cards::qualifying(hand, color_of_seat(holder), captured, m.role);
            match options.as_slice() {
                [] => {}
                [only] => self.discard(holder, *only, m.from, events),
                _ => {
                    events.push(said(format!(
                        "{} may discard one of two kinds of card and is choosing (privately)",
                        side(holder)
                    )));
                    self.state.phase = Phase::Discard {
                        holder,
                        options,
                        square: m.from.to_string(),
                    };
                    return;
                }
            }
        }
        self.continue_play(events);
    }

    /// Discards `card` from `holder`'s hand, places a checker on `square` and draws.
    fn discard(&mut self, holder: Seat, card: Card, square: Square, events: &mut Vec<Event>) {
        let h = holder.0 as usize;
        if let Some(i) = self.state.hands[h].iter().position(|c| *c == card) {
            self.state.hands[h].remove(i);
        }
        self.state.discards.push(Discarded {
            by: holder,
            card,
            square: square.to_string(),
            ply: self.state.moves.len(),
        });
        events.push(said(format!(
            "{} discards the {card}: a checker on {square} marks the letter {}",
            side(holder),
            self.letter(square)
        )));
        if self.state.pile.is_empty() {
            events.push(said(format!(
                "the pile is empty: {} draws nothing",
                side(holder)
            )));
        } else {
            let drawn = self.state.pile.remove(0);
            self.state.hands[h].push(drawn);
            events.push(said(format!(
                "{} draws a card ({} left in the pile)",
                side(holder),
                self.state.pile.len()
            )));
            events.push(whisper(
                holder,
                format!(
                    "you drew the {drawn}; your hand: {}",
                    cards::hand_text(&self.state.hands[h])
                ),
            ));
        }
    }

    fn choose_discard(&mut self, seat: Seat, text: &str) -> Result<Vec<Event>, RuleError> {
        let (options, square) = match &self.state.phase {
            Phase::Discard {
                holder,
                options,
                square,
            } if *holder == seat => (options.clone(), square.clone()),
            _ => return self.refuse("there is no discard for you to choose"),
        };
        let card = Card::parse(text).map_err(RuleError::new)?;
        if !options.contains(&card) {
            return Err(RuleError::new(format!(
                "you may discard {}: discard {}",
                options
                    .iter()
                    .map(|c| format!("the {c} ({})", c.short()))
                    .collect::<Vec<_>>()
                    .join(" or "),
                options[0].short()
            )));
        }
        let square = Square::parse(&square).ok_or_else(|| RuleError::new("bad checker square"))?;
        let mut events = Vec::new();
        self.discard(seat, card, square, &mut events);
        self.continue_play(&mut events);
        Ok(events)
    }

    /// After a move and its discard: play ends on a captured king or a mover without
    /// moves; otherwise the next clue.
    fn continue_play(&mut self, events: &mut Vec<Event>) {
        if self.state.king_captured {
            self.end_play(PlayEnd::KingCaptured, events);
        } else if self.playable_moves().is_empty() {
            self.end_play(PlayEnd::NoMoves, events);
        } else {
            self.state.phase = Phase::Clue;
        }
    }

    /// Play is over: the holder of a discard still open decides on it (rule 8), then the
    /// finale.
    fn end_play(&mut self, why: PlayEnd, events: &mut Vec<Event>) {
        self.state.play_end = Some(why);
        if let Some(open) = &self.state.open_discard {
            events.push(said(format!(
                "play is over: {}. {} may still discard for {}'s last capture and decides \
                 privately (discard CARD or discard none) before the finale",
                why.words(),
                side(open.holder),
                side(partner(open.holder))
            )));
            self.state.phase = Phase::LastDiscard {
                holder: open.holder,
            };
            return;
        }
        self.begin_finale(events);
    }

    /// The finale's words, or the score at once when nothing is marked.
    fn begin_finale(&mut self, events: &mut Vec<Event>) {
        let why = self.state.play_end.unwrap_or(PlayEnd::NoMoves);
        if self.state.discards.is_empty() {
            events.push(said(format!(
                "play is over: {}. No letters are marked, so there is no finale",
                why.words()
            )));
            self.score(events);
            return;
        }
        let timer = match self.state.timer_minutes {
            Some(t) => format!(" within {}", plural(t as usize, "minute")),
            None => String::new(),
        };
        events.push(said(format!(
            "play is over: {}. The marked letters are {}. Each player sends me two words \
             made from them privately{timer}: words WORD1 WORD2 (or words none)",
            why.words(),
            self.marked_text()
        )));
        self.state.phase = Phase::Words;
    }

    // ----- the finale -----

    fn submit_words(&mut self, seat: Seat, words: &[String]) -> Result<Vec<Event>, RuleError> {
        if self.state.phase != Phase::Words {
            return self.refuse("words are not asked for");
        }
        let words: Vec<String> = match words {
            [] => Vec::new(),
            [a, b] => vec![
                score::word_form(a).map_err(RuleError::new)?,
                score::word_form(b).map_err(RuleError::new)?,
            ],
            _ => {
                return Err(RuleError::new(
                    "send two words: words WORD1 WORD2 (or words none)",
                ))
            }
        };
        let unused =
            score::letters_unused(&words, &self.marked_letters()).map_err(RuleError::new)?;
        let first = self.state.words[seat.0 as usize].is_none();
        let mut events = vec![whisper(
            seat,
            if words.is_empty() {
                "you submitted no words".to_string()
            } else {
                format!(
                    "your words: {} and {} ({} of the marked letters unused)",
                    words[0], words[1], unused
                )
            },
        )];
        self.state.words[seat.0 as usize] = Some(words);
        if first {
            events.push(said(format!("{} has submitted their words", side(seat))));
        }
        if self.state.words.iter().all(Option::is_some) {
            self.finale_turn(SEATS[0], &mut events);
        } else {
            events.push(whisper(
                seat,
                "you may replace them until your partner has submitted",
            ));
        }
        Ok(events)
    }

    /// The finale turn of `giver`, or of the next player with words, or the score.
    fn finale_turn(&mut self, giver: Seat, events: &mut Vec<Event>) {
        for g in SEATS.into_iter().filter(|s| s.0 >= giver.0) {
            let has_words = self.state.words[g.0 as usize]
                .as_ref()
                .is_some_and(|w| !w.is_empty());
            if has_words {
                events.push(said(format!(
                    "{}: give a clue for one of your words (clue TEXT)",
                    side(g)
                )));
                self.state.phase = Phase::FinaleClue { giver: g };
                return;
            }
            events.push(said(format!(
                "{} has no words: {} has nothing to guess",
                side(g),
                side(partner(g))
            )));
            self.state.finale[g.0 as usize].guessed = Some(false);
        }
        self.score(events);
    }

    fn guess(&mut self, seat: Seat, text: &str) -> Result<Vec<Event>, RuleError> {
        let giver = match self.state.phase {
            Phase::FinaleGuess { giver } if seat == partner(giver) => giver,
            _ => return self.refuse("you cannot guess"),
        };
        let word = score::word_form(text).map_err(RuleError::new)?;
        let right = self.words_of(giver).contains(&word);
        let mut events = vec![said(format!(
            "{} guesses {word}: {}",
            side(seat),
            if right {
                "right!"
            } else {
                "not one of the words"
            }
        ))];
        let turn = &mut self.state.finale[giver.0 as usize];
        turn.guess = Some(word);
        turn.guessed = Some(right);
        self.reveal(giver, &mut events);
        Ok(events)
    }

    fn words_of(&self, seat: Seat) -> Vec<String> {
        self.state.words[seat.0 as usize]
            .clone()
            .unwrap_or_default()
    }

    /// Reveals `giver`'s words and moves on to the next finale turn.
    fn reveal(&mut self, giver: Seat, events: &mut Vec<Event>) {
        let words = self.words_of(giver);
        events.push(Event::Revealed(vec![(
            giver,
            format!("had the words {}", words.join(" and ")),
        )]));
        match giver.0 {
            0 => self.finale_turn(SEATS[1], events),
            _ => self.score(events),
        }
    }

    /// Each player's score (rule 12).
    pub fn scores(&self) -> [PlayerScore; 2] {
        let marked = self.marked_letters();
        SEATS.map(|s| {
            score::player_score(
                &self.words_of(s),
                self.state.finale[s.0 as usize].guessed == Some(true),
                self.state.king_captured,
                &marked,
            )
        })
    }

    fn score(&mut self, events: &mut Vec<Event>) {
        let scores = self.scores();
        let total = score::game_total(&scores, self.state.penalties);
        let grade = score::grade(total);
        let part = |s: Seat| {
            let p = scores[s.0 as usize];
            let words = self.words_of(s);
            let product = if p.product > 0 {
                format!(
                    "{} guessed: {}",
                    words.join(" and "),
                    words
                        .iter()
                        .map(|w| w.len().to_string())
                        .collect::<Vec<_>>()
                        .join(" × ")
                )
            } else {
                "no word guessed: 0".to_string()
            };
            format!(
                "{} {} ({product}, king +{}, unused letters -{})",
                side(s),
                p.total(),
                p.king_bonus,
                p.unused
            )
        };
        events.push(said(format!(
            "score: {}; {}; penalty points -{}; total {total}: {}",
            part(SEATS[0]),
            part(SEATS[1]),
            self.state.penalties,
            if grade.is_win() {
                format!("grade {}", grade.letter())
            } else {
                "below 50, the game is lost (F)".to_string()
            }
        )));
        let outcome = GameOutcome {
            result: grade.letter().to_string(),
            reason: self
                .state
                .play_end
                .map_or("no-moves", PlayEnd::name)
                .to_string(),
            score: Some(scores.iter().map(PlayerScore::total).collect()),
        };
        self.state.phase = Phase::Over;
        self.state.outcome = Some(outcome.clone());
        events.push(Event::Ended(outcome));
    }

    // ----- time -----

    /// `seat`'s time ran out (rule 13): a clue giver passes, a mover ends play (losing a
    /// discard still open to them), a holder deciding on the last discard discards nothing
    /// (in games stored before: a discard chooser discards the first of the options), a
    /// player without words has none, a finale clue or guess scores that word 0.
    fn timeout(&mut self, seat: Seat) -> Result<Vec<Event>, RuleError> {
        let late = format!("{}'s time ran out", side(seat));
        match self.state.phase.clone() {
            Phase::Clue if seat == partner(self.mover()) => {
                let mut events = vec![said(format!("{late}: that is a pass"))];
                events.extend(self.pass(seat)?);
                Ok(events)
            }
            Phase::Move { .. } if seat == self.mover() => {
                let mut events = Vec::new();
                events.push(said(late));
                self.close_discard_of(seat);
                self.end_play(PlayEnd::Timeout, &mut events);
                Ok(events)
            }
            Phase::LastDiscard { holder } if holder == seat => {
                let mut events = vec![said(format!("{late}: no discard"))];
                self.state.open_discard = None;
                self.begin_finale(&mut events);
                Ok(events)
            }
            Phase::Discard {
                holder, options, ..
            } if holder == seat => {
                let mut events = vec![said(format!(
                    "{late}: the first qualifying card in the hand is discarded"
                ))];
                events.extend(self.choose_discard(seat, &options[0].short())?);
                Ok(events)
            }
            Phase::Words if self.state.words[seat.0 as usize].is_none() => {
                let mut events = vec![said(format!("{late}: {} has no words", side(seat)))];
                self.state.words[seat.0 as usize] = Some(Vec::new());
                if self.state.words.iter().all(Option::is_some) {
                    self.finale_turn(SEATS[0], &mut events);
                }
                Ok(events)
            }
            Phase::FinaleClue { giver } if giver == seat => {
                let mut events = vec![said(format!(
                    "{late}: no clue, so {} has nothing to guess",
                    side(partner(seat))
                ))];
                self.state.finale[seat.0 as usize].guessed = Some(false);
                self.reveal(seat, &mut events);
                Ok(events)
            }
            Phase::FinaleGuess { giver } if partner(giver) == seat => {
                let mut events = vec![said(format!("{late}: no guess"))];
                self.state.finale[giver.0 as usize].guessed = Some(false);
                self.reveal(giver, &mut events);
                Ok(events)
            }
            _ => Err(RuleError::new(format!(
                "{} is not being waited for: {}",
                side(seat),
                self.waiting_for()
            ))),
        }
    }

    // ----- what is shown -----

    /// The board as everyone sees it: letters on every square, checkers as discs.
    fn board(&self, bottom: Color) -> BoardView {
        let mut view =
            BoardView::from_position(self.position(), self.game.moves().last().copied(), bottom);
        self.dress(&mut view, self.state.discards.len());
        view.caption.to_move = self.to_move();
        view.caption.result = self.banner();
        view
    }

    /// Adds the letters and the first `discards` checkers to a view.
    fn dress(&self, view: &mut BoardView, discards: usize) {
        view.overlays
            .push(Overlay::Letters(self.state.letters.letters()));
        let discs: Vec<Disc> = self.state.discards[..discards]
            .iter()
            .filter_map(|d| {
                Some(Disc {
                    square: Square::parse(&d.square)?,
                    color: color_of_seat(d.by),
                    label: None,
                })
            })
            .collect();
        if !discs.is_empty() {
            view.overlays.push(Overlay::Discs(discs));
        }
    }

    /// The colour of the one seat awaited, for the caption.
    fn to_move(&self) -> Option<Color> {
        match self.awaiting().as_slice() {
            [(seat, _)] => Some(color_of_seat(*seat)),
            _ => None,
        }
    }

    /// The result banner, once the game is over.
    fn banner(&self) -> Option<String> {
        if self.state.aborted {
            return Some("Aborted".into());
        }
        let o = self.state.outcome.as_ref()?;
        let total: i32 =
            o.score.as_ref().map_or(0, |s| s.iter().sum::<i32>()) - self.state.penalties as i32;
        Some(match (o.result.as_str(), o.reason.as_str()) {
            (_, "resignation") => "Lost (F) · resignation".to_string(),
            ("F", _) => format!("Lost (F) · {total} points"),
            (g, _) => format!("Grade {g} · {total} points"),
        })
    }

    fn text_diagram(&self) -> String {
        let mut out = diagram(self.position());
        let checkers = self.checkers();
        out.push_str("\nletters (a checker marks the lower-case ones):\n");
        for row in (0..6u8).rev() {
            out.push((b'1' + row) as char);
            out.push(' ');
            for file in 0..6u8 {
                let sq = Square::new(file, row);
                let c = self.letter(sq);
                out.push(if checkers.contains(&sq) {
                    c.to_ascii_lowercase()
                } else {
                    c
                });
            }
            out.push('\n');
        }
        out.push_str("  abcdef");
        let counts = format!(
            "\ncards: White holds {}, Black {}, the pile {}",
            self.state.hands[0].len(),
            self.state.hands[1].len(),
            self.state.pile.len()
        );
        out.push_str(&counts);
        if self.state.penalties > 0 {
            out.push_str(&format!("; penalty points {}", self.state.penalties));
        }
        out
    }
}

fn color_of_seat(seat: Seat) -> Color {
    if seat.0 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

impl GameRules for Chesswords {
    fn variant(&self) -> &'static str {
        Variant::Chesswords.name()
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        side(seat)
    }

    fn awaiting(&self) -> Vec<(Seat, Prompt)> {
        match &self.state.phase {
            Phase::Clue => vec![(partner(self.mover()), Prompt::GiveClue)],
            Phase::Move { clue: Some(_) } => vec![(self.mover(), Prompt::PlayWord)],
            Phase::Move { clue: None } => vec![(self.mover(), Prompt::Move)],
            Phase::Discard { holder, .. } | Phase::LastDiscard { holder } => {
                vec![(*holder, Prompt::Discard)]
            }
            Phase::Words => SEATS
                .into_iter()
                .filter(|s| self.state.words[s.0 as usize].is_none())
                .map(|s| (s, Prompt::SubmitWords))
                .collect(),
            Phase::FinaleClue { giver } => vec![(*giver, Prompt::ClueForWord)],
            Phase::FinaleGuess { giver } => vec![(partner(*giver), Prompt::Guess)],
            Phase::Over => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, RuleError> {
        color_of(seat)?;
        if self.state.aborted {
            return Err(RuleError::new("the game was aborted"));
        }
        if self.state.phase == Phase::Over {
            return Err(RuleError::new("the game is over"));
        }
        // Work on a copy so that a refusal anywhere changes nothing.
        let mut next = self.clone();
        let events = match action {
            Action::Clue(text) => next.clue(seat, text),
            Action::Pass => next.pass(seat),
            Action::Play { word, mv } => next.play(seat, Some(Ok(word)), mv),
            Action::Letters { letters, mv } => next.play(seat, Some(Err(letters)), mv),
            Action::Move(mv) => next.play(seat, None, mv),
            Action::Discard(card) if self.state.secret_discards => {
                next.discard_secretly(seat, card)
            }
            Action::Discard(card) => next.choose_discard(seat, card),
            Action::Words(words) => next.submit_words(seat, words),
            Action::Guess(word) => next.guess(seat, word),
            Action::Timeout => next.timeout(seat),
            Action::Resign => {
                let outcome = GameOutcome {
                    result: score::Grade::Lost.letter().to_string(),
                    reason: "resignation".into(),
                    score: None,
                };
                next.state.phase = Phase::Over;
                next.state.outcome = Some(outcome.clone());
                Ok(vec![
                    said(format!(
                        "{} resigns: the partners lose the game together (F)",
                        side(seat)
                    )),
                    Event::Ended(outcome),
                ])
            }
            Action::Abort => {
                if !self.can_abort() {
                    return Err(RuleError::new(
                        "both sides have moved: the game can no longer be aborted (resign instead)",
                    ));
                }
                next.state.aborted = true;
                next.state.phase = Phase::Over;
                Ok(vec![Event::Aborted])
            }
            Action::Offer(_) | Action::Accept(_) | Action::Decline(_) | Action::Claim(..) => {
                Err(RuleError::new(
                    "Secret Chesswords has no draws or claims: the partners play to the end \
                     (or resign)",
                ))
            }
            Action::Pick(_) | Action::Decide(_) | Action::Choose(_) => {
                Err(action.not_in(Variant::Chesswords.display_name()))
            }
        }?;
        *self = next;
        Ok(events)
    }

    fn parse_move(&self, seat: Seat, text: &str) -> Result<String, RuleError> {
        color_of(seat)?;
        if self.is_over() {
            return Err(RuleError::new("the game is over"));
        }
        if !matches!(self.state.phase, Phase::Move { .. }) || seat != self.mover() {
            return self.refuse("you cannot move");
        }
        let m = parse_move(self.position(), text).map_err(|e| RuleError::new(e.to_string()))?;
        Ok(self.find_move(&m.uci())?.uci())
    }

    fn view(&self, viewer: Viewer) -> View {
        let bottom = match viewer {
            Viewer::Seat(s) => color_of_seat(s),
            Viewer::Public => render::PublicOrientation::default().bottom(self.to_move()),
        };
        View {
            variant: self.variant().to_string(),
            fen: to_fen(self.position()),
            last_move: self.game.moves().last().map(Move::uci),
            diagram: self.text_diagram(),
            board: self.board(bottom),
        }
    }

    fn outcome(&self) -> Option<GameOutcome> {
        self.state.outcome.clone()
    }

    fn aborted(&self) -> bool {
        self.state.aborted
    }

    fn can_abort(&self) -> bool {
        !self.is_over() && self.game.moves().len() < 2
    }

    fn timeout_is_automatic(&self) -> bool {
        true
    }

    fn move_list(&self) -> Vec<String> {
        turn_sans(&self.game)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<String> {
        if !matches!(self.state.phase, Phase::Move { .. }) || seat != self.mover() {
            return Vec::new();
        }
        let pos = self.position();
        self.playable_moves().iter().map(|&m| san(pos, m)).collect()
    }

    fn numbered_moves(&self) -> String {
        numbered_moves(&self.game).join(" ")
    }

    fn pgn(&self, tags: &[(String, String)]) -> String {
        let mut t = pgn_tags(tags);
        t.variant = Some(self.variant().to_string());
        if let Some(o) = &self.state.outcome {
            let total: i32 =
                o.score.as_ref().map_or(0, |s| s.iter().sum::<i32>()) - self.state.penalties as i32;
            t.extra.push(("Grade".into(), o.result.clone()));
            if o.score.is_some() {
                t.extra.push(("Score".into(), total.to_string()));
            }
            t.extra.push(("Termination".into(), o.reason.clone()));
        }
        // A game of partners has no winner between the sides: the result stays `*`.
        write_pgn_ending(&self.game, None, &t)
    }

    fn animation(&self, renderer: &render::Renderer, names: &[&str]) -> Option<Vec<u8>> {
        let [white, black] = self.side_names(names);
        let positions = self.game.positions();
        let moves = self.game.moves();
        let views: Vec<BoardView> = positions
            .iter()
            .enumerate()
            .map(|(i, pos)| {
                let last = i.checked_sub(1).map(|k| moves[k]);
                let mut view = BoardView::from_position(pos, last, Color::White)
                    .with_players(white.clone(), black.clone());
                let shown = self.state.discards.iter().filter(|d| d.ply <= i).count();
                self.dress(&mut view, shown);
                if i + 1 == positions.len() {
                    if let Some(banner) = self.banner() {
                        view.caption.to_move = None;
                        view.caption.result = Some(banner);
                    }
                }
                view
            })
            .collect();
        let options = render::gif::GifOptions {
            white,
            black,
            ..Default::default()
        };
        Some(render::gif::views_gif(renderer, &views, &options))
    }

    fn moves_name_words(&self) -> bool {
        true
    }

    fn instructions(&self, seat: Seat) -> Option<String> {
        match &self.state.phase {
            Phase::Discard {
                holder, options, ..
            } if *holder == seat => Some(format!(
                "your partner's capture lets you discard one of these cards: {}. Send me \
                 discard CARD privately (discard {}). Your hand: {}",
                options
                    .iter()
                    .map(|c| format!("{c} ({})", c.short()))
                    .collect::<Vec<_>>()
                    .join(" or "),
                options[0].short(),
                cards::hand_text(&self.state.hands[seat.0 as usize])
            )),
            Phase::LastDiscard { holder } if *holder == seat => {
                let open = self.state.open_discard.as_ref()?;
                let options = self.discardable(open);
                let what = if options.is_empty() {
                    format!(
                        "no card in your hand fits a discard for {}'s last capture, so send me \
                         discard none",
                        side(partner(seat))
                    )
                } else {
                    format!(
                        "{}'s last capture lets you discard {}: send me discard CARD (discard \
                         {}), or discard none to keep your cards",
                        side(partner(seat)),
                        card_choice(&options),
                        options[0].short()
                    )
                };
                Some(format!(
                    "play is over. Before the finale, {what}. Your hand: {}{}",
                    cards::hand_text(&self.state.hands[seat.0 as usize]),
                    match self.state.timer_minutes {
                        Some(t) => format!(". You have {}", plural(t as usize, "minute")),
                        None => String::new(),
                    }
                ))
            }
            Phase::Words if self.state.words[seat.0 as usize].is_none() => Some(format!(
                "play is over. The marked letters are {}. Send me two words made from them \
                 (each marked letter at most once across both words): words WORD1 WORD2, or \
                 words none{}",
                self.marked_text(),
                match self.state.timer_minutes {
                    Some(t) => format!(". You have {}", plural(t as usize, "minute")),
                    None => String::new(),
                }
            )),
            _ => None,
        }
    }

    fn secret_summary(&self, seat: Seat) -> Option<String> {
        let hand = self.state.hands.get(seat.0 as usize)?;
        let mut text = format!(
            "your hand: {} ({}); your partner holds {}, the pile has {}",
            cards::hand_text(hand),
            plural(hand.len(), "card"),
            plural(self.state.hands[partner(seat).0 as usize].len(), "card"),
            plural(self.state.pile.len(), "card")
        );
        if let Some(open) = self
            .state
            .open_discard
            .as_ref()
            .filter(|o| o.holder == seat && !self.is_over())
        {
            let options = self.discardable(open);
            if !options.is_empty() {
                text.push_str(&format!(
                    "; {}'s last capture lets you discard {} (discard CARD)",
                    side(partner(seat)),
                    card_choice(&options)
                ));
            }
        }
        if let Some(Some(words)) = self.state.words.get(seat.0 as usize) {
            if !words.is_empty() {
                text.push_str(&format!("; your words: {}", words.join(" and ")));
            }
        }
        Some(text)
    }

    fn time_limit(&self, seat: Seat) -> Option<i64> {
        let minutes = self.state.timer_minutes?;
        let asked = match self.state.phase {
            Phase::Words => self.state.words.get(seat.0 as usize)?.is_none(),
            Phase::LastDiscard { holder } => holder == seat,
            _ => false,
        };
        asked.then_some(minutes as i64 * 60)
    }

    fn export_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::json;
        let mut m = serde_json::Map::new();
        m.insert("letters".into(), json!(self.state.letters.rows_from_top()));
        m.insert(
            "checkers".into(),
            json!(self
                .state
                .discards
                .iter()
                .map(|d| d.square.clone())
                .collect::<Vec<_>>()),
        );
        m.insert(
            "discards".into(),
            json!(self
                .state
                .discards
                .iter()
                .map(|d| json!({"by": side(d.by), "card": d.card.short(), "square": d.square}))
                .collect::<Vec<_>>()),
        );
        m.insert("penalties".into(), json!(self.state.penalties));
        if self.is_over() {
            m.insert(
                "hands".into(),
                json!({"white": self.state.hands[0], "black": self.state.hands[1]}),
            );
            m.insert("pile".into(), json!(self.state.pile));
            let deal = self
                .state
                .deal
                .clone()
                .unwrap_or_else(|| cards::seed_deal(self.state.seed));
            m.insert(
                "deal".into(),
                json!({"white": deal.hands[0], "black": deal.hands[1], "pile": deal.pile}),
            );
            m.insert(
                "words".into(),
                json!({"white": self.state.words[0], "black": self.state.words[1]}),
            );
        }
        m
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::to_value(&self.state).unwrap_or(serde_json::Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Seat = Seat(0);
    const B: Seat = Seat(1);

    /// Options with `seed` for the letters and, for reproducible tests, for the cards.
    fn options(seed: u64) -> GameOptions {
        GameOptions {
            seed,
            timer_minutes: None,
            hidden_seed: Some(seed),
        }
    }

    fn cards_of(list: &str) -> Vec<Card> {
        list.split_whitespace()
            .map(|c| Card::parse(c).unwrap())
            .collect()
    }

    /// A game from `fen` dealt the given hands and pile (top first).
    fn setup(fen: &str, white: &str, black: &str, pile: &str) -> Chesswords {
        let mut g = Chesswords::new(Some(fen), &options(7)).unwrap();
        g.state.hands = [cards_of(white), cards_of(black)];
        g.state.pile = cards_of(pile);
        g.state.deal = Some(Deal {
            hands: g.state.hands.clone(),
            pile: g.state.pile.clone(),
            unused: Vec::new(),
        });
        g
    }

    /// [`setup`] for a game stored before discards were private and deals hidden.
    fn setup_stored_before(fen: &str, white: &str, black: &str, pile: &str) -> Chesswords {
        let mut g = setup(fen, white, black, pile);
        g.state.secret_discards = false;
        g.state.deal = None;
        g
    }

    /// Pawns facing each other: White's pawn a3 can take Black's pawn b4.
    const PAWNS: &str = "5k/6/1p1p1p/P1P1P1/3P2/K5 w - - 0 1";

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// A word that fits the move `uci` of `g`: its two letters with an A between.
    fn word_for(g: &Chesswords, uci: &str) -> String {
        let m = find_uci(g.position(), uci).unwrap();
        format!("{}A{}", g.letter(m.from), g.letter(m.to))
    }

    fn texts(events: &[Event], public: bool) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Said(None, t) if public => Some(t.clone()),
                Event::Said(Some(_), t) if !public => Some(t.clone()),
                _ => None,
            })
            .collect()
    }

    /// The clue giver clues and the mover plays `uci` with a fitting word.
    fn clue_and_play(g: &mut Chesswords, uci: &str) -> Vec<Event> {
        let mover = g.mover();
        g.apply(partner(mover), &Action::Clue("a hint".into()))
            .unwrap();
        let word = word_for(g, uci);
        g.apply(
            mover,
            &Action::Play {
                word,
                mv: uci.into(),
            },
        )
        .unwrap()
    }

    #[test]
    fn black_clues_first_then_white_moves_with_a_word() {
        let mut g = Chesswords::new(None, &options(1)).unwrap();
        assert_eq!(g.awaiting(), vec![(B, Prompt::GiveClue)]);
        assert!(g.legal_moves(W).is_empty(), "no move before the clue");
        let e = g.parse_move(W, "Nd3").unwrap_err();
        assert!(e.0.contains("Black gives a clue"), "{e}");
        let e = g.apply(W, &Action::Clue("mine".into())).unwrap_err();
        assert!(e.0.contains("Black gives a clue"), "{e}");
        let ev = g.apply(B, &Action::Clue("  a sweet dish ".into())).unwrap();
        assert_eq!(texts(&ev, true), vec!["Black's clue: “a sweet dish”"]);
        assert_eq!(g.awaiting(), vec![(W, Prompt::PlayWord)]);
        assert_eq!(
            g.legal_moves(W).len(),
            10,
            "six pawn moves, four knight moves"
        );
        let uci = g.parse_move(W, "Nd3").unwrap();
        assert_eq!(uci, "e1d3");
        let ev = g
            .apply(
                W,
                &Action::Play {
                    word: word_for(&g, "e1d3").to_lowercase(),
                    mv: uci,
                },
            )
            .unwrap();
        assert!(matches!(&ev[0], Event::Moved { seat, san } if *seat == W && san == "Nd3"));
        assert!(texts(&ev, true)[0].starts_with("with the word "));
        assert_eq!(g.awaiting(), vec![(W, Prompt::GiveClue)]);
    }

    #[test]
    fn clues_are_one_line_of_one_to_a_hundred_characters() {
        let mut g = Chesswords::new(None, &options(1)).unwrap();
        let before = g.snapshot();
        for bad in ["", "   ", "two\nlines", &"x".repeat(101)] {
            let e = g.apply(B, &Action::Clue(bad.into())).unwrap_err();
            assert!(e.0.contains("1 to 100 characters"), "{e}");
        }
        assert_eq!(g.snapshot(), before);
        g.apply(B, &Action::Clue("é".repeat(100))).unwrap();
    }

    #[test]
    fn a_move_whose_letters_do_not_match_the_word_is_refused_and_changes_nothing() {
        let mut g = Chesswords::new(None, &options(3)).unwrap();
        g.apply(B, &Action::Clue("hint".into())).unwrap();
        let before = g.snapshot();
        let (from, to) = (g.letter(sq("e1")), g.letter(sq("d3")));
        // A word with the right first letter and a wrong last one.
        let wrong_end = if to == 'Z' { 'Y' } else { 'Z' };
        let word = format!("{from}O{wrong_end}");
        let e = g
            .apply(
                W,
                &Action::Play {
                    word: word.clone(),
                    mv: "e1d3".into(),
                },
            )
            .unwrap_err();
        assert!(
            e.0.starts_with(&format!(
                "the move goes from {from} to {to}, but '{word}' starts with {from} and ends with {wrong_end}"
            )),
            "{e}"
        );
        assert!(e.0.contains("letters XY MOVE"), "{e}");
        for word in ["x", "tw0", "two words"] {
            let e = g
                .apply(
                    W,
                    &Action::Play {
                        word: word.into(),
                        mv: "e1d3".into(),
                    },
                )
                .unwrap_err();
            assert!(e.0.contains("word"), "{e}");
        }
        assert_eq!(g.snapshot(), before);
    }

    #[test]
    fn naming_the_letters_costs_a_penalty_point_and_must_match() {
        let mut g = Chesswords::new(None, &options(3)).unwrap();
        g.apply(B, &Action::Clue("hint".into())).unwrap();
        let (from, to) = (g.letter(sq("b2")), g.letter(sq("b3")));
        let wrong = format!("{}{}", if from == 'Q' { 'R' } else { 'Q' }, to);
        let e = g
            .apply(
                W,
                &Action::Letters {
                    letters: wrong,
                    mv: "b2b3".into(),
                },
            )
            .unwrap_err();
        assert!(e
            .0
            .starts_with(&format!("the move goes from {from} to {to}, not")));
        let e = g
            .apply(
                W,
                &Action::Letters {
                    letters: "abc".into(),
                    mv: "b2b3".into(),
                },
            )
            .unwrap_err();
        assert!(e.0.contains("not two letters"), "{e}");
        assert_eq!(g.state.penalties, 0);
        let ev = g
            .apply(
                W,
                &Action::Letters {
                    letters: format!("{}{}", from.to_ascii_lowercase(), to),
                    mv: "b2b3".into(),
                },
            )
            .unwrap();
        assert_eq!(g.state.penalties, 1);
        assert!(texts(&ev, true)[0].contains("one penalty point (1 in all)"));
    }

    #[test]
    fn a_bare_move_after_a_clue_and_a_word_after_a_pass_are_refused_with_the_form() {
        let mut g = Chesswords::new(None, &options(2)).unwrap();
        g.apply(B, &Action::Clue("hint".into())).unwrap();
        let e = g.apply(W, &Action::Move("b2b3".into())).unwrap_err();
        assert!(e.0.contains("play WORD MOVE"), "{e}");
        let mut g = Chesswords::new(None, &options(2)).unwrap();
        let ev = g.apply(B, &Action::Pass).unwrap();
        assert_eq!(texts(&ev, true), vec!["Black passes: White moves freely"]);
        assert_eq!(g.awaiting(), vec![(W, Prompt::Move)]);
        let word = word_for(&g, "b2b3");
        let e = g
            .apply(
                W,
                &Action::Play {
                    word,
                    mv: "b2b3".into(),
                },
            )
            .unwrap_err();
        assert!(e.0.contains("Black passed, so you move freely"), "{e}");
        g.apply(W, &Action::Move("b2b3".into())).unwrap();
        assert_eq!(g.awaiting(), vec![(W, Prompt::GiveClue)]);
    }

    #[test]
    fn a_capture_opens_a_private_discard_and_only_the_discard_is_announced() {
        // White's pawn a3 takes Black's pawn b4: Black may discard a black pawn (the
        // captured piece) or a white pawn (the capturer); Black holds black pawns.
        let mut g = setup(PAWNS, "wK wQ wR bQ", "bP bP bK wN", "bR wR bN wN bQ wQ");
        let ev = clue_and_play(&mut g, "a3b4");
        // In public only the move and its word; no pause: White gives the next clue.
        let public = texts(&ev, true);
        assert_eq!(public.len(), 1, "{public:?}");
        assert!(public[0].starts_with("with the word "), "{public:?}");
        assert_eq!(g.awaiting(), vec![(W, Prompt::GiveClue)]);
        // Black alone is told what the capture allows.
        let told: Vec<&Event> = ev
            .iter()
            .filter(|e| matches!(e, Event::Said(Some(_), _)))
            .collect();
        assert_eq!(told.len(), 1);
        assert!(
            matches!(told[0], Event::Said(Some(s), t) if *s == B && t.starts_with(
                "White's capture of your pawn lets you discard the black pawn (bP), if you wish: \
                 send me discard CARD privately before your next move. Your hand: black pawn"
            )),
            "{told:?}"
        );
        assert!(g
            .secret_summary(B)
            .unwrap()
            .contains("White's last capture lets you discard the black pawn (bP)"));
        assert!(!g.secret_summary(W).unwrap().contains("discard"));
        // Black discards while White thinks of a clue.
        let ev = g.apply(B, &Action::Discard("bP".into())).unwrap();
        assert_eq!(g.state.hands[1], cards_of("bP bK wN bR"));
        assert_eq!(g.state.pile.len(), 5);
        assert_eq!(g.checkers(), vec![sq("a3")]);
        let public = texts(&ev, true).join(" | ");
        assert_eq!(
            public,
            format!(
                "Black discards the black pawn: a checker on a3 marks the letter {} | Black \
                 draws a card (5 left in the pile)",
                g.letter(sq("a3"))
            )
        );
        assert!(ev.iter().any(|e| matches!(e,
            Event::Said(Some(s), t) if *s == B && t.starts_with("you drew the black rook"))));
        assert_eq!(g.awaiting(), vec![(W, Prompt::GiveClue)]);
        // One card per capture.
        let e = g.apply(B, &Action::Discard("bP".into())).unwrap_err();
        assert!(e.0.starts_with("you have no discard open"), "{e}");
    }

    #[test]
    fn the_discard_stays_open_until_the_holders_move() {
        let mut g = setup(PAWNS, "wK wQ wR bQ", "bP bP bK wN", "bR");
        clue_and_play(&mut g, "a3b4");
        g.apply(W, &Action::Clue("hint".into())).unwrap();
        // A refused move changes nothing, the open discard included.
        let refused = Action::Play {
            word: "QQ".into(),
            mv: "f4f3".into(),
        };
        assert!(g.apply(B, &refused).is_err());
        assert!(g.state.open_discard.is_some());
        let word = word_for(&g, "f4f3");
        g.apply(
            B,
            &Action::Play {
                word,
                mv: "f4f3".into(),
            },
        )
        .unwrap();
        assert_eq!(g.state.open_discard, None);
        let e = g.apply(B, &Action::Discard("bP".into())).unwrap_err();
        assert!(e.0.starts_with("you have no discard open"), "{e}");
        assert!(g.checkers().is_empty());
        assert_eq!(g.state.hands[1].len(), 4);
    }

    #[test]
    fn the_end_of_the_game_closes_an_open_discard() {
        let mut g = setup(PAWNS, "wK", "bP bK", "bR");
        clue_and_play(&mut g, "a3b4");
        assert!(g.secret_summary(B).unwrap().contains("lets you discard"));
        g.apply(W, &Action::Resign).unwrap();
        assert!(!g.secret_summary(B).unwrap().contains("discard"));
        let e = g.apply(B, &Action::Discard("bP".into())).unwrap_err();
        assert_eq!(e.0, "the game is over");
    }

    #[test]
    fn a_discard_that_does_not_fit_is_refused_and_changes_nothing() {
        // Black holds no pawn: nothing fits, and nobody is told anything.
        let mut g = setup(PAWNS, "wP wQ wR bQ", "bK bQ bR wN", "bR wR bN wN bQ wQ");
        let ev = clue_and_play(&mut g, "a3b4");
        // Black is told so, as privately as when a card fits.
        assert!(
            ev.iter().any(
                |e| matches!(e, Event::Said(Some(s), t) if *s == B && t.starts_with(
                    "White's capture of your pawn with their pawn would let you discard a card of \
                     either piece, and you hold neither. Your hand: black king"
                ))
            ),
            "{ev:?}"
        );
        let before = g.snapshot();
        for (seat, card, says) in [
            (
                B,
                "bK",
                "no card in your hand fits: the capture of your pawn by their pawn",
            ),
            (B, "wN", "no card in your hand fits"),
            (B, "none", "there is nothing to decline"),
            (B, "purple pawn", "not a card"),
            (W, "wP", "you have no discard open"),
        ] {
            let e = g.apply(seat, &Action::Discard(card.into())).unwrap_err();
            assert!(e.0.contains(says), "{card}: {e}");
        }
        assert_eq!(g.snapshot(), before);
        // With a pawn in hand, a card of the wrong kind is refused with the options.
        let mut g = setup(PAWNS, "wK", "bK wP bQ", "");
        clue_and_play(&mut g, "a3b4");
        let e = g.apply(B, &Action::Discard("bK".into())).unwrap_err();
        assert_eq!(e.0, "you may discard the white pawn (wP): discard wP");
        assert!(g.apply(B, &Action::Discard("white pawn".into())).is_ok());
    }

    /// The public record of a few turns from [`PAWNS`] with Black dealt `black`: every
    /// public event, whom the game awaits, the public view, the export and the PGN, after
    /// each action.
    fn public_record(black: &str) -> Vec<String> {
        let mut g = setup(PAWNS, "wK wQ wR bQ", black, "bR wR bN wN bQ wQ");
        let mut record = Vec::new();
        let mut step = |g: &mut Chesswords, seat: Seat, action: Action| {
            let ev = g.apply(seat, &action).unwrap();
            for e in ev {
                if !matches!(e, Event::Said(Some(_), _)) {
                    record.push(format!("{e:?}"));
                }
            }
            record.push(format!("{:?}", g.awaiting()));
            record.push(format!("{:?}", g.view(Viewer::Public)));
            // Once the game is over its export shows the cards, as it should.
            if !g.is_over() {
                record.push(serde_json::to_string(&g.export_fields()).unwrap());
            }
            record.push(g.pgn(&[]));
            record.push(format!("{:?}", [g.time_limit(W), g.time_limit(B)]));
        };
        step(&mut g, B, Action::Clue("hint".into()));
        let word = word_for(&g, "a3b4");
        step(
            &mut g,
            W,
            Action::Play {
                word,
                mv: "a3b4".into(),
            },
        );
        step(&mut g, W, Action::Clue("hint".into()));
        let word = word_for(&g, "d4c3");
        step(
            &mut g,
            B,
            Action::Play {
                word,
                mv: "d4c3".into(),
            },
        );
        step(&mut g, B, Action::Pass);
        step(&mut g, W, Action::Move("a1a2".into()));
        step(&mut g, W, Action::Pass);
        record
    }

    #[test]
    fn nothing_public_depends_on_whether_a_card_qualifies() {
        // After a3xb4 Black holds two black pawns in the one deal and no pawn in the
        // other; after d4xc3 White holds the same cards in both. Neither discards.
        let qualifies = public_record("bP bP bK wN");
        let does_not = public_record("bK bQ bR wN");
        assert_eq!(qualifies.len(), does_not.len());
        for (a, b) in qualifies.iter().zip(&does_not) {
            assert_eq!(a, b);
        }
        // The record is not empty of the play itself.
        assert!(
            qualifies.iter().any(|r| r.contains("axb4")),
            "{qualifies:?}"
        );
    }

    #[test]
    fn games_stored_before_discard_one_qualifying_kind_at_once() {
        let mut g = setup_stored_before(PAWNS, "wK wQ wR bQ", "bP bP bK wN", "bR wR bN wN");
        let ev = clue_and_play(&mut g, "a3b4");
        assert_eq!(g.state.hands[1], cards_of("bP bK wN bR"));
        assert_eq!(g.checkers(), vec![sq("a3")]);
        let public = texts(&ev, true).join(" | ");
        assert!(
            public.contains("Black discards the black pawn: a checker on a3"),
            "{public}"
        );
        assert_eq!(g.awaiting(), vec![(W, Prompt::GiveClue)]);
        // And no discard at all when nothing qualifies.
        let mut g = setup_stored_before(PAWNS, "wK", "bK bQ bR wN", "bR");
        clue_and_play(&mut g, "a3b4");
        assert!(g.checkers().is_empty());
    }

    #[test]
    fn games_stored_before_ask_for_a_choice_between_two_kinds_and_wait() {
        let mut g = setup_stored_before(PAWNS, "wK wQ wR bQ", "bP wP bK bP", "bR wR bN");
        let ev = clue_and_play(&mut g, "a3b4");
        assert_eq!(g.awaiting(), vec![(B, Prompt::Discard)]);
        let public = texts(&ev, true).join(" | ");
        assert!(public.contains("Black may discard one of two kinds of card"));
        let how = g.instructions(B).unwrap();
        assert!(how.contains("black pawn (bP) or white pawn (wP)"), "{how}");
        let e = g.apply(W, &Action::Clue("hint".into())).unwrap_err();
        assert!(e.0.contains("Black is choosing a card to discard"), "{e}");
        let e = g.apply(B, &Action::Discard("bK".into())).unwrap_err();
        assert!(
            e.0.contains("the black pawn (bP) or the white pawn (wP)"),
            "{e}"
        );
        let ev = g.apply(B, &Action::Discard("white pawn".into())).unwrap();
        assert!(texts(&ev, true)[0].starts_with("Black discards the white pawn: a checker on a3"));
        assert_eq!(g.state.hands[1], cards_of("bP bK bP bR"));
        assert_eq!(g.awaiting(), vec![(W, Prompt::GiveClue)]);
        // Time running out on the choice discards the first kind in hand order.
        let mut g = setup_stored_before(PAWNS, "wK", "bP wP", "");
        clue_and_play(&mut g, "a3b4");
        g.apply(B, &Action::Timeout).unwrap();
        assert_eq!(g.state.hands[1], cards_of("wP"));
    }

    #[test]
    fn checkers_block_landing_but_not_sliding_across() {
        let mut g = setup("5k/6/6/6/6/R4K w - - 0 1", "wK", "bK", "");
        g.state.discards.push(Discarded {
            by: B,
            card: Card::parse("bK").unwrap(),
            square: "a3".into(),
            ply: 0,
        });
        g.apply(B, &Action::Pass).unwrap();
        let moves = g.legal_moves(W);
        assert!(moves.contains(&"Ra2".to_string()));
        assert!(!moves.contains(&"Ra3".to_string()));
        assert!(
            moves.contains(&"Ra4".to_string()),
            "slides across the checker"
        );
        let e = g.parse_move(W, "Ra3").unwrap_err();
        assert!(
            e.0.starts_with("a3 has a checker: no piece may move onto a checker"),
            "{e}"
        );
        let e = g.apply(W, &Action::Move("a1a3".into())).unwrap_err();
        assert!(e.0.starts_with("a3 has a checker"), "{e}");
        assert_eq!(g.parse_move(W, "Ra6").unwrap(), "a1a6");
    }

    #[test]
    fn capturing_a_king_ends_play_and_the_holder_decides_on_the_discard_privately() {
        let mut g = setup("5k/6/6/6/6/K4R w - - 0 1", "wQ", "bK wQ", "bN");
        let ev = clue_and_play(&mut g, "f1f6");
        let public = texts(&ev, true).join(" | ");
        assert!(
            public.ends_with(
                "play is over: a king was captured. Black may still discard for White's last \
                 capture and decides privately (discard CARD or discard none) before the finale"
            ),
            "{public}"
        );
        assert!(texts(&ev, false).is_empty(), "the prompt tells Black");
        assert_eq!(g.state.play_end, Some(PlayEnd::KingCaptured));
        assert_eq!(g.awaiting(), vec![(B, Prompt::Discard)]);
        assert!(Prompt::Discard.is_secret());
        let how = g.instructions(B).unwrap();
        assert!(
            how.contains(
                "White's last capture lets you discard the black king (bK): send me discard CARD"
            ),
            "{how}"
        );
        assert!(g.instructions(W).is_none());
        assert!(g.apply(W, &Action::Discard("wQ".into())).is_err());
        assert!(g.apply(W, &Action::Words(vec![])).is_err());
        let ev = g.apply(B, &Action::Discard("bK".into())).unwrap();
        let public = texts(&ev, true).join(" | ");
        assert!(
            public.starts_with("Black discards the black king: a checker on f1"),
            "{public}"
        );
        assert!(
            public.contains("play is over: a king was captured. The marked letters are"),
            "{public}"
        );
        assert_eq!(
            g.awaiting(),
            vec![(W, Prompt::SubmitWords), (B, Prompt::SubmitWords)]
        );
    }

    #[test]
    fn the_wait_at_the_end_of_play_comes_whether_or_not_a_card_qualifies() {
        let play = |black: &str| {
            let mut g = setup("5k/6/6/6/6/K4R w - - 0 1", "wQ", black, "bN");
            let ev = clue_and_play(&mut g, "f1f6");
            (g, texts(&ev, true))
        };
        let (_, fits) = play("bK wQ");
        let (mut g, none) = play("bQ wN");
        assert_eq!(fits, none);
        assert_eq!(g.awaiting(), vec![(B, Prompt::Discard)]);
        let how = g.instructions(B).unwrap();
        assert!(how.contains("no card in your hand fits a discard for White's last capture, so send me discard none"), "{how}");
        let e = g.apply(B, &Action::Discard("bQ".into())).unwrap_err();
        assert!(e.0.contains("you hold neither: discard none"), "{e}");
        let ev = g.apply(B, &Action::Discard("None".into())).unwrap();
        assert_eq!(
            texts(&ev, true)[0],
            "play is over: a king was captured. No letters are marked, so there is no finale"
        );
        assert!(g.is_over());
    }

    #[test]
    fn two_passes_after_a_capture_leave_the_holder_the_last_discard() {
        let mut g = setup(PAWNS, "wK wQ", "bP bK", "bR");
        g.apply(B, &Action::Pass).unwrap();
        g.apply(W, &Action::Move("a3b4".into())).unwrap();
        let ev = g.apply(W, &Action::Pass).unwrap();
        let public = texts(&ev, true).join(" | ");
        assert!(
            public.contains("both players passed in a row. Black may still discard"),
            "{public}"
        );
        assert_eq!(g.awaiting(), vec![(B, Prompt::Discard)]);
        // Time running out on that decision discards nothing.
        let mut timed = g.clone();
        let ev = timed.apply(B, &Action::Timeout).unwrap();
        assert_eq!(texts(&ev, true)[0], "Black's time ran out: no discard");
        assert!(timed.is_over(), "nothing marked: scored at once");
        assert!(timed.checkers().is_empty());
        g.apply(B, &Action::Discard("bP".into())).unwrap();
        assert_eq!(g.checkers(), vec![sq("a3")]);
        assert_eq!(g.state.phase, Phase::Words);
    }

    #[test]
    fn a_mover_whose_time_runs_out_loses_the_open_discard() {
        let mut g = setup(PAWNS, "wK wQ", "bP bK", "bR");
        clue_and_play(&mut g, "a3b4");
        g.apply(W, &Action::Clue("hint".into())).unwrap();
        let ev = g.apply(B, &Action::Timeout).unwrap();
        let public = texts(&ev, true).join(" | ");
        assert!(!public.contains("may still discard"), "{public}");
        assert_eq!(g.state.open_discard, None);
        assert_eq!(g.outcome().unwrap().reason, "timeout");
    }

    #[test]
    fn a_checker_that_leaves_the_holder_without_a_move_ends_play() {
        // Black's king a6 has only b5, the square White's knight leaves to take d6; b6
        // has a checker and a5 Black's own blocked pawn.
        let mut g = setup("k2n2/pN4/P5/6/6/5K w - - 0 1", "wK", "bN bK", "bR");
        g.state.discards.push(Discarded {
            by: W,
            card: Card::parse("wQ").unwrap(),
            square: "b6".into(),
            ply: 0,
        });
        clue_and_play(&mut g, "b5d6");
        assert_eq!(g.awaiting(), vec![(W, Prompt::GiveClue)]);
        assert_eq!(
            g.legal_moves(B),
            Vec::<String>::new(),
            "not Black's turn yet"
        );
        let ev = g.apply(B, &Action::Discard("bN".into())).unwrap();
        let public = texts(&ev, true).join(" | ");
        assert!(public.contains("a checker on b5"), "{public}");
        assert!(
            public.contains("the player to move has no move that does not end on a checker"),
            "{public}"
        );
        assert_eq!(g.state.play_end, Some(PlayEnd::NoMoves));
        assert_eq!(g.state.phase, Phase::Words);
    }

    #[test]
    fn two_passes_in_a_row_end_play_and_nothing_marked_scores_at_once() {
        let mut g = Chesswords::new(None, &options(5)).unwrap();
        g.apply(B, &Action::Pass).unwrap();
        g.apply(W, &Action::Move("b2b3".into())).unwrap();
        let ev = g.apply(W, &Action::Pass).unwrap();
        let public = texts(&ev, true).join(" | ");
        assert!(public.contains("both players passed in a row"), "{public}");
        assert!(public.contains("No letters are marked"), "{public}");
        let o = g.outcome().unwrap();
        assert_eq!((o.result.as_str(), o.reason.as_str()), ("F", "passes"));
        assert_eq!(o.score, Some(vec![0, 0]));
        assert!(g.awaiting().is_empty());
    }

    #[test]
    fn a_pass_then_a_clue_then_a_pass_does_not_end_play() {
        let mut g = Chesswords::new(None, &options(5)).unwrap();
        g.apply(B, &Action::Pass).unwrap();
        g.apply(W, &Action::Move("b2b3".into())).unwrap();
        clue_and_play_after_clue(&mut g, "b5b4");
        g.apply(B, &Action::Pass).unwrap();
        assert!(g.outcome().is_none());
        assert_eq!(g.awaiting(), vec![(W, Prompt::Move)]);
    }

    fn clue_and_play_after_clue(g: &mut Chesswords, uci: &str) {
        clue_and_play(g, uci);
    }

    #[test]
    fn a_mover_left_only_with_moves_onto_checkers_ends_play() {
        let mut g = setup("5k/6/6/6/6/K5 b - - 0 1", "wQ", "bQ", "");
        for s in ["a2", "b1", "b2"] {
            g.state.discards.push(Discarded {
                by: W,
                card: Card::parse("wQ").unwrap(),
                square: s.into(),
                ply: 0,
            });
        }
        assert_eq!(g.awaiting(), vec![(W, Prompt::GiveClue)]);
        g.apply(W, &Action::Pass).unwrap();
        let ev = g.apply(B, &Action::Move("f6e6".into())).unwrap();
        assert!(texts(&ev, true)
            .join(" ")
            .contains("the player to move has no move that does not end on a checker"));
        assert_eq!(g.state.play_end, Some(PlayEnd::NoMoves));
        assert_eq!(g.state.phase, Phase::Words);
    }

    #[test]
    fn timeouts_a_clue_giver_passes_a_mover_ends_play() {
        let mut g = Chesswords::new(None, &options(9)).unwrap();
        let ev = g.apply(B, &Action::Timeout).unwrap();
        assert_eq!(
            texts(&ev, true),
            vec![
                "Black's time ran out: that is a pass",
                "Black passes: White moves freely"
            ]
        );
        assert!(
            g.apply(B, &Action::Timeout).is_err(),
            "Black is not awaited"
        );
        g.apply(W, &Action::Move("b2b3".into())).unwrap();
        // White's time runs out on the clue: a second pass in a row.
        g.apply(W, &Action::Timeout).unwrap();
        assert_eq!(g.outcome().unwrap().reason, "passes");

        let mut g = Chesswords::new(None, &options(9)).unwrap();
        g.apply(B, &Action::Clue("hint".into())).unwrap();
        g.apply(W, &Action::Timeout).unwrap();
        assert_eq!(g.state.play_end, Some(PlayEnd::Timeout));
        assert_eq!(g.outcome().unwrap().reason, "timeout");
    }

    /// Four pawn captures, each followed by the holder's discard of a pawn: checkers on
    /// a3, d4, e3, c3; then two passes. One of the moves names its letters (a penalty
    /// point).
    fn four_checkers() -> Chesswords {
        let mut g = setup(PAWNS, "wP wP wK bQ", "bP bP bK wQ", "bR wR bN wN wK bK");
        clue_and_play(&mut g, "a3b4");
        g.apply(B, &Action::Discard("bP".into())).unwrap();
        g.apply(W, &Action::Clue("hint".into())).unwrap();
        let m = find_uci(g.position(), "d4c3").unwrap();
        let letters = format!("{}{}", g.letter(m.from), g.letter(m.to));
        g.apply(
            B,
            &Action::Letters {
                letters,
                mv: "d4c3".into(),
            },
        )
        .unwrap();
        g.apply(W, &Action::Discard("wP".into())).unwrap();
        clue_and_play(&mut g, "e3f4");
        g.apply(B, &Action::Discard("bP".into())).unwrap();
        clue_and_play(&mut g, "c3d2");
        g.apply(W, &Action::Discard("wP".into())).unwrap();
        g.apply(B, &Action::Pass).unwrap();
        g.apply(W, &Action::Move("a1b1".into())).unwrap();
        g.apply(W, &Action::Pass).unwrap();
        g
    }

    #[test]
    fn the_scoring_worked_example_through_a_game() {
        let mut g = four_checkers();
        assert_eq!(g.checkers(), vec![sq("a3"), sq("d4"), sq("e3"), sq("c3")]);
        assert_eq!(g.state.penalties, 1);
        assert_eq!(g.state.phase, Phase::Words);
        let m: Vec<char> = g.marked_letters();
        let w = |a: usize, b: usize| format!("{}{}", m[a], m[b]);
        // Words that use letters not marked, or one too often, are refused.
        let e = g
            .apply(W, &Action::Words(vec![w(0, 0), w(0, 0)]))
            .unwrap_err();
        assert!(e.0.contains("times") || e.0.contains("only"), "{e}");
        let e = g.apply(W, &Action::Words(vec![w(0, 1)])).unwrap_err();
        assert!(e.0.contains("two words"), "{e}");
        // White: two words using all four letters. Black: one pair, two letters unused.
        let white = vec![w(0, 1), w(2, 3)];
        let ev = g.apply(W, &Action::Words(white.clone())).unwrap();
        assert_eq!(texts(&ev, true), vec!["White has submitted their words"]);
        for word in &white {
            assert!(!texts(&ev, true).join(" ").contains(word.as_str()));
        }
        assert_eq!(g.awaiting(), vec![(B, Prompt::SubmitWords)]);
        // White may replace the words until Black has submitted.
        let ev = g.apply(W, &Action::Words(white.clone())).unwrap();
        assert!(texts(&ev, true).is_empty());
        let black = vec![w(0, 2), w(1, 3)];
        g.apply(B, &Action::Words(black.clone())).unwrap();
        assert_eq!(g.awaiting(), vec![(W, Prompt::ClueForWord)]);
        g.apply(W, &Action::Clue("first".into())).unwrap();
        assert_eq!(g.awaiting(), vec![(B, Prompt::Guess)]);
        let ev = g.apply(B, &Action::Guess(white[1].to_lowercase())).unwrap();
        assert!(texts(&ev, true)[0].ends_with("right!"));
        assert!(ev
            .iter()
            .any(|e| matches!(e, Event::Revealed(r) if r[0].0 == W)));
        g.apply(B, &Action::Clue("second".into())).unwrap();
        let ev = g.apply(W, &Action::Guess("zzz".into())).unwrap();
        assert!(texts(&ev, true)[0].ends_with("not one of the words"));
        // White: 2 × 2 = 4, no king, nothing unused. Black: not guessed, 0.
        // Total 4 + 0 - 1 penalty = 3: lost.
        let o = g.outcome().unwrap();
        assert_eq!(o.score, Some(vec![4, 0]));
        assert_eq!(o.result, "F");
        assert_eq!(o.reason, "passes");
        assert!(texts(&ev, true)
            .join(" ")
            .contains("penalty points -1; total 3: below 50"));
        assert_eq!(
            g.view(Viewer::Public).board.caption.result.as_deref(),
            Some("Lost (F) · 3 points")
        );
    }

    #[test]
    fn a_player_without_words_gives_no_clue_and_loses_the_marked_letters() {
        let mut g = four_checkers();
        g.apply(W, &Action::Words(vec![])).unwrap();
        let ev = g.apply(B, &Action::Timeout).unwrap();
        let public = texts(&ev, true).join(" | ");
        assert!(public.contains("Black's time ran out: Black has no words"));
        assert!(public.contains("White has no words: Black has nothing to guess"));
        let o = g.outcome().unwrap();
        assert_eq!(o.score, Some(vec![-4, -4]));
    }

    #[test]
    fn the_finale_timer_applies_to_the_last_discard_and_the_words_only() {
        let fen = "5k/6/6/6/6/K4R w - - 0 1";
        let opts = GameOptions {
            timer_minutes: Some(3),
            ..options(4)
        };
        let mut g = Chesswords::new(Some(fen), &opts).unwrap();
        g.state.hands = [cards_of("wQ"), cards_of("bK")];
        assert_eq!(g.time_limit(B), None);
        clue_and_play(&mut g, "f1f6");
        assert_eq!((g.time_limit(W), g.time_limit(B)), (None, Some(180)));
        assert!(g.instructions(B).unwrap().ends_with("You have 3 minutes"));
        g.apply(B, &Action::Discard("bK".into())).unwrap();
        assert_eq!(g.time_limit(W), Some(180));
        assert!(g.instructions(W).unwrap().contains("You have 3 minutes"));
        g.apply(W, &Action::Words(vec![])).unwrap();
        assert_eq!(g.time_limit(W), None, "submitted");
        assert_eq!(g.time_limit(B), Some(180));
        for t in [0, 6] {
            let opts = GameOptions {
                timer_minutes: Some(t),
                ..options(4)
            };
            let e = Chesswords::new(None, &opts).unwrap_err();
            assert!(e.0.contains("1 to 5 minutes"), "{e}");
        }
    }

    #[test]
    fn resigning_loses_the_game_and_abort_is_only_before_both_moved() {
        let mut g = Chesswords::new(None, &options(1)).unwrap();
        assert!(g.can_abort());
        let ev = g.apply(B, &Action::Resign).unwrap();
        let o = g.outcome().unwrap();
        assert_eq!((o.result.as_str(), o.reason.as_str()), ("F", "resignation"));
        assert!(matches!(ev.last(), Some(Event::Ended(_))));
        assert!(g.apply(W, &Action::Pass).is_err());
        let mut g = Chesswords::new(None, &options(1)).unwrap();
        g.apply(B, &Action::Pass).unwrap();
        g.apply(W, &Action::Move("b2b3".into())).unwrap();
        g.apply(W, &Action::Clue("hint".into())).unwrap();
        g.apply(
            B,
            &Action::Play {
                word: word_for(&g, "b5b4"),
                mv: "b5b4".into(),
            },
        )
        .unwrap();
        assert!(!g.can_abort());
        assert!(g.apply(W, &Action::Abort).is_err());
        let e = g
            .apply(W, &Action::Offer(crate::service::OfferKind::Draw))
            .unwrap_err();
        assert!(e.0.contains("no draws"), "{e}");
    }

    #[test]
    fn snapshots_round_trip_and_replay_equals_the_snapshot() {
        let fen = "5k/6/1p1p1p/P1P1P1/3P2/K5 w - - 0 1";
        // The cards come from the operating system: the replay starts from the stored deal.
        let opts = GameOptions {
            hidden_seed: None,
            ..options(11)
        };
        let mut g = Chesswords::new(Some(fen), &opts).unwrap();
        let mut log: Vec<(Seat, Action)> = Vec::new();
        let mut act = |g: &mut Chesswords, seat: Seat, a: Action| {
            g.apply(seat, &a).unwrap();
            log.push((seat, a));
            // A holder with a card that fits discards the first.
            if let Some(open) = g.state.open_discard.clone() {
                if let Some(card) = g.discardable(&open).first() {
                    let a = Action::Discard(card.short());
                    g.apply(open.holder, &a).unwrap();
                    log.push((open.holder, a));
                }
            }
            let state: State = serde_json::from_value(g.snapshot()).unwrap();
            let back = Chesswords::from_snapshot(&state).unwrap();
            assert_eq!(back.snapshot(), g.snapshot());
            assert_eq!(back.awaiting(), g.awaiting());
        };
        act(&mut g, B, Action::Pass);
        act(&mut g, W, Action::Move("a3b4".into()));
        act(&mut g, W, Action::Clue("hint".into()));
        let word = word_for(&g, "d4c3");
        act(
            &mut g,
            B,
            Action::Play {
                word,
                mv: "d4c3".into(),
            },
        );
        act(&mut g, B, Action::Pass);
        act(&mut g, W, Action::Move("e3e4".into()));
        act(&mut g, W, Action::Clue("hint".into()));
        let m = find_uci(g.position(), "c3d2").unwrap();
        let letters = format!("{}{}", g.letter(m.from), g.letter(m.to));
        act(
            &mut g,
            B,
            Action::Letters {
                letters,
                mv: "c3d2".into(),
            },
        );
        act(&mut g, B, Action::Clue("hint".into()));
        let word = word_for(&g, "a1b1");
        act(
            &mut g,
            W,
            Action::Play {
                word,
                mv: "a1b1".into(),
            },
        );
        let mut replayed = Chesswords::initial(&g.state).unwrap();
        for (seat, a) in &log {
            replayed.apply(*seat, a).unwrap();
        }
        assert_eq!(replayed.snapshot(), g.snapshot());
        // Not a fresh deal: the same options deal other cards.
        let fresh = Chesswords::new(Some(fen), &opts).unwrap();
        assert_ne!(fresh.state.deal, g.state.deal);
    }

    #[test]
    fn a_game_stored_before_replays_from_the_deal_of_its_seed() {
        let mut g = Chesswords::new(Some(PAWNS), &options(3)).unwrap();
        let dealt = cards::seed_deal(3);
        g.state.deal = None;
        g.state.secret_discards = false;
        g.state.hands = dealt.hands.clone();
        g.state.pile = dealt.pile.clone();
        let stored = serde_json::to_value(&g.state).unwrap();
        assert!(stored.get("deal").is_none() && stored.get("secret_discards").is_none());
        let mut log = Vec::new();
        for (seat, a) in [
            (B, Action::Pass),
            (W, Action::Move("a3b4".into())),
            (W, Action::Pass),
        ] {
            g.apply(seat, &a).unwrap();
            log.push((seat, a));
            // Those games still ask for a choice between two kinds.
            if let Phase::Discard {
                holder, options, ..
            } = g.state.phase.clone()
            {
                let a = Action::Discard(options[0].short());
                g.apply(holder, &a).unwrap();
                log.push((holder, a));
            }
        }
        let mut replayed = Chesswords::initial(&g.state).unwrap();
        assert_eq!(replayed.state.hands, dealt.hands);
        for (seat, a) in &log {
            replayed.apply(*seat, a).unwrap();
        }
        assert_eq!(replayed.snapshot(), g.snapshot());
        assert!(g.snapshot().get("deal").is_none());
    }

    #[test]
    fn the_seed_draws_the_letters_and_the_operating_system_the_cards() {
        let opts = GameOptions {
            hidden_seed: None,
            ..options(42)
        };
        let a = Chesswords::new(None, &opts).unwrap();
        let b = Chesswords::new(None, &opts).unwrap();
        assert_eq!(a.state.letters, LetterGrid::from_seed(42));
        assert_eq!(b.state.letters, a.state.letters);
        assert_ne!(
            (&a.state.hands, &a.state.pile),
            (&b.state.hands, &b.state.pile)
        );
        let deal = a.state.deal.clone().unwrap();
        assert_eq!(
            (deal.hands, deal.pile),
            (a.state.hands.clone(), a.state.pile.clone())
        );
        assert_ne!(a.state.hands, cards::seed_deal(42).hands);
        // Reproducible only with a seed of its own for the cards.
        let c = Chesswords::new(None, &options(42)).unwrap();
        let d = Chesswords::new(None, &options(42)).unwrap();
        assert_eq!(c.state.deal, d.state.deal);
        let view = a.view(Viewer::Public);
        let letters = view.board.overlays.iter().find_map(|o| match o {
            Overlay::Letters(l) => Some(l.len()),
            _ => None,
        });
        assert_eq!(letters, Some(36));
        let fields = a.export_fields();
        assert_eq!(
            fields["letters"],
            serde_json::json!(a.state.letters.rows_from_top())
        );
        for key in ["hands", "pile", "deal", "words"] {
            assert!(!fields.contains_key(key), "{key}");
        }
    }

    /// Every card name, to look for in texts.
    fn card_names() -> Vec<Card> {
        let mut all = cards::deck();
        all.dedup();
        all
    }

    #[test]
    fn no_view_or_public_event_names_a_held_card_or_an_unrevealed_word() {
        let mut g = four_checkers();
        // Every public text so far was checked by the play; here: views and summaries.
        let m = g.marked_letters();
        let white = vec![format!("{}{}", m[0], m[1]), format!("{}{}", m[2], m[3])];
        g.apply(W, &Action::Words(white.clone())).unwrap();
        for viewer in [Viewer::Public, Viewer::Seat(W), Viewer::Seat(B)] {
            let v = g.view(viewer);
            for card in card_names() {
                assert!(!v.diagram.contains(&card.name()), "{viewer:?}");
            }
            if viewer != Viewer::Seat(W) {
                for w in &white {
                    assert!(!format!("{:?}", v).contains(&format!("{w} ")));
                }
            }
        }
        let summary = g.secret_summary(B).unwrap();
        assert!(summary.contains(&cards::hand_text(&g.state.hands[1])));
        for card in &g.state.hands[0] {
            if !g.state.hands[1].contains(card) {
                assert!(!summary.contains(&card.name()), "{summary}");
            }
        }
        assert!(!summary.contains(&white[0]));
        assert!(g.secret_summary(W).unwrap().contains(&white.join(" and ")));
    }
}
