//! Perft throughput of the rules engine, with shakmaty measured in the same run for
//! comparison (standard chess only: shakmaty has no 6x6 boards).
//!
//! Run with `cargo bench --bench perft`. Throughput is reported in nodes (leaves) per
//! second; both engines count the last ply without playing it.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use postal::notation::fen::parse_fen;
use postal::rules::{perft, Position, Variant};
use shakmaty::{fen::Fen, CastlingMode, Chess};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

struct Case {
    name: &'static str,
    variant: Variant,
    fen: Option<&'static str>,
    depth: u32,
}

const CASES: [Case; 3] = [
    Case {
        name: "standard-start",
        variant: Variant::Standard,
        fen: None,
        depth: 5,
    },
    Case {
        name: "kiwipete",
        variant: Variant::Standard,
        fen: Some(KIWIPETE),
        depth: 4,
    },
    Case {
        name: "los-alamos-start",
        variant: Variant::LosAlamos,
        fen: None,
        depth: 5,
    },
];

fn bench_perft(c: &mut Criterion) {
    postal::rules::attacks::warm_up();
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
        if case.variant == Variant::Standard {
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
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
