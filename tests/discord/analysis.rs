//! Engine analysis on Discord (issue 59), with Debian's Stockfish at a small budget: the
//! message that ends a game carries an Analyse button; pressing it queues the analysis,
//! whose report is posted in the game's thread with the evaluation graph attached, and
//! `/chess analyse` of a live game is refused. While it runs, the thread shows a progress
//! message, posted once and edited as the analysis goes, then edited to say it is done
//! before the report follows.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded};
use postal::discord::Bot;
use postal::engines::EngineSettings;
use postal::service::settings::Settings;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analyse_button_posts_the_report_with_its_graph_in_the_thread() {
    let fake = Fake::start(TOKEN).await;
    logs();
    let settings = Settings {
        // A budget at which each position takes a while, and an update of the progress
        // at each fifth of the positions, so that the progress message is seen edited.
        engines: EngineSettings {
            nodes: 150_000,
            progress_seconds: 0,
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
    // One progress message, posted when the analysis started, edited as it went (at
    // most once a fifth, and once to say it is done), all before the report.
    let reqs = fake.requests();
    let (posted, edits) = progress_requests(&reqs, &thread, 1);
    assert_eq!(posted.len(), 1, "one progress message: {posted:?}");
    assert!(
        posted[0].shown().contains("Analysing game #1"),
        "{}",
        posted[0].json
    );
    assert!((1..=6).contains(&edits.len()), "{} edits", edits.len());
    let last = edits.last().unwrap();
    assert!(
        last.shown().contains("Analysed game #1") && last.shown().contains("all 5 positions"),
        "{}",
        last.json
    );
    assert!(edits.iter().all(|e| e.ok() && e.at < report.at));
    bot.stop().await;
}

/// The requests that showed game `game`'s analysis progress in `channel`: the posts of
/// its progress message, and the edits of those posts, in order.
pub(crate) fn progress_requests<'a>(
    reqs: &'a [Recorded],
    channel: &str,
    game: i64,
) -> (Vec<&'a Recorded>, Vec<&'a Recorded>) {
    let of_game = |r: &Recorded| {
        r.embeds().iter().any(|e| {
            let title = e["title"].as_str().unwrap_or("");
            title.starts_with("Analys") && title.contains(&format!("game #{game}"))
        })
    };
    let posted: Vec<&Recorded> = posts(reqs, channel)
        .into_iter()
        .filter(|r| of_game(r))
        .collect();
    let paths: Vec<String> = posted
        .iter()
        .filter_map(|r| r.response["id"].as_str())
        .map(|id| format!("/channels/{channel}/messages/{id}"))
        .collect();
    let edits = reqs
        .iter()
        .filter(|r| r.method == "PATCH" && paths.contains(&r.path))
        .collect();
    (posted, edits)
}
