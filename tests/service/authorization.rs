//! Who may answer a challenge (issue 14): only its challenger can cancel it, only a
//! player it names can decline it, and an open challenge, anyone's to accept, is
//! nobody's to decline. A refused answer changes nothing.

use crate::common;

use common::service::{open, say, T0};
use postal::variants::api::RefusalKind;

#[tokio::test]
async fn only_the_challenged_decline_and_only_the_challenger_cancels() {
    let svc = open("sqlite::memory:").await;
    // #1: alice challenges bob by name; #2: alice's open challenge.
    say(&svc, "c1", "alice", "challenge @bob", T0).await;
    say(&svc, "c2", "alice", "challenge", T0).await;
    let before = |id| {
        let store = svc.store();
        async move { store.game(id).await.unwrap().unwrap() }
    };
    let (one, two) = (before(1).await, before(2).await);
    for (event, user, text, kind, says) in [
        (
            "d1",
            "carol",
            "decline 1",
            RefusalKind::NotYourGame,
            "only a player it names can decline it",
        ),
        (
            "d2",
            "carol",
            "decline 2",
            RefusalKind::NotYourGame,
            "only a player it names can decline it",
        ),
        (
            "d3",
            "bob",
            "decline 2",
            RefusalKind::NotYourGame,
            "only a player it names can decline it",
        ),
        (
            "x1",
            "bob",
            "cancel 1",
            RefusalKind::NotYourGame,
            "only its challenger can cancel it",
        ),
        (
            "x2",
            "carol",
            "cancel 2",
            RefusalKind::NotYourGame,
            "only its challenger can cancel it",
        ),
    ] {
        let out = say(&svc, event, user, text, T0 + 1).await;
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(
            out[0].refusal,
            Some(kind),
            "{user}: {text}: {}",
            out[0].text
        );
        assert!(out[0].text.contains(says), "{}", out[0].text);
    }
    assert_eq!(
        format!("{:?}", before(1).await),
        format!("{one:?}"),
        "refusals change nothing"
    );
    assert_eq!(
        format!("{:?}", before(2).await),
        format!("{two:?}"),
        "refusals change nothing"
    );
    // Without an id, carol has nothing here to decline: the open challenge is not hers.
    let out = say(&svc, "d4", "carol", "decline", T0 + 1).await;
    assert_eq!(
        out[0].refusal,
        Some(RefusalKind::Unknown),
        "{}",
        out[0].text
    );
    // The named player declines; the challenger cancels; carol accepts the open one.
    let out = say(&svc, "d5", "bob", "decline 1", T0 + 2).await;
    assert!(out[0].text.contains("declined by bob"), "{}", out[0].text);
    let out = say(&svc, "a2", "carol", "accept 2", T0 + 2).await;
    assert!(out[0].text.contains("accepted"), "{}", out[0].text);
    say(&svc, "c3", "alice", "challenge @bob", T0 + 3).await;
    let out = say(&svc, "x3", "alice", "cancel 3", T0 + 3).await;
    assert!(
        out[0].text.contains("cancelled by alice"),
        "{}",
        out[0].text
    );
}

/// `user` writes `text` in `place` at `at`.
async fn say_in(
    svc: &postal::service::referee::Service,
    event: &str,
    user: &str,
    place: postal::service::referee::Place,
    text: &str,
) -> Vec<postal::service::referee::Outbound> {
    svc.handle(postal::service::referee::Incoming {
        event_id: event.into(),
        user: user.into(),
        place,
        via: None,
        server: None,
        text: text.into(),
        at: T0 + 5,
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn an_open_challenge_belongs_to_its_channel() {
    use postal::service::referee::Place;
    let svc = open("sqlite::memory:").await;
    say(&svc, "c1", "alice", "challenge", T0).await;
    let elsewhere = [Place::Dm, Place::Channel("other-server".into())];
    for (n, place) in elsewhere.into_iter().enumerate() {
        for text in ["accept 1", "accept"] {
            let out = say_in(&svc, &format!("e{n}{text}"), "carol", place.clone(), text).await;
            assert!(
                out[0].refusal.is_some(),
                "{place:?} {text}: {}",
                out[0].text
            );
        }
        let out = say_in(&svc, &format!("g{n}"), "carol", place.clone(), "games").await;
        assert!(!out[0].text.contains("#1"), "{}", out[0].text);
    }
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.status, "challenged", "nothing changed");
    // In its channel anyone may take it, with or without its id.
    let out = say(&svc, "a1", "carol", "accept", T0 + 6).await;
    assert!(out[0].text.contains("accepted"), "{}", out[0].text);
}

#[tokio::test]
async fn a_user_has_at_most_the_configured_number_of_pending_challenges() {
    use postal::service::referee::Service;
    use postal::store::Store;
    let settings = postal::service::settings::Settings {
        max_open_challenges: 3,
        seed: Some(1),
        ..Default::default()
    };
    let svc = Service::new(Store::open("sqlite::memory:").await.unwrap(), settings);
    for n in 0..3 {
        let out = say(&svc, &format!("c{n}"), "alice", "challenge", T0).await;
        assert_eq!(out[0].refusal, None, "{}", out[0].text);
    }
    let out = say(&svc, "c3", "alice", "challenge @bob", T0).await;
    assert_eq!(
        out[0].refusal,
        Some(RefusalKind::Illegal),
        "{}",
        out[0].text
    );
    assert!(
        out[0].text.contains("3 challenges waiting"),
        "{}",
        out[0].text
    );
    assert!(
        svc.store().game(4).await.unwrap().is_none(),
        "nothing was stored"
    );
    // Another user is not limited by alice's; alice may challenge again once one is
    // answered.
    let out = say(&svc, "c4", "bob", "challenge", T0).await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
    say(&svc, "x1", "alice", "cancel 1", T0).await;
    let out = say(&svc, "c5", "alice", "challenge", T0).await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
}

/// A refused command leaves no trace, not even a user row.
#[tokio::test]
async fn a_refused_command_records_nobody() {
    let dir = common::service::TempDir::new("no-user-row");
    let svc = open(&dir.db()).await;
    say(&svc, "c1", "alice", "challenge @bob", T0).await;
    for (n, text) in [
        "challenge @carol",
        "decline 1",
        "cancel 1",
        "e4",
        "pgn 9",
        "challenge @dave shogi",
    ]
    .iter()
    .enumerate()
    {
        let out = say(&svc, &format!("x{n}"), "carol", text, T0 + 1).await;
        assert!(out[0].refusal.is_some(), "{text}: {}", out[0].text);
    }
    svc.store().close().await;
    let users = common::sql::strings(&dir.db(), "SELECT id FROM users ORDER BY id").await;
    assert_eq!(users, ["alice", "bob"]);
}

/// An unanswered challenge expires after `challenge_expiry_days` (default 7), once, with
/// a notice to its challenger; it can no longer be accepted, and no longer counts
/// towards the challenger's cap. One answered in time is left alone.
#[tokio::test]
async fn an_unanswered_challenge_expires_with_a_notice_once() {
    let svc = open("sqlite::memory:").await;
    say(&svc, "c1", "alice", "challenge @bob", T0).await;
    say(&svc, "c2", "alice", "challenge @carol", T0).await;
    say(&svc, "a2", "carol", "accept 2", T0 + 3600).await;
    let week = 7 * 86_400;
    let early = svc.tick(T0 + week - 1).await.unwrap();
    assert!(early.iter().all(|q| !q.message.text.contains("expired")));
    assert_eq!(
        svc.store().game(1).await.unwrap().unwrap().status,
        "challenged"
    );
    let due = svc.tick(T0 + week).await.unwrap();
    let notices: Vec<&str> = due
        .iter()
        .map(|q| q.message.text.as_str())
        .filter(|t| t.contains("expired"))
        .collect();
    assert_eq!(
        notices,
        ["game #1: @alice, your challenge went unanswered for 7 days and has expired; challenge again any time"]
    );
    for q in &due {
        svc.delivered(q.id, T0 + week).await.unwrap();
    }
    assert_eq!(
        svc.store().game(1).await.unwrap().unwrap().status,
        "cancelled"
    );
    // The accepted one is a game (since called off on time, neither player having
    // moved), not an expired challenge.
    let two = svc.store().game(2).await.unwrap().unwrap();
    assert_eq!(two.status, "aborted", "{:?}", two.reason);
    // Once only.
    let again = svc.tick(T0 + week + 60).await.unwrap();
    assert!(again.iter().all(|q| !q.message.text.contains("expired")));
    let out = say(&svc, "a1", "bob", "accept 1", T0 + week + 60).await;
    assert!(out[0].refusal.is_some(), "{}", out[0].text);
}

/// `user` writes `text` in channel `channel` of server `server` (or privately, with no
/// channel) at `T0 + 10`.
async fn say_on(
    svc: &postal::service::referee::Service,
    event: &str,
    user: &str,
    (server, channel): (Option<&str>, Option<&str>),
    text: &str,
) -> Vec<postal::service::referee::Outbound> {
    use postal::service::referee::{Incoming, Place};
    svc.handle(Incoming {
        event_id: event.into(),
        user: user.into(),
        place: channel.map_or(Place::Dm, |c| Place::Channel(c.into())),
        via: None,
        server: server.map(str::to_string),
        text: text.into(),
        at: T0 + 10,
    })
    .await
    .unwrap()
}

/// A game belongs to the server it was made in: someone not seated reads it (`board`,
/// `moves`, `pgn`) from any channel of that server, but not from another server nor
/// privately; its players read it from anywhere.
#[tokio::test]
async fn a_game_is_read_by_onlookers_only_in_its_own_server() {
    let svc = open("sqlite::memory:").await;
    let s1 = (Some("server-1"), Some("chess"));
    say_on(&svc, "c1", "alice", s1, "challenge @bob standard").await;
    say_on(&svc, "a1", "bob", s1, "accept").await;
    say_on(&svc, "m1", "alice", s1, "e4").await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.server.as_deref(), Some("server-1"));
    let mut n = 0;
    for (who, place, readable) in [
        ("carol", (Some("server-1"), Some("chess")), true),
        ("carol", (Some("server-1"), Some("lobby")), true),
        ("carol", (Some("server-2"), Some("chess")), false),
        ("carol", (None, None), false),
        ("alice", (Some("server-2"), Some("lobby")), true),
        ("bob", (None, None), true),
    ] {
        for text in ["board 1", "moves 1", "pgn 1"] {
            n += 1;
            let out = say_on(&svc, &format!("r{n}"), who, place, text).await;
            if readable {
                assert!(
                    out[0].refusal.is_none(),
                    "{who} {place:?} {text}: {}",
                    out[0].text
                );
            } else {
                assert_eq!(
                    out[0].refusal,
                    Some(RefusalKind::NotYourGame),
                    "{who} {place:?} {text}: {}",
                    out[0].text
                );
                assert!(!out[0].text.contains("e4"), "{}", out[0].text);
                assert!(out[0].image.is_none());
            }
        }
    }
    // A game made in private is read by its players alone, wherever the others write.
    say_on(
        &svc,
        "c2",
        "carol",
        (None, None),
        "challenge @dave standard",
    )
    .await;
    say_on(&svc, "a2", "dave", (None, None), "accept 2").await;
    for (who, place) in [("alice", s1), ("alice", (None, None))] {
        n += 1;
        let out = say_on(&svc, &format!("r{n}"), who, place, "board 2").await;
        assert_eq!(
            out[0].refusal,
            Some(RefusalKind::NotYourGame),
            "{}",
            out[0].text
        );
    }
    let out = say_on(&svc, "r-dave", "dave", s1, "board 2").await;
    assert!(out[0].refusal.is_none(), "{}", out[0].text);
}

/// The limit on waiting challenges is counted in the transaction that writes the new one:
/// a user sending two challenges at the same instant through two processes on one
/// database, with room for one more, gets exactly one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_challenges_at_once_never_pass_the_limit_together() {
    use common::service::TempDir;
    use postal::service::referee::{Service, Settings};
    use postal::store::Store;
    let dir = TempDir::new("cap-race");
    let db = dir.db();
    let settings = Settings {
        max_open_challenges: 1,
        ..common::service::seeded()
    };
    let one = Service::new(Store::open(&db).await.unwrap(), settings.clone());
    let two = Service::new(Store::open(&db).await.unwrap(), settings);
    for round in 0..60 {
        let user = format!("u{round}");
        let (x, y) = (format!("x{round}"), format!("y{round}"));
        let (a, b) = tokio::join!(
            say(&one, &x, &user, "challenge", T0),
            say(&two, &y, &user, "challenge", T0),
        );
        let accepted = [&a, &b]
            .iter()
            .filter(|out| out[0].refusal.is_none())
            .count();
        assert_eq!(accepted, 1, "round {round}: {} / {}", a[0].text, b[0].text);
        let waiting = one
            .store()
            .games_of(&user, &[postal::store::GameStatus::Challenged])
            .await
            .unwrap()
            .len();
        assert_eq!(waiting, 1, "round {round}");
    }
}
