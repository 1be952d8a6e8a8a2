//! Standings as a table of text: the rows an image ([`crate`]'s render layer draws
//! them) and a monospaced message both show.

use super::record::{Player, Record};
use super::solitaire::SolitaireStanding;
use super::standings::{crosstable, Format, Standing};

/// A table of text: a header row and the rows below it. The first column is the rank,
/// the second the name; the rest are numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextTable {
    /// The column headings.
    pub header: Vec<String>,
    /// The rows, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

/// Longest name a table shows, in characters; longer ones are cut with an ellipsis so
/// that a name cannot make a table unbounded.
pub const MAX_NAME_CHARS: usize = 24;

fn short(name: &str) -> String {
    let name = name.trim();
    if name.chars().count() <= MAX_NAME_CHARS {
        name.to_string()
    } else {
        let kept: String = name.chars().take(MAX_NAME_CHARS - 1).collect();
        format!("{}…", kept.trim_end())
    }
}

fn name_of(names: &[String], p: Player) -> String {
    names
        .get(p)
        .map(|n| short(n))
        .unwrap_or_else(|| format!("#{}", p + 1))
}

/// The standings as a table: rank, name (marked `(w)` once withdrawn), points, each
/// tie-break; for a round robin, then one column per player (by standings order,
/// headed by their rank) holding the crosstable (`*` on the diagonal; two results in
/// a double round robin separated by a space).
pub fn standings_table(
    record: &Record,
    format: Format,
    standings: &[Standing],
    names: &[String],
) -> TextTable {
    let mut header: Vec<String> = vec!["#".into(), "Player".into(), "Pts".into()];
    header.extend(
        format
            .tie_breaks()
            .iter()
            .map(|t| t.abbreviation().to_string()),
    );
    let order: Vec<Player> = standings.iter().map(|s| s.player).collect();
    let cross = (format == Format::RoundRobin).then(|| crosstable(record, &order));
    if cross.is_some() {
        header.extend((1..=order.len()).map(|i| i.to_string()));
    }
    let rows = standings
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut name = name_of(names, s.player);
            if s.withdrawn {
                name.push_str(" (w)");
            }
            let mut row = vec![s.rank.to_string(), name, s.points.to_string()];
            row.extend(s.tie_breaks.iter().map(|v| v.to_string()));
            if let Some(c) = &cross {
                row.extend(c.cells[i].iter().enumerate().map(|(j, games)| {
                    if i == j {
                        "*".to_string()
                    } else {
                        games.iter().map(|g| g.text()).collect::<Vec<_>>().join(" ")
                    }
                }));
            }
            row
        })
        .collect();
    TextTable { header, rows }
}

/// A best-score competition's standings as a table: rank, name, deals won of those
/// finished, total, best deal.
pub fn solitaire_table(standings: &[SolitaireStanding], names: &[String]) -> TextTable {
    TextTable {
        header: ["#", "Player", "Won", "Total", "Best"]
            .map(String::from)
            .to_vec(),
        rows: standings
            .iter()
            .map(|s| {
                vec![
                    s.rank.to_string(),
                    name_of(names, s.player),
                    format!("{}/{}", s.won, s.finished),
                    s.total.to_string(),
                    s.best.map_or("-".to_string(), |b| b.to_string()),
                ]
            })
            .collect(),
    }
}

impl TextTable {
    /// The table in monospaced text: columns padded to their widest cell, the name
    /// column left-aligned and every other right-aligned, a rule under the header.
    pub fn to_text(&self) -> String {
        let cols = self.header.len();
        let width = |c: usize| {
            std::iter::once(&self.header)
                .chain(&self.rows)
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..cols).map(width).collect();
        let line = |row: &[String]| {
            let cells: Vec<String> = (0..cols)
                .map(|c| {
                    let s = row.get(c).map_or("", String::as_str);
                    if c == 1 {
                        format!("{s:<w$}", w = widths[c])
                    } else {
                        format!("{s:>w$}", w = widths[c])
                    }
                })
                .collect();
            cells.join("  ").trim_end().to_string()
        };
        let mut out = vec![line(&self.header)];
        out.push("-".repeat(widths.iter().sum::<usize>() + 2 * cols.saturating_sub(1)));
        out.extend(self.rows.iter().map(|r| line(r.as_slice())));
        out.join("\n")
    }
}
