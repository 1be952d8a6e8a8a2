//! Everything about an image that does not change from one turn to the next, prepared
//! once per board size and shape: the palette and its ramps, every square tile (each
//! piece on each kind of square), the frame with its coordinates, the sprites beside the
//! board, and the text glyphs.

use super::canvas::Canvas;
use super::encode::TileSet;
use super::fonts::{cap_height, fonts, glyph_box, GlyphCache};
use super::layout::Layout;
use super::palette::Palette;
use super::pieces::piece_layer;
use super::raster::{Layer, Mask, Sprite};
use super::theme::{Rgb, Theme};
use crate::rules::{Color, Piece, Role, Square};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The kinds of square background, in tile order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SquareBg {
    Plain = 0,
    LastMove = 1,
    Check = 2,
}

/// Tiles per background: the empty square and the twelve pieces.
const SLOTS: usize = 13;

/// Kinds of square without the goal's frame (three backgrounds, light and dark); the
/// same kinds with the frame follow them in tile order.
const KINDS: usize = 6;

/// The tile slot of a square's content: 0 for empty, then the pieces.
pub(crate) fn slot(piece: Option<Piece>) -> usize {
    piece.map_or(0, |p| 1 + p.color.index() * 6 + p.role.index())
}

/// Palette indices of the theme's colours.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ink {
    pub frame: u8,
    pub label: u8,
    pub text: u8,
    pub text_dim: u8,
    pub accent: u8,
    pub tray: u8,
    pub status: u8,
    pub status_text: u8,
    pub banner: u8,
    pub banner_text: u8,
    pub white: u8,
    pub black: u8,
    pub ink: u8,
    pub card_red: u8,
}

/// Text sizes (em, in pixels) and the baseline offsets they are set with.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TextSizes {
    pub name: f32,
    pub small: f32,
    pub count: f32,
    pub status: f32,
    pub disc_big: f32,
    pub disc_small: f32,
    pub letter: f32,
    /// The large letter on an empty square.
    pub letter_big: f32,
}

/// How far a large letter's colour goes from its square's colour towards the ink, in
/// fifteenths (a blending level): faint, so that it reads as part of the board and not
/// as a piece.
const LETTER_FAINT_LEVEL: usize = 5;

/// Shades on the edges of a large letter: few, since the letter is faint, so that a
/// board with a letter on every square stays small.
const LETTER_FAINT_STEPS: usize = 3;

/// Everything prepared for one board size and shape.
pub(crate) struct Assets {
    pub layout: Layout,
    pub palette: Palette,
    pub colors: Arc<[Rgb]>,
    pub ink: Ink,
    pub sizes: TextSizes,
    /// `tiles[(goal * KINDS + bg * 2 + dark) * SLOTS + slot]`, each `s * s` indices, with
    /// their compressed form.
    pub tiles: TileSet,
    /// The fixed part of the image with White, then Black, at the bottom.
    pub bases: [Canvas; 2],
    /// A king of each colour on a tray, marking whose row is whose, flattened onto the
    /// frame (`icon_px` square).
    pub icons: [Vec<u8>; 2],
    pub icon_px: usize,
    /// Reserve pieces, by [`slot`] - 1, flattened onto a tray (`reserve_px` square).
    pub reserve: Vec<Vec<u8>>,
    /// Reserve pieces drawn faded, for locked ones.
    pub reserve_locked: Vec<Vec<u8>>,
    pub reserve_px: usize,
    /// Distance from one reserve piece to the next.
    pub slot_step: usize,
    /// Inner margin of a tray.
    pub tray_pad: usize,
    /// Trays for 1 to 6 kinds of reserve piece.
    pub trays: Vec<Sprite>,
    /// The disc a reserve count is written on.
    pub count_badge: Sprite,
    pub padlock: Sprite,
    pub token_live: Sprite,
    pub token_spent: Sprite,
    /// A check given (Three-check), and one not given yet.
    pub check_given: Sprite,
    pub check_open: Sprite,
    pub turn_dot: Sprite,
    /// Large discs (on empty squares) and small ones (badges beside a piece), by colour.
    pub disc_big: [Sprite; 2],
    pub disc_small: [Sprite; 2],
    pub coin: Sprite,
    pub letter_badge: Sprite,
    /// The colour of a large letter on each kind of square, by
    /// `bg * 2 + dark` (see [`SquareBg`]).
    pub letter_faint: [u8; 6],
    pub card_face: Sprite,
    cards: Mutex<HashMap<char, Arc<Sprite>>>,
    pub glyphs: GlyphCache,
}

impl std::fmt::Debug for Assets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Assets")
            .field("layout", &self.layout)
            .field("colors", &self.colors.len())
            .field("square", &self.layout.s)
            .finish_non_exhaustive()
    }
}

impl Assets {
    /// Prepares everything for a `files` x `ranks` board `board_px` pixels across.
    ///
    /// The steps run in a fixed order, since each adds colours to the palette and the
    /// palette's order is part of every image.
    pub fn new(theme: &Theme, board_px: u32, files: u8, ranks: u8) -> Assets {
        let layout = Layout::new(board_px, files, ranks);
        let s = layout.s;
        let mut pal = Palette::new();
        let ink = Ink::new(theme, &mut pal);
        let squares = SquareInks::new(theme, &mut pal);
        prepare_text_ramps(ink, squares.marker, &mut pal);
        let pieces = piece_layers(theme, s);
        let mut tiles = square_tiles(&pieces, &squares.colors, &mut pal);
        let BesideBoard {
            icons,
            icon_px,
            reserve,
            reserve_locked,
            reserve_px,
            slot_step,
            tray_pad,
            trays,
            count_badge,
            padlock,
            token_live,
            token_spent,
            turn_dot,
        } = BesideBoard::new(theme, &layout, ink, &mut pal);
        let OnSquares {
            disc_big,
            disc_small,
            coin,
            letter_badge,
        } = OnSquares::new(theme, s, &squares.idx, &mut pal);
        let card_face = card_face(&layout, ink, &mut pal);
        // Added last, so that the palette indices of everything before stay as they were.
        tiles.extend(goal_tiles(theme, s, &pieces, &squares.colors, &mut pal));
        let [check_given, check_open] = check_marks(theme, &layout, ink, &mut pal);
        let sizes = TextSizes::new(&layout);
        let glyphs = GlyphCache::default();
        let bases = [Color::White, Color::Black]
            .map(|bottom| base_canvas(&layout, &tiles, &glyphs, &pal, ink, bottom));

        let stride = layout.width + 1;
        // The plain squares (the first two backgrounds) are the tiles most used; the
        // cost model is learnt from them.
        let tiles = TileSet::new(tiles, 2 * SLOTS, s, stride);
        let colors: Arc<[Rgb]> = pal.colors().to_vec().into();
        Assets {
            layout,
            palette: pal,
            colors,
            ink,
            sizes,
            tiles,
            bases,
            icons,
            icon_px,
            reserve,
            reserve_locked,
            reserve_px,
            slot_step,
            tray_pad,
            trays,
            count_badge,
            padlock,
            token_live,
            token_spent,
            check_given,
            check_open,
            turn_dot,
            disc_big,
            disc_small,
            coin,
            letter_badge,
            letter_faint: squares.letter_faint,
            card_face,
            cards: Mutex::new(HashMap::new()),
            glyphs,
        }
    }

    /// The number of the tile for a square: its colour, its background kind, whether it
    /// is framed as a goal square, and what stands on it.
    #[inline]
    pub fn tile_index(bg: SquareBg, goal: bool, dark: bool, piece: Option<Piece>) -> usize {
        (goal as usize * KINDS + Assets::square_kind(bg, dark)) * SLOTS + slot(piece)
    }

    /// The number of a kind of square (its background kind and colour), 0..6.
    #[inline]
    pub fn square_kind(bg: SquareBg, dark: bool) -> usize {
        (bg as usize) * 2 + dark as usize
    }

    /// A tile's pixels.
    #[inline]
    pub fn tile(&self, index: usize) -> &[u8] {
        self.tiles.pixels(index)
    }

    /// The glyph of a playing card (drawn in one colour onto [`Assets::card_face`]).
    pub fn card(&self, ch: char, red: bool) -> Arc<Sprite> {
        if let Some(s) = self.cards.lock().expect("card cache").get(&ch) {
            return s.clone();
        }
        let (w, h) = (self.card_face.w, self.card_face.h);
        let font = &fonts().symbols;
        let probe = ab_glyph::PxScale::from(100.0);
        let mut mask = Mask::new(w, h);
        if let Some(b) = glyph_box(font, ch, probe) {
            let k = ((w as f32 - 2.0) / b.width()).min((h as f32 - 2.0) / b.height());
            let scale = ab_glyph::PxScale::from(100.0 * k);
            let (bw, bh) = (b.width() * k, b.height() * k);
            mask.glyph(
                font,
                ch,
                scale,
                (w as f32 - bw) / 2.0 - b.left * k,
                (h as f32 - bh) / 2.0 - b.top * k,
            );
        }
        let color = if red { self.ink.card_red } else { self.ink.ink };
        let sprite = Arc::new(Sprite::from_mask(&mask, color));
        self.cards
            .lock()
            .expect("card cache")
            .insert(ch, sprite.clone());
        sprite
    }
}

impl Ink {
    /// The theme's colours, added to the palette in this order.
    fn new(theme: &Theme, pal: &mut Palette) -> Ink {
        Ink {
            frame: pal.exact(theme.frame),
            label: pal.exact(theme.label),
            text: pal.exact(theme.text),
            text_dim: pal.exact(theme.text_dim),
            accent: pal.exact(theme.accent),
            tray: pal.exact(theme.tray),
            status: pal.exact(theme.status),
            status_text: pal.exact(theme.status_text),
            banner: pal.exact(theme.banner),
            banner_text: pal.exact(theme.banner_text),
            white: pal.exact(theme.piece_white),
            black: pal.exact(theme.piece_black),
            ink: pal.exact(theme.ink),
            card_red: pal.exact(theme.card_red),
        }
    }
}

impl TextSizes {
    /// The text sizes for a layout.
    fn new(layout: &Layout) -> TextSizes {
        let (u, s) = (layout.u, layout.s as f32);
        TextSizes {
            name: 0.36 * u,
            small: 0.27 * u,
            count: 0.2 * u,
            status: 0.33 * u,
            disc_big: 0.4 * s,
            disc_small: 0.22 * s,
            letter: 0.24 * s,
            letter_big: 0.66 * s,
        }
    }
}

/// The square colours of each background kind, their palette indices, the marker's, and
/// the faint colour of a large letter on each kind of square.
struct SquareInks {
    /// Light and dark, by [`SquareBg`].
    colors: [[Rgb; 2]; 3],
    /// The palette index of each of `colors`, flattened.
    idx: Vec<u8>,
    marker: u8,
    letter_faint: [u8; 6],
}

impl SquareInks {
    /// Adds the square colours, the marker and the faint letters' ramps to the palette.
    fn new(theme: &Theme, pal: &mut Palette) -> SquareInks {
        let colors = [
            [theme.light, theme.dark],
            [theme.light_last, theme.dark_last],
            [theme.light_check, theme.dark_check],
        ];
        let idx: Vec<u8> = colors.iter().flatten().map(|&c| pal.exact(c)).collect();
        let marker = pal.exact(theme.marker);
        let mut letter_faint = [0u8; 6];
        for (i, &sq_color) in colors.iter().flatten().enumerate() {
            letter_faint[i] =
                pal.quantize(super::palette::mix(sq_color, theme.ink, LETTER_FAINT_LEVEL));
            pal.prepare_stepped_ramp(idx[i], letter_faint[i], LETTER_FAINT_STEPS);
        }
        SquareInks {
            colors,
            idx,
            marker,
            letter_faint,
        }
    }
}

/// Ramps for text, which is drawn per image.
fn prepare_text_ramps(ink: Ink, marker: u8, pal: &mut Palette) {
    for (bg, fg) in [
        (ink.frame, ink.label),
        (ink.frame, ink.text),
        (ink.frame, ink.text_dim),
        (ink.frame, ink.accent),
        (ink.frame, ink.tray),
        (ink.status, ink.status_text),
        (ink.banner, ink.banner_text),
        (ink.white, ink.ink),
        (ink.white, ink.card_red),
        (ink.black, ink.white),
        (marker, ink.ink),
    ] {
        pal.prepare_ramp(bg, fg);
    }
}

/// The twelve pieces drawn for squares `s` pixels across, in [`slot`] order.
fn piece_layers(theme: &Theme, s: usize) -> Vec<Layer> {
    Color::ALL
        .iter()
        .flat_map(|&c| Role::ALL.iter().map(move |&r| (c, r)))
        .map(|(c, r)| piece_layer(theme, c, r, s, 0.86))
        .collect()
}

/// Square tiles without the goal's frame: every piece on every kind of square, in the
/// order of [`Assets::tile_index`].
fn square_tiles(
    pieces: &[Layer],
    square_colors: &[[Rgb; 2]; 3],
    pal: &mut Palette,
) -> Vec<Vec<u8>> {
    let s = pieces[0].w;
    let mut tiles = Vec::with_capacity(2 * KINDS * SLOTS);
    for colors in square_colors {
        for &bg in colors {
            let bg_idx = pal.exact(bg);
            tiles.push(vec![bg_idx; s * s]);
            for layer in pieces {
                tiles.push(layer.over(bg, pal));
            }
        }
    }
    tiles
}

/// The goal's frame on a square `s` pixels across: a band of the accent inset from the
/// square's edge, outside the pieces' box, edged in half-transparent ink so that it reads
/// on every square colour (the accent alone is close to some of them).
fn goal_frame(theme: &Theme, s: usize) -> Layer {
    let f = s as f32;
    let inset = f * 0.04;
    let band = (f * 0.075).max(1.2);
    let radius = f * 0.12;
    let mut frame = Mask::new(s, s);
    frame.rounded_box(inset, inset, f - inset, f - inset, radius);
    let mut hole = Mask::new(s, s);
    let k = inset + band;
    hole.rounded_box(k, k, f - k, f - k, (radius - band).max(0.0));
    frame.subtract(&hole);
    let mut layer = Layer::new(s, s);
    layer.paint(&frame.dilated((f * 0.016).max(0.8)), theme.ink, 0.5);
    layer.paint(&frame, theme.accent, 1.0);
    layer
}

/// Square tiles with the goal's frame under the piece, in the order of
/// [`Assets::tile_index`] (they follow the tiles of [`square_tiles`]).
fn goal_tiles(
    theme: &Theme,
    s: usize,
    pieces: &[Layer],
    square_colors: &[[Rgb; 2]; 3],
    pal: &mut Palette,
) -> Vec<Vec<u8>> {
    let frame = goal_frame(theme, s);
    let mut tiles = Vec::with_capacity(KINDS * SLOTS);
    for colors in square_colors {
        for &bg in colors {
            tiles.push(frame.over(bg, pal));
            for piece in pieces {
                let mut layer = frame.clone();
                layer.paint_layer(piece);
                tiles.push(layer.over(bg, pal));
            }
        }
    }
    tiles
}

/// The marks of Three-check's checks, prepared over the frame: a check given is a disc
/// in the dark check colour with a white plus; one not given yet an empty ring.
fn check_marks(theme: &Theme, layout: &Layout, ink: Ink, pal: &mut Palette) -> [Sprite; 2] {
    let d = layout.px(0.34);
    let f = d as f32;
    let (c, r) = (f / 2.0, f / 2.0 - 0.5);
    let line = (f / 11.0).max(1.0);
    let mut given = Layer::new(d, d);
    let mut m = Mask::new(d, d);
    m.circle(c, c, r);
    given.paint(&m, theme.dark_check, 1.0);
    let mut plus = Mask::new(d, d);
    let (a, b) = (f * 0.27, f * 0.73);
    plus.line(a, c, b, c, line * 1.7);
    plus.line(c, a, c, b, line * 1.7);
    given.paint(&plus, theme.piece_white, 1.0);
    let mut open = Layer::new(d, d);
    let mut m = Mask::new(d, d);
    m.ring(c, c, r, line);
    open.paint(&m, theme.text_dim, 1.0);
    let marks = [given.to_sprite(pal), open.to_sprite(pal)];
    for sprite in &marks {
        sprite.prepare_over(ink.frame, pal);
    }
    marks
}

/// The sprites beside the board (see the fields of [`Assets`] of the same names): on
/// trays, so that both colours read on the frame.
struct BesideBoard {
    icons: [Vec<u8>; 2],
    icon_px: usize,
    reserve: Vec<Vec<u8>>,
    reserve_locked: Vec<Vec<u8>>,
    reserve_px: usize,
    slot_step: usize,
    tray_pad: usize,
    trays: Vec<Sprite>,
    count_badge: Sprite,
    padlock: Sprite,
    token_live: Sprite,
    token_spent: Sprite,
    turn_dot: Sprite,
}

impl BesideBoard {
    /// Draws the sprites beside the board and prepares them over the frame or a tray.
    fn new(theme: &Theme, layout: &Layout, ink: Ink, pal: &mut Palette) -> BesideBoard {
        let tray_pad = layout.px(0.07);
        let tray_radius = layout.px(0.12) as f32;
        let icon_px = layout.px(0.66);
        let icons = [Color::White, Color::Black].map(|c| {
            let mut layer = Layer::new(icon_px, icon_px);
            let mut m = Mask::new(icon_px, icon_px);
            let f = icon_px as f32;
            m.rounded_box(0.0, 0.0, f, f, tray_radius);
            layer.paint(&m, theme.tray, 1.0);
            layer.paint_layer(&piece_layer(theme, c, Role::King, icon_px, 0.84));
            layer.over(theme.frame, pal)
        });
        let reserve_px = layout.px(0.64);
        let mut reserve = Vec::new();
        let mut reserve_locked = Vec::new();
        for c in Color::ALL {
            for r in Role::ALL {
                let mut layer = piece_layer(theme, c, r, reserve_px, 0.9);
                reserve.push(layer.over(theme.tray, pal));
                layer.fade(0.35);
                reserve_locked.push(layer.over(theme.tray, pal));
            }
        }
        let slot_step = reserve_px + layout.px(0.08);
        let trays = (1..=6)
            .map(|n| {
                let w = 2 * tray_pad + reserve_px + (n - 1) * slot_step;
                let h = 2 * tray_pad + reserve_px;
                let mut m = Mask::new(w, h);
                m.rounded_box(0.0, 0.0, w as f32, h as f32, tray_radius);
                Sprite::from_mask(&m, ink.tray)
            })
            .collect();
        let count_badge = count_badge_sprite(theme, layout.px(0.3), pal);
        let padlock = padlock_sprite(theme, layout.px(0.34), pal);
        let token_d = layout.px(0.34);
        let token_live = token_sprite(theme, token_d, false, pal);
        let token_spent = token_sprite(theme, token_d, true, pal);
        let dot = layout.px(0.2);
        let mut m = Mask::new(dot, dot);
        m.circle(dot as f32 / 2.0, dot as f32 / 2.0, dot as f32 / 2.0 - 0.5);
        let turn_dot = Sprite::from_mask(&m, ink.accent);
        for sprite in [&token_live, &token_spent, &turn_dot] {
            sprite.prepare_over(ink.frame, pal);
        }
        for sprite in [&padlock, &count_badge] {
            sprite.prepare_over(ink.tray, pal);
        }
        BesideBoard {
            icons,
            icon_px,
            reserve,
            reserve_locked,
            reserve_px,
            slot_step,
            tray_pad,
            trays,
            count_badge,
            padlock,
            token_live,
            token_spent,
            turn_dot,
        }
    }
}

/// The sprites drawn on squares (see the fields of [`Assets`] of the same names).
struct OnSquares {
    disc_big: [Sprite; 2],
    disc_small: [Sprite; 2],
    coin: Sprite,
    letter_badge: Sprite,
}

impl OnSquares {
    /// Draws the sprites for squares `s` pixels across and prepares them over every
    /// square colour in `square_idx`.
    fn new(theme: &Theme, s: usize, square_idx: &[u8], pal: &mut Palette) -> OnSquares {
        let big = (s as f32 * 0.8).round() as usize;
        let small = (s as f32 * 0.36).round() as usize;
        let disc_big = [Color::White, Color::Black].map(|c| disc_sprite(theme, big, c, pal));
        let disc_small = [Color::White, Color::Black].map(|c| disc_sprite(theme, small, c, pal));
        let coin = coin_sprite(theme, (s as f32 * 0.34).round() as usize, pal);
        let letter_badge = letter_badge_sprite(theme, (s as f32 * 0.32).round() as usize, pal);
        for &bg in square_idx {
            for sprite in [
                &disc_big[0],
                &disc_big[1],
                &disc_small[0],
                &disc_small[1],
                &coin,
                &letter_badge,
            ] {
                sprite.prepare_over(bg, pal);
            }
        }
        OnSquares {
            disc_big,
            disc_small,
            coin,
            letter_badge,
        }
    }
}

/// A blank card face, prepared over the frame; the card's own glyph is drawn on it.
fn card_face(layout: &Layout, ink: Ink, pal: &mut Palette) -> Sprite {
    let card_h = layout.card_h - layout.px(0.5);
    let card_w = (card_h as f32 * 0.72).round() as usize;
    let mut m = Mask::new(card_w, card_h);
    m.rounded_box(0.0, 0.0, card_w as f32, card_h as f32, card_w as f32 * 0.1);
    let card_face = Sprite::from_mask(&m, ink.white);
    card_face.prepare_over(ink.frame, pal);
    card_face
}

/// The fixed part of the image with `bottom` at the bottom: the frame, the plain
/// squares and the coordinates.
fn base_canvas(
    layout: &Layout,
    tiles: &[Vec<u8>],
    glyphs: &GlyphCache,
    pal: &Palette,
    ink: Ink,
    bottom: Color,
) -> Canvas {
    let s = layout.s;
    let mut c = Canvas::new(layout.width, layout.fixed_h, ink.frame);
    for rank in 0..layout.ranks {
        for file in 0..layout.files {
            let sq = Square::new(file, rank);
            let (x, y) = layout.square_origin(sq, bottom);
            let dark = sq.is_dark() as usize;
            c.blit(x as i32, y as i32, s, s, &tiles[dark * SLOTS]);
        }
    }
    draw_coordinates(&mut c, layout, glyphs, pal, ink, bottom);
    c
}

/// The disc a reserve count is written on, `d` pixels across.
fn count_badge_sprite(theme: &Theme, d: usize, pal: &mut Palette) -> Sprite {
    let mut layer = Layer::new(d, d);
    let mut m = Mask::new(d, d);
    let c = d as f32 / 2.0;
    m.circle(c, c, c - 0.5);
    layer.paint(&m, theme.tray, 1.0);
    let mut m = Mask::new(d, d);
    m.circle(c, c, c - 0.5 - (d as f32 / 14.0).max(1.0));
    layer.paint(&m, theme.piece_black, 1.0);
    layer.to_sprite(pal)
}

/// A coin, `d` pixels across: a ringed disc in the marker's colour.
fn coin_sprite(theme: &Theme, d: usize, pal: &mut Palette) -> Sprite {
    let mut coin_layer = Layer::new(d, d);
    let (cr, cc) = (d as f32 / 2.0 - 0.5, d as f32 / 2.0);
    let mut m = Mask::new(d, d);
    m.circle(cc, cc, cr);
    coin_layer.paint(&m, theme.ink, 1.0);
    let mut m = Mask::new(d, d);
    m.circle(cc, cc, cr - (d as f32 / 14.0).max(1.0));
    coin_layer.paint(&m, theme.marker, 1.0);
    let mut m = Mask::new(d, d);
    m.ring(cc, cc, cr * 0.62, (d as f32 / 18.0).max(1.0));
    coin_layer.paint(&m, theme.ink, 0.6);
    coin_layer.to_sprite(pal)
}

/// The rounded box a small letter is written on, `badge` pixels across.
fn letter_badge_sprite(theme: &Theme, badge: usize, pal: &mut Palette) -> Sprite {
    let mut m = Mask::new(badge, badge);
    let b = badge as f32;
    m.rounded_box(0.0, 0.0, b, b, b * 0.22);
    let mut badge_layer = Layer::new(badge, badge);
    badge_layer.paint(&m, theme.ink, 1.0);
    let mut m = Mask::new(badge, badge);
    let t = (b / 16.0).max(1.0);
    m.rounded_box(t, t, b - t, b - t, b * 0.22 - t);
    badge_layer.paint(&m, theme.piece_white, 1.0);
    badge_layer.to_sprite(pal)
}

/// File letters below the board and rank digits on its left, in the orientation's order.
fn draw_coordinates(
    c: &mut Canvas,
    l: &Layout,
    glyphs: &GlyphCache,
    pal: &Palette,
    ink: Ink,
    bottom: Color,
) {
    let em = 0.3 * l.u;
    let cap = cap_height(em).round() as i32;
    for file in 0..l.files {
        let sq = Square::new(file, 0);
        let (x, _) = l.square_origin(sq, bottom);
        let line = glyphs.line(em, &sq.file_char().to_string());
        let base = (l.board_y + l.board_h()) as i32 + l.px(0.1) as i32 + cap;
        c.text(
            x as i32 + (l.s as i32 - line.width) / 2,
            base,
            &line,
            ink.label,
            pal,
        );
    }
    for rank in 0..l.ranks {
        let sq = Square::new(0, rank);
        let (_, y) = l.square_origin(sq, bottom);
        let line = glyphs.line(em, &sq.rank_char().to_string());
        let base = y as i32 + (l.s as i32 + cap) / 2;
        c.text(
            (l.board_x as i32 - line.width) / 2,
            base,
            &line,
            ink.label,
            pal,
        );
    }
}

/// A double-move token: a gold-green coin, or an empty ring crossed out once spent.
fn token_sprite(theme: &Theme, d: usize, spent: bool, pal: &mut Palette) -> Sprite {
    let c = d as f32 / 2.0;
    let r = c - 0.5;
    let line = (d as f32 / 11.0).max(1.0);
    let mut layer = Layer::new(d, d);
    if spent {
        let mut m = Mask::new(d, d);
        m.ring(c, c, r, line);
        layer.paint(&m, theme.text_dim, 1.0);
        let mut m = Mask::new(d, d);
        let k = d as f32 * 0.2;
        m.line(k, k, d as f32 - k, d as f32 - k, line * 1.6);
        m.line(k, d as f32 - k, d as f32 - k, k, line * 1.6);
        layer.paint(&m, theme.lock, 1.0);
    } else {
        let mut m = Mask::new(d, d);
        m.circle(c, c, r);
        layer.paint(&m, theme.accent, 1.0);
        let mut m = Mask::new(d, d);
        m.ring(c, c, r * 0.6, line);
        layer.paint(&m, theme.frame, 0.55);
    }
    layer.to_sprite(pal)
}

/// A padlock, drawn over the corner of a locked reserve piece.
fn padlock_sprite(theme: &Theme, d: usize, pal: &mut Palette) -> Sprite {
    let f = d as f32;
    let line = (f / 9.0).max(1.2);
    let mut layer = Layer::new(d, d);
    // A dark halo first, so the lock stands out against the piece below it.
    let mut body = Mask::new(d, d);
    body.rounded_box(f * 0.12, f * 0.44, f * 0.88, f * 0.98, f * 0.1);
    let mut shackle = Mask::new(d, d);
    shackle.ring(f * 0.5, f * 0.42, f * 0.26, line);
    shackle.clear_below((f * 0.42).floor());
    shackle.line(
        f * 0.24 + line / 2.0,
        f * 0.42,
        f * 0.24 + line / 2.0,
        f * 0.5,
        line,
    );
    shackle.line(
        f * 0.76 - line / 2.0,
        f * 0.42,
        f * 0.76 - line / 2.0,
        f * 0.5,
        line,
    );
    let mut all = body.clone();
    all.union(&shackle);
    layer.paint(&all.dilated(1.0), theme.tray, 1.0);
    layer.paint(&body, theme.lock, 1.0);
    layer.paint(&shackle, theme.lock, 1.0);
    let mut hole = Mask::new(d, d);
    hole.circle(f * 0.5, f * 0.68, f * 0.08);
    layer.paint(&hole, theme.tray, 1.0);
    layer.to_sprite(pal)
}

/// A checker: a disc of the side's colour with a contrasting rim and an inner ridge.
fn disc_sprite(theme: &Theme, d: usize, color: Color, pal: &mut Palette) -> Sprite {
    let c = d as f32 / 2.0;
    let r = c - 0.5;
    let (fill, rim) = match color {
        Color::White => (theme.piece_white, theme.ink),
        Color::Black => (theme.piece_black, theme.piece_white),
    };
    let edge = (d as f32 / 16.0).max(1.0);
    let mut layer = Layer::new(d, d);
    let mut m = Mask::new(d, d);
    m.circle(c, c, r);
    layer.paint(&m, theme.ink, 1.0);
    let mut m = Mask::new(d, d);
    m.circle(c, c, r - edge);
    layer.paint(&m, fill, 1.0);
    let mut m = Mask::new(d, d);
    m.ring(c, c, r * 0.78, edge * 0.8);
    layer.paint(&m, rim, 0.7);
    layer.to_sprite(pal)
}
