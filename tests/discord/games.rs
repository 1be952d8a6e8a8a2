//! End-to-end tests of `/games`, of game threads kept open on Discord and of the end of
//! a game by the deadline check: the real bot against the fake Discord
//! (`tests/fake_discord`), one fake and one database per test.

use crate::common;
use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded};
use postal::discord::{Bot, Config};
use postal::service::settings::Settings;
use serde_json::json;

/// Starts the bot against the fake and waits until it has registered its commands.
async fn start(fake: &Fake, name: &str) -> Bot {
    start_ticking(fake, name, 3600).await
}

/// [`start`], with the deadline check every `tick_seconds`.
async fn start_ticking(fake: &Fake, name: &str, tick_seconds: u64) -> Bot {
    let _ = tracing_subscriber::fmt()
        .with_env_filter("postal=info,serenity=warn")
        .with_test_writer()
        .try_init();
    let settings = Settings {
        database_url: db(name),
        seed: Some(1),
        ..Settings::default()
    };
    let cfg = Config {
        api_base: fake.base(),
        tick_seconds,
        ..Config::default()
    };
    let bot = Bot::start(settings, cfg, TOKEN).await.expect("bot starts");
    fake.wait_identified(1).await;
    fake.wait_for("command registration", |r| {
        r.iter()
            .any(|x| x.method == "PUT" && x.path.ends_with("/commands") && x.ok())
    })
    .await;
    bot
}

/// Alice challenges Bob, playing White, and Bob accepts: returns the game's thread.
async fn start_game(fake: &Fake) -> String {
    fake.say(
        ALICE,
        GAMES,
        &format!("!challenge <@{}> colour:white", BOB.0),
    );
    wait_post(fake, GAMES, "challenges").await;
    fake.say(BOB, GAMES, "!accept");
    fake.wait_for("a thread", |r| {
        r.iter().any(|x| x.path.ends_with("/threads") && x.ok())
    })
    .await;
    let thread = fake.threads().keys().next().unwrap().clone();
    wait_post(fake, &thread, "accepted").await;
    thread
}

/// What the interaction answer to slash command `name` with `options`, by `user`, shows.
async fn slash_text(
    fake: &Fake,
    user: (&str, &str),
    name: &str,
    options: serde_json::Value,
) -> String {
    let id = fake.slash(user, GAMES, name, options);
    let r = fake.wait_callback(&id).await;
    r.shown()
}

/// `/games` links each live game to its thread with whose turn and the deadline as a
/// Discord timestamp; once the game is over it is gone from there and listed by
/// `/games finished:true` (and `!games finished`), with its result and the same link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_link_their_threads_and_finished_ones_are_listed() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, "games").await;
    let thread = start_game(&fake).await;
    let link = format!("<#{thread}>");

    let live = slash_text(&fake, ALICE, "games", json!([])).await;
    assert!(live.contains("**#1** Standard chess"), "{live}");
    assert!(live.contains(&link), "{live}");
    assert!(
        live.contains("to move, by <t:") && live.contains(":R>"),
        "{live}"
    );
    let none = slash_text(
        &fake,
        ALICE,
        "games",
        json!([{"name": "finished", "type": 5, "value": true}]),
    )
    .await;
    assert!(none.contains("You have no finished games here."), "{none}");

    // Fool's mate, typed bare in the thread.
    for (who, mv) in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4"), (BOB, "Qh4#")] {
        fake.say(who, &thread, mv);
        wait_post(&fake, &thread, &format!("played {mv}")).await;
    }
    let live = slash_text(&fake, ALICE, "games", json!([])).await;
    assert!(live.contains("You have no live games here."), "{live}");
    let done = slash_text(
        &fake,
        BOB,
        "games",
        json!([{"name": "finished", "type": 5, "value": true}]),
    )
    .await;
    assert!(done.contains("**#1** Standard chess"), "{done}");
    assert!(done.contains("wins by checkmate"), "{done}");
    assert!(done.contains(&link), "{done}");
    fake.say(ALICE, GAMES, "!games finished");
    let typed = wait_post(&fake, GAMES, "wins by checkmate").await;
    assert!(typed.shown().contains(&link));
    bot.stop().await;
}

/// A game's thread that Discord archived (after a week without messages, while a move
/// may take far longer) is unarchived when the bot posts the game's next message there,
/// and the message arrives once. A slash command used in the archived thread is
/// answered there (Discord reopens a thread for an interaction in it), and the bot's
/// next post meets no refusal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_game_thread_is_unarchived_to_post_in_it() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, "archived").await;
    let thread = start_game(&fake).await;
    fake.archive_thread(&thread);
    // Alice moves from the server's channel: the game's message goes to its thread.
    fake.say(ALICE, GAMES, "!move 1 e4");
    wait_post(&fake, &thread, "played e4").await;
    assert!(!fake.is_archived(&thread));
    let reqs = fake.requests();
    let path = format!("/channels/{thread}/messages");
    let refused: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| r.method == "POST" && r.path == path && r.status == 400)
        .collect();
    assert_eq!(refused.len(), 1, "one post met the archived thread");
    assert!(refused[0].response.to_string().contains("50083"));
    let unarchive: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| r.method == "PATCH" && r.path == format!("/channels/{thread}"))
        .collect();
    assert_eq!(unarchive.len(), 1);
    assert!(unarchive[0].ok());
    assert_eq!(unarchive[0].json, json!({"archived": false}));
    let delivered = posts(&reqs, &thread)
        .iter()
        .filter(|r| r.content().is_some_and(|c| c.contains("played e4")))
        .count();
    assert_eq!(delivered, 1, "the move's message arrives once");

    fake.archive_thread(&thread);
    let asked = fake.slash(BOB, &thread, "games", json!([]));
    let answer = fake.wait_callback(&asked).await;
    assert!(answer.ok(), "{}", answer.response);
    assert!(!fake.is_archived(&thread));
    fake.say(BOB, &thread, "e5");
    wait_post(&fake, &thread, "played e5").await;
    assert_eq!(refusals_and_unarchives(&fake, &thread), (1, 1));
    bot.stop().await;
}

/// What a PGN reader (`pgn-reader`) saw of a record: its tags and its moves in SAN.
#[derive(Default)]
struct Read {
    tags: Vec<(String, String)>,
    sans: Vec<String>,
}

impl pgn_reader::Visitor for Read {
    type Result = ();

    fn header(&mut self, key: &[u8], value: pgn_reader::RawHeader<'_>) {
        self.tags.push((
            String::from_utf8_lossy(key).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
    }

    fn san(&mut self, san: pgn_reader::SanPlus) {
        self.sans.push(san.to_string());
    }

    fn end_game(&mut self) {}
}

/// Reads `pgn` as one game with `pgn-reader`, replaying its moves with shakmaty.
fn read_pgn(pgn: &str) -> Read {
    use shakmaty::Position;
    let mut reader = pgn_reader::BufferedReader::new_cursor(pgn.as_bytes());
    let mut read = Read::default();
    reader
        .read_game(&mut read)
        .unwrap()
        .expect("one game in the record");
    let mut pos = shakmaty::Chess::default();
    for san in &read.sans {
        let m = san
            .parse::<shakmaty::san::SanPlus>()
            .unwrap()
            .san
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{san} is not legal ({e}) in {pgn}"));
        pos.play_unchecked(&m);
    }
    read
}

/// How many posts to `thread` Discord refused because it was archived, and how many
/// times the bot unarchived it.
fn refusals_and_unarchives(fake: &Fake, thread: &str) -> (usize, usize) {
    let reqs = fake.requests();
    let path = format!("/channels/{thread}/messages");
    let refused = reqs
        .iter()
        .filter(|r| r.method == "POST" && r.path == path && r.status == 400)
        .filter(|r| r.response.to_string().contains("50083"))
        .count();
    let unarchived = reqs
        .iter()
        .filter(|r| r.method == "PATCH" && r.path == format!("/channels/{thread}") && r.ok())
        .count();
    (refused, unarchived)
}

/// A game ended by the deadline check (its message queued in the outbox and delivered by
/// the deadline task) ends in its thread as an end by a move does: the final board, the
/// record as a `.pgn` file that a PGN reader reads (with the time forfeit), the
/// animation as a GIF, and the Rematch button, which challenges again. The thread had
/// been archived meanwhile: the outbox's delivery unarchives it, and so does the
/// challenge a press of the button posts there after it archived once more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_timed_out_by_the_deadline_check_ends_with_record_animation_and_rematch() {
    let fake = Fake::start(TOKEN).await;
    // The database `start_ticking` opens (named before it starts: `db` empties it).
    let path = db("timeout-ending");
    let bot = start_ticking(&fake, "timeout-ending", 1).await;
    let thread = start_game(&fake).await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "played e4").await;
    // Both sides have moved (before that, a timeout would abort the game: issue 54).
    fake.say(BOB, &thread, "e5");
    wait_post(&fake, &thread, "played e5").await;
    fake.archive_thread(&thread);
    // A month passes without Alice's answer: her deadline is behind, and the next check
    // times her out.
    common::sql::execute(
        &path,
        "UPDATE deadlines SET due_at = due_at - $1",
        &[30 * 86_400],
    )
    .await;
    let end = wait_post(&fake, &thread, "time ran out").await;
    assert!(!fake.is_archived(&thread));
    assert_eq!(refusals_and_unarchives(&fake, &thread), (1, 1));
    let text = end.content().unwrap();
    assert!(text.contains("game over"), "{text}");
    let names: Vec<&str> = end.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["board.png", "game-1.pgn", "game-1.gif"],
        "{names:?}"
    );
    assert!(end.files[0].bytes.starts_with(b"\x89PNG"));
    assert!(end.files[2].bytes.starts_with(b"GIF89a"));
    let pgn = String::from_utf8(end.files[1].bytes.clone()).unwrap();
    let read = read_pgn(&pgn);
    assert_eq!(read.sans, ["e4", "e5"], "{pgn}");
    let tag = |name: &str| {
        read.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(tag("Result").as_deref(), Some("0-1"), "{pgn}");
    assert_eq!(tag("Termination").as_deref(), Some("time forfeit"), "{pgn}");
    assert_eq!(tag("White").as_deref(), Some("alice"), "{pgn}");
    let rematch = "cmd:-:rematch #1".to_string();
    let analyse = "cmd:-:analyse 1".to_string();
    assert_eq!(
        button_ids(&end.json),
        [rematch.clone(), analyse],
        "{}",
        end.json
    );
    // The end is delivered once and marked delivered, so that the next checks (one a
    // second, while the rest of this test runs) send nothing more: counted at the end.
    common::sql::wait_outbox_delivered(&path).await;
    let ends = |fake: &Fake| {
        posts(&fake.requests(), &thread)
            .iter()
            .filter(|r| r.content().is_some_and(|c| c.contains("time ran out")))
            .count()
    };
    assert_eq!(ends(&fake), 1);

    // A week later the thread has archived again; Bob presses Rematch. The challenge is
    // made where the game's own was (issue 54), and the thread, reopened by the press,
    // points to it.
    fake.archive_thread(&thread);
    let press = fake.press(BOB, &end.response, &rematch);
    fake.wait_callback(&press).await;
    let challenge = wait_post(&fake, GAMES, "game #2:").await;
    let text = challenge.content().unwrap();
    assert!(
        text.contains(&format!("challenges <@{}>", ALICE.0)) && text.contains("plays White"),
        "{text}"
    );
    wait_post(&fake, &thread, "the rematch, challenge #2").await;
    assert!(!fake.is_archived(&thread));
    assert_eq!(refusals_and_unarchives(&fake, &thread), (2, 2));
    fake.say(ALICE, GAMES, "!accept 2");
    // The rematch is played in a thread of its own; the games channel points to it.
    let fresh = thread_of_game(&fake, 2).await;
    wait_post(&fake, GAMES, &format!("played in <#{fresh}>")).await;
    wait_post(&fake, &fresh, &format!("game #2: <@{}> accepted", ALICE.0)).await;
    bot.stop().await;
    // Every check the bot made after the end's delivery sent nothing more.
    assert_eq!(ends(&fake), 1);
}

/// The correspondence comforts by slash command, each answered for its user alone and
/// found under its group: Bob stores a conditional move with `/chess conditional`, which
/// is played in the thread as Alice's move matches; Bob sets his reminders with
/// `/postal settings`; Alice goes on vacation with `/postal vacation` and the thread is
/// told her clock is stopped, without a word of Bob's line in public.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conditional_moves_settings_and_vacation_by_slash_command() {
    let fake = Fake::start(TOKEN).await;
    let bot = start_ticking(&fake, "comforts", 1).await;
    let registered = fake.commands_of("global");
    let under = |top: &str, sub: &str| {
        registered.iter().any(|c| {
            c["name"] == top
                && c["options"]
                    .as_array()
                    .is_some_and(|o| o.iter().any(|s| s["name"] == sub))
        })
    };
    assert!(under("chess", "conditional") && under("chess", "takeback"));
    assert!(under("postal", "vacation") && under("postal", "settings"));
    let thread = start_game(&fake).await;

    let private = |id: &str| {
        let id = id.to_string();
        let fake = &fake;
        async move {
            let r = fake.wait_callback(&id).await;
            assert_ne!(r.flags() & 64, 0, "answered privately: {}", r.json);
            r.shown()
        }
    };
    let c = fake.slash(
        BOB,
        &thread,
        "conditional",
        json!([{"name": "line", "type": 3, "value": "Nf3 Nc6"}]),
    );
    let answer = private(&c).await;
    assert!(
        answer.contains("conditional line 1 of at most 10 stored"),
        "{answer}"
    );

    fake.say(ALICE, &thread, "Nf3");
    let played = wait_post(&fake, &thread, "(conditional)").await;
    assert!(played.content().unwrap().contains("Nc6"), "{}", played.json);

    let s = fake.slash(
        BOB,
        &thread,
        "settings",
        json!([{"name": "reminders", "type": 3, "value": "12,1"}]),
    );
    let answer = private(&s).await;
    assert!(
        answer.contains("Your settings, saved\nReminders\n12 h and 1 h"),
        "{answer}"
    );

    let v = fake.slash(
        ALICE,
        &thread,
        "vacation",
        json!([{"name": "days", "type": 4, "value": 2}]),
    );
    let answer = private(&v).await;
    assert!(answer.contains("you are on vacation until"), "{answer}");
    wait_post(&fake, &thread, "vacation").await;

    // Bob's line was his alone: nothing public quoted it before it was played.
    for r in fake.requests() {
        if r.method == "POST" && r.path == format!("/channels/{thread}/messages") {
            let text = r.content().unwrap_or_default();
            assert!(!text.contains("Nf3 Nc6"), "{text}");
        }
    }
    bot.stop().await;
}

/// `/postal settings digest:` on Discord: the moves announced in the game's thread no
/// longer ping the player, and the daily digest reaches them by DM at its hour, listing
/// the game; `orientation:` is offered as a choice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_digest_by_slash_command_stops_the_pings_and_comes_by_dm() {
    let fake = Fake::start(TOKEN).await;
    let name = "digest";
    let bot = start_ticking(&fake, name, 1).await;
    let thread = start_game(&fake).await;
    let hour = postal::store::unix_now() / 3600 % 24;
    let s = fake.slash(
        BOB,
        &thread,
        "settings",
        json!([
            {"name": "digest", "type": 3, "value": hour.to_string()},
            {"name": "orientation", "type": 3, "value": "white"}
        ]),
    );
    let r = fake.wait_callback(&s).await;
    assert_ne!(r.flags() & 64, 0, "answered privately: {}", r.json);
    let text = r.shown();
    assert!(
        text.contains(&format!("Digest\nDaily at {hour:02}:00 UTC")),
        "{text}"
    );
    assert!(
        text.contains("Private boards\nWhite at the bottom"),
        "{text}"
    );

    fake.say(ALICE, &thread, "e4");
    let played = wait_post(&fake, &thread, "played e4").await;
    let pinged = played.json["allowed_mentions"]["users"].clone();
    assert!(
        !pinged.to_string().contains(BOB.0),
        "bob chose the digest, he is not pinged: {}",
        played.json
    );
    // Today's digest was recorded as done when he chose it (its hour had begun): forget
    // it, as if a day had passed, and the next deadline check sends it.
    {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{}", db_path(name)))
            .await
            .unwrap();
        sqlx::query("DELETE FROM digests")
            .execute(&mut c)
            .await
            .unwrap();
        let _ = c.close().await;
    }
    let digest = wait_dm(&fake, BOB, "your daily digest").await;
    let text = digest.content().unwrap();
    assert!(text.contains("1 game awaits you: #1 standard vs"), "{text}");
    assert!(text.contains("to move, by <t:"), "{text}");
    bot.stop().await;
}

/// Where [`db`] put test database `name`, without removing it.
fn db_path(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("postal-discord-{}", std::process::id()))
        .join(format!("{name}.db"))
        .display()
        .to_string()
}
