//! Opening and closing the database: for writing (created if needed, migrated, WAL with
//! a background checkpoint), or for reading alone (never created, never changed, also on
//! a read-only file); and the online backup.

use super::{checkpoint, outbox, Store, StoreError};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::Row;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The file a database URL names (`sqlite://postal.db`, `sqlite:postal.db`, `postal.db`),
/// for messages; the URL itself for an in-memory database.
pub fn database_file(url: &str) -> &str {
    url.strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url)
}

/// `url` as sqlx reads it.
fn sqlx_url(url: &str) -> String {
    if url.starts_with("sqlite:") {
        url.to_string()
    } else {
        format!("sqlite://{url}")
    }
}

/// An error of opening `url`, naming its file.
fn naming(url: &str) -> impl Fn(String) -> StoreError + '_ {
    move |e| StoreError::Open(format!("{}: {e}", database_file(url)))
}

impl Store {
    /// Opens (creating if needed) the database at `url` (`sqlite://postal.db`,
    /// `postal.db`, or `sqlite::memory:`), applies the migrations. An error names the
    /// file ([`StoreError::Open`]).
    ///
    /// A file database is in WAL mode with the automatic checkpoint off: a background task
    /// checkpoints it every quarter of a second, so that no command waits for one. Must be
    /// called within a Tokio runtime.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let err = naming(url);
        let memory = url.contains(":memory:");
        let mut opts = SqliteConnectOptions::from_str(&sqlx_url(url))
            .map_err(|e| err(e.to_string()))?
            .create_if_missing(true)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10))
            .journal_mode(if memory {
                SqliteJournalMode::Memory
            } else {
                SqliteJournalMode::Wal
            })
            .synchronous(SqliteSynchronous::Normal);
        if !memory {
            opts = opts.pragma("wal_autocheckpoint", "0").pragma(
                "journal_size_limit",
                checkpoint::JOURNAL_SIZE_LIMIT.to_string(),
            );
        }
        // An in-process SQLite connection cannot go stale, so it is not pinged on every
        // acquire (that ping is a round trip to the connection's thread).
        let pool = SqlitePoolOptions::new()
            .max_connections(if memory { 1 } else { 4 })
            .test_before_acquire(false)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(opts)
            .await
            .map_err(|e| err(e.to_string()))?;
        MIGRATOR.run(&pool).await.map_err(|e| err(e.to_string()))?;
        let checkpoint = (!memory).then(|| Arc::new(checkpoint::Checkpoint::spawn(pool.clone())));
        Ok(Store {
            pool,
            checkpoint,
            claimer: outbox::new_claimer().into(),
            read_only: false,
        })
    }

    /// Opens the existing database at `url` for reading alone (`export`, `backup`): it is
    /// never created, migrated or written, so a read-only file (or a file on read-only
    /// media) serves. A database that an older `postal` wrote and that needs migrating is
    /// refused, naming the file: a command that writes updates it.
    pub async fn open_read_only(url: &str) -> Result<Store, StoreError> {
        let err = naming(url);
        let base = SqliteConnectOptions::from_str(&sqlx_url(url))
            .map_err(|e| err(e.to_string()))?
            .create_if_missing(false)
            .read_only(true)
            .busy_timeout(Duration::from_secs(10));
        let connect = |opts: SqliteConnectOptions| {
            SqlitePoolOptions::new()
                .max_connections(1)
                .test_before_acquire(false)
                .connect_with(opts)
        };
        // A database in WAL mode on media where its shared-memory file cannot be made is
        // read as immutable: nothing can be writing to it there.
        let pool = match connect(base.clone()).await {
            Ok(pool) => pool,
            Err(_) => connect(base.immutable(true))
                .await
                .map_err(|e| err(e.to_string()))?,
        };
        let applied: i64 = sqlx::query("SELECT coalesce(max(version), 0) FROM _sqlx_migrations")
            .fetch_one(&pool)
            .await
            .map(|r| r.get(0))
            .map_err(|e| err(format!("not a postal database ({e})")))?;
        let known = MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0);
        if applied < known {
            pool.close().await;
            return Err(err(format!(
                "written by an older postal (schema {applied}, this one needs {known}): open it once with `postal console --db` or `postal run`, which update it"
            )));
        }
        Ok(Store {
            pool,
            checkpoint: None,
            claimer: outbox::new_claimer().into(),
            read_only: true,
        })
    }

    /// Releases the outbox messages this process claimed and did not deliver (another
    /// process may take them at once), stops the background checkpoint, copies the whole
    /// WAL into the database file and empties it, and closes the pool: after a clean stop
    /// the database file alone holds every game (a copy of it is a backup; `postal backup`
    /// makes one while running).
    pub async fn close(&self) {
        if !self.read_only {
            if let Err(e) = self.release_claims().await {
                tracing::warn!(error = %e, "the outbox messages claimed could not be released");
            }
        }
        if let Some(c) = &self.checkpoint {
            c.stop();
            if let Err(e) = checkpoint::truncate(&self.pool).await {
                tracing::warn!(error = %e, "the last WAL checkpoint failed");
            }
        }
        self.pool.close().await;
    }

    /// Writes a consistent copy of the whole database to the new file `path`
    /// (`VACUUM INTO`), while it is in use: the way to back up a running bot.
    pub async fn backup(&self, path: &str) -> Result<(), StoreError> {
        if std::path::Path::new(path).exists() {
            return Err(StoreError::Refused(format!(
                "{path} exists already: a backup is written to a new file"
            )));
        }
        sqlx::query("VACUUM INTO ?")
            .bind(path)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
