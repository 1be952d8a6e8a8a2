//! The referee's own commands, each declared once as variants' commands are
//! ([`crate::variants::api::CommandSpec`]): its name and other names, usage, help and
//! examples, whether its answer is private, where an adapter groups it, its arguments in
//! the order they are written, and the function that reads its words. The parser's
//! dispatch, `help`, the slash commands, the private-answer list and the slash commands'
//! text form are generated from [`REFEREE_COMMANDS`].

use super::{
    challenge, conditional, mention, take_fen, take_id, Command, ParseError, VacationAsk,
    MAX_FEN_CHARS,
};
use crate::variants::api::{command_mark, usage_mark, IdRule, TakebackStep};

pub use super::args::{Arg, ArgKind, Arguments, TEXT_MAX};

/// One of the referee's commands.
#[derive(Clone, Copy, Debug)]
pub struct RefereeCommand {
    /// The name (`accept`, `board`).
    pub name: &'static str,
    /// Other words that mean the same (`concede` for `resign`).
    pub aliases: &'static [&'static str],
    /// How to write it (`accept [ID]`).
    pub usage: &'static str,
    /// What it does, in one sentence.
    pub help: &'static str,
    /// Examples, separated by `, `, naming variants by placeholders the registry fills
    /// (`{two}`: see [`super::examples`]; read them with [`RefereeCommand::examples`]).
    pub examples: &'static str,
    /// Whether its answer is for the user alone: wherever it is given, an adapter runs it
    /// as a private message to the bot and answers privately.
    pub private: bool,
    /// Where an adapter that groups commands puts it.
    pub home: Home,
    /// Its place among the commands of its [`Home`] where an adapter lists them (Discord's
    /// slash subcommands, registered in this order).
    pub place: u8,
    /// Its arguments.
    pub args: Arguments,
    /// Reads its words after the name.
    pub read: fn(&Words) -> Result<Command, ParseError>,
}

/// Where an adapter that groups commands puts one of the referee's commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// A command about a game or a challenge (Discord's `/chess`).
    Game,
    /// A command about the player or the server (Discord's `/postal`).
    Account,
    /// A command of the server's administrators and moderators (Discord's
    /// `/postal-admin`, which Discord hides from members without Manage Server; the
    /// referee still checks who may use it).
    Admin,
    /// A command with a top-level command of its own (Discord's `/tournament`,
    /// `/tournaments`), listed with [`Home::Account`]'s in help: each of its actions
    /// (the values of its first argument, a choice) a subcommand taking the arguments
    /// the [`Action`] names; none, the command alone.
    Own(&'static [Action]),
}

/// One action of a command at [`Home::Own`] (`tournament create`): the arguments it
/// takes by name, those it requires first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Action {
    /// The action's word, a value of the command's first argument.
    pub name: &'static str,
    /// The arguments it requires.
    pub required: &'static [&'static str],
    /// The arguments it may take.
    pub optional: &'static [&'static str],
}

/// The words of a command after its name, as its `read` function gets them.
#[derive(Clone, Copy, Debug)]
pub struct Words<'a> {
    /// The command being read.
    pub command: &'static RefereeCommand,
    /// The text after the name, as typed.
    pub line: &'a str,
    /// The words after the name, as typed.
    pub raw: &'a [&'a str],
    /// The same words in lower case.
    pub lower: &'a [&'a str],
}

impl Words<'_> {
    /// The refusal that shows how to write the command.
    pub fn usage(&self) -> ParseError {
        self.command.usage_error()
    }

    /// An optional game id and nothing else.
    fn only_id(&self) -> Result<Option<i64>, ParseError> {
        match take_id(self.lower, IdRule::Plain) {
            (id, []) => Ok(id),
            _ => Err(self.usage()),
        }
    }
}

impl RefereeCommand {
    /// Whether `word` (lower case) names this command.
    pub fn is_named(&self, word: &str) -> bool {
        self.name == word || self.aliases.contains(&word)
    }

    /// Its examples, the variants they name filled in from the registry.
    pub fn examples(&self) -> Vec<String> {
        super::examples::filled(self.examples)
    }

    /// The refusal that shows how to write the command.
    pub fn usage_error(&self) -> ParseError {
        let examples: Vec<String> = self.examples().iter().map(|e| command_mark(e)).collect();
        ParseError::Syntax(format!(
            "usage: {} (for example: {})",
            usage_mark(self.usage),
            examples.join(", ")
        ))
    }

    /// The arguments declared one by one (for a challenge, those after the variant).
    pub fn listed(&self) -> &'static [Arg] {
        match self.args {
            Arguments::Listed(args) | Arguments::Challenge(args) => args,
        }
    }
}

/// The referee's command named `word` (lower case), by its name or another name.
pub fn find(word: &str) -> Option<&'static RefereeCommand> {
    REFEREE_COMMANDS.iter().find(|c| c.is_named(word))
}

/// The referee's command whose name (not another name) is `name`.
pub fn named(name: &str) -> Option<&'static RefereeCommand> {
    REFEREE_COMMANDS.iter().find(|c| c.name == name)
}

/// A challenge's `teams:random`, offered only where a variant is played in teams.
pub const TEAMS: Arg = Arg {
    name: "teams",
    help: "Team games: random draws the teams and sides",
    kind: ArgKind::Choice(&[("random", "random")]),
    keyed: true,
    required: false,
};

const GAME_ONLY: Arguments = Arguments::Listed(&[Arg::GAME]);

/// The referee's commands, in the order `help` lists them.
pub const REFEREE_COMMANDS: &[RefereeCommand] = &[
    RefereeCommand {
        name: "challenge",
        aliases: &[],
        usage: "challenge [@user ...] [VARIANT] [days:N] [colour:white|black|random] [teams:random] [rated:yes|no] [takebacks:on] [level:1-8] [OPTION:N] [fen:\"FEN\"]",
        help: "challenge a player (no user: an open challenge anyone may accept; a one-player game starts at once), or three for a team game (you and the first are partners; teams:random draws teams and sides); rated:no for an unrated game; takebacks:on allows takebacks by agreement (unrated, variants without hidden information); name the bot (@Postal) to play the engine, level:1 to level:8 (never rated); a variant may take options of its own (rules VARIANT lists them); fen: starts from a position, for testing and teaching",
        examples: "challenge @bob {two} days:5 colour:white, challenge @bob @carol @dave {four}, challenge @bob fen:\"7k/8/6Q1/8/8/8/8/K7 w - - 0 1\"",
        private: false,
        home: Home::Game,
        place: 0,
        args: Arguments::Challenge(&[
            Arg {
                name: "days",
                help: "Days per move",
                kind: ArgKind::Number { min: 1, max: 60 },
                keyed: true,
                required: false,
            },
            Arg {
                name: "colour",
                help: "Your colour",
                kind: ArgKind::Choice(&[
                    ("white", "white"),
                    ("black", "black"),
                    ("random", "random"),
                ]),
                keyed: true,
                required: false,
            },
            TEAMS,
            Arg {
                name: "rated",
                help: "Two-player games: rated (yes, the default) or not (no)",
                kind: ArgKind::Choice(&[("yes", "yes"), ("no", "no")]),
                keyed: true,
                required: false,
            },
            Arg {
                name: "takebacks",
                help: "Two-player games without hidden information: takebacks by agreement (unrated)",
                kind: ArgKind::Choice(&[("on", "on")]),
                keyed: true,
                required: false,
            },
            Arg {
                name: "level",
                help: "Against the bot (name it as your opponent): its level, 1 (a beginner's opponent) to 8",
                kind: ArgKind::Number { min: 1, max: 8 },
                keyed: true,
                required: false,
            },
            Arg {
                name: "fen",
                help: "Start from this position (FEN), for testing and teaching",
                kind: ArgKind::Text {
                    max: MAX_FEN_CHARS as u16,
                },
                keyed: true,
                required: false,
            },
        ]),
        read: |w| {
            let (line, fen) = take_fen(w.line)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            challenge(&words, fen).map(Command::Challenge)
        },
    },
    RefereeCommand {
        name: "accept",
        aliases: &[],
        usage: "accept [ID]",
        help: "accept a challenge made to you (or an open one)",
        examples: "accept 3",
        private: false,
        home: Home::Game,
        place: 1,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Accept),
    },
    RefereeCommand {
        name: "decline",
        aliases: &[],
        usage: "decline [ID]",
        help: "decline a challenge made to you",
        examples: "decline",
        private: false,
        home: Home::Game,
        place: 2,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Decline),
    },
    RefereeCommand {
        name: "cancel",
        aliases: &[],
        usage: "cancel [ID]",
        help: "withdraw your own challenge",
        examples: "cancel",
        private: false,
        home: Home::Game,
        place: 3,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Cancel),
    },
    RefereeCommand {
        name: "board",
        aliases: &["display_board", "show"],
        usage: "board [ID] (also display_board)",
        help: "show the board (asked privately, a player sees their own view)",
        examples: "board",
        private: false,
        home: Home::Game,
        place: 4,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Board),
    },
    RefereeCommand {
        name: "moves",
        aliases: &[],
        usage: "moves [ID]",
        help: "the moves so far",
        examples: "moves",
        private: false,
        home: Home::Game,
        place: 5,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Moves),
    },
    RefereeCommand {
        name: "games",
        aliases: &[],
        usage: "games [finished]",
        help: "your games here, whose turn and by when; games finished: your last 10 finished",
        examples: "games, games finished",
        private: false,
        home: Home::Game,
        place: 12,
        args: Arguments::Listed(&[Arg {
            name: "finished",
            help: "Your last finished games instead of the live ones",
            kind: ArgKind::Flag,
            keyed: false,
            required: false,
        }]),
        read: |w| match w.lower {
            [] => Ok(Command::Games(false)),
            ["finished"] => Ok(Command::Games(true)),
            _ => Err(w.usage()),
        },
    },
    RefereeCommand {
        name: "pgn",
        aliases: &[],
        usage: "pgn [ID]",
        help: "the game record",
        examples: "pgn 12",
        private: false,
        home: Home::Game,
        place: 6,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Pgn),
    },
    RefereeCommand {
        name: "analyse",
        aliases: &["analyze", "analysis"],
        usage: "analyse [ID] (also analyze)",
        help: "an engine's analysis of a finished game: accuracy, mistakes, the better moves and a graph, posted in the game's place; never for a live game",
        examples: "analyse 12",
        private: false,
        home: Home::Game,
        place: 25,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Analyse),
    },
    RefereeCommand {
        name: "rules",
        aliases: &[],
        usage: "rules [VARIANT]",
        help: "a variant's whole rules, with its options and commands; without a variant, the list of every variant",
        examples: "rules {two}, rules",
        private: false,
        home: Home::Account,
        place: 13,
        args: Arguments::Listed(&[Arg::VARIANT]),
        read: |w| match w.lower {
            [] => Ok(Command::Rules(None)),
            [v] => Ok(Command::Rules(Some(v.to_string()))),
            _ => Err(w.usage()),
        },
    },
    RefereeCommand {
        name: "resign",
        aliases: &["concede"],
        usage: "resign [ID] (also concede)",
        help: "give up the game",
        examples: "resign",
        private: false,
        home: Home::Game,
        place: 7,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Resign),
    },
    RefereeCommand {
        name: "abort",
        aliases: &[],
        usage: "abort [ID]",
        help: "call the game off, only before each side has moved",
        examples: "abort",
        private: false,
        home: Home::Game,
        place: 8,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Abort),
    },
    RefereeCommand {
        name: "hand",
        aliases: &["cards"],
        usage: "hand [ID] (also cards)",
        help: "what only you hold in a game (your cards), sent to you privately",
        examples: "hand",
        private: true,
        home: Home::Game,
        place: 9,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Hand),
    },
    RefereeCommand {
        name: "takeback",
        aliases: &[],
        usage: "takeback [ID] [accept|decline]",
        help: "in a game made with takebacks:on, right after your move: propose taking it back; your opponent answers takeback accept or decline",
        examples: "takeback, takeback accept, takeback 12 decline",
        private: false,
        home: Home::Game,
        place: 11,
        args: Arguments::Listed(&[
            Arg::GAME,
            Arg {
                name: "answer",
                help: "Leave empty to propose; accept or decline your opponent's proposal",
                kind: ArgKind::Choice(&[("accept", "accept"), ("decline", "decline")]),
                keyed: false,
                required: false,
            },
        ]),
        read: |w| {
            let (id, rest) = take_id(w.lower, IdRule::Plain);
            let step = match rest {
                [] | ["offer"] | ["propose"] => TakebackStep::Offer,
                ["accept"] => TakebackStep::Accept,
                ["decline"] => TakebackStep::Decline,
                _ => return Err(w.usage()),
            };
            Ok(Command::Takeback(id, step))
        },
    },
    RefereeCommand {
        name: "rematch",
        aliases: &[],
        usage: "rematch [ID]",
        help: "after a game of two players, challenge the other player to the same variant, days and options, colours swapped",
        examples: "rematch, rematch 12",
        private: false,
        home: Home::Game,
        place: 10,
        args: GAME_ONLY,
        read: |w| w.only_id().map(Command::Rematch),
    },
    RefereeCommand {
        name: "rating",
        aliases: &["ratings"],
        usage: "rating [@user] (also ratings)",
        help: "your ratings on this server (or another player's): Glicko-2 per variant from finished rated games, Chess# points, solitaire best scores",
        examples: "rating, rating @bob",
        private: false,
        home: Home::Account,
        place: 14,
        args: Arguments::Listed(&[Arg {
            name: "user",
            help: "Whose ratings (default: yours)",
            kind: ArgKind::User,
            keyed: false,
            required: false,
        }]),
        read: |w| match w.raw {
            [] => Ok(Command::Rating(None)),
            [who] => match mention(who) {
                Some(u) => Ok(Command::Rating(Some(u))),
                None => Err(w.usage()),
            },
            _ => Err(w.usage()),
        },
    },
    RefereeCommand {
        name: "leaderboard",
        aliases: &["scores"],
        usage: "leaderboard VARIANT (also scores)",
        help: "a variant's ratings on this server, best first (Chess# with its points; a solitaire's best scores)",
        examples: "leaderboard {first}, leaderboard {two}, leaderboard {solitaire}",
        private: false,
        home: Home::Account,
        place: 15,
        args: Arguments::Listed(&[Arg {
            kind: ArgKind::Variant { rated_only: true },
            required: true,
            ..Arg::VARIANT
        }]),
        read: |w| match w.lower {
            [v] => Ok(Command::Leaderboard(v.chars().take(40).collect())),
            _ => Err(w.usage()),
        },
    },
    RefereeCommand {
        name: "settings",
        aliases: &[],
        usage: "settings [reminders:24,1|none|default] [autoclaim:on|off] [digest:HOUR|on|off] [orientation:own|white|default]",
        help: "your own settings, privately: the hours before a deadline you are reminded at; whether a win on time is claimed for you where the rules make it a claim (Chess#); a daily digest of the games awaiting you, at an hour UTC, in place of a message at each turn; how boards sent to you privately are turned",
        examples: "settings, settings reminders:24,1, settings reminders:none autoclaim:on, settings digest:18 orientation:white",
        private: true,
        home: Home::Account,
        place: 16,
        args: Arguments::Listed(&[
            Arg {
                name: "reminders",
                help: "Hours before a deadline to remind you, e.g. 24,1; none; or default",
                kind: ArgKind::Word {
                    max: 20,
                    suggested: false,
                },
                keyed: true,
                required: false,
            },
            Arg {
                name: "autoclaim",
                help: "Claim a win on time for you as soon as it can be claimed (Chess#)",
                kind: ArgKind::Choice(&[("on", "on"), ("off", "off")]),
                keyed: true,
                required: false,
            },
            Arg {
                name: "digest",
                help: "A daily digest at this hour, UTC (e.g. 18), instead of a message at each turn; or off",
                kind: ArgKind::Word {
                    max: 5,
                    suggested: false,
                },
                keyed: true,
                required: false,
            },
            Arg {
                name: "orientation",
                help: "How boards sent to you privately are turned",
                kind: ArgKind::Choice(&[
                    ("own", "your side at the bottom"),
                    ("white", "White at the bottom"),
                    ("default", "the server's default"),
                ]),
                keyed: true,
                required: false,
            },
        ]),
        read: |w| {
            crate::service::player_settings::read_change(w.raw)
                .map(Command::Settings)
                .map_err(|e| {
                    ParseError::Syntax(format!(
                        "{e} (for example: {})",
                        command_mark("settings reminders:24,1 autoclaim:on")
                    ))
                })
        },
    },
    RefereeCommand {
        name: "vacation",
        aliases: &[],
        usage: "vacation [DAYS|end]",
        help: "stop your clocks in every game for DAYS whole days from now (a yearly allowance); vacation alone shows the days left; it ends early when you move or say vacation end",
        examples: "vacation, vacation 7, vacation end",
        private: true,
        home: Home::Account,
        place: 17,
        args: Arguments::Listed(&[
            Arg {
                name: "days",
                help: "Stop your clocks for this many days from now",
                kind: ArgKind::Number { min: 1, max: 365 },
                keyed: false,
                required: false,
            },
            Arg {
                name: "end",
                help: "End your vacation now",
                kind: ArgKind::Flag,
                keyed: false,
                required: false,
            },
        ]),
        read: |w| match w.lower {
            [] => Ok(Command::Vacation(VacationAsk::Show)),
            ["end" | "stop" | "over"] => Ok(Command::Vacation(VacationAsk::End)),
            [n] if !n.is_empty() && n.len() <= 4 && n.chars().all(|c| c.is_ascii_digit()) => {
                match n.parse::<u32>() {
                    Ok(d) if d >= 1 => Ok(Command::Vacation(VacationAsk::Start(d))),
                    _ => Err(ParseError::Syntax(format!(
                        "a vacation is a whole number of days, 1 or more (for example: {})",
                        command_mark("vacation 7")
                    ))),
                }
            }
            _ => Err(w.usage()),
        },
    },
    RefereeCommand {
        name: "conditional",
        aliases: &[],
        usage: "conditional [ID] THEIR-MOVE YOUR-ANSWER [THEIR-MOVE YOUR-ANSWER ...] | conditional [ID] list | conditional [ID] clear",
        help: "privately, while waiting for your opponent's move: store a line of answers played at once when the opponent's moves match (pairs of their move and yours, up to 10 pairs; separate moves with ; when one holds spaces); list or clear your lines; chess variants only",
        examples: "conditional 3 Nf6 e5 d6 exd6, conditional 2 Bc4; a7 to a6,g8 to f6, conditional list, conditional 3 clear",
        private: true,
        home: Home::Game,
        place: 18,
        args: Arguments::Listed(&[
            Arg {
                name: "line",
                help: "Their move, your answer, ... e.g. Nf6 e5 d6 exd6 (; between moves with spaces)",
                kind: ArgKind::Text { max: TEXT_MAX },
                keyed: false,
                required: false,
            },
            Arg {
                name: "action",
                help: "Instead of a line: list or clear your lines",
                kind: ArgKind::Choice(&[("list", "list"), ("clear", "clear")]),
                keyed: false,
                required: false,
            },
            Arg::GAME,
        ]),
        read: |w| conditional(w.raw),
    },
    RefereeCommand {
        name: "forget-me",
        aliases: &[],
        usage: "forget-me [confirm]",
        help: "delete what Postal keeps about you; your past games then name you by a neutral label (\"Former player 3\") and stay readable and replayable; your settings, vacations, digests, conditional moves and held messages are deleted, and you leave the leaderboards. First finish, resign or abort your games and decline or cancel your challenges. forget-me alone says privately what it will do; forget-me confirm (or its button) does it, and cannot be undone",
        examples: "forget-me, forget-me confirm",
        private: true,
        home: Home::Account,
        place: 20,
        // No argument on Discord: the confirmation is the button under the answer.
        args: Arguments::Listed(&[]),
        read: |w| match w.lower {
            [] => Ok(Command::ForgetMe(false)),
            ["confirm"] => Ok(Command::ForgetMe(true)),
            _ => Err(w.usage()),
        },
    },
    RefereeCommand {
        name: "server",
        aliases: &[],
        usage: "server [show] [prefix:P|default] [text:on|off] [channels:any|here|#channel,...] [days:N|default] [options:NAME=VALUE,...|none] [moderators:@role|none]",
        help: "this server's settings (changed by members with Manage Server): the typed-command prefix, whether typed commands are read, where games may start, default days and variant options, the moderators' role",
        examples: "server, server prefix:? text:on, server channels:here days:5, server options:timer=3, server moderators:<@&123456789012345678>",
        private: false,
        home: Home::Admin,
        place: 21,
        args: Arguments::Listed(&[
            Arg {
                name: "prefix",
                help: "The prefix of typed commands (1 to 5 characters), or default",
                kind: ArgKind::Word {
                    max: 7,
                    suggested: false,
                },
                keyed: true,
                required: false,
            },
            Arg {
                name: "text",
                help: "Whether typed commands are read (slash commands always are)",
                kind: ArgKind::Choice(&[("on", "on"), ("off", "off")]),
                keyed: true,
                required: false,
            },
            Arg {
                name: "channels",
                help: "Where games may start: #channels separated by commas, here, or any",
                kind: ArgKind::Channels {
                    pickers: 3,
                    each: "channel",
                    words: &[
                        ("any", "any channel"),
                        ("here", "only this channel (a thread's: its channel)"),
                    ],
                },
                keyed: true,
                required: false,
            },
            Arg {
                name: "days",
                help: "Days per move when a challenge gives none (1 to 60), or default",
                kind: ArgKind::Word {
                    max: 7,
                    suggested: false,
                },
                keyed: true,
                required: false,
            },
            Arg {
                name: "options",
                help: "Variant options when a challenge gives none, e.g. timer=3; or none",
                kind: ArgKind::Text { max: TEXT_MAX },
                keyed: true,
                required: false,
            },
            Arg {
                name: "moderators",
                help: "The role whose members are moderators (@role), or none",
                kind: ArgKind::Role {
                    none: "no-moderators",
                },
                keyed: true,
                required: false,
            },
        ]),
        read: |w| {
            crate::service::server_settings::read_change(w.raw)
                .map(Command::Server)
                .map_err(|e| {
                    ParseError::Syntax(format!(
                        "{e} (for example: {})",
                        command_mark("server prefix:? text:on")
                    ))
                })
        },
    },
    RefereeCommand {
        name: "moderate",
        aliases: &[],
        usage: crate::service::moderation::USAGE,
        help: "moderators only: abort or adjudicate a stuck game with a reason (logged in its thread), or end a player's open challenges; moderators are members with Manage Server or the server's moderators role",
        examples: "moderate 12 adjudicate result:white Black has left the server, moderate 12 abort, moderate challenges @bob",
        private: false,
        home: Home::Admin,
        place: 22,
        // The action first: Discord takes required options before the others.
        args: Arguments::Listed(&[
            Arg {
                name: "action",
                help: "What to do",
                kind: ArgKind::Choice(&[
                    ("abort", "abort the game"),
                    ("adjudicate", "adjudicate the game"),
                    ("challenges", "end a player's open challenges"),
                ]),
                keyed: false,
                required: true,
            },
            Arg::GAME,
            Arg {
                name: "result",
                help: "An adjudication's result",
                kind: ArgKind::Choice(&[
                    ("white", "White (or the first side) wins"),
                    ("black", "Black (or the second side) wins"),
                    ("draw", "a draw"),
                ]),
                keyed: true,
                required: false,
            },
            Arg {
                name: "user",
                help: "Whose open challenges end",
                kind: ArgKind::User,
                keyed: false,
                required: false,
            },
            Arg {
                name: "reason",
                help: "Why, as the thread and the record will say",
                kind: ArgKind::Text { max: 200 },
                keyed: false,
                required: false,
            },
        ]),
        read: |w| crate::service::moderation::read(w.raw).map(Command::Moderate),
    },
    super::tournament::TOURNAMENT,
    super::tournament::TOURNAMENTS,
    RefereeCommand {
        name: "help",
        aliases: &["?"],
        usage: "help [COMMAND|VARIANT] [VARIANT]",
        help: "the commands; one command with examples (those of the variants you play, or of the one named); or one variant's commands",
        examples: "help claim, help {own-command} {own}, help {solitaire}",
        private: false,
        home: Home::Account,
        place: 19,
        // A word suggested from the command names rather than a list of choices: there
        // are more commands than the 25 choices Discord allows.
        args: Arguments::Listed(&[
            Arg {
                name: "command",
                help: "One command, e.g. move, claim or clue",
                kind: ArgKind::Word {
                    max: 20,
                    suggested: true,
                },
                keyed: false,
                required: false,
            },
            Arg {
                help: "A variant: its commands, or the command above as it plays",
                ..Arg::VARIANT
            },
        ]),
        read: |w| {
            let word = |c: &str| c.chars().take(30).collect::<String>();
            match w.lower {
                [] => Ok(Command::Help(None, None)),
                [c] => Ok(Command::Help(Some(word(c)), None)),
                [c, v] => Ok(Command::Help(Some(word(c)), Some(v.chars().take(40).collect()))),
                _ => Err(w.usage()),
            }
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_referee_command_is_declared_once() {
        let mut words: Vec<&str> = Vec::new();
        let mut places: Vec<u8> = Vec::new();
        for c in REFEREE_COMMANDS {
            for w in std::iter::once(&c.name).chain(c.aliases) {
                assert!(!words.contains(w), "{w} names two commands");
                words.push(w);
            }
            assert!(!places.contains(&c.place), "{}: place {}", c.name, c.place);
            places.push(c.place);
            let args = c.listed();
            let games = args.iter().filter(|a| a.kind == ArgKind::Game).count();
            assert!(games <= 1, "{}", c.name);
            for a in args {
                assert!(
                    !a.keyed || !matches!(a.kind, ArgKind::Game | ArgKind::Flag),
                    "{}: {} cannot be written name:value",
                    c.name,
                    a.name
                );
            }
        }
    }
}
