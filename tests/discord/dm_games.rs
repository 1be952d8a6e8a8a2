//! A game made in private messages on Discord, end to end against the fake Discord: the
//! challenge reaches the challenged player by DM with Accept and Decline buttons, and the
//! game is played there by bare moves, each player getting every board in their DMs.

use crate::fake_discord;

use crate::common::booster::square_for;
use fake_discord::harness::*;
use fake_discord::Fake;
use postal::discord::{Bot, Config};
use postal::service::settings::Settings;

/// Starts the bot against the fake and waits until its commands are registered.
async fn start(fake: &Fake, db: &str) -> Bot {
    let cfg = Config {
        api_base: fake.base(),
        tick_seconds: 3600,
        ..Config::default()
    };
    let settings = Settings {
        database_url: db.to_string(),
        seed: Some(1),
        ..Settings::default()
    };
    let bot = Bot::start(settings, cfg, TOKEN).await.expect("bot starts");
    fake.wait_identified(1).await;
    fake.wait_for("command registration", |r| {
        r.iter()
            .any(|x| x.method == "PUT" && x.path.ends_with("/commands") && x.ok())
    })
    .await;
    bot
}

/// Alice challenges Bob in a DM; Bob gets the challenge by DM with its buttons and
/// accepts by button; both play to mate by bare moves in their DMs and each gets every
/// board. Nothing is posted in a server channel and no thread is opened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_made_in_a_dm_is_answered_and_played_in_dms() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("dm-game")).await;

    // An open challenge in private would reach nobody: refused.
    dm(&fake, ALICE, "challenge standard");
    wait_dm(&fake, ALICE, "an open challenge is made in a channel").await;

    dm(
        &fake,
        ALICE,
        &format!("challenge <@{}> standard colour:white", BOB.0),
    );
    let to_bob = wait_dm(&fake, BOB, "challenges").await;
    assert_eq!(
        button_ids(&to_bob.json),
        ["cmd:-:accept 1", "cmd:-:decline 1"],
        "{}",
        to_bob.json
    );
    let to_alice = wait_dm(&fake, ALICE, "challenges").await;
    assert!(button_ids(&to_alice.json).is_empty(), "{}", to_alice.json);

    // Bob presses Accept in his DM.
    let bob_dm = dm_channel_of(&fake.requests(), BOB.0).unwrap();
    let msg = fake_discord::message(
        &fake.id(),
        &bob_dm,
        (fake_discord::BOT_ID, "postal"),
        "buttons",
        false,
    );
    let press = fake.press_in_dm(BOB, &msg, "cmd:-:accept 1");
    assert_eq!(fake.wait_callback(&press).await.json["type"], 7);
    // Each player's board is drawn from their own side (issue 54): the two images differ.
    let mut boards = Vec::new();
    for who in [ALICE, BOB] {
        let start = wait_dm(&fake, who, "accepted").await;
        assert!(is_png(&start), "{} gets the first board", who.1);
        let png = start
            .files
            .iter()
            .find(|f| f.name.ends_with(".png"))
            .unwrap();
        boards.push(png.bytes.clone());
    }
    assert_ne!(
        boards[0], boards[1],
        "each player sees the board from their side"
    );

    // Fool's mate, every move typed bare in a DM.
    for (who, mv) in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4"), (BOB, "Qh4#")] {
        dm(&fake, who, mv);
        let played = format!("played {}", mv.trim_end_matches('#'));
        for to in [ALICE, BOB] {
            let m = wait_dm(&fake, to, &played).await;
            assert!(is_png(&m), "{} gets the board of {mv}", to.1);
        }
    }
    for who in [ALICE, BOB] {
        let end = wait_dm(&fake, who, "checkmate").await;
        assert!(end.content().unwrap().contains("0-1"));
    }
    // A move typed after the end is told the game is over.
    dm(&fake, ALICE, "e4");
    wait_dm(&fake, ALICE, "is over").await;

    assert!(fake.threads().is_empty(), "a game in private has no thread");
    let reqs = fake.requests();
    let dms = [
        dm_channel_of(&reqs, ALICE.0).unwrap(),
        dm_channel_of(&reqs, BOB.0).unwrap(),
    ];
    for r in reqs.iter().filter(|r| r.method == "POST" && r.ok()) {
        if let Some(c) = r
            .path
            .strip_prefix("/channels/")
            .and_then(|p| p.strip_suffix("/messages"))
        {
            assert!(
                dms.iter().any(|d| d == c),
                "posted outside the DMs: {}",
                r.path
            );
        }
    }
    bot.stop().await;
}

/// Booster Chess (issue 38): a player sends a whole turn, card included, to the bot by
/// DM for a game in a server's thread; the thread is told the turn, the card played face
/// up and nothing else of the hand, which never leaves the DMs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_booster_turn_with_its_card_is_sent_by_dm_for_a_game_in_a_thread() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("booster-dm-turn")).await;
    let thread = start_game(&fake, "booster").await;
    let hand = wait_dm(&fake, BOB, "your hand (6 cards)").await;
    let hand = hand.content().unwrap().to_string();
    let cards: Vec<String> = hand
        .split(": ")
        .last()
        .unwrap()
        .split(", ")
        .map(|c| c.split(' ').next().unwrap().to_string())
        .collect();
    // A move by DM for a game of a thread names its game (issue 54).
    dm(&fake, ALICE, "move 1 e4 done");
    wait_post(&fake, &thread, "plays e4").await;
    let card = &cards[0];
    dm(
        &fake,
        BOB,
        &format!("move 1 e5 card {card} on {}", square_for(card)),
    );
    let played = wait_post(&fake, &thread, &format!("plays {card}")).await;
    let text = played.content().unwrap().to_string();
    assert!(text.contains("plays e5; plays"), "{text}");
    for other in cards.iter().skip(1) {
        assert!(!text.contains(&format!(" {other} ")), "{other} in {text}");
    }
    let reqs = fake.requests();
    for r in reqs.iter().filter(|r| r.method == "POST" && r.ok()) {
        if r.path == format!("/channels/{thread}/messages") {
            let all = r.all_text();
            for other in cards.iter().skip(1) {
                assert!(
                    !all.contains(&format!("{other} (")),
                    "{other} in the thread"
                );
            }
        }
    }
    bot.stop().await;
}

/// Issue 54: alice plays #1 Chess960 in a thread with Carol and #2 Crazyhouse in DMs with
/// Dave. A bare move in her DM goes to #2 while #2 awaits her; once #2 awaits Dave, a
/// move that only #1 could take is not played there by a guess: her DM asks, with a
/// button naming the game and the move, and the press plays it in the thread and answers
/// in the DM with a link to the thread. A move that names its game is played, and
/// answered in the DM too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bare_move_in_a_dm_never_plays_a_channel_game_by_a_guess() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("dm-routing")).await;
    fake.say(
        ALICE,
        GAMES,
        &format!("!challenge <@{}> chess960 colour:white", CAROL.0),
    );
    wait_post(&fake, GAMES, "challenges").await;
    fake.say(CAROL, GAMES, "!accept");
    let thread = the_thread(&fake).await;
    wait_post(&fake, &thread, "accepted").await;
    dm(
        &fake,
        ALICE,
        &format!("challenge <@{}> crazyhouse colour:white", DAVE.0),
    );
    wait_dm(&fake, DAVE, "challenges").await;
    dm(&fake, DAVE, "accept 2");
    wait_dm(&fake, ALICE, "accepted").await;

    // Both games await alice: the bare move is the private game's.
    dm(&fake, ALICE, "e4");
    wait_dm(&fake, DAVE, "(White) played e4").await;
    assert!(!has_post(&fake.requests(), &thread, "played e4"));

    // #2 awaits Dave: `d4` fits #1 alone, which is played in a thread: asked, not played.
    dm(&fake, ALICE, "d4");
    let asked = wait_dm(&fake, ALICE, "is played in its channel").await;
    let press_id = button(Some(ALICE), "move 1 d4");
    assert_eq!(
        button_ids(&asked.json),
        std::slice::from_ref(&press_id),
        "{}",
        asked.json
    );
    assert!(
        asked
            .json
            .to_string()
            .contains("play d4 in #1 Chess960 vs carol"),
        "{}",
        asked.json
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!has_post(&fake.requests(), &thread, "played d4"));

    // Pressed in the DM: played in the thread, and the DM says so with the thread's link.
    let alice_dm = dm_channel_of(&fake.requests(), ALICE.0).unwrap();
    let msg = fake_discord::message(
        &fake.id(),
        &alice_dm,
        (fake_discord::BOT_ID, "postal"),
        "buttons",
        false,
    );
    let press = fake.press_in_dm(ALICE, &msg, &press_id);
    fake.wait_callback(&press).await;
    wait_post(&fake, &thread, "played d4").await;
    let link = format!(
        "https://discord.com/channels/{}/{thread}",
        fake_discord::GUILD_ID
    );
    let ack = wait_dm(&fake, ALICE, "`/chess move move:d4 game:1` done").await;
    assert!(ack.content().unwrap().contains(&link), "{}", ack.json);

    // Carol names the game by DM: played, and answered in her DM with the link.
    dm(&fake, CAROL, "move 1 d5");
    wait_post(&fake, &thread, "played d5").await;
    let ack = wait_dm(&fake, CAROL, "`/chess move move:d5 game:1` done").await;
    assert!(ack.content().unwrap().contains(&link), "{}", ack.json);
    all_accepted(&fake);
    bot.stop().await;
}
