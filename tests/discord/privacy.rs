//! End-to-end tests of what stays private on Discord, against the fake Discord
//! (`tests/fake_discord`): closed DMs falling back to the private command, the fake's own
//! secret scanner, and Split Brain's picks kept secret until the reveal.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{public_leaks, Fake, Recorded};
use postal::discord::Config;
use serde_json::{json, Value};
use std::time::Duration;

/// Moves every deadline of the database at `path` `seconds` earlier, as if that much time
/// had passed.
async fn pass_time(path: &str, seconds: i64) {
    use sqlx::Connection;
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .unwrap();
    sqlx::query("UPDATE deadlines SET due_at = due_at - $1")
        .bind(seconds)
        .execute(&mut c)
        .await
        .unwrap();
    let _ = c.close().await;
}

/// How many private messages are held for `user` in the database at `path`.
async fn held_count(path: &str, user: &str) -> i64 {
    use sqlx::Connection;
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .unwrap();
    let n: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM held_messages WHERE user_id = ?")
        .bind(user)
        .fetch_one(&mut c)
        .await
        .unwrap();
    let _ = c.close().await;
    n.0
}

/// A user whose DMs are closed (50007) still plays: the bot says so in the game's thread
/// without the content, keeps the messages for `/private`, and does not try her DMs
/// again until she interacts. No private text reaches a public place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_dms_fall_back_to_private_command() {
    let fake = Fake::start(TOKEN).await;
    fake.close_dms(ALICE.0);
    let cfg = Config {
        tick_seconds: 1,
        ..config(&fake)
    };
    let path = db("dms");
    let bot = start(&fake, &path, cfg, 1).await;
    // Two games, two days per move; once both are under way, a day passes (their
    // deadlines moved back in the database) and each game's 24-hour reminder to Alice is
    // due at once.
    const OTHER: &str = "400000000000000002";
    for channel in [GAMES, OTHER] {
        fake.say(
            ALICE,
            channel,
            &format!("!challenge <@{}> colour:white days:2", BOB.0),
        );
        wait_post(&fake, channel, "challenges").await;
    }
    for channel in [GAMES, OTHER] {
        fake.say(BOB, channel, "!accept");
        wait_post(&fake, channel, "played in <#").await;
    }
    let threads = fake.threads();
    assert_eq!(threads.len(), 2);
    pass_time(&path, 25 * 3600).await;

    // Both reminders are held; her DMs were tried once, and she is told once, in the
    // thread of the game whose reminder came first.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while held_count(&path, ALICE.0).await < 2 {
        assert!(std::time::Instant::now() < deadline, "two reminders held");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let reqs = fake.requests();
    let refused: Vec<&Recorded> = reqs.iter().filter(|r| r.status == 403).collect();
    assert_eq!(refused.len(), 1, "one try, then no retry: {refused:?}");
    let first = refused[0].content().unwrap().to_string();
    assert!(first.contains("reminder"), "{first}");
    let notes: Vec<&Recorded> = reqs
        .iter()
        .filter(|r| {
            r.content()
                .is_some_and(|c| c.contains("could not send you a private message"))
        })
        .collect();
    assert_eq!(notes.len(), 1);
    let note_channel = notes[0]
        .path
        .trim_start_matches("/channels/")
        .trim_end_matches("/messages");
    assert!(
        threads.contains_key(note_channel),
        "the note is in a game's thread"
    );
    assert!(notes[0]
        .content()
        .unwrap()
        .contains(&format!("<@{}>", ALICE.0)));
    // A deadline message comes from the outbox, with a nonce Discord enforces.
    let nonce = refused[0].json["nonce"].as_str().unwrap_or_default();
    assert!(nonce.starts_with("postal-"), "{:?}", refused[0].json);
    assert_eq!(refused[0].json["enforce_nonce"], true);

    // Alice still plays, and fetches both reminders privately.
    let (thread, _) = threads
        .iter()
        .find(|(_, (parent, _))| parent == GAMES)
        .unwrap();
    fake.say(ALICE, thread, "e4");
    wait_post(&fake, thread, "played e4").await;
    let p = fake.slash(ALICE, thread, "private", json!([]));
    let private = fake.wait_callback(&p).await;
    assert_ne!(private.flags() & 64, 0, "ephemeral");
    assert_eq!(private.content().unwrap(), first);
    let reqs = fake
        .wait_for("the second reminder", |r| {
            r.iter().any(|x| x.path.starts_with("/webhooks/"))
        })
        .await;
    let second = reqs
        .iter()
        .find(|x| x.path.starts_with("/webhooks/"))
        .unwrap();
    assert_ne!(second.flags() & 64, 0, "ephemeral");
    let second = second.content().unwrap().to_string();
    assert!(second.contains("reminder") && second != first, "{second}");
    assert_eq!(held_count(&path, ALICE.0).await, 0, "delivered once");

    // Having interacted, her DMs are tried again at the next private message.
    let dm = fake.id();
    let m = fake_discord::message(&fake.id(), &dm, ALICE, "games", false);
    fake.dispatch("MESSAGE_CREATE", m);
    fake.wait_for("a second try", |r| {
        r.iter().filter(|x| x.status == 403).count() == 2
    })
    .await;

    for secret in [&first, &second] {
        let leaks = public_leaks(&fake.requests(), &fake.dm_channels(), secret);
        assert!(leaks.is_empty(), "private text in public: {leaks:?}");
    }
    bot.stop().await;
}

/// The secret scanner finds a secret in any public request and none in private ones.
#[test]
fn the_secret_scanner_sees_public_secrets_only() {
    let secret = "SECRET-WORD-zebra";
    let rec = |path: &str, body: Value| Recorded {
        method: "POST".into(),
        path: path.into(),
        json: body,
        files: Vec::new(),
        status: 200,
        response: Value::Null,
        at: std::time::Instant::now(),
    };
    let dms = [("500".to_string(), ALICE.0.to_string())]
        .into_iter()
        .collect();
    let private = vec![
        rec("/channels/500/messages", json!({"content": secret})),
        rec(
            "/interactions/1/t/callback",
            json!({"type": 4, "data": {"content": secret, "flags": 64}}),
        ),
        rec("/webhooks/1/t", json!({"content": secret, "flags": 64})),
    ];
    assert!(public_leaks(&private, &dms, secret).is_empty());
    let public = vec![
        rec(
            "/channels/10/messages",
            json!({"content": format!("psst {secret}")}),
        ),
        rec(
            "/interactions/1/t/callback",
            json!({"type": 4, "data": {"content": secret}}),
        ),
        rec(
            "/webhooks/1/t",
            json!({"embeds": [{"description": secret}]}),
        ),
        rec("/channels/10/threads", json!({"name": secret})),
    ];
    assert_eq!(public_leaks(&public, &dms, secret).len(), 4);
    let mut with_file = rec("/channels/10/messages", json!({"content": "board"}));
    with_file.files.push(fake_discord::File {
        field: "files[0]".into(),
        name: "board.png".into(),
        bytes: secret.as_bytes().to_vec(),
    });
    assert_eq!(public_leaks(&[with_file], &dms, secret).len(), 1);
}

/// A whole Split-Brain game on Discord: four users, a text challenge with three mentions,
/// four acceptances, a thread; picks by DM and by the ephemeral `/pick`, refused picks,
/// a pick typed in public, reveals in the thread, the opposing chooser's decision by
/// button (refused for anyone else, and by `/decide` for the wrong player), and a mate.
/// Every request of the game is then scanned: no pick appears in public before its
/// reveal, the public board does not change with a pick, and no private message or
/// private board (DMs and ephemeral answers) ever appears in public.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn split_brain_on_discord_keeps_every_pick_secret_until_the_reveal() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("split"), config(&fake), 1).await;
    fake.say(
        ALICE,
        GAMES,
        &format!(
            "!challenge <@{}> <@{}> <@{}> split-brain",
            BOB.0, CAROL.0, DAVE.0
        ),
    );
    let c = wait_post(&fake, GAMES, "challenges").await;
    let accept = button(None, "accept 1");
    assert_eq!(
        button_ids(&c.json),
        [accept.clone(), button(None, "decline 1")]
    );
    for who in [BOB, CAROL] {
        fake.say(who, GAMES, "!accept");
        wait_post(&fake, GAMES, &format!("<@{}> accepted", who.0)).await;
    }
    assert!(
        fake.threads().is_empty(),
        "no thread before all four accept"
    );
    let press = fake.press(DAVE, &bot_message(&fake, GAMES), &accept);
    assert_eq!(fake.wait_callback(&press).await.json["type"], 7);
    let thread = the_thread(&fake).await;
    let name = &fake.threads()[&thread].1;
    assert_eq!(name, "game #1 split-brain: alice & bob vs carol & dave");
    let start = wait_post(&fake, &thread, "accepted").await;
    assert!(is_png(&start));
    // The partners of the team to move are prompted privately, with their own board.
    for who in [ALICE, BOB] {
        let p = wait_dm(&fake, who, "your turn").await;
        assert!(is_png(&p), "a private board comes with the prompt");
    }

    // Round 1, White: alice chooses by DM, bob moves by the ephemeral /pick in the thread.
    let board_before = public_board(&fake, &thread, DAVE).await;
    let mut secrets: Vec<(&str, std::time::Instant)> = Vec::new();
    secrets.push(("e1", std::time::Instant::now()));
    dm(&fake, ALICE, "pick e1");
    wait_dm(&fake, ALICE, "you picked the knight on e1").await;
    assert_eq!(
        public_board(&fake, &thread, DAVE).await,
        board_before,
        "a pick does not change the public board"
    );
    // A pick typed in public is refused privately, and not repeated in the thread.
    let posted = posts(&fake.requests(), &thread).len();
    fake.say(BOB, &thread, "!pick d3");
    wait_dm(&fake, BOB, "is secret: send it to me").await;
    // Refused: a square no piece reaches, answered privately.
    let r = private_answer(
        &fake,
        BOB,
        &thread,
        "pick",
        json!([{"name": "square", "type": 3, "value": "c4"}]),
        "a refused pick is private",
    )
    .await;
    assert_says(&r, "can move to c4");
    let done = private_answer(
        &fake,
        BOB,
        &thread,
        "pick",
        json!([{"name": "square", "type": 3, "value": "f3"}]),
        "/pick is answered privately",
    )
    .await;
    // The turn went public: the private answer says where, not a bare word.
    assert_says(&done, &format!("Done: posted in <#{thread}>."));
    let reveal = wait_post(&fake, &thread, "revealed").await;
    let text = reveal.content().unwrap();
    assert!(
        text.contains("picked the knight on e1")
            && text.contains("target f3")
            && text.contains("played Nf3"),
        "{text}"
    );
    assert_eq!(
        posts(&fake.requests(), &thread).len(),
        posted + 1,
        "only the reveal was posted in the thread"
    );

    // Round 1, Black: dave moves, carol's first pick is refused; the pair is not a move.
    for who in [CAROL, DAVE] {
        wait_dm(&fake, who, "your turn").await;
    }
    secrets.push(("c4", std::time::Instant::now()));
    dm(&fake, DAVE, "pick c4");
    wait_dm(&fake, DAVE, "you picked the target c4").await;
    dm(&fake, CAROL, "pick a6");
    wait_dm(&fake, CAROL, "has no legal move").await;
    dm(&fake, CAROL, "pick e6");
    let ask = wait_post(&fake, &thread, "to decide: ").await;
    // Her pick, sent by DM, is answered in her DM with a link to the thread (issue 54).
    let ack = wait_dm(&fake, CAROL, "`/split-brain pick square:e6` done").await;
    assert!(
        ack.content().unwrap().contains(&format!(
            "https://discord.com/channels/{}/{thread}",
            fake_discord::GUILD_ID
        )),
        "{}",
        ack.json
    );
    // The buttons come from the referee's prompt of the opposing chooser, for her alone.
    let piece = button(Some(ALICE), "decide #1 piece");
    assert_eq!(
        button_ids(&ask.json),
        [piece.clone(), button(Some(ALICE), "decide #1 target")]
    );
    // Only the opposing chooser decides: bob's press and bob's /decide change nothing.
    let other = fake.press(BOB, &bot_message(&fake, &thread), &piece);
    let r = fake.wait_callback(&other).await;
    assert_ne!(r.flags() & 64, 0);
    assert_says(&r, "for another player");
    let r = private_answer(
        &fake,
        BOB,
        &thread,
        "decide",
        json!([{"name": "stands", "type": 3, "value": "target"}]),
        "a refused decision is private",
    )
    .await;
    assert_says(&r, "White's chooser");
    private_answer(
        &fake,
        CAROL,
        &thread,
        "choose",
        json!([{"name": "square", "type": 3, "value": "c4"}]),
        "nothing to choose: private",
    )
    .await;
    let yes = fake.press(ALICE, &bot_message(&fake, &thread), &piece);
    assert_eq!(
        fake.wait_callback(&yes).await.json["type"],
        7,
        "the buttons are taken off"
    );
    wait_post(&fake, &thread, "the piece stands").await;
    wait_post(&fake, &thread, "played Nd4").await;

    // Round 2 (queen-side partners choose) and round 3, to mate.
    for (user, square, ack) in [
        (ALICE, "d4", None),
        (BOB, "f3", Some("played Nxd4")),
        (DAVE, "f6", None),
        (CAROL, "e6", Some("played Re6")),
        (BOB, "f5", None),
        (ALICE, "d4", Some("checkmate")),
    ] {
        match ack {
            None => {
                secrets.push((square, std::time::Instant::now()));
                if user == ALICE {
                    let p = fake.slash(
                        ALICE,
                        &thread,
                        "pick",
                        json!([{"name": "square", "type": 3, "value": square}]),
                    );
                    let r = fake.wait_callback(&p).await;
                    assert_ne!(r.flags() & 64, 0, "{}", r.json);
                    assert_says(&r, "you picked");
                } else {
                    dm(&fake, user, &format!("pick {square}"));
                    wait_dm(&fake, user, "you picked").await;
                }
            }
            Some(needle) => {
                dm(&fake, user, &format!("pick {square}"));
                wait_post(&fake, &thread, needle).await;
            }
        }
    }
    let end = wait_post(&fake, &thread, "game over").await;
    assert!(
        end.content()
            .unwrap()
            .contains("(White) win by checkmate (1-0)"),
        "{}",
        end.json
    );

    // The scan, over every request of the game.
    let reqs = fake.requests();
    let dms = fake.dm_channels();
    for (square, from) in &secrets {
        let reveal = reqs
            .iter()
            .find(|r| {
                r.at >= *from
                    && r.path == format!("/channels/{thread}/messages")
                    && r.content().is_some_and(|c| c.contains("revealed"))
            })
            .expect("each pick is revealed");
        assert!(reveal.content().unwrap().contains(square));
        for r in public_between(&reqs, &dms, *from, reveal.at) {
            assert!(
                !r.json.to_string().contains(square),
                "the pick {square} is public before its reveal: {} {}",
                r.path,
                r.json
            );
        }
    }
    private_stays_private(&reqs, &dms, 20);
    all_accepted(&fake);
    bot.stop().await;
}

/// `/challenge` with three opponents, the split-brain choice and `teams:random` makes the
/// same challenge as the text command; a fourth player named twice is refused privately.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_challenge_names_three_opponents_for_split_brain() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("split-slash"), config(&fake), 1).await;
    let cmds = registered_commands(&fake);
    let variants = variants_suggested(&fake, "").await;
    assert!(
        variants.contains("\"split-brain\"") && variants.contains("\"double-move\""),
        "{variants}"
    );
    for name in ["pick", "decide", "choose"] {
        assert!(
            cmds.iter().any(|c| c["name"] == name),
            "/{name} is registered"
        );
    }

    let r = private_answer(
        &fake,
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOB.0},
               {"name": "opponent2", "type": 6, "value": BOB.0},
               {"name": "opponent3", "type": 6, "value": CAROL.0},
               {"name": "variant", "type": 3, "value": "split-brain"}]),
        "a refusal is private",
    )
    .await;
    assert_says(&r, "name each player once");

    let c = fake.slash(
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOB.0},
               {"name": "opponent2", "type": 6, "value": CAROL.0},
               {"name": "opponent3", "type": 6, "value": DAVE.0},
               {"name": "variant", "type": 3, "value": "split-brain"},
               {"name": "teams", "type": 3, "value": "random"}]),
    );
    let r = fake.wait_callback(&c).await;
    assert_eq!(r.flags() & 64, 0, "a challenge is public: {}", r.json);
    let text = r.content().unwrap();
    assert!(
        text.starts_with("game #1:") && text.contains("Split-Brain Chess"),
        "{text}"
    );
    for who in [BOB, CAROL, DAVE] {
        assert!(text.contains(&format!("<@{}>", who.0)), "{text}");
    }
    all_accepted(&fake);
    bot.stop().await;
}
