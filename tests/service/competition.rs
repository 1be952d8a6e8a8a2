//! A best-score competition of a solitaire through the service: three entrants (ids of
//! Discord's length) play the same three deals to the end, one after another, each in a
//! private game; a restart in the middle changes nothing; the standings come out as the
//! games' results say; the deals' secret seeds appear in no message, export or
//! standings; the games of a deal deal the same cards and different deals differ; and
//! the refusals.

use crate::common::service::{open, TempDir};
use crate::solitaire::rank;
use postal::service::referee::{Destination, Incoming, Member, Outbound, Place, Service};
use postal::store::GameStatus;
use postal::variants::api::{GameRules, RefusalKind, Seat, Viewer};
use postal::variants::Registry;

const SERVER: &str = "300000000000000037";
const CHANNEL: &str = "400000000000000037";
const T0: i64 = 1_750_000_000;

/// Entrant `n`'s user id, of Discord's length (18 digits).
fn user(n: usize) -> String {
    format!("1000000000000037{n:02}")
}

/// Sends the commands, keeping the clock and every message seen.
struct Table {
    event: i64,
    at: i64,
    seen: Vec<Outbound>,
}

impl Table {
    /// `who` types `text` in the channel, or privately when `dm`; every message kept.
    async fn send(&mut self, svc: &Service, who: &str, text: &str, dm: bool) -> Vec<Outbound> {
        self.event += 1;
        self.at += 60;
        let inc = Incoming {
            event_id: format!("c{}", self.event),
            user: who.into(),
            place: if dm {
                Place::Dm
            } else {
                Place::Channel(CHANNEL.into())
            },
            via: None,
            server: (!dm).then(|| SERVER.into()),
            text: text.into(),
            at: self.at,
        };
        let mut out = svc.handle_as(inc, Member::default()).await.unwrap();
        // What the command queued in the outbox (a competition's end), delivered after
        // its answer.
        for q in svc.claim_undelivered().await.unwrap() {
            svc.delivered(q.id, self.at).await.unwrap();
            out.push(q.message);
        }
        self.seen.extend(out.iter().cloned());
        out
    }

    /// `text` by `who`, which must be accepted.
    async fn ok(&mut self, svc: &Service, who: &str, text: &str, dm: bool) -> Vec<Outbound> {
        let out = self.send(svc, who, text, dm).await;
        assert!(
            out.iter().all(|o| o.refusal.is_none()),
            "{text}: {:?}",
            out.iter().map(|o| &o.text).collect::<Vec<_>>()
        );
        out
    }

    /// `text` by `who` in the channel, which must be refused with `kind`.
    async fn refused(&mut self, svc: &Service, who: &str, text: &str, kind: RefusalKind) {
        let out = self.send(svc, who, text, false).await;
        assert_eq!(out.len(), 1, "{text}");
        assert_eq!(out[0].refusal, Some(kind), "{text}: {}", out[0].text);
    }
}

/// Game `id` as its rules.
async fn rules(svc: &Service, id: i64) -> Box<dyn GameRules> {
    let g = svc.store().game(id).await.unwrap().unwrap();
    let snapshot: serde_json::Value = serde_json::from_str(&g.snapshot).unwrap();
    Registry::builtin().load(&g.variant, &snapshot).unwrap()
}

/// The command a greedy player types next in `game`: the legal action that joins the
/// pieces most (a win first).
fn greedy(game: &dyn GameRules) -> String {
    let p = game.project(Viewer::Seat(Seat(0)));
    let mut options: Vec<String> = p.legal.iter().map(|m| format!("move {m}")).collect();
    for (_, prompt) in game.awaiting() {
        options.extend(prompt.answers.into_iter().map(|a| a.command));
    }
    options.push("add".into());
    let registry = Registry::builtin();
    options
        .into_iter()
        .min_by_key(|o| rank(&registry, game.variant(), game, o))
        .unwrap()
}

/// Entrant `n`'s game under way in tournament `t`, if any: `(deal, game)`.
async fn live(svc: &Service, t: i64, n: usize) -> Option<(i64, i64)> {
    let seeds: Vec<i64> = svc
        .store()
        .entrants(t)
        .await
        .unwrap()
        .iter()
        .filter(|e| e.user == user(n))
        .map(|e| e.seed)
        .collect();
    svc.store()
        .boards(t)
        .await
        .unwrap()
        .into_iter()
        .find(|b| seeds.contains(&b.white) && b.status == Some(GameStatus::Active))
        .map(|b| (b.round, b.game_id.unwrap()))
}

/// Entrant `n` plays their attempt at game `id` privately: resigns it when `resign`,
/// else greedily to its end.
async fn play(tb: &mut Table, svc: &Service, n: usize, id: i64, resign: bool) {
    if resign {
        tb.ok(svc, &user(n), &format!("resign {id}"), true).await;
        return;
    }
    for _ in 0..80 {
        let game = rules(svc, id).await;
        if game.is_over() {
            return;
        }
        let typed = greedy(game.as_ref());
        tb.ok(svc, &user(n), &typed, true).await;
    }
    panic!("game #{id} did not end");
}

/// The tournament's rows as text: state, version, boards.
async fn state(svc: &Service, t: i64) -> String {
    let row = svc.store().tournament(t).await.unwrap().unwrap();
    format!("{row:?} {:?}", svc.store().boards(t).await.unwrap())
}

/// Entrant 0 plays every deal greedily, entrant 1 resigns deal 2, entrant 2 resigns
/// every deal; one after another, the service reopened once in the middle.
#[tokio::test]
async fn three_entrants_play_the_same_deals_to_the_end() {
    let dir = TempDir::new("competition");
    let mut svc = open(&dir.db()).await;
    let mut tb = Table {
        event: 0,
        at: T0,
        seen: Vec::new(),
    };
    let out = tb
        .ok(
            &svc,
            &user(0),
            "tournament create competition parade deals:3 days:2",
            false,
        )
        .await;
    assert!(
        out[0]
            .text
            .contains("tournament #1 (best score, Parade Chess Solitaire) made by"),
        "{}",
        out[0].text
    );
    assert!(
        out[0].text.contains("3 deals, 2 days per move"),
        "{}",
        out[0].text
    );
    for n in 0..3 {
        tb.ok(&svc, &user(n), "tournament join 1", false).await;
    }
    let out = tb.ok(&svc, &user(0), "tournament start 1", false).await;
    assert!(
        out[0].text.contains("starts: 3 players, 3 deals"),
        "{}",
        out[0].text
    );
    // Each entrant's game of deal 1 opens privately; the channel is told only its number.
    let games: Vec<i64> = out.iter().filter_map(|o| o.game).collect();
    assert!(!games.is_empty());
    for o in out.iter().filter(|o| o.game.is_some()) {
        assert!(matches!(o.to, Destination::Dm(_)), "{:?}", o.to);
    }
    // An onlooker cannot read another entrant's game, nor the tournament's PGN yet.
    let (_, g0) = live(&svc, 1, 0).await.unwrap();
    tb.refused(
        &svc,
        &user(2),
        &format!("board {g0}"),
        RefusalKind::NotYourGame,
    )
    .await;
    tb.refused(&svc, &user(2), "tournament pgn 1", RefusalKind::NotHere)
        .await;

    let resign = |n: usize, deal: i64| n == 2 || (n == 1 && deal == 2);
    let mut restarted = false;
    for _ in 0..20 {
        let mut any = false;
        for n in 0..3 {
            if let Some((deal, id)) = live(&svc, 1, n).await {
                any = true;
                play(&mut tb, &svc, n, id, resign(n, deal)).await;
                if deal == 2 && n == 1 && !restarted {
                    // A restart in the middle: the same rows, and the sweep deals nothing
                    // twice.
                    let before = state(&svc, 1).await;
                    svc.store().close().await;
                    svc = open(&dir.db()).await;
                    assert_eq!(
                        state(&svc, 1).await,
                        before,
                        "a restart changed the competition"
                    );
                    svc.advance_tournaments(tb.at).await.unwrap();
                    assert_eq!(
                        state(&svc, 1).await,
                        before,
                        "the sweep changed the competition"
                    );
                    restarted = true;
                }
            }
        }
        if !any {
            break;
        }
    }
    assert!(restarted);
    let row = svc.store().tournament(1).await.unwrap().unwrap();
    assert_eq!((row.state.as_str(), row.current_round), ("finished", 3));

    // Nine attempts, each entrant's deals in order, each game private and of one seat.
    let boards = svc.store().boards(1).await.unwrap();
    assert_eq!(boards.len(), 9);
    let mut snapshots = vec![Vec::new(); 3];
    let mut results = vec![Vec::new(); 3];
    let entrants = svc.store().entrants(1).await.unwrap();
    for b in &boards {
        let g = svc.store().game(b.game_id.unwrap()).await.unwrap().unwrap();
        assert_eq!((g.channel.as_deref(), g.seats.len()), (None, 1));
        let start = g.start_snapshot.clone().unwrap();
        assert!(svc
            .store()
            .tournament_of_game(g.id)
            .await
            .unwrap()
            .is_some());
        snapshots[b.round as usize - 1].push(start);
        let n = entrants.iter().position(|e| e.seed == b.white).unwrap();
        results[n].push((b.round, g.result.clone(), g.score.clone()));
    }
    // The same deal for everyone: the three games of a deal start from one state (the
    // stored start, and each player's own view of it); different deals differ.
    for (d, starts) in snapshots.iter().enumerate() {
        assert_eq!(starts.len(), 3);
        assert!(
            starts.iter().all(|s| s == &starts[0]),
            "deal {}: {starts:?}",
            d + 1
        );
        let views: Vec<String> = starts
            .iter()
            .map(|s| {
                let v: serde_json::Value = serde_json::from_str(s).unwrap();
                let game = Registry::builtin().load("parade", &v).unwrap();
                let p = game.project(Viewer::Seat(Seat(0)));
                format!("{} {}", p.diagram, p.fen)
            })
            .collect();
        assert!(views.iter().all(|v| v == &views[0]));
    }
    assert_ne!(snapshots[0][0], snapshots[1][0]);
    assert_ne!(snapshots[1][0], snapshots[2][0]);
    assert_ne!(snapshots[0][0], snapshots[2][0]);
    // Hand-checked: greedy play loses deals 1 and 2 and wins deal 3 with 5 cards left,
    // the same for entrants 0 and 1 since they had the same cards (1 resigned deal 2);
    // entrant 2 resigned everything. 0 and 1 are equal in deals won (1), total (5) and
    // best (5), so they share first place; 2 is third.
    let lost = |d: i64| (d, Some("lost".to_string()), None);
    let won5 = (3, Some("won".to_string()), Some("[5]".to_string()));
    assert_eq!(results[0], [lost(1), lost(2), won5.clone()]);
    assert_eq!(results[1], [lost(1), lost(2), won5]);
    assert_eq!(results[2], [lost(1), lost(2), lost(3)]);
    let table = format!(
        "#  Player              Won  Total  Best\n\
         ---------------------------------------\n\
         1  {}  1/3      5     5\n\
         1  {}  1/3      5     5\n\
         3  {}  0/3      0     -",
        user(0),
        user(1),
        user(2)
    );

    // The final standings, posted once where the competition lives, and as
    // `tournament 1` shows them; the standings after deals 1 and 2 on the way.
    let posted: Vec<&Outbound> = tb
        .seen
        .iter()
        .filter(|o| o.text.contains("final standings"))
        .collect();
    assert_eq!(posted.len(), 1);
    assert!(posted[0].table.is_some());
    assert_eq!(posted[0].to, Destination::Channel(CHANNEL.into()));
    assert!(posted[0].text.contains(&table), "{}", posted[0].text);
    let out = tb.ok(&svc, &user(2), "tournament 1", false).await;
    assert_eq!(
        out[0].text,
        format!(
            "tournament #1 (best score, Parade Chess Solitaire): final standings\n```\n{table}```"
        )
    );
    assert_eq!(out[0].table.as_ref().unwrap().rows.len(), 3);
    let after: Vec<&str> = tb
        .seen
        .iter()
        .filter_map(|o| {
            o.text
                .split_once("standings after deal ")
                .map(|(_, d)| &d[..1])
        })
        .collect();
    assert_eq!(after, ["1", "2"]);

    // The PGN once over: nine games, each with its deal and round.
    let out = tb.ok(&svc, &user(2), "tournament pgn 1", false).await;
    assert_eq!(out[0].document.as_deref(), Some("tournament-1.pgn"));
    assert_eq!(
        out[0].text.matches("[Event \"Postal tournament #1").count(),
        9
    );
    assert_eq!(out[0].text.matches("[Deal \"").count(), 9);

    // No seed anywhere: in no message, standings, PGN or export.
    let seeds = svc.store().deal_seeds(1, &[]).await.unwrap();
    assert_eq!(seeds.len(), 3);
    let mut exports = String::new();
    for b in &boards {
        for format in ["json", "pgn"] {
            let bytes =
                postal::service::export::export_stored(&dir.db(), b.game_id.unwrap(), format)
                    .await
                    .unwrap();
            exports.push_str(&String::from_utf8(bytes).unwrap());
        }
    }
    let texts: Vec<&str> = tb
        .seen
        .iter()
        .map(|o| o.text.as_str())
        .chain(std::iter::once(exports.as_str()))
        .collect();
    for seed in seeds {
        for form in [
            seed.to_string(),
            (seed as i64).to_string(),
            format!("{seed:x}"),
            format!("{seed:X}"),
        ] {
            for t in &texts {
                assert!(!t.contains(&form), "seed {form} shown: {t}");
            }
        }
    }
    svc.store().close().await;
}

/// Bad terms are refused and change nothing; a withdrawal loses the entrant's remaining
/// deals, and the competition ends when the others have played.
#[tokio::test]
async fn refusals_and_a_withdrawal() {
    let dir = TempDir::new("competition-refusals");
    let svc = open(&dir.db()).await;
    let mut tb = Table {
        event: 0,
        at: T0,
        seen: Vec::new(),
    };
    let creator = user(0);
    for (text, kind) in [
        (
            "tournament create competition standard",
            RefusalKind::Illegal,
        ),
        ("tournament create round-robin parade", RefusalKind::Illegal),
        (
            "tournament create competition parade deals:11",
            RefusalKind::Syntax,
        ),
        (
            "tournament create competition parade rounds:3",
            RefusalKind::Syntax,
        ),
        (
            "tournament create competition parade together",
            RefusalKind::Syntax,
        ),
    ] {
        tb.refused(&svc, &creator, text, kind).await;
    }
    let hint = tb
        .send(
            &svc,
            &creator,
            "tournament create swiss neighbour rounds:3",
            false,
        )
        .await;
    assert!(
        hint[0]
            .text
            .contains("tournament create competition neighbour"),
        "{}",
        hint[0].text
    );
    assert!(svc.store().tournament(1).await.unwrap().is_none());
    tb.ok(
        &svc,
        &creator,
        "tournament create competition neighbour deals:2",
        false,
    )
    .await;
    tb.ok(&svc, &user(0), "tournament join 1", false).await;
    tb.refused(&svc, &creator, "tournament start 1", RefusalKind::Illegal)
        .await;
    for n in 1..3 {
        tb.ok(&svc, &user(n), "tournament join 1", false).await;
    }
    tb.refused(
        &svc,
        &user(1),
        "tournament start 1",
        RefusalKind::NotAllowed,
    )
    .await;
    let out = tb.ok(&svc, &user(1), "tournament 1", false).await;
    assert!(
        out[0].text.contains("open for sign-up, 2 deals"),
        "{}",
        out[0].text
    );
    tb.ok(&svc, &creator, "tournament start 1", false).await;
    tb.refused(&svc, &creator, "tournament start 1", RefusalKind::Over)
        .await;
    // Entrant 2 withdraws with deal 1 under way: it is lost, and deal 2 never dealt.
    let (_, g2) = live(&svc, 1, 2).await.unwrap();
    tb.ok(&svc, &user(2), "tournament leave 1", false).await;
    assert_ne!(
        svc.store().game(g2).await.unwrap().unwrap().status,
        GameStatus::Active
    );
    for _ in 0..4 {
        for n in 0..2 {
            if let Some((_, id)) = live(&svc, 1, n).await {
                play(&mut tb, &svc, n, id, true).await;
            }
        }
    }
    let row = svc.store().tournament(1).await.unwrap().unwrap();
    assert_eq!(row.state, "finished");
    assert_eq!(svc.store().boards(1).await.unwrap().len(), 5);
    let out = tb.ok(&svc, &user(1), "tournament 1", false).await;
    assert!(
        out[0].text.contains(&format!("{} (w)  0/2", user(2))),
        "{}",
        out[0].text
    );
    svc.store().close().await;
}

/// Attempts that run out of time are lost; the deadline task deals the next deal and,
/// with every attempt ended, finishes the competition, its messages in the outbox.
#[tokio::test]
async fn timed_out_attempts_deal_the_next_and_end_the_competition_from_the_outbox() {
    const DAY: i64 = 86_400;
    let dir = TempDir::new("competition-timeouts");
    let svc = open(&dir.db()).await;
    let mut tb = Table {
        event: 0,
        at: T0,
        seen: Vec::new(),
    };
    tb.ok(
        &svc,
        &user(0),
        "tournament create competition parade deals:2 days:1",
        false,
    )
    .await;
    for n in 0..2 {
        tb.ok(&svc, &user(n), "tournament join 1", false).await;
    }
    tb.ok(&svc, &user(0), "tournament start 1", false).await;
    // Entrant 0 resigns deal 1: their deal 2 is dealt at once.
    let (_, g) = live(&svc, 1, 0).await.unwrap();
    play(&mut tb, &svc, 0, g, true).await;
    assert_eq!(live(&svc, 1, 0).await.map(|l| l.0), Some(2));
    // Nobody plays on: both attempts under way time out, and the deadline task deals
    // entrant 1 their deal 2, announced from the outbox, queued with the deal: the game's
    // opening to its player alone, and to the channel who was dealt which game, with no
    // board.
    let queued = svc.tick(T0 + 3 * DAY).await.unwrap();
    assert!(live(&svc, 1, 0).await.is_none());
    let (_, dealt) = live(&svc, 1, 1).await.unwrap();
    let texts: Vec<&String> = queued.iter().map(|q| &q.message.text).collect();
    let opening: Vec<&Outbound> = queued
        .iter()
        .map(|q| &q.message)
        .filter(|o| o.text.contains("deal 2 of 2: game #"))
        .collect();
    assert_eq!(opening.len(), 1, "{texts:?}");
    assert_eq!(opening[0].to, Destination::Dm(user(1)));
    assert_eq!(opening[0].game, Some(dealt));
    assert!(opening[0].started && opening[0].image.is_some());
    let told: Vec<&Outbound> = queued
        .iter()
        .map(|q| &q.message)
        .filter(|o| o.text.contains("deal 2 of 2:") && o.to == Destination::Channel(CHANNEL.into()))
        .collect();
    assert_eq!(told.len(), 1, "{texts:?}");
    // Worded as when the deal is announced at once, with the game's number.
    let dealt_game = format!("is dealt game #{dealt}, played in private messages");
    assert!(
        told[0].text.contains(&dealt_game) && told[0].image.is_none(),
        "{}",
        told[0].text
    );
    for q in &queued {
        svc.delivered(q.id, T0 + 3 * DAY).await.unwrap();
    }
    // The last attempt times out: the competition's end and its final standings are
    // queued by the write that finishes it, found once whichever process sweeps, and
    // by two processes sweeping three times.
    let other = open(&dir.db()).await;
    for s in [&svc, &svc, &other] {
        s.check_deadlines(T0 + 6 * DAY).await.unwrap();
    }
    let row = svc.store().tournament(1).await.unwrap().unwrap();
    assert_eq!(row.state, "finished");
    let queued = other.claim_undelivered().await.unwrap();
    let finals: Vec<&Outbound> = queued
        .iter()
        .map(|q| &q.message)
        .filter(|o| o.text.contains("final standings"))
        .collect();
    assert_eq!(finals.len(), 1);
    assert_eq!(finals[0].to, Destination::Channel(CHANNEL.into()));
    assert_eq!(finals[0].table.as_ref().map(|t| t.rows.len()), Some(2));
    for q in &queued {
        other.delivered(q.id, T0 + 6 * DAY).await.unwrap();
    }
    svc.check_deadlines(T0 + 6 * DAY + 60).await.unwrap();
    assert!(svc.claim_undelivered().await.unwrap().is_empty());
    other.store().close().await;
    let mut reasons = Vec::new();
    for b in svc.store().boards(1).await.unwrap() {
        let g = svc.store().game(b.game_id.unwrap()).await.unwrap().unwrap();
        reasons.push((b.round, b.board, g.result, g.reason));
    }
    let lost = |d, b, why: &str| (d, b, Some("lost".to_string()), Some(why.to_string()));
    assert_eq!(
        reasons,
        [
            lost(1, 1, "resignation"),
            lost(1, 2, "timeout"),
            lost(2, 1, "timeout"),
            lost(2, 2, "timeout")
        ]
    );
    svc.store().close().await;
}
