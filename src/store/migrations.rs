//! The schema's migrations (`migrations/` for SQLite, `migrations/postgres/` for
//! PostgreSQL), embedded in the binary at build time and read as sqlx reads a migrations
//! directory: the version is the number before the first `_` of the file's name, the
//! description the rest with `_` as spaces, and a file starting `-- no-transaction` runs
//! outside a transaction.
//!
//! This is what `sqlx::migrate!` does; it is written here because that macro needs
//! sqlx's `macros` feature, whose procedural-macro crate builds sqlx's drivers, tokio and
//! SQLite's C source a second time, for the build host, in every build (ARCHITECTURE.md
//! gives the measurement). The tests below check the result against sqlx's own reading
//! of the directories, checksums included, and that every file there is listed.

use sqlx::error::BoxDynError;
use sqlx::migrate::{MigrateError, Migration, MigrationSource, MigrationType, Migrator};
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

/// One migration file: its name (`0001_referee.sql`) and its SQL.
type File = (&'static str, &'static str);

/// The files `names` of the folder `dir` (relative to `migrations/`, with its trailing
/// `/`), each with its text.
macro_rules! files {
    ($dir:literal: $($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../migrations/", $dir, $name)))),*]
    };
}

/// The SQLite schema's migrations, in order.
const SQLITE: &[File] = files!("":
    "0001_referee.sql",
    "0002_start_position.sql",
    "0003_discord.sql",
    "0004_outbox.sql",
    "0005_seat_acceptance.sql",
    "0006_game_options.sql",
    "0007_claims_and_servers.sql",
    "0008_started_at.sql",
    "0009_outbox_endings.sql",
    "0010_player_settings.sql",
    "0011_vacations.sql",
    "0012_conditional_lines.sql",
    "0013_digest_and_orientation.sql",
    "0014_challenge_posts.sql",
    "0015_forgotten_players.sql",
    "0016_one_event_row.sql",
    "0017_server_settings.sql",
    "0018_tournaments.sql",
    "0019_due_times_and_compact_log.sql",
    "0020_outbox_round_starts.sql",
    "0021_competitions.sql",
    "0022_packed_actions.sql",
    "0023_cheaper_move_write.sql",
    "0024_event_keys.sql",
    "0025_analyses.sql",
    "0026_thread_retitles.sql",
    "0027_engine_turns.sql",
    "0028_outbox_claims.sql",
    "0029_lapsing_buttons.sql",
    "0030_analysis_progress.sql",
    "0031_plain_writes.sql",
);

/// The PostgreSQL schema's migrations, numbered in step with SQLite's (its first, 7,
/// creates at once what SQLite's first seven made).
const POSTGRES: &[File] = files!("postgres/":
    "0007_schema.sql",
    "0008_started_at.sql",
    "0009_outbox_endings.sql",
    "0010_player_settings.sql",
    "0011_vacations.sql",
    "0012_conditional_lines.sql",
    "0013_digest_and_orientation.sql",
    "0014_challenge_posts.sql",
    "0015_forgotten_players.sql",
    "0016_one_event_row.sql",
    "0017_server_settings.sql",
    "0018_tournaments.sql",
    "0019_due_times_and_compact_log.sql",
    "0020_outbox_round_starts.sql",
    "0021_competitions.sql",
    "0022_packed_actions.sql",
    "0024_event_keys.sql",
    "0025_analyses.sql",
    "0026_thread_retitles.sql",
    "0027_engine_turns.sql",
    "0028_outbox_claims.sql",
    "0029_lapsing_buttons.sql",
    "0030_analysis_progress.sql",
    "0031_plain_writes.sql",
);

/// Which schema's migrations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Schema {
    /// `migrations/`.
    Sqlite,
    /// `migrations/postgres/`.
    Postgres,
}

/// The migrator of `schema`.
pub(super) async fn migrator(schema: Schema) -> Result<Migrator, MigrateError> {
    Migrator::new(Embedded(match schema {
        Schema::Sqlite => SQLITE,
        Schema::Postgres => POSTGRES,
    }))
    .await
}

/// A list of embedded files, as a source of migrations.
#[derive(Debug)]
struct Embedded(&'static [File]);

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async move { self.0.iter().map(|file| migration(*file)).collect() })
    }
}

/// The migration of one file.
fn migration((name, sql): File) -> Result<Migration, BoxDynError> {
    let stem = name.strip_suffix(".sql").unwrap_or(name);
    let (version, description) = stem
        .split_once('_')
        .ok_or_else(|| format!("migration {name}: no `_` after its version"))?;
    let version: i64 = version
        .parse()
        .map_err(|_| format!("migration {name}: its version is not a number"))?;
    Ok(Migration::new(
        version,
        Cow::Owned(description.replace('_', " ")),
        MigrationType::Simple,
        Cow::Borrowed(sql),
        sql.starts_with("-- no-transaction"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The migrations sqlx reads from the directory `dir` of the repository.
    async fn from_directory(dir: &str) -> Migrator {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        Migrator::new(path.as_path()).await.unwrap()
    }

    /// What a migration is, field by field.
    fn fields(m: &Migration) -> (i64, String, bool, String, Vec<u8>, bool) {
        (
            m.version,
            m.description.to_string(),
            m.migration_type == MigrationType::Simple,
            m.sql.to_string(),
            m.checksum.to_vec(),
            m.no_tx,
        )
    }

    #[tokio::test]
    async fn the_embedded_migrations_are_those_sqlx_reads_from_the_directories() {
        for (schema, dir) in [
            (Schema::Sqlite, "migrations"),
            (Schema::Postgres, "migrations/postgres"),
        ] {
            let embedded = migrator(schema).await.unwrap();
            let read = from_directory(dir).await;
            let embedded: Vec<_> = embedded.iter().map(fields).collect();
            let read: Vec<_> = read.iter().map(fields).collect();
            assert!(!read.is_empty(), "{dir}");
            assert_eq!(
                embedded, read,
                "{dir}: a file is missing from the list or changed"
            );
        }
    }

    #[test]
    fn a_misnamed_file_is_an_error() {
        assert!(migration(("referee.sql", "")).is_err());
        assert!(migration(("one_referee.sql", "")).is_err());
        let m = migration(("0003_a_b.sql", "-- no-transaction\nSELECT 1;")).unwrap();
        assert_eq!((m.version, &*m.description, m.no_tx), (3, "a b", true));
    }
}
