//! The `postal` subcommands whose work takes more than a few lines; `main.rs` only parses
//! the command line and dispatches here.

pub mod bench_backends;
pub mod bench_deadlines;
pub mod bench_engine;
pub mod bench_service;
pub mod forget;
pub mod ratings;
pub mod render;

use std::path::PathBuf;

/// Why a subcommand of this module failed; each message is printed as it is.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The async runtime could not be started.
    #[error("{0}")]
    Runtime(std::io::Error),
    /// The database said no, or could not be opened.
    #[error(transparent)]
    Store(#[from] postal::store::StoreError),
    /// A query of a bench's own on PostgreSQL failed.
    #[error(transparent)]
    Sqlx(#[from] sqlx::Error),
    /// The PostgreSQL server of a bench could not be reached.
    #[error("{database}: {error}")]
    Postgres {
        /// The database's name, without the password.
        database: String,
        /// Why not.
        error: sqlx::Error,
    },
    /// An engine of a bench failed.
    #[error("the engine failed: {0}")]
    Engine(String),
    /// A bench's client task failed.
    #[error(transparent)]
    Join(#[from] tokio::task::JoinError),
    /// The bench's database file is already there.
    #[error("{} exists: the bench writes a new database file", .0.display())]
    DatabaseExists(PathBuf),
    /// `--db` given with several runs.
    #[error("--db keeps one run's database: use it with --runs 1")]
    DbWithRuns,
    /// The crowd's challenge number `0` was refused.
    #[error("the crowd's challenge {0} was refused")]
    CrowdRefused(usize),
    /// A bench game's challenge was refused.
    #[error("the bench's challenge was refused")]
    ChallengeRefused,
    /// A bench's client process failed or said nothing (its number).
    #[error("client process {0} of the bench failed")]
    ClientFailed(usize),
    /// A bench client's game's challenge was refused (the client's number).
    #[error("client {0}: the bench's challenge was refused")]
    ClientChallengeRefused(usize),
    /// A bench game's analysis was not queued (the referee's answer).
    #[error("the bench's analysis was not queued: {0}")]
    AnalysisRefused(String),
    /// A move of a bench game was not accepted.
    #[error("game #{game}: {san} was not accepted: {reply:?}")]
    NotAccepted {
        /// The game.
        game: i64,
        /// The move.
        san: &'static str,
        /// The referee's first answer, if any.
        reply: Option<String>,
    },
    /// The position's FEN was refused.
    #[error(transparent)]
    Fen(#[from] postal::notation::fen::FenError),
    /// `--last-move` is not a legal move in the position.
    #[error("--last-move {text}: {error}")]
    LastMove {
        /// The move as given.
        text: String,
        /// Why it was refused.
        error: postal::notation::MoveError,
    },
    /// A render bench case's move was refused.
    #[error("{case}: --last-move {text}: {error}")]
    BenchMove {
        /// The case's name.
        case: &'static str,
        /// The move.
        text: String,
        /// Why it was refused.
        error: postal::notation::MoveError,
    },
    /// The image could not be written.
    #[error("cannot write {}: {error}", .path.display())]
    Write {
        /// Where.
        path: PathBuf,
        /// Why not.
        error: std::io::Error,
    },
}

/// Runs `f` to its end on a new runtime (the console's), its error or the runtime's.
pub fn block_on<T>(
    f: impl std::future::Future<Output = Result<T, CliError>>,
) -> Result<T, CliError> {
    postal::console::block_on(f)
        .map_err(CliError::Runtime)
        .and_then(|r| r)
}

/// That the referee's answer `out` to bench game `id`'s move `san` says it was played,
/// else [`CliError::NotAccepted`] with its first line.
pub fn accepted(
    out: &[postal::service::referee::Outbound],
    id: i64,
    san: &'static str,
) -> Result<(), CliError> {
    match out.first().is_some_and(|o| o.text.contains(" played ")) {
        true => Ok(()),
        false => Err(CliError::NotAccepted {
            game: id,
            san,
            reply: out.first().map(|o| o.text.clone()),
        }),
    }
}
