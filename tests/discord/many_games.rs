//! End-to-end tests of a correspondence player with many games at once on Discord,
//! against the fake Discord (`tests/fake_discord`), with real-length user ids: the place
//! decides the game (a thread its game, a private message the one game awaiting the
//! command, or a "which game?" with a button per game that fits), only Postal's own
//! commands are answered, every answer is addressed to its player without pinging anyone
//! for their own action, challenges are edited once settled, used buttons are disabled,
//! a rematch gets a thread of its own, and a player's typed number is never a mention.

use crate::common;
use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded, BOT_ID};
use serde_json::{json, Value};
use std::time::Duration;

/// Two more players, with ids of Discord's length.
const ERIN: (&str, &str) = ("300000000000000005", "erin");
const FRANK: (&str, &str) = ("300000000000000006", "frank");

/// `challenger` challenges `others` in the games channel (`rest`: the variant and options)
/// and each of them accepts by text; returns the new game's thread.
async fn open_game(
    fake: &Fake,
    id: i64,
    challenger: (&str, &str),
    others: &[(&str, &str)],
    rest: &str,
) -> String {
    let named: Vec<String> = others.iter().map(|o| format!("<@{}>", o.0)).collect();
    fake.say(
        challenger,
        GAMES,
        &format!("!challenge {} {rest}", named.join(" ")),
    );
    wait_post(fake, GAMES, &format!("game #{id}: <@{}>", challenger.0)).await;
    for o in others {
        fake.say(*o, GAMES, &format!("!accept {id}"));
    }
    thread_of_game(fake, id).await
}

/// The messages the bot posted in `channel` after the first `from`.
fn posts_since<'a>(reqs: &'a [Recorded], channel: &str, from: usize) -> Vec<&'a Recorded> {
    posts(reqs, channel).into_iter().skip(from).collect()
}

/// The users a request's allowed mentions let it notify.
fn notified(r: &Recorded) -> Vec<String> {
    let body = match r.json.get("data") {
        Some(d) if r.path.contains("/callback") => d,
        _ => &r.json,
    };
    body["allowed_mentions"]["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u.as_str().map(str::to_string))
        .collect()
}

/// Every user id of `users` that a message the bot sent shows as a bare number rather
/// than a mention (`<@ID>`): the referee's text names users only through marks.
fn bare_user_ids(reqs: &[Recorded], users: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for r in reqs.iter().filter(|r| r.ok()) {
        let Some(text) = r.content() else { continue };
        for u in users {
            let bare = text.match_indices(u).any(|(i, _)| {
                let before = &text[..i];
                !(before.ends_with("<@") || before.ends_with("<@!") || before.ends_with("<#"))
            });
            if bare {
                found.push(format!("{u} in {}: {text}", r.path));
            }
        }
    }
    found
}

/// Alice plays five live games at once (two Split-Brain games with different partners, a
/// Booster game, a Secret Chesswords game and a standard game) and has a finished one:
/// each command goes to the game of the thread it is given in, secret slash commands
/// included; a private command goes to the one game awaiting it, or asks which with a
/// button per game that fits, and the button plays it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_place_decides_the_game_among_many() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("many-games"), config(&fake), 1).await;
    let sb1 = open_game(&fake, 1, ALICE, &[BOB, CAROL, DAVE], "split-brain").await;
    let sb2 = open_game(&fake, 2, ALICE, &[ERIN, FRANK, BOB], "split-brain").await;
    let booster = open_game(&fake, 3, ALICE, &[BOB], "booster colour:white").await;
    let words = open_game(&fake, 4, ALICE, &[CAROL], "chesswords colour:white").await;
    let standard = open_game(&fake, 5, ALICE, &[DAVE], "colour:white").await;
    let over = open_game(&fake, 6, ALICE, &[ERIN], "colour:white").await;
    both_move(&fake, &over, ALICE, ERIN).await;
    fake.say(ALICE, &over, "!resign");
    wait_post(&fake, &over, "game over").await;

    // Each private prompt names its game, its example carries the game's number, and
    // its few choices come as buttons for Alice alone.
    let prompt = wait_dm(&fake, ALICE, "game #2: your turn").await;
    let text = prompt.content().unwrap();
    assert!(text.contains("e.g. `/split-brain pick square:"), "{text}");
    assert!(text.contains(" game:2`"), "{text}");
    let ids = button_ids(&prompt.json);
    assert!(
        ids.contains(&button(Some(ALICE), "pick #2 e1")),
        "a button per piece that can move: {ids:?}"
    );

    // Both Split-Brain games await Alice's pick: a private `pick e1` asks which, with a
    // button for each of those two games and no other.
    let before = fake.requests().len();
    dm(&fake, ALICE, "pick e1");
    let ask = wait_dm(&fake, ALICE, "which game?").await;
    let offered = button_ids(&ask.json);
    assert_eq!(
        offered,
        [
            button(Some(ALICE), "pick 1 e1"),
            button(Some(ALICE), "pick 2 e1")
        ],
        "{}",
        ask.json
    );
    assert!(
        !ask.content().unwrap().contains("#3"),
        "Booster has no picks"
    );
    // Pressing #2's button plays the pick there and disables the question's buttons.
    let press = fake.press_in_dm(ALICE, &ask.response, &offered[1]);
    let r = fake.wait_callback(&press).await;
    assert_eq!(r.json["type"], 7, "the question is updated: {}", r.json);
    let rows = r.json["data"]["components"].to_string();
    assert!(
        rows.contains("\"disabled\":true") && !rows.contains("\"disabled\":false"),
        "{rows}"
    );
    wait_dm(&fake, ALICE, "game #2: you picked the knight on e1").await;
    // Now only game #1 awaits her pick: the same words play there, without a question.
    dm(&fake, ALICE, "pick e1");
    wait_dm(&fake, ALICE, "game #1: you picked the knight on e1").await;
    let reqs = fake.requests();
    let questions = reqs[before..]
        .iter()
        .filter(|r| r.content().is_some_and(|c| c.contains("which game?")))
        .count();
    assert_eq!(questions, 1, "asked once, where it had to");

    // In a game's thread the secret slash command is that game's, whatever the others.
    let r = private_answer(
        &fake,
        ERIN,
        &sb2,
        "pick",
        json!([{"name": "square", "type": 3, "value": "f3"}]),
        "a pick in a thread is private",
    )
    .await;
    assert!(
        !r.content().unwrap().contains("games here"),
        "the thread decides: {}",
        r.json
    );
    wait_post(&fake, &sb2, "revealed").await;
    // Bob's own pick in game #1's thread is game #1's, though game #2 is his too.
    let r = private_answer(
        &fake,
        BOB,
        &sb1,
        "pick",
        json!([{"name": "square", "type": 3, "value": "f3"}]),
        "a pick in a thread is private",
    )
    .await;
    assert!(!r.content().unwrap().contains("games here"), "{}", r.json);
    wait_post(&fake, &sb1, "revealed").await;

    // `/chess hand` in the Booster thread shows that game's hand.
    let r = private_answer(&fake, ALICE, &booster, "hand", json!([]), "a hand").await;
    assert_says(&r, "game #3:");
    // Booster: after her move Alice is still to play a card or end the turn, and the
    // message does not ping her for her own move.
    fake.say(ALICE, &booster, "e4");
    let moved = wait_post(&fake, &booster, "plays e4").await;
    assert!(
        !notified(&moved).contains(&ALICE.0.to_string()),
        "{}",
        moved.json
    );

    // Secret Chesswords: a clue of digits as long as a user id stays the clue.
    fake.say(CAROL, &words, "!clue 123456789012345678");
    let clue = wait_post(&fake, &words, "123456789012345678").await;
    let text = clue.content().unwrap();
    assert!(!text.contains("<@123456789012345678>"), "{text}");
    assert!(!notified(&clue).contains(&"123456789012345678".to_string()));

    // Standard: a refusal replies to the message it refuses, pinging nobody.
    fake.say(ALICE, &standard, "e4");
    wait_post(&fake, &standard, "played e4").await;
    let typed = fake.say(ALICE, &standard, "!move d4");
    let refusal = wait_post(&fake, &standard, "not your turn").await;
    assert_eq!(refusal.json["message_reference"]["message_id"], typed);
    assert_eq!(refusal.json["allowed_mentions"]["replied_user"], false);
    // A draw offer calls on the one who must answer it, not the one who made it.
    fake.say(DAVE, &standard, "!draw offer");
    let offer = wait_post(&fake, &standard, "proposes a draw").await;
    assert_eq!(notified(&offer), [ALICE.0.to_string()], "{}", offer.json);

    // The game option's suggestions: the live games, those awaiting Alice first (#3,
    // Booster, her card or the end of her turn) and those awaiting others after them
    // (#5, Dave's move), then the finished one (#6); a move's, the live ones alone.
    let suggested = |command: &'static str| {
        let a = fake.autocomplete(
            ALICE,
            GAMES,
            command,
            json!([{"name": "game", "type": 4, "value": "", "focused": true}]),
        );
        let fake = &fake;
        async move {
            let r = fake.wait_callback(&a).await;
            let ids: Vec<i64> = r.json["data"]["choices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["value"].as_i64().unwrap())
                .collect();
            ids
        }
    };
    let at = |ids: &[i64], id: i64| ids.iter().position(|&i| i == id).unwrap();
    let board = suggested("board").await;
    assert_eq!(board.len(), 6, "{board:?}");
    assert_eq!(board[5], 6, "{board:?}");
    assert!(at(&board, 3) < at(&board, 5), "{board:?}");
    let moves = suggested("move").await;
    assert_eq!(moves.len(), 5, "{moves:?}");
    assert!(at(&moves, 3) < at(&moves, 5), "{moves:?}");

    // The finished game's thread: a move there says which game is over.
    let r = private_answer(
        &fake,
        ALICE,
        &over,
        "move",
        json!([{"name": "move", "type": 3, "value": "e4"}]),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "game #6 is over");

    // Other bots' commands and chat get nothing; a mention of the bot gets a pointer.
    let n = posts(&fake.requests(), GAMES).len();
    fake.say(ALICE, GAMES, "!play never gonna give you up");
    fake.say(ALICE, GAMES, "!rank");
    fake.say(ALICE, GAMES, "good game everyone");
    let mention = fake.say(ALICE, GAMES, &format!("<@{BOT_ID}> what can you do?"));
    let pointer = wait_post(&fake, GAMES, "/postal help").await;
    assert_eq!(pointer.json["message_reference"]["message_id"], mention);
    assert_eq!(
        posts_since(&fake.requests(), GAMES, n).len(),
        1,
        "only the mention is answered"
    );

    // Each accepted challenge's message was edited: its buttons gone, its answer said.
    // The edits are delivered after the answers, so they are waited for (ten seconds at
    // most), then counted.
    let is_edit = |r: &Recorded| {
        r.method == "PATCH" && r.path.starts_with(&format!("/channels/{GAMES}/messages/"))
    };
    for _ in 0..200 {
        if fake.requests().iter().filter(|r| is_edit(r)).count() >= 6 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let reqs = fake.requests();
    let edits: Vec<&Recorded> = reqs.iter().filter(|r| is_edit(r)).collect();
    assert_eq!(edits.len(), 6, "one edit per challenge");
    for e in &edits {
        assert!(e.ok(), "{} {}", e.status, e.response);
        assert!(
            e.content().unwrap().contains("accepted by <@"),
            "{}",
            e.json
        );
        assert_eq!(e.json["components"], json!([]), "{}", e.json);
    }
    let users = [ALICE.0, BOB.0, CAROL.0, DAVE.0, ERIN.0, FRANK.0];
    assert_eq!(bare_user_ids(&reqs, &users), Vec::<String>::new());
    all_accepted(&fake);
    bot.stop().await;
}

/// A rematch asked for in a finished game's thread is challenged in the games channel,
/// where the first game's challenge was (issue 54), and played in a thread of its own,
/// named for it; the old thread points to the challenge, the channel to the new thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_gets_a_thread_of_its_own() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("rematch-thread"), config(&fake), 1).await;
    let first = open_game(&fake, 1, ALICE, &[BOB], "colour:white").await;
    both_move(&fake, &first, ALICE, BOB).await;
    fake.say(BOB, &first, "!resign");
    wait_post(&fake, &first, "game over").await;
    fake.say(BOB, &first, "!rematch");
    wait_post(&fake, GAMES, "game #2:").await;
    wait_post(&fake, &first, "the rematch, challenge #2").await;
    // Accepted by a press of the challenge's button.
    let press = fake.press(ALICE, &bot_message(&fake, GAMES), &button(None, "accept 2"));
    assert_eq!(fake.wait_callback(&press).await.json["type"], 7);
    let second = thread_of_game(&fake, 2).await;
    assert_ne!(second, first);
    assert_eq!(fake.threads()[&second].0, GAMES, "opened beside the first");
    wait_post(&fake, &second, "accepted").await;
    wait_post(&fake, GAMES, &format!("played in <#{second}>")).await;
    fake.say(BOB, &second, "e4");
    wait_post(&fake, &second, "played e4").await;
    all_accepted(&fake);
    bot.stop().await;
}

/// With the database locked by another writer, a typed command is answered ("try again
/// in a moment") instead of being left without a word, and works once it is free.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_database_is_answered() {
    use sqlx::Connection;
    let fake = Fake::start(TOKEN).await;
    let path = db("locked");
    let bot = start(&fake, &path, config(&fake), 1).await;
    let thread = open_game(&fake, 1, ALICE, &[BOB], "colour:white").await;
    let mut lock = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .unwrap();
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut lock)
        .await
        .unwrap();
    let typed = fake.say(ALICE, &thread, "!board");
    // The store waits out its busy timeout (10 s) before it gives up.
    let deadline = std::time::Instant::now() + Duration::from_secs(40);
    let sorry = loop {
        let reqs = fake.requests();
        let found = posts(&reqs, &thread)
            .into_iter()
            .find(|r| {
                r.content()
                    .is_some_and(|c| c.contains("try again in a moment"))
            })
            .cloned();
        match found {
            Some(r) => break r,
            None if std::time::Instant::now() > deadline => panic!("no answer while locked"),
            None => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    assert_eq!(sorry.json["message_reference"]["message_id"], typed);
    sqlx::query("ROLLBACK").execute(&mut lock).await.unwrap();
    let _ = lock.close().await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "played e4").await;
    tokio::time::sleep(Duration::from_millis(10)).await;
    all_accepted(&fake);
    bot.stop().await;
}

/// A challenge declined, withdrawn or expired is edited to say so; its buttons go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_settled_challenge_is_edited() {
    let fake = Fake::start(TOKEN).await;
    let db = db("settled");
    let bot = start(&fake, &db, config(&fake), 1).await;
    fake.say(ALICE, GAMES, &format!("!challenge <@{}>", BOB.0));
    let posted = wait_post(&fake, GAMES, "game #1:").await;
    let id = posted.response["id"].as_str().unwrap().to_string();
    // The post is recorded once Discord has answered it: an answer to the challenge
    // before then leaves the message as it is (docs/discord.md, "Challenges").
    let recorded = "SELECT CAST(COUNT(*) AS TEXT) FROM challenge_posts WHERE game_id = ";
    common::sql::wait_until(&db, &format!("{recorded}1"), "1").await;
    fake.say(BOB, GAMES, "!decline 1");
    let path = format!("/channels/{GAMES}/messages/{id}");
    let reqs = fake
        .wait_for("the challenge edited", |r| {
            r.iter().any(|x| x.method == "PATCH" && x.path == path)
        })
        .await;
    let edit: &Value = &reqs
        .iter()
        .find(|x| x.method == "PATCH" && x.path == path)
        .unwrap()
        .json;
    let text = edit["content"].as_str().unwrap();
    assert!(text.starts_with(posted.content().unwrap()), "{text}");
    assert!(
        text.contains(&format!("declined by <@{}>", BOB.0)),
        "{text}"
    );
    assert_eq!(edit["components"], json!([]));
    // Withdrawn by its challenger.
    fake.say(ALICE, GAMES, &format!("!challenge <@{}>", BOB.0));
    wait_post(&fake, GAMES, "game #2:").await;
    common::sql::wait_until(&db, &format!("{recorded}2"), "1").await;
    fake.say(ALICE, GAMES, "!cancel 2");
    fake.wait_for("the second challenge edited", |r| {
        r.iter()
            .any(|x| x.method == "PATCH" && x.content().is_some_and(|c| c.contains("cancelled by")))
    })
    .await;
    all_accepted(&fake);
    bot.stop().await;
}
