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

/// The plies [`discord_moves`] plays, in order: a closed Ruy Lopez, 40 plies without a
/// repetition, each typed bare in the game's thread.
const PLIES: [&str; 40] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "Nbd2", "Bb7", "Bc2", "Re8", "Nf1", "Bf8", "Ng3", "g6",
    "a4", "c5", "d5", "c4", "Bg5", "h6", "Be3", "Nc5", "Qd2", "h5", "Bg5", "Be7",
];

/// A Discord move's cost, for callgrind: a game of standard chess between Alice and Bob
/// through the fake Discord, then `POSTAL_MOVES_BENCH` plies (4 unless set, at most 40)
/// typed in its thread, each awaited until its board is posted. Callgrind counts the
/// whole process (the bot, the fake and the test), so two runs with different counts give
/// a move's cost by their difference (docs/benchmarks.md, "A Discord move"); the log is
/// made as `postal run` makes it, under `RUST_LOG` (the default filter unless set).
///
/// ```sh
/// POSTAL_MOVES_BENCH=4 valgrind --tool=callgrind target/ci/deps/discord-HASH \
///     --ignored --exact start_time::discord_moves
/// ```
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark for callgrind"]
async fn discord_moves() {
    let plies: usize = std::env::var("POSTAL_MOVES_BENCH")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(4);
    let filter = std::env::var("RUST_LOG").unwrap_or_else(|_| "postal=info,serenity=warn".into());
    // The process's log, as `postal run` makes it (the bot's tasks run on the runtime's
    // threads, so it must be the global one), writing to nowhere.
    let _ = tracing::subscriber::set_global_default(postal::discord::logging::subscriber(
        postal::discord::logging::LogFormat::Text,
        tracing_subscriber::EnvFilter::new(filter),
        std::io::sink,
        false,
    ));
    // Every board shape prepared first, in the process's shared assets: the bot's own
    // preparation in the background then finds them ready, so that no board races it
    // and both runs do the same work before the moves.
    Renderer::default().prepare_all(&Registry::builtin().board_shapes(), &Default::default());
    let fake = Fake::start(TOKEN).await;
    let path = db("discord-moves");
    let bot = start(&fake, &path, config(&fake), 1).await;
    let thread = start_game(&fake, "standard").await;
    for (i, san) in PLIES.iter().take(plies).enumerate() {
        let who = if i % 2 == 0 { ALICE } else { BOB };
        fake.say(who, &thread, san);
        let needle = format!("played {san}");
        let board = format!("/channels/{thread}/messages");
        // Callgrind runs the process some fifty times slower.
        fake.wait_until(&needle, Duration::from_secs(900), |reqs| {
            reqs.iter().rev().take(8).any(|r| {
                r.method == "POST" && r.path == board && r.ok() && r.shown().contains(&needle)
            })
        })
        .await;
    }
    bot.stop().await;
}
