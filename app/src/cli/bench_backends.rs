//! `postal bench backends`: accepted moves per second and the p99 latency of a move
//! through the [`Service`], on SQLite and on PostgreSQL, with one process and with two
//! (this program started again for each, `--client`, each with its own store, playing
//! its share of the games one move at a time, both at once), measured in one run so that
//! the figures compare on a shared, noisy machine. With `--pgbench`, PostgreSQL's rates
//! are followed each by pgbench's, with as many clients, running a move's statements as
//! the store sends them ([`pgbench_script`]): the floor the service's rate is compared
//! with.

use super::bench_service::{cpu_seconds, load_average, OPERA_GAME};
use super::CliError;
use postal::service::referee::{Incoming, Place, Service};
use postal::service::settings::Settings;
use postal::store::Store;
use sqlx::Connection;
use std::io::{BufRead, BufReader, Write as _};
use std::process::{Command, Stdio};
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

/// Client `client` of `clients`: plays its share of `games` games of [`OPERA_GAME`] on
/// the database at `url`, one move at a time, once told to (a line on its input, after it
/// printed `ready`); prints its CPU seconds and each move's latency in milliseconds.
pub fn client(url: String, client: usize, clients: usize, games: usize) -> Result<(), CliError> {
    super::block_on(async move {
        let service = Service::new(Store::open(&url).await?, Settings::default());
        println!("ready");
        let _ = std::io::stdout().flush();
        let mut go = String::new();
        let _ = std::io::stdin().read_line(&mut go);
        let cpu_start = cpu_seconds();
        let mut latencies = Vec::with_capacity(games * OPERA_GAME.len() / clients.max(1) + 1);
        for g in (0..games).filter(|g| g % clients.max(1) == client) {
            client_game(&service, client, g, &mut latencies).await?;
        }
        let cpu = cpu_seconds() - cpu_start;
        service.store().close().await;
        let times: Vec<String> = latencies.iter().map(|l| format!("{l:.4}")).collect();
        println!("{cpu:.6} {}", times.join(" "));
        Ok(())
    })
}

/// Plays `games` games on the database at `url` with `clients` processes of this program
/// ([`client`]), started together once each has opened its store.
fn play(label: String, url: &str, clients: usize, games: usize) -> Result<BackendReport, CliError> {
    let exe = std::env::current_exe().map_err(CliError::Runtime)?;
    let mut children = Vec::new();
    for c in 0..clients {
        let mut child = Command::new(&exe)
            .args(["bench", "backends", "--games", &games.to_string()])
            .args([
                "--client",
                &c.to_string(),
                "--clients",
                &clients.to_string(),
            ])
            .args(["--url", url])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(CliError::Runtime)?;
        let mut out = BufReader::new(child.stdout.take().ok_or(CliError::ClientFailed(c))?);
        let mut ready = String::new();
        out.read_line(&mut ready).map_err(CliError::Runtime)?;
        if ready.trim() != "ready" {
            return Err(CliError::ClientFailed(c));
        }
        children.push((child, out));
    }
    let start = Instant::now();
    for (child, _) in &mut children {
        if let Some(input) = child.stdin.as_mut() {
            input.write_all(b"go\n").map_err(CliError::Runtime)?;
        }
    }
    let (mut latencies, mut cpu) = (Vec::new(), 0.0);
    for (c, (mut child, mut out)) in children.into_iter().enumerate() {
        let mut line = String::new();
        out.read_line(&mut line).map_err(CliError::Runtime)?;
        let status = child.wait().map_err(CliError::Runtime)?;
        let mut fields = line.split_whitespace().map(str::parse::<f64>);
        match (status.success(), fields.next()) {
            (true, Some(Ok(c))) => cpu += c,
            _ => return Err(CliError::ClientFailed(c)),
        }
        latencies.extend(fields.flatten());
    }
    let wall = start.elapsed().as_secs_f64();
    latencies.sort_by(f64::total_cmp);
    let q = |q: f64| latencies[((latencies.len().max(1) - 1) as f64 * q).round() as usize];
    if latencies.is_empty() {
        return Err(CliError::ClientFailed(0));
    }
    Ok(BackendReport {
        label,
        moves: latencies.len(),
        moves_per_second: latencies.len() as f64 / wall.max(1e-9),
        p50_ms: q(0.5),
        p99_ms: q(0.99),
        cpu_ms_per_move: cpu * 1e3 / latencies.len() as f64,
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

/// The script pgbench runs as a move (see the module): the service's read of the game
/// ([`postal::store::in_play_sql`]) and its write of a move ([`postal::store::write_statement`]:
/// one game's move by its white player, its event, the next deadline), as the store sends
/// them. A random game of `games` is read; the write takes the version, the snapshot and
/// the player from what the read gave, and an event key of pgbench's random numbers; its
/// other values are pgbench's variables (`-D`, returned here), NULL where the store's are.
pub fn pgbench_script() -> Option<(String, Vec<(String, String)>)> {
    use postal::store::{Backend, GameStatus, NewAction, NewDeadline, Write};
    // Values the write's parameters are told apart by.
    let (game, version, snapshot, author) = (9_000_000_001, 9_000_000_002, "SNAPSHOT", "AUTHOR");
    let w = Write {
        expected_version: version,
        action: Some(NewAction {
            seat: 0,
            author: author.into(),
            json: "{\"Move\":\"e4\"}".into(),
        }),
        at: 1_767_225_700,
        event_id: Some("msg:1".into()),
        status: GameStatus::Active,
        snapshot: snapshot.into(),
        deadlines: vec![NewDeadline {
            seat: 1,
            turn: 2,
            due_at: 1_767_312_100,
        }],
        ..Write::default()
    };
    let (mut write, args) = postal::store::write_statement(Backend::Postgres, game, &w)?;
    let mut defined = Vec::new();
    // From the last parameter down, so that `$1` is not taken for the start of `$12`.
    for (n, value) in args.iter().enumerate().rev() {
        let name = format!("p{}", n + 1);
        let with = match value.as_deref() {
            None => "NULL".to_string(),
            // pgbench's parameters have no type where the store's have one: the integers
            // are given theirs.
            Some(v) if v == game.to_string() => ":g::BIGINT".into(),
            Some(v) if v == version.to_string() => ":r_version::BIGINT".into(),
            Some(v) if v == snapshot => ":r_snapshot".into(),
            Some(v) if v == author => ":r_challenger".into(),
            Some(v) if v.starts_with("\\x") => "('\\x01'::BYTEA || int8send(:k))".into(),
            Some(v) => {
                defined.push((name.clone(), v.to_string()));
                match v.parse::<i64>() {
                    Ok(_) => format!(":{name}::BIGINT"),
                    Err(_) => format!(":{name}"),
                }
            }
        };
        write = write.replace(&format!("${}", n + 1), &with);
    }
    let read = postal::store::in_play_sql(Backend::Postgres).replace("$1", ":g");
    let script = format!(
        "\\set g random(1, :games)\n\\set k random(1, 9000000000000000000)\n{read}\n\\gset r_\n{write};\n"
    );
    Some((script, defined))
}

/// pgbench's transactions per second over `moves` moves of [`pgbench_script`] with
/// `clients` clients on `base` (schema `schema`, whose games are numbered from 1 to
/// `games`); `None` where pgbench is not found or fails (said on standard error).
fn pgbench(base: &str, schema: &str, clients: usize, games: usize, moves: usize) -> Option<f64> {
    let (script, defined) = pgbench_script()?;
    let file = std::env::temp_dir().join(format!("postal-pgbench-{}.sql", std::process::id()));
    std::fs::write(&file, script).ok()?;
    let mut cmd = Command::new("pgbench");
    cmd.args(["-n", "-M", "prepared", "-f"])
        .arg(&file)
        .args(["-c", &clients.to_string(), "-j", &clients.to_string()])
        .args(["-t", &(moves / clients.max(1)).to_string()])
        .args(["-D", &format!("games={games}")])
        .env("PGOPTIONS", format!("-c search_path={schema}"));
    for (name, value) in &defined {
        cmd.args(["-D", &format!("{name}={value}")]);
    }
    let out = cmd.arg(base).output();
    let _ = std::fs::remove_file(&file);
    let out = match out {
        Ok(out) => out,
        Err(e) => {
            eprintln!("pgbench: {e}");
            return None;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let tps = text
        .lines()
        .find_map(|l| l.strip_prefix("tps = "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|t| t.parse().ok());
    if tps.is_none() {
        eprintln!(
            "pgbench failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    tps
}

/// Runs every configuration (SQLite and, with `postgres`, PostgreSQL, each followed by
/// pgbench with `with_pgbench`; one process and two) with `games` games each, and prints a
/// line for each.
pub fn main(games: usize, postgres: Option<String>, with_pgbench: bool) -> Result<(), CliError> {
    if let Some(load) = load_average() {
        println!("load average at start: {load:.2}");
    }
    for clients in [1, 2] {
        let path = std::env::temp_dir().join(format!(
            "postal-bench-backends-{}-{clients}.db",
            std::process::id()
        ));
        let url = path.display().to_string();
        // Made (and migrated) before its clients open it.
        let made = super::block_on(async {
            Store::open(&url).await?.close().await;
            Ok(())
        });
        let result = made.and_then(|()| {
            play(
                format!("SQLite file, {clients} service(s)"),
                &url,
                clients,
                games,
            )
        });
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{url}{ext}"));
        }
        println!("{}", result?);
        if let Some(base) = &postgres {
            let schema = format!("postal_bench_{}_{clients}", std::process::id());
            let join = if base.contains('?') { '&' } else { '?' };
            let url = format!("{base}{join}options[search_path]={schema}");
            let made = super::block_on(async {
                pg_schema(base, &format!("CREATE SCHEMA {schema}")).await?;
                Store::open(&url).await?.close().await;
                Ok(())
            });
            let label = format!("PostgreSQL, {clients} service(s)");
            let result = made.and_then(|()| play(label, &url, clients, games));
            if let Ok(report) = &result {
                println!("{report}");
                if with_pgbench {
                    match pgbench(base, &schema, clients, games, report.moves) {
                        Some(tps) => println!(
                            "{:<32} {tps:>6.0} moves/s  (the service: {:.2}x)",
                            format!("pgbench, {clients} client(s)"),
                            report.moves_per_second / tps
                        ),
                        None => println!("pgbench, {clients} client(s): not measured"),
                    }
                }
            }
            super::block_on(pg_schema(base, &format!("DROP SCHEMA {schema} CASCADE")))?;
            result?;
        }
    }
    Ok(())
}
