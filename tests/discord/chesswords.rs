//! End-to-end tests of Chesswords on Discord, against the fake Discord
//! (`tests/fake_discord`): its commands registered and suggested by help, and the hands
//! and words kept secret through a whole game.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{public_leaks, Fake, Recorded};
use postal::variants::Registry;
use serde_json::json;

/// The Chesswords commands are registered within Discord's limits: `/challenge` takes a
/// `timer` of 1 to 5 minutes, `/discard` offers the ten kinds of card and none, `/play` and
/// `/letters` suggest moves, and `/help`'s `command` suggests the command names. The
/// secret commands and `/hand` are answered ephemerally even where nothing can be done,
/// and their input is not repeated in public.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chesswords_commands_are_registered_and_help_suggests_commands() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("chesswords-slash"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    assert!(
        cmds.len() > 25,
        "more commands than one list of choices holds"
    );
    for name in [
        "clue", "pass", "play", "letters", "discard", "hand", "words", "guess",
    ] {
        assert!(cmds.iter().any(|c| c["name"] == name), "/{name}");
    }
    let timer = option_of(&cmds, "challenge", "timer");
    assert_eq!(
        (timer["min_value"].as_u64(), timer["max_value"].as_u64()),
        (Some(1), Some(5))
    );
    assert_eq!(
        option_of(&cmds, "discard", "card")["choices"]
            .as_array()
            .unwrap()
            .len(),
        11,
        "the ten kinds of card and none"
    );
    for command in ["play", "letters"] {
        assert_eq!(
            option_of(&cmds, command, "move")["autocomplete"],
            true,
            "/{command}"
        );
    }
    assert_eq!(option_of(&cmds, "help", "command")["autocomplete"], true);

    let typing = |v: &str| json!([{"name": "command", "type": 3, "value": v, "focused": true}]);
    let a = fake.autocomplete(ALICE, GAMES, "help", typing("g"));
    assert_eq!(
        choice_names(&fake.wait_callback(&a).await),
        ["games", "guess"]
    );
    let a = fake.autocomplete(ALICE, GAMES, "help", typing("C"));
    assert_eq!(
        choice_names(&fake.wait_callback(&a).await),
        [
            "cancel",
            "challenge",
            "choose",
            "claim",
            "clue",
            "conditional"
        ]
    );
    let a = fake.autocomplete(ALICE, GAMES, "help", typing(""));
    let all = choice_names(&fake.wait_callback(&a).await);
    assert_eq!(all.len(), 25, "Discord's 25 at most: {all:?}");
    let r = private_answer(
        &fake,
        ALICE,
        GAMES,
        "help",
        json!([{"name": "command", "type": 3, "value": "words"}]),
        "help is ephemeral",
    )
    .await;
    // Help in Discord is an embed, its examples slash commands.
    let shown = r.json.to_string();
    assert!(shown.contains("/chesswords words word1:none"), "{shown}");

    // No game: the secret commands and /hand answer privately, and say nothing public.
    for (name, options) in [
        (
            "words",
            json!([{"name": "word1", "type": 3, "value": "zebra"},
                         {"name": "word2", "type": 3, "value": "quartz"}]),
        ),
        (
            "discard",
            json!([{"name": "card", "type": 3, "value": "wN"}]),
        ),
        ("hand", json!([])),
    ] {
        let r = private_answer(&fake, BOB, GAMES, name, options, "/{name} is ephemeral").await;
        assert_says(&r, "no game");
    }
    let reqs = fake.requests();
    for secret in ["zebra", "quartz"] {
        let leaks = public_leaks(&reqs, &fake.dm_channels(), secret);
        assert!(leaks.is_empty(), "{secret} in public: {leaks:?}");
    }
    assert!(
        posts(&reqs, GAMES).is_empty(),
        "nothing was posted in the channel"
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// The cards listed after "your hand: " (or "Your hand: ") in a private text.
fn hand_cards(text: &str) -> Vec<String> {
    let Some(at) = text.find("our hand: ") else {
        return Vec::new();
    };
    let rest = &text[at + "our hand: ".len()..];
    let list = rest.split(['(', ';']).next().unwrap_or_default();
    list.split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

/// The alphabetic words of a text, in upper case.
fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_uppercase)
        .collect()
}

/// A whole Secret Chesswords game on Discord, the game of the console transcript
/// `chesswords-game` (the harness's seed deals the same letters and cards): the hands
/// arrive by DM, clues, passes and moves (by text and by slash command) in the game's
/// thread with the board as a PNG, refusals (a move before the clue, a bare move after a
/// clue, a word whose letters do not match the move, a secret typed in public, a move
/// onto a checker), the private word after a capture of what it lets the holder
/// discard, discards by the ephemeral `/discard` and by DM (only the discard is posted),
/// a draw told by DM, the ephemeral `/hand`, a penalty for naming letters, a king
/// captured and the holder's decision on its discard (`/discard none`), the finale's
/// words by the ephemeral `/words` (one pair refused) and by DM, clues and guesses in
/// the thread, and the grade. Then every request is scanned: no card anyone
/// held appears in public except in the announcement of its discard, no finale word
/// before its reveal, and no DM or ephemeral text or private board; and no text of the
/// bot's shows typed syntax.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chesswords_on_discord_keeps_hands_and_words_secret() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("chesswords"), config(&fake), 1).await;
    let variants = variants_suggested(&fake, "").await;
    assert!(
        variants.contains("\"Secret Chesswords\"") && variants.contains("\"chesswords\""),
        "{variants}"
    );
    let thread = start_game(&fake, "chesswords timer:3").await;
    let alice_hand = "your hand: black queen, white pawn, black pawn, black knight (4 cards)";
    let bob_hand = "your hand: black knight, black rook, white pawn, white knight (4 cards)";
    wait_dm(&fake, ALICE, alice_hand).await;
    wait_dm(&fake, BOB, bob_hand).await;
    let text = |s: &str| format!("!{s}");

    fake.say(ALICE, &thread, &text("play attic b3"));
    wait_post(&fake, &thread, "you cannot move now").await;
    let r = slash_reply(
        &fake,
        BOB,
        &thread,
        "clue",
        json!([{"name": "text", "type": 3, "value": "a room under the roof"}]),
    )
    .await;
    assert_eq!(r.flags() & 64, 0, "a clue is public: {}", r.json);
    assert!(
        r.content()
            .unwrap()
            .contains("Black's clue: “a room under the roof”"),
        "{}",
        r.json
    );
    fake.say(ALICE, &thread, "b3");
    wait_post(&fake, &thread, "after a clue say the word you guessed").await;
    fake.say(ALICE, &thread, &text("play above b3"));
    let refused = wait_post(&fake, &thread, "the move goes from A to C").await;
    assert!(!is_png(&refused), "a refused move changes nothing");
    let r = slash_reply(&fake, ALICE, &thread, "play", json!([{"name": "word", "type": 3, "value": "attic"}, {"name": "move", "type": 3, "value": "b3"}])).await;
    assert_eq!(r.flags() & 64, 0, "{}", r.json);
    assert!(
        r.content()
            .unwrap()
            .contains("played b3; with the word ATTIC"),
        "{}",
        r.json
    );
    assert!(is_png(&r), "the board comes with the move");
    for (who, line, needle) in [
        (ALICE, "clue blood of the gods", "White's clue"),
        (BOB, "play ichor c4", "played c4"),
        (BOB, "clue something to sit on", "Black's clue: “something"),
        (ALICE, "play chair bxc4", "played bxc4"),
    ] {
        fake.say(who, &thread, &text(line));
        let p = wait_post(&fake, &thread, needle).await;
        if line.starts_with("play") {
            assert!(is_png(&p), "{line}: the board comes with the move");
        }
    }
    // The capture lets Bob discard: he alone is told, and decides while Alice thinks.
    wait_dm(
        &fake,
        BOB,
        "White's capture of your pawn lets you discard the white pawn (wP), if you wish",
    )
    .await;
    dm(&fake, BOB, "discard wP");
    wait_post(
        &fake,
        &thread,
        "Black discards the white pawn: a checker on b3",
    )
    .await;
    wait_dm(&fake, BOB, "you drew the white pawn; your hand:").await;
    fake.say(ALICE, &thread, &text("clue you knock on it"));
    wait_post(&fake, &thread, "White's clue: “you knock").await;
    let posted = posts(&fake.requests(), &thread).len();
    fake.say(BOB, &thread, &text("play door dxc4"));
    let p = wait_post(&fake, &thread, "played dxc4").await;
    assert!(
        !p.content().unwrap().contains("discard"),
        "no word of a discard in public: {}",
        p.json
    );
    wait_dm(
        &fake,
        ALICE,
        "Black's capture of your pawn lets you discard the white pawn (wP) or the black pawn (bP)",
    )
    .await;
    assert_eq!(
        posts(&fake.requests(), &thread).len(),
        posted + 1,
        "the capture posted only the move"
    );
    // A discard typed in public is refused privately and not repeated in the thread.
    let posted = posts(&fake.requests(), &thread).len();
    fake.say(ALICE, &thread, &text("discard bP"));
    wait_dm(&fake, ALICE, "is secret: send it to me").await;
    let r = slash_reply(
        &fake,
        ALICE,
        &thread,
        "discard",
        json!([{"name": "card", "type": 3, "value": "bP"}]),
    )
    .await;
    assert_ne!(
        r.flags() & 64,
        0,
        "/discard is answered privately: {}",
        r.json
    );
    assert_says(&r, "you drew the black pawn");
    wait_post(
        &fake,
        &thread,
        "White discards the black pawn: a checker on d5",
    )
    .await;
    assert_eq!(
        posts(&fake.requests(), &thread).len(),
        posted + 1,
        "only the discard was posted"
    );

    let r = slash_reply(&fake, BOB, &thread, "pass", json!([])).await;
    assert!(
        r.content()
            .unwrap()
            .contains("Black passes: White moves freely"),
        "{}",
        r.json
    );
    fake.say(ALICE, &thread, &text("play hen d3"));
    wait_post(&fake, &thread, "so you move freely").await;
    fake.say(ALICE, &thread, "d3");
    wait_post(&fake, &thread, "played d3").await;
    fake.say(ALICE, &thread, &text("clue a hint"));
    wait_post(&fake, &thread, "White's clue: “a hint”").await;
    fake.say(BOB, &thread, &text("letters rn cxd3"));
    wait_post(&fake, &thread, "one penalty point (1 in all)").await;
    wait_dm(
        &fake,
        ALICE,
        "lets you discard the white pawn (wP) or the black pawn (bP), if you wish",
    )
    .await;
    dm(&fake, ALICE, "discard wP");
    wait_post(
        &fake,
        &thread,
        "White discards the white pawn: a checker on c4",
    )
    .await;
    wait_dm(
        &fake,
        ALICE,
        "you drew the black pawn; your hand: black queen, black knight",
    )
    .await;
    fake.say(BOB, &thread, &text("clue consumed"));
    wait_post(&fake, &thread, "Black's clue: “consumed”").await;
    fake.say(ALICE, &thread, &text("play eaten exd3"));
    wait_post(&fake, &thread, "played exd3").await;
    let r = slash_reply(
        &fake,
        BOB,
        &thread,
        "discard",
        json!([{"name": "card", "type": 3, "value": "wP"}]),
    )
    .await;
    assert_ne!(r.flags() & 64, 0, "{}", r.json);
    wait_post(&fake, &thread, "a checker on e2").await;
    let hand = slash_reply(&fake, BOB, &thread, "hand", json!([])).await;
    assert!(
        hand.content()
            .unwrap()
            .contains("your hand: black knight, black rook, white knight, white pawn (4 cards)"),
        "{}",
        hand.json
    );
    for (who, line, needle) in [
        (ALICE, "clue snatch", "White's clue: “snatch”"),
        (BOB, "play grab a4", "played a4"),
        (
            BOB,
            "clue a short written message",
            "Black's clue: “a short",
        ),
        (ALICE, "play note d4", "played d4"),
        (
            ALICE,
            "clue a double-reed instrument",
            "White's clue: “a double",
        ),
        (BOB, "play oboe exd4", "played exd4"),
        (
            BOB,
            "clue the border of a cliff",
            "Black's clue: “the border",
        ),
        (ALICE, "play edge Ke2", "e2 has a checker"),
        (ALICE, "play edge Nc3", "played Nc3"),
        (ALICE, "clue metropolis", "White's clue: “metropolis”"),
        (BOB, "play city f4", "played f4"),
        (BOB, "clue a volcano in Sicily", "Black's clue: “a volcano"),
        (ALICE, "play etna Ne4", "played Ne4"),
        (ALICE, "clue false hair", "White's clue: “false hair”"),
        (BOB, "play wig Ra5", "played Ra5"),
        (
            BOB,
            "clue the smallest bit of an element",
            "Black's clue: “the smallest",
        ),
        (ALICE, "play atom Nxd6", "play is over: a king was captured"),
    ] {
        fake.say(who, &thread, &text(line));
        wait_post(&fake, &thread, needle).await;
        if line == "play oboe exd4" {
            dm(&fake, ALICE, "discard bP");
            wait_post(&fake, &thread, "a checker on e5").await;
        }
    }
    // The king's capture: Bob decides privately before the finale; he keeps his cards.
    wait_dm(
        &fake,
        BOB,
        "Before the finale, White's last capture lets you discard the white knight (wN)",
    )
    .await;
    let r = slash_reply(
        &fake,
        BOB,
        &thread,
        "discard",
        json!([{"name": "card", "type": 3, "value": "none"}]),
    )
    .await;
    assert_ne!(r.flags() & 64, 0, "{}", r.json);
    wait_dm(&fake, ALICE, "The marked letters are C, D, E, O, R").await;

    // The finale: words privately, clues and guesses in the thread.
    let word = |n: &str, v: &str| json!({"name": n, "type": 3, "value": v});
    let r = slash_reply(
        &fake,
        ALICE,
        &thread,
        "words",
        json!([word("word1", "cord"), word("word2", "ace")]),
    )
    .await;
    assert_ne!(r.flags() & 64, 0, "{}", r.json);
    assert_says(&r, "no checker marks the letter A");
    dm(&fake, ALICE, "words cod re");
    wait_dm(&fake, ALICE, "your words: COD and RE").await;
    wait_post(&fake, &thread, "White has submitted their words").await;
    let r = slash_reply(
        &fake,
        BOB,
        &thread,
        "words",
        json!([word("word1", "doc"), word("word2", "re")]),
    )
    .await;
    assert_ne!(
        r.flags() & 64,
        0,
        "/words is answered privately: {}",
        r.json
    );
    assert_says(&r, "your words: DOC and RE");
    wait_post(
        &fake,
        &thread,
        "Black has submitted their words; White: give a clue",
    )
    .await;
    let r = slash_reply(
        &fake,
        ALICE,
        &thread,
        "clue",
        json!([{"name": "text", "type": 3, "value": "a fish"}]),
    )
    .await;
    assert_says(&r, "clue for one of their words");
    let r = slash_reply(&fake, BOB, &thread, "guess", json!([word("word", "cod")])).await;
    assert_eq!(r.flags() & 64, 0, "{}", r.json);
    assert_says(&r, "Black guesses COD: right!");
    fake.say(BOB, &thread, &text("clue a physician, for short"));
    wait_post(&fake, &thread, "Black's clue for one of their words").await;
    fake.say(ALICE, &thread, &text("guess doc"));
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content()
            .unwrap()
            .contains("total 13: below 50, the game is lost (F)"),
        "{}",
        end.json
    );

    // The scan, over every request of the game.
    let reqs = fake.requests();
    let dms = fake.dm_channels();
    let public: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| r.ok() && !fake_discord::is_private(r, &dms))
        .collect();
    // Every card seen in a private hand, from the first time it was seen.
    let mut held: Vec<(String, std::time::Instant)> = Vec::new();
    for r in reqs
        .iter()
        .filter(|r| r.ok() && fake_discord::is_private(r, &dms))
    {
        for card in hand_cards(r.content().unwrap_or_default()) {
            if !held.iter().any(|(c, _)| *c == card) {
                held.push((card, r.at));
            }
        }
    }
    assert!(held.len() >= 5, "{held:?}");
    for r in &public {
        let mut text = r.json.to_string();
        for (card, _) in &held {
            // A discarded card is shown face up: its announcement is public.
            text = text.replace(&format!("discards the {card}"), "");
        }
        for (card, from) in &held {
            assert!(
                r.at < *from || !text.contains(card.as_str()),
                "a held card ({card}) in public: {} {}",
                r.path,
                r.json
            );
        }
    }
    let revealed = |needle: &str| {
        public
            .iter()
            .find(|r| r.content().is_some_and(|c| c.contains(needle)))
            .map(|r| r.at)
    };
    let (white_reveal, black_reveal) = (revealed("Black guesses"), revealed("White guesses"));
    assert!(white_reveal.is_some() && black_reveal.is_some());
    for (secret, until) in [
        ("CORD", None),
        ("CORD", None),
        ("ACE", None),
        ("COD", white_reveal),
        ("DOC", black_reveal),
    ] {
        for r in public.iter().filter(|r| until.is_none_or(|u| r.at < u)) {
            assert!(
                !tokens(&r.json.to_string()).iter().any(|t| t == secret),
                "the word {secret} is public before its reveal: {} {}",
                r.path,
                r.json
            );
        }
    }
    private_stays_private(&reqs, &dms, 15);
    assert_ne!(
        hand.flags() & 64,
        0,
        "/hand is answered privately: {}",
        hand.json
    );
    // From the set-up to the grade, every prompt, refusal and answer names its commands as
    // slash commands.
    crate::every_command::assert_no_typed_syntax(&fake);
    all_accepted(&fake);
    bot.stop().await;
}

/// `/help`'s `command` suggests the names of the referee's commands and of every
/// variant's declared ones; `/help` and `/hand` (whose answer is a player's own) are
/// answered privately, and `/hand` with no game posts nothing in public.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_suggests_command_names_and_hand_answers_privately() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("help"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    assert_eq!(option_of(&cmds, "help", "command")["autocomplete"], true);
    let registry = Registry::builtin();
    let mut every: Vec<&str> = postal::service::command::REFEREE_COMMANDS
        .iter()
        .map(|c| c.name)
        .chain(registry.commands().iter().map(|c| c.name))
        .collect();
    every.sort_unstable();
    every.dedup();
    for name in registry.commands().iter().map(|c| c.name) {
        assert!(cmds.iter().any(|c| c["name"] == name), "/{name}");
    }

    let typing = |v: &str| json!([{"name": "command", "type": 3, "value": v, "focused": true}]);
    let a = fake.autocomplete(ALICE, GAMES, "help", typing("C"));
    assert_eq!(
        choice_names(&fake.wait_callback(&a).await),
        [
            "cancel",
            "challenge",
            "choose",
            "claim",
            "clue",
            "conditional"
        ]
    );
    let a = fake.autocomplete(ALICE, GAMES, "help", typing(""));
    let all = choice_names(&fake.wait_callback(&a).await);
    assert_eq!(all, every[..every.len().min(25)]);
    let r = private_answer(
        &fake,
        ALICE,
        GAMES,
        "help",
        json!([{"name": "command", "type": 3, "value": "draw"}]),
        "help is ephemeral",
    )
    .await;
    let shown = r.json.to_string();
    assert!(shown.contains("/chess draw answer:"), "{shown}");

    let r = private_answer(&fake, BOB, GAMES, "hand", json!([]), "/hand is ephemeral").await;
    assert_says(&r, "no game");
    assert!(
        posts(&fake.requests(), GAMES).is_empty(),
        "nothing was posted in the channel"
    );
    all_accepted(&fake);
    bot.stop().await;
}
