//! Input hygiene of the console (issue 14): a line that is not UTF-8 is reported and
//! skipped, the simulated clock only moves forward and refuses to overflow, and the
//! commands that only read a database (`export`, `backup`) never create one.

use crate::common;

use common::service::TempDir;
use postal::service::settings::Settings;
use postal::variants::Registry;

/// Runs the console over `input` (bytes, not necessarily UTF-8) on `db`.
fn console(db: &str, input: &[u8]) -> Result<String, String> {
    let opts = postal::console::Options {
        db: db.into(),
        settings: Settings {
            seed: Some(1),
            ..Default::default()
        },
        images: None,
        registry: Registry::builtin(),
    };
    let mut out = Vec::new();
    postal::console::block_on(postal::console::run(&opts, input, &mut out))
        .map_err(|e| e.to_string())??;
    Ok(String::from_utf8(out).unwrap())
}

#[test]
fn a_line_that_is_not_utf8_is_skipped_and_the_session_goes_on() {
    let mut input = b"alice: challenge @bob colour:white\n".to_vec();
    input.extend_from_slice(b"bob: acc\xff\xfeept\n");
    input.extend_from_slice(b"bob: accept\nalice: e4\n");
    let out = console("sqlite::memory:", &input).unwrap();
    assert!(
        out.contains("-- line 2 is not UTF-8 text: skipped"),
        "{out}"
    );
    assert!(out.contains("played e4"), "{out}");
}

#[test]
fn the_clock_moves_forward_only_and_never_overflows() {
    let input = "# clock +-3d\n# clock +3\n# clock +99999999999999999d\n# clock +2d\n";
    let out = console("sqlite::memory:", input.as_bytes()).unwrap();
    let bad = out
        .lines()
        .filter(|l| l.starts_with("-- bad clock directive"))
        .count();
    assert_eq!(bad, 3, "{out}");
    // The one good step: two days after the console's epoch, 2026-01-01.
    assert!(out.contains("-- clock 2026-01-03 00:00 UTC"), "{out}");
    // The largest step there is (i64::MAX seconds, in minutes) runs past the end of time
    // from the console's epoch: refused, and the clock stays where it was.
    let out = console("sqlite::memory:", b"# clock +153722867280912930m\n").unwrap();
    assert!(out.starts_with("-- bad clock directive"), "{out}");
}

#[test]
fn export_and_backup_never_create_a_database() {
    let dir = TempDir::new("no-create");
    let missing = dir.0.join("typo.db");
    let db = missing.to_string_lossy().to_string();
    let e = postal::console::block_on(postal::console::export(&db, 1, "pgn"))
        .unwrap()
        .unwrap_err();
    assert!(
        matches!(e, postal::service::export::ExportError::NoDatabase(_)),
        "{e}"
    );
    assert!(e.to_string().contains("no such database file"), "{e}");
    let e = postal::console::block_on(postal::console::backup(&db, &dir.0.join("b.db")))
        .unwrap()
        .unwrap_err()
        .to_string();
    assert!(e.contains("no such database file"), "{e}");
    assert!(!missing.exists(), "no database was created");
}

/// SIGTERM (and Ctrl-C) stop `postal console` gracefully, even while it waits for input:
/// it exits with success, the move it acknowledged is in the database file, and the WAL
/// has been checkpointed into it.
#[cfg(unix)]
#[test]
fn the_console_stops_gracefully_on_sigterm_while_waiting_for_input() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let dir = TempDir::new("console-term");
    let db = dir.db();
    let mut child = Command::new(env!("CARGO_BIN_EXE_postal"))
        .args(["console", "--db", &db, "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "alice: challenge @bob colour:white\nbob: accept\nalice: e4"
    )
    .unwrap();
    stdin.flush().unwrap();
    // Read until the move is answered; stdin stays open, so the console then waits.
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    loop {
        let line = lines
            .next()
            .expect("the console answered the move")
            .unwrap();
        let answered =
            seen.iter().any(|l: &String| l == "alice: e4") && line.starts_with("[#games]");
        seen.push(line);
        if answered {
            break;
        }
    }
    // SAFETY: kill only sends a signal to the child this test started and still holds.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(sent, 0, "the signal was sent");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(stderr.contains("stopped by SIGTERM"), "{stderr}");
    drop(stdin);
    let wal = std::path::PathBuf::from(format!("{db}-wal"));
    assert_eq!(wal.metadata().map_or(0, |m| m.len()), 0, "the WAL is empty");
    // The database file alone holds the game and its move.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = postal::store::Store::open(&db).await.unwrap();
        let g = store.game(1).await.unwrap().expect("game #1 is stored");
        assert_eq!(g.status, "active");
        assert_eq!(store.actions(1).await.unwrap().len(), 1, "{seen:?}");
        store.close().await;
    });
}

/// `export` and `backup` only read: they work on a database file nobody may write, change
/// nothing in it (not even a WAL beside it), and an error names the database file.
#[test]
fn export_and_backup_read_a_read_only_database_and_errors_name_the_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("read-only");
    let db = dir.db();
    console(
        &db,
        b"alice: challenge @bob colour:white\nbob: accept\nalice: e4\n",
    )
    .unwrap();
    let file = std::path::PathBuf::from(&db);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o555)).unwrap();
    let before = std::fs::read(&file).unwrap();
    let pgn = postal::console::block_on(postal::console::export(&db, 1, "pgn"))
        .unwrap()
        .unwrap();
    assert!(String::from_utf8(pgn).unwrap().contains("1. e4"));
    let copies = TempDir::new("read-only-backup");
    let copy = copies.0.join("copy.db");
    postal::console::block_on(postal::console::backup(&db, &copy))
        .unwrap()
        .unwrap();
    assert!(copy.is_file());
    std::fs::set_permissions(&dir.0, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the database is unchanged"
    );
    // Where the directory lets SQLite make its shared-memory files (as root, say), a
    // reader may leave an empty WAL beside the file; nothing is written to it.
    let wal = std::path::PathBuf::from(format!("{db}-wal"));
    assert_eq!(wal.metadata().map_or(0, |m| m.len()), 0, "nothing in a WAL");
    // A file that is not a postal database, and a database that cannot be made: both
    // errors name the file.
    let other = dir.0.join("other.db");
    std::fs::write(&other, b"").unwrap();
    let other = other.to_string_lossy().to_string();
    let e = postal::console::block_on(postal::console::export(&other, 1, "pgn"))
        .unwrap()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&other) && e.contains("not a postal database"),
        "{e}"
    );
    let nowhere = dir.0.join("no-such-dir").join("postal.db");
    let nowhere = nowhere.to_string_lossy().to_string();
    let e =
        postal::console::block_on(async { postal::store::Store::open(&nowhere).await.map(|_| ()) })
            .unwrap()
            .unwrap_err()
            .to_string();
    assert!(e.contains(&nowhere), "{e}");
}

/// What phones and word processors add to a line is cleaned before it is read: a
/// zero-width space after a pasted move, full-width letters, typographic quotes around a
/// position (issue 15).
#[test]
fn pasted_moves_and_typographic_quotes_are_read_as_typed() {
    let dir = TempDir::new("pasted");
    let out = console(
        &dir.db(),
        "alice: challenge @bob colour:white fen:“4k3/8/8/8/8/8/4P3/4K3 w - - 0 1”\n\
         bob: accept\n\
         alice: e4\u{200B}\n\
         bob: ｍｏｖｅ\u{3000}Ｋｄ７\n"
            .as_bytes(),
    )
    .unwrap();
    assert!(!out.contains("unknown"), "{out}");
    assert!(out.contains("alice (White) played e4"), "{out}");
    assert!(out.contains("bob (Black) played Kd7"), "{out}");
}
