//! Property-based fuzzing, with a fixed case budget, of the parsers a user or a stored
//! file reaches that the other suites do not fuzz already (moves: `notation.rs`,
//! `typed_moves.rs`, `descriptive.rs`; commands: `tests/console/command_parser.rs`): the
//! FEN of every preset variant, Gravity's and Booster's FEN and Booster's stored form,
//! a solitaire's stored board, the server settings' values, and the commands and move
//! forms of every registered variant, read by the game itself at its start and after a
//! few legal moves (the game log's reader is fuzzed beside it, in
//! `src/store/game_log.rs`). Every input is read without a panic; an action read is
//! applied without one; a FEN that is read is written back canonically, and the
//! canonical form reads back to itself. Inputs are mutations of real FENs (characters replaced,
//! inserted, deleted), FEN-shaped text, and arbitrary text; the corpus below keeps the
//! cases found by hand or by the fuzzing (proptest keeps its own failures in
//! `parsers_fuzz.proptest-regressions`).

use postal::rules::fen::{parse_fen, to_fen};
use postal::rules::variant::Variant;
use postal::service::server_settings::read_change;
use postal::variants::api::{Env, GameCommand, GameRules, NewGame, Seat, VariantSpec, Viewer};
use postal::variants::{booster, gravity, Registry};
use proptest::prelude::*;

/// FENs kept as regression cases: each is read without a panic (most are refused).
const CORPUS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HHHHhhhh - 0 1",
    "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "99999999999999999999999999999999/8/8/8/8/8/8/8 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1",
    "k~7/8/8/8/8/8/8/K7 w - - 0 1",
    "~/8/8/8/8/8/8/8 w - - 0 1",
    "8/8/8/8/8/8/8/8[QQQQQQQQQQQQQQQQQQQQ] w - - 0 1",
    "////////",
    "",
    " ",
    "k7/8/8/8/8/8/8/K7 w - - 0 1 5+5",
    // Booster's stored form (seven fields) and a solitaire's board: runs that would
    // wrap a file counter past the board's edge.
    "9999999999999999999999999999999K/8/8/8/8/8/8/k7 w - - 0 1 -",
    "9999999999999999999999999999999K/8/8/8/8/8/8/k7",
    "0K7/8/8/8/8/8/8/k7 w - - 0 1 -",
];

/// The starting FENs the mutations start from.
fn seeds() -> Vec<String> {
    let mut out: Vec<String> = crate::common::board_variants()
        .iter()
        .map(|v| v.config().start_fen.to_string())
        .collect();
    out.push("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R b KQkq e3 4 9".into());
    out
}

/// `text` with `edits` applied: each `(where, what, how)` replaces (0), inserts (1) or
/// deletes (2) a character at `where` (modulo the length).
fn mutate(text: &str, edits: &[(usize, char, u8)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, c, how) in edits {
        let at = if chars.is_empty() {
            0
        } else {
            at % chars.len()
        };
        match how % 3 {
            0 if !chars.is_empty() => chars[at] = c,
            1 => chars.insert(at, c),
            _ if !chars.is_empty() => {
                chars.remove(at);
            }
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

/// Characters a FEN is made of, and a few it is not.
fn fen_char() -> impl Strategy<Value = char> {
    prop::sample::select(
        "pnbrqkPNBRQKxX0123456789/~[]- wbKQkqABCDEFGHabcdefgh+\u{0}é♠"
            .chars()
            .collect::<Vec<_>>(),
    )
}

/// Reads `text` as every chess-like variant's FEN, Gravity's and Booster's: no panic, and a
/// FEN read is written back in a form that reads back to itself.
fn read_everywhere(text: &str) -> Result<(), TestCaseError> {
    for v in crate::common::board_variants() {
        if let Ok(pos) = parse_fen(v, text) {
            let written = to_fen(&pos);
            let again = parse_fen(v, &written).map_err(|e| {
                TestCaseError::fail(format!("{}: {text:?} wrote {written:?}: {e}", v.name()))
            })?;
            prop_assert_eq!(to_fen(&again), written, "{} {:?}", v.name(), text);
        }
    }
    let _ = gravity::fen::parse(text);
    let _ = gravity::fen::parse_board(text);
    if let Ok(pos) = booster::fen::parse(text) {
        let written = booster::fen::write(&pos);
        let again = booster::fen::parse(&written).map_err(|e| {
            TestCaseError::fail(format!("booster: {text:?} wrote {written:?}: {e}"))
        })?;
        prop_assert_eq!(booster::fen::write(&again), written);
    }
    if let Ok(pos) = booster::fen::read_stored(text) {
        let stored = booster::fen::write_stored(&pos);
        prop_assert!(booster::fen::read_stored(&stored).is_ok(), "{:?}", stored);
    }
    let _ = postal::variants::solitaire::board::Board::try_from(text.to_string());
    Ok(())
}

#[test]
fn the_corpus_is_read_without_a_panic() {
    for text in CORPUS {
        read_everywhere(text).unwrap();
    }
    // The rough points the attack found: refused, not written back canonically.
    assert!(parse_fen(Variant::STANDARD, CORPUS[0]).is_err());
    assert!(parse_fen(Variant::STANDARD, CORPUS[1]).is_err());
    let wrapping = CORPUS.len() - 3;
    assert!(booster::fen::read_stored(CORPUS[wrapping]).is_err());
    assert!(booster::fen::read_stored(CORPUS[wrapping + 2]).is_err());
    let board = CORPUS[wrapping + 1].to_string();
    assert!(postal::variants::solitaire::board::Board::try_from(board).is_err());
}

/// A game of `spec` from `seed`, after up to `plies` legal moves (each the
/// `pick`th, cycled, of what the first awaited seat may play).
fn played(spec: &dyn VariantSpec, seed: u64, plies: usize, pick: usize) -> Box<dyn GameRules> {
    let setup = NewGame {
        seed,
        hidden_seed: Some(seed),
        ..NewGame::default()
    };
    let mut g = spec.new_game(&setup).expect("a new game");
    for _ in 0..plies {
        let Some((seat, _)) = g.awaiting().into_iter().next() else {
            break;
        };
        let legal = g.project(Viewer::Seat(seat)).legal;
        if legal.is_empty() {
            break;
        }
        let typed = &legal[pick % legal.len()];
        let (word, rest) = typed.split_once(' ').unwrap_or((typed, ""));
        let read = g.read(seat, &GameCommand::new(word, rest), Env::default());
        match read.ok().and_then(|r| r.action().cloned()) {
            Some(action) if g.apply(seat, &action).is_ok() => {}
            _ => break,
        }
    }
    g
}

/// `word rest` read by every seat `g` awaits (and seat 0): no panic, and an action read
/// is applied, to a copy, without one.
fn read_by_every_seat(spec: &dyn VariantSpec, g: &dyn GameRules, word: &str, rest: &str) {
    let mut seats: Vec<Seat> = g.awaiting().into_iter().map(|(s, _)| s).collect();
    seats.push(Seat(0));
    let command = GameCommand::new(word, rest);
    for seat in seats {
        let Ok(reading) = g.read(seat, &command, Env::default()) else {
            continue;
        };
        if let Some(action) = reading.action() {
            let mut copy = spec.load(&g.snapshot().unwrap()).unwrap();
            let _ = copy.apply(seat, action);
        }
    }
}

/// Text shaped like the variants' moves and commands' arguments.
const MOVE_SHAPED: &str = "[a-hA-Za-z@=+x#:/!?0-9 -]{0,14}";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_variants_commands_and_moves_are_read_safely(
        variant in any::<prop::sample::Index>(),
        (seed, plies, pick) in (any::<u64>(), 0usize..8, any::<usize>()),
        word in any::<prop::sample::Index>(),
        rest in prop_oneof![MOVE_SHAPED, any::<String>().prop_map(|s| s.chars().take(40).collect())],
    ) {
        let registry = Registry::builtin();
        let specs: Vec<&dyn VariantSpec> = registry.all().collect();
        let spec = *variant.get(&specs);
        let g = played(spec, seed, plies, pick);
        // A declared command's word, a move typed bare, or a word of its own.
        let mut words: Vec<&str> = spec.commands().iter().map(|c| c.name).collect();
        words.extend(["move", "", "e4", "zz"]);
        let typed = *word.get(&words);
        read_by_every_seat(spec, g.as_ref(), typed, &rest);
        let (first, tail) = rest.split_once(' ').unwrap_or((&rest, ""));
        read_by_every_seat(spec, g.as_ref(), first, tail);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn mutated_fens_are_read_safely_and_round_trip(
        seed in 0usize..6,
        edits in prop::collection::vec((any::<usize>(), fen_char(), any::<u8>()), 1..6),
    ) {
        let seeds = seeds();
        read_everywhere(&mutate(&seeds[seed % seeds.len()], &edits))?;
    }

    #[test]
    fn fen_shaped_text_is_read_safely(text in "[pnbrqkPNBRQK1-9/~\\[\\]]{1,40}( [wb]( [KQkqA-Ha-h-]{1,6}( (-|[a-h][1-8])( [0-9]{1,3} [0-9]{1,3}( [0-9+]{1,5})?)?)?)?)?") {
        read_everywhere(&text)?;
    }

    #[test]
    fn arbitrary_text_is_read_safely(text in any::<String>()) {
        read_everywhere(&text)?;
    }

    #[test]
    fn server_settings_are_read_safely(words in prop::collection::vec("[a-z]{0,9}:?[^ ]{0,24}", 0..5)) {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        if let Err(e) = read_change(&words) {
            // A refusal quotes at most a bounded piece of what was typed.
            prop_assert!(e.chars().count() < 400, "{}", e);
        }
    }
}
