//! `postal export`: a game played through the console into a database file, then exported
//! as PGN, JSON and an animated GIF.

use std::path::PathBuf;

pub(crate) fn temp_db(name: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("postal-export-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}/postal.db", dir.display());
    (dir, url)
}

pub(crate) fn play(db: &str, script: &str) -> String {
    let opts = postal::console::Options {
        db: db.to_string(),
        settings: postal::service::settings::Settings {
            seed: Some(1),
            ..Default::default()
        },
        images: None,
        registry: postal::variants::Registry::builtin(),
    };
    let mut out = Vec::new();
    postal::console::block_on(postal::console::run(&opts, script.as_bytes(), &mut out))
        .unwrap()
        .unwrap();
    String::from_utf8(out).unwrap()
}

pub(crate) fn export(db: &str, id: i64, format: &str) -> Result<Vec<u8>, String> {
    postal::console::block_on(postal::console::export(db, id, format))
        .unwrap()
        .map_err(|e| e.to_string())
}

const SCHOLARS_MATE: &str = "alice: challenge @bob standard colour:white
bob: accept
alice: e4
bob: e5
alice: Bc4
bob: Nc6
alice: Qh5
bob: Nf6
alice: Qxf7#
";

#[test]
fn a_finished_game_exports_as_pgn_json_and_gif() {
    let (dir, db) = temp_db("mate");
    let transcript = play(&db, SCHOLARS_MATE);
    assert!(
        transcript.contains("wins by checkmate (1-0)"),
        "{transcript}"
    );

    let pgn = String::from_utf8(export(&db, 1, "pgn").unwrap()).unwrap();
    assert!(
        pgn.contains("[White \"alice\"]") && pgn.contains("[Black \"bob\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("4. Qxf7# 1-0"), "{pgn}");

    let json: serde_json::Value = serde_json::from_slice(&export(&db, 1, "json").unwrap()).unwrap();
    for key in [
        "id", "variant", "status", "result", "reason", "score", "seats", "moves", "fen",
    ] {
        assert!(json.get(key).is_some(), "missing {key} in {json}");
    }
    assert_eq!(json["id"], 1);
    assert_eq!(json["variant"], "standard");
    assert_eq!(json["status"], "finished");
    assert_eq!(json["result"], "1-0");
    assert_eq!(json["reason"], "checkmate");
    assert!(json["score"].is_null());
    assert_eq!(json["moves"].as_array().unwrap().len(), 7);
    assert_eq!(json["moves"][6], "Qxf7#");
    assert_eq!(
        json["fen"],
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );

    let gif = export(&db, 1, "gif").unwrap();
    let mut decoder = gif::DecodeOptions::new().read_info(&gif[..]).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 8, "the start position and one frame per move");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_chess_sharp_export_has_the_score() {
    let (dir, db) = temp_db("sharp");
    play(
        &db,
        "alice: challenge @bob chess-sharp colour:white\nbob: accept\nalice: K@e1\nbob: K@e8\nbob: resign\n",
    );
    let json: serde_json::Value = serde_json::from_slice(&export(&db, 1, "json").unwrap()).unwrap();
    assert_eq!(json["reason"], "resignation");
    assert_eq!(json["score"], serde_json::json!([10, 0]));
    let pgn = String::from_utf8(export(&db, 1, "pgn").unwrap()).unwrap();
    assert!(
        pgn.contains("[Variant \"chess-sharp\"]") && pgn.contains("[Score \"10-0\"]"),
        "{pgn}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_exports_say_why() {
    let (dir, db) = temp_db("bad");
    play(&db, SCHOLARS_MATE);
    assert!(export(&db, 99, "pgn").unwrap_err().contains("no game #99"));
    assert!(export(&db, 1, "xml")
        .unwrap_err()
        .contains("pgn, json or gif"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_game_continued_in_a_second_console_session_on_the_same_database_loses_no_move() {
    let (dir, db) = temp_db("two-sessions");
    let lines: Vec<&str> = SCHOLARS_MATE.lines().collect();
    let first = play(&db, &(lines[..5].join("\n") + "\n"));
    assert!(first.contains("bob (Black) played e5"), "{first}");
    // A new process: its lines are numbered from the start again, and must still count.
    let second = play(&db, &(lines[5..].join("\n") + "\n"));
    assert!(second.contains("wins by checkmate (1-0)"), "{second}");
    let json: serde_json::Value = serde_json::from_slice(&export(&db, 1, "json").unwrap()).unwrap();
    assert_eq!(json["moves"].as_array().unwrap().len(), 7);
    assert_eq!(json["reason"], "checkmate");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Double Move Chess: the JSON export lists the tokens left and each double move as one
/// turn; the PGN joins its halves with a comma and a comment; the animation shows both
/// halves (the position between them is a frame of its own).
#[test]
fn a_double_move_export_has_the_tokens_left() {
    let (dir, db) = temp_db("double-move");
    let script =
        std::fs::read_to_string(crate::common::root().join("tests/transcripts/double-move.txt"))
            .unwrap();
    let transcript = play(&db, &script);
    assert!(
        transcript.contains("wins by checkmate (1-0)"),
        "{transcript}"
    );
    let json: serde_json::Value = serde_json::from_slice(&export(&db, 1, "json").unwrap()).unwrap();
    assert_eq!(json["variant"], "double-move");
    assert_eq!(json["tokens_left"], serde_json::json!([0, 2]));
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 29);
    assert_eq!(moves[16], "Nbd2,Nf1");
    assert_eq!(moves[18], "cxd4");
    assert!(json["fen"].as_str().unwrap().ends_with(" 0+2"), "{json}");
    let pgn = String::from_utf8(export(&db, 1, "pgn").unwrap()).unwrap();
    assert!(pgn.contains("[Variant \"double-move\"]"), "{pgn}");
    assert!(
        pgn.contains("9. Nbd2,Nf1 {double move, 3 tokens left} Nd4,Nxf3+"),
        "{pgn}"
    );
    // Every other export has no tokens.
    let (other, db2) = temp_db("no-tokens");
    play(&db2, SCHOLARS_MATE);
    let json: serde_json::Value =
        serde_json::from_slice(&export(&db2, 1, "json").unwrap()).unwrap();
    assert!(json.get("tokens_left").is_none(), "{json}");

    let gif = export(&db, 1, "gif").unwrap();
    let mut decoder = gif::DecodeOptions::new().read_info(&gif[..]).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    // 29 turns, 6 of them double moves: 35 plies and the start.
    assert_eq!(frames, 36);
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(other);
}
