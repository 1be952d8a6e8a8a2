//! The slash commands, generated from the referee's commands and the variants' declared
//! commands and options, registered by bulk overwrite, and read back into the service's
//! text grammar so that a slash command and the same command typed as text run exactly
//! the same code. Nothing here names a variant.

use crate::service::command::{HELP, MAX_FEN_CHARS};
use crate::variants::api::{ArgKind, CommandSpec, IdRule, OptionKind, Placing};
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
    for v in registry.all().take(25) {
        o = o.add_string_choice(v.display_name(), v.id());
    }
    o
}

/// Whether the slash command `name` runs privately: a command declared secret, or
/// `hand`. Wherever such a command is used it runs as a private message to the bot and
/// is answered ephemerally.
pub fn is_private(registry: &Registry, name: &str) -> bool {
    name == PRIVATE_ANSWER || registry.declarations(name).iter().any(|c| c.secret)
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
                    for w in words.iter().take(25) {
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

/// A variant command as a slash command: its arguments as options, then the game.
fn game_command(c: &CommandSpec) -> CreateCommand {
    let mut cmd = CreateCommand::new(c.name).description(describe(c.help));
    for a in c.args {
        let what = describe(a.help);
        let o = match a.kind {
            ArgKind::Choice(values) | ArgKind::Named(values) => {
                let mut o = CreateCommandOption::new(CommandOptionType::String, a.name, what);
                for (value, label) in values.iter().take(25) {
                    o = o.add_string_choice(*label, *value);
                }
                o
            }
            ArgKind::Move => CreateCommandOption::new(CommandOptionType::String, a.name, what)
                .max_length(64)
                .set_autocomplete(true),
            ArgKind::Word => {
                CreateCommandOption::new(CommandOptionType::String, a.name, what).max_length(64)
            }
            ArgKind::Text => CreateCommandOption::new(CommandOptionType::String, a.name, what)
                .max_length(TEXT_MAX),
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
        ]
        .map(with_game),
    );
    out.push(CreateCommand::new("games").description(describe_referee("games")));
    out.push(
        CreateCommand::new("rules")
            .description(describe_referee("rules"))
            .add_option(variant_option(registry, true)),
    );
    out.extend(registry.commands().into_iter().map(game_command));
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
            for o in ["days", "colour", "teams"] {
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
        "rules" => words.extend(get("variant")),
        "help" => words.extend(get("command")),
        _ => match registry.declarations(name).first() {
            Some(spec) => {
                let id = get("game");
                words.extend(match spec.id {
                    IdRule::Plain => id,
                    IdRule::HashOnly => id.map(|g| format!("#{g}")),
                });
                let args: Vec<String> = spec.args.iter().filter_map(|a| get(a.name)).collect();
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
    use crate::variants::api::GameCommand;

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
