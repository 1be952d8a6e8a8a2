//! Transcript tests: every `tests/transcripts/NAME.txt` script is run through the console
//! code path (`postal console --script`) on a fresh in-memory database, and its output must
//! equal `NAME.out`. Set `POSTAL_BLESS=1` to rewrite the expected files after a deliberate
//! change, then review the diff.

use std::path::Path;

fn run_script(path: &Path) -> String {
    run_script_with_images(path, None)
}

fn run_script_with_images(path: &Path, images: Option<&Path>) -> String {
    let script = std::fs::read(path).unwrap();
    let opts = postal::console::Options {
        db: "sqlite::memory:".into(),
        settings: postal::service::settings::Settings {
            seed: Some(1),
            ..Default::default()
        },
        images: images.map(Path::to_path_buf),
        registry: postal::variants::Registry::builtin(),
    };
    let mut out = Vec::new();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(postal::console::run(&opts, &script[..], &mut out))
        .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn transcripts_match_their_expected_output() {
    let dir = crate::common::root().join("tests/transcripts");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 6, "transcripts are missing");
    let bless = std::env::var_os("POSTAL_BLESS").is_some();
    let mut failed = Vec::new();
    for script in scripts {
        let got = run_script(&script);
        let expected_path = script.with_extension("out");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            eprintln!("--- {} differs; got:\n{got}", script.display());
            failed.push(script);
        }
    }
    assert!(failed.is_empty(), "transcripts differ: {failed:?}");
}

/// With an images folder, every board the console would print as a diagram is drawn as a
/// PNG instead, and its file name is printed where the diagram was (Double Move Chess's
/// boards among them, whose images carry the tokens).
#[test]
fn console_writes_a_png_for_every_board() {
    for (script, at_least) in [("standard-mate", 4), ("double-move", 30)] {
        let dir =
            std::env::temp_dir().join(format!("postal-images-{script}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = crate::common::root()
            .join("tests/transcripts")
            .join(format!("{script}.txt"));
        let out = run_script_with_images(&path, Some(&dir));
        let named: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split("image: ").nth(1))
            .collect();
        assert!(named.len() >= at_least, "too few images:\n{out}");
        assert!(
            !out.contains("abcdefgh"),
            "no text diagrams when images are drawn"
        );
        for name in &named {
            let bytes = std::fs::read(name).unwrap();
            let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
            let reader = decoder.read_info().expect("a valid PNG");
            let info = reader.info();
            assert!(
                info.width >= 720 && info.height >= 720,
                "{name}: {}x{}",
                info.width,
                info.height
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The public image follows the `public_orientation` setting: with `white`, White stays at
/// the bottom after White's move; with the default, the side to move is at the bottom.
#[test]
fn public_images_follow_the_orientation_setting() {
    use postal::render::PublicOrientation;
    use postal::rules::Color;
    use postal::service::referee::{Incoming, Place, Service};
    let bottoms = |orientation: PublicOrientation| {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let store = postal::store::Store::open("sqlite::memory:").await.unwrap();
            let settings = postal::service::settings::Settings {
                public_orientation: orientation,
                ..Default::default()
            };
            let service = Service::new(store, settings);
            let mut bottoms = Vec::new();
            for (i, (user, text)) in [
                ("alice", "challenge @bob colour:white"),
                ("bob", "accept"),
                ("alice", "e4"),
            ]
            .into_iter()
            .enumerate()
            {
                let out = service
                    .handle(Incoming {
                        event_id: format!("e{i}"),
                        user: user.into(),
                        place: Place::Channel("games".into()),
                        via: None,
                        server: None,
                        text: text.into(),
                        at: postal::console::START,
                    })
                    .await
                    .unwrap();
                bottoms.extend(
                    out.iter()
                        .filter_map(|o| o.image.as_ref().map(|v| v.board.bottom)),
                );
            }
            bottoms
        })
    };
    assert_eq!(
        bottoms(PublicOrientation::SideToMove),
        vec![Color::White, Color::Black]
    );
    assert_eq!(
        bottoms(PublicOrientation::WhiteAlways),
        vec![Color::White, Color::White]
    );
}

/// The PGN records a transcript's output holds, without the channel prefix of its lines:
/// each from its `[Event` tag to the blank line after its movetext.
fn pgn_records(output: &str) -> Vec<String> {
    let mut records = Vec::new();
    let mut lines = output.lines();
    while let Some(line) = lines.next() {
        let Some(at) = line.find("[Event \"") else {
            continue;
        };
        let prefix = line[..at].trim_end();
        let mut record = format!("{}\n", &line[at..]);
        let mut blank_lines = 0;
        for line in lines.by_ref() {
            let Some(text) = line.strip_prefix(prefix).map(str::trim) else {
                break;
            };
            if text.is_empty() {
                blank_lines += 1;
                if blank_lines == 2 {
                    break;
                }
            }
            record.push_str(text);
            record.push('\n');
        }
        records.push(record);
    }
    records
}

/// Every variant's finished game, exported by `pgn` in a transcript, is read by an
/// independent reader, python-chess (`tests/python/pgn_headers.py`): the Seven Tag Roster
/// first and in order, a standard Result, the movetext ending with it (issue 38).
#[test]
fn every_variants_finished_pgn_is_read_by_python_chess() {
    if !crate::common::python_chess_available() {
        return;
    }
    let root = crate::common::root();
    let dir = std::env::temp_dir().join(format!("postal-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root.join("tests/transcripts")).unwrap() {
        let script = entry.unwrap().path();
        let text = std::fs::read_to_string(&script).unwrap_or_default();
        if script.extension().is_none_or(|e| e != "txt") || !text.contains(": pgn") {
            continue;
        }
        for (i, record) in pgn_records(&run_script(&script)).into_iter().enumerate() {
            let stem = script.file_stem().unwrap().to_string_lossy();
            let file = dir.join(format!("{stem}-{i}.pgn"));
            std::fs::write(&file, record).unwrap();
            files.push(file);
        }
    }
    let out = std::process::Command::new("python3")
        .arg(root.join("tests/python/pgn_headers.py"))
        .args(&files)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "python-chess refused a record: {}{report}",
        String::from_utf8_lossy(&out.stderr)
    );
    let registry = postal::variants::Registry::builtin();
    let finished: std::collections::BTreeSet<&str> = report
        .lines()
        .filter_map(|line| {
            let mut fields = line.split('\t').skip(1);
            let (variant, result) = (fields.next()?, fields.next()?);
            let variant = registry.find(variant).unwrap_or_else(|| panic!("{line}"));
            (result != "*").then(|| variant.id())
        })
        .collect();
    let missing: Vec<&str> = registry
        .all()
        .map(|v| v.id())
        .filter(|id| !finished.contains(id))
        .collect();
    assert!(
        missing.is_empty(),
        "no transcript (tests/transcripts/NAME.txt) finishes a game of {} and shows its \
         record (`: pgn`); the records read: {report}",
        missing.join(", ")
    );
}
