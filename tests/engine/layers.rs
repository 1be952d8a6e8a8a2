//! The layers of `src/` point down: each folder uses only the layers below it, so that
//! the pure libraries (rules, notation, render, variants) never reach up into the store,
//! the service or an adapter, and the store never into the service. The table below is
//! the architecture (ARCHITECTURE.md, "Layers"); a use of `crate::X` in a folder whose
//! row does not name X fails here, naming the file. Run it alone with
//! `cargo test --test engine -- layers::`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each layer, bottom first, with the layers it may use.
const LAYERS: &[(&str, &[&str])] = &[
    ("rules", &[]),
    ("notation", &["rules"]),
    ("render", &["rules", "notation"]),
    ("variants", &["rules", "notation", "render"]),
    ("tournament", &[]),
    // An analysis's figures from an engine's evaluations (pure).
    ("analysis", &[]),
    // The engines as child processes: no store, no Discord, no variant.
    ("engines", &["analysis"]),
    ("store", &[]),
    ("telemetry", &[]),
    (
        "service",
        &[
            "rules",
            "notation",
            "render",
            "variants",
            "store",
            "telemetry",
            "tournament",
            "analysis",
            "engines",
        ],
    ),
    (
        "console",
        &[
            "rules",
            "notation",
            "render",
            "variants",
            "service",
            "telemetry",
        ],
    ),
    (
        "discord",
        &[
            "rules",
            "notation",
            "render",
            "variants",
            "service",
            "telemetry",
        ],
    ),
];

/// Uses that break the table, each with its reason. The test fails when one of them is
/// gone, so that the list only shrinks.
const KNOWN: &[(&str, &str)] = &[
    // `postal backup` and `postal migrate-db` (src/console/database.rs only) copy whole
    // databases, below any game and any referee: store operations the command line
    // starts. Everything else in the console goes through the service.
    ("console", "store"),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules `text` names through `crate::`: `crate::store::Store` and
/// `use crate::{rules, store}` alike.
fn crate_uses(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if c.is_whitespace() => {}
                    _ if start => {
                        found.insert(ident(&group[j..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            found.insert(ident(rest));
        }
    }
    found
}

#[test]
fn every_layer_uses_only_the_layers_below_it() {
    let src = crate::common::root().join("src");
    let layers: Vec<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    let mut wrong = Vec::new();
    let mut seen_known = BTreeSet::new();
    for (layer, allowed) in LAYERS {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "src/{layer} has no code");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for used in crate_uses(&text) {
                let is_layer = layers.contains(&used.as_str());
                if !is_layer || used == *layer || allowed.contains(&used.as_str()) {
                    continue;
                }
                if KNOWN.contains(&(layer, used.as_str())) {
                    seen_known.insert((layer.to_string(), used));
                    continue;
                }
                let shown = file.strip_prefix(&src).unwrap_or(&file).display();
                wrong.push(format!("src/{shown} ({layer}) uses crate::{used}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "upward or sideways uses:\n{}",
        wrong.join("\n")
    );
    for (layer, used) in KNOWN {
        assert!(
            seen_known.contains(&(layer.to_string(), used.to_string())),
            "{layer} no longer uses {used}: remove it from KNOWN"
        );
    }
}

#[test]
fn uses_are_found_in_paths_and_groups() {
    let text = "use crate::store::Store;\nuse crate::{rules::Color, service::{a, b}};\n\
                let x = crate::render::draw();";
    let found: Vec<String> = crate_uses(text).into_iter().collect();
    assert_eq!(found, ["render", "rules", "service", "store"]);
}
