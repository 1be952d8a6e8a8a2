//! A server's own settings and moderators on Discord: `/postal-admin server` changed by a member
//! with Manage Server (as the interaction's `member.permissions` says) and refused to
//! others, its prefix and typed-commands switch honoured by the adapter while slash
//! commands keep working, and a moderator (by the role the settings name) adjudicating a
//! stuck game, logged in its thread and recorded in its PGN, a non-moderator refused.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, MANAGE_GUILD, MEMBER_PERMISSIONS};
use serde_json::json;

/// The role the tests' server names for its moderators.
const REFEREES: &str = "500000000000000001";

/// The first column of every row `sql` selects from the database at `path`, as text.
async fn strings(path: &str, sql: &str) -> Vec<String> {
    use sqlx::Connection;
    let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .unwrap();
    let rows: Vec<String> = sqlx::query_scalar(sql).fetch_all(&mut c).await.unwrap();
    let _ = c.close().await;
    rows
}

/// A string option of a slash command.
fn text(name: &str, value: &str) -> serde_json::Value {
    json!({"name": name, "type": 3, "value": value})
}

/// The content of interaction answer `r`.
fn said(r: &fake_discord::Recorded) -> String {
    r.shown()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_prefix_and_typed_commands_switch_are_honoured_and_slash_commands_stay() {
    let fake = Fake::start(TOKEN).await;
    let path = db("server-prefix");
    let bot = start(&fake, &path, config(&fake), 1).await;
    fake.set_member(CAROL.0, MEMBER_PERMISSIONS | MANAGE_GUILD, &[]);
    // The administrative commands are a top-level command Discord shows only to members
    // with Manage Server (bit 32); no player's command carries a permission.
    let registered = fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT" && r.path.ends_with("/commands") && r.ok())
        .expect("a registration");
    for c in registered.json.as_array().unwrap() {
        let subs: Vec<&str> = c["options"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|o| o["name"].as_str())
            .collect();
        if c["name"] == "postal-admin" {
            assert_eq!(c["default_member_permissions"], "32", "{c}");
            assert_eq!(subs, ["server", "moderate"]);
        } else {
            assert!(c["default_member_permissions"].is_null(), "{c}");
            assert!(
                !subs.contains(&"server") && !subs.contains(&"moderate"),
                "{c}"
            );
        }
    }

    // Without Manage Server: refused, nothing changed.
    let r = slash_reply(&fake, ALICE, GAMES, "server", json!([text("prefix", "?")])).await;
    assert!(said(&r).contains("Manage Server"), "{}", r.json);
    assert!(strings(&path, "SELECT prefix FROM server_settings")
        .await
        .is_empty());
    // A bad prefix: refused with why, without repeating it.
    let r = slash_reply(
        &fake,
        CAROL,
        GAMES,
        "server",
        json!([text("prefix", "abcdef")]),
    )
    .await;
    assert!(said(&r).contains("1 to 5 characters"), "{}", r.json);
    assert!(!said(&r).contains("abcdef"), "{}", r.json);

    // Carol has it: the prefix is now `?`.
    let r = slash_reply(&fake, CAROL, GAMES, "server", json!([text("prefix", "?")])).await;
    assert!(said(&r).contains("prefix `?`"), "{}", r.json);

    // `!challenge` is another bot's now; `?challenge` is ours.
    let ignored = fake.say(ALICE, GAMES, &format!("!challenge <@{}>", BOB.0));
    fake.say(ALICE, GAMES, &format!("?challenge <@{}>", BOB.0));
    wait_post(&fake, GAMES, "challenges").await;
    // A later answer to a `?` command: the `!` one was long read by then.
    let before = posts(&fake.requests(), GAMES).len();
    fake.say(ALICE, GAMES, "?games");
    fake.wait_for("the answer to ?games", |r| posts(r, GAMES).len() > before)
        .await;
    assert_eq!(strings(&path, "SELECT variant FROM games").await.len(), 1);
    let reqs = fake.requests();
    assert!(
        !reqs.iter().any(|r| r.json.to_string().contains(&ignored)),
        "the bot answered the `!` command"
    );

    // Typed commands off: `?accept` is not read, the slash command is.
    let r = slash_reply(&fake, CAROL, GAMES, "server", json!([text("text", "off")])).await;
    assert!(
        said(&r).contains("Typed commands\nNot read, only slash commands"),
        "{}",
        r.json
    );
    let show = slash_reply(&fake, BOB, GAMES, "server", json!([])).await;
    assert!(said(&show).contains("only slash commands"), "{}", show.json);
    fake.say(BOB, GAMES, "?accept");
    slash_reply(&fake, BOB, GAMES, "accept", json!([])).await;
    the_thread(&fake).await;
    assert_eq!(
        strings(&path, "SELECT status FROM games").await,
        ["active"],
        "accepted once, by the slash command"
    );
    // Stored: a new process reads the same settings.
    bot.stop().await;
    let bot = start(&fake, &path, config(&fake), 2).await;
    let show = slash_reply(&fake, ALICE, GAMES, "server", json!([])).await;
    assert!(
        said(&show).contains("prefix, when on: `?`"),
        "{}",
        show.json
    );
    // Discord kept the permission as registered: the restart registered nothing again.
    let registrations = fake
        .requests()
        .iter()
        .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .count();
    assert_eq!(registrations, 1);
    all_accepted(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moderator_adjudicates_a_stuck_game_and_a_non_moderator_is_refused() {
    let fake = Fake::start(TOKEN).await;
    let path = db("server-moderator");
    let bot = start(&fake, &path, config(&fake), 1).await;
    fake.set_member(CAROL.0, MEMBER_PERMISSIONS | MANAGE_GUILD, &[]);
    fake.set_member(DAVE.0, MEMBER_PERMISSIONS, &[REFEREES]);
    let thread = start_game(&fake, "").await;
    fake.say(ALICE, &thread, "e4");
    wait_post(&fake, &thread, "e4").await;

    // Dave's role is not the moderators' yet, and Bob has none: both refused.
    let adjudicate = json!([
        {"name": "game", "type": 4, "value": 1},
        text("action", "adjudicate"),
        text("result", "white"),
        text("reason", "Black has left the server"),
    ]);
    for who in [BOB, DAVE] {
        let r = slash_reply(&fake, who, GAMES, "moderate", adjudicate.clone()).await;
        assert!(
            said(&r).contains("only this server's moderators"),
            "{}",
            r.json
        );
    }
    assert_eq!(strings(&path, "SELECT status FROM games").await, ["active"]);

    // Carol (Manage Server) names the role; Dave, who holds it, adjudicates by text.
    let r = slash_reply(
        &fake,
        CAROL,
        GAMES,
        "server",
        json!([{"name": "moderators", "type": 8, "value": REFEREES}]),
    )
    .await;
    assert!(said(&r).contains(&format!("<@&{REFEREES}>")), "{}", r.json);
    fake.say(
        DAVE,
        GAMES,
        "!moderate 1 adjudicate result:white Black has left the server",
    );
    // The thread is told who did it and why, and gets the record with the result.
    wait_post(&fake, &thread, "adjudicated the game").await;
    let record = wait_file(&fake, &thread, "[Termination \"adjudication\"]").await;
    let pgn = record
        .files
        .iter()
        .map(|f| String::from_utf8_lossy(&f.bytes).to_string())
        .find(|t| t.contains("[Result"))
        .unwrap();
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(
        pgn.contains("{Adjudicated by a moderator: Black has left the server} 1-0"),
        "{pgn}"
    );
    assert_eq!(
        strings(&path, "SELECT status || ' ' || result FROM games").await,
        ["finished 1-0"]
    );
    // In the game's log, with the moderator as its author: it survives a restart.
    assert_eq!(
        strings(
            &path,
            "SELECT author FROM action_authors ORDER BY seq DESC LIMIT 1"
        )
        .await,
        [DAVE.0]
    );
    // Once over, a second adjudication is refused.
    let r = slash_reply(&fake, CAROL, GAMES, "moderate", adjudicate).await;
    assert!(said(&r).contains("only a game under way"), "{}", r.json);
    // A role picked and the switch that says none at once: refused; the switch alone
    // clears the role.
    let both = json!([
        {"name": "moderators", "type": 8, "value": REFEREES},
        {"name": "no-moderators", "type": 5, "value": true},
    ]);
    let r = slash_reply(&fake, CAROL, GAMES, "server", both).await;
    assert!(said(&r).contains("given twice"), "{}", r.json);
    let none = json!([{"name": "no-moderators", "type": 5, "value": true}]);
    let r = slash_reply(&fake, CAROL, GAMES, "server", none).await;
    assert!(
        said(&r).contains("Moderators\nMembers with Manage Server") && !said(&r).contains(REFEREES),
        "{}",
        r.json
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// A prefix is punctuation (issue 54): `/postal-admin server prefix:N` is refused with the
/// reason; a letter prefix stored before the rule is replaced by the operator's, said
/// once in the server, and the moves it used to swallow are moves again: a bare `Nf3`
/// in the thread is Nf3, not f3.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_letter_prefix_is_refused_and_a_stored_one_falls_back_said_once() {
    let fake = Fake::start(TOKEN).await;
    let path = db("server-prefix-letter");
    let bot = start(&fake, &path, config(&fake), 1).await;
    fake.set_member(CAROL.0, MEMBER_PERMISSIONS | MANAGE_GUILD, &[]);
    for letter in ["N", "e", "a"] {
        let r = slash_reply(
            &fake,
            CAROL,
            GAMES,
            "server",
            json!([text("prefix", letter)]),
        )
        .await;
        assert!(said(&r).contains("could begin a move"), "{}", r.json);
    }
    assert!(strings(&path, "SELECT prefix FROM server_settings")
        .await
        .is_empty());
    let r = slash_reply(&fake, CAROL, GAMES, "server", json!([text("prefix", "?")])).await;
    assert!(said(&r).contains("prefix `?`"), "{}", r.json);
    let thread = {
        fake.say(
            ALICE,
            GAMES,
            &format!("?challenge <@{}> colour:white", BOB.0),
        );
        wait_post(&fake, GAMES, "challenges").await;
        fake.say(BOB, GAMES, "?accept");
        let thread = the_thread(&fake).await;
        wait_post(&fake, &thread, "accepted").await;
        thread
    };
    // An older release stored `N`.
    {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
            .await
            .unwrap();
        sqlx::query("UPDATE server_settings SET prefix = 'N'")
            .execute(&mut c)
            .await
            .unwrap();
        let _ = c.close().await;
    }
    fake.say(ALICE, &thread, "Nf3");
    wait_post(&fake, &thread, "played Nf3").await;
    let notice = "this server's prefix is refused now";
    wait_post(&fake, &thread, notice).await;
    fake.say(BOB, &thread, "Nc6");
    wait_post(&fake, &thread, "played Nc6").await;
    let told = posts(&fake.requests(), &thread)
        .iter()
        .filter(|r| r.content().is_some_and(|c| c.contains(notice)))
        .count();
    assert_eq!(told, 1, "said once");
    assert_eq!(
        strings(&path, "SELECT prefix FROM server_settings").await,
        [""]
    );
    all_accepted(&fake);
    bot.stop().await;
}
