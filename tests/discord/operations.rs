//! What an operator sees of a running bot: `/metrics` counting a short game as it was
//! played, `/healthz` healthy, and a PostgreSQL outage under a running bot (its
//! connections killed with `pg_terminate_backend`, then the server gone for a while):
//! commands during it are told to try again, `/healthz` says 503 with the reason, and
//! play goes on once the server is back with every acknowledged move stored and
//! announced once.

use crate::common::postgres::Schema;
use crate::fake_discord::harness::*;
use crate::fake_discord::Fake;
use postal::discord::Config;
use sqlx::Connection;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;

/// The bot's configuration with the metrics listener on a port of the system's choosing.
fn with_metrics(fake: &Fake) -> Config {
    Config {
        metrics_addr: "127.0.0.1:0".into(),
        ..config(fake)
    }
}

/// `GET path` of the listener at `addr`: the status and the body.
async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let r = reqwest::get(format!("http://{addr}{path}"))
        .await
        .unwrap_or_else(|e| panic!("GET {path}: {e}"));
    let status = r.status().as_u16();
    (status, r.text().await.unwrap())
}

/// The value of the sample `series` (its name and labels as written) in a scrape.
fn sample(scrape: &str, series: &str) -> Option<f64> {
    scrape
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

/// Polls `/healthz` until it answers `status`; returns its body.
async fn health_becomes(addr: SocketAddr, status: u16) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (now, body) = get(addr, "/healthz").await;
        if now == status {
            return body;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "/healthz stays {now} ({body}), not {status}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The number of posts in `channel` among `reqs` whose text contains `needle`.
fn count_in(reqs: &[crate::fake_discord::Recorded], channel: &str, needle: &str) -> usize {
    posts(reqs, channel)
        .into_iter()
        .filter(|r| r.content().is_some_and(|c| c.contains(needle)))
        .count()
}

/// The number of posts the bot made in `channel` whose text contains `needle`.
fn count_posts(fake: &Fake, channel: &str, needle: &str) -> usize {
    count_in(&fake.requests(), channel, needle)
}

/// A short game (a refusal whose post Discord refuses, then the fool's mate) counted
/// move by move in `/metrics`;
/// `/healthz` is 200 while the gateway is connected and the database answers; other
/// paths are 404. Off by default: without `metrics_addr` nothing listens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_a_short_game_and_health_is_ok() {
    let fake = Fake::start(TOKEN).await;
    let silent = start(&fake, &db("no-metrics"), config(&fake), 1).await;
    assert_eq!(silent.metrics_addr(), None, "off by default");
    silent.stop().await;
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("metrics"), with_metrics(&fake), 1).await;
    let addr = bot.metrics_addr().expect("the listener is on");
    assert_eq!(health_becomes(addr, 200).await, "ok\n");
    assert_eq!(get(addr, "/nothing").await.0, 404);
    let thread = start_game(&fake, "").await;
    // The refusal of an illegal move, refused in turn by Discord: a REST error counted.
    fake.fail_next("POST", &format!("/channels/{thread}/messages"), 500, 0);
    fake.say(ALICE, &thread, "e5");
    fake.wait_for("the refusal's failed post", |r| {
        r.iter().any(|x| x.status == 500)
    })
    .await;
    for (who, mv) in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4")] {
        fake.say(who, &thread, mv);
        wait_post(&fake, &thread, &format!("played {mv}")).await;
    }
    fake.say(BOB, &thread, "Qh4#");
    wait_post(&fake, &thread, "checkmate").await;
    let (status, scrape) = get(addr, "/metrics").await;
    assert_eq!(status, 200);
    let expect = [
        (
            r#"postal_commands_total{kind="challenge",outcome="ok"}"#,
            1.0,
        ),
        (r#"postal_commands_total{kind="accept",outcome="ok"}"#, 1.0),
        (r#"postal_commands_total{kind="move",outcome="ok"}"#, 4.0),
        (
            r#"postal_commands_total{kind="move",outcome="refused"}"#,
            1.0,
        ),
        (r#"postal_refusals_total{kind="illegal"}"#, 1.0),
        (r#"postal_discord_rest_errors_total{status="500"}"#, 1.0),
        (r#"postal_moves_accepted_total{variant="standard"}"#, 4.0),
        (r#"postal_games_started_total{variant="standard"}"#, 1.0),
        (
            r#"postal_games_ended_total{variant="standard",how="finished"}"#,
            1.0,
        ),
    ];
    for (series, value) in expect {
        assert_eq!(
            sample(&scrape, series),
            Some(value),
            "{series} in\n{scrape}"
        );
    }
    // Every commit to a game timed: the acceptance and the four moves (a challenge is
    // created, not committed to a game).
    assert_eq!(
        sample(&scrape, "postal_database_write_seconds_count"),
        Some(5.0),
        "{scrape}"
    );
    let sent = sample(&scrape, "postal_delivery_seconds_count").unwrap_or(0.0);
    assert!(
        sent >= 6.0,
        "every answer's delivery timed: {sent}\n{scrape}"
    );
    assert!(scrape.contains("# TYPE postal_database_write_seconds histogram"));
    assert_eq!(sample(&scrape, "postal_database_outages_total"), None);
    let refused: Vec<u16> = fake
        .requests()
        .iter()
        .filter(|r| !r.ok())
        .map(|r| r.status)
        .collect();
    assert_eq!(
        refused,
        [500],
        "Discord refused only what the test asked it to"
    );
    bot.stop().await;
}

/// Hundreds of idle and half-written connections held on the listener do not starve
/// `/healthz`: it answers at once (the connections are capped well above them and
/// each is closed after the header read timeout), and the listener keeps serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_slow_clients_do_not_starve_healthz() {
    use tokio::io::AsyncWriteExt;
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("metrics-held"), with_metrics(&fake), 1).await;
    let addr = bot.metrics_addr().expect("the listener is on");
    assert_eq!(health_becomes(addr, 200).await, "ok\n");
    let mut held = Vec::new();
    for i in 0..300 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        if i % 2 == 1 {
            s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                .await
                .unwrap();
        }
        held.push(s);
    }
    let asked = std::time::Instant::now();
    let answer = tokio::time::timeout(Duration::from_secs(3), get(addr, "/healthz")).await;
    assert_eq!(answer.expect("/healthz starved").0, 200);
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    drop(held);
    bot.stop().await;
}

/// A TCP forwarder in front of the PostgreSQL server that a test can cut: cut, it closes
/// every connection it carries and every new one at once, as a server that restarts.
struct Cuttable {
    addr: SocketAddr,
    cut: Arc<AtomicBool>,
    carried: Arc<Mutex<Vec<AbortHandle>>>,
}

impl Cuttable {
    async fn start(upstream: String) -> Cuttable {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let cut = Arc::new(AtomicBool::new(false));
        let carried: Arc<Mutex<Vec<AbortHandle>>> = Arc::default();
        let (is_cut, list) = (cut.clone(), carried.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if is_cut.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let upstream = upstream.clone();
                let task = tokio::spawn(async move {
                    if let Ok(mut server) = TcpStream::connect(&upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                list.lock().unwrap().push(task.abort_handle());
            }
        });
        Cuttable { addr, cut, carried }
    }

    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for task in self.carried.lock().unwrap().drain(..) {
            task.abort();
        }
    }

    fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

/// `url` (`postgres://user@host:port/db?...`) with its host and port replaced by `addr`,
/// and the connections named `name`.
fn through(url: &str, addr: SocketAddr, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (user, rest) = rest.split_once('@').unwrap();
    let path = &rest[rest.find('/').unwrap()..];
    let join = if path.contains('?') { '&' } else { '?' };
    format!("{scheme}://{user}@{addr}{path}{join}application_name={name}")
}

/// The host and port of a PostgreSQL URL.
fn host_port(url: &str) -> String {
    let rest = url.split_once('@').unwrap().1;
    rest[..rest.find('/').unwrap()].to_string()
}

/// A bot on PostgreSQL whose connections are killed (`pg_terminate_backend`) goes on at
/// once; while the server is unreachable, commands are answered "try again in a moment"
/// and change nothing, `/healthz` is 503 naming the database, and the outage is counted
/// once however many commands meet it; once the server is back, play goes on: the moves
/// acknowledged, stored and announced agree, each once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_outage_loses_nothing_and_doubles_nothing() {
    let Some(schema) = Schema::for_test("a_postgresql_outage_loses_nothing") else {
        return;
    };
    let base = std::env::var(crate::common::postgres::VAR).unwrap();
    let proxy = Cuttable::start(host_port(&base)).await;
    let mut tag = [0u8; 8];
    getrandom::getrandom(&mut tag).unwrap();
    let name = format!("postal_outage_{:016x}", u64::from_le_bytes(tag));
    let url = through(&schema.url(), proxy.addr, &name);
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &url, with_metrics(&fake), 1).await;
    let addr = bot.metrics_addr().unwrap();
    health_becomes(addr, 200).await;
    let thread = start_game(&fake, "").await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "played e4").await;

    // Its connections killed by the server: the pool opens new ones.
    let mut admin = sqlx::PgConnection::connect(&base).await.unwrap();
    let killed: Vec<(bool,)> = sqlx::query_as(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
    )
    .bind(&name)
    .fetch_all(&mut admin)
    .await
    .unwrap();
    assert!(!killed.is_empty(), "the bot had connections to kill");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (left,): (i64,) =
            sqlx::query_as("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1")
                .bind(&name)
                .fetch_one(&mut admin)
                .await
                .unwrap();
        if left == 0 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{left} connections linger"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    fake.say(BOB, &thread, "!move e5");
    wait_post(&fake, &thread, "played e5").await;
    assert_eq!(count_posts(&fake, &thread, "try again"), 0);

    // The server gone: each command is told to try again, and nothing changes.
    proxy.cut();
    let why = health_becomes(addr, 503).await;
    assert!(why.starts_with("database: "), "{why}");
    assert!(!why.trim_end().contains('\n'), "one line: {why}");
    for _ in 0..3 {
        let before = count_posts(&fake, &thread, "try again in a moment");
        fake.say(ALICE, &thread, "!move Nf3");
        fake.wait_for("a try-again answer", |reqs| {
            count_in(reqs, &thread, "try again in a moment") > before
        })
        .await;
    }

    // Back: play goes on where it was.
    proxy.restore();
    assert_eq!(health_becomes(addr, 200).await, "ok\n");
    fake.say(ALICE, &thread, "!move Nf3");
    wait_post(&fake, &thread, "played Nf3").await;
    fake.say(BOB, &thread, "!moves");
    let record = wait_post(&fake, &thread, "1. e4 e5 2. Nf3").await;
    assert!(
        !record.content().unwrap().contains("Nf3 Nf3"),
        "{:?}",
        record.content()
    );
    // Stored: the moves the referee reads back, each once.
    // (The log keeps an entry a line, `{seat}{kind}{at} {text}`: `m` is a move's kind.)
    let (stored,): (String,) = sqlx::query_as(&format!(
        "SELECT log FROM {}.game_logs WHERE game_id = 1",
        schema.name()
    ))
    .fetch_one(&mut admin)
    .await
    .unwrap();
    let moves: Vec<&str> = stored
        .lines()
        .filter(|entry| {
            entry
                .split(' ')
                .next()
                .is_some_and(|head| head.contains('m'))
        })
        .collect();
    assert_eq!(moves.len(), 3, "{stored:?}");
    // Announced: each move once.
    for mv in ["played e4", "played e5", "played Nf3"] {
        assert_eq!(count_posts(&fake, &thread, mv), 1, "{mv}");
    }
    let scrape = get(addr, "/metrics").await.1;
    assert_eq!(
        sample(
            &scrape,
            r#"postal_moves_accepted_total{variant="standard"}"#
        ),
        Some(3.0),
        "{scrape}"
    );
    assert_eq!(
        sample(&scrape, "postal_database_outages_total"),
        Some(1.0),
        "{scrape}"
    );
    assert_eq!(
        sample(&scrape, "postal_database_unavailable_total"),
        Some(3.0),
        "{scrape}"
    );
    admin.close().await.unwrap();
    bot.stop().await;
}
