//! `postal bench service`: accepted moves per second through the [`Service`] into a SQLite
//! file in WAL mode, the latency of each move, the CPU time per move, and the database size
//! per finished game. Images are not drawn: the service only says which board to show.
//!
//! The machine may be shared (other builds running), so wall-clock figures are noisy:
//! each run also reports the process's CPU time (user + system, all threads) spent per
//! move, which other processes do not inflate much, and the load average when it started.
//! `--runs N` repeats the measurement on a new database each time and reports the best
//! and the median run.
//!
//! `--analyses N` first plays N games of [`FORTY_MOVES`] to their end and queues their
//! engine analyses, then plays the measured moves while the bot's analysis task makes
//! them with the real engines at the default settings (one engine, one thread, 100,000
//! nodes a position), as `postal run` does; it reports how many were done when the moves
//! ended, and, once all are, the time each took.

use super::CliError;
use postal::service::analysis_task::AnalysisTask;
use postal::service::referee::{Incoming, Place, Service};
use postal::service::settings::Settings;
use postal::store::{AnalysisStatus, Store};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Morphy's Opera Game (Paris 1858): 33 plies ending in mate, played by every bench game.
pub const OPERA_GAME: [&str; 33] = [
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3",
    "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7",
    "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
];

/// A game of 40 moves (80 plies, no end on the board), played by every analysed game of
/// `--analyses`: Stockfish 15.1 against itself at 3,000 nodes a move, from the start.
pub const FORTY_MOVES: [&str; 80] = [
    "d4", "d5", "c4", "e6", "Nf3", "Nf6", "g3", "c5", "cxd5", "exd5", "Bg2", "Be7", "Nc3", "h6",
    "Be3", "c4", "b3", "cxb3", "Qxb3", "Nc6", "Ne5", "O-O", "Nxd5", "Nxe5", "dxe5", "Nxd5", "Bxd5",
    "Qa5+", "Bd2", "Qc7", "f4", "Bf5", "Rc1", "Qd7", "e4", "Be6", "Be3", "b5", "Bxe6", "Qxe6",
    "Qxe6", "fxe6", "Ke2", "Rfc8", "Rhd1", "a5", "Rd7", "Rxc1", "Bxc1", "Kf8", "Bd2", "b4", "Rb7",
    "Ra6", "Rb8+", "Kf7", "Rb7", "h5", "f5", "Ke8", "Rb8+", "Kf7", "Rb7", "Ke8", "h4", "Bc5",
    "Be3", "Rc6", "Rxg7", "a4", "Rb7", "b3", "axb3", "a3", "Rb8+", "Kf7", "Ra8", "Bb4", "Bd4",
    "Rc2+",
];

/// What the analyses of `--analyses` did.
#[derive(Clone, Debug)]
pub struct AnalysesReport {
    /// Analyses queued before the moves.
    pub queued: usize,
    /// Those done when the last measured move was.
    pub done_during_moves: usize,
    /// The seconds from the analysis task's start to the last analysis done, divided by
    /// the analyses (they are made one after another with one engine).
    pub seconds_each: f64,
}

/// What one run measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Games played to the end.
    pub games: usize,
    /// Moves accepted and committed.
    pub moves: usize,
    /// Time spent in the service handling those moves, in seconds.
    pub seconds: f64,
    /// Median latency of one move, in milliseconds.
    pub p50_ms: f64,
    /// 99th-percentile latency of one move, in milliseconds.
    pub p99_ms: f64,
    /// The database file's size once closed (WAL checkpointed), in bytes.
    pub db_bytes: u64,
    /// Process CPU time (user + system, every thread) spent during the moves, in
    /// milliseconds per move.
    pub cpu_ms_per_move: f64,
    /// The 1-minute load average when the run started (`None` where unknown).
    pub load_at_start: Option<f64>,
    /// What the analyses running during the moves did (`--analyses`).
    pub analyses: Option<AnalysesReport>,
}

impl BenchReport {
    /// Accepted moves per second.
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.seconds.max(1e-9)
    }

    /// Database bytes per finished game.
    pub fn bytes_per_game(&self) -> u64 {
        self.db_bytes / self.games.max(1) as u64
    }
}

impl std::fmt::Display for BenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games, {} moves in {:.2} s: {:.0} moves/s; latency per move p50 {:.3} ms, p99 {:.3} ms; CPU {:.3} ms per move; database {} bytes, {} bytes per finished game; load average at start {}",
            self.games,
            self.moves,
            self.seconds,
            self.moves_per_second(),
            self.p50_ms,
            self.p99_ms,
            self.cpu_ms_per_move,
            self.db_bytes,
            self.bytes_per_game(),
            self.load_at_start
                .map_or_else(|| "unknown".to_string(), |l| format!("{l:.2}"))
        )?;
        if let Some(a) = &self.analyses {
            write!(
                f,
                "; analyses of a 40-move game running (Stockfish, default budget): {}, {} done when the moves ended, {:.2} s each",
                a.queued, a.done_during_moves, a.seconds_each
            )?;
        }
        Ok(())
    }
}

/// The process's CPU time so far (user + system, every thread), in seconds.
pub fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given, which is zeroed and ours.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// The 1-minute load average, from `/proc/loadavg` where there is one.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The value at quantile `q` of sorted `xs`.
fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let i = ((xs.len() - 1) as f64 * q).round() as usize;
    xs[i.min(xs.len() - 1)]
}

/// Sets up `games` games (a challenge and its acceptance each) through a service over a
/// new SQLite file at `db`, then plays exactly `count` moves of them, game after game
/// ([`OPERA_GAME`] each), timing nothing: the work of two runs with the same `games`
/// differs by `count`'s difference in moves alone, so that the difference of their
/// instruction counts under callgrind, divided by it, is the instructions per move.
/// Returns the moves played, the games finished and the database's size once closed.
pub async fn count_moves(
    db: &Path,
    games: usize,
    count: usize,
) -> Result<(usize, usize, u64), CliError> {
    if db.exists() {
        return Err(CliError::DatabaseExists(db.to_path_buf()));
    }
    let mut bench = Bench::open(db, None).await?;
    let mut ids = Vec::with_capacity(games);
    for g in 0..games {
        ids.push(bench.open_game(g).await?);
    }
    let mut played = 0;
    let mut finished = 0;
    for (g, &id) in ids.iter().enumerate() {
        let plies = OPERA_GAME.len().min(count - played);
        if plies == 0 {
            break;
        }
        bench.play_moves(g, id, plies, false, None).await?;
        played += plies;
        finished += usize::from(plies == OPERA_GAME.len());
    }
    bench.service.store().close().await;
    let db_bytes = std::fs::metadata(db).map(|m| m.len()).unwrap_or(0);
    Ok((played, finished, db_bytes))
}

/// What runs in the service beside the measured moves: analyses of finished games
/// (`--analyses`) and games against the bot (`--engine-games`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Background {
    /// Analyses of [`FORTY_MOVES`] the analysis task makes meanwhile.
    pub analyses: usize,
    /// Games against the bot played meanwhile.
    pub engine_games: usize,
}

/// Plays `games` games of [`OPERA_GAME`] through a service over a new SQLite file at
/// `db` (which must not exist yet), one move at a time, and measures each move. With a
/// `crowd`, another user first opens that many challenges in the games' channels, and the
/// moves are typed bare (the service then finds the mover's game itself); without, each
/// move names its game (`move ID SAN`). With `analyses`, that many analyses of
/// [`FORTY_MOVES`] are made by the analysis task while the moves are played.
///
///
/// With `engine_games`, that many games against the bot are played in the same service
/// meanwhile ([`super::bench_engine::EngineLoad`]), from before the first measured move
/// to after the last.
pub async fn run(
    db: &Path,
    games: usize,
    crowd: Option<usize>,
    background: Background,
) -> Result<BenchReport, CliError> {
    if db.exists() {
        return Err(CliError::DatabaseExists(db.to_path_buf()));
    }
    let Background {
        analyses,
        engine_games,
    } = background;
    let load_at_start = load_average();
    let mut bench = Bench::open(db, crowd).await?;
    let load = match engine_games {
        0 => None,
        n => Some(super::bench_engine::EngineLoad::start(Arc::clone(&bench.service), n).await?),
    };
    for c in 0..crowd.unwrap_or(0) {
        bench.open_crowd_challenge(c).await?;
    }
    let mut analysed = Vec::with_capacity(analyses);
    for a in 0..analyses {
        analysed.push(bench.analysed_game(games + a).await?);
    }
    let started = Instant::now();
    let task = (analyses > 0).then(|| {
        let lease = bench.service.analysis_lease_seconds();
        AnalysisTask::spawn(bench.service.clone(), Duration::from_secs(1), lease)
    });
    let mut measured = Measured {
        latencies: Vec::with_capacity(games * OPERA_GAME.len()),
        busy: 0.0,
        cpu: 0.0,
    };
    for g in 0..games {
        bench.play_game(g, crowd.is_some(), &mut measured).await?;
    }
    let analyses = match task {
        Some(task) => {
            let done_during_moves = bench.analyses_done(&analysed).await?;
            while bench.analyses_done(&analysed).await? < analysed.len() {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let seconds_each = started.elapsed().as_secs_f64() / analysed.len() as f64;
            task.stop().await;
            Some(AnalysesReport {
                queued: analysed.len(),
                done_during_moves,
                seconds_each,
            })
        }
        None => None,
    };
    if let Some(load) = load {
        let (moves, turns) = load.stop().await?;
        println!("service bench: {engine_games} engine games ran meanwhile: {moves} human moves, {turns} engine turns");
    }
    bench.service.store().close().await;
    let db_bytes = std::fs::metadata(db).map(|m| m.len()).unwrap_or(0);
    let Measured {
        mut latencies,
        busy,
        cpu,
    } = measured;
    latencies.sort_by(f64::total_cmp);
    Ok(BenchReport {
        games,
        moves: latencies.len(),
        seconds: busy,
        p50_ms: quantile(&latencies, 0.5),
        p99_ms: quantile(&latencies, 0.99),
        db_bytes,
        cpu_ms_per_move: cpu * 1e3 / latencies.len().max(1) as f64,
        load_at_start,
        analyses,
    })
}

/// The time of the bench's first event, in seconds since the epoch.
const BENCH_START: i64 = 1_767_225_600;

/// Discord's epoch, in milliseconds since the Unix epoch: a snowflake counts from it.
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

/// The id the Discord adapter gives the bench's event number `n`: a message's
/// (`msg:<snowflake>`), sent `n` milliseconds after [`BENCH_START`], as long as a real one
/// (what the store keeps of an event depends on its id's form and length).
fn discord_event_id(n: u64) -> String {
    let ms = BENCH_START * 1000 + n as i64 - DISCORD_EPOCH_MS;
    format!("msg:{}", ms << 22)
}

/// What the moves took: each one's latency in milliseconds, and the wall-clock and CPU
/// seconds spent in all of them.
struct Measured {
    latencies: Vec<f64>,
    busy: f64,
    cpu: f64,
}

/// A bench's service and the chat events it types into it.
struct Bench {
    service: Arc<Service>,
    /// The events typed so far, which number the next one.
    event: u64,
}

impl Bench {
    /// A service over a new database at `db`, letting a user hold `crowd` open
    /// challenges.
    async fn open(db: &Path, crowd: Option<usize>) -> Result<Bench, CliError> {
        let url = format!("sqlite://{}", db.display());
        let store = Store::open(&url).await?;
        let defaults = Settings::default();
        let settings = Settings {
            max_open_challenges: defaults
                .max_open_challenges
                .max(u32::try_from(crowd.unwrap_or(0)).unwrap_or(u32::MAX)),
            ..defaults
        };
        Ok(Bench {
            service: Arc::new(Service::new(store, settings)),
            event: 0,
        })
    }

    /// The next event: `user` typing `text` at `at` in one of the bench's channels.
    fn send(&mut self, user: String, text: String, at: i64) -> Incoming {
        self.event += 1;
        Incoming {
            event_id: discord_event_id(self.event),
            user,
            place: Place::Channel(format!("bench-{}", at % 16)),
            via: None,
            server: None,
            text,
            at,
        }
    }

    /// The crowd's challenge number `c`, left open.
    async fn open_crowd_challenge(&mut self, c: usize) -> Result<(), CliError> {
        let open = self.send(
            "crowd".into(),
            "challenge standard".into(),
            BENCH_START + c as i64,
        );
        let out = self.service.handle(open).await?;
        if out.first().is_some_and(|o| o.refusal.is_some()) {
            return Err(CliError::CrowdRefused(c));
        }
        Ok(())
    }

    /// Game number `g`: a challenge, its acceptance and the Opera Game, each move
    /// measured (`bare`: moves typed without the game's id).
    async fn play_game(
        &mut self,
        g: usize,
        bare: bool,
        measured: &mut Measured,
    ) -> Result<(), CliError> {
        let id = self.open_game(g).await?;
        self.play_moves(g, id, OPERA_GAME.len(), bare, Some(measured))
            .await
    }

    /// Game number `g`: [`FORTY_MOVES`] played, Black resigning, and its analysis asked
    /// for; its id. Nothing is timed.
    async fn analysed_game(&mut self, g: usize) -> Result<i64, CliError> {
        let id = self.open_game(g).await?;
        let (white, black) = (format!("w{g}"), format!("b{g}"));
        let at = BENCH_START + g as i64;
        for (ply, &san) in FORTY_MOVES.iter().enumerate() {
            let user = if ply % 2 == 0 { &white } else { &black };
            let inc = self.send(user.clone(), format!("move {id} {san}"), at);
            let out = self.service.handle(inc).await?;
            super::accepted(&out, id, san)?;
        }
        let resign = self.send(black, format!("resign {id}"), at);
        self.service.handle(resign).await?;
        let ask = self.send(white, format!("analyse {id}"), at);
        let out = self.service.handle(ask).await?;
        if !out.first().is_some_and(|o| o.text.contains("queued")) {
            return Err(CliError::AnalysisRefused(
                out.first().map(|o| o.text.clone()).unwrap_or_default(),
            ));
        }
        Ok(id)
    }

    /// How many of the analyses of games `ids` are done.
    async fn analyses_done(&self, ids: &[i64]) -> Result<usize, CliError> {
        let mut done = 0;
        for &id in ids {
            let row = self.service.store().analysis(id).await?;
            done += usize::from(row.is_some_and(|a| a.status == AnalysisStatus::Done));
        }
        Ok(done)
    }

    /// Game number `g` challenged and accepted; its id.
    async fn open_game(&mut self, g: usize) -> Result<i64, CliError> {
        let (white, black) = (format!("w{g}"), format!("b{g}"));
        let at = BENCH_START + g as i64;
        let challenge = self.send(
            white.clone(),
            format!("challenge @{black} standard colour:white"),
            at,
        );
        let made = self.service.handle(challenge).await?;
        let id = made
            .first()
            .and_then(|o| o.game)
            .ok_or(CliError::ChallengeRefused)?;
        let accept = self.send(black, format!("accept {id}"), at);
        self.service.handle(accept).await?;
        Ok(id)
    }

    /// The first `plies` moves of the Opera Game in game number `g` (id `id`), each
    /// measured into `measured` when given (`bare`: moves typed without the game's id).
    async fn play_moves(
        &mut self,
        g: usize,
        id: i64,
        plies: usize,
        bare: bool,
        mut measured: Option<&mut Measured>,
    ) -> Result<(), CliError> {
        let (white, black) = (format!("w{g}"), format!("b{g}"));
        let at = BENCH_START + g as i64;
        for (ply, &san) in OPERA_GAME.iter().enumerate().take(plies) {
            let user = if ply % 2 == 0 { &white } else { &black };
            let text = if bare {
                san.to_string()
            } else {
                format!("move {id} {san}")
            };
            let inc = self.send(user.clone(), text, at);
            let timed = measured.is_some().then(|| (Instant::now(), cpu_seconds()));
            let out = self.service.handle(inc).await?;
            if let (Some(m), Some((t, c))) = (measured.as_deref_mut(), timed) {
                let dt = t.elapsed().as_secs_f64();
                m.cpu += cpu_seconds() - c;
                m.busy += dt;
                m.latencies.push(dt * 1e3);
            }
            super::accepted(&out, id, san)?;
        }
        Ok(())
    }
}

/// `postal bench service [--games N] [--runs N] [--db PATH] [--crowd N] [--count N]
/// [--analyses N]`: runs [`run`] `runs` times,
/// each on a new database (`db`, or a file in the system's temporary directory), removed
/// afterwards unless it is `db` of a single run, and prints each report, then the best
/// and the median run by moves per second.
///
/// With `count`, runs [`count_moves`] once instead and prints the moves played and the
/// bytes per finished game, timing nothing.
pub fn main(
    games: usize,
    runs: usize,
    db: Option<PathBuf>,
    crowd: Option<usize>,
    count: Option<usize>,
    background: Background,
) -> Result<(), CliError> {
    let runs = runs.max(1);
    if db.is_some() && runs > 1 {
        return Err(CliError::DbWithRuns);
    }
    if let Some(count) = count {
        let count = count.min(games * OPERA_GAME.len());
        let path = db.clone().unwrap_or_else(|| {
            std::env::temp_dir().join(format!("postal-bench-{}-count.db", std::process::id()))
        });
        let result = super::block_on(count_moves(&path, games, count));
        if db.is_none() {
            for ext in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
            }
        }
        let (moves, finished, bytes) = result?;
        println!(
            "service bench --count: {games} games set up, {moves} moves played, {finished} games finished; database {bytes} bytes, {} bytes per finished game",
            bytes / finished.max(1) as u64
        );
        return Ok(());
    }
    let mut reports = Vec::new();
    for i in 0..runs {
        let (path, scratch) = match &db {
            Some(p) => (p.clone(), false),
            None => (
                std::env::temp_dir().join(format!("postal-bench-{}-{i}.db", std::process::id())),
                true,
            ),
        };
        let result = super::block_on(run(&path, games, crowd, background));
        if scratch {
            for ext in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
            }
        }
        let r = result?;
        println!("service bench: {r}");
        reports.push(r);
    }
    if reports.len() > 1 {
        reports.sort_by(|a, b| b.moves_per_second().total_cmp(&a.moves_per_second()));
        let (best, median) = (&reports[0], &reports[reports.len() / 2]);
        println!(
            "service bench, best of {}: {:.0} moves/s, p99 {:.3} ms, CPU {:.3} ms per move; median run: {:.0} moves/s, p99 {:.3} ms, CPU {:.3} ms per move",
            reports.len(),
            best.moves_per_second(),
            best.p99_ms,
            best.cpu_ms_per_move,
            median.moves_per_second(),
            median.p99_ms,
            median.cpu_ms_per_move
        );
    }
    Ok(())
}
