//! A tournament's sign-up deadline and its commands' chat events, through the service:
//! once the deadline has passed, the deadline check starts a tournament with enough
//! players (its round announced from the outbox) and cancels one without, saying why in
//! its channel; a second delivery of the same chat event (a command Discord sends again)
//! joins nobody twice and starts nothing twice, and makes no second tournament or
//! competition.

use crate::common::service::{open, TempDir};
use crate::tournament::delivered;
use postal::service::referee::{Destination, Incoming, Member, Outbound, Place, Service};

const SERVER: &str = "300000000000000012";
const CHANNEL: &str = "400000000000000012";
const T0: i64 = 1_750_000_000;
const DAY: i64 = 86_400;

/// Player `n`'s user id, of Discord's length.
fn user(n: usize) -> String {
    format!("1000000000000002{n:02}")
}

/// `who` types `text` in the tournament's channel at `at`, as chat event `event` (the
/// tournament's creator is no moderator).
async fn send(svc: &Service, event: &str, who: &str, text: &str, at: i64) -> Vec<Outbound> {
    let inc = Incoming {
        event_id: event.into(),
        user: who.into(),
        place: Place::Channel(CHANNEL.into()),
        via: None,
        server: Some(SERVER.into()),
        text: text.into(),
        at,
    };
    svc.handle_as(inc, Member::default()).await.unwrap()
}

/// The texts of `out`.
fn texts(out: &[Outbound]) -> Vec<&str> {
    out.iter().map(|o| o.text.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_sign_up_starts_a_tournament_with_enough_players() {
    let dir = TempDir::new("tournament-signup-start");
    let svc = open(&dir.db()).await;
    let out = send(
        &svc,
        "c1",
        &user(0),
        "tournament create round-robin standard signup:2",
        T0,
    )
    .await;
    assert!(out[0].text.contains("sign-up until"), "{:?}", texts(&out));
    for p in 0..4 {
        let out = send(
            &svc,
            &format!("j{p}"),
            &user(p),
            "tournament join 1",
            T0 + 60,
        )
        .await;
        assert!(out[0].refusal.is_none(), "{:?}", texts(&out));
    }
    // A day later sign-up is still open: the check starts nothing.
    svc.check_deadlines(T0 + DAY).await.unwrap();
    assert_eq!(
        svc.store().tournament(1).await.unwrap().unwrap().state,
        "signup"
    );
    assert!(delivered(&svc, T0 + DAY).await.is_empty());
    // Two days after it was made, sign-up closes: the check starts it, once.
    svc.check_deadlines(T0 + 2 * DAY).await.unwrap();
    svc.check_deadlines(T0 + 2 * DAY + 60).await.unwrap();
    let t = svc.store().tournament(1).await.unwrap().unwrap();
    assert_eq!((t.state.as_str(), t.current_round), ("running", 1));
    let out = delivered(&svc, T0 + 2 * DAY).await;
    assert!(
        out[0].text.starts_with("sign-up is over: tournament #1")
            && out[0].text.contains("starts: 4 players, 3 rounds"),
        "{:?}",
        texts(&out)
    );
    assert_eq!(out[0].to, Destination::Channel(CHANNEL.into()));
    let openings: Vec<&Outbound> = out.iter().filter(|o| o.started).collect();
    assert_eq!(openings.len(), 2, "{:?}", texts(&out));
    assert!(openings.iter().all(|o| o.mentions.len() == 2));
    // A join after the deadline is refused.
    let out = send(
        &svc,
        "late",
        &user(5),
        "tournament join 1",
        T0 + 2 * DAY + 120,
    )
    .await;
    assert!(out[0].refusal.is_some(), "{:?}", texts(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_sign_up_cancels_a_tournament_without_enough_players_saying_why() {
    let dir = TempDir::new("tournament-signup-cancel");
    let svc = open(&dir.db()).await;
    send(
        &svc,
        "c1",
        &user(0),
        "tournament create swiss standard rounds:3 signup:1",
        T0,
    )
    .await;
    for p in 0..2 {
        send(
            &svc,
            &format!("j{p}"),
            &user(p),
            "tournament join 1",
            T0 + 60,
        )
        .await;
    }
    let b = open(&dir.db()).await;
    for s in [&svc, &b, &svc] {
        s.check_deadlines(T0 + DAY + 1).await.unwrap();
    }
    assert_eq!(
        svc.store().tournament(1).await.unwrap().unwrap().state,
        "cancelled"
    );
    assert!(svc.store().boards(1).await.unwrap().is_empty());
    let out = delivered(&b, T0 + DAY + 1).await;
    assert_eq!(out.len(), 1, "{:?}", texts(&out));
    assert_eq!(out[0].to, Destination::Channel(CHANNEL.into()));
    assert!(
        out[0].text.contains("sign-up is over with 2 players")
            && out[0].text.contains("needs at least 3")
            && out[0].text.contains("cancelled"),
        "{}",
        out[0].text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_command_delivered_twice_is_applied_once() {
    let dir = TempDir::new("tournament-events");
    let svc = open(&dir.db()).await;
    let create = "tournament create round-robin standard";
    assert_eq!(send(&svc, "c1", &user(0), create, T0).await.len(), 1);
    // The same event again: no answer, no second tournament.
    assert!(send(&svc, "c1", &user(0), create, T0 + 1).await.is_empty());
    assert!(svc.store().tournament(2).await.unwrap().is_none());
    for p in 0..3 {
        send(
            &svc,
            &format!("j{p}"),
            &user(p),
            "tournament join 1",
            T0 + 60,
        )
        .await;
    }
    // Player 2 leaves; the copy of their join, delivered late, does not join them again.
    let out = send(&svc, "l2", &user(2), "tournament leave 1", T0 + 120).await;
    assert!(
        out[0].text.contains("left tournament #1"),
        "{:?}",
        texts(&out)
    );
    assert!(send(&svc, "j2", &user(2), "tournament join 1", T0 + 130)
        .await
        .is_empty());
    assert_eq!(svc.store().entrants(1).await.unwrap().len(), 2);
    // The start, delivered twice: one round, one announcement, and no refusal.
    let out = send(&svc, "s1", &user(0), "tournament start 1", T0 + 180).await;
    assert!(
        out[0].text.contains("starts: 2 players"),
        "{:?}",
        texts(&out)
    );
    assert!(send(&svc, "s1", &user(0), "tournament start 1", T0 + 190)
        .await
        .is_empty());
    let boards = svc.store().boards(1).await.unwrap();
    assert_eq!(boards.len(), 1);
    let out = delivered(&svc, T0 + 200).await;
    assert_eq!(
        out.iter().filter(|o| o.started).count(),
        1,
        "{:?}",
        texts(&out)
    );
    // A pause delivered twice is answered once.
    assert!(!send(&svc, "p1", &user(0), "tournament pause 1", T0 + 240)
        .await
        .is_empty());
    assert!(send(&svc, "p1", &user(0), "tournament pause 1", T0 + 250)
        .await
        .is_empty());
    assert_eq!(
        svc.store().tournament(1).await.unwrap().unwrap().state,
        "paused"
    );
}

/// A best-score competition's creation delivered twice (Discord sending the command
/// again) makes one competition and answers once, as a tournament's does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_competition_created_twice_by_one_event_is_made_once() {
    let dir = TempDir::new("competition-events");
    let svc = open(&dir.db()).await;
    let create = "tournament create competition parade deals:2";
    let out = send(&svc, "k1", &user(0), create, T0).await;
    assert_eq!(out.len(), 1, "{:?}", texts(&out));
    assert!(
        out[0].text.contains("made by") && out[0].text.contains("tournament join 1"),
        "{}",
        out[0].text
    );
    assert!(send(&svc, "k1", &user(0), create, T0 + 1).await.is_empty());
    assert!(svc.store().tournament(2).await.unwrap().is_none());
    let row = svc.store().tournament(1).await.unwrap().unwrap();
    assert_eq!((row.format.as_str(), row.rounds), ("competition", 2));
    // Another event makes another.
    assert_eq!(send(&svc, "k2", &user(0), create, T0 + 2).await.len(), 1);
    assert!(svc.store().tournament(2).await.unwrap().is_some());
}

/// A best-score competition whose sign-up deadline passes with enough entrants is
/// started by the deadline check as `tournament start` starts it: each entrant dealt
/// deal 1 in a game of their own (not paired as a round robin), announced from the
/// outbox: the games' openings to their players alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_sign_up_deals_a_competitions_first_deal() {
    let dir = TempDir::new("competition-signup");
    let svc = open(&dir.db()).await;
    let create = "tournament create competition parade deals:2 signup:1";
    assert_eq!(send(&svc, "k1", &user(0), create, T0).await.len(), 1);
    for p in 0..2 {
        send(
            &svc,
            &format!("j{p}"),
            &user(p),
            "tournament join 1",
            T0 + 60,
        )
        .await;
    }
    svc.check_deadlines(T0 + DAY + 1).await.unwrap();
    let row = svc.store().tournament(1).await.unwrap().unwrap();
    assert_eq!((row.state.as_str(), row.current_round), ("running", 1));
    let boards = svc.store().boards(1).await.unwrap();
    assert_eq!(boards.len(), 2);
    for b in &boards {
        assert_eq!((b.round, b.black), (1, None));
        let g = svc.store().game(b.game_id.unwrap()).await.unwrap().unwrap();
        assert_eq!((g.seats.len(), g.channel.as_deref()), (1, None));
    }
    let out = delivered(&svc, T0 + DAY + 2).await;
    assert!(
        out.iter()
            .any(|o| o.text.contains("sign-up is over") && o.text.contains("starts: 2 players")),
        "{:?}",
        texts(&out)
    );
    for p in 0..2 {
        let openings: Vec<&Outbound> = out
            .iter()
            .filter(|o| o.started && o.to == Destination::Dm(user(p)))
            .collect();
        assert_eq!(openings.len(), 1, "{:?}", texts(&out));
    }
    assert!(out
        .iter()
        .filter(|o| o.to == Destination::Channel(CHANNEL.into()))
        .all(|o| o.image.is_none() && !o.started));
}

/// A tournament is seeded at its start by the players' ratings in its variant on its
/// server (the higher first), then those without a rating, in the order they joined:
/// player 3 joined last but won a rated game against player 0, so seeds are 3, 0 (rated),
/// then 1, 2; the Berger table's first board is the first seed's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_is_seeded_by_rating_then_by_joining() {
    let dir = TempDir::new("tournament-seeds");
    let svc = open(&dir.db()).await;
    let challenge = format!("challenge <@{}> standard", user(0));
    assert_eq!(send(&svc, "g1", &user(3), &challenge, T0).await.len(), 1);
    send(&svc, "g2", &user(0), "accept 1", T0 + 10).await;
    // Both sides move (a resignation before that would call the game off).
    let white = svc
        .store()
        .game(1)
        .await
        .unwrap()
        .unwrap()
        .user_at(0)
        .unwrap()
        .to_string();
    let black = if white == user(0) { user(3) } else { user(0) };
    send(&svc, "m1", &white, "move 1 e4", T0 + 11).await;
    send(&svc, "m2", &black, "move 1 e5", T0 + 12).await;
    send(&svc, "g3", &user(0), "resign 1", T0 + 20).await;
    let game = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(game.result.as_deref(), Some("0-1"), "{game:?}");
    let create = "tournament create round-robin standard";
    send(&svc, "c1", &user(1), create, T0 + 60).await;
    for p in 0..4 {
        send(
            &svc,
            &format!("j{p}"),
            &user(p),
            "tournament join 1",
            T0 + 120,
        )
        .await;
    }
    let out = send(&svc, "s1", &user(1), "tournament start 1", T0 + 180).await;
    assert!(
        out[0].text.contains("starts: 4 players") && out[0].text.contains("seeded by rating"),
        "{:?}",
        texts(&out)
    );
    let seeded: Vec<String> = svc
        .store()
        .entrants(1)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.user)
        .collect();
    assert_eq!(seeded, [user(3), user(0), user(1), user(2)]);
    // Round 1 of four: seed 1 against seed 4 on board 1, 2 against 3 on board 2.
    let boards = svc.store().boards(1).await.unwrap();
    let g = svc
        .store()
        .game(boards[0].game_id.unwrap())
        .await
        .unwrap()
        .unwrap();
    let mut players: Vec<String> = g.seats.iter().filter_map(|s| s.user.clone()).collect();
    players.sort();
    assert_eq!(players, [user(2), user(3)]);
}

/// An entrant the creator takes out is said to be removed, not to have left: in the
/// sign-up, and once the tournament runs (their remaining games forfeited); one who goes
/// of their own accord left or withdrew.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removal_is_announced_as_a_removal() {
    let dir = TempDir::new("tournament-removal");
    let svc = open(&dir.db()).await;
    send(
        &svc,
        "c1",
        &user(0),
        "tournament create round-robin standard",
        T0,
    )
    .await;
    for p in 0..5 {
        let text = "tournament join 1";
        send(&svc, &format!("j{p}"), &user(p), text, T0 + 60).await;
    }
    let removal = format!("tournament remove 1 <@{}>", user(4));
    let out = send(&svc, "r4", &user(0), &removal, T0 + 120).await;
    assert!(
        out[0].text.contains("was removed from tournament #1") && !out[0].text.contains("left"),
        "{:?}",
        texts(&out)
    );
    let out = send(&svc, "l3", &user(3), "tournament leave 1", T0 + 130).await;
    assert!(
        out[0].text.contains("left tournament #1"),
        "{:?}",
        texts(&out)
    );
    send(&svc, "s1", &user(0), "tournament start 1", T0 + 180).await;
    let removal = format!("tournament remove 1 <@{}>", user(2));
    let out = send(&svc, "r2", &user(0), &removal, T0 + 240).await;
    assert!(
        out[0]
            .text
            .contains("was removed from tournament #1: their remaining games are forfeited")
            && !out[0].text.contains("withdrew"),
        "{:?}",
        texts(&out)
    );
    let out = send(&svc, "l1", &user(1), "tournament leave 1", T0 + 300).await;
    assert!(
        out[0].text.contains("withdrew from tournament #1"),
        "{:?}",
        texts(&out)
    );
}
