//! End-to-end tests of playing on Discord against the fake Discord
//! (`tests/fake_discord`): slash commands and buttons in quick succession, autocompletion,
//! draw offers, takebacks and resignation by button, long lists, the leaderboard, chat in
//! a game's thread, the rematch button, and the record and animation at a game's end.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded, CONTENT_LIMIT};
use postal::discord::Bot;
use postal::service::settings::Settings;
use serde_json::json;
use std::collections::HashMap;

/// A slash command challenge accepted by button; a Chess# game ended by a fast-fifty
/// proposed by slash command and accepted by button; errors are ephemeral.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_and_buttons_fast_fifty() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("fastfifty"), config(&fake), 1).await;
    let put = fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT")
        .unwrap();
    let leaves = fake_discord::leaf_commands(put.json.as_array().unwrap());
    let names: Vec<&str> = leaves.iter().map(|c| c["name"].as_str().unwrap()).collect();
    for n in [
        "challenge",
        "accept",
        "move",
        "fastfifty",
        "draw",
        "resign",
        "private",
    ] {
        assert!(names.contains(&n), "{n} registered");
    }

    let i = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOB.0},
               {"name": "variant", "type": 3, "value": "chess-sharp"},
               {"name": "colour", "type": 3, "value": "white"}]),
    );
    let reqs = fake
        .wait_for("the challenge's response", |r| {
            r.iter()
                .any(|x| x.path.starts_with(&format!("/interactions/{i}/")))
        })
        .await;
    let resp = reqs
        .iter()
        .find(|x| x.path.starts_with(&format!("/interactions/{i}/")))
        .unwrap();
    assert_eq!(resp.json["type"], 4);
    assert_eq!(resp.flags() & 64, 0, "a challenge is public");
    assert!(resp.content().unwrap().contains("challenges"));
    let accept = button(None, "accept 1");
    assert_eq!(button_ids(&resp.json["data"])[0], accept);

    // Alice cannot accept her own challenge: an ephemeral refusal.
    let msg = fake_discord::message(
        &fake.id(),
        GAMES,
        (fake_discord::BOT_ID, "postal"),
        "challenge",
        true,
    );
    let wrong = fake.press(ALICE, &msg, &accept);
    let reqs = fake
        .wait_for("the refusal", |r| r.iter().any(|x| x.path.contains(&wrong)))
        .await;
    let refusal = reqs.iter().find(|x| x.path.contains(&wrong)).unwrap();
    assert_ne!(
        refusal.flags() & 64,
        0,
        "errors are ephemeral: {}",
        refusal.json
    );

    let press = fake.press(BOB, &msg, &accept);
    let thread = the_thread(&fake).await;
    let reqs = fake
        .wait_for("the button's update", |r| {
            r.iter().any(|x| x.path.contains(&press))
        })
        .await;
    let update = reqs.iter().find(|x| x.path.contains(&press)).unwrap();
    assert_eq!(update.json["type"], 7, "the buttons are taken off");
    let start_msg = wait_post(&fake, &thread, "accepted").await;
    assert!(is_png(&start_msg));

    for (who, mv) in [(ALICE, "K@e1"), (BOB, "K@e8"), (ALICE, "e3")] {
        fake.say(who, &thread, mv);
        wait_post(&fake, &thread, &format!("played {mv}")).await;
    }
    let p = fake.slash(
        BOB,
        &thread,
        "fastfifty",
        json!([{"name": "answer", "type": 3, "value": "propose"}]),
    );
    let reqs = fake
        .wait_for("the proposal", |r| {
            r.iter()
                .any(|x| x.path.starts_with(&format!("/interactions/{p}/")))
        })
        .await;
    let proposal = reqs
        .iter()
        .find(|x| x.path.starts_with(&format!("/interactions/{p}/")))
        .unwrap();
    assert!(
        proposal.content().unwrap().contains("fast-fifty"),
        "{}",
        proposal.json
    );
    let ff_accept = button(Some(ALICE), "fastfifty #1 accept");
    assert_eq!(
        button_ids(&proposal.json["data"]),
        [
            ff_accept.clone(),
            button(Some(ALICE), "fastfifty #1 reject")
        ],
        "for the player the proposal is made to"
    );
    let msg = fake_discord::message(
        &fake.id(),
        &thread,
        (fake_discord::BOT_ID, "postal"),
        "proposal",
        true,
    );
    // Bob's press of Alice's answer sends nothing.
    let not_his = fake.press(BOB, &msg, &ff_accept);
    let r = fake.wait_callback(&not_his).await;
    assert_ne!(r.flags() & 64, 0, "{}", r.json);
    assert_says(&r, "for another player");
    fake.press(ALICE, &msg, &ff_accept);
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content().unwrap().contains("agreed impasse"),
        "{}",
        end.json
    );
    assert!(is_png(&end));

    // Help is ephemeral.
    let h = fake.slash(ALICE, GAMES, "help", json!([]));
    let reqs = fake
        .wait_for("help", |r| {
            r.iter()
                .any(|x| x.path.starts_with(&format!("/interactions/{h}/")))
        })
        .await;
    let help = reqs
        .iter()
        .find(|x| x.path.starts_with(&format!("/interactions/{h}/")))
        .unwrap();
    assert_ne!(help.flags() & 64, 0);
    all_accepted(&fake);
    bot.stop().await;
}

/// Typing the `move` option suggests the legal moves of the user's game there, in SAN,
/// filtered by what was typed, at most 25; nothing when it is not their turn. Typing the
/// `game` option suggests the user's games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_suggests_legal_moves_and_games() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("autocomplete"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    let typing = |v: &str| json!([{"name": "move", "type": 3, "value": v, "focused": true}]);

    let a = fake.autocomplete(ALICE, &thread, "move", typing("N"));
    let names = choice_names(&fake.wait_callback(&a).await);
    assert_eq!(names, ["Na3", "Nc3", "Nf3", "Nh3"]);
    let a = fake.autocomplete(ALICE, &thread, "move", typing(""));
    assert_eq!(choice_names(&fake.wait_callback(&a).await).len(), 20);
    let a = fake.autocomplete(BOB, &thread, "move", typing(""));
    assert!(
        choice_names(&fake.wait_callback(&a).await).is_empty(),
        "not Bob's turn"
    );
    // From the channel the challenge was made in, with the game named.
    let a = fake.autocomplete(
        ALICE,
        GAMES,
        "move",
        json!([{"name": "game", "type": 4, "value": 1},
               {"name": "move", "type": 3, "value": "e", "focused": true}]),
    );
    assert_eq!(choice_names(&fake.wait_callback(&a).await), ["e3", "e4"]);

    for (who, mv) in [(ALICE, "e4"), (BOB, "e5")] {
        fake.say(who, &thread, mv);
        wait_post(&fake, &thread, &format!("played {mv}")).await;
    }
    // White has 29 moves now: Discord's 25 at most.
    let a = fake.autocomplete(ALICE, &thread, "move", typing(""));
    let names = choice_names(&fake.wait_callback(&a).await);
    assert_eq!(names.len(), 25);
    assert!(names.iter().all(|n| n.chars().count() <= 100));
    let a = fake.autocomplete(ALICE, &thread, "move", typing("Q"));
    assert_eq!(
        choice_names(&fake.wait_callback(&a).await),
        ["Qe2", "Qf3", "Qg4", "Qh5"]
    );

    // The game option: Bob's games, as "#id variant vs opponent".
    let a = fake.autocomplete(
        BOB,
        &thread,
        "board",
        json!([{"name": "game", "type": 4, "value": "", "focused": true}]),
    );
    let r = fake.wait_callback(&a).await;
    assert_eq!(r.json["type"], 8);
    let choices = r.json["data"]["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 1, "{}", r.json);
    assert_eq!(choices[0]["value"], 1);
    assert_eq!(
        choices[0]["name"], "#1 Standard chess vs alice",
        "{}",
        r.json
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// A draw offered by slash command is declined, then accepted, by button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_declined_and_accepted_by_button() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("draw"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    let offer = json!([{"name": "answer", "type": 3, "value": "offer"}]);

    let o = fake.slash(ALICE, &thread, "draw", offer.clone());
    let r = fake.wait_callback(&o).await;
    assert_eq!(r.flags() & 64, 0, "an offer is public: {}", r.json);
    assert_says(&r, "proposes a draw");
    let (yes, no) = (
        button(Some(BOB), "draw #1 accept"),
        button(Some(BOB), "draw #1 decline"),
    );
    assert_eq!(button_ids(&r.json["data"]), [yes.clone(), no.clone()]);

    // Alice cannot accept her own offer: the buttons are Bob's.
    let mine = fake.press(ALICE, &bot_message(&fake, &thread), &yes);
    let r = fake.wait_callback(&mine).await;
    assert_ne!(r.flags() & 64, 0, "a refusal is private: {}", r.json);
    assert_says(&r, "for another player");
    // Nor by typing it.
    fake.say(ALICE, &thread, "!draw accept");
    wait_post(&fake, &thread, "you cannot answer your own draw proposal").await;

    let no = fake.press(BOB, &bot_message(&fake, &thread), &no);
    let r = fake.wait_callback(&no).await;
    assert_eq!(r.json["type"], 7, "the buttons are taken off: {}", r.json);
    wait_post(&fake, &thread, "declined the draw").await;

    let o = fake.slash(ALICE, &thread, "draw", offer);
    fake.wait_callback(&o).await;
    let yes = fake.press(BOB, &bot_message(&fake, &thread), &yes);
    assert_eq!(fake.wait_callback(&yes).await.json["type"], 7);
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content()
            .unwrap()
            .contains("drawn by agreement (1/2-1/2)"),
        "{}",
        end.json
    );

    // A challenge declined by button.
    fake.say(ALICE, GAMES, &format!("!challenge <@{}>", BOB.0));
    wait_post(&fake, GAMES, "game #2:").await;
    let no = fake.press(BOB, &bot_message(&fake, GAMES), &button(None, "decline 2"));
    assert_eq!(fake.wait_callback(&no).await.json["type"], 7);
    wait_post(&fake, GAMES, "the challenge is declined by").await;
    all_accepted(&fake);
    bot.stop().await;
}

/// A takeback proposed by slash command in a game made with `takebacks:on`, accepted with
/// the button that is the opponent's alone; an answer with none pending is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback_proposed_by_slash_and_accepted_by_button() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("takeback"), config(&fake), 1).await;
    let thread = start_game(&fake, "takebacks:on").await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "played e4").await;
    let o = fake.slash(ALICE, &thread, "takeback", json!([]));
    let r = fake.wait_callback(&o).await;
    assert_eq!(r.flags() & 64, 0, "a proposal is public: {}", r.json);
    assert_says(&r, "proposes taking back their last move");
    let yes = button(Some(BOB), "takeback #1 accept");
    let no = button(Some(BOB), "takeback #1 decline");
    assert_eq!(button_ids(&r.json["data"]), [yes.clone(), no]);
    let mine = fake.press(ALICE, &bot_message(&fake, &thread), &yes);
    assert_says(&fake.wait_callback(&mine).await, "for another player");
    let press = fake.press(BOB, &bot_message(&fake, &thread), &yes);
    assert_eq!(fake.wait_callback(&press).await.json["type"], 7);
    wait_post(&fake, &thread, "accepts the takeback proposed by").await;
    let answer = json!([{"name": "answer", "type": 3, "value": "decline"}]);
    let a = fake.slash(BOB, &thread, "takeback", answer);
    assert_says(&fake.wait_callback(&a).await, "no takeback proposal");
    all_accepted(&fake);
    bot.stop().await;
}

/// `/resign` asks for confirmation with a button only the resigning player may press.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resignation_is_confirmed_by_button_by_the_same_player() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("resign"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    both_move(&fake, &thread, ALICE, BOB).await;

    let r = fake.slash(ALICE, &thread, "resign", json!([]));
    let ask = fake.wait_callback(&r).await;
    assert_ne!(ask.flags() & 64, 0, "the question is private: {}", ask.json);
    assert!(ask.content().unwrap().contains("do you really resign"));
    let confirm = button_ids(&ask.json["data"]);
    assert_eq!(confirm, [format!("resign:1:{}", ALICE.0)]);
    let confirm = &confirm[0];
    let mut question = bot_message(&fake, &thread);
    question["flags"] = json!(64);
    question["components"] = ask.json["data"]["components"].clone();

    // Bob presses Alice's confirmation: refused, nothing happens.
    let other = fake.press(BOB, &question, confirm);
    let r = fake.wait_callback(&other).await;
    assert_ne!(r.flags() & 64, 0);
    assert_says(&r, "only the player who asked");
    fake.say(BOB, &thread, "!moves");
    wait_post(&fake, &thread, "1. e4 e5").await;
    assert!(!has_post(&fake.requests(), &thread, "game over"));

    let own = fake.press(ALICE, &question, confirm);
    let r = fake.wait_callback(&own).await;
    // The private question is updated: its button disabled, so it cannot resign twice.
    assert_buttons_disabled(&r);
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content().unwrap().contains("wins by resignation (0-1)"),
        "{}",
        end.json
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// A list longer than a message's 2,000 characters comes as one embed within Discord's
/// embed limits (fields of at most 1,024 characters, continued), nothing of it lost; as a
/// slash command, private. (A list longer than one embed holds is cut with the count of
/// the rest: `discord::lists`'s unit tests.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_lists_are_split_under_the_limit() {
    let fake = Fake::start(TOKEN).await;
    logs();
    // 45 challenges waiting at once: above the default cap, which this server raises.
    let settings = Settings {
        max_open_challenges: 50,
        ..settings(&db("long"))
    };
    let bot = Bot::start(settings, config(&fake), TOKEN)
        .await
        .expect("bot starts");
    ready(&fake, 1).await;
    let n = 45;
    for i in 1..=n {
        fake.say(ALICE, GAMES, &format!("!challenge <@{}>", BOB.0));
        wait_post(&fake, GAMES, &format!("game #{i}:")).await;
    }
    let g = fake.slash(ALICE, GAMES, "games", json!([]));
    let answer = fake.wait_callback(&g).await;
    assert_ne!(answer.flags() & 64, 0, "private: {}", answer.json);
    let embeds = answer.embeds();
    assert_eq!(embeds.len(), 1, "{}", answer.json);
    let fields = embeds[0]["fields"].as_array().unwrap();
    assert!(fields.len() >= 2, "continued over several fields");
    for f in fields {
        assert!(f["value"].as_str().unwrap().chars().count() <= 1024);
    }
    let all = answer.shown();
    assert!(all.chars().count() > CONTENT_LIMIT);
    for i in 1..=n {
        assert!(
            all.contains(&format!("**#{i}** Standard chess")),
            "#{i} is listed"
        );
    }
    all_accepted(&fake);
    bot.stop().await;
}

/// `/leaderboard` answers privately with the server's ratings from its finished rated
/// games, each player by mention (which Discord shows as their display name, without a
/// ping in a private answer), and `/rating` with one player's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaderboard_and_rating_by_slash_command() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("leaderboard"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    both_move(&fake, &thread, ALICE, BOB).await;
    fake.say(BOB, &thread, "!resign");
    wait_post(&fake, &thread, "game over").await;
    let variant = json!([{"name": "variant", "type": 3, "value": "standard"}]);
    let r = private_answer(&fake, BOB, GAMES, "leaderboard", variant, "leaderboard").await;
    assert_says(
        &r,
        &format!("`1.` `1662 ±290` <@{}> · 1 game (1 won", ALICE.0),
    );
    assert_says(
        &r,
        &format!("`2.` `1338 ±290` <@{}> · 1 game (0 won", BOB.0),
    );
    let user = json!([{"name": "user", "type": 6, "value": ALICE.0}]);
    let r = private_answer(&fake, BOB, GAMES, "rating", user, "rating").await;
    assert_says(
        &r,
        "Standard chess: 1662 ±290, 1 game (1 won, 0 drawn, 0 lost)",
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// The users a recorded message may notify (its `allowed_mentions`), and that it lets
/// Discord parse nothing itself (no `@everyone`, roles or users found in the text).
fn notified(r: &Recorded) -> Vec<String> {
    let body = if r.json.get("data").is_some() {
        &r.json["data"]
    } else {
        &r.json
    };
    let am = &body["allowed_mentions"];
    assert!(
        am.is_object(),
        "every message says whom it notifies: {}",
        r.json
    );
    assert_eq!(am["parse"], json!([]), "nothing parsed from the text: {am}");
    assert_eq!(am["roles"], json!([]), "{am}");
    am["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap().to_string())
        .collect()
}

/// Chat in a game's thread gets no answer, from a player or an onlooker; a move, a move
/// out of turn and a command do. The move's message notifies the player to move and
/// nobody else; a public `!games` shows the opponent and notifies nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_in_a_thread_is_left_alone_and_only_the_player_called_on_is_notified() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("quiet"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    let start_msg = wait_post(&fake, &thread, "accepted").await;
    assert_eq!(
        notified(&start_msg),
        [ALICE.0],
        "White is called on to move"
    );

    for chat in [
        "gg",
        "wow",
        "nice one",
        "ok",
        "thanks",
        "GG WP",
        "lol",
        "e4 was better",
    ] {
        fake.say(ALICE, &thread, chat);
        fake.say(BOB, &thread, chat);
        fake.say(CAROL, &thread, chat);
    }
    // An onlooker's move-like text is chat too: the game is not theirs; and so is an
    // onlooker's bare `resign` or `abort` (issue 54).
    fake.say(CAROL, &thread, "e4");
    fake.say(CAROL, &thread, "resign");
    fake.say(CAROL, &thread, "abort");
    // A move out of turn is answered (with the reason), and so is a command.
    fake.say(BOB, &thread, "e5");
    wait_post(&fake, &thread, "not your turn").await;
    fake.say(ALICE, &thread, "e4");
    let moved = wait_post(&fake, &thread, "played e4").await;
    assert_eq!(
        notified(&moved),
        [BOB.0],
        "only Black, to move, is notified"
    );
    fake.say(CAROL, &thread, "board 1");
    wait_post(&fake, &thread, "game #1: Black to move").await;
    let reqs = fake.requests();
    let in_thread: Vec<&str> = posts(&reqs, &thread)
        .iter()
        .filter_map(|r| r.content())
        .collect();
    assert_eq!(
        in_thread.len(),
        4,
        "start, not your turn, e4, board: {in_thread:#?}"
    );

    // A public list of games shows the opponent by mention, and notifies nobody.
    fake.say(ALICE, GAMES, "!games");
    let list = wait_post(&fake, GAMES, "**#1** Standard chess vs").await;
    assert!(list.shown().contains(&format!("<@{}>", BOB.0)));
    assert!(notified(&list).is_empty(), "{}", list.json);
    all_accepted(&fake);
    bot.stop().await;
}

/// The message that ends a game of two carries a Rematch button: Bob presses it, which
/// challenges Alice, where the game's own challenge was made (issue 54), to the same game
/// with colours swapped, and Alice accepts; the rematch is played in a thread of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematch_button_challenges_with_colours_swapped() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("rematch"), config(&fake), 1).await;
    let thread = start_game(&fake, "days:4").await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "played e4").await;
    // Both sides have moved: a resignation now ends the game with a result.
    fake.say(BOB, &thread, "e5");
    wait_post(&fake, &thread, "played e5").await;
    fake.say(BOB, &thread, "!resign");
    let end = wait_post(&fake, &thread, "game over").await;
    let rematch = button(None, "rematch #1");
    assert!(
        button_ids(&end.json).contains(&rematch),
        "the last message offers a rematch: {}",
        end.json
    );
    let press = fake.press(BOB, &bot_message(&fake, &thread), &rematch);
    fake.wait_callback(&press).await;
    let challenge = wait_post(&fake, GAMES, "game #2:").await;
    let text = challenge.content().unwrap();
    assert!(
        text.contains(&format!(
            "challenges <@{}> to Standard chess (4 days per move)",
            ALICE.0
        )) && text.contains("plays White"),
        "{text}"
    );
    fake.say(ALICE, GAMES, "!accept 2");
    // The rematch is played in a thread of its own, which the games channel points to.
    let fresh = thread_of_game(&fake, 2).await;
    wait_post(&fake, GAMES, &format!("played in <#{fresh}>")).await;
    wait_post(&fake, &fresh, &format!("game #2: <@{}> accepted", ALICE.0)).await;
    all_accepted(&fake);
    bot.stop().await;
}

/// Reads a PGN as a reader does: its tag pairs, and its movetext replayed with
/// `shakmaty` from the standard position; returns the tags and the final position.
fn read_pgn(pgn: &str) -> (HashMap<String, String>, shakmaty::Chess) {
    use shakmaty::{san::San, Position};
    let mut tags = HashMap::new();
    let mut pos = shakmaty::Chess::default();
    for line in pgn.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, value) = tag.split_once(' ').expect("a tag pair");
            let value = value
                .trim()
                .strip_prefix('"')
                .unwrap()
                .strip_suffix('"')
                .unwrap();
            tags.insert(name.to_string(), value.to_string());
            continue;
        }
        for token in line.split_whitespace() {
            if token.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                continue;
            }
            let token = token.rsplit('.').next().unwrap();
            let san: San = token.parse().unwrap_or_else(|_| panic!("SAN {token}"));
            let m = san
                .to_move(&pos)
                .unwrap_or_else(|_| panic!("legal {token}"));
            pos = pos.play(&m).unwrap();
        }
    }
    (tags, pos)
}

/// The end of a game posts its record as a `.pgn` file and its animation as a GIF in
/// its thread; `/pgn` answers with the record as a `.pgn` file, which a reader parses,
/// with the players by display name and their ids in tags of their own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_a_game_and_pgn_attach_the_record_and_the_animation() {
    use shakmaty::Position;
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("records"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    for (who, mv) in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4"), (BOB, "Qh4#")] {
        fake.say(who, &thread, mv);
        wait_post(
            &fake,
            &thread,
            &format!("played {}", mv.trim_end_matches('#')),
        )
        .await;
    }
    let end = wait_post(&fake, &thread, "checkmate").await;
    let names: Vec<&str> = end.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["board.png", "game-1.pgn", "game-1.gif"],
        "{names:?}"
    );
    assert!(end.files[2].bytes.starts_with(b"GIF89a"));
    let (tags, pos) = read_pgn(&String::from_utf8(end.files[1].bytes.clone()).unwrap());
    assert!(pos.is_checkmate());
    assert_eq!(tags["Result"], "0-1");

    let id = fake.slash(ALICE, &thread, "pgn", json!([]));
    let r = fake.wait_callback(&id).await;
    assert_eq!(r.files.len(), 1, "{}", r.json);
    assert_eq!(r.files[0].name, "game-1.pgn");
    assert_eq!(r.content(), Some(""), "the record is the file, not text");
    let (tags, pos) = read_pgn(&String::from_utf8(r.files[0].bytes.clone()).unwrap());
    assert!(pos.is_checkmate());
    assert_eq!(tags["White"], "alice");
    assert_eq!(tags["Black"], "bob");
    assert_eq!(tags["WhiteUserId"], ALICE.0);
    assert_eq!(tags["BlackUserId"], BOB.0);
    all_accepted(&fake);
    bot.stop().await;
}
