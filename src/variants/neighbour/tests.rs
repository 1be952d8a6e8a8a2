//! Neighbour Chess Solitaire's rules, one test per rule, named after it.

use super::*;
use crate::variants::api::{Apply, RefusalKind};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn card(short: &str) -> PlayingCard {
    PlayingCard::try_from(short.to_string()).unwrap()
}

fn cards(shorts: &str) -> Vec<PlayingCard> {
    shorts.split_whitespace().map(card).collect()
}

fn squares(list: &[&str]) -> Bitboard {
    list.iter().fold(Bitboard::EMPTY, |b, s| b.with(sq(s)))
}

/// A game moving on `fen` with `left` cards in the position pile.
fn moving(fen: &str, left: usize) -> Neighbour {
    let mut g = Neighbour::deal(Vec::new(), vec![card("2h"); left]);
    g.board = Board::try_from(fen.to_string()).unwrap();
    g.moving = true;
    g
}

#[test]
fn red_cards_move_right_and_black_cards_up_wrapping_around_the_edges() {
    assert_eq!(landing(sq("a1"), card("2h")), sq("c1"));
    assert_eq!(landing(sq("g1"), card("3d")), sq("b1"));
    assert_eq!(landing(sq("a1"), card("4s")), sq("a5"));
    assert_eq!(landing(sq("a6"), card("5c")), sq("a3"));
}

#[test]
fn the_first_piece_starts_above_a1_and_the_next_above_the_last_added() {
    let mut g = Neighbour::deal(cards("10h ks"), cards("3d 2s 4h"));
    let (c, p, at, placed) = g.add().unwrap();
    assert_eq!(
        (c, p, at, placed),
        (card("10h"), card("3d"), sq("d1"), Some(sq("d1")))
    );
    let (_, _, at, placed) = g.add().unwrap();
    assert_eq!((at, placed), (sq("d3"), Some(sq("d3"))));
    assert_eq!(g.board.fen(), "8/8/8/8/8/3k4/8/3R4");
    assert_eq!(g.record, ["10♥ 3♦: R@d1", "K♠ 2♠: k@d3"]);
    // The piece cards ran out: adding is over, and two pieces apart with no
    // neighbours cannot move: lost.
    assert!(g.moving);
    assert_eq!(g.ended, Some(Ended::Stuck));
}

#[test]
fn on_a_taken_square_the_piece_takes_a_free_square_among_the_eight_around() {
    let occupied = squares(&["d4", "c3", "d3", "e3", "c4", "e4", "d5", "e5"]);
    assert_eq!(nearest_free(occupied, sq("d4")), squares(&["c5"]));
    let some = squares(&["d4", "c3"]);
    assert_eq!(nearest_free(some, sq("d4")).count(), 7);
}

#[test]
fn when_all_eight_are_taken_their_neighbours_count_without_wrapping() {
    let around = squares(&["d4", "c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"]);
    assert_eq!(nearest_free(around, sq("d4")).count(), 16);
    // In a corner the ring is cut by the edges, never continued on the other side.
    let corner = squares(&["a1", "b1", "a2", "b2"]);
    assert_eq!(
        nearest_free(corner, sq("a1")),
        squares(&["c1", "c2", "c3", "a3", "b3"])
    );
}

#[test]
fn a_piece_on_a_taken_square_waits_for_the_players_choice() {
    let mut g = Neighbour::deal(cards("10h ks qh"), cards("2h 2s 2d"));
    g.board.put(
        sq("c3"),
        Piece {
            color: Color::White,
            role: Role::Knight,
        },
    );
    g.add().unwrap();
    // From c1 a black 2 goes up to c3, which is taken: eight free squares around it.
    let (_, _, at, placed) = g.add().unwrap();
    assert_eq!((at, placed), (sq("c3"), None));
    assert_eq!(g.record, ["10♥ 2♥: R@c1", "K♠ 2♠: c3 taken"]);
    let e = g.add().unwrap_err();
    assert_eq!(
        crate::variants::api::typed_commands(&e.text),
        "first place the black king: `place SQUARE`, one of b2, c2, d2, b3, d3, b4, c4, d4"
    );
    let before = g.clone();
    let e = g.place(sq("c1")).unwrap_err();
    assert!(
        e.text
            .starts_with("c1 is not among the free squares nearest to c3"),
        "{e}"
    );
    assert_eq!(g, before, "a refusal changes nothing");
    g.place(sq("d4")).unwrap();
    assert_eq!(g.last_added, Some(At(sq("d4"))));
    // The placement finishes its addition: one numbered action, not two.
    assert_eq!(g.record, ["10♥ 2♥: R@c1", "K♠ 2♠: c3 taken, k@d4"]);
    assert_eq!(
        crate::variants::solitaire::numbered(&g.record),
        "1. 10♥ 2♥: R@c1 2. K♠ 2♠: c3 taken, k@d4"
    );
    assert_eq!(g.place(sq("d5")).unwrap_err().kind, RefusalKind::Illegal);
}

#[test]
fn a_piece_moves_with_the_move_of_a_same_colour_neighbour() {
    // The knight on c3 borrows the queen's move from d4: along the file up to c7,
    // blocked by the black rook on c8? No: c8 is taken, so c4 to c7.
    let mut g = moving("2r5/8/8/8/3Q4/2N5/8/8", 5);
    assert!(g.borrowed(sq("c3"), sq("d4")).contains(sq("c7")));
    assert!(
        !g.borrowed(sq("c3"), sq("d4")).contains(sq("c8")),
        "no captures"
    );
    // The queen borrows the knight's jump.
    assert_eq!(
        g.borrowed(sq("d4"), sq("c3")),
        squares(&["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"])
    );
    let by = g.play_move(sq("c3"), sq("c7"), None).unwrap();
    assert_eq!(by, sq("d4"));
    assert_eq!(g.record, ["Nc3-c7 (Qd4)"]);
    assert_eq!((g.positions.len(), g.spent), (4, 1));
}

#[test]
fn sliders_are_blocked_as_usual() {
    let g = moving("8/8/2b5/8/3Q4/2N5/8/8", 5);
    let reach = g.borrowed(sq("c3"), sq("d4"));
    assert!(reach.contains(sq("c5")));
    assert!(!reach.contains(sq("c6")) && !reach.contains(sq("c7")));
}

#[test]
fn a_piece_without_a_same_colour_neighbour_cannot_move() {
    let mut g = moving("8/8/8/8/3q4/2N5/8/7R", 5);
    let e = g.play_move(sq("c3"), sq("c5"), None).unwrap_err();
    assert_eq!(
        e.text,
        "the white knight on c3 has no white neighbour: a piece without a neighbour of its colour cannot move"
    );
    assert!(g.lenders(sq("c3")).is_empty());
}

#[test]
fn a_named_lender_must_be_a_same_colour_neighbour_that_reaches_the_square() {
    let mut g = moving("8/8/8/8/3Q4/2NB4/8/7r", 5);
    let e = g.play_move(sq("c3"), sq("c7"), Some(sq("h1"))).unwrap_err();
    assert!(
        e.text.starts_with("h1 is not a white neighbour of c3"),
        "{e}"
    );
    let e = g.play_move(sq("c3"), sq("c7"), Some(sq("d3"))).unwrap_err();
    assert!(
        e.text.starts_with(
            "no white neighbour lends the knight on c3 a move to c7 (neighbours: bishop d3)"
        ),
        "{e}"
    );
    g.play_move(sq("c3"), sq("c7"), Some(sq("d4"))).unwrap();
}

#[test]
fn pieces_never_capture() {
    let mut g = moving("8/8/8/8/3Q4/2N5/8/2r5", 5);
    let e = g.play_move(sq("c3"), sq("c1"), None).unwrap_err();
    assert_eq!(
        e.text,
        "c1 is taken: pieces do not capture in this solitaire"
    );
}

#[test]
fn diagonal_neighbours_connect_and_a_group_wins_with_the_cards_left() {
    // The queen on d2 borrows the knight's jump to f1: next to the black rook on g1 by
    // a side and to the knight on e2 by a corner, which counts here.
    let mut g = moving("8/8/8/8/8/8/3QN3/6rb", 5);
    assert!(!g.board.connected(ADJACENCY));
    g.play_move(sq("d2"), sq("f1"), None).unwrap();
    assert_eq!(g.board.fen(), "8/8/8/8/8/8/4N3/5Qrb");
    assert!(!g.board.connected(Adjacency::Orthogonal));
    assert_eq!(g.ended, Some(Ended::Connected));
    assert_eq!(g.score(), 4);
}

#[test]
fn with_both_piles_empty_and_the_pieces_apart_the_attempt_is_lost() {
    let mut g = moving("8/8/8/8/3Q4/2N5/8/6r1", 1);
    g.play_move(sq("c3"), sq("c7"), None).unwrap();
    assert_eq!(g.ended, Some(Ended::Exhausted));
    assert_eq!(Ended::Exhausted.outcome(g.score()).unwrap().score, None);
}

#[test]
fn moving_waits_for_stop_and_stop_needs_two_pieces() {
    let mut g = Neighbour::deal(cards("10h 10s qh ks"), cards("2h 2s 6s 3h 4h"));
    let e = g.stop().unwrap_err();
    assert!(e.text.starts_with("add at least two pieces"), "{e}");
    g.add().unwrap();
    assert!(g.stop().is_err(), "one piece");
    let e = g.play_move(sq("c1"), sq("c2"), None).unwrap_err();
    assert!(e.text.starts_with("you are still adding pieces"), "{e}");
    g.add().unwrap();
    // From c3 a black 6 wraps around to c1, taken: five free squares around it.
    let (_, _, at, placed) = g.add().unwrap();
    assert_eq!((at, placed), (sq("c1"), None));
    g.place(sq("c2")).unwrap();
    assert_eq!(g.ended, None, "still adding: nothing is judged yet");
    g.stop().unwrap();
    assert_eq!(g.ended, Some(Ended::Connected));
    assert_eq!(g.score(), 3, "one piece card and two position cards left");
    assert_eq!(g.record.last().map(String::as_str), Some("stop"));
    assert_eq!(g.add().unwrap_err().kind, RefusalKind::Over);
}

#[test]
fn abort_only_before_the_first_action() {
    let mut g = Neighbour::deal(cards("10h 10s"), cards("2h 2s"));
    g.add().unwrap();
    assert!(g.end(Ended::Aborted).is_err());
    g.end(Ended::Resigned).unwrap();
}

#[test]
fn an_abort_before_any_card_is_seen_has_no_result() {
    use crate::variants::api::GameRules;
    let mut g = Neighbour::deal(cards("10h 10s"), cards("2h 2s"));
    g.end(Ended::Aborted).unwrap();
    assert_eq!(g.ended, Some(Ended::Aborted));
    assert!(g.aborted() && g.outcome().is_none());
    // Over, its deal is dead: the record may show it.
    assert_eq!(g.deal_words().as_deref(), Some("10♥ 10♠ / 2♥ 2♠"));
}

#[test]
fn a_black_piece_is_written_in_lowercase() {
    let mut g = Neighbour::deal(cards("9c 9h qs"), cards("2s 3h 2h"));
    g.add().unwrap();
    g.add().unwrap();
    assert_eq!(g.record, ["9♣ 2♠: b@a3", "9♥ 3♥: B@d3"]);
    let mut g = moving("8/8/8/8/8/8/8/nb6", 3);
    g.play_move(sq("a1"), sq("c3"), None).unwrap();
    assert_eq!(g.record, ["na1-c3 (bb1)"]);
}

#[test]
fn a_stop_that_loses_at_once_asks_to_be_confirmed() {
    use crate::variants::api::{Action, Env, GameCommand, GameRules, Reading, Seat};
    // A white rook on c1 and a black king on c3: apart, and neither has a neighbour of
    // its colour to lend it a move.
    let mut g = Neighbour::deal(cards("10h ks qh"), cards("2h 2s 2d"));
    let read = |g: &Neighbour, text: &str| {
        let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
        g.read(Seat(0), &GameCommand::new(word, rest), Env::default())
    };
    g.add().unwrap();
    // One piece: `stop` is not warned but refused, for its own reason.
    let one = read(&g, "stop").map(|_| ()).and_then(|()| {
        let mut after = g.clone();
        after.stop()
    });
    assert!(one.unwrap_err().text.starts_with("add at least two pieces"));
    g.add().unwrap();
    assert!(g.stop_loses());
    let e = read(&g, "stop").unwrap_err();
    assert_eq!(e.text, crate::variants::neighbour::game::STOP_WARNING);
    assert!(e.text.contains("stop anyway"), "{e}");
    assert!(read(&g, "stop please").is_err());
    let Ok(Reading::Act(action)) = read(&g, "stop anyway") else {
        panic!("stop anyway is read")
    };
    assert_eq!(
        action,
        Action::of(&crate::variants::neighbour::NeighbourAction::Stop).unwrap()
    );
    g.apply(Seat(0), &action).unwrap();
    assert_eq!(g.ended, Some(Ended::Stuck));
    // A stop that wins (two neighbours) needs no confirmation.
    let mut g = Neighbour::deal(cards("10h 10s qh"), cards("2h 2s 2d"));
    g.add().unwrap();
    g.board = Board::try_from("8/8/8/8/8/8/2r5/2R5".to_string()).unwrap();
    assert!(!g.stop_loses());
    assert!(matches!(read(&g, "stop"), Ok(Reading::Act(_))));
}

#[test]
fn a_finished_record_holds_the_deal_and_a_live_one_does_not() {
    use crate::variants::api::{GameRules, Viewer};
    let mut g = Neighbour::deal(cards("10h ks qh"), cards("2h 2s 2d"));
    g.add().unwrap();
    assert_eq!(g.deal_words(), None);
    assert!(!g.pgn(Viewer::Public, &[]).contains("Deal"));
    assert!(g.export_fields(Viewer::Public).is_empty());
    g.end(Ended::Resigned).unwrap();
    let pgn = g.pgn(Viewer::Public, &[]);
    assert!(pgn.contains("[Deal \"10♥ K♠ Q♥ / 2♥ 2♠ 2♦\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    let fields = g.export_fields(Viewer::Public);
    assert_eq!(
        fields["deal"],
        serde_json::json!({"pieces": ["10♥", "K♠", "Q♥"], "positions": ["2♥", "2♠", "2♦"]})
    );

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
