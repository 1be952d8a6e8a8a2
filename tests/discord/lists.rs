//! Lists a player can scan, on Discord (issue 54), end to end against the fake Discord
//! with real-length user ids: a player's games as an embed (those awaiting them first, by
//! deadline, each with its thread's link and a Discord timestamp; thread, private and
//! pending games mixed), their settings and the server's as fields, the leaderboard in
//! aligned columns, and a game's command given in a plain channel answered with a
//! button per game it fits, which plays it there.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded};
use serde_json::{json, Value};

/// `challenger` challenges `opponent` in the games channel (`rest`: the variant and
/// options) and the opponent accepts by text; returns the new game's thread.
async fn open_game(
    fake: &Fake,
    id: i64,
    challenger: (&str, &str),
    opponent: (&str, &str),
    rest: &str,
) -> String {
    fake.say(
        challenger,
        GAMES,
        &format!("!challenge <@{}> {rest}", opponent.0),
    );
    wait_post(fake, GAMES, &format!("game #{id}: <@{}>", challenger.0)).await;
    fake.say(opponent, GAMES, &format!("!accept {id}"));
    thread_of_game(fake, id).await
}

/// Alice's four live games, as each test here starts them: #1 against Bob (standard,
/// White, 3 days), #2 against Carol (Chess960, Black, 3 days), #3 against Dave
/// (standard, White, 1 day: the nearest deadline, though made later) in threads, and #4
/// against Bob made in private messages (Crazyhouse, White). Returns #1 to #3's threads.
async fn alices_games(fake: &Fake) -> [String; 3] {
    let t1 = open_game(fake, 1, ALICE, BOB, "colour:white days:3").await;
    let t2 = open_game(fake, 2, ALICE, CAROL, "chess960 colour:black days:3").await;
    let t3 = open_game(fake, 3, ALICE, DAVE, "colour:white days:1").await;
    dm(
        fake,
        ALICE,
        &format!("challenge <@{}> crazyhouse colour:white", BOB.0),
    );
    wait_dm(fake, BOB, "challenges").await;
    dm(fake, BOB, "accept 4");
    wait_dm(fake, ALICE, "accepted").await;
    [t1, t2, t3]
}

/// The only embed of an answer.
fn the_embed(r: &Recorded) -> Value {
    let embeds = r.embeds();
    assert_eq!(embeds.len(), 1, "{}", r.json);
    embeds[0].clone()
}

/// An embed's fields as (name, value).
fn fields(embed: &Value) -> Vec<(String, String)> {
    embed["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
            (s("name"), s("value"))
        })
        .collect()
}

/// The names of `fields`, in order.
fn names(fields: &[(String, String)]) -> Vec<&str> {
    fields.iter().map(|(n, _)| n.as_str()).collect()
}

/// Whether `line` holds a Discord timestamp counting down (`<t:UNIX:R>`).
fn has_countdown(line: &str) -> bool {
    line.split("<t:").skip(1).any(|rest| {
        rest.split_once(":R>")
            .is_some_and(|(t, _)| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Alice has three games in threads (two awaiting her, the one with the nearer deadline
/// made last; one awaiting Carol), one made in private messages awaiting her and a
/// pending challenge. `/chess games` shows them as one embed: her turn first, by deadline,
/// each linked to its thread (the private one said to be in private messages) with its
/// deadline as a countdown; then the game awaiting Carol; then the challenge. Typed
/// `!games` posts the same embed in the channel, notifying nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_list_puts_the_players_turn_first_with_links_and_countdowns() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("lists-games"), config(&fake), 1).await;
    let [t1, t2, t3] = alices_games(&fake).await;
    fake.say(ALICE, GAMES, &format!("!challenge <@{}>", CAROL.0));
    wait_post(&fake, GAMES, &format!("game #5: <@{}>", ALICE.0)).await;

    // In a DM, every game of hers: the private one among those awaiting her.
    dm(&fake, ALICE, "games");
    let listed = wait_dm(&fake, ALICE, "Your turn · 3").await;
    let embed = the_embed(&listed);
    assert_eq!(embed["title"], "Your games · 5 games", "{embed}");
    let f = fields(&embed);
    let mine: Vec<&str> = f[0].1.lines().collect();
    assert_eq!(mine.len(), 3, "{embed}");
    assert!(
        mine[0].starts_with("**#3** Standard chess vs "),
        "{}",
        mine[0]
    );
    assert!(mine[1].starts_with("**#1** ") && mine[1].ends_with(&format!("<#{t1}>")));
    assert!(mine[2].starts_with("**#4** Crazyhouse"), "{}", mine[2]);
    assert!(mine[2].ends_with("in private messages"), "{}", mine[2]);
    for line in &mine {
        assert!(has_countdown(line), "a deadline counts down: {line}");
    }

    // In the server, that server's games: the private one is not there.
    let r = private_answer(&fake, ALICE, GAMES, "games", json!([]), "a list").await;
    let embed = the_embed(&r);
    assert_eq!(embed["title"], "Your games · 4 games", "{embed}");
    let f = fields(&embed);
    assert_eq!(
        names(&f),
        [
            "Your turn · 2",
            "Waiting for others · 1",
            "Challenges pending · 1"
        ],
        "{embed}"
    );
    let mine: Vec<&str> = f[0].1.lines().collect();
    assert!(
        mine[0].starts_with("**#3** Standard chess vs "),
        "{}",
        mine[0]
    );
    assert!(mine[0].contains(&format!("<@{}>", DAVE.0)), "{}", mine[0]);
    assert!(mine[0].ends_with(&format!("<#{t3}>")), "{}", mine[0]);
    assert!(mine[1].starts_with("**#1** ") && mine[1].ends_with(&format!("<#{t1}>")));
    assert!(mine.iter().all(|line| has_countdown(line)), "{mine:?}");
    let waiting = &f[1].1;
    assert!(waiting.starts_with("**#2** Chess960 vs "), "{waiting}");
    assert!(waiting.contains(&format!("<@{}> (White) to move", CAROL.0)));
    assert!(waiting.ends_with(&format!("<#{t2}>")) && has_countdown(waiting));
    assert!(f[2].1.starts_with("**#5** "), "{}", f[2].1);
    assert!(f[2].1.contains("challenge pending"), "{}", f[2].1);
    // Nothing typed: no `!`, no `games finished`.
    assert!(!embed.to_string().contains('!'), "{embed}");

    // Typed in the channel: the same list, posted there, pinging nobody.
    fake.say(ALICE, GAMES, "!games");
    let posted = wait_post(&fake, GAMES, "Your turn · 2").await;
    assert_eq!(the_embed(&posted)["fields"], embed["fields"]);
    let notified = &posted.json["allowed_mentions"]["users"];
    assert!(
        notified.as_array().map_or(true, Vec::is_empty),
        "{}",
        posted.json
    );

    // A finished game: listed with its result and its thread by `games finished:true`.
    both_move(&fake, &t1, ALICE, BOB).await;
    fake.say(BOB, &t1, "!resign");
    wait_post(&fake, &t1, "game over").await;
    let finished = json!([{"name": "finished", "type": 5, "value": true}]);
    let r = private_answer(&fake, ALICE, GAMES, "games", finished, "finished").await;
    let embed = the_embed(&r);
    assert_eq!(embed["title"], "Your finished games · 1 game");
    let f = fields(&embed);
    assert_eq!(f[0].0, "Finished, the latest first · 1");
    assert!(f[0].1.starts_with("**#1** Standard chess"), "{}", f[0].1);
    assert!(f[0].1.contains("resign") && f[0].1.ends_with(&format!("<#{t1}>")));
    all_accepted(&fake);
    bot.stop().await;
}

/// `/postal settings` shows a player's settings as fields, with how to change them as
/// slash commands; a change answers with the settings saved. `/postal-admin server`
/// shows the server's as fields. `/postal leaderboard` ranks the players with the rank
/// and the rating in columns of one width, each player by mention.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_server_settings_and_the_leaderboard_are_embeds() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("lists-settings"), config(&fake), 1).await;

    let r = private_answer(&fake, ALICE, GAMES, "settings", json!([]), "settings").await;
    let embed = the_embed(&r);
    assert_eq!(embed["title"], "Your settings");
    let f = fields(&embed);
    assert_eq!(
        names(&f),
        [
            "Reminders",
            "Auto-claim of wins on time",
            "Digest",
            "Private boards",
            "How to change them"
        ]
    );
    assert_eq!(f[1].1, "Off");
    assert!(
        f[4].1.contains("`/postal settings reminders:24,1`"),
        "{}",
        f[4].1
    );
    let on = json!([{"name": "autoclaim", "type": 3, "value": "on"}]);
    let r = private_answer(&fake, ALICE, GAMES, "settings", on, "a change").await;
    let embed = the_embed(&r);
    assert_eq!(embed["title"], "Your settings, saved");
    assert_eq!(
        fields(&embed)[1],
        ("Auto-claim of wins on time".into(), "On".into())
    );

    let r = slash_reply(&fake, BOB, GAMES, "server", json!([])).await;
    let embed = the_embed(&r);
    assert_eq!(embed["title"], "Server settings");
    let f = fields(&embed);
    assert_eq!(
        names(&f),
        [
            "Typed commands",
            "Games start in",
            "Days per move",
            "Default variant options",
            "Moderators"
        ]
    );
    assert_eq!(f[0].1, "Read, prefix `!`, the default");
    assert_eq!(f[1].1, "Any channel");

    // Two rated games: Alice beats Bob, then Carol.
    for (id, opponent) in [(1, BOB), (2, CAROL)] {
        let thread = open_game(&fake, id, ALICE, opponent, "colour:white").await;
        both_move(&fake, &thread, ALICE, opponent).await;
        fake.say(opponent, &thread, "!resign");
        wait_post(&fake, &thread, "game over").await;
    }
    let variant = json!([{"name": "variant", "type": 3, "value": "standard"}]);
    let r = private_answer(&fake, BOB, GAMES, "leaderboard", variant, "leaderboard").await;
    let embed = the_embed(&r);
    assert_eq!(embed["title"], "Standard chess ratings here");
    assert_eq!(embed["footer"]["text"], "3 players");
    let rows: Vec<&str> = embed["description"].as_str().unwrap().lines().collect();
    assert_eq!(rows.len(), 3, "{embed}");
    assert!(rows[0].starts_with("`1.` `"), "{}", rows[0]);
    assert!(
        rows[0].contains(&format!("` <@{}> · 2 games", ALICE.0)),
        "{}",
        rows[0]
    );
    // The rating column is one width: each row's mention starts at the same place.
    let at = |row: &str| row.find("<@").unwrap();
    assert!(rows.iter().all(|row| at(row) == at(rows[0])), "{rows:?}");
    all_accepted(&fake);
    bot.stop().await;
}

/// A game's command given in a plain channel, where no game of the player's is, offers
/// the player's games of the server it fits as buttons, those awaiting them first by
/// deadline (never a private game); a button plays it in that game. `/chess resign`
/// there asks which game with a red button each, and the press resigns that one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_command_in_a_plain_channel_offers_the_games_it_fits() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("lists-offer"), config(&fake), 1).await;
    let [t1, t2, _] = alices_games(&fake).await;

    // A variant's command typed in a plain channel may be another bot's: only the slash
    // command is surely ours.
    let offer = json!([{"name": "answer", "type": 3, "value": "offer"}]);
    let ask = private_answer(&fake, ALICE, GAMES, "draw", offer, "a question").await;
    let text = ask.content().unwrap();
    assert!(
        text.starts_with("you have no game here, but `/chess draw answer:offer` fits 2 of your games on this server"),
        "{text}"
    );
    assert!(
        text.ends_with("Name it, like `/chess draw answer:offer game:3`"),
        "{text}"
    );
    assert_eq!(
        button_ids(&ask.json["data"]),
        [
            button(Some(ALICE), "draw 3 offer"),
            button(Some(ALICE), "draw 1 offer")
        ],
        "the games awaiting her, the nearest deadline first; not the private #4: {}",
        ask.json
    );
    let labels = ask.json["data"]["components"][0]["components"].to_string();
    assert!(labels.contains("#3 Standard chess vs dave"), "{labels}");
    // Bob cannot press Alice's button; Alice's press proposes the draw in game #1.
    let msg = bot_message(&fake, GAMES);
    let refused = fake.press(BOB, &msg, &button(Some(ALICE), "draw 1 offer"));
    assert_says(&fake.wait_callback(&refused).await, "another player");
    let press = fake.press(ALICE, &msg, &button(Some(ALICE), "draw 1 offer"));
    fake.wait_callback(&press).await;
    wait_post(&fake, &t1, "proposes a draw").await;

    // Typed, a referee's own command is ours anywhere: `!resign` offers the same way.
    fake.say(ALICE, GAMES, "!resign");
    let typed = wait_post(
        &fake,
        GAMES,
        "you have no game here, but `/chess resign` fits",
    )
    .await;
    assert_eq!(button_ids(&typed.json).len(), 3, "{}", typed.json);

    // `/chess resign` in the channel: a red button per game she may resign, hers first.
    both_move(&fake, &t2, CAROL, ALICE).await;
    let r = slash_reply(&fake, ALICE, GAMES, "resign", json!([])).await;
    assert_says(&r, "Which game do you resign?");
    let ids = button_ids(&r.json["data"]);
    assert_eq!(
        ids,
        [
            format!("resign:3:{}", ALICE.0),
            format!("resign:1:{}", ALICE.0),
            format!("resign:2:{}", ALICE.0)
        ],
        "{}",
        r.json
    );
    let msg = bot_message(&fake, GAMES);
    let press = fake.press(ALICE, &msg, &ids[2]);
    fake.wait_callback(&press).await;
    wait_post(&fake, &t2, "game over").await;
    all_accepted(&fake);
    bot.stop().await;
}

/// More games fitting a command in a plain channel than a row holds: the buttons come
/// five to a row, each game once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_offered_games_come_five_buttons_to_a_row() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("lists-rows"), config(&fake), 1).await;
    let opponents = [BOB, CAROL, DAVE, BOB, CAROL, DAVE, BOB];
    for (i, o) in opponents.iter().enumerate() {
        open_game(&fake, i as i64 + 1, ALICE, *o, "colour:white").await;
    }
    fake.say(ALICE, GAMES, "!board");
    let ask = wait_post(&fake, GAMES, "you have no game here, but").await;
    let rows: Vec<usize> = ask.json["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["components"].as_array().unwrap().len())
        .collect();
    assert_eq!(rows, [5, 2], "{}", ask.json);
    let mut ids = button_ids(&ask.json);
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 7);
    all_accepted(&fake);
    bot.stop().await;
}
