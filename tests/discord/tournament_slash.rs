//! Tournaments by the `/tournament` slash commands, end to end, with users, channels and
//! the server of Discord's id length (18 digits): `/tournament` and `/tournaments` are
//! top-level commands, the actions `/tournament`'s subcommands; `/tournament create`'s
//! variant is suggested from the registry as the format allows; a round robin made,
//! joined and started by slash commands opens its round's games in threads named with the
//! tournament, round and board, and posts `standings.png` after the round; a best-score
//! competition of a solitaire deals each entrant the same deal in a game of their own,
//! played in private messages, and nothing of a deal is shown in the channel.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::Fake;
use serde_json::{json, Value};

/// `/tournament ACTION id:ID` by `who` in the games channel; its response.
pub(crate) async fn action(
    fake: &Fake,
    who: (&str, &str),
    what: &str,
    id: i64,
) -> fake_discord::Recorded {
    let name = format!("tournament {what}");
    slash_reply(
        fake,
        who,
        GAMES,
        &name,
        json!([{"name": "id", "type": 4, "value": id}]),
    )
    .await
}

/// `/tournament create` by Alice in the games channel with `format`, `variant` and one
/// number option; its response.
pub(crate) async fn create(
    fake: &Fake,
    format: &str,
    variant: &str,
    (name, n): (&str, i64),
) -> fake_discord::Recorded {
    let options = json!([
        {"name": "format", "type": 3, "value": format},
        {"name": "variant", "type": 3, "value": variant},
        {"name": name, "type": 4, "value": n}
    ]);
    slash_reply(fake, ALICE, GAMES, "tournament create", options).await
}

/// The values of an autocompletion's choices.
pub(crate) fn choice_values(r: &fake_discord::Recorded) -> Vec<String> {
    assert_eq!(r.json["type"], 8, "an autocompletion result: {}", r.json);
    r.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap().to_string())
        .collect()
}

/// `/tournament create`'s variant as `who` types `typed` with `format` chosen: the values
/// suggested.
async fn suggested(fake: &Fake, format: &str, typed: &str) -> Vec<String> {
    let options = json!([
        {"name": "format", "type": 3, "value": format},
        {"name": "variant", "type": 3, "value": typed, "focused": true}
    ]);
    let a = fake.autocomplete(ALICE, GAMES, "tournament create", options);
    choice_values(&fake.wait_callback(&a).await)
}

/// The response's text.
pub(crate) fn said(r: &fake_discord::Recorded) -> String {
    assert!(r.ok(), "{} {}", r.status, r.response);
    r.shown()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_made_joined_and_started_by_slash_commands() {
    let fake = Fake::start(TOKEN).await;
    let path = db("tournament-slash");
    let bot = start(&fake, &path, config(&fake), 1).await;
    let registration = fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT" && r.path.ends_with("/commands") && r.ok())
        .expect("a registration");
    let top: Vec<&Value> = registration.json.as_array().unwrap().iter().collect();
    let tournament = top.iter().find(|c| c["name"] == "tournament").unwrap();
    let actions: Vec<&str> = tournament["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    for a in [
        "create", "join", "leave", "start", "pause", "cancel", "remove", "show", "pgn",
    ] {
        assert!(actions.contains(&a), "/tournament {a}: {actions:?}");
    }
    assert!(top.iter().any(|c| c["name"] == "tournaments"));
    assert!(
        top.iter()
            .filter(|c| c["name"] == "postal")
            .flat_map(|c| c["options"].as_array().unwrap())
            .all(|o| o["name"] != "tournament"),
        "no second way under /postal"
    );
    // The variant is suggested from the registry: a round robin's from the two-player
    // variants, a competition's from the solitaires.
    let two = suggested(&fake, "round-robin", "").await;
    assert!(two.contains(&"standard".to_string()), "{two:?}");
    assert!(!two.contains(&"parade".to_string()), "{two:?}");
    assert_eq!(suggested(&fake, "round-robin", "stan").await, ["standard"]);
    let one = suggested(&fake, "competition", "").await;
    assert!(
        one.contains(&"parade".to_string()) && !one.contains(&"standard".to_string()),
        "{one:?}"
    );

    let r = create(&fake, "round-robin", "standard", ("days", 3)).await;
    assert!(
        said(&r).contains("tournament #1 (round robin") && said(&r).contains("made by"),
        "{}",
        r.json
    );
    for (n, p) in [ALICE, BOB, CAROL, DAVE].into_iter().enumerate() {
        let r = action(&fake, p, "join", 1).await;
        let players = if n == 0 {
            "1 player".to_string()
        } else {
            format!("{} players", n + 1)
        };
        assert!(
            said(&r).contains(&format!("joined tournament #1 ({players})")),
            "{}",
            r.json
        );
    }
    // Only the creator or a moderator starts it.
    let r = action(&fake, BOB, "start", 1).await;
    assert!(said(&r).contains("only its creator"), "{}", r.json);
    let r = action(&fake, ALICE, "start", 1).await;
    assert!(said(&r).contains("starts: 4 players"), "{}", r.json);
    crate::tournament::round_one_opens_its_threads_and_posts_the_standings(&fake).await;
    let third = thread_of_game(&fake, 3).await;
    assert!(fake.threads()[&third].1.contains("T1 R2 B1"));
    // The standings and the list by slash command.
    let r = action(&fake, CAROL, "show", 1).await;
    assert!(said(&r).contains("round 2 of 3"), "{}", r.json);
    let r = slash_reply(&fake, CAROL, GAMES, "tournaments", json!([])).await;
    assert!(
        said(&r).contains("tournament #1 (round robin"),
        "{}",
        r.json
    );
    all_accepted(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solitaire_competition_deals_its_entrants_in_private() {
    let fake = Fake::start(TOKEN).await;
    let path = db("competition-slash");
    let bot = start(&fake, &path, config(&fake), 1).await;
    let r = create(&fake, "competition", "parade", ("deals", 2)).await;
    assert!(said(&r).contains("tournament #1 (best score"), "{}", r.json);
    for p in [ALICE, BOB, CAROL] {
        let r = action(&fake, p, "join", 1).await;
        assert!(said(&r).contains("joined tournament #1"), "{}", r.json);
    }
    let r = action(&fake, ALICE, "start", 1).await;
    assert!(
        said(&r).contains("starts: 3 players, 2 deals"),
        "{}",
        r.json
    );
    // Each entrant gets deal 1 in a game of their own, in private messages.
    for (p, game) in [(ALICE, 1), (BOB, 2), (CAROL, 3)] {
        let dm = wait_dm(&fake, p, &format!("deal 1 of 2: game #{game}")).await;
        assert!(is_png(&dm), "the deal's board goes with it");
    }
    // The channel hears who was dealt which game (after the start's answer), and sees no
    // board: no thread is opened for a private game.
    fake.wait_for("the channel told who was dealt game 3", |reqs| {
        reqs.iter()
            .any(|r| r.content().is_some_and(|c| c.contains("is dealt game #3")))
    })
    .await;
    assert!(fake.threads().is_empty(), "{:?}", fake.threads());
    // Alice gives up deal 1: she is dealt deal 2 at once, privately.
    dm(&fake, ALICE, "resign 1");
    wait_dm(&fake, ALICE, "deal 2 of 2: game #4").await;
    let reqs = fake.requests();
    let dms = fake.dm_channels();
    for r in reqs
        .iter()
        .filter(|r| r.ok() && !fake_discord::is_private(r, &dms))
    {
        assert!(
            r.files.is_empty(),
            "no board in public: {} {}",
            r.path,
            r.json
        );
    }
    private_stays_private(&reqs, &dms, 4);
    // The deals' secret seeds are nowhere in what was sent.
    let seeds =
        crate::common::sql::strings(&path, "SELECT CAST(seed AS TEXT) FROM competition_deals")
            .await;
    assert_eq!(seeds.len(), 2);
    for s in seeds {
        assert!(
            fake_discord::public_leaks(&reqs, &std::collections::HashMap::new(), &s).is_empty(),
            "a deal's seed was sent"
        );
    }
    all_accepted(&fake);
    bot.stop().await;
}
