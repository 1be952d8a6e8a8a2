//! Tournaments through the service: a round robin and a Swiss of standard chess played to
//! the end with random results (wins by resignation, draws by a moderator's
//! adjudication) and one withdrawal, a restart in the middle of a round, two processes
//! ending a round's last games at once, a hand-checked round robin, and the refusals.

use crate::common::service::{open, TempDir};
use postal::service::referee::{Incoming, Member, Outbound, Place, Service};
use postal::store::GameStatus;
use postal::variants::api::RefusalKind;
use std::collections::{BTreeMap, BTreeSet};

const SERVER: &str = "300000000000000011";
const CHANNEL: &str = "400000000000000011";
const T0: i64 = 1_750_000_000;

/// Player `n`'s user id, of Discord's length.
fn user(n: usize) -> String {
    format!("1000000000000001{n:02}")
}

/// A service's messages, with the event counter that names each command.
struct Driver {
    event: i64,
    at: i64,
}

impl Driver {
    fn new() -> Driver {
        Driver { event: 0, at: T0 }
    }

    /// `who` types `text` in the tournament's channel, as a moderator if `moderator`.
    async fn send(
        &mut self,
        svc: &Service,
        who: &str,
        text: &str,
        moderator: bool,
    ) -> Vec<Outbound> {
        self.event += 1;
        self.at += 60;
        let inc = Incoming {
            event_id: format!("t{}", self.event),
            user: who.into(),
            place: Place::Channel(CHANNEL.into()),
            via: None,
            server: Some(SERVER.into()),
            text: text.into(),
            at: self.at,
        };
        let member = Member {
            manager: moderator,
            roles: Vec::new(),
        };
        let mut out = svc.handle_as(inc, member).await.unwrap();
        // What the command queued in the outbox (a round's announcements, queued with
        // the round) follows its answer, delivered as an adapter delivers it.
        out.extend(delivered(svc, self.at).await);
        out
    }

    /// `text` by `who`, which must be accepted.
    async fn ok(&mut self, svc: &Service, who: &str, text: &str) -> Vec<Outbound> {
        let out = self.send(svc, who, text, false).await;
        assert!(
            out.iter().all(|o| o.refusal.is_none()),
            "{text}: {:?}",
            out.iter().map(|o| &o.text).collect::<Vec<_>>()
        );
        out
    }

    /// `text` by `who`, which must be refused with `kind`.
    async fn refused(&mut self, svc: &Service, who: &str, text: &str, kind: RefusalKind) {
        let out = self.send(svc, who, text, false).await;
        assert_eq!(out.len(), 1, "{text}");
        assert_eq!(out[0].refusal, Some(kind), "{text}: {}", out[0].text);
    }
}

/// The outbox's undelivered messages, claimed and marked delivered at `at`.
pub(crate) async fn delivered(svc: &Service, at: i64) -> Vec<Outbound> {
    let mut out = Vec::new();
    for q in svc.claim_undelivered().await.unwrap() {
        svc.delivered(q.id, at).await.unwrap();
        out.push(q.message);
    }
    out
}

/// A small deterministic generator of the games' results.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// A result: White wins, Black wins, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Res {
    White,
    Black,
    Draw,
}

/// Ends game `id` with `res`: the loser resigns, or a moderator adjudicates a draw.
async fn finish(d: &mut Driver, svc: &Service, id: i64, res: Res) {
    let g = svc.store().game(id).await.unwrap().unwrap();
    match res {
        Res::White => {
            d.ok(svc, g.user_at(1).unwrap(), &format!("resign {id}"))
                .await;
        }
        Res::Black => {
            d.ok(svc, g.user_at(0).unwrap(), &format!("resign {id}"))
                .await;
        }
        Res::Draw => {
            let out = d
                .send(
                    svc,
                    &user(99),
                    &format!("moderate {id} adjudicate result:draw stuck"),
                    true,
                )
                .await;
            assert!(
                out.iter().all(|o| o.refusal.is_none()),
                "{:?}",
                out.iter().map(|o| &o.text).collect::<Vec<_>>()
            );
        }
    }
}

/// The games of tournament `t` still going on.
async fn live_games(svc: &Service, t: i64) -> Vec<i64> {
    let mut out = Vec::new();
    for b in svc.store().boards(t).await.unwrap() {
        if b.forfeit.is_none() && b.status == Some(GameStatus::Active) {
            out.push(b.game_id.unwrap());
        }
    }
    out
}

/// A tournament's state: its row's state and rounds, and every board.
async fn snapshot(svc: &Service, t: i64) -> String {
    let row = svc.store().tournament(t).await.unwrap().unwrap();
    let boards = svc.store().boards(t).await.unwrap();
    format!(
        "{} {} {} {:?}",
        row.state.as_str(),
        row.current_round,
        row.version,
        boards
    )
}

/// Checks the boards of a finished tournament: nobody meets an opponent twice, nobody has
/// one colour three times running or a colour difference beyond 2 over games played, and
/// byes go to different players; returns each player's byes.
async fn check_pairings(svc: &Service, t: i64, max_byes: usize) {
    let boards = svc.store().boards(t).await.unwrap();
    let mut met = BTreeSet::new();
    let mut colours: BTreeMap<i64, Vec<i32>> = BTreeMap::new();
    let mut byes: BTreeMap<i64, usize> = BTreeMap::new();
    for b in &boards {
        match b.black {
            None => *byes.entry(b.white).or_default() += 1,
            Some(black) => {
                let pair = (b.white.min(black), b.white.max(black));
                assert!(met.insert(pair), "{pair:?} met twice");
                if b.game_id.is_some() && b.forfeit.is_none() {
                    colours.entry(b.white).or_default().push(1);
                    colours.entry(black).or_default().push(-1);
                }
            }
        }
    }
    for (p, cs) in &colours {
        let diff: i32 = cs.iter().sum();
        assert!(diff.abs() <= 2, "player {p}: colour difference {diff}");
        for w in cs.windows(3) {
            assert!(!(w[0] == w[1] && w[1] == w[2]), "player {p}: {cs:?}");
        }
    }
    assert!(byes.values().all(|&n| n <= max_byes), "{byes:?}");
}

/// Plays tournament `t` to its end with random results; `withdraw` (a player, a round)
/// withdraws in that round with their game under way; `restart` reopens the service in
/// the middle of that round. Returns the service (reopened or not).
async fn play_out(
    dir: &TempDir,
    mut svc: Service,
    d: &mut Driver,
    t: i64,
    rng: &mut Lcg,
    withdraw: Option<(usize, i64)>,
    restart: i64,
) -> Service {
    for _ in 0..200 {
        let row = svc.store().tournament(t).await.unwrap().unwrap();
        if row.state == "finished" {
            return svc;
        }
        let games = live_games(&svc, t).await;
        assert!(
            !games.is_empty(),
            "tournament #{t} is stuck: {}",
            snapshot(&svc, t).await
        );
        if let Some((p, round)) = withdraw {
            let entrants = svc.store().entrants(t).await.unwrap();
            if row.current_round == round && entrants.iter().all(|e| e.withdrawn_at.is_none()) {
                let out = d.ok(&svc, &user(p), &format!("tournament leave {t}")).await;
                assert!(out.iter().any(|o| o.text.contains("withdrew")));
                continue;
            }
        }
        let half = games.len() / 2;
        for (i, &g) in games.iter().enumerate() {
            if i == half && row.current_round == restart {
                let before = snapshot(&svc, t).await;
                drop(svc);
                svc = open(&dir.db()).await;
                assert_eq!(
                    snapshot(&svc, t).await,
                    before,
                    "a restart changed the tournament"
                );
            }
            let res = match rng.next() % 5 {
                0 | 1 => Res::White,
                2 | 3 => Res::Black,
                _ => Res::Draw,
            };
            finish(d, &svc, g, res).await;
        }
    }
    panic!("tournament #{t} did not finish");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_of_seven_with_a_withdrawal_is_played_to_the_end() {
    let dir = TempDir::new("tournament-rr7");
    let svc = open(&dir.db()).await;
    let mut d = Driver::new();
    let out = d
        .ok(
            &svc,
            &user(0),
            "tournament create round-robin standard days:3",
        )
        .await;
    assert!(out[0].text.contains("tournament #1"), "{}", out[0].text);
    for p in 0..7 {
        d.ok(&svc, &user(p), "tournament join 1").await;
    }
    let out = d.ok(&svc, &user(0), "tournament start 1").await;
    // Three games (each in its own message, both players called on) and the bye.
    let games: Vec<&Outbound> = out
        .iter()
        .filter(|o| o.game.is_some() && o.image.is_some())
        .collect();
    assert_eq!(games.len(), 3);
    assert!(games
        .iter()
        .all(|o| o.text.contains("round 1") && o.mentions.len() == 2));
    assert!(out.iter().any(|o| o.text.contains("has the bye")));
    let mut rng = Lcg(7);
    let svc = play_out(&dir, svc, &mut d, 1, &mut rng, Some((6, 4)), 2).await;
    check_pairings(&svc, 1, 1).await;
    let boards = svc.store().boards(1).await.unwrap();
    // Seven rounds of three boards and a bye; everyone's bye in a different round.
    assert_eq!(boards.len(), 28);
    let entrants = svc.store().entrants(1).await.unwrap();
    assert_eq!(entrants[6].withdrawn_at, Some(4));
    // The withdrawn player's games from round 4 on are forfeits, their running game
    // resigned.
    for b in boards
        .iter()
        .filter(|b| b.round >= 4 && (b.white == 6 || b.black == Some(6)))
    {
        if b.black.is_some() {
            assert!(b.forfeit.is_some(), "{b:?}");
        }
    }
    let out = d.ok(&svc, &user(3), "tournament 1").await;
    assert!(out[0].text.contains("final standings"), "{}", out[0].text);
    assert!(out[0].table.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_eighteen_in_five_rounds_with_a_withdrawal_is_played_to_the_end() {
    let dir = TempDir::new("tournament-swiss18");
    let svc = open(&dir.db()).await;
    let mut d = Driver::new();
    d.ok(&svc, &user(0), "tournament create swiss standard rounds:5")
        .await;
    for p in 0..18 {
        d.ok(&svc, &user(p), "tournament join 1").await;
    }
    d.ok(&svc, &user(0), "tournament start 1").await;
    let mut rng = Lcg(18);
    let svc = play_out(&dir, svc, &mut d, 1, &mut rng, Some((5, 2)), 3).await;
    // After the withdrawal the field is odd: byes, each to a different player.
    check_pairings(&svc, 1, 1).await;
    let boards = svc.store().boards(1).await.unwrap();
    let byes = boards.iter().filter(|b| b.black.is_none()).count();
    assert_eq!(byes, 3, "rounds 3 to 5 have a bye each");
    assert!(boards
        .iter()
        .filter(|b| b.round > 2)
        .all(|b| b.white != 5 && b.black != Some(5)));
}

/// The hand-checked round robin of docs/tournaments.md ("Example: a standard chess round
/// robin through the service").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_of_four_gives_the_hand_checked_standings() {
    let dir = TempDir::new("tournament-rr4");
    let svc = open(&dir.db()).await;
    let mut d = Driver::new();
    d.ok(&svc, &user(0), "tournament create round-robin standard")
        .await;
    for p in 0..4 {
        d.ok(&svc, &user(p), "tournament join 1").await;
    }
    d.ok(&svc, &user(0), "tournament start 1").await;
    // A=0, B=1, C=2, D=3. Round 1: A-D 1-0, B-C 0-1; round 2: D-C ½-½, A-B ½-½;
    // round 3: B-D 1-0, C-A ½-½.
    let plan = [
        (0, 3, Res::White),
        (1, 2, Res::Black),
        (3, 2, Res::Draw),
        (0, 1, Res::Draw),
        (1, 3, Res::White),
        (2, 0, Res::Draw),
    ];
    let mut last = Vec::new();
    for round in 1..=3 {
        for b in svc
            .store()
            .boards(1)
            .await
            .unwrap()
            .into_iter()
            .filter(|b| b.round == round)
        {
            let (w, bl) = (b.white as usize, b.black.unwrap() as usize);
            let res = plan
                .iter()
                .find(|p| p.0 == w && p.1 == bl)
                .expect("scheduled")
                .2;
            let g = b.game_id.unwrap();
            let g = svc.store().game(g).await.unwrap().unwrap();
            last = match res {
                Res::White => {
                    d.ok(&svc, g.user_at(1).unwrap(), &format!("resign {}", g.id))
                        .await
                }
                Res::Black => {
                    d.ok(&svc, g.user_at(0).unwrap(), &format!("resign {}", g.id))
                        .await
                }
                Res::Draw => {
                    d.send(
                        &svc,
                        &user(99),
                        &format!("moderate {} adjudicate result:draw agreed", g.id),
                        true,
                    )
                    .await
                }
            };
        }
    }
    let standings = last
        .iter()
        .find(|o| o.text.contains("final standings"))
        .expect("final standings posted");
    let table = standings.table.as_ref().unwrap();
    let rows: Vec<Vec<&str>> = table
        .rows
        .iter()
        .map(|r| r.iter().map(String::as_str).take(4).collect())
        .collect();
    assert_eq!(
        rows,
        vec![
            vec!["1", user(2).as_str(), "2", "2.75"],
            vec!["2", user(0).as_str(), "2", "2.25"],
            vec!["3", user(1).as_str(), "1½", "1½"],
            vec!["4", user(3).as_str(), "½", "1"],
        ]
    );
    assert_eq!(
        svc.store().tournament(1).await.unwrap().unwrap().state,
        "finished"
    );
    // The PGN: six games with their tags, and the crosstable.
    let out = d.ok(&svc, &user(1), "tournament pgn 1").await;
    assert_eq!(out[0].document.as_deref(), Some("tournament-1.pgn"));
    assert_eq!(
        out[0].text.matches("[Event \"Postal tournament #1").count(),
        6
    );
    assert_eq!(out[0].text.matches("[Board \"").count(), 6);
    assert!(out[0].text.contains("[Round \"3\"]"));
    assert_eq!(
        out[1].document.as_deref(),
        Some("tournament-1-crosstable.txt")
    );
}

/// Two processes on one database end a round's last two games at once: the next round
/// starts once, and is announced once, from the outbox, though both processes die
/// before answering (their answers are dropped).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_ending_a_rounds_last_games_start_the_next_round_once() {
    let dir = TempDir::new("tournament-race");
    let a = open(&dir.db()).await;
    let mut d = Driver::new();
    d.ok(&a, &user(0), "tournament create swiss standard rounds:3")
        .await;
    for p in 0..4 {
        d.ok(&a, &user(p), "tournament join 1").await;
    }
    d.ok(&a, &user(0), "tournament start 1").await;
    let b = open(&dir.db()).await;
    let games = live_games(&a, 1).await;
    assert_eq!(games.len(), 2);
    let mut tasks = Vec::new();
    for (i, (svc, g)) in [(a, games[0]), (b, games[1])].into_iter().enumerate() {
        let loser = svc
            .store()
            .game(g)
            .await
            .unwrap()
            .unwrap()
            .user_at(1)
            .unwrap()
            .to_string();
        tasks.push(tokio::spawn(async move {
            let inc = Incoming {
                event_id: format!("race{i}"),
                user: loser,
                place: Place::Channel(CHANNEL.into()),
                via: None,
                server: Some(SERVER.into()),
                text: format!("resign {g}"),
                at: T0 + 10_000,
            };
            let out = svc.handle(inc).await.unwrap();
            assert!(!out.iter().any(|o| o.text.contains("round 2")));
            svc
        }));
    }
    let mut services = Vec::new();
    for t in tasks {
        services.push(t.await.unwrap());
    }
    // A third process, started after both died, finds the round's announcements.
    let svc = open(&dir.db()).await;
    // The sweep of any process finds nothing more to do.
    for s in services.iter().chain([&svc]) {
        s.advance_tournaments(T0 + 20_000).await.unwrap();
    }
    let out = delivered(&svc, T0 + 20_000).await;
    let started = out
        .iter()
        .filter(|o| o.text.contains("round 2, board 1"))
        .count();
    let opening = out
        .iter()
        .find(|o| o.text.contains("round 2, board 1"))
        .expect("announced");
    assert!(opening.started && opening.image.is_some() && opening.game.is_some());
    assert_eq!(opening.mentions.len(), 2, "{:?}", opening.mentions);
    let standings = out
        .iter()
        .find(|o| o.text.contains("standings after round 1"))
        .expect("standings posted");
    assert!(standings.table.is_some());
    let row = svc.store().tournament(1).await.unwrap().unwrap();
    assert_eq!(row.current_round, 2);
    let boards = svc.store().boards(1).await.unwrap();
    assert_eq!(boards.iter().filter(|b| b.round == 2).count(), 2);
    assert_eq!(started, 1, "round 2 announced {started} times");
    assert_eq!(live_games(&svc, 1).await.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_tournament_commands_are_refused_and_change_nothing() {
    let dir = TempDir::new("tournament-refusals");
    let svc = open(&dir.db()).await;
    let mut d = Driver::new();
    use RefusalKind::*;
    d.refused(
        &svc,
        &user(0),
        "tournament create knockout standard",
        Syntax,
    )
    .await;
    d.refused(
        &svc,
        &user(0),
        "tournament create swiss nosuchvariant rounds:3",
        Unknown,
    )
    .await;
    d.refused(&svc, &user(0), "tournament create swiss standard", Syntax)
        .await;
    d.refused(
        &svc,
        &user(0),
        "tournament create round-robin standard rounds:3",
        Syntax,
    )
    .await;
    d.refused(
        &svc,
        &user(0),
        "tournament create swiss standard rounds:3 together",
        Syntax,
    )
    .await;
    d.refused(
        &svc,
        &user(0),
        "tournament create round-robin parade",
        Illegal,
    )
    .await;
    d.refused(&svc, &user(0), "tournament join 1", Unknown)
        .await;
    d.ok(
        &svc,
        &user(0),
        "tournament create round-robin standard limit:3",
    )
    .await;
    let before = snapshot(&svc, 1).await;
    d.refused(&svc, &user(1), "tournament start 1", NotAllowed)
        .await;
    d.refused(&svc, &user(0), "tournament start 1", Illegal)
        .await;
    for p in 0..3 {
        d.ok(&svc, &user(p), "tournament join 1").await;
    }
    d.refused(&svc, &user(1), "tournament join 1", Illegal)
        .await;
    d.refused(&svc, &user(3), "tournament join 1", Illegal)
        .await;
    d.refused(
        &svc,
        &user(2),
        &format!("tournament remove 1 <@{}>", user(1)),
        NotAllowed,
    )
    .await;
    d.refused(&svc, &user(4), "tournament leave 1", Unknown)
        .await;
    d.refused(&svc, &user(0), "tournament resume 1", Over).await;
    let mid = snapshot(&svc, 1).await;
    assert_ne!(before, mid);
    d.ok(&svc, &user(0), "tournament start 1").await;
    d.refused(&svc, &user(4), "tournament join 1", Over).await;
    d.refused(&svc, &user(0), "tournament start 1", Over).await;
    let running = snapshot(&svc, 1).await;
    d.refused(&svc, &user(1), "tournament pause 1", NotAllowed)
        .await;
    assert_eq!(snapshot(&svc, 1).await, running);
    // A moderator may pause it; a paused tournament resumes.
    let out = d.send(&svc, &user(9), "tournament pause 1", true).await;
    assert!(out.iter().all(|o| o.refusal.is_none()));
    d.ok(&svc, &user(0), "tournament resume 1").await;
    let out = d.ok(&svc, &user(5), "tournaments").await;
    assert!(out[0].text.contains("tournament #1"));
}

/// A round whose last game ends by timeout: the deadline check's sweep starts the next
/// round with its announcements (the standings with their table, each game's opening,
/// marked as opening it and calling on its players) queued in the same transaction; a
/// second check, and the check of a second process, queue nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_ended_by_timeout_is_announced_once_from_the_outbox() {
    let dir = TempDir::new("tournament-timeout");
    let a = open(&dir.db()).await;
    let mut d = Driver::new();
    d.ok(
        &a,
        &user(0),
        "tournament create round-robin standard days:1",
    )
    .await;
    for p in 0..4 {
        d.ok(&a, &user(p), "tournament join 1").await;
    }
    let out = d.ok(&a, &user(0), "tournament start 1").await;
    let openings: Vec<&Outbound> = out.iter().filter(|o| o.started).collect();
    assert_eq!(openings.len(), 2, "round 1's two games are announced");
    let games = live_games(&a, 1).await;
    finish(&mut d, &a, games[0], Res::White).await;
    // Nobody moves in the other game: two days later its clock has run out.
    let later = d.at + 2 * 86_400;
    let b = open(&dir.db()).await;
    for svc in [&a, &a, &b] {
        svc.check_deadlines(later).await.unwrap();
    }
    assert_eq!(
        a.store()
            .tournament(1)
            .await
            .unwrap()
            .unwrap()
            .current_round,
        2
    );
    let out = delivered(&b, later).await;
    let count = |what: &str| out.iter().filter(|o| o.text.contains(what)).count();
    assert_eq!(count("time ran out"), 1);
    assert_eq!(count("standings after round 1"), 1);
    assert_eq!(count("round 2, board 1: game #"), 1);
    assert_eq!(count("round 2, board 2: game #"), 1);
    let standings = out
        .iter()
        .find(|o| o.text.contains("standings after round 1"))
        .unwrap();
    assert_eq!(standings.table.as_ref().map(|t| t.rows.len()), Some(4));
    assert_eq!(
        standings.to,
        postal::service::referee::Destination::Channel(CHANNEL.into())
    );
    for o in out.iter().filter(|o| o.text.contains("round 2, board")) {
        let g = a.store().game(o.game.unwrap()).await.unwrap().unwrap();
        assert!(o.started && o.image.is_some());
        assert_eq!(g.status, GameStatus::Active);
        let mut players: Vec<String> = g.seats.iter().filter_map(|s| s.user.clone()).collect();
        let mut called = o.mentions.clone();
        players.sort();
        called.sort();
        assert_eq!(called, players, "{}", o.text);
    }
    // Nothing is left to deliver, and another check starts nothing more.
    a.check_deadlines(later + 60).await.unwrap();
    assert!(delivered(&a, later + 60).await.is_empty());
}
