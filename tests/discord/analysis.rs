//! Engine analysis on Discord (issue 59), with Debian's Stockfish at a small budget: the
//! message that ends a game carries an Analyse button; pressing it queues the analysis,
//! whose report is posted in the game's thread with the evaluation graph attached, and
//! `/chess analyse` of a live game is refused.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::Fake;
use postal::discord::Bot;
use postal::engines::EngineSettings;
use postal::service::settings::Settings;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analyse_button_posts_the_report_with_its_graph_in_the_thread() {
    let fake = Fake::start(TOKEN).await;
    logs();
    let settings = Settings {
        engines: EngineSettings {
            nodes: 2_000,
            ..EngineSettings::default()
        },
        ..settings(&db("analysis"))
    };
    let bot = Bot::start(settings, config(&fake), TOKEN).await.unwrap();
    ready(&fake, 1).await;
    let thread = start_game(&fake, "").await;
    fake.say(ALICE, &thread, "f3");
    wait_post(&fake, &thread, "played f3").await;
    // Live: refused to a player, the engine never asked.
    let id = fake.slash(BOB, &thread, "analyse", json!([]));
    let r = fake.wait_callback(&id).await;
    assert!(
        r.content()
            .unwrap_or("")
            .contains("never looks at a live game"),
        "{}",
        r.json
    );
    for (who, mv) in [(BOB, "e5"), (ALICE, "g4"), (BOB, "Qh4#")] {
        fake.say(who, &thread, mv);
        wait_post(
            &fake,
            &thread,
            &format!("played {}", mv.trim_end_matches('#')),
        )
        .await;
    }
    let end = wait_post(&fake, &thread, "checkmate").await;
    let analyse = button(None, "analyse 1");
    assert!(button_ids(&end.json).contains(&analyse), "{}", end.json);
    let press = fake.press(BOB, &bot_message(&fake, &thread), &analyse);
    fake.wait_callback(&press).await;
    let report = wait_post(&fake, &thread, "Analysis of game #1 by Stockfish").await;
    let text = report.content().unwrap();
    assert!(text.contains("2. g4?? blunder"), "{text}");
    assert!(
        text.len() <= 2000,
        "within one Discord message: {}",
        text.len()
    );
    let names: Vec<&str> = report.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["analysis.png"], "{names:?}");
    assert!(report.files[0].bytes.starts_with(b"\x89PNG"));
    bot.stop().await;
}
