//! Processes starting at once on a new SQLite file take turns to create and migrate it
//! (the store locks the file's directory around the open): every one of them starts,
//! none fails with "table ... already exists", and the file ends migrated once.

use crate::common::service::TempDir;
use std::io::Write;
use std::process::{Command, Stdio};

/// Consoles started at once, per file.
const PROCESSES: usize = 8;

/// Files tried, each new.
const ROUNDS: usize = 3;

#[test]
fn consoles_started_at_once_on_a_new_file_all_start() {
    let dir = TempDir::new("concurrent-start");
    for round in 0..ROUNDS {
        let db = dir.0.join(format!("fresh-{round}.db"));
        let db = db.to_str().unwrap();
        let children: Vec<_> = (0..PROCESSES)
            .map(|_| {
                let mut child = Command::new(env!("CARGO_BIN_EXE_postal"))
                    .args(["console", "--db", db])
                    .current_dir(&dir.0)
                    .env_remove("POSTAL_CONFIG")
                    .env_remove("DATABASE_URL")
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                // A line each reads once it has started: `help` needs the database open.
                writeln!(child.stdin.take().unwrap(), "help").unwrap();
                child
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() && !stderr.contains("already exists"),
                "round {round}: a console failed to start ({}): {stderr}",
                out.status
            );
        }
    }
}
