//! A tournament on Discord, end to end: a round robin of four made, joined and started by
//! typed commands; each game of a round opens its own thread named with the tournament,
//! round and board; when the round's last game ends (in its thread), the standings are
//! posted in the tournament's channel as text with the table image, and the next round's
//! games open their threads. A round whose last game ends by timeout is started by the
//! deadline check and announced from the outbox the same way.

use crate::common;
use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::Fake;
use postal::discord::Config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rounds_games_open_their_threads_and_the_standings_image_is_posted() {
    let fake = Fake::start(TOKEN).await;
    let path = db("tournament");
    let bot = start(&fake, &path, config(&fake), 1).await;
    fake.say(
        ALICE,
        GAMES,
        "!tournament create round-robin standard days:3",
    );
    wait_post(&fake, GAMES, "tournament #1 (round robin").await;
    for (n, p) in [ALICE, BOB, CAROL, DAVE].into_iter().enumerate() {
        fake.say(p, GAMES, "!tournament join 1");
        let players = if n == 0 {
            "1 player".to_string()
        } else {
            format!("{} players", n + 1)
        };
        wait_post(&fake, GAMES, &format!("joined tournament #1 ({players})")).await;
    }
    fake.say(ALICE, GAMES, "!tournament start 1");
    round_one_opens_its_threads_and_posts_the_standings(&fake).await;
    // Round 2's games open their threads.
    let third = thread_of_game(&fake, 3).await;
    let fourth = thread_of_game(&fake, 4).await;
    let names = fake.threads();
    assert!(names[&third].1.contains("T1 R2 B1"), "{names:?}");
    assert!(names[&fourth].1.contains("T1 R2 B2"), "{names:?}");
    all_accepted(&fake);
    bot.stop().await;
}

/// Round 1 of a round robin of Alice, Bob, Carol and Dave, just started: Alice-Dave on
/// board 1 (game 1), Bob-Carol on board 2 (game 2), each in a thread named with the
/// tournament, round and board; Dave and Carol resign, and the standings are posted in
/// the channel as text with their table image, `standings.png`.
pub(crate) async fn round_one_opens_its_threads_and_posts_the_standings(fake: &Fake) {
    let first = thread_of_game(fake, 1).await;
    let second = thread_of_game(fake, 2).await;
    let names = fake.threads();
    assert!(names[&first].1.contains("T1 R1 B1"), "{names:?}");
    assert!(names[&second].1.contains("T1 R1 B2"), "{names:?}");
    wait_post(fake, &first, "round 1, board 1").await;
    wait_post(fake, &second, "round 1, board 2").await;
    fake.say(DAVE, &first, "!resign");
    wait_post(fake, &first, "resign").await;
    fake.say(CAROL, &second, "!resign");
    let standings = wait_post(fake, GAMES, "standings after round 1").await;
    assert!(
        is_png(&standings),
        "the standings come with their table image"
    );
    assert!(standings.files.iter().any(|f| f.name == "standings.png"));
    // As an embed: the title, and the table in a code block, its columns aligned.
    let embed = &standings.embeds()[0];
    assert!(embed["title"]
        .as_str()
        .unwrap()
        .ends_with("standings after round 1"));
    let table = embed["description"].as_str().unwrap();
    assert!(
        table.starts_with("```\n") && table.ends_with("\n```"),
        "{table}"
    );
    let rows: Vec<&str> = table.lines().filter(|l| !l.starts_with("```")).collect();
    assert!(
        rows[0].contains("Player") && rows[1].starts_with("---"),
        "{table}"
    );
    assert_eq!(rows.len(), 2 + 4, "a row per player: {table}");
    let column = |row: &str| row.find("  ").unwrap_or(0);
    assert!(
        rows[2..].iter().all(|r| column(r) == column(rows[2])),
        "{table}"
    );
}

/// A round whose last game ends by timeout: the deadline check starts the next round and
/// its announcements, queued with it in the outbox, are delivered as a command's are: the
/// standings with their table image in the tournament's channel, and each new game in a
/// thread of its own, named with the tournament, round and board, calling on its players.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_ended_by_timeout_opens_the_next_rounds_threads() {
    let fake = Fake::start(TOKEN).await;
    let path = db("tournament-timeout");
    let cfg = Config {
        tick_seconds: 1,
        ..config(&fake)
    };
    let bot = start(&fake, &path, cfg, 1).await;
    fake.say(
        ALICE,
        GAMES,
        "!tournament create round-robin standard days:1",
    );
    wait_post(&fake, GAMES, "tournament #1 (round robin").await;
    for (n, p) in [ALICE, BOB, CAROL, DAVE].into_iter().enumerate() {
        fake.say(p, GAMES, "!tournament join 1");
        wait_post(
            &fake,
            GAMES,
            &format!("joined tournament #1 ({} player", n + 1),
        )
        .await;
    }
    fake.say(ALICE, GAMES, "!tournament start 1");
    // Round 1: Alice-Dave on board 1 (game 1), Bob-Carol on board 2 (game 2).
    let first = thread_of_game(&fake, 1).await;
    let second = thread_of_game(&fake, 2).await;
    wait_post(&fake, &second, "round 1, board 2").await;
    fake.say(DAVE, &first, "!resign");
    wait_post(&fake, &first, "resign").await;
    // Bob never moves: two days later his time has run out.
    common::sql::execute(
        &path,
        "UPDATE deadlines SET due_at = due_at - $1 WHERE game_id = 2",
        &[2 * 86_400],
    )
    .await;
    wait_post(&fake, &second, "time ran out").await;
    let standings = wait_post(&fake, GAMES, "standings after round 1").await;
    assert!(standings.files.iter().any(|f| f.name == "standings.png"));
    assert!(is_png(&standings));
    let third = thread_of_game(&fake, 3).await;
    let fourth = thread_of_game(&fake, 4).await;
    let names = fake.threads();
    assert!(names[&third].1.contains("T1 R2 B1"), "{names:?}");
    assert!(names[&fourth].1.contains("T1 R2 B2"), "{names:?}");
    for (thread, game) in [(&third, 3), (&fourth, 4)] {
        let opening = wait_post(&fake, thread, &format!("round 2, board {}", game - 2)).await;
        let mut pinged: Vec<String> = opening.json["allowed_mentions"]["users"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.as_str().unwrap().to_string())
            .collect();
        pinged.sort();
        assert_eq!(pinged.len(), 2, "{}", opening.json);
        for u in &pinged {
            assert!(opening.content().unwrap().contains(&format!("<@{u}>")));
        }
        assert!(is_png(&opening), "the game's board goes with it");
    }
    // Delivered once: the checks that follow send nothing more.
    common::sql::wait_outbox_delivered(&path).await;
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let count = |needle: &str| {
        fake.requests()
            .iter()
            .filter(|r| r.method == "POST")
            .filter(|r| r.shown().contains(needle))
            .count()
    };
    assert_eq!(count("standings after round 1"), 1);
    assert_eq!(count("round 2, board 1"), 1);
    all_accepted(&fake);
    bot.stop().await;
}
