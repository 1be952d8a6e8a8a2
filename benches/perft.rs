//! Perft throughput of the rules engine. In the same run, and on the same positions,
//! it measures shakmaty (standard chess only: it has no 6x6 boards) and, when the
//! `fairy-stockfish` binary is installed (Debian package `fairy-stockfish`, or a path in
//! `FAIRY_STOCKFISH`), Fairy-Stockfish's `go perft` through its UCI pipe.
//!
//! The Lichess variants are measured against shakmaty's same variant (its `variant`
//! feature), from their starting positions, in the same run.
//!
//! Run with `cargo bench --bench perft`. Throughput is in nodes (leaves) per second; all
//! three engines count the last ply without playing it.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use postal::notation::fen::parse_fen;
use postal::rules::{perft, Position, Variant};
use shakmaty::{fen::Fen, CastlingMode, Chess};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

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
        depth: 5,
    },
    Case {
        name: "kiwipete",
        variant: Variant::STANDARD,
        fen: Some(KIWIPETE),
        depth: 4,
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
    group.sample_size(10);
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
            let fen: Fen = case
                .fen
                .unwrap_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                .parse()
                .expect("valid FEN");
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
        if let Some(engine) = fsf.as_mut() {
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
    group.sample_size(10);
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

criterion_group!(benches, bench_perft, bench_lichess);
criterion_main!(benches);
