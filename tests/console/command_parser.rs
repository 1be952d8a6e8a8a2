//! The command language: the parser never panics, whatever it is given; every example in
//! `help` is a command the parser accepts (or, for `move`, a bare move a game accepts);
//! and arbitrary text sent to the referee gets at most a reply and changes nothing.

use crate::common;

use common::service::{open, say, T0};
use postal::notation::parse_move;
use postal::rules::Position;
use postal::service::command::{help, ParseError, REFEREE_COMMANDS};
use postal::service::referee::Destination;
use postal::variants::api::GameCommand;
use postal::variants::Registry;
use proptest::prelude::*;

/// Words the grammar knows, to steer random lines into its branches.
const WORDS: &[&str] = &[
    "challenge",
    "accept",
    "decline",
    "cancel",
    "move",
    "play",
    "board",
    "display_board",
    "moves",
    "games",
    "pgn",
    "rules",
    "resign",
    "concede",
    "abort",
    "draw",
    "fastfifty",
    "claim",
    "help",
    "offer",
    "propose",
    "reject",
    "stalemate",
    "impasse",
    "time",
    "draw",
    "@bob",
    "<@!123>",
    "@",
    "#12",
    "12",
    "99999999999999999999",
    "days:3",
    "days:0",
    "days:x",
    "colour:white",
    "color:b",
    "colour:",
    "fen:",
    "fen:\"",
    "fen:\"8/8 w\"",
    "chess-sharp",
    "standard",
    "e4",
    "N@d1",
    "O-O",
    "clue",
    "pass",
    "letters",
    "discard",
    "hand",
    "words",
    "guess",
    "none",
    "timer:3",
    "timer:9",
    "white knight",
    "TO",
    "\u{265E}",
    "\"",
    "",
];

fn parse(line: &str) -> Result<postal::service::command::Command, ParseError> {
    postal::service::command::parse(line, &Registry::builtin())
}

fn steered() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            prop::sample::select(WORDS).prop_map(str::to_string),
            "\\PC{0,12}",
        ],
        0..8,
    )
    .prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_parser_never_panics_on_any_string(line in "\\PC{0,200}") {
        let _ = parse(&line);
    }

    #[test]
    fn the_parser_never_panics_on_lines_made_of_command_words(line in steered()) {
        if let Err(e) = parse(&line) {
            let text = e.to_string();
            prop_assert!(!text.is_empty() && !text.contains('\n'), "{text:?}");
        }
    }

    #[test]
    fn help_never_panics(topic in "\\PC{0,40}") {
        prop_assert!(!help(Some(&topic), &Registry::builtin()).is_empty());
    }
}

/// Whether `text` is a legal move at the start of some variant (the bare-move examples).
fn is_a_starting_move(text: &str) -> bool {
    crate::common::board_variants()
        .into_iter()
        .any(|v| parse_move(&Position::start(v), text).is_ok())
}

#[test]
fn every_help_example_parses() {
    let registry = Registry::builtin();
    let mut checked = 0;
    // A referee's command's examples as shown, the variants they name filled in.
    let referee_commands: Vec<(&str, &str, &str, String)> = REFEREE_COMMANDS
        .iter()
        .map(|c| (c.name, c.usage, c.help, c.examples().join(", ")))
        .collect();
    let variant_commands: Vec<(&str, &str, &str, String)> = registry
        .all()
        .flat_map(|v| v.commands().iter())
        .map(|c| (c.name, c.usage, c.help, c.examples.to_string()))
        .collect();
    for (name, usage, what, examples) in referee_commands.iter().chain(variant_commands.iter()) {
        assert!(!usage.is_empty() && !what.is_empty(), "{name}");
        let shown = help(Some(name), &registry);
        assert!(
            shown.contains(usage) && shown.contains(examples.as_str()),
            "{shown}"
        );
        assert!(
            !examples.contains('{') || examples.contains("fen:"),
            "{examples}"
        );
        for example in examples.split(", ") {
            match parse(example) {
                Ok(_) => {}
                Err(ParseError::Unknown(_)) if *name == "move" => assert!(
                    is_a_starting_move(example),
                    "help move: {example} is not a move"
                ),
                Err(e) => panic!("help {name}: example {example:?} does not parse: {e}"),
            }
            checked += 1;
        }
    }
    assert!(
        checked > REFEREE_COMMANDS.len() + variant_commands.len(),
        "too few examples"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random text from a player of an active game, and from a stranger, is answered in
    /// at most a line each and never changes the game.
    #[test]
    fn random_text_to_the_referee_changes_nothing(
        lines in prop::collection::vec(steered(), 1..6)
    ) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let svc = open("sqlite::memory:").await;
            say(&svc, "c", "alice", "challenge @bob standard colour:white", T0).await;
            say(&svc, "a", "bob", "accept", T0).await;
            let before = svc.store().game(1).await.unwrap().unwrap();
            for (i, line) in lines.iter().enumerate() {
                // Bob is not to move, so nothing he types can change the game: a move is
                // not his turn, and the only other changes (abort, resign, draw offer,
                // claims) are kept out of the steering words below.
                let line = line.replace("resign", "r").replace("concede", "c")
                    .replace("abort", "a").replace("offer", "o").replace("propose", "p")
                    .replace("challenge", "ch").replace("accept", "ac")
                    .replace("decline", "de").replace("cancel", "ca");
                for user in ["bob", "mallory"] {
                    let out = say(&svc, &format!("e{i}{user}"), user, &line, T0).await;
                    prop_assert!(out.len() <= 1, "{line:?}: {out:?}");
                }
            }
            let after = svc.store().game(1).await.unwrap().unwrap();
            prop_assert_eq!(after.version, before.version);
            prop_assert_eq!(after.snapshot, before.snapshot);
            svc.store().close().await;
            Ok(())
        })?;
    }
}

#[test]
fn the_chesswords_commands_parse() {
    use postal::service::command::Command as C;
    let p = |line: &str| parse(line).unwrap();
    let g = |id: Option<i64>, word: &str, rest: &str| C::Game(id, GameCommand::new(word, rest));
    // A clue keeps its text; only `#12` is a game id, since a clue may start with a number.
    assert_eq!(p("clue 3 little pigs"), g(None, "clue", "3 little pigs"));
    assert_eq!(
        p("clue #3 a sweet   reward"),
        g(Some(3), "clue", "a sweet reward")
    );
    assert_eq!(p("hint frozen water"), g(None, "hint", "frozen water"));
    assert_eq!(p("pass"), g(None, "pass", ""));
    assert_eq!(p("pass 4"), g(Some(4), "pass", ""));
    assert_eq!(p("play treat Qc2"), g(None, "play", "treat Qc2"));
    assert_eq!(p("play 12 e4"), g(Some(12), "play", "e4"));
    assert_eq!(p("letters TE c1 to c2"), g(None, "letters", "TE c1 to c2"));
    assert_eq!(
        p("discard white knight"),
        g(None, "discard", "white knight")
    );
    assert_eq!(p("discard 7 bP"), g(Some(7), "discard", "bP"));
    assert_eq!(p("hand"), C::Hand(None));
    assert_eq!(p("cards #2"), C::Hand(Some(2)));
    assert_eq!(p("words stone rated"), g(None, "words", "stone rated"));
    assert_eq!(p("words NONE"), g(None, "words", "NONE"));
    assert_eq!(p("guess stone"), g(None, "guess", "stone"));
    let Ok(C::Challenge(c)) = parse("challenge @bob chesswords timer:3") else {
        panic!()
    };
    assert_eq!(c.options, vec![("timer".to_string(), "3".to_string())]);
    for bad in [
        "clue",
        "clue #4",
        "letters te",
        "discard",
        "words a b c",
        "guess",
        // Two words are Cloak and Dagger's `guess knight 3`: the parser takes them for
        // any game, and Secret Chesswords' own reading refuses them there. Three are no
        // variant's.
        "guess three more words",
    ] {
        assert!(matches!(parse(bad), Err(ParseError::Syntax(_))), "{bad}");
    }
    // Secret commands are declared so, and only taken in private.
    let registry = Registry::builtin();
    let secret = |w: &str| registry.declarations(w).iter().any(|c| c.secret);
    assert!(secret("words") && secret("discard") && secret("pick"));
    assert!(!secret("clue") && !secret("move"));
}

#[tokio::test]
async fn chesswords_commands_elsewhere_change_nothing_and_say_why() {
    let svc = open("sqlite::memory:").await;
    say(
        &svc,
        "c",
        "alice",
        "challenge @bob standard colour:white",
        T0,
    )
    .await;
    say(&svc, "a", "bob", "accept", T0).await;
    // `play` is `move` in chess.
    let out = say(&svc, "m1", "alice", "play e4", T0).await;
    assert!(out[0].text.contains("played e4"), "{out:?}");
    let before = svc.store().game(1).await.unwrap().unwrap();
    for (i, line) in ["clue round fruit", "pass", "guess apple", "letters ab e5"]
        .iter()
        .enumerate()
    {
        let out = say(&svc, &format!("x{i}"), "bob", line, T0).await;
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(out[0].text.contains("is not part of"), "{line}: {out:?}");
    }
    // A secret command of another variant typed here says that this game has no such
    // command (not that it is secret), and its words are not repeated.
    let out = say(&svc, "w", "bob", "words stone rated", T0).await;
    assert_eq!(out.len(), 1);
    assert!(
        out[0]
            .text
            .contains("`words` is not part of Standard chess"),
        "{out:?}"
    );
    assert!(!out[0].text.contains("stone"));
    // `hand` answers privately.
    let out = say(&svc, "h", "bob", "hand", T0).await;
    assert!(
        matches!(out[0].to, Destination::Dm(_))
            && out[0]
                .text
                .contains("you hold nothing secret in Standard chess"),
        "{out:?}"
    );
    // A timer is for the variants that declare it (chesswords).
    let out = say(&svc, "t", "bob", "challenge @alice standard timer:3", T0).await;
    assert!(out[0].text.contains("takes no option timer"), "{out:?}");
    let after = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(after.version, before.version);
    assert!(svc.store().game(2).await.unwrap().is_none());
    svc.store().close().await;
}

/// `move 5254` is ICCF numeric (e2-e4), as the help teaches, not game #5254 without a
/// move; with two numbers the first is the game, and `#N` is always a game (issue 15).
#[test]
fn a_lone_number_after_move_is_the_move_not_a_game_id() {
    use postal::service::command::Command as C;
    let p = |line: &str| parse(line).unwrap();
    let g = |id: Option<i64>, rest: &str| C::Game(id, GameCommand::new("move", rest));
    assert_eq!(p("move 5254"), g(None, "5254"));
    assert_eq!(p("move 12 5254"), g(Some(12), "5254"));
    assert!(
        parse("move #5254").is_err(),
        "#5254 names a game, and no move follows"
    );
    assert_eq!(p("move 3 e4"), g(Some(3), "e4"));
}

/// `rules VARIANT` gives every variant's rules in brief (goal, moves, special rules, the
/// end), from the variant's own spec, then its whole rules document (embedded from
/// `docs/rules/`), with its structured form for adapters that lay it out (issues 15, 32).
#[tokio::test]
async fn rules_gives_every_variant_a_real_summary_and_its_whole_document() {
    use postal::service::referee::{Card, Service};
    use postal::store::Store;
    use postal::variants::api::RULES_SUMMARY_MAX;
    let settings = postal::service::settings::Settings {
        rules_url: Some(format!("https://example.org/{}/", "r".repeat(150))),
        ..common::service::seeded()
    };
    let svc = Service::new(Store::open("sqlite::memory:").await.unwrap(), settings);
    let registry = postal::variants::Registry::builtin();
    assert!(registry.all().count() >= 11);
    for v in registry.all() {
        let brief = v.rules_summary();
        let n = brief.chars().count();
        assert!(
            (300..=RULES_SUMMARY_MAX).contains(&n),
            "{}: {n} characters",
            v.id()
        );
        assert!(brief.len() > v.summary().len() * 3, "{}", v.id());
        let out = say(&svc, "r", "frank", &format!("rules {}", v.id()), T0).await;
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].text.contains(brief), "{}: {out:?}", v.id());
        let doc = v.rules_text();
        assert!(doc.len() > 2000, "{}", v.id());
        assert!(out[0].text.contains(doc.trim_end()), "{}", v.id());
        // The document part is written for players, as on Discord.
        let (_, shown) = out[0].text.split_once("\n\n").expect("a document");
        let problems = crate::common::rules_text::problems(shown);
        assert!(problems.is_empty(), "{}:\n{}", v.id(), problems.join("\n"));
        match &out[0].card {
            // The card's commands are marked, for each reader to write its way; typed,
            // the document reads as it was written.
            Some(Card::Rules(card)) => {
                assert_eq!(postal::variants::api::typed_commands(&card.document), doc)
            }
            other => panic!("{}: {other:?}", v.id()),
        }
    }
}

#[tokio::test]
async fn rules_shows_the_document_and_the_operators_link_never_a_repository_path() {
    use postal::service::referee::Service;
    use postal::store::Store;
    let plain = open("sqlite::memory:").await;
    let out = say(&plain, "r", "frank", "rules losalamos", T0).await;
    assert!(out[0]
        .text
        .starts_with("Los Alamos chess (los-alamos): chess on 6x6"));
    assert!(!out[0].text.contains("Ask the operator"), "{out:?}");
    // The document's title, as a chat shows a heading: a bold line.
    assert!(out[0].text.contains("\n**Los Alamos chess**\n"), "{out:?}");
    assert!(!out[0].text.contains("docs/rules"), "{out:?}");
    let settings = postal::service::settings::Settings {
        rules_url: Some("https://example.org/rules/".into()),
        ..common::service::seeded()
    };
    let linked = Service::new(Store::open("sqlite::memory:").await.unwrap(), settings);
    let out = say(&linked, "r", "frank", "rules chesswords", T0).await;
    assert!(
        out[0]
            .text
            .contains("The rules online: https://example.org/rules/chesswords.md"),
        "{out:?}"
    );
}
