//! The turn processes take to open a SQLite database for writing: its directory is
//! locked (`flock`, exclusive) from before the first connection until the migrations are
//! applied, so that processes starting at once on a new file apply them one after the
//! other; the first creates the tables, the others find them. PostgreSQL has the same
//! from the migrator's advisory lock.
//!
//! The directory, not the database file: closing any descriptor of the database file
//! would drop the POSIX locks SQLite's own connections in this process hold on it, and a
//! lock file of its own would stay beside the database. The lock is held for the few
//! milliseconds of an open, so other databases of the same directory wait no longer.

use std::fs::File;
use std::io;
use std::path::Path;

/// The directory lock, released when dropped (its descriptor closed).
#[derive(Debug)]
pub(super) struct OpenLock {
    _dir: File,
}

impl OpenLock {
    /// Waits, on a blocking thread, for the lock of the directory holding the database
    /// file `path`.
    pub(super) async fn take(path: &Path) -> io::Result<OpenLock> {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => Path::new(".").to_path_buf(),
        };
        tokio::task::spawn_blocking(move || {
            let dir = File::open(&dir)?;
            lock(&dir)?;
            Ok(OpenLock { _dir: dir })
        })
        .await
        .map_err(io::Error::other)?
    }
}

/// Takes the exclusive `flock` of `file`, waiting for it (again if a signal interrupts).
#[cfg(unix)]
fn lock(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: `flock` reads only the descriptor, which `file` owns and keeps open for
        // the call.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Elsewhere no lock: processes there do not take turns.
#[cfg(not(unix))]
fn lock(_: &File) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_second_open_waits_for_the_first_to_finish() {
        let dir = std::env::temp_dir().join(format!("postal-open-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("a.db");
        let first = OpenLock::take(&db).await.unwrap();
        let second = tokio::spawn({
            let db = db.clone();
            async move { OpenLock::take(&db).await.map(|_| ()) }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!second.is_finished(), "the second open did not wait");
        drop(first);
        tokio::time::timeout(Duration::from_secs(5), second)
            .await
            .expect("the second open still waits after the first let go")
            .unwrap()
            .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn a_file_without_a_directory_locks_the_current_one() {
        drop(OpenLock::take(Path::new("postal.db")).await.unwrap());
    }
}
