//! Claims and resignations as the players read them.

use super::*;
use crate::variants::api::{Action, Apply, Note};

fn mv(uci: &str) -> Action {
    Action::of(&ChessAction::Move(uci.into())).unwrap()
}

fn said(notes: &[Note]) -> Vec<String> {
    notes
        .iter()
        .map(|n| {
            n.text
                .render(|s| ["White", "Black"][s.0 as usize].to_string())
        })
        .collect()
}

#[test]
fn a_refused_draw_claim_gives_the_fifty_move_count() {
    let mut g = ChessRules::new(Variant::STANDARD);
    for (s, uci) in [(0, "g1f3"), (1, "g8f6"), (0, "f3g1")] {
        g.apply(Seat(s), &mv(uci)).unwrap();
    }
    let e = g
        .apply(
            Seat(1),
            &Action::of(&ChessAction::Claim(ClaimKind::Draw, None)).unwrap(),
        )
        .unwrap_err();
    assert!(e.text.contains("occurred 1 time"), "{}", e.text);
    assert!(
        e.text
            .contains("only 1 move by each side without a pawn move or capture"),
        "{}",
        e.text
    );
}

#[test]
fn a_resignation_and_a_claim_say_who() {
    let mut g = ChessRules::new(Variant::STANDARD);
    let notes = g.apply(Seat(1), &Action::resign()).unwrap();
    assert_eq!(said(&notes), ["Black resigns"]);
    let mut g = ChessRules::new(Variant::STANDARD);
    for (s, uci) in [
        (0, "g1f3"),
        (1, "g8f6"),
        (0, "f3g1"),
        (1, "f6g8"),
        (0, "g1f3"),
        (1, "g8f6"),
        (0, "f3g1"),
    ] {
        g.apply(Seat(s), &mv(uci)).unwrap();
    }
    let claim = ChessAction::Claim(ClaimKind::Draw, Some("f6g8".into()));
    let notes = g.apply(Seat(1), &Action::of(&claim).unwrap()).unwrap();
    assert_eq!(
        said(&notes),
        [
            "Black played Ng8",
            "Black claims a draw by threefold repetition"
        ]
    );
}
