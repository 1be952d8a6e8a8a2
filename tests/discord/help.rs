//! Help and rules in Discord, end to end against the fake: `/postal rules VARIANT` pages
//! through the variant's whole rules document in embeds within Discord's limits (the fake
//! refuses any embed over them), written for players on every page, its commands (in
//! brief and in the document) as slash commands, `/postal rules` lists every variant, and `/postal help`
//! for a command several variants share shows the reader's variants, each labelled, with
//! examples as slash commands.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded};
use postal::variants::Registry;
use serde_json::{json, Value};

/// The ids of the buttons of a callback's message.
fn buttons(r: &Recorded) -> Vec<String> {
    button_ids(&r.json["data"])
}

/// The message an interaction's response made, as a press needs it: a bot message in
/// the channel with the response's flags, embeds and buttons.
fn shown(fake: &Fake, r: &Recorded) -> Value {
    let mut m = bot_message(fake, GAMES);
    m["flags"] = json!(r.flags());
    m["embeds"] = json!(r.embeds());
    m["components"] = r.json["data"]["components"].clone();
    m
}

/// The descriptions of a callback's embeds, joined.
fn descriptions(r: &Recorded) -> String {
    r.embeds()
        .iter()
        .filter_map(|e| e["description"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The typed syntax of each line of `page` (a rules page as Discord shows it), named.
fn typed_lines(page: &str, typed: &crate::every_command::TypedCommands) -> Vec<String> {
    page.lines()
        .filter_map(|l| {
            crate::every_command::typed_syntax(l, typed).map(|t| format!("typed ({t}): {l:?}"))
        })
        .collect()
}

/// The field names of a callback's embeds.
fn field_names(r: &Recorded) -> Vec<String> {
    r.embeds()
        .iter()
        .flat_map(|e| e["fields"].as_array().cloned().unwrap_or_default())
        .filter_map(|f| f["name"].as_str().map(str::to_string))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_page_through_every_variants_whole_document_within_discords_limits() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("rules-pages"), config(&fake), 1).await;
    let registry = Registry::builtin();
    let typed = crate::every_command::TypedCommands::new();
    // Every variant's problems, shown at once.
    let mut every: Vec<String> = Vec::new();
    for v in registry.all() {
        let variant = json!([{"name": "variant", "type": 3, "value": v.id()}]);
        let mut r = slash_reply(&fake, ALICE, GAMES, "rules", variant).await;
        assert!(r.ok(), "{}: {}", v.id(), r.response);
        assert_eq!(r.json["type"], 4);
        let first = &r.embeds()[0];
        assert!(
            first["title"].as_str().unwrap().contains(v.display_name()),
            "{first}"
        );
        let mut text = descriptions(&r);
        let mut problems = crate::common::rules_text::problems(&text);
        // The first page's brief and the whole document speak slash.
        problems.extend(typed_lines(&text, &typed));
        let mut pages = 1;
        loop {
            let next = format!("rules:{}:{pages}", v.id());
            if !buttons(&r).contains(&next) {
                break;
            }
            let msg = shown(&fake, &r);
            let press = fake.press(BOB, &msg, &next);
            r = fake.wait_callback(&press).await;
            assert!(r.ok(), "{} page {pages}: {}", v.id(), r.response);
            // The page turns in place: the message is updated, nothing else is sent.
            assert_eq!(r.json["type"], 7, "{}", r.json);
            // Written for players: no path, no relative link, no raw table, no line
            // broken by hand, no developer's word.
            let page = descriptions(&r);
            problems.extend(
                crate::common::rules_text::problems(&page)
                    .into_iter()
                    .chain(typed_lines(&page, &typed))
                    .map(|p| format!("page {}: {p}", pages + 1)),
            );
            text.push('\n');
            text.push_str(&page);
            pages += 1;
            assert!(pages < 40, "{}: the pages never end", v.id());
        }
        assert!(pages >= 2, "{}: the document has pages", v.id());
        every.extend(problems.iter().map(|p| format!("{}: {p}", v.id())));
        // Every paragraph whole, or, one longer than a page, every line of it (its
        // commands as slash commands).
        let card = postal::service::referee::RulesCard::of(v, None);
        let document = postal::discord::text::slash_commands(&registry, &card.document);
        for paragraph in postal::discord::text::for_discord(&document).split("\n\n") {
            let p = paragraph.trim_end();
            assert!(
                text.contains(p) || p.lines().all(|l| text.contains(l.trim())),
                "{}: {p:?} is on no page",
                v.id()
            );
        }
        assert!(
            text.to_lowercase().contains("decision"),
            "{}: the project's decisions are shown",
            v.id()
        );
        assert!(!text.contains("Ask the operator"), "{}", v.id());
    }
    assert!(every.is_empty(), "{}", every.join("\n"));
    // The list: every variant, a line each.
    let r = slash_reply(&fake, ALICE, GAMES, "rules", json!([])).await;
    let names = field_names(&r);
    assert_eq!(names.len(), registry.all().count(), "{names:?}");
    for v in registry.all() {
        assert!(names.iter().any(|n| n.contains(v.id())), "{}", v.id());
    }
    all_accepted(&fake);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_for_a_shared_command_shows_the_readers_variants_labelled() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("help-shared"), config(&fake), 1).await;
    // Alice plays two solitaires (each starts at once); Bob plays nothing.
    for v in ["parade", "neighbour"] {
        let r = slash_reply(
            &fake,
            ALICE,
            GAMES,
            "challenge",
            json!([{"name": "variant", "type": 3, "value": v}]),
        )
        .await;
        assert!(r.ok(), "{}", r.response);
    }
    fake.wait_for("both games started", |reqs| {
        reqs.iter()
            .filter(|r| r.method == "POST" && r.path.contains("/threads"))
            .count()
            >= 2
    })
    .await;
    let add = json!([{"name": "command", "type": 3, "value": "add"}]);
    let r = slash_reply(&fake, ALICE, GAMES, "help", add.clone()).await;
    assert!(r.ok(), "{}", r.response);
    let names = field_names(&r);
    assert!(
        names.contains(&"Parade Chess Solitaire".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"Neighbour Chess Solitaire".to_string()),
        "{names:?}"
    );
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("Gravity") || n.starts_with("Booster")),
        "only the variants Alice plays: {names:?}"
    );
    let all = r.json.to_string();
    assert!(all.contains("/chess add"), "slash forms: {all}");
    assert!(
        all.contains("/postal help command:add variant:VARIANT"),
        "{all}"
    );
    // Bob plays nothing: every variant's add, each labelled.
    let r = slash_reply(&fake, BOB, GAMES, "help", add).await;
    let names = field_names(&r);
    for label in ["Gravity Chess", "Parade", "Neighbour", "Booster Chess"] {
        assert!(
            names.iter().any(|n| n.starts_with(label)),
            "{label}: {names:?}"
        );
    }
    // And one asked for by name.
    let r = slash_reply(
        &fake,
        BOB,
        GAMES,
        "help",
        json!([{"name": "command", "type": 3, "value": "add"},
               {"name": "variant", "type": 3, "value": "gravity"}]),
    )
    .await;
    let names = field_names(&r);
    assert_eq!(names[0], "Gravity Chess", "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with("Parade")), "{names:?}");
    // The list: slash paths, no typed forms.
    let r = slash_reply(&fake, BOB, GAMES, "help", json!([])).await;
    let all = r.json.to_string();
    assert!(
        all.contains("/chess challenge") && all.contains("/postal settings"),
        "{all}"
    );
    assert!(
        !all.contains("help all") && !all.contains("(/help"),
        "{all}"
    );
    all_accepted(&fake);
    bot.stop().await;
}

/// A variant option is no list Discord would cut at 25 choices: the registry's variants
/// are suggested as the user types, for a challenge, the rules and a leaderboard alike, and
/// the one picked is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_variant_is_suggested_from_the_registry_as_it_is_typed() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("variant-suggested"), config(&fake), 1).await;
    let typing =
        |typed: &str| json!([{"name": "variant", "type": 3, "value": typed, "focused": true}]);
    let a = fake.autocomplete(ALICE, GAMES, "challenge", typing("chess"));
    assert_eq!(
        crate::tournament_slash::choice_values(&fake.wait_callback(&a).await),
        ["chess-sharp", "chess960", "chesswords"]
    );
    let a = fake.autocomplete(ALICE, GAMES, "challenge", typing(""));
    let all = crate::tournament_slash::choice_values(&fake.wait_callback(&a).await);
    assert_eq!(
        all.len(),
        Registry::builtin().all().count().min(25),
        "{all:?}"
    );
    let a = fake.autocomplete(ALICE, GAMES, "rules", typing("Par"));
    assert_eq!(
        crate::tournament_slash::choice_values(&fake.wait_callback(&a).await),
        ["parade"]
    );
    let a = fake.autocomplete(ALICE, GAMES, "leaderboard", typing("ne"));
    assert_eq!(
        crate::tournament_slash::choice_values(&fake.wait_callback(&a).await),
        ["neighbour"]
    );
    let r = slash_reply(
        &fake,
        ALICE,
        GAMES,
        "challenge",
        json!([{"name": "opponent", "type": 6, "value": BOB.0},
               {"name": "variant", "type": 3, "value": "chess960"}]),
    )
    .await;
    let text = r.content().unwrap_or_default().to_string();
    assert!(
        text.contains("challenges") && text.contains("to Chess960"),
        "{}",
        r.json
    );
    bot.stop().await;
}
