//! A rules document as a player reads it in a chat (Discord's `rules` pages, the
//! console's `rules VARIANT`). The documents in `docs/rules/` are Markdown written for
//! players and hard-wrapped for the repository; here each paragraph and list item becomes
//! one line (a chat wraps text itself, and a line broken at 80 columns shows as a broken
//! line), each table becomes a code block with aligned columns (no chat renders a
//! Markdown table), each heading a bold line, and a link to another file of the
//! repository keeps only its words (it leads nowhere in a chat). Code blocks stay as they
//! are.

/// `doc` (Markdown) in the form a chat shows: see the module's documentation.
pub fn for_players(doc: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    // Whether the last line of `out` is text that a following line continues.
    let mut open = false;
    let mut code: Option<usize> = None;
    let mut table: Vec<&str> = Vec::new();
    for line in doc.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some(fence_indent) = code {
            let inner = line.get(fence_indent.min(indent)..).unwrap_or(trimmed);
            out.push(inner.trim_end().to_string());
            if trimmed.starts_with("```") {
                code = None;
            }
            continue;
        }
        if trimmed.starts_with('|') {
            table.push(trimmed);
            open = false;
            continue;
        }
        if !table.is_empty() {
            out.extend(aligned_table(&std::mem::take(&mut table)));
        }
        if trimmed.starts_with("```") {
            out.push(trimmed.trim_end().to_string());
            code = Some(indent);
            open = false;
        } else if trimmed.is_empty() {
            if out.last().is_some_and(|l| !l.is_empty()) {
                out.push(String::new());
            }
            open = false;
        } else if let Some(title) = heading(trimmed) {
            // A heading is a paragraph of its own.
            if out.last().is_some_and(|l| !l.is_empty()) {
                out.push(String::new());
            }
            out.push(format!("**{}**", inline(title)));
            out.push(String::new());
            open = false;
        } else if list_marker(trimmed) {
            out.push(format!(
                "{}{}",
                " ".repeat(indent),
                inline(trimmed.trim_end())
            ));
            open = true;
        } else if let (true, Some(last)) = (open, out.last_mut()) {
            last.push(' ');
            last.push_str(&inline(trimmed.trim_end()));
        } else {
            out.push(inline(trimmed.trim_end()));
            open = true;
        }
    }
    if !table.is_empty() {
        out.extend(aligned_table(&table));
    }
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out.join("\n")
}

/// The title of a Markdown heading line (`## Rules`), if it is one.
fn heading(line: &str) -> Option<&str> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
        Some(line[hashes..].trim())
    } else {
        None
    }
}

/// Whether a line (without its indentation) begins a list item: `- `, `* `, `+ ` or a
/// number with a dot (`12. `).
fn list_marker(line: &str) -> bool {
    if ["- ", "* ", "+ "].iter().any(|m| line.starts_with(m)) {
        return true;
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    (1..=3).contains(&digits) && line[digits..].starts_with(". ")
}

/// A line's links to other files of the repository reduced to their words (`[the
/// standard rules](standard.md)` becomes `the standard rules`); links to the web stay.
fn inline(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let link = after.find(']').and_then(|close| {
            let target = after[close + 1..].strip_prefix('(')?;
            let end = target.find(')')?;
            Some((&after[..close], &target[..end], &target[end + 1..]))
        });
        match link {
            Some((words, target, tail)) => {
                if target.starts_with("https://") || target.starts_with("http://") {
                    out.push_str(&format!("[{words}]({target})"));
                } else {
                    out.push_str(words);
                }
                rest = tail;
            }
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A Markdown table's rows as a code block with aligned columns: the header, a rule, the
/// rows; emphasis, code marks and links reduced to their words.
fn aligned_table(rows: &[&str]) -> Vec<String> {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            r.trim()
                .trim_start_matches('|')
                .trim_end_matches('|')
                .split('|')
                .map(|c| inline(c.trim()).replace("**", "").replace('`', ""))
                .collect::<Vec<String>>()
        })
        .filter(|r| {
            !r.iter()
                .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':')))
        })
        .collect();
    let columns = cells.iter().map(Vec::len).max().unwrap_or(0);
    let width = |i: usize| {
        cells
            .iter()
            .filter_map(|r| r.get(i))
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..columns).map(width).collect();
    let line = |r: &Vec<String>| {
        let padded: Vec<String> = (0..columns)
            .map(|i| {
                let c = r.get(i).map_or("", String::as_str);
                format!("{c}{}", " ".repeat(widths[i] - c.chars().count()))
            })
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    let mut out = vec!["```".to_string()];
    for (k, r) in cells.iter().enumerate() {
        out.push(line(r));
        if k == 0 && cells.len() > 1 {
            let rule: usize = widths.iter().sum::<usize>() + 2 * columns.saturating_sub(1);
            out.push("-".repeat(rule));
        }
    }
    out.push("```".to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_and_list_items_become_one_line_each() {
        let doc = "# Title\n\nA paragraph\nbroken at the\ncolumn.\n\n1. **One.** An item\n   that goes on.\n   1. A sub-item\n      too.\n2. Two, with a\n   *decision* after.\n";
        assert_eq!(
            for_players(doc),
            "**Title**\n\nA paragraph broken at the column.\n\n1. **One.** An item that goes on.\n   1. A sub-item too.\n2. Two, with a *decision* after."
        );
    }

    #[test]
    fn tables_become_aligned_code_blocks_and_code_blocks_stay() {
        let doc = "Scores:\n\n| outcome | White |\n| --- | ---: |\n| **win** | 10 |\n| stalemated | 8 |\n\n```\n[Variant \"x\"]\n  kept\n```\n";
        assert_eq!(
            for_players(doc),
            "Scores:\n\n```\noutcome     White\n-----------------\nwin         10\nstalemated  8\n```\n\n```\n[Variant \"x\"]\n  kept\n```"
        );
    }

    #[test]
    fn links_into_the_repository_keep_their_words_and_web_links_stay() {
        assert_eq!(
            inline("as in [the standard rules](standard.md) and [Lichess](https://lichess.org/variant)."),
            "as in the standard rules and [Lichess](https://lichess.org/variant)."
        );
        assert_eq!(inline("a [bracket] alone"), "a [bracket] alone");
        assert_eq!(inline("[x] then [y](y.md)"), "[x] then y");
    }
}
