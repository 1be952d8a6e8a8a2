//! Board images: a pure, synchronous renderer that turns a [`BoardView`] (what one viewer
//! may see) into a PNG.
//!
//! Drawing is split in two. What never changes for a board size and shape (the palette,
//! every piece on every kind of square, the frame with its coordinates, the sprites and
//! text glyphs beside the board) is prepared once, on first use, and kept in the
//! [`Renderer`]. Each image then copies the frame, copies the tiles of the squares that
//! are not empty and plain, draws the players' rows, overlays and status line, and is
//! encoded as an 8-bit palette PNG by a compressor written for these images
//! ([`encode`]). An 8x8 board at the default size takes well under a millisecond.
//!
//! The renderer has no I/O and no async; the Discord adapter calls it off its runtime.
//! [`gif::game_gif`] draws a whole game as an animated GIF; [`table::render_table`] draws
//! a table of text (a tournament's standings).

mod assets;
mod canvas;
mod compose;
pub mod encode;
mod fonts;
pub mod gif;
pub mod graph;
mod layout;
mod palette;
mod pieces;
mod raster;
mod sample;
pub mod table;
pub mod theme;
pub mod view;

pub use layout::Rect;
pub use theme::{Rgb, Theme};
pub use view::{
    bottom_side, result_text, BoardCorner, BoardView, Caption, Card, CardRow, Disc, LastMove,
    Overlay, PublicOrientation, ReserveSlot, ReserveView, Suit, UnknownOrientation, Viewer,
};

use crate::rules::{Color, Square};
use assets::Assets;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The default board size: 720 pixels across the board (90 per square on 8x8), sharp
/// on a phone screen and the size the lichess image service is compared at.
pub const DEFAULT_BOARD_PX: u32 = 720;

/// The smallest board size drawn; smaller requests are drawn at this size.
pub const MIN_BOARD_PX: u32 = 96;

/// The largest board size drawn; larger requests are drawn at this size.
pub const MAX_BOARD_PX: u32 = 2400;

/// How big to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    /// Pixels across the board's longer side, coordinates and rows beside it excluded
    /// (clamped to [`MIN_BOARD_PX`]..=[`MAX_BOARD_PX`]). The rest of the image scales with
    /// it.
    pub board_px: u32,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            board_px: DEFAULT_BOARD_PX,
        }
    }
}

/// A drawn image: palette indices, one byte a pixel, row by row.
#[derive(Clone, Debug)]
pub struct Image {
    width: u32,
    height: u32,
    /// The rows as PNG stores them: a zero byte, then the row's indices.
    raw: Vec<u8>,
    palette: Arc<[Rgb]>,
    board: BoardGeometry,
    /// The assets it was drawn with and the tile each board cell holds, for encoding.
    tiles: Option<(Arc<Assets>, Vec<Option<encode::TileCell>>)>,
}

/// Where the board is in an image, to find a square's pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BoardGeometry {
    x: u32,
    y: u32,
    square: u32,
    files: u8,
    ranks: u8,
    bottom: Color,
}

impl Image {
    /// An image drawn on `canvas` with `palette` that holds no board (a table, a graph).
    fn without_board(canvas: canvas::Canvas, palette: &palette::Palette) -> Image {
        Image {
            width: canvas.w as u32,
            height: canvas.h as u32,
            raw: canvas.px,
            palette: Arc::from(palette.colors()),
            board: BoardGeometry {
                x: 0,
                y: 0,
                square: 0,
                files: 0,
                ranks: 0,
                bottom: Color::White,
            },
            tiles: None,
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The palette indices of row `y` (0 is the top).
    pub fn row(&self, y: u32) -> &[u8] {
        let start = y as usize * (self.width as usize + 1) + 1;
        &self.raw[start..start + self.width as usize]
    }

    /// The rows, top to bottom.
    pub fn rows(&self) -> impl Iterator<Item = &[u8]> + '_ {
        (0..self.height).map(move |y| self.row(y))
    }

    /// The colours the indices refer to (at most 255, so an index is always free for
    /// transparency in a GIF).
    pub fn palette(&self) -> &[Rgb] {
        &self.palette
    }

    /// The colour of a pixel.
    pub fn rgb(&self, x: u32, y: u32) -> Rgb {
        self.palette[self.row(y)[x as usize] as usize]
    }

    /// The pixels of a square (`None` for a square off the board).
    pub fn square_rect(&self, sq: Square) -> Option<Rect> {
        let b = &self.board;
        if sq.file() >= b.files || sq.rank() >= b.ranks {
            return None;
        }
        let (col, row) = match b.bottom {
            Color::White => (sq.file() as u32, (b.ranks - 1 - sq.rank()) as u32),
            Color::Black => ((b.files - 1 - sq.file()) as u32, sq.rank() as u32),
        };
        Some(Rect {
            x: b.x + col * b.square,
            y: b.y + row * b.square,
            w: b.square,
            h: b.square,
        })
    }

    /// The image as PNG bytes (8-bit palette, fast compression).
    pub fn to_png(&self) -> Vec<u8> {
        self.png_with(true)
    }

    /// The PNG under its size's fixed codes (`fixed`), or under codes made for this image.
    fn png_with(&self, fixed: bool) -> Vec<u8> {
        let tiling = self.tiles.as_ref().map(|(a, cells)| encode::Tiling {
            x: self.board.x as usize,
            y: self.board.y as usize,
            s: self.board.square as usize,
            cols: self.board.files as usize,
            rows: self.board.ranks as usize,
            cells,
            tiles: &a.tiles,
        });
        encode::png_raw_codes(
            self.width,
            self.height,
            &self.raw,
            &self.palette,
            tiling.as_ref(),
            fixed,
        )
    }
}

/// The prepared assets of board images, by theme, board size and shape: each is made
/// once and never changes after (its fixed codes are learnt as it is made).
type AssetMap = HashMap<(Theme, u32, u8, u8), Arc<Assets>>;

/// The assets every [`Renderer`] of the process shares: a size and shape is prepared once
/// per process (a second or so of work), however many renderers draw it (the bot's, an
/// export's animation, a console's, every bot a test process starts).
fn process_assets() -> Arc<Mutex<AssetMap>> {
    static SHARED: std::sync::OnceLock<Arc<Mutex<AssetMap>>> = std::sync::OnceLock::new();
    SHARED.get_or_init(Arc::default).clone()
}

/// Draws board images. The first image of each board size and shape prepares that
/// size's assets (a few hundred milliseconds at the default size, so the bot prepares
/// every shape its variants use at start-up with [`Renderer::prepare_all`]), every later
/// one reuses them, in every renderer of the process ([`Renderer::isolated`] excepted).
/// Safe to share between threads.
pub struct Renderer {
    theme: Theme,
    assets: Arc<Mutex<AssetMap>>,
    /// How many times assets were prepared.
    preparations: AtomicUsize,
}

impl Renderer {
    /// A renderer drawing with `theme`, sharing the process's prepared assets.
    pub fn new(theme: Theme) -> Renderer {
        Renderer {
            theme,
            assets: process_assets(),
            preparations: AtomicUsize::new(0),
        }
    }

    /// A renderer drawing with `theme` that prepares its own assets, sharing none: what a
    /// measurement of the first image of a size uses.
    pub fn isolated(theme: Theme) -> Renderer {
        Renderer {
            theme,
            assets: Arc::default(),
            preparations: AtomicUsize::new(0),
        }
    }

    /// How many times this renderer has prepared a board size and shape's assets (once
    /// each, unless two threads raced for the same new one; none that another renderer of
    /// the process had prepared already).
    pub fn preparations(&self) -> usize {
        self.preparations.load(Ordering::Relaxed)
    }

    /// The theme images are drawn with.
    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    fn assets(&self, board_px: u32, files: u8, ranks: u8) -> Arc<Assets> {
        let key = (
            self.theme.clone(),
            board_px.clamp(MIN_BOARD_PX, MAX_BOARD_PX),
            files,
            ranks,
        );
        if let Some(a) = self.assets.lock().expect("renderer assets").get(&key) {
            return a.clone();
        }
        // Prepared outside the lock, so other sizes are not held up; two threads racing
        // for the same new size both prepare it and one result is kept.
        let prepared = Assets::new(&self.theme, key.1, files, ranks);
        sample::learn_codes(&prepared);
        let prepared = Arc::new(prepared);
        self.preparations.fetch_add(1, Ordering::Relaxed);
        self.assets
            .lock()
            .expect("renderer assets")
            .entry(key)
            .or_insert(prepared)
            .clone()
    }

    /// Prepares everything for a board shape and size now rather than on first use
    /// (including the compressed form of tiles that are otherwise prepared when an image
    /// first shows them, such as a king in check).
    pub fn prepare(&self, files: u8, ranks: u8, options: &RenderOptions) {
        self.assets(options.board_px, files.clamp(1, 8), ranks.clamp(1, 8))
            .tiles
            .prepare_all();
    }

    /// [`Renderer::prepare`] for each board shape (files, ranks) of `shapes`, one thread
    /// a shape: what the bot does at start-up, so that no image it sends pays for it.
    pub fn prepare_all(&self, shapes: &[(u8, u8)], options: &RenderOptions) {
        std::thread::scope(|scope| {
            for &(files, ranks) in shapes {
                scope.spawn(move || self.prepare(files, ranks, options));
            }
        });
    }

    /// Draws `view`.
    pub fn render(&self, view: &BoardView, options: &RenderOptions) -> Image {
        let (files, ranks) = (view.width.clamp(1, 8), view.height.clamp(1, 8));
        let a = self.assets(options.board_px, files, ranks);
        let view = if (files, ranks) == (view.width, view.height) {
            Cow::Borrowed(view)
        } else {
            let mut fixed = view.clone();
            fixed.width = files;
            fixed.height = ranks;
            Cow::Owned(fixed)
        };
        let compose::Composed { canvas, cells } = compose::compose(&a, &view);
        let l = &a.layout;
        Image {
            width: canvas.w as u32,
            height: canvas.h as u32,
            raw: canvas.px,
            palette: a.colors.clone(),
            board: BoardGeometry {
                x: l.board_x as u32,
                y: l.board_y as u32,
                square: l.s as u32,
                files,
                ranks,
                bottom: view.bottom,
            },
            tiles: Some((a.clone(), cells)),
        }
    }

    /// Draws `view` and encodes it as PNG.
    pub fn render_png(&self, view: &BoardView, options: &RenderOptions) -> Vec<u8> {
        self.render(view, options).to_png()
    }
}

impl Default for Renderer {
    /// A renderer with the default theme.
    fn default() -> Renderer {
        Renderer::new(Theme::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Piece, Role};

    #[test]
    fn the_renderer_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Renderer>();
        shared::<Image>();
    }

    #[test]
    fn an_image_after_preparation_prepares_nothing_more() {
        let renderer = Renderer::isolated(Theme::default());
        let options = RenderOptions { board_px: 120 };
        renderer.prepare_all(&[(8, 8), (6, 6), (8, 8)], &options);
        let prepared = renderer.preparations();
        assert!((2..=3).contains(&prepared), "{prepared}");
        for (w, h) in [(8, 8), (6, 6)] {
            renderer.render_png(&BoardView::empty(w, h), &options);
        }
        assert_eq!(renderer.preparations(), prepared);
        // Another size is prepared on first use.
        renderer.render_png(&BoardView::empty(8, 8), &RenderOptions { board_px: 200 });
        assert_eq!(renderer.preparations(), prepared + 1);
    }

    #[test]
    fn renderers_of_one_process_share_what_they_prepared() {
        // A size no other test draws, so this test alone prepares it.
        let options = RenderOptions { board_px: 136 };
        let first = Renderer::default();
        let png = first.render_png(&BoardView::empty(7, 7), &options);
        assert_eq!(first.preparations(), 1);
        let second = Renderer::default();
        assert_eq!(second.render_png(&BoardView::empty(7, 7), &options), png);
        assert_eq!(
            second.preparations(),
            0,
            "the second renderer reused the first's"
        );
        let own = Renderer::isolated(Theme::default());
        assert_eq!(own.render_png(&BoardView::empty(7, 7), &options), png);
        assert_eq!(
            own.preparations(),
            1,
            "an isolated renderer prepares its own"
        );
    }

    #[test]
    fn odd_and_crowded_views_draw_without_panicking() {
        let renderer = Renderer::default();
        let options = RenderOptions { board_px: 160 };
        let full = ReserveView {
            slots: ReserveView::ORDER
                .iter()
                .map(|&role| ReserveSlot {
                    role,
                    count: 12,
                    locked: role == Role::Queen,
                })
                .collect(),
        };
        let far = Square::new(7, 7);
        for (w, h) in [(1, 1), (3, 5), (8, 2), (0, 9)] {
            let mut view = BoardView::empty(w, h)
                .with_players("A".repeat(80), "")
                .with_overlay(Overlay::Tokens {
                    side: Color::White,
                    used: 9,
                    total: 8,
                })
                .with_overlay(Overlay::Tokens {
                    side: Color::Black,
                    used: 0,
                    total: 0,
                })
                .with_overlay(Overlay::Letters(vec![
                    (far, 'x'),
                    (Square::new(0, 0), '字'),
                ]))
                .with_overlay(Overlay::Discs(vec![Disc {
                    square: Square::new(0, 0),
                    color: Color::Black,
                    label: Some("12345".into()),
                }]))
                .with_overlay(Overlay::CornerMarker(BoardCorner {
                    high_file: true,
                    high_rank: false,
                }))
                .with_overlay(Overlay::Cards(CardRow {
                    label: String::new(),
                    cards: vec![Card::Back; 40],
                }));
            view.pieces[0] = Some(Piece {
                color: Color::White,
                role: Role::King,
            });
            view.reserves = [Some(full.clone()), Some(full.clone())];
            view.last_move = Some(LastMove::Move {
                from: far,
                to: Square::new(0, 0),
            });
            view.check = Some(far);
            let image = renderer.render(&view, &options);
            assert!(image.width() > 0 && image.height() > 0);
            assert!(!image.to_png().is_empty());
            assert!(image.square_rect(far).is_none() || (w, h) == (8, 8));
        }
    }

    #[test]
    fn a_phase_replaces_the_turn_words_of_the_status_line() {
        let renderer = Renderer::default();
        let options = RenderOptions { board_px: 160 };
        let plain = BoardView::empty(8, 8);
        let mut phased = plain.clone();
        phased.caption.phase = Some("add the black rook on rank 8".repeat(3));
        let (a, b) = (
            renderer.render_png(&plain, &options),
            renderer.render_png(&phased, &options),
        );
        assert_ne!(a, b, "the phase is drawn");
        // Nobody to move: the phase is not drawn.
        let mut over = phased.clone();
        over.caption.to_move = None;
        let mut plain_over = plain;
        plain_over.caption.to_move = None;
        assert_eq!(
            renderer.render_png(&over, &options),
            renderer.render_png(&plain_over, &options)
        );
    }

    /// The pixels of a PNG, as palette indices.
    fn decoded(png: &[u8]) -> Vec<u8> {
        let mut d = ::png::Decoder::new(std::io::Cursor::new(png));
        d.set_transformations(::png::Transformations::IDENTITY);
        let mut r = d.read_info().expect("png header");
        let mut buf = vec![0; r.output_buffer_size().expect("size")];
        let info = r.next_frame(&mut buf).expect("png data");
        buf.truncate(info.buffer_size());
        buf
    }

    #[test]
    fn fixed_codes_write_the_same_pixels_in_about_the_same_bytes() {
        use crate::rules::{Position, Variant};
        let renderer = Renderer::default();
        let options = RenderOptions::default();
        let mut pos = Position::start(Variant::STANDARD);
        let mut last = None;
        for uci in [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1",
        ] {
            let m = pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.uci() == uci)
                .expect("a legal move");
            pos = pos.after(m);
            last = Some(m);
        }
        let played =
            BoardView::from_position(&pos, last, Color::Black).with_players("Alice", "Bob");
        let letters = (0..64u8)
            .map(|i| (Square::new(i % 8, i / 8), char::from(b'a' + i % 26)))
            .collect();
        let lettered =
            BoardView::from_position(&Position::start(Variant::STANDARD), None, Color::White)
                .with_overlay(Overlay::Letters(letters));
        for view in [played, lettered] {
            let image = renderer.render(&view, &options);
            let pixels: Vec<u8> = image.rows().flatten().copied().collect();
            let (fixed, own) = (image.png_with(true), image.png_with(false));
            assert_ne!(fixed, own, "the fixed codes are learnt and used");
            assert_eq!(decoded(&fixed), pixels);
            assert_eq!(decoded(&own), pixels);
            assert!(
                fixed.len() * 100 <= own.len() * 105,
                "{} bytes under the fixed codes, {} under its own",
                fixed.len(),
                own.len()
            );
        }
    }

    /// The rows of the status band (the image's bottom `status_h` rows) that hold text, in
    /// runs: one run per line of text.
    fn status_text_runs(image: &Image, renderer: &Renderer, options: &RenderOptions) -> usize {
        let band = layout::Layout::new(options.board_px, 8, 8).status_h as u32;
        let theme = renderer.theme();
        let inked = |y: u32| (0..image.width()).any(|x| image.rgb(x, y) != theme.status);
        let rows: Vec<bool> = (image.height() - band..image.height()).map(inked).collect();
        rows.windows(2).filter(|w| w[1] && !w[0]).count() + usize::from(rows[0])
    }

    #[test]
    fn a_status_too_long_for_one_line_is_set_on_two() {
        let renderer = Renderer::default();
        let options = RenderOptions::default();
        let mut view = BoardView::empty(8, 8);
        view.caption.phase = Some("move all active pieces for the last turn (2 left)".into());
        view.caption.white = "Bartholomew the Magnificent".into();
        let long = renderer.render(&view, &options);
        assert_eq!(status_text_runs(&long, &renderer, &options), 2);
        view.caption.phase = None;
        let short = renderer.render(&view, &options);
        assert_eq!(status_text_runs(&short, &renderer, &options), 1);
        assert_eq!(long.height(), short.height(), "the image keeps its size");
    }
}
