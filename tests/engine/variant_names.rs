//! The layers above the variants name none: no variant's id, display name or alias
//! appears in the code of `src/service`, `src/store`, `src/discord` or `src/console`,
//! outside their tests, comments and the help's examples (`rules chess-sharp`). The
//! names come from the registry, so a new variant is checked without editing this test.

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

/// Help may show a variant's name as an example: as a user types it (`rules
/// chess-sharp`), or where a referee command's help names the variant that has the thing
/// it sets (`autoclaim`: a win on time is claimed in Chess#).
fn is_help_example(line: &str) -> bool {
    [
        "\"rules ",
        "\"leaderboard ",
        "\"challenge ",
        "\"help ",
        "(`help ",
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

#[test]
fn the_service_the_store_and_the_adapters_name_no_variant() {
    let root = crate::common::root();
    let mut files = Vec::new();
    for dir in ["src/service", "src/store", "src/discord", "src/console"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 20, "the layers' files are found");
    let mut names: Vec<String> = Vec::new();
    for v in Registry::builtin().all() {
        names.push(v.id().to_lowercase());
        names.push(v.display_name().to_lowercase());
        names.extend(v.aliases().iter().map(|a| a.to_lowercase()));
    }
    // Generic words that are also some variant's alias are not names of a variant
    // (`atomic` is also Rust's `std::sync::atomic`).
    names.retain(|n| n.len() > 5 && !["standard", "classical", "atomic"].contains(&n.as_str()));
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in code_lines(&text) {
            let lower = line.to_lowercase();
            if is_help_example(line) {
                continue;
            }
            if let Some(name) = names.iter().find(|name| contains_word(&lower, name)) {
                found.push(format!(
                    "{}:{n}: {name}: {}",
                    file.strip_prefix(root).unwrap().display(),
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "variant names above the variants:\n{}",
        found.join("\n")
    );
}
