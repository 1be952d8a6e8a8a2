//! The slash commands' registration and reading, checked without Discord.

use super::*;
use crate::service::command::{parse, runs_privately, Command};
use crate::variants::api::{ArgSpec, GameCommand};

fn opts(v: serde_json::Value) -> Vec<CommandDataOption> {
    serde_json::from_value(v).unwrap()
}

fn slash(name: &str, v: serde_json::Value) -> Result<Command, crate::service::command::ParseError> {
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
            "settings",
            serde_json::json!([{"name": "reminders", "type": 3, "value": "24, 1"},
                               {"name": "autoclaim", "type": 3, "value": "on"}])
        ),
        Ok(Command::Settings(
            crate::service::player_settings::read_change(&["reminders:24,1", "autoclaim:on"])
                .unwrap()
        ))
    );
    assert!(runs_privately("settings", &r));
    use crate::service::command::VacationAsk;
    assert_eq!(
        slash(
            "vacation",
            serde_json::json!([{"name": "days", "type": 4, "value": 7}])
        ),
        Ok(Command::Vacation(VacationAsk::Start(7)))
    );
    assert_eq!(
        slash(
            "vacation",
            serde_json::json!([{"name": "end", "type": 5, "value": true}])
        ),
        Ok(Command::Vacation(VacationAsk::End))
    );
    assert_eq!(
        slash("vacation", serde_json::json!([])),
        Ok(Command::Vacation(VacationAsk::Show))
    );
    assert!(runs_privately("vacation", &r));
    assert_eq!(
        slash(
            "conditional",
            serde_json::json!([{"name": "line", "type": 3, "value": "Nf6 e5 d6 exd6"},
                               {"name": "game", "type": 4, "value": 3}])
        ),
        Ok(Command::Conditional(
            Some(3),
            crate::service::command::Conditional::Add(
                ["Nf6", "e5", "d6", "exd6"].map(String::from).to_vec()
            )
        ))
    );
    assert_eq!(
        slash(
            "conditional",
            serde_json::json!([{"name": "action", "type": 3, "value": "list"}])
        ),
        Ok(Command::Conditional(
            None,
            crate::service::command::Conditional::List
        ))
    );
    assert!(runs_privately("conditional", &r));
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
    fn description(&self) -> &crate::variants::api::Description {
        &WORDS_DESCRIPTION
    }
    fn new_game(
        &self,
        _: &crate::variants::api::NewGame,
    ) -> Result<Box<dyn crate::variants::api::GameRules>, crate::variants::api::RuleError> {
        Err(crate::variants::api::RuleError::new("not in this test"))
    }
    fn load(
        &self,
        _: &serde_json::Value,
    ) -> Result<Box<dyn crate::variants::api::GameRules>, crate::variants::api::RuleError> {
        Err(crate::variants::api::RuleError::new("not in this test"))
    }
}

static WORDS: Words = Words;

/// The test's variant as the registry knows it.
const WORDS_DESCRIPTION: crate::variants::api::Description = crate::variants::api::Description {
    summary: "a test's variant",
    rules_summary: "A test's variant: its commands take words.",
    commands: WORDS_COMMANDS,
    ..crate::variants::api::Description::new(
        "words-test",
        "Words (test)",
        crate::variants::api::RulesDocument {
            name: "words-test",
            text: "",
        },
    )
};

/// The subcommand `name` as registered, under whichever top-level command holds it.
fn registered(r: &Registry, name: &str) -> serde_json::Value {
    commands(r)
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .find(|c| c["name"] == name && c["type"] == 1)
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
    assert!(!runs_privately("move", &r));
    assert!(runs_privately("card", &r));
    // 26 cards: a word with suggestions rather than a list of choices.
    let card = &registered(&r, "card")["options"][0];
    assert!(card
        .get("choices")
        .is_none_or(|c| c.as_array().unwrap().is_empty()));
    assert_eq!(card["autocomplete"], true);
    assert_eq!(arguments(&r, "card")[0].choices.len(), 26);
}

/// The characters Discord counts towards a command's 8000: every name, description
/// and choice name and value, through the subcommands.
fn counted(v: &serde_json::Value) -> usize {
    let text = |k: &str| v[k].as_str().map_or(0, |t| t.chars().count());
    let choices: usize = v["choices"].as_array().map_or(0, |cs| {
        cs.iter()
            .map(|c| {
                c["name"].as_str().map_or(0, |t| t.chars().count())
                    + c["value"].as_str().map_or(0, |t| t.chars().count())
            })
            .sum()
    });
    let nested: usize = v["options"]
        .as_array()
        .map_or(0, |os| os.iter().map(counted).sum());
    text("name") + text("description") + choices + nested
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
        let sub = self::registered(&r, c.name);
        assert_eq!(sub["name"], c.name);
    }
    // Every description at every level: within the limit, and never cut inside brackets.
    fn descriptions(v: &serde_json::Value, out: &mut Vec<String>) {
        if let Some(d) = v["description"].as_str() {
            out.push(d.to_string());
        }
        for o in v["options"].as_array().into_iter().flatten() {
            descriptions(o, out);
        }
    }
    let mut all = Vec::new();
    registered.iter().for_each(|v| descriptions(v, &mut all));
    for d in &all {
        assert!(d.chars().count() <= DESCRIPTION, "{d}");
        assert_eq!(d.matches('(').count(), d.matches(')').count(), "cut: {d}");
    }
    for v in &registered {
        assert!(v["description"].as_str().unwrap().chars().count() <= DESCRIPTION);
        let subs = v["options"].as_array().unwrap();
        assert!(subs.len() <= 25, "{}", v["name"]);
        assert!(
            counted(v) <= 8000,
            "/{}: {} characters",
            v["name"],
            counted(v)
        );
        for sub in subs {
            assert_eq!(sub["type"], 1, "/{} {}", v["name"], sub["name"]);
            let options = sub["options"].as_array().map_or(0, |o| o.len());
            assert!(options <= 25, "{}", sub["name"]);
        }
    }
    assert!(runs_privately("hand", &r));
    assert!(!runs_privately("move", &r));
}

#[test]
fn generic_words_are_grouped_under_the_hub_or_their_variant() {
    let r = Registry::builtin();
    let tops: Vec<String> = commands(&r)
        .iter()
        .map(|c| {
            serde_json::to_value(c).unwrap()["name"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(tops[0], HUB);
    for generic in [
        "move", "play", "pass", "hand", "games", "help", "add", "done",
    ] {
        assert!(
            !tops.iter().any(|t| t == generic),
            "/{generic} is top-level"
        );
    }
    // Shared by several variants, or the referee's: under the hub.
    for name in [
        "move",
        "claim",
        "draw",
        "games",
        "challenge",
        "hand",
        "conditional",
    ] {
        assert_eq!(invocation(&r, name), format!("/chess {name}"));
    }
    // A player's or the server's: under the other hub.
    assert_eq!(tops[1], ACCOUNT);
    for name in ["help", "settings", "vacation", "rating", "private", "rules"] {
        assert_eq!(invocation(&r, name), format!("/postal {name}"));
    }
    // The administrative ones: under their own, which Discord hides from members
    // without Manage Server.
    assert_eq!(tops[2], ADMIN);
    for name in ["server", "moderate"] {
        assert_eq!(invocation(&r, name), format!("/postal-admin {name}"));
    }
    let admin = serde_json::to_value(&commands(&r)[2]).unwrap();
    assert_eq!(admin["default_member_permissions"], "32");
    // One variant's own: under that variant.
    assert_eq!(invocation(&r, "clue"), "/chesswords clue");
    assert_eq!(invocation(&r, "pick"), "/split-brain pick");
    // One variant's only command of its own: under the hub, not a top-level command
    // holding a single subcommand.
    assert_eq!(invocation(&r, "fastfifty"), "/chess fastfifty");
    assert_eq!(invocation(&r, "double"), "/chess double");
    assert_eq!(invocation(&r, "stay"), "/chess stay");
    // A referee's command of its own: `/tournament` (its actions as subcommands) and
    // `/tournaments`.
    assert_eq!(invocation(&r, "tournament"), "/tournament");
    assert_eq!(invocation(&r, "tournaments"), "/tournaments");
    for t in &tops[3..] {
        let own = referee::named(t).is_some_and(|c| matches!(c.home, Home::Own(_)));
        assert!(
            own || r.find(t).is_some_and(|v| v.id() == t),
            "/{t} is no variant"
        );
    }
}

#[test]
fn channels_and_roles_picked_read_as_mentions() {
    let r = Registry::builtin();
    let line = |v: serde_json::Value| {
        let data = opts(v);
        let (name, text) = command_line(&r, ADMIN, &data);
        assert_eq!(name, "server");
        text
    };
    let (a, b, role) = (
        "400000000000000001",
        "400000000000000002",
        "500000000000000001",
    );
    let server = |inner: serde_json::Value| serde_json::json!([{"name": "server", "type": 1, "options": inner}]);
    let picked = line(server(serde_json::json!([
        {"name": "channel", "type": 7, "value": a},
        {"name": "channel3", "type": 7, "value": b},
        {"name": "moderators", "type": 8, "value": role},
    ])));
    assert_eq!(
        picked,
        format!("server channels:<#{a}>,<#{b}> moderators:<@&{role}>")
    );
    let words = line(server(serde_json::json!([
        {"name": "channels", "type": 3, "value": "here"},
        {"name": "no-moderators", "type": 5, "value": true},
    ])));
    assert_eq!(words, "server channels:here moderators:none");
    // The pickers offer text channels only.
    let admin = serde_json::to_value(&commands(&r)[2]).unwrap();
    let options = admin["options"][0]["options"].as_array().unwrap();
    let channel = options.iter().find(|o| o["name"] == "channel2").unwrap();
    assert_eq!(channel["type"], 7);
    assert_eq!(channel["channel_types"], serde_json::json!([0]));
    let role = options.iter().find(|o| o["name"] == "moderators").unwrap();
    assert_eq!(role["type"], 8);
}

#[test]
fn a_tournament_subcommand_reads_as_the_typed_command() {
    let r = Registry::builtin();
    let line = |v: serde_json::Value| {
        let data = opts(v);
        let (name, text) = command_line(&r, "tournament", &data);
        assert_eq!(name, "tournament");
        text
    };
    let create = line(
        serde_json::json!([{"name": "create", "type": 1, "options": [
        {"name": "format", "type": 3, "value": "swiss"},
        {"name": "variant", "type": 3, "value": "standard"},
        {"name": "rounds", "type": 4, "value": 5},
        {"name": "rated", "type": 3, "value": "no"},
        {"name": "timer", "type": 4, "value": 3}]}]),
    );
    assert_eq!(
        create,
        "tournament create swiss standard rounds:5 rated:no timer:3"
    );
    assert_eq!(
        parse(&create, &r),
        parse(
            "tournament create swiss standard rounds:5 unrated timer:3",
            &r
        )
    );
    let remove = line(
        serde_json::json!([{"name": "remove", "type": 1, "options": [
        {"name": "id", "type": 4, "value": 3},
        {"name": "user", "type": 6, "value": "223456789012345678"}]}]),
    );
    assert_eq!(remove, "tournament remove 3 <@223456789012345678>");
    let show = line(serde_json::json!([{"name": "show", "type": 1, "options": [
        {"name": "id", "type": 4, "value": 12}]}]));
    assert_eq!(parse(&show, &r), parse("tournament 12", &r));
    // A variant typed with spaces is one word of the grammar, which refuses it.
    let spaced = line(
        serde_json::json!([{"name": "create", "type": 1, "options": [
        {"name": "format", "type": 3, "value": "round-robin"},
        {"name": "variant", "type": 3, "value": "stan dard"}]}]),
    );
    assert_eq!(spaced, "tournament create round-robin standard");
    // `/tournaments` is a command alone; `/chess cancel` is not the tournament's.
    assert_eq!(command_line(&r, "tournaments", &[]).1, "tournaments");
    let cancel = opts(
        serde_json::json!([{"name": "cancel", "type": 1, "options": [
        {"name": "game", "type": 4, "value": 4}]}]),
    );
    assert_eq!(
        command_line(&r, HUB, &cancel),
        ("cancel", "cancel 4".to_string())
    );
    // Written for help as slash commands.
    let usage = usage(&r, "tournament", None);
    assert!(
        usage.starts_with("/tournament create format:… variant:… [double]"),
        "{usage}"
    );
    assert!(usage.contains("/tournament remove id:… user:…"), "{usage}");
    let e = crate::service::command::help::Example {
        text: "tournament join 3".into(),
        command: "tournament",
        options: Some(vec![
            ("action".into(), "join".into()),
            ("id".into(), "3".into()),
        ]),
    };
    assert_eq!(example(&r, &e).as_deref(), Some("/tournament join id:3"));
}

#[test]
fn a_tournaments_variant_is_suggested_as_its_format_allows() {
    let r = Registry::builtin();
    let typing = |format: &str, typed: &str| {
        let data = opts(
            serde_json::json!([{"name": "create", "type": 1, "options": [
            {"name": "format", "type": 3, "value": format},
            {"name": "variant", "type": 3, "value": typed}]}]),
        );
        suggestions(&r, "tournament", &data, "variant", typed).unwrap()
    };
    let ids = |s: Vec<(String, String)>| s.into_iter().map(|(_, id)| id).collect::<Vec<_>>();
    let two = ids(typing("swiss", ""));
    assert!(two.contains(&"standard".to_string()) && !two.contains(&"parade".to_string()));
    let one = ids(typing("competition", ""));
    assert!(one.contains(&"parade".to_string()) && !one.contains(&"standard".to_string()));
    assert_eq!(ids(typing("round-robin", "STAN")), ["standard"]);
    assert!(typing("swiss", "zzz").is_empty());
    let data = opts(serde_json::json!([{"name": "create", "type": 1, "options": []}]));
    assert_eq!(suggestions(&r, "tournament", &data, "format", ""), None);
    assert_eq!(suggestions(&r, HUB, &data, "variant", ""), None);
}

#[test]
fn no_top_level_command_holds_a_single_subcommand() {
    let r = Registry::builtin();
    for c in commands(&r) {
        let v = serde_json::to_value(&c).unwrap();
        let subs = v["options"].as_array().map_or(0, |o| {
            o.iter()
                .filter(|s| matches!(s["type"].as_u64(), Some(1 | 2)))
                .count()
        });
        assert_ne!(subs, 1, "/{} holds a single subcommand", v["name"]);
    }
}

#[test]
fn a_shared_command_is_described_neutrally_where_its_variants_differ() {
    let r = Registry::builtin();
    for name in ["add", "guess", "move", "claim"] {
        let d = registered(&r, name)["description"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(d.contains("depends on the variant"), "/{name}: {d}");
        assert!(d.contains(&format!("help command:{name}")), "/{name}: {d}");
    }
    // One variant's command under the hub names its variant.
    let d = registered(&r, "stay")["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(d.starts_with("Gravity Chess: "), "{d}");
    let d = registered(&r, "fastfifty")["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(d.starts_with("Chess#: "), "{d}");
}

/// Every name, description, option and choice of the registered commands within
/// Discord's limits: at most 100 commands; names of 1 to 32 lowercase characters;
/// descriptions of 1 to 100; at most 25 subcommands or options; at most 25 choices, each
/// name and value of 1 to 100 characters; at most 8000 characters per command.
#[test]
fn every_name_description_option_and_choice_is_within_discords_limits() {
    let r = Registry::builtin();
    let all: Vec<serde_json::Value> = commands(&r)
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .collect();
    assert!(!all.is_empty() && all.len() <= 100);
    fn check(v: &serde_json::Value, at: &str) {
        let name = v["name"].as_str().unwrap();
        let at = format!("{at} {name}");
        assert!((1..=32).contains(&name.chars().count()), "{at}");
        assert!(
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_'),
            "{at}"
        );
        let d = v["description"].as_str().unwrap_or_default();
        assert!(
            (1..=DESCRIPTION).contains(&d.chars().count()),
            "{at}: {d:?}"
        );
        assert!(
            !d.ends_with('(') && d.matches('(').count() == d.matches(')').count(),
            "{at}: {d:?}"
        );
        let options = v["options"].as_array().cloned().unwrap_or_default();
        assert!(options.len() <= 25, "{at}");
        let choices = v["choices"].as_array().cloned().unwrap_or_default();
        assert!(choices.len() <= OPTION_CHOICES, "{at}");
        for c in &choices {
            let n = c["name"].as_str().unwrap();
            assert!((1..=100).contains(&n.chars().count()), "{at}: {n}");
            if let Some(value) = c["value"].as_str() {
                assert!((1..=100).contains(&value.chars().count()), "{at}: {value}");
            }
        }
        for o in &options {
            check(o, &at);
        }
    }
    for v in &all {
        check(v, "");
        assert!(counted(v) <= 8000, "/{}", v["name"]);
    }
}

#[test]
fn a_grouped_interaction_reads_as_its_subcommand() {
    let r = Registry::builtin();
    let data = opts(serde_json::json!([{"name": "move", "type": 1, "options": [
        {"name": "move", "type": 3, "value": "e4"},
        {"name": "game", "type": 4, "value": 3}]}]));
    let (name, options) = leaf(HUB, &data);
    assert_eq!(name, "move");
    assert_eq!(to_text(&r, name, options), "move 3 e4");
    let plain = opts(serde_json::json!([{"name": "game", "type": 4, "value": 3}]));
    assert_eq!(leaf("board", &plain).0, "board");
}

/// Every piece of text a description could have been cut from: the referee's help,
/// the variants' commands, arguments and options.
fn description_sources(r: &Registry) -> Vec<String> {
    let mut out: Vec<String> = REFEREE_COMMANDS
        .iter()
        .map(|c| c.help.to_string())
        .collect();
    for v in r.all() {
        for c in v.commands() {
            out.push(c.help.to_string());
            out.extend(c.args.iter().map(|a| a.help.to_string()));
        }
        out.extend(
            v.options()
                .iter()
                .map(|o| format!("{}: {}", v.display_name(), o.help)),
        );
    }
    out
}

#[test]
fn no_description_is_cut_inside_a_clause() {
    let r = Registry::builtin();
    let sources = description_sources(&r);
    let mut stack: Vec<serde_json::Value> = commands(&r)
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .collect();
    let mut cut = Vec::new();
    while let Some(v) = stack.pop() {
        let d = v["description"].as_str().unwrap().to_string();
        if d.ends_with('…') {
            cut.push(d.clone());
        }
        stack.extend(v["options"].as_array().cloned().unwrap_or_default());
        if sources.iter().any(|s| s.eq_ignore_ascii_case(&d)) {
            continue;
        }
        let Some(source) = sources.iter().find(|s| {
            s.chars().count() > DESCRIPTION && s.to_lowercase().starts_with(&d.to_lowercase())
        }) else {
            continue;
        };
        let rest = &source[d.len()..];
        assert!(
            ["; ", " (", ": ", ", "].iter().any(|b| rest.starts_with(b)),
            "{d:?} is cut from {source:?}"
        );
    }
    assert!(cut.is_empty(), "cut inside a clause: {cut:#?}");
    assert_eq!(describe("a b c"), "A b c");
    let long = format!("first part; {}", "word ".repeat(30));
    assert_eq!(describe(&long), "First part");
    assert!(describe(&"word ".repeat(30)).ends_with("word…"));
}

/// The registered commands' JSON, captured before the referee's commands were declared in
/// one table (issue 34): any change to what is registered shows here. After a deliberate
/// change, write the file again with `POSTAL_WRITE_SLASH_FIXTURE=1`.
#[test]
fn the_registered_commands_are_the_captured_ones() {
    let r = Registry::builtin();
    let now = serde_json::to_value(commands(&r)).unwrap();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/discord/slash/commands.json"
    );
    if std::env::var_os("POSTAL_WRITE_SLASH_FIXTURE").is_some() {
        std::fs::write(path, serde_json::to_string_pretty(&now).unwrap() + "\n").unwrap();
    }
    let captured: serde_json::Value = serde_json::from_str(include_str!("commands.json")).unwrap();
    assert!(
        now == captured,
        "the registered commands changed: compare with {path}"
    );
}

/// Variants enough to pass Discord's 25 choices: chess under other names.
macro_rules! more_chess {
    ($($n:literal),*) => {
        [$(crate::variants::chess::ChessSpec {
            variant: crate::rules::Variant::of(&crate::rules::VariantConfig {
                id: concat!("more-chess-", $n),
                display_name: concat!("More chess ", $n),
                ..crate::rules::FIDE_CHESS
            }),
            description: crate::variants::api::Description {
                summary: "chess under another name",
                rules_summary: "Goal: checkmate, as in standard chess.",
                ..crate::variants::chess::ChessSpec::describe(
                    crate::rules::Variant::of(&crate::rules::VariantConfig {
                        id: concat!("more-chess-", $n),
                        display_name: concat!("More chess ", $n),
                        ..crate::rules::FIDE_CHESS
                    }),
                    crate::variants::api::RulesDocument { name: concat!("more-chess-", $n), text: "" },
                )
            },
            starts: None,
        }),*]
    };
}

static MORE_CHESS: [crate::variants::chess::ChessSpec; 8] =
    more_chess!("1", "2", "3", "4", "5", "6", "7", "8");

/// Every option of `v` (a command's JSON, subcommands included) named `name`.
fn options_named<'a>(v: &'a serde_json::Value, name: &str, out: &mut Vec<&'a serde_json::Value>) {
    for o in v["options"].as_array().into_iter().flatten() {
        if o["name"] == name && o["type"] == 3 {
            out.push(o);
        }
        options_named(o, name, out);
    }
}

/// A variant option lists no choices, which Discord cuts at 25: the registry's variants
/// are suggested as the user types, so that with more variants than that the last is
/// still offered to a user who types its name.
#[test]
fn a_variant_option_is_suggested_as_typed_and_no_variant_is_out_of_reach() {
    let r = MORE_CHESS
        .iter()
        .fold(Registry::builtin(), |r, v| r.with(v));
    assert!(r.all().count() > OPTION_CHOICES);
    let registered = serde_json::to_value(commands(&r)).unwrap();
    let mut variant_options = Vec::new();
    for c in registered.as_array().unwrap() {
        options_named(c, "variant", &mut variant_options);
    }
    assert!(
        variant_options.len() >= 3,
        "challenge, rules and leaderboard"
    );
    for o in &variant_options {
        assert_eq!(o["autocomplete"], true, "{o}");
        assert!(o["choices"].as_array().map_or(true, Vec::is_empty), "{o}");
    }
    let typing = |top: &str, sub: &str, typed: &str| {
        let data = opts(serde_json::json!([{"name": sub, "type": 1, "options": [
            {"name": "variant", "type": 3, "value": typed, "focused": true}]}]));
        let found = suggestions(&r, top, &data, "variant", typed).unwrap();
        found.into_iter().map(|(_, id)| id).collect::<Vec<_>>()
    };
    assert_eq!(typing(HUB, "challenge", "").len(), OPTION_CHOICES);
    let last = r.all().last().unwrap().id();
    assert_eq!(typing(HUB, "challenge", last), [last]);
    assert_eq!(typing(ACCOUNT, "rules", "More Chess 8"), [last]);
    assert_eq!(typing(HUB, "challenge", "Chess#"), ["chess-sharp"]);
    // A leaderboard is of a variant that keeps a table: a solitaire's best scores, not
    // an unrated game's.
    let tables = typing(ACCOUNT, "leaderboard", "");
    assert!(tables.contains(&"parade".to_string()), "{tables:?}");
    let unrated: Vec<&str> = r
        .all()
        .filter(|v| matches!(v.standing(), crate::variants::api::Standing::Unrated(_)))
        .map(|v| v.id())
        .collect();
    assert!(!unrated.is_empty() && unrated.iter().all(|u| !tables.iter().any(|t| t == u)));
    assert_eq!(
        suggestions(
            &r,
            HUB,
            &opts(serde_json::json!([{"name": "move", "type": 1, "options": []}])),
            "variant",
            ""
        ),
        None
    );
}
