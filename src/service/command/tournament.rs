//! `tournament ...` and `tournaments`: the words of the tournament commands, read into a
//! [`TournamentCommand`]. The words may come in any order (a slash command writes the id
//! before the action), each checked: an unknown word is refused, not ignored.

use super::spec::{Action, Arg, ArgKind, Arguments, Home, RefereeCommand, Words};
use super::{game_id, Command, ParseError};

/// A tournament's format, as `tournament create` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentFormat {
    /// A round robin (Berger tables).
    RoundRobin,
    /// A Swiss (the Dutch system's main rules).
    Swiss,
    /// A best-score competition of a one-seat variant: everyone plays the same deals.
    Competition,
}

/// What `tournament create` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentTerms {
    /// The format.
    pub format: TournamentFormat,
    /// A double round robin.
    pub double: bool,
    /// A Swiss's number of rounds.
    pub rounds: Option<u32>,
    /// A competition's number of deals.
    pub deals: Option<u32>,
    /// The variant as named.
    pub variant: String,
    /// Days per move.
    pub days: Option<u32>,
    /// Rated games or not (`None`: the variant's default).
    pub rated: Option<bool>,
    /// The most entrants.
    pub limit: Option<u32>,
    /// Days until sign-up closes by itself.
    pub signup: Option<u32>,
    /// Rounds started together (`Some(true)`) or each after the previous one.
    pub together: Option<bool>,
    /// The variant's own options, `name:value`.
    pub options: Vec<(String, String)>,
}

/// A `tournament` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCommand {
    /// `tournament create FORMAT VARIANT [...]`.
    Create(TournamentTerms),
    /// `tournament join ID`.
    Join(i64),
    /// `tournament leave ID`.
    Leave(i64),
    /// `tournament start ID`.
    Start(i64),
    /// `tournament pause ID`.
    Pause(i64),
    /// `tournament resume ID`.
    Resume(i64),
    /// `tournament cancel ID`.
    Cancel(i64),
    /// `tournament remove ID @user`.
    Remove(i64, String),
    /// `tournament ID`: its standings.
    Show(i64),
    /// `tournament pgn ID`: every game in one PGN.
    Pgn(i64),
}

/// How to write `tournament`.
pub const USAGE: &str = "tournament create round-robin|swiss|competition VARIANT [rounds:N] [deals:N] [double] [days:N] [rated|unrated] [limit:N] [signup:DAYS] [together|sequential] [OPTION:VALUE ...], tournament join|leave|start|pause|resume|cancel|pgn ID, tournament remove ID @user, tournament ID";

/// The longest number a keyed option takes.
const MAX_NUMBER: u32 = 1000;

/// Reads the words after `tournament`.
pub fn read(w: &Words) -> Result<Command, ParseError> {
    let usage = || w.usage();
    let actions = [
        "create", "join", "leave", "start", "pause", "resume", "cancel", "remove", "pgn", "show",
    ];
    let action = w.lower.iter().copied().find(|x| actions.contains(x));
    if action == Some("create") {
        return create(w.lower, w.raw).map(|t| Command::Tournament(TournamentCommand::Create(t)));
    }
    let mut id = None;
    let mut user = None;
    for (raw, lower) in w.raw.iter().zip(w.lower) {
        if Some(*lower) == action {
            continue;
        }
        if let (None, Some(n)) = (id, game_id(lower)) {
            id = Some(n);
        } else if let (None, Some(u)) = (&user, crate::service::names::mention(raw)) {
            user = Some(u);
        } else {
            return Err(usage());
        }
    }
    let id = id.ok_or_else(usage)?;
    let c = match (action, user) {
        (Some("remove"), Some(u)) => TournamentCommand::Remove(id, u),
        (_, Some(_)) => return Err(usage()),
        (None | Some("show"), None) => TournamentCommand::Show(id),
        (Some("join"), None) => TournamentCommand::Join(id),
        (Some("leave"), None) => TournamentCommand::Leave(id),
        (Some("start"), None) => TournamentCommand::Start(id),
        (Some("pause"), None) => TournamentCommand::Pause(id),
        (Some("resume"), None) => TournamentCommand::Resume(id),
        (Some("cancel"), None) => TournamentCommand::Cancel(id),
        (Some("pgn"), None) => TournamentCommand::Pgn(id),
        _ => return Err(usage()),
    };
    Ok(Command::Tournament(c))
}

/// Reads `tournament create ...`.
fn create(lower: &[&str], raw: &[&str]) -> Result<TournamentTerms, ParseError> {
    let mut format = None;
    let mut variant = None;
    let mut t = TournamentTerms {
        format: TournamentFormat::RoundRobin,
        double: false,
        rounds: None,
        deals: None,
        variant: String::new(),
        days: None,
        rated: None,
        limit: None,
        signup: None,
        together: None,
        options: Vec::new(),
    };
    for (word, _raw) in lower.iter().zip(raw) {
        let word = *word;
        if word == "create" {
            continue;
        }
        if let Some((name, value)) = word.split_once(':') {
            read_named(&mut t, &mut format, name, value)?;
            continue;
        }
        match word {
            "double" => t.double = true,
            "rated" => t.rated = Some(true),
            "unrated" => t.rated = Some(false),
            _ if read_mode(word).is_some() => t.together = read_mode(word),
            _ if format.is_none() && read_format(word).is_some() => format = read_format(word),
            _ if variant.is_none() => variant = Some(word.chars().take(40).collect::<String>()),
            _ => {
                let shown: String = word.chars().take(20).collect();
                return Err(refuse(format!("`{shown}` is not a tournament option")));
            }
        }
    }
    t.format = format
        .ok_or_else(|| refuse("name the format: round-robin, swiss or competition".into()))?;
    t.variant = variant.ok_or_else(|| refuse("name the variant".into()))?;
    Ok(t)
}

/// A refusal of `tournament create`: `text`, and the command's usage.
fn refuse(text: String) -> ParseError {
    let usage = crate::variants::api::usage_mark(USAGE);
    ParseError::Syntax(format!("{text} (usage: {usage})"))
}

/// The whole number `v` of the term `name`, from 1 to [`MAX_NUMBER`].
fn number(name: &str, v: &str) -> Result<u32, ParseError> {
    v.parse::<u32>()
        .ok()
        .filter(|n| (1..=MAX_NUMBER).contains(n))
        .ok_or_else(|| {
            refuse(format!(
                "{name}: takes a whole number from 1 to {MAX_NUMBER}"
            ))
        })
}

/// Reads the term `name:value` of `tournament create` into `t` (the format into
/// `format`); a name not the tournament's is a variant option.
fn read_named(
    t: &mut TournamentTerms,
    format: &mut Option<TournamentFormat>,
    name: &str,
    value: &str,
) -> Result<(), ParseError> {
    match name {
        "rounds" => t.rounds = Some(number(name, value)?),
        "deals" => t.deals = Some(number(name, value)?),
        "days" => t.days = Some(number(name, value)?),
        "limit" => t.limit = Some(number(name, value)?),
        "signup" => t.signup = Some(number(name, value)?),
        "rated" => {
            t.rated = Some(match value {
                "yes" | "on" => true,
                "no" | "off" => false,
                _ => return Err(refuse("rated: takes yes or no".into())),
            })
        }
        "format" => *format = Some(read_format(value).ok_or_else(|| refuse(bad_format(value)))?),
        "mode" => {
            t.together = Some(
                read_mode(value)
                    .ok_or_else(|| refuse("mode: takes together or sequential".into()))?,
            )
        }
        "double" => t.double = matches!(value, "yes" | "on" | "true"),
        _ if name.is_empty() || name.len() > 20 => {
            return Err(refuse("an option is written NAME:VALUE".into()))
        }
        _ => t
            .options
            .push((name.to_string(), value.chars().take(40).collect())),
    }
    Ok(())
}

/// The format a word names.
fn read_format(word: &str) -> Option<TournamentFormat> {
    match word {
        "round-robin" | "roundrobin" | "rr" | "round_robin" => Some(TournamentFormat::RoundRobin),
        "swiss" => Some(TournamentFormat::Swiss),
        "competition" | "best-score" | "bestscore" => Some(TournamentFormat::Competition),
        _ => None,
    }
}

/// `together` (true) or `sequential` (false).
fn read_mode(word: &str) -> Option<bool> {
    match word {
        "together" => Some(true),
        "sequential" => Some(false),
        _ => None,
    }
}

/// The refusal of an unknown format.
fn bad_format(word: &str) -> String {
    let shown: String = word.chars().take(20).collect();
    format!("`{shown}` is not a format: round-robin, swiss or competition")
}

/// The actions of `tournament` as commands of their own (Discord's `/tournament create`),
/// each with the arguments it takes.
const ACTIONS: &[Action] = &[
    Action {
        name: "create",
        required: &["format", "variant"],
        optional: &[
            "double", "rounds", "deals", "days", "limit", "signup", "rated", "mode",
        ],
    },
    Action {
        name: "join",
        required: &["id"],
        optional: &[],
    },
    Action {
        name: "leave",
        required: &["id"],
        optional: &[],
    },
    Action {
        name: "show",
        required: &["id"],
        optional: &[],
    },
    Action {
        name: "start",
        required: &["id"],
        optional: &[],
    },
    Action {
        name: "pause",
        required: &["id"],
        optional: &[],
    },
    Action {
        name: "resume",
        required: &["id"],
        optional: &[],
    },
    Action {
        name: "cancel",
        required: &["id"],
        optional: &[],
    },
    Action {
        name: "remove",
        required: &["id", "user"],
        optional: &[],
    },
    Action {
        name: "pgn",
        required: &["id"],
        optional: &[],
    },
];

/// `tournament ...`, as declared.
pub const TOURNAMENT: RefereeCommand = RefereeCommand {
    name: "tournament",
    aliases: &[],
    usage: USAGE,
    help: "tournaments in this server: create one (round robin or Swiss of a two-player variant, a best-score competition of a solitaire), join or leave it, and, as its creator or a moderator, start, pause, resume, cancel it or remove a player; its standings, or every game as one PGN",
    examples: "tournament create swiss {first} rounds:5 days:3, tournament create round-robin {first} double, tournament join 3, tournament start 3, tournament 3, tournament pgn 3",
    private: false,
    home: Home::Own(ACTIONS),
    place: 23,
    // The action first: Discord takes required options before the others.
    args: Arguments::Listed(&[
        Arg {
            name: "action",
            help: "What to do",
            kind: ArgKind::Choice(&[
                ("show", "its standings"),
                ("create", "make a tournament"),
                ("join", "join it"),
                ("leave", "leave it (after its start: withdraw)"),
                ("start", "start it"),
                ("pause", "pause it"),
                ("resume", "resume it"),
                ("cancel", "cancel it"),
                ("remove", "remove a player"),
                ("pgn", "every game as one PGN"),
            ]),
            keyed: false,
            required: true,
        },
        Arg {
            name: "id",
            help: "The tournament's number",
            kind: ArgKind::Number {
                min: 1,
                max: 1_000_000_000,
            },
            keyed: false,
            required: false,
        },
        Arg {
            name: "format",
            help: "create: round-robin, swiss or competition (a solitaire's best score)",
            kind: ArgKind::Choice(&[
                ("round-robin", "round robin"),
                ("swiss", "Swiss"),
                ("competition", "best score over the same deals (solitaires)"),
            ]),
            keyed: false,
            required: false,
        },
        Arg {
            name: "variant",
            help: "create: the variant",
            kind: ArgKind::Variant { rated_only: false },
            keyed: false,
            required: false,
        },
        Arg {
            name: "double",
            help: "create: a double round robin",
            kind: ArgKind::Flag,
            keyed: false,
            required: false,
        },
        Arg {
            name: "rounds",
            help: "create: a Swiss's rounds",
            kind: ArgKind::Number { min: 1, max: 50 },
            keyed: true,
            required: false,
        },
        Arg {
            name: "deals",
            help: "create: a competition's deals",
            kind: ArgKind::Number {
                min: 1,
                max: crate::service::competition::MAX_DEALS,
            },
            keyed: true,
            required: false,
        },
        Arg {
            name: "days",
            help: "create: days per move",
            kind: ArgKind::Number { min: 1, max: 60 },
            keyed: true,
            required: false,
        },
        Arg {
            name: "limit",
            help: "create: the most players",
            kind: ArgKind::Number { min: 2, max: 1000 },
            keyed: true,
            required: false,
        },
        Arg {
            name: "signup",
            help: "create: days until sign-up closes",
            kind: ArgKind::Number { min: 1, max: 60 },
            keyed: true,
            required: false,
        },
        Arg {
            name: "rated",
            help: "create: rated games (yes) or not (no)",
            kind: ArgKind::Choice(&[("yes", "yes"), ("no", "no")]),
            keyed: true,
            required: false,
        },
        Arg {
            name: "mode",
            help: "create: rounds started together, or each after the previous",
            kind: ArgKind::Choice(&[("together", "together"), ("sequential", "sequential")]),
            keyed: true,
            required: false,
        },
        Arg {
            name: "user",
            help: "remove: the player",
            kind: ArgKind::User,
            keyed: false,
            required: false,
        },
    ]),
    read,
};

/// `tournaments`, as declared.
pub const TOURNAMENTS: RefereeCommand = RefereeCommand {
    name: "tournaments",
    aliases: &[],
    usage: "tournaments",
    help: "this server's tournaments open for sign-up or under way",
    examples: "tournaments",
    private: false,
    home: Home::Own(&[]),
    place: 24,
    args: Arguments::Listed(&[]),
    read: |w| match w.lower {
        [] => Ok(Command::Tournaments),
        _ => Err(w.usage()),
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::command::parse;
    use crate::variants::Registry;

    fn p(text: &str) -> Result<Command, ParseError> {
        parse(text, &Registry::builtin())
    }

    #[test]
    fn the_words_are_read_in_any_order() {
        let t = |c| Ok(Command::Tournament(c));
        assert_eq!(p("tournament join 3"), t(TournamentCommand::Join(3)));
        assert_eq!(p("tournament 3 join"), t(TournamentCommand::Join(3)));
        assert_eq!(p("tournament 3"), t(TournamentCommand::Show(3)));
        assert_eq!(p("tournament pgn #4"), t(TournamentCommand::Pgn(4)));
        assert_eq!(
            p("tournament remove 3 <@123456789012345678>"),
            t(TournamentCommand::Remove(3, "123456789012345678".into()))
        );
        let Ok(Command::Tournament(TournamentCommand::Create(c))) = p(
            "tournament create swiss standard rounds:5 days:3 unrated limit:20 signup:7 timer:3",
        ) else {
            panic!("not read")
        };
        assert_eq!(c.format, TournamentFormat::Swiss);
        assert_eq!(
            (c.rounds, c.days, c.rated, c.limit, c.signup),
            (Some(5), Some(3), Some(false), Some(20), Some(7))
        );
        assert_eq!(c.options, vec![("timer".to_string(), "3".to_string())]);
        let Ok(Command::Tournament(TournamentCommand::Create(c))) =
            p("tournament create competition parade deals:4 days:2")
        else {
            panic!("not read")
        };
        assert_eq!(c.format, TournamentFormat::Competition);
        assert_eq!(
            (c.deals, c.days, c.variant.as_str()),
            (Some(4), Some(2), "parade")
        );
        assert_eq!(p("tournaments"), Ok(Command::Tournaments));
    }

    #[test]
    fn bad_words_are_refused() {
        for bad in [
            "tournament",
            "tournament join",
            "tournament join 3 4",
            "tournament remove 3",
            "tournament join 3 <@123456789012345678>",
            "tournament create standard",
            "tournament create swiss",
            "tournament create swiss standard chess",
            "tournament create swiss standard rounds:0",
            "tournament create swiss standard rounds:x",
            "tournament create competition parade deals:0",
            "tournament create knockout parade",
            "tournaments 3",
        ] {
            assert!(matches!(p(bad), Err(ParseError::Syntax(_))), "{bad}");
        }
    }
}
