//! The Lichess variants' PGN as another program reads it: a game of each, played here to
//! its variant's own end, is exported and replayed by python-chess
//! (`tests/python/pgn_replay.py`), which must pick the same variant from the `Variant` tag,
//! accept every move and reach the same final position (the same FEN, as python-chess
//! writes it) with the same result.

use crate::common::python_chess_available;
use postal::notation::fen::{parse_fen, to_fen};
use postal::notation::{parse_move, write_pgn, PgnTags};
use postal::rules::{Game, Variant};
use postal::variants::Registry;

/// One game per variant: its registry id, python-chess's name for the variant
/// (`board.uci_variant`), and the moves, typed as a player would, to the variant's end.
const GAMES: &[(&str, &str, &str)] = &[
    ("standard", "chess", "f3 e5 g4 Qh4#"),
    (
        "king-of-the-hill",
        "kingofthehill",
        "e3 e6 Ke2 Ke7 Kd3 Kd6 Kd4",
    ),
    (
        "three-check",
        "3check",
        "e4 e5 Bc4 Nc6 Bxf7+ Kxf7 Qh5+ g6 Qxg6+",
    ),
    (
        "racing-kings",
        "racingkings",
        "Kh3 Ka3 Kh4 Ka4 Kg5 Kb5 Kf6 Ka6 Ke7 Kb7 Kd8 Kb8",
    ),
    ("horde", "horde", "g6 d6 e5 Nh6 gxf7+ Kd7 e6#"),
    ("crazyhouse", "crazyhouse", "g3 d5 Bh3 Bxh3 g4 e5 f3 B@h4#"),
    // Chess960 position 2: Black castles king onto rook, White with O-O, neither king
    // moving, and White mates on h7.
    (
        "chess960",
        "chess",
        "c3 e6 e3 Be7 Qe4 g8h8 Bd3 a6 O-O a5 Qxh7#",
    ),
    (
        "antichess",
        "antichess",
        "a4 b5 axb5 d5 Rxa7 Rxa7 g4 Bxg4 c4 Bxe2 Qxe2 dxc4 Qxe7 Qxd2 Qxe8 Qxc1 Qxf7 Qxb1 \
         Qxc7 Qxe1 Qxg7 Qxf2 Qxa7 Qxb2 Bxc4 Qxb5 Qxb8 Qxb8 Bxg8 Qxh2 Bxh7 Rxh7 Rxh2 Rxh2 \
         Ne2 Rxe2",
    ),
    ("atomic", "atomic", "d4 d6 Bd2 Bg4 e3 Be2 a3 Bxd1"),
];

/// The games of [`GAMES`] that do not start from their variant's own start: the
/// variant's id and the starting position.
const STARTS: &[(&str, &str)] = &[(
    "chess960",
    "bqnnrbkr/pppppppp/8/8/8/8/PPPPPPPP/BQNNRBKR w KQkq - 0 1",
)];

/// The engine's variant of a registry id, through the registry's chess game.
fn engine_variant(id: &str) -> Variant {
    Registry::builtin()
        .board_variant(id)
        .unwrap_or_else(|e| panic!("{id}: {}", e.text))
}

#[test]
fn every_lichess_variants_pgn_replays_in_python_chess_to_the_same_position() {
    if !python_chess_available() {
        return;
    }
    let root = crate::common::root();
    let dir = std::env::temp_dir().join(format!("postal-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut expected = Vec::new();
    for &(id, python_name, moves) in GAMES {
        let variant = engine_variant(id);
        let mut game = match STARTS.iter().find(|(start_id, _)| *start_id == id) {
            Some((_, fen)) => Game::from_position(parse_fen(variant, fen).unwrap()),
            None => Game::new(variant),
        };
        for typed in moves.split_whitespace() {
            let m =
                parse_move(game.position(), typed).unwrap_or_else(|e| panic!("{id}: {typed}: {e}"));
            game.play(m)
                .unwrap_or_else(|e| panic!("{id}: {typed}: {e}"));
        }
        let outcome = game
            .outcome()
            .unwrap_or_else(|| panic!("{id}: the moves must reach the variant's end"));
        let file = dir.join(format!("{id}.pgn"));
        std::fs::write(&file, write_pgn(&game, &PgnTags::default())).unwrap();
        let line = format!(
            "{}\t{python_name}\t{}\t{}",
            file.display(),
            to_fen(game.position()),
            outcome.result.pgn()
        );
        expected.push((file, line));
    }
    let out = std::process::Command::new("python3")
        .arg(root.join("tests/python/pgn_replay.py"))
        .args(expected.iter().map(|(file, _)| file))
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "python-chess refused a game: {}{report}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<&str> = report.lines().collect();
    let want: Vec<&str> = expected.iter().map(|(_, line)| line.as_str()).collect();
    assert_eq!(got, want);
}
