//! Perft throughput of the rules engine. In the same run, and on the same positions,
//! it measures shakmaty (standard chess only: it has no 6x6 boards) and, when the
//! `fairy-stockfish` binary is installed (Debian package `fairy-stockfish`, or a path in
//! `FAIRY_STOCKFISH`), Fairy-Stockfish's `go perft` through its UCI pipe.
//!
//! The Lichess variants are measured against shakmaty's same variant (its `variant`
//! feature), from their starting positions, in the same run.
//!
//! Run with `cargo bench --bench perft`. Throughput is in nodes (leaves) per second; all
//! three engines count the last ply without playing it. Each sample is one perft (flat
//! sampling, ten samples), and the run ends with a table of Postal's speed against
//! shakmaty's per position, above 1 where Postal is faster: shakmaty's median time over
//! Postal's from criterion's estimates of this run, and the same from five alternated
//! pairs of perfts timed in CPU time of the thread, which other programs sharing the
//! machine disturb less than criterion's wall-clock samples taken one engine after the
//! other.
//!
//! With `POSTAL_PERFT_COUNT="ENGINE VARIANT DEPTH [FEN]"` in the environment (ENGINE
//! `postal` or `shakmaty`, VARIANT a registry id), the binary instead runs that one
//! perft and prints its count: what `valgrind --tool=callgrind` measures for the
//! instructions per leaf in docs/benchmarks.md, with the very build criterion times.

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput};
use postal::notation::fen::parse_fen;
use postal::rules::{perft, Position, Variant};
use shakmaty::{fen::Fen, CastlingMode, Chess};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, SystemTime};

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

struct Case {
    name: &'static str,
    variant: Variant,
    fen: Option<&'static str>,
    depth: u32,
}

const CASES: [Case; 4] = [
    Case {
        name: "standard-start",
        variant: Variant::STANDARD,
        fen: None,
        depth: 6,
    },
    Case {
        name: "kiwipete",
        variant: Variant::STANDARD,
        fen: Some(KIWIPETE),
        depth: 5,
    },
    Case {
        name: "los-alamos-start",
        variant: Variant::LOS_ALAMOS,
        fen: None,
        depth: 5,
    },
    Case {
        name: "chess-sharp-start",
        variant: Variant::CHESS_SHARP,
        fen: None,
        depth: 4,
    },
];

/// A running Fairy-Stockfish, driven over UCI.
struct FairyStockfish {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl FairyStockfish {
    fn start() -> Option<FairyStockfish> {
        let path = std::env::var("FAIRY_STOCKFISH")
            .unwrap_or_else(|_| "/usr/games/fairy-stockfish".to_string());
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let input = child.stdin.take()?;
        let output = BufReader::new(child.stdout.take()?);
        let mut fsf = FairyStockfish {
            child,
            input,
            output,
        };
        fsf.send("uci");
        fsf.wait_for("uciok");
        Some(fsf)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("write to fairy-stockfish");
        self.input.flush().expect("flush fairy-stockfish");
    }

    fn wait_for(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .output
                .read_line(&mut line)
                .expect("read fairy-stockfish");
            assert!(n > 0, "fairy-stockfish exited");
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    }

    /// Sets up a case; returns false when the engine cannot play the variant.
    fn set_up(&mut self, case: &Case) -> bool {
        let variant = match case.variant.name() {
            "standard" => "chess",
            "los-alamos" => "losalamos",
            _ => return false,
        };
        self.send(&format!("setoption name UCI_Variant value {variant}"));
        match case.fen {
            Some(f) => self.send(&format!("position fen {f}")),
            None => self.send("position startpos"),
        }
        true
    }

    fn perft(&mut self, depth: u32) -> u64 {
        self.send(&format!("go perft {depth}"));
        let line = self.wait_for("Nodes searched");
        line.rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("node count")
    }
}

impl Drop for FairyStockfish {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

fn bench_perft(c: &mut Criterion) {
    let mut fsf = FairyStockfish::start();
    if fsf.is_none() {
        eprintln!("fairy-stockfish not found: measuring postal and shakmaty only");
    }
    let mut group = c.benchmark_group("perft");
    modest(&mut group);
    for case in &CASES {
        let pos = match case.fen {
            Some(f) => parse_fen(case.variant, f).expect("valid bench FEN"),
            None => Position::start(case.variant),
        };
        let nodes = perft(&pos, case.depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(
            BenchmarkId::new("postal", case.name),
            &(pos, case.depth),
            |b, (pos, depth)| b.iter(|| perft(pos, *depth)),
        );
        if case.variant == Variant::STANDARD {
            let fen: Fen = case.fen.unwrap_or(START_FEN).parse().expect("valid FEN");
            let sm: Chess = fen
                .into_position(CastlingMode::Standard)
                .expect("legal position");
            assert_eq!(shakmaty::perft(&sm, case.depth), nodes);
            group.bench_with_input(
                BenchmarkId::new("shakmaty", case.name),
                &(sm, case.depth),
                |b, (sm, depth)| b.iter(|| shakmaty::perft(sm, *depth)),
            );
        }
        // Fairy-Stockfish is about ten times slower: measured where that stays short.
        if let Some(engine) = fsf.as_mut().filter(|_| nodes < 10_000_000) {
            if engine.set_up(case) {
                assert_eq!(engine.perft(case.depth), nodes, "{}", case.name);
                group.bench_function(BenchmarkId::new("fairy-stockfish", case.name), |b| {
                    b.iter(|| engine.perft(case.depth))
                });
            }
        }
    }
    group.finish();
}

/// The Lichess variants: postal's id, shakmaty's variant, and the depth measured from
/// the start.
const LICHESS: &[(&str, shakmaty::variant::Variant, u32)] = &[
    (
        "king-of-the-hill",
        shakmaty::variant::Variant::KingOfTheHill,
        5,
    ),
    ("three-check", shakmaty::variant::Variant::ThreeCheck, 5),
    ("racing-kings", shakmaty::variant::Variant::RacingKings, 4),
    ("horde", shakmaty::variant::Variant::Horde, 5),
    ("crazyhouse", shakmaty::variant::Variant::Crazyhouse, 4),
    ("antichess", shakmaty::variant::Variant::Antichess, 5),
    ("atomic", shakmaty::variant::Variant::Atomic, 5),
];

fn bench_lichess(c: &mut Criterion) {
    use shakmaty::variant::VariantPosition;
    let registry = postal::variants::Registry::builtin();
    let mut group = c.benchmark_group("perft-lichess");
    modest(&mut group);
    for &(id, theirs, depth) in LICHESS {
        let variant = registry.board_variant(id).expect("a Lichess variant");
        let pos = Position::start(variant);
        let fen: Fen = postal::notation::fen::to_fen(&pos)
            .parse()
            .expect("shakmaty reads postal's FEN");
        let sm = VariantPosition::from_setup(theirs, fen.into_setup(), CastlingMode::Standard)
            .expect("legal position");
        let nodes = perft(&pos, depth);
        assert_eq!(shakmaty::perft(&sm, depth), nodes, "{id}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("postal", id), &pos, |b, pos| {
            b.iter(|| perft(pos, depth))
        });
        group.bench_with_input(BenchmarkId::new("shakmaty", id), &sm, |b, sm| {
            b.iter(|| shakmaty::perft(sm, depth))
        });
    }
    group.finish();
}

/// Ten samples of one perft each, with short warm-up and measurement targets, so that
/// the whole run takes a few minutes (a sample is as long as its perft needs).
fn modest(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(1));
}

/// Where criterion keeps this run's estimates.
fn criterion_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"))
        .join("criterion")
}

/// The median time in nanoseconds criterion estimated for a benchmark of this run
/// (none for one measured only by an earlier run, which left its estimates in place).
fn median_ns(group: &str, engine: &str, case: &str, since: SystemTime) -> Option<f64> {
    let path = criterion_dir()
        .join(group)
        .join(engine)
        .join(case)
        .join("new/estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["median"]["point_estimate"].as_f64()
}

/// CPU time this thread has used.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given, which is ours.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The thread's CPU time for one perft.
fn cpu_time(perft: &dyn Fn() -> u64) -> Duration {
    let start = thread_cpu();
    std::hint::black_box(perft());
    thread_cpu() - start
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Each position both engines play: its name, depth, and the two perfts.
type Pair = (
    &'static str,
    u32,
    Box<dyn Fn() -> u64>,
    Box<dyn Fn() -> u64>,
);

fn pairs() -> Vec<Pair> {
    use shakmaty::variant::VariantPosition;
    let mut out: Vec<Pair> = Vec::new();
    for case in CASES.iter().filter(|c| c.variant == Variant::STANDARD) {
        let fen = case.fen.unwrap_or(START_FEN);
        let pos = parse_fen(case.variant, fen).expect("valid bench FEN");
        let sm: Chess = fen
            .parse::<Fen>()
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal position");
        let depth = case.depth;
        out.push((
            case.name,
            depth,
            Box::new(move || perft(&pos, depth)),
            Box::new(move || shakmaty::perft(&sm, depth)),
        ));
    }
    let registry = postal::variants::Registry::builtin();
    for &(id, theirs, depth) in LICHESS {
        let pos = Position::start(registry.board_variant(id).expect("a Lichess variant"));
        let fen: Fen = postal::notation::fen::to_fen(&pos)
            .parse()
            .expect("shakmaty reads postal's FEN");
        let sm = VariantPosition::from_setup(theirs, fen.into_setup(), CastlingMode::Standard)
            .expect("legal position");
        out.push((
            id,
            depth,
            Box::new(move || perft(&pos, depth)),
            Box::new(move || shakmaty::perft(&sm, depth)),
        ));
    }
    out
}

/// Prints Postal's speed against shakmaty's on each position both played: from
/// criterion's medians of this run, and from alternated pairs timed in CPU time.
fn print_ratios(since: SystemTime) {
    println!(
        "\nPostal against shakmaty (above 1x Postal is faster): criterion's median wall \
         time of this run, then the median thread CPU time of 5 alternated pairs"
    );
    for (case, depth, ours, theirs) in pairs() {
        let group = if CASES.iter().any(|c| c.name == case) {
            "perft"
        } else {
            "perft-lichess"
        };
        let criterion = match (
            median_ns(group, "postal", case, since),
            median_ns(group, "shakmaty", case, since),
        ) {
            (Some(o), Some(t)) => format!(
                "wall {:>7.1} / {:>7.1} ms = {:.2}x",
                o / 1e6,
                t / 1e6,
                t / o
            ),
            _ => "wall (not measured in this run)".to_string(),
        };
        let (mut mine, mut its) = (Vec::new(), Vec::new());
        for round in 0..5 {
            // ABBA order, so that neither engine always runs first.
            if round % 2 == 0 {
                mine.push(cpu_time(&*ours));
                its.push(cpu_time(&*theirs));
            } else {
                its.push(cpu_time(&*theirs));
                mine.push(cpu_time(&*ours));
            }
        }
        let (o, t) = (median(mine), median(its));
        println!(
            "  {case:<18} depth {depth}: {criterion}; cpu {:>7.1} / {:>7.1} ms = {:.2}x",
            o.as_secs_f64() * 1e3,
            t.as_secs_f64() * 1e3,
            t.as_secs_f64() / o.as_secs_f64()
        );
    }
}

/// `POSTAL_PERFT_COUNT="ENGINE VARIANT DEPTH [FEN]"`: one perft, its count printed.
fn count_once(spec: &str) {
    let mut words = spec.splitn(4, ' ');
    let engine = words.next().unwrap_or_default();
    let id = words.next().expect("POSTAL_PERFT_COUNT names a variant");
    let depth: u32 = words
        .next()
        .and_then(|d| d.parse().ok())
        .expect("POSTAL_PERFT_COUNT gives a depth");
    let registry = postal::variants::Registry::builtin();
    let variant = registry.board_variant(id).expect("a chess-like variant");
    let pos = match words.next() {
        Some(f) => parse_fen(variant, f).expect("valid FEN"),
        None => Position::start(variant),
    };
    let nodes = match engine {
        "postal" if variant == Variant::DOUBLE_MOVE => postal::rules::perft_turns(&pos, depth),
        "postal" => perft(&pos, depth),
        "shakmaty" => {
            use shakmaty::variant::VariantPosition;
            let fen: Fen = postal::notation::fen::to_fen(&pos)
                .parse()
                .expect("shakmaty reads postal's FEN");
            match LICHESS.iter().find(|l| l.0 == id) {
                Some(&(_, theirs, _)) => {
                    let sm = VariantPosition::from_setup(
                        theirs,
                        fen.into_setup(),
                        CastlingMode::Standard,
                    )
                    .expect("legal position");
                    shakmaty::perft(&sm, depth)
                }
                None => {
                    let sm: Chess = fen
                        .into_position(CastlingMode::Standard)
                        .expect("legal position");
                    shakmaty::perft(&sm, depth)
                }
            }
        }
        other => panic!("POSTAL_PERFT_COUNT: engine '{other}' is postal or shakmaty"),
    };
    println!("{nodes}");
}

fn main() {
    if let Ok(spec) = std::env::var("POSTAL_PERFT_COUNT") {
        count_once(&spec);
        return;
    }
    let start = SystemTime::now();
    let mut c = Criterion::default().configure_from_args();
    bench_perft(&mut c);
    bench_lichess(&mut c);
    c.final_summary();
    print_ratios(start);
}
