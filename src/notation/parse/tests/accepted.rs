//! The forms a move is accepted in: SAN in every spelling, drops, castling, long algebraic
//! and UCI, the `E2 TO E4` text form, descriptive and ICCF numeric squares, figurines, and
//! [`read_among`] over a variant's own candidates.

use super::*;

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
        Variant::DOUBLE_MOVE,
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
    let cfg = Variant::STANDARD.config();
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
