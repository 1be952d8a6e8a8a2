//! Crazyhouse on Discord, end to end against the fake Discord: offered by `/challenge`,
//! a capture that fills Black's pocket, a restart of the bot on the same database with
//! the pocket kept, and the bishop dropped with `/move` for mate.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::Fake;
use serde_json::json;

/// Crazyhouse on Discord: played from its start with typed moves; Black's bishop takes
/// White's and goes to Black's pocket; the bot restarts; the game goes on from the stored
/// game with the bishop still in hand, and its drop on h4 by `/move` mates, ending the
/// game with the board image and the result; the PGN names the variant and the drop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crazyhouse_game_is_won_by_a_drop_across_a_restart() {
    let fake = Fake::start(TOKEN).await;
    let path = db("crazyhouse");
    let bot = start(&fake, &path, config(&fake), 1).await;
    let variants = variants_suggested(&fake, "").await;
    assert!(variants.contains("\"Crazyhouse\""), "{variants}");

    let thread = start_game(&fake, "crazyhouse").await;
    assert!(is_png(&wait_post(&fake, &thread, "accepted").await));
    for (user, typed) in [(ALICE, "g3"), (BOB, "d5"), (ALICE, "Bh3"), (BOB, "Bxh3")] {
        fake.say(user, &thread, typed);
        let played = wait_post(&fake, &thread, &format!("played {typed}")).await;
        assert!(is_png(&played), "the board after {typed}");
    }

    bot.stop().await;
    let bot = start(&fake, &path, config(&fake), 2).await;
    for (user, typed) in [(ALICE, "g4"), (BOB, "e5"), (ALICE, "f3")] {
        fake.say(user, &thread, typed);
        wait_post(&fake, &thread, &format!("played {typed}")).await;
    }
    // The bishop taken before the restart is still in Black's pocket.
    let r = slash_reply(
        &fake,
        BOB,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "B@h4"}]),
    )
    .await;
    assert!(r.ok(), "{}", r.json);
    // The drop's announcement answers the interaction (its response or a follow-up),
    // with the final board and the result.
    let mates = |x: &fake_discord::Recorded| {
        x.content()
            .is_some_and(|c| c.contains("played B@h4#") && c.contains("(0-1)"))
    };
    let reqs = fake
        .wait_for("the mate by B@h4", |reqs| reqs.iter().any(mates))
        .await;
    let end = reqs.iter().find(|x| mates(x)).unwrap();
    assert!(is_png(end), "the final board");
    fake.say(ALICE, &thread, "!moves");
    wait_post(&fake, &thread, "1. g3 d5 2. Bh3 Bxh3 3. g4 e5 4. f3 B@h4#").await;
    fake.say(ALICE, &thread, "!pgn");
    wait_file(&fake, &thread, "[Variant \"Crazyhouse\"]").await;
    wait_file(&fake, &thread, "4. f3 B@h4# 0-1").await;
    all_accepted(&fake);
    bot.stop().await;
}
