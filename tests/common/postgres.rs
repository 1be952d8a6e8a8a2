//! A scratch PostgreSQL schema per test, in the database that `POSTAL_TEST_POSTGRES`
//! names (on this project's machines `postgres://postgres@127.0.0.1:5432/postgres`; CI
//! sets it and fails if the server cannot be reached). Without the variable, tests that
//! need PostgreSQL say they are skipped and name the variable.

use sqlx::Connection;
use std::io::Write;
use std::sync::Once;

/// The variable naming the PostgreSQL database the tests may use.
pub const VAR: &str = "POSTAL_TEST_POSTGRES";

/// The database URL from [`VAR`], or `None` after printing that `what` is skipped.
pub fn server(what: &str) -> Option<String> {
    match std::env::var(VAR) {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ => {
            // Written past the test harness's capture, once per test program, so that a
            // run without PostgreSQL says what it left out.
            static SAID: Once = Once::new();
            SAID.call_once(|| {
                let _ = writeln!(
                    std::io::stderr(),
                    "skipped: the PostgreSQL tests of this program (such as {what}); set {VAR}=postgres://USER@HOST:PORT/DB to run them"
                );
            });
            None
        }
    }
}

/// A new, empty schema, dropped with everything in it when this is dropped. Stores opened
/// on [`Schema::url`] work in it alone, so tests run side by side on one server.
pub struct Schema {
    base: String,
    name: String,
}

impl Schema {
    /// A fresh schema in the database `base` names (a PostgreSQL URL).
    pub fn new(base: &str) -> Schema {
        let mut bytes = [0u8; 8];
        getrandom::getrandom(&mut bytes).unwrap();
        let name = format!("postal_test_{:016x}", u64::from_le_bytes(bytes));
        run_blocking(base, &format!("CREATE SCHEMA {name}"))
            .unwrap_or_else(|e| panic!("{VAR}: {e}"));
        Schema {
            base: base.to_string(),
            name,
        }
    }

    /// A fresh schema in the test server's database, or `None` (skipped, said) without
    /// one.
    pub fn for_test(what: &str) -> Option<Schema> {
        server(what).map(|base| Schema::new(&base))
    }

    /// The schema's name, to name its tables from another connection.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The URL of a store working in this schema.
    pub fn url(&self) -> String {
        let join = if self.base.contains('?') { '&' } else { '?' };
        format!("{}{join}options[search_path]={}", self.base, self.name)
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        // Never a panic here (a test that failed is unwinding already).
        if let Err(e) = run_blocking(
            &self.base,
            &format!("DROP SCHEMA IF EXISTS {} CASCADE", self.name),
        ) {
            eprintln!("schema {} was not dropped: {e}", self.name);
        }
    }
}

/// Runs one statement on `url` from a thread of its own (callers may be inside a Tokio
/// runtime, which cannot block on another).
fn run_blocking(url: &str, sql: &str) -> Result<(), String> {
    let (url, sql) = (url.to_string(), sql.to_string());
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        rt.block_on(async {
            let mut c = sqlx::PgConnection::connect(&url)
                .await
                .map_err(|e| format!("cannot connect: {e}"))?;
            sqlx::query(&sql)
                .execute(&mut c)
                .await
                .map_err(|e| e.to_string())?;
            c.close().await.map_err(|e| e.to_string())
        })
    })
    .join()
    .map_err(|_| "the thread panicked".to_string())?
}
