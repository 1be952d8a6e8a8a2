//! `postal migrate-db`: games played through the console into a SQLite file (several
//! variants, hidden information among them, a game left unfinished) are copied into
//! PostgreSQL and back into a new SQLite file by the binary; every export of every game
//! is the same from each copy. Without `POSTAL_TEST_POSTGRES` the copy goes from one
//! SQLite file to another (saying the PostgreSQL part is skipped).

use crate::common;

use common::postgres::Schema;
use common::service::{console, TempDir};
use std::process::Command;

/// The transcripts whose games are copied: Double Move, Chesswords (cards), Booster (a
/// deck), Cloak and Dagger (secret set-ups), Gravity; each is played into a database of
/// its own, with a game left unfinished after it.
const SCRIPTS: &[&str] = &[
    "double-move",
    "chesswords-game",
    "booster-game",
    "cloak-game",
    "gravity-game",
];

fn migrate(from: &str, to: &str) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_postal"))
        .args(["migrate-db", "--from", from, "--to", to])
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every export (PGN and JSON) of every game of the database at `db`.
fn exports(db: &str) -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    for id in 1.. {
        let pgn = postal::console::block_on(postal::console::export(db, id, "pgn")).unwrap();
        match pgn {
            Ok(bytes) => all.push(bytes),
            Err(postal::service::export::ExportError::NoGame(_)) => break,
            Err(e) => panic!("game #{id}: {e}"),
        }
        let json = postal::console::block_on(postal::console::export(db, id, "json")).unwrap();
        all.push(json.unwrap());
    }
    all
}

#[test]
fn every_game_survives_a_copy_to_postgres_and_back() {
    let root = crate::common::root().join("tests/transcripts");
    for name in SCRIPTS {
        let dir = TempDir::new("migrate");
        let source = dir.0.join("source.db").display().to_string();
        let mut script = std::fs::read_to_string(root.join(format!("{name}.txt"))).unwrap();
        // A game left in the middle: its deadline and state must come along.
        script += "\ncarol: challenge @dave standard colour:white\ndave: accept\ncarol: e4\n";
        console(&source, &dir.0.join("images"), &script);
        let before = exports(&source);
        assert!(before.len() >= 4, "{name}: {} exports", before.len());

        let schema = Schema::for_test("migrate-db into PostgreSQL");
        let middle = match &schema {
            Some(s) => s.url(),
            None => dir.0.join("middle.db").display().to_string(),
        };
        let (ok, said) = migrate(&source, &middle);
        assert!(ok, "{name}: {said}");
        assert!(said.contains("every game replays"), "{name}: {said}");
        assert_eq!(exports(&middle), before, "{name}");

        // Into a database that has rows: refused, and nothing changes.
        let (ok, said) = migrate(&source, &middle);
        assert!(!ok && said.contains("not empty"), "{name}: {said}");
        assert_eq!(exports(&middle), before, "{name}");

        let back = dir.0.join("back.db").display().to_string();
        let (ok, said) = migrate(&middle, &back);
        assert!(ok, "{name}: {said}");
        assert_eq!(exports(&back), before, "{name}");
    }
}

#[test]
fn a_missing_source_is_refused_and_creates_nothing() {
    let dir = TempDir::new("migrate-missing");
    let from = dir.0.join("nothing.db").display().to_string();
    let to = dir.0.join("new.db").display().to_string();
    let (ok, said) = migrate(&from, &to);
    assert!(!ok && said.contains("no such database file"), "{said}");
    assert!(!std::path::Path::new(&from).exists());
    assert!(!std::path::Path::new(&to).exists());
}
