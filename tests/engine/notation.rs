//! Property tests of the notation layer over random games of every variant:
//! every legal move written in SAN (and UCI, figurine SAN, ICCF, `MOVE X TO Y` with
//! descriptive squares) reads back as the same move, FEN round-trips, PGN replays, and the
//! move reader never panics on any input.

use postal::notation::fen::{parse_fen, to_fen};
use postal::notation::{figurine, parse_move, san, write_pgn, MoveError, PgnTags};
use postal::rules::{Color, Game, Move, MoveKind, Position, Variant};
use proptest::prelude::*;

/// SplitMix64: a tiny deterministic generator, seeded by proptest.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const MAX_PLIES: usize = 80;

/// A random game of up to 80 plies (fewer if it ends).
pub(super) fn random_game(variant: Variant, seed: u64) -> Game {
    let mut rng = SplitMix(seed);
    let mut game = Game::new(variant);
    while game.moves().len() < MAX_PLIES {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        game.play(m).expect("a generated move is legal");
    }
    game
}

/// The ICCF numeric form of a move on the board.
fn iccf(m: &Move) -> String {
    let mut s = format!(
        "{}{}{}{}",
        m.from.file() + 1,
        m.from.rank() + 1,
        m.to.file() + 1,
        m.to.rank() + 1
    );
    if let Some(p) = m.promotion {
        s.push(match p.upper_char() {
            'Q' => '1',
            'R' => '2',
            'B' => '3',
            _ => '4',
        });
    }
    s
}

/// A square in descriptive notation from `color`'s side: `K2`, `QN1`.
fn descriptive(pos: &Position, sq: postal::rules::Square, color: Color) -> String {
    let cfg = pos.config();
    let rank = match color {
        Color::White => sq.rank() + 1,
        Color::Black => cfg.height - sq.rank(),
    };
    format!("{}{}", cfg.descriptive_files[sq.file() as usize], rank)
}

/// The `MOVE X TO Y` form with descriptive squares, naming any promotion.
fn text_form(pos: &Position, m: &Move) -> String {
    let mut s = format!(
        "MOVE {} TO {}",
        descriptive(pos, m.from, pos.turn()),
        descriptive(pos, m.to, pos.turn())
    );
    if let Some(p) = m.promotion {
        s.push('=');
        s.push(p.upper_char());
    }
    s
}

fn expect_move(pos: &Position, text: &str, m: Move) -> Result<(), TestCaseError> {
    let got = parse_move(pos, text);
    prop_assert_eq!(
        got.clone(),
        Ok(m),
        "{:?} in {} gave {:?}",
        text,
        to_fen(pos),
        got
    );
    Ok(())
}

/// Every property of one position and its legal moves.
fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    let variant = pos.variant();
    let fen = to_fen(pos);
    let back = parse_fen(variant, &fen).map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
    prop_assert_eq!(to_fen(&back), fen.clone());
    prop_assert_eq!(back.zobrist_hash(), pos.zobrist_hash());
    prop_assert_eq!(back.legal_moves(), pos.legal_moves());
    let mover = pos.turn();
    for m in pos.legal_moves() {
        expect_move(pos, &san(pos, m), m)?;
        expect_move(pos, &m.uci(), m)?;
        expect_move(pos, &figurine(pos, m), m)?;
        if m.kind != MoveKind::Drop {
            expect_move(pos, &iccf(&m), m)?;
            expect_move(pos, &text_form(pos, &m), m)?;
        }
        if pos.config().check_matters() {
            prop_assert!(
                !pos.after(m).king_attacked(mover),
                "{} leaves the king attacked in {}",
                m.uci(),
                fen
            );
        }
    }
    Ok(())
}

/// The PGN's movetext replays to the same moves.
fn check_pgn(game: &Game) -> Result<(), TestCaseError> {
    let pgn = write_pgn(game, &PgnTags::default());
    let (_, movetext) = pgn
        .split_once("\n\n")
        .ok_or_else(|| TestCaseError::fail("no blank line after the tags"))?;
    let mut replay = Game::from_position(*game.start());
    for line in movetext.lines() {
        prop_assert!(line.len() <= 80, "long line {:?}", line);
    }
    let tokens: Vec<&str> = movetext.split_whitespace().collect();
    let (result, moves) = tokens.split_last().expect("at least the result");
    for token in moves {
        if token.ends_with('.') {
            continue;
        }
        let m = parse_move(replay.position(), token)
            .map_err(|e| TestCaseError::fail(format!("{token}: {e}")))?;
        replay
            .play(m)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    prop_assert_eq!(replay.moves(), game.moves());
    prop_assert_eq!(*result, game.outcome().map_or("*", |o| o.result.pgn()));
    Ok(())
}

fn check_random_game(variant: Variant, seed: u64) -> Result<(), TestCaseError> {
    let game = random_game(variant, seed);
    for pos in game.positions() {
        check_position(pos)?;
    }
    check_pgn(&game)
}

/// Parsing must not panic, and anything accepted must be a legal move.
fn parse_is_safe(pos: &Position, text: &str) -> Result<(), TestCaseError> {
    match parse_move(pos, text) {
        Ok(m) => prop_assert!(pos.is_legal(&m), "{:?} gave illegal {:?}", text, m),
        Err(e) => {
            let msg = e.to_string();
            prop_assert!(!msg.is_empty());
            if let MoveError::Ambiguous { candidates } = &e {
                prop_assert!(candidates.len() >= 2);
                // Every candidate reads back unambiguously.
                for c in candidates {
                    prop_assert!(parse_move(pos, c).is_ok(), "candidate {} of {:?}", c, text);
                }
            }
        }
    }
    Ok(())
}

/// Every variant's start round trips through FEN, written as its config declares it
/// (Double Move Chess adds its tokens, ` 4+4`).
#[test]
fn every_start_round_trips_and_is_written_as_declared() {
    let variants = crate::common::board_variants();
    assert!(variants.len() > 5, "the registry's boards are found");
    for v in variants {
        let pos = Position::start(v);
        let fen = to_fen(&pos);
        assert_eq!(parse_fen(v, &fen).unwrap(), pos, "{v}: {fen}");
        assert!(fen.starts_with(v.config().start_fen), "{v}: {fen}");
    }
    assert_eq!(
        to_fen(&Position::start(Variant::LOS_ALAMOS)),
        "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"
    );
    assert_eq!(
        to_fen(&Position::start(Variant::CHESS_SHARP)),
        "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1"
    );
}

fn sample_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for v in crate::common::board_variants() {
        out.push(Position::start(v));
        let game = random_game(v, 7);
        out.push(game.positions()[game.positions().len() / 2]);
    }
    out
}

/// Characters that move text is made of, plus some that it is not.
const MOVE_CHARS: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'A', 'B', 'E', 'H', '1', '2', '3', '4', '5', '6', '7',
    '8', '9', '0', 'x', 'X', '=', '+', '#', '!', '?', '@', '*', '-', ':', '.', ' ', 'N', 'B', 'R',
    'Q', 'K', 'P', 'n', 'r', 'q', 'k', 'p', 'O', 'o', 't', 'T', '♘', '♛', '×', '…', 'é', '\u{0}',
    '\u{200b}',
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn standard_random_games_round_trip(seed in any::<u64>()) {
        check_random_game(Variant::STANDARD, seed)?;
    }

    #[test]
    fn chess_sharp_random_games_round_trip(seed in any::<u64>()) {
        check_random_game(Variant::CHESS_SHARP, seed)?;
    }

    #[test]
    fn los_alamos_random_games_round_trip(seed in any::<u64>()) {
        check_random_game(Variant::LOS_ALAMOS, seed)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn parse_never_panics_on_arbitrary_text(text in any::<String>()) {
        for pos in sample_positions().iter().step_by(2) {
            parse_is_safe(pos, &text)?;
        }
    }

    #[test]
    fn parse_never_panics_on_move_like_text(
        chars in proptest::collection::vec(proptest::sample::select(MOVE_CHARS), 0..14)
    ) {
        let text: String = chars.into_iter().collect();
        for pos in sample_positions() {
            parse_is_safe(&pos, &text)?;
        }
    }

    #[test]
    fn parse_never_panics_on_mutated_san(
        seed in any::<u64>(),
        edits in proptest::collection::vec(
            (0usize..3, any::<proptest::sample::Index>(), proptest::sample::select(MOVE_CHARS)),
            1..4,
        ),
    ) {
        let positions = sample_positions();
        let mut rng = SplitMix(seed);
        let pos = positions[rng.below(positions.len())];
        let moves = pos.legal_moves();
        let m = moves[rng.below(moves.len())];
        let mut chars: Vec<char> = san(&pos, m).chars().collect();
        for (kind, at, c) in edits {
            match kind {
                0 => chars.insert(at.index(chars.len() + 1), c),
                1 if !chars.is_empty() => { chars.remove(at.index(chars.len())); }
                _ if !chars.is_empty() => { let i = at.index(chars.len()); chars[i] = c; }
                _ => chars.push(c),
            }
        }
        let text: String = chars.into_iter().collect();
        parse_is_safe(&pos, &text)?;
        parse_is_safe(&pos, &text.to_uppercase())?;
        parse_is_safe(&pos, &text.to_lowercase())?;
    }
}

#[test]
fn huge_inputs_are_refused_quickly() {
    let pos = Position::start(Variant::STANDARD);
    let huge = "Nf3 ".repeat(1 << 18);
    let started = std::time::Instant::now();
    assert_eq!(parse_move(&pos, &huge), Err(MoveError::TooLong));
    assert!(started.elapsed().as_millis() < 100);
}
