//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod booster;
pub mod chesswords;
pub mod disguise;
pub mod engine_player;
pub mod postgres;
pub mod rules_text;
pub mod service;
pub mod sql;

use postal::notation::fen::parse_fen;
use postal::rules::{Game, Move, Position, Variant};

/// The engine's variant of every registered variant that has one (a chess-like board),
/// each once, in registry order: the variants a test of the engine runs over, so that a
/// new one is tested without editing the test.
pub fn board_variants() -> Vec<Variant> {
    static BOARDS: std::sync::OnceLock<Vec<Variant>> = std::sync::OnceLock::new();
    BOARDS
        .get_or_init(|| {
            let mut out: Vec<Variant> = Vec::new();
            for v in postal::variants::Registry::builtin().all() {
                if let Some(b) = v.board_variant().filter(|b| !out.contains(b)) {
                    out.push(b);
                }
            }
            out
        })
        .clone()
}

/// The ids of the registered variants the chess game plays (a game whose snapshot is a
/// [`ChessSnapshot`](postal::variants::chess::ChessSnapshot)), in registry order: those
/// a test of chess actions runs over. Every other variant is played by the leak walker
/// (`tests/engine/leak_walker.rs`), which runs over the whole registry.
pub fn chess_games() -> Vec<&'static str> {
    let registry = postal::variants::Registry::builtin();
    let chess_game = |id: &str| {
        let snap = registry
            .new_game(id, &Default::default())
            .and_then(|g| g.snapshot());
        snap.is_ok_and(|s| {
            serde_json::from_value::<postal::variants::chess::ChessSnapshot>(s).is_ok()
        })
    };
    registry
        .all()
        .filter(|v| v.board_variant().is_some() && chess_game(v.id()))
        .map(|v| v.id())
        .collect()
}

/// The position from a FEN, panicking with the FEN on error.
pub fn pos(variant: Variant, fen: &str) -> Position {
    parse_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal move with this UCI form (`e2e4`, `e7e8q`, `N@d1`, `e1g1`), if there is one.
pub fn find(pos: &Position, uci: &str) -> Option<Move> {
    pos.legal_moves().into_iter().find(|m| m.uci() == uci)
}

/// The legal move with this UCI form, panicking if it is not legal.
pub fn mv(pos: &Position, uci: &str) -> Move {
    find(pos, uci).unwrap_or_else(|| {
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.uci()).collect();
        panic!("{uci} is not legal; legal: {}", legal.join(" "))
    })
}

/// Plays a sequence of UCI moves in a game, panicking on an illegal one.
pub fn play(game: &mut Game, ucis: &str) {
    for u in ucis.split_whitespace() {
        let m = mv(game.position(), u);
        game.play(m).unwrap_or_else(|e| panic!("{u}: {e}"));
    }
}

/// A game from a FEN.
pub fn game(variant: Variant, fen: &str) -> Game {
    Game::from_position(pos(variant, fen))
}

/// Whether the UCI move is legal.
pub fn legal(pos: &Position, uci: &str) -> bool {
    find(pos, uci).is_some()
}

/// Whether python-chess can be run. CI installs it and sets `POSTAL_REQUIRE_PYTHON_CHESS`
/// (`.ci/run`), so there a missing module fails the test instead of skipping it.
pub fn python_chess_available() -> bool {
    let ran = std::process::Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output();
    let available = ran.is_ok_and(|out| out.status.success());
    if !available && std::env::var_os("POSTAL_REQUIRE_PYTHON_CHESS").is_some() {
        panic!("python-chess is required here (pip install chess) but python3 cannot import it");
    }
    if !available {
        eprintln!("skipped: python3 with python-chess is not installed (pip install chess)");
    }
    available
}

/// The repository's root folder, where the documents, transcripts and data the tests
/// read are (the test crates are the package `postal-app`, in `app/`).
pub fn root() -> &'static std::path::Path {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}
