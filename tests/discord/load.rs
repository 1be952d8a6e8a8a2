//! A load benchmark of the Discord adapter, run on demand (it is ignored by default):
//! 200 players with 1,000 live standard games in one server, set up directly in the
//! database, then moves typed at random in the games' threads and by private message
//! through the fake Discord (`tests/fake_discord`), a few at a time.
//!
//! It reports the messages lost or misrouted, the time from a move's gateway dispatch to
//! the bot's POST of its board, and the load average, as a table on stdout:
//!
//! ```sh
//! cargo test --release --test discord -- load:: --ignored --nocapture
//! ```
//!
//! It asserts correctness only (no board lost, none misrouted), never a time.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded, GUILD_ID};
use postal::service::referee::{Incoming, Place, Service};
use postal::store::Store;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Color, Position};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::Notify;

/// The players in the server.
const PLAYERS: usize = 200;
/// The live games among them (ids 1..=LIVE_GAMES), about ten per player.
const LIVE_GAMES: usize = 1_000;
/// The moves played during the run.
const MOVES: usize = 10_000;
/// The moves in flight at once (never two of one game).
const IN_FLIGHT: usize = 8;
/// The share of moves sent by private message (`move ID SAN`) rather than typed bare in
/// the game's thread.
const DM_SHARE: f64 = 0.3;
/// A move whose board has not been posted after this long is lost.
const LOST_AFTER: Duration = Duration::from_secs(30);

/// One game as the benchmark follows it.
struct Game {
    /// Its number in the referee (1-based).
    id: i64,
    /// The White and Black players, as indices of [`user`].
    white: usize,
    black: usize,
    /// Its thread.
    thread: String,
    /// Its position, with the moves sent so far.
    pos: Chess,
    /// No longer chosen: it has no move that keeps it going, or a move of it was lost.
    done: bool,
}

/// A move sent and not yet seen on the board.
struct Flight {
    /// What the bot's board message must say: `played SAN` (with its suffix).
    played: String,
    /// When it was dispatched on the gateway.
    sent: Instant,
    /// Whether it was sent by private message.
    by_dm: bool,
}

/// A message the bot posted to a channel (a thread, the games channel or a DM channel),
/// copied out of the fake's record: only what the benchmark reads, without the image.
struct Post {
    channel: String,
    content: String,
    png: bool,
    at: Instant,
}

/// What the collector ([`collect`]) has copied from the fake's requests so far.
#[derive(Default)]
struct Log {
    /// How many of the fake's requests have been examined.
    examined: usize,
    /// The accepted message POSTs, in order.
    posts: Vec<Post>,
    /// Requests the fake refused (not 2xx).
    refused: usize,
}

/// What a run measured.
#[derive(Default)]
struct Outcome {
    /// Moves sent, and how many of them by private message.
    sent: usize,
    by_dm: usize,
    /// Dispatch to board, of the moves typed in threads and of those sent privately.
    thread_ms: Vec<Duration>,
    dm_ms: Vec<Duration>,
    /// The moves whose board never came.
    lost: Vec<String>,
}

/// Player `i`'s user id and name, with ids of Discord's length.
fn user(i: usize) -> (String, String) {
    (
        (300_000_000_000_000_101 + i as u64).to_string(),
        format!("player{i}"),
    )
}

/// The 1-minute load average, from `/proc/loadavg` (`?` where there is none).
fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

/// The CPU time this process (the bot, the fake and the driver) has used so far.
fn cpu_time() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv =
        |t: libc::timeval| Duration::from_micros(t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64);
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// Creates the players' games in the database at `path` through the referee service, as
/// if each were challenged and accepted in the games channel, and gives each its own
/// thread as the Discord adapter does when a game starts; returns the games.
async fn populate(path: &str, rng: &mut StdRng) -> Vec<Game> {
    let svc = Service::new(Store::open(path).await.unwrap(), settings(path));
    let mut games = Vec::with_capacity(LIVE_GAMES);
    for id in 1..=LIVE_GAMES as i64 {
        let white = rng.gen_range(0..PLAYERS);
        let black = (white + rng.gen_range(1..PLAYERS)) % PLAYERS;
        let (w, b) = (user(white).0, user(black).0);
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
        let said = |event: String, who: &str, text: String| Incoming {
            event_id: event,
            user: who.into(),
            place: Place::Channel(GAMES.into()),
            via: None,
            server: Some(GUILD_ID.into()),
            text,
            at: now.as_secs() as i64,
        };
        let (challenge, accept) = (
            format!("challenge @{b} colour:white"),
            format!("accept {id}"),
        );
        for (step, who, text, answer) in [
            ("challenge", &w, challenge, "challenges"),
            ("accept", &b, accept, "accepted"),
        ] {
            let event = format!("setup-{step}-{id}");
            let out = svc.handle(said(event, who, text)).await.unwrap();
            assert!(out[0].text.contains(answer), "{}", out[0].text);
        }
        let thread = (500_000_000_000_000_000 + id).to_string();
        let store = svc.store();
        store.move_to_thread(id, GAMES, &thread).await.unwrap();
        let (pos, done) = (Chess::default(), false);
        games.push(Game {
            id,
            white,
            black,
            thread,
            pos,
            done,
        });
    }
    svc.store().close().await;
    games
}

/// Copies the message POSTs among the fake's requests not yet examined into `log`, and
/// wakes `news` if there were any. It runs as the predicate of [`Fake::wait_for`], under
/// the fake's lock, so that the requests (and their images) are never cloned: it always
/// answers `false`, and the caller drops the wait once woken.
fn collect(reqs: &[Recorded], log: &Mutex<Log>, news: &Notify) -> bool {
    let mut log = log.lock().unwrap();
    let before = log.posts.len();
    for r in &reqs[log.examined..] {
        if !r.ok() {
            log.refused += 1;
            continue;
        }
        let channel = r
            .path
            .strip_prefix("/channels/")
            .and_then(|p| p.strip_suffix("/messages"));
        if let (true, Some(channel)) = (r.method == "POST", channel) {
            log.posts.push(Post {
                channel: channel.to_string(),
                content: r.content().unwrap_or_default().to_string(),
                png: is_png(r),
                at: r.at,
            });
        }
    }
    log.examined = reqs.len();
    if log.posts.len() > before {
        news.notify_one();
    }
    false
}

/// Waits until the fake records new messages from the bot (or `most`), copying them into
/// `log` ([`collect`]).
async fn next_posts(fake: &Fake, log: &Mutex<Log>, news: &Notify, most: Duration) {
    tokio::select! {
        _ = fake.wait_for("the bot's messages", |r| collect(r, log, news)) => {}
        _ = news.notified() => {}
        _ = tokio::time::sleep(most) => {}
    }
}

/// The game a message of the bot is about: the `ID` of its `game #ID:`.
fn game_of(content: &str) -> Option<i64> {
    let (_, rest) = content.split_once("game #")?;
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    (end > 0 && rest[end..].starts_with(':'))
        .then(|| rest[..end].parse().ok())
        .flatten()
}

/// Picks a game not in flight that still has a move that does not end it, and that move
/// (`None` when every game is taken or done).
fn choose(
    games: &mut [Game],
    flying: &HashMap<i64, Flight>,
    rng: &mut StdRng,
) -> Option<(usize, shakmaty::Move)> {
    for _ in 0..10 * LIVE_GAMES {
        let i = rng.gen_range(0..games.len());
        let g = &mut games[i];
        if g.done || flying.contains_key(&g.id) {
            continue;
        }
        let keeps_going: Vec<_> = g
            .pos
            .legal_moves()
            .into_iter()
            .filter(|m| {
                let mut after = g.pos.clone();
                after.play_unchecked(m);
                !after.is_game_over()
            })
            .collect();
        if keeps_going.is_empty() {
            g.done = true;
            continue;
        }
        let m = keeps_going[rng.gen_range(0..keeps_going.len())].clone();
        return Some((i, m));
    }
    None
}

/// The p50, p99 and max of `v` (nearest rank), in milliseconds.
fn spread(v: &mut [Duration]) -> String {
    v.sort();
    let ms = |pct: usize| match v.len() {
        0 => f64::NAN,
        n => v[(n * pct).div_ceil(100).clamp(1, n) - 1].as_secs_f64() * 1e3,
    };
    format!("{:.0} / {:.0} / {:.0} ms", ms(50), ms(99), ms(100))
}

/// The bot's messages about a game that went where they should not: to a server channel
/// other than the game's thread, to a private channel of someone not playing it, or a
/// board of it (an image with `played`) anywhere but its thread.
fn misrouted(posts: &[Post], games: &[Game], dms: &HashMap<String, String>) -> Vec<String> {
    let mut wrong = Vec::new();
    for p in posts {
        let Some(id) = game_of(&p.content) else {
            continue;
        };
        let board = p.png && p.content.contains("played");
        let ok = match usize::try_from(id - 1).ok().and_then(|i| games.get(i)) {
            None => false,
            Some(g) if p.channel == g.thread => true,
            Some(g) => dms
                .get(&p.channel)
                .is_some_and(|to| !board && [user(g.white).0, user(g.black).0].contains(to)),
        };
        if !ok {
            wrong.push(format!("game #{id} in {}: {}", p.channel, p.content));
        }
    }
    wrong
}

/// Plays [`MOVES`] random moves of `games` through `fake`, [`IN_FLIGHT`] at a time, each
/// by the player to move, typed bare in the game's thread or sent privately as `move ID
/// SAN` ([`DM_SHARE`]); each lands when the bot posts the game's board with it to the
/// game's thread.
async fn play(fake: &Fake, games: &mut [Game], log: &Mutex<Log>, rng: &mut StdRng) -> Outcome {
    let news = Notify::new();
    let mut flying: HashMap<i64, Flight> = HashMap::new();
    let mut out = Outcome::default();
    let mut matched = 0;
    while out.sent < MOVES || !flying.is_empty() {
        while out.sent < MOVES && flying.len() < IN_FLIGHT {
            let Some((i, m)) = choose(games, &flying, rng) else {
                break;
            };
            let g = &mut games[i];
            let seat = if g.pos.turn() == Color::White {
                g.white
            } else {
                g.black
            };
            let (uid, name) = user(seat);
            let san = San::from_move(&g.pos, &m).to_string();
            let played = format!(
                "played {}",
                SanPlus::from_move_and_play_unchecked(&mut g.pos, &m)
            );
            let by_dm = rng.gen_bool(DM_SHARE);
            if by_dm {
                dm(fake, (&uid, &name), &format!("move {} {san}", g.id));
            } else {
                fake.say((&uid, &name), &g.thread, &san);
            }
            let sent = Instant::now();
            flying.insert(
                g.id,
                Flight {
                    played,
                    sent,
                    by_dm,
                },
            );
            out.sent += 1;
            out.by_dm += by_dm as usize;
        }
        next_posts(fake, log, &news, Duration::from_millis(50)).await;
        // Each new board in a game's thread lands the move in flight there.
        let log = log.lock().unwrap();
        for p in &log.posts[matched..] {
            let Some(id) = game_of(&p.content) else {
                continue;
            };
            let Some(f) = flying.get(&id) else { continue };
            if p.png && p.channel == games[id as usize - 1].thread && p.content.contains(&f.played)
            {
                let took = p.at.saturating_duration_since(f.sent);
                match flying.remove(&id).unwrap().by_dm {
                    true => out.dm_ms.push(took),
                    false => out.thread_ms.push(took),
                }
            }
        }
        matched = log.posts.len();
        // A move still without its board after LOST_AFTER is lost; its game is left.
        let now = Instant::now();
        flying.retain(|id, f| {
            let late = now.duration_since(f.sent) > LOST_AFTER;
            if late {
                out.lost
                    .push(format!("game #{id}: {} (by DM: {})", f.played, f.by_dm));
                games[*id as usize - 1].done = true;
            }
            !late
        });
    }
    out
}

/// 200 players, 1,000 live games, moves at random in threads and by private message: no
/// board is lost or misrouted; prints the latencies from dispatch to board and the load.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: cargo test --release --test discord -- load:: --ignored --nocapture"]
async fn many_games_in_one_server() {
    let mut rng = StdRng::seed_from_u64(2026);
    let path = db("load");
    let setup = Instant::now();
    let mut games = populate(&path, &mut rng).await;
    let setup = setup.elapsed();

    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &path, config(&fake), 1).await;
    let log = Mutex::new(Log::default());
    let (load_before, cpu_before, began) = (loadavg(), cpu_time(), Instant::now());
    let mut run = play(&fake, &mut games, &log, &mut rng).await;
    let (elapsed, cpu) = (began.elapsed(), cpu_time() - cpu_before);
    let load_after = loadavg();

    // Anything late or stray lands within a moment; then check where everything went.
    tokio::time::sleep(Duration::from_millis(500)).await;
    next_posts(&fake, &log, &Notify::new(), Duration::from_millis(10)).await;
    let log = log.into_inner().unwrap();
    let dms = fake.dm_channels();
    let wrong = misrouted(&log.posts, &games, &dms);
    let count = |f: &dyn Fn(&Post) -> bool| log.posts.iter().filter(|p| f(p)).count();
    let boards = count(&|p| p.png && p.content.contains("played"));
    let in_dms = count(&|p| dms.contains_key(&p.channel));
    let mut all: Vec<Duration> = run.thread_ms.iter().chain(&run.dm_ms).copied().collect();
    let players: HashSet<usize> = games.iter().flat_map(|g| [g.white, g.black]).collect();
    let (sent, by_dm, secs) = (run.sent, run.by_dm, elapsed.as_secs_f64());
    let who = format!("{} / {}", players.len(), games.len());
    let moves = format!("{sent} ({} / {by_dm})", sent - by_dm);
    let setup = format!("{:.1} s", setup.as_secs_f64());
    let elapsed = format!("{secs:.1} s");
    let rate = format!("{:.0} moves/s", sent as f64 / secs);
    let (lost, wrong_n, refused) = (run.lost.len(), wrong.len(), log.refused);
    let posted = format!("{boards} / {in_dms}");
    let (all, thread) = (spread(&mut all), spread(&mut run.thread_ms));
    let by_dm = spread(&mut run.dm_ms);
    let cpu = format!("{:.0}%", 100.0 * cpu.as_secs_f64() / secs);
    let load = format!("{load_before} / {load_after}");
    println!(
        "
| Discord load                                  |                        |
|-----------------------------------------------|------------------------|
| players / games                               | {who:>22} |
| moves (in threads / by DM)                    | {moves:>22} |
| moves in flight at once                       | {IN_FLIGHT:>22} |
| setup of the games (service, direct)          | {setup:>22} |
| run                                           | {elapsed:>22} |
| throughput                                    | {rate:>22} |
| lost                                          | {lost:>22} |
| misrouted                                     | {wrong_n:>22} |
| boards posted / messages to DMs               | {posted:>22} |
| requests refused by the fake                  | {refused:>22} |
| dispatch to board p50 / p99 / max, all        | {all:>22} |
| dispatch to board p50 / p99 / max, in thread  | {thread:>22} |
| dispatch to board p50 / p99 / max, by DM      | {by_dm:>22} |
| CPU of this process (of 2 cores)              | {cpu:>22} |
| load average (1 min), before / after          | {load:>22} |
"
    );

    bot.stop().await;
    assert!(run.lost.is_empty(), "lost boards: {:#?}", run.lost);
    assert!(wrong.is_empty(), "misrouted: {wrong:#?}");
}
