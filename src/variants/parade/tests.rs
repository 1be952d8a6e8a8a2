//! Parade Chess Solitaire's rules, one test per rule, named after it.

use super::*;
use crate::render::Suit;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn squares(list: &[&str]) -> Bitboard {
    list.iter().fold(Bitboard::EMPTY, |b, s| b.with(sq(s)))
}

fn card(short: &str) -> PlayingCard {
    PlayingCard::try_from(short.to_string()).unwrap()
}

fn board(fen: &str) -> Board {
    Board::try_from(fen.to_string()).unwrap()
}

/// The appendix's example: the setup pile in its order, then a hand whose first card is
/// the 8 of diamonds of the seed's "add" example.
fn example() -> Parade {
    let deck = [
        "9h", "10h", "ks", "10s", "8s", "8h", "10c", "9s", "8d", "9d", "10d", "qh", "kh", "qs",
        "8c", "9c",
    ];
    Parade::deal(deck.iter().map(|c| card(c)).collect())
}

/// A game on `fen` with `hand` cards in hand (all 8s of hearts: their faces never show).
fn on(fen: &str, hand: usize) -> Parade {
    Parade {
        board: board(fen),
        hand: Pile::new(vec![
            PlayingCard {
                rank: 8,
                suit: Suit::Hearts
            };
            hand
        ]),
        turned: Vec::new(),
        spent: 0,
        overtime: 0,
        steps: Vec::new(),
        record: Vec::new(),
        ended: None,
        deal: Vec::new(),
        deal_kept: false,
    }
}

#[test]
fn the_setup_example_lands_exactly_as_the_appendix_lists() {
    let g = example();
    assert_eq!(g.board.fen(), "8/8/8/8/1r2b3/1r1n1N2/5k2/2B3R1");
    for (at, fen) in [
        ("c1", 'B'),
        ("g1", 'R'),
        ("f2", 'k'),
        ("b3", 'r'),
        ("d3", 'n'),
        ("f3", 'N'),
        ("b4", 'r'),
        ("e4", 'b'),
    ] {
        assert_eq!(g.board.piece_at(sq(at)).map(|p| p.fen_char()), Some(fen));
    }
    assert_eq!(g.hand.len(), PILE);
    assert_eq!(g.turned.len(), PILE);
    assert_eq!(g.score(), 8);
    assert!(!g.is_over());
}

#[test]
fn the_gaps_are_appendix_as() {
    assert_eq!(
        [
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King
        ]
        .map(gap),
        [1, 2, 3, 5, 6]
    );
}

#[test]
fn gaps_wrap_to_the_next_rank() {
    // After g1, a rook's three empty squares are h1, a2 and b2.
    assert_eq!(placing_square(&board("8/8/8/8/8/8/8/6R1"), 3), sq("c2"));
    // The first piece leaves its gap from a1.
    assert_eq!(placing_square(&Board::default(), 2), sq("c1"));
    assert_eq!(placing_square(&Board::default(), 0), sq("a1"));
}

#[test]
fn past_h8_the_count_goes_on_from_a1_over_empty_squares_only() {
    // A piece on g8 is the highest: from h8 the count goes on from a1, over taken
    // squares: a queen's five empty squares are h8, b1, c1, e1 and f1.
    let b = board("6Q1/8/8/8/8/8/8/R2N4");
    assert_eq!(placing_square(&b, 5), sq("g1"));
}

#[test]
fn an_added_piece_leaves_its_gap_after_the_highest_rightmost_piece_g4_not_g7() {
    // The seed says g7; one empty square after the bishop on e4 is f4, so g4.
    let mut g = example();
    let (c, at) = g.add().unwrap();
    assert_eq!(c, card("8d"));
    assert_eq!(at, sq("g4"));
    assert_eq!(g.board.fen(), "8/8/8/8/1r2b1N1/1r1n1N2/5k2/2B3R1");
    assert_eq!(g.turned.last(), Some(&card("8d")));
    assert_eq!(g.record, ["8♦: N@g4"]);
    assert_eq!(g.score(), 7);
}

#[test]
fn the_black_knight_on_d3_moves_the_white_bishop_from_c1_to_b2_e1_f4_e5_or_c5() {
    let g = example();
    assert_eq!(
        g.targets(sq("d3"), sq("c1")).unwrap(),
        squares(&["b2", "e1", "f4", "e5", "c5"])
    );
}

#[test]
fn a_king_moves_pieces_next_to_it_to_other_squares_next_to_it() {
    let g = on("8/8/8/4N3/4k3/3B4/8/8", 8);
    assert_eq!(
        g.targets(sq("e4"), sq("e5")).unwrap(),
        squares(&["d4", "f4", "d5", "f5", "e3", "f3"])
    );
    assert_eq!(
        g.targets(sq("e4"), sq("d3")).unwrap(),
        squares(&["d4", "f4", "d5", "f5", "e3", "f3"])
    );
}

#[test]
fn once_the_piece_is_lifted_a_slider_sees_past_its_square() {
    // The seed's example: the black bishop on e4 moves the white knight from f3 to g2.
    let mut g = example();
    assert_eq!(
        g.targets(sq("e4"), sq("f3")).unwrap(),
        squares(&["g2", "h1", "f5", "g6", "h7", "d5", "c6", "b7", "a8"])
    );
    g.play_move(sq("e4"), sq("f3"), sq("g2")).unwrap();
    assert_eq!(g.record, ["be4: f3-g2"], "the black bishop, in lowercase");
    assert_eq!(
        g.last(),
        Some(LastMove::Move {
            from: sq("f3"),
            to: sq("g2")
        })
    );
}

#[test]
fn a_piece_moves_only_pieces_of_the_other_colour_on_squares_it_attacks() {
    let g = example();
    let e = g.targets(sq("d3"), sq("b4")).unwrap_err();
    assert_eq!(
        e.text,
        "the knight on d3 and the rook on b4 are both black: a piece moves only pieces of the other colour"
    );
    let e = g.targets(sq("d3"), sq("g1")).unwrap_err();
    assert_eq!(
        e.text,
        "the black knight on d3 does not attack g1: it moves only pieces on squares it attacks"
    );
    assert_eq!(
        g.targets(sq("a8"), sq("c1")).unwrap_err().text,
        "there is no piece on a8"
    );
    let e = g.targets(sq("d3"), sq("d3")).unwrap_err();
    assert!(
        e.text.starts_with("the piece on d3 cannot move itself"),
        "{e}"
    );
}

#[test]
fn the_target_must_be_an_empty_square_the_mover_attacks() {
    let mut g = example();
    let before = g.clone();
    let e = g.play_move(sq("d3"), sq("c1"), sq("b4")).unwrap_err();
    assert_eq!(
        e.text,
        "b4 is taken: a piece is put only on an empty square; it may put the piece from c1 on e1, b2, f4, c5, e5"
    );
    let e = g.play_move(sq("d3"), sq("c1"), sq("c2")).unwrap_err();
    assert!(
        e.text
            .starts_with("the black knight on d3 does not attack c2"),
        "{e}"
    );
    assert_eq!(g, before, "a refused move changes nothing");
}

#[test]
fn a_move_spends_a_card_face_down() {
    let mut g = example();
    g.play_move(sq("d3"), sq("c1"), sq("b2")).unwrap();
    assert_eq!((g.hand.len(), g.spent, g.turned.len()), (7, 1, 8));
    assert_eq!(g.score(), 7);
}

#[test]
fn one_orthogonally_connected_group_wins_with_the_cards_left() {
    // The white knight on b1 orders the black bishop from c3 to a3, above the king on
    // a2: a3-a2-a1-b1 are joined by their sides.
    let mut g = on("8/8/8/8/8/2b5/K7/RN6", 5);
    assert!(!g.board.connected(ADJACENCY));
    g.play_move(sq("b1"), sq("c3"), sq("a3")).unwrap();
    assert_eq!(g.ended, Some(Ended::Connected));
    assert_eq!(g.score(), 4);
    let e = g.play_move(sq("a1"), sq("a3"), sq("a4")).unwrap_err();
    assert_eq!(e.kind, crate::variants::api::RefusalKind::Over);
}

#[test]
fn diagonal_neighbours_do_not_connect() {
    // b3 touches the king on a2 only at a corner.
    assert!(!board("8/8/8/8/8/1b6/K7/RN6").connected(ADJACENCY));
    let mut g = on("8/8/8/8/8/2b5/K7/RN6", 5);
    g.play_move(sq("b1"), sq("c3"), sq("d2")).unwrap();
    assert_eq!(g.ended, None);
}

#[test]
fn after_the_hand_each_move_counts_a_negative_point_and_adding_is_refused() {
    // Two white knights and a black rook far apart: the rook moves a knight to and fro.
    let mut g = on("8/8/8/8/8/8/N7/r6N", 1);
    g.play_move(sq("a1"), sq("a2"), sq("a3")).unwrap();
    assert!(g.in_overtime());
    assert_eq!(g.score(), 0);
    let e = g.add().unwrap_err();
    assert!(
        e.text.starts_with("no cards are left to add a piece"),
        "{e}"
    );
    g.play_move(sq("a1"), sq("a3"), sq("a4")).unwrap();
    assert_eq!((g.overtime, g.score()), (1, -1));
}

#[test]
fn the_sixteenth_negative_point_without_a_group_loses() {
    let mut g = on("8/8/8/8/8/8/N7/r6N", 0);
    for i in 0..OVERTIME {
        let (from, to) = if i % 2 == 0 {
            ("a2", "a3")
        } else {
            ("a3", "a2")
        };
        assert!(!g.is_over());
        g.play_move(sq("a1"), sq(from), sq(to)).unwrap();
    }
    assert_eq!(g.overtime, 16);
    assert_eq!(g.ended, Some(Ended::Exhausted));
    assert_eq!(Ended::Exhausted.outcome(g.score()).unwrap().result, "lost");
}

#[test]
fn a_connection_made_in_the_overtime_wins_with_negative_points() {
    let mut g = on("8/8/8/8/8/8/N7/r6N", 0);
    g.play_move(sq("a1"), sq("a2"), sq("a3")).unwrap();
    g.board = board("8/8/8/8/8/N7/8/rN6");
    g.play_move(sq("a1"), sq("a3"), sq("a2")).unwrap();
    assert_eq!(g.ended, Some(Ended::Connected));
    assert_eq!(g.score(), -2);
}

#[test]
fn with_no_cards_and_no_move_left_the_attempt_is_lost() {
    // All white: no piece can order another, and the hand is empty.
    let mut g = on("8/8/8/8/8/8/8/N1N5", 1);
    assert!(g.moves().is_empty());
    let (_, at) = g.add().unwrap();
    assert_eq!(at, sq("e1"), "a knight's one empty square after c1");
    assert_eq!(g.ended, Some(Ended::Stuck));
}

#[test]
fn abort_only_before_the_first_action() {
    let mut g = example();
    g.add().unwrap();
    assert!(g.end(Ended::Aborted).is_err());
    g.end(Ended::Resigned).unwrap();
    assert_eq!(
        g.end(Ended::Resigned).unwrap_err().kind,
        crate::variants::api::RefusalKind::Over
    );
}

#[test]
fn an_abort_before_the_first_action_is_a_lost_attempt_as_the_deal_is_shown() {
    use crate::variants::api::GameRules;
    let mut g = example();
    g.end(Ended::Aborted).unwrap();
    assert_eq!(g.ended, Some(Ended::AbortedShown));
    assert!(!g.aborted(), "not called off with no result");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result.as_str(), o.reason.name(), o.score),
        ("lost", "aborted", None)
    );
}

#[test]
fn a_black_piece_added_is_written_in_lowercase() {
    let mut g = on("8/8/8/8/8/8/8/N7", 0);
    g.hand = Pile::new(vec![card("9c")]);
    g.add().unwrap();
    assert_eq!(g.record, ["9♣: b@d1"]);
}

#[test]
fn a_finished_record_holds_the_deal_and_a_live_one_does_not() {
    use crate::variants::api::{GameRules, Viewer};
    let mut g = example();
    assert_eq!(g.deal_words(), None);
    assert!(!g.pgn(Viewer::Public, &[]).contains("Deal"));
    assert!(g.export_fields(Viewer::Public).is_empty());
    g.add().unwrap();
    g.end(Ended::Resigned).unwrap();
    let deal = "9♥ 10♥ K♠ 10♠ 8♠ 8♥ 10♣ 9♠ / 8♦ 9♦ 10♦ Q♥ K♥ Q♠ 8♣ 9♣";
    assert_eq!(g.deal_words().as_deref(), Some(deal));
    let pgn = g.pgn(Viewer::Public, &[]);
    assert!(pgn.contains(&format!("[Deal \"{deal}\"]")), "{pgn}");
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("[Black \"-\"]"),
        "{pgn}"
    );
    let fields = g.export_fields(Viewer::Public);
    assert_eq!(fields["deal"]["hand"][0], "8♦");
    assert_eq!(fields["deal"]["setup"].as_array().map(Vec::len), Some(8));

    // A deal other players still play (a competition's): kept out, and the record says
    // why; the game's stored state is unchanged.
    let stored = g.snapshot().unwrap();
    g.keep_deal_secret();
    assert_eq!(g.deal_words(), None);
    let kept = g.pgn(Viewer::Public, &[]);
    assert!(!kept.contains("Deal"), "{kept}");
    assert!(
        kept.contains(crate::variants::solitaire::DEAL_KEPT),
        "{kept}"
    );
    let fields = g.export_fields(Viewer::Public);
    assert!(!fields.contains_key("deal"), "{fields:?}");
    assert_eq!(fields["deal_kept"], crate::variants::solitaire::DEAL_KEPT);
    assert_eq!(g.snapshot().unwrap(), stored);
}
