//! Gravity Chess's turn rules, named after the rules: the flip, the move phase and its
//! order, stays, the add, the last turn and the score, offers, and what viewers see.

use super::cards::{cards_of, Card};
use super::fen;
use super::state::{Ended, Gravity, GravityEnd, Phase};
use crate::rules::{Color, Piece, Role, Square};
use crate::variants::api::random::SeededRng;
use crate::variants::api::{
    Action, Apply, GameCommand, GameRules, Reading, RefusalKind, RuleError, Seat, VariantSpec,
    Viewer,
};

const W: Seat = Seat(0);
const B: Seat = Seat(1);

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn piece(c: char) -> Option<Piece> {
    Piece::from_fen_char(c)
}

fn game(fen: &str) -> Gravity {
    Gravity::from_fen(fen, &mut SeededRng::new(1)).unwrap()
}

/// Reads what `seat` types, as the referee would, and applies it.
fn say(g: &mut Gravity, seat: Seat, text: &str) -> Result<(), RuleError> {
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    // A bare move, as the referee reads one.
    let (word, rest) = match word {
        "move" | "play" | "stay" | "skip" | "add" | "draw" => (word, rest),
        _ => ("move", text),
    };
    let Reading::Act(a) = g.read(seat, &GameCommand::new(word, rest), Default::default())? else {
        panic!("not an action")
    };
    g.apply(seat, &a).map(|_| ())
}

fn refused(g: &mut Gravity, seat: Seat, text: &str) -> RuleError {
    let before = g.clone();
    let Err(e) = say(g, seat, text) else {
        panic!("{text} was accepted")
    };
    assert_eq!(*g, before, "a refusal changed the game");
    e
}

/// Appendix diagram 1 with White to move; each side has nine pieces waiting.
const MOVE_ORDER: &str = "4P3/4B3/r3P3/1n2b3/8/8/8/8[KQRRBNNPPkqrbnpppp] w";

#[test]
fn white_has_nothing_to_move_on_the_first_turn_and_adds_the_flipped_piece() {
    let mut g = Gravity::start(&mut SeededRng::new(3));
    assert_eq!(g.phase(), Phase::Add);
    assert_eq!(g.deck_sizes(), [11, 12]);
    let first = g.to_add().unwrap();
    assert_eq!(first.color, Color::Black, "White adds Black's pieces");
    say(&mut g, W, "add g").unwrap();
    assert_eq!(g.board().get(sq("g8")), Some(first));
    assert_eq!(g.turn(), Color::Black);
    assert_eq!(g.deck_sizes(), [11, 11], "Black flipped");
    assert_eq!(g.to_add().unwrap().color, Color::White);
    // Black's one piece is active and must move before the add.
    assert_eq!(g.phase(), Phase::Move);
    assert_eq!(g.to_move().len(), 1);
}

#[test]
fn move_order_the_bishop_first_frees_the_top_pawn_which_must_then_move() {
    let mut g = game(MOVE_ORDER);
    assert_eq!(g.phase(), Phase::Move);
    assert_eq!(
        g.still_to_move(),
        "still to move: Pe6 (blocked), Be7, Pe8 (blocked)"
    );
    say(&mut g, W, "Bf6").unwrap();
    assert_eq!(g.phase(), Phase::Move, "the pawn on e8 can move now");
    let e = refused(&mut g, W, "stay e8");
    assert!(e.text.contains("can move (e7)"), "{e}");
    say(&mut g, W, "e7").unwrap();
    assert_eq!(g.board().get(sq("e7")), piece('P'));
    // The pawn on e6 could never move: the phase ends by itself.
    assert_eq!(g.phase(), Phase::Add);
}

#[test]
fn move_order_declaring_the_top_pawn_unable_first_leaves_it_where_it_is() {
    let mut g = game(MOVE_ORDER);
    say(&mut g, W, "stay e8").unwrap();
    say(&mut g, W, "e7f6").unwrap();
    assert_eq!(g.phase(), Phase::Add, "the freed pawn has already stayed");
    assert_eq!(g.board().get(sq("e8")), piece('P'));
}

#[test]
fn a_piece_moves_once_a_turn() {
    let mut g = game(MOVE_ORDER);
    say(&mut g, W, "Bf6").unwrap();
    let e = refused(&mut g, W, "f6e5");
    assert_eq!(e.text, "the bishop on f6 has already moved this turn");
    let e = refused(&mut g, W, "Bxe5");
    assert_eq!(e.text, "the bishop on f6 has already moved this turn");
}

#[test]
fn a_move_must_go_down() {
    let mut g = game(MOVE_ORDER);
    let e = refused(&mut g, W, "Bf8");
    assert_eq!(e.kind, RefusalKind::Illegal);
    assert!(e.text.starts_with("f8 is not downward"), "{e}");
    let e = refused(&mut g, W, "e6e7");
    assert_eq!(
        e.text,
        "e7 holds one of your own pieces: the pawn on e6 cannot go there"
    );
    let e = refused(&mut g, W, "e7");
    assert_eq!(
        e.text,
        "e7 holds one of your own pieces: the pawn on e8 cannot go there"
    );
    let e = refused(&mut g, W, "Qd1");
    assert!(e.text.starts_with("none of your pieces can make"), "{e}");
    let e = refused(&mut g, W, "zz9");
    assert_eq!(e.kind, RefusalKind::Syntax);
}

#[test]
fn a_stacked_piece_is_neither_moved_nor_captured() {
    // Appendix diagram 2 with White to move.
    let mut g = game("p6N/q7/8/8/8/3B4/2Q2rb1/5rn1[KRRBPPkbnppp] w");
    let e = refused(&mut g, W, "Qxf2");
    assert_eq!(
        e.text,
        "the rook on f2 is stacked: stacked pieces cannot be captured"
    );
    say(&mut g, W, "Qc1").unwrap();
    let e = refused(&mut g, W, "Qb1");
    assert!(
        e.text.contains("stacked") || e.text.contains("already"),
        "{e}"
    );
    let e = refused(&mut g, W, "stay c1");
    assert_eq!(e.text, "the queen on c1 has already moved this turn");
    let e = refused(&mut g, W, "Bf5");
    assert!(e.text.starts_with("f5 is not downward"), "{e}");
}

#[test]
fn pieces_are_added_on_an_empty_square_of_rank_8_and_only_in_the_add_phase() {
    let mut g = game(MOVE_ORDER);
    let e = refused(&mut g, W, "add a");
    assert!(
        e.text.starts_with("first move all your active pieces"),
        "{e}"
    );
    let e = refused(&mut g, B, "Ra5");
    assert_eq!(e.kind, RefusalKind::NotYourTurn);
    say(&mut g, W, "stay e8").unwrap();
    say(&mut g, W, "Bf6").unwrap();
    let e = refused(&mut g, W, "Bd4");
    assert!(e.text.starts_with("your pieces have moved: now add"), "{e}");
    let e = refused(&mut g, W, "add e7");
    assert!(e.text.starts_with("pieces are added on rank 8"), "{e}");
    let e = refused(&mut g, W, "add e");
    assert!(
        e.text.starts_with(
            "e8 holds the white pawn: add on an empty square (a8, b8, c8, d8, f8, g8, h8)"
        ),
        "{e}"
    );
    say(&mut g, W, "add a").unwrap();
    assert!(g
        .board()
        .get(sq("a8"))
        .is_some_and(|p| p.color == Color::Black));
    let e = refused(&mut g, B, "add a");
    assert!(
        e.text.starts_with("first move all your active pieces"),
        "{e}"
    );
}

#[test]
fn when_rank_8_is_full_the_piece_goes_on_the_highest_row_with_an_empty_square() {
    // Black has nothing on the board; White's eight pieces fill rank 8.
    let mut g = game("RNBQKBNR/8/8/8/8/8/8/8[PPPPkqr] b");
    assert_eq!(g.phase(), Phase::Add, "Black has nothing to move");
    assert_eq!(g.add_rank(), 6, "rank 8 is full, rank 7 has room");
    let e = refused(&mut g, B, "add a8");
    assert!(e.text.contains("(rank 8 is full)"), "{e}");
    say(&mut g, B, "add h").unwrap();
    assert_eq!(g.board().get(sq("h7")), piece('P'));
}

#[test]
fn the_last_turn_is_whites_without_a_flip_or_an_add_and_then_the_game_is_scored() {
    // Appendix diagram 3 with both decks empty and White to move: White's last turn.
    let mut g = game("8/8/6R1/8/1P5p/1b2k1KN/N1R1Br2/p1nQqrnb[] w");
    assert_eq!(g.to_add(), None);
    assert_eq!(g.score().points, [16, 19]);
    assert_eq!(
        g.phase_words().unwrap(),
        "move all active pieces for the last turn (2 left)"
    );
    say(&mut g, W, "Kg2").unwrap();
    say(&mut g, W, "Rg3").unwrap();
    assert_eq!(g.ended(), Some(Ended::Rules(GravityEnd::Scored)));
    let o = g.outcome().unwrap();
    // The king stacks on row 2 and the rook on row 3: 16 + 2 + 3.
    assert_eq!((o.result.as_str(), o.score), ("1-0", Some(vec![21, 19])));
    assert!(g.awaiting().is_empty());
    let e = refused(&mut g, B, "Kd2");
    assert_eq!(e.kind, RefusalKind::Over);
}

#[test]
fn a_position_already_over_is_refused() {
    let e = Gravity::from_fen("8/8/8/8/8/8/8/R7[] w", &mut SeededRng::new(1)).unwrap_err();
    assert!(e.text.starts_with("that position is already over"), "{e}");
}

#[test]
fn black_adds_whites_last_piece_then_white_has_the_last_turn() {
    let mut g = game("8/8/8/8/8/8/8/8[Kk] w");
    say(&mut g, W, "add a").unwrap();
    assert_eq!(g.turn(), Color::Black);
    // Black's king on a8 falls.
    say(&mut g, B, "Ka7").unwrap();
    say(&mut g, B, "add h").unwrap();
    assert_eq!(g.turn(), Color::White);
    assert!(g.phase_words().unwrap().contains("for the last turn"));
    say(&mut g, W, "Kh7").unwrap();
    assert_eq!(g.ended(), Some(Ended::Rules(GravityEnd::Scored)));
    assert_eq!(g.outcome().unwrap().result, "1/2-1/2", "nothing stacked");
}

#[test]
fn a_draw_offer_is_accepted_or_declined_by_playing_on() {
    let mut g = game(MOVE_ORDER);
    say(&mut g, B, "draw offer").unwrap();
    assert_eq!(g.awaiting()[0].1.answers.len(), 2);
    let e = refused(&mut g, B, "draw accept");
    assert_eq!(e.text, "you cannot answer your own draw offer");
    say(&mut g, W, "Bf6").unwrap();
    assert!(
        g.awaiting().iter().all(|(_, p)| p.answers.is_empty()),
        "declined"
    );
    say(&mut g, W, "draw offer").unwrap();
    say(&mut g, B, "draw accept").unwrap();
    assert_eq!(g.outcome().unwrap().reason.name(), "agreement");
}

#[test]
fn resignation_loses_and_abort_is_only_for_the_first_turns() {
    let mut g = Gravity::start(&mut SeededRng::new(5));
    g.apply(W, &Action::abort()).unwrap();
    assert!(g.aborted());
    let mut g = Gravity::start(&mut SeededRng::new(5));
    say(&mut g, W, "add a").unwrap();
    while g.phase() == Phase::Move {
        let m = g.legal_moves()[0];
        say(&mut g, B, &m.uci()).unwrap();
    }
    say(&mut g, B, "add b").unwrap();
    assert!(!g.can_abort());
    let e = g.apply(W, &Action::abort()).unwrap_err();
    assert!(e.text.contains("can no longer be aborted"), "{e}");
    g.apply(B, &Action::resign()).unwrap();
    assert_eq!(g.outcome().unwrap().result, "1-0");
    let mut t = game(MOVE_ORDER);
    t.apply(W, &Action::timeout()).unwrap();
    assert_eq!(t.outcome().unwrap().reason.name(), "timeout");
}

#[test]
fn the_snapshot_gives_back_the_same_game() {
    let mut g = game(MOVE_ORDER);
    say(&mut g, W, "Bf6").unwrap();
    let snap = g.snapshot().unwrap();
    let back = super::SPEC.load(&snap).unwrap();
    assert_eq!(back.snapshot().unwrap(), snap);
    assert_eq!(back.project(Viewer::Public), g.project(Viewer::Public));
}

#[test]
fn no_viewer_sees_the_order_of_a_deck() {
    // Two games alike but for the order of the cards below the flipped ones.
    let setup = fen::parse("8/8/8/8/8/8/8/8[KQRRBBNNPPPPkqrrbbnnpppp] w").unwrap();
    let decks = [cards_of(Color::Black), cards_of(Color::White)];
    let mut other = decks.clone();
    other[0][1..].reverse();
    other[1][1..].reverse();
    let a = Gravity::from_decks(setup.clone(), decks, None);
    let b = Gravity::from_decks(setup, other, None);
    assert_ne!(a.snapshot().unwrap(), b.snapshot().unwrap());
    for v in [Viewer::Public, Viewer::Seat(W), Viewer::Seat(B)] {
        assert_eq!(a.project(v), b.project(v));
        assert_eq!(a.export_fields(v), b.export_fields(v));
        assert_eq!(a.pgn(v, &[]), b.pgn(v, &[]));
    }
    assert_eq!(a.awaiting(), b.awaiting());
}

#[test]
fn the_record_and_pgn_show_each_turns_flip_moves_stays_and_add() {
    let king = Card {
        rank: 13,
        suit: super::cards::CardSuit::Spades,
    };
    let setup = fen::parse(MOVE_ORDER).unwrap();
    let mut decks = [
        super::cards::cards_for(Color::Black, &setup.waiting[1]).unwrap(),
        super::cards::cards_for(Color::White, &setup.waiting[0]).unwrap(),
    ];
    decks[0].retain(|c| *c != king);
    decks[0].insert(0, king);
    let mut g = Gravity::from_decks(setup, decks, Some(MOVE_ORDER.into()));
    say(&mut g, W, "stay e8").unwrap();
    say(&mut g, W, "Bf6").unwrap();
    say(&mut g, W, "add d").unwrap();
    let p = g.project(Viewer::Public);
    assert_eq!(p.record[0], "bK: (e8 stays) Bf6 K@d8");
    assert!(
        p.numbered.starts_with("4. bK: (e8 stays) Bf6 K@d8 4... w"),
        "{}",
        p.numbered
    );
    let pgn = g.pgn(Viewer::Public, &[("White".into(), "alice".into())]);
    assert!(
        pgn.contains(
            "[White \"alice\"]\n[Result \"*\"]\n[Variant \"Gravity Chess\"]\n[SetUp \"1\"]"
        ),
        "{pgn}"
    );
    assert!(pgn.contains("4. {bK} {e8 stays} Bf6 K@d8 4... {w"), "{pgn}");
    assert_eq!(
        p.last_move
            .as_deref()
            .map(|m| m.starts_with("Ka") || m.len() >= 4),
        Some(true)
    );
}

#[test]
fn the_image_marks_stacked_and_moved_pieces_and_shows_the_card_and_decks() {
    use crate::render::Overlay;
    let mut g = game("p6N/q7/8/8/8/3B4/2Q2rb1/5rn1[KRRBPPkbnppp] w");
    say(&mut g, W, "Qc1").unwrap();
    let v = g.project(Viewer::Public).board;
    assert!(v.fixed_bottom);
    assert_eq!(v.bottom, Color::White);
    let discs = v
        .overlays
        .iter()
        .find_map(|o| match o {
            Overlay::Discs(d) => Some(d.clone()),
            _ => None,
        })
        .unwrap();
    let at = |s: &str| discs.iter().filter(|d| d.square == sq(s)).count();
    assert_eq!((at("f1"), at("g1"), at("f2"), at("g2")), (1, 1, 1, 0));
    // The queen on c1: stacked now, and moved first this turn.
    let c1: Vec<_> = discs.iter().filter(|d| d.square == sq("c1")).collect();
    assert_eq!(c1.len(), 2);
    assert!(c1.iter().any(|d| d.label.as_deref() == Some("1")));
    let cards = v
        .overlays
        .iter()
        .find_map(|o| match o {
            Overlay::Cards(r) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(cards.cards.len(), 1);
    assert!(
        cards.label.contains("decks W 5, B 6 · score W "),
        "{}",
        cards.label
    );
    assert!(v
        .caption
        .phase
        .as_deref()
        .unwrap()
        .starts_with("move all active pieces"));
}

#[test]
fn the_fen_lists_the_pieces_waiting_in_a_fixed_order() {
    let g = game(MOVE_ORDER);
    let f = g.project(Viewer::Public).fen;
    assert_eq!(
        f,
        "4P3/4B3/r3P3/1n2b3/8/8/8/8[KQRRBNNPPkqrbnpppp] w - - 0 4"
    );
    let _ = Role::Pawn;
}
