//! Tables of text as images: a tournament's standings and crosstable, drawn from plain
//! rows of text with the board images' fonts, palette and PNG encoder.
//!
//! The table knows nothing about tournaments: a title, a header row and rows of cells.
//! The second column (the name) is set flush left, every other column centred. Sizes
//! are bounded whatever the input: cells are cut with an ellipsis past a width, and only
//! the first [`MAX_ROWS`] rows and [`MAX_COLUMNS`] columns are drawn.

use super::canvas::Canvas;
use super::fonts::{cap_height, GlyphCache, Line};
use super::palette::Palette;
use super::theme::Theme;
use super::Image;
use std::sync::OnceLock;

/// Rows drawn at most (a line below says how many more there are).
pub const MAX_ROWS: usize = 128;
/// Columns drawn at most.
pub const MAX_COLUMNS: usize = 48;

/// A table to draw (kept as JSON with a message waiting in the outbox).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Table {
    /// The line above the table (the tournament's name and round); may be empty.
    pub title: String,
    /// The column headings.
    pub header: Vec<String>,
    /// The rows of cells.
    pub rows: Vec<Vec<String>>,
}

/// Text size in pixels (the em).
const EM: f32 = 17.0;
/// The title's size.
const TITLE_EM: f32 = 21.0;
/// Height of a row.
const ROW_H: usize = 30;
/// Space left and right of a cell's text.
const PAD: usize = 10;
/// Margin around the table.
const MARGIN: usize = 14;
/// Widest a name cell may be, in pixels.
const MAX_NAME_W: i32 = 280;
/// Widest any other cell may be.
const MAX_CELL_W: i32 = 120;

fn glyphs() -> &'static GlyphCache {
    static CACHE: OnceLock<GlyphCache> = OnceLock::new();
    CACHE.get_or_init(GlyphCache::default)
}

/// The title's lines above a table `table_w` pixels wide: broken between words over at
/// most [`TITLE_LINES`] lines as wide as the table or [`TITLE_W`], whichever is wider,
/// so that a tournament's name and round are read whole above a narrow table (the
/// image widens to the title where it must); cut with an ellipsis only past that.
fn title_lines(title: &str, table_w: usize) -> Vec<String> {
    let title = title.trim();
    if title.is_empty() {
        return Vec::new();
    }
    glyphs().wrap(TITLE_EM, title, table_w.max(TITLE_W) as i32, TITLE_LINES)
}

/// The width a title may take above a narrower table, in pixels.
const TITLE_W: usize = 560;
/// The most lines a title takes.
const TITLE_LINES: usize = 2;

/// Draws `table` in `theme`'s colours (the frame's dark background, the banner's colour
/// for the header row, alternate rows on the status line's colour).
pub fn render_table(table: &Table, theme: &Theme) -> Image {
    let laid = Layout::of(table);
    let title_h = match laid.title.len() {
        0 => 0,
        n => ROW_H * n + 8,
    };
    let title_w = laid.title.iter().map(|t| t.width.max(0) as usize).max();
    let w = laid.table_w.max(title_w.unwrap_or(0)) + 2 * MARGIN;
    let shown = laid.body.len();
    let h = MARGIN * 2 + title_h + ROW_H * (1 + shown + usize::from(laid.more.is_some()));
    let (pal, ink) = TableInk::of(theme);
    let mut canvas = Canvas::new(w, h, ink.bg);
    let cap = cap_height(EM).round() as i32;
    let baseline = |top: usize| top as i32 + (ROW_H as i32 + cap) / 2;
    let cap_t = cap_height(TITLE_EM).round() as i32;
    for (i, t) in laid.title.iter().enumerate() {
        let y = (MARGIN + ROW_H * i) as i32 + (ROW_H as i32 + cap_t) / 2;
        canvas.text(MARGIN as i32, y, t, ink.text, &pal);
    }
    let top0 = MARGIN + title_h;
    let draw_row = |canvas: &mut Canvas, top: usize, cells: &[Line], fill: u8, colour: u8| {
        canvas.fill(MARGIN as i32, top as i32, laid.table_w, ROW_H, fill);
        let mut x = MARGIN;
        for (c, line) in cells.iter().enumerate() {
            let left = if c == 1 {
                x + PAD
            } else {
                x + (laid.widths[c] - line.width.max(0) as usize) / 2
            };
            canvas.text(left as i32, baseline(top), line, colour, &pal);
            x += laid.widths[c];
        }
    };
    draw_row(&mut canvas, top0, &laid.header, ink.head_bg, ink.head_text);
    for (i, cells) in laid.body.iter().enumerate() {
        let fill = if i % 2 == 1 { ink.stripe } else { ink.bg };
        draw_row(&mut canvas, top0 + ROW_H * (i + 1), cells, fill, ink.text);
    }
    if let Some(m) = &laid.more {
        let top = top0 + ROW_H * (1 + shown);
        canvas.text((MARGIN + PAD) as i32, baseline(top), m, ink.dim, &pal);
    }
    Image::without_board(canvas, &pal)
}

/// A table's text laid out: every cell set once and cut to its column's limit, the
/// columns' widths, the title's lines and the "… N more" line of rows left out.
struct Layout {
    /// The header row's cells.
    header: Vec<Line>,
    /// The rows shown, their cells.
    body: Vec<Vec<Line>>,
    /// Each column's width, padding included.
    widths: Vec<usize>,
    /// The table's width, the columns' sum.
    table_w: usize,
    /// The title's lines.
    title: Vec<Line>,
    /// The line saying how many rows are left out, if any are.
    more: Option<Line>,
}

impl Layout {
    /// The layout of `table`.
    fn of(table: &Table) -> Layout {
        let g = glyphs();
        let cols = table
            .header
            .len()
            .max(table.rows.iter().map(Vec::len).max().unwrap_or(0))
            .clamp(1, MAX_COLUMNS);
        let shown = table.rows.len().min(MAX_ROWS);
        let hidden = table.rows.len() - shown;
        let limit = |c: usize| if c == 1 { MAX_NAME_W } else { MAX_CELL_W };
        let cell = |row: &[String], c: usize| row.get(c).map_or("", String::as_str).to_string();
        let lay = |row: &[String]| -> Vec<Line> {
            (0..cols)
                .map(|c| g.fitted_line(EM, &cell(row, c), limit(c)))
                .collect()
        };
        let header = lay(&table.header);
        let body: Vec<Vec<_>> = table.rows[..shown]
            .iter()
            .map(|r| lay(r.as_slice()))
            .collect();
        let widths: Vec<usize> = (0..cols)
            .map(|c| {
                std::iter::once(&header)
                    .chain(&body)
                    .map(|r| r[c].width.max(0) as usize)
                    .max()
                    .unwrap_or(0)
                    + 2 * PAD
            })
            .collect();
        let table_w: usize = widths.iter().sum();
        let title = title_lines(&table.title, table_w)
            .iter()
            .map(|l| g.line(TITLE_EM, l))
            .collect();
        let more = (hidden > 0).then(|| g.line(EM, &format!("… {hidden} more")));
        Layout {
            header,
            body,
            widths,
            table_w,
            title,
            more,
        }
    }
}

/// A table's colours as palette indices.
struct TableInk {
    /// The background.
    bg: u8,
    /// Every other row's background.
    stripe: u8,
    /// The header row's background.
    head_bg: u8,
    /// The cells' text.
    text: u8,
    /// The header's text.
    head_text: u8,
    /// The "… N more" line.
    dim: u8,
}

impl TableInk {
    /// A palette for a table in `theme`'s colours, with the ramps its text needs.
    fn of(theme: &Theme) -> (Palette, TableInk) {
        let mut pal = Palette::new();
        let ink = TableInk {
            bg: pal.exact(theme.frame),
            stripe: pal.exact(theme.status),
            head_bg: pal.exact(theme.banner),
            text: pal.exact(theme.text),
            head_text: pal.exact(theme.banner_text),
            dim: pal.exact(theme.text_dim),
        };
        for (b, f) in [
            (ink.bg, ink.text),
            (ink.stripe, ink.text),
            (ink.head_bg, ink.head_text),
            (ink.bg, ink.dim),
        ] {
            pal.prepare_ramp(b, f);
        }
        (pal, ink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_as_wide_as_its_widest_cells_and_bounded() {
        let theme = Theme::default();
        let table = Table {
            title: "League".into(),
            header: ["#", "Player", "Pts"].map(String::from).to_vec(),
            rows: vec![["1", "Ann", "2½"].map(String::from).to_vec()],
        };
        let small = render_table(&table, &theme);
        let mut wide = table.clone();
        wide.rows[0][1] = "Bartholomew".repeat(40);
        let cut = render_table(&wide, &theme);
        assert!(cut.width() > small.width());
        assert!(cut.width() as i32 <= small.width() as i32 + MAX_NAME_W);
        let mut long = table.clone();
        long.rows = vec![long.rows[0].clone(); 1000];
        long.header = vec!["x".into(); 500];
        let capped = render_table(&long, &theme);
        assert_eq!(
            capped.height() as usize,
            2 * MARGIN + ROW_H + 8 + ROW_H * (2 + MAX_ROWS)
        );
        assert!(!capped.to_png().is_empty());
        assert!(!render_table(&Table::default(), &theme).to_png().is_empty());
    }

    /// A tournament's title is read whole above its narrow standings (it was cut at
    /// the table's width: "tournament #1 (round ro…"), on two lines when it must.
    #[test]
    fn a_tournament_title_is_not_cut_above_a_narrow_table() {
        for title in [
            "tournament #1 (round robin, Standard): standings after round 2",
            "tournament #12 (double round robin, Chess960): final standings after round 10",
        ] {
            let lines = title_lines(title, 200);
            assert!(!lines.is_empty() && lines.len() <= TITLE_LINES);
            assert_eq!(lines.join(" "), title, "nothing cut");
        }
        let table = Table {
            title: "tournament #1 (round robin, Standard): standings after round 2".into(),
            header: ["#", "Player", "Pts"].map(String::from).to_vec(),
            rows: vec![["1", "Ann", "2"].map(String::from).to_vec()],
        };
        let image = render_table(&table, &Theme::default());
        let widest = title_lines(&table.title, 0)
            .iter()
            .map(|l| glyphs().line(TITLE_EM, l).width.max(0) as u32)
            .max()
            .unwrap();
        assert!(image.width() >= widest + 2 * MARGIN as u32);
        assert!(title_lines(&"word ".repeat(400), 200).len() <= TITLE_LINES);
    }

    #[test]
    fn the_header_row_is_drawn_in_the_banner_colour() {
        let theme = Theme::default();
        let table = Table {
            title: String::new(),
            header: ["#", "Player"].map(String::from).to_vec(),
            rows: vec![["1", "Ann"].map(String::from).to_vec()],
        };
        let image = render_table(&table, &theme);
        let (x, y) = (MARGIN as u32 + 1, MARGIN as u32 + 1);
        assert_eq!(image.rgb(x, y), theme.banner);
        assert_eq!(image.rgb(x, y + ROW_H as u32), theme.frame);
        assert_eq!(image.rgb(0, 0), theme.frame);
    }
}
