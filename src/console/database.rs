//! The console's database commands, which copy whole databases below any game and so
//! use the store itself: `postal backup`, a consistent copy of a running bot's database,
//! and `postal migrate-db`, which copies every game, action and pending message of one
//! database into a new one (SQLite to PostgreSQL, or back), then checks the copy: the
//! same rows in every table, and every copied game replaying from its log to its stored
//! state.

use crate::service::export::{check_database_exists, NoDatabase};
use crate::service::replay::check_replay;
use crate::store::{database_name, Copied, Store, StoreError};
use crate::variants::Registry;

/// Why a backup could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database file does not exist.
    #[error(transparent)]
    NoDatabase(#[from] NoDatabase),
    /// The database could not be opened.
    #[error(transparent)]
    Open(#[from] StoreError),
    /// The copy could not be written to `out`.
    #[error("{out}: {error}")]
    Write {
        /// The file asked for.
        out: String,
        /// What the database said.
        error: StoreError,
    },
}

/// Why a migration did not copy everything.
#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    /// The source database file does not exist.
    #[error(transparent)]
    NoDatabase(#[from] NoDatabase),
    /// A database could not be opened, read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The rows counted in the source, copied and found in the target differ.
    #[error(
        "the copy differs from its source (source {:?}, copied {:?}, target {:?})",
        .before.0, .copied.0, .after.0
    )]
    Differs {
        /// The source's rows per table.
        before: Copied,
        /// The rows the copy wrote.
        copied: Copied,
        /// The target's rows per table.
        after: Copied,
    },
    /// A copied game does not replay to its stored state; the text says which and how.
    #[error("{0}")]
    Replay(String),
}

/// `postal backup`: a consistent copy of the database at `db` in the new file `out`,
/// made while the bot may be running (SQLite's `VACUUM INTO`). A database that does not
/// exist is an error, never created.
pub async fn backup(db: &str, out: &std::path::Path) -> Result<(), BackupError> {
    check_database_exists(db)?;
    let store = Store::open_read_only(db).await?;
    let out = out.to_string_lossy();
    let result = store
        .backup(&out)
        .await
        .map_err(|error| BackupError::Write {
            out: out.to_string(),
            error,
        });
    store.close().await;
    result
}

/// Copies the database at `from` into the empty database at `to` and verifies the copy;
/// a summary of what was copied, or why nothing (or not all of it) could be.
pub async fn migrate_db(from: &str, to: &str) -> Result<String, MigrateError> {
    check_database_exists(from)?;
    let source = Store::open_read_only(from).await?;
    let target = match Store::open(to).await {
        Ok(target) => target,
        Err(e) => {
            source.close().await;
            return Err(e.into());
        }
    };
    let result = copy_and_verify(&source, &target).await;
    source.close().await;
    target.close().await;
    let copied = result?;
    Ok(format!(
        "copied {} into {}: {copied}; every game replays to its stored state",
        database_name(from),
        database_name(to)
    ))
}

async fn copy_and_verify(source: &Store, target: &Store) -> Result<String, MigrateError> {
    let before = source.row_counts().await?;
    let copied = source.copy_into(target).await?;
    let after = target.row_counts().await?;
    if copied != before || after != before {
        return Err(MigrateError::Differs {
            before,
            copied,
            after,
        });
    }
    let registry = Registry::builtin();
    for id in target.game_ids().await? {
        let game = target.game(id).await?;
        let log = target.actions(id).await?;
        if let Some(game) = game {
            check_replay(&registry, &game, &log)
                .map_err(|e| MigrateError::Replay(e.to_string()))?;
        }
    }
    Ok(copied
        .0
        .iter()
        .map(|(table, n)| format!("{n} {table}"))
        .collect::<Vec<_>>()
        .join(", "))
}
