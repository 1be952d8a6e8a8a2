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

/// With an images folder, every board the console would print as a diagram is drawn as a
/// PNG instead, and its file name is printed where the diagram was (Double Move Chess's
/// boards among them, whose images carry the tokens).
#[test]
fn console_writes_a_png_for_every_board() {
    for (script, at_least) in [("standard-mate", 4), ("double-move", 30)] {
        let dir =
            std::env::temp_dir().join(format!("postal-images-{script}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
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
