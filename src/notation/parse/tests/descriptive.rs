//! Classic English descriptive notation: the forms a correspondence player writes, the
//! qualifiers, the boards, and the refusals with their messages.

use super::*;

/// The candidates of an ambiguous input, sorted.
fn candidates(p: &Position, input: &str) -> Vec<String> {
    match err(p, input) {
        MoveError::Ambiguous { mut candidates } => {
            candidates.sort();
            candidates
        }
        other => panic!("{input:?}: expected ambiguous, got {other:?}"),
    }
}

#[test]
fn opening_moves_from_either_side() {
    let p = start(STANDARD);
    assert_all(
        &p,
        &["P-K4", "p-k4", "P - K4", "KP-K4", "MOVE KP TO K4"],
        "e2e4",
    );
    assert_all(&p, &["P-Q4", "QP-Q4", "P-Q4 ch"], "d2d4");
    assert_all(
        &p,
        &["N-KB3", "KN-B3", "KN-KB3", "Kt-KB3", "KKt-B3", "N/KN1-KB3"],
        "g1f3",
    );
    assert_all(&p, &["N-QB3", "QN-B3", "QKt-QB3", "MOVE QN TO QB3"], "b1c3");
    // Ranks count from Black's side for Black.
    let p = pos(
        STANDARD,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    );
    assert_all(&p, &["P-K4", "MOVE KP TO K4", "MOVE K2 TO K4"], "e7e5");
    assert_all(&p, &["P-QB4", "QBP-B4", "BP-QB4"], "c7c5");
    assert_all(&p, &["N-KB3", "KN-B3"], "g8f6");
}

#[test]
fn the_short_form_leaves_out_the_side_when_one_move_fits() {
    // 1. P-K4 P-K4 2. N-KB3 N-QB3: B-N5 is the Ruy Lopez (the other bishop is shut in).
    let p = pos(
        STANDARD,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    );
    assert_all(&p, &["B-N5", "B-QN5", "KB-N5", "B/KB1-QN5"], "f1b5");
    assert_eq!(candidates(&start(STANDARD), "N-B3"), ["Nc3", "Nf3"]);
    // Read as descriptive, `P-B4` is not also SAN's b4 (see the clash test).
    assert_eq!(candidates(&start(STANDARD), "P-B4"), ["c4", "f4"]);
}

#[test]
fn pawn_captures_named_by_the_pieces() {
    let p = pos(
        STANDARD,
        "rnbqkbnr/ppp1pppp/8/3p4/2P1P3/8/PP1P1PPP/RNBQKBNR w KQkq - 0 2",
    );
    assert_eq!(candidates(&p, "PxP"), ["cxd5", "exd5"]);
    assert_all(&p, &["KPxP", "KPxQP", "KPxP/Q5", "KP x P"], "e4d5");
    assert_eq!(candidates(&p, "PxP/Q5"), ["cxd5", "exd5"]);
    assert_all(&p, &["QBPxP", "BPxP", "BPxQP"], "c4d5");
}

#[test]
fn piece_captures_with_qualifiers_and_squares() {
    // White: knights c3 and f3, bishop g5; Black: knights c6 and f6, pawns e5 and d5.
    let p = pos(
        STANDARD,
        "r1bqkb1r/ppp2ppp/2n2n2/3pp1B1/4P3/2N2N2/PPPP1PPP/R2QKB1R w KQkq - 0 5",
    );
    assert_all(&p, &["BxN", "BxKN", "BxN/KB6", "B/N5xN"], "g5f6");
    assert_all(&p, &["KNxP", "NxKP", "KNxP/K5"], "f3e5");
    assert_eq!(candidates(&p, "NxP"), ["Nxd5", "Nxe5"]);
}

#[test]
fn checks_and_mates_are_ignored() {
    let p = pos(
        STANDARD,
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    );
    assert_all(
        &p,
        &[
            "QxKBP",
            "QxKBP ch",
            "QxBPch",
            "QxKBP mate",
            "QxP/KB7",
            "QxP/B7 dis ch",
            "Q x BP+",
            "QxBP#",
        ],
        "h5f7",
    );
    assert_eq!(candidates(&p, "QxP ch"), ["Qxe5+", "Qxf7#", "Qxh7"]);
}

#[test]
fn promotions_in_every_classic_spelling() {
    let p = pos(STANDARD, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_all(
        &p,
        &["P-R8=Q", "P-R8(Q)", "P-R8/Q", "P-QR8Q", "RP-R8=Q"],
        "a7a8q",
    );
    assert_all(&p, &["P-R8=Kt", "P-R8(N)"], "a7a8n");
    assert_all(&p, &["PxN=Q", "PxN(Q)", "PxN/Q"], "a7b8q");
    assert_all(&p, &["MOVE P TO R8"], "a7a8q");
    assert!(
        reason(&p, "P-R8").contains("promot"),
        "{}",
        reason(&p, "P-R8")
    );
}

#[test]
fn en_passant() {
    let p = pos(
        STANDARD,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    );
    assert_all(
        &p,
        &["PxP e.p.", "PxPe.p.", "PxP ep", "PxP", "KPxBP", "PxP/KB6"],
        "e5f6",
    );
}

#[test]
fn castling_is_unchanged() {
    let p = pos(STANDARD, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_all(&p, &["O-O", "0-0"], "e1g1");
    assert_all(&p, &["O-O-O"], "e1c1");
}

#[test]
fn a_rook_or_knight_qualifier_is_the_side_it_stands_on_now() {
    // After O-O the king's rook stands on KB1, still on the king's side.
    let p = pos(STANDARD, "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
    assert_all(&p, &["KR-K1", "R/KB1-K1", "R(KB1)-K1", "R(B1)-K1"], "f1e1");
    assert_all(&p, &["QR-K1", "R/QR1-K1"], "a1e1");
    assert_eq!(candidates(&p, "R-K1"), ["Rae1+", "Rfe1+"]);
}

#[test]
fn a_bishop_qualifier_is_the_colour_of_its_squares() {
    // White's king's bishop runs on light squares wherever it is: here on c4.
    let p = pos(STANDARD, "4k3/8/8/8/2B5/8/8/2B1K3 w - - 0 1");
    assert_all(&p, &["KB-Q5", "B/B4-Q5", "B-Q5"], "c4d5");
    assert_all(&p, &["QB-Q2", "B-Q2"], "c1d2");
    assert_eq!(
        reason(&p, "QB-Q5"),
        "the bishop you named cannot make that move, another bishop can"
    );
}

#[test]
fn los_alamos_has_six_files() {
    let p = start(LOS_ALAMOS);
    assert_all(&p, &["P-K3", "KP-K3"], "d2d3");
    assert_all(&p, &["N-KR3", "KN-R3"], "e1f3");
    assert_all(&p, &["N-QR3", "QN-R3"], "b1a3");
    assert_eq!(candidates(&p, "N-R3"), ["Na3", "Nf3"]);
    assert_eq!(
        reason(&p, "N-KB3"),
        "Los Alamos chess has no KB file; its files are QR, QN, Q, K, KN, KR"
    );
    let p = pos(LOS_ALAMOS, "rnqknr/pppppp/6/6/PPPPPP/RNQKNR b - - 0 1");
    assert_all(&p, &["P-K3", "MOVE KP TO K3"], "d5d4");
}

#[test]
fn san_comes_first_and_a_hyphen_after_a_lone_piece_letter_is_descriptive() {
    // A knight on d2: Nb3 is SAN, and so is N-b3 (mixed case is never descriptive); in
    // N-B3 the hyphen right after the piece letter is descriptive's, so it is f3.
    let p = pos(STANDARD, "4k3/8/8/8/8/8/3N4/4K3 w - - 0 1");
    assert_all(&p, &["Nb3", "N-b3", "Nd2-b3", "nb3"], "d2b3");
    assert_all(&p, &["N-B3", "N-KB3", "n-b3"], "d2f3");
    // Where the descriptive reading fits no move, SAN's is still tried.
    let p = pos(STANDARD, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
    assert_all(&p, &["N-C3", "N-c3"], "b1c3");
}

#[test]
fn refusals_say_why() {
    let p = start(STANDARD);
    assert_eq!(
        reason(&p, "QN-KB3"),
        "the knight you named cannot make that move, another knight can"
    );
    assert_eq!(reason(&p, "NxP"), "you have no knight that can reach a7");
    let p = pos(
        STANDARD,
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    );
    assert_eq!(
        reason(&p, "P-Q5"),
        "that square holds a pawn: a capture is written with x, like PxP"
    );
    assert_eq!(reason(&p, "PxB"), "you have no pawn that can reach c8");
    let p = pos(STANDARD, "4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(
        reason(&p, "RxB"),
        "there is no black bishop there to capture"
    );
    match err(&p, "P-K9") {
        MoveError::Illegal { reason, .. } => {
            assert_eq!(reason, "there is no rank 9 on the 8x8 board")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unreadable_text_is_refused_with_the_descriptive_hint() {
    let e = err(&start(STANDARD), "P-Z4");
    assert_eq!(
        e.to_string(),
        "couldn't read 'P-Z4' as a move; write it like e4, Nf3, exd5, e8=Q, O-O, N@d1, e2e4 or P-K4"
    );
}
