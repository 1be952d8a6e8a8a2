//! [`GameRules`] for Secret Chesswords (`docs/rules/chesswords.md`): two partners on the
//! engine's Chesswords board (Los Alamos without check), a letter on every square, secret
//! hands of piece cards, turns of a clue (or pass) and a move named by a word's first and
//! last letters, discards that place checkers, and the finale of secret words, clues and
//! guesses that ends in a score and a grade.
//!
//! The moves are the engine's [`Game`]; everything else is [`State`], which is also the
//! snapshot. Secrets (the hands, the pile, the words before their reveal) leave the state
//! only through private notes, [`GameRules::project`] for their own seat (its holdings
//! and instructions), and the export once the game is over.

use super::action::ChesswordsAction;
use super::cards::{self, Card};
use super::letters::LetterGrid;
use super::prompts;
use super::score::{self, PlayerScore};
use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::pgn::{numbered_moves, turn_sans};
use crate::notation::{parse_move, san, write_pgn_ending};
use crate::render::{self, BoardView, Disc, Overlay};
use crate::rules::{Color, Game, Move, Position, Role, Square, Variant};
use crate::variants::api::{
    Action, Env, GameCommand, GameOutcome, GameRules, Note, Projection, Prompt, Reading, RuleError,
    Seat, Text, Viewer,
};
use crate::variants::chess::{diagram, find_uci, pgn_tags};
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
    /// `holder` chooses which of two qualifying kinds of card to discard (rule 6).
    Discard {
        /// Who discards.
        holder: Seat,
        /// The kinds of card that qualify, in hand order.
        options: Vec<Card>,
        /// Where the checker goes: the capturing piece's starting square.
        square: String,
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
    /// The seed the letters and the deal were drawn with.
    pub seed: u64,
    /// Minutes for the finale's words (`timer:N`), if set.
    pub timer_minutes: Option<u8>,
    /// The starting position, FEN, when the game did not start from the usual one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The letter grid.
    pub letters: LetterGrid,
    /// The moves played, UCI.
    pub moves: Vec<String>,
    /// White's hand and Black's: secret.
    pub hands: [Vec<Card>; 2],
    /// The draw pile, top card first: secret.
    pub pile: Vec<Card>,
    /// The discards, in order; each placed a checker.
    pub discards: Vec<Discarded>,
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

/// What happened, as the game tells it: the interface's notes.
type Event = Note;

fn said(text: impl Into<String>) -> Event {
    Note::public(Text::plain(text))
}

fn whisper(seat: Seat, text: impl Into<String>) -> Event {
    Note::private(seat, Text::plain(text))
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
    /// A new game drawn from `seed` (letters and cards), from the Chesswords start or
    /// from `fen` (for testing and teaching), with the finale timer of `timer_minutes`
    /// (1 to 5).
    pub fn new(
        fen: Option<&str>,
        seed: u64,
        timer_minutes: Option<u8>,
    ) -> Result<Chesswords, RuleError> {
        Chesswords::with_deal(fen, seed, seed, timer_minutes)
    }

    /// A new game whose letters come from `seed` and whose cards come from `deal_seed`
    /// (drawn from the operating system's entropy on the bot, see [`super::spec`]).
    pub fn with_deal(
        fen: Option<&str>,
        seed: u64,
        deal_seed: u64,
        timer_minutes: Option<u8>,
    ) -> Result<Chesswords, RuleError> {
        if let Some(t) = timer_minutes {
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
        let deal = cards::deal(deal_seed);
        let game = Chesswords {
            state: State {
                seed,
                timer_minutes,
                start: (start != Position::start(Variant::Chesswords)).then(|| to_fen(&start)),
                letters: LetterGrid::from_seed(seed),
                moves: Vec::new(),
                hands: deal.hands,
                pile: deal.pile,
                discards: Vec::new(),
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
        };
        if game.playable_moves().is_empty() {
            return Err(RuleError::new(
                "that position is already over: the side to move has no move",
            ));
        }
        Ok(game)
    }

    /// Rebuilds a game from its snapshot, replaying its moves.
    pub fn from_snapshot(state: &State) -> Result<Chesswords, RuleError> {
        let start = match &state.start {
            None => Position::start(Variant::Chesswords),
            Some(f) => parse_fen(Variant::Chesswords, f)
                .map_err(|e| RuleError::new(format!("snapshot start: {e}")))?,
        };
        let mut game = Game::from_position(start);
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
        self.game
            .play(m)
            .map_err(|e| RuleError::new(e.to_string()))?;
        self.state.moves.push(m.uci());
        if matches!(said_with, Some(Err(_))) {
            self.state.penalties += 1;
        }
        let mut events = vec![Note::moved(Text::player(
            seat,
            format!(" played {}", san(&before, m)),
        ))];
        events.extend(note.map(said));
        self.after_move(seat, m, &mut events);
        Ok(events)
    }

    /// A capture may earn the partner a discard; then play goes on or ends.
    fn after_move(&mut self, mover: Seat, m: Move, events: &mut Vec<Event>) {
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

    /// Play is over: the finale's words, or the score at once when nothing is marked.
    fn end_play(&mut self, why: PlayEnd, events: &mut Vec<Event>) {
        self.state.play_end = Some(why);
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
        events.push(Note::public(
            Text::plain("revealed: ")
                .push_player(giver)
                .push(format!(" had the words {}", words.join(" and "))),
        ));
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
        self.state.outcome = Some(outcome);
    }

    // ----- time -----

    /// `seat`'s time ran out (rule 13): a clue giver passes, a mover ends play, a
    /// discard chooser discards the first of the options, a player without words has
    /// none, a finale clue or guess scores that word 0.
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
                self.end_play(PlayEnd::Timeout, &mut events);
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
            Phase::Clue => vec![(partner(self.mover()), prompts::give_clue())],
            Phase::Move { clue: Some(_) } => vec![(self.mover(), prompts::play_word())],
            Phase::Move { clue: None } => vec![(self.mover(), prompts::free_move())],
            Phase::Discard { holder, .. } => vec![(*holder, prompts::discard())],
            Phase::Words => SEATS
                .into_iter()
                .filter(|s| self.state.words[s.0 as usize].is_none())
                .map(|s| (s, prompts::submit_words()))
                .collect(),
            Phase::FinaleClue { giver } => vec![(*giver, prompts::clue_for_word())],
            Phase::FinaleGuess { giver } => vec![(partner(*giver), prompts::guess())],
            Phase::Over => Vec::new(),
        }
    }

    fn read(&self, seat: Seat, command: &GameCommand, env: Env) -> Result<Reading, RuleError> {
        super::read::read(self, seat, command, env)
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Note>, RuleError> {
        let action: ChesswordsAction = action.to(Variant::Chesswords.display_name())?;
        self.act(seat, &action)
    }

    fn project(&self, viewer: Viewer) -> Projection {
        self.view(viewer)
    }

    fn outcome(&self) -> Option<GameOutcome> {
        self.state.outcome.clone()
    }

    fn aborted(&self) -> bool {
        self.state.aborted
    }

    fn timeout_is_automatic(&self) -> bool {
        true
    }

    fn pgn(&self, _viewer: Viewer, tags: &[(String, String)]) -> String {
        self.pgn_text(tags)
    }

    fn animation(
        &self,
        _viewer: Viewer,
        renderer: &render::Renderer,
        names: &[&str],
    ) -> Option<Vec<u8>> {
        self.animation_gif(renderer, names)
    }

    fn time_limit(&self, seat: Seat) -> Option<i64> {
        let minutes = self.state.timer_minutes?;
        (self.state.phase == Phase::Words && self.state.words.get(seat.0 as usize)?.is_none())
            .then_some(minutes as i64 * 60)
    }

    fn export_fields(&self, _viewer: Viewer) -> serde_json::Map<String, serde_json::Value> {
        self.export_map()
    }

    fn snapshot(&self) -> serde_json::Value {
        serde_json::to_value(&self.state).unwrap_or(serde_json::Value::Null)
    }
}

impl Chesswords {
    /// Applies an action of the variant's own type. On error nothing changed.
    pub fn act(&mut self, seat: Seat, action: &ChesswordsAction) -> Result<Vec<Event>, RuleError> {
        color_of(seat)?;
        if self.state.aborted {
            return Err(RuleError::over("the game was aborted"));
        }
        if self.state.phase == Phase::Over {
            return Err(RuleError::over("the game is over"));
        }
        // Work on a copy so that a refusal anywhere changes nothing.
        let mut next = self.clone();
        let events = match action {
            ChesswordsAction::Clue(text) => next.clue(seat, text),
            ChesswordsAction::Pass => next.pass(seat),
            ChesswordsAction::Play { word, mv } => next.play(seat, Some(Ok(word)), mv),
            ChesswordsAction::Letters { letters, mv } => next.play(seat, Some(Err(letters)), mv),
            ChesswordsAction::Move(mv) => next.play(seat, None, mv),
            ChesswordsAction::Discard(card) => next.choose_discard(seat, card),
            ChesswordsAction::Words(words) => next.submit_words(seat, words),
            ChesswordsAction::Guess(word) => next.guess(seat, word),
            ChesswordsAction::Timeout => next.timeout(seat),
            ChesswordsAction::Resign => {
                let outcome = GameOutcome {
                    result: score::Grade::Lost.letter().to_string(),
                    reason: "resignation".into(),
                    score: None,
                };
                next.state.phase = Phase::Over;
                next.state.outcome = Some(outcome);
                Ok(vec![said(format!(
                    "{} resigns: the partners lose the game together (F)",
                    side(seat)
                ))])
            }
            ChesswordsAction::Abort => {
                if !self.can_abort() {
                    return Err(RuleError::new(
                        "both sides have moved: the game can no longer be aborted (resign instead)",
                    ));
                }
                next.state.aborted = true;
                next.state.phase = Phase::Over;
                Ok(Vec::new())
            }
        }?;
        *self = next;
        Ok(events)
    }

    /// Reads a move typed by `seat` into its UCI: only the mover, in a turn's move, and
    /// not onto a checker.
    pub fn parse_move(&self, seat: Seat, text: &str) -> Result<String, RuleError> {
        color_of(seat)?;
        if self.is_over() {
            return Err(RuleError::over("the game is over"));
        }
        if !matches!(self.state.phase, Phase::Move { .. }) || seat != self.mover() {
            return self.refuse("you cannot move");
        }
        let m = parse_move(self.position(), text).map_err(RuleError::from)?;
        Ok(self.find_move(&m.uci())?.uci())
    }

    /// What `viewer` sees: the board with letters and checkers, the record, and for a
    /// seat its own moves, hand and instructions (never the partner's).
    fn view(&self, viewer: Viewer) -> Projection {
        let bottom = match viewer {
            Viewer::Seat(s) => color_of_seat(s),
            Viewer::Public => render::PublicOrientation::default().bottom(self.to_move()),
        };
        let seat = match viewer {
            Viewer::Seat(s) if color_of(s).is_ok() => Some(s),
            _ => None,
        };
        Projection {
            fen: to_fen(self.position()),
            last_move: self.game.moves().last().map(Move::uci),
            diagram: self.text_diagram(),
            board: self.board(bottom),
            record: self.move_list(),
            numbered: self.numbered_moves(),
            legal: seat.map(|s| self.legal_moves(s)).unwrap_or_default(),
            holdings: seat.and_then(|s| self.secret_summary(s)),
            counters: None,
            instructions: seat.and_then(|s| self.instructions(s)),
        }
    }

    /// Whether an abort is still allowed: before each side has moved.
    pub fn can_abort(&self) -> bool {
        !self.is_over() && self.game.moves().len() < 2
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

    fn pgn_text(&self, tags: &[(String, String)]) -> String {
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

    fn animation_gif(&self, renderer: &render::Renderer, names: &[&str]) -> Option<Vec<u8>> {
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
        if let Some(Some(words)) = self.state.words.get(seat.0 as usize) {
            if !words.is_empty() {
                text.push_str(&format!("; your words: {}", words.join(" and ")));
            }
        }
        Some(text)
    }

    fn export_map(&self) -> serde_json::Map<String, serde_json::Value> {
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
            m.insert(
                "words".into(),
                json!({"white": self.state.words[0], "black": self.state.words[1]}),
            );
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::api::{Audience, Span};
    use ChesswordsAction as Action;

    const W: Seat = Seat(0);
    const B: Seat = Seat(1);

    fn cards_of(list: &str) -> Vec<Card> {
        list.split_whitespace()
            .map(|c| Card::parse(c).unwrap())
            .collect()
    }

    /// A game from `fen` with the given hands and pile (top first).
    fn setup(fen: &str, white: &str, black: &str, pile: &str) -> Chesswords {
        let mut g = Chesswords::new(Some(fen), 7, None).unwrap();
        g.state.hands = [cards_of(white), cards_of(black)];
        g.state.pile = cards_of(pile);
        g
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// A word that fits the move `uci` of `g`: its two letters with an A between.
    fn word_for(g: &Chesswords, uci: &str) -> String {
        let m = find_uci(g.position(), uci).unwrap();
        format!("{}A{}", g.letter(m.from), g.letter(m.to))
    }

    /// The notes' texts that name no player (not moves, not reveals), public or private.
    fn texts(events: &[Event], public: bool) -> Vec<String> {
        events
            .iter()
            .filter(|e| !e.text.0.iter().any(|s| matches!(s, Span::Player(_))))
            .filter(|e| (e.to == Audience::Everyone) == public)
            .map(|e| e.text.render(|s| side(s).to_string()))
            .collect()
    }

    /// The clue giver clues and the mover plays `uci` with a fitting word.
    fn clue_and_play(g: &mut Chesswords, uci: &str) -> Vec<Event> {
        let mover = g.mover();
        g.act(partner(mover), &Action::Clue("a hint".into()))
            .unwrap();
        let word = word_for(g, uci);
        g.act(
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
        let mut g = Chesswords::new(None, 1, None).unwrap();
        assert_eq!(g.awaiting(), vec![(B, prompts::give_clue())]);
        assert!(g.legal_moves(W).is_empty(), "no move before the clue");
        let e = g.parse_move(W, "Nd3").unwrap_err();
        assert!(e.text.contains("Black gives a clue"), "{e}");
        let e = g.act(W, &Action::Clue("mine".into())).unwrap_err();
        assert!(e.text.contains("Black gives a clue"), "{e}");
        let ev = g.act(B, &Action::Clue("  a sweet dish ".into())).unwrap();
        assert_eq!(texts(&ev, true), vec!["Black's clue: “a sweet dish”"]);
        assert_eq!(g.awaiting(), vec![(W, prompts::play_word())]);
        assert_eq!(
            g.legal_moves(W).len(),
            10,
            "six pawn moves, four knight moves"
        );
        let uci = g.parse_move(W, "Nd3").unwrap();
        assert_eq!(uci, "e1d3");
        let ev = g
            .act(
                W,
                &Action::Play {
                    word: word_for(&g, "e1d3").to_lowercase(),
                    mv: uci,
                },
            )
            .unwrap();
        assert!(ev[0].board && ev[0].text == Text::player(W, " played Nd3"));
        assert!(texts(&ev, true)[0].starts_with("with the word "));
        assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
    }

    #[test]
    fn clues_are_one_line_of_one_to_a_hundred_characters() {
        let mut g = Chesswords::new(None, 1, None).unwrap();
        let before = g.snapshot();
        for bad in ["", "   ", "two\nlines", &"x".repeat(101)] {
            let e = g.act(B, &Action::Clue(bad.into())).unwrap_err();
            assert!(e.text.contains("1 to 100 characters"), "{e}");
        }
        assert_eq!(g.snapshot(), before);
        g.act(B, &Action::Clue("é".repeat(100))).unwrap();
    }

    #[test]
    fn a_move_whose_letters_do_not_match_the_word_is_refused_and_changes_nothing() {
        let mut g = Chesswords::new(None, 3, None).unwrap();
        g.act(B, &Action::Clue("hint".into())).unwrap();
        let before = g.snapshot();
        let (from, to) = (g.letter(sq("e1")), g.letter(sq("d3")));
        // A word with the right first letter and a wrong last one.
        let wrong_end = if to == 'Z' { 'Y' } else { 'Z' };
        let word = format!("{from}O{wrong_end}");
        let e = g
            .act(
                W,
                &Action::Play {
                    word: word.clone(),
                    mv: "e1d3".into(),
                },
            )
            .unwrap_err();
        assert!(
            e.text.starts_with(&format!(
                "the move goes from {from} to {to}, but '{word}' starts with {from} and ends with {wrong_end}"
            )),
            "{e}"
        );
        assert!(e.text.contains("letters XY MOVE"), "{e}");
        for word in ["x", "tw0", "two words"] {
            let e = g
                .act(
                    W,
                    &Action::Play {
                        word: word.into(),
                        mv: "e1d3".into(),
                    },
                )
                .unwrap_err();
            assert!(e.text.contains("word"), "{e}");
        }
        assert_eq!(g.snapshot(), before);
    }

    #[test]
    fn naming_the_letters_costs_a_penalty_point_and_must_match() {
        let mut g = Chesswords::new(None, 3, None).unwrap();
        g.act(B, &Action::Clue("hint".into())).unwrap();
        let (from, to) = (g.letter(sq("b2")), g.letter(sq("b3")));
        let wrong = format!("{}{}", if from == 'Q' { 'R' } else { 'Q' }, to);
        let e = g
            .act(
                W,
                &Action::Letters {
                    letters: wrong,
                    mv: "b2b3".into(),
                },
            )
            .unwrap_err();
        assert!(e
            .text
            .starts_with(&format!("the move goes from {from} to {to}, not")));
        let e = g
            .act(
                W,
                &Action::Letters {
                    letters: "abc".into(),
                    mv: "b2b3".into(),
                },
            )
            .unwrap_err();
        assert!(e.text.contains("not two letters"), "{e}");
        assert_eq!(g.state.penalties, 0);
        let ev = g
            .act(
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
        let mut g = Chesswords::new(None, 2, None).unwrap();
        g.act(B, &Action::Clue("hint".into())).unwrap();
        let e = g.act(W, &Action::Move("b2b3".into())).unwrap_err();
        assert!(e.text.contains("play WORD MOVE"), "{e}");
        let mut g = Chesswords::new(None, 2, None).unwrap();
        let ev = g.act(B, &Action::Pass).unwrap();
        assert_eq!(texts(&ev, true), vec!["Black passes: White moves freely"]);
        assert_eq!(g.awaiting(), vec![(W, prompts::free_move())]);
        let word = word_for(&g, "b2b3");
        let e = g
            .act(
                W,
                &Action::Play {
                    word,
                    mv: "b2b3".into(),
                },
            )
            .unwrap_err();
        assert!(e.text.contains("Black passed, so you move freely"), "{e}");
        g.act(W, &Action::Move("b2b3".into())).unwrap();
        assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
    }

    #[test]
    fn one_qualifying_kind_is_discarded_at_once_with_a_checker_and_a_secret_draw() {
        // White's pawn a3 takes Black's pawn b4: Black may discard a black pawn (the
        // captured piece) or a white pawn (the capturer); Black holds only black pawns.
        let fen = "5k/6/1p1p1p/P1P1P1/3P2/K5 w - - 0 1";
        let mut g = setup(fen, "wK wQ wR bQ", "bP bP bK wN", "bR wR bN wN bQ wQ");
        let ev = clue_and_play(&mut g, "a3b4");
        assert_eq!(g.state.hands[1], cards_of("bP bK wN bR"));
        assert_eq!(g.state.pile.len(), 5);
        assert_eq!(g.checkers(), vec![sq("a3")]);
        let public = texts(&ev, true).join(" | ");
        assert!(
            public.contains(&format!(
                "Black discards the black pawn: a checker on a3 marks the letter {}",
                g.letter(sq("a3"))
            )),
            "{public}"
        );
        assert!(public.contains("Black draws a card (5 left in the pile)"));
        assert!(
            !public.contains("rook"),
            "the drawn card stays secret: {public}"
        );
        assert!(ev.iter().any(|e| e.to == Audience::Seat(B)
            && e.text
                .render(|_| String::new())
                .starts_with("you drew the black rook")));
        assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
    }

    #[test]
    fn no_qualifying_card_means_no_discard() {
        let fen = "5k/6/1p1p1p/P1P1P1/3P2/K5 w - - 0 1";
        let mut g = setup(fen, "wK wQ wR bQ", "bK bQ bR wN", "bR wR bN wN bQ wQ");
        clue_and_play(&mut g, "a3b4");
        assert!(g.checkers().is_empty());
        assert_eq!(g.state.hands[1].len(), 4);
        assert_eq!(g.state.pile.len(), 6);
    }

    #[test]
    fn two_qualifying_kinds_ask_the_holder_privately_and_the_game_waits() {
        let fen = "5k/6/1p1p1p/P1P1P1/3P2/K5 w - - 0 1";
        let mut g = setup(fen, "wK wQ wR bQ", "bP wP bK bP", "bR wR bN wN bQ wQ");
        let ev = clue_and_play(&mut g, "a3b4");
        assert_eq!(g.awaiting(), vec![(B, prompts::discard())]);
        assert!(prompts::discard().secret);
        assert!(
            !format!("{:?}", g.awaiting()).contains("pawn"),
            "the prompt is public"
        );
        let public = texts(&ev, true).join(" | ");
        assert!(public.contains("Black may discard one of two kinds of card"));
        assert!(!public.contains("pawn"), "{public}");
        let how = g.instructions(B).unwrap();
        assert!(how.contains("black pawn (bP) or white pawn (wP)"), "{how}");
        assert!(g.instructions(W).is_none());
        // The clue waits for the choice; a wrong card or seat is refused.
        let e = g.act(W, &Action::Clue("hint".into())).unwrap_err();
        assert!(
            e.text.contains("Black is choosing a card to discard"),
            "{e}"
        );
        assert!(g.act(W, &Action::Discard("wP".into())).is_err());
        let e = g.act(B, &Action::Discard("bK".into())).unwrap_err();
        assert!(
            e.text
                .contains("the black pawn (bP) or the white pawn (wP)"),
            "{e}"
        );
        let e = g
            .act(B, &Action::Discard("purple pawn".into()))
            .unwrap_err();
        assert!(e.text.contains("not a card"), "{e}");
        let ev = g.act(B, &Action::Discard("white pawn".into())).unwrap();
        assert!(texts(&ev, true)[0].starts_with("Black discards the white pawn: a checker on a3"));
        assert_eq!(g.state.hands[1], cards_of("bP bK bP bR"));
        assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
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
        g.act(B, &Action::Pass).unwrap();
        let moves = g.legal_moves(W);
        assert!(moves.contains(&"Ra2".to_string()));
        assert!(!moves.contains(&"Ra3".to_string()));
        assert!(
            moves.contains(&"Ra4".to_string()),
            "slides across the checker"
        );
        let e = g.parse_move(W, "Ra3").unwrap_err();
        assert!(
            e.text
                .starts_with("a3 has a checker: no piece may move onto a checker"),
            "{e}"
        );
        let e = g.act(W, &Action::Move("a1a3".into())).unwrap_err();
        assert!(e.text.starts_with("a3 has a checker"), "{e}");
        assert_eq!(g.parse_move(W, "Ra6").unwrap(), "a1a6");
    }

    #[test]
    fn capturing_a_king_earns_its_discard_then_ends_play() {
        let mut g = setup("5k/6/6/6/6/K4R w - - 0 1", "wQ", "bK wQ", "bN");
        let ev = clue_and_play(&mut g, "f1f6");
        let public = texts(&ev, true).join(" | ");
        assert!(public.contains("Black discards the black king: a checker on f1"));
        assert!(
            public.contains("play is over: a king was captured"),
            "{public}"
        );
        assert_eq!(g.state.play_end, Some(PlayEnd::KingCaptured));
        assert_eq!(
            g.awaiting(),
            vec![(W, prompts::submit_words()), (B, prompts::submit_words())]
        );
    }

    #[test]
    fn two_passes_in_a_row_end_play_and_nothing_marked_scores_at_once() {
        let mut g = Chesswords::new(None, 5, None).unwrap();
        g.act(B, &Action::Pass).unwrap();
        g.act(W, &Action::Move("b2b3".into())).unwrap();
        let ev = g.act(W, &Action::Pass).unwrap();
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
        let mut g = Chesswords::new(None, 5, None).unwrap();
        g.act(B, &Action::Pass).unwrap();
        g.act(W, &Action::Move("b2b3".into())).unwrap();
        clue_and_play_after_clue(&mut g, "b5b4");
        g.act(B, &Action::Pass).unwrap();
        assert!(g.outcome().is_none());
        assert_eq!(g.awaiting(), vec![(W, prompts::free_move())]);
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
        assert_eq!(g.awaiting(), vec![(W, prompts::give_clue())]);
        g.act(W, &Action::Pass).unwrap();
        let ev = g.act(B, &Action::Move("f6e6".into())).unwrap();
        assert!(texts(&ev, true)
            .join(" ")
            .contains("the player to move has no move that does not end on a checker"));
        assert_eq!(g.state.play_end, Some(PlayEnd::NoMoves));
        assert_eq!(g.state.phase, Phase::Words);
    }

    #[test]
    fn timeouts_a_clue_giver_passes_a_mover_ends_play() {
        let mut g = Chesswords::new(None, 9, None).unwrap();
        let ev = g.act(B, &Action::Timeout).unwrap();
        assert_eq!(
            texts(&ev, true),
            vec![
                "Black's time ran out: that is a pass",
                "Black passes: White moves freely"
            ]
        );
        assert!(g.act(B, &Action::Timeout).is_err(), "Black is not awaited");
        g.act(W, &Action::Move("b2b3".into())).unwrap();
        // White's time runs out on the clue: a second pass in a row.
        g.act(W, &Action::Timeout).unwrap();
        assert_eq!(g.outcome().unwrap().reason, "passes");

        let mut g = Chesswords::new(None, 9, None).unwrap();
        g.act(B, &Action::Clue("hint".into())).unwrap();
        g.act(W, &Action::Timeout).unwrap();
        assert_eq!(g.state.play_end, Some(PlayEnd::Timeout));
        assert_eq!(g.outcome().unwrap().reason, "timeout");
    }

    /// Four pawn captures, each discarding a pawn: checkers on a3, d4, e3, c3; then two
    /// passes. One of the moves names its letters (a penalty point).
    fn four_checkers() -> Chesswords {
        let fen = "5k/6/1p1p1p/P1P1P1/3P2/K5 w - - 0 1";
        let mut g = setup(fen, "wP wP wK bQ", "bP bP bK wQ", "bR wR bN wN wK bK");
        clue_and_play(&mut g, "a3b4");
        g.act(W, &Action::Clue("hint".into())).unwrap();
        let m = find_uci(g.position(), "d4c3").unwrap();
        let letters = format!("{}{}", g.letter(m.from), g.letter(m.to));
        g.act(
            B,
            &Action::Letters {
                letters,
                mv: "d4c3".into(),
            },
        )
        .unwrap();
        clue_and_play(&mut g, "e3f4");
        clue_and_play(&mut g, "c3d2");
        g.act(B, &Action::Pass).unwrap();
        g.act(W, &Action::Move("a1b1".into())).unwrap();
        g.act(W, &Action::Pass).unwrap();
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
            .act(W, &Action::Words(vec![w(0, 0), w(0, 0)]))
            .unwrap_err();
        assert!(e.text.contains("times") || e.text.contains("only"), "{e}");
        let e = g.act(W, &Action::Words(vec![w(0, 1)])).unwrap_err();
        assert!(e.text.contains("two words"), "{e}");
        // White: two words using all four letters. Black: one pair, two letters unused.
        let white = vec![w(0, 1), w(2, 3)];
        let ev = g.act(W, &Action::Words(white.clone())).unwrap();
        assert_eq!(texts(&ev, true), vec!["White has submitted their words"]);
        for word in &white {
            assert!(!texts(&ev, true).join(" ").contains(word.as_str()));
        }
        assert_eq!(g.awaiting(), vec![(B, prompts::submit_words())]);
        // White may replace the words until Black has submitted.
        let ev = g.act(W, &Action::Words(white.clone())).unwrap();
        assert!(texts(&ev, true).is_empty());
        let black = vec![w(0, 2), w(1, 3)];
        g.act(B, &Action::Words(black.clone())).unwrap();
        assert_eq!(g.awaiting(), vec![(W, prompts::clue_for_word())]);
        g.act(W, &Action::Clue("first".into())).unwrap();
        assert_eq!(g.awaiting(), vec![(B, prompts::guess())]);
        let ev = g.act(B, &Action::Guess(white[1].to_lowercase())).unwrap();
        assert!(texts(&ev, true)[0].ends_with("right!"));
        assert!(ev.iter().any(
            |e| e.text.0.first() == Some(&Span::Text("revealed: ".into()))
                && e.text.0.get(1) == Some(&Span::Player(W))
        ));
        g.act(B, &Action::Clue("second".into())).unwrap();
        let ev = g.act(W, &Action::Guess("zzz".into())).unwrap();
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
        g.act(W, &Action::Words(vec![])).unwrap();
        let ev = g.act(B, &Action::Timeout).unwrap();
        let public = texts(&ev, true).join(" | ");
        assert!(public.contains("Black's time ran out: Black has no words"));
        assert!(public.contains("White has no words: Black has nothing to guess"));
        let o = g.outcome().unwrap();
        assert_eq!(o.score, Some(vec![-4, -4]));
    }

    #[test]
    fn the_finale_timer_applies_to_the_words_only() {
        let fen = "5k/6/6/6/6/K4R w - - 0 1";
        let mut g = Chesswords::new(Some(fen), 4, Some(3)).unwrap();
        g.state.hands = [cards_of("wQ"), cards_of("bK")];
        assert_eq!(g.time_limit(B), None);
        clue_and_play(&mut g, "f1f6");
        assert_eq!(g.time_limit(W), Some(180));
        assert!(g.instructions(W).unwrap().contains("You have 3 minutes"));
        g.act(W, &Action::Words(vec![])).unwrap();
        assert_eq!(g.time_limit(W), None, "submitted");
        assert_eq!(g.time_limit(B), Some(180));
        for t in [0, 6] {
            let e = Chesswords::new(None, 4, Some(t)).unwrap_err();
            assert!(e.text.contains("1 to 5 minutes"), "{e}");
        }
    }

    #[test]
    fn resigning_loses_the_game_and_abort_is_only_before_both_moved() {
        let mut g = Chesswords::new(None, 1, None).unwrap();
        assert!(g.can_abort());
        let ev = g.act(B, &Action::Resign).unwrap();
        let o = g.outcome().unwrap();
        assert_eq!((o.result.as_str(), o.reason.as_str()), ("F", "resignation"));
        assert!(texts(&ev, true)[0].ends_with("lose the game together (F)"));
        assert!(g.act(W, &Action::Pass).is_err());
        let mut g = Chesswords::new(None, 1, None).unwrap();
        g.act(B, &Action::Pass).unwrap();
        g.act(W, &Action::Move("b2b3".into())).unwrap();
        g.act(W, &Action::Clue("hint".into())).unwrap();
        g.act(
            B,
            &Action::Play {
                word: word_for(&g, "b5b4"),
                mv: "b5b4".into(),
            },
        )
        .unwrap();
        assert!(!g.can_abort());
        assert!(g.act(W, &Action::Abort).is_err());
        let offer: crate::variants::api::Action =
            serde_json::from_str(r#"{"Offer":"Draw"}"#).unwrap();
        let e = g.apply(W, &offer).unwrap_err();
        assert!(e.text.contains("not part of Secret Chesswords"), "{e}");
    }

    #[test]
    fn snapshots_round_trip_and_replay_equals_the_snapshot() {
        let fen = "5k/6/1p1p1p/P1P1P1/3P2/K5 w - - 0 1";
        let mut g = Chesswords::new(Some(fen), 11, None).unwrap();
        let mut log: Vec<(Seat, Action)> = Vec::new();
        let mut act = |g: &mut Chesswords, seat: Seat, a: Action| {
            g.act(seat, &a).unwrap();
            log.push((seat, a));
            // A discard with a choice is answered with the first option.
            if let Phase::Discard {
                holder, options, ..
            } = g.state.phase.clone()
            {
                let a = Action::Discard(options[0].name());
                g.act(holder, &a).unwrap();
                log.push((holder, a));
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
        let mut replayed = Chesswords::new(Some(fen), 11, None).unwrap();
        for (seat, a) in &log {
            replayed.act(*seat, a).unwrap();
        }
        assert_eq!(replayed.snapshot(), g.snapshot());
    }

    #[test]
    fn the_seed_draws_the_letters_and_the_deal() {
        let g = Chesswords::new(None, 42, None).unwrap();
        assert_eq!(g.state.letters, LetterGrid::from_seed(42));
        let d = cards::deal(42);
        assert_eq!(g.state.hands, d.hands);
        assert_eq!(g.state.pile, d.pile);
        let view = g.view(Viewer::Public);
        let letters = view.board.overlays.iter().find_map(|o| match o {
            Overlay::Letters(l) => Some(l.len()),
            _ => None,
        });
        assert_eq!(letters, Some(36));
        let fields = g.export_fields(Viewer::Public);
        assert_eq!(
            fields["letters"],
            serde_json::json!(g.state.letters.rows_from_top())
        );
        assert!(!fields.contains_key("hands") && !fields.contains_key("words"));
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
        g.act(W, &Action::Words(white.clone())).unwrap();
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
