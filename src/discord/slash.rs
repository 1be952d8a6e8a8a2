//! The slash commands: one per command of the service, with typed options, registered by
//! bulk overwrite, and read back into the service's text grammar so that a slash command
//! and the same command typed as text run exactly the same code.

use crate::service::chesswords::game::{MAX_CLUE, TIMER_MINUTES};
use crate::service::command::{HELP, MAX_FEN_CHARS};
use serenity::all::{
    CommandDataOption, CommandDataOptionValue, CommandOptionType, CreateCommand,
    CreateCommandOption,
};

/// The command that shows a user the private messages the bot could not deliver.
pub const PRIVATE: &str = "private";

fn game_option() -> CreateCommandOption {
    CreateCommandOption::new(
        CommandOptionType::Integer,
        "game",
        "The game's number (needed only when you have several games here)",
    )
    .min_int_value(1)
    .set_autocomplete(true)
}

fn variant_option(required: bool) -> CreateCommandOption {
    let mut o = CreateCommandOption::new(CommandOptionType::String, "variant", "The variant")
        .required(required);
    // Every variant the referee plays, by the name it shows; the service's own games
    // without an engine variant of their name (Split-Brain Chess) are named here.
    for name in crate::service::variant_names() {
        let shown = match name.parse::<crate::rules::Variant>() {
            Ok(v) => v.display_name(),
            Err(_) if name == SPLIT_BRAIN => "Split-Brain Chess",
            Err(_) => name,
        };
        o = o.add_string_choice(shown, name);
    }
    o
}

/// The team variant's name, as the service reads it.
const SPLIT_BRAIN: &str = "split-brain";

/// The slash commands whose input or answer is one player's secret: wherever they are
/// used they run as a private message to the bot and are answered ephemerally.
pub const PRIVATE_COMMANDS: [&str; 4] = ["pick", "discard", "words", "hand"];

/// Whether the slash command `name` runs privately ([`PRIVATE_COMMANDS`]).
pub fn is_private(name: &str) -> bool {
    PRIVATE_COMMANDS.contains(&name)
}

/// A required free-text option of at most `max` characters.
fn text_option(name: &str, what: &str, max: u16) -> CreateCommandOption {
    CreateCommandOption::new(CommandOptionType::String, name, what)
        .required(true)
        .max_length(max)
}

/// The `move` option: a move, with the legal moves suggested as the user types.
fn move_option(what: &str) -> CreateCommandOption {
    text_option("move", what, 64).set_autocomplete(true)
}

/// The `card` option of `/discard`: the ten kinds of card of the Chesswords deck, and
/// `none` for the decision at the end of play.
fn card_option() -> CreateCommandOption {
    let mut o = CreateCommandOption::new(
        CommandOptionType::String,
        "card",
        "A card your partner's capture lets you discard (none: keep your cards)",
    )
    .required(true);
    let mut kinds = crate::service::chesswords::cards::deck();
    kinds.dedup();
    for c in kinds {
        o = o.add_string_choice(c.name(), c.short());
    }
    o.add_string_choice("none", "none")
}

/// The options naming further opponents of a team game, after `opponent`.
const MORE_OPPONENTS: [&str; 2] = ["opponent2", "opponent3"];

fn choice(name: &str, what: &str, values: &[&str]) -> CreateCommandOption {
    let mut o = CreateCommandOption::new(CommandOptionType::String, name, what).required(true);
    for v in values {
        o = o.add_string_choice(*v, *v);
    }
    o
}

/// The description of a service command, cut to Discord's 100 characters.
fn describe(name: &str) -> String {
    let what = HELP
        .iter()
        .find(|h| h.0 == name)
        .map(|h| h.2)
        .unwrap_or("a Postal command");
    let mut d: String = what.chars().take(100).collect();
    if let Some(first) = d.get(..1) {
        d = first.to_uppercase() + &d[1..];
    }
    d
}

/// Every slash command, for bulk registration.
pub fn commands() -> Vec<CreateCommand> {
    let cmd = |name: &str| CreateCommand::new(name).description(describe(name));
    let with_game = |name: &str| cmd(name).add_option(game_option());
    vec![
        cmd("challenge")
            .add_option(CreateCommandOption::new(
                CommandOptionType::User,
                "opponent",
                "Who you challenge (leave empty for an open challenge)",
            ))
            .add_option(CreateCommandOption::new(
                CommandOptionType::User,
                MORE_OPPONENTS[0],
                "Split-brain: the third player (Black's king side; your partner is opponent)",
            ))
            .add_option(CreateCommandOption::new(
                CommandOptionType::User,
                MORE_OPPONENTS[1],
                "Split-brain: the fourth player (Black's queen side)",
            ))
            .add_option(variant_option(false))
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
            })
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "teams",
                    "Split-brain: random draws the teams and sides",
                )
                .add_string_choice("random", "random"),
            )
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "fen",
                    "Start from this position (FEN), for testing and teaching",
                )
                .max_length(MAX_FEN_CHARS as u16),
            )
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::Integer,
                    "timer",
                    "Secret Chesswords: minutes for the finale's words (1 to 5)",
                )
                .min_int_value((*TIMER_MINUTES.start()).into())
                .max_int_value((*TIMER_MINUTES.end()).into()),
            ),
        with_game("accept"),
        with_game("decline"),
        with_game("cancel"),
        cmd("move")
            .add_option(move_option("Your move, e.g. e4, Nf3, N@d1"))
            .add_option(game_option()),
        cmd("double")
            .add_option(
                CreateCommandOption::new(CommandOptionType::String, "first", "The first move")
                    .required(true)
                    .max_length(64),
            )
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "second",
                    "The second move, read after the first",
                )
                .required(true)
                .max_length(64),
            )
            .add_option(game_option()),
        cmd("pick")
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "square",
                    "Your secret pick, e.g. c3 or c6=N (only you see it)",
                )
                .required(true)
                .max_length(16),
            )
            .add_option(game_option()),
        cmd("decide")
            .add_option(choice(
                "stands",
                "Which half of the other team's picks stands",
                &["piece", "target"],
            ))
            .add_option(game_option()),
        cmd("choose")
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "square",
                    "One of the equally close squares listed",
                )
                .required(true)
                .max_length(16),
            )
            .add_option(game_option()),
        with_game("board"),
        with_game("moves"),
        cmd("games"),
        with_game("pgn"),
        cmd("rules").add_option(variant_option(true)),
        with_game("resign"),
        with_game("abort"),
        cmd("draw")
            .add_option(choice(
                "answer",
                "Offer, accept or decline",
                &["offer", "accept", "decline"],
            ))
            .add_option(game_option()),
        cmd("fastfifty")
            .add_option(choice(
                "answer",
                "Propose, accept or reject",
                &["propose", "accept", "reject"],
            ))
            .add_option(game_option()),
        cmd("claim")
            .add_option(choice(
                "kind",
                "What you claim",
                &["stalemate", "impasse", "time", "draw"],
            ))
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "move",
                    "The move you intend (claim draw)",
                )
                .max_length(64)
                .set_autocomplete(true),
            )
            .add_option(game_option()),
        cmd("clue")
            .add_option(text_option(
                "text",
                "Your clue (in the finale: for one of your words)",
                MAX_CLUE as u16,
            ))
            .add_option(game_option()),
        with_game("pass"),
        cmd("play")
            .add_option(text_option(
                "word",
                "The word you guessed from the clue",
                40,
            ))
            .add_option(move_option(
                "Your move, from the word's first letter to its last",
            ))
            .add_option(game_option()),
        cmd("letters")
            .add_option(text_option(
                "letters",
                "The move's first and last letters, e.g. te (one penalty point)",
                2,
            ))
            .add_option(move_option(
                "Your move, from the first letter to the second",
            ))
            .add_option(game_option()),
        cmd("discard")
            .add_option(card_option())
            .add_option(game_option()),
        with_game("hand"),
        cmd("words")
            .add_option(text_option(
                "word1",
                "Your first word from the marked letters, or none (only you see it)",
                40,
            ))
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "word2",
                    "Your second word (only you see it)",
                )
                .max_length(40),
            )
            .add_option(game_option()),
        cmd("guess")
            .add_option(text_option("word", "Your guess at your partner's word", 40))
            .add_option(game_option()),
        // A word suggested from the command names rather than a list of choices: there
        // are more commands than the 25 choices Discord allows.
        cmd("help").add_option(
            CreateCommandOption::new(
                CommandOptionType::String,
                "command",
                "One command, e.g. move, claim or clue",
            )
            .max_length(20)
            .set_autocomplete(true),
        ),
        CreateCommand::new(PRIVATE)
            .description("Read the private messages I could not send you (closed DMs)"),
    ]
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

/// The text line of the service's grammar that a slash command means. Options are put in
/// the grammar's order: `challenge <@id> VARIANT days:N colour:C`, `move [ID] MOVE`,
/// `double [ID] FIRST then SECOND`, `draw [ID] ANSWER`, `claim [ID] KIND [MOVE]`,
/// `pick [ID] SQUARE`, `decide [ID] piece|target`, `choose [ID] SQUARE`, `clue [#ID] TEXT`,
/// `play [ID] WORD MOVE`, `letters [ID] XY MOVE`, `discard [ID] CARD`,
/// `words [ID] WORD1 WORD2` (`word1: none` alone: `words [ID] none`), `guess [ID] WORD`,
/// `CMD [ID]`; a challenge's `timer` is `timer:N`.
/// A split-brain challenge names its opponents in order: `opponent`, `opponent2`,
/// `opponent3`.
pub fn to_text(name: &str, options: &[CommandDataOption]) -> String {
    let get = |n: &str| {
        options
            .iter()
            .find(|o| o.name == n)
            .and_then(|o| value(&o.value))
    };
    let mut words: Vec<String> = vec![name.to_string()];
    match name {
        "challenge" => {
            words.extend(get("opponent"));
            words.extend(MORE_OPPONENTS.iter().filter_map(|n| get(n)));
            words.extend(get("variant"));
            words.extend(get("days").map(|d| format!("days:{d}")));
            words.extend(get("colour").map(|c| format!("colour:{c}")));
            words.extend(get("teams").map(|t| format!("teams:{t}")));
            words.extend(get("timer").map(|t| format!("timer:{t}")));
            // A FEN never holds a quote; one that does is refused by the grammar.
            words.extend(get("fen").map(|f| format!("fen:\"{f}\"")));
        }
        "move" => {
            words.extend(get("game"));
            words.extend(get("move"));
        }
        "double" => {
            words.extend(get("game"));
            // `then` keeps a half written in several words (`e2 to e4`) in one piece.
            if let (Some(first), Some(second)) = (get("first"), get("second")) {
                words.push(format!("{first} then {second}"));
            }
        }
        "pick" | "choose" => {
            words.extend(get("game"));
            words.extend(get("square"));
        }
        "decide" => {
            words.extend(get("game"));
            words.extend(get("stands"));
        }
        "draw" | "fastfifty" => {
            words.extend(get("game"));
            words.extend(get("answer"));
        }
        "claim" => {
            words.extend(get("game"));
            words.extend(get("kind"));
            words.extend(get("move"));
        }
        "clue" => {
            // Only `#ID` names a game before a clue's text.
            words.extend(get("game").map(|g| format!("#{g}")));
            words.extend(get("text"));
        }
        "play" => {
            words.extend(get("game"));
            words.extend(get("word"));
            words.extend(get("move"));
        }
        "letters" => {
            words.extend(get("game"));
            words.extend(get("letters"));
            words.extend(get("move"));
        }
        "discard" => {
            words.extend(get("game"));
            words.extend(get("card"));
        }
        "words" => {
            words.extend(get("game"));
            words.extend(get("word1"));
            words.extend(get("word2"));
        }
        "guess" => {
            words.extend(get("game"));
            words.extend(get("word"));
        }
        "rules" => words.extend(get("variant")),
        "help" => words.extend(get("command")),
        _ => words.extend(get("game")),
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::command::{parse, Command};

    fn opts(v: serde_json::Value) -> Vec<CommandDataOption> {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn slash_options_read_as_the_text_grammar() {
        let o = opts(serde_json::json!([
            {"name": "opponent", "type": 6, "value": "223456789012345678"},
            {"name": "variant", "type": 3, "value": "chess-sharp"},
            {"name": "days", "type": 4, "value": 5}
        ]));
        let text = to_text("challenge", &o);
        assert_eq!(text, "challenge <@223456789012345678> chess-sharp days:5");
        assert!(matches!(parse(&text), Ok(Command::Challenge { .. })));
        let o = opts(serde_json::json!([
            {"name": "fen", "type": 3, "value": "7k/8/6Q1/8/8/8/8/K7 w - - 0 1"}
        ]));
        match parse(&to_text("challenge", &o)) {
            Ok(Command::Challenge { fen, .. }) => {
                assert_eq!(fen.as_deref(), Some("7k/8/6Q1/8/8/8/8/K7 w - - 0 1"))
            }
            other => panic!("{other:?}"),
        }
        let o = opts(serde_json::json!([
            {"name": "move", "type": 3, "value": "Nf3"},
            {"name": "game", "type": 4, "value": 7}
        ]));
        assert_eq!(
            parse(&to_text("move", &o)),
            Ok(Command::Move(Some(7), "Nf3".into()))
        );
        let o = opts(serde_json::json!([
            {"name": "first", "type": 3, "value": "e2 to e4"},
            {"name": "second", "type": 3, "value": "Nf3"},
            {"name": "game", "type": 4, "value": 7}
        ]));
        assert_eq!(
            parse(&to_text("double", &o)),
            Ok(Command::Double(Some(7), "e2 to e4".into(), "Nf3".into()))
        );
    }

    #[test]
    fn split_brain_options_read_as_the_text_grammar() {
        let o = opts(serde_json::json!([
            {"name": "opponent", "type": 6, "value": "223456789012345678"},
            {"name": "opponent3", "type": 6, "value": "423456789012345678"},
            {"name": "opponent2", "type": 6, "value": "323456789012345678"},
            {"name": "variant", "type": 3, "value": "split-brain"},
            {"name": "teams", "type": 3, "value": "random"}
        ]));
        let text = to_text("challenge", &o);
        assert_eq!(
            text,
            "challenge <@223456789012345678> <@323456789012345678> <@423456789012345678> split-brain teams:random"
        );
        match parse(&text) {
            Ok(Command::Challenge { opponents, .. }) => assert_eq!(opponents.len(), 3),
            other => panic!("{other:?}"),
        }
        let o = opts(serde_json::json!([
            {"name": "square", "type": 3, "value": "c6=N"},
            {"name": "game", "type": 4, "value": 4}
        ]));
        assert_eq!(
            parse(&to_text("pick", &o)),
            Ok(Command::Pick(Some(4), "c6=N".into()))
        );
        assert_eq!(
            parse(&to_text("choose", &o)),
            Ok(Command::Choose(Some(4), "c6=N".into()))
        );
        let o = opts(serde_json::json!([{"name": "stands", "type": 3, "value": "target"}]));
        assert_eq!(
            parse(&to_text("decide", &o)),
            Ok(Command::Decide(
                None,
                crate::service::rules::Standing::Target
            ))
        );
        // A missing required option is the grammar's usage message, not a guess.
        assert!(parse(&to_text("pick", &[])).is_err());
    }

    #[test]
    fn every_command_is_registrable() {
        let cmds = commands();
        assert!(cmds.len() <= 100);
        for c in &cmds {
            let v = serde_json::to_value(c).unwrap();
            let d = v["description"].as_str().unwrap();
            assert!((1..=100).contains(&d.chars().count()), "{v}");
            let n = v["name"].as_str().unwrap();
            assert!(n.chars().all(|c| c.is_ascii_lowercase()), "{n}");
            let options = v["options"].as_array().cloned().unwrap_or_default();
            assert!(options.len() <= 25, "{n}");
            for o in &options {
                let d = o["description"].as_str().unwrap();
                assert!((1..=100).contains(&d.chars().count()), "{n}: {o}");
                let choices = o["choices"].as_array().map_or(0, Vec::len);
                assert!(choices <= 25, "{n}: {o}");
            }
        }
    }

    fn slash(
        name: &str,
        v: serde_json::Value,
    ) -> Result<Command, crate::service::command::ParseError> {
        parse(&to_text(name, &opts(v)))
    }

    #[test]
    fn chesswords_options_read_as_the_text_grammar() {
        use serde_json::json;
        assert_eq!(
            slash(
                "clue",
                json!([{"name": "text", "type": 3, "value": "12 sweet things"},
                                 {"name": "game", "type": 4, "value": 3}])
            ),
            Ok(Command::Clue(Some(3), "12 sweet things".into()))
        );
        assert_eq!(
            slash(
                "clue",
                json!([{"name": "text", "type": 3, "value": "12 sweet things"}])
            ),
            Ok(Command::Clue(None, "12 sweet things".into()))
        );
        assert_eq!(slash("pass", json!([])), Ok(Command::Pass(None)));
        assert_eq!(
            slash(
                "play",
                json!([{"name": "word", "type": 3, "value": "treat"},
                                 {"name": "move", "type": 3, "value": "Qc2"}])
            ),
            Ok(Command::Play(None, "treat Qc2".into()))
        );
        assert_eq!(
            slash(
                "letters",
                json!([{"name": "letters", "type": 3, "value": "te"},
                                    {"name": "move", "type": 3, "value": "Qc2"},
                                    {"name": "game", "type": 4, "value": 2}])
            ),
            Ok(Command::Letters(Some(2), "te".into(), "Qc2".into()))
        );
        assert_eq!(
            slash(
                "discard",
                json!([{"name": "card", "type": 3, "value": "wN"}])
            ),
            Ok(Command::Discard(None, "wN".into()))
        );
        assert_eq!(slash("hand", json!([])), Ok(Command::Hand(None)));
        assert_eq!(
            slash(
                "words",
                json!([{"name": "word1", "type": 3, "value": "stone"},
                                  {"name": "word2", "type": 3, "value": "rated"}])
            ),
            Ok(Command::Words(None, vec!["stone".into(), "rated".into()]))
        );
        assert_eq!(
            slash(
                "words",
                json!([{"name": "word1", "type": 3, "value": "none"},
                       {"name": "game", "type": 4, "value": 4}])
            ),
            Ok(Command::Words(Some(4), Vec::new()))
        );
        // No word, one word without none, a word with a space: the grammar's usage line.
        assert!(slash("words", json!([])).is_err());
        assert!(slash(
            "words",
            json!([{"name": "word1", "type": 3, "value": "stone age"},
                   {"name": "word2", "type": 3, "value": "rated"}])
        )
        .is_err());
        assert!(slash(
            "words",
            json!([{"name": "word1", "type": 3, "value": "stone"}])
        )
        .is_err());
        assert_eq!(
            slash(
                "guess",
                json!([{"name": "word", "type": 3, "value": "stone"}])
            ),
            Ok(Command::Guess(None, "stone".into()))
        );
        match slash(
            "challenge",
            json!([{"name": "opponent", "type": 6, "value": "223456789012345678"},
                                         {"name": "timer", "type": 4, "value": 3}]),
        ) {
            Ok(Command::Challenge { timer, .. }) => assert_eq!(timer, Some(3)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_secret_commands_and_hand_run_privately() {
        for (name, _, _, examples) in HELP {
            for example in examples.split(", ") {
                if let Ok(cmd) = parse(example) {
                    let private = cmd.is_secret() || matches!(cmd, Command::Hand(_));
                    assert_eq!(is_private(cmd.name()), private, "{name}: {example}");
                }
            }
        }
        let registered: Vec<String> = commands()
            .iter()
            .map(|c| serde_json::to_value(c).unwrap()["name"].to_string())
            .collect();
        for name in PRIVATE_COMMANDS {
            assert!(registered.contains(&format!("\"{name}\"")), "{name}");
        }
    }

    #[test]
    fn the_card_choices_are_the_ten_kinds_and_none_and_read_as_cards() {
        let v = serde_json::to_value(card_option()).unwrap();
        let choices = v["choices"].as_array().unwrap();
        assert_eq!(choices.len(), 11);
        let (none, kinds) = choices.split_last().unwrap();
        assert_eq!(
            (&none["name"], &none["value"]),
            (&"none".into(), &"none".into())
        );
        for c in kinds {
            let card = crate::service::chesswords::cards::Card::parse(c["value"].as_str().unwrap())
                .unwrap();
            assert_eq!(c["name"], card.name());
        }
    }
}
