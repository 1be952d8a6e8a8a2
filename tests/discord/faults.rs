//! The faults a hosted bot meets every week, against the fake Discord
//! (`tests/fake_discord`): the gateway dropping mid-game and the bot resuming or
//! identifying afresh as serenity 0.12.5 does for each close code, and storms of 429s,
//! on the messages route and on the global limit. Three players with ids of 17, 18 and
//! 19 digits play three games at once; through every fault each move typed is applied
//! once, each message the bot sends arrives once, the games in the database agree with
//! what was announced, and no request comes before the `retry_after` of a 429.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{sent_too_soon, Fake, GatewayCounts, Recorded};
use postal::discord::{Bot, Config};
use std::collections::HashMap;
use std::time::Duration;

/// The players: ids of the three lengths Discord's snowflakes have had.
const INES: (&str, &str) = ("81234567890123456", "ines");
const JONAS: (&str, &str) = ("281234567890123457", "jonas");
const KIRA: (&str, &str) = ("1281234567890123458", "kira");

#[test]
fn the_players_ids_have_17_18_and_19_digits() {
    let lengths: Vec<usize> = [INES, JONAS, KIRA].iter().map(|p| p.0.len()).collect();
    assert_eq!(lengths, [17, 18, 19]);
}

/// A player: (user id, username).
type Player = (&'static str, &'static str);

/// The three games: (white, black). Each player plays two.
const GAMES_PLAYED: [(Player, Player); 3] = [(INES, JONAS), (INES, KIRA), (KIRA, JONAS)];

/// The moves of every game, in order: White's first, then Black's.
const MOVES: [&str; 6] = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"];

/// `white` challenges `black` to game `id` (White's seat taken) and `black` accepts;
/// returns the game's thread once its first message is there.
async fn open_game(fake: &Fake, id: i64, white: (&str, &str), black: (&str, &str)) -> String {
    fake.say(
        white,
        GAMES,
        &format!("!challenge <@{}> colour:white", black.0),
    );
    wait_post(fake, GAMES, &format!("game #{id}: <@{}>", white.0)).await;
    fake.say(black, GAMES, &format!("!accept {id}"));
    let thread = thread_of_game(fake, id).await;
    wait_post(fake, &thread, "accepted").await;
    thread
}

/// The three games opened, in order; their threads.
async fn open_games(fake: &Fake) -> Vec<String> {
    let mut threads = Vec::new();
    for (i, (white, black)) in GAMES_PLAYED.iter().enumerate() {
        threads.push(open_game(fake, i as i64 + 1, *white, *black).await);
    }
    threads
}

/// Who plays move number `n` (from 0) of game `g` (from 0).
fn mover(g: usize, n: usize) -> Player {
    let (white, black) = GAMES_PLAYED[g];
    if n % 2 == 0 {
        white
    } else {
        black
    }
}

/// Move `n` of game `g` typed in its thread `thread` (not waited for).
fn type_move(fake: &Fake, threads: &[String], g: usize, n: usize) {
    fake.say(mover(g, n), &threads[g], MOVES[n]);
}

/// Move `n` of game `g`, typed and waited for: its answer in the thread.
async fn play(fake: &Fake, threads: &[String], g: usize, n: usize) {
    type_move(fake, threads, g, n);
    wait_played(fake, threads, g, n).await;
}

/// Waits for the answer to move `n` of game `g`.
async fn wait_played(fake: &Fake, threads: &[String], g: usize, n: usize) {
    wait_post(fake, &threads[g], &format!("played {}", MOVES[n])).await;
}

/// Every message the bot got through to Discord more than once: the same content and
/// files to the same channel.
fn doubled(reqs: &[Recorded]) -> Vec<String> {
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    for r in reqs.iter().filter(|r| r.ok() && r.method == "POST") {
        if !r.path.ends_with("/messages") {
            continue;
        }
        *seen.entry((r.path.clone(), r.all_text())).or_default() += 1;
    }
    seen.into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|((path, text), n)| format!("{n} times to {path}: {text:.200}"))
        .collect()
}

/// The answers to move `n` of game `g` that arrived in its thread.
fn answers(reqs: &[Recorded], threads: &[String], g: usize, n: usize) -> usize {
    let needle = format!("played {}", MOVES[n]);
    posts(reqs, &threads[g])
        .iter()
        .filter(|r| r.content().is_some_and(|c| c.contains(&needle)))
        .count()
}

/// The messages the bot got through that reply to the message `id`.
fn replies_to<'a>(reqs: &'a [Recorded], id: &str) -> Vec<&'a Recorded> {
    reqs.iter()
        .filter(|r| r.ok() && r.method == "POST")
        .filter(|r| r.json["message_reference"]["message_id"] == id)
        .collect()
}

/// After the bot is stopped: each game `g` holds exactly `moves[g]` moves in the
/// database, each announced once in its thread, where nothing else came but the answers
/// to the messages `asked`, and no message arrived twice.
async fn games_agree(fake: &Fake, db: &str, threads: &[String], moves: [usize; 3], asked: &[&str]) {
    let reqs = fake.requests();
    assert_eq!(
        doubled(&reqs),
        Vec::<String>::new(),
        "a message arrived twice"
    );
    let store = postal::store::Store::open(db).await.unwrap();
    for (g, n) in moves.iter().enumerate() {
        let stored = store.actions(g as i64 + 1).await.unwrap();
        assert_eq!(stored.len(), *n, "game #{}: {stored:?}", g + 1);
        for m in 0..*n {
            assert_eq!(answers(&reqs, threads, g, m), 1, "game #{} move {m}", g + 1);
        }
        for m in *n..MOVES.len() {
            assert_eq!(answers(&reqs, threads, g, m), 0, "game #{} move {m}", g + 1);
        }
        // Nothing else came in the thread (no refusal of a copy of a move) but the
        // answers to the messages `asked`.
        let other: Vec<&str> = posts(&reqs, &threads[g])
            .iter()
            .filter(|r| {
                let to = &r.json["message_reference"]["message_id"];
                !asked.iter().any(|a| to == a)
            })
            .filter_map(|r| r.content())
            .filter(|c| !c.contains("played") && !c.contains("accepted"))
            .collect();
        assert!(other.is_empty(), "game #{}: {other:?}", g + 1);
    }
    store.close().await;
}

/// Time for a second answer, were one coming (a wait, not a measure: the assertions that
/// follow hold however fast the machine is).
async fn settle() {
    tokio::time::sleep(Duration::from_millis(500)).await;
}

/// How the bot comes back after the gateway closes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Back {
    /// It RESUMEs its session: Discord sends it what it missed.
    Resumes,
    /// It IDENTIFYs afresh: what was typed meanwhile is lost with the old session.
    Identifies,
}

/// Three games under way; the gateway is closed with `code` (after `expire`, Discord has
/// forgotten the session) and kept away while two moves are typed; then the bot comes
/// back as `back` says. Resuming, the two moves come with the RESUME and are each
/// applied once, and the two events the bot had received last (a move and a `!board`)
/// come again and change nothing and are answered once; identifying afresh, the two
/// moves were lost with the session, and typed again they are applied once. The games
/// go on after.
async fn drop_mid_game(name: &str, code: u16, expire: bool, back: Back) -> GatewayCounts {
    let fake = Fake::start(TOKEN).await;
    let db = db(name);
    let bot = start(&fake, &db, config(&fake), 1).await;
    let threads = open_games(&fake).await;
    for g in 0..3 {
        play(&fake, &threads, g, 0).await;
    }
    play(&fake, &threads, 1, 1).await;
    play(&fake, &threads, 0, 1).await;
    // The last event before the drop asks for a board, which changes nothing.
    let asked = fake.say(JONAS, &threads[0], "!board");
    fake.wait_for("the board", |r| !replies_to(r, &asked).is_empty())
        .await;

    fake.resend_on_next_resume(2);
    if expire {
        fake.expire_sessions();
    }
    fake.hold_gateway();
    assert_eq!(fake.close_gateway(code), 1, "one connection was live");
    assert!(!fake.connected());
    // Typed while the bot is away.
    type_move(&fake, &threads, 0, 2);
    type_move(&fake, &threads, 2, 1);
    fake.release_gateway();

    let counts = match back {
        Back::Resumes => {
            fake.wait_gateway("a resume", |c| c.resumes == 1).await;
            wait_played(&fake, &threads, 0, 2).await;
            wait_played(&fake, &threads, 2, 1).await;
            let counts = fake.gateway_counts();
            assert_eq!(counts.missed_sent, 2, "the two moves typed meanwhile");
            assert_eq!(counts.sent_again, 2, "a move and the !board");
            counts
        }
        Back::Identifies => {
            let counts = fake
                .wait_gateway("a new session", |c| c.identifies == 2)
                .await;
            ready(&fake, 2).await;
            assert_eq!(counts.lost, 2, "Discord sends what was typed to nobody");
            // Nothing came: the players type their moves again.
            play(&fake, &threads, 0, 2).await;
            play(&fake, &threads, 2, 1).await;
            counts
        }
    };
    // The games go on.
    play(&fake, &threads, 0, 3).await;
    play(&fake, &threads, 1, 2).await;
    play(&fake, &threads, 2, 2).await;
    settle().await;
    let reqs = fake.requests();
    let boards = replies_to(&reqs, &asked);
    assert_eq!(boards.len(), 1, "the board was asked for once");
    assert!(is_png(boards[0]), "{}", boards[0].json);
    bot.stop().await;
    games_agree(&fake, &db, &threads, [4, 3, 3], &[&asked]).await;
    counts
}

/// Close code 4000 (unknown error): serenity RESUMEs, the moves typed meanwhile come
/// with the RESUME and are applied once; events sent again change nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drop_with_4000_is_resumed_and_nothing_is_missed_or_doubled() {
    let c = drop_mid_game("drop-4000", 4000, false, Back::Resumes).await;
    assert_eq!((c.identifies, c.resumes, c.invalid_sessions), (1, 1, 0));
}

/// Close code 1000 (a normal close): serenity 0.12.5 keeps its session and RESUMEs
/// too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drop_with_1000_is_resumed_and_nothing_is_missed_or_doubled() {
    let c = drop_mid_game("drop-1000", 1000, false, Back::Resumes).await;
    assert_eq!((c.identifies, c.resumes, c.invalid_sessions), (1, 1, 0));
}

/// Close code 4009 (session timed out): serenity forgets its session and IDENTIFYs
/// afresh (after the 5 seconds it waits between two); the moves typed meanwhile were
/// Discord's to lose, and typed again they are applied once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drop_with_4009_identifies_afresh_and_the_game_goes_on() {
    let c = drop_mid_game("drop-4009", 4009, false, Back::Identifies).await;
    assert_eq!((c.identifies, c.resumes, c.invalid_sessions), (2, 0, 0));
}

/// A RESUME of a session Discord has forgotten gets op 9 (invalid session, not
/// resumable): serenity IDENTIFYs afresh.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forgotten_session_is_identified_afresh() {
    let c = drop_mid_game("drop-expired", 4000, true, Back::Identifies).await;
    assert_eq!((c.identifies, c.resumes, c.invalid_sessions), (2, 0, 1));
}

/// The bot as in production: its REST client talks to the fake as to
/// `https://discord.com`, with serenity's rate limiter on.
async fn start_limited(fake: &Fake, db: &str) -> Bot {
    let http = fake.discord_http(TOKEN).await;
    let cfg = Config {
        api_base: String::new(),
        metrics_addr: "127.0.0.1:0".into(),
        ..config(fake)
    };
    logs();
    let bot = Bot::start_with(settings(db), cfg, http)
        .await
        .expect("bot starts");
    ready(fake, 1).await;
    bot
}

/// The number of waits for a rate limit of `scope` the bot's `/metrics` counted.
async fn rate_limits_counted(bot: &Bot, scope: &str) -> f64 {
    let addr = bot.metrics_addr().expect("the metrics listener is on");
    let scrape = reqwest::get(format!("http://{addr}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let series = format!("postal_discord_rate_limited_total{{scope=\"{scope}\"}} ");
    scrape
        .lines()
        .find_map(|l| l.strip_prefix(&series)?.parse().ok())
        .unwrap_or(0.0)
}

/// The fake's rate limits held: nothing came while one was in force, by the fake's
/// count and by the recorded instants.
fn limits_respected(fake: &Fake) {
    assert_eq!(fake.storm_left(), 0, "every 429 asked for was answered");
    let early = fake.early_requests();
    assert!(early.is_empty(), "requests that did not wait: {early:?}");
    let reqs = fake.requests();
    let soon: Vec<String> = sent_too_soon(&reqs)
        .iter()
        .map(|(l, r)| {
            format!(
                "{} {} came {:?} after the 429 on {}",
                r.method,
                r.path,
                r.at - l.at,
                l.path
            )
        })
        .collect();
    assert!(soon.is_empty(), "{soon:?}");
}

/// A storm of six 429s (retry after 0.5 s) on the messages route while three games are
/// played at once: every answer arrives once, none before its route's `retry_after`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_storm_of_429s_on_messages_is_waited_out_and_nothing_is_lost_or_doubled() {
    let fake = Fake::start(TOKEN).await;
    let db = db("storm");
    let bot = start_limited(&fake, &db).await;
    let threads = open_games(&fake).await;
    fake.rate_limit_storm(
        "POST",
        "/channels/*/messages",
        6,
        Duration::from_millis(500),
    );
    for n in 0..4 {
        for g in 0..3 {
            type_move(&fake, &threads, g, n);
        }
        for g in 0..3 {
            wait_played(&fake, &threads, g, n).await;
        }
    }
    settle().await;
    let limited = fake.requests().iter().filter(|r| r.status == 429).count();
    assert_eq!(limited, 6, "the storm's 429s and no more");
    limits_respected(&fake);
    // Each 429 waited out is counted (and any wait for a route's exhausted bucket).
    assert!(rate_limits_counted(&bot, "route").await >= 6.0);
    bot.stop().await;
    games_agree(&fake, &db, &threads, [4, 4, 4], &[]).await;
}

/// The global limit (a 429 with `global: true`, retry after 1 s) on one game's answer,
/// while moves come in the other two: no request at all goes out until the second has
/// passed, and then every answer arrives once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_global_limit_holds_back_every_request_and_nothing_is_lost_or_doubled() {
    let fake = Fake::start(TOKEN).await;
    let db = db("global");
    let bot = start_limited(&fake, &db).await;
    let threads = open_games(&fake).await;
    fake.global_limit("POST", "/channels/*/messages", Duration::from_secs(1));
    type_move(&fake, &threads, 0, 0);
    fake.wait_for("the global 429", |r| r.iter().any(|x| x.status == 429))
        .await;
    // The bot has the 429 in hand before the next moves come (a wait, not a measure).
    tokio::time::sleep(Duration::from_millis(100)).await;
    type_move(&fake, &threads, 1, 0);
    type_move(&fake, &threads, 2, 0);
    for g in 0..3 {
        wait_played(&fake, &threads, g, 0).await;
    }
    for g in 0..3 {
        play(&fake, &threads, g, 1).await;
    }
    settle().await;
    let reqs = fake.requests();
    let global: Vec<&Recorded> = reqs.iter().filter(|r| r.status == 429).collect();
    let early = fake.early_requests();
    assert_eq!(
        global.len(),
        1,
        "one global 429 and no more: {early:?} {:?}",
        global.iter().map(|r| (&r.path, r.at)).collect::<Vec<_>>()
    );
    assert_eq!(global[0].response["global"], true);
    limits_respected(&fake);
    assert_eq!(rate_limits_counted(&bot, "global").await, 1.0);
    bot.stop().await;
    games_agree(&fake, &db, &threads, [2, 2, 2], &[]).await;
}
