//! Composing one image from prepared assets and a view: copy the frame, copy the tiles
//! of the squares that differ from an empty board, then draw the players' rows, the
//! overlays and the status line.

use super::assets::{Assets, SquareBg};
use super::canvas::Canvas;
use super::encode::TileCell;
use super::fonts::{cap_height, Line};
use super::raster::Sprite;
use super::view::{BoardCorner, BoardView, CardRow, Disc, Overlay, ReserveView};
use crate::rules::{Color, Square};

/// A composed image, and which tile each board cell holds with the rows drawn over it
/// (screen order, row by row; `None` where nothing of the tile is left).
pub(crate) struct Composed {
    pub canvas: Canvas,
    pub cells: Vec<Option<TileCell>>,
}

/// A square whose cell had the rows `start..end` (from the cell's top, on screen) drawn
/// over.
type Drawn = (Square, i32, i32);

/// The rows from `from` (a cell's top on screen) that a line of text set on `baseline`
/// covers, joined with `rows`.
fn with_text_rows(rows: (i32, i32), line: &Line, baseline: i32, from: i32) -> (i32, i32) {
    line.glyphs.iter().fold(rows, |(a, b), (g, _)| {
        let top = baseline + g.top - from;
        (a.min(top), b.max(top + g.h as i32))
    })
}

/// Draws `view` with `a`'s assets. The view's board must have `a`'s shape.
pub(crate) fn compose(a: &Assets, view: &BoardView) -> Composed {
    let l = &a.layout;
    let card_rows: Vec<&CardRow> = view
        .overlays
        .iter()
        .filter_map(|o| match o {
            Overlay::Cards(row) => Some(row),
            _ => None,
        })
        .collect();
    let height = l.height(card_rows.len());
    let base = &a.bases[view.bottom.index()];
    let mut px = Vec::with_capacity(base.stride * height);
    // A row at a time: the same bytes moved, but glibc's `memcpy` of the whole 700 KB
    // frame is a `rep movsb`, which callgrind counts a byte at a time (docs/benchmarks.md,
    // "Board images"); a row's copy goes through its vector loop.
    for row in base.px.chunks_exact(base.stride) {
        px.extend_from_slice(row);
    }
    let mut c = Canvas { px, ..*base };
    c.grow(height, a.ink.frame);

    let bg = backgrounds(view);
    let goal = goal_squares(view);
    let mut cells = draw_squares(&mut c, a, view, &bg, &goal);
    // Letters and discs are drawn knowing of each other: a disc on an empty square hides
    // the middle of the square, so its letter is written on the disc.
    let mut letter_on = [None; 64];
    let mut big_disc = [false; 64];
    for overlay in &view.overlays {
        match overlay {
            Overlay::Letters(letters) => {
                for &(sq, ch) in letters.iter().filter(|(sq, _)| view.contains(*sq)) {
                    letter_on[sq.index()] = Some(ch);
                }
            }
            Overlay::Discs(discs) => {
                for d in discs.iter().filter(|d| view.contains(d.square)) {
                    big_disc[d.square.index()] |= view.piece_at(d.square).is_none();
                }
            }
            _ => {}
        }
    }
    let mut mark = |(sq, from, to): Drawn| {
        let (col, row) = l.cell(sq, view.bottom);
        let k = row * l.files as usize + col;
        let (from, to) = (from.max(0) as usize, to.max(0) as usize);
        cells[k] = cells[k].and_then(|t| t.drawn_over(from, to, l.s));
    };
    for overlay in &view.overlays {
        match overlay {
            Overlay::Letters(letters) => draw_letters(&mut c, a, view, letters, &bg, &big_disc)
                .into_iter()
                .for_each(&mut mark),
            Overlay::Discs(discs) => draw_discs(&mut c, a, view, discs, &letter_on)
                .into_iter()
                .for_each(&mut mark),
            Overlay::CornerMarker(corner) => mark(draw_corner(&mut c, a, view, *corner)),
            Overlay::Goal(_)
            | Overlay::Tokens { .. }
            | Overlay::Checks { .. }
            | Overlay::Cards(_) => {}
        }
    }
    let top = view.bottom.opposite();
    draw_player(&mut c, a, view, top, 0);
    draw_player(&mut c, a, view, view.bottom, l.bottom_strip_y);
    for (i, row) in card_rows.iter().enumerate() {
        draw_cards(&mut c, a, row, l.fixed_h + i * l.card_h);
    }
    draw_status(&mut c, a, view, l.status_y(card_rows.len()));
    Composed { canvas: c, cells }
}

/// The background kind of every square: plain, the last move's, or a king in check.
fn backgrounds(view: &BoardView) -> [SquareBg; 64] {
    let mut bg = [SquareBg::Plain; 64];
    if let Some(last) = view.last_move {
        for sq in last.squares() {
            bg[sq.index()] = SquareBg::LastMove;
        }
    }
    if let Some(sq) = view.check {
        bg[sq.index()] = SquareBg::Check;
    }
    bg
}

/// Whether each square is framed as part of a goal region.
fn goal_squares(view: &BoardView) -> [bool; 64] {
    let mut goal = [false; 64];
    for overlay in &view.overlays {
        if let Overlay::Goal(squares) = overlay {
            for &sq in squares.iter().filter(|&&sq| view.contains(sq)) {
                goal[sq.index()] = true;
            }
        }
    }
    goal
}

/// Copies the tiles of the squares that differ from the empty board; returns the tile
/// of every cell.
fn draw_squares(
    c: &mut Canvas,
    a: &Assets,
    view: &BoardView,
    bg: &[SquareBg; 64],
    goal: &[bool; 64],
) -> Vec<Option<TileCell>> {
    let l = &a.layout;
    let mut cells = vec![None; view.width as usize * view.height as usize];
    for rank in 0..view.height {
        for file in 0..view.width {
            let sq = Square::new(file, rank);
            let piece = view.pieces[sq.index()];
            let kind = bg[sq.index()];
            let framed = goal[sq.index()];
            let tile = Assets::tile_index(kind, framed, sq.is_dark(), piece);
            let (col, row) = l.cell(sq, view.bottom);
            cells[row * view.width as usize + col] = Some(TileCell::whole(tile as u16));
            if piece.is_none() && kind == SquareBg::Plain && !framed {
                continue; // already in the frame
            }
            let (x, y) = l.square_origin(sq, view.bottom);
            c.blit(x as i32, y as i32, l.s, l.s, a.tile(tile));
        }
    }
    cells
}

/// Letters on squares: large and faint in the middle of an empty square, so that a board
/// with a letter on every square stays readable; on a badge in the upper left corner of
/// an occupied square. A square under a large disc gets no letter here (the disc shows
/// it). Returns what was drawn where.
fn draw_letters(
    c: &mut Canvas,
    a: &Assets,
    view: &BoardView,
    letters: &[(Square, char)],
    bg: &[SquareBg; 64],
    big_disc: &[bool; 64],
) -> Vec<Drawn> {
    let mut drawn = Vec::new();
    let l = &a.layout;
    let inset = (l.s as f32 * 0.05).round() as i32;
    let b = &a.letter_badge;
    let em = a.sizes.letter;
    let cap = cap_height(em);
    let big_cap = cap_height(a.sizes.letter_big);
    for &(sq, ch) in letters {
        if !view.contains(sq) || big_disc[sq.index()] {
            continue;
        }
        let (x, y) = l.square_origin(sq, view.bottom);
        if view.piece_at(sq).is_none() {
            let kind = Assets::square_kind(bg[sq.index()], sq.is_dark());
            let line = a
                .glyphs
                .line(a.sizes.letter_big, &ch.to_uppercase().to_string());
            let base = y as i32 + ((l.s as f32 + big_cap) / 2.0).round() as i32;
            c.text(
                x as i32 + (l.s as i32 - line.width) / 2,
                base,
                &line,
                a.letter_faint[kind],
                &a.palette,
            );
            drawn.push((sq, 0, l.s as i32));
            continue;
        }
        let (bx, by) = (x as i32 + inset, y as i32 + inset);
        c.sprite(bx, by, b, &a.palette);
        let line = a.glyphs.line(em, &ch.to_uppercase().to_string());
        let base = by + ((b.h as f32 + cap) / 2.0).round() as i32;
        c.text(
            bx + (b.w as i32 - line.width) / 2,
            base,
            &line,
            a.ink.ink,
            &a.palette,
        );
        let (from, to) = with_text_rows((inset, inset + b.h as i32), &line, base, y as i32);
        drawn.push((sq, from, to));
    }
    drawn
}

/// Discs: large on an empty square, small in the lower right corner of an occupied one.
/// A large disc without a label of its own shows the letter of its square, if any.
/// Returns what was drawn where.
fn draw_discs(
    c: &mut Canvas,
    a: &Assets,
    view: &BoardView,
    discs: &[Disc],
    letter_on: &[Option<char>; 64],
) -> Vec<Drawn> {
    let l = &a.layout;
    let mut drawn = Vec::new();
    for disc in discs {
        if !view.contains(disc.square) {
            continue;
        }
        let (x, y) = l.square_origin(disc.square, view.bottom);
        let big = view.piece_at(disc.square).is_none();
        let (sprite, em) = if big {
            (&a.disc_big[disc.color.index()], a.sizes.disc_big)
        } else {
            (&a.disc_small[disc.color.index()], a.sizes.disc_small)
        };
        let (dx, dy) = if big {
            ((l.s - sprite.w) / 2, (l.s - sprite.h) / 2)
        } else {
            let inset = (l.s as f32 * 0.03).round() as usize;
            (l.s - sprite.w - inset, l.s - sprite.h - inset)
        };
        let (sx, sy) = ((x + dx) as i32, (y + dy) as i32);
        c.sprite(sx, sy, sprite, &a.palette);
        let mut rows = (dy as i32, (dy + sprite.h) as i32);
        let letter = letter_on[disc.square.index()]
            .filter(|_| big)
            .map(|ch| ch.to_uppercase().to_string());
        if let Some(label) = disc.label.as_ref().or(letter.as_ref()) {
            let text: String = label.chars().take(3).collect();
            let line = a
                .glyphs
                .fitted_line(em, &text, (sprite.w as f32 * 0.8) as i32);
            let base = sy + ((sprite.h as f32 + cap_height(em)) / 2.0).round() as i32;
            let color = match disc.color {
                Color::White => a.ink.ink,
                Color::Black => a.ink.white,
            };
            c.text(
                sx + (sprite.w as i32 - line.width) / 2,
                base,
                &line,
                color,
                &a.palette,
            );
            rows = with_text_rows(rows, &line, base, y as i32);
        }
        drawn.push((disc.square, rows.0, rows.1));
    }
    drawn
}

/// Draws the corner marker; returns where.
fn draw_corner(c: &mut Canvas, a: &Assets, view: &BoardView, corner: BoardCorner) -> Drawn {
    let l = &a.layout;
    let file = if corner.high_file { view.width - 1 } else { 0 };
    let rank = if corner.high_rank { view.height - 1 } else { 0 };
    let sq = Square::new(file, rank);
    let (col, row) = l.cell(sq, view.bottom);
    let (x, y) = l.square_origin(sq, view.bottom);
    let inset = (l.s as f32 * 0.05).round() as usize;
    let d = a.coin.w;
    let sx = if col == 0 {
        x + inset
    } else {
        x + l.s - d - inset
    };
    let sy = if row == 0 {
        y + inset
    } else {
        y + l.s - d - inset
    };
    c.sprite(sx as i32, sy as i32, &a.coin, &a.palette);
    (sq, (sy - y) as i32, (sy - y + d) as i32)
}

/// One player's row: king icon, name, turn marker; reserve and tokens on the right.
fn draw_player(c: &mut Canvas, a: &Assets, view: &BoardView, side: Color, y: usize) {
    let l = &a.layout;
    let mid = (y + l.strip_h / 2) as i32;
    let left = l.board_x as i32;
    let mut right = (l.board_x + l.board_w().max(l.px(6.0))) as i32;
    let gap = l.px(0.14) as i32;

    // Right side first, so the name knows how much room is left.
    right = draw_player_marks(c, a, view, side, (right, mid));
    if let Some(reserve) = &view.reserves[side.index()] {
        right = draw_reserve(c, a, side, reserve, right, mid) - gap * 2;
    }

    let icon = a.icon_px as i32;
    c.blit(
        left,
        mid - icon / 2,
        a.icon_px,
        a.icon_px,
        &a.icons[side.index()],
    );
    let name_x = left + icon + gap;
    let to_move = view.caption.to_move == Some(side);
    let cap = cap_height(a.sizes.name).round() as i32;
    let base = mid + cap / 2;
    let room = (right - name_x).max(0);
    let full = a.glyphs.line(a.sizes.name, view.caption.name(side));
    let dot = &a.turn_dot;
    let words = a.glyphs.line(a.sizes.small, "to move");
    let dot_w = dot.w as i32 + gap * 2;
    let words_w = words.width + gap;
    // The turn marker is a dot and the words "to move"; the words go first when the name
    // needs the room, then the name is shortened.
    let (name, show_words) = if !to_move {
        (
            a.glyphs
                .fitted_line(a.sizes.name, view.caption.name(side), room),
            false,
        )
    } else if full.width + dot_w + words_w <= room {
        (full, true)
    } else {
        let fitted = a
            .glyphs
            .fitted_line(a.sizes.name, view.caption.name(side), room - dot_w);
        (fitted, false)
    };
    let color = if to_move || view.caption.to_move.is_none() {
        a.ink.text
    } else {
        a.ink.text_dim
    };
    c.text(name_x, base, &name, color, &a.palette);
    if to_move {
        let dot_x = name_x + name.width + gap * 2;
        c.sprite(dot_x, mid - dot.h as i32 / 2, dot, &a.palette);
        if show_words {
            let small_cap = cap_height(a.sizes.small).round() as i32;
            let x = dot_x + dot.w as i32 + gap;
            c.text(x, mid + small_cap / 2, &words, a.ink.accent, &a.palette);
        }
    }
}

/// The rows of marks of `side` (tokens, checks) drawn leftwards from `right` in the row
/// centred on `mid`; returns where the room left of them ends.
fn draw_player_marks(
    c: &mut Canvas,
    a: &Assets,
    view: &BoardView,
    side: Color,
    (mut right, mid): (i32, i32),
) -> i32 {
    let gap = a.layout.px(0.14) as i32;
    for overlay in &view.overlays {
        // Each row of marks: how many, how many of them drawn with the first sprite,
        // and the two sprites.
        let marks = match *overlay {
            Overlay::Tokens {
                side: s,
                used,
                total,
            } if s == side => {
                let total = total.min(MAX_MARKS);
                Some((
                    total,
                    total - used.min(total),
                    &a.token_live,
                    &a.token_spent,
                ))
            }
            Overlay::Checks {
                side: s,
                given,
                limit,
            } if s == side => {
                let limit = limit.min(MAX_MARKS);
                Some((limit, given.min(limit), &a.check_given, &a.check_open))
            }
            _ => None,
        };
        if let Some((n, first, first_sprite, other)) = marks {
            right = draw_marks(c, a, right, mid, n, first, [first_sprite, other]) - gap * 2;
        }
    }
    right
}

/// Marks drawn in a player's row at most (tokens, checks).
const MAX_MARKS: u8 = 8;

/// Draws a row of `n` marks of one size ending at `right`, the first `first` of them with
/// `sprites[0]` and the rest with `sprites[1]` (unspent and spent tokens, checks given and
/// not yet given); returns their left edge.
fn draw_marks(
    c: &mut Canvas,
    a: &Assets,
    right: i32,
    mid: i32,
    n: u8,
    first: u8,
    sprites: [&Sprite; 2],
) -> i32 {
    let n = n as i32;
    if n == 0 {
        return right;
    }
    let d = sprites[0].w as i32;
    let step = d + a.layout.px(0.1) as i32;
    let left = right - (n * step - (step - d));
    for i in 0..n {
        let sprite = sprites[usize::from(i >= first as i32)];
        c.sprite(left + i * step, mid - d / 2, sprite, &a.palette);
    }
    left
}

/// Draws a reserve on a tray ending at `right`: each piece with its count on a badge,
/// locked ones faded with a padlock. Returns the tray's left edge.
fn draw_reserve(
    c: &mut Canvas,
    a: &Assets,
    side: Color,
    reserve: &ReserveView,
    right: i32,
    mid: i32,
) -> i32 {
    let slots: Vec<_> = reserve
        .slots
        .iter()
        .filter(|s| s.count > 0)
        .take(a.trays.len())
        .collect();
    if slots.is_empty() {
        return right;
    }
    let tray = &a.trays[slots.len() - 1];
    let (tx, ty) = (right - tray.w as i32, mid - tray.h as i32 / 2);
    c.sprite(tx, ty, tray, &a.palette);
    let pad = a.tray_pad as i32;
    let badge = &a.count_badge;
    let em = a.sizes.count;
    let cap = cap_height(em);
    for (i, slot) in slots.iter().enumerate() {
        let idx = side.index() * 6 + slot.role.index();
        let tile = if slot.locked {
            &a.reserve_locked[idx]
        } else {
            &a.reserve[idx]
        };
        let x = tx + pad + (i * a.slot_step) as i32;
        let y = ty + pad;
        let rp = a.reserve_px;
        c.blit(x, y, rp, rp, tile);
        let (w, h) = (rp as i32, rp as i32);
        if slot.locked {
            let p = &a.padlock;
            c.sprite(
                x + w - p.w as i32 * 3 / 4,
                y + h - p.h as i32,
                p,
                &a.palette,
            );
        }
        let (bx, by) = (x + w - badge.w as i32 * 3 / 4, ty - badge.h as i32 / 5);
        c.sprite(bx, by, badge, &a.palette);
        let digits = a.glyphs.line(em, &slot.count.to_string());
        let base = by + ((badge.h as f32 + cap) / 2.0).round() as i32;
        let text_x = bx + (badge.w as i32 - digits.width) / 2;
        c.text(text_x, base, &digits, a.ink.white, &a.palette);
    }
    tx
}

fn draw_cards(c: &mut Canvas, a: &Assets, row: &CardRow, y: usize) {
    let l = &a.layout;
    let x0 = l.board_x as i32;
    let right = (l.board_x + l.board_w().max(l.px(6.0))) as i32;
    let em = a.sizes.small;
    let cap = cap_height(em).round() as i32;
    let label_base = y as i32 + l.px(0.12) as i32 + cap;
    let label = a.glyphs.fitted_line(em, &row.label, right - x0);
    c.text(x0, label_base, &label, a.ink.text_dim, &a.palette);
    let face = &a.card_face;
    let top = y as i32 + l.px(0.4) as i32;
    let n = row.cards.len() as i32;
    if n == 0 {
        return;
    }
    let natural = face.w as i32 + l.px(0.1) as i32;
    let step = if n > 1 {
        natural.min((right - x0 - face.w as i32) / (n - 1)).max(1)
    } else {
        natural
    };
    for (i, card) in row.cards.iter().enumerate() {
        let x = x0 + i as i32 * step;
        c.sprite(x, top, face, &a.palette);
        let red = matches!(card, super::view::Card::Face { suit, .. } if suit.is_red());
        if let Some(ch) = card.glyph() {
            c.sprite(x, top, &a.card(ch, red), &a.palette);
        }
    }
}

fn draw_status(c: &mut Canvas, a: &Assets, view: &BoardView, y: usize) {
    let l = &a.layout;
    let cap = cap_height(a.sizes.status).round() as i32;
    let base = (y + l.status_h / 2) as i32 + cap / 2;
    let room = l.width as i32 - 2 * l.board_x as i32;
    match &view.caption.result {
        Some(result) => {
            c.fill(0, y as i32, l.width, l.status_h, a.ink.banner);
            let line = a.glyphs.fitted_line(a.sizes.status, result, room);
            let x = (l.width as i32 - line.width) / 2;
            c.text(x, base, &line, a.ink.banner_text, &a.palette);
        }
        None => {
            c.fill(0, y as i32, l.width, l.status_h, a.ink.status);
            let mut text = format!("Move {}", view.caption.move_number);
            if let (Some(side), Some(phase)) = (view.caption.to_move, &view.caption.phase) {
                text.push_str(&format!(" · {}: {phase}", view.caption.name(side)));
            } else if let Some(side) = view.caption.to_move {
                let name = match side {
                    Color::White => "White",
                    Color::Black => "Black",
                };
                text.push_str(&format!(" · {name} to move"));
                if view.check.is_some() {
                    text.push_str(" · check");
                }
            }
            let line = a.glyphs.line(a.sizes.status, &text);
            if line.width <= room {
                c.text(l.board_x as i32, base, &line, a.ink.status_text, &a.palette);
            } else {
                draw_two_status_lines(c, a, &text, y);
            }
        }
    }
}

/// The status text too long for one line (a long name, a variant's long phase words),
/// set smaller on two lines in the same height, so that the image keeps its size.
fn draw_two_status_lines(c: &mut Canvas, a: &Assets, text: &str, y: usize) {
    let l = &a.layout;
    let em = a.sizes.status * 0.75;
    let room = l.width as i32 - 2 * l.board_x as i32;
    let lines = a.glyphs.wrap(em, text, room, 2);
    let cap = cap_height(em);
    let leading = (em * 1.12).round() as i32;
    let first = (y + l.status_h / 2) as i32 + (cap.round() as i32 - leading) / 2;
    for (i, line) in lines.iter().enumerate() {
        let base = first + i as i32 * leading;
        let line = a.glyphs.line(em, line);
        c.text(l.board_x as i32, base, &line, a.ink.status_text, &a.palette);
    }
}
