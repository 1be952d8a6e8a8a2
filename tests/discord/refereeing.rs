//! What a player of a Discord game bot expects of the referee (issue 54), end to end
//! against the fake Discord with players who have several games each: a vacation pings
//! nobody in the game threads; a rematch is challenged where the game's own challenge
//! was; a tournament's next round follows the message that ended its last game, whose
//! record names the tournament and which offers no rematch; another bot's command in a
//! game's thread is left alone; a team game lists partners apart from opponents;
//! Cloak and Dagger's grid comes after its set-up prompt, in a code block; each DM
//! channel is asked for once; a server's `channels:` takes only its own channels, and
//! restricts tournaments too.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded, GUILD_ID, MANAGE_GUILD, MEMBER_PERMISSIONS};
use postal::discord::Config;
use serde_json::{json, Value};

/// Another channel of the tests' server.
const LOUNGE: &str = "400000000000000002";

/// Alice challenges `opponent` in the games channel (Alice White) and they accept: game
/// `id`'s thread, once its first message is there.
async fn game_with(fake: &Fake, opponent: (&str, &str), id: i64, extra: &str) -> String {
    fake.say(
        ALICE,
        GAMES,
        &format!("!challenge <@{}> colour:white {extra}", opponent.0),
    );
    wait_post(
        fake,
        GAMES,
        &format!("game #{id}: <@{}> challenges", ALICE.0),
    )
    .await;
    fake.say(opponent, GAMES, &format!("!accept {id}"));
    let thread = thread_of_game(fake, id).await;
    wait_post(fake, &thread, "accepted").await;
    thread
}

/// The users a message (or an interaction answer) may notify.
fn notified(r: &Recorded) -> Vec<String> {
    let body = if r.json.get("data").is_some() {
        &r.json["data"]
    } else {
        &r.json
    };
    body["allowed_mentions"]["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u.as_str().map(str::to_string))
        .collect()
}

/// The text of the file named `name` attached to `r`.
fn file_text(r: &Recorded, ends: &str) -> String {
    let f = r
        .files
        .iter()
        .find(|f| f.name.ends_with(ends))
        .unwrap_or_else(|| panic!("no {ends} file: {}", r.json));
    String::from_utf8_lossy(&f.bytes).to_string()
}

/// A string option of a slash command.
fn text(name: &str, value: &str) -> Value {
    json!({"name": name, "type": 3, "value": value})
}

/// Alice, with games against Bob, Carol and Dave, goes on vacation by slash command: each
/// game's thread is told, by the outbox, and nobody is pinged (her own action, and a
/// notice her opponents need not answer).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_is_told_in_every_game_thread_and_pings_nobody() {
    let fake = Fake::start(TOKEN).await;
    let cfg = Config {
        tick_seconds: 1,
        ..config(&fake)
    };
    let bot = start(&fake, &db("vacation-quiet"), cfg, 1).await;
    let mut threads = Vec::new();
    for (id, who) in [BOB, CAROL, DAVE].into_iter().enumerate() {
        threads.push(game_with(&fake, who, id as i64 + 1, "").await);
    }
    let v = fake.slash(
        ALICE,
        GAMES,
        "vacation",
        json!([{"name": "days", "type": 4, "value": 2}]),
    );
    let answer = fake.wait_callback(&v).await;
    assert!(answer
        .content()
        .unwrap()
        .contains("you are on vacation until"));
    for thread in &threads {
        let notice = wait_post(&fake, thread, "is on vacation until").await;
        assert!(
            notice
                .content()
                .unwrap()
                .contains(&format!("<@{}>", ALICE.0)),
            "{}",
            notice.json
        );
        assert!(
            notified(&notice).is_empty(),
            "a vacation pings nobody: {}",
            notice.json
        );
    }
    all_accepted(&fake);
    bot.stop().await;
}

/// A rematch asked for by the Rematch button in the old game's thread is challenged in
/// the games channel, where the game's own challenge was; the thread gets a line with the
/// link to it; accepted there, the new game's pointer is in the games channel too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_challenged_in_the_channel_of_the_first_challenge() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("rematch-parent"), config(&fake), 1).await;
    let thread = game_with(&fake, BOB, 1, "").await;
    let other = game_with(&fake, CAROL, 2, "").await;
    for (who, mv) in [(ALICE, "e4"), (BOB, "e5")] {
        fake.say(who, &thread, mv);
        wait_post(&fake, &thread, &format!("played {mv}")).await;
    }
    fake.say(BOB, &thread, "resign");
    let end = wait_post(&fake, &thread, "game over").await;
    let rematch = button(None, "rematch #1");
    assert!(button_ids(&end.json).contains(&rematch), "{}", end.json);
    let press = fake.press(BOB, &end.response, &rematch);
    fake.wait_callback(&press).await;
    let challenge = wait_post(&fake, GAMES, "game #3:").await;
    assert!(
        challenge
            .content()
            .unwrap()
            .contains(&format!("challenges <@{}>", ALICE.0)),
        "{}",
        challenge.json
    );
    let pointer = wait_post(&fake, &thread, "the rematch, challenge #3").await;
    let link = format!("https://discord.com/channels/{GUILD_ID}/{GAMES}");
    assert!(
        pointer.content().unwrap().contains(&link),
        "{}",
        pointer.json
    );
    assert!(
        !has_post(&fake.requests(), &thread, "game #3: <@"),
        "the challenge itself is not in the old thread"
    );
    fake.say(ALICE, GAMES, "!accept 3");
    let fresh = thread_of_game(&fake, 3).await;
    assert_eq!(
        fake.threads()[&fresh].0,
        GAMES,
        "opened from the games channel"
    );
    wait_post(&fake, GAMES, &format!("played in <#{fresh}>")).await;
    let reqs = fake.requests();
    for old in [&thread, &other] {
        assert!(
            !has_post(&reqs, old, &format!("<#{fresh}>")),
            "no pointer in {old}"
        );
    }
    all_accepted(&fake);
    bot.stop().await;
}

/// A round robin's first round ends in game #2's thread: its game-over message comes
/// before the standings and the next round's games; its record names the tournament,
/// the round and the board; it offers no Rematch, and `rematch` is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_round_follows_the_end_of_its_last_game_whose_record_names_it() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("tournament-order"), config(&fake), 1).await;
    fake.say(
        ALICE,
        GAMES,
        "!tournament create round-robin standard days:3",
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
    crate::tournament::round_one_opens_its_threads_and_posts_the_standings(&fake).await;
    let second = thread_of_game(&fake, 2).await;
    thread_of_game(&fake, 3).await;
    let reqs = fake.requests();
    let at = |channel: &str, needle: &str| {
        let path = format!("/channels/{channel}/messages");
        reqs.iter()
            .position(|r| {
                r.method == "POST" && r.path == path && r.ok() && r.shown().contains(needle)
            })
            .unwrap_or_else(|| panic!("no '{needle}' in {channel}"))
    };
    let end = at(&second, "game over");
    assert!(
        end < at(GAMES, "standings after round 1"),
        "the standings follow the last game's end"
    );
    let opened = reqs
        .iter()
        .position(|r| {
            r.path.ends_with("/threads")
                && r.json["name"]
                    .as_str()
                    .is_some_and(|n| n.starts_with("game #3 "))
        })
        .expect("round 2's first thread");
    assert!(end < opened, "the next round follows it");
    let end = &reqs[end];
    assert!(
        !button_ids(&end.json).iter().any(|b| b.contains("rematch")),
        "{}",
        end.json
    );
    let pgn = file_text(end, ".pgn");
    assert!(
        pgn.contains("[Event \"Postal tournament #1 (round robin, "),
        "{pgn}"
    );
    assert!(
        pgn.contains("[Round \"1\"]") && pgn.contains("[Board \"2\"]"),
        "{pgn}"
    );
    fake.say(BOB, &second, "!rematch");
    wait_post(&fake, &second, "a tournament's game").await;
    all_accepted(&fake);
    bot.stop().await;
}

/// In a game's thread, a music bot's `!play Despacito` (the server's prefix, and `play`
/// another name of `move`) and `?play Despacito` (another bot's prefix) get no answer;
/// `!play Nf6` is a move, illegal, and is answered; `!play e4` is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_bots_command_in_a_game_thread_is_left_alone() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("other-bots"), config(&fake), 1).await;
    let thread = game_with(&fake, BOB, 1, "").await;
    game_with(&fake, CAROL, 2, "").await;
    let before = posts(&fake.requests(), &thread).len();
    for line in [
        "!play Despacito",
        "?play Despacito",
        "!play never gonna give you up",
        "-play Despacito",
    ] {
        fake.say(ALICE, &thread, line);
        fake.say(BOB, &thread, line);
    }
    // An illegal move (no knight reaches f6) is a move, answered with the reason.
    fake.say(ALICE, &thread, "!play Nf6");
    fake.wait_for("the answer to Nf6", |r| posts(r, &thread).len() > before)
        .await;
    fake.say(ALICE, &thread, "!play e4");
    wait_post(&fake, &thread, "played e4").await;
    let reqs = fake.requests();
    let answered: Vec<&str> = posts(&reqs, &thread)[before..]
        .iter()
        .filter_map(|r| r.content())
        .collect();
    assert_eq!(answered.len(), 2, "Nf6 and e4 only: {answered:#?}");
    assert!(
        !answered.iter().any(|t| t.contains("Despacito")),
        "{answered:#?}"
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// A Split-Brain game's suggestion in `game:` names Alice's partner apart from her
/// opponents (`with bob vs carol, dave`), beside her game against Carol.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_games_partner_is_not_listed_as_an_opponent() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("partners"), config(&fake), 1).await;
    fake.say(
        ALICE,
        GAMES,
        &format!(
            "!challenge <@{}> <@{}> <@{}> split-brain",
            BOB.0, CAROL.0, DAVE.0
        ),
    );
    wait_post(&fake, GAMES, "game #1: <@").await;
    for who in [BOB, CAROL] {
        fake.say(who, GAMES, "!accept 1");
        wait_post(&fake, GAMES, &format!("<@{}> accepted", who.0)).await;
    }
    fake.say(DAVE, GAMES, "!accept 1");
    let first = thread_of_game(&fake, 1).await;
    wait_post(&fake, &first, "accepted").await;
    game_with(&fake, CAROL, 2, "").await;
    let a = fake.autocomplete(
        ALICE,
        GAMES,
        "board",
        json!([{"name": "game", "type": 4, "value": "", "focused": true}]),
    );
    let answer = fake.wait_callback(&a).await;
    let names: Vec<String> = answer.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str().map(str::to_string))
        .collect();
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("#1 ") && n.ends_with("with bob vs carol, dave")),
        "{names:?}"
    );
    assert!(
        names.iter().any(|n| n == "#2 Standard chess vs carol"),
        "{names:?}"
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// Cloak and Dagger by DM: each player's set-up prompt comes first, then the deduction
/// grids, each in a code block so that its columns line up. Each user's DM channel is
/// asked of Discord once, however many DMs follow.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cloaks_grid_follows_the_set_up_in_a_code_block_and_dm_channels_are_asked_once() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("cloak-grid"), config(&fake), 1).await;
    game_with(&fake, BOB, 1, "cloak").await;
    game_with(&fake, CAROL, 2, "").await;
    for who in [ALICE, BOB] {
        let prompt = wait_dm(&fake, who, "your turn").await;
        let grid = wait_dm(&fake, who, "your checkers, as your opponent knows them").await;
        let reqs = fake.requests();
        let index = |r: &Recorded| {
            reqs.iter()
                .position(|x| x.method == r.method && x.path == r.path && x.json == r.json)
                .unwrap()
        };
        assert!(
            index(&prompt) < index(&grid),
            "{}: the set-up prompt first",
            who.1
        );
        let text = grid.content().unwrap();
        assert_eq!(text.matches("```").count(), 4, "two code blocks: {text}");
        assert!(text.contains("```\n   1 2 3 4 5 6 7 8\nK  "), "{text}");
    }
    for (who, setup) in [(ALICE, "setup RNBQKBNR"), (BOB, "setup random")] {
        dm(&fake, who, setup);
        wait_dm(&fake, who, "back rank").await;
    }
    dm(&fake, ALICE, "games");
    wait_dm(&fake, ALICE, "#2").await;
    let reqs = fake.requests();
    for who in [ALICE, BOB] {
        let asked = reqs
            .iter()
            .filter(|r| {
                r.path == "/users/@me/channels"
                    && r.json["recipient_id"].to_string().contains(who.0)
            })
            .count();
        let dms = posts(&reqs, &dm_channel_of(&reqs, who.0).unwrap()).len();
        assert!(dms >= 2, "{}: {dms} DMs", who.1);
        assert_eq!(asked, 1, "{}'s DM channel asked for once", who.1);
    }
    all_accepted(&fake);
    bot.stop().await;
}

/// `/postal-admin server channel:` (Discord's channel picker) takes only this server's
/// channels, with the reason otherwise; `channels:here` in a game's thread, or in any
/// thread, means its channel; the settings
/// show the actual prefix and days; and a tournament (or competition) made outside the
/// channels games may start in is refused, as a challenge is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_channels_are_checked_and_restrict_tournaments_too() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("server-channels"), config(&fake), 1).await;
    fake.set_member(CAROL.0, MEMBER_PERMISSIONS | MANAGE_GUILD, &[]);
    let thread = game_with(&fake, BOB, 1, "").await;
    game_with(&fake, DAVE, 2, "").await;

    let show = slash_reply(&fake, BOB, GAMES, "server", json!([])).await;
    let said = show.shown();
    assert!(said.contains("prefix `!`, the default"), "{said}");
    assert!(said.contains("3 days (the default)"), "{said}");
    assert!(!said.contains("operator"), "{said}");

    let unknown = "400000000000000099";
    fake.add_channel("400000000000000098", "200000000000000099");
    for (channel, why) in [
        (unknown, "is not a channel of this server"),
        ("400000000000000098", "is not a channel of this server"),
        (thread.as_str(), "is a thread"),
    ] {
        let r = slash_reply(
            &fake,
            CAROL,
            GAMES,
            "server",
            json!([{"name": "channel", "type": 7, "value": channel}]),
        )
        .await;
        let said = r.shown();
        assert!(
            said.contains(why) && said.contains("nothing was changed"),
            "{said}"
        );
    }
    let show = slash_reply(&fake, BOB, GAMES, "server", json!([])).await;
    assert!(show.shown().contains("Games start in\nAny channel"));

    // `here`, given in game #1's thread, is the games channel.
    let r = slash_reply(
        &fake,
        CAROL,
        &thread,
        "server",
        json!([text("channels", "here")]),
    )
    .await;
    let said = r.shown();
    assert!(
        said.contains(&format!("Games start in\n<#{GAMES}>")),
        "{said}"
    );
    fake.add_channel(LOUNGE, GUILD_ID);
    for create in [
        "!tournament create round-robin standard",
        "!tournament create competition parade",
        "!challenge standard",
    ] {
        fake.say(ALICE, LOUNGE, create);
    }
    let refused = fake
        .wait_for("three refusals in the lounge", |r| {
            posts(r, LOUNGE)
                .iter()
                .filter(|p| {
                    p.content()
                        .is_some_and(|c| c.contains("games start only in"))
                })
                .count()
                == 3
        })
        .await;
    assert!(!has_post(&refused, LOUNGE, "tournament #"), "none made");
    // Named with the server's channels: stored.
    let r = slash_reply(
        &fake,
        CAROL,
        GAMES,
        "server",
        json!([
            {"name": "channel", "type": 7, "value": GAMES},
            {"name": "channel2", "type": 7, "value": LOUNGE},
        ]),
    )
    .await;
    let said = r.shown();
    assert!(
        said.contains(&format!("Games start in\n<#{GAMES}>, <#{LOUNGE}>")),
        "{said}"
    );
    // `here` in a member's thread (no game's) is its channel, the lounge; a word beside
    // channels picked is refused.
    let talk = "400000000000000097";
    fake.add_thread(talk, LOUNGE);
    let r = slash_reply(
        &fake,
        CAROL,
        talk,
        "server",
        json!([text("channels", "here")]),
    )
    .await;
    let said = r.shown();
    assert!(
        said.contains(&format!("Games start in\n<#{LOUNGE}>")),
        "{said}"
    );
    let both = json!([text("channels", "any"), {"name": "channel", "type": 7, "value": GAMES}]);
    let r = slash_reply(&fake, CAROL, GAMES, "server", both).await;
    assert!(r.shown().contains("given twice"), "{}", r.json);
    fake.say(ALICE, LOUNGE, "!tournament create round-robin standard");
    wait_post(&fake, LOUNGE, "tournament #1 (round robin").await;
    // Discord refused only the look-ups of the channels that are not this server's.
    for r in fake.requests().iter().filter(|r| !r.ok()) {
        assert_eq!(
            (r.method.as_str(), r.path.as_str()),
            ("GET", format!("/channels/{unknown}").as_str()),
            "{}",
            r.response
        );
    }
    bot.stop().await;
}
