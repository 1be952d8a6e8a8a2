//! The store and the files it keeps: both backends' behaviour, the bounded WAL,
//! databases written by an earlier release, `postal migrate-db`, and the console binary
//! killed at random moments.

#[path = "../common/mod.rs"]
mod common;

#[macro_use]
mod backends;
mod bench_cli;
mod competition;
mod concurrent_start;
mod crash_kill;
mod due_times;
mod event_keys;
mod lapsing_buttons;
mod migrate_db;
mod packed_log;
mod plain_writes;
mod recorded_events;
mod stored_by_release_12;
mod tournaments;
mod wal;
