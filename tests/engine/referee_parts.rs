//! The referee's parts (`src/service/referee/`) depend one way: each file uses only the
//! files listed before it in [`PARTS`], so that no part reaches up into the one that
//! orchestrates it and the shared foundation depends on no part. ARCHITECTURE.md
//! ("The referee in parts") draws the same order.
//!
//! A file uses another when it names a module of it (`use super::commit::prepare`,
//! `super::lookup::Fit`) or calls or names an item defined once in the referee and in
//! that other file (`self.load(..)`, `Committed`). Comments and test modules do not
//! count. Run it alone with `cargo test --test engine -- referee_parts::`.

use std::collections::{BTreeMap, BTreeSet};

/// The parts, the foundation first; `mod.rs`, which only declares and re-exports them,
/// is left out. A new file must take its place here.
const PARTS: &[&str] = &[
    // The foundation: no part of the referee.
    "locks",
    "marks",
    "engine_seat",
    "messages",
    "commit",
    "text",
    "people",
    "core",
    // The parts as types over the core (`parts`): what each may reach.
    "parts",
    // Finding games and telling people.
    "lookup",
    "routing",
    "standing",
    "server_settings",
    "analysis_report",
    // The parts, each on those above it.
    "chat",
    "conditional",
    "records",
    "vacation",
    "reading",
    "listing",
    "takeback",
    "acting",
    "personal",
    "answers",
    "round_outbox",
    "rounds",
    "competition",
    "signup",
    "progress",
    "challenge",
    "analysis_progress",
    "outbox",
    "analysis",
    "engine_turn",
    "rematch",
    "forget",
    "moderation",
    "tournament",
    // The service on top: its public methods, each handing its work to a part.
    "service",
    // What an adapter asks beside commands.
    "adapter",
    // The dispatch of a command, on top.
    "dispatch",
];

/// The one use that points up, and why: `parts` declares the service's accessors of
/// every part beside the parts themselves, since only that module can make one (their
/// fields are its own), which is what lets the compiler hold which part reaches which.
const UPWARD: &[(&str, &str)] = &[("parts", "service")];

/// The code of `text` without its test modules, comments and the contents of its string
/// literals (a word a message says, `"Analysed game #3"`, names no item).
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    let code = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    without_strings(&code)
}

/// `code` with what its string literals hold left out (the quotes kept); an escaped
/// quote does not end one, and a quote as a character (`'"'`) begins none. Raw strings
/// are read as code, which only ever finds more uses, never fewer.
fn without_strings(code: &str) -> String {
    let code = code.replace("'\"'", "'_'").replace("'\\\"'", "'_'");
    let mut out = String::with_capacity(code.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in code.chars() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => {
                    in_string = false;
                    out.push(c);
                }
                _ => {}
            }
        } else {
            if c == '"' {
                in_string = true;
            }
            out.push(c);
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The names `code` defines: what follows `fn`, `struct`, `enum`, `const`, `type`,
/// `trait` or `static`.
fn definitions(code: &str) -> BTreeSet<String> {
    let words: Vec<&str> = code
        .split(|c: char| !is_ident(c))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter(|w| {
            matches!(
                w[0],
                "fn" | "struct" | "enum" | "const" | "type" | "trait" | "static"
            )
        })
        .map(|w| w[1].to_string())
        .collect()
}

/// Whether `code` uses `name`, defined in the file `owner`: a type or constant
/// (capitalised) anywhere as a whole word; a method of the service or a function after
/// `self.`, `Self::`, `Service::` or `owner::` (a function imported by name is seen
/// through its import, [`module_uses`]).
fn uses_name(code: &str, name: &str, owner: &str) -> bool {
    code.match_indices(name).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + name.len()..].chars().next();
        if before.is_some_and(is_ident) || after.is_some_and(is_ident) {
            return false;
        }
        let head = &code[..i];
        name.starts_with(|c: char| c.is_ascii_uppercase())
            || ["self.", "Self::", "Service::"]
                .iter()
                .any(|p| head.ends_with(p))
            || head.ends_with(&format!("{owner}::"))
    })
}

/// The referee's files that `code` names as modules: `super::X::` and
/// `use super::{X, ...}`.
fn module_uses(code: &str, parts: &[&str]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (i, _) in code.match_indices("super::") {
        let rest = &code[i + "super::".len()..];
        let named: Vec<&str> = match rest.strip_prefix('{') {
            // `use super::{lookup, text::{a, b}, Fail}`: every word of the group.
            Some(group) => group
                .split(';')
                .next()
                .unwrap_or("")
                .split(|c: char| !is_ident(c))
                .collect(),
            // `super::lookup::Fit`: the first word, when a path goes on after it.
            None => {
                let word = rest.split(|c: char| !is_ident(c)).next().unwrap_or("");
                match rest[word.len()..].starts_with("::") {
                    true => vec![word],
                    false => Vec::new(),
                }
            }
        };
        found.extend(
            named
                .into_iter()
                .filter(|w| parts.contains(w))
                .map(str::to_string),
        );
    }
    found
}

/// Reads the code of every file under `dir` into `code` by its name: the files of a
/// part's folder (`play/acting.rs`) by their own names, and a folder's `mod.rs` by the
/// folder's name when that is a part of [`PARTS`] (`core/mod.rs`); the other folders'
/// `mod.rs` only declare their files.
fn read_parts(dir: &std::path::Path, code: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_parts(&path, code);
            continue;
        }
        let mut name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name == "mod" {
            let folder = dir.file_name().unwrap().to_string_lossy().to_string();
            if !PARTS.contains(&folder.as_str()) {
                continue;
            }
            name = folder;
        }
        if path.extension().is_some_and(|e| e == "rs") {
            code.insert(name, code_of(&std::fs::read_to_string(&path).unwrap()));
        }
    }
}

#[test]
fn referee_parts_point_one_way() {
    let dir = crate::common::root().join("src/service/referee");
    let mut code = BTreeMap::new();
    read_parts(&dir, &mut code);
    let unlisted: Vec<&String> = code
        .keys()
        .filter(|f| !PARTS.contains(&f.as_str()))
        .collect();
    assert!(
        unlisted.is_empty(),
        "give these files a place in PARTS: {unlisted:?}"
    );

    // Each name defined in exactly one file, with that file.
    let mut owners: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (file, text) in &code {
        for name in definitions(text) {
            owners.entry(name).or_default().push(file);
        }
    }
    let mut wrong = Vec::new();
    for (file, text) in &code {
        let rank = PARTS.iter().position(|p| p == file).unwrap();
        let mut used: BTreeMap<String, String> = module_uses(text, PARTS)
            .into_iter()
            .map(|m| (m, "its module".to_string()))
            .collect();
        for (name, files) in &owners {
            if let [owner] = files.as_slice() {
                if owner != file && uses_name(text, name, owner) {
                    used.entry(owner.to_string()).or_insert(name.clone());
                }
            }
        }
        for (other, through) in used {
            let other_rank = PARTS.iter().position(|p| *p == other).unwrap();
            if other_rank > rank && !UPWARD.contains(&(file.as_str(), other.as_str())) {
                wrong.push(format!("{file} uses {other} (through {through})"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "parts of the referee using a part listed after them in PARTS:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_dependency_finder_sees_modules_methods_and_types() {
    let code = "use super::commit::{prepare, Committed};\nuse super::{lookup, Fail};\n\
                let g = self.load(&x)?; let c: Choice = make();";
    let parts = ["commit", "lookup", "text"];
    let modules: Vec<String> = module_uses(code, &parts).into_iter().collect();
    assert_eq!(modules, ["commit", "lookup"]);
    assert!(uses_name(code, "load", "lookup"));
    assert!(uses_name(code, "Choice", "messages"));
    assert!(
        !uses_name(code, "make", "text"),
        "a bare call is seen through its import"
    );
    assert!(!uses_name(code, "loa", "lookup"), "whole names only");
    assert!(
        !uses_name("x.extend(y)", "extend", "text"),
        "not another type's method"
    );
    assert!(
        !uses_name(
            &code_of("let t = format!(\"Choice \\\" {x} Choice\");"),
            "Choice",
            "messages"
        ),
        "a word in a string is no use"
    );
    assert!(uses_name(
        &code_of("let t = \"a\"; let c: Choice = d;"),
        "Choice",
        "messages"
    ));
    assert!(
        uses_name(
            &code_of("if c == '\"' { let c: Choice = d; }"),
            "Choice",
            "messages"
        ),
        "a quote as a character begins no string"
    );
    let defined = definitions("pub(super) fn load(&self) {}\nstruct Choice;\nconst DAY: i64 = 1;");
    assert_eq!(
        defined.into_iter().collect::<Vec<_>>(),
        ["Choice", "DAY", "load"]
    );
}
