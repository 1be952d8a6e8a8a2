//! Transcript tests: every `tests/transcripts/NAME.txt` script is run through the console
//! code path (`postal console --script`) on a fresh in-memory database, and its output must
//! equal `NAME.out`. Set `POSTAL_BLESS=1` to rewrite the expected files after a deliberate
//! change, then review the diff.

use std::path::Path;

fn run_script(path: &Path) -> String {
    let script = std::fs::read(path).unwrap();
    let opts = postal::console::Options {
        db: "sqlite::memory:".into(),
        settings: postal::service::settings::Settings {
            seed: 1,
            ..Default::default()
        },
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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
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
