//! Cloak and Dagger Chess through the plug-in interface and the service: the record
//! differs by viewer while the game is live and is one full record once it is over; the
//! back ranks drawn for `setup random` come from the system's entropy and no export of a
//! live game shows a set-up; a game goes on after a restart, with its images, and its
//! log replays.

use crate::common;

use common::service::console;

use common::service::{say, TempDir, T0};
use postal::service::referee::{Service, Settings};
use postal::store::Store;
use postal::variants::api::{Action, Env, GameCommand, GameRules, NewGame, Reading, Seat, Viewer};
use postal::variants::Registry;

/// Types `text` as `seat`'s command and applies it.
fn run(g: &mut Box<dyn GameRules>, seat: u8, text: &str) {
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    let Ok(Reading::Act(a)) = g.read(Seat(seat), &GameCommand::new(word, rest), Env::default())
    else {
        panic!("{text} is not read")
    };
    g.apply(Seat(seat), &a)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// The record as `viewer` reads it.
fn record(g: &dyn GameRules, viewer: Viewer) -> Vec<String> {
    g.project(viewer).record
}

/// Everything `viewer` sees of `g`, as text.
fn seen(g: &dyn GameRules, viewer: Viewer) -> String {
    format!(
        "{:?}\n{}\n{:?}",
        g.project(viewer),
        g.pgn(viewer, &[]),
        g.export_fields(viewer)
    )
}

#[test]
fn one_game_gives_three_records_while_live_and_one_full_record_when_over() {
    let spec = Registry::builtin().get("cloak-and-dagger").unwrap();
    let mut g = spec
        .new_game(&NewGame {
            hidden_seed: Some(5),
            ..NewGame::default()
        })
        .unwrap();
    run(&mut g, 0, "setup RNBQKBNR");
    run(&mut g, 1, "setup NRKRBBQN");
    run(&mut g, 0, "move b1-c3");
    run(&mut g, 1, "move Nb6");
    run(&mut g, 0, "move e4");
    run(&mut g, 1, "move h8g6");
    let public = record(g.as_ref(), Viewer::Public);
    let white = record(g.as_ref(), Viewer::Seat(Seat(0)));
    let black = record(g.as_ref(), Viewer::Seat(Seat(1)));
    assert_eq!(public, ["2:b1-c3", "1:a8-b6", "e2-e4", "8:h8-g6"]);
    assert_eq!(white, ["Nb1-c3", "1:a8-b6", "e2-e4", "8:h8-g6"]);
    assert_eq!(black, ["2:b1-c3", "Na8-b6", "e2-e4", "Nh8-g6"]);
    // No identity leaks: nothing the public sees names a piece behind a checker (no
    // piece but the pawns is shown), and no player sees the other's.
    let p = seen(g.as_ref(), Viewer::Public);
    for word in [
        "Knight",
        "Bishop",
        "Rook",
        "Queen",
        "King",
        "Nb1",
        "Na8",
        "Nh8",
        "checkers White",
    ] {
        assert!(!p.contains(word), "the public sees {word}: {p}");
    }
    let w = seen(g.as_ref(), Viewer::Seat(Seat(0)));
    assert!(
        w.contains("Nb1-c3") && !w.contains("Na8") && !w.contains("Nh8"),
        "{w}"
    );
    assert!(!w.contains("NRKRBBQN") && !w.contains("a8 knight"), "{w}");
    let b = seen(g.as_ref(), Viewer::Seat(Seat(1)));
    assert!(b.contains("Na8-b6") && !b.contains("Nb1"), "{b}");
    assert!(
        b.contains("a8 knight (1)") && !b.contains("b1 knight"),
        "{b}"
    );
    // The public FEN marks the unknown checkers.
    assert!(
        g.project(Viewer::Public).fen.starts_with("1xxxxxx1/"),
        "{}",
        g.project(Viewer::Public).fen
    );
    // A right guess makes an identity public: everyone's record shows it.
    run(&mut g, 0, "guess knight 8");
    assert_eq!(g.project(Viewer::Public).record[3], "Nh8-g6");
    run(&mut g, 0, "move d4");
    run(&mut g, 0, "skip");
    g.apply(Seat(1), &Action::resign()).unwrap();
    // Over: one record for everyone, every identity in the PGN's comment.
    let full = record(g.as_ref(), Viewer::Public);
    assert_eq!(full, record(g.as_ref(), Viewer::Seat(Seat(0))));
    assert_eq!(full, record(g.as_ref(), Viewer::Seat(Seat(1))));
    assert_eq!(full[..3], ["Nb1-c3", "Na8-b6", "e2-e4"]);
    let pgn = g.pgn(Viewer::Public, &[]);
    assert!(
        pgn.contains("{checkers White: 1=R 2=N 3=B 4=Q 5=K 6=B 7=N 8=R; Black: 1=N 2=R 3=K 4=R 5=B 6=B 7=Q 8=N}"),
        "{pgn}"
    );
    assert_eq!(pgn, g.pgn(Viewer::Seat(Seat(0)), &[]));
}

/// Starts game #1 (alice White, bob Black) on a new database with `settings`; both set
/// up at random; returns its snapshot and the database's path.
async fn started(settings: Settings, dir: &TempDir) -> (serde_json::Value, String) {
    let db = dir.db();
    let svc = Service::new(Store::open(&db).await.unwrap(), settings);
    say(&svc, "c", "alice", "challenge @bob cloak colour:white", T0).await;
    say(&svc, "a", "bob", "accept", T0).await;
    for (n, user) in ["alice", "bob"].iter().enumerate() {
        svc.handle(common::service::incoming(
            10 + n as i64,
            user,
            true,
            "setup random".into(),
        ))
        .await
        .unwrap();
    }
    let g = svc.store().game(1).await.unwrap().unwrap();
    svc.store().close().await;
    (serde_json::from_str(&g.snapshot).unwrap(), db)
}

#[tokio::test]
async fn random_back_ranks_come_from_the_systems_entropy_and_no_export_shows_them() {
    let bot = Settings {
        seed: None,
        ..Settings::default()
    };
    let (d1, d2) = (TempDir::new("cloak-a"), TempDir::new("cloak-b"));
    let (a, db) = started(bot.clone(), &d1).await;
    let (b, _) = started(bot, &d2).await;
    assert!(
        a["setups"][0].is_string() && a["setups"][1].is_string(),
        "{a}"
    );
    // 960 x 960 pairs: the same pair twice by chance is one in 921,600.
    assert_ne!(
        a["setups"], b["setups"],
        "the same settings drew the same back ranks"
    );
    let export = String::from_utf8(postal::console::export(&db, 1, "json").await.unwrap()).unwrap();
    let pgn = String::from_utf8(postal::console::export(&db, 1, "pgn").await.unwrap()).unwrap();
    for s in [
        &a["setups"][0],
        &a["setups"][1],
        &a["draws"][0],
        &a["draws"][1],
    ] {
        let s = s.as_str().unwrap();
        assert!(
            !export.contains(s) && !pgn.contains(s),
            "{s} in {export} {pgn}"
        );
    }
    assert!(
        !export.contains("Knight") && !export.contains("\"N"),
        "{export}"
    );
    // The console's reproducible mode draws the same back ranks for the same seed.
    let console = Settings {
        seed: Some(7),
        ..Settings::default()
    };
    let (d3, d4) = (TempDir::new("cloak-c"), TempDir::new("cloak-d"));
    let (c, _) = started(console.clone(), &d3).await;
    let (d, _) = started(console, &d4).await;
    assert_eq!(c["setups"], d["setups"]);
}

#[test]
fn a_game_goes_on_after_a_restart_with_its_images_and_its_log_replays() {
    let dir = TempDir::new("cloak-restart");
    let db = dir.db();
    let images = dir.0.join("images");
    let first = console(
        &db,
        &images,
        "alice: challenge @bob cloak colour:white\n\
         bob: accept\n\
         alice> setup RNBQKBNR\n\
         bob> setup NRKRBBQN\n\
         alice: guess knight 1\n\
         alice: e4\n\
         alice: d4\n",
    );
    assert!(first.contains("checker 1 is a knight: right"), "{first}");
    assert!(first.contains("plays the bonus move d2-d4"), "{first}");
    assert!(first.contains("image: "), "{first}");
    let second = console(
        &db,
        &images,
        "bob: uncloak 7\n\
         bob: e5\n\
         alice: moves\n\
         alice: Qh5\n\
         bob: g8h8\n\
         alice: Qxh8\n",
    );
    assert!(second.contains("uncloaks 7 (the queen on g8)"), "{second}");
    assert!(
        second.contains("1. {?1=N yes} e2-e4 +d2-d4 1... e7-e5 {uncloaks 7}"),
        "{second}"
    );
    assert!(
        second.contains("refused") || second.contains("none of your pieces"),
        "{second}"
    );
    let pngs = std::fs::read_dir(&images).unwrap().count();
    assert!(pngs >= 4, "{pngs} images");
    postal::console::block_on(async {
        let store = Store::open(&db).await.unwrap();
        assert_eq!(store.game(1).await.unwrap().unwrap().status, "active");
        assert!(common::service::check_log(&store, 1).await >= 7);
        store.close().await;
    })
    .unwrap();
}
