//! Draws on the bot come from the operating system's entropy: two Secret Chesswords
//! games started through the bot's code path with the same settings (no seed, as
//! `postal run` has) get different seeds and are dealt different cards, and a live game's
//! export holds neither the seed nor any hand or pile. The console's reproducible mode
//! (`--seed`) deals the same cards again, which shows the test can tell.
//! Gravity Chess's decks, and Booster Chess's deal and reshuffle seed, are checked the
//! same way.

use crate::common;

use common::service::{say, TempDir, T0};
use postal::service::referee::{Service, Settings};
use postal::store::Store;

/// Starts game #1 of `variant` (alice White, bob Black) on a new database with
/// `settings`; returns its snapshot and the database's path.
async fn started(variant: &str, settings: Settings, dir: &TempDir) -> (serde_json::Value, String) {
    let db = dir.db();
    let svc = Service::new(Store::open(&db).await.unwrap(), settings);
    let challenge = format!("challenge @bob {variant} colour:white");
    say(&svc, "c", "alice", &challenge, T0).await;
    say(&svc, "a", "bob", "accept", T0).await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    svc.store().close().await;
    (serde_json::from_str(&g.snapshot).unwrap(), db)
}

#[tokio::test]
async fn the_bot_deals_from_the_systems_entropy_and_exports_no_live_secret() {
    let bot = Settings {
        seed: None,
        ..Settings::default()
    };
    let (d1, d2) = (TempDir::new("deal-a"), TempDir::new("deal-b"));
    let (a, db) = started("chesswords", bot.clone(), &d1).await;
    let (b, _) = started("chesswords", bot, &d2).await;
    assert_ne!(
        a["seed"], b["seed"],
        "the public draws are not predictable either"
    );
    assert_ne!(
        (&a["hands"], &a["pile"]),
        (&b["hands"], &b["pile"]),
        "the same settings dealt the same cards"
    );
    let export = postal::console::export(&db, 1, "json").await.unwrap();
    let export: serde_json::Value = serde_json::from_slice(&export).unwrap();
    for key in ["seed", "hands", "pile", "deal", "unused"] {
        assert!(
            export.get(key).is_none(),
            "a live export shows {key}: {export}"
        );
    }
    let pgn = postal::console::export(&db, 1, "pgn").await.unwrap();
    let pgn = String::from_utf8(pgn).unwrap();
    assert!(!pgn.contains("hands") && !pgn.contains("pile"), "{pgn}");

    // The console's reproducible mode deals the same cards for the same seed.
    let console = Settings {
        seed: Some(7),
        ..Settings::default()
    };
    let (d3, d4) = (TempDir::new("deal-c"), TempDir::new("deal-d"));
    let (c, _) = started("chesswords", console.clone(), &d3).await;
    let (d, _) = started("chesswords", console, &d4).await;
    assert_eq!((&c["hands"], &c["pile"]), (&d["hands"], &d["pile"]));
}

#[tokio::test]
async fn gravity_decks_come_from_the_systems_entropy_and_no_export_shows_their_order() {
    let bot = Settings {
        seed: None,
        ..Settings::default()
    };
    let (d1, d2) = (TempDir::new("gravity-a"), TempDir::new("gravity-b"));
    let (a, db) = started("gravity", bot.clone(), &d1).await;
    let (b, _) = started("gravity", bot, &d2).await;
    assert_ne!(
        a["decks"], b["decks"],
        "the same settings drew the same decks"
    );
    // Nothing public names the order of the cards still face down: not the export, not
    // the record, not the FEN (its brackets list the waiting pieces king first).
    let export = postal::console::export(&db, 1, "json").await.unwrap();
    let text = String::from_utf8(export).unwrap();
    assert!(
        !text.contains("decks") && !text.contains("\"rank\""),
        "{text}"
    );
    let export: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(export.get("seed").is_none());
    let pgn = postal::console::export(&db, 1, "pgn").await.unwrap();
    let pgn = String::from_utf8(pgn).unwrap();
    assert!(!pgn.contains("decks"), "{pgn}");

    // The console's reproducible mode draws the same decks for the same seed.
    let console = Settings {
        seed: Some(7),
        ..Settings::default()
    };
    let (d3, d4) = (TempDir::new("gravity-c"), TempDir::new("gravity-d"));
    let (c, _) = started("gravity", console.clone(), &d3).await;
    let (d, _) = started("gravity", console, &d4).await;
    assert_eq!(c["decks"], d["decks"]);
}

#[tokio::test]
async fn booster_deals_and_its_reshuffle_seed_come_from_the_systems_entropy() {
    let bot = Settings {
        seed: None,
        ..Settings::default()
    };
    let (d1, d2) = (TempDir::new("booster-a"), TempDir::new("booster-b"));
    let (a, db) = started("booster", bot.clone(), &d1).await;
    let (b, _) = started("booster", bot, &d2).await;
    assert_ne!(
        (&a["hands"], &a["pile"]),
        (&b["hands"], &b["pile"]),
        "the same settings dealt the same cards"
    );
    assert_ne!(a["secret"], b["secret"], "the reshuffle seed is drawn too");
    // A live game's export holds no hand, no pile order and no reshuffle seed.
    let export = postal::console::export(&db, 1, "json").await.unwrap();
    let export: serde_json::Value = serde_json::from_slice(&export).unwrap();
    for key in ["hands", "pile", "secret", "seed"] {
        assert!(
            export.get(key).is_none(),
            "a live export shows {key}: {export}"
        );
    }
    let text = export.to_string();
    assert!(!text.contains(&a["secret"].to_string()), "{text}");
    // The console's reproducible mode deals the same cards for the same seed.
    let console = Settings {
        seed: Some(7),
        ..Settings::default()
    };
    let (d3, d4) = (TempDir::new("booster-c"), TempDir::new("booster-d"));
    let (c, _) = started("booster", console.clone(), &d3).await;
    let (d, _) = started("booster", console, &d4).await;
    assert_eq!(
        (&c["hands"], &c["pile"], &c["secret"]),
        (&d["hands"], &d["pile"], &d["secret"])
    );
}
