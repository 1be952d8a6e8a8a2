//! The daily digest and the orientation of private boards (`settings digest:HOUR`,
//! `settings orientation:own|white`): a player with the digest gets no turn notice (no
//! DM, no ping) and one DM a day listing the games awaiting them, once, across restarts;
//! the boards sent to a player privately are turned as they chose.

use crate::common;

use common::service::{dm, open, say, start_game, tick_once, TempDir, T0};
use postal::rules::Color;
use postal::service::referee::{Destination, Outbound};

const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

/// Whether `out` holds a message to `user` privately.
fn dms_to(out: &[Outbound], user: &str) -> usize {
    out.iter()
        .filter(|o| o.to == Destination::Dm(user.into()))
        .count()
}

/// The users the channel message of `out` notifies.
fn pinged(out: &[Outbound]) -> Vec<String> {
    out.iter()
        .find(|o| matches!(o.to, Destination::Channel(_)))
        .map(|o| o.mentions.clone())
        .unwrap_or_default()
}

/// alice (White) and bob play a game made in private.
async fn private_game(svc: &postal::service::referee::Service, at: i64) {
    let out = dm(
        svc,
        "pc",
        "alice",
        "challenge @bob standard colour:white",
        at,
    )
    .await;
    assert!(out[0].text.contains("challenges @bob"), "{}", out[0].text);
    let out = dm(svc, "pa", "bob", "accept", at).await;
    assert!(out[0].text.contains("accepted"), "{}", out[0].text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_digest_replaces_turn_notices_and_comes_once_a_day() {
    let dir = TempDir::new("digest");
    let db = dir.db();
    let svc = open(&db).await;
    private_game(&svc, T0).await;
    start_game(&svc, "carol", "bob", "standard days:3", T0).await;

    // Without a digest, each turn is told: a DM in the private game, a ping in the channel.
    let out = dm(&svc, "m1", "alice", "e4", T0 + 60).await;
    assert_eq!(dms_to(&out, "bob"), 1, "{out:?}");
    let out = dm(&svc, "m2", "bob", "e5", T0 + 120).await;
    assert_eq!(
        dms_to(&out, "bob"),
        1,
        "the answer to bob's own move: {out:?}"
    );
    let out = say(&svc, "m3", "carol", "d4", T0 + 180).await;
    assert_eq!(pinged(&out), vec!["bob".to_string()]);

    // bob chooses a digest at 18:00 UTC (it is 00:03): the turn notices stop.
    let out = dm(&svc, "s1", "bob", "settings digest:18", T0 + 200).await;
    assert!(
        out[0].text.contains("digest daily at 18:00 UTC"),
        "{}",
        out[0].text
    );
    let out = dm(&svc, "m4", "alice", "Nf3", T0 + 240).await;
    assert_eq!(dms_to(&out, "bob"), 0, "held for the digest: {out:?}");
    assert_eq!(dms_to(&out, "alice"), 1, "alice's own answer: {out:?}");
    // Nc6 could be played in both bob's games, so he names the one (issue 31).
    let out = dm(&svc, "m5", "bob", "move 1 Nc6", T0 + 300).await;
    assert_eq!(
        dms_to(&out, "bob"),
        1,
        "bob's own answer still comes: {out:?}"
    );
    let out = dm(&svc, "m6", "alice", "Bb5", T0 + 360).await;
    assert_eq!(dms_to(&out, "bob"), 0, "{out:?}");
    say(&svc, "m7a", "bob", "d5", T0 + 400).await;
    let out = say(&svc, "m7", "carol", "c4", T0 + 420).await;
    // Told nothing by carol's move but still in the text: no ping for bob.
    assert!(pinged(&out).is_empty(), "{out:?}");
    assert!(out[0].text.contains("@bob"), "{}", out[0].text);
    svc.store().close().await;
    drop(svc);

    // Before 18:00 nothing; at 18:00 one digest with both games; never twice, in fresh
    // processes (each tick_once opens one).
    let before = tick_once(&db, T0 + 18 * HOUR - 60).await;
    assert!(
        before.iter().all(|(_, t)| !t.contains("digest")),
        "{before:?}"
    );
    let digest = tick_once(&db, T0 + 18 * HOUR).await;
    let bob: Vec<&String> = digest
        .iter()
        .filter(|(u, _)| u == "bob")
        .map(|(_, t)| t)
        .collect();
    assert_eq!(bob.len(), 1, "{digest:?}");
    assert!(
        bob[0].starts_with("your daily digest: 2 games await you: "),
        "{}",
        bob[0]
    );
    assert!(
        bob[0].contains("#1 standard vs alice: to move, by "),
        "{}",
        bob[0]
    );
    assert!(
        bob[0].contains("#2 standard vs carol: to move, by "),
        "{}",
        bob[0]
    );
    assert!(tick_once(&db, T0 + 18 * HOUR + 60).await.is_empty());
    assert!(tick_once(&db, T0 + 23 * HOUR).await.is_empty());

    // The next day: again, for the game still awaiting him.
    let svc = open(&db).await;
    // "a6" could be played in both his games: he names the one (issue 31).
    dm(&svc, "m8", "bob", "move 1 a6", T0 + DAY).await;
    svc.store().close().await;
    drop(svc);
    let next = tick_once(&db, T0 + DAY + 18 * HOUR + 5).await;
    let bob: Vec<&String> = next
        .iter()
        .filter(|(u, _)| u == "bob")
        .map(|(_, t)| t)
        .collect();
    assert_eq!(bob.len(), 1, "{next:?}");
    assert!(
        bob[0].starts_with("your daily digest: 1 game awaits you: #2 "),
        "{}",
        bob[0]
    );

    // Off again: the turn notices come back.
    let svc = open(&db).await;
    dm(
        &svc,
        "s2",
        "bob",
        "settings digest:off",
        T0 + DAY + 19 * HOUR,
    )
    .await;
    let out = dm(&svc, "m9", "alice", "Ba4", T0 + DAY + 20 * HOUR).await;
    assert_eq!(dms_to(&out, "bob"), 1, "{out:?}");
    svc.store().close().await;
    drop(svc);
    assert!(tick_once(&db, T0 + 2 * DAY + 18 * HOUR)
        .await
        .iter()
        .all(|(u, t)| u != "bob" || !t.contains("digest")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_digest_chosen_after_its_hour_starts_the_next_day_and_skips_empty_days() {
    let dir = TempDir::new("digest-late");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    // 19:00, after the hour chosen: not today.
    dm(&svc, "s1", "alice", "settings digest:18h", T0 + 19 * HOUR).await;
    // And bob, whom nothing awaits (alice is to move): never a digest.
    dm(&svc, "s2", "bob", "settings digest:0", T0 + 19 * HOUR).await;
    svc.store().close().await;
    drop(svc);
    assert!(tick_once(&db, T0 + 19 * HOUR + 60).await.is_empty());
    let next = tick_once(&db, T0 + DAY + 18 * HOUR).await;
    assert_eq!(next.len(), 1, "{next:?}");
    assert_eq!(next[0].0, "alice");
    assert!(
        next[0].1.contains("#1 standard vs bob: to move"),
        "{}",
        next[0].1
    );
    // A bad hour is refused with the form, and changes nothing.
    let svc = open(&db).await;
    let out = dm(
        &svc,
        "s3",
        "alice",
        "settings digest:25",
        T0 + DAY + 19 * HOUR,
    )
    .await;
    assert!(
        out[0]
            .text
            .contains("digest is an hour of the day, UTC, from 0 to 23"),
        "{}",
        out[0].text
    );
    let s = svc.store().player_settings("alice").await.unwrap();
    assert_eq!(s.digest_hour, Some(18));
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_boards_are_turned_as_their_player_chose() {
    let dir = TempDir::new("orientation");
    let db = dir.db();
    let svc = open(&db).await;
    private_game(&svc, T0).await;
    start_game(&svc, "carol", "bob", "standard days:3", T0).await;
    let bottom = |out: &[Outbound], to: &Destination| {
        out.iter()
            .find(|o| &o.to == to && o.image.is_some())
            .map(|o| o.image.as_ref().unwrap().board.bottom)
    };
    let bob = Destination::Dm("bob".into());
    let alice = Destination::Dm("alice".into());
    // As the server draws them: bob's own board from Black's side; each player's copy
    // of the private game's board from their own side (issue 54), not the side to move.
    let out = dm(&svc, "b1", "bob", "board 1", T0 + 10).await;
    assert_eq!(bottom(&out, &bob), Some(Color::Black));
    let out = dm(&svc, "m1", "alice", "e4", T0 + 20).await;
    assert_eq!(bottom(&out, &alice), Some(Color::White));
    assert_eq!(bottom(&out, &bob), Some(Color::Black));

    dm(&svc, "s1", "bob", "settings orientation:white", T0 + 30).await;
    dm(&svc, "s2", "alice", "settings orientation:own", T0 + 30).await;
    let out = dm(&svc, "b2", "bob", "board 1", T0 + 40).await;
    assert_eq!(bottom(&out, &bob), Some(Color::White));
    let out = dm(&svc, "m2", "bob", "e5", T0 + 50).await;
    assert_eq!(bottom(&out, &bob), Some(Color::White), "{out:?}");
    let out = dm(&svc, "m3", "alice", "Nf3", T0 + 60).await;
    assert_eq!(
        bottom(&out, &alice),
        Some(Color::White),
        "alice's own side: {out:?}"
    );
    assert_eq!(bottom(&out, &bob), Some(Color::White));
    // A channel's board is everyone's: the server's way (side to move: bob, Black).
    let out = say(&svc, "m4", "carol", "d4", T0 + 70).await;
    assert_eq!(
        bottom(&out, &Destination::Channel("games".into())),
        Some(Color::Black)
    );
    // Back to the server's way.
    dm(&svc, "s3", "bob", "settings orientation:default", T0 + 80).await;
    let out = dm(&svc, "b3", "bob", "board 1", T0 + 90).await;
    assert_eq!(bottom(&out, &bob), Some(Color::Black));
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_turn_prompt_is_held_for_the_digest_and_its_partners_get_theirs() {
    let dir = TempDir::new("digest-secret");
    let db = dir.db();
    let svc = open(&db).await;
    say(
        &svc,
        "c",
        "alice",
        "challenge @bob @carol @dave split-brain",
        T0,
    )
    .await;
    for (n, u) in ["bob", "carol", "dave"].iter().enumerate() {
        say(&svc, &format!("a{n}"), u, "accept", T0).await;
    }
    dm(&svc, "s1", "carol", "settings digest:12", T0 + 10).await;
    dm(&svc, "p1", "alice", "pick b1", T0 + 20).await;
    let out = dm(&svc, "p2", "bob", "pick c3", T0 + 30).await;
    // Black's turn: dave is asked privately and pinged; carol neither.
    assert!(out[0].text.contains("played Nc3"), "{}", out[0].text);
    assert_eq!(pinged(&out), vec!["dave".to_string()], "{out:?}");
    assert_eq!(dms_to(&out, "dave"), 1, "{out:?}");
    assert_eq!(dms_to(&out, "carol"), 0, "{out:?}");
    svc.store().close().await;
    drop(svc);
    let digest = tick_once(&db, T0 + 12 * HOUR).await;
    assert_eq!(digest.len(), 1, "{digest:?}");
    assert_eq!(digest[0].0, "carol");
    assert!(
        digest[0]
            .1
            .contains("#1 split-brain with dave vs alice, bob: to pick a piece (privately), by "),
        "{}",
        digest[0].1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_digest_comes_while_its_player_is_on_vacation() {
    let dir = TempDir::new("digest-vacation");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard days:3", T0).await;
    dm(&svc, "s1", "alice", "settings digest:18", T0 + 60).await;
    let out = dm(&svc, "v1", "alice", "vacation 3", T0 + HOUR).await;
    assert!(
        out[0].text.contains("you are on vacation until"),
        "{}",
        out[0].text
    );
    svc.store().close().await;
    drop(svc);
    // The tick delivers the channel's note of the vacation, and no digest.
    let away = tick_once(&db, T0 + 18 * HOUR).await;
    assert!(away.iter().all(|(to, _)| to != "alice"), "{away:?}");
    assert!(
        away.iter().any(|(_, t)| t.contains("on vacation")),
        "{away:?}"
    );
    let svc = open(&db).await;
    dm(&svc, "v2", "alice", "vacation end", T0 + DAY + HOUR).await;
    svc.store().close().await;
    drop(svc);
    let back = tick_once(&db, T0 + DAY + 18 * HOUR).await;
    let digests: Vec<_> = back.iter().filter(|(_, t)| t.contains("digest")).collect();
    assert_eq!(digests.len(), 1, "{back:?}");
    assert_eq!(digests[0].0, "alice");
}
