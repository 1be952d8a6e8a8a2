//! The slash commands, generated from the referee's commands and the variants' declared
//! commands and options, registered by bulk overwrite, and read back into the service's
//! text grammar so that a slash command and the same command typed as text run exactly
//! the same code. Nothing here names a variant.

use crate::service::command::{HELP, MAX_FEN_CHARS};
use crate::variants::api::{ArgKind, CommandSpec, IdRule, OptionKind, Placing, Standing};
use crate::variants::Registry;
use serenity::all::{
    CommandDataOption, CommandDataOptionValue, CommandOptionType, CreateCommand,
    CreateCommandOption,
};

/// The command that shows a user the private messages the bot could not deliver.
pub const PRIVATE: &str = "private";

/// The referee's command whose answer is one player's secret (`hand`); the variants'
/// secret commands are declared so.
const PRIVATE_ANSWER: &str = "hand";

/// Discord's limit on a description, in characters.
const DESCRIPTION: usize = 100;

/// Discord's limit on an option's choices.
const OPTION_CHOICES: usize = 25;

/// The longest text a free-text option takes.
const TEXT_MAX: u16 = 200;

fn game_option() -> CreateCommandOption {
    CreateCommandOption::new(
        CommandOptionType::Integer,
        "game",
        "The game's number (needed only when you have several games here)",
    )
    .min_int_value(1)
    .set_autocomplete(true)
}

fn variant_option(registry: &Registry, required: bool) -> CreateCommandOption {
    let mut o = CreateCommandOption::new(CommandOptionType::String, "variant", "The variant")
        .required(required);
    for v in registry.all().take(OPTION_CHOICES) {
        o = o.add_string_choice(v.display_name(), v.id());
    }
    o
}

/// Whether the slash command `name` runs privately: a command declared secret, or
/// `hand`. Wherever such a command is used it runs as a private message to the bot and
/// is answered ephemerally.
pub fn is_private(registry: &Registry, name: &str) -> bool {
    name == PRIVATE_ANSWER || declared(registry, name).iter().any(|c| c.secret)
}

/// The declarations of the variant command whose name is `name`, in registry order. A
/// slash command is registered by the command's name only, so a word that is another
/// command's alias (chess's `play` for `move`) does not count here.
fn declared(registry: &Registry, name: &str) -> Vec<&'static CommandSpec> {
    registry
        .declarations(name)
        .into_iter()
        .filter(|c| c.name == name)
        .collect()
}

/// One option of a variant command's slash command: an argument as all the declarations
/// of the command together take it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Argument {
    /// The argument's name.
    pub name: &'static str,
    /// What it is (the first declaration's words).
    pub help: &'static str,
    /// What it holds (the first declaration's kind; for a choice, see `choices`).
    pub kind: ArgKind,
    /// For a choice, every declaration's values, each once: `(value, label)`.
    pub choices: Vec<(&'static str, &'static str)>,
    /// Whether every declaration requires it.
    pub required: bool,
}

/// The options of the slash command for the variant command `name`: the arguments of
/// every variant's declaration of it, merged by name in the order they first appear.
/// Choices are pooled (Standard chess's `claim draw` and Chess#'s `claim stalemate`
/// are one `/claim` whose `kind` offers both), and an argument is required only where
/// every declaration requires it.
pub fn arguments(registry: &Registry, name: &str) -> Vec<Argument> {
    let decls = declared(registry, name);
    let mut out: Vec<Argument> = Vec::new();
    for a in decls.iter().flat_map(|d| d.args.iter()) {
        let values = match a.kind {
            ArgKind::Choice(values) | ArgKind::Named(values) => values,
            _ => &[],
        };
        match out.iter_mut().find(|o| o.name == a.name) {
            Some(o) => {
                for v in values {
                    if !o.choices.iter().any(|c| c.0 == v.0) {
                        o.choices.push(*v);
                    }
                }
            }
            None => out.push(Argument {
                name: a.name,
                help: a.help,
                kind: a.kind,
                choices: values.to_vec(),
                required: decls
                    .iter()
                    .all(|d| d.args.iter().any(|b| b.name == a.name && b.required)),
            }),
        }
    }
    out
}

/// A description cut to Discord's limit, starting with a capital.
fn describe(what: &str) -> String {
    let mut d: String = what.chars().take(DESCRIPTION).collect();
    if let Some(first) = d.get(..1) {
        d = first.to_uppercase() + &d[1..];
    }
    d
}

/// The description of one of the referee's commands.
fn describe_referee(name: &str) -> String {
    describe(
        HELP.iter()
            .find(|h| h.0 == name)
            .map(|h| h.2)
            .unwrap_or("a Postal command"),
    )
}

/// The name of the `i`-th further opponent option (`opponent2`, `opponent3`).
fn opponent_name(i: usize) -> String {
    if i == 0 {
        "opponent".into()
    } else {
        format!("opponent{}", i + 1)
    }
}

/// `/challenge`: opponents for the largest table, the variant, the referee's options and
/// every option a variant declares (once per name).
fn challenge(registry: &Registry) -> CreateCommand {
    let most = registry.all().map(|v| v.seats().count()).max().unwrap_or(2);
    let teams = registry.all().any(|v| v.seats().placing == Placing::Teams);
    let mut c = CreateCommand::new("challenge").description(describe_referee("challenge"));
    for i in 0..most.saturating_sub(1) {
        let what = if i == 0 {
            "Who you challenge (leave empty for an open challenge or a game alone)".to_string()
        } else {
            format!(
                "A team game's player {} (in seat order after opponent)",
                i + 2
            )
        };
        c = c.add_option(CreateCommandOption::new(
            CommandOptionType::User,
            opponent_name(i),
            describe(&what),
        ));
    }
    c = c
        .add_option(variant_option(registry, false))
        .add_option(
            CreateCommandOption::new(CommandOptionType::Integer, "days", "Days per move")
                .min_int_value(1)
                .max_int_value(60),
        )
        .add_option({
            let mut o =
                CreateCommandOption::new(CommandOptionType::String, "colour", "Your colour");
            for c in ["white", "black", "random"] {
                o = o.add_string_choice(c, c);
            }
            o
        });
    if teams {
        c = c.add_option(
            CreateCommandOption::new(
                CommandOptionType::String,
                "teams",
                "Team games: random draws the teams and sides",
            )
            .add_string_choice("random", "random"),
        );
    }
    c = c.add_option(
        CreateCommandOption::new(
            CommandOptionType::String,
            "rated",
            "Two-player games: rated (yes, the default) or not (no)",
        )
        .add_string_choice("yes", "yes")
        .add_string_choice("no", "no"),
    );
    let takebacks = "Two-player games without hidden information: takebacks by agreement (unrated)";
    c = c.add_option(
        CreateCommandOption::new(CommandOptionType::String, "takebacks", takebacks)
            .add_string_choice("on", "on"),
    );
    c = c.add_option(
        CreateCommandOption::new(
            CommandOptionType::String,
            "fen",
            "Start from this position (FEN), for testing and teaching",
        )
        .max_length(MAX_FEN_CHARS as u16),
    );
    let mut seen: Vec<&str> = Vec::new();
    for v in registry.all() {
        for o in v.options() {
            if seen.contains(&o.name) {
                continue;
            }
            seen.push(o.name);
            let what = describe(&format!("{}: {}", v.display_name(), o.help));
            let option = match o.kind {
                OptionKind::Number { min, max, .. } => {
                    CreateCommandOption::new(CommandOptionType::Integer, o.name, what)
                        .min_int_value(min as u64)
                        .max_int_value(max as u64)
                }
                OptionKind::Choice(words) => {
                    let mut opt = CreateCommandOption::new(CommandOptionType::String, o.name, what);
                    for w in words.iter().take(OPTION_CHOICES) {
                        opt = opt.add_string_choice(*w, *w);
                    }
                    opt
                }
            };
            c = c.add_option(option);
        }
    }
    c
}

/// A variant command as a slash command: its arguments, as every variant declaring it
/// takes them ([`arguments`]), then the game. A choice of more than Discord's 25 values
/// is a word with the values suggested as the user types.
fn game_command(registry: &Registry, c: &CommandSpec) -> CreateCommand {
    let mut cmd = CreateCommand::new(c.name).description(describe(c.help));
    for a in arguments(registry, c.name) {
        let what = describe(a.help);
        let string = || CreateCommandOption::new(CommandOptionType::String, a.name, &what);
        let o = match a.kind {
            ArgKind::Choice(_) | ArgKind::Named(_) if a.choices.len() <= OPTION_CHOICES => {
                let mut o = string();
                for (value, label) in &a.choices {
                    o = o.add_string_choice(*label, *value);
                }
                o
            }
            ArgKind::Choice(_) | ArgKind::Named(_) | ArgKind::Move => {
                string().max_length(64).set_autocomplete(true)
            }
            ArgKind::Word => string().max_length(64),
            ArgKind::Text => string().max_length(TEXT_MAX),
        };
        cmd = cmd.add_option(o.required(a.required));
    }
    cmd.add_option(game_option())
}

/// Every slash command, for bulk registration.
pub fn commands(registry: &Registry) -> Vec<CreateCommand> {
    let with_game = |name: &str| {
        CreateCommand::new(name)
            .description(describe_referee(name))
            .add_option(game_option())
    };
    let mut out = vec![challenge(registry)];
    out.extend(
        [
            "accept", "decline", "cancel", "board", "moves", "pgn", "resign", "abort", "hand",
            "rematch",
        ]
        .map(with_game),
    );
    let answer = CreateCommandOption::new(
        CommandOptionType::String,
        "answer",
        "Leave empty to propose; accept or decline your opponent's proposal",
    );
    out.push(
        with_game("takeback").add_option(
            answer
                .add_string_choice("accept", "accept")
                .add_string_choice("decline", "decline"),
        ),
    );
    out.push(
        CreateCommand::new("games")
            .description(describe_referee("games"))
            .add_option(CreateCommandOption::new(
                CommandOptionType::Boolean,
                "finished",
                "Your last finished games instead of the live ones",
            )),
    );
    out.push(
        CreateCommand::new("rules")
            .description(describe_referee("rules"))
            .add_option(variant_option(registry, true)),
    );
    out.push(
        CreateCommand::new("rating")
            .description(describe_referee("rating"))
            .add_option(CreateCommandOption::new(
                CommandOptionType::User,
                "user",
                "Whose ratings (default: yours)",
            )),
    );
    // Only the variants that keep a table: rated families and solitaires' best scores.
    let mut board = CreateCommandOption::new(CommandOptionType::String, "variant", "The variant")
        .required(true);
    for v in registry
        .all()
        .filter(|v| !matches!(v.standing(), Standing::Unrated(_)))
        .take(OPTION_CHOICES)
    {
        board = board.add_string_choice(v.display_name(), v.id());
    }
    out.push(
        CreateCommand::new("leaderboard")
            .description(describe_referee("leaderboard"))
            .add_option(board),
    );
    out.extend(
        registry
            .commands()
            .into_iter()
            .map(|c| game_command(registry, c)),
    );
    // A word suggested from the command names rather than a list of choices: there are
    // more commands than the 25 choices Discord allows.
    out.push(
        CreateCommand::new("help")
            .description(describe_referee("help"))
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "command",
                    "One command, e.g. move, claim or clue",
                )
                .max_length(20)
                .set_autocomplete(true),
            ),
    );
    out.push(
        CreateCommand::new(PRIVATE)
            .description("Read the private messages I could not send you (closed DMs)"),
    );
    out
}

fn value(v: &CommandDataOptionValue) -> Option<String> {
    match v {
        CommandDataOptionValue::String(s) => Some(s.clone()),
        CommandDataOptionValue::Integer(i) => Some(i.to_string()),
        CommandDataOptionValue::User(u) => Some(format!("<@{u}>")),
        CommandDataOptionValue::Boolean(b) => Some(b.to_string()),
        CommandDataOptionValue::Autocomplete { value, .. } => Some(value.clone()),
        _ => None,
    }
}

/// The text line of the service's grammar that a slash command means: the name, the
/// game id (`#ID` where the command reads only that form), then the options in the
/// declared order. Where an argument before the last holds spaces, the arguments are
/// separated by `, ` (`double e2 to e4, Nf3`). A challenge is `challenge <@id> ...
/// VARIANT days:N colour:C teams:T OPTION:V fen:"FEN"`.
pub fn to_text(registry: &Registry, name: &str, options: &[CommandDataOption]) -> String {
    let get = |n: &str| {
        options
            .iter()
            .find(|o| o.name == n)
            .and_then(|o| value(&o.value))
    };
    let mut words: Vec<String> = vec![name.to_string()];
    match name {
        "challenge" => {
            for i in 0..4 {
                words.extend(get(&opponent_name(i)));
            }
            words.extend(get("variant"));
            for o in ["days", "colour", "teams", "rated", "takebacks"] {
                words.extend(get(o).map(|v| format!("{o}:{v}")));
            }
            let mut seen: Vec<&str> = Vec::new();
            for v in registry.all() {
                for o in v.options() {
                    if !seen.contains(&o.name) {
                        seen.push(o.name);
                        words.extend(get(o.name).map(|v| format!("{}:{v}", o.name)));
                    }
                }
            }
            // A FEN never holds a quote; one that does is refused by the grammar.
            words.extend(get("fen").map(|f| format!("fen:\"{f}\"")));
        }
        "rules" | "leaderboard" => words.extend(get("variant")),
        "rating" => words.extend(get("user")),
        "takeback" => words.extend([get("game"), get("answer")].into_iter().flatten()),
        "games" => {
            if get("finished").as_deref() == Some("true") {
                words.push("finished".into());
            }
        }
        "help" => words.extend(get("command")),
        _ => match declared(registry, name).first() {
            Some(spec) => {
                let id = get("game");
                words.extend(match spec.id {
                    IdRule::Plain => id,
                    IdRule::HashOnly => id.map(|g| format!("#{g}")),
                });
                let args: Vec<String> = arguments(registry, name)
                    .iter()
                    .filter_map(|a| get(a.name))
                    .collect();
                let spaced = args
                    .iter()
                    .rev()
                    .skip(1)
                    .any(|a| a.contains(char::is_whitespace));
                if spaced {
                    words.push(args.join(", "));
                } else {
                    words.extend(args);
                }
            }
            None => words.extend(get("game")),
        },
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::command::{parse, Command};
    use crate::variants::api::{ArgSpec, GameCommand};

    fn opts(v: serde_json::Value) -> Vec<CommandDataOption> {
        serde_json::from_value(v).unwrap()
    }

    fn slash(
        name: &str,
        v: serde_json::Value,
    ) -> Result<Command, crate::service::command::ParseError> {
        let r = Registry::builtin();
        parse(&to_text(&r, name, &opts(v)), &r)
    }

    #[test]
    fn slash_options_read_as_the_text_grammar() {
        let r = Registry::builtin();
        let o = opts(serde_json::json!([
            {"name": "opponent", "type": 6, "value": "223456789012345678"},
            {"name": "variant", "type": 3, "value": "chess-sharp"},
            {"name": "days", "type": 4, "value": 5}
        ]));
        let text = to_text(&r, "challenge", &o);
        assert_eq!(text, "challenge <@223456789012345678> chess-sharp days:5");
        assert!(matches!(parse(&text, &r), Ok(Command::Challenge(_))));
        match slash(
            "challenge",
            serde_json::json!([{"name": "fen", "type": 3, "value": "7k/8/6Q1/8/8/8/8/K7 w - - 0 1"}]),
        ) {
            Ok(Command::Challenge(c)) => {
                assert_eq!(c.fen.as_deref(), Some("7k/8/6Q1/8/8/8/8/K7 w - - 0 1"))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            slash(
                "move",
                serde_json::json!([{"name": "move", "type": 3, "value": "Nf3"},
                                   {"name": "game", "type": 4, "value": 7}])
            ),
            Ok(Command::Game(Some(7), GameCommand::new("move", "Nf3")))
        );
        assert_eq!(
            slash(
                "double",
                serde_json::json!([{"name": "first", "type": 3, "value": "e2 to e4"},
                                   {"name": "second", "type": 3, "value": "Nf3"},
                                   {"name": "game", "type": 4, "value": 7}])
            ),
            Ok(Command::Game(
                Some(7),
                GameCommand::new("double", "e2 to e4, Nf3")
            ))
        );
        assert_eq!(
            slash(
                "draw",
                serde_json::json!([{"name": "answer", "type": 3, "value": "offer"}])
            ),
            Ok(Command::Game(None, GameCommand::new("draw", "offer")))
        );
    }

    /// A variant of a test: a `play` command (a word and a move: chess's `move` is also
    /// called `play`) and a `card` command with more choices than Discord lists.
    struct Words;

    const CARDS: &[(&str, &str)] = &[
        ("c1", "card 1"),
        ("c2", "card 2"),
        ("c3", "card 3"),
        ("c4", "card 4"),
        ("c5", "card 5"),
        ("c6", "card 6"),
        ("c7", "card 7"),
        ("c8", "card 8"),
        ("c9", "card 9"),
        ("c10", "card 10"),
        ("c11", "card 11"),
        ("c12", "card 12"),
        ("c13", "card 13"),
        ("c14", "card 14"),
        ("c15", "card 15"),
        ("c16", "card 16"),
        ("c17", "card 17"),
        ("c18", "card 18"),
        ("c19", "card 19"),
        ("c20", "card 20"),
        ("c21", "card 21"),
        ("c22", "card 22"),
        ("c23", "card 23"),
        ("c24", "card 24"),
        ("c25", "card 25"),
        ("c26", "card 26"),
    ];

    const WORDS_COMMANDS: &[CommandSpec] = &[
        CommandSpec {
            name: "play",
            aliases: &[],
            usage: "play [ID] WORD MOVE",
            help: "a word and a move",
            examples: "play attic b3",
            secret: false,
            id: IdRule::Plain,
            args: &[
                ArgSpec {
                    name: "word",
                    help: "the word",
                    kind: ArgKind::Word,
                    required: true,
                },
                ArgSpec {
                    name: "move",
                    help: "the move",
                    kind: ArgKind::Move,
                    required: true,
                },
            ],
        },
        CommandSpec {
            name: "card",
            aliases: &[],
            usage: "card [ID] CARD",
            help: "name a card",
            examples: "card c3",
            secret: true,
            id: IdRule::Plain,
            args: &[ArgSpec {
                name: "card",
                help: "the card",
                kind: ArgKind::Choice(CARDS),
                required: true,
            }],
        },
    ];

    impl crate::variants::api::VariantSpec for Words {
        fn id(&self) -> &'static str {
            "words-test"
        }
        fn display_name(&self) -> &'static str {
            "Words (test)"
        }
        fn summary(&self) -> &'static str {
            "a test's variant"
        }
        fn rules_summary(&self) -> &'static str {
            "A test's variant: its commands take words."
        }
        fn seats(&self) -> crate::variants::api::SeatPlan {
            crate::variants::api::SeatPlan {
                names: &["White", "Black"],
                placing: Placing::Sides,
            }
        }
        fn commands(&self) -> &'static [CommandSpec] {
            WORDS_COMMANDS
        }
        fn new_game(
            &self,
            _: &crate::variants::api::NewGame,
        ) -> Result<Box<dyn crate::variants::api::GameRules>, crate::variants::api::RuleError>
        {
            Err(crate::variants::api::RuleError::new("not in this test"))
        }
        fn load(
            &self,
            _: &serde_json::Value,
        ) -> Result<Box<dyn crate::variants::api::GameRules>, crate::variants::api::RuleError>
        {
            Err(crate::variants::api::RuleError::new("not in this test"))
        }
    }

    static WORDS: Words = Words;

    fn registered(r: &Registry, name: &str) -> serde_json::Value {
        commands(r)
            .iter()
            .map(|c| serde_json::to_value(c).unwrap())
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("/{name}"))
    }

    #[test]
    fn a_command_several_variants_declare_takes_every_declarations_arguments() {
        let r = Registry::builtin();
        // Standard chess claims a draw, Chess# a stalemate, an impasse or time.
        let claim = registered(&r, "claim");
        let kinds: Vec<&str> = claim["options"][0]["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["value"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["draw", "stalemate", "impasse", "time"]);
        assert_eq!(claim["options"][0]["required"], true);
        assert_eq!(claim["options"][1]["name"], "move");
        assert_ne!(claim["options"][1]["required"], true);
        assert_eq!(
            slash(
                "claim",
                serde_json::json!([{"name": "kind", "type": 3, "value": "impasse"}])
            ),
            Ok(Command::Game(None, GameCommand::new("claim", "impasse")))
        );
    }

    #[test]
    fn a_command_is_read_by_its_own_declaration_not_by_an_alias() {
        let r = Registry::builtin().with(&WORDS);
        let text = to_text(
            &r,
            "play",
            &opts(
                serde_json::json!([{"name": "word", "type": 3, "value": "attic"},
                                     {"name": "move", "type": 3, "value": "b3"},
                                     {"name": "game", "type": 4, "value": 2}]),
            ),
        );
        assert_eq!(text, "play 2 attic b3");
        let play = registered(&r, "play");
        let names: Vec<&str> = play["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["word", "move", "game"]);
        assert!(!is_private(&r, "move"));
        assert!(is_private(&r, "card"));
        // 26 cards: a word with suggestions rather than a list of choices.
        let card = &registered(&r, "card")["options"][0];
        assert!(card
            .get("choices")
            .is_none_or(|c| c.as_array().unwrap().is_empty()));
        assert_eq!(card["autocomplete"], true);
        assert_eq!(arguments(&r, "card")[0].choices.len(), 26);
    }

    #[test]
    fn every_declared_command_is_registered_within_discords_limits() {
        let r = Registry::builtin();
        let registered: Vec<serde_json::Value> = commands(&r)
            .iter()
            .map(|c| serde_json::to_value(c).unwrap())
            .collect();
        assert!(registered.len() <= 100);
        for c in r.commands() {
            assert!(
                registered.iter().any(|v| v["name"] == c.name),
                "{} is not registered",
                c.name
            );
        }
        for v in &registered {
            assert!(v["description"].as_str().unwrap().chars().count() <= DESCRIPTION);
            let options = v["options"].as_array().map_or(0, |o| o.len());
            assert!(options <= 25, "{}", v["name"]);
        }
        assert!(is_private(&r, "hand"));
        assert!(!is_private(&r, "move"));
    }
}
