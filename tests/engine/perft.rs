//! Perft suites: the community's standard positions, the Los Alamos start, Chess# counts
//! derived by hand, and golden counts from Fairy-Stockfish on positions reached by random
//! play (tests/data, produced by tools/golden/generate.py).

use crate::common;
use common::pos;
use postal::rules::{divide, perft, Position, Variant};

fn check(variant: Variant, fen: Option<&str>, expected: &[u64]) {
    let p = match fen {
        Some(f) => pos(variant, f),
        None => Position::start(variant),
    };
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&p, depth), want, "{variant} {fen:?} depth {depth}");
    }
}

#[test]
fn standard_start_position() {
    check(
        Variant::STANDARD,
        None,
        &[20, 400, 8902, 197_281, 4_865_609],
    );
}

#[test]
fn standard_kiwipete() {
    check(
        Variant::STANDARD,
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        &[48, 2039, 97_862, 4_085_603],
    );
}

#[test]
fn standard_position_3() {
    check(
        Variant::STANDARD,
        Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        &[14, 191, 2812, 43_238, 674_624],
    );
}

#[test]
fn standard_position_4_and_its_mirror() {
    let counts = [6, 264, 9467, 422_333];
    check(
        Variant::STANDARD,
        Some("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
        &counts,
    );
    check(
        Variant::STANDARD,
        Some("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"),
        &counts,
    );
}

#[test]
fn standard_position_5() {
    check(
        Variant::STANDARD,
        Some("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
        &[44, 1486, 62_379, 2_103_487],
    );
}

#[test]
fn standard_position_6() {
    check(
        Variant::STANDARD,
        Some("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
        &[46, 2079, 89_890, 3_894_594],
    );
}

#[test]
fn los_alamos_start_position() {
    check(Variant::LOS_ALAMOS, None, &[10, 100, 1212, 14_332, 191_846]);
}

/// Chess# start, counted by hand: 32 drops (rook, knight, bishop or king on 8 squares; the
/// queen waits), so 32 x 32 after one move each. At ply 3, after a king drop White has 21
/// drops + 8 pawn steps + 1 or 2 king steps along the first rank (246 over the 8 king
/// squares); after any other drop 4 roles x 7 squares = 28. 32 x (246 + 24 x 28) = 29,376.
#[test]
fn chess_sharp_start_position_counted_by_hand() {
    check(Variant::CHESS_SHARP, None, &[32, 1024, 29_376]);
}

#[test]
fn chess_sharp_queen_last_and_king_first_change_the_counts() {
    // Only the queen and king left: the king must come first, and the queen may not.
    let p = pos(
        Variant::CHESS_SHARP,
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/RNB2BNR[KQ] w - - 0 1",
    );
    let roots: Vec<String> = divide(&p, 1).into_iter().map(|(m, _)| m).collect();
    assert_eq!(roots, vec!["K@d1", "K@e1"]);
    // With the king placed, the queen is the last reserve piece and may be dropped.
    let p = pos(
        Variant::CHESS_SHARP,
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/RNBK1BNR[Q] w - - 0 1",
    );
    assert!(divide(&p, 1).iter().any(|(m, _)| m == "Q@e1"));
}

#[test]
fn chess_sharp_perft_stops_at_a_captured_king() {
    let p = pos(Variant::CHESS_SHARP, "4k3/8/8/8/8/8/8/4KR2[] b - - 0 1");
    // After Black's king steps next to the rook and White captures it, nothing follows.
    let after_capture = pos(Variant::CHESS_SHARP, "8/8/8/8/8/8/8/4K3[] w - - 0 1");
    assert_eq!(perft(&after_capture, 1), 0);
    assert!(perft(&p, 3) > 0);
}

fn golden(variant: Variant, data: &str) {
    let mut checked = 0;
    for line in data.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().expect("fen");
        let depth: u32 = parts.next().expect("depth").trim().parse().expect("depth");
        let nodes: u64 = parts.next().expect("nodes").trim().parse().expect("nodes");
        assert_eq!(
            perft(&pos(variant, fen), depth),
            nodes,
            "{fen} depth {depth}"
        );
        checked += 1;
    }
    assert!(checked >= 100, "golden file has only {checked} positions");
}

#[test]
fn standard_matches_fairy_stockfish_on_random_positions() {
    golden(
        Variant::STANDARD,
        include_str!("../data/perft_standard.txt"),
    );
}

#[test]
fn los_alamos_matches_fairy_stockfish_on_random_positions() {
    golden(
        Variant::LOS_ALAMOS,
        include_str!("../data/perft_los_alamos.txt"),
    );
}

#[test]
fn chess_sharp_matches_fairy_stockfish_on_random_positions() {
    golden(
        Variant::CHESS_SHARP,
        include_str!("../data/perft_chess_sharp.txt"),
    );
}

/// Perft's last ply counts the moves set-wise (`count_legal_moves`) instead of listing
/// them: on every chess-like variant of the registry, along random games, the count is
/// the length of the list, and the list's moves are the moves the count counted.
#[test]
fn the_count_at_the_last_ply_is_the_number_of_legal_moves_in_every_variant() {
    use rand::{rngs::StdRng, Rng, SeedableRng};
    let registry = postal::variants::Registry::builtin();
    let mut rng = StdRng::seed_from_u64(36);
    let mut variants = 0;
    let mut positions = 0;
    for id in registry.ids() {
        let Ok(variant) = registry.board_variant(id) else {
            continue;
        };
        variants += 1;
        for _game in 0..20 {
            let mut p = Position::start(variant);
            for _ply in 0..120 {
                let moves = p.legal_moves();
                assert_eq!(
                    p.count_legal_moves(),
                    moves.len(),
                    "{variant}: {}",
                    postal::notation::fen::to_fen(&p)
                );
                positions += 1;
                if moves.is_empty() {
                    break;
                }
                p = p.after(moves[rng.gen_range(0..moves.len())]);
            }
        }
    }
    assert!(variants >= 10, "only {variants} chess-like variants");
    assert!(positions > 10_000, "only {positions} positions");
}
