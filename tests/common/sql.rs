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

/// The first column of the first row `sql` selects, as text (`CAST(... AS TEXT)` it).
pub async fn one(db: &str, sql: &str) -> String {
    strings(db, sql)
        .await
        .into_iter()
        .next()
        .unwrap_or_default()
}

/// Waits (up to 20 s) until every outbox message of the database `db` is marked delivered:
/// the event after which the deadline check has nothing left to send.
pub async fn wait_outbox_delivered(db: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let left = one(
            db,
            "SELECT CAST(COUNT(*) AS TEXT) FROM outbox WHERE delivered_at IS NULL",
        )
        .await;
        if left == "0" {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{left} outbox messages still undelivered after 20 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Waits (up to 20 s) until `sql`, selecting one text value, gives `expected`: a row the
/// bot writes after an event the test can see (a challenge post recorded once its message
/// is sent, say).
pub async fn wait_until(db: &str, sql: &str, expected: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let now = one(db, sql).await;
        if now == expected {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{sql} gave {now}, not {expected}, after 20 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
