//! `postal run` on gateway shards, and its logs, end to end: the real binary against the
//! fake Discord (`fake_discord/`), which shards as Discord does (guild events to shard
//! `(guild_id >> 22) % total`, private messages to shard 0).

use crate::common;
use crate::fake_discord;

use fake_discord::{Fake, Recorded};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::Duration;

pub(crate) const TOKEN: &str = "test-token.not-a-real-one";
pub(crate) const ALICE: (&str, &str) = ("300000000000000001", "alice");
pub(crate) const BOB: (&str, &str) = ("300000000000000002", "bob");
pub(crate) const CAROL: (&str, &str) = ("300000000000000003", "carol");
pub(crate) const DAVE: (&str, &str) = ("300000000000000004", "dave");
/// A guild on shard 0 of 2: `(id >> 22) % 2 == 0`.
pub(crate) const GUILD_0: &str = fake_discord::GUILD_ID;
/// A guild on shard 1 of 2: `(id >> 22) % 2 == 1`.
pub(crate) const GUILD_1: &str = "200000000004194305";
/// A channel of each guild.
pub(crate) const GAMES_0: &str = "400000000000000001";
pub(crate) const GAMES_1: &str = "400000000000000002";

#[test]
fn the_test_guilds_are_on_the_shards_they_are_named_for() {
    assert_eq!((GUILD_0.parse::<u64>().unwrap() >> 22) % 2, 0);
    assert_eq!((GUILD_1.parse::<u64>().unwrap() >> 22) % 2, 1);
}

/// A fresh scratch directory for a test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("postal-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The database of the processes run in `dir`: the file `dir/postal.db`.
pub(crate) fn sqlite_in(dir: &Path) -> String {
    dir.join("postal.db").display().to_string()
}

/// `postal run` against the fake, in `dir` (so no config file is found), on the database
/// `dir/postal.db`, with the shard setting `shards`, output piped.
pub(crate) fn postal_run(fake: &Fake, dir: &Path, shards: &str) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_postal"));
    cmd.arg("run")
        .current_dir(dir)
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_API_BASE", fake.base())
        .env("DATABASE_URL", sqlite_in(dir))
        .env("POSTAL_SHARDS", shards)
        .env("RUST_LOG", "postal=info,serenity=warn")
        .env_remove("POSTAL_CONFIG")
        .env_remove("POSTAL_DISCORD_CONFIG")
        .env_remove("POSTAL_LOG_FORMAT")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Stops a `postal run` with SIGTERM and returns its output, checking it stopped cleanly.
pub(crate) async fn stop(child: Child) -> Output {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: signalling a child process this test started and has not yet waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let out = tokio::time::timeout(
        Duration::from_secs(20),
        tokio::task::spawn_blocking(move || child.wait_with_output().unwrap()),
    )
    .await
    .expect("postal run stops after SIGTERM")
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    out
}

pub(crate) fn posts_with<'a>(
    reqs: &'a [Recorded],
    channel: &str,
    needle: &str,
) -> Vec<&'a Recorded> {
    let path = format!("/channels/{channel}/messages");
    reqs.iter()
        .filter(|r| r.method == "POST" && r.path == path && r.ok())
        .filter(|r| r.content().is_some_and(|c| c.contains(needle)))
        .collect()
}

/// Waits for a message containing `needle` in `channel`.
pub(crate) async fn wait_post(fake: &Fake, channel: &str, needle: &str) {
    fake.wait_for(&format!("a message with '{needle}' in {channel}"), |r| {
        !posts_with(r, channel, needle).is_empty()
    })
    .await;
}

/// `user` writes `text` to the bot in a private message: an event of no guild.
fn dm(fake: &Fake, user: (&str, &str), text: &str) {
    let channel = format!("7{}", &user.0[1..]);
    let m = fake_discord::message(&fake.id(), &channel, user, text, false);
    fake.dispatch("MESSAGE_CREATE", m);
}

/// Two `postal run` processes on one database file, one on each of 2 shards: the fake
/// sees IDENTIFY [0, 2] and [1, 2]. A game in a guild of shard 1 is played with moves
/// typed in its thread (events that reach the second process) and sent by private
/// message (events of shard 0, the first process): every move is answered, each answer
/// posted exactly once, and the database holds them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_run_one_shard_each_on_one_database() {
    let dir = scratch("two");
    two_processes_on(&dir, &sqlite_in(&dir)).await;
}

/// The same on PostgreSQL (skipped, saying so, without `POSTAL_TEST_POSTGRES`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_run_one_shard_each_on_postgresql() {
    let Some(schema) = common::postgres::Schema::for_test("two processes on PostgreSQL") else {
        return;
    };
    two_processes_on(&scratch("two-pg"), &schema.url()).await;
}

/// Two processes in `dir` on the database `url`, one per shard of 2, play a game.
async fn two_processes_on(dir: &Path, url: &str) {
    let fake = Fake::start(TOKEN).await;
    let run = |shards: &str| {
        let mut cmd = postal_run(&fake, dir, shards);
        cmd.env("DATABASE_URL", url);
        cmd.spawn().unwrap()
    };
    let first = run("0-0/2");
    // The second starts once the first has created the tables.
    fake.wait_identified(1).await;
    let second = run("1-1/2");
    fake.wait_identified(2).await;
    let mut shards = fake.identified_shards();
    shards.sort_unstable();
    assert_eq!(shards, vec![[0, 2], [1, 2]]);

    fake.say_in(
        GUILD_1,
        ALICE,
        GAMES_1,
        &format!("!challenge <@{}> colour:white", BOB.0),
    );
    wait_post(&fake, GAMES_1, "challenges").await;
    fake.say_in(GUILD_1, BOB, GAMES_1, "!accept");
    let reqs = fake
        .wait_for("a thread", |r| {
            r.iter().any(|x| x.path.ends_with("/threads") && x.ok())
        })
        .await;
    drop(reqs);
    let thread = fake.threads().into_keys().next().unwrap();
    wait_post(&fake, &thread, "accepted").await;
    for (who, mv, by_dm) in [
        (ALICE, "e4", false),
        (BOB, "e5", true),
        (ALICE, "Nf3", false),
        (BOB, "Nc6", true),
    ] {
        if by_dm {
            dm(&fake, who, &format!("move 1 {mv}"));
        } else {
            fake.say_in(GUILD_1, who, &thread, mv);
        }
        wait_post(&fake, &thread, &format!("played {mv}")).await;
    }
    // Time for a second answer, were one coming.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let reqs = fake.requests();
    for mv in ["e4", "e5", "Nf3", "Nc6"] {
        let n = posts_with(&reqs, &thread, &format!("played {mv}")).len();
        assert_eq!(n, 1, "the answer to {mv} is posted once");
    }
    assert_eq!(posts_with(&reqs, &thread, "accepted").len(), 1);
    assert_eq!(posts_with(&reqs, GAMES_1, "challenges").len(), 1);

    let first = stop(first).await;
    let second = stop(second).await;
    let first = String::from_utf8_lossy(&first.stderr);
    let second = String::from_utf8_lossy(&second.stderr);
    assert!(first.contains("this process runs shard 0 of 2"), "{first}");
    assert!(
        second.contains("this process runs shard 1 of 2"),
        "{second}"
    );

    let store = postal::store::Store::open(url).await.unwrap();
    let g = store.game(1).await.unwrap().unwrap();
    let log = store.actions(1).await.unwrap();
    assert_eq!(log.len(), 4);
    assert!(g.snapshot.contains("\"plies\":4"), "{}", g.snapshot);
    assert!(log.iter().any(|a| a.action.contains("b8c6")), "{log:?}");
    store.close().await;
}

/// `auto`: the process asks the fake (`GET /gateway/bot`, 2 shards) and runs both, and
/// answers in a guild of each; the commands are registered once, not once per shard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_runs_every_shard_discord_recommends() {
    let fake = Fake::start(TOKEN).await;
    fake.set_shard_count(2);
    let dir = scratch("auto");
    let child = postal_run(&fake, &dir, "auto").spawn().unwrap();
    // serenity waits 5 seconds between two shards' IDENTIFYs (the wait allows 10).
    fake.wait_identified(2).await;
    assert_eq!(fake.identified_shards(), vec![[0, 2], [1, 2]]);
    fake.say_in(GUILD_0, ALICE, GAMES_0, &format!("!challenge <@{}>", BOB.0));
    fake.say_in(
        GUILD_1,
        CAROL,
        GAMES_1,
        &format!("!challenge <@{}>", DAVE.0),
    );
    wait_post(&fake, GAMES_0, "challenges").await;
    wait_post(&fake, GAMES_1, "challenges").await;
    let reqs = fake.requests();
    assert!(reqs
        .iter()
        .any(|r| r.method == "GET" && r.path == "/gateway/bot"));
    let puts = reqs
        .iter()
        .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .count();
    assert_eq!(puts, 1, "registered once");
    let out = stop(child).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("this process runs shards 0-1 of 2"),
        "{stderr}"
    );
}

/// A shard setting that cannot be used stops `postal run` before it connects, with the
/// setting named and what it expects.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_shard_setting_is_refused_before_connecting() {
    let fake = Fake::start(TOKEN).await;
    let dir = scratch("bad");
    for (value, says) in [
        ("2/2", "postal: POSTAL_SHARDS: shard 2 is outside 2 shards (ids 0 to 1)"),
        (
            "0-1",
            "postal: POSTAL_SHARDS is \"0-1\": write FIRST-LAST/TOTAL (0-3/8: shards 0 to 3 of 8), ID/TOTAL (2/8) or auto",
        ),
    ] {
        let mut cmd = postal_run(&fake, &dir, value);
        let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
            .await
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.trim_end().lines().last(), Some(says), "{stderr}");
    }
    assert!(fake.requests().is_empty(), "nothing reached Discord");
    assert!(!dir.join("postal.db").exists(), "no database was created");
}

/// The log written to a pipe: as text it holds no colour codes (escape sequences), and as
/// JSON (`POSTAL_LOG_FORMAT=json`) every line is one object with a level and a message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_through_a_pipe_are_plain_text_or_json_lines() {
    for (n, format) in ["text", "json"].into_iter().enumerate() {
        let fake = Fake::start(TOKEN).await;
        let dir = scratch(&format!("log-{format}"));
        let mut cmd = postal_run(&fake, &dir, "0/1");
        if format == "json" {
            cmd.env("POSTAL_LOG_FORMAT", "json");
        }
        let child = cmd.spawn().unwrap();
        fake.wait_identified(1).await;
        fake.wait_for("command registration", |r| {
            r.iter().any(|x| x.method == "PUT" && x.ok())
        })
        .await;
        let out = stop(child).await;
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            !stderr.contains('\x1b'),
            "run {n}: colour codes in {stderr:?}"
        );
        assert!(
            stderr.contains("this process runs shard 0 of 1"),
            "{stderr}"
        );
        assert!(stderr.contains("shutting down"), "{stderr}");
        if format == "json" {
            let lines: Vec<Value> = stderr
                .lines()
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
                .collect();
            assert!(lines.len() >= 3, "{stderr}");
            for l in &lines {
                assert!(l["level"].is_string() && l["timestamp"].is_string(), "{l}");
                assert!(l["fields"]["message"].is_string(), "{l}");
            }
            let runs = lines
                .iter()
                .find(|l| l["fields"]["message"] == "this process runs shard 0 of 1")
                .expect("the shards are logged");
            assert_eq!(runs["fields"]["total"], 1);
            assert_eq!(runs["level"], "INFO");
        } else {
            assert!(stderr.lines().any(|l| l.contains(" INFO ")), "{stderr}");
        }
    }
}

/// Guilds on each of 3 shards: `(id >> 22) % 3`.
const GUILDS_OF_3: [&str; 3] = [
    "200000000012582913",
    "200000000004194305",
    "200000000008388609",
];
/// A games channel in each of those guilds.
const CHANNELS_OF_3: [&str; 3] = [
    "400000000000000010",
    "400000000000000011",
    "400000000000000012",
];

#[test]
fn the_three_shard_guilds_are_on_their_shards() {
    for (k, g) in GUILDS_OF_3.iter().enumerate() {
        assert_eq!((g.parse::<u64>().unwrap() >> 22) % 3, k as u64);
    }
}

/// Three processes, one per shard of 3, on one PostgreSQL database: a game in a guild of
/// each shard; the process of shard 1 is killed with SIGKILL in the middle of its game;
/// the survivors finish every game (the orphaned one by private messages, which reach
/// shard 0), a deadline that has passed times one game out with its message delivered
/// exactly once though two processes sweep, and the games' exports equal those of the
/// same scenario on one SQLite file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn survivors_of_a_killed_process_finish_every_game() {
    let Some(schema) = common::postgres::Schema::for_test("three processes on PostgreSQL") else {
        return;
    };
    let on_postgres = three_processes_and_a_kill(&scratch("kill-pg"), &schema.url()).await;
    let dir = scratch("kill-sqlite");
    let on_sqlite = three_processes_and_a_kill(&dir, &sqlite_in(&dir)).await;
    assert_eq!(on_postgres, on_sqlite);
}

/// The scenario of [`survivors_of_a_killed_process_finish_every_game`] on `url`; the PGN
/// of each game.
async fn three_processes_and_a_kill(dir: &Path, url: &str) -> Vec<String> {
    let fake = Fake::start(TOKEN).await;
    let run = |shards: &str| {
        let mut cmd = postal_run(&fake, dir, shards);
        cmd.env("DATABASE_URL", url).env("POSTAL_TICK_SECONDS", "1");
        cmd.spawn().unwrap()
    };
    let first = run("0/3");
    fake.wait_identified(1).await;
    let mut second = run("1/3");
    let third = run("2/3");
    fake.wait_identified(3).await;

    // Game k in the guild of shard k: alice or carol against bob or dave.
    let players = [(ALICE, BOB), (CAROL, DAVE), (ALICE, DAVE)];
    let mut threads = Vec::new();
    for k in 0..3 {
        let (white, black) = players[k];
        let (guild, channel) = (GUILDS_OF_3[k], CHANNELS_OF_3[k]);
        fake.say_in(
            guild,
            white,
            channel,
            &format!("!challenge <@{}> colour:white days:3", black.0),
        );
        wait_post(&fake, channel, "challenges").await;
        fake.say_in(guild, black, channel, "!accept");
        let thread = loop {
            if let Some((t, _)) = fake.threads().into_iter().find(|(_, (p, _))| p == channel) {
                break t;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        wait_post(&fake, &thread, "accepted").await;
        threads.push(thread);
    }
    // Two moves in each game, typed in its thread (each reaching its shard's process).
    for (k, thread) in threads.iter().enumerate() {
        let (white, black) = players[k];
        for (who, mv) in [(white, "f3"), (black, "e5")] {
            fake.say_in(GUILDS_OF_3[k], who, thread, mv);
            wait_post(&fake, thread, &format!("played {mv}")).await;
        }
    }
    // The process of shard 1 dies mid-game.
    let pid = libc::pid_t::try_from(second.id()).unwrap();
    // SAFETY: signalling a child process this test started and has not waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    tokio::task::spawn_blocking(move || second.wait().unwrap())
        .await
        .unwrap();

    // Game 2 (shard 1's) is finished by private messages, which reach shard 0.
    dm(&fake, CAROL, "move 2 g4");
    wait_post(&fake, &threads[1], "played g4").await;
    dm(&fake, DAVE, "move 2 Qh4#");
    wait_post(&fake, &threads[1], "checkmate").await;
    // Game 1 (shard 0's) is finished in its thread.
    fake.say_in(GUILDS_OF_3[0], ALICE, &threads[0], "g4");
    wait_post(&fake, &threads[0], "played g4").await;
    fake.say_in(GUILDS_OF_3[0], BOB, &threads[0], "Qh4#");
    wait_post(&fake, &threads[0], "checkmate").await;
    // Game 3's deadline passes (moved back in the database, as if three days had gone
    // by): both survivors sweep; it times out once.
    common::sql::execute(
        url,
        "UPDATE deadlines SET due_at = due_at - $1 WHERE game_id = 3",
        &[4 * 86_400],
    )
    .await;
    wait_post(&fake, &threads[2], "ran out").await;
    // The timeout is stored once and delivered once, whichever survivor found it: the
    // outbox holds one ending for game 3, delivered; and once both survivors have stopped
    // (finishing whatever they had under way), Discord got one timeout message.
    common::sql::wait_outbox_delivered(url).await;
    let endings = "SELECT CAST(COUNT(*) AS TEXT) FROM outbox WHERE game_id = 3 AND ending = 1";
    assert_eq!(common::sql::one(url, endings).await, "1");
    stop(first).await;
    stop(third).await;
    assert_eq!(common::sql::one(url, endings).await, "1");
    let reqs = fake.requests();
    assert_eq!(
        posts_with(&reqs, &threads[2], "ran out").len(),
        1,
        "one timeout message"
    );
    for (k, thread) in threads.iter().enumerate().take(2) {
        assert_eq!(
            posts_with(&reqs, thread, "checkmate").len(),
            1,
            "game {}",
            k + 1
        );
    }

    let mut pgns = Vec::new();
    for id in 1..=3 {
        let pgn = postal::console::export(url, id, "pgn").await.unwrap();
        pgns.push(String::from_utf8(pgn).unwrap());
    }
    for pgn in &pgns[..2] {
        assert!(
            pgn.contains("2. g4 Qh4#") && pgn.contains("[Result \"0-1\"]"),
            "{pgn}"
        );
    }
    // Alice ran out of time in game 3, after 1. f3 e5.
    assert!(
        pgns[2].contains("1. f3 e5") && pgns[2].contains("[Result \"0-1\"]"),
        "{}",
        pgns[2]
    );
    // The start's date and time are the wall clock's, which differ between the two runs
    // the caller compares: every game has them, and they are left out of the comparison.
    pgns.iter()
        .map(|pgn| {
            assert!(pgn.contains("[UTCTime \""), "{pgn}");
            pgn.lines()
                .filter(|l| {
                    !["[Date ", "[UTCDate ", "[UTCTime "]
                        .iter()
                        .any(|t| l.starts_with(t))
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}
