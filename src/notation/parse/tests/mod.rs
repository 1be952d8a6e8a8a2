//! Unit tests of the move reader: one test per accepted form and per refusal reason.

use super::*;
use crate::notation::fen::parse_fen;
use crate::rules::Variant;

const STANDARD: Variant = Variant::Standard;
const SHARP: Variant = Variant::ChessSharp;
const LOS_ALAMOS: Variant = Variant::LosAlamos;

fn pos(v: Variant, fen: &str) -> Position {
    parse_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn start(v: Variant) -> Position {
    Position::start(v)
}

/// The UCI of the move `input` reads as; panics with the error otherwise.
fn uci(p: &Position, input: &str) -> String {
    match parse_move(p, input) {
        Ok(m) => m.uci(),
        Err(e) => panic!("{input:?} was refused: {e}"),
    }
}

fn err(p: &Position, input: &str) -> MoveError {
    match parse_move(p, input) {
        Ok(m) => panic!("{input:?} was read as {}", m.uci()),
        Err(e) => e,
    }
}

/// The reason of an `Illegal` or `NoSuchPiece` refusal.
fn reason(p: &Position, input: &str) -> String {
    match err(p, input) {
        MoveError::Illegal { reason, .. } | MoveError::NoSuchPiece { reason, .. } => reason,
        other => panic!("{input:?}: expected a reason, got {other:?}"),
    }
}

fn assert_all(p: &Position, inputs: &[&str], expected: &str) {
    for input in inputs {
        assert_eq!(uci(p, input), expected, "{input:?}");
    }
}

// --- accepted forms -----------------------------------------------------------------

#[test]
fn san_piece_moves_in_any_case() {
    assert_all(
        &start(STANDARD),
        &["Nf3", "nf3", "NF3", "nF3", "N f3"],
        "g1f3",
    );
}

#[test]
fn san_pawn_pushes() {
    assert_all(&start(STANDARD), &["e4", "E4", "Pe4", "pe4"], "e2e4");
    assert_all(&start(STANDARD), &["e3"], "e2e3");
}

#[test]
fn san_pawn_captures_with_or_without_x() {
    let p = pos(
        STANDARD,
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    );
    assert_all(&p, &["exd5", "ed5", "EXD5", "e:d5", "e×d5"], "e4d5");
}

#[test]
fn san_piece_captures_with_or_without_x() {
    let p = pos(
        STANDARD,
        "rnbqkb1r/pppppppp/8/8/4n3/2N5/PPPPPPPP/R1BQKBNR w KQkq - 0 1",
    );
    assert_all(&p, &["Nxe4", "Ne4", "nxe4", "NXE4"], "c3e4");
}

#[test]
fn en_passant_with_or_without_the_ep_mark() {
    let p = pos(
        STANDARD,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    );
    assert_all(
        &p,
        &[
            "exf6",
            "exf6 e.p.",
            "exf6e.p.",
            "exf6 ep",
            "ef6",
            "e5f6",
            "e5xf6",
        ],
        "e5f6",
    );
}

#[test]
fn san_disambiguated_by_file_rank_or_square() {
    let p = pos(STANDARD, "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_all(&p, &["Nbd2", "nbd2", "N1d2", "Nb1d2"], "b1d2");
    assert_all(&p, &["Nfd2", "N3d2"], "f3d2");
    let p = pos(STANDARD, "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert_all(&p, &["R1a3", "r1a3", "Ra1a3"], "a1a3");
    assert_all(&p, &["R5a3"], "a5a3");
    let p = pos(STANDARD, "8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1");
    assert_all(&p, &["Qh4e1", "Qh4-e1", "qh4e1"], "h4e1");
    assert_all(&p, &["Qee1"], "e4e1");
    assert_all(&p, &["Q1e1"], "h1e1");
}

#[test]
fn san_promotions_in_every_spelling() {
    let p = pos(STANDARD, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_all(
        &p,
        &[
            "a8=Q", "a8Q", "a8=q", "a8q", "A8=Q", "a7a8q", "a7-a8=Q", "a7a8=Q",
        ],
        "a7a8q",
    );
    assert_all(&p, &["a8=N", "a8n", "a7a8n"], "a7a8n");
    assert_all(&p, &["axb8=R", "xb8=R", "ab8r", "AXB8R"], "a7b8r");
    // A lower-case b as the promotion piece is the bishop.
    assert_all(&p, &["axb8=B", "axb8b", "a7b8b"], "a7b8b");
}

#[test]
fn castling_with_letters_or_zeros() {
    let p = pos(STANDARD, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_all(
        &p,
        &[
            "O-O", "0-0", "o-o", "OO", "00", "O-O+", "MOVE 0-0", "move o-o",
        ],
        "e1g1",
    );
    assert_all(
        &p,
        &["O-O-O", "0-0-0", "o-o-o", "OOO", "MOVE 0-0-0"],
        "e1c1",
    );
}

#[test]
fn uci_castling_is_the_kings_move() {
    let p = pos(STANDARD, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_all(&p, &["e1g1", "Ke1g1", "e1-g1", "E1 TO G1"], "e1g1");
    assert_all(&p, &["e1c1"], "e1c1");
    let p = pos(STANDARD, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_all(&p, &["e8g8", "O-O"], "e8g8");
}

#[test]
fn check_and_annotation_marks_are_ignored() {
    assert_all(
        &start(STANDARD),
        &[
            "Nf3+", "Nf3#", "Nf3!", "Nf3?", "Nf3!?", "Nf3?!", "Nf3!!", "Nf3??", "Nf3‼", "Nf3 !",
        ],
        "g1f3",
    );
}

#[test]
fn move_numbers_are_read_and_must_be_the_games() {
    assert_all(&start(STANDARD), &["1. e4", "1.e4", "MOVE 1. e4"], "e2e4");
    let p = start(STANDARD).after(parse_move(&start(STANDARD), "e4").unwrap());
    assert_all(&p, &["1... e5", "1...e5", "1…e5", "1. e5"], "e7e5");
}

/// A move number that is not the game's is refused (issue 15): a wrong number is a sign
/// the player is looking at another game, and `1...` is Black's.
#[test]
fn a_move_number_that_is_not_the_games_is_refused() {
    let p = start(STANDARD);
    for (input, typed) in [("99. e4", "99."), ("1... e4", "1..."), ("2.e4", "2.")] {
        let e = err(&p, input);
        assert!(
            matches!(
                &e,
                MoveError::WrongNumber {
                    now: 1,
                    side: "White",
                    ..
                }
            ),
            "{input}: {e:?}"
        );
        assert!(e.to_string().contains(typed), "{e}");
    }
    let e = err(&p, &format!("{}. e4", "9".repeat(30)));
    assert!(e.to_string().contains("move number given"), "{e}");
    let q = pos(STANDARD, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
    assert_eq!(uci(&q, "40... Kd7"), "e8d7");
    assert!(matches!(
        err(&q, "41... Kd7"),
        MoveError::WrongNumber { now: 40, .. }
    ));
}

#[test]
fn drops_with_at_or_star_in_any_case() {
    let p = start(SHARP);
    assert_all(
        &p,
        &["N@d1", "n@d1", "N*d1", "N@D1", "♘@d1", "n @ d1"],
        "N@d1",
    );
    assert_all(&p, &["K@e1", "k@e1"], "K@e1");
    // b before @ can only be the bishop.
    assert_all(&p, &["b@c1", "B@c1"], "B@c1");
}

#[test]
fn long_algebraic_and_uci() {
    assert_all(
        &start(STANDARD),
        &["e2e4", "e2-e4", "E2E4", "e2 e4", "e2–e4"],
        "e2e4",
    );
    assert_all(
        &start(STANDARD),
        &["g1f3", "Ng1-f3", "Ng1f3", "ng1-f3", "G1F3"],
        "g1f3",
    );
    // b followed by a digit is a square, not a bishop with a rank.
    assert_all(&start(STANDARD), &["b1c3", "B1C3", "b1-c3"], "b1c3");
}

#[test]
fn text_game_move_to_form() {
    assert_all(
        &start(STANDARD),
        &[
            "MOVE E2 TO E4",
            "move e2 to e4",
            "e2 to e4",
            "Move e2 To e4",
            "  MOVE   E2   TO   E4  ",
            "MOVE: e2 to e4",
        ],
        "e2e4",
    );
    assert_all(&start(STANDARD), &["MOVE e4", "move: e4"], "e2e4");
    assert_all(&start(STANDARD), &["move Nf3", "MOVE NF3"], "g1f3");
}

#[test]
fn descriptive_squares_are_relative_to_the_mover() {
    let white = start(STANDARD);
    assert_all(&white, &["MOVE K2 TO K4", "k2 to k4"], "e2e4");
    assert_all(
        &white,
        &["MOVE QN1 TO QB3", "QKT1 TO QB3", "qkt1 to qb3"],
        "b1c3",
    );
    assert_all(&white, &["MOVE KN1 TO KB3", "KKt1 to KB3"], "g1f3");
    let black = white.after(parse_move(&white, "e4").unwrap());
    assert_all(&black, &["MOVE K2 TO K4"], "e7e5");
    assert_all(&black, &["MOVE KN1 TO KB3"], "g8f6");
    assert_all(&black, &["MOVE QN1 TO QB3"], "b8c6");
    // Algebraic and descriptive squares may be mixed.
    assert_all(&black, &["MOVE E7 TO K4"], "e7e5");
}

#[test]
fn descriptive_squares_on_the_los_alamos_board() {
    let white = start(LOS_ALAMOS);
    assert_all(&white, &["MOVE K2 TO K3"], "d2d3");
    assert_all(&white, &["MOVE KN1 TO K3"], "e1d3");
    assert_all(&white, &["MOVE KN1 TO KR3"], "e1f3");
    let black = white.after(parse_move(&white, "d3").unwrap());
    assert_all(&black, &["MOVE K2 TO K3"], "d5d4");
    assert_all(&black, &["MOVE QN1 TO QR3"], "b6a4");
    // Los Alamos has no bishops, so there is no KB file.
    assert_eq!(
        reason(&white, "MOVE KB2 TO KB3"),
        "Los Alamos chess has no KB file; its files are QR, QN, Q, K, KN, KR"
    );
    assert!(matches!(
        err(&white, "MOVE XY2 TO K3"),
        MoveError::Syntax { .. }
    ));
    assert_eq!(
        reason(&white, "MOVE K2 TO K7"),
        "there is no rank 7 on the 6x6 board"
    );
}

#[test]
fn text_form_promotes_to_a_queen_unless_told_otherwise() {
    let p = pos(STANDARD, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_all(
        &p,
        &["MOVE A7 TO A8", "a7 to a8", "MOVE QR7 TO QR8"],
        "a7a8q",
    );
    assert_all(
        &p,
        &["MOVE A7 TO A8=N", "a7 to a8 n", "QR7 TO QR8N"],
        "a7a8n",
    );
}

#[test]
fn iccf_numeric() {
    assert_all(&start(STANDARD), &["5254"], "e2e4");
    assert_all(&start(STANDARD), &["7163"], "g1f3");
    assert_all(&start(LOS_ALAMOS), &["4243"], "d2d3");
}

#[test]
fn iccf_numeric_with_promotion_digit() {
    let p = pos(STANDARD, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_all(&p, &["17181"], "a7a8q");
    assert_all(&p, &["17182"], "a7a8r");
    assert_all(&p, &["17283"], "a7b8b");
    assert_all(&p, &["17184"], "a7a8n");
    assert!(matches!(err(&p, "17185"), MoveError::Syntax { .. }));
}

#[test]
fn iccf_castling_is_the_kings_move() {
    let p = pos(STANDARD, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_all(&p, &["5171"], "e1g1");
    assert_all(&p, &["5131"], "e1c1");
}

#[test]
fn figurine_san_in_both_colours() {
    assert_all(&start(STANDARD), &["♘f3", "♞f3"], "g1f3");
    let p = pos(STANDARD, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_all(&p, &["a8=♕", "a8♛"], "a7a8q");
    let p = pos(STANDARD, "4k3/8/8/8/8/2n5/1P6/4B2K w - - 0 1");
    // The figurine makes the case question moot: ♗ is the bishop.
    assert_all(&p, &["♗xc3", "♗c3"], "e1c3");
}

#[test]
fn bxc3_pawn_versus_bishop_is_resolved_by_legality() {
    // Both the b-pawn and the bishop can take on c3.
    let both = pos(STANDARD, "4k3/8/8/8/8/2n5/1P6/4B2K w - - 0 1");
    // Exact SAN means what it says.
    assert_eq!(uci(&both, "bxc3"), "b2c3");
    assert_eq!(uci(&both, "Bxc3"), "e1c3");
    // Mixed case: upper-case B is the bishop, lower-case b the file.
    assert_eq!(uci(&both, "Bc3"), "e1c3");
    assert_eq!(uci(&both, "bxC3"), "b2c3");
    // The case does not decide: both are listed, and each listed SAN reads back.
    for input in ["BXC3", "bc3", "BC3"] {
        assert_eq!(
            err(&both, input),
            MoveError::Ambiguous {
                candidates: vec!["Bxc3".into(), "bxc3".into()]
            },
            "{input}"
        );
    }
    // Only the bishop can: lower-case is read as the bishop.
    let bishop = pos(STANDARD, "4k3/8/8/8/8/2n5/8/4B2K w - - 0 1");
    assert_all(&bishop, &["bxc3", "BXC3", "bc3", "Bxc3"], "e1c3");
    // Only the pawn can.
    let pawn = pos(STANDARD, "4k3/8/8/8/8/2n5/1P6/7K w - - 0 1");
    assert_all(&pawn, &["bxc3", "BXC3", "bc3", "b2c3"], "b2c3");
}

#[test]
fn uci_tells_a_twice_moved_capture_from_the_plain_move_to_the_stop() {
    // White's knight goes f3-d4-b5 in one turn; Black's rook may take it on its stop d4
    // (b4xd4, Double Move Chess rule 9) or just move there (Rd4): the capture's UCI picks
    // the capture, the bare from-to fits both.
    let p = pos(
        Variant::DoubleMove,
        "4k3/1p3p2/2n5/3P4/1r6/5N2/2P1B3/3RK3 w - - 0 20",
    );
    let first = parse_move(&p, "f3d4").unwrap();
    let second = parse_move(&p.first_half(first), "d4b5").unwrap();
    let after = p.after_turn(crate::rules::Turn::Double(first, second));
    assert_eq!(uci(&after, "b4xd4"), "b4xd4");
    assert_eq!(uci(&after, "Rd4"), "b4d4");
    for input in ["b4d4", "b4-d4"] {
        assert!(
            matches!(err(&after, input), MoveError::Ambiguous { .. }),
            "{input}"
        );
    }
}

#[test]
fn ambiguous_input_lists_the_candidates_in_san() {
    let p = pos(STANDARD, "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let e = err(&p, "Nd2");
    assert_eq!(
        e,
        MoveError::Ambiguous {
            candidates: vec!["Nbd2".into(), "Nfd2".into()]
        }
    );
    assert_eq!(e.to_string(), "ambiguous: Nbd2 or Nfd2?");
}

// --- refusals ---------------------------------------------------------------------

#[test]
fn syntax_errors_explain_the_accepted_forms() {
    let p = start(STANDARD);
    assert_eq!(
        err(&p, "xyz").to_string(),
        "couldn't read 'xyz' as a move; write it like e4, Nf3, exd5, e8=Q, O-O, N@d1 or e2e4"
    );
    for bad in [
        "",
        "   ",
        "move",
        "MOVE",
        "e9",
        "i4",
        "Z@e1",
        "e4x",
        "N@",
        "N@e",
        "@",
        "x",
        "123",
        "123456",
        "5290",
        "e2 to",
        "to e4",
        "TO",
        "e2 to e4 to e5",
        "é4",
        "e4 é",
        "Nf3 \u{200b}",
        "++",
        "!?",
        "NN",
        "Nxx",
        "e2e4e6",
        "O-O-O-O",
        "0",
        "Kt",
        "e.p.",
        "ep",
        "1.",
        "1...",
        "a8=X",
    ] {
        match parse_move(&p, bad) {
            Err(MoveError::Syntax { .. }) => {}
            other => panic!("{bad:?}: {other:?}"),
        }
    }
}

#[test]
fn overlong_input_is_refused_before_reading() {
    let p = start(STANDARD);
    let long = "e".repeat(65);
    assert_eq!(err(&p, &long), MoveError::TooLong);
    assert_eq!(err(&p, &"♘".repeat(65)), MoveError::TooLong);
    assert_eq!(err(&p, &"x".repeat(1 << 20)), MoveError::TooLong);
    assert_eq!(
        err(&p, &long).to_string(),
        "that is too long to be a move (a move is at most 64 characters)"
    );
    // Control characters are not echoed back.
    assert_eq!(
        err(&p, "e\u{7}4\n"),
        MoveError::Syntax {
            input: "e 4".into()
        }
    );
    // Exactly the limit is still read.
    let padded = format!("e4{}", " ".repeat(62));
    assert_eq!(uci(&p, &padded), "e2e4");
}

#[test]
fn no_piece_that_can_reach_the_square() {
    let p = start(STANDARD);
    let e = err(&p, "Nf5");
    assert!(matches!(e, MoveError::NoSuchPiece { .. }));
    assert_eq!(
        e.to_string(),
        "you have no knight that can reach f5; did you mean Nf3, Nh3, Nc3 or Na3?"
    );
    assert_eq!(reason(&p, "Bb5"), "you have no bishop that can reach b5");
    let bare = pos(STANDARD, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(reason(&bare, "Qd4"), "you have no queen");
    assert_eq!(reason(&bare, "Nbd2"), "you have no knight on the b-file");
    assert_eq!(reason(&bare, "d4"), "you have no pawn");
}

#[test]
fn no_piece_of_yours_on_the_origin_square() {
    let p = start(STANDARD);
    assert!(matches!(err(&p, "e3e4"), MoveError::NoSuchPiece { .. }));
    assert_eq!(reason(&p, "e3e4"), "there is no piece of yours on e3");
    assert_eq!(reason(&p, "e7e5"), "there is no piece of yours on e7");
    assert_eq!(
        reason(&p, "MOVE K3 TO K4"),
        "there is no piece of yours on e3"
    );
    assert_eq!(
        reason(&p, "Bg1f3"),
        "your piece on g1 is a knight, not a bishop"
    );
    assert_eq!(reason(&p, "g1g3"), "your knight on g1 cannot move to g3");
}

#[test]
fn moves_that_leave_the_king_in_check() {
    // The knight on e2 is pinned by the rook on e7.
    let p = pos(STANDARD, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    let e = err(&p, "Nc3");
    assert_eq!(
        e,
        MoveError::Illegal {
            reason: "it would leave your king in check".into(),
            suggestions: vec![],
        }
    );
    assert_eq!(
        e.to_string(),
        "illegal move: it would leave your king in check"
    );
    // The king may not step onto an attacked square either.
    let p = pos(STANDARD, "4k3/8/8/8/8/8/8/3rK3 w - - 0 1");
    assert_eq!(reason(&p, "Kd2"), "it would leave your king in check");
}

#[test]
fn moves_that_ignore_a_check() {
    let p = pos(STANDARD, "4k3/8/8/8/4r3/8/8/R3K3 w - - 0 1");
    // Nothing close to the input is legal, so the suggestions are the ways out of check.
    assert_eq!(
        err(&p, "Ra5").to_string(),
        "illegal move: your king is in check; did you mean Kd1, Kf1, Kd2 or Kf2?"
    );
    assert_eq!(reason(&p, "Ra5"), "your king is in check");
    assert_eq!(reason(&p, "Ra8"), "your king is in check");
}

#[test]
fn castling_refusals_say_why() {
    let moved = pos(STANDARD, "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert_eq!(
        reason(&moved, "O-O"),
        "castling is not allowed here: your king or that rook has moved"
    );
    assert_eq!(
        reason(&start(STANDARD), "O-O"),
        "castling is not allowed here: the squares between your king and rook are not empty"
    );
    assert_eq!(
        reason(&start(STANDARD), "e1c1"),
        "castling is not allowed here: the squares between your king and rook are not empty"
    );
    let check = pos(STANDARD, "4k3/8/8/8/4r3/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        reason(&check, "O-O"),
        "castling is not allowed here: your king is in check"
    );
    let attacked = pos(STANDARD, "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    assert_eq!(
        reason(&attacked, "0-0"),
        "castling is not allowed here: your king would pass through or land on an attacked square"
    );
    assert_eq!(
        reason(&attacked, "5171"),
        "castling is not allowed here: your king would pass through or land on an attacked square"
    );
    // Queen side is still fine there.
    assert_eq!(uci(&attacked, "O-O-O"), "e1c1");
}

#[test]
fn there_is_no_castling_in_the_other_variants() {
    assert_eq!(
        reason(&start(LOS_ALAMOS), "O-O"),
        "there is no castling in Los Alamos chess"
    );
    let sharp = pos(
        SHARP,
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[QBBNNqrrbbnn] w - - 0 2",
    );
    assert_eq!(reason(&sharp, "O-O"), "there is no castling in Chess#");
}

#[test]
fn pawns_move_one_square_only_without_the_double_step() {
    assert_eq!(
        reason(&start(LOS_ALAMOS), "b4"),
        "pawns move one square only in Los Alamos chess"
    );
    assert_eq!(
        reason(&start(LOS_ALAMOS), "b2b4"),
        "pawns move one square only in Los Alamos chess"
    );
    let sharp = pos(
        SHARP,
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[QRRBBNNqrrbbnn] w - - 0 2",
    );
    assert_eq!(reason(&sharp, "e4"), "pawns move one square only in Chess#");
    assert_eq!(uci(&sharp, "e3"), "e2e3");
}

#[test]
fn los_alamos_promotes_to_queen_rook_or_knight() {
    let p = pos(LOS_ALAMOS, "3k2/P5/6/6/6/3K2 w - - 0 1");
    assert_all(&p, &["a6=Q", "a6q", "15161"], "a5a6q");
    assert_all(&p, &["a6=R", "15162"], "a5a6r");
    assert_all(&p, &["a6=N", "a6n", "15164"], "a5a6n");
    assert_eq!(reason(&p, "a6=B"), "promote to one of: queen, rook, knight");
    assert_eq!(
        reason(&p, "15163"),
        "promote to one of: queen, rook, knight"
    );
    assert_eq!(
        reason(&p, "a6"),
        "a pawn reaching the last rank must promote (a6=Q)"
    );
    assert_eq!(
        reason(&p, "Bc3"),
        "there are no bishops in Los Alamos chess"
    );
    assert_eq!(reason(&p, "g2"), "there is no square g2 on the 6x6 board");
    assert_eq!(reason(&p, "4171"), "there is no square g1 on the 6x6 board");
}

#[test]
fn a_pawn_reaching_the_last_rank_must_promote() {
    let p = pos(STANDARD, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for input in ["a8", "a7a8", "1718"] {
        assert_eq!(
            reason(&p, input),
            "a pawn reaching the last rank must promote (a8=Q)",
            "{input}"
        );
    }
    let e = err(&p, "a8");
    assert!(
        e.to_string()
            .contains("did you mean a8=Q+, a8=R+, a8=B or a8=N?"),
        "{e}"
    );
    assert_eq!(
        reason(&start(STANDARD), "e4=Q"),
        "only a pawn reaching the last rank can promote"
    );
    assert_eq!(
        reason(&p, "a8=K"),
        "promote to one of: queen, rook, bishop, knight"
    );
}

#[test]
fn chess_sharp_promotes_to_a_queen_without_naming_it() {
    let p = pos(SHARP, "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1");
    assert_all(&p, &["a8", "a8=Q", "a7a8", "1718", "a7 to a8"], "a7a8q");
    assert_eq!(reason(&p, "a8=N"), "promote to one of: queen");
}

#[test]
fn chess_sharp_drop_rules() {
    let p = start(SHARP);
    assert_eq!(
        reason(&p, "N@d3"),
        "pieces are placed only on your first rank"
    );
    assert_eq!(
        reason(&p, "Q@d1"),
        "the queen is placed last: place your other reserve pieces first"
    );
    assert_eq!(
        reason(&p, "e3"),
        "place your king before moving pieces on the board"
    );
    // The suggestion for a king "move" before it is placed is its drop.
    let e = err(&p, "Ke1");
    assert_eq!(
        e,
        MoveError::Illegal {
            reason: "place your king before moving pieces on the board".into(),
            suggestions: vec![
                "K@e1".into(),
                "N@e1".into(),
                "B@e1".into(),
                "R@e1".into(),
                "K@d1".into()
            ],
        }
    );
    let placed = pos(
        SHARP,
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[QRRBBqrrbbnn] w - - 0 2",
    );
    assert_eq!(reason(&placed, "N@d1"), "you have no knight in reserve");
    assert_eq!(
        reason(&placed, "R@e1"),
        "pieces are placed only on empty squares, and e1 holds a king"
    );
    assert_eq!(uci(&placed, "R@a1"), "R@a1");
    // Black places on the eighth rank.
    let black = pos(
        SHARP,
        "8/pppppppp/8/8/8/8/PPPPPPPP/4K3[QRRBBNNkqrrbbnn] b - - 0 1",
    );
    assert_eq!(uci(&black, "K@e8"), "K@e8");
    assert_eq!(
        reason(&black, "K@e1"),
        "pieces are placed only on your first rank"
    );
    // Once only the queen is left she may come in.
    let queen = pos(
        SHARP,
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[Qqrrbbnn] w - - 0 5",
    );
    assert_eq!(uci(&queen, "Q@d1"), "Q@d1");
}

#[test]
fn there_are_no_drops_in_standard_chess() {
    assert_eq!(
        reason(&start(STANDARD), "N@d4"),
        "there are no drops in Standard chess: pieces are moved, not placed"
    );
}

#[test]
fn your_own_piece_on_the_destination() {
    assert_eq!(
        reason(&start(STANDARD), "Nd2"),
        "your own pawn stands on d2"
    );
    assert_eq!(
        reason(&start(STANDARD), "Qd2"),
        "your own pawn stands on d2"
    );
}

#[test]
fn a_pawn_capture_needs_something_to_capture() {
    assert_eq!(
        reason(&start(STANDARD), "exd3"),
        "there is nothing to capture on d3"
    );
}

#[test]
fn the_game_is_over() {
    let mate = pos(
        STANDARD,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    );
    assert_eq!(
        err(&mate, "e4"),
        MoveError::Illegal {
            reason: "the game is over".into(),
            suggestions: vec![]
        }
    );
    assert_eq!(
        err(&mate, "e4").to_string(),
        "illegal move: the game is over"
    );
    // Chess#: the white king has been captured.
    let taken = pos(SHARP, "4k3/8/8/8/8/8/8/8[] w - - 0 9");
    assert_eq!(reason(&taken, "Kd8"), "the game is over");
}

#[test]
fn king_capture_variants_allow_moves_into_check() {
    // Chess#: moving into an attack is legal (and loses the king next ply).
    let p = pos(SHARP, "3rk3/8/8/8/8/8/8/4K3[] w - - 0 9");
    assert_eq!(uci(&p, "Kd1"), "e1d1");
    assert_eq!(
        uci(&p.after(parse_move(&p, "Kd1").unwrap()), "Rxd1"),
        "d8d1"
    );
}

#[test]
fn messages_list_suggestions_with_or() {
    assert_eq!(or_list(&[]), "");
    assert_eq!(or_list(&["a".into()]), "a");
    assert_eq!(or_list(&["a".into(), "b".into()]), "a or b");
    assert_eq!(or_list(&["a".into(), "b".into(), "c".into()]), "a, b or c");
    let e = MoveError::NoSuchPiece {
        reason: "you have no rook".into(),
        suggestions: vec![],
    };
    assert_eq!(e.to_string(), "you have no rook");
}

#[test]
fn read_among_matches_every_notation_against_the_candidates_given() {
    // Two rooks that may both reach d4 by a variant's own rules, and a pawn step down.
    let mv = |from: &str, to: &str, role: Role| Move {
        from: Square::parse(from).unwrap(),
        to: Square::parse(to).unwrap(),
        role,
        capture: None,
        promotion: None,
        kind: MoveKind::Normal,
    };
    let candidates = [
        mv("a4", "d4", Role::Rook),
        mv("d8", "d4", Role::Rook),
        mv("e6", "e5", Role::Pawn),
    ];
    let cfg = Variant::Standard.config();
    let read = |text: &str| {
        read_among(cfg, Color::White, &candidates, text)
            .unwrap()
            .iter()
            .map(|m| m.uci())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        read("Rd4"),
        ["a4d4", "d8d4"],
        "both fit: the caller decides"
    );
    assert_eq!(read("Rad4"), ["a4d4"]);
    assert_eq!(read("d8d4"), ["d8d4"]);
    assert_eq!(read("MOVE E6 TO E5"), ["e6e5"]);
    assert_eq!(read("e5"), ["e6e5"]);
    assert!(read("Nf3").is_empty());
    // What san_among writes reads back as that move alone.
    for m in &candidates {
        let text = crate::notation::san_among(*m, &candidates);
        assert_eq!(read(&text), [m.uci()], "{text}");
    }
    assert!(matches!(
        read_among(cfg, Color::White, &candidates, "??"),
        Err(MoveError::Syntax { .. })
    ));
}

/// A capture marked with `x` (or `:`) onto a square with nothing to take is refused with
/// the reason, never played as the quiet move (issue 15): the `x` is the one thing that
/// says the player expects a piece there.
#[test]
fn a_capture_mark_onto_an_empty_square_is_refused_not_played_quietly() {
    let p = start(Variant::Standard);
    for input in ["Nxf3", "Ng1xf3", "N:f3", "g1xf3", "nxf3"] {
        assert!(
            reason(&p, input).contains("nothing to capture on f3"),
            "{input}: {}",
            reason(&p, input)
        );
    }
    assert_eq!(uci(&p, "Nf3"), "g1f3");
    assert_eq!(uci(&p, "Ng1-f3"), "g1f3");
    // A real capture still reads with or without the mark, en passant included.
    let q = pos(
        Variant::Standard,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    );
    assert_eq!(uci(&q, "exf6"), "e5f6");
    assert_eq!(uci(&q, "e5xf6"), "e5f6");
    assert!(reason(&q, "exd6").contains("nothing to capture on d6"));
}

#[test]
fn a_promotion_typed_without_its_piece_says_so() {
    let p = pos(Variant::Chesswords, "3k2/1P4/6/6/6/3K2 w - - 0 1");
    for input in ["b6=", "b5b6="] {
        let r = reason(&p, input);
        assert!(
            r.starts_with("a promotion names its piece after the =: one of queen, rook, knight"),
            "{input}: {r}"
        );
        assert!(!r.contains("bishop"), "{r}");
    }
    assert_eq!(
        reason(&start(STANDARD), "e4="),
        "only a pawn reaching the last rank can promote"
    );
    assert_eq!(
        reason(&p, "bb6"),
        "there are no bishops in Secret Chesswords"
    );
}
