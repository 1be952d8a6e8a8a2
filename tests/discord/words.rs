//! Slash-first words and buttons with a lifecycle: what the bot says on Discord names its
//! commands as slash commands (never the typed form), an answer that is an action comes
//! with its button (an open challenge's Accept and Cancel, a draw offer's answers, a claim
//! on time, a tournament's Join), and a button whose moment has passed is taken off its
//! message: when its game moves on, and when pressed late, the presser told what happened.

use crate::common;
use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded};
use serde_json::{json, Value};

/// Every text the bot sent (messages, interaction answers, followups and edits) is free
/// of typed syntax; at least one quotes a slash command.
fn no_typed_syntax(fake: &Fake) {
    crate::every_command::assert_no_typed_syntax(fake);
    let slash = fake
        .requests()
        .iter()
        .filter(|r| r.content().is_some_and(|t| t.contains("`/")))
        .count();
    assert!(slash > 0, "no slash command quoted anywhere");
}

/// The followup (or edit) whose content contains `needle`.
async fn followup(fake: &Fake, needle: &str) -> Recorded {
    let found = |x: &Recorded| {
        x.path.starts_with("/webhooks/") && x.content().is_some_and(|c| c.contains(needle))
    };
    let reqs = fake
        .wait_for(&format!("a followup saying {needle}"), |r| {
            r.iter().any(found)
        })
        .await;
    reqs.into_iter().find(found).unwrap()
}

/// The bot's message in `channel` as it shows the buttons of `body` (a message or an
/// interaction response's data), for a user to press.
fn shown(fake: &Fake, channel: &str, body: &Value) -> Value {
    let mut m = bot_message(fake, channel);
    m["components"] = body["components"].clone();
    m
}

/// The styles of the buttons of a message body, in order.
fn styles(body: &Value) -> Vec<u64> {
    body["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|b| b["style"].as_u64())
        .collect()
}

/// An open challenge has Accept, for anyone but its author (whose press points to
/// Cancel), and Cancel, for its author alone; once cancelled, a late Accept takes the
/// buttons off and says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_challenge_has_accept_for_others_and_cancel_for_its_author() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("words-open"), config(&fake), 1).await;
    let options = json!([{"name": "colour", "type": 3, "value": "white"}]);
    let r = slash_reply(&fake, ALICE, GAMES, "challenge", options).await;
    assert_eq!(r.flags() & 64, 0, "a challenge is public: {}", r.json);
    assert_says(&r, "`/chess accept game:1`");
    let (accept, cancel) = (button(None, "accept 1"), button(Some(ALICE), "cancel 1"));
    assert_eq!(
        button_ids(&r.json["data"]),
        [accept.clone(), cancel.clone()]
    );

    let posted = shown(&fake, GAMES, &r.json["data"]);
    // Her own Accept: she cannot, and is pointed to Cancel.
    let own = fake.press(ALICE, &posted, &accept);
    let r = fake.wait_callback(&own).await;
    assert_ne!(r.flags() & 64, 0, "{}", r.json);
    assert_says(&r, "your own");
    assert_says(&r, "`/chess cancel game:1`");
    // Bob cannot cancel it.
    let other = fake.press(BOB, &posted, &cancel);
    assert_says(&fake.wait_callback(&other).await, "for another player");
    // Alice cancels it: the buttons are taken off.
    let mine = fake.press(ALICE, &posted, &cancel);
    assert_buttons_disabled(&fake.wait_callback(&mine).await);
    // A late Accept on a copy of the message still showing it: taken off, and why.
    let late = fake.press(CAROL, &posted, &accept);
    assert_buttons_disabled(&fake.wait_callback(&late).await);
    let why = followup(&fake, "moment has passed").await;
    assert_ne!(why.flags() & 64, 0, "{}", why.json);
    assert!(why.content().unwrap().contains("not a pending challenge"));
    no_typed_syntax(&fake);
    all_accepted(&fake);
    bot.stop().await;
}

/// A draw offer's answers are buttons; answered by typing, a late press of them takes
/// them off and says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offers_buttons_lapse_once_it_is_answered() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("words-draw"), config(&fake), 1).await;
    let thread = start_game(&fake, "").await;
    fake.say(ALICE, &thread, "!e4");
    wait_post(&fake, &thread, "e4").await;
    fake.say(BOB, &thread, "!e5");
    wait_post(&fake, &thread, "e5").await;
    let offer = json!([{"name": "answer", "type": 3, "value": "offer"}]);
    let r = slash_reply(&fake, ALICE, &thread, "draw", offer).await;
    assert_says(&r, "`/chess draw answer:accept`");
    let yes = button(Some(BOB), "draw #1 accept");
    assert!(button_ids(&r.json["data"]).contains(&yes), "{}", r.json);
    fake.say(BOB, &thread, "!draw decline");
    wait_post(&fake, &thread, "declined the draw").await;
    let late = fake.press(BOB, &shown(&fake, &thread, &r.json["data"]), &yes);
    assert_buttons_disabled(&fake.wait_callback(&late).await);
    followup(&fake, "moment has passed").await;

    no_typed_syntax(&fake);
    all_accepted(&fake);
    bot.stop().await;
}

/// A new tournament has a Join button that stays for everyone; settings and help speak
/// slash; forget-me's confirmation is red and answers on the message pressed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_stays_for_everyone_and_a_destructive_confirmation_is_red() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("words-join"), config(&fake), 1).await;
    let r = crate::tournament_slash::create(&fake, "swiss", "standard", ("rounds", 3)).await;
    assert_says(&r, "`/tournament join id:1`");
    let join = "cmd:*:tournament join 1";
    assert_eq!(button_ids(&r.json["data"]), [join]);
    for who in [BOB, CAROL] {
        let p = fake.press(who, &bot_message(&fake, GAMES), join);
        let r = fake.wait_callback(&p).await;
        assert_eq!(r.json["type"], 4, "the Join button stays: {}", r.json);
        assert_says(&r, "joined tournament #1");
    }
    let settings = slash_reply(&fake, DAVE, GAMES, "settings", json!([])).await;
    assert_says(&settings, "`/postal settings reminders:24,1`");
    let bad = json!([{"name": "reminders", "type": 3, "value": "soon"}]);
    let refused = slash_reply(&fake, DAVE, GAMES, "settings", bad).await;
    assert_says(&refused, "for example: `/postal settings");

    let ask = private_answer(&fake, DAVE, GAMES, "forget-me", json!([]), "the question").await;
    assert_eq!(styles(&ask.json["data"]), [4], "red: {}", ask.json);
    let mut question = bot_message(&fake, GAMES);
    question["flags"] = json!(64);
    question["components"] = ask.json["data"]["components"].clone();
    let confirm = button(Some(DAVE), "forget-me confirm");
    let p = fake.press(DAVE, &question, &confirm);
    let r = fake.wait_callback(&p).await;
    assert_eq!(r.json["type"], 7, "{}", r.json);
    assert!(r.content().unwrap().contains("delete"), "{}", r.json);
    assert_eq!(r.json["data"]["components"], json!([]));
    no_typed_syntax(&fake);
    all_accepted(&fake);
    bot.stop().await;
}

/// Whether the bot edited message `id` in `channel` to take its buttons off.
fn buttons_taken_off(reqs: &[Recorded], channel: &str, id: &str) -> bool {
    let path = format!("/channels/{channel}/messages/{id}");
    reqs.iter().any(|r| {
        r.method == "PATCH" && r.path == path && r.ok() && r.json["components"] == json!([])
    })
}

/// Waits until the bot's message `posted` in `channel` has lost its buttons, then `who`
/// presses its `button` on a copy still showing it: refused as late, and told why.
async fn taken_off_then_late(
    fake: &Fake,
    channel: &str,
    posted: &Recorded,
    (who, button): ((&str, &str), &str),
) {
    let id = posted.response["id"].as_str().unwrap().to_string();
    fake.wait_for("the buttons taken off", |r| {
        buttons_taken_off(r, channel, &id)
    })
    .await;
    let late = fake.press(who, &shown(fake, channel, &posted.json), button);
    assert_buttons_disabled(&fake.wait_callback(&late).await);
    followup(fake, "moment has passed").await;
}

/// Booster's Done stays on its message only while its turn lasts: once the turn passes (the
/// turn ended by a typed `done`), its message is edited to take it off, and a late press of
/// a copy still showing it says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boosters_done_is_taken_off_once_its_turn_has_passed() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("words-done"), config(&fake), 1).await;
    let thread = start_game(&fake, r#"booster fen:"7k/8/8/8/4K3/8/8/8 w - - 0 1 e4:w2""#).await;
    fake.say(ALICE, &thread, "Kf5");
    let moved = wait_post(&fake, &thread, "plays Kf5").await;
    let done = button(Some(ALICE), "done #1");
    assert_eq!(
        button_ids(&moved.json),
        std::slice::from_ref(&done),
        "{}",
        moved.json
    );
    let id = moved.response["id"].as_str().unwrap().to_string();
    assert!(!buttons_taken_off(&fake.requests(), &thread, &id));
    fake.say(ALICE, &thread, "!done");
    wait_post(&fake, &thread, "ends the turn").await;
    taken_off_then_late(&fake, &thread, &moved, (ALICE, &done)).await;
    no_typed_syntax(&fake);
    all_accepted(&fake);
    bot.stop().await;
}

/// Booster's Done is taken off its message after a restart too: which messages hold
/// lapsing buttons is stored, so when the turn passes under the restarted bot, the message
/// posted before the restart is edited, and a late press of it says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lapsing_button_is_taken_off_after_a_restart() {
    let fake = Fake::start(TOKEN).await;
    let path = db("words-restart");
    let bot = start(&fake, &path, config(&fake), 1).await;
    let thread = start_game(&fake, r#"booster fen:"7k/8/8/8/4K3/8/8/8 w - - 0 1 e4:w2""#).await;
    fake.say(ALICE, &thread, "Kf5");
    let moved = wait_post(&fake, &thread, "plays Kf5").await;
    let done = button(Some(ALICE), "done #1");
    assert_eq!(button_ids(&moved.json), std::slice::from_ref(&done));
    bot.stop().await;
    let bot = start(&fake, &path, config(&fake), 2).await;
    fake.say(ALICE, &thread, "!done");
    wait_post(&fake, &thread, "ends the turn").await;
    taken_off_then_late(&fake, &thread, &moved, (ALICE, &done)).await;
    all_accepted(&fake);
    bot.stop().await;
}

/// Moves the deadlines of the database `path` a month back: the player to move has run
/// out of time at the next deadline check.
async fn a_month_passes(path: &str) {
    common::sql::execute(
        path,
        "UPDATE deadlines SET due_at = due_at - $1",
        &[30 * 86_400],
    )
    .await;
}

/// Alice challenges Bob to Chess# (game `id`, by text in the games channel) and each
/// places their king; returns the game's thread, Alice to move.
async fn kings_placed(fake: &Fake, id: i64) -> String {
    let challenge = format!("!challenge <@{}> colour:white chess-sharp", BOB.0);
    fake.say(ALICE, GAMES, &challenge);
    wait_post(fake, GAMES, &format!("game #{id}")).await;
    fake.say(BOB, GAMES, &format!("!accept {id}"));
    let thread = thread_of_game(fake, id).await;
    wait_post(fake, &thread, "accepted").await;
    for (who, king, said) in [(ALICE, "K@e1", "K@e1"), (BOB, "k@e8", "K@e8")] {
        fake.say(who, &thread, king);
        wait_post(fake, &thread, &format!("played {said}")).await;
    }
    thread
}

/// In Chess#, where a win on time is claimed, the notice that a player's time has run out
/// carries the Claim button for the opponent, stored with it: pressing it wins on time and
/// takes it off. In a second game the late player resigns after the notice: its Claim is
/// taken off the notice, and a late press says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claim_on_time_is_the_notices_button_until_the_game_ends() {
    let fake = Fake::start(TOKEN).await;
    let path = db("words-claim");
    let cfg = postal::discord::Config {
        tick_seconds: 1,
        ..config(&fake)
    };
    let bot = start(&fake, &path, cfg, 1).await;
    let thread = kings_placed(&fake, 1).await;
    a_month_passes(&path).await;
    let notice = wait_post(&fake, &thread, "time has run out").await;
    let claim = button(Some(BOB), "claim 1 time");
    assert_eq!(
        button_ids(&notice.json),
        std::slice::from_ref(&claim),
        "{}",
        notice.json
    );
    assert!(notice
        .content()
        .unwrap()
        .contains("`/chess claim kind:time game:1`"));
    let p = fake.press(BOB, &shown(&fake, &thread, &notice.json), &claim);
    assert_buttons_disabled(&fake.wait_callback(&p).await);
    wait_post(&fake, &thread, "wins on time").await;

    // Game #2: Alice is late again, then resigns rather than wait for Bob's claim.
    let second = kings_placed(&fake, 2).await;
    a_month_passes(&path).await;
    let notice = wait_post(&fake, &second, "time has run out").await;
    let claim = button(Some(BOB), "claim 2 time");
    assert_eq!(
        button_ids(&notice.json),
        std::slice::from_ref(&claim),
        "{}",
        notice.json
    );
    fake.say(ALICE, &second, "!resign");
    wait_post(&fake, &second, "game over").await;
    taken_off_then_late(&fake, &second, &notice, (BOB, &claim)).await;
    no_typed_syntax(&fake);
    all_accepted(&fake);
    bot.stop().await;
}
