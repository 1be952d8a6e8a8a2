//! Engine analysis of finished games (issue 59) with the real engines Debian installs
//! (`/usr/games/stockfish`, `/usr/games/fairy-stockfish`) at a small budget: the Fool's
//! mate marks White's blunder and its graph ends at Black's mate; a live game is refused
//! to both players and a spectator, and nothing is stored; Crazyhouse and King of the
//! Hill are analysed by Fairy-Stockfish; a variant no engine knows, and one with hidden
//! information, say so; engines standing in as shell scripts that crash, hang or answer
//! garbage end in a retry or a reported failure with the queue intact; and an analysis
//! whose process died holding it is finished by the next, from the positions stored.

use crate::common;

use common::service::{say, seeded, start_game, TempDir, T0};
use postal::analysis::{judge, Judgment, Score};
use postal::engines::EngineSettings;
use postal::service::referee::{AnalysisProgress, Outbound, ProgressState, Service, Settings};
use postal::store::{AnalysisStatus, Store, StoredPosition};
use postal::variants::api::RefusalKind;
use std::path::{Path, PathBuf};

/// The engines at a budget small enough for tests: a few thousand nodes a position.
fn settings(engines: EngineSettings) -> Settings {
    Settings {
        engines,
        ..seeded()
    }
}

fn small() -> EngineSettings {
    EngineSettings {
        nodes: 2_000,
        timeout_seconds: 10,
        retries: 1,
        ..EngineSettings::default()
    }
}

async fn service(db: &str, engines: EngineSettings) -> Service {
    Service::new(Store::open(db).await.unwrap(), settings(engines))
}

/// Plays `moves` in game 1 in turn, White first.
async fn play(svc: &Service, white: &str, black: &str, moves: &[&str]) {
    for (i, m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { white } else { black };
        let out = say(svc, &format!("m{i}"), who, &format!("move 1 {m}"), T0 + 10).await;
        assert!(out[0].text.contains("played"), "{m}: {}", out[0].text);
    }
}

/// Makes every queued analysis and returns the messages the outbox then holds, but the
/// updates of the analyses' progress messages.
async fn analyse_all(svc: &Service) -> Vec<Outbound> {
    analyse_all_with_progress(svc).await.0
}

/// Makes every queued analysis and returns the messages the outbox then holds: the
/// reports, and the updates of the progress messages not superseded.
async fn analyse_all_with_progress(svc: &Service) -> (Vec<Outbound>, Vec<AnalysisProgress>) {
    while svc.analyse_next(60).await.unwrap().is_some() {}
    let queued = svc.claim_undelivered().await.unwrap();
    for q in &queued {
        svc.delivered(q.id, T0).await.unwrap();
    }
    let (progress, reports): (Vec<Outbound>, Vec<Outbound>) = queued
        .into_iter()
        .map(|q| q.message)
        .partition(|m| m.progress.is_some());
    (
        reports,
        progress.iter().filter_map(|m| m.progress).collect(),
    )
}

/// The first answer is a refusal of `kind` whose text says `words`.
fn assert_refused(out: &[Outbound], kind: RefusalKind, words: &str) {
    assert_eq!(out[0].refusal, Some(kind), "{}", out[0].text);
    assert!(out[0].text.contains(words), "{}", out[0].text);
}

fn engines_present() -> bool {
    let d = EngineSettings::default();
    let ok = d.stockfish.unwrap().is_file() && d.fairy_stockfish.unwrap().is_file();
    if !ok {
        eprintln!("stockfish and fairy-stockfish are not installed: apt-get install stockfish fairy-stockfish");
    }
    ok
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fools_mate_is_whites_blunder_and_its_graph_ends_at_mate() {
    assert!(engines_present());
    let dir = TempDir::new("analysis-fool");
    let svc = service(&dir.db(), small()).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    play(&svc, "alice", "bob", &["f3", "e5", "g4"]).await;
    // Live: refused to both players and to a spectator, and nothing is stored.
    for who in ["alice", "bob", "carol"] {
        let out = say(&svc, &format!("ask-{who}"), who, "analyse 1", T0 + 20).await;
        assert_refused(&out, RefusalKind::Illegal, "never looks at a live game");
    }
    assert_eq!(svc.store().analysis(1).await.unwrap(), None);
    play_last(&svc).await;
    let out = say(&svc, "ask-after", "carol", "analyse 1", T0 + 30).await;
    assert!(out[0].text.contains("queued"), "{}", out[0].text);
    // Stored before it was acknowledged.
    let row = svc.store().analysis(1).await.unwrap().unwrap();
    assert_eq!(row.status, AnalysisStatus::Queued);
    let (posted, progress) = analyse_all_with_progress(&svc).await;
    assert_eq!(posted.len(), 1, "{posted:?}");
    // Of the progress message's updates, only the last is left to deliver: done.
    let done = AnalysisProgress {
        game: 1,
        done: 5,
        of: 5,
        state: ProgressState::Done,
    };
    assert_eq!(progress, [done]);
    let report = &posted[0];
    assert!(report.text.contains("2. g4?? blunder"), "{}", report.text);
    assert!(
        report.text.contains("White (alice): accuracy"),
        "{}",
        report.text
    );
    let black = report
        .text
        .lines()
        .find(|l| l.starts_with("Black (bob): accuracy"))
        .unwrap();
    assert!(black.ends_with(", 0 blunders"), "{}", report.text);
    assert!(report.mentions.is_empty());
    let graph = report
        .graph
        .as_ref()
        .expect("the graph goes with the report");
    assert_eq!(graph.chances.len(), 5);
    assert_eq!(*graph.chances.last().unwrap(), -1.0);
    assert!(graph
        .marks
        .iter()
        .any(|&(ply, m)| ply == 3 && m == postal::render::graph::Mark::Blunder));
    // A second request answers at once from the store, the engine not asked again.
    let again = say(&svc, "ask-again", "bob", "analyse 1", T0 + 40).await;
    assert_eq!(again[0].text, report.text);
    assert!(again[0].graph.is_some());
    assert_eq!(svc.store().analysis_positions(1).await.unwrap().len(), 5);
    assert!(analyse_all(&svc).await.is_empty());
    // The record now carries the evaluations and assessments, which python-chess reads
    // back as stored.
    let pgn = say(&svc, "pgn", "carol", "pgn 1", T0 + 50).await;
    let text = &pgn[0].text;
    assert!(text.contains("g4??"), "{text}");
    let stored = svc.store().analysis_positions(1).await.unwrap();
    let file = dir.0.join("fool.pgn");
    std::fs::write(&file, text).unwrap();
    let root = crate::common::root();
    let out = std::process::Command::new("python3")
        .arg(root.join("tests/python/pgn_evals.py"))
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let want: Vec<String> = ["f3", "e5", "g4", "Qh4#"]
        .iter()
        .enumerate()
        .map(|(i, san)| {
            let p = &stored[i + 1];
            let score = |p: &StoredPosition| match p.mate {
                true => Score::Mate(p.value as i32),
                false => Score::Cp(p.value as i32),
            };
            let nag = match judge(i % 2 == 0, score(&stored[i]), score(p)) {
                None => "-",
                Some(Judgment::Inaccuracy) => "6",
                Some(Judgment::Mistake) => "2",
                Some(Judgment::Blunder) => "4",
            };
            let eval = match (i, p.mate) {
                (3, _) => "-".to_string(),
                (_, true) => format!("mate {}", p.value),
                (_, false) => format!("cp {}", p.value),
            };
            format!("{san}\t{nag}\t{eval}")
        })
        .collect();
    assert_eq!(lines, want, "{text}");
}

async fn play_last(svc: &Service) {
    let out = say(svc, "m-last", "bob", "move 1 Qh4#", T0 + 25).await;
    assert!(out[0].text.contains("checkmate"), "{}", out[0].text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crazyhouse_and_king_of_the_hill_are_analysed_by_fairy_stockfish() {
    assert!(engines_present());
    for (variant, moves, last) in [
        ("crazyhouse", &["e4", "d5", "exd5", "Qxd5", "Nc3"][..], None),
        (
            "king-of-the-hill",
            &["e3", "e6", "Ke2", "Ke7", "Kd3", "Kd6"][..],
            Some("Kd4"),
        ),
    ] {
        let dir = TempDir::new("analysis-fairy");
        let svc = service(&dir.db(), small()).await;
        start_game(&svc, "alice", "bob", variant, T0).await;
        play(&svc, "alice", "bob", moves).await;
        match last {
            Some(m) => {
                let out = say(&svc, "last", "alice", &format!("move 1 {m}"), T0 + 20).await;
                assert!(out[0].text.contains("wins"), "{}", out[0].text);
            }
            None => {
                say(&svc, "resign", "bob", "resign 1", T0 + 20).await;
            }
        }
        let out = say(&svc, "ask", "alice", "analyse 1", T0 + 30).await;
        assert!(out[0].text.contains("queued"), "{variant}: {}", out[0].text);
        let posted = analyse_all(&svc).await;
        let text = &posted[0].text;
        assert!(text.contains("by Fairy-Stockfish"), "{variant}: {text}");
        let graph = posted[0].graph.as_ref().unwrap();
        assert_eq!(
            graph.chances.len(),
            moves.len() + 1 + usize::from(last.is_some())
        );
        if last.is_some() {
            // White's king reached the centre: the graph ends at White's win.
            assert_eq!(*graph.chances.last().unwrap(), 1.0, "{variant}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_variant_no_engine_knows_and_one_with_hidden_information_say_so() {
    let dir = TempDir::new("analysis-unknown");
    let svc = service(&dir.db(), small()).await;
    // Chess#: no engine plays it; refused before anything is stored.
    start_game(&svc, "alice", "bob", "chess-sharp", T0).await;
    play(&svc, "alice", "bob", &["K@e1", "K@e8"]).await;
    say(&svc, "resign", "bob", "resign 1", T0 + 5).await;
    let out = say(&svc, "ask", "alice", "analyse 1", T0 + 10).await;
    assert_refused(
        &out,
        RefusalKind::NotHere,
        "no engine this bot runs knows Chess#",
    );
    // Cloak and Dagger: hidden information (said before the game's abort, since a
    // resignation before both moved calls it off).
    start_game(&svc, "carol", "dave", "cloak", T0).await;
    say(&svc, "resign2", "dave", "resign 2", T0 + 5).await;
    let out = say(&svc, "ask2", "carol", "analyse 2", T0 + 10).await;
    assert_refused(&out, RefusalKind::NotHere, "not played in plain sight");
    assert_eq!(svc.store().analysis(1).await.unwrap(), None);
    assert_eq!(svc.store().analysis(2).await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_variant_the_installed_engine_does_not_know_is_reported() {
    assert!(engines_present());
    // Debian's Fairy-Stockfish 11.1 is built without Atomic.
    let dir = TempDir::new("analysis-atomic");
    let svc = service(&dir.db(), small()).await;
    start_game(&svc, "alice", "bob", "atomic", T0).await;
    play(&svc, "alice", "bob", &["e4", "e5"]).await;
    say(&svc, "resign", "bob", "resign 1", T0 + 20).await;
    say(&svc, "ask", "alice", "analyse 1", T0 + 30).await;
    let posted = analyse_all(&svc).await;
    assert!(
        posted[0]
            .text
            .contains("Fairy-Stockfish does not know the variant atomic"),
        "{}",
        posted[0].text
    );
    let row = svc.store().analysis(1).await.unwrap().unwrap();
    assert_eq!(row.status, AnalysisStatus::Failed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_engines_the_server_says_it_has_none() {
    let dir = TempDir::new("analysis-none");
    let none = EngineSettings {
        stockfish: None,
        fairy_stockfish: Some("/nonexistent/fairy-stockfish".into()),
        ..small()
    };
    let svc = service(&dir.db(), none).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    play(&svc, "alice", "bob", &["e4", "e5"]).await;
    say(&svc, "resign", "bob", "resign 1", T0 + 20).await;
    let out = say(&svc, "ask", "alice", "analyse 1", T0 + 30).await;
    assert!(
        out[0]
            .text
            .contains("this server has no engine for Standard chess (Stockfish is not installed)"),
        "{}",
        out[0].text
    );
    assert_eq!(svc.store().analysis(1).await.unwrap(), None);
}

/// A stand-in engine: a shell script that speaks enough UCI to start, then does `go`.
fn script(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    let path = dir.join(name);
    let text = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name stand-in'; echo uciok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A finished two-move game of standard chess analysed with `stockfish` standing in: the
/// reports, and the progress message's last update.
async fn analysed_with(
    dir: &TempDir,
    stockfish: PathBuf,
    retries: u32,
) -> (Service, Vec<Outbound>, Vec<AnalysisProgress>) {
    let engines = EngineSettings {
        stockfish: Some(stockfish),
        timeout_seconds: 1,
        retries,
        ..small()
    };
    let svc = service(&dir.db(), engines).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    play(&svc, "alice", "bob", &["e4", "e5"]).await;
    say(&svc, "resign", "bob", "resign 1", T0 + 20).await;
    let out = say(&svc, "ask", "alice", "analyse 1", T0 + 30).await;
    assert!(out[0].text.contains("queued"), "{}", out[0].text);
    let (posted, progress) = analyse_all_with_progress(&svc).await;
    (svc, posted, progress)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engines_that_crash_hang_or_answer_garbage_end_in_a_failure_reported_and_the_queue_intact()
{
    for (name, on_go, why) in [
        ("crash", "exit 3", "the engine stopped"),
        ("hang", "sleep 30", "the engine did not answer in time"),
        (
            "garbage",
            "echo 'info score banana'; echo 'bestmove e2e4'",
            "the engine answered garbage",
        ),
    ] {
        let dir = TempDir::new("analysis-fault");
        let engine = script(&dir.0, name, on_go);
        let (svc, posted, progress) = analysed_with(&dir, engine, 1).await;
        assert_eq!(posted.len(), 1, "{name}");
        // The progress message says where it stopped: at the start, of three positions.
        let stopped = AnalysisProgress {
            game: 1,
            done: 0,
            of: 3,
            state: ProgressState::Failed,
        };
        assert_eq!(progress, [stopped], "{name}");
        assert!(
            posted[0].text.contains("The analysis of game #1 failed"),
            "{name}: {}",
            posted[0].text
        );
        assert!(posted[0].text.contains(why), "{name}: {}", posted[0].text);
        assert!(posted[0].graph.is_none());
        let row = svc.store().analysis(1).await.unwrap().unwrap();
        assert_eq!(row.status, AnalysisStatus::Failed, "{name}");
        assert!(row.error.as_deref().unwrap_or("").contains(why), "{name}");
        // Asking again queues it again: nothing was dropped.
        let out = say(&svc, "again", "bob", "analyse 1", T0 + 40).await;
        assert!(out[0].text.contains("queued"), "{name}: {}", out[0].text);
        let row = svc.store().analysis(1).await.unwrap().unwrap();
        assert_eq!(row.status, AnalysisStatus::Queued, "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_that_crashes_once_is_started_again_and_the_position_tried_again() {
    assert!(engines_present());
    let dir = TempDir::new("analysis-retry");
    // The first engine started crashes at its first search; the next is the real one.
    let marker = dir.0.join("crashed-once");
    let path = dir.0.join("flaky");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nif [ -e {m} ]; then exec /usr/games/stockfish; fi\ntouch {m}\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo uciok;;\n    isready) echo readyok;;\n    go*) exit 1;;\n  esac\ndone\n",
            m = marker.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (svc, posted, _) = analysed_with(&dir, path, 1).await;
    assert!(
        posted[0]
            .text
            .starts_with("Analysis of game #1 by Stockfish"),
        "{}",
        posted[0].text
    );
    assert_eq!(svc.engine_restarts(), 1);
    let row = svc.store().analysis(1).await.unwrap().unwrap();
    assert_eq!(row.status, AnalysisStatus::Done);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_whose_process_died_is_finished_by_the_next_from_what_it_stored() {
    assert!(engines_present());
    let dir = TempDir::new("analysis-restart");
    let db = dir.db();
    let first = service(&db, small()).await;
    start_game(&first, "alice", "bob", "standard", T0).await;
    play(&first, "alice", "bob", &["e4", "e5", "Nf3"]).await;
    say(&first, "resign", "bob", "resign 1", T0 + 20).await;
    say(&first, "ask", "alice", "analyse 1", T0 + 30).await;
    // The next process is started first: its start (migrations on PostgreSQL) may take
    // longer than the claim's lease on a loaded machine.
    let second = service(&db, small()).await;
    // The first process claims it for two seconds (stored in whole seconds, a one-second
    // lease may run out at once), stores the start's evaluation (a value no engine gives,
    // to see it kept), and dies without giving its claim back.
    let claimed = first.store().claim_analysis(2).await.unwrap().unwrap();
    assert_eq!(claimed.game_id, 1);
    let kept = StoredPosition {
        ply: 0,
        mate: false,
        value: 4321,
        line: String::new(),
    };
    assert!(first.store().save_position(1, &kept, 1).await.unwrap());
    drop(first);
    // Held by the dead process: not taken until its claim runs out.
    assert_eq!(second.analyse_next(60).await.unwrap(), None);
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    assert_eq!(second.analyse_next(60).await.unwrap(), Some(1));
    let positions = second.store().analysis_positions(1).await.unwrap();
    assert_eq!(positions.len(), 4);
    assert_eq!(positions[0], kept);
    let row = second.store().analysis(1).await.unwrap().unwrap();
    assert_eq!(row.status, AnalysisStatus::Done);
    let posted = analyse_all(&second).await;
    assert_eq!(posted.len(), 1);
    assert!(
        posted[0].text.contains("Analysis of game #1"),
        "{}",
        posted[0].text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_database_each_take_an_analysis_once() {
    assert!(engines_present());
    let dir = TempDir::new("analysis-two");
    let db = dir.db();
    let a = service(&db, small()).await;
    for (n, (white, black)) in [("alice", "bob"), ("carol", "dave"), ("erin", "frank")]
        .into_iter()
        .enumerate()
    {
        let id = n as i64 + 1;
        start_game(&a, white, black, "standard", T0).await;
        let out = say(
            &a,
            &format!("e4-{id}"),
            white,
            &format!("move {id} e4"),
            T0 + 5,
        )
        .await;
        assert!(out[0].text.contains("played"), "{}", out[0].text);
        say(
            &a,
            &format!("e5-{id}"),
            black,
            &format!("move {id} e5"),
            T0 + 5,
        )
        .await;
        say(
            &a,
            &format!("resign-{id}"),
            black,
            &format!("resign {id}"),
            T0 + 6,
        )
        .await;
        let out = say(
            &a,
            &format!("ask-{id}"),
            white,
            &format!("analyse {id}"),
            T0 + 7,
        )
        .await;
        assert!(out[0].text.contains("queued"), "{}", out[0].text);
    }
    let b = service(&db, small()).await;
    // Both processes work the queue at once until it is empty.
    let work = |svc: Service| async move {
        let mut made = Vec::new();
        while let Some(id) = svc.analyse_next(60).await.unwrap() {
            made.push(id);
        }
        (svc, made)
    };
    let ((a, mut by_a), (b, by_b)) = tokio::join!(work(a), work(b));
    by_a.extend(by_b);
    by_a.sort();
    assert_eq!(by_a, [1, 2, 3], "each analysis made once, by one process");
    // One report each in the outbox.
    let mut reports: Vec<Option<i64>> = analyse_all(&a).await.iter().map(|o| o.game).collect();
    reports.extend(analyse_all(&b).await.iter().map(|o| o.game));
    reports.sort();
    assert_eq!(reports, [Some(1), Some(2), Some(3)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess960_castling_reaches_stockfish_as_king_takes_rook() {
    assert!(engines_present());
    let dir = TempDir::new("analysis-960");
    let svc = service(&dir.db(), small()).await;
    start_game(&svc, "alice", "bob", "chess960 start:518", T0).await;
    let moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6"];
    play(&svc, "alice", "bob", &moves).await;
    say(&svc, "resign", "bob", "resign 1", T0 + 20).await;
    say(&svc, "ask", "alice", "analyse 1", T0 + 30).await;
    let posted = analyse_all(&svc).await;
    assert!(
        posted[0].text.contains("by Stockfish"),
        "{}",
        posted[0].text
    );
    // After castling (`e1h1` under UCI_Chess960), the engine's lines are legal in the
    // game's own positions: it read the castling as the game played it.
    let g = svc.store().game(1).await.unwrap().unwrap();
    let log = svc.store().actions(1).await.unwrap();
    let rules = postal::service::referee::whole_with(svc.registry(), &g, &log).unwrap();
    let stored = svc.store().analysis_positions(1).await.unwrap();
    assert_eq!(stored.len(), moves.len() + 1);
    for p in &stored[7..] {
        let line: Vec<String> = p.line.split_whitespace().map(str::to_string).collect();
        assert!(!line.is_empty(), "ply {}", p.ply);
        let san = rules.line_san(p.ply as usize, &line);
        assert_eq!(
            san.len(),
            line.len(),
            "ply {}: {line:?} read as {san:?}",
            p.ply
        );
    }
}
