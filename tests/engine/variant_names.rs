//! The layers above the variants name none: no variant's id, display name or alias
//! appears in the code of `src/service`, `src/store`, `src/discord` or `src/console`,
//! outside their tests, comments and the help's words on what a setting is for; nor does
//! the engine below them (`src/rules`), but for chess itself. The names come from the
//! registry, so a new variant is checked without editing this test.

use postal::variants::Registry;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "tests") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The code lines of a file: up to its `#[cfg(test)]` module, without comments.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(n, l)| (n + 1, l))
}

/// Help may name a variant where a referee command's help names the variant that has the
/// thing it sets (`autoclaim`: a win on time is claimed in Chess#). Its examples name none:
/// the registry fills them in (`service/command/examples.rs`).
fn is_help_example(line: &str) -> bool {
    [
        "Chess# points, solitaire best scores",
        "best first (Chess# with its points",
        "where the rules make it a claim (Chess#)",
        "as soon as it can be claimed (Chess#)",
    ]
    .iter()
    .any(|e| line.contains(e))
}

/// Whether `name` occurs in `line` as a word of its own (`losing` is not in `closing`).
fn contains_word(line: &str, name: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(name).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + name.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

/// The names of the registered variants a layer's code must not hold: ids, display names
/// and aliases, lower-cased. Generic words that are also some variant's alias are not
/// names of a variant (`atomic` is also Rust's `std::sync::atomic`).
fn variant_names() -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for v in Registry::builtin().all() {
        names.push(v.id().to_lowercase());
        names.push(v.display_name().to_lowercase());
        names.extend(v.aliases().iter().map(|a| a.to_lowercase()));
    }
    names.retain(|n| n.len() > 5 && !["standard", "classical", "atomic"].contains(&n.as_str()));
    names
}

/// Every line of code in `dirs` (outside tests and comments, help's words let be) that
/// `names` finds a name in, as `file:line: name: code`.
fn lines_naming(dirs: &[&str], names: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let root = crate::common::root();
    let mut files = Vec::new();
    for dir in dirs {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 10, "the layers' files are found");
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in code_lines(&text) {
            if is_help_example(line) {
                continue;
            }
            if let Some(name) = names(&line.to_lowercase()) {
                found.push(format!(
                    "{}:{n}: {name}: {}",
                    file.strip_prefix(root).unwrap().display(),
                    line.trim()
                ));
            }
        }
    }
    found
}

#[test]
fn the_service_the_store_and_the_adapters_name_no_variant() {
    let dirs = ["src/service", "src/store", "src/discord", "src/console"];
    let names = variant_names();
    let found = lines_naming(&dirs, |line| {
        names.iter().find(|n| contains_word(line, n)).cloned()
    });
    assert!(
        found.is_empty(),
        "variant names above the variants:\n{}",
        found.join("\n")
    );
}

/// The engine plays every chess-like variant from its config, which the variant's folder
/// declares (`src/variants/chess_sharp`): the engine's code holds no variant's id or name
/// as a string (`"chess-sharp"`, `"Chess#"`, as a config declares them), but chess's own,
/// FIDE chess, the config every other one starts from. Its mechanisms keep the words
/// they are named by (`losing`, `chess960_castling`, `double-move tokens`).
#[test]
fn the_engine_names_no_variant_but_chess() {
    let chess = postal::rules::FIDE_CHESS.id;
    let names: Vec<String> = Registry::builtin()
        .all()
        .filter(|v| v.id() != chess)
        .flat_map(|v| [v.id(), v.display_name()])
        .map(|n| format!("\"{}\"", n.to_lowercase()))
        .collect();
    assert!(names.iter().any(|n| n == "\"chess-sharp\""), "{names:?}");
    let found = lines_naming(&["src/rules"], |line| {
        names.iter().find(|n| line.contains(n.as_str())).cloned()
    });
    assert!(
        found.is_empty(),
        "variant names in the engine (declare them in the variant's folder):\n{}",
        found.join("\n")
    );
}
