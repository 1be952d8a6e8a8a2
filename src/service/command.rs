//! The command language, shared by text messages, slash commands and the console: the
//! referee's own commands (challenges, boards, records, resignation, help) and every
//! variant's declared commands (see [`crate::variants::api::CommandSpec`]). The referee's
//! commands are declared once each, in [`REFEREE_COMMANDS`] (`command/spec.rs`): the
//! parser, `help` and the adapters' slash commands are generated from it.
//! Case-insensitive; an optional game id (`12` or `#12`) after the keyword picks a game.

use crate::service::player_settings::SettingsChange;
use crate::variants::api::{GameCommand, IdRule, TakebackStep};
use crate::variants::Registry;

mod args;
mod examples;
pub mod help;
mod spec;
mod tournament;

pub use spec::{
    find, named, Action, Arg, ArgKind, Arguments, Home, RefereeCommand, Words, REFEREE_COMMANDS,
    TEAMS, TEXT_MAX,
};
pub use tournament::{TournamentCommand, TournamentFormat, TournamentTerms};

/// The colour a challenger asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourChoice {
    /// Play White.
    White,
    /// Play Black.
    Black,
    /// Drawn at random.
    Random,
}

/// A parsed command. `Option<i64>` fields are an explicit game id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `challenge [@user ...] [VARIANT] [days:N] [colour:white|black|random]
    /// [teams:random] [fen:"FEN"] [OPTION:VALUE ...]`.
    Challenge(Challenge),
    /// `accept [ID]`.
    Accept(Option<i64>),
    /// `decline [ID]`.
    Decline(Option<i64>),
    /// `cancel [ID]`.
    Cancel(Option<i64>),
    /// `board [ID]` / `display_board`.
    Board(Option<i64>),
    /// `moves [ID]`.
    Moves(Option<i64>),
    /// `games` (live games), or `games finished` (`true`: the most recent finished ones).
    Games(bool),
    /// `pgn [ID]`.
    Pgn(Option<i64>),
    /// `analyse [ID]`: an engine's analysis of a finished game.
    Analyse(Option<i64>),
    /// `rules VARIANT`, or `rules` alone (`None`): every variant, a line each.
    Rules(Option<String>),
    /// `resign [ID]` / `concede`.
    Resign(Option<i64>),
    /// `abort [ID]`.
    Abort(Option<i64>),
    /// `hand [ID]`: what only the user holds in the game (cards), answered privately.
    Hand(Option<i64>),
    /// `help [COMMAND|VARIANT] [VARIANT]`: the commands, one command (for one variant, if
    /// named), or one variant's commands.
    Help(Option<String>, Option<String>),
    /// `rematch [ID]`: the same game again, colours swapped.
    Rematch(Option<i64>),
    /// `rating [@user]`: a player's ratings and solitaire scores on this server.
    Rating(Option<String>),
    /// `leaderboard VARIANT`: a variant's table on this server.
    Leaderboard(String),
    /// `takeback [ID]` (a proposal to take back the user's last move) or `takeback [ID]
    /// accept|decline` (the answer to the opponent's).
    Takeback(Option<i64>, TakebackStep),
    /// `settings [reminders:..] [autoclaim:..] [digest:..] [orientation:..]`: the user's
    /// own settings, shown (and changed) privately.
    Settings(SettingsChange),
    /// `vacation [DAYS|end]`: the user's vacation, shown, started or ended early.
    Vacation(VacationAsk),
    /// `conditional [ID] THEIRS YOURS [THEIRS YOURS ...]`, `conditional [ID] list`,
    /// `conditional [ID] clear`: the user's private conditional moves.
    Conditional(Option<i64>, Conditional),
    /// `forget-me` (`false`: what would be deleted, and how to confirm) or `forget-me
    /// confirm` (`true`): the user's personal data deleted and their name in their past
    /// games' records replaced by a neutral label.
    ForgetMe(bool),
    /// `server [show] [prefix:P] [text:on|off] [channels:...] [days:N] [options:...]
    /// [moderators:@role]`: the server's settings, shown or changed.
    Server(crate::service::server_settings::ServerChange),
    /// `moderate ...`: a moderator's action on a stuck game or a player's challenges.
    Moderate(crate::service::moderation::Moderation),
    /// `tournament ...`: a tournament made, joined, run or shown.
    Tournament(TournamentCommand),
    /// `tournaments`: this server's tournaments in sign-up or under way.
    Tournaments,
    /// One of the variants' commands, read by the game it is for.
    Game(Option<i64>, GameCommand),
}

/// What `vacation` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VacationAsk {
    /// `vacation`: the days left this year and the vacation running, if any.
    Show,
    /// `vacation DAYS`: a vacation of that many whole days, from now.
    Start(u32),
    /// `vacation end`: the running vacation ends now.
    End,
}

/// What a `conditional` command asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conditional {
    /// Show the user's stored lines.
    List,
    /// Delete the user's stored lines.
    Clear,
    /// Store one line: the moves as typed, alternately the opponent's expected move and
    /// the user's answer (an even number, at most [`MAX_CONDITIONAL_PAIRS`] pairs).
    Add(Vec<String>),
}

/// The most pairs (their move, your answer) one conditional line holds.
pub const MAX_CONDITIONAL_PAIRS: usize = 10;

/// The longest move of a conditional line, in characters.
const MAX_CONDITIONAL_MOVE: usize = 40;

/// What a challenge asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Challenge {
    /// Users challenged (none: an open challenge, or a game for one).
    pub opponents: Vec<String>,
    /// The variant name as typed.
    pub variant: Option<String>,
    /// Days per move.
    pub days: Option<u32>,
    /// Colour, in a game of two sides.
    pub colour: Option<ColourChoice>,
    /// `teams:random`: the bot draws the teams and sides of a team game.
    pub random_teams: bool,
    /// The starting position, for testing and teaching (`fen:"..."`).
    pub fen: Option<String>,
    /// The variant's own options as typed (`timer:3` is `("timer", "3")`).
    pub options: Vec<(String, String)>,
}

/// The `help` command, marked in a refusal's text ([`crate::variants::api::command_mark`]).
const HELP_MARK: &str = crate::variants::api::command_mark_str!("help");

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The first word is not a command (it may be a bare move).
    #[error("unknown command '{0}': {help} lists the commands", help = HELP_MARK)]
    Unknown(String),
    /// The command's arguments are wrong; the text says how to write it.
    #[error("{0}")]
    Syntax(String),
}

fn game_id(word: &str) -> Option<i64> {
    let w = word.strip_prefix('#').unwrap_or(word);
    if w.is_empty() || w.len() > 12 || !w.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    w.parse().ok()
}

/// Splits an optional leading game id off the arguments (`#12` only, for
/// [`IdRule::HashOnly`]).
fn take_id<S: AsRef<str>>(args: &[S], rule: IdRule) -> (Option<i64>, &[S]) {
    match args.first() {
        Some(w) if rule == IdRule::Plain || w.as_ref().starts_with('#') => {
            match game_id(w.as_ref()) {
                Some(id) => (Some(id), &args[1..]),
                None => (None, args),
            }
        }
        _ => (None, args),
    }
}

/// The refusal that shows how to write the referee's command `name`.
fn usage(name: &str) -> ParseError {
    match spec::named(name) {
        Some(c) => c.usage_error(),
        None => ParseError::Syntax(format!(
            "usage: {}",
            crate::variants::api::usage_mark("help")
        )),
    }
}

pub use super::names::mention;

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

/// Reads the words of a challenge after its keyword.
fn challenge(args: &[&str], fen: Option<String>) -> Result<Challenge, ParseError> {
    let mut c = Challenge {
        fen,
        ..Challenge::default()
    };
    for raw in args {
        let w = raw.to_lowercase();
        if let Some(u) = mention(raw) {
            c.opponents.push(u);
        } else if let Some(d) = w.strip_prefix("days:") {
            match d.parse::<u32>() {
                Ok(n) if (1..=60).contains(&n) => c.days = Some(n),
                _ => {
                    return Err(ParseError::Syntax(
                        "days:N takes a whole number of days from 1 to 60".into(),
                    ))
                }
            }
        } else if let Some(col) = w
            .strip_prefix("colour:")
            .or_else(|| w.strip_prefix("color:"))
        {
            c.colour = Some(match col {
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
            c.random_teams = true;
        } else if let Some((name, value)) = w.split_once(':') {
            if name.is_empty() || name.len() > 20 || c.options.len() >= 8 {
                return Err(usage("challenge"));
            }
            c.options.push((name.to_string(), value.to_string()));
        } else if c.variant.is_none() {
            c.variant = Some(w.chars().take(40).collect());
        } else {
            return Err(usage("challenge"));
        }
    }
    Ok(c)
}

/// Reads the words of a `conditional` command after its keyword: an optional game id,
/// then `list`, `clear` or the moves of a line, separated by spaces or, when a move holds
/// spaces (`e2 to e4, Nf3`), by `;`.
fn conditional(args: &[&str]) -> Result<Command, ParseError> {
    let (id, rest) = take_id(args, IdRule::Plain);
    match rest {
        [w] if w.eq_ignore_ascii_case("list") => {
            return Ok(Command::Conditional(id, Conditional::List))
        }
        [w] if w.eq_ignore_ascii_case("clear") => {
            return Ok(Command::Conditional(id, Conditional::Clear))
        }
        _ => {}
    }
    let split = |words: &[&str]| -> Vec<String> {
        let line = words.join(" ");
        if line.contains(';') {
            line.split(';').map(|m| m.trim().to_string()).collect()
        } else {
            words.iter().map(|w| w.to_string()).collect()
        }
    };
    let mut moves = split(rest);
    let mut id = id;
    // A number that reads as an ICCF numeric move (`5254`) and leaves an odd number of
    // moves is a move, not a game id (`#5254` is always the game).
    let iccf = |w: &str| (4..=5).contains(&w.len()) && w.chars().all(|c| ('1'..='8').contains(&c));
    if id.is_some() && iccf(args[0]) && moves.len() % 2 == 1 {
        let all = split(args);
        if all.len() % 2 == 0 {
            (id, moves) = (None, all);
        }
    }
    let bad = |why: &str| {
        ParseError::Syntax(format!(
            "{why} (for example: {}, or {})",
            crate::variants::api::command_mark("conditional 3 Nf6 e5 d6 exd6"),
            crate::variants::api::command_mark("conditional e4; e2 to e4, Nf3")
        ))
    };
    if moves.is_empty() {
        return Err(usage("conditional"));
    }
    if moves.iter().any(|m| m.is_empty()) {
        return Err(bad("a conditional line has an empty move"));
    }
    if moves.len() % 2 == 1 {
        return Err(bad(
            "a conditional line is pairs of moves: your opponent's move, then your answer",
        ));
    }
    if moves.len() > 2 * MAX_CONDITIONAL_PAIRS {
        return Err(bad(&format!(
            "a conditional line holds at most {MAX_CONDITIONAL_PAIRS} pairs of moves"
        )));
    }
    if moves
        .iter()
        .any(|m| m.chars().count() > MAX_CONDITIONAL_MOVE)
    {
        return Err(bad(&format!(
            "a move of a conditional line has at most {MAX_CONDITIONAL_MOVE} characters"
        )));
    }
    Ok(Command::Conditional(id, Conditional::Add(moves)))
}

/// The command `line` names, as the operator's metrics count it: a referee command's or
/// a variant command's name (never the user's own words), else `move` (a bare move, or a
/// word the referee reads as one).
pub fn kind_of(line: &str, registry: &Registry) -> &'static str {
    let Some(first) = line.split_whitespace().next() else {
        return "empty";
    };
    let lowered = first.to_lowercase();
    if let Some(command) = spec::find(&lowered) {
        return command.name;
    }
    registry
        .declarations(&lowered)
        .first()
        .map_or("move", |d| d.name)
}

/// Parses one line, knowing the variants' commands from `registry`.
pub fn parse(line: &str, registry: &Registry) -> Result<Command, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err(ParseError::Syntax(format!(
            "empty command: {HELP_MARK} lists the commands"
        )));
    };
    let lowered = first.to_lowercase();
    let args = &words[1..];
    if let Some(command) = spec::find(&lowered) {
        let lower: Vec<String> = args.iter().map(|a| a.to_lowercase()).collect();
        let lower: Vec<&str> = lower.iter().map(|s| s.as_str()).collect();
        let after = line.trim_start();
        return (command.read)(&Words {
            command,
            line: &after[first.len()..],
            raw: args,
            lower: &lower,
        });
    }
    let word = lowered.as_str();
    let decls = registry.declarations(word);
    let Some(spec) = decls.first() else {
        return Err(ParseError::Unknown(first.chars().take(30).collect()));
    };
    let (mut id, mut rest) = take_id(args, spec.id);
    // A number that leaves too few words for the command is its argument, not a
    // game id: `move 5254` is ICCF numeric, as the help teaches.
    if id.is_some()
        && !args[0].starts_with('#')
        && !decls.iter().any(|d| d.takes(rest.len()))
        && decls.iter().any(|d| d.takes(args.len()))
    {
        (id, rest) = (None, args);
    }
    if !decls.iter().any(|d| d.takes(rest.len())) {
        return Err(ParseError::Syntax(spec.usage_error().text));
    }
    Ok(Command::Game(id, GameCommand::new(word, &rest.join(" "))))
}

/// Whether `word` is one of the referee's own command names or aliases.
pub fn is_referee_command(word: &str) -> bool {
    spec::find(word).is_some()
}

/// Whether the command `text` begins with runs privately: one of the referee's commands
/// whose answer is private ([`RefereeCommand::private`]) or a variant command declared
/// secret, named by its name (not an alias: a slash command is registered by name).
/// Wherever such a command is used it runs as a private message to the bot and is
/// answered to the user alone.
pub fn runs_privately(text: &str, registry: &Registry) -> bool {
    let word = text.split_whitespace().next().unwrap_or("").to_lowercase();
    spec::named(&word).is_some_and(|c| c.private)
        || registry
            .declarations(&word)
            .iter()
            .any(|c| c.name == word && c.secret)
}

/// Whether the first word of `text` is a command some variant declares (by name or
/// alias).
pub fn is_declared_command(text: &str, registry: &Registry) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|w| !registry.declarations(&w.to_lowercase()).is_empty())
}

/// The typed help text of `help` (no topic: the commands, with standard chess's) or
/// `help TOPIC`, for a reader who plays no game: [`help::listing`] and [`help::topic`] as
/// text ([`help::Help::text`]).
pub fn help(topic: Option<&str>, registry: &Registry) -> String {
    match topic {
        None => help::listing(registry, &[], false).text(),
        Some(t) => help::topic(registry, t, None, &[]).map_or_else(|e| e, |h| h.text()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn privacy_and_variant_commands_are_told_from_the_first_word() {
        let r = Registry::builtin();
        // A button's whole command text, or a slash command's bare name.
        assert!(runs_privately("pick 123 b1", &r));
        assert!(runs_privately("Discard white knight", &r));
        assert!(runs_privately("settings", &r));
        assert!(!runs_privately("move 12 e4", &r));
        assert!(!runs_privately("resign 12", &r));
        assert!(!runs_privately("", &r));
        assert!(is_declared_command("pick b1", &r));
        assert!(is_declared_command("MOVE e4", &r));
        assert!(!is_declared_command("resign", &r), "the referee's own");
        assert!(!is_declared_command("gg well played", &r));
        assert!(!is_declared_command("   ", &r));
    }

    #[test]
    fn conditional_lines_read_ids_moves_and_separators() {
        let r = Registry::builtin();
        let add = |id: Option<i64>, m: &[&str]| {
            Ok(Command::Conditional(
                id,
                Conditional::Add(m.iter().map(|s| s.to_string()).collect()),
            ))
        };
        assert_eq!(
            parse("conditional 3 Nf6 e5", &r),
            add(Some(3), &["Nf6", "e5"])
        );
        assert_eq!(parse("conditional Nf6 e5", &r), add(None, &["Nf6", "e5"]));
        // ICCF numeric: the number is a move when it leaves an odd number of moves.
        assert_eq!(
            parse("conditional 5254 7775", &r),
            add(None, &["5254", "7775"])
        );
        assert_eq!(
            parse("conditional #12 e4; e2 to e4, Nf3", &r),
            add(Some(12), &["e4", "e2 to e4, Nf3"])
        );
        assert_eq!(
            parse("conditional 4 LIST", &r),
            Ok(Command::Conditional(Some(4), Conditional::List))
        );
        assert_eq!(
            parse("conditional clear", &r),
            Ok(Command::Conditional(None, Conditional::Clear))
        );
        for bad in [
            "conditional",
            "conditional 3 e4",
            "conditional e4;;e5 d4",
            "conditional 2 e4 e5 Qh5",
        ] {
            assert!(
                matches!(parse(bad, &r), Err(ParseError::Syntax(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn no_variant_command_takes_a_referee_commands_name() {
        let r = Registry::builtin();
        for c in r.commands() {
            for word in std::iter::once(&c.name).chain(c.aliases) {
                assert!(!is_referee_command(word), "{word}");
            }
        }
    }
}
