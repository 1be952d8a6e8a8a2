//! The command language: the parser never panics, whatever it is given; every example in
//! `help` is a command the parser accepts (or, for `move`, a bare move a game accepts);
//! and arbitrary text sent to the referee gets at most a reply and changes nothing.

mod common;

use common::service::{open, say, T0};
use postal::notation::parse_move;
use postal::rules::{Position, Variant};
use postal::service::command::{help, parse, ParseError, HELP};
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
    "TO",
    "\u{265E}",
    "\"",
    "",
];

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
        prop_assert!(!help(Some(&topic)).is_empty());
    }
}

/// Whether `text` is a legal move at the start of some variant (the bare-move examples).
fn is_a_starting_move(text: &str) -> bool {
    [Variant::Standard, Variant::ChessSharp, Variant::LosAlamos]
        .into_iter()
        .any(|v| parse_move(&Position::start(v), text).is_ok())
}

#[test]
fn every_help_example_parses() {
    let mut checked = 0;
    for (name, usage, what, examples) in HELP {
        assert!(!usage.is_empty() && !what.is_empty(), "{name}");
        let shown = help(Some(name));
        assert!(shown.contains(usage) && shown.contains(examples), "{shown}");
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
    assert!(checked > HELP.len(), "too few examples");
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
