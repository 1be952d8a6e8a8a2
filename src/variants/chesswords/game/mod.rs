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
use crate::notation::{parse_move, san, write_pgn_annotated};
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
            None => Position::start(Variant::Chesswords),
            Some(f) => {
                parse_fen(Variant::Chesswords, f).map_err(|e| RuleError::new(e.to_string()))?
            }
        };
        let game = Chesswords {
            state: State {
                seed,
                timer_minutes,
                start: (start != Position::start(Variant::Chesswords)).then(|| to_fen(&start)),
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
        let record = view::said_with_move(clue.as_deref(), said_with);
        let note = match said_with {
            None => None,
            Some(Ok(word)) => {
                let word = score::word_form(word).map_err(RuleError::new)?;
                score::played_word(&word).map_err(RuleError::new)?;
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
        if self.state.keeps_said {
            self.state.said.push((self.state.moves.len() - 1, record));
        }
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
            Phase::LastDiscard { holder } => vec![(*holder, prompts::last_discard())],
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
        let asked = match self.state.phase {
            Phase::Words => self.state.words.get(seat.0 as usize)?.is_none(),
            Phase::LastDiscard { holder } => holder == seat,
            _ => false,
        };
        asked.then_some(minutes as i64 * 60)
    }

    fn export_fields(&self, _viewer: Viewer) -> serde_json::Map<String, serde_json::Value> {
        self.export_map()
    }

    fn disguised(&self, owner: Seat) -> Option<Box<dyn GameRules>> {
        // A hand is secret until the game is over; each card becomes the next kind of
        // the deck's order, so a card that fitted a discard no longer does and another
        // does. (Words not yet revealed are secret too, but their reveal is the point of
        // the finale: their tests are in `tests/chesswords.rs`.)
        let hand = self.state.hands.get(owner.0 as usize)?;
        if self.is_over() || hand.is_empty() {
            return None;
        }
        let mut kinds = cards::deck();
        kinds.dedup();
        let next = |c: &Card| {
            let i = kinds.iter().position(|k| k == c).unwrap_or(0);
            kinds[(i + 1) % kinds.len()]
        };
        let mut disguise = self.clone();
        disguise.state.hands[owner.0 as usize] = hand.iter().map(next).collect();
        Some(Box::new(disguise))
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
            ChesswordsAction::Discard(card) if self.state.secret_discards => {
                next.discard_secretly(seat, card)
            }
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
}

mod discard;
mod finale;
mod view;

#[cfg(test)]
mod tests;
