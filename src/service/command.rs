//! The command language, shared by text messages, slash commands and the console.
//! Case-insensitive; an optional game id (`12` or `#12`) after the keyword picks a game.

use super::rules::{ClaimKind, Standing};

/// The colour a challenger asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourChoice {
    /// Play White.
    White,
    /// Play Black.
    Black,
    /// Drawn by the game's seeded RNG.
    Random,
}

/// An answer to an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Make the offer.
    Offer,
    /// Accept it.
    Accept,
    /// Decline it.
    Decline,
}

/// A parsed command. `Option<i64>` fields are an explicit game id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `challenge [@user ...] [VARIANT] [days:N] [colour:white|black|random] [fen:"FEN"]`.
    Challenge {
        /// Users challenged (none: an open challenge).
        opponents: Vec<String>,
        /// The variant name as typed.
        variant: Option<String>,
        /// Days per move.
        days: Option<u32>,
        /// Colour.
        colour: Option<ColourChoice>,
        /// The starting position, for testing and teaching (`fen:"..."`).
        fen: Option<String>,
        /// `teams:random`: the bot draws the teams and sides of a team game.
        random_teams: bool,
        /// `timer:N`: minutes for the words of a Chesswords finale (1 to 5).
        timer: Option<u8>,
    },
    /// `accept [ID]`.
    Accept(Option<i64>),
    /// `decline [ID]`.
    Decline(Option<i64>),
    /// `cancel [ID]`.
    Cancel(Option<i64>),
    /// `move [ID] MOVE`, or a bare move.
    Move(Option<i64>, String),
    /// `double [ID] MOVE1 MOVE2` (also `MOVE1, MOVE2` and `MOVE1 then MOVE2`): a double
    /// move in Double Move Chess.
    Double(Option<i64>, String, String),
    /// `board [ID]` / `display_board`.
    Board(Option<i64>),
    /// `moves [ID]`.
    Moves(Option<i64>),
    /// `games`.
    Games,
    /// `pgn [ID]`.
    Pgn(Option<i64>),
    /// `rules VARIANT`.
    Rules(String),
    /// `resign [ID]` / `concede`.
    Resign(Option<i64>),
    /// `abort [ID]`.
    Abort(Option<i64>),
    /// `draw [ID] offer|accept|decline`.
    Draw(Option<i64>, Answer),
    /// `fastfifty [ID] propose|accept|reject`.
    FastFifty(Option<i64>, Answer),
    /// `claim [ID] stalemate|impasse|time|draw [MOVE]`.
    Claim(Option<i64>, ClaimKind, Option<String>),
    /// `help [COMMAND]`.
    Help(Option<String>),
    /// `pick [ID] SQUARE`: a secret pick, sent privately (Split-Brain Chess).
    Pick(Option<i64>, String),
    /// `decide [ID] piece|target`: which half of the opponents' pick stands.
    Decide(Option<i64>, Standing),
    /// `choose [ID] SQUARE`: one of several equally close options.
    Choose(Option<i64>, String),
    /// `clue [#ID] TEXT`: a clue for the partner (Secret Chesswords); a game id only with `#`.
    Clue(Option<i64>, String),
    /// `pass [ID]`: no clue, the partner moves freely.
    Pass(Option<i64>),
    /// `play [ID] TEXT`: in Secret Chesswords `WORD MOVE`, the word guessed and the move;
    /// elsewhere a move (the game decides which).
    Play(Option<i64>, String),
    /// `letters [ID] XY MOVE`: a move with its two letters instead of a word (a penalty).
    Letters(Option<i64>, String, String),
    /// `discard [ID] CARD`: the card to discard, sent privately.
    Discard(Option<i64>, String),
    /// `hand [ID]`: the user's cards, answered privately.
    Hand(Option<i64>),
    /// `words [ID] WORD1 WORD2` (or `words none`): the finale's secret words, sent privately.
    Words(Option<i64>, Vec<String>),
    /// `guess [ID] WORD`: a guess at the partner's finale word.
    Guess(Option<i64>, String),
}

impl Command {
    /// Whether the command carries a secret, so that it is only accepted in private.
    pub fn is_secret(&self) -> bool {
        matches!(
            self,
            Command::Pick(..) | Command::Discard(..) | Command::Words(..)
        )
    }

    /// The command's name, as in `help`.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Challenge { .. } => "challenge",
            Command::Accept(_) => "accept",
            Command::Decline(_) => "decline",
            Command::Cancel(_) => "cancel",
            Command::Move(..) => "move",
            Command::Double(..) => "double",
            Command::Board(_) => "board",
            Command::Moves(_) => "moves",
            Command::Games => "games",
            Command::Pgn(_) => "pgn",
            Command::Rules(_) => "rules",
            Command::Resign(_) => "resign",
            Command::Abort(_) => "abort",
            Command::Draw(..) => "draw",
            Command::FastFifty(..) => "fastfifty",
            Command::Claim(..) => "claim",
            Command::Help(_) => "help",
            Command::Pick(..) => "pick",
            Command::Decide(..) => "decide",
            Command::Choose(..) => "choose",
            Command::Clue(..) => "clue",
            Command::Pass(_) => "pass",
            Command::Play(..) => "play",
            Command::Letters(..) => "letters",
            Command::Discard(..) => "discard",
            Command::Hand(_) => "hand",
            Command::Words(..) => "words",
            Command::Guess(..) => "guess",
        }
    }
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The first word is not a command (it may be a bare move).
    #[error("unknown command '{0}': type help for the list")]
    Unknown(String),
    /// The command's arguments are wrong; the text says how to write it.
    #[error("{0}")]
    Syntax(String),
}

/// The commands, with their usage, what they do, and examples: `help` prints these.
pub const HELP: &[(&str, &str, &str, &str)] = &[
    ("challenge", "challenge [@user ...] [VARIANT] [days:N] [colour:white|black|random] [teams:random] [timer:N] [fen:\"FEN\"]", "challenge a player (no user: an open challenge anyone may accept), or three for split-brain (you and the first are White, you and the second on the king side; teams:random draws teams and sides); timer:N gives a chesswords finale N minutes (1 to 5) for its words; fen: starts from a position, for testing and teaching", "challenge @bob chess-sharp days:5 colour:white, challenge @bob @carol @dave split-brain, challenge @bob fen:\"7k/8/6Q1/8/8/8/8/K7 w - - 0 1\""),
    ("accept", "accept [ID]", "accept a challenge made to you (or an open one)", "accept 3"),
    ("decline", "decline [ID]", "decline a challenge made to you", "decline"),
    ("cancel", "cancel [ID]", "withdraw your own challenge", "cancel"),
    ("move", "move [ID] MOVE", "play a move; in a channel with exactly one of your games a bare move works too", "move 12 e4, e4, N@d1, MOVE E2 TO E4"),
    ("double", "double [ID] MOVE1 MOVE2 (also double MOVE1 then MOVE2, or a bare MOVE1, MOVE2)", "Double Move Chess: spend a token to play two moves in one turn (rules double-move says when)", "double Nf3 Ng5, double 12 e2 to e4 then g1 to f3, double Bd3 and Bxh7"),
    ("board", "board [ID] (also display_board)", "show the board", "board"),
    ("moves", "moves [ID]", "the moves so far", "moves"),
    ("games", "games", "your games, whose turn it is and the deadline", "games"),
    ("pgn", "pgn [ID]", "the game record", "pgn 12"),
    ("rules", "rules VARIANT", "where the rules of a variant are written", "rules chess-sharp"),
    ("resign", "resign [ID] (also concede)", "give up the game", "resign"),
    ("abort", "abort [ID]", "call the game off, only before each side has moved", "abort"),
    ("draw", "draw [ID] offer|accept|decline", "draw by agreement (variants with draws)", "draw offer"),
    ("fastfifty", "fastfifty [ID] propose|accept|reject", "Chess#: end the game now as an impasse scored by material", "fastfifty propose"),
    ("claim", "claim [ID] stalemate|impasse|time|draw [MOVE]", "claim a result the rules allow; draw covers threefold repetition and fifty moves, optionally with the move you intend", "claim stalemate, claim draw Nf3"),
    ("pick", "pick [ID] SQUARE", "split-brain: privately (a DM to the bot), the chooser picks a piece and the mover a target square; a pick may be changed until your partner has picked; a mover may add a promotion", "pick b1, pick c3, pick 12 a6=N"),
    ("decide", "decide [ID] piece|target", "split-brain: when the other team's picks are not a legal move, their opposing chooser says which half stands", "decide piece, decide target"),
    ("choose", "choose [ID] SQUARE", "split-brain: pick one of the equally close options the bot lists", "choose c3"),
    ("clue", "clue [#ID] TEXT", "chesswords: a clue to a word whose first and last letters are those of the move you want your partner to make; in the finale, a clue to one of your words", "clue a sweet reward, clue #12 frozen water"),
    ("pass", "pass [ID]", "chesswords: give no clue; your partner moves freely (two passes in a row end play)", "pass"),
    ("play", "play [ID] WORD MOVE", "chesswords: the word you guessed from the clue and a move from its first letter's square to its last letter's square (in other games play is move)", "play treat Qc2, play 12 sun e2e3"),
    ("letters", "letters [ID] XY MOVE", "chesswords: when words fail, name the move's two letters instead of a word, for a penalty point", "letters te Qc2"),
    ("discard", "discard [ID] CARD", "chesswords: privately (a DM to the bot), a card your partner's capture lets you discard, until your next move; discard none when asked at the end of play", "discard white knight, discard bP, discard none"),
    ("hand", "hand [ID]", "chesswords: your cards, sent to you privately", "hand"),
    ("words", "words [ID] WORD1 WORD2", "chesswords finale: privately (a DM to the bot), your two words from the marked letters; words none if you have none", "words stone rated, words none"),
    ("guess", "guess [ID] WORD", "chesswords finale: your guess at your partner's word", "guess stone"),
    ("help", "help [COMMAND]", "this list, or one command with examples", "help claim"),
];

fn game_id(word: &str) -> Option<i64> {
    let w = word.strip_prefix('#').unwrap_or(word);
    if w.is_empty() || w.len() > 12 || !w.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    w.parse().ok()
}

/// Splits an optional leading game id off the arguments.
fn take_id<'a>(args: &'a [&'a str]) -> (Option<i64>, &'a [&'a str]) {
    match args.first().and_then(|w| game_id(w)) {
        Some(id) => (Some(id), &args[1..]),
        None => (None, args),
    }
}

fn usage(name: &str) -> ParseError {
    let (_, u, _, e) = HELP
        .iter()
        .find(|h| h.0 == name)
        .copied()
        .unwrap_or(("", "", "", ""));
    ParseError::Syntax(format!("usage: {u} (for example: {e})"))
}

fn only_id(name: &str, args: &[&str]) -> Result<Option<i64>, ParseError> {
    let (id, rest) = take_id(args);
    if rest.is_empty() {
        Ok(id)
    } else {
        Err(usage(name))
    }
}

/// Reads a mention: `@bob`, `<@123>`, `<@!123>`; the user key is lowercase.
pub fn mention(word: &str) -> Option<String> {
    let w = word
        .strip_prefix("<@")
        .and_then(|w| w.strip_suffix('>'))
        .map(|w| w.trim_start_matches('!'))
        .or_else(|| word.strip_prefix('@'))?;
    if w.is_empty() || w.len() > 64 {
        return None;
    }
    Some(w.to_lowercase())
}

/// The longest FEN accepted in a challenge.
pub const MAX_FEN_CHARS: usize = 120;

/// Takes `fen:"..."` (or `fen:WORD`) out of a challenge line: the rest of the line, and
/// the FEN.
fn take_fen(line: &str) -> Result<(String, Option<String>), ParseError> {
    let Some(at) = line.to_ascii_lowercase().find("fen:") else {
        return Ok((line.to_string(), None));
    };
    let rest = &line[at + 4..];
    let (fen, after) = match rest.strip_prefix('"') {
        Some(quoted) => match quoted.find('"') {
            Some(end) => (&quoted[..end], &quoted[end + 1..]),
            None => {
                return Err(ParseError::Syntax(
                    "fen:\"...\" needs its closing quote".into(),
                ))
            }
        },
        None => {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        }
    };
    let fen = fen.trim();
    if fen.is_empty() || fen.chars().count() > MAX_FEN_CHARS {
        return Err(ParseError::Syntax(format!(
            "fen:\"...\" takes a FEN of 1 to {MAX_FEN_CHARS} characters"
        )));
    }
    Ok((format!("{} {}", &line[..at], after), Some(fen.to_string())))
}

/// Parses one line.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let is_challenge = line
        .split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("challenge"));
    let (line, fen) = if is_challenge {
        take_fen(line)?
    } else {
        (line.to_string(), None)
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err(ParseError::Syntax(
            "empty command: type help for the list".into(),
        ));
    };
    let key = first.to_lowercase();
    let args = &words[1..];
    let lower: Vec<String> = args.iter().map(|a| a.to_lowercase()).collect();
    let l: Vec<&str> = lower.iter().map(|s| s.as_str()).collect();
    match key.as_str() {
        "challenge" => {
            let mut opponents = Vec::new();
            let (mut variant, mut days, mut colour) = (None, None, None);
            let mut random_teams = false;
            let mut timer = None;
            for (raw, w) in args.iter().zip(&l) {
                if let Some(u) = mention(raw) {
                    opponents.push(u);
                } else if let Some(d) = w.strip_prefix("days:") {
                    match d.parse::<u32>() {
                        Ok(n) if (1..=60).contains(&n) => days = Some(n),
                        _ => {
                            return Err(ParseError::Syntax(
                                "days:N takes a whole number of days from 1 to 60".into(),
                            ))
                        }
                    }
                } else if let Some(c) = w
                    .strip_prefix("colour:")
                    .or_else(|| w.strip_prefix("color:"))
                {
                    colour = Some(match c {
                        "white" | "w" => ColourChoice::White,
                        "black" | "b" => ColourChoice::Black,
                        "random" | "r" => ColourChoice::Random,
                        _ => {
                            return Err(ParseError::Syntax(
                                "colour: is white, black or random".into(),
                            ))
                        }
                    });
                } else if let Some(t) = w.strip_prefix("teams:") {
                    if t != "random" {
                        return Err(ParseError::Syntax(
                            "teams: takes only random (teams:random); without it you and the first player named are partners".into(),
                        ));
                    }
                    random_teams = true;
                } else if let Some(t) = w.strip_prefix("timer:") {
                    match t
                        .trim_end_matches("min")
                        .trim_end_matches('m')
                        .parse::<u8>()
                    {
                        Ok(n) if (1..=5).contains(&n) => timer = Some(n),
                        _ => {
                            return Err(ParseError::Syntax(
                                "timer:N takes a whole number of minutes from 1 to 5".into(),
                            ))
                        }
                    }
                } else if variant.is_none() {
                    variant = Some(w.to_string());
                } else {
                    return Err(usage("challenge"));
                }
            }
            Ok(Command::Challenge {
                opponents,
                variant,
                days,
                colour,
                fen,
                random_teams,
                timer,
            })
        }
        "accept" => only_id("accept", &l).map(Command::Accept),
        "decline" => only_id("decline", &l).map(Command::Decline),
        "cancel" => only_id("cancel", &l).map(Command::Cancel),
        "move" => {
            let (id, rest) = take_id(args);
            if rest.is_empty() {
                return Err(usage("move"));
            }
            Ok(Command::Move(id, rest.join(" ")))
        }
        "play" => {
            let (id, rest) = take_id(args);
            if rest.is_empty() {
                return Err(usage("play"));
            }
            Ok(Command::Play(id, rest.join(" ")))
        }
        "clue" | "hint" => {
            // Only `#12` is a game id here: a clue may well start with a number.
            let (id, rest) = match args.first().filter(|w| w.starts_with('#')) {
                Some(w) => match game_id(w) {
                    Some(id) => (Some(id), &args[1..]),
                    None => (None, args),
                },
                None => (None, args),
            };
            if rest.is_empty() {
                return Err(usage("clue"));
            }
            Ok(Command::Clue(id, rest.join(" ")))
        }
        "pass" => only_id("pass", &l).map(Command::Pass),
        "letters" => {
            let (id, rest) = take_id(args);
            match rest {
                [letters, mv @ ..] if !mv.is_empty() => {
                    Ok(Command::Letters(id, letters.to_string(), mv.join(" ")))
                }
                _ => Err(usage("letters")),
            }
        }
        "discard" => {
            let (id, rest) = take_id(args);
            if rest.is_empty() || rest.len() > 2 {
                return Err(usage("discard"));
            }
            Ok(Command::Discard(id, rest.join(" ")))
        }
        "hand" | "cards" => only_id("hand", &l).map(Command::Hand),
        "words" => {
            let (id, rest) = take_id(args);
            match rest {
                [none] if none.eq_ignore_ascii_case("none") => Ok(Command::Words(id, Vec::new())),
                [a, b] => Ok(Command::Words(id, vec![a.to_string(), b.to_string()])),
                _ => Err(usage("words")),
            }
        }
        "guess" => {
            let (id, rest) = take_id(args);
            match rest {
                [word] => Ok(Command::Guess(id, word.to_string())),
                _ => Err(usage("guess")),
            }
        }
        "double" | "doublemove" | "double-move" => {
            let (id, rest) = take_id(args);
            let text = rest.join(" ");
            let (a, b) = match split_double(&text) {
                Some(pair) => pair,
                None => match rest {
                    [a, b] => (*a, *b),
                    _ => return Err(usage("double")),
                },
            };
            if a.is_empty() || b.is_empty() {
                return Err(usage("double"));
            }
            Ok(Command::Double(id, a.to_string(), b.to_string()))
        }
        "board" | "display_board" | "show" => only_id("board", &l).map(Command::Board),
        "moves" => only_id("moves", &l).map(Command::Moves),
        "games" => {
            if args.is_empty() {
                Ok(Command::Games)
            } else {
                Err(usage("games"))
            }
        }
        "pgn" => only_id("pgn", &l).map(Command::Pgn),
        "rules" => match l.as_slice() {
            [v] => Ok(Command::Rules(v.to_string())),
            _ => Err(usage("rules")),
        },
        "resign" | "concede" => only_id("resign", &l).map(Command::Resign),
        "abort" => only_id("abort", &l).map(Command::Abort),
        "draw" => {
            let (id, rest) = take_id(&l);
            let a = match rest {
                ["offer"] => Answer::Offer,
                ["accept"] => Answer::Accept,
                ["decline"] => Answer::Decline,
                _ => return Err(usage("draw")),
            };
            Ok(Command::Draw(id, a))
        }
        "fastfifty" | "fast-fifty" => {
            let (id, rest) = take_id(&l);
            let a = match rest {
                ["propose"] | ["offer"] => Answer::Offer,
                ["accept"] => Answer::Accept,
                ["reject"] | ["decline"] => Answer::Decline,
                _ => return Err(usage("fastfifty")),
            };
            Ok(Command::FastFifty(id, a))
        }
        "claim" => {
            let (id, rest) = take_id(args);
            let Some(kind) = rest.first() else {
                return Err(usage("claim"));
            };
            let kind = match kind.to_lowercase().as_str() {
                "stalemate" => ClaimKind::Stalemate,
                "impasse" => ClaimKind::Impasse,
                "time" | "timeout" => ClaimKind::Time,
                "draw" | "threefold" | "repetition" | "fifty" => ClaimKind::Draw,
                _ => return Err(usage("claim")),
            };
            let mv = if rest.len() > 1 {
                Some(rest[1..].join(" "))
            } else {
                None
            };
            Ok(Command::Claim(id, kind, mv))
        }
        "pick" => {
            let (id, rest) = take_id(args);
            if rest.is_empty() || rest.len() > 2 {
                return Err(usage("pick"));
            }
            Ok(Command::Pick(id, rest.join(" ")))
        }
        "decide" => {
            let (id, rest) = take_id(&l);
            let standing = match rest {
                ["piece"] => Standing::Piece,
                ["target"] | ["square"] => Standing::Target,
                _ => return Err(usage("decide")),
            };
            Ok(Command::Decide(id, standing))
        }
        "choose" => {
            let (id, rest) = take_id(args);
            match rest {
                [one] => Ok(Command::Choose(id, one.to_string())),
                _ => Err(usage("choose")),
            }
        }
        "help" | "?" => match l.as_slice() {
            [] => Ok(Command::Help(None)),
            [c] => Ok(Command::Help(Some(c.to_string()))),
            _ => Err(usage("help")),
        },
        _ => Err(ParseError::Unknown(first.chars().take(30).collect())),
    }
}

/// Double Move Chess: reads `FIRST, SECOND`, `FIRST then SECOND` or `FIRST and SECOND`
/// (any case) as the two halves of a double move.
pub fn split_double(text: &str) -> Option<(&str, &str)> {
    if let Some((a, b)) = text.split_once(',') {
        return Some((a.trim(), b.trim()));
    }
    let lower = text.to_ascii_lowercase();
    for word in [" then ", " and "] {
        if let Some(i) = lower.find(word) {
            return Some((text[..i].trim(), text[i + word.len()..].trim()));
        }
    }
    None
}

/// The help text: every command, or one with its examples.
pub fn help(topic: Option<&str>) -> String {
    match topic {
        None => {
            let names: Vec<&str> = HELP.iter().map(|h| h.0).collect();
            format!(
                "commands: {} (help COMMAND for one, with examples)",
                names.join(", ")
            )
        }
        Some(t) => {
            let t = match t {
                "concede" => "resign",
                "display_board" => "board",
                "fast-fifty" => "fastfifty",
                "doublemove" | "double-move" => "double",
                "hint" => "clue",
                "cards" => "hand",
                other => other,
            };
            match HELP.iter().find(|h| h.0 == t) {
                Some((_, u, what, ex)) => format!("{u}: {what}. Examples: {ex}"),
                None => format!("no command '{t}': type help for the list"),
            }
        }
    }
}
