//! The printing commands behave like other command-line tools when the reader of their
//! output goes away (issue 15): `postal perft ... | head` stops quietly, no panic.

/// Runs `postal perft standard 3 --divide` with its output read by nobody: its exit
/// status and standard error.
#[cfg(unix)]
fn perft_unread() -> (std::process::ExitStatus, String) {
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
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(unix)]
#[test]
fn perft_stops_quietly_when_its_reader_has_closed_the_pipe() {
    use std::os::unix::process::ExitStatusExt;
    // perft's few lines fit in the pipe, so it ends normally when it writes them while
    // the reading end is still open somewhere: here, if this test is descheduled between
    // starting it and closing the end; or in another test of this crate starting a
    // process at that moment, which holds a copy of the end until its own program starts
    // (fork, then exec). So it runs until one run has written to a pipe nobody holds;
    // every run must end quietly.
    let mut statuses = Vec::new();
    for _ in 0..10 {
        let (status, stderr) = perft_unread();
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_ne!(status.code(), Some(101), "{stderr}");
        assert!(
            status.success() || status.signal() == Some(libc::SIGPIPE),
            "{status:?} {stderr}"
        );
        if status.signal() == Some(libc::SIGPIPE) {
            return;
        }
        statuses.push(status);
    }
    panic!("perft was never stopped by SIGPIPE: {statuses:?}");
}
