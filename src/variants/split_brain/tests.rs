//! The game's own tests: picks, reveals, decisions, ties, roles, refusals, secrecy,
//! snapshots, promotion, team actions, and the stored JSON of its actions.

use super::*;
use crate::render::Overlay;
use crate::variants::api::{Action, Apply, Audience, RefusalKind, VariantSpec};
use crate::variants::chess::ChessAction;

const WK: Seat = Seat(0);
const WQ: Seat = Seat(1);
const BK: Seat = Seat(2);
const BQ: Seat = Seat(3);

fn act(g: &mut SplitBrain, seat: Seat, a: SplitAction) -> Result<Vec<Note>, RuleError> {
    g.apply(seat, &Action::of(&a).unwrap())
}

/// Who is awaited, for what, without the ready answers (a pick's squares as buttons).
fn asked(g: &dyn GameRules) -> Vec<(Seat, Prompt)> {
    g.awaiting()
        .into_iter()
        .map(|(s, p)| {
            (
                s,
                Prompt {
                    answers: Vec::new(),
                    ..p
                },
            )
        })
        .collect()
}

fn pick(g: &mut SplitBrain, seat: Seat, sq: &str) -> Result<Vec<Note>, RuleError> {
    act(g, seat, SplitAction::Pick(sq.into()))
}

fn fen(g: &SplitBrain) -> String {
    g.project(Viewer::Public).fen
}

/// The notes written with seat names, as the referee writes them with player names.
fn said(notes: &[Note]) -> Vec<String> {
    notes
        .iter()
        .map(|n| n.text.render(|s| SEAT_NAMES[s.0 as usize].to_string()))
        .collect()
}

/// The move a note of the board's change announces (`Nd3` from `... played Nd3`).
fn moved(notes: &[Note]) -> Option<String> {
    notes.iter().find(|n| n.board).map(|n| {
        let t = n.text.render(|_| String::new());
        t.rsplit("played ").next().unwrap_or_default().to_string()
    })
}

#[test]
fn a_direct_legal_pick_is_played() {
    let mut g = SplitBrain::new();
    assert_eq!(
        asked(&g),
        vec![(WK, pick_piece_prompt()), (WQ, pick_target_prompt())]
    );
    let notes = pick(&mut g, WK, "e1").unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].to, Audience::Seat(WK));
    assert_eq!(asked(&g), vec![(WQ, pick_target_prompt())]);
    let notes = pick(&mut g, WQ, "d3").unwrap();
    assert_eq!(notes[0].to, Audience::Everyone);
    assert_eq!(
        said(&notes),
        vec![
            "revealed: White king side picked the knight on e1, White queen side picked the target d3",
            "White queen side played Nd3",
        ]
    );
    assert!(notes.iter().all(|n| n.to == Audience::Everyone));
    assert_eq!(moved(&notes).as_deref(), Some("Nd3"));
    assert_eq!(fen(&g), "rnqknr/pppppp/6/3N2/PPPPPP/RNQK1R b - - 1 1");
    assert_eq!(
        asked(&g),
        vec![(BK, pick_piece_prompt()), (BQ, pick_target_prompt())]
    );
}

#[test]
fn the_piece_standing_with_one_closest_move_is_played_by_the_bot() {
    let mut g = SplitBrain::new();
    pick(&mut g, WQ, "a3").unwrap();
    let notes = pick(&mut g, WK, "e1").unwrap();
    assert!(moved(&notes).is_none(), "Ne1 cannot reach a3");
    assert_eq!(
        said(&notes)[1],
        "the knight on e1 cannot move to a3: the opposing chooser decides whether the piece or the target stands"
    );
    assert_eq!(g.awaiting(), vec![(BK, decide_prompt())]);
    let decide = decide_prompt();
    let answers: Vec<(&str, &str, bool)> = decide
        .answers
        .iter()
        .map(|a| (a.label.as_str(), a.command.as_str(), a.primary))
        .collect();
    assert_eq!(
        answers,
        [
            ("Piece stands", "decide piece", false),
            ("Target stands", "decide target", false)
        ]
    );
    // Only Black's chooser of this round decides.
    for s in [WK, WQ, BQ] {
        assert!(act(&mut g, s, SplitAction::Decide(Standing::Piece)).is_err());
    }
    let notes = act(&mut g, BK, SplitAction::Decide(Standing::Piece)).unwrap();
    assert_eq!(said(&notes)[0], "the piece stands");
    // Ne1's moves: d3 (3 steps from a3) and f3 (5 steps).
    assert_eq!(moved(&notes).as_deref(), Some("Nd3"));
}

#[test]
fn the_target_standing_with_a_tie_is_chosen_by_the_chooser() {
    let mut g = SplitBrain::new();
    pick(&mut g, WK, "e1").unwrap();
    pick(&mut g, WQ, "c3").unwrap();
    let notes = act(&mut g, BK, SplitAction::Decide(Standing::Target)).unwrap();
    assert!(moved(&notes).is_none());
    assert_eq!(
        said(&notes)[1],
        "2 options are equally close (b1, c2): the chooser chooses one"
    );
    // c3 is reached by the pawn c2 and the knight b1, both three steps from e1.
    let options = vec!["b1".to_string(), "c2".to_string()];
    assert_eq!(g.awaiting(), vec![(WK, choose_prompt(&options))]);
    assert_eq!(choose_prompt(&options).ask, "to choose one of b1, c2");
    assert!(act(&mut g, WQ, SplitAction::Choose("b1".into())).is_err());
    let err = act(&mut g, WK, SplitAction::Choose("e1".into())).unwrap_err();
    assert!(err.text.contains("not one of the options"), "{err}");
    let notes = act(&mut g, WK, SplitAction::Choose("b1".into())).unwrap();
    assert_eq!(moved(&notes).as_deref(), Some("Nc3"));
    // The move is the mover's, as every move of the team is.
    assert_eq!(said(&notes), ["White queen side played Nc3"]);
}

#[test]
fn the_piece_standing_with_a_tie_is_chosen_by_the_mover() {
    let mut g = SplitBrain::new();
    pick(&mut g, WK, "b1").unwrap();
    pick(&mut g, WQ, "b3").unwrap();
    act(&mut g, BK, SplitAction::Decide(Standing::Piece)).unwrap();
    let options = vec!["a3".to_string(), "c3".to_string()];
    assert_eq!(g.awaiting(), vec![(WQ, choose_prompt(&options))]);
    let notes = act(&mut g, WQ, SplitAction::Choose("a3".into())).unwrap();
    assert_eq!(moved(&notes).as_deref(), Some("Na3"));
}

#[test]
fn the_chooser_role_alternates_every_round() {
    let mut g = SplitBrain::new();
    let mut choosers = Vec::new();
    let plays = [
        ("e1", "d3"),
        ("e6", "d4"),
        ("b1", "c3"),
        ("b6", "c4"),
        ("a2", "a3"),
    ];
    for (piece, target) in plays {
        let team = g.team_to_move();
        let (c, m) = (g.chooser(team), g.mover(team));
        choosers.push((team, c, g.checker_on_king_side()));
        pick(&mut g, c, piece).unwrap();
        let notes = pick(&mut g, m, target).unwrap();
        assert!(moved(&notes).is_some(), "{piece}-{target}");
    }
    assert_eq!(
        choosers,
        vec![
            (Color::White, WK, true),
            (Color::Black, BK, true),
            (Color::White, WQ, false),
            (Color::Black, BQ, false),
            (Color::White, WK, true),
        ]
    );
}

#[test]
fn invalid_picks_are_refused_with_the_valid_squares() {
    let mut g = SplitBrain::new();
    let e = pick(&mut g, WK, "c4").unwrap_err();
    assert!(
        e.text
            .starts_with("c4 is empty: pick one of your pieces that can move: a2 b1 b2"),
        "{e}"
    );
    assert!(e.text.contains("b1") && !e.text.contains("a1"), "{e}");
    let e = pick(&mut g, WK, "a1").unwrap_err();
    assert!(
        e.text.starts_with("the rook on a1 has no legal move"),
        "{e}"
    );
    let e = pick(&mut g, WK, "d6").unwrap_err();
    assert!(e.text.starts_with("d6 holds an opponent's piece"), "{e}");
    let e = pick(&mut g, WQ, "c4").unwrap_err();
    assert!(
        e.text
            .starts_with("none of your pieces can move to c4: pick one of a3"),
        "{e}"
    );
    let e = pick(&mut g, WQ, "z9").unwrap_err();
    assert!(e.text.contains("couldn't read 'z9'"), "{e}");
    assert_eq!(e.kind, RefusalKind::Syntax);
    let e = pick(&mut g, WQ, "a3=B").unwrap_err();
    assert!(e.text.contains("no pawn of yours can promote on a3"), "{e}");
    let e = pick(&mut g, BK, "e6").unwrap_err();
    assert!(e.text.contains("not your team's"), "{e}");
    assert_eq!(e.kind, RefusalKind::NotYourTurn);
    // A move of another variant is not one of this game's actions.
    let e = g
        .apply(WK, &Action::of(&ChessAction::Move("e1d3".into())).unwrap())
        .unwrap_err();
    assert_eq!(e.kind, RefusalKind::NotHere);
    assert_eq!(
        g.snapshot().unwrap(),
        SplitBrain::new().snapshot().unwrap(),
        "nothing changed"
    );
}

#[test]
fn a_pick_may_change_until_the_partner_picks() {
    let mut g = SplitBrain::new();
    pick(&mut g, WK, "b1").unwrap();
    pick(&mut g, WK, "e1").unwrap();
    let notes = pick(&mut g, WQ, "f3").unwrap();
    assert_eq!(moved(&notes).as_deref(), Some("Nf3"));
    // Both picked: the next pick belongs to the next turn, and White's is refused.
    assert!(pick(&mut g, WK, "b1").is_err());
}

#[test]
fn picks_stay_secret_until_the_reveal() {
    let mut g = SplitBrain::new();
    let public_before = g.project(Viewer::Public);
    let partner_before = g.project(Viewer::Seat(WQ));
    pick(&mut g, WK, "e1").unwrap();
    let public = g.project(Viewer::Public);
    let partner = g.project(Viewer::Seat(WQ));
    let own = g.project(Viewer::Seat(WK));
    assert_eq!(public, public_before, "the public sees nothing of the pick");
    assert_eq!(partner, partner_before, "nor does the partner");
    for v in [&public, &partner] {
        assert!(!v.diagram.contains("e1") && !v.diagram.contains("pick"));
        assert!(!v
            .board
            .overlays
            .iter()
            .any(|o| matches!(o, Overlay::Discs(_))));
    }
    assert!(own.diagram.contains("your pick: e1"));
    assert!(own
        .board
        .overlays
        .iter()
        .any(|o| matches!(o, Overlay::Discs(_))));
    let wq = crate::variants::api::typed_commands(&partner.instructions.unwrap());
    assert!(wq.starts_with("you are the mover: pick a square one of your pieces can reach, privately, e.g. `pick a3`"), "{wq}");
    assert!(wq.contains("Your choices: a3 b3"), "{wq}");
    assert!(own.instructions.is_none(), "the chooser has answered");
    assert!(public.instructions.is_none());
    assert!(public.legal.is_empty() && own.legal.is_empty());
}

#[test]
fn snapshots_keep_picks_and_phase() {
    let mut g = SplitBrain::new();
    pick(&mut g, WK, "e1").unwrap();
    let snap: SplitSnapshot = serde_json::from_value(g.snapshot().unwrap()).unwrap();
    let mut h = SplitBrain::from_snapshot(&snap).unwrap();
    assert_eq!(h.snapshot().unwrap(), g.snapshot().unwrap());
    pick(&mut h, WQ, "a3").unwrap();
    let snap: SplitSnapshot = serde_json::from_value(h.snapshot().unwrap()).unwrap();
    assert_eq!(snap.phase, Phase::Deciding);
    let h2 = SPEC.load(&h.snapshot().unwrap()).unwrap();
    assert_eq!(h2.awaiting(), vec![(BK, decide_prompt())]);
}

#[test]
fn a_stored_snapshot_of_the_old_form_loads() {
    // Written by the game before the port: a pick made, and a tie to break.
    let picking = serde_json::json!({
        "chess": {"variant": "los-alamos", "moves": [], "fen": "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", "offer": null, "outcome": null, "aborted": false},
        "picks": {"piece": "e1", "target": null, "promotion": null},
        "phase": "Picking"
    });
    let g = SPEC.load(&picking).unwrap();
    assert_eq!(asked(g.as_ref()), vec![(WQ, pick_target_prompt())]);
    assert_eq!(g.snapshot().unwrap(), in_new_form(picking));
    let choosing = serde_json::json!({
        "chess": {"variant": "los-alamos", "moves": [], "fen": "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", "offer": null, "outcome": null, "aborted": false},
        "picks": {"piece": "e1", "target": "c3", "promotion": null},
        "phase": {"Choosing": {"standing": "Target", "by": 0, "options": ["b1", "c2"]}}
    });
    let g = SPEC.load(&choosing).unwrap();
    let options = vec!["b1".to_string(), "c2".to_string()];
    assert_eq!(g.awaiting(), vec![(WK, choose_prompt(&options))]);
    assert_eq!(g.snapshot().unwrap(), in_new_form(choosing));
}

/// An old snapshot as the game writes it back: the same, with the chess game's ply count
/// (none here: no move made) in place of its moves, which the action log keeps.
fn in_new_form(mut old: serde_json::Value) -> serde_json::Value {
    let chess = old["chess"].as_object_mut().unwrap();
    chess.remove("moves");
    chess.insert("plies".into(), serde_json::json!(0));
    // No offer and no abort are left out.
    if chess.get("offer") == Some(&serde_json::Value::Null) {
        chess.remove("offer");
    }
    if chess.get("aborted") == Some(&serde_json::json!(false)) {
        chess.remove("aborted");
    }
    old
}

#[test]
fn promotion_follows_the_movers_letter_or_is_a_queen() {
    let start = "3k2/P5/6/6/6/3K2 w - - 0 1";
    let mut g = SplitBrain::from_fen(start).unwrap();
    pick(&mut g, WK, "a5").unwrap();
    let notes = pick(&mut g, WQ, "a6=N").unwrap();
    assert!(said(&notes)[0].ends_with("picked the target a6 (promoting to N)"));
    assert_eq!(moved(&notes).as_deref(), Some("a6=N"));
    let mut g = SplitBrain::from_fen(start).unwrap();
    pick(&mut g, WK, "a5").unwrap();
    let notes = pick(&mut g, WQ, "a6").unwrap();
    assert_eq!(moved(&notes).as_deref(), Some("a6=Q+"));
}

#[test]
fn team_actions_resign_and_draws() {
    let mut g = SplitBrain::new();
    let notes = act(&mut g, WQ, SplitAction::Offer(OfferKind::Draw)).unwrap();
    assert_eq!(
        said(&notes)
            .iter()
            .map(|t| crate::variants::api::typed_commands(t))
            .collect::<Vec<_>>(),
        ["White queen side proposes a draw: `draw accept` or `draw decline`"]
    );
    // The offer is for the other team, either partner; it holds up nobody.
    let answer = g
        .awaiting()
        .into_iter()
        .filter(|(_, p)| p.kind == "draw")
        .collect::<Vec<_>>();
    assert_eq!(answer.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [BK, BQ]);
    assert!(answer.iter().all(|(_, p)| !p.turn && !p.secret));
    assert_eq!(answer[0].1.ask, "to answer the draw offer");
    assert_eq!(answer[0].1.answers[0].command, "draw accept");
    let notes = act(&mut g, BQ, SplitAction::Decline(OfferKind::Draw)).unwrap();
    assert_eq!(said(&notes), ["Black queen side declined the draw"]);
    let notes = act(&mut g, BK, SplitAction::Resign).unwrap();
    // The partner who resigned is named, not only the team.
    assert_eq!(said(&notes), ["Black king side resigns"]);
    assert_eq!(g.outcome().unwrap().result, "1-0");
    assert!(g.awaiting().is_empty());
    let e = pick(&mut g, WK, "e1").unwrap_err();
    assert_eq!(e.kind, RefusalKind::Over);
}

#[test]
fn an_offer_to_the_team_picking_lapses_with_its_move_declined_by_no_one() {
    let mut g = SplitBrain::new();
    act(&mut g, BQ, SplitAction::Offer(OfferKind::Draw)).unwrap();
    // Both White partners are asked to pick; the offer asks nobody else of theirs.
    assert_eq!(
        asked(&g),
        vec![(WK, pick_piece_prompt()), (WQ, pick_target_prompt())]
    );
    pick(&mut g, WK, "e1").unwrap();
    // alice has picked (the channel knows that much): she may answer the offer now.
    assert_eq!(asked(&g)[0], (WQ, pick_target_prompt()));
    assert_eq!(g.awaiting()[1].0, WK);
    assert_eq!(g.awaiting()[1].1.kind, "draw");
    let notes = pick(&mut g, WQ, "f3").unwrap();
    assert_eq!(
        said(&notes)[1..],
        [
            "White queen side played Nf3",
            "the draw proposal lapses as play goes on"
        ]
    );
}

#[test]
fn abort_timeout_and_claims_are_the_teams() {
    let mut g = SplitBrain::new();
    act(&mut g, BQ, SplitAction::Abort).unwrap();
    assert!(g.aborted() && g.is_over());
    let mut g = SplitBrain::new();
    act(&mut g, BK, SplitAction::Timeout).unwrap();
    assert_eq!(g.outcome().unwrap().result, "1-0");
    let mut g = SplitBrain::new();
    let e = act(
        &mut g,
        WK,
        SplitAction::Claim(ClaimKind::Draw, Some("e2e3".into())),
    )
    .unwrap_err();
    assert_eq!(
        crate::variants::api::typed_commands(&e.text),
        "in Split-Brain Chess a claim names no move: write `claim draw`"
    );
    assert!(act(&mut g, WK, SplitAction::Claim(ClaimKind::Draw, None)).is_err());
    assert!(g.timeout_is_automatic());
}

#[test]
fn commands_read_into_actions() {
    let g = SplitBrain::new();
    let read = |word: &str, rest: &str| g.read(WK, &GameCommand::new(word, rest), Env::default());
    let action = |word: &str, rest: &str| match read(word, rest) {
        Ok(Reading::Act(a)) => a.to::<SplitAction>("split-brain").unwrap(),
        other => panic!("{word} {rest}: {other:?}"),
    };
    assert_eq!(action("pick", "C6=N"), SplitAction::Pick("C6=N".into()));
    assert_eq!(action("pick", "c6 n"), SplitAction::Pick("c6 n".into()));
    assert_eq!(
        action("decide", "PIECE"),
        SplitAction::Decide(Standing::Piece)
    );
    assert_eq!(
        action("decide", "target"),
        SplitAction::Decide(Standing::Target)
    );
    assert_eq!(
        action("decide", "square"),
        SplitAction::Decide(Standing::Target)
    );
    assert_eq!(action("choose", "b1"), SplitAction::Choose("b1".into()));
    assert_eq!(action("draw", "offer"), SplitAction::Offer(OfferKind::Draw));
    assert_eq!(
        action("draw", "accept"),
        SplitAction::Accept(OfferKind::Draw)
    );
    assert_eq!(
        action("draw", "decline"),
        SplitAction::Decline(OfferKind::Draw)
    );
    assert_eq!(
        action("claim", "draw"),
        SplitAction::Claim(ClaimKind::Draw, None)
    );
    let e = read("decide", "maybe").unwrap_err();
    assert_eq!(e.kind, RefusalKind::Syntax);
    let usage = crate::variants::api::typed_commands(&e.text);
    assert!(usage.starts_with("usage: decide [ID] piece|target"), "{e}");
    let e = read("claim", "time").unwrap_err();
    assert!(e.text.contains("ends a game on time by itself"), "{e}");
    let e = read("claim", "draw e3").unwrap_err();
    assert!(e.text.contains("a claim names no move"), "{e}");
    assert_eq!(read("move", "e4").unwrap_err().kind, RefusalKind::NotHere);
    // What a pick said is the game's to judge when it is applied, not the reader's.
    let mut g = SplitBrain::new();
    let Ok(Reading::Act(a)) = read("pick", "e4 extra") else {
        panic!("read")
    };
    let e = g.apply(WQ, &a).unwrap_err();
    assert_eq!(
        e.text,
        "couldn't read 'e4 extra' as a square: pick like b1, or c6=N for a promotion"
    );
}

#[test]
fn stored_actions_keep_their_json() {
    let json = |a: &SplitAction| serde_json::to_string(&Action::of(a).unwrap()).unwrap();
    assert_eq!(json(&SplitAction::Pick("b1".into())), r#"{"Pick":"b1"}"#);
    assert_eq!(
        json(&SplitAction::Decide(Standing::Piece)),
        r#"{"Decide":"Piece"}"#
    );
    assert_eq!(
        json(&SplitAction::Decide(Standing::Target)),
        r#"{"Decide":"Target"}"#
    );
    assert_eq!(
        json(&SplitAction::Choose("c3".into())),
        r#"{"Choose":"c3"}"#
    );
    assert_eq!(json(&SplitAction::Resign), r#""Resign""#);
    assert_eq!(
        json(&SplitAction::Offer(OfferKind::Draw)),
        r#"{"Offer":"Draw"}"#
    );
    assert_eq!(
        json(&SplitAction::Accept(OfferKind::Draw)),
        r#"{"Accept":"Draw"}"#
    );
    assert_eq!(
        json(&SplitAction::Decline(OfferKind::Draw)),
        r#"{"Decline":"Draw"}"#
    );
    assert_eq!(
        json(&SplitAction::Claim(ClaimKind::Draw, None)),
        r#"{"Claim":["Draw",null]}"#
    );
    assert_eq!(Action::resign(), Action::of(&SplitAction::Resign).unwrap());
    assert_eq!(
        Action::timeout(),
        Action::of(&SplitAction::Timeout).unwrap()
    );
    assert_eq!(Action::abort(), Action::of(&SplitAction::Abort).unwrap());
    // An old log's entries read back as this game's actions.
    let old: Action = serde_json::from_str(r#"{"Decide":"Target"}"#).unwrap();
    assert_eq!(
        old.to::<SplitAction>("split-brain").unwrap(),
        SplitAction::Decide(Standing::Target)
    );
}

#[test]
fn names_of_the_teams_and_of_the_roles() {
    let mut g = SplitBrain::new();
    let names = ["alice", "bob", "carol", "dave"];
    assert_eq!(g.side_names(&names), ["alice & bob", "carol & dave"]);
    assert_eq!(
        g.caption_names(&names),
        [
            "alice (chooser) & bob (mover)",
            "carol (chooser) & dave (mover)"
        ]
    );
    pick(&mut g, WK, "e1").unwrap();
    pick(&mut g, WQ, "f3").unwrap();
    pick(&mut g, BK, "e6").unwrap();
    pick(&mut g, BQ, "f4").unwrap();
    assert_eq!(
        g.caption_names(&names),
        [
            "bob (chooser) & alice (mover)",
            "dave (chooser) & carol (mover)"
        ]
    );
    let pgn = g.pgn(Viewer::Public, &[]);
    assert!(pgn.contains("[Variant \"split-brain\"]"), "{pgn}");
    let movetext = pgn.replace('\n', " ");
    assert!(
        movetext.contains("1. Nf3 {piece e1, target f3} Nf4 {piece e6, target f4}"),
        "{pgn}"
    );
}

#[test]
fn the_record_gives_each_turns_revealed_picks_and_never_a_secret_one() {
    let mut g = SplitBrain::new();
    pick(&mut g, WK, "e1").unwrap();
    pick(&mut g, WQ, "f3").unwrap();
    // The knight on e6 cannot reach a4: White's chooser lets the target stand, and of
    // the pieces that can go there the one closest to e6, the knight on b6, does.
    pick(&mut g, BK, "e6").unwrap();
    pick(&mut g, BQ, "a4").unwrap();
    assert_eq!(g.awaiting(), vec![(WK, decide_prompt())]);
    act(&mut g, WK, SplitAction::Decide(Standing::Target)).unwrap();
    // White's next chooser picks in secret: nothing of it is in the record.
    pick(&mut g, WQ, "a2").unwrap();
    let pgn = g.pgn(Viewer::Public, &[]).replace('\n', " ");
    assert!(
        pgn.contains("1. Nf3 {piece e1, target f3} Na4 {piece e6, target a4; the target stands} *"),
        "{pgn}"
    );
    assert!(
        !pgn.contains("a2"),
        "a secret pick reached the record: {pgn}"
    );
    // A snapshot holds no move (the record is the log's replay, which the referee makes):
    // the game loaded from it is the same game, its revealed picks kept. A game stored
    // before keeps none.
    let h = SPEC.load(&g.snapshot().unwrap()).unwrap();
    assert_eq!(h.snapshot().unwrap(), g.snapshot().unwrap());
    let mut old = SplitBrain::new();
    old.keep_no_record_of_picks();
    pick(&mut old, WK, "e1").unwrap();
    pick(&mut old, WQ, "f3").unwrap();
    assert!(!old.snapshot().unwrap().to_string().contains("said"));
    assert!(old.pgn(Viewer::Public, &[]).contains("1. Nf3 *"));
}

#[test]
fn split_brain_a_promotion_is_refused_where_nothing_can_promote() {
    let mut g = SplitBrain::new();
    let e = pick(&mut g, WQ, "a3=Q").unwrap_err();
    assert_eq!(
        e.text,
        "no pawn of yours can promote on a3: pick a3 without a piece"
    );
    assert!(g.picks.target.is_none(), "nothing was picked");
    pick(&mut g, WQ, "a3").unwrap();
}

#[test]
fn a_pick_offers_its_few_squares_as_answers_from_the_public_board() {
    let mut g = SplitBrain::new();
    let answers = |g: &SplitBrain, seat: Seat| -> Vec<String> {
        g.awaiting()
            .into_iter()
            .filter(|(s, _)| *s == seat)
            .flat_map(|(_, p)| p.answers.into_iter().map(|a| a.command))
            .collect()
    };
    // The chooser: the pieces that can move; the mover: the squares they reach.
    let pieces = answers(&g, WK);
    assert!(pieces.contains(&"pick e1".to_string()), "{pieces:?}");
    assert!(
        !pieces.contains(&"pick a1".to_string()),
        "the rook cannot move"
    );
    let targets = answers(&g, WQ);
    assert!(targets.contains(&"pick f3".to_string()), "{targets:?}");
    // A pick changes nothing the partner is offered: the answers come from the board.
    pick(&mut g, WK, "e1").unwrap();
    assert_eq!(answers(&g, WQ), targets);
}

#[test]
fn the_public_image_reads_the_same_before_and_after_a_pick() {
    let mut g = SplitBrain::new();
    let board = |g: &SplitBrain| g.project(Viewer::Public).board;
    let before = board(&g);
    assert_eq!(
        before.caption.phase.as_deref(),
        Some(super::view::PICKING_WORDS)
    );
    pick(&mut g, WK, "e1").unwrap();
    assert_eq!(
        board(&g),
        before,
        "the chooser's pick shows nowhere in public"
    );
    let mut other = SplitBrain::new();
    pick(&mut other, WQ, "d3").unwrap();
    assert_eq!(board(&other), before, "nor does the mover's");
}
