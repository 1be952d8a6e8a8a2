//! `postal bench service` and `postal bench backends` run by the binary: every move of
//! every game is accepted (the benches fail on the first refusal), the counts they report
//! are the games asked for, and a database file that exists already is refused.

use crate::common;

use common::service::TempDir;
use std::process::Command;

/// Runs `postal bench ARGS`: whether it succeeded, its standard output and error.
fn bench(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_postal"))
        .arg("bench")
        .args(args)
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_service_bench_plays_every_move_and_keeps_a_database_it_is_given() {
    let dir = TempDir::new("bench-cli");
    let db = dir.0.join("bench.db").display().to_string();
    let (ok, out, err) = bench(&["service", "--games", "3", "--db", &db]);
    assert!(ok, "{err}");
    // The Opera game, 33 moves, three times.
    assert!(out.contains("3 games, 99 moves in "), "{out}");
    assert!(std::path::Path::new(&db).exists());

    let (ok, _, err) = bench(&["service", "--games", "1", "--db", &db]);
    assert!(!ok && err.contains("exists"), "{err}");

    // Bare moves, with another user holding open challenges in the same channels.
    let crowded = dir.0.join("crowded.db").display().to_string();
    let (ok, out, err) = bench(&["service", "--games", "2", "--crowd", "30", "--db", &crowded]);
    assert!(ok, "{err}");
    assert!(out.contains("2 games, 66 moves in "), "{out}");
}

#[test]
fn the_backends_bench_plays_every_move_with_one_and_two_services() {
    let (ok, out, err) = bench(&["backends", "--games", "4"]);
    assert!(ok, "{err}");
    for label in ["SQLite file, 1 service(s)", "SQLite file, 2 service(s)"] {
        let line = out.lines().find(|l| l.starts_with(label));
        assert!(
            line.is_some_and(|l| l.ends_with("(132 moves)")),
            "{label} in:\n{out}"
        );
    }
}

#[test]
fn the_service_bench_plays_exactly_the_count_of_moves_it_is_given() {
    let dir = TempDir::new("bench-count");
    let db = dir.0.join("count.db").display().to_string();
    // Three games set up; 40 moves: the first game's 33 and 7 of the second.
    let (ok, out, err) = bench(&["service", "--games", "3", "--count", "40", "--db", &db]);
    assert!(ok, "{err}");
    assert!(
        out.contains("3 games set up, 40 moves played, 1 games finished"),
        "{out}"
    );
    // No more than the games hold.
    let all = dir.0.join("all.db").display().to_string();
    let (ok, out, err) = bench(&["service", "--games", "2", "--count", "1000", "--db", &all]);
    assert!(ok, "{err}");
    assert!(out.contains("66 moves played, 2 games finished"), "{out}");
}

#[test]
fn the_deadline_bench_runs_its_checks_over_the_games_it_stores() {
    let (ok, out, err) = bench(&["deadlines", "--games", "500", "--ticks", "3"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("deadline bench: 500 active games; first check "),
        "{out}"
    );
    assert!(out.contains("then 3 checks"), "{out}");
}
