//! A game: a start position, the moves played, and everything that depends on history:
//! repetitions, claims, automatic endings and the score.

use super::double_move::{DoubleMoveError, Turn};
pub use super::material::{could_checkmate, could_win, is_dead_by_material, lichess_cannot_win};
use super::position::Position;
use super::types::{Color, Move, Role};
use super::variant::{EndValue, KingRule, MoveLimit, Points, Variant};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

mod ending;

/// The result of a finished game, as written in PGN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// The PGN form.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// Defines [`EndReason`] from one table, so that the list of every reason
/// ([`EndReason::ALL`]), the stored identifiers, the export names and the words cannot
/// drift apart. The check limit, whose name and words come from its number, is the one
/// reason outside the table.
macro_rules! end_reasons {
    ($($(#[doc = $doc:literal])* $reason:ident => $name:literal, $words:literal;)*) => {
        /// Why a game ended. Stored games name it by its identifier (`Checkmate`,
        /// `FastFifty`: the serde form), which never changes once a release stored it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(into = "String", try_from = "String")]
        pub enum EndReason {
            $($(#[doc = $doc])* $reason,)*
            /// A player gave the variant's number of checks (Three-check's third).
            /// Stored as `ThreeChecks` for three, as releases stored it before limits
            /// other than three existed, and as `Checks5` for five.
            CheckLimit(u8),
        }

        impl EndReason {
            /// Every reason, in declaration order (the check limit as Three-check's).
            pub const ALL: &'static [EndReason] =
                &[$(EndReason::$reason,)* EndReason::CheckLimit(3)];

            /// The name used in exports (`checkmate`, `king-captured`, `fast-fifty`,
            /// `three-checks`, ...).
            pub fn name(self) -> Cow<'static, str> {
                match self {
                    $(EndReason::$reason => Cow::Borrowed($name),)*
                    EndReason::CheckLimit(3) => Cow::Borrowed("three-checks"),
                    EndReason::CheckLimit(n) => {
                        let checks = if n == 1 { "check" } else { "checks" };
                        Cow::Owned(format!("{}-{checks}", cardinal(n)))
                    }
                }
            }

            /// The words for the reason, a noun phrase that follows "wins by" or "drawn
            /// by" in messages and on a board's result banner, or leads a result on
            /// points ("giving the fifth check", "capture of the king"): the one wording
            /// of an ending, wherever it is told.
            pub fn words(self) -> Cow<'static, str> {
                match self {
                    $(EndReason::$reason => Cow::Borrowed($words),)*
                    EndReason::CheckLimit(n) => {
                        Cow::Owned(format!("giving the {} check", ordinal(n)))
                    }
                }
            }

            /// The identifier stored games name the reason by.
            fn stored(self) -> Cow<'static, str> {
                match self {
                    $(EndReason::$reason => Cow::Borrowed(stringify!($reason)),)*
                    EndReason::CheckLimit(3) => Cow::Borrowed("ThreeChecks"),
                    EndReason::CheckLimit(n) => Cow::Owned(format!("Checks{n}")),
                }
            }

            /// The reason a stored identifier names.
            fn from_stored(stored: &str) -> Option<EndReason> {
                match stored {
                    $(stringify!($reason) => Some(EndReason::$reason),)*
                    "ThreeChecks" => Some(EndReason::CheckLimit(3)),
                    _ => stored
                        .strip_prefix("Checks")?
                        .parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .map(EndReason::CheckLimit),
                }
            }
        }
    };
}

impl From<EndReason> for String {
    fn from(reason: EndReason) -> String {
        reason.stored().into_owned()
    }
}

impl TryFrom<String> for EndReason {
    type Error = String;

    fn try_from(stored: String) -> Result<EndReason, String> {
        EndReason::from_stored(&stored).ok_or_else(|| format!("no end reason is named {stored}"))
    }
}

/// A number of checks in words (`three`), as a reason's name writes it.
fn cardinal(n: u8) -> String {
    const WORDS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    WORDS
        .get(usize::from(n).wrapping_sub(1))
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

/// The `n`th in words (`fifth`), as a check limit's ending says it.
fn ordinal(n: u8) -> String {
    const WORDS: [&str; 12] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth", "eleventh", "twelfth",
    ];
    if let Some(w) = WORDS.get(usize::from(n).wrapping_sub(1)) {
        return (*w).to_string();
    }
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

end_reasons! {
    /// The side to move is checkmated.
    Checkmate => "checkmate", "checkmate";
    /// A king was captured (king-capture variants).
    KingCaptured => "king-captured", "capture of the king";
    /// The side to move has no legal move and is not in check (a draw in FIDE chess).
    Stalemate => "stalemate", "stalemate";
    /// Chess#: a player validly claimed to be stalemated (or had no move at all).
    StalemateClaim => "stalemate", "stalemate";
    /// Neither side can checkmate.
    InsufficientMaterial => "insufficient-material", "insufficient material";
    /// The same position occurred a fifth time.
    FivefoldRepetition => "fivefold-repetition", "fivefold repetition";
    /// 75 moves by each side without a pawn move or capture.
    SeventyFiveMoveRule => "seventy-five-move-rule", "the seventy-five-move rule";
    /// A valid threefold-repetition claim.
    ThreefoldRepetition => "threefold-repetition", "threefold repetition";
    /// The fifty-move rule: a valid claim, or by itself where the variant draws at fifty
    /// moves by each side without a pawn move or capture (Lichess's variants).
    FiftyMoveRule => "fifty-move-rule", "the fifty-move rule";
    /// Chess#: fifty moves by each side without a pawn move or capture.
    Impasse => "impasse", "the fifty-move impasse";
    /// Chess#: both players agreed that the game is an impasse.
    FastFifty => "fast-fifty", "agreed impasse";
    /// Draw by agreement.
    Agreement => "agreement", "agreement";
    /// A player resigned.
    Resignation => "resignation", "resignation";
    /// A player ran out of time.
    Timeout => "timeout", "timeout";
    /// A player ran out of time, but the opponent could not possibly checkmate.
    TimeoutVsInsufficientMaterial => "timeout-vs-insufficient-material",
        "timeout against insufficient material";
    /// A king reached the variant's goal region (King of the Hill's centre).
    KingInGoal => "king-in-goal", "bringing the king to the goal squares";
    /// Both kings reached the goal, Black's on the move after White's (Racing Kings).
    BothKingsInGoal => "both-kings-in-goal", "both kings reaching the goal squares";
    /// The kingless side lost its last piece (Horde's White).
    AllPiecesCaptured => "all-pieces-captured", "capturing every piece";
    /// A capture exploded a king (Atomic).
    KingExploded => "king-exploded", "explosion of the king";
    /// The side to move has no piece left, and wins (Antichess).
    AllPiecesLost => "all-pieces-lost", "losing all its pieces";
    /// A side lost every piece of a kind its variant's extinction counts (Extinction
    /// chess).
    KindExtinct => "kind-extinct", "the extinction of a kind of piece";
    /// The side to move has pieces but no legal move, and wins (Antichess).
    Stalemated => "stalemated", "being stalemated";
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// How a game ended: the result, why, and the points where the variant scores them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The PGN result. Chess# has no draws: the side with more points is the winner.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
    /// Points `[white, black]` for variants with a scoring table (Chess#).
    pub score: Option<[u32; 2]>,
}

/// A claim a player may make on their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The position has occurred three times (or will after the intended move).
    ThreefoldRepetition,
    /// Fifty moves each without pawn move or capture (or after the intended move).
    FiftyMoveRule,
    /// Chess#: the claimant is stalemated.
    Stalemate,
    /// Chess#: the game is an impasse.
    Impasse,
}

/// Why a move was not played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// The move is not legal in the current position.
    #[error("that move is not legal here")]
    NotLegal,
}

/// Why a claim was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClaimError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// Only the player to move may claim.
    #[error("only the player to move may make this claim")]
    NotYourTurn,
    /// The variant has no such claim.
    #[error("{0} has no such claim")]
    NotInVariant(Variant),
    /// The intended move is not legal.
    #[error("the move named with the claim is not legal")]
    IllegalIntendedMove,
    /// The conditions of the claim are not met; the text says which.
    #[error("{0}")]
    Invalid(String),
    /// A stalemate claim while a move captures the opponent's king (written in UCI here;
    /// the chess variants write it in SAN).
    #[error("you can capture the king with {}", .0.uci())]
    KingCapturable(Move),
    /// A stalemate claim while a move leaves the claimant's king safe (in UCI here, as
    /// [`ClaimError::KingCapturable`]).
    #[error("{} is a move that leaves your king safe", .0.uci())]
    SafeMoveExists(Move),
}

/// A game in progress or finished.
///
/// A game is either complete (built from its start, every position and move held) or
/// resumed from a stored state ([`Game::resume`]): then it holds what the next move needs,
/// the position, the last turn and the repetition window, and the positions and moves
/// played since, but not those before ([`Game::is_complete`]). Both play, claim and end
/// alike; only a record of the whole game needs a complete one.
#[derive(Clone, Debug)]
pub struct Game {
    /// The position the game started from.
    pub(super) start: Position,
    /// The positions from the start (complete) or from the resumption on: one more than
    /// `moves`.
    pub(super) positions: Vec<Position>,
    /// The repetition window: the hashes of every position since the last move after
    /// which no earlier position can occur again, the current one last (empty in a
    /// variant without draws by repetition). See [`resets_repetitions`].
    pub(super) hashes: Vec<u64>,
    /// The moves played from `positions[0]`.
    pub(super) moves: Vec<Move>,
    /// Moves played before `positions[0]`: 0 for a complete game.
    pub(super) elided: usize,
    /// The last turn played before `positions[0]`, in a resumed game.
    pub(super) before: Option<Turn>,
    pub(super) outcome: Option<Outcome>,
}

/// Whether, after `m` is played in a position of `variant`, no position before it can
/// occur again, so the repetition window starts anew. Without drops, a capture lowers the
/// number of pieces for good, and a pawn's move either lowers the number of pawns (a
/// promotion) or advances one for good, while no move raises either: a position after
/// such a move differs from every position before it. A drop raises the number of pieces
/// on the board, so where pieces are dropped (and captures may feed the pockets) nothing
/// resets the window. A variant without draws by repetition keeps no window at all.
pub fn resets_repetitions(variant: Variant, m: Move) -> bool {
    let cfg = variant.config();
    !cfg.draws.repetition || (cfg.drops.is_none() && (m.capture.is_some() || m.role == Role::Pawn))
}

/// The automatic draw by the variant's move limit, where `pos` has reached it: FIDE's
/// seventy-five-move rule, or Lichess's fifty-move rule (which needs no claim).
fn move_limit_reached(pos: &Position) -> Option<EndReason> {
    let limit = pos.config().draws.move_limit;
    let plies = limit.automatic_plies()?;
    (pos.halfmoves() >= plies).then_some(match limit {
        MoveLimit::Lichess => EndReason::FiftyMoveRule,
        _ => EndReason::SeventyFiveMoveRule,
    })
}

impl Game {
    /// A new game from the variant's starting position.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::start(variant))
    }

    /// A new game from any valid position.
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            start,
            hashes: Vec::new(),
            positions: vec![start],
            moves: Vec::new(),
            elided: 0,
            before: None,
            outcome: None,
        };
        game.hash_current();
        game.outcome = game.automatic_outcome();
        game
    }

    /// Adds the current position's hash to the repetition window, where the variant
    /// counts repetitions.
    pub(super) fn hash_current(&mut self) {
        if self.variant().config().draws.repetition {
            super::work::count(super::work::Work::Hash);
            self.hashes.push(self.position().zobrist_hash());
        }
    }

    /// Records the position `next`, reached by `m` from the current one.
    fn push(&mut self, next: Position, m: Move) {
        super::work::count(super::work::Work::Ply);
        if resets_repetitions(self.variant(), m) {
            self.hashes.clear();
        }
        self.positions.push(next);
        self.moves.push(m);
        self.hash_current();
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        self.position().variant()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game has at least its start")
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Every position from the start to now (one more than the moves); in a resumed game
    /// ([`Game::is_complete`] false), those from the resumption on.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played, in order; in a resumed game, those since the resumption.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether the game holds every position and move from its start (it was not resumed
    /// from a stored state, or was resumed at its start).
    pub fn is_complete(&self) -> bool {
        self.elided == 0
    }

    /// How many moves were played from the start (a double move's halves are two).
    pub fn plies(&self) -> usize {
        self.elided + self.moves.len()
    }

    /// The last turn played (both halves of a double move), if any.
    pub fn last_turn(&self) -> Option<Turn> {
        let Some(&last) = self.moves.last() else {
            return self.before;
        };
        // The second half of a double move is played from the position between halves.
        let n = self.moves.len();
        Some(if n >= 2 && self.positions[n - 1].is_between_halves() {
            Turn::Double(self.moves[n - 2], last)
        } else {
            Turn::Single(last)
        })
    }

    /// The last move played (a double move's second half), if any.
    pub fn last_move(&self) -> Option<Move> {
        self.last_turn().map(|t| match t {
            Turn::Single(m) | Turn::Double(_, m) => m,
        })
    }

    /// The repetition window: the hashes of the positions since the last move after which
    /// no earlier one can occur again ([`resets_repetitions`]), the current one last;
    /// empty in a variant without draws by repetition.
    pub fn repetition_window(&self) -> &[u64] {
        &self.hashes
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// Legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> super::MoveList {
        if self.is_over() {
            super::MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Plays a move, then ends the game if an automatic rule applies.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if !self.position().is_legal(&m) {
            return Err(IllegalMove::NotLegal);
        }
        let next = self.position().after(m);
        self.push(next, m);
        self.outcome = self.automatic_outcome();
        Ok(())
    }

    /// [`Game::play`] for `m`, one of the current position's [`Position::legal_moves`]
    /// as the caller listed them: its legality is not tested a second time (a move
    /// generation).
    pub fn play_legal(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let next = self.position().after(m);
        self.push(next, m);
        self.outcome = self.automatic_outcome();
        Ok(())
    }

    /// Plays `m`, a move of this position's [`Position::legal_moves`] (a stored game
    /// read back), without testing its legality a second time nor the automatic endings
    /// after it: [`Game::settle`] tests those once the last move is played. Reading a
    /// stored game back tested them at every ply, a move generation each (issue 36).
    pub fn replay_legal(&mut self, m: Move) {
        let next = self.position().after(m);
        self.push(next, m);
    }

    /// Sets the ending that applies without anyone asking in the current position, after
    /// moves played by [`Game::replay_legal`].
    pub fn settle(&mut self) {
        self.outcome = self.automatic_outcome();
    }

    /// Double Move Chess: plays both halves of a double move as one turn, then ends the
    /// game if an automatic rule applies. A refused double move changes nothing.
    pub fn play_double(&mut self, first: Move, second: Move) -> Result<(), DoubleMoveError> {
        if self.is_over() {
            return Err(DoubleMoveError::GameOver);
        }
        let (middle, end) = self.position().double_move(first, second)?;
        // The intermediate position is kept (its hash, marked as between halves, never
        // equals a real position's) so that each half is written from its own position.
        for (pos, m) in [(middle, first), (end, second)] {
            self.push(pos, m);
        }
        self.outcome = self.automatic_outcome();
        Ok(())
    }

    /// Plays one turn: a move, or a double move.
    pub fn play_turn(&mut self, turn: Turn) -> Result<(), DoubleMoveError> {
        match turn {
            Turn::Single(m) => self.play(m).map_err(|e| match e {
                IllegalMove::GameOver => DoubleMoveError::GameOver,
                IllegalMove::NotLegal => DoubleMoveError::FirstIllegal(m.uci()),
            }),
            Turn::Double(a, b) => self.play_double(a, b),
        }
    }

    /// The turns played, each with the position it was played from: every move is a turn
    /// of its own except the two halves of a double move, which make one. In a resumed
    /// game, the turns since the resumption.
    pub fn turns(&self) -> Vec<(&Position, Turn)> {
        let mut out = Vec::with_capacity(self.moves.len());
        let mut i = 0;
        while i < self.moves.len() {
            let double = i + 1 < self.moves.len() && self.positions[i + 1].is_between_halves();
            if double {
                out.push((
                    &self.positions[i],
                    Turn::Double(self.moves[i], self.moves[i + 1]),
                ));
                i += 2;
            } else {
                out.push((&self.positions[i], Turn::Single(self.moves[i])));
                i += 1;
            }
        }
        out
    }

    /// How often the current position has occurred, this time included (0 in a variant
    /// without draws by repetition, which keeps no count).
    pub fn repetitions(&self) -> usize {
        match self.hashes.last() {
            Some(&now) => self.repetitions_of(now),
            None => 0,
        }
    }

    fn repetitions_of(&self, hash: u64) -> usize {
        self.hashes.iter().filter(|&&h| h == hash).count()
    }

    /// The ending that applies without anyone asking, in the current position: the one
    /// function that reads the variant's endings ([`Endings`](super::Endings)), then
    /// the automatic draws ([`Game::automatic_draw`]), then an impasse where the variant
    /// scores one.
    fn automatic_outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let cfg = pos.config();
        if let Some(loser) = pos.king_captured() {
            let reason = if cfg.captures_explode {
                EndReason::KingExploded
            } else {
                EndReason::KingCaptured
            };
            return Some(self.win(loser.opposite(), reason));
        }
        if let Some(winner) = pos.goal_reached() {
            return Some(self.win(winner, EndReason::KingInGoal));
        }
        if pos.goal_drawn() {
            return Some(self.draw(EndReason::BothKingsInGoal));
        }
        if let (Some(winner), Some(limit)) = (pos.check_limit_reached(), cfg.endings.check_limit) {
            return Some(self.win(winner, EndReason::CheckLimit(limit)));
        }
        if let Some((side, value)) = pos.extinct() {
            let (won, lost) = match cfg.endings.extinction.is_some_and(|e| e.roles.is_empty()) {
                true => (EndReason::AllPiecesLost, EndReason::AllPiecesCaptured),
                false => (EndReason::KindExtinct, EndReason::KindExtinct),
            };
            return Some(self.scored(side, value, won, lost));
        }
        if pos.legal_moves().is_empty() {
            let us = pos.turn();
            if cfg.king_rule == KingRule::Checkmate && pos.is_check() {
                return Some(self.win(us.opposite(), EndReason::Checkmate));
            }
            return Some(self.stalemate(us, cfg.endings.stalemate));
        }
        if let Some(draw) = self.automatic_draw() {
            return Some(draw);
        }
        let points = cfg.endings.points?;
        (pos.halfmoves() >= points.impasse_plies).then(|| self.impasse(points, EndReason::Impasse))
    }

    /// The automatic draws, where the variant has them: a dead position by material (by
    /// the variant's own rule, [`is_dead_by_material`]), the fifth occurrence of a
    /// position, the move limit.
    fn automatic_draw(&self) -> Option<Outcome> {
        let pos = self.position();
        let draws = pos.config().draws;
        if draws.insufficient_material && is_dead_by_material(pos) {
            Some(self.draw(EndReason::InsufficientMaterial))
        } else if draws.repetition && self.repetitions() >= 5 {
            Some(self.draw(EndReason::FivefoldRepetition))
        } else {
            move_limit_reached(pos).map(|reason| self.draw(reason))
        }
    }

    /// An ending that befalls `side` and scores `value` for it: its win (`won`, the
    /// reason as the side's), its loss (`lost`, the reason as the winner's), or a draw
    /// (by `won`).
    fn scored(&self, side: Color, value: EndValue, won: EndReason, lost: EndReason) -> Outcome {
        match value {
            EndValue::Win => self.win(side, won),
            EndValue::Loss => self.win(side.opposite(), lost),
            EndValue::Draw => self.draw(won),
        }
    }

    /// `stalemated`, to move, has no legal move and is not checkmated: a draw (FIDE), its
    /// win (Antichess), or its loss, scored by the variant's points where it has them
    /// (Chess#: the stalemated side 2, the opponent 8).
    fn stalemate(&self, stalemated: Color, value: EndValue) -> Outcome {
        match value {
            EndValue::Draw => self.draw(EndReason::Stalemate),
            EndValue::Win => self.win(stalemated, EndReason::Stalemated),
            EndValue::Loss => self.stalemated(stalemated),
        }
    }

    fn win(&self, winner: Color, reason: EndReason) -> Outcome {
        let points = self.position().config().endings.points;
        Outcome {
            result: GameResult::win_for(winner),
            reason,
            score: points.map(|p| by_colour(p.win, winner)),
        }
    }

    fn draw(&self, reason: EndReason) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            reason,
            score: None,
        }
    }

    /// A stalemate that loses for `stalemated`, scored by the variant's points.
    fn stalemated(&self, stalemated: Color) -> Outcome {
        let winner = stalemated.opposite();
        let points = self.position().config().endings.points;
        Outcome {
            result: GameResult::win_for(winner),
            reason: EndReason::StalemateClaim,
            score: points.map(|p| by_colour(p.stalemate, winner)),
        }
    }

    /// An impasse, scored by material on the board by the variant's points (Chess#:
    /// 7-3, 4-6 or 3-7); the side with more points wins.
    fn impasse(&self, points: Points, reason: EndReason) -> Outcome {
        let pos = self.position();
        let (w, b) = (pos.material(Color::White), pos.material(Color::Black));
        let score = points.impasse[match w.cmp(&b) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 2,
        }];
        let result = if score[0] > score[1] {
            GameResult::WhiteWins
        } else {
            GameResult::BlackWins
        };
        Outcome {
            result,
            reason,
            score: Some(score),
        }
    }

    fn finish(&mut self, outcome: Outcome) -> Outcome {
        self.outcome = Some(outcome);
        outcome
    }
}

/// A pair of points given as the winner's then the loser's, as White's then Black's.
fn by_colour([winner, loser]: [u32; 2], won: Color) -> [u32; 2] {
    match won {
        Color::White => [winner, loser],
        Color::Black => [loser, winner],
    }
}

#[cfg(test)]
mod tests {
    use super::EndReason;

    /// Stored games name a reason by its identifier, as the first releases wrote it
    /// with `{:?}`; serde must read and write exactly that, for every reason (the check
    /// limit of three as `ThreeChecks`, which releases stored).
    #[test]
    fn every_end_reason_round_trips_under_its_stored_name() {
        assert!(EndReason::ALL.len() >= 16);
        for &reason in EndReason::ALL {
            let json = serde_json::to_value(reason).unwrap();
            let stored = match reason {
                EndReason::CheckLimit(3) => "ThreeChecks".to_string(),
                _ => format!("{reason:?}"),
            };
            assert_eq!(json, serde_json::Value::String(stored));
            assert_eq!(serde_json::from_value::<EndReason>(json).unwrap(), reason);
            assert!(!reason.words().is_empty() && !reason.name().is_empty());
        }
        assert!(serde_json::from_str::<EndReason>("\"NoSuchReason\"").is_err());
        assert!(serde_json::from_str::<EndReason>("\"Checks0\"").is_err());
    }

    /// A check limit's name and words come from its number: three keeps the name
    /// releases stored, five is worded as five.
    #[test]
    fn a_check_limit_is_named_and_worded_from_its_number() {
        let three = EndReason::CheckLimit(3);
        assert_eq!(three.name(), "three-checks");
        assert_eq!(three.words(), "giving the third check");
        let five = EndReason::CheckLimit(5);
        assert_eq!(five.name(), "five-checks");
        assert_eq!(five.words(), "giving the fifth check");
        assert_eq!(EndReason::CheckLimit(1).name(), "one-check");
        assert_eq!(EndReason::CheckLimit(23).words(), "giving the 23rd check");
        assert_eq!(EndReason::CheckLimit(13).words(), "giving the 13th check");
        let json = serde_json::to_string(&five).unwrap();
        assert_eq!(json, "\"Checks5\"");
        assert_eq!(serde_json::from_str::<EndReason>(&json).unwrap(), five);
    }
}
