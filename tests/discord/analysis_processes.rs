//! Analyses across real processes: `postal run` (the real binary, against the fake
//! Discord, with Debian's Stockfish) killed with SIGKILL in the middle of an analysis and
//! started again goes on from the positions the dead process stored, edits the progress
//! message the dead one posted, and posts the report once; and two processes on one
//! PostgreSQL database each take an analysis once.

use super::analysis::progress_requests;
use super::shards::{
    postal_run, posts_with, scratch, sqlite_in, stop, wait_post, ALICE, BOB, CAROL, DAVE, GAMES_0,
    GAMES_1, GUILD_0, GUILD_1,
};
use crate::common;
use crate::fake_discord::Fake;
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

/// A configuration file in `dir` for `postal run`: Stockfish at `nodes` a position, the
/// progress updated at each fifth, and an analysis's claim held two seconds.
fn engine_config(dir: &Path, nodes: u64) -> String {
    let path = dir.join("postal.toml");
    let text = format!("[engines]\nnodes = {nodes}\nprogress_seconds = 0\nlease_seconds = 2\n");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// `postal run` in `dir` on database `url` for `shards`, with the configuration `config`.
fn run(fake: &Fake, dir: &Path, url: &str, shards: &str, config: &str) -> Child {
    let mut cmd = postal_run(fake, dir, shards);
    cmd.env("DATABASE_URL", url)
        .env("POSTAL_CONFIG", config)
        .env("POSTAL_TICK_SECONDS", "1");
    cmd.spawn().unwrap()
}

/// `white` challenges `black` in `channel` of `guild`, and the game is played in its
/// thread with `moves` to its checkmate; returns the thread.
async fn mated(
    fake: &Fake,
    (guild, channel): (&str, &str),
    (white, black): ((&str, &str), (&str, &str)),
    moves: &[&str],
) -> String {
    let before: Vec<String> = fake.threads().into_keys().collect();
    let challenges = posts_with(&fake.requests(), channel, "challenges").len();
    let challenge = format!("!challenge <@{}> colour:white", black.0);
    fake.say_in(guild, white, channel, &challenge);
    fake.wait_for("the challenge", |r| {
        posts_with(r, channel, "challenges").len() > challenges
    })
    .await;
    fake.say_in(guild, black, channel, "!accept");
    let thread = loop {
        let new = fake.threads().into_keys().find(|t| !before.contains(t));
        if let Some(t) = new {
            break t;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    wait_post(fake, &thread, "accepted").await;
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { white } else { black };
        fake.say_in(guild, who, &thread, mv);
        wait_post(
            fake,
            &thread,
            &format!("played {}", mv.trim_end_matches('#')),
        )
        .await;
    }
    wait_post(fake, &thread, "checkmate").await;
    thread
}

/// Each stored evaluation of `url`, as `ply:kind:value`, by ply.
async fn evaluations(url: &str) -> Vec<String> {
    common::sql::strings(
        url,
        "SELECT CAST(ply AS TEXT) || ':' || kind || ':' || CAST(value AS TEXT)
         FROM analysis_positions ORDER BY ply",
    )
    .await
}

const SCHOLARS_MATE: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_killed_with_its_process_is_finished_once_by_the_next() {
    let fake = Fake::start(super::shards::TOKEN).await;
    let dir = scratch("analysis-kill");
    let url = sqlite_in(&dir);
    // About a third of a second a position: the kill comes mid-analysis.
    let config = engine_config(&dir, 250_000);
    let mut first = run(&fake, &dir, &url, "auto", &config);
    fake.wait_identified(1).await;
    let game = (GUILD_0, GAMES_0);
    let thread = mated(&fake, game, (ALICE, BOB), &SCHOLARS_MATE).await;
    fake.say_in(GUILD_0, ALICE, &thread, "!analyse");
    // Its progress is shown, and two positions are stored: the process dies.
    fake.wait_for("the progress message", |r| {
        !progress_requests(r, &thread, 1).0.is_empty()
    })
    .await;
    let two = "SELECT CASE WHEN COUNT(*) >= 2 THEN 'yes' ELSE 'no' END FROM analysis_positions";
    common::sql::wait_until(&url, two, "yes").await;
    let pid = libc::pid_t::try_from(first.id()).unwrap();
    // SAFETY: signalling a child process this test started and has not waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    tokio::task::spawn_blocking(move || first.wait().unwrap())
        .await
        .unwrap();
    let killed = Instant::now();
    let stored = evaluations(&url).await;
    assert!(
        (2..8).contains(&stored.len()),
        "killed mid-analysis: {stored:?}"
    );
    let status = "SELECT status FROM analyses WHERE game_id = 1";
    assert_eq!(common::sql::one(&url, status).await, "queued");

    // The window a nonce closes: as if the process had died right after posting its
    // first progress update, before it kept where and marked the update sent. Sent again
    // with the same enforced nonce, Discord (and the fake) returns the message it made.
    common::sql::execute(&url, "DELETE FROM analysis_posts", &[]).await;
    let first_update =
        "UPDATE outbox SET delivered_at = NULL, claimed_by = NULL, claimed_until = NULL \
         WHERE id = (SELECT MIN(id) FROM outbox WHERE progress IS NOT NULL)";
    common::sql::execute(&url, first_update, &[]).await;

    // The next process takes it over once the dead one's claim runs out.
    let second = run(&fake, &dir, &url, "auto", &config);
    wait_post(&fake, &thread, "Analysis of game #1").await;
    common::sql::wait_outbox_delivered(&url).await;
    stop(second).await;
    assert_eq!(common::sql::one(&url, status).await, "done");
    let all = evaluations(&url).await;
    assert_eq!(all.len(), SCHOLARS_MATE.len() + 1, "{all:?}");
    assert_eq!(
        all[..stored.len()],
        stored[..],
        "what the dead process stored is kept"
    );
    let reqs = fake.requests();
    assert_eq!(posts_with(&reqs, &thread, "Analysis of game #1").len(), 1);
    // One progress message: the restarted process posted the first update again, which
    // made no second message, and edited the one the dead one posted.
    let (posted, edits) = progress_requests(&reqs, &thread, 1);
    assert_eq!(posted.len(), 2, "posted, then sent again: {posted:?}");
    assert_eq!(posted[0].response["id"], posted[1].response["id"]);
    assert!(
        edits.iter().any(|e| e.at > killed),
        "edited after the restart"
    );
    let last = edits.last().unwrap();
    assert!(last.shown().contains("Analysed game #1"), "{}", last.json);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_postgresql_each_take_an_analysis_once() {
    let Some(schema) = common::postgres::Schema::for_test("two processes analysing") else {
        return;
    };
    let url = schema.url();
    let fake = Fake::start(super::shards::TOKEN).await;
    let dir = scratch("analysis-two-pg");
    let config = engine_config(&dir, 50_000);
    let first = run(&fake, &dir, &url, "0-0/2", &config);
    // The second starts once the first has created the tables.
    fake.wait_identified(1).await;
    let second = run(&fake, &dir, &url, "1-1/2", &config);
    fake.wait_identified(2).await;
    // Two Fool's mates, in a guild of each shard; each analysis asked for where its
    // game was played, so each process queues one.
    let places = [(GUILD_0, GAMES_0), (GUILD_1, GAMES_1)];
    let players = [(ALICE, BOB), (CAROL, DAVE)];
    let mut threads = Vec::new();
    for (place, pair) in places.into_iter().zip(players) {
        let thread = mated(&fake, place, pair, &["f3", "e5", "g4", "Qh4#"]).await;
        fake.say_in(place.0, pair.1, &thread, "!analyse");
        threads.push(thread);
    }
    let done = "SELECT CAST(COUNT(*) AS TEXT) FROM analyses WHERE status = 'done'";
    common::sql::wait_until(&url, done, "2").await;
    common::sql::wait_outbox_delivered(&url).await;
    stop(first).await;
    stop(second).await;
    let reqs = fake.requests();
    for (n, thread) in threads.iter().enumerate() {
        let id = n as i64 + 1;
        let report = format!("Analysis of game #{id}");
        assert_eq!(posts_with(&reqs, thread, &report).len(), 1, "game {id}");
        let (posted, _) = progress_requests(&reqs, thread, id);
        assert_eq!(posted.len(), 1, "game {id}: {posted:?}");
    }
    let reports = "SELECT CAST(COUNT(*) AS TEXT) FROM outbox WHERE analysis = 1";
    assert_eq!(common::sql::one(&url, reports).await, "2");
}
