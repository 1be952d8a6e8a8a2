//! The README's quick start: `postal` with no command opens the console when no Discord
//! token is set, on the configured database (issue 39).

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn postal_alone_without_a_token_plays_in_the_console_on_the_default_database() {
    let dir = std::env::temp_dir().join(format!("postal-quick-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_postal"))
        .current_dir(&dir)
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .env_remove("POSTAL_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"alice: challenge @bob standard colour:white\nbob: accept\nalice: e4\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("no DISCORD_TOKEN"), "says why: {stderr}");
    assert!(stdout.contains("alice (White) played e4"), "{stdout}");
    // The game is kept in the default database, postal.db in the working directory.
    assert!(dir.join("postal.db").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
