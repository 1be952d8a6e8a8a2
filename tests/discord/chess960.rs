//! Chess960 on Discord, against the fake Discord: a game from a numbered start, across a
//! restart of the bot, to checkmate.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::Fake;
use serde_json::json;

/// Chess960 on Discord: offered by `/challenge`, challenged from position 2
/// (`start:2`, shown with the game), played with typed moves and `/move`, Black castling
/// king onto rook and White with `O-O` (neither king moves), through a restart of the
/// bot on the same database, to White's mate on h7; the PGN names the variant and its
/// start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess960_game_from_a_numbered_start_is_mated_across_a_restart() {
    let fake = Fake::start(TOKEN).await;
    let path = db("chess960");
    let bot = start(&fake, &path, config(&fake), 1).await;
    let variants = variants_suggested(&fake, "").await;
    assert!(variants.contains("\"Chess960\""), "{variants}");

    let thread = start_game(&fake, "chess960 start:2").await;
    assert!(is_png(&wait_post(&fake, &thread, "accepted").await));
    fake.say(ALICE, &thread, "!board");
    wait_post(&fake, &thread, "Chess960 position 2").await;
    for (who, typed, said) in [
        (ALICE, "c3", "played c3"),
        (BOB, "e6", "played e6"),
        (ALICE, "e3", "played e3"),
        (BOB, "Be7", "played Be7"),
    ] {
        fake.say(who, &thread, typed);
        wait_post(&fake, &thread, said).await;
    }
    let r = slash_reply(
        &fake,
        ALICE,
        &thread,
        "move",
        json!([{"name": "move", "type": 3, "value": "Qe4"}]),
    )
    .await;
    assert!(r.ok(), "{}", r.json);
    fake.wait_for("the announcement of Qe4", |reqs| {
        reqs.iter().any(|x| {
            (x.path.starts_with("/webhooks/") || x.path.starts_with("/interactions/"))
                && x.content().is_some_and(|c| c.contains("played Qe4"))
        })
    })
    .await;
    // King takes rook: Black castles, the king staying on g8.
    fake.say(BOB, &thread, "g8h8");
    wait_post(&fake, &thread, "(Black) played O-O").await;

    bot.stop().await;
    let bot = start(&fake, &path, config(&fake), 2).await;
    fake.say(ALICE, &thread, "Bd3");
    wait_post(&fake, &thread, "played Bd3").await;
    fake.say(BOB, &thread, "a6");
    wait_post(&fake, &thread, "played a6").await;
    fake.say(ALICE, &thread, "O-O");
    wait_post(&fake, &thread, "(White) played O-O").await;
    fake.say(BOB, &thread, "a5");
    wait_post(&fake, &thread, "played a5").await;
    fake.say(ALICE, &thread, "Qxh7");
    let end = wait_post(&fake, &thread, "checkmate").await;
    assert!(is_png(&end), "the final board");
    assert_says(&end, "(1-0)");
    fake.say(BOB, &thread, "!moves");
    wait_post(
        &fake,
        &thread,
        "1. c3 e6 2. e3 Be7 3. Qe4 O-O 4. Bd3 a6 5. O-O a5 6. Qxh7#",
    )
    .await;
    fake.say(ALICE, &thread, "!board");
    wait_post(&fake, &thread, "Chess960 position 2").await;
    fake.say(ALICE, &thread, "!pgn");
    wait_file(&fake, &thread, "[Variant \"Chess960\"]").await;
    wait_file(
        &fake,
        &thread,
        "[FEN \"bqnnrbkr/pppppppp/8/8/8/8/PPPPPPPP/BQNNRBKR w KQkq - 0 1\"]",
    )
    .await;
    all_accepted(&fake);
    bot.stop().await;
}
