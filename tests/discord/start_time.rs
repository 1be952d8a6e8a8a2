//! Benchmarks run by hand, which print or leave their figures to callgrind
//! (docs/benchmarks.md) and assert nothing about time.
//!
//! How soon the bot is on Discord: the time from [`Bot::start`] to the gateway's
//! IDENTIFY against the fake Discord (a fresh database each time, so its migrations are
//! counted), and the time a board of each shape takes when it is the first of its shape
//! (what a board asked for before the background preparation reaches its shape pays). A
//! benchmark run by hand, which prints its figures (docs/benchmarks.md) and asserts
//! nothing about time:
//!
//! ```sh
//! cargo test --profile ci --test discord -- --ignored start_time --nocapture
//! ```

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::Fake;
use postal::discord::Bot;
use postal::render::{BoardView, RenderOptions, Renderer};
use postal::variants::Registry;
use std::time::{Duration, Instant};

/// The median of `times`, in milliseconds.
fn median_ms(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1000.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: run by hand, it prints its figures"]
async fn start_time_to_identify_and_first_boards() {
    logs();
    let mut identify = Vec::new();
    for i in 0..7 {
        let fake = Fake::start(TOKEN).await;
        let path = db(&format!("start-time-{i}"));
        let started = Instant::now();
        let bot = Bot::start(settings(&path), config(&fake), TOKEN)
            .await
            .expect("bot starts");
        fake.wait_identified(1).await;
        identify.push(started.elapsed());
        bot.stop().await;
    }
    println!(
        "start to IDENTIFY: median {:.0} ms of {} starts (each {:?})",
        median_ms(identify.clone()),
        identify.len(),
        identify.iter().map(|d| d.as_millis()).collect::<Vec<_>>()
    );
    for (files, ranks) in Registry::builtin().board_shapes() {
        let mut first = Vec::new();
        for _ in 0..5 {
            let renderer = Renderer::isolated(Default::default());
            let view = BoardView::empty(files, ranks);
            let started = Instant::now();
            let png = renderer.render_png(&view, &RenderOptions::default());
            first.push(started.elapsed());
            assert!(!png.is_empty());
        }
        println!(
            "first {files}x{ranks} board, nothing prepared: median {:.1} ms",
            median_ms(first)
        );
    }
}

/// The log's cost of the requests of ten Discord moves, for callgrind: each move posts
/// two boards (a 28 KB PNG each) through serenity's HTTP span, which records the request
/// with its body, as `postal run`'s log is made (`discord::logging`: tracing's formatter
/// under `RUST_LOG`, serenity's spans left out), with the filter `POSTAL_LOG_BENCH`
/// (`info`, or the default `postal=info,serenity=warn`); with `POSTAL_LOG_BENCH_RAW` set,
/// serenity's spans are kept, as before issue 57.
///
/// ```sh
/// POSTAL_LOG_BENCH=info valgrind --tool=callgrind target/ci/deps/discord-HASH \
///     --ignored --exact start_time::log_cost_of_board_posts
/// ```
#[test]
#[ignore = "a benchmark for callgrind"]
fn log_cost_of_board_posts() {
    use tracing_subscriber::layer::SubscriberExt;
    /// A request as serenity's span records it: its route and its body, as a list of
    /// bytes.
    #[derive(Debug)]
    #[allow(dead_code)]
    struct Request {
        route: &'static str,
        body: Option<Vec<u8>>,
    }
    let filter =
        std::env::var("POSTAL_LOG_BENCH").unwrap_or_else(|_| "postal=info,serenity=warn".into());
    let fmt = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .with_writer(std::io::sink)
        .finish();
    let log: Box<dyn tracing::Subscriber + Send + Sync> =
        match std::env::var_os("POSTAL_LOG_BENCH_RAW") {
            Some(_) => Box::new(fmt),
            None => Box::new(fmt.with(tracing_subscriber::filter::filter_fn(|m| {
                !postal::discord::logging::serenity_span(m)
            }))),
        };
    let png: Vec<u8> = (0..28_000u32).map(|i| (i * 7919 % 251) as u8).collect();
    tracing::subscriber::with_default(log, || {
        for _ in 0..10 {
            for _ in 0..2 {
                let req = Request {
                    route: "/channels/1/messages",
                    body: Some(png.clone()),
                };
                let span =
                    tracing::info_span!(target: "serenity::http::client", "request", req = ?req);
                let _in = span.enter();
                tracing::info!(target: "postal::discord", "a board posted");
            }
        }
    });
}
