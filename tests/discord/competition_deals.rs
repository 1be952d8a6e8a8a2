//! A best-score competition's deals stay secret on Discord while it runs: an entrant who
//! resigns an attempt at once, or leaves the competition, learns nothing of the cards
//! still face down (which the others are still to play) from the record attached to the
//! attempt's end, their `pgn` by private message or by `/pgn`, or the game's
//! autocompletion; the record says why the deal is left out. Once the competition is
//! over, `pgn` gives the whole deal. Parade and Neighbour both.

use crate::fake_discord;
use crate::tournament_slash::{action, create, said};

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded};
use postal::variants::solitaire::DEAL_KEPT;
use serde_json::json;

/// The records of game `id` (`game-ID.pgn`) sent privately to `user` in `reqs`.
fn records_to(reqs: &[Recorded], user: &str, id: i64) -> Vec<String> {
    let Some(c) = dm_channel_of(reqs, user) else {
        return Vec::new();
    };
    posts(reqs, &c)
        .iter()
        .flat_map(|r| r.files.iter())
        .filter(|f| f.name == format!("game-{id}.pgn"))
        .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
        .collect()
}

/// Sends `user` the text `command` privately and waits for a record of game `id` more
/// than they had; the records they have then.
async fn ask_record(fake: &Fake, user: (&str, &str), command: &str, id: i64) -> Vec<String> {
    let had = records_to(&fake.requests(), user.0, id).len();
    dm(fake, user, command);
    let reqs = fake
        .wait_for(&format!("record {} of game {id}", had + 1), |r| {
            records_to(r, user.0, id).len() > had
        })
        .await;
    records_to(&reqs, user.0, id)
}

/// The `[Deal "FIRST / SECOND"]` tag's two piles in `text`.
fn deal_of(text: &str) -> (String, String) {
    let start = text.find("[Deal \"").expect("a Deal tag") + 7;
    let tag = &text[start..start + text[start..].find('"').unwrap()];
    let (first, second) = tag.split_once(" / ").unwrap();
    (first.to_string(), second.to_string())
}

async fn deals_stay_secret_on_discord(variant: &str) {
    let fake = Fake::start(TOKEN).await;
    let path = db(&format!("competition-deals-{variant}"));
    let bot = start(&fake, &path, config(&fake), 1).await;
    let r = create(&fake, "competition", variant, ("deals", 1)).await;
    assert!(said(&r).contains("tournament #1 (best score"), "{}", r.json);
    for p in [ALICE, BOB, CAROL] {
        assert!(said(&action(&fake, p, "join", 1).await).contains("joined"));
    }
    action(&fake, ALICE, "start", 1).await;
    for (p, game) in [(ALICE, 1), (BOB, 2), (CAROL, 3)] {
        wait_dm(&fake, p, &format!("deal 1 of 1: game #{game}")).await;
    }
    // Alice resigns at once: the end's message carries the attempt's record.
    dm(&fake, ALICE, "resign 1");
    fake.wait_for("the record at the end of game 1", |r| {
        !records_to(r, ALICE.0, 1).is_empty()
    })
    .await;
    // Carol leaves the competition, which ends her attempt.
    assert!(action(&fake, CAROL, "leave", 1).await.ok());
    ask_record(&fake, CAROL, "pgn 3", 3).await;
    let own = ask_record(&fake, ALICE, "pgn 1", 1).await;
    assert!(own.iter().all(|r| r.contains(DEAL_KEPT)), "{own:?}");
    let slash = slash_reply(
        &fake,
        ALICE,
        GAMES,
        "pgn",
        json!([{"name": "game", "type": 4, "value": 1}]),
    )
    .await;
    assert!(slash.ok(), "{}", slash.response);
    let a = fake.autocomplete(
        ALICE,
        GAMES,
        "pgn",
        json!([{"name": "game", "type": 4, "value": "", "focused": true}]),
    );
    fake.wait_callback(&a).await;
    let before = fake.requests();

    // Bob finishes: the competition is over, and Alice's record gives the whole deal.
    dm(&fake, BOB, "resign 2");
    wait_post(&fake, GAMES, "final standings").await;
    let after = ask_record(&fake, ALICE, "pgn 1", 1).await;
    let last = after.last().unwrap();
    assert!(!last.contains(DEAL_KEPT), "{last}");
    let (first, second) = deal_of(last);
    // Parade turns its setup pile face up at the start: only the hand was face down.
    // Neighbour turns nothing before the first addition: both piles were.
    let hidden = match variant {
        "parade" => vec![second],
        _ => vec![first, second],
    };
    for r in &before {
        let text = r.all_text();
        assert!(
            !text.contains("[Deal"),
            "the deal was sent: {} {text}",
            r.path
        );
        for pile in &hidden {
            assert!(
                !text.contains(pile.as_str()),
                "cards face down were sent: {text}"
            );
        }
    }
    all_accepted(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parade_competitions_deal_stays_secret_on_discord() {
    deals_stay_secret_on_discord("parade").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_neighbour_competitions_deal_stays_secret_on_discord() {
    deals_stay_secret_on_discord("neighbour").await;
}
