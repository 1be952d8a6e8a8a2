//! Takebacks by agreement through the referee: a proposal accepted (the position is the
//! one before the move, the log holds both entries and replays, a restart keeps it, the
//! proposer moves again with a fresh deadline), declined, refused where it is not allowed
//! (no `takebacks:on`, a rated game, a variant with hidden information, someone else's
//! move or game, one's own proposal) and lapsed when the opponent moves instead.

use crate::common;

use common::service::{check_log, open, say, TempDir, T0};
use postal::service::referee::{Outbound, Service};
use postal::variants::api::{Action, NewGame, RefusalKind, Seat, TakebackStep};
use postal::variants::Registry;

const DAY: i64 = 86_400;

fn text(out: &[Outbound]) -> String {
    out.iter()
        .map(|o| o.text.as_str())
        .collect::<Vec<_>>()
        .join(" | ")
}

fn refusal(out: &[Outbound]) -> Option<RefusalKind> {
    out.first().and_then(|o| o.refusal)
}

/// alice (White) challenges bob to a game of `options` at `T0`; bob accepts.
async fn start(svc: &Service, options: &str) -> String {
    let out = say(
        svc,
        "c",
        "alice",
        &format!("challenge @bob {options} colour:white"),
        T0,
    )
    .await;
    let challenge = text(&out);
    assert!(challenge.contains("challenges"), "{challenge}");
    let out = say(svc, "a", "bob", "accept", T0).await;
    assert!(text(&out).contains("accepted"), "{}", text(&out));
    challenge
}

async fn snapshot(svc: &Service, id: i64) -> String {
    svc.store().game(id).await.unwrap().unwrap().snapshot
}

async fn deadline(svc: &Service, id: i64, seat: u8) -> Option<i64> {
    let g = svc.store().game(id).await.unwrap().unwrap();
    g.deadlines
        .iter()
        .find(|d| d.seat == seat)
        .map(|d| d.due_at)
}

async fn log_of(svc: &Service, id: i64) -> Vec<String> {
    svc.store()
        .actions(id)
        .await
        .unwrap()
        .into_iter()
        .map(|r| format!("{}:{}", r.seat, r.action))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accepted_takeback_restores_the_position_and_survives_a_restart() {
    let dir = TempDir::new("takeback-accept");
    let db = dir.db();
    let svc = open(&db).await;
    let challenge = start(&svc, "standard takebacks:on").await;
    assert!(
        challenge.contains("unrated, takebacks allowed"),
        "{challenge}"
    );
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert!(g.options.contains(r#""rated":"no""#), "{}", g.options);
    assert!(g.options.contains(r#""takebacks":"on""#), "{}", g.options);

    say(&svc, "m1", "alice", "e4", T0 + 10).await;
    say(&svc, "m2", "bob", "e5", T0 + 20).await;
    let before = snapshot(&svc, 1).await;
    let out = say(&svc, "m3", "alice", "Nf3", T0 + 30).await;
    assert!(text(&out).contains("played Nf3"), "{}", text(&out));
    let bob_due = deadline(&svc, 1, 1).await.unwrap();

    let out = say(&svc, "t1", "alice", "takeback", T0 + 40).await;
    assert_eq!(refusal(&out), None, "{}", text(&out));
    assert!(
        text(&out).contains("alice (White) proposes taking back their last move"),
        "{}",
        text(&out)
    );
    // The buttons are bob's alone, each with the game's id.
    let buttons = &out[0].buttons;
    assert_eq!(buttons.len(), 2, "{buttons:?}");
    assert_eq!(buttons[0].command, "takeback #1 accept");
    assert_eq!(buttons[1].command, "takeback #1 decline");
    assert!(buttons.iter().all(|b| b.for_user.as_deref() == Some("bob")));
    // A proposal changes neither the position nor bob's deadline.
    assert_eq!(deadline(&svc, 1, 1).await, Some(bob_due));
    assert!(deadline(&svc, 1, 0).await.is_none());

    // A second proposal, and the proposer's own acceptance, are refused.
    let out = say(&svc, "t2", "alice", "takeback", T0 + 41).await;
    assert_eq!(refusal(&out), Some(RefusalKind::Illegal), "{}", text(&out));
    assert!(text(&out).contains("already proposed"), "{}", text(&out));
    let out = say(&svc, "t3", "alice", "takeback accept", T0 + 42).await;
    assert_eq!(refusal(&out), Some(RefusalKind::Illegal), "{}", text(&out));
    assert!(text(&out).contains("your own"), "{}", text(&out));
    let out = say(&svc, "t4", "bob", "takeback", T0 + 43).await;
    assert!(text(&out).contains("answer it first"), "{}", text(&out));
    // Someone not in the game.
    let out = say(&svc, "t5", "carol", "takeback 1 accept", T0 + 44).await;
    assert_eq!(
        refusal(&out),
        Some(RefusalKind::NotYourGame),
        "{}",
        text(&out)
    );

    let at = T0 + DAY;
    let out = say(&svc, "t6", "bob", "takeback #1 accept", at).await;
    assert_eq!(refusal(&out), None, "{}", text(&out));
    assert!(
        text(&out).contains("bob (Black) accepts the takeback proposed by alice (White)"),
        "{}",
        text(&out)
    );
    assert!(out[0].image.is_some(), "the new position's board is posted");
    assert_eq!(snapshot(&svc, 1).await, before, "the position before Nf3");
    assert_eq!(
        log_of(&svc, 1).await[3..],
        [
            r#"0:{"Takeback":"Offer"}"#.to_string(),
            r#"1:{"Takeback":"Accept"}"#.to_string()
        ]
    );
    assert_eq!(check_log(svc.store(), 1).await, 5);
    // White is to move again, with a fresh deadline; Black awaits nothing.
    assert_eq!(deadline(&svc, 1, 0).await, Some(at + 3 * DAY));
    assert!(deadline(&svc, 1, 1).await.is_none());
    let out = say(&svc, "m4", "bob", "Nc6", at + 1).await;
    assert_eq!(
        refusal(&out),
        Some(RefusalKind::NotYourTurn),
        "{}",
        text(&out)
    );

    svc.store().close().await;
    drop(svc);
    let svc = open(&db).await;
    assert_eq!(snapshot(&svc, 1).await, before);
    assert_eq!(check_log(svc.store(), 1).await, 5);
    let out = say(&svc, "m5", "alice", "Nc3", at + 2).await;
    assert!(text(&out).contains("played Nc3"), "{}", text(&out));
    let out = say(&svc, "m6", "alice", "moves", at + 3).await;
    assert!(text(&out).contains("1. e4 e5 2. Nc3"), "{}", text(&out));
    let (_, pgn) = svc.record(1).await.unwrap().unwrap();
    assert!(pgn.contains("2. Nc3") && !pgn.contains("Nf3"), "{pgn}");
    assert_eq!(check_log(svc.store(), 1).await, 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_takeback_keeps_the_move_and_the_deadline() {
    let dir = TempDir::new("takeback-decline");
    let svc = open(&dir.db()).await;
    start(&svc, "standard takebacks:on").await;
    say(&svc, "m1", "alice", "d4", T0 + 10).await;
    let after = snapshot(&svc, 1).await;
    let bob_due = deadline(&svc, 1, 1).await;
    say(&svc, "t1", "alice", "takeback", T0 + 20).await;
    let out = say(&svc, "t2", "bob", "takeback decline", T0 + 30).await;
    assert!(
        text(&out).contains("bob (Black) declines the takeback proposed by alice (White)"),
        "{}",
        text(&out)
    );
    assert_eq!(snapshot(&svc, 1).await, after);
    assert_eq!(deadline(&svc, 1, 1).await, bob_due);
    assert_eq!(check_log(svc.store(), 1).await, 3);
    // One proposal per move: after the refusal, alice waits for her next move.
    let out = say(&svc, "t3", "alice", "takeback", T0 + 40).await;
    assert_eq!(refusal(&out), Some(RefusalKind::Illegal), "{}", text(&out));
    let out = say(&svc, "t4", "bob", "takeback accept", T0 + 50).await;
    assert!(
        text(&out).contains("no takeback proposal"),
        "{}",
        text(&out)
    );
    assert_eq!(check_log(svc.store(), 1).await, 3);
    // A rematch keeps the game's takebacks (and so stays unrated).
    say(&svc, "r1", "bob", "resign", T0 + 60).await;
    let out = say(&svc, "r2", "bob", "rematch 1", T0 + 70).await;
    assert!(
        text(&out).contains("unrated, takebacks allowed"),
        "{}",
        text(&out)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proposal_lapses_when_the_opponent_moves() {
    let dir = TempDir::new("takeback-lapse");
    let svc = open(&dir.db()).await;
    start(&svc, "standard takebacks:on").await;
    say(&svc, "m1", "alice", "e4", T0 + 10).await;
    say(&svc, "t1", "alice", "takeback", T0 + 20).await;
    let out = say(&svc, "m2", "bob", "c5", T0 + 30).await;
    assert!(
        text(&out).contains("played c5; alice (White)'s takeback proposal lapses"),
        "{}",
        text(&out)
    );
    let out = say(&svc, "t2", "bob", "takeback 1 accept", T0 + 40).await;
    assert!(
        text(&out).contains("no takeback proposal"),
        "{}",
        text(&out)
    );
    // Bob's move is his to propose taking back, not alice's.
    let out = say(&svc, "t3", "alice", "takeback", T0 + 50).await;
    assert_eq!(refusal(&out), Some(RefusalKind::Illegal), "{}", text(&out));
    let out = say(&svc, "t4", "bob", "takeback", T0 + 60).await;
    assert_eq!(refusal(&out), None, "{}", text(&out));
    let out = say(&svc, "t5", "alice", "takeback accept", T0 + 70).await;
    assert!(text(&out).contains("accepts"), "{}", text(&out));
    let out = say(&svc, "m3", "alice", "moves", T0 + 80).await;
    assert!(text(&out).ends_with("1. e4"), "{}", text(&out));
    assert_eq!(check_log(svc.store(), 1).await, 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_are_refused_where_they_are_not_allowed() {
    let dir = TempDir::new("takeback-refused");
    let svc = open(&dir.db()).await;
    let refused = |out: Vec<Outbound>, kind: RefusalKind, words: &str| {
        assert_eq!(refusal(&out), Some(kind), "{}", text(&out));
        assert!(text(&out).contains(words), "{}", text(&out));
    };
    let out = say(
        &svc,
        "c1",
        "alice",
        "challenge @bob takebacks:on rated:yes",
        T0,
    )
    .await;
    refused(out, RefusalKind::Illegal, "a rated game has no takebacks");
    // Every variant of two sides that declares no takebacks, from the registry, each
    // refused with its own reason.
    let declined: Vec<_> = Registry::builtin()
        .all()
        .filter(|v| v.seats().count() == 2)
        .filter_map(|v| v.takebacks().err().map(|why| (v.id(), why)))
        .collect();
    assert!(declined.len() >= 4, "{declined:?}");
    for (variant, why) in declined {
        let line = format!("challenge @bob {variant} takebacks:on");
        let out = say(&svc, &format!("c-{variant}"), "alice", &line, T0).await;
        refused(
            out,
            RefusalKind::Illegal,
            &format!("has no takebacks: {why}"),
        );
    }
    let out = say(
        &svc,
        "c2",
        "alice",
        "challenge @bob @carol @dave split-brain takebacks:on",
        T0,
    )
    .await;
    refused(out, RefusalKind::Illegal, "agreed between two players");
    let out = say(&svc, "c3", "alice", "challenge parade takebacks:on", T0).await;
    refused(out, RefusalKind::Illegal, "agreed between two players");
    let out = say(&svc, "c4", "alice", "challenge @bob takebacks:maybe", T0).await;
    refused(out, RefusalKind::Syntax, "takebacks: is on or off");
    assert!(
        svc.store().game(1).await.unwrap().is_none(),
        "nothing was made"
    );

    // A game made without takebacks:on (rated, as by default).
    start(&svc, "standard").await;
    say(&svc, "m1", "alice", "e4", T0 + 10).await;
    let out = say(&svc, "t1", "alice", "takeback", T0 + 20).await;
    refused(out, RefusalKind::NotHere, "game #1 has no takebacks");
    let out = say(&svc, "t2", "alice", "takeback 1 sideways", T0 + 20).await;
    refused(out, RefusalKind::Syntax, "usage: takeback");
    assert_eq!(check_log(svc.store(), 1).await, 1);
}

#[test]
fn a_log_whose_takeback_breaks_the_rules_does_not_replay() {
    let setup = NewGame::default();
    let mv = |m: &str| Action::of(&serde_json::json!({ "Move": m })).unwrap();
    let (w, b) = (Seat(0), Seat(1));
    let replay = |log: &[(Seat, Action)]| Registry::builtin().replay("standard", None, &setup, log);
    let taken = replay(&[
        (w, mv("e2e4")),
        (b, mv("e7e5")),
        (b, Action::takeback(TakebackStep::Offer)),
        (w, Action::takeback(TakebackStep::Accept)),
    ])
    .unwrap();
    let one = replay(&[(w, mv("e2e4"))]).unwrap();
    assert_eq!(taken.snapshot().unwrap(), one.snapshot().unwrap());
    // An acceptance with no proposal, and a proposal of another seat's move.
    assert!(replay(&[(w, mv("e2e4")), (b, Action::takeback(TakebackStep::Accept))]).is_err());
    assert!(replay(&[(w, mv("e2e4")), (b, Action::takeback(TakebackStep::Offer))]).is_err());
}
