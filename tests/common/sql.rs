//! Raw SQL on a test's database, whichever backend [`super::service::TempDir::db`] names:
//! for tests that look under the store (what a previous release stored, a lease run out).
//! Parameters are numbered (`$1`), which both databases read.

use sqlx::Connection;

/// Runs `sql` with integer parameters `binds` on the database `db`.
pub async fn execute(db: &str, sql: &str, binds: &[i64]) {
    if db.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(db).await.unwrap();
        let mut q = sqlx::query(sql);
        for b in binds {
            q = q.bind(*b);
        }
        q.execute(&mut c).await.unwrap();
        c.close().await.unwrap();
    } else {
        let mut c = sqlx::SqliteConnection::connect(&sqlite_url(db))
            .await
            .unwrap();
        let mut q = sqlx::query(sql);
        for b in binds {
            q = q.bind(*b);
        }
        q.execute(&mut c).await.unwrap();
        c.close().await.unwrap();
    }
}

/// The first column of every row `sql` selects, as text.
pub async fn strings(db: &str, sql: &str) -> Vec<String> {
    if db.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(db).await.unwrap();
        let rows = sqlx::query_scalar(sql).fetch_all(&mut c).await.unwrap();
        c.close().await.unwrap();
        rows
    } else {
        let mut c = sqlx::SqliteConnection::connect(&sqlite_url(db))
            .await
            .unwrap();
        let rows = sqlx::query_scalar(sql).fetch_all(&mut c).await.unwrap();
        c.close().await.unwrap();
        rows
    }
}

fn sqlite_url(db: &str) -> String {
    if db.starts_with("sqlite:") {
        db.to_string()
    } else {
        format!("sqlite:{db}")
    }
}
