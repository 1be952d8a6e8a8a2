//! A game against the bot on Discord (issue 60), with Debian's Stockfish at a small
//! budget: `/chess challenge opponent:@Postal level:...` starts the game at once in its
//! own thread; the engine's move is posted there by the bot's engine task with the board
//! image, pinging the player; the player's move is answered; and the bot's own user is
//! never sent a private message. And whole games, played to an end in its threads:
//! standard chess, Chess960, Crazyhouse and Three-check, at level 1 and level 8, four at
//! once, by scripted humans (`common::engine_player`) that check every engine move by the
//! project's own rules.

use crate::common;
use crate::fake_discord;

use common::engine_player::{Human, WHOLE_GAMES};
use fake_discord::harness::*;
use fake_discord::{Fake, BOT_ID};
use postal::discord::Bot;
use postal::engines::EngineSettings;
use postal::service::settings::Settings;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slash_challenge_to_the_bot_is_answered_move_by_move_in_its_thread() {
    let fake = Fake::start(TOKEN).await;
    logs();
    let settings = Settings {
        engines: EngineSettings {
            nodes: 2_000,
            ..EngineSettings::default()
        },
        ..settings(&db("engine-games"))
    };
    let bot = Bot::start(settings, config(&fake), TOKEN).await.unwrap();
    ready(&fake, 1).await;
    // The level is an option of the slash command.
    let cmds = registered_commands(&fake);
    assert_eq!(option_of(&cmds, "challenge", "level")["max_value"], 8);
    let i = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOT_ID},
               {"name": "variant", "type": 3, "value": "standard"},
               {"name": "level", "type": 4, "value": 2},
               {"name": "colour", "type": 3, "value": "black"}]),
    );
    fake.wait_callback(&i).await;
    let thread = thread_of_game(&fake, 1).await;
    // The engine, White, opens: its move posted with the board, pinging Alice.
    let first = wait_post(&fake, &thread, "played").await;
    assert!(is_png(&first), "the engine's move carries the board");
    assert!(
        first.content().unwrap_or("").contains(ALICE.0),
        "{}",
        first.json
    );
    // Alice answers (e5 is legal after any first move); the engine answers her.
    fake.say(ALICE, &thread, "e5");
    let played = |r: &[fake_discord::Recorded]| {
        posts(r, &thread)
            .iter()
            .filter(|p| p.content().unwrap_or("").contains("played"))
            .count()
    };
    fake.wait_for("Alice's move and the engine's answer", |r| played(r) >= 3)
        .await;
    let reqs = fake.requests();
    assert!(
        dm_channel_of(&reqs, BOT_ID).is_none(),
        "the bot never writes to itself"
    );
    bot.stop().await;
}

/// Plays `human`'s game in `thread` to its end: a move, then the engine's answer read
/// from its post (or the game's end), until the game is over or the human has made its
/// moves (half the console's) and resigns.
async fn play_out(fake: &Fake, user: (&str, &str), thread: &str, mut human: Human) {
    // Fewer moves than in the console, whose whole games are cheaper.
    const MOST_MOVES: usize = common::engine_player::MOST_MOVES / 2;
    let mut seen = 0;
    loop {
        if human.is_over() {
            return;
        }
        if human.moves >= MOST_MOVES {
            fake.say(user, thread, "!resign");
            wait_post(fake, thread, "resignation").await;
            return;
        }
        let san = human.choose().expect("the human is to move");
        fake.say(user, thread, &format!("!{san}"));
        let answered = |r: &[fake_discord::Recorded]| {
            posts(r, thread)[seen.min(posts(r, thread).len())..]
                .iter()
                .any(|p| human.engine_move_in(&p.shown()).is_some() || human.ends(&p.shown()))
        };
        let reqs = fake.wait_for("the engine's answer", answered).await;
        let new: Vec<String> = posts(&reqs, thread)[seen..]
            .iter()
            .map(|p| p.shown())
            .collect();
        seen += new.len();
        for text in new {
            if let Some(san) = human.engine_move_in(&text) {
                human.engine_played(&san);
            }
            if human.ends(&text) {
                return;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_games_against_levels_1_and_8_end_in_their_threads() {
    let fake = Fake::start(TOKEN).await;
    logs();
    let path = db("engine-whole-games");
    let settings = Settings {
        engines: EngineSettings {
            nodes: 2_000,
            ..EngineSettings::default()
        },
        ..settings(&path)
    };
    let bot = Bot::start(settings, config(&fake), TOKEN).await.unwrap();
    ready(&fake, 1).await;
    let store = postal::store::Store::open(&path).await.unwrap();
    let users = [ALICE, BOB, CAROL, DAVE];
    // Two rounds of four games at once: each player one variant at level 1, then at 8.
    for round in 0..2 {
        let mut games = Vec::new();
        for (n, user) in users.iter().enumerate() {
            let (variant, level) = WHOLE_GAMES[2 * n + round];
            let id = (round * 4 + n + 1) as i64;
            fake.say(
                *user,
                GAMES,
                &format!("!challenge <@{BOT_ID}> {variant} level:{level} colour:white"),
            );
            let thread = thread_of_game(&fake, id).await;
            games.push((*user, thread, Human::of_stored(&store, id, user.0).await));
        }
        let fake = &fake;
        let mut plays = games
            .into_iter()
            .map(|(user, thread, human)| async move { play_out(fake, user, &thread, human).await });
        let (a, b, c, d) = (
            plays.next().unwrap(),
            plays.next().unwrap(),
            plays.next().unwrap(),
            plays.next().unwrap(),
        );
        tokio::join!(a, b, c, d);
    }
    for id in 1..=8 {
        let g = store.game(id).await.unwrap().unwrap();
        assert_eq!(g.status, postal::store::GameStatus::Finished, "game #{id}");
        // Moves of both sides (or a quick end), and the log replays.
        let actions = common::service::check_log(&store, id).await;
        assert!(actions >= 3, "game #{id}: {actions} actions");
    }
    store.close().await;
    bot.stop().await;
}
