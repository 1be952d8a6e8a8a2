//! [`GameRules`] for Secret Chesswords (`docs/rules/chesswords.md`): two partners on the
//! engine's Chesswords board (Los Alamos without check), a letter on every square, secret
//! hands of piece cards, turns of a clue (or pass) and a move named by a word's first and
//! last letters, discards that place checkers, and the finale of secret words, clues and
//! guesses that ends in a score and a grade.
//!
//! The moves are the engine's [`Game`]; everything else is [`State`], which is also the
//! snapshot. Secrets (the hands, the pile, the words before their reveal) leave the state
//! only through private notes, [`GameRules::project`] for their own seat (its holdings
//! and instructions), and the export once the game is over. The deal is a hidden draw
//! (see [`super::spec`]), and discards are optional and private: nothing public depends
//! on whether a player holds a card that qualifies (rules 4, 6 and 8).

use super::action::ChesswordsAction;
use super::cards::{self, Card, Deal};
use super::letters::LetterGrid;
use super::prompts;
use super::score::{self, PlayerScore};
use crate::notation::fen::{parse_fen, to_fen};
use crate::notation::pgn::{numbered_moves, turn_sans};
use crate::notation::{parse_move, san, write_pgn_with_result};
use crate::render::{self, BoardView, Disc, Overlay};
use crate::rules::{Color, EndReason, Game, Move, Position, Role, Square, Variant};
use crate::variants::api::{
    command_mark, Action, Env, GameCommand, GameOutcome, GameRules, NamedOutcome, Note, Projection,
    Prompt, Reading, Reason, RuleError, Seat, Text, Viewer,
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
    /// Every way play ends.
    const ALL: [PlayEnd; 4] = [
        PlayEnd::KingCaptured,
        PlayEnd::Passes,
        PlayEnd::NoMoves,
        PlayEnd::Timeout,
    ];

    /// The game's reason when play ended so: its name in outcomes and exports
    /// (`king-captured`) and its words ("capture of the king: grade B").
    pub fn reason(self) -> Reason {
        match self {
            PlayEnd::KingCaptured => EndReason::KingCaptured.into(),
            PlayEnd::Passes => Reason::new("passes", "two passes in a row"),
            PlayEnd::NoMoves => Reason::new("no-moves", "no move left"),
            PlayEnd::Timeout => EndReason::Timeout.into(),
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
    /// What was said with each move, public (`clue “drink”, word DRAT`), by the move's
    /// index in `moves`: the record's comments. Kept only where `keeps_said` is set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub said: Vec<(usize, String)>,
    /// Whether the game keeps `said`: set in games made since; `false` in games stored
    /// before, whose logs must replay to the snapshots they have.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keeps_said: bool,
    /// The outcome, once the game is over: the reason by its name, one of play's ends or
    /// a resignation ([`ending_reason`]).
    pub outcome: Option<NamedOutcome>,
    /// Whether the game was aborted.
    pub aborted: bool,
}

/// A Secret Chesswords game.
#[derive(Clone, Debug)]
pub struct Chesswords {
    state: State,
    game: Game,
}

/// The reason a stored outcome names: how play ended ([`PlayEnd::reason`]), or a
/// resignation; `None` for a name no Secret Chesswords game ends with.
fn ending_reason(name: &str) -> Option<Reason> {
    PlayEnd::ALL
        .iter()
        .map(|p| p.reason())
        .chain([EndReason::Resignation.into()])
        .find(|r| r.name() == name)
}

/// The position a stored game started from.
fn start_position(state: &State) -> Result<Position, RuleError> {
    match &state.start {
        None => Ok(Position::start(Variant::CHESSWORDS)),
        Some(f) => parse_fen(Variant::CHESSWORDS, f)
            .map_err(|e| RuleError::new(format!("snapshot start: {e}"))),
    }
}

fn color_of(seat: Seat) -> Result<Color, RuleError> {
    seat.side()
}

fn seat_of(color: Color) -> Seat {
    Seat::of_side(color)
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

/// Cards to choose from, as a sentence: `the white pawn (wP) or the black pawn (bP)`.
fn card_choice(options: &[Card]) -> String {
    options
        .iter()
        .map(|c| format!("the {c} ({})", c.short()))
        .collect::<Vec<_>>()
        .join(" or ")
}

fn plural(n: usize, one: &str) -> String {
    crate::variants::api::plural(n, one, &format!("{one}s"))
}

impl Chesswords {
    /// A new game whose letters and cards both come from `seed` (tests), from the
    /// Chesswords start or from `fen` (for testing and teaching), with the finale timer
    /// of `timer_minutes` (1 to 5).
    pub fn new(
        fen: Option<&str>,
        seed: u64,
        timer_minutes: Option<u8>,
    ) -> Result<Chesswords, RuleError> {
        Chesswords::with_deal(fen, seed, cards::deal(seed), timer_minutes)
    }

    /// A new game whose letters come from `seed` and whose cards are `deal` (a hidden
    /// draw from the operating system's entropy on the bot, see [`super::spec`]).
    pub fn with_deal(
        fen: Option<&str>,
        seed: u64,
        deal: Deal,
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
            None => Position::start(Variant::CHESSWORDS),
            Some(f) => {
                parse_fen(Variant::CHESSWORDS, f).map_err(|e| RuleError::new(e.to_string()))?
            }
        };
        let game = Chesswords {
            state: State {
                seed,
                timer_minutes,
                start: (start != Position::start(Variant::CHESSWORDS)).then(|| to_fen(&start)),
                letters: LetterGrid::from_seed(seed),
                secret_discards: true,
                moves: Vec::new(),
                hands: deal.hands,
                pile: deal.pile,
                discards: Vec::new(),
                open_discard: None,
                penalties: 0,
                king_captured: false,
                last_pass: false,
                phase: Phase::Clue,
                play_end: None,
                words: [None, None],
                finale: Default::default(),
                said: Vec::new(),
                keeps_said: true,
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

    /// Makes this new game one of those stored before discards were optional and private
    /// (one qualifying kind discarded at once, a choice between two asked while the game
    /// waits), and kept no record of what was said with each move, to replay their logs.
    pub fn keep_discard_rules_of_before(&mut self) {
        self.state.secret_discards = false;
        self.state.keeps_said = false;
    }

    /// Rebuilds a game from its snapshot, replaying its moves.
    pub fn from_snapshot(state: &State) -> Result<Chesswords, RuleError> {
        if let Some(o) = &state.outcome {
            if ending_reason(&o.reason).is_none() {
                return Err(RuleError::new("snapshot outcome: no such ending"));
            }
        }
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

    /// The outcome, once the game is over, its reason given again by name.
    pub fn outcome(&self) -> Option<GameOutcome> {
        let o = self.state.outcome.as_ref()?;
        Some(o.with(ending_reason(&o.reason)?))
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
                "{} gives a clue ({}) or passes, then {} moves",
                side(partner(self.mover())),
                command_mark("clue TEXT"),
                side(self.mover())
            ),
            Phase::Move { clue: Some(_) } => format!(
                "{} names the word and moves ({}, or {})",
                side(self.mover()),
                command_mark("play WORD MOVE"),
                command_mark("letters XY MOVE")
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
            Phase::Words => format!(
                "play is over: the players are sending their words privately ({})",
                command_mark("words WORD1 WORD2")
            ),
            Phase::FinaleClue { giver } => {
                format!("{} gives a clue for one of their words", side(*giver))
            }
            Phase::FinaleGuess { giver } => format!(
                "{} guesses {}'s word ({})",
                side(partner(*giver)),
                side(*giver),
                prompts::say::GUESS
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
}

fn color_of_seat(seat: Seat) -> Color {
    if seat.0 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

mod discard;
mod finale;
mod play;
mod rules;
mod view;

#[cfg(test)]
mod tests;
