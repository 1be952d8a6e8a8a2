//! SQLite's process-wide settings, made once before the first connection opens
//! ([`configure`]): SQLite reads them only before it initialises.
//!
//! - **Memory statistics off** (`SQLITE_CONFIG_MEMSTATUS`): with them on, every
//!   allocation and free SQLite makes takes and releases a global mutex to count it
//!   (about 78 allocations a move); nothing in Postal reads the counts (no soft heap
//!   limit is set).
//! - **Multi-thread mode** (`SQLITE_CONFIG_MULTITHREAD`): a connection is never used by
//!   two threads at once (sqlx gives each to one worker thread), so SQLite need not lock
//!   each connection and statement; sqlx already opens its connections without those
//!   mutexes (`SQLITE_OPEN_NOMUTEX`), and this makes it the default for any other.
//! - **A larger lookaside** (`SQLITE_CONFIG_LOOKASIDE`): each connection's pool of small
//!   allocations, served without the allocator, [`LOOKASIDE_SLOTS`] slots of
//!   [`LOOKASIDE_SLOT`] bytes (240 KB a connection) where the default is 40 (48 KB), so
//!   that a write's statements and their frames fit in it.
//!
//! Set at run time rather than by compiling SQLite with other options: the bundled
//! SQLite is built by `libsqlite3-sys`'s build script, which every developer and CI
//! would have to run with the same environment.

use libsqlite3_sys as ffi;
use std::ffi::c_int;
use std::sync::OnceLock;

/// Bytes of a lookaside slot (SQLite's default).
pub const LOOKASIDE_SLOT: c_int = 1200;

/// Lookaside slots per connection (SQLite's default is 40).
pub const LOOKASIDE_SLOTS: c_int = 200;

/// What [`configure`] found: whether SQLite took the settings (`false` when SQLite had
/// already been initialised in this process by something else, which then keeps its
/// defaults).
static APPLIED: OnceLock<bool> = OnceLock::new();

/// Applies the settings, the first time it is called in the process; returns whether
/// SQLite took them.
pub fn configure() -> bool {
    *APPLIED.get_or_init(|| {
        let off: c_int = 0;
        // SAFETY: `sqlite3_config` is called with each option's documented arguments
        // (an int; none; two ints), before this process opens a connection through the
        // store; if SQLite was initialised already it refuses with SQLITE_MISUSE and
        // changes nothing.
        let codes = unsafe {
            [
                ffi::sqlite3_config(ffi::SQLITE_CONFIG_MULTITHREAD),
                ffi::sqlite3_config(ffi::SQLITE_CONFIG_MEMSTATUS, off),
                ffi::sqlite3_config(
                    ffi::SQLITE_CONFIG_LOOKASIDE,
                    LOOKASIDE_SLOT,
                    LOOKASIDE_SLOTS,
                ),
            ]
        };
        let applied = codes.iter().all(|&c| c == ffi::SQLITE_OK);
        if !applied {
            tracing::debug!(
                ?codes,
                "SQLite was initialised before the store: its defaults stay"
            );
        }
        applied
    })
}

/// The memory SQLite counts as in use now and at its highest (both 0 while its memory
/// statistics are off).
#[cfg(test)]
fn memory_counted() -> (i64, i64) {
    let (mut now, mut high) = (0i64, 0i64);
    // SAFETY: two valid pointers to i64s, as `sqlite3_status64` takes.
    unsafe {
        ffi::sqlite3_status64(ffi::SQLITE_STATUS_MEMORY_USED, &mut now, &mut high, 0);
    }
    (now, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn sqlite_counts_no_memory_once_the_store_has_configured_it() {
        let store = crate::store::Store::open("sqlite::memory:").await.unwrap();
        store.ping().await.unwrap();
        assert!(configure(), "SQLite took the settings");
        assert_eq!(memory_counted(), (0, 0));
    }
}
