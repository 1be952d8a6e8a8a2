//! The finale of Secret Chesswords through the referee and the console: what `postal
//! export` shows before and after it, its timer on the referee's clock, and the
//! operator's word list checking its words.

use crate::common;

use postal::rules::Square;
use postal::variants::chesswords::game::State;
use postal::variants::Registry;

/// `postal export` of the transcript's game: the letter grid and the checkers during play,
/// the seed, the hands, the pile, the deal and the words only once the game is over.
#[test]
fn export_shows_letters_and_checkers_and_secrets_only_at_the_end() {
    let dir = common::service::TempDir::new("chesswords-export");
    let db = dir.db();
    let script = std::fs::read_to_string(
        crate::common::root().join("tests/transcripts/chesswords-game.txt"),
    )
    .unwrap();
    let lines: Vec<&str> = script.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("alice> words"))
        .unwrap();
    let play = |part: &[&str]| {
        let opts = postal::console::Options {
            db: db.clone(),
            settings: postal::service::settings::Settings {
                seed: Some(1),
                ..Default::default()
            },
            images: None,
            registry: Registry::builtin(),
        };
        let text = part.join("\n") + "\n";
        let mut out = Vec::new();
        postal::console::block_on(postal::console::run(&opts, text.as_bytes(), &mut out))
            .unwrap()
            .unwrap();
    };
    let export = || -> serde_json::Value {
        let bytes = postal::console::block_on(postal::console::export(&db, 1, "json"))
            .unwrap()
            .unwrap();
        serde_json::from_slice(&bytes).unwrap()
    };
    play(&lines[..at]);
    let during = export();
    assert_eq!(
        during["letters"],
        serde_json::json!(["WARMED", "GNIDOC", "BUREAY", "ICENOD", "PATHES", "YEGNIH"])
    );
    assert_eq!(
        during["checkers"],
        serde_json::json!(["b3", "d5", "c4", "e2", "e5"])
    );
    for key in ["seed", "hands", "pile", "words"] {
        assert!(
            during.get(key).is_none(),
            "{key} exported during the finale"
        );
    }
    play(&lines[at..]);
    let after = export();
    assert_eq!(after["result"], "F");
    assert_eq!(after["score"], serde_json::json!([7, 7]));
    assert_eq!(
        after["words"],
        serde_json::json!({"white": ["COD", "RE"], "black": ["DOC", "RE"]})
    );
    assert_eq!(
        after["hands"],
        serde_json::json!({"white": ["bQ", "bN", "bP", "bR"], "black": ["bN", "bR", "wN", "wP"]})
    );
    assert_eq!(after["pile"], serde_json::json!(["wP"]));
    assert!(after["seed"].is_i64(), "{after}");
}

/// The finale timer through the referee's clock (rules 8 and 10): once play ends on a
/// king's capture, the holder has `timer:N` minutes to decide on its discard, not the days
/// per move. With the one letter that discard marks, two words cannot be made (rule 9):
/// the game is scored at once, with no deadline for words nobody could send. (The words'
/// own `timer:N` deadline is the unit test
/// `the_finale_timer_applies_to_the_last_discard_and_the_words_only`.)
#[test]
fn the_finale_timer_runs_on_the_referees_clock() {
    use common::service::{check_log, say, T0};
    use postal::service::referee::{Incoming, Place, Service, Settings};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        // Seed 3 deals Black the white knight.
        let settings = Settings {
            seed: Some(3),
            ..Settings::default()
        };
        let store = postal::store::Store::open("sqlite::memory:").await.unwrap();
        let svc = Service::new(store, settings);
        // White's knight can take Black's king at once.
        let challenge =
            "challenge @bob chesswords colour:white timer:1 fen:\"3k2/6/4N1/6/6/K5 w - - 0 1\"";
        say(&svc, "c", "alice", challenge, T0).await;
        say(&svc, "a", "bob", "accept", T0).await;
        let letter = {
            let g = svc.store().game(1).await.unwrap().unwrap();
            let state: State = serde_json::from_str(&g.snapshot).unwrap();
            let e4 = Square::parse("e4").unwrap();
            state
                .letters
                .letters()
                .into_iter()
                .find(|(s, _)| *s == e4)
                .unwrap()
                .1
        };
        say(&svc, "p", "bob", "pass", T0 + 10).await;
        let out = say(&svc, "m", "alice", "Nxd6", T0 + 20).await;
        let text = &out[0].text;
        assert!(
            text.contains("play is over: a king was captured. Black may still discard"),
            "{text}"
        );
        let g = svc.store().game(1).await.unwrap().unwrap();
        let due: Vec<(u8, i64)> = g.deadlines.iter().map(|d| (d.seat, d.due_at)).collect();
        assert_eq!(due, vec![(1, T0 + 80)], "a minute for Black's decision");
        let out = svc
            .handle(Incoming {
                event_id: "d".into(),
                user: "bob".into(),
                place: Place::Dm,
                via: None,
                server: None,
                text: "discard wN".into(),
                at: T0 + 30,
            })
            .await
            .unwrap();
        let text = &out[0].text;
        assert!(
            text.contains("Black discards the white knight: a checker on e4"),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "Only 1 letter is marked ({letter}), too few for two words, so there is no finale"
            )),
            "{text}"
        );
        assert!(
            text.contains("game over: capture of the king: grade F, the game is lost"),
            "{text}"
        );
        let g = svc.store().game(1).await.unwrap().unwrap();
        assert!(
            g.deadlines.is_empty(),
            "nobody is awaited: {:?}",
            g.deadlines
        );
        let later = svc.tick(T0 + 91).await.unwrap();
        assert!(
            later
                .iter()
                .all(|q| !q.message.text.contains("time ran out")),
            "{later:?}"
        );
        let g = svc.store().game(1).await.unwrap().unwrap();
        assert_eq!(g.status, "finished");
        check_log(svc.store(), 1).await;
    });
}

/// The operator's word list (`games.chesswords_words`) refuses finale words it lacks, and
/// changes nothing; a list that cannot be read refuses every word with the reason. The game
/// is the transcript's, played up to its finale.
#[test]
fn the_operators_word_list_checks_the_finale_words() {
    let script = std::fs::read_to_string(
        crate::common::root().join("tests/transcripts/chesswords-game.txt"),
    )
    .unwrap();
    let upto: String = script
        .lines()
        .take_while(|l| !l.starts_with("alice> words"))
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = std::env::temp_dir().join(format!("postal-wordlist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("words.txt");
    std::fs::write(&list, "# a small list\ncod\nre\nDOC\n\n").unwrap();
    let run = |path: &std::path::Path, tail: &str| {
        let opts = postal::console::Options {
            db: "sqlite::memory:".into(),
            settings: postal::service::settings::Settings {
                seed: Some(1),
                resources: [("chesswords_words".to_string(), path.display().to_string())].into(),
                ..Default::default()
            },
            images: None,
            registry: Registry::builtin(),
        };
        let mut out = Vec::new();
        let script = format!("{upto}{tail}");
        postal::console::block_on(postal::console::run(&opts, script.as_bytes(), &mut out))
            .unwrap()
            .unwrap();
        String::from_utf8(out).unwrap()
    };
    let out = run(&list, "alice> words rod re\nalice> words doc re\n");
    assert!(
        out.contains("[dm alice] 'rod' is not in this server's word list; nothing was recorded"),
        "{out}"
    );
    assert!(out.contains("your words: DOC and RE"), "{out}");
    assert_eq!(
        out.matches("White has submitted their words").count(),
        1,
        "{out}"
    );
    let out = run(&dir.join("missing.txt"), "alice> words doc re\n");
    assert!(
        out.contains("the word list for finale words cannot be read"),
        "{out}"
    );
    assert!(!out.contains("White has submitted their words"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
