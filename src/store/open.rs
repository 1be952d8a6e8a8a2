//! Opening and closing the database: for writing (created if needed, migrated; SQLite in
//! WAL with a background checkpoint), or for reading alone (never created, never changed,
//! also on a read-only file); and the online backup of a SQLite file.

use super::migrations::{migrator, Schema};
use super::open_lock::OpenLock;
use super::{checkpoint, on_pool, outbox, Backend, Pool, Store, StoreError};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::Row;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// The page size of a new SQLite database, in bytes: SQLite's smallest but one. Each
/// table and index holds at least a page, most of them nearly empty in a small database,
/// and a game row (its snapshot) still fits in one: with SQLite's default (4096), 740 of
/// the 4669 bytes per game of `postal bench service` (docs/benchmarks.md).
pub const PAGE_SIZE: u32 = 1024;

/// Connections a PostgreSQL store keeps at most, per process.
pub const POSTGRES_CONNECTIONS: u32 = 8;

/// The connections of a SQLite store: one. SQLite has one writer at a time whatever the
/// connections, and a connection keeps its page cache only while no other connection
/// writes: with several, the pool hands them out in turn, so every command found the
/// database changed by another and read each page it needed again (a sixth of a move's
/// instructions in `postal bench service`). A command's statements are short; a reader
/// now waits for a write in progress rather than running beside it.
pub const SQLITE_CONNECTIONS: u32 = 1;

/// The file a database URL names (`sqlite://postal.db`, `sqlite:postal.db`, `postal.db`),
/// for messages; the URL itself for an in-memory database.
pub fn database_file(url: &str) -> &str {
    url.strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url)
}

/// The database `url` names, for messages and logs: a SQLite file's path, or a
/// PostgreSQL URL, without any secret ([`super::redact_url`]).
pub fn database_name(url: &str) -> String {
    if Backend::of_url(url) == Backend::Sqlite {
        return super::redact_url(database_file(url));
    }
    super::redact_url(url)
}

/// `url` as sqlx reads it.
fn sqlx_url(url: &str) -> String {
    if url.starts_with("sqlite:") {
        url.to_string()
    } else {
        format!("sqlite://{url}")
    }
}

/// An error of opening `url`, naming its database, with no secret of the URL in it.
fn naming(url: &str) -> impl Fn(String) -> StoreError + '_ {
    move |e| StoreError::Open(super::scrub(&format!("{}: {e}", database_name(url)), url))
}

impl Store {
    /// Opens the database at `url`, applying the migrations: a SQLite file
    /// (`sqlite://postal.db`, `postal.db`; created if needed), `sqlite::memory:`, or a
    /// PostgreSQL database (`postgres://user@host:5432/postal`, which must exist). An
    /// error names the database ([`StoreError::Open`]). Must be called within a Tokio
    /// runtime.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        match Backend::of_url(url) {
            Backend::Sqlite => Store::open_sqlite(url).await,
            Backend::Postgres => Store::open_postgres(url, false).await,
        }
    }

    /// Opens a SQLite database, created if needed (with pages of [`PAGE_SIZE`] bytes). A
    /// file database is in WAL mode with the automatic checkpoint off: a background task
    /// checkpoints it every quarter of a second, so that no command waits for one, and a
    /// writer whose commit leaves the WAL past its bound empties it itself
    /// (`checkpoint::bound_wal`). Processes opening one file at once take turns until it
    /// is migrated (`open_lock`).
    async fn open_sqlite(url: &str) -> Result<Store, StoreError> {
        super::sqlite_config::configure();
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
            .synchronous(SqliteSynchronous::Normal)
            // What is deleted is overwritten with zeros, in the file and so in a later
            // backup: a forgotten player's name is not left in free pages.
            .pragma("secure_delete", "on")
            // A new database's pages (an existing one keeps its own: the size is fixed
            // once it is in WAL mode): a small database is mostly pages its tables and
            // indexes have each started, and a commit writes each page it changes to the
            // WAL whole.
            .page_size(PAGE_SIZE);
        if !memory {
            opts = opts.pragma("wal_autocheckpoint", "0").pragma(
                "journal_size_limit",
                checkpoint::JOURNAL_SIZE_LIMIT.to_string(),
            );
        }
        // An in-process SQLite connection cannot go stale, so it is not pinged on every
        // acquire (that ping is a round trip to the connection's thread). One connection
        // ([`SQLITE_CONNECTIONS`]).
        let mut pool = SqlitePoolOptions::new()
            .max_connections(SQLITE_CONNECTIONS)
            .test_before_acquire(false)
            .idle_timeout(None)
            .max_lifetime(None);
        if !memory {
            // The WAL's bound, held by the writers when the background task is behind.
            pool = pool.after_connect(|conn, _| {
                Box::pin(async move {
                    checkpoint::bound_wal(&mut conn.lock_handle().await?);
                    Ok(())
                })
            });
        }
        // Processes opening the file at once take turns until it is migrated: held to
        // the end of this function.
        let _turn = match memory {
            true => None,
            false => Some(
                OpenLock::take(opts.get_filename())
                    .await
                    .map_err(|e| err(format!("cannot lock its directory: {e}")))?,
            ),
        };
        let pool = pool
            .connect_with(opts)
            .await
            .map_err(|e| err(e.to_string()))?;
        let migrations = migrator(Schema::Sqlite)
            .await
            .map_err(|e| err(e.to_string()))?;
        migrations
            .run(&pool)
            .await
            .map_err(|e| err(e.to_string()))?;
        let checkpoint = (!memory).then(|| Arc::new(checkpoint::Checkpoint::spawn(pool.clone())));
        Ok(Store {
            pool: Pool::Sqlite(pool),
            checkpoint,
            claimer: outbox::new_claimer().into(),
            read_only: false,
        })
    }

    /// Opens a PostgreSQL database, migrated (several processes starting at once take
    /// turns: the migrator holds an advisory lock), or for reading alone (every
    /// transaction read-only, the schema checked but never changed).
    async fn open_postgres(url: &str, read_only: bool) -> Result<Store, StoreError> {
        let err = naming(url);
        if let Some(key) = super::redact::foreign_password_param(url) {
            return Err(err(format!(
                "the parameter {key} is not supported: the password goes in the URL's user information or in password="
            )));
        }
        let mut opts = PgConnectOptions::from_str(url).map_err(|e| err(e.to_string()))?;
        if read_only {
            opts = opts.options([("default_transaction_read_only", "on")]);
        }
        let pool = PgPoolOptions::new()
            .max_connections(if read_only { 1 } else { POSTGRES_CONNECTIONS })
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(opts)
            .await
            .map_err(|e| err(e.to_string()))?;
        let pool = Pool::Postgres(pool);
        let migrations = migrator(Schema::Postgres)
            .await
            .map_err(|e| err(e.to_string()))?;
        if read_only {
            check_migrated(&pool, &migrations, &err).await?;
        } else if let Pool::Postgres(p) = &pool {
            migrations.run(p).await.map_err(|e| err(e.to_string()))?;
        }
        Ok(Store {
            pool,
            checkpoint: None,
            claimer: outbox::new_claimer().into(),
            read_only,
        })
    }

    /// Opens the existing database at `url` for reading alone (`export`, `backup`): it is
    /// never created, migrated or written, so a read-only file (or a file on read-only
    /// media) serves. A database that an older `postal` wrote and that needs migrating is
    /// refused, naming the file: a command that writes updates it.
    pub async fn open_read_only(url: &str) -> Result<Store, StoreError> {
        if Backend::of_url(url) == Backend::Postgres {
            return Store::open_postgres(url, true).await;
        }
        super::sqlite_config::configure();
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
        let pool = Pool::Sqlite(pool);
        let migrations = migrator(Schema::Sqlite)
            .await
            .map_err(|e| err(e.to_string()))?;
        check_migrated(&pool, &migrations, &err).await?;
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
            if let Err(e) = self.release_analyses().await {
                tracing::warn!(error = %e, "the analyses claimed could not be released");
            }
            if let Err(e) = self.release_engine_turns().await {
                tracing::warn!(error = %e, "the engine's turns claimed could not be released");
            }
        }
        if let (Some(c), Pool::Sqlite(pool)) = (&self.checkpoint, &self.pool) {
            c.stop().await;
            if let Err(e) = checkpoint::truncate(pool).await {
                tracing::warn!(error = %e, "the last WAL checkpoint failed");
            }
        }
        self.pool.close().await;
    }

    /// Writes a consistent copy of the whole SQLite database to the new file `path`
    /// (`VACUUM INTO`), while it is in use: the way to back up a running bot. A
    /// PostgreSQL database is refused: the server's own `pg_dump` backs it up.
    pub async fn backup(&self, path: &str) -> Result<(), StoreError> {
        let Pool::Sqlite(pool) = &self.pool else {
            return Err(StoreError::Refused(
                "a PostgreSQL database is backed up with pg_dump, not postal backup".into(),
            ));
        };
        if std::path::Path::new(path).exists() {
            return Err(StoreError::Refused(format!(
                "{path} exists already: a backup is written to a new file"
            )));
        }
        sqlx::query("VACUUM INTO $1")
            .bind(path)
            .execute(pool)
            .await?;
        Ok(())
    }
}

/// Refuses a database that `migrator` would still change (one that an older `postal`
/// wrote) or that is not postal's, naming it, and closes it.
async fn check_migrated(
    pool: &Pool,
    migrator: &sqlx::migrate::Migrator,
    err: &impl Fn(String) -> StoreError,
) -> Result<(), StoreError> {
    let applied: Result<i64, sqlx::Error> = on_pool!(pool, |p| sqlx::query(
        "SELECT coalesce(max(version), 0) FROM _sqlx_migrations"
    )
    .fetch_one(p)
    .await
    .map(|r| r.get(0)));
    let refusal = match applied {
        Err(e) => format!("not a postal database ({e})"),
        Ok(applied) => {
            let known = migrator.iter().map(|m| m.version).max().unwrap_or(0);
            if applied >= known {
                return Ok(());
            }
            format!(
                "written by an older postal (schema {applied}, this one needs {known}): open it once with `postal console --db` or `postal run`, which update it"
            )
        }
    };
    pool.close().await;
    Err(err(refusal))
}
