//! The printing commands behave like other command-line tools when the reader of their
//! output goes away (issue 15): `postal perft ... | head` stops quietly, no panic.

#[cfg(unix)]
#[test]
fn perft_stops_quietly_when_its_reader_has_closed_the_pipe() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_postal"))
        .args(["perft", "standard", "3", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before anything is printed, as `head` does after its lines.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
    assert_eq!(
        out.status.signal(),
        Some(libc::SIGPIPE),
        "{:?} {stderr}",
        out.status
    );
}
