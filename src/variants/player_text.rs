//! A rules document as a player reads it in a chat (Discord's `rules` pages, the
//! console's `rules VARIANT`). The documents in `docs/rules/` are Markdown written for
//! players and hard-wrapped for the repository; here each paragraph and list item becomes
//! one line (a chat wraps text itself, and a line broken at 80 columns shows as a broken
//! line), each table becomes a code block with aligned columns (no chat renders a
//! Markdown table) or, a table of commands or examples (each row's first cell in
//! backticks), a list, each heading a bold line, and a link to another file of the
//! repository keeps only its words (it leads nowhere in a chat). Code blocks stay as they
//! are. [`mark_commands`] then marks the commands the text quotes, for each reader to
//! write its own way (Discord as slash commands, the console as typed).

use crate::variants::api::command_mark;

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
            out.extend(table_lines(&std::mem::take(&mut table)));
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
        out.extend(table_lines(&table));
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

/// The cells of a Markdown table's row (`\|` is a `|` inside a cell), links reduced to
/// their words.
fn row_cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '|' {
            cells.push(String::new());
            continue;
        }
        let c = match (c, chars.peek()) {
            ('\\', Some('|')) => chars.next().unwrap_or(c),
            _ => c,
        };
        if let Some(cell) = cells.last_mut() {
            cell.push(c);
        }
    }
    cells.iter().map(|c| inline(c.trim())).collect()
}

/// Whether a row of cells is a table's rule (`| --- | :---: |`).
fn is_rule(cells: &[String]) -> bool {
    cells
        .iter()
        .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':')))
}

/// A Markdown table's rows as a chat shows them: a table of commands or examples (each
/// row below the header begins with a cell in backticks) as a list, a row an item (its
/// first cell, then the others after dashes), so that each reader writes its commands its
/// own way; any other as a code block with aligned columns ([`aligned_table`]).
fn table_lines(rows: &[&str]) -> Vec<String> {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| row_cells(r))
        .filter(|r| !is_rule(r))
        .collect();
    let body = cells.get(1..).unwrap_or_default();
    let quoted = |r: &Vec<String>| r.first().is_some_and(|c| c.starts_with('`'));
    if body.is_empty() || !body.iter().all(quoted) {
        return aligned_table(cells);
    }
    body.iter()
        .map(|r| {
            let parts: Vec<&str> = r
                .iter()
                .map(String::as_str)
                .filter(|c| !c.is_empty())
                .collect();
            format!("- {}", parts.join(" \u{2014} "))
        })
        .collect()
}

/// A Markdown table's rows (rules left out) as a code block with aligned columns: the
/// header, a rule, the rows; emphasis and code marks reduced to their words.
fn aligned_table(cells: Vec<Vec<String>>) -> Vec<String> {
    let cells: Vec<Vec<String>> = cells
        .into_iter()
        .map(|r| {
            r.into_iter()
                .map(|c| c.replace("**", "").replace('`', ""))
                .collect()
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

/// `text` (a rules document as [`for_players`] gives it, or a variant's rules in brief)
/// with each quoted command (inline code whose first word `is_command`: `` `claim draw` ``,
/// `` `analyse N` ``) marked as one ([`command_mark`]), which each reader shows its own
/// way: the console as typed, in backticks, as it was; Discord as the slash command. Code
/// blocks, and quoted text that is no command (a move, a FEN, an outcome's name), stay.
pub fn mark_commands(text: &str, is_command: &dyn Fn(&str) -> bool) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut fenced = false;
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push_str(line);
            continue;
        }
        if fenced || !line.contains('`') {
            out.push_str(line);
            continue;
        }
        let parts: Vec<&str> = line.split('`').collect();
        for (i, part) in parts.iter().enumerate() {
            // Odd parts are quoted, when their closing backtick follows.
            let quoted = i % 2 == 1 && i + 1 < parts.len();
            let command = part.split_whitespace().next().is_some_and(is_command);
            match (quoted, command) {
                (true, true) => out.push_str(&command_mark(part)),
                (true, false) => {
                    out.push('`');
                    out.push_str(part);
                    out.push('`');
                }
                (false, _) => {
                    if i % 2 == 1 {
                        out.push('`');
                    }
                    out.push_str(part);
                }
            }
        }
    }
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

    #[test]
    fn a_table_of_commands_becomes_a_list_and_quoted_commands_are_marked() {
        let doc = "| command | what |\n| --- | --- |\n| `draw [ID] offer\\|accept` | draw by agreement |\n| `hand [ID]` | your cards (`hand 3`) |\n";
        let shown = for_players(doc);
        assert_eq!(
            shown,
            "- `draw [ID] offer|accept` \u{2014} draw by agreement\n- `hand [ID]` \u{2014} your cards (`hand 3`)"
        );
        let is_command = |w: &str| ["draw", "hand", "claim"].contains(&w);
        let text = format!(
            "{shown}\n\nClaim it (`claim draw`) after `e4`.\n```\nhand 3\n```\nan odd ` hand"
        );
        let marked = mark_commands(&text, &is_command);
        assert_eq!(
            crate::variants::api::marked_commands(&marked),
            [
                "draw [ID] offer|accept",
                "hand [ID]",
                "hand 3",
                "claim draw"
            ]
        );
        // The console's form is the text as it was.
        assert_eq!(crate::variants::api::typed_commands(&marked), text);
    }
}
