//! Split-Brain Chess through the referee service and through the registry: four seats,
//! secret picks by private message, per-seat deadlines, old logs that replay unchanged,
//! and the proof that no pick reaches anyone but its author before the reveal, in the
//! messages and in every other viewer's projection.

use postal::service::referee::{Destination, Incoming, Outbound, Place, Service, Settings};
use postal::store::Store;
use postal::variants::api::{
    Action, Audience, Env, GameCommand, GameRules, NewGame, Options, Reading, Seat, Viewer,
};
use postal::variants::Registry;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// 2026-01-01 00:00 UTC, the tests' epoch.
const T0: i64 = 1_767_225_600;

/// A service over a fresh in-memory database with the default settings and a seed, so
/// that every draw is reproducible.
async fn open() -> Service {
    let settings = Settings {
        seed: Some(0x5eed),
        ..Settings::default()
    };
    Service::new(Store::open("sqlite::memory:").await.unwrap(), settings)
}

async fn send(
    svc: &Service,
    event: &str,
    user: &str,
    place: Place,
    text: &str,
    at: i64,
) -> Vec<Outbound> {
    svc.handle(Incoming {
        event_id: event.into(),
        user: user.into(),
        place,
        via: None,
        server: None,
        text: text.into(),
        at,
    })
    .await
    .unwrap()
}

/// `user` types `text` in `#games`.
async fn say(svc: &Service, event: &str, user: &str, text: &str, at: i64) -> Vec<Outbound> {
    send(svc, event, user, Place::Channel("games".into()), text, at).await
}

/// `user` sends `text` to the bot privately.
async fn dm(svc: &Service, event: &str, user: &str, text: &str) -> Vec<Outbound> {
    send(svc, event, user, Place::Dm, text, T0 + 60).await
}

/// Checks game `id`'s action log (seq 1..n; an event applied twice is refused by the key
/// of `events`) and that the stored
/// snapshot equals the replay of the log through the registry.
async fn check_log(store: &Store, id: i64) -> usize {
    let g = store.game(id).await.unwrap().unwrap();
    let rows = store.actions(id).await.unwrap();
    let seqs: Vec<i64> = rows.iter().map(|r| r.seq).collect();
    assert_eq!(seqs, (1..=rows.len() as i64).collect::<Vec<_>>());
    let log: Vec<(Seat, Action)> = rows
        .iter()
        .map(|r| (Seat(r.seat), serde_json::from_str(&r.action).unwrap()))
        .collect();
    let options: Options = serde_json::from_str(&g.options).unwrap();
    let setup = NewGame {
        fen: g.start_fen.as_deref(),
        options,
        seed: g.seed as u64,
        hidden_seed: None,
    };
    let start: Option<serde_json::Value> = g
        .start_snapshot
        .as_deref()
        .map(|s| serde_json::from_str(s).unwrap());
    let replayed = Registry::builtin()
        .replay(&g.variant, start.as_ref(), &setup, &log)
        .unwrap();
    let stored: serde_json::Value = serde_json::from_str(&g.snapshot).unwrap();
    assert_eq!(
        replayed.snapshot().unwrap(),
        stored,
        "game #{id}: snapshot differs from replay"
    );
    rows.len()
}

/// A started game #1: alice and bob White (alice king side), carol and dave Black.
async fn started() -> Service {
    let svc = open().await;
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
/// boards they were shown and the buttons.
fn seen_by_others(outs: &[Outbound], author: &str) -> Vec<String> {
    outs.iter()
        .filter(|o| o.to != Destination::Dm(author.into()))
        .map(|o| format!("{:?} {} {:?} {:?}", o.to, o.text, o.image, o.buttons))
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
    // The decision's deadline runs out before either team has moved: the game is
    // called off, unrated, rather than lost on time.
    let outs = svc.tick(T0 + 4 * 86_400).await.unwrap();
    assert!(
        outs.iter().any(|q| q
            .message
            .text
            .contains("time ran out before both players had moved")),
        "{outs:?}"
    );
    check_log(svc.store(), 1).await;
}

#[tokio::test]
async fn a_challenge_waits_for_every_player_and_teams_can_be_drawn() {
    let svc = open().await;
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

#[tokio::test]
async fn the_decision_is_asked_with_buttons_for_the_opposing_chooser_alone() {
    let svc = started().await;
    dm(&svc, "p1", "alice", "pick e1").await;
    dm(&svc, "p2", "bob", "pick f3").await;
    dm(&svc, "p3", "dave", "pick c4").await;
    let outs = dm(&svc, "p4", "carol", "pick e6").await;
    let ask = outs
        .iter()
        .find(|o| o.text.contains("to decide: "))
        .expect("the decision is asked in public");
    assert_eq!(ask.to, Destination::Channel("games".into()));
    let buttons: Vec<(&str, &str, Option<&str>, bool)> = ask
        .buttons
        .iter()
        .map(|b| {
            (
                b.label.as_str(),
                b.command.as_str(),
                b.for_user.as_deref(),
                b.primary,
            )
        })
        .collect();
    assert_eq!(
        buttons,
        [
            ("Piece stands", "decide #1 piece", Some("alice"), false),
            ("Target stands", "decide #1 target", Some("alice"), false),
        ]
    );
    let refused = say(&svc, "d1", "bob", "decide piece", T0 + 100).await;
    assert!(
        refused[0].text.contains("White's chooser"),
        "{}",
        refused[0].text
    );
    let outs = say(&svc, "d2", "alice", "decide 1 square", T0 + 100).await;
    assert!(
        outs[0].text.contains("the target stands"),
        "`square` reads as the target: {}",
        outs[0].text
    );
    check_log(svc.store(), 1).await;
}

/// The transcript's game (tests/transcripts/split-brain-mate.txt) as its log was stored
/// before the port: the same JSON replays to the same mate.
#[test]
fn a_log_stored_before_the_port_replays_unchanged() {
    let log: Vec<(Seat, Action)> = [
        (0, r#"{"Pick":"b1"}"#),
        (0, r#"{"Pick":"e1"}"#),
        (1, r#"{"Pick":"f3"}"#),
        (3, r#"{"Pick":"c4"}"#),
        (2, r#"{"Pick":"e6"}"#),
        (0, r#"{"Decide":"Piece"}"#),
        (0, r#"{"Pick":"d4"}"#),
        (1, r#"{"Pick":"f3"}"#),
        (3, r#"{"Pick":"f6"}"#),
        (2, r#"{"Pick":"e6"}"#),
        (1, r#"{"Pick":"f5"}"#),
        (0, r#"{"Pick":"d4"}"#),
    ]
    .into_iter()
    .map(|(s, a)| (Seat(s), serde_json::from_str(a).unwrap()))
    .collect();
    let g = Registry::builtin()
        .replay("split-brain", None, &NewGame::default(), &log)
        .unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.result.as_str(), o.reason.name()), ("1-0", "checkmate"));
    assert_eq!(
        g.project(Viewer::Public).numbered,
        "1. Nf3 Nd4 2. Nxd4 Re6 3. Nxf5#"
    );
    // The referee's own actions are this game's too.
    let mut g = Registry::builtin()
        .new_game("split-brain", &NewGame::default())
        .unwrap();
    g.apply(Seat(3), &Action::resign()).unwrap();
    assert_eq!(g.outcome().unwrap().result, "1-0");
}

/// Everything `viewer` may see of a game, compared whole: the projection (board,
/// diagram, FEN, record, instructions, ...), the record as PGN and the export fields.
fn seen(g: &dyn GameRules, viewer: Viewer) -> String {
    format!(
        "{:?}\n{}\n{:?}",
        g.project(viewer),
        g.pgn(viewer, &[]),
        g.export_fields(viewer)
    )
}

/// Every viewer but `seat`.
fn others(seat: Seat) -> Vec<Viewer> {
    std::iter::once(Viewer::Public)
        .chain((0..4).map(Seat).filter(|s| *s != seat).map(Viewer::Seat))
        .collect()
}

/// The squares a picking seat is told it may pick (`... Your choices: a2 b1 b2`).
fn choices(g: &dyn GameRules, seat: Seat) -> Vec<String> {
    let text = g
        .project(Viewer::Seat(seat))
        .instructions
        .expect("a picking seat is told what it may pick");
    let list = text.split("Your choices: ").nth(1).expect("choices");
    list.split_whitespace().map(str::to_string).collect()
}

/// `seat` types `word rest`; the action it reads as, applied.
fn typed(
    g: &mut dyn GameRules,
    seat: Seat,
    word: &str,
    rest: &str,
) -> Result<Vec<postal::variants::api::Note>, postal::variants::api::RuleError> {
    match g.read(seat, &GameCommand::new(word, rest), Env::default())? {
        Reading::Act(a) | Reading::Noted { action: a, .. } => g.apply(seat, &a),
        Reading::ClaimTimeout { .. } => panic!("no time claims in split-brain"),
    }
}

#[test]
fn random_games_keep_every_pick_out_of_every_other_projection_until_its_reveal() {
    let registry = Registry::builtin();
    let load = |s: &serde_json::Value| registry.load("split-brain", s).unwrap();
    let mut picks_checked = 0;
    let (mut decisions, mut choices_made, mut ended) = (0, 0, 0);
    for seed in 0..8u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut g = registry
            .new_game("split-brain", &NewGame::default())
            .unwrap();
        for step in 0..300 {
            if g.is_over() {
                break;
            }
            let awaiting = g.awaiting();
            let (seat, prompt) = awaiting[rng.gen_range(0..awaiting.len())].clone();
            match prompt.kind.as_str() {
                "pick" => {
                    let valid = choices(g.as_ref(), seat);
                    let before = g.snapshot().unwrap();
                    // Whatever the seat picks, the others see the same, and the same as
                    // before the pick; the seat itself sees its pick.
                    let reveals = awaiting.iter().filter(|(_, p)| p.kind == "pick").count() == 1;
                    // Compared with the game loaded from the same snapshot, as every
                    // pick below is: a loaded game's record holds only its own turns.
                    let unpicked = load(&before);
                    let views_before: Vec<String> = others(seat)
                        .into_iter()
                        .map(|v| seen(unpicked.as_ref(), v))
                        .collect();
                    // Who is awaited after the pick is public (the picker no longer is),
                    // but it must not depend on the square.
                    let mut views_after: Option<(Vec<String>, String)> = None;
                    if !reveals {
                        for sq in &valid {
                            let mut h = load(&before);
                            let notes = typed(h.as_mut(), seat, "pick", sq).unwrap();
                            assert!(
                                notes.iter().all(|n| n.to == Audience::Seat(seat)),
                                "a pick before the reveal is told to its author alone: {notes:?}"
                            );
                            let views: Vec<String> = others(seat)
                                .into_iter()
                                .map(|v| seen(h.as_ref(), v))
                                .collect();
                            assert_eq!(
                                views, views_before,
                                "the pick {sq} changed what others see"
                            );
                            let after = (views, format!("{:?}", h.awaiting()));
                            if let Some(a) = &views_after {
                                assert_eq!(&after, a, "seed {seed}: the pick {sq} shows");
                            }
                            views_after = Some(after);
                            let own = h.project(Viewer::Seat(seat)).diagram;
                            assert!(own.contains(&format!("your pick: {sq}")), "{own}");
                            picks_checked += 1;
                        }
                    }
                    // Now and then a square that is not valid: refused, and nothing changes.
                    if rng.gen_bool(0.2) {
                        let file = (b'a' + rng.gen_range(0..6u8)) as char;
                        let sq = format!("{file}{}", rng.gen_range(1..=6));
                        if !valid.contains(&sq) {
                            assert!(typed(g.as_mut(), seat, "pick", &sq).is_err());
                            assert_eq!(
                                g.snapshot().unwrap(),
                                before,
                                "a refused pick changed the game"
                            );
                        }
                    }
                    let sq = &valid[rng.gen_range(0..valid.len())];
                    typed(g.as_mut(), seat, "pick", sq).unwrap();
                }
                "decide" => {
                    let half = if rng.gen_bool(0.5) { "piece" } else { "target" };
                    typed(g.as_mut(), seat, "decide", half).unwrap();
                    decisions += 1;
                }
                "choose" => {
                    let options: Vec<String> = prompt
                        .ask
                        .trim_start_matches("to choose one of ")
                        .split(", ")
                        .map(str::to_string)
                        .collect();
                    let sq = &options[rng.gen_range(0..options.len())];
                    typed(g.as_mut(), seat, "choose", sq).unwrap();
                    choices_made += 1;
                }
                "draw" => {
                    typed(g.as_mut(), seat, "draw", "decline").unwrap();
                }
                other => panic!("unexpected prompt {other}"),
            }
            // Now and then a team offers a draw, whoever is picking.
            if !g.is_over() && rng.gen_bool(0.03) {
                let _ = typed(g.as_mut(), Seat(rng.gen_range(0..4)), "draw", "offer");
            }
            // The stored state reloads to the same game.
            if step % 10 == 0 {
                assert_eq!(
                    load(&g.snapshot().unwrap()).snapshot().unwrap(),
                    g.snapshot().unwrap()
                );
            }
        }
        ended += usize::from(g.is_over());
    }
    eprintln!("{picks_checked} picks checked, {decisions} decisions, {choices_made} ties broken, {ended} games ended");
    assert!(picks_checked > 500 && decisions > 0 && choices_made > 0 && ended > 0);
}
