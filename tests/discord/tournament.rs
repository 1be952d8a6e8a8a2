//! A tournament on Discord, end to end: a round robin of four made, joined and started by
//! typed commands; each game of a round opens its own thread named with the tournament,
//! round and board; when the round's last game ends (in its thread), the standings are
//! posted in the tournament's channel as text with the table image, and the next round's
//! games open their threads.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::Fake;

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
    // Round 1: Alice-Dave on board 1 (game 1), Bob-Carol on board 2 (game 2).
    let first = thread_of_game(&fake, 1).await;
    let second = thread_of_game(&fake, 2).await;
    let names = fake.threads();
    assert!(names[&first].1.contains("T1 R1 B1"), "{names:?}");
    assert!(names[&second].1.contains("T1 R1 B2"), "{names:?}");
    wait_post(&fake, &first, "round 1, board 1").await;
    wait_post(&fake, &second, "round 1, board 2").await;
    fake.say(DAVE, &first, "!resign");
    wait_post(&fake, &first, "resign").await;
    fake.say(CAROL, &second, "!resign");
    let standings = wait_post(&fake, GAMES, "standings after round 1").await;
    assert!(
        is_png(&standings),
        "the standings come with their table image"
    );
    assert!(standings.files.iter().any(|f| f.name == "standings.png"));
    // Round 2's games open their threads.
    let third = thread_of_game(&fake, 3).await;
    let fourth = thread_of_game(&fake, 4).await;
    let names = fake.threads();
    assert!(names[&third].1.contains("T1 R2 B1"), "{names:?}");
    assert!(names[&fourth].1.contains("T1 R2 B2"), "{names:?}");
    all_accepted(&fake);
    bot.stop().await;
}
