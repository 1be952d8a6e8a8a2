//! The variant abstraction the referee drives: a game is a state machine that says whom it
//! awaits and for what, applies actions from seats, shows a view per viewer and reports its
//! outcome. Every variant implements [`GameRules`]; the service never looks inside a game.

use crate::render::{BoardView, Renderer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A player's place in a game: an index into the game's seats (chess: 0 White, 1 Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Seat(pub u8);

/// What an awaited seat is asked to do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Prompt {
    /// Play a move (or resign, offer, claim).
    Move,
    /// Answer the opponent's draw offer (or move, which declines it).
    AnswerDraw,
    /// Answer the opponent's fast-fifty proposal (or move, which rejects it).
    AnswerFastFifty,
    /// Secretly pick one of the side's pieces (`pick SQUARE`, privately).
    PickPiece,
    /// Secretly pick a target square (`pick SQUARE`, privately).
    PickTarget,
    /// Decide which half of the other side's unplayable pick stands (`decide piece|target`).
    Decide,
    /// Choose one of these equally good options (`choose SQUARE`).
    Choose(Vec<String>),
    /// Give the partner a clue (`clue TEXT`) or pass (Secret Chesswords).
    GiveClue,
    /// Give a clue for one of the seat's own finale words (`clue TEXT`; no passing).
    ClueForWord,
    /// Move with the word guessed from the partner's clue (`play WORD MOVE`, or
    /// `letters XY MOVE` for a penalty point).
    PlayWord,
    /// Decide privately whether to discard a card (`discard CARD`, or `discard none`).
    /// It names no card: what the seat may discard is told only to the seat
    /// ([`GameRules::instructions`]).
    Discard,
    /// Submit two secret words for the finale (`words WORD1 WORD2`, privately).
    SubmitWords,
    /// Guess the partner's finale word (`guess WORD`).
    Guess,
}

impl Prompt {
    /// Whether the answer is secret: asked and answered only in private.
    pub fn is_secret(&self) -> bool {
        matches!(
            self,
            Prompt::PickPiece | Prompt::PickTarget | Prompt::Discard | Prompt::SubmitWords
        )
    }

    /// Whether the seat holds up the game until it answers, and so has a deadline (an
    /// answer to an offer does not: playing on declines it).
    pub fn is_turn(&self) -> bool {
        !matches!(self, Prompt::AnswerDraw | Prompt::AnswerFastFifty)
    }

    /// What the seat is asked to do, as in "@bob (White) to move".
    pub fn describe(&self) -> String {
        match self {
            Prompt::Move => "to move".into(),
            Prompt::AnswerDraw => "to answer the draw offer".into(),
            Prompt::AnswerFastFifty => "to answer the fast-fifty".into(),
            Prompt::PickPiece => "to pick a piece (privately)".into(),
            Prompt::PickTarget => "to pick a target square (privately)".into(),
            Prompt::Decide => "to decide piece or target".into(),
            Prompt::Choose(options) => format!("to choose one of {}", options.join(", ")),
            Prompt::GiveClue => "to give a clue or pass".into(),
            Prompt::ClueForWord => "to give a clue for one of their words".into(),
            Prompt::PlayWord => "to name the word and move".into(),
            Prompt::Discard => "to decide on a discard (privately)".into(),
            Prompt::SubmitWords => "to submit two words (privately)".into(),
            Prompt::Guess => "to guess the word".into(),
        }
    }
}

/// Which half of an unplayable pick stands (Split-Brain Chess).
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

/// An offer that needs the other side's agreement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OfferKind {
    /// A draw by agreement (variants with draws).
    Draw,
    /// Chess#: treat the game as an impasse now.
    FastFifty,
}

impl OfferKind {
    /// The word used in commands and messages.
    pub fn word(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::FastFifty => "fast-fifty",
        }
    }
}

/// A claim a player can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClaimKind {
    /// Chess#: the claimant is stalemated.
    Stalemate,
    /// Chess#: an impasse (answered with the count, since impasses are automatic).
    Impasse,
    /// The opponent's time has run out (Chess# rule 11.3).
    Time,
    /// A draw by threefold repetition or the fifty-move rule.
    Draw,
}

/// Everything a seat can do to a game. The game's action log is a list of these, and
/// replaying the log from the start rebuilds the game exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// A move, in the variant's canonical move text (UCI for the chess variants).
    Move(String),
    /// The seat resigns.
    Resign,
    /// The seat makes an offer.
    Offer(OfferKind),
    /// The seat accepts the pending offer of this kind.
    Accept(OfferKind),
    /// The seat declines the pending offer of this kind.
    Decline(OfferKind),
    /// A claim, optionally with the move the claimant intends to play.
    Claim(ClaimKind, Option<String>),
    /// The referee: this seat's time has run out and the variant ends the game at once.
    Timeout,
    /// The game is called off before it really started.
    Abort,
    /// A secret pick of a square (Split-Brain Chess: a piece or a target square).
    Pick(String),
    /// The answer to [`Prompt::Decide`].
    Decide(Standing),
    /// The answer to [`Prompt::Choose`]: one of its options.
    Choose(String),
    /// A clue for the partner, as typed (Secret Chesswords).
    Clue(String),
    /// No clue: the partner moves freely (Secret Chesswords).
    Pass,
    /// A move with the word the mover guessed (Secret Chesswords).
    Play {
        /// The word, as typed.
        word: String,
        /// The move in the variant's canonical move text.
        mv: String,
    },
    /// A move with its two letters named instead of a word, for a penalty point.
    Letters {
        /// The two letters, as typed.
        letters: String,
        /// The move in the variant's canonical move text.
        mv: String,
    },
    /// The card to discard, as typed (the answer to [`Prompt::Discard`]).
    Discard(String),
    /// The seat's secret finale words (empty: none).
    Words(Vec<String>),
    /// A guess at the partner's finale word.
    Guess(String),
}

impl Action {
    /// The command that makes this action, as users type it (`move`, `clue`, `pick`).
    pub fn command(&self) -> &'static str {
        match self {
            Action::Move(_) => "move",
            Action::Resign => "resign",
            Action::Offer(_) | Action::Accept(_) | Action::Decline(_) => "offer",
            Action::Claim(..) => "claim",
            Action::Timeout => "timeout",
            Action::Abort => "abort",
            Action::Pick(_) => "pick",
            Action::Decide(_) => "decide",
            Action::Choose(_) => "choose",
            Action::Clue(_) => "clue",
            Action::Pass => "pass",
            Action::Play { .. } => "play",
            Action::Letters { .. } => "letters",
            Action::Discard(_) => "discard",
            Action::Words(_) => "words",
            Action::Guess(_) => "guess",
        }
    }

    /// The refusal of an action that belongs to another variant (`variant`: the display
    /// name of the game's variant).
    pub fn not_in(&self, variant: &str) -> RuleError {
        RuleError::new(format!(
            "`{}` is not part of {variant}: type help for its commands",
            self.command()
        ))
    }
}

/// What happened when an action was applied, for the messages the service sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A seat moved; the text is the move as players read it (SAN).
    Moved {
        /// Who moved.
        seat: Seat,
        /// The move in SAN.
        san: String,
    },
    /// A seat made an offer.
    Offered(Seat, OfferKind),
    /// A pending offer was declined (explicitly, or by moving instead).
    Declined(Seat, OfferKind),
    /// The game was aborted.
    Aborted,
    /// The game ended.
    Ended(GameOutcome),
    /// Secrets made public: what each seat had picked, as players read it ("picked the
    /// knight on b1").
    Revealed(Vec<(Seat, String)>),
    /// A message from the rules: to everyone (`None`), or privately to one seat.
    Said(Option<Seat>, String),
}

/// Why an action was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleError(pub String);

impl RuleError {
    /// A refusal with this reason.
    pub fn new(reason: impl Into<String>) -> RuleError {
        RuleError(reason.into())
    }
}

/// Who is looking: the public channel, or one seat privately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Everyone: never shown a secret.
    Public,
    /// One seat, in private.
    Seat(Seat),
}

/// What a viewer may see of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The variant's name as used in commands.
    pub variant: String,
    /// The position as FEN (chess variants).
    pub fen: String,
    /// The last move in UCI form, for highlighting.
    pub last_move: Option<String>,
    /// A text diagram of the board, for adapters without images.
    pub diagram: String,
    /// What the board image shows this viewer (the adapter renders it to PNG).
    pub board: BoardView,
}

/// How a game ended: result, reason and score, in the form used by messages and exports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOutcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The reason's name (`checkmate`, `king-captured`, `fast-fifty`, ...).
    pub reason: String,
    /// Points per seat, where the variant scores points (negative in Secret Chesswords
    /// when a player's unused letters outweigh their points).
    pub score: Option<Vec<i32>>,
}

impl fmt::Display for GameOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.score {
            Some(s) => write!(
                f,
                "{} by {} (score {})",
                self.result,
                self.reason,
                s.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    // A negative score would read as a range after a hyphen.
                    .join(if s.iter().any(|p| *p < 0) { ", " } else { "-" })
            ),
            None => write!(f, "{} by {}", self.result, self.reason),
        }
    }
}

/// One variant's rules as a state machine.
pub trait GameRules: Send + Sync {
    /// The variant's command name.
    fn variant(&self) -> &'static str;
    /// How many seats the game has.
    fn seat_count(&self) -> usize;
    /// The name of a seat (`White`, `Black`).
    fn seat_name(&self, seat: Seat) -> &'static str;
    /// Who must act now, and for what. Empty once the game is over.
    fn awaiting(&self) -> Vec<(Seat, Prompt)>;
    /// Applies one action of `seat`. On error nothing changed.
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, RuleError>;
    /// Reads a move typed by `seat` into the canonical [`Action::Move`] text.
    fn parse_move(&self, seat: Seat, text: &str) -> Result<String, RuleError>;
    /// Reads a double move typed by `seat` (Double Move Chess) into the canonical
    /// [`Action::Move`] text; variants without double moves refuse it.
    fn parse_double(&self, seat: Seat, first: &str, second: &str) -> Result<String, RuleError> {
        let _ = (seat, first, second);
        Err(RuleError::new(format!(
            "there are no double moves in {} (only in double-move games)",
            self.variant()
        )))
    }
    /// Double Move Chess: the double-move tokens each seat has left (`None` in variants
    /// without them).
    fn tokens_left(&self) -> Option<Vec<u8>> {
        None
    }
    /// What `viewer` may see.
    fn view(&self, viewer: Viewer) -> View;
    /// How the game ended, if it has (an aborted game has no outcome).
    fn outcome(&self) -> Option<GameOutcome>;
    /// Whether the game was aborted.
    fn aborted(&self) -> bool;
    /// Whether the game is over (finished or aborted).
    fn is_over(&self) -> bool {
        self.aborted() || self.outcome().is_some()
    }
    /// Whether an abort is still allowed.
    fn can_abort(&self) -> bool;
    /// Whether a seat whose time ran out loses at once ([`Action::Timeout`] from the
    /// referee) rather than only when the opponent claims it ([`ClaimKind::Time`]).
    fn timeout_is_automatic(&self) -> bool;
    /// The moves played, in SAN.
    fn move_list(&self) -> Vec<String>;
    /// The moves `seat` may make now, in SAN (for the Discord adapter's suggestions);
    /// empty when the game is over or `seat` is not the one to move. Only the seat's own
    /// options: a variant with secrets lists what that seat may know.
    fn legal_moves(&self, seat: Seat) -> Vec<String>;
    /// The moves played as players read them, numbered from the game's start
    /// (`1. e4 e5 2. Nf3`).
    fn numbered_moves(&self) -> String;
    /// The game record as PGN, given the tag values the service knows.
    fn pgn(&self, tags: &[(String, String)]) -> String;
    /// The whole game as an animated GIF of its public views (`names`: the player of each
    /// seat, in seat order), or `None` for a variant that has no animation.
    fn animation(&self, renderer: &Renderer, names: &[&str]) -> Option<Vec<u8>>;
    /// What White's and Black's players are called in records and titles, given the
    /// player of each seat in seat order (two seats: the names as they are; teams: both
    /// partners).
    fn side_names(&self, names: &[&str]) -> [String; 2] {
        let name = |i: usize| names.get(i).copied().unwrap_or("?").to_string();
        [name(0), name(1)]
    }
    /// The names in a board image's caption: [`GameRules::side_names`], with whatever
    /// the variant adds for the current turn (the roles of a team's partners).
    fn caption_names(&self, names: &[&str]) -> [String; 2] {
        self.side_names(names)
    }
    /// What `seat` is asked to do now, privately and in full (the squares it may pick,
    /// for example), for a seat whose prompt is secret; `None` when there is nothing to say.
    fn instructions(&self, _seat: Seat) -> Option<String> {
        None
    }
    /// Whether a move is said with a word (Secret Chesswords: `play WORD MOVE`), so that
    /// `play` reads its first word as that word; elsewhere `play` is `move`.
    fn moves_name_words(&self) -> bool {
        false
    }
    /// What only `seat` knows (its hand of cards), told privately when the game starts
    /// and whenever the seat asks (`hand`); `None` in variants without secret holdings.
    fn secret_summary(&self, _seat: Seat) -> Option<String> {
        None
    }
    /// Seconds `seat` has for what it is asked now, where the variant sets that itself
    /// (the Chesswords finale timer); `None`: the game's days per move.
    fn time_limit(&self, _seat: Seat) -> Option<i64> {
        None
    }
    /// The variant's own fields for `postal export` (JSON object members); secrets only
    /// once the game is over.
    fn export_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }
    /// The full state as JSON; equal states give equal snapshots.
    fn snapshot(&self) -> serde_json::Value;
}

/// How a new game is set up beyond its variant and position: the seeds of its random
/// draws and the options of its challenge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    /// The seed of the game's public draws (the letters in Secret Chesswords).
    pub seed: u64,
    /// The seed of the game's hidden draws (Secret Chesswords' deal and pile), only where
    /// games are made reproducible (the console's `--seed`, tests); never derived from
    /// `seed`. `None`, the bot's only setting: the operating system's entropy.
    pub hidden_seed: Option<u64>,
    /// Secret Chesswords: minutes for the finale's words (`timer:N`, 1 to 5).
    pub timer_minutes: Option<u8>,
}
