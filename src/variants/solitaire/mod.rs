//! What the two solitaires share: the piece and position cards of appendix A and their
//! face-down piles ([`cards`]), the board with its attacks and its connected groups
//! ([`board`]), how an attempt ends and is scored ([`Ended`]), and how squares are read
//! from what the player types ([`read_squares`]). Parade Chess Solitaire
//! (`variants::parade`) and Neighbour Chess Solitaire (`variants::neighbour`) are built
//! on it.

pub mod board;
pub mod cards;

use crate::rules::{EndReason, Piece, Role, Square};
use crate::variants::api::{GameOutcome, Reason, RuleError};
use serde::{Deserialize, Serialize};

pub use board::{Adjacency, Board};
pub use cards::{piece_deck, position_deck, Pile, PlayingCard};

/// How an attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ended {
    /// The pieces form one connected group: won, scored.
    Connected,
    /// The cards (and in Parade the sixteen cards of negative points) ran out first.
    Exhausted,
    /// No action is left that the rules allow (no piece can move and no card can be
    /// spent on an addition).
    Stuck,
    /// The player gave up.
    Resigned,
    /// The player's time ran out.
    TimedOut,
    /// Called off before the first action, before any card was seen: no result.
    Aborted,
    /// Called off (`abort`) once the deal was shown: a shown deal counts, so the attempt
    /// is lost like a resigned one, with its own reason (`aborted`).
    AbortedShown,
}

impl Ended {
    /// Every way an attempt ends.
    pub const ALL: [Ended; 7] = [
        Ended::Connected,
        Ended::Exhausted,
        Ended::Stuck,
        Ended::Resigned,
        Ended::TimedOut,
        Ended::Aborted,
        Ended::AbortedShown,
    ];

    /// Why an attempt that ended so is over, by name and in words (`connection`,
    /// "connecting the group"); `None` for one called off with no result.
    pub fn reason(self) -> Option<Reason> {
        Some(match self {
            Ended::Connected => Reason::new("connection", "connecting the group"),
            Ended::Exhausted => Reason::new("out-of-cards", "running out of cards"),
            Ended::Stuck => Reason::new("no-move", "no move left"),
            Ended::Resigned => EndReason::Resignation.into(),
            Ended::TimedOut => EndReason::Timeout.into(),
            Ended::AbortedShown => Reason::new("aborted", "calling it off once the deal was shown"),
            Ended::Aborted => return None,
        })
    }

    /// The outcome of an attempt that ended so, with `score` its points if won: a
    /// connected group is `won` with its score; every other end is `lost`, with no
    /// points (`docs/rules/parade.md`, "Score"), an abort once the deal was shown
    /// included.
    pub fn outcome(self, score: i32) -> Option<GameOutcome> {
        let result = if self == Ended::Connected {
            "won"
        } else {
            "lost"
        };
        Some(GameOutcome {
            score: (self == Ended::Connected).then(|| vec![score]),
            ..GameOutcome::new(result, self.reason()?)
        })
    }
}

/// How a solitaire takes `abort`, given whether its deal has been shown yet
/// (`docs/rules/parade.md`, "A shown deal counts"): before anything was turned up it is
/// called off with no result; once the deal is shown (Parade's setup, any card turned) it
/// is an attempt lost, so that nobody can re-deal until the set-up suits them.
pub fn abort_ending(deal_shown: bool) -> Ended {
    if deal_shown {
        Ended::AbortedShown
    } else {
        Ended::Aborted
    }
}

/// A piece's letter in a solitaire's record: as in the diagram and FEN, uppercase for
/// white and lowercase for black (`N@g4`, `b@c1`), since one player moves both colours
/// and the letter alone must say which.
pub fn letter(p: Piece) -> char {
    p.fen_char()
}

/// Cards as a record writes them: `Q♠ 9♥ 10♠`.
pub fn card_words(cards: &[PlayingCard]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a stored card, board or square of a solitaire cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoredError {
    /// Not a playing card (the text as stored).
    #[error("not a card: {0}")]
    NotACard(String),
    /// Not an 8x8 piece placement (the first 80 characters).
    #[error("not a board: {0}")]
    NotABoard(String),
    /// Not a square's name (the first 10 characters).
    #[error("not a square: {0}")]
    NotASquare(String),
}

/// A square, stored as its name (`c1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct At(pub Square);

impl From<At> for String {
    fn from(a: At) -> String {
        a.0.to_string()
    }
}

impl TryFrom<String> for At {
    type Error = StoredError;

    fn try_from(s: String) -> Result<At, StoredError> {
        Square::parse(&s)
            .map(At)
            .ok_or_else(|| StoredError::NotASquare(s.chars().take(10).collect()))
    }
}

/// The longest command text read; anything longer is refused unread.
const MAX_TEXT: usize = 80;

/// Words a player may write between squares, which say nothing more (`d3 moves c1 to b2`,
/// `c3 to c7 with d4`).
const FILLERS: &[&str] = &["to", "with", "moves", "move", "by", "from", "on"];

/// The squares in `text`, in order, each perhaps after a piece letter (`Nd3: c1-b2`,
/// `d3 c1 b2`, `c3 c7 with d4`): words are split at spaces, `:`, `-` and `,`, and
/// [`FILLERS`] are skipped. `usage` is the refusal for anything else.
pub fn read_squares(
    text: &str,
    usage: impl Fn() -> RuleError,
) -> Result<Vec<(Option<Role>, Square)>, RuleError> {
    if text.chars().count() > MAX_TEXT {
        return Err(usage());
    }
    let mut out = Vec::new();
    for word in text
        .split(|c: char| c.is_whitespace() || matches!(c, ':' | '-' | ','))
        .filter(|w| !w.is_empty())
    {
        let lower = word.to_lowercase();
        if FILLERS.contains(&lower.as_str()) {
            continue;
        }
        if let Some(sq) = Square::parse(word) {
            out.push((None, sq));
            continue;
        }
        let mut chars = word.chars();
        let role = chars
            .next()
            .and_then(Role::from_char)
            .filter(|r| *r != Role::Pawn);
        match (role, Square::parse(chars.as_str())) {
            (Some(role), Some(sq)) => out.push((Some(role), sq)),
            _ => return Err(usage()),
        }
    }
    Ok(out)
}

/// The `deal` field of a finished attempt's JSON export: each pile named, its cards top
/// first (`{"setup": [...], "hand": [...]}`); no field while the attempt goes on, when
/// the piles' order is the game's secret from everyone, or for an attempt stored before
/// the deal was kept (`over` false or no cards). An attempt over whose deal is `kept`
/// secret (others still play it) has no `deal` but `deal_kept`, saying why ([`DEAL_KEPT`]).
pub fn deal_fields(
    over: bool,
    kept: bool,
    piles: [(&str, &[PlayingCard]); 2],
) -> serde_json::Map<String, serde_json::Value> {
    let mut fields = serde_json::Map::new();
    if over && kept {
        fields.insert("deal_kept".into(), DEAL_KEPT.into());
        return fields;
    }
    if over && piles.iter().any(|(_, cards)| !cards.is_empty()) {
        let deal: serde_json::Map<String, serde_json::Value> = piles
            .iter()
            .map(|(name, cards)| {
                let words: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
                (name.to_string(), serde_json::json!(words))
            })
            .collect();
        fields.insert("deal".into(), serde_json::Value::Object(deal));
    }
    fields
}

/// A solitaire's stored state without its record's words, for the replay check
/// (`GameRules::state_for_replay_check`): their form changed after release 12 (lower-case
/// black pieces, a placement numbered with its addition), and a game stored before keeps
/// its words while its replay writes the new ones.
pub fn state_without_record(mut state: serde_json::Value) -> serde_json::Value {
    if let Some(fields) = state.as_object_mut() {
        fields.remove("record");
    }
    state
}

/// Why a finished attempt's record and export leave its deal out: a best-score
/// competition's entrants all play the same deals, so the cards of an attempt over stay
/// secret while the competition goes on (docs/tournaments.md).
pub const DEAL_KEPT: &str =
    "the deal is given once the competition is over, since other entrants still play it";

/// The PGN result of a solitaire's outcome (`docs/rules/parade.md`, "The record"): the
/// player is White against the game, so a won attempt is `1-0`, a lost one (an abort
/// once the deal was shown included) `0-1`, and one under way or called off with no
/// result `*`.
pub fn pgn_result(outcome: Option<&GameOutcome>) -> &'static str {
    match outcome.map(|o| o.result.as_str()) {
        Some("won") => "1-0",
        Some(_) => "0-1",
        None => "*",
    }
}

/// What a solitaire's record says of a game: its variant's name, the actions as the
/// record writes them, how it ended, and the deal, given only once the attempt is over
/// (the deal of a live attempt is its secret).
pub struct Record<'a> {
    /// The variant's name (`Parade Chess Solitaire`).
    pub variant: &'a str,
    /// The actions, in order.
    pub actions: &'a [String],
    /// How the attempt ended, if it has a result.
    pub outcome: Option<GameOutcome>,
    /// The cards as dealt, in the `Deal` tag's form, once the attempt is over.
    pub deal: Option<String>,
    /// The deal is kept secret though the attempt is over (others still play it): the
    /// record says so ([`DEAL_KEPT`]) in a comment before the actions.
    pub deal_kept: bool,
}

/// A solitaire's record as PGN, after the Seven Tag Roster: the referee's tags with
/// `Black "-"` (a game of one has no opponent: `-`, as `Round` says "not applicable"),
/// `Result` ([`pgn_result`]), the variant, how it ended (`Termination`, and `Score` when
/// won), the `Deal` of a finished attempt, in the order of every record
/// ([`crate::notation::pgn::tag_section`]); then the numbered actions wrapped at 80
/// columns, the outcome in a comment, and the result again as the game termination.
pub fn pgn(tags: &[(String, String)], record: Record<'_>) -> String {
    let result = pgn_result(record.outcome.as_ref());
    let mut all: Vec<(String, String)> = tags
        .iter()
        .map(|(k, v)| match k.as_str() {
            "Black" => (k.clone(), "-".to_string()),
            _ => (k.clone(), v.clone()),
        })
        .collect();
    if !all.iter().any(|(k, _)| k == "Black") {
        all.push(("Black".into(), "-".into()));
    }
    all.push(("Result".into(), result.into()));
    all.push(("Variant".into(), record.variant.into()));
    if let Some(o) = &record.outcome {
        let ending = crate::notation::pgn::termination(o.reason.name());
        all.push(("Termination".into(), ending.into()));
        all.push(("PostalReason".into(), o.reason.name().into()));
        if let Some([score]) = o.score.as_deref() {
            all.push(("Score".into(), score.to_string()));
        }
    }
    if let Some(deal) = record.deal {
        all.push(("Deal".into(), deal));
    }
    let mut out = crate::notation::pgn::tag_section(&all);
    let mut tokens: Vec<String> = Vec::new();
    if record.deal_kept && record.outcome.is_some() {
        tokens.push(format!("{{{DEAL_KEPT}}}"));
    }
    tokens.extend(
        record
            .actions
            .iter()
            .enumerate()
            .map(|(i, a)| format!("{}. {a}", i + 1)),
    );
    if let Some(o) = record.outcome {
        // In words, as the game's end was announced: `{won by connecting the group, 4
        // points}`, `{lost by calling it off once the deal was shown}`.
        tokens.push(format!("{{{}}}", o.describe(&[])));
    }
    tokens.push(result.into());
    out.push_str(&crate::notation::pgn::wrap_movetext(tokens));
    out.push('\n');
    out
}

/// `the pieces form 3 groups`, for a solitaire's counters.
pub fn groups_words(n: usize) -> String {
    format!("the pieces form {n} group{}", if n == 1 { "" } else { "s" })
}

/// The record numbered as players read it: `1. add 2. Nd3: c1-b2`.
pub fn numbered(record: &[String]) -> String {
    record
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{}. {a}", i + 1))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn squares_are_read_with_or_without_piece_letters_and_fillers() {
        let usage = || RuleError::syntax("usage");
        let want = vec![
            (Some(Role::Knight), sq("d3")),
            (None, sq("c1")),
            (None, sq("b2")),
        ];
        assert_eq!(read_squares("Nd3: c1-b2", usage).unwrap(), want);
        assert_eq!(read_squares("nd3 c1 to b2", usage).unwrap(), want);
        assert_eq!(
            read_squares("d3 c1 b2", usage).unwrap(),
            vec![(None, sq("d3")), (None, sq("c1")), (None, sq("b2"))]
        );
        assert_eq!(read_squares("c3 c7 with d4", usage).unwrap().len(), 3);
        assert!(read_squares("d3 c1 z9", usage).is_err());
        assert!(read_squares("Pd3 c1 b2", usage).is_err());
        assert!(read_squares(&"a1 ".repeat(40), usage).is_err());
    }

    #[test]
    fn every_ending_says_what_happened_in_words_without_its_name() {
        let said: Vec<String> = Ended::ALL
            .iter()
            .filter_map(|e| e.outcome(3))
            .map(|o| o.describe(&["alice".into()]))
            .collect();
        assert_eq!(
            said,
            [
                "won by connecting the group, 3 points",
                "lost by running out of cards",
                "lost by no move left",
                "lost by resignation",
                "lost on time",
                "lost by calling it off once the deal was shown",
            ]
        );
        assert_eq!(Ended::Aborted.outcome(3), None);
    }

    #[test]
    fn a_solitaires_pgn_follows_the_seven_tag_roster_with_a_real_result() {
        let record: Vec<String> = (0..12).map(|i| format!("Nd{}: c1-b2", i % 8 + 1)).collect();
        let tags = [
            ("White".to_string(), "alice".to_string()),
            ("Black".to_string(), "".to_string()),
        ];
        let text = pgn(
            &tags,
            Record {
                variant: "Parade Chess Solitaire",
                actions: &record,
                outcome: Ended::Connected.outcome(-2),
                deal: Some("Q♠ 9♥".into()),
                deal_kept: false,
            },
        );
        assert!(text.starts_with("[White \"alice\"]\n[Black \"-\"]\n[Result \"1-0\"]\n[Variant \"Parade Chess Solitaire\"]\n[Score \"-2\"]\n[Termination \"normal\"]\n[PostalReason \"connection\"]\n[Deal \"Q♠ 9♥\"]\n\n1. Nd1: c1-b2"), "{text}");
        assert!(
            text.ends_with("{won by connecting the group, -2 points} 1-0\n"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        let lost = pgn(
            &tags,
            Record {
                variant: "Parade Chess Solitaire",
                actions: &[],
                outcome: Ended::AbortedShown.outcome(8),
                deal: None,
                deal_kept: true,
            },
        );
        assert!(lost.contains("[Result \"0-1\"]"), "{lost}");
        // A deal others still play: left out, and the record says why.
        assert!(lost.contains(&format!("{{{DEAL_KEPT}}}")), "{lost}");
        assert!(!lost.contains("[Deal"), "{lost}");
        assert!(lost.contains("[Termination \"abandoned\"]"), "{lost}");
        assert!(lost.ends_with(" 0-1\n"), "{lost}");
        let live = pgn(
            &[],
            Record {
                variant: "Parade Chess Solitaire",
                actions: &[],
                outcome: None,
                deal: None,
                deal_kept: true,
            },
        );
        assert_eq!(
            live,
            "[Black \"-\"]\n[Result \"*\"]\n[Variant \"Parade Chess Solitaire\"]\n\n*\n"
        );
    }

    #[test]
    fn an_abort_counts_as_a_loss_once_the_deal_is_shown() {
        assert_eq!(abort_ending(false), Ended::Aborted);
        assert!(abort_ending(false).outcome(8).is_none());
        let lost = abort_ending(true).outcome(8).unwrap();
        assert_eq!(
            (lost.result.as_str(), lost.reason.name()),
            ("lost", "aborted")
        );
        assert_eq!(lost.score, None);
    }

    #[test]
    fn only_a_connected_group_wins_and_scores() {
        let won = Ended::Connected.outcome(5).unwrap();
        assert_eq!(won.to_string(), "won by connection (score 5)");
        let overtime = Ended::Connected.outcome(-3).unwrap();
        assert_eq!(overtime.score, Some(vec![-3]));
        let lost = Ended::Exhausted.outcome(-16).unwrap();
        assert_eq!(lost.to_string(), "lost by out-of-cards");
        assert!(Ended::Aborted.outcome(8).is_none());
    }
}
