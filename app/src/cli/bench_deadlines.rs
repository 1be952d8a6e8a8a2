//! `postal bench deadlines`: what one tick of the deadline check costs with a given
//! number of active games stored. The games are written straight into a new SQLite file
//! (their state copied from one real game made through the service), each with a deadline
//! between two hours and three days away and players who chose no reminders, stored as
//! the check leaves a deadline it has looked at; then the check runs `ticks` times, a
//! second apart, with nothing due, each timed. A check reads only what is due (a range of
//! the index of times to look at deadlines), so its cost does not grow with the games:
//! compare `--games 100` with `--games 100000`, or, under callgrind, the instruction
//! counts of `--ticks 0` and `--ticks N` at each size (README, "Benchmarks").

use super::bench_service::{cpu_seconds, load_average};
use super::CliError;
use postal::service::referee::{Incoming, Place, Service};
use postal::service::settings::Settings;
use postal::store::Store;
use sqlx::Connection;
use std::time::Instant;

/// The time of the bench's first check, in seconds since the epoch.
const NOW: i64 = 1_767_225_600;

/// The first deadline's distance from [`NOW`], and the span the deadlines cover after it.
const FIRST_DUE: i64 = 2 * 3600;
const SPAN: i64 = 3 * 86_400;

/// Stores `games` active games, then runs the deadline check `ticks + 1` times and prints
/// the time and CPU of the ticks after the first.
pub fn main(games: usize, ticks: usize) -> Result<(), CliError> {
    let path =
        std::env::temp_dir().join(format!("postal-bench-deadlines-{}.db", std::process::id()));
    let result = super::block_on(run(&path, games, ticks));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
    let (first, per_tick, cpu_per_tick) = result?;
    println!(
        "deadline bench: {games} active games; first check {first:.3} ms; then {ticks} checks, {per_tick:.3} ms and {cpu_per_tick:.3} ms CPU each; load average at start {}",
        load_average().map_or_else(|| "unknown".to_string(), |l| format!("{l:.2}"))
    );
    Ok(())
}

/// The bench on a new database at `path`: the first check's milliseconds, then the
/// milliseconds and CPU milliseconds of each later one.
async fn run(
    path: &std::path::Path,
    games: usize,
    ticks: usize,
) -> Result<(f64, f64, f64), CliError> {
    if path.exists() {
        return Err(CliError::DatabaseExists(path.to_path_buf()));
    }
    let url = format!("sqlite://{}", path.display());
    let service = Service::new(Store::open(&url).await?, Settings::default());
    let (snapshot, start) = one_real_game(&service).await?;
    store_games(path, games, &snapshot, &start).await?;
    let t = Instant::now();
    service.tick(NOW).await?;
    let first = t.elapsed().as_secs_f64() * 1e3;
    let (t, c) = (Instant::now(), cpu_seconds());
    for k in 0..ticks {
        service.tick(NOW + 1 + k as i64).await?;
    }
    let n = ticks.max(1) as f64;
    let per_tick = t.elapsed().as_secs_f64() * 1e3 / n;
    let cpu_per_tick = (cpu_seconds() - c) * 1e3 / n;
    service.store().close().await;
    Ok((first, per_tick, cpu_per_tick))
}

/// A game challenged and accepted through the service, long ago: its state and starting
/// state as stored, which every stored game copies. (Its deadline has passed, and the
/// check ends it on time at its first look.)
async fn one_real_game(service: &Service) -> Result<(String, String), CliError> {
    let say = |n: u32, user: &str, text: String| Incoming {
        event_id: format!("bench-deadlines-{n}"),
        user: user.into(),
        place: Place::Channel("bench".into()),
        via: None,
        server: None,
        text,
        at: NOW - 30 * 86_400,
    };
    let made = service
        .handle(say(1, "w", "challenge @b standard colour:white".into()))
        .await?;
    let id = made
        .first()
        .and_then(|o| o.game)
        .ok_or(CliError::ChallengeRefused)?;
    service.handle(say(2, "b", format!("accept {id}"))).await?;
    let g = service
        .store()
        .game(id)
        .await?
        .ok_or(CliError::ChallengeRefused)?;
    let start = g
        .start_snapshot
        .clone()
        .unwrap_or_else(|| g.snapshot.clone());
    Ok((g.snapshot, start))
}

/// Writes `games` active games (ids from 2) with their two players, who chose no
/// reminders, and each a deadline for White between [`FIRST_DUE`] and [`FIRST_DUE`] +
/// [`SPAN`] after [`NOW`], to be looked at when it falls (as the check leaves it).
async fn store_games(
    path: &std::path::Path,
    games: usize,
    snapshot: &str,
    start: &str,
) -> Result<(), CliError> {
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite:{}", path.display())).await?;
    let numbers = format!(
        "WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < {})",
        games + 1
    );
    let due = format!("{} + (i - 2) * {SPAN} / {}", NOW + FIRST_DUE, games.max(1));
    let mut tx = c.begin().await?;
    for sql in [
        format!(
            "{numbers} INSERT INTO users (id, name, reminder_hours)
             SELECT 'w' || i, 'w' || i, '' FROM n UNION ALL SELECT 'b' || i, 'b' || i, '' FROM n"
        ),
        format!(
            "{numbers} INSERT INTO games (id, variant, status, days_per_move, colour, challenger,
                 channel, seed, snapshot, start_snapshot, version, created_at, updated_at, started_at)
             SELECT i, 'standard', 'active', 3, 'white', 'w' || i, 'bench', i, $1, $2, 1,
                 {NOW}, {NOW}, {NOW} FROM n"
        ),
        format!(
            "{numbers} INSERT INTO seats (game_id, seat, user_id, role, accepted)
             SELECT i, 0, 'w' || i, 'white', 1 FROM n UNION ALL SELECT i, 1, 'b' || i, 'black', 1 FROM n"
        ),
        format!(
            "{numbers} INSERT INTO deadlines (game_id, seat, turn, due_at, check_at)
             SELECT i, 0, 2, {due}, {due} FROM n"
        ),
    ] {
        let q = sqlx::query(&sql);
        // Only the games' statement takes the states.
        let q = match sql.contains("$1") {
            true => q.bind(snapshot).bind(start),
            false => q,
        };
        q.execute(&mut *tx).await?;
    }
    tx.commit().await?;
    c.close().await?;
    Ok(())
}
