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
    for who in [ALICE, BOB] {
        let start = wait_dm(&fake, who, "accepted").await;
        assert!(is_png(&start), "{} gets the first board", who.1);
    }

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
    dm(&fake, ALICE, "e4 done");
    wait_post(&fake, &thread, "plays e4").await;
    let card = &cards[0];
    dm(
        &fake,
        BOB,
        &format!("e5 card {card} on {}", square_for(card)),
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
