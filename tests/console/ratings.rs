//! Ratings and leaderboards through the service: Glicko-2 per server from finished rated
//! games only, as players read them game by game, and `postal ratings --recompute`
//! rebuilding the same values from the stored games.

use crate::common;

use common::service::{open, TempDir, T0};
use postal::service::referee::{Incoming, Place, Service};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use std::process::Command;

/// `user` types `text` in the games channel of `server` (event `n`, at `T0 + n`); the
/// texts of the answers.
async fn say(svc: &Service, n: &mut i64, server: &str, user: &str, text: &str) -> Vec<String> {
    *n += 1;
    svc.handle(Incoming {
        event_id: format!("e{n}"),
        user: user.into(),
        place: Place::Channel(format!("games-{server}")),
        via: None,
        server: Some(server.into()),
        text: text.into(),
        at: T0 + *n,
    })
    .await
    .unwrap()
    .into_iter()
    .map(|o| o.text)
    .collect()
}

/// A game of standard chess in `server` where the players play 1. e4 e5 and `loser` resigns;
/// `extra` is added to the challenge (`rated:no`).
async fn play(
    svc: &Service,
    n: &mut i64,
    server: &str,
    white: &str,
    black: &str,
    loser: &str,
    extra: &str,
) {
    let out = say(
        svc,
        n,
        server,
        white,
        &format!("challenge @{black} colour:white {extra}"),
    )
    .await;
    assert!(out[0].contains("challenges"), "{out:?}");
    let id: i64 = out[0]
        .strip_prefix("game #")
        .and_then(|s| s.split(':').next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    say(svc, n, server, black, "accept").await;
    say(svc, n, server, white, &format!("move {id} e4")).await;
    say(svc, n, server, black, &format!("move {id} e5")).await;
    let out = say(svc, n, server, loser, &format!("resign {id}")).await;
    assert!(out.iter().any(|t| t.contains("resignation")), "{out:?}");
}

fn words(r: &Glicko2Rating) -> String {
    format!("{:.0} ±{:.0}", r.rating, r.deviation)
}

#[tokio::test]
async fn ratings_follow_rated_games_per_server_and_recompute_agrees() {
    let dir = TempDir::new("ratings");
    let svc = open(&dir.db()).await;
    let n = &mut 0;
    let cfg = Glicko2Config::new();
    let new = Glicko2Rating::new();

    // Server s1: alice beats bob; the leaderboard shows the crate's numbers.
    play(&svc, n, "s1", "alice", "bob", "bob", "").await;
    let (a1, b1) = glicko2(&new, &new, &Outcomes::WIN, &cfg);
    let board = say(&svc, n, "s1", "carol", "leaderboard standard").await;
    assert_eq!(
        board[0],
        format!(
            "Standard chess ratings here (2 players):\n1. @alice {}, 1 game (1 won, 0 drawn, 0 lost)\n2. @bob {}, 1 game (0 won, 0 drawn, 1 lost)",
            words(&a1),
            words(&b1)
        )
    );
    assert!(board[0].contains("1662 ±290") && board[0].contains("1338 ±290"));

    // An unrated game, an aborted one, and a game on another server change nothing here.
    play(&svc, n, "s1", "carol", "alice", "alice", "rated:no").await;
    let out = say(&svc, n, "s1", "bob", "challenge @carol colour:white").await;
    assert!(out[0].contains("challenges"), "{out:?}");
    say(&svc, n, "s1", "carol", "accept").await;
    let out = say(&svc, n, "s1", "bob", "abort").await;
    assert!(out[0].contains("abort"), "{out:?}");
    play(&svc, n, "s2", "bob", "alice", "alice", "").await;
    let mine = say(&svc, n, "s1", "alice", "rating").await;
    assert_eq!(
        mine[0],
        format!(
            "@alice, here:\nStandard chess: {}, 1 game (1 won, 0 drawn, 0 lost)",
            words(&a1)
        )
    );
    let s2 = say(&svc, n, "s2", "alice", "rating @bob").await;
    assert!(
        s2[0].contains(&words(&a1)),
        "bob won his only game on s2: {s2:?}"
    );

    // Bob beats carol on s1: the second game is a period of its own, from bob's rating.
    play(&svc, n, "s1", "bob", "carol", "carol", "").await;
    let (b2, c2) = glicko2(&b1, &new, &Outcomes::WIN, &cfg);
    let board = say(&svc, n, "s1", "dave", "leaderboard chess").await;
    let lines: Vec<&str> = board[0].lines().collect();
    assert_eq!(lines.len(), 4, "{board:?}");
    assert!(
        lines[1].starts_with(&format!("1. @alice {}", words(&a1))),
        "{board:?}"
    );
    assert!(
        lines[2].starts_with(&format!("2. @bob {}", words(&b2))),
        "{board:?}"
    );
    assert!(
        lines[3].starts_with(&format!("3. @carol {}", words(&c2))),
        "{board:?}"
    );

    // Refusals: an unknown choice, a cooperative game, a solitaire asked to be rated.
    let out = say(&svc, n, "s1", "alice", "challenge @bob rated:maybe").await;
    assert_eq!(out[0], "rated: is yes or no");
    let out = say(
        &svc,
        n,
        "s1",
        "alice",
        "challenge @bob chesswords rated:yes",
    )
    .await;
    assert!(out[0].contains("cooperative"), "{out:?}");
    let out = say(&svc, n, "s1", "alice", "challenge parade rated:yes").await;
    assert!(out[0].contains("played alone"), "{out:?}");
    let out = say(&svc, n, "s1", "alice", "leaderboard split-brain").await;
    assert!(out[0].contains("team game"), "{out:?}");
    let out = say(&svc, n, "s1", "alice", "leaderboard parade").await;
    assert_eq!(out[0], "Parade Chess Solitaire: no won attempt here yet");
    drop(svc);

    // The operator's recompute, from the stored games alone, gives the same values.
    let run = Command::new(env!("CARGO_BIN_EXE_postal"))
        .args(["ratings", "--recompute", "--db", &dir.db()])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8(run.stdout).unwrap();
    let row = |server: &str, user: &str| -> (f64, f64) {
        let l = text
            .lines()
            .find(|l| l.starts_with(&format!("{server}\tstandard\t{user}\t")))
            .unwrap_or_else(|| panic!("no {server} {user} in\n{text}"));
        let f: Vec<&str> = l.split('\t').collect();
        (f[3].parse().unwrap(), f[4].parse().unwrap())
    };
    for (server, user, r) in [
        ("s1", "alice", a1),
        ("s1", "bob", b2),
        ("s1", "carol", c2),
        ("s2", "bob", a1),
        ("s2", "alice", b1),
    ] {
        let (rating, deviation) = row(server, user);
        assert!((rating - r.rating).abs() < 0.006, "{server} {user}: {text}");
        assert!(
            (deviation - r.deviation).abs() < 0.006,
            "{server} {user}: {text}"
        );
    }
    assert_eq!(text.lines().count(), 6, "{text}");
    let only = Command::new(env!("CARGO_BIN_EXE_postal"))
        .args([
            "ratings",
            "--recompute",
            "--server",
            "s2",
            "--db",
            &dir.db(),
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(only.stdout).unwrap().lines().count(), 3);
}

/// A game of standard chess on server `s1`, alice White, in which both players move and
/// then bob resigns (a game resigned earlier is aborted); the game-over message.
async fn bob_resigns(svc: &Service, n: &mut i64, extra: &str) -> String {
    let challenge = format!("challenge @bob colour:white {extra}");
    let out = say(svc, n, "s1", "alice", &challenge).await;
    let id: i64 = out[0]
        .strip_prefix("game #")
        .and_then(|s| s.split(':').next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    say(svc, n, "s1", "bob", "accept").await;
    say(svc, n, "s1", "alice", &format!("move {id} e4")).await;
    say(svc, n, "s1", "bob", &format!("move {id} e5")).await;
    let out = say(svc, n, "s1", "bob", &format!("resign {id}")).await;
    out.into_iter()
        .find(|t| t.contains("game over"))
        .unwrap_or_default()
}

/// The game-over message of a rated game shows each player's rating before and after it
/// (whole points, the change signed); a second game starts from the first's ratings; an
/// unrated game's says nothing of ratings.
#[tokio::test]
async fn the_game_over_message_shows_each_players_rating_change() {
    let dir = TempDir::new("rating-change");
    let svc = open(&dir.db()).await;
    let n = &mut 0;
    let cfg = Glicko2Config::new();
    let new = Glicko2Rating::new();
    let round = |r: &Glicko2Rating| r.rating.round() as i64;
    let over = bob_resigns(&svc, n, "").await;
    let (a1, b1) = glicko2(&new, &new, &Outcomes::WIN, &cfg);
    let expected = format!(
        "Ratings: alice 1500 → {} (+{}), bob 1500 → {} (-{})",
        round(&a1),
        round(&a1) - 1500,
        round(&b1),
        1500 - round(&b1)
    );
    assert!(over.ends_with(&expected), "{over}");
    let over = bob_resigns(&svc, n, "").await;
    let (a2, b2) = glicko2(&a1, &b1, &Outcomes::WIN, &cfg);
    assert!(
        over.contains(&format!(
            "alice {} → {} (+{})",
            round(&a1),
            round(&a2),
            round(&a2) - round(&a1)
        )) && over.contains(&format!("bob {} → {}", round(&b1), round(&b2))),
        "{over}"
    );
    let over = bob_resigns(&svc, n, "rated:no").await;
    assert!(
        over.contains("game over") && !over.contains("Ratings"),
        "{over}"
    );
}
