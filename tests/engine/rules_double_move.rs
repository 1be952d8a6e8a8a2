//! Double Move Chess, property tests over random games that spend tokens: every legal
//! move (rule 5's capture included) reads back from its SAN, every double move reads back
//! half by half, and a game's snapshot rebuilds the same game through the referee's rules.

use postal::notation::fen::parse_fen;
use postal::notation::{parse_move, san};
use postal::rules::{MoveKind, Position, Turn, Variant};
use postal::variants::api::{Action, NewGame, Seat, Viewer};
use postal::variants::chess::ChessAction;
use postal::variants::Registry;
use proptest::prelude::*;

/// A middle game after move 9, with pieces that can move twice and capture.
const STARTS: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "r1bq1rk1/1pp2pp1/p1np1n1p/2b1p3/2B1P3/2PP1N1P/PP3PP1/RNBQR1K1 w - - 0 9",
    "4k3/1p3p2/2n5/3P4/1r6/5N2/2P1B3/3RK3 w - - 0 20",
];

fn reads_back(pos: &Position) {
    for m in pos.legal_moves() {
        let text = san(pos, m);
        assert_eq!(
            parse_move(pos, &text).ok(),
            Some(m),
            "{text} in {}",
            postal::notation::fen::to_fen(pos)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_double_move_games_read_back_and_replay(
        start in 0usize..STARTS.len(),
        choices in prop::collection::vec((any::<u16>(), any::<bool>()), 1..24),
    ) {
        let fen = STARTS[start];
        let mut pos = parse_fen(Variant::DOUBLE_MOVE, fen).unwrap();
        let mut rules = Registry::builtin()
            .new_game(
                "double-move",
                &NewGame {
                    fen: Some(fen),
                    ..NewGame::default()
                },
            )
            .unwrap();
        for (pick, double) in choices {
            reads_back(&pos);
            let turns = pos.turns();
            if turns.is_empty() || rules.is_over() {
                break;
            }
            // Prefer rule 5's capture when it is there, then a double move if asked for.
            let capture = turns.iter().copied().find(
                |t| matches!(t, Turn::Single(m) if m.kind == MoveKind::CaptureTwiceMoved),
            );
            let doubles: Vec<Turn> = turns
                .iter()
                .copied()
                .filter(|t| matches!(t, Turn::Double(..)))
                .collect();
            let turn = match capture {
                Some(t) => t,
                None if double && !doubles.is_empty() => doubles[pick as usize % doubles.len()],
                None => turns[pick as usize % turns.len()],
            };
            if let Turn::Double(a, b) = turn {
                let middle = pos.first_half(a);
                prop_assert_eq!(parse_move(&pos, &san(&pos, a)).ok(), Some(a));
                prop_assert_eq!(parse_move(&middle, &san(&middle, b)).ok(), Some(b));
            }
            let seat = Seat(pos.turn().index() as u8);
            rules.apply(seat, &Action::of(&ChessAction::Move(turn.uci())).unwrap()).unwrap();
            pos = pos.after_turn(turn);
            let loaded = Registry::builtin().load("double-move", &rules.snapshot().unwrap()).unwrap();
            prop_assert_eq!(loaded.snapshot().unwrap(), rules.snapshot().unwrap());
            prop_assert_eq!(
                rules.export_fields(Viewer::Public)["tokens_left"].clone(),
                serde_json::json!(pos.tokens())
            );
        }
    }
}
