//! Split-Brain Chess through the referee service: four seats, secret picks by private
//! message, per-seat deadlines, and the proof that no pick reaches anyone but its author
//! before the reveal.

mod common;

use common::service::{check_log, open, say, T0};
use postal::service::referee::{Destination, Incoming, Outbound, Place, Service};

async fn dm(svc: &Service, event: &str, user: &str, text: &str) -> Vec<Outbound> {
    svc.handle(Incoming {
        event_id: event.into(),
        user: user.into(),
        place: Place::Dm,
        text: text.into(),
        at: T0 + 60,
    })
    .await
    .unwrap()
}

/// A started game #1: alice and bob White (alice king side), carol and dave Black.
async fn started() -> Service {
    let svc = open("sqlite::memory:").await;
    say(
        &svc,
        "c",
        "alice",
        "challenge @bob @carol @dave split-brain",
        T0,
    )
    .await;
    for u in ["bob", "carol", "dave"] {
        say(&svc, &format!("a-{u}"), u, "accept", T0).await;
    }
    svc
}

/// What everyone but `author` received: public messages and other users' DMs, with the
/// boards they were shown.
fn seen_by_others(outs: &[Outbound], author: &str) -> Vec<String> {
    outs.iter()
        .filter(|o| o.to != Destination::Dm(author.into()))
        .map(|o| format!("{:?} {} {:?}", o.to, o.text, o.image))
        .collect()
}

#[tokio::test]
async fn a_pick_changes_nothing_anyone_else_sees_before_the_reveal() {
    // Non-interference: whatever the first partner picks (and however often they change
    // it), what the channel and the three others receive is the same, to the byte and
    // the board image, until the second pick reveals both.
    let mut baseline: Option<Vec<String>> = None;
    for first in ["a2", "b1", "e1", "f2", "d2"] {
        let svc = started().await;
        let mut others = Vec::new();
        let outs = dm(&svc, "p1", "alice", &format!("pick {first}")).await;
        assert!(
            outs.iter().all(|o| o.to == Destination::Dm("alice".into())),
            "a pick is answered to its author only: {outs:?}"
        );
        others.extend(seen_by_others(&outs, "alice"));
        // The partner's own view of the game, and the public board, while alice's pick stands.
        for (i, (user, text)) in [("bob", "board"), ("bob", "games"), ("carol", "board")]
            .iter()
            .enumerate()
        {
            let outs = dm(&svc, &format!("q{i}"), user, text).await;
            others.extend(seen_by_others(&outs, "alice"));
        }
        let outs = say(&svc, "q-public", "dave", "board", T0 + 90).await;
        others.extend(seen_by_others(&outs, "alice"));
        match &baseline {
            None => baseline = Some(others),
            Some(b) => assert_eq!(&others, b, "alice's pick {first} changed what others saw"),
        }
    }
}

#[tokio::test]
async fn public_output_never_holds_a_pick_before_its_reveal() {
    let svc = started().await;
    let mut public: Vec<String> = Vec::new();
    let mut partner: Vec<String> = Vec::new();
    let mut steps = 0;
    // Pick squares that never appear in a public message before the reveal otherwise:
    // the rook a1 has no move, so its square is refused; e1 and c4 are picked privately.
    for (user, text) in [
        ("alice", "pick a1"),
        ("alice", "pick e1"),
        ("bob", "pick c4"),
    ] {
        steps += 1;
        for o in dm(&svc, &format!("s{steps}"), user, text).await {
            match &o.to {
                Destination::Channel(_) => public.push(o.text.clone()),
                Destination::Dm(u) if u == "bob" => partner.push(o.text.clone()),
                Destination::Dm(_) => {}
            }
        }
    }
    // A pick typed in the channel is neither acted on nor repeated there.
    let outs = say(&svc, "pub", "bob", "pick f3", T0 + 100).await;
    assert!(outs
        .iter()
        .all(|o| o.to == Destination::Dm("bob".into()) && !o.text.contains("f3")));
    for text in public.iter().chain(&partner) {
        assert!(!text.contains("e1"), "alice's pick leaked: {text}");
        assert!(!text.contains("knight"), "alice's pick leaked: {text}");
    }
    assert!(
        public.is_empty(),
        "nothing public before the reveal: {public:?}"
    );
    // The reveal names both picks publicly.
    let outs = dm(&svc, "reveal", "bob", "pick f3").await;
    let revealed: Vec<&Outbound> = outs
        .iter()
        .filter(|o| matches!(o.to, Destination::Channel(_)))
        .collect();
    assert_eq!(revealed.len(), 1);
    assert!(revealed[0].text.contains("picked the knight on e1"));
    assert!(revealed[0].text.contains("picked the target f3"));
    check_log(svc.store(), 1).await;
}

#[tokio::test]
async fn every_awaited_partner_has_a_deadline_of_their_own() {
    let svc = started().await;
    let due = |d: &[postal::store::Deadline]| d.iter().map(|d| d.seat).collect::<Vec<_>>();
    let d = svc.store().game(1).await.unwrap().unwrap().deadlines;
    assert_eq!(due(&d), vec![0, 1], "both White partners are awaited");
    dm(&svc, "p1", "alice", "pick e1").await;
    let d2 = svc.store().game(1).await.unwrap().unwrap().deadlines;
    assert_eq!(due(&d2), vec![1], "alice has picked");
    assert_eq!(
        d2[0], d[1],
        "bob's deadline is not restarted by alice's pick"
    );
    dm(&svc, "p2", "bob", "pick a3").await;
    let d3 = svc.store().game(1).await.unwrap().unwrap().deadlines;
    assert_eq!(due(&d3), vec![2], "Black's chooser decides");
    // The decision's deadline runs out: the deciding team loses on time.
    let outs = svc.tick(T0 + 4 * 86_400).await.unwrap();
    assert!(
        outs.iter()
            .any(|q| q.message.text.contains("time ran out") && q.message.text.contains("1-0")),
        "{outs:?}"
    );
    check_log(svc.store(), 1).await;
}

#[tokio::test]
async fn a_challenge_waits_for_every_player_and_teams_can_be_drawn() {
    let svc = open("sqlite::memory:").await;
    say(
        &svc,
        "c",
        "alice",
        "challenge @bob @carol @dave split-brain teams:random",
        T0,
    )
    .await;
    say(&svc, "a1", "bob", "accept", T0).await;
    let again = say(&svc, "a2", "bob", "accept 1", T0).await;
    assert!(
        again[0].text.contains("already accepted"),
        "{}",
        again[0].text
    );
    say(&svc, "a3", "carol", "accept", T0).await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.status, "challenged");
    let start = say(&svc, "a4", "dave", "accept", T0).await;
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.status, "active");
    let mut users: Vec<&str> = g.seats.iter().filter_map(|s| s.user.as_deref()).collect();
    users.sort_unstable();
    assert_eq!(users, ["alice", "bob", "carol", "dave"]);
    // The two White partners are prompted privately, each once.
    let prompted: Vec<&Destination> = start
        .iter()
        .filter(|o| o.text.contains("your turn"))
        .map(|o| &o.to)
        .collect();
    assert_eq!(
        prompted,
        vec![
            &Destination::Dm(g.user_at(0).unwrap().into()),
            &Destination::Dm(g.user_at(1).unwrap().into())
        ]
    );
}
