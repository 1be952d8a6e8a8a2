//! The sample image a board size's fixed codes are learnt from ([`learn_codes`]): a start
//! position with every kind of square (a last move, a check, a goal region) and a
//! player's row and status line of usual words, so that the codes fit what images of the
//! size hold.

use super::assets::Assets;
use super::compose::{compose, Composed};
use super::encode::{learn, Tiling};
use super::view::{BoardView, LastMove, Overlay, ReserveSlot, ReserveView};
use crate::rules::{Color, Piece, Role, Square};

/// The back rank of the sample, from the a-file (cut to the board's width).
const BACK: [Role; 8] = [
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::Queen,
    Role::King,
    Role::Bishop,
    Role::Knight,
    Role::Rook,
];

/// Learns the fixed codes that `a`'s images are written with, from the sample image.
pub(crate) fn learn_codes(a: &Assets) {
    let l = &a.layout;
    let view = sample_view(l.files, l.ranks);
    let Composed { canvas, cells } = compose(a, &view);
    let tiling = Tiling {
        x: l.board_x,
        y: l.board_y,
        s: l.s,
        cols: l.files as usize,
        rows: l.ranks as usize,
        cells: &cells,
        tiles: &a.tiles,
    };
    learn(&canvas.px, canvas.stride, &tiling);
}

/// A start position on a `files` x `ranks` board, after a move, with a king in check,
/// the middle squares a goal region and letters on a few squares (large on empty ones, on
/// badges beside pieces, as Secret Chesswords draws them) and a reserve in each player's
/// row (as Chess# and Crazyhouse draw them); players named, White to move.
fn sample_view(files: u8, ranks: u8) -> BoardView {
    let mut view = BoardView::empty(files, ranks).with_players("White", "Black");
    let top = ranks.saturating_sub(1);
    for file in 0..files {
        let role = BACK[file as usize % BACK.len()];
        let put = |view: &mut BoardView, rank: u8, color, role| {
            view.pieces[Square::new(file, rank).index()] = Some(Piece { color, role });
        };
        put(&mut view, 0, Color::White, role);
        put(&mut view, top, Color::Black, role);
        if ranks >= 4 {
            put(&mut view, 1, Color::White, Role::Pawn);
            put(&mut view, top - 1, Color::Black, Role::Pawn);
        }
    }
    let (mid_file, mid_rank) = (files / 2, ranks / 2);
    view.last_move = Some(LastMove::Move {
        from: Square::new(mid_file, 1.min(top)),
        to: Square::new(mid_file, mid_rank),
    });
    view.check = Some(Square::new(4.min(files - 1), 0));
    let reserve = ReserveView {
        slots: [
            (Role::Queen, 1, true),
            (Role::Rook, 2, false),
            (Role::Pawn, 3, false),
        ]
        .map(|(role, count, locked)| ReserveSlot {
            role,
            count,
            locked,
        })
        .to_vec(),
    };
    view.reserves = [Some(reserve.clone()), Some(reserve)];
    view.caption.to_move = Some(Color::White);
    view.caption.move_number = 12;
    let goal = [(0, 0), (1, 0), (0, 1), (1, 1)]
        .iter()
        .map(|&(df, dr)| Square::new((mid_file + df).min(files - 1), (mid_rank + dr).min(top)))
        .collect();
    let letters = (0..files)
        .step_by(2)
        .flat_map(|file| [(file, 0), (file, mid_rank.saturating_sub(1))])
        .zip("SAMPLEWORDS".chars().cycle())
        .map(|((file, rank), ch)| (Square::new(file, rank), ch))
        .collect();
    view.with_overlay(Overlay::Goal(goal))
        .with_overlay(Overlay::Letters(letters))
}
