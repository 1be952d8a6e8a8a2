//! `postal bench backends`: accepted moves per second and the p99 latency of a move
//! through the [`Service`], on SQLite and on PostgreSQL, with one service and with two
//! (each with its own connection pool, game locks and outbox claimer, as two processes
//! sharing the database have), measured in one run so that the figures compare on a
//! shared, noisy machine. Each service's client plays its share of the games one move at
//! a time; both clients play at once.

use super::bench_service::{cpu_seconds, load_average, OPERA_GAME};
use super::CliError;
use postal::service::referee::{Incoming, Place, Service};
use postal::service::settings::Settings;
use postal::store::Store;
use sqlx::Connection;
use std::sync::Arc;
use std::time::Instant;

/// What one configuration measured.
#[derive(Clone, Debug)]
pub struct BackendReport {
    /// Which database and how many services.
    pub label: String,
    /// Moves accepted and committed.
    pub moves: usize,
    /// Accepted moves per second of wall-clock time, every client together.
    pub moves_per_second: f64,
    /// Median latency of one move, in milliseconds.
    pub p50_ms: f64,
    /// 99th-percentile latency of one move, in milliseconds.
    pub p99_ms: f64,
    /// Process CPU time per move, in milliseconds (the database server's is not counted).
    pub cpu_ms_per_move: f64,
}

impl std::fmt::Display for BackendReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:<32} {:>6.0} moves/s  p50 {:>6.3} ms  p99 {:>6.3} ms  CPU {:.3} ms/move ({} moves)",
            self.label,
            self.moves_per_second,
            self.p50_ms,
            self.p99_ms,
            self.cpu_ms_per_move,
            self.moves
        )
    }
}

/// Plays `games` games of [`OPERA_GAME`] split between `services` (each client one game
/// after another, one move at a time; the clients at once).
async fn play(
    label: String,
    services: Vec<Service>,
    games: usize,
) -> Result<BackendReport, CliError> {
    let clients = services.len().max(1);
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    let mut tasks = Vec::new();
    for (c, service) in services.into_iter().enumerate() {
        let service = Arc::new(service);
        let share: Vec<usize> = (0..games).filter(|g| g % clients == c).collect();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(share.len() * OPERA_GAME.len());
            for g in share {
                client_game(&service, c, g, &mut latencies).await?;
            }
            service.store().close().await;
            Ok::<_, CliError>(latencies)
        }));
    }
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await??);
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_start;
    latencies.sort_by(f64::total_cmp);
    let q = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    Ok(BackendReport {
        label,
        moves: latencies.len(),
        moves_per_second: latencies.len() as f64 / wall.max(1e-9),
        p50_ms: q(0.5),
        p99_ms: q(0.99),
        cpu_ms_per_move: cpu * 1e3 / latencies.len().max(1) as f64,
    })
}

/// One game played by client `c`, each move's latency in milliseconds added to
/// `latencies`.
async fn client_game(
    service: &Service,
    c: usize,
    g: usize,
    latencies: &mut Vec<f64>,
) -> Result<(), CliError> {
    let at = 1_767_225_600 + g as i64;
    let event = |n: usize| format!("bench-{g}-{n}");
    let incoming = |n: usize, user: &str, text: String| Incoming {
        event_id: event(n),
        user: user.to_string(),
        place: Place::Channel(format!("bench-{}", g % 16)),
        via: None,
        server: None,
        text,
        at,
    };
    let (white, black) = (format!("w{g}"), format!("b{g}"));
    let made = service
        .handle(incoming(
            0,
            &white,
            format!("challenge @{black} standard colour:white"),
        ))
        .await?;
    let id = made
        .first()
        .and_then(|o| o.game)
        .ok_or(CliError::ClientChallengeRefused(c))?;
    service
        .handle(incoming(1, &black, format!("accept {id}")))
        .await?;
    for (ply, &san) in OPERA_GAME.iter().enumerate() {
        let user = if ply % 2 == 0 { &white } else { &black };
        let t = Instant::now();
        let out = service
            .handle(incoming(ply + 2, user, format!("move {id} {san}")))
            .await?;
        latencies.push(t.elapsed().as_secs_f64() * 1e3);
        super::accepted(&out, id, san)?;
    }
    Ok(())
}

/// `n` services over the database at `url`, each with its own store.
async fn services(url: &str, n: usize) -> Result<Vec<Service>, CliError> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let store = Store::open(url).await?;
        out.push(Service::new(store, Settings::default()));
    }
    Ok(out)
}

/// A scratch schema on the PostgreSQL server of `base`, made for one configuration and
/// dropped after it; its URL.
async fn pg_schema(base: &str, sql: &str) -> Result<(), CliError> {
    let mut c = sqlx::PgConnection::connect(base)
        .await
        .map_err(|error| CliError::Postgres {
            database: postal::store::database_name(base),
            error,
        })?;
    sqlx::query(sql).execute(&mut c).await?;
    Ok(c.close().await?)
}

/// Runs every configuration (SQLite and, with `postgres`, PostgreSQL; one service and
/// two) with `games` games each, in one process, and prints a line for each.
pub fn main(games: usize, postgres: Option<String>) -> Result<(), CliError> {
    super::block_on(async move {
        if let Some(load) = load_average() {
            println!("load average at start: {load:.2}");
        }
        let mut reports = Vec::new();
        for clients in [1, 2] {
            let path = std::env::temp_dir().join(format!(
                "postal-bench-backends-{}-{clients}.db",
                std::process::id()
            ));
            let url = path.display().to_string();
            let label = format!("SQLite file, {clients} service(s)");
            let result = match services(&url, clients).await {
                Ok(s) => play(label, s, games).await,
                Err(e) => Err(e),
            };
            for ext in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{url}{ext}"));
            }
            reports.push(result?);
            println!("{}", reports.last().unwrap());
            if let Some(base) = &postgres {
                let schema = format!("postal_bench_{}_{clients}", std::process::id());
                pg_schema(base, &format!("CREATE SCHEMA {schema}")).await?;
                let join = if base.contains('?') { '&' } else { '?' };
                let url = format!("{base}{join}options[search_path]={schema}");
                let label = format!("PostgreSQL, {clients} service(s)");
                let result = match services(&url, clients).await {
                    Ok(s) => play(label, s, games).await,
                    Err(e) => Err(e),
                };
                pg_schema(base, &format!("DROP SCHEMA {schema} CASCADE")).await?;
                reports.push(result?);
                println!("{}", reports.last().unwrap());
            }
        }
        Ok(())
    })
}
