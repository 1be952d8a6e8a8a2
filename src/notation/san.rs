//! Standard algebraic notation (SAN) output: `e4`, `Nbd7`, `exd6`, `e8=Q`, `O-O`, `N@d1`,
//! with `+` for a move that attacks the opponent's king and `#` for checkmate.
//!
//! [`figurine`] writes the same text with chess symbols in place of the piece letters.

use crate::rules::{CastlingSide, EndValue, KingRule, Move, MoveKind, Position, Role};

/// How piece names are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Glyphs {
    /// English letters: `K Q R B N P`.
    Letters,
    /// White chess symbols: `♔ ♕ ♖ ♗ ♘ ♙`.
    Figurines,
}

/// The symbol for a piece in the chosen style.
fn piece_symbol(role: Role, glyphs: Glyphs) -> char {
    match glyphs {
        Glyphs::Letters => role.upper_char(),
        Glyphs::Figurines => match role {
            Role::King => '♔',
            Role::Queen => '♕',
            Role::Rook => '♖',
            Role::Bishop => '♗',
            Role::Knight => '♘',
            Role::Pawn => '♙',
        },
    }
}

/// The SAN of `m` in `pos`, check or mate suffix included.
///
/// Disambiguation is minimal: the origin file if it tells the pieces apart, otherwise the
/// origin rank, otherwise both. In king-capture variants (Chess#) a move that leaves the
/// opponent's king attacked gets `+` and no move ever gets `#`, since there is no mate.
/// A move that is not legal in `pos` is still written (without a suffix) and never panics.
pub fn san(pos: &Position, m: Move) -> String {
    crate::rules::work::count(crate::rules::work::Work::San);
    write(pos, m, Glyphs::Letters)
}

/// Like [`san`], with the white figurines `♔ ♕ ♖ ♗ ♘` in place of the piece letters
/// (whichever side moves): `♘f3`, `e8=♕`, `♘@d1`.
pub fn figurine(pos: &Position, m: Move) -> String {
    write(pos, m, Glyphs::Figurines)
}

/// The SAN of `m` among `candidates`, the moves of a variant whose rules the engine's
/// generator does not make (Gravity Chess): the candidates decide the disambiguation, and
/// no check suffix is written. [`read_among`](super::parse::read_among) reads it back as
/// `m` when `m` is one of the candidates.
pub fn san_among(m: Move, candidates: &[Move]) -> String {
    let mut out = String::with_capacity(8);
    write_body(m, candidates, Glyphs::Letters, &mut out);
    out
}

/// [`san`], given `legal`, the legal moves of `pos` (listed once by a caller that needs
/// them again).
pub fn san_among_legal(pos: &Position, m: Move, legal: &[Move]) -> String {
    crate::rules::work::count(crate::rules::work::Work::San);
    write_with(pos, m, legal, Glyphs::Letters)
}

fn write(pos: &Position, m: Move, glyphs: Glyphs) -> String {
    write_with(pos, m, &pos.legal_moves(), glyphs)
}

fn write_with(pos: &Position, m: Move, legal: &[Move], glyphs: Glyphs) -> String {
    let mut out = String::with_capacity(8);
    write_body(m, legal, glyphs, &mut out);
    if legal.contains(&m) {
        out.push_str(check_suffix(pos, m));
    }
    out
}

/// The SAN of `m` without the check suffix, given the legal moves of its position
/// (they decide the disambiguation). Appends to `out`.
pub(crate) fn write_body(m: Move, legal: &[Move], glyphs: Glyphs, out: &mut String) {
    match m.kind {
        MoveKind::Castle(CastlingSide::KingSide) => out.push_str("O-O"),
        MoveKind::Castle(CastlingSide::QueenSide) => out.push_str("O-O-O"),
        MoveKind::Drop => {
            out.push(piece_symbol(m.role, glyphs));
            out.push('@');
            push_square(out, m);
        }
        MoveKind::Normal | MoveKind::EnPassant | MoveKind::CaptureTwiceMoved => {
            if m.role == Role::Pawn {
                if m.capture.is_some() || m.kind == MoveKind::EnPassant {
                    out.push(m.from.file_char());
                    out.push('x');
                }
            } else {
                out.push(piece_symbol(m.role, glyphs));
                push_disambiguation(out, m, legal);
                if m.capture.is_some() {
                    out.push('x');
                }
            }
            push_square(out, m);
            if let Some(p) = m.promotion {
                out.push('=');
                out.push(piece_symbol(p, glyphs));
            }
        }
    }
}

fn push_square(out: &mut String, m: Move) {
    out.push(m.to.file_char());
    out.push(m.to.rank_char());
}

/// Adds the origin file, rank or square when another piece of the same kind can also
/// reach the destination.
fn push_disambiguation(out: &mut String, m: Move, legal: &[Move]) {
    if m.role == Role::King {
        return;
    }
    let mut rivals = legal.iter().filter(|o| {
        o.role == m.role
            && o.to == m.to
            && o.from != m.from
            && matches!(
                o.kind,
                MoveKind::Normal | MoveKind::EnPassant | MoveKind::CaptureTwiceMoved
            )
            // Beside rule 5's capture the same piece may have a plain move to the same
            // square; the `x` tells them apart, so each is disambiguated among its kind.
            && (o.kind == MoveKind::CaptureTwiceMoved) == (m.kind == MoveKind::CaptureTwiceMoved)
    });
    let Some(first) = rivals.next() else {
        return;
    };
    let (mut file_shared, mut rank_shared) = (false, false);
    for o in std::iter::once(first).chain(rivals) {
        file_shared |= o.from.file() == m.from.file();
        rank_shared |= o.from.rank() == m.from.rank();
    }
    if !file_shared {
        out.push(m.from.file_char());
    } else if !rank_shared {
        out.push(m.from.rank_char());
    } else {
        out.push(m.from.file_char());
        out.push(m.from.rank_char());
    }
}

/// `+`, `#` or nothing, for a move that must be legal in `pos`: nothing in a variant
/// without check (won by taking the king, where an attacked king is no check). `#` also
/// marks a move that wins by the variant's own goal, as Lichess and python-chess write
/// it: a king in the goal region (King of the Hill's `Ke4#`, Racing Kings' `Kh8#` once
/// Black cannot reply in kind), the last check counted (Three-check), the horde's last
/// piece taken (Horde's `Kxb3#`), no move left where a game is won by losing, a king
/// exploded.
fn check_suffix(pos: &Position, m: Move) -> &'static str {
    let cfg = pos.config();
    if wins_by_goal(pos, m) {
        return "#";
    }
    if cfg.king_rule == KingRule::Ordinary {
        return if pos.after(m).legal_moves().is_empty() {
            "#"
        } else {
            ""
        };
    }
    if cfg.captures_explode && m.capture.is_some() && pos.after(m).king_captured().is_some() {
        return "#";
    }
    if !cfg.check_marks || cfg.king_rule != KingRule::Checkmate {
        return "";
    }
    let after = pos.after(m);
    if !after.is_check() {
        ""
    } else if after.legal_moves().is_empty() {
        "#"
    } else {
        "+"
    }
}

/// Whether `m` wins at once by a goal of the variant other than checkmate: a king in
/// the goal region, the check limit reached, the kingless side's last piece taken.
fn wins_by_goal(pos: &Position, m: Move) -> bool {
    let cfg = pos.config();
    let endings = cfg.endings;
    if endings.goal.is_none() && endings.check_limit.is_none() && endings.extinction.is_none() {
        return false;
    }
    let after = pos.after(m);
    after.goal_reached().is_some()
        || after.check_limit_reached().is_some()
        || after
            .extinct()
            .is_some_and(|(side, value)| side != pos.turn() && value == EndValue::Loss)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;
    use crate::rules::{Square, Variant};

    fn pos(v: Variant, fen: &str) -> Position {
        parse_fen(v, fen).unwrap()
    }

    fn find(p: &Position, uci: &str) -> Move {
        p.legal_moves()
            .into_iter()
            .find(|m| m.uci() == uci)
            .unwrap_or_else(|| panic!("{uci} is not legal"))
    }

    fn san_of(p: &Position, uci: &str) -> String {
        san(p, find(p, uci))
    }

    #[test]
    fn chesswords_a_game_without_check_prints_no_check_marks() {
        let fen = "k5/6/6/6/6/1R3K w - - 0 1";
        assert_eq!(san_of(&pos(Variant::LOS_ALAMOS, fen), "b1a1"), "Ra1+");
        assert_eq!(san_of(&pos(Variant::CHESSWORDS, fen), "b1a1"), "Ra1");
    }

    #[test]
    fn pawn_pushes_and_piece_moves() {
        let p = Position::start(Variant::STANDARD);
        assert_eq!(san_of(&p, "e2e4"), "e4");
        assert_eq!(san_of(&p, "e2e3"), "e3");
        assert_eq!(san_of(&p, "g1f3"), "Nf3");
    }

    #[test]
    fn captures_and_en_passant() {
        let p = pos(
            Variant::STANDARD,
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        );
        assert_eq!(san_of(&p, "e5f6"), "exf6");
        let p = pos(
            Variant::STANDARD,
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        );
        assert_eq!(san_of(&p, "e4d5"), "exd5");
        let p = pos(
            Variant::STANDARD,
            "rnbqkb1r/pppppppp/8/8/4n3/2N5/PPPPPPPP/R1BQKBNR w KQkq - 0 1",
        );
        assert_eq!(san_of(&p, "c3e4"), "Nxe4");
    }

    #[test]
    fn disambiguation_by_file_then_rank_then_both() {
        // Knights on b1 and f3 both reach d2: the file tells them apart.
        let p = pos(Variant::STANDARD, "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert_eq!(san_of(&p, "b1d2"), "Nbd2");
        assert_eq!(san_of(&p, "f3d2"), "Nfd2");
        // Rooks on a1 and a5: same file, so the rank tells them apart.
        let p = pos(Variant::STANDARD, "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert_eq!(san_of(&p, "a1a3"), "R1a3");
        assert_eq!(san_of(&p, "a5a3"), "R5a3");
        // Queens on h4, e4 and h1 all reach e1: h4 shares a file with h1 and a rank
        // with e4, so it needs both.
        let p = pos(Variant::STANDARD, "8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1");
        assert_eq!(san_of(&p, "h4e1"), "Qh4e1");
        assert_eq!(san_of(&p, "e4e1"), "Qee1");
        assert_eq!(san_of(&p, "h1e1"), "Q1e1");
    }

    #[test]
    fn promotions_and_castling() {
        let p = pos(Variant::STANDARD, "1n2k3/P7/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(san_of(&p, "a7a8q"), "a8=Q");
        assert_eq!(san_of(&p, "a7b8n"), "axb8=N");
        assert_eq!(san_of(&p, "e1g1"), "O-O");
        assert_eq!(san_of(&p, "e1c1"), "O-O-O");
        assert_eq!(figurine(&p, find(&p, "a7b8q")), "axb8=♕+");
    }

    #[test]
    fn check_and_mate_suffixes() {
        let p = pos(
            Variant::STANDARD,
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        );
        assert_eq!(san_of(&p, "d8h4"), "Qh4#");
        let p = pos(Variant::STANDARD, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert_eq!(san_of(&p, "a1a8"), "Ra8+");
        assert_eq!(san_of(&p, "a1a7"), "Ra7");
    }

    #[test]
    fn chess_sharp_has_no_check_so_its_moves_carry_no_check_marks() {
        // The black king alone on h8: Qg7 attacks it (mate in FIDE chess), yet Chess#
        // knows no check; its game is won by taking the king.
        let p = pos(Variant::CHESS_SHARP, "7k/8/5K2/8/8/8/6Q1/8[] w - - 0 1");
        assert_eq!(san_of(&p, "g2g7"), "Qg7");
        let p = pos(Variant::CHESS_SHARP, "7k/6Q1/5K2/8/8/8/8/8[] w - - 0 1");
        assert_eq!(san_of(&p, "g7h8"), "Qxh8");
        // The same attack in standard chess is mate.
        let p = pos(Variant::STANDARD, "7k/8/5K2/8/8/8/6Q1/8 w - - 0 1");
        assert_eq!(san_of(&p, "g2g7"), "Qg7#");
    }

    #[test]
    fn drops_use_the_at_sign() {
        let p = Position::start(Variant::CHESS_SHARP);
        assert_eq!(san_of(&p, "N@d1"), "N@d1");
        assert_eq!(san_of(&p, "K@e1"), "K@e1");
        assert_eq!(figurine(&p, find(&p, "N@d1")), "♘@d1");
    }

    #[test]
    fn figurines_replace_piece_letters() {
        let p = Position::start(Variant::STANDARD);
        assert_eq!(figurine(&p, find(&p, "g1f3")), "♘f3");
        assert_eq!(figurine(&p, find(&p, "e2e4")), "e4");
    }

    #[test]
    fn illegal_moves_are_written_without_panicking() {
        let p = Position::start(Variant::CHESS_SHARP);
        let bogus = Move {
            from: Square::new(4, 0),
            to: Square::new(4, 0),
            role: Role::Pawn,
            capture: None,
            promotion: None,
            kind: MoveKind::Drop,
        };
        assert_eq!(san(&p, bogus), "P@e1");
        let castle = Move {
            from: Square::new(4, 0),
            to: Square::new(6, 0),
            role: Role::King,
            capture: None,
            promotion: None,
            kind: MoveKind::Castle(CastlingSide::KingSide),
        };
        assert_eq!(san(&p, castle), "O-O");
    }

    #[test]
    fn los_alamos_promotions_on_the_sixth_rank() {
        let p = pos(Variant::LOS_ALAMOS, "3k2/P5/6/6/6/3K2 w - - 0 1");
        assert_eq!(san_of(&p, "a5a6q"), "a6=Q+");
        assert_eq!(san_of(&p, "a5a6n"), "a6=N");
        assert_eq!(san_of(&p, "a5a6r"), "a6=R+");
    }
}
