//! The engines: Stockfish and Fairy-Stockfish as UCI child processes ([`uci`]), in a
//! small supervised pool ([`Engines`]): started when first needed, at most
//! [`EngineSettings::pool`] analyses' engines at once, each with its threads, hash and
//! budget of nodes per position; an engine that exits, hangs or answers garbage is
//! killed, started again and the position tried again, [`EngineSettings::retries`]
//! times, before the error is returned. Knows no Discord, no store and no variant: a
//! position comes with its variant's UCI name, which picks the engine (`chess`,
//! Stockfish; any other, Fairy-Stockfish).

pub mod levels;
pub mod uci;

pub use levels::Level;
pub use uci::{Chosen, Query, UciEngine};

use crate::analysis::PositionEval;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Where the engines are and what each may spend (`[engines]` in `config/postal.toml`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// Stockfish, for standard chess and Chess960; `None`: none on this server.
    pub stockfish: Option<PathBuf>,
    /// Fairy-Stockfish, for the variants it knows; `None`: none on this server.
    pub fairy_stockfish: Option<PathBuf>,
    /// How many analyses run at once, each with its own engines (1 to 16).
    pub pool: u32,
    /// Threads per engine (1 to 64).
    pub threads: u32,
    /// Hash per engine, in MB (1 to 4096).
    pub hash_mb: u32,
    /// The budget per position, in nodes searched (1,000 to 100,000,000).
    pub nodes: u64,
    /// How long an engine may take to answer one command, in seconds, before it counts
    /// as hung (1 to 600).
    pub timeout_seconds: u64,
    /// How many times a position is tried again, with the engine started again, after
    /// the engine failed (0 to 5).
    pub retries: u32,
    /// The least time between two updates of an analysis's progress message, in seconds
    /// (0 to 600; 0: an update at each fifth of the positions, whatever the time).
    pub progress_seconds: u64,
    /// How long a process holds an analysis it works on without storing a position, in
    /// seconds, before another may take it over (2 to 3600): the longest an analysis
    /// whose process died waits.
    pub lease_seconds: u64,
}

impl Default for EngineSettings {
    fn default() -> EngineSettings {
        EngineSettings {
            stockfish: Some(PathBuf::from("/usr/games/stockfish")),
            fairy_stockfish: Some(PathBuf::from("/usr/games/fairy-stockfish")),
            pool: 1,
            threads: 1,
            hash_mb: 16,
            nodes: 100_000,
            timeout_seconds: 30,
            retries: 2,
            progress_seconds: 3,
            lease_seconds: 60,
        }
    }
}

impl EngineSettings {
    /// Why these settings cannot be used, if they cannot.
    pub fn problem(&self) -> Option<String> {
        let checks: [(&str, u64, u64, u64); 8] = [
            ("pool", self.pool.into(), 1, 16),
            ("threads", self.threads.into(), 1, 64),
            ("hash_mb", self.hash_mb.into(), 1, 4096),
            ("nodes", self.nodes, 1_000, 100_000_000),
            ("timeout_seconds", self.timeout_seconds, 1, 600),
            ("retries", self.retries.into(), 0, 5),
            ("progress_seconds", self.progress_seconds, 0, 600),
            ("lease_seconds", self.lease_seconds, 2, 3600),
        ];
        checks
            .iter()
            .find(|(_, v, lo, hi)| !(lo..=hi).contains(&v))
            .map(|(name, v, lo, hi)| format!("engines.{name} is {v}, it must be {lo} to {hi}"))
    }
}

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// This server has no engine for the variant (none configured, or not installed).
    #[error("this server has no engine for it ({0})")]
    Missing(&'static str),
    /// The engine does not play the variant.
    #[error("{engine} does not know the variant {variant}")]
    Unknown {
        /// The engine.
        engine: &'static str,
        /// The variant's UCI name.
        variant: String,
    },
    /// The engine could not be started.
    #[error("the engine {0} could not be started: {1}")]
    Start(String, String),
    /// The engine exited.
    #[error("the engine stopped")]
    Exited,
    /// The engine did not answer in time.
    #[error("the engine did not answer in time")]
    Hung,
    /// The engine answered what UCI does not say.
    #[error("the engine answered garbage ({0})")]
    Garbage(&'static str),
}

/// Which engine a variant needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Stockfish,
    Fairy,
}

impl Kind {
    fn of(variant: &str) -> Kind {
        match variant {
            "chess" => Kind::Stockfish,
            _ => Kind::Fairy,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Stockfish => "Stockfish",
            Kind::Fairy => "Fairy-Stockfish",
        }
    }
}

/// The engine that plays a variant (its UCI name): `Stockfish` for `chess`,
/// `Fairy-Stockfish` for any other.
pub fn engine_name(variant: &str) -> &'static str {
    Kind::of(variant).name()
}

/// One analysis's engines, started when first needed.
#[derive(Default)]
struct Slot {
    stockfish: Option<UciEngine>,
    fairy: Option<UciEngine>,
}

impl Slot {
    fn engine(&mut self, kind: Kind) -> &mut Option<UciEngine> {
        match kind {
            Kind::Stockfish => &mut self.stockfish,
            Kind::Fairy => &mut self.fairy,
        }
    }
}

/// The pool of engines.
pub struct Engines {
    settings: EngineSettings,
    permits: Semaphore,
    idle: Mutex<Vec<Slot>>,
    restarts: AtomicU64,
}

/// One analysis's hold on the pool: its engines, given back when dropped.
pub struct Lease<'a> {
    engines: &'a Engines,
    slot: Option<Slot>,
    _permit: tokio::sync::SemaphorePermit<'a>,
}

impl Engines {
    /// A pool with these settings; no engine starts until one is needed.
    pub fn new(settings: EngineSettings) -> Engines {
        let size = settings.pool.max(1) as usize;
        Engines {
            settings,
            permits: Semaphore::new(size),
            idle: Mutex::new((0..size).map(|_| Slot::default()).collect()),
            restarts: AtomicU64::new(0),
        }
    }

    /// The settings.
    pub fn settings(&self) -> &EngineSettings {
        &self.settings
    }

    /// How many times an engine was started again after it failed.
    pub fn restarts(&self) -> u64 {
        self.restarts.load(Ordering::Relaxed)
    }

    /// Whether this server has the engine a variant (its UCI name) needs: configured and
    /// present on disk.
    pub fn has_engine_for(&self, variant: &str) -> bool {
        self.path(Kind::of(variant)).is_some_and(|p| p.is_file())
    }

    fn path(&self, kind: Kind) -> Option<&PathBuf> {
        match kind {
            Kind::Stockfish => self.settings.stockfish.as_ref(),
            Kind::Fairy => self.settings.fairy_stockfish.as_ref(),
        }
    }

    /// Waits for a free place in the pool.
    pub async fn lease(&self) -> Lease<'_> {
        let permit = self
            .permits
            .acquire()
            .await
            .expect("the pool's semaphore is never closed");
        let slot = self
            .idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default();
        Lease {
            engines: self,
            slot: Some(slot),
            _permit: permit,
        }
    }
}

/// What an engine is asked of a position.
#[derive(Clone, Copy)]
enum Ask<'l> {
    /// Its evaluation at full strength, within the budget.
    Evaluate,
    /// A move at a level, within the budget.
    Play(&'l Level),
}

/// What it answered.
enum Answer {
    Evaluated(PositionEval),
    Played(Chosen),
}

impl Lease<'_> {
    /// Evaluates one position within the budget, starting the engine if needed, and
    /// starting it again and trying again when it fails, up to the retries.
    pub async fn evaluate(&mut self, q: &Query<'_>) -> Result<PositionEval, EngineError> {
        match self.ask(q, Ask::Evaluate).await? {
            Answer::Evaluated(e) => Ok(e),
            Answer::Played(_) => Err(EngineError::Garbage("a move where an evaluation was asked")),
        }
    }

    /// Chooses a move in one position at `level`, within the budget, as
    /// [`Lease::evaluate`] starts and retries the engine.
    pub async fn play(&mut self, q: &Query<'_>, level: &Level) -> Result<Chosen, EngineError> {
        match self.ask(q, Ask::Play(level)).await? {
            Answer::Played(c) => Ok(c),
            Answer::Evaluated(_) => {
                Err(EngineError::Garbage("an evaluation where a move was asked"))
            }
        }
    }

    /// Asks the engine the variant needs, starting it if needed, and starting it again
    /// and asking again when it fails, up to the retries.
    async fn ask(&mut self, q: &Query<'_>, ask: Ask<'_>) -> Result<Answer, EngineError> {
        let engines = self.engines;
        let s = &engines.settings;
        let kind = Kind::of(q.variant);
        let mut last = EngineError::Exited;
        for attempt in 0..=s.retries {
            if attempt > 0 {
                engines.restarts.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(engine = kind.name(), error = %last, attempt, "engine failed; starting it again");
            }
            let engine = self.started(kind).await;
            let engine = match engine {
                Ok(e) => e,
                Err(e @ (EngineError::Missing(_) | EngineError::Start(..))) => return Err(e),
                Err(e) => {
                    last = e;
                    continue;
                }
            };
            if !engine.knows(q.variant) {
                return Err(EngineError::Unknown {
                    engine: kind.name(),
                    variant: q.variant.to_string(),
                });
            }
            let answer = match ask {
                Ask::Evaluate => engine.evaluate(q, s.nodes).await.map(Answer::Evaluated),
                Ask::Play(level) => engine.play(q, level, s.nodes).await.map(Answer::Played),
            };
            match answer {
                Ok(a) => return Ok(a),
                Err(e) => {
                    last = e;
                    // Killed when dropped; the next attempt starts another.
                    if let Some(slot) = self.slot.as_mut() {
                        *slot.engine(kind) = None;
                    }
                }
            }
        }
        Err(last)
    }

    /// Whether the engine a variant (its UCI name) needs plays it: started if need be,
    /// and its `UCI_Variant` list read (Debian's Fairy-Stockfish lacks Atomic, which a
    /// build of its own may have).
    pub async fn knows(&mut self, variant: &str) -> Result<bool, EngineError> {
        let engine = self.started(Kind::of(variant)).await?;
        Ok(engine.knows(variant))
    }

    /// The running engine of `kind`, started if it is not.
    async fn started(&mut self, kind: Kind) -> Result<&mut UciEngine, EngineError> {
        let engines = self.engines;
        let s = &engines.settings;
        let slot = self.slot.get_or_insert_with(Slot::default).engine(kind);
        if slot.is_none() {
            let path = engines
                .path(kind)
                .filter(|p| p.is_file())
                .ok_or(EngineError::Missing(kind.name()))?;
            let timeout = Duration::from_secs(s.timeout_seconds);
            *slot = Some(UciEngine::start(path, s.threads, s.hash_mb, timeout).await?);
        }
        slot.as_mut().ok_or(EngineError::Exited)
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            self.engines
                .idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(slot);
        }
    }
}
