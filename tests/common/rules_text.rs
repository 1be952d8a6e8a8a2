//! What a rules page shown to players (Discord's `rules` pages, the console's `rules
//! VARIANT`) must not hold: the workshop of the repository (file paths, links to its
//! files, source names, the command-line name, perft data), Markdown no chat renders (a
//! table) and lines broken where the repository's editor broke them.

/// File extensions of the repository's files.
const EXTENSIONS: &[&str] = &[
    "rs", "md", "txt", "ini", "toml", "json", "py", "sh", "yml", "yaml", "csv", "sql",
];

/// Folders of the repository.
const FOLDERS: &[&str] = &["src/", "tests/", "docs/", "tools/", "config/", "benches/"];

/// Words that belong to the developers' documents.
const WORKSHOP: &[&str] = &[
    "CLI name",
    "perft",
    "golden",
    "For implementers",
    "shakmaty",
];

/// Every problem of `text`, a page shown to players, each naming its line.
pub fn problems(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut code = false;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with("```") {
            code = !code;
            continue;
        }
        if code {
            continue;
        }
        let mut bad = |why: &str| out.push(format!("{why}: {line:?}"));
        if t.starts_with('|') {
            bad("a raw Markdown table");
        }
        if let Some(at) = t.find("](") {
            if !t[at + 2..].starts_with("http") {
                bad("a relative link");
            }
        }
        for word in t.split(|c: char| c.is_whitespace() || "`()[],;\"'".contains(c)) {
            let word = word.trim_end_matches(['.', ':']);
            let ext = word.rsplit_once('.');
            let file = ext.is_some_and(|(stem, ext)| {
                !stem.is_empty()
                    && EXTENSIONS.contains(&ext)
                    && stem
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-/.".contains(c))
            });
            if file || FOLDERS.iter().any(|f| word.starts_with(f)) {
                bad(&format!("a file path ({word})"));
            }
            let snake = word.contains('_')
                && word.split('_').all(|p| !p.is_empty())
                && word.chars().all(|c| c.is_ascii_lowercase() || c == '_');
            // `play_unchecked`, or another program's `Variant.fiftyMoves`.
            let camel_member = word.split_once('.').is_some_and(|(ty, member)| {
                ty.starts_with(|c: char| c.is_ascii_uppercase())
                    && member.starts_with(|c: char| c.is_ascii_lowercase())
                    && member.chars().any(|c| c.is_ascii_uppercase())
            });
            if snake || camel_member {
                bad(&format!("a source name ({word})"));
            }
        }
        for w in WORKSHOP {
            if t.contains(w) {
                bad(&format!("a developer's word ({w})"));
            }
        }
        // A line of text that the next line continues was broken by hand: in a chat each
        // paragraph and each list item is one line.
        if let Some(next) = lines.get(i + 1) {
            let n = next.trim_start();
            if !t.is_empty() && !n.is_empty() && !starts_item(n) && !n.starts_with("```") {
                bad("a hard-wrapped line");
            }
        }
    }
    out
}

/// Whether a line begins a list item.
fn starts_item(line: &str) -> bool {
    if ["- ", "* ", "+ "].iter().any(|m| line.starts_with(m)) {
        return true;
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && line[digits..].starts_with(". ")
}
