//! The refusals: each reason a move is not accepted, the message that says it, and the
//! suggestions offered with it.

use super::*;

#[test]
fn syntax_errors_explain_the_accepted_forms() {
    let p = start(STANDARD);
    assert_eq!(
        err(&p, "xyz").to_string(),
        "couldn't read 'xyz' as a move; write it like e4, Nf3, exd5, e8=Q, O-O, N@d1, e2e4 or P-K4"
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

/// A capture marked with `x` (or `:`) onto a square with nothing to take is refused with
/// the reason, never played as the quiet move (issue 15): the `x` is the one thing that
/// says the player expects a piece there.
#[test]
fn a_capture_mark_onto_an_empty_square_is_refused_not_played_quietly() {
    let p = start(Variant::STANDARD);
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
        Variant::STANDARD,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    );
    assert_eq!(uci(&q, "exf6"), "e5f6");
    assert_eq!(uci(&q, "e5xf6"), "e5f6");
    assert!(reason(&q, "exd6").contains("nothing to capture on d6"));
}

#[test]
fn a_promotion_typed_without_its_piece_says_so() {
    let p = pos(Variant::CHESSWORDS, "3k2/1P4/6/6/6/3K2 w - - 0 1");
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
