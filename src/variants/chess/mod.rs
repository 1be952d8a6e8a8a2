//! The chess game every chess-like variant is played by (each declared in its own folder
//! by a config and a [`ChessSpec`]: `variants/standard`, `variants/chess_sharp`), as a
//! game of the referee, wrapping [`rules::Game`](crate::rules::Game). Draw offers,
//! fast-fifty proposals, claims, resignation, timeouts and aborts are actions too, so a
//! game replays from its log.
//!
//! A move's canonical text is its UCI; in Double Move Chess a double move is one action
//! whose text is both halves' UCI separated by a space (`g1f3 f3g5`), and rule 5's capture
//! is written with an `x` (`f6xe4`) since the plain move `f6e4` may exist beside it.

mod actions;
mod engine;
mod game_rules;
mod read;
mod snapshot;
mod spec;
mod text;

pub use snapshot::ChessSnapshot;
pub use spec::{
    ChessSpec, NumberedStarts, CLAIM_DRAW, CLAIM_SHARP, DOUBLE, DRAW, DRAW_ANSWER, FAST_FIFTY, MOVE,
};
pub use text::{diagram, grid, pgn_tags, split_double};

use crate::notation::fen::parse_fen;
use crate::notation::pgn::{numbered_moves, push_numbered, turn_san};
use crate::notation::write_pgn_annotated;
use crate::rules::{Color, Game, Move, MoveKind, Outcome, Position, Role, Square, Turn, Variant};
use crate::variants::api::{command_mark_str, GameOutcome, OfferWords, RuleError, Said, Seat};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

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

    /// The command that answers it.
    fn command(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::FastFifty => "fastfifty",
        }
    }

    /// The kind of the prompt to answer it: the platform's draw, or a fast-fifty.
    fn prompt_kind(self) -> crate::variants::api::PromptKind {
        match self {
            OfferKind::Draw => crate::variants::api::PromptKind::DRAW,
            OfferKind::FastFifty => crate::variants::api::PromptKind("fastfifty"),
        }
    }

    /// The word for turning it down.
    fn no(self) -> &'static str {
        match self {
            OfferKind::Draw => "decline",
            OfferKind::FastFifty => "reject",
        }
    }

    /// What refusals and notes say about it.
    fn words(self) -> &'static OfferWords {
        match self {
            OfferKind::Draw => &DRAW_PROPOSAL,
            OfferKind::FastFifty => &FAST_FIFTY_PROPOSAL,
        }
    }
}

/// A draw offer's words in chess: a proposal.
const DRAW_PROPOSAL: OfferWords = OfferWords {
    already_made: "you have already proposed a draw",
    answer_first: concat!(
        "your opponent has proposed a draw: answer it first (",
        command_mark_str!("draw accept"),
        " or ",
        command_mark_str!("draw decline"),
        ")"
    ),
    own: "you cannot answer your own draw proposal",
    none: "there is no draw proposal to answer",
    made: Said::public(concat!(
        " proposes a draw: ",
        command_mark_str!("draw accept"),
        " or ",
        command_mark_str!("draw decline")
    )),
    accepted: None,
    declined: Said::public(" declined the draw"),
};

/// A fast-fifty's words in Chess#.
const FAST_FIFTY_PROPOSAL: OfferWords = OfferWords {
    already_made: "you have already proposed a fast-fifty",
    answer_first: concat!(
        "your opponent has proposed a fast-fifty: answer it first (",
        command_mark_str!("fastfifty accept"),
        " or ",
        command_mark_str!("fastfifty reject"),
        ")"
    ),
    own: "you cannot answer your own fast-fifty proposal",
    none: "there is no fast-fifty proposal to answer",
    made: Said::public(concat!(
        " proposes a fast-fifty: ",
        command_mark_str!("fastfifty accept"),
        " or ",
        command_mark_str!("fastfifty reject")
    )),
    accepted: None,
    declined: Said::public(" declined the fast-fifty"),
};

/// A claim a player can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClaimKind {
    /// Chess#: the claimant is stalemated.
    Stalemate,
    /// Chess#: an impasse (answered with the count, since impasses are automatic).
    Impasse,
    /// The opponent's time has run out (Chess# rule 11.3); judged by the referee's clock.
    Time,
    /// A draw by threefold repetition or the fifty-move rule.
    Draw,
}

/// What a seat can do in a chess game: the entries of its action log. The JSON form is
/// the one stored since the first release (`{"Move":"e2e4"}`, `"Resign"`), so old logs
/// replay unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChessAction {
    /// A move in UCI; a double move is both halves' UCI separated by a space.
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
    /// The referee: this seat's time has run out.
    Timeout,
    /// The game is called off before each side has moved.
    Abort,
}

/// A chess-variant game under the referee.
#[derive(Clone, Debug)]
pub struct ChessRules {
    game: Game,
    /// A pending offer: who made it, and of what.
    offer: Option<(Color, OfferKind)>,
    /// The final outcome; kept here (not only in `game`) so a game loaded from a snapshot
    /// keeps an ending that came from an action rather than from a move.
    outcome: Option<Outcome>,
    aborted: bool,
    /// The numbered starting positions of the variant (Chess960's), to show players
    /// which one the game began from.
    starts: Option<&'static NumberedStarts>,
}

fn seat_of(c: Color) -> Seat {
    Seat::of_side(c)
}

fn color_of(seat: Seat) -> Result<Color, RuleError> {
    seat.side()
}

/// The service's form of an engine outcome.
pub fn game_outcome(o: &Outcome) -> GameOutcome {
    GameOutcome {
        result: o.result.pgn().to_string(),
        reason: o.reason.into(),
        score: o.score.map(|s| s.iter().map(|&p| p as i32).collect()),
    }
}

/// Finds the legal move whose UCI text is `uci` (case-insensitive).
pub fn find_uci(pos: &Position, uci: &str) -> Option<Move> {
    find_uci_among(&pos.legal_moves(), uci)
}

/// [`find_uci`] among `legal`, the legal moves of the position, listed once by a caller
/// that needs them again.
fn find_uci_among(legal: &[Move], uci: &str) -> Option<Move> {
    match UciText::parse(uci) {
        // Compared field by field: formatting every legal move's UCI to find one was a
        // fifth of a move's instructions when a stored game was read back (issue 36).
        Some(text) => legal.iter().copied().find(|m| text.names(m)),
        None => legal
            .iter()
            .copied()
            .find(|m| m.uci().eq_ignore_ascii_case(uci)),
    }
}

/// A move's UCI text read into the fields [`Move::uci`] writes: `e2e4`, `e7e8q`, `Q@e4`
/// (a drop), `d4xd5` (Double Move's capture of a piece that moved twice).
struct UciText {
    /// The dropped role, for a drop.
    drop: Option<Role>,
    from: Square,
    to: Square,
    /// Written with `x` between the squares ([`MoveKind::CaptureTwiceMoved`]).
    twice: bool,
    promotion: Option<Role>,
}

impl UciText {
    /// `text` read, either case; `None` when it is not in the form [`Move::uci`] writes.
    fn parse(text: &str) -> Option<UciText> {
        let b = text.as_bytes();
        if !text.is_ascii() || b.len() < 4 {
            return None;
        }
        if b[1] == b'@' {
            let to = Square::parse(text.get(2..)?)?;
            return Some(UciText {
                drop: Some(Role::from_char(char::from(b[0]))?),
                from: to,
                to,
                twice: false,
                promotion: None,
            });
        }
        let from = Square::parse(&text[..2])?;
        let twice = b[2].eq_ignore_ascii_case(&b'x');
        let rest = &text[if twice { 3 } else { 2 }..];
        let to = Square::parse(rest.get(..2)?)?;
        let promotion = match rest.len() {
            2 => None,
            3 => Some(Role::from_char(char::from(rest.as_bytes()[2]))?),
            _ => return None,
        };
        Some(UciText {
            drop: None,
            from,
            to,
            twice,
            promotion,
        })
    }

    /// Whether `m`'s UCI text is this one.
    fn names(&self, m: &Move) -> bool {
        match self.drop {
            Some(role) => m.is_drop() && m.role == role && m.to == self.to,
            None => {
                !m.is_drop()
                    && m.from == self.from
                    && m.to == self.to
                    && (m.kind == MoveKind::CaptureTwiceMoved) == self.twice
                    && m.promotion == self.promotion
            }
        }
    }
}

/// Finds the turn whose canonical text is `text`: a move's UCI, or a double move's two
/// UCI texts separated by a space. A refused double move says why.
pub fn find_turn(pos: &Position, text: &str) -> Result<Turn, RuleError> {
    find_turn_among(pos, &pos.legal_moves(), text)
}

/// [`find_turn`], given `legal`, the legal moves of `pos`.
fn find_turn_among(pos: &Position, legal: &[Move], text: &str) -> Result<Turn, RuleError> {
    let illegal = |t: &str| RuleError::new(format!("{t} is not a legal move here"));
    match text.split_once(' ') {
        None => find_uci_among(legal, text)
            .map(Turn::Single)
            .ok_or_else(|| illegal(text)),
        Some((a, b)) => {
            let first = find_uci_among(legal, a).ok_or_else(|| illegal(a))?;
            if let Some(e) = pos.double_move_refusal(first) {
                return Err(RuleError::new(text::double_move_refusal(pos, &e)));
            }
            let second = find_uci(&pos.first_half(first), b).ok_or_else(|| {
                RuleError::new(format!("{b} is not a legal second move after {a}"))
            })?;
            Ok(Turn::Double(first, second))
        }
    }
}

impl ChessRules {
    /// The last turn played, as [`Game::turns`] ends (both halves of a double move),
    /// found without listing every turn.
    pub fn last_turn(&self) -> Option<Turn> {
        self.game.last_turn()
    }

    /// The numbered record in SAN (`1. e4 e5 2. Nf3`) of the turns the game holds: the
    /// whole game's when it is complete, else the turns since it was resumed from its
    /// snapshot (the whole record is that of the log's replay, [`Registry::replay`]).
    ///
    /// [`Registry::replay`]: crate::variants::Registry::replay
    pub fn numbered(&self) -> String {
        if self.game.is_complete() {
            return numbered_moves(&self.game).join(" ");
        }
        let mut tokens = Vec::new();
        for (pos, turn) in self.game.turns() {
            push_numbered(&mut tokens, false, pos, turn, turn_san(pos, turn));
        }
        tokens.join(" ")
    }

    /// The game from the first position it holds: the whole game when it is complete
    /// (played or re-played from its start, as the log's replay is), else the turns
    /// since it was resumed from its snapshot, from the position it was resumed at. What
    /// shows the whole game (a PGN, an animation) is asked of the log's replay, which the
    /// referee makes ([`Registry::replay`]); a resumed game holds no earlier move.
    ///
    /// [`Registry::replay`]: crate::variants::Registry::replay
    pub fn whole_game(&self) -> Cow<'_, Game> {
        if self.game.is_complete() {
            return Cow::Borrowed(&self.game);
        }
        let mut game = Game::from_position(self.game.positions()[0]);
        for (_, turn) in self.game.turns() {
            match turn {
                Turn::Single(m) => game.replay_legal(m),
                Turn::Double(..) => {
                    game.settle();
                    if game.play_turn(turn).is_err() {
                        break;
                    }
                }
            }
        }
        game.settle();
        Cow::Owned(game)
    }

    /// The game's record with a comment after the turns `after` names (by the turn's
    /// index from the start): for a variant built on this one whose turns carry more
    /// than the move (Split-Brain's revealed picks).
    pub fn pgn_with_comments(
        &self,
        tags: &[(String, String)],
        after: &[(usize, String)],
    ) -> String {
        // The turns' indices count from the start: a resumed game's record, which begins
        // later, is written without them.
        let after = if self.game.is_complete() { after } else { &[] };
        write_pgn_annotated(
            &self.whole_game(),
            self.outcome,
            &pgn_tags(tags),
            after,
            None,
        )
    }

    /// A new game of `variant` from its starting position.
    pub fn new(variant: Variant) -> ChessRules {
        ChessRules {
            game: Game::new(variant),
            offer: None,
            outcome: None,
            aborted: false,
            starts: None,
        }
    }

    /// A new game of `variant` from the position `fen` (for testing and teaching). The
    /// position must be possible in the variant and the game not already over in it.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<ChessRules, RuleError> {
        let pos = parse_fen(variant, fen).map_err(|e| RuleError::new(e.to_string()))?;
        let game = Game::from_position(pos);
        if let Some(o) = game.outcome() {
            return Err(RuleError::new(format!(
                "that position is already over ({})",
                game_outcome(&o)
            )));
        }
        Ok(ChessRules {
            game,
            offer: None,
            outcome: None,
            aborted: false,
            starts: None,
        })
    }

    /// The engine's game (moves and positions).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// This game, knowing its variant's numbered starting positions (if it has them), so
    /// that players are shown which one it began from.
    pub fn with_starts(mut self, starts: Option<&'static NumberedStarts>) -> ChessRules {
        self.starts = starts;
        self
    }

    /// The numbered starting position the game began from, in words (`Chess960 position
    /// 518`), in a variant that has them.
    fn start_words(&self) -> Option<String> {
        self.starts?.describe(self.game.start())
    }

    /// Double Move Chess: the tokens each side has left.
    fn tokens_left(&self) -> Option<[u8; 2]> {
        self.game
            .position()
            .config()
            .double_move
            .map(|_| self.game.position().tokens())
    }

    /// Three-check: the checks each side has given, and the number that wins.
    fn checks_given(&self) -> Option<([u8; 2], u8)> {
        let pos = self.game.position();
        pos.config()
            .endings
            .check_limit
            .map(|limit| (pos.checks_given(), limit))
    }

    /// The public counters in words, for status lines: the double-move tokens left
    /// (`double-move tokens left: White 3, Black 4`), the checks given (`checks given:
    /// White 1 of 3, Black 0 of 3`) and the numbered start (`Chess960 position 518`),
    /// those the variant has, joined by `; `.
    fn counters(&self) -> Option<String> {
        let tokens = self
            .tokens_left()
            .map(|[w, b]| format!("double-move tokens left: White {w}, Black {b}"));
        let checks = self
            .checks_given()
            .map(|([w, b], n)| format!("checks given: White {w} of {n}, Black {b} of {n}"));
        let words: Vec<String> = tokens
            .into_iter()
            .chain(checks)
            .chain(self.start_words())
            .collect();
        (!words.is_empty()).then(|| words.join("; "))
    }

    fn has_draws(&self) -> bool {
        self.game.position().config().endings.points.is_none()
    }

    fn is_sharp(&self) -> bool {
        self.game.position().config().endings.points.is_some()
    }
}

#[cfg(test)]
mod claim_tests;

#[cfg(test)]
mod tests;
