//! End-to-end tests of the variant games on Discord, against the fake Discord
//! (`tests/fake_discord`): a game for one (the toy variant), Gravity from a position,
//! Parade and Neighbour solitaire, Booster's private hands and Cloak and Dagger's secret
//! identities, each played to its end.

use crate::fake_discord;
use crate::toy;

use fake_discord::harness::*;
use fake_discord::{public_leaks, Fake};
use postal::variants::Registry;
use serde_json::json;
use std::collections::HashMap;

/// A variant is one module: Knight's Hop (`tests/toy`), a puzzle for one player declared
/// outside the crate and added to the registry, is offered by `/challenge`, gets its
/// `/hop` command from its declaration (with the squares the knight may reach suggested),
/// starts from its challenge alone in a thread of its own, and is played to its end
/// through the fake Discord, with its board as a PNG at every hop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_for_one_starts_from_its_challenge_in_a_thread_and_is_played_to_its_end() {
    assert_eq!(toy::fewest(toy::START, toy::GOAL), toy::FEWEST);
    let fake = Fake::start(TOKEN).await;
    let registry = Registry::builtin().with(&toy::KNIGHT_HOP);
    let bot = start_playing(&fake, &db("solitaire"), config(&fake), registry).await;
    let cmds = registered_commands(&fake);
    let variants = variants_suggested(&fake, "").await;
    assert!(
        variants.contains("\"Knight's Hop\"") && variants.contains("\"knight-hop\""),
        "{variants}"
    );
    let square = option_of(&cmds, "hop", "square");
    assert_eq!(square["required"], true);
    assert_eq!(square["autocomplete"], true);
    let hop = |to: &str| json!([{"name": "square", "type": 3, "value": to}]);

    // A game for one takes no opponent.
    let r = private_answer(
        &fake,
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOB.0},
               {"name": "variant", "type": 3, "value": "knight-hop"}]),
        "a refused challenge is private",
    )
    .await;
    assert_says(&r, "is played alone");
    assert!(fake.threads().is_empty());

    // The challenge alone starts it: the answer points to its thread, where it starts.
    let c = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "variant", "type": 3, "value": "knight-hop"}]),
    );
    let pointer = fake.wait_callback(&c).await;
    assert_eq!(pointer.flags() & 64, 0, "public: {}", pointer.json);
    let thread = the_thread(&fake).await;
    assert_says(&pointer, &format!("played in <#{thread}>"));
    assert_eq!(
        fake.threads()[&thread],
        (GAMES.to_string(), "game #1 knight-hop: alice".to_string())
    );
    let start = wait_post(&fake, &thread, "plays Knight's Hop").await;
    assert!(is_png(&start), "the board comes with the start");
    assert_says(
        &start,
        &format!("<@{}> (Knight) to hop (the knight is on a1)", ALICE.0),
    );
    assert!(button_ids(&start.json).is_empty(), "no one to accept");

    // The squares the knight reaches, suggested as she types.
    let typing = |v: &str| json!([{"name": "square", "type": 3, "value": v, "focused": true}]);
    let a = fake.autocomplete(ALICE, &thread, "hop", typing(""));
    assert_eq!(choice_names(&fake.wait_callback(&a).await), ["b3", "c2"]);
    let a = fake.autocomplete(BOB, &thread, "hop", typing(""));
    assert!(
        choice_names(&fake.wait_callback(&a).await).is_empty(),
        "not Bob's game"
    );

    // A square the knight cannot reach is refused privately; Bob cannot play.
    let r = private_answer(
        &fake,
        ALICE,
        &thread,
        "hop",
        hop("c3"),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "cannot reach c3; it may hop to b3, c2");
    let r = private_answer(&fake, BOB, &thread, "hop", hop("b3"), "not his game").await;
    assert_says(&r, "no game here");

    // Six hops to h8, by slash command and by text, each with the new board.
    let mut boards: Vec<Vec<u8>> = vec![start.files[0].bytes.clone()];
    for (i, to) in ["b3", "c5", "d7", "f8", "g6", "h8"].into_iter().enumerate() {
        let m = if i % 2 == 0 {
            let r = slash_reply(&fake, ALICE, &thread, "hop", hop(to)).await;
            assert_eq!(r.flags() & 64, 0, "a hop is public: {}", r.json);
            assert_says(&r, &format!("hops to {to}"));
            r
        } else {
            fake.say(ALICE, &thread, &format!("!hop {to}"));
            wait_post(&fake, &thread, &format!("hops to {to}")).await
        };
        assert!(is_png(&m), "the board comes with the hop to {to}");
        assert!(!boards.contains(&m.files[0].bytes), "the board changed");
        boards.push(m.files[0].bytes.clone());
    }
    let end = wait_post(&fake, &thread, "game over").await;
    let text = end.content().unwrap();
    assert!(
        text.contains("arriving in 6 hops (the fewest is 6)")
            && text.contains("game over: won by arrival, 6 points"),
        "{text}"
    );
    fake.say(ALICE, &thread, "!hop 1 g6");
    wait_post(&fake, &thread, "game #1 is finished").await;
    fake.say(ALICE, &thread, "!moves");
    wait_post(&fake, &thread, "1. b3 2. c5 3. d7 4. f8 5. g6 6. h8").await;
    assert_eq!(fake.threads().len(), 1, "one thread");
    all_accepted(&fake);
    bot.stop().await;
}

/// A short Gravity Chess game from a `fen:` position, played to its score on Discord:
/// White flips and adds by button, Black moves a bare move in the thread and adds by
/// button, White's last turn ends the game; refusals are answered, every turn's message
/// carries the board, and `/move` suggests the moves gravity allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gravity_game_from_a_position_is_played_to_its_score() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("gravity"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    let variants = variants_suggested(&fake, "").await;
    assert!(variants.contains("\"Gravity Chess\""), "{variants}");
    let column = option_of(&cmds, "add", "column");
    assert_eq!(column["choices"].as_array().map(Vec::len), Some(8));
    assert!(option_of(&cmds, "stay", "square")["required"] == true);

    // White's queen is stacked on d1, Black's pawn over it on d2; each side has one
    // knight still to add.
    let thread = start_game(&fake, r#"gravity fen:"8/8/8/8/8/8/3p4/3Q4[Nn] w""#).await;
    let first = wait_post(&fake, &thread, "to add the black knight on rank 8").await;
    assert!(is_png(&first), "the board comes with the start");
    let add_g = button(Some(ALICE), "add #1 g");
    assert!(button_ids(&first.json).contains(&add_g), "{}", first.json);

    // Bob cannot add for her; she adds by button.
    let r = private_answer(
        &fake,
        BOB,
        &thread,
        "add",
        json!([{"name": "column", "type": 3, "value": "a"}]),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "it is not your turn");
    let p = fake.press(ALICE, &bot_message(&fake, &thread), &add_g);
    fake.wait_callback(&p).await;
    let flipped = wait_post(&fake, &thread, "adds the black knight on g8").await;
    assert_says(&flipped, "flips the 8 of hearts (white knight)");
    assert_says(&flipped, "to move all active pieces (1 left)");
    assert!(is_png(&flipped));

    // Black's knight must fall: /move suggests its moves, an upward one is refused.
    let typing = json!([{"name": "move", "type": 3, "value": "", "focused": true}]);
    let a = fake.autocomplete(BOB, &thread, "move", typing);
    let suggested = choice_names(&fake.wait_callback(&a).await);
    assert_eq!(suggested, ["Ne7", "Nf6", "Nh6"], "{suggested:?}");
    let r = private_answer(
        &fake,
        ALICE,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "Nf6"}]),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "not your turn");
    fake.say(BOB, &thread, "!add a");
    wait_post(&fake, &thread, "first move all your active pieces").await;
    let moved = slash_reply(
        &fake,
        BOB,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "Nf6"}]),
    )
    .await;
    assert_eq!(moved.flags() & 64, 0, "a move is public: {}", moved.json);
    assert_says(&moved, "plays Nf6");
    assert!(is_png(&moved));
    assert_says(&moved, "to add the white knight on rank 8");
    let add_b = button(Some(BOB), "add #1 b");
    assert!(
        button_ids(&moved.json["data"]).contains(&add_b),
        "{}",
        moved.json
    );
    let p = fake.press(BOB, &bot_message(&fake, &thread), &add_b);
    fake.wait_callback(&p).await;
    let last = wait_post(&fake, &thread, "has the last turn").await;
    assert_says(&last, "for the last turn (1 left)");

    // White's last turn: the knight falls, and the game is scored.
    fake.say(ALICE, &thread, "!stay b8");
    wait_post(&fake, &thread, "the knight on b8 can move").await;
    fake.say(ALICE, &thread, "Nc6");
    let end = wait_post(&fake, &thread, "game over").await;
    let text = end.content().unwrap();
    assert!(
        text.contains("final score: White 11") && text.contains("(Black) 12; 0-1 by score"),
        "{text}"
    );
    assert!(is_png(&end), "the final board");
    fake.say(ALICE, &thread, "!moves");
    wait_post(
        &fake,
        &thread,
        "12. bN: N@g8 12... wN: Nf6 N@b8 13. last: Nc6",
    )
    .await;
    all_accepted(&fake);
    bot.stop().await;
}

/// Parade Chess Solitaire on Discord: started by one user's `/challenge`, alone, in a
/// thread of its own; `/move` (the chess command's slash, its moves suggested as typed)
/// and `/add` are the solitaire's; a refusal is private and says why; the board comes as
/// a PNG with every action, and the game ends with its score. Game #1 deals the cards of
/// `tests/transcripts/parade-win.txt` (the same seed), so the same four moves win.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parade_solitaire_is_played_to_its_end_in_its_thread() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("parade"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    let variants = variants_suggested(&fake, "").await;
    assert!(
        variants.contains("\"Parade Chess Solitaire\""),
        "{variants}"
    );
    assert!(
        cmds.iter().any(|c| c["name"] == "add"),
        "/add is registered"
    );
    let mv = |m: &str| json!([{"name": "move", "type": 3, "value": m}]);

    let c = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "variant", "type": 3, "value": "parade"}]),
    );
    fake.wait_callback(&c).await;
    let thread = the_thread(&fake).await;
    let start = wait_post(&fake, &thread, "plays Parade Chess Solitaire").await;
    assert!(is_png(&start), "the board comes with the start");
    assert_says(&start, "to move a piece or add one (8 cards in hand)");
    assert_eq!(
        button_ids(&start.json),
        [button(Some(ALICE), "add #1")],
        "an Add button for Alice"
    );

    // The moves are suggested as she types; a refusal says why, privately.
    let typing = |v: &str| json!([{"name": "move", "type": 3, "value": v, "focused": true}]);
    let a = fake.autocomplete(ALICE, &thread, "move", typing("e2 a2"));
    let suggested = choice_names(&fake.wait_callback(&a).await);
    assert!(suggested.contains(&"e2 a2 c2".to_string()), "{suggested:?}");
    let r = private_answer(&fake, ALICE, &thread, "move", mv("e2 g2 h2"), "refused").await;
    assert_says(
        &r,
        "are both black: a piece moves only pieces of the other colour",
    );
    let r = private_answer(&fake, BOB, &thread, "move", mv("e2 a2 c2"), "not his").await;
    assert_says(&r, "no game here");

    let mut boards: Vec<Vec<u8>> = vec![start.files[0].bytes.clone()];
    for (i, (m, told)) in [
        (
            "e2 a2 c2",
            "the black rook on e2 move the white bishop from a2 to c2",
        ),
        (
            "Rc3: f3-e3",
            "the white rook on c3 move the black bishop from f3 to e3",
        ),
        (
            "c2 a4 d3",
            "the white bishop on c2 move the black bishop from a4 to d3",
        ),
        (
            "Re2: c2-f2",
            "the black rook on e2 move the white bishop from c2 to f2",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let said = if i % 2 == 0 {
            let r = slash_reply(&fake, ALICE, &thread, "move", mv(m)).await;
            assert_eq!(r.flags() & 64, 0, "a move is public: {}", r.json);
            r
        } else {
            // Typed bare, as the record writes it.
            fake.say(ALICE, &thread, &format!("!{m}"));
            wait_post(&fake, &thread, told).await
        };
        assert_says(&said, told);
        assert!(is_png(&said), "the board comes with {m}");
        assert!(!boards.contains(&said.files[0].bytes), "the board changed");
        boards.push(said.files[0].bytes.clone());
    }
    let end = wait_post(&fake, &thread, "game over").await;
    assert_says(&end, "game over: won by connecting the group, 4 points");
    fake.say(ALICE, &thread, "!moves");
    wait_post(
        &fake,
        &thread,
        "1. re2: a2-c2 2. Rc3: f3-e3 3. Bc2: a4-d3 4. re2: c2-f2",
    )
    .await;
    all_accepted(&fake);
    bot.stop().await;
}

/// Neighbour Chess Solitaire on Discord, by its other name `neighbor`: the Add and the
/// place buttons answer its prompts, `/add`, `/place`, `/stop` and `/move` its commands,
/// refusals are private, the board comes with every action, and no card is ever shown
/// before it is turned (game #1 deals the cards of `tests/transcripts/neighbour-win.txt`,
/// whose moves win here too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_neighbour_solitaire_is_played_to_its_end_with_buttons_and_slash_commands() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("neighbour"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    for name in ["add", "place", "stop"] {
        assert!(
            cmds.iter().any(|c| c["name"] == name),
            "/{name} is registered"
        );
    }
    fake.say(ALICE, GAMES, "!challenge neighbor");
    let thread = the_thread(&fake).await;
    let start = wait_post(&fake, &thread, "plays Neighbour Chess Solitaire").await;
    assert!(is_png(&start));
    assert_says(
        &start,
        "to add a piece (16 piece cards, 20 position cards left)",
    );
    let add = button(Some(ALICE), "add #1");
    assert_eq!(button_ids(&start.json), std::slice::from_ref(&add));

    // The Add button, /add and a typed add.
    fake.press(ALICE, &bot_message(&fake, &thread), &add);
    wait_post(&fake, &thread, "turns up Q♠ and 5♦").await;
    let r = slash_reply(&fake, ALICE, &thread, "add", json!([])).await;
    assert_says(&r, "turns up 9♥ and 2♥");
    assert!(is_png(&r));
    let r = slash_reply(&fake, ALICE, &thread, "add", json!([])).await;
    assert_says(&r, "turns up 10♠ and 3♦");
    fake.say(ALICE, &thread, "!add");
    let taken = wait_post(&fake, &thread, "which is taken").await;
    assert_says(
        &taken,
        "to place the black knight on a free square nearest to f1",
    );
    let place = |sq: &str| button(Some(ALICE), &format!("place #1 {sq}"));
    assert_eq!(
        button_ids(&taken.json),
        ["e1", "g1", "e2", "f2", "g2"].map(place)
    );
    let r = private_answer(
        &fake,
        ALICE,
        &thread,
        "place",
        json!([{"name": "square", "type": 3, "value": "h8"}]),
        "a refused place is private",
    )
    .await;
    assert_says(&r, "h8 is not among the free squares nearest to f1");
    fake.press(ALICE, &bot_message(&fake, &thread), &place("e1"));
    wait_post(&fake, &thread, "places the black knight on e1").await;
    let r = slash_reply(&fake, ALICE, &thread, "stop", json!([])).await;
    assert_says(&r, "stops adding pieces");

    let mv = |m: &str| json!([{"name": "move", "type": 3, "value": m}]);
    let r = private_answer(&fake, ALICE, &thread, "move", mv("f1 d3"), "refused").await;
    assert_says(&r, "no black neighbour lends the queen on f1 a move to d3");
    let mut boards = vec![start.files[0].bytes.clone()];
    for (i, (m, told)) in [
        (
            "f1 d2",
            "moves the black queen f1-d2 with the move of the black knight on e1",
        ),
        (
            "Rc1-d1",
            "moves the black rook c1-d1 with the move of the black queen on d2",
        ),
        (
            "d2 g2 with d1",
            "moves the black queen d2-g2 with the move of the black rook on d1",
        ),
        (
            "Rd1-f2",
            "moves the black rook d1-f2 with the move of the black knight on e1",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let said = if i % 2 == 0 {
            slash_reply(&fake, ALICE, &thread, "move", mv(m)).await
        } else {
            fake.say(ALICE, &thread, &format!("!{m}"));
            wait_post(&fake, &thread, told).await
        };
        assert_says(&said, told);
        assert!(is_png(&said), "the board comes with {m}");
        assert!(!boards.contains(&said.files[0].bytes), "the board changed");
        boards.push(said.files[0].bytes.clone());
    }
    let end = wait_post(&fake, &thread, "game over").await;
    assert_says(&end, "game over: won by connecting the group, 24 points");

    // No card was shown before it was turned: the twelve piece cards and twelve
    // position cards never turned appear nowhere, but in the finished game's record
    // (its `Deal` tag, issue 38), posted once the attempt is over.
    let turned = ["Q♠", "9♥", "10♠", "8♠", "5♦", "2♥", "3♦", "3♥"];
    let deck = postal::variants::solitaire::piece_deck()
        .into_iter()
        .chain(postal::variants::solitaire::position_deck());
    let reqs = fake.requests();
    let over_at = reqs
        .iter()
        .position(|r| r.all_text().contains("game over"))
        .expect("the end is posted");
    let reqs = &reqs[..over_at];
    for card in deck.map(|c| c.to_string()) {
        if !turned.contains(&card.as_str()) {
            let leaks = public_leaks(reqs, &HashMap::new(), &card);
            assert!(leaks.is_empty(), "{card} was shown: {:?}", leaks[0].json);
            assert!(
                !reqs.iter().any(|r| r.all_text().contains(&card)),
                "{card} was shown privately"
            );
        }
    }
    all_accepted(&fake);
    bot.stop().await;
}

/// A short Booster Chess game on Discord from a position: each player's hand arrives by
/// DM at the start and again on `/hand`, privately; White moves her boosted king with a
/// bare move in the thread, takes a booster step with `!boost`, is refused a card she
/// does not hold, and ends the turn with the Done button: the king's reach mates. The
/// stacks are on the public board, the hands never reach the thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_booster_game_keeps_the_hands_private_and_ends_in_a_booster_mate() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("booster"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    let variants = variants_suggested(&fake, "").await;
    assert!(variants.contains("\"Booster Chess\""), "{variants}");
    assert!(option_of(&cmds, "boost", "squares")["required"] == true);

    // White's king stands on two white checkers; Black's bare king is in the corner.
    let thread = start_game(&fake, r#"booster fen:"7k/8/8/8/4K3/8/8/8 w - - 0 1 e4:w2""#).await;
    let first = wait_post(&fake, &thread, "accepted").await;
    assert!(is_png(&first), "the board comes with the start");
    let alice_hand = wait_dm(&fake, ALICE, "your hand (6 cards)").await;
    wait_dm(&fake, BOB, "your hand (6 cards)").await;
    let r = private_answer(&fake, BOB, &thread, "hand", json!([]), "a hand is private").await;
    assert_says(&r, "your hand (6 cards)");

    // A move out of turn is refused privately; White's bare move waits for her steps.
    let r = private_answer(
        &fake,
        BOB,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "Kg8"}]),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "not your turn");
    fake.say(ALICE, &thread, "Kf5");
    let moved = wait_post(&fake, &thread, "plays Kf5").await;
    assert!(is_png(&moved));
    assert_says(&moved, "still to choose: `/booster boost squares:SQUARE`");
    fake.say(ALICE, &thread, "!boost f6");
    let stepped = wait_post(&fake, &thread, "boosts the king to f6").await;
    assert_says(&stepped, "1 white checker on f6: boosted");
    // A card she does not hold (no card of the deck is the 7 of hearts) is refused.
    fake.say(ALICE, &thread, "!card 7h on f6");
    wait_post(
        &fake,
        &thread,
        "play a card as `/chess add card:SQUARE with CARD`",
    )
    .await;
    // A real card she does not hold: the thread reads only that it was refused, as for
    // any card refusal, and the reason reaches her alone, by DM.
    let held = alice_hand.content().unwrap().to_string();
    let missing = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Q", "K"]
        .iter()
        .flat_map(|v| ["h", "d", "s", "c"].map(|s| format!("{v}{s}")))
        .find(|c| !held.contains(&format!(" {c} ")) && !held.contains(&format!(": {c} ")))
        .expect("a card not held");
    fake.say(ALICE, &thread, &format!("!card {missing} on f6"));
    wait_post(&fake, &thread, postal::service::referee::PRIVATE_REFUSAL).await;
    wait_dm(&fake, ALICE, "you do not hold that card").await;
    let done = button(Some(ALICE), "done #1");
    assert!(button_ids(&moved.json).contains(&done), "{}", moved.json);
    let p = fake.press(ALICE, &bot_message(&fake, &thread), &done);
    fake.wait_callback(&p).await;
    let end = wait_post(&fake, &thread, "wins by checkmate (1-0)").await;
    assert!(is_png(&end), "the final board");
    fake.say(ALICE, &thread, "!moves");
    wait_post(&fake, &thread, "1. Kf5 boost f6#").await;

    // Nothing private reached the thread: not the hands, not the private answers.
    let reqs = fake.requests();
    let dms = fake.dm_channels();
    private_stays_private(&reqs, &dms, 3);
    let hand = alice_hand.content().unwrap().to_string();
    let cards: Vec<&str> = hand.split(": ").last().unwrap().split(", ").collect();
    assert_eq!(cards.len(), 6, "{hand}");
    for c in cards {
        assert!(public_leaks(&reqs, &dms, c).is_empty(), "{c} is public");
    }
    all_accepted(&fake);
    bot.stop().await;
}

/// Cloak and Dagger Chess on Discord: both players set up their back ranks by private
/// message (a set-up typed in the thread is refused privately and not repeated); the
/// public board shows numbered checkers and a player's private board their own pieces;
/// `/move` suggests the player's own moves in SAN; a right guess with its bonus move, an
/// uncloak and a capture are announced in the thread; no set-up reaches a public message;
/// after the resignation the full record, every identity included, is public.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cloak_and_dagger_game_is_set_up_by_dm_and_keeps_identities_secret() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("cloak"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    let roles = option_of(&cmds, "guess", "role")["choices"].to_string();
    assert!(
        roles.contains("knight") && roles.contains("king"),
        "{roles}"
    );
    assert_eq!(
        option_of(&cmds, "uncloak", "checker")["choices"]
            .as_array()
            .map(Vec::len),
        Some(8)
    );

    let thread = start_game(&fake, "cloak").await;
    wait_post(&fake, &thread, "to set up the back rank").await;
    let posted = posts(&fake.requests(), &thread).len();
    fake.say(BOB, &thread, "!setup NRKRBBQN");
    wait_dm(&fake, BOB, "is secret: send it to me").await;
    dm(&fake, ALICE, "setup RNBQKBNR");
    wait_dm(&fake, ALICE, "your back rank: a1 rook (1), b1 knight (2)").await;
    dm(&fake, BOB, "setup NRKRBBQN");
    wait_dm(&fake, BOB, "your back rank: a8 knight (1), b8 rook (2)").await;
    let begun = wait_post(&fake, &thread, "play begins").await;
    assert!(is_png(&begun), "the board comes with the start");
    assert!(
        posts(&fake.requests(), &thread)[posted..]
            .iter()
            .all(|r| !r.content().unwrap_or("").contains("NRKRBBQN")),
        "the refused set-up is not repeated in the thread"
    );

    // The public board and alice's own differ: hers shows her pieces.
    let public = public_board(&fake, &thread, BOB).await;
    dm(&fake, ALICE, "board");
    let own = wait_dm(&fake, ALICE, "White to move (may guess or uncloak first)").await;
    assert!(is_png(&own));
    assert_ne!(
        own.files[0].bytes, public,
        "a private board shows her pieces"
    );
    let typing = json!([{"name": "move", "type": 3, "value": "N", "focused": true}]);
    let a = fake.autocomplete(ALICE, &thread, "move", typing);
    let suggested = choice_names(&fake.wait_callback(&a).await);
    assert!(suggested.contains(&"Nc3".to_string()), "{suggested:?}");

    // A right guess, the move by a hidden checker and the bonus pawn move.
    fake.say(ALICE, &thread, "!guess knight 1");
    wait_post(&fake, &thread, "checker 1 is a knight: right").await;
    fake.say(ALICE, &thread, "Nc3");
    wait_post(&fake, &thread, "plays 2:b1-c3").await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "plays the bonus move e2-e4").await;
    // Bob uncloaks his queen at the end of his turn.
    fake.say(BOB, &thread, "!uncloak 7");
    wait_post(&fake, &thread, "will uncloak checker 7").await;
    fake.say(BOB, &thread, "d5");
    wait_post(&fake, &thread, "uncloaks 7 (the queen on g8)").await;
    // A capture announces the captured checker.
    fake.say(ALICE, &thread, "Nxd5");
    wait_post(&fake, &thread, "plays 2:c3xd5").await;
    fake.say(BOB, &thread, "d8d5");
    let taken = wait_post(&fake, &thread, "checker 2 was the knight").await;
    assert!(is_png(&taken));
    fake.say(ALICE, &thread, "!moves");
    wait_post(
        &fake,
        &thread,
        "1. {?1=N yes} Nb1-c3 +e2-e4 1... d7-d5 {uncloaks 7} 2. Nc3xd5 2... 4:d8xd5{2=N}",
    )
    .await;
    let reqs = fake.requests();
    for secret in ["NRKRBBQN", "a8 knight", "b8 rook", "Rd8"] {
        let leaks = public_leaks(&reqs, &fake.dm_channels(), secret);
        assert!(leaks.is_empty(), "{secret} in public: {leaks:?}");
    }

    // Over: the full record, with every identity.
    fake.say(BOB, &thread, "!resign");
    wait_post(&fake, &thread, "game over").await;
    fake.say(ALICE, &thread, "!pgn");
    wait_file(&fake, &thread, "Black: 1=N 2=R 3=K 4=R 5=B 6=B 7=Q 8=N").await;
    wait_file(&fake, &thread, "Rd8xd5{2=N}").await;
    all_accepted(&fake);
    bot.stop().await;
}

/// King of the Hill on Discord: offered by `/challenge`, played from its start with
/// typed moves and `/move`, through a restart of the bot on the same database, to the
/// white king's step onto d4, which ends the game with the board image and the result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_king_of_the_hill_game_is_won_on_the_hill_across_a_restart() {
    let fake = Fake::start(TOKEN).await;
    let path = db("koth");
    let bot = start(&fake, &path, config(&fake), 1).await;
    let variants = variants_suggested(&fake, "").await;
    assert!(variants.contains("\"King of the Hill\""), "{variants}");

    let thread = start_game(&fake, "king-of-the-hill").await;
    assert!(is_png(&wait_post(&fake, &thread, "accepted").await));
    fake.say(ALICE, &thread, "e3");
    wait_post(&fake, &thread, "played e3").await;
    fake.say(BOB, &thread, "e6");
    wait_post(&fake, &thread, "played e6").await;
    let r = slash_reply(
        &fake,
        ALICE,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "Ke2"}]),
    )
    .await;
    assert!(r.ok(), "{}", r.json);
    // The move's announcement answers the interaction (its response or a follow-up).
    fake.wait_for("the announcement of Ke2", |reqs| {
        reqs.iter().any(|x| {
            (x.path.starts_with("/webhooks/") || x.path.starts_with("/interactions/"))
                && x.content().is_some_and(|c| c.contains("played Ke2"))
        })
    })
    .await;

    bot.stop().await;
    let bot = start(&fake, &path, config(&fake), 2).await;
    fake.say(BOB, &thread, "Ke7");
    wait_post(&fake, &thread, "played Ke7").await;
    fake.say(ALICE, &thread, "Kd3");
    wait_post(&fake, &thread, "played Kd3").await;
    fake.say(BOB, &thread, "Kd6");
    wait_post(&fake, &thread, "played Kd6").await;
    fake.say(ALICE, &thread, "Kd4");
    let end = wait_post(
        &fake,
        &thread,
        "wins by bringing the king to the goal squares",
    )
    .await;
    assert!(is_png(&end), "the final board");
    assert_says(&end, "(1-0)");
    fake.say(BOB, &thread, "!moves");
    wait_post(&fake, &thread, "1. e3 e6 2. Ke2 Ke7 3. Kd3 Kd6 4. Kd4").await;
    all_accepted(&fake);
    bot.stop().await;
}
