//! Legal moves as each viewer sees them, and the stored JSON form of actions.

use super::*;
use crate::variants::api::{Action, Apply, GameRules, Viewer};

fn mv(uci: &str) -> Action {
    Action::of(&ChessAction::Move(uci.into())).unwrap()
}

#[test]
fn legal_moves_are_the_movers_in_san_and_nobody_elses() {
    let mut g = ChessRules::new(Variant::STANDARD);
    let legal = |g: &ChessRules, s: u8| g.project(Viewer::Seat(Seat(s))).legal;
    let white = legal(&g, 0);
    assert_eq!(white.len(), 20);
    assert!(white.contains(&"Nf3".to_string()) && white.contains(&"e4".to_string()));
    assert!(legal(&g, 1).is_empty(), "not Black's turn");
    assert!(g.project(Viewer::Public).legal.is_empty());
    g.apply(Seat(0), &mv("f2f3")).unwrap();
    g.apply(Seat(1), &mv("e7e5")).unwrap();
    g.apply(Seat(0), &mv("g2g4")).unwrap();
    assert!(legal(&g, 1).contains(&"Qh4#".to_string()));
    g.apply(Seat(1), &mv("d8h4")).unwrap();
    assert!(legal(&g, 0).is_empty(), "the game is over");
    let sharp = ChessRules::new(Variant::CHESS_SHARP);
    assert!(legal(&sharp, 0).iter().all(|m| m.contains('@')));
}

#[test]
fn stored_actions_keep_their_json() {
    let json = |a: &ChessAction| serde_json::to_string(&Action::of(a).unwrap()).unwrap();
    assert_eq!(
        json(&ChessAction::Move("e2e4".into())),
        r#"{"Move":"e2e4"}"#
    );
    assert_eq!(json(&ChessAction::Resign), r#""Resign""#);
    assert_eq!(
        json(&ChessAction::Claim(ClaimKind::Draw, None)),
        r#"{"Claim":["Draw",null]}"#
    );
    assert_eq!(
        json(&ChessAction::Offer(OfferKind::FastFifty)),
        r#"{"Offer":"FastFifty"}"#
    );
    assert_eq!(
        Action::timeout(),
        Action::of(&ChessAction::Timeout).unwrap()
    );
    assert_eq!(Action::abort(), Action::of(&ChessAction::Abort).unwrap());
}

/// Three-check's checks given are public: in the counters of status lines, under the text
/// diagram, in the export's fields and on the board image; a variant without a check
/// limit (or tokens) has no counters at all.
#[test]
fn the_checks_given_are_counted_in_words_and_fields() {
    let three_check = Variant::of(&crate::variants::three_check::CONFIG);
    let mut g = ChessRules::new(three_check);
    let counters = |g: &ChessRules| g.project(Viewer::Public).counters;
    assert_eq!(
        counters(&g).as_deref(),
        Some("checks given: White 0 of 3, Black 0 of 3")
    );
    for uci in ["e2e4", "d7d5", "f1b5"] {
        g.apply(Seat(g.game.turn().index() as u8), &mv(uci))
            .unwrap();
    }
    let p = g.project(Viewer::Public);
    assert_eq!(
        p.counters.as_deref(),
        Some("checks given: White 1 of 3, Black 0 of 3")
    );
    assert!(
        p.diagram
            .ends_with("\nchecks given: White 1 of 3, Black 0 of 3"),
        "{}",
        p.diagram
    );
    assert!(p.board.overlays.contains(&crate::render::Overlay::Checks {
        side: Color::White,
        given: 1,
        limit: 3
    }));
    assert_eq!(
        g.export_fields(Viewer::Public)["checks_given"],
        serde_json::json!([1, 0])
    );

    let standard = ChessRules::new(Variant::STANDARD);
    assert_eq!(counters(&standard), None);
    assert!(standard.export_fields(Viewer::Public).is_empty());
    assert!(!standard.project(Viewer::Public).diagram.contains("checks"));
    let double = ChessRules::new(Variant::DOUBLE_MOVE);
    assert_eq!(
        counters(&double).as_deref(),
        Some("double-move tokens left: White 4, Black 4")
    );
}
