//! A variant is one module: the toy Knight's Hop (`tests/toy`), registered in this test
//! alone, is challenged and played to its end through `postal console`, with board
//! images, persisted in a database file and continued after a restart, with no change
//! outside its module. It is also the proof that a game of one starts from its challenge.

use crate::common;
use crate::toy;

use common::service::TempDir;
use postal::service::settings::Settings;
use postal::variants::api::{Action, NewGame, Seat};
use postal::variants::Registry;

/// Runs `script` through the console on `db`, writing images into `images`.
fn console(db: &str, images: &std::path::Path, script: &str) -> String {
    let opts = postal::console::Options {
        db: db.into(),
        settings: Settings {
            seed: Some(1),
            ..Default::default()
        },
        images: Some(images.to_path_buf()),
        registry: Registry::builtin().with(&toy::KNIGHT_HOP),
    };
    let mut out = Vec::new();
    postal::console::block_on(postal::console::run(&opts, script.as_bytes(), &mut out))
        .unwrap()
        .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn a_toy_variant_is_played_to_its_end_through_the_console_across_a_restart() {
    let dir = TempDir::new("toy-console");
    let db = dir.db();
    let images = dir.0.join("images");
    let first = console(
        &db,
        &images,
        "alice: rules knight-hop\n\
         alice: challenge @bob knight-hop\n\
         alice: challenge knight-hop colour:white\n\
         alice: challenge knight-hop\n\
         bob: hop c2\n\
         alice: hop d4\n\
         alice: hop b3\n\
         alice: help hop\n",
    );
    assert!(first.contains("Knight's Hop (knight-hop)"), "{first}");
    assert!(
        first.contains("is played alone: name no opponent"),
        "{first}"
    );
    assert!(first.contains("there is no colour to choose"), "{first}");
    // The game starts from the challenge alone, with its board drawn.
    assert!(
        first.contains("game #1: alice plays Knight's Hop"),
        "{first}"
    );
    assert!(first.contains("image: "), "{first}");
    // Another user's command is refused; an impossible hop says why and changes nothing.
    assert!(
        first.contains("bob: hop c2\n[#games] you have no game here"),
        "{first}"
    );
    assert!(
        first.contains("cannot reach d4; it may hop to b3, c2"),
        "{first}"
    );
    assert!(first.contains("alice (Knight) hops to b3"), "{first}");
    assert!(first.contains("hop [ID] SQUARE"), "{first}");

    // A new process on the same database goes on with the same game, to its end.
    let second = console(
        &db,
        &images,
        "alice: hop c5\nalice: hop d7\nalice: hop f8\nalice: hop g6\nalice: hop h8\nalice: hop g6\nalice: games\n",
    );
    assert!(second.contains("game over: "), "{second}");
    assert!(second.contains("you have no games"), "{second}");
    let pngs = std::fs::read_dir(&images).unwrap().count();
    assert!(pngs >= 7, "{pngs} images");

    // The stored log replays to the stored state through the test's registry.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = postal::store::Store::open(&db).await.unwrap();
        let g = store.game(1).await.unwrap().unwrap();
        assert_eq!(g.status, "finished");
        assert_eq!(g.seats.len(), 1);
        let log: Vec<(Seat, Action)> = store
            .actions(1)
            .await
            .unwrap()
            .iter()
            .map(|r| (Seat(r.seat), serde_json::from_str(&r.action).unwrap()))
            .collect();
        assert_eq!(log.len(), 6);
        // The starting state, where the game stored one (not where it is what the
        // variant sets up from the game's row alone: then the replay sets it up).
        let start: Option<serde_json::Value> = g
            .start_snapshot
            .as_deref()
            .map(|s| serde_json::from_str(s).unwrap());
        let setup = NewGame {
            fen: g.start_fen.as_deref(),
            options: serde_json::from_str(&g.options).unwrap(),
            seed: g.seed as u64,
            hidden_seed: None,
        };
        let replayed = Registry::builtin()
            .with(&toy::KNIGHT_HOP)
            .replay("knight-hop", start.as_ref(), &setup, &log)
            .unwrap();
        let stored: serde_json::Value = serde_json::from_str(&g.snapshot).unwrap();
        assert_eq!(replayed.snapshot().unwrap(), stored);
        store.close().await;
    });
}
