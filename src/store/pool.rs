//! The two backends one [`super::Store`] may run on: SQLite, embedded, for one machine;
//! PostgreSQL, a server that several processes share. Queries are written once, in SQL
//! both accept (numbered `$N` parameters, `ON CONFLICT`, `RETURNING`), and run on either
//! pool through [`on_pool!`]; the few that differ say so where they are.

use sqlx::{PgPool, SqlitePool};

/// Which database a store runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// SQLite, in a file (or in memory), for one machine.
    Sqlite,
    /// A PostgreSQL server, shared by every process of the bot.
    Postgres,
}

impl Backend {
    /// The backend a database URL names: `postgres://` and `postgresql://` are
    /// PostgreSQL; `sqlite:` URLs and plain file paths are SQLite.
    pub fn of_url(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// A connection pool of either backend.
#[derive(Clone, Debug)]
pub(super) enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Pool {
    /// The backend of this pool.
    pub(super) fn backend(&self) -> Backend {
        match self {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// Closes every connection.
    pub(super) async fn close(&self) {
        match self {
            Pool::Sqlite(p) => p.close().await,
            Pool::Postgres(p) => p.close().await,
        }
    }
}

/// Evaluates `$body` with `$p` bound to the store's pool, whichever backend it is: the
/// body is compiled once per backend, so a query written once runs on both.
macro_rules! on_pool {
    ($pool:expr, |$p:ident| $body:expr) => {
        match &$pool {
            $crate::store::pool::Pool::Sqlite($p) => $body,
            $crate::store::pool::Pool::Postgres($p) => $body,
        }
    };
}
pub(super) use on_pool;
