//! Every slash command the bot registers, sent at least once with arguments that fit and
//! once with arguments that do not, by players with several games each (a thread game of
//! each family with commands of its own, a solitaire, a tournament), then every button
//! the answers carried pressed: no answer shows typed syntax. The commands are read from
//! the registration the fake recorded, so a new command is covered without a change here.

use crate::fake_discord;

use fake_discord::harness::*;
use fake_discord::{Fake, Recorded};
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

/// What typed commands are made of, from the registries: every name of the referee's
/// commands and the variants', and each command's keywords (`draw accept`, `claim time`:
/// a name with a value of its choices).
pub struct TypedCommands {
    names: BTreeSet<String>,
    keywords: BTreeSet<(String, String)>,
}

impl TypedCommands {
    /// The builtin registry's commands and the referee's.
    pub fn new() -> TypedCommands {
        use postal::service::command::{ArgKind, REFEREE_COMMANDS};
        use postal::variants::api::ArgKind as VariantArg;
        let mut names = BTreeSet::new();
        let mut keywords = BTreeSet::new();
        let mut add = |name: &str, aliases: &[&str], values: Vec<&str>| {
            for n in std::iter::once(name).chain(aliases.iter().copied()) {
                names.insert(n.to_string());
                for v in &values {
                    keywords.insert((n.to_string(), v.to_string()));
                }
            }
        };
        for c in REFEREE_COMMANDS {
            let values = c
                .listed()
                .iter()
                .filter(|a| !a.keyed)
                .flat_map(|a| match a.kind {
                    ArgKind::Choice(cs) => cs.iter().map(|c| c.0).collect::<Vec<&str>>(),
                    _ => Vec::new(),
                })
                .collect();
            add(c.name, c.aliases, values);
        }
        let registry = postal::variants::Registry::builtin();
        for c in registry.all().flat_map(|v| v.commands().iter()) {
            let values = c
                .args
                .iter()
                .flat_map(|a| match a.kind {
                    VariantArg::Choice(cs) => cs.iter().map(|c| c.0).collect::<Vec<&str>>(),
                    _ => Vec::new(),
                })
                .collect();
            add(c.name, c.aliases, values);
        }
        names.retain(|n| n.chars().all(|c| c.is_ascii_alphabetic() || c == '-'));
        TypedCommands { names, keywords }
    }

    /// The command `word` names, as typed (a prefix or a bracket before it dropped), if
    /// it names one written in lower case.
    fn command<'a>(&self, word: &'a str) -> Option<&'a str> {
        let w = word.trim_start_matches(['!', '?', '$', '.', '(', '"', '`']);
        let lower = w.chars().next().is_some_and(|c| c.is_ascii_lowercase());
        (lower && self.names.contains(w)).then_some(w)
    }

    /// Whether `value` is a keyword of the command `name` (`accept` of `draw`; not a
    /// value of one character, which is English as often: `add a piece`).
    fn is_keyword(&self, name: &str, value: &str) -> bool {
        let v = value.trim_end_matches([',', '.', ';', ')', ':', '`']);
        if v.chars().count() < 2 {
            return false;
        }
        self.keywords.contains(&(name.to_string(), v.to_string()))
    }
}

/// `text` without its slash forms: each span in backticks that begins with `/`.
fn without_slash_forms(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 || !part.starts_with('/') {
            out.push_str(part);
        }
        out.push('`');
    }
    out
}

/// Whether `word` is a placeholder of a typed usage (`SQUARE`, `CARD`, `[ID]`), a game id
/// (`12`) or a setting as typed (`reminders:24,1`): what follows a command's name when it
/// is written typed.
fn is_typed_argument(word: &str) -> bool {
    let w = word.trim_end_matches([',', '.', ';', ')', ':', '`']);
    let placeholder = w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase() || c == '.');
    // (A game's number as `#12` names it in words: `tournament #1`, `challenge #7`.)
    let id = !w.is_empty() && w.len() < 10 && w.chars().all(|c| c.is_ascii_digit());
    let setting = w.split_once(':').is_some_and(|(k, v)| {
        !k.is_empty() && !v.is_empty() && k.chars().all(|c| c.is_ascii_lowercase())
    });
    placeholder || w.starts_with('[') || id || setting
}

/// The words before which a command's name is English, not a command (`the draw offer`).
const ARTICLES: &[&str] = &[
    "a", "an", "the", "your", "his", "her", "their", "this", "that",
];

/// The typed syntax in `text` (as Discord shows it), if any, outside slash forms: a usage
/// line, "type help", a command quoted as typed (`` `draw accept` ``, `` `!move e4` ``), a
/// command's name followed by its keyword (`draw accept`), a placeholder, a game id or a
/// setting (`card CARD on SQUARE`, `accept 21`, `tournament join 1`, `draw 12 accept`,
/// `server prefix:?`).
pub fn typed_syntax(text: &str, typed: &TypedCommands) -> Option<String> {
    // A usage is written as its slash command.
    let lower = text.to_lowercase();
    let typed_usage = lower
        .match_indices("usage:")
        .any(|(i, u)| !lower[i + u.len()..].trim_start().starts_with("`/"));
    if typed_usage {
        return Some("usage:".to_string());
    }
    let plain = without_slash_forms(text);
    let lower = plain.to_lowercase();
    for phrase in ["type help", "typed as"] {
        if lower.contains(phrase) {
            return Some(phrase.to_string());
        }
    }
    // A command quoted as typed.
    if let Some(q) = plain.split('`').skip(1).step_by(2).find(|q| {
        q.split_whitespace()
            .next()
            .and_then(|w| typed.command(w))
            .is_some()
    }) {
        return Some(format!("`{q}`"));
    }
    // A command's name, then its keyword (`tournament join`), a placeholder, an id or a
    // setting.
    let tokens: Vec<&str> = plain.split_whitespace().collect();
    for (i, t) in tokens.iter().enumerate() {
        let Some(name) = typed.command(t) else {
            continue;
        };
        if i > 0 && ARTICLES.contains(&tokens[i - 1].to_lowercase().as_str()) {
            continue;
        }
        let next = &tokens[i + 1..];
        if next
            .first()
            .is_some_and(|a| is_typed_argument(a) || typed.is_keyword(name, a))
        {
            return Some(tokens[i..(i + 3).min(tokens.len())].join(" "));
        }
    }
    None
}

/// The texts a request shows its reader: its content, its embeds' words and its buttons'
/// labels.
fn shown_texts(r: &Recorded) -> Vec<String> {
    let mut out: Vec<String> = r.content().map(str::to_string).into_iter().collect();
    for e in r.embeds() {
        for k in ["title", "description"] {
            out.extend(e[k].as_str().map(str::to_string));
        }
        out.extend(e["footer"]["text"].as_str().map(str::to_string));
        for f in e["fields"].as_array().into_iter().flatten() {
            out.extend(["name", "value"].map(|k| f[k].as_str().unwrap_or("").to_string()));
        }
    }
    let body = r.json.get("data").unwrap_or(&r.json);
    for row in body["components"].as_array().into_iter().flatten() {
        for b in row["components"].as_array().into_iter().flatten() {
            out.extend(b["label"].as_str().map(str::to_string));
        }
    }
    out
}

/// Fails on typed syntax in anything the bot sent (messages, answers, followups, edits,
/// embeds and button labels), naming the request and the text.
pub fn assert_no_typed_syntax(fake: &Fake) {
    let typed = TypedCommands::new();
    let mut found: Vec<String> = Vec::new();
    for r in fake.requests() {
        for text in shown_texts(&r) {
            if let Some(t) = typed_syntax(&text, &typed) {
                let line = format!("({t}) in {} {}: {text}", r.method, r.path);
                if !found.iter().any(|f| f.starts_with(&format!("({t})"))) {
                    found.push(line);
                }
            }
        }
    }
    assert!(found.is_empty(), "typed syntax:\n{}", found.join("\n"));
}

/// Waits until the bot has made no request for half a second (up to 20 seconds).
async fn settle(fake: &Fake) {
    let mut seen = fake.requests().len();
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let now = fake.requests().len();
        if now == seen {
            return;
        }
        seen = now;
    }
}

/// A registered command's path as a user picks it (`chess move`, `tournaments`), with its
/// options.
struct Leaf {
    path: String,
    options: Vec<Value>,
}

/// Every command and subcommand the bot registered, by path.
fn leaves(fake: &Fake) -> Vec<Leaf> {
    let registered = fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT" && r.path.ends_with("/commands") && r.ok())
        .expect("a registration");
    let mut out = Vec::new();
    for c in registered.json.as_array().unwrap() {
        let top = c["name"].as_str().unwrap();
        let options = c["options"].as_array().cloned().unwrap_or_default();
        let subs: Vec<&Value> = options.iter().filter(|o| o["type"] == 1).collect();
        if subs.is_empty() {
            out.push(Leaf {
                path: top.to_string(),
                options: options.clone(),
            });
        }
        for s in subs {
            out.push(Leaf {
                path: format!("{top} {}", s["name"].as_str().unwrap()),
                options: s["options"].as_array().cloned().unwrap_or_default(),
            });
        }
    }
    out
}

/// The games of the scenario, by the top-level command whose subcommands act in them:
/// (the game's thread, the player who acts).
type Places = HashMap<&'static str, (String, (&'static str, &'static str))>;

/// A value for option `o` that fits (`fits`) or does not: a choice, an autocompletion's
/// first suggestion, a value of the scenario for a free text, a user, a channel, a role.
async fn value_for(
    fake: &Fake,
    leaf: &Leaf,
    o: &Value,
    place: &(String, (&str, &str)),
    fits: bool,
) -> Option<Value> {
    let name = o["name"].as_str().unwrap_or("");
    let kind = o["type"].as_u64().unwrap_or(3);
    if let Some(first) = o["choices"].as_array().and_then(|c| c.first()) {
        return Some(first["value"].clone());
    }
    if !fits {
        return Some(match kind {
            4 | 10 => json!(999_999),
            5 => json!(true),
            6 => json!(place.1 .0),
            7 | 8 => json!("500000000000000009"),
            _ => json!("zz9 ~~ [bad]"),
        });
    }
    if o["autocomplete"] == true {
        let typing = json!([{"name": name, "type": kind, "value": "", "focused": true}]);
        let a = fake.autocomplete(place.1, &place.0, &leaf.path, typing);
        let r = fake.wait_callback(&a).await;
        let first = r.json["data"]["choices"]
            .as_array()
            .and_then(|c| c.first().cloned());
        return first.map(|c| c["value"].clone());
    }
    let text = |t: &str| Some(json!(t));
    match (kind, name) {
        (4, "id") => Some(json!(1)),
        (4, "days") => Some(json!(3)),
        (4, "rounds") => Some(json!(3)),
        (4, _) | (10, _) => None,
        (5, _) => Some(json!(false)),
        (6, _) => Some(json!(CAROL.0)),
        (7, _) => Some(json!(GAMES)),
        (8, _) => None,
        (_, "square") => text("e2"),
        (_, "squares") => text("f6"),
        (_, "text") => text("a wooden horse"),
        (_, "word" | "word1") => text("horse"),
        (_, "letters") => text("ab"),
        (_, "first") => text("e4"),
        (_, "second") => text("d4"),
        (_, "line") => text("e4 e5 Nf3"),
        (_, "arrangement") => text("RNBQKBNR"),
        (_, "reminders") => text("24,1"),
        (_, "prefix") => text("?"),
        (_, "days") => text("3"),
        (_, "reason") => text("stuck"),
        (_, "card") => text("9h"),
        (_, "move") => text("e4"),
        _ if o["required"] == true => text("e4"),
        _ => None,
    }
}

/// The options of `leaf` sent as a user of `place` would (`fits`), or with values that do
/// not fit: required ones always, optional ones when the scenario has a value for them.
async fn options_for(
    fake: &Fake,
    leaf: &Leaf,
    place: &(String, (&str, &str)),
    fits: bool,
) -> Value {
    let mut out = Vec::new();
    for o in &leaf.options {
        let required = o["required"] == true;
        if !required && fits && o["name"] == "game" {
            // The place decides the game.
            continue;
        }
        if !required && fits && o["choices"].is_null() && o["autocomplete"] != true {
            // Optional free values only where the scenario has one.
            if let Some(v) = value_for(fake, leaf, o, place, true).await {
                out.push(json!({"name": o["name"], "type": o["type"], "value": v}));
            }
            continue;
        }
        if let Some(v) = value_for(fake, leaf, o, place, fits).await {
            out.push(json!({"name": o["name"], "type": o["type"], "value": v}));
        }
    }
    Value::Array(out)
}

/// The commands that end something: sent after every other.
const LAST: &[&str] = &[
    "resign",
    "abort",
    "cancel",
    "forget-me",
    "remove",
    "moderate",
];

/// The scenario's games: a standard game, Booster, Cloak and Dagger (set up), Split-Brain
/// and Secret Chesswords between alice, bob, carol and dave, and dave's Neighbour
/// solitaire, all in threads of the games channel.
async fn scenario(fake: &Fake) -> Places {
    let open = |challenger: (&'static str, &'static str),
                others: Vec<(&'static str, &'static str)>,
                id: i64,
                rest: &'static str| async move {
        let named: Vec<String> = others.iter().map(|o| format!("<@{}>", o.0)).collect();
        fake.say(
            challenger,
            GAMES,
            &format!("!challenge {} {rest}", named.join(" ")),
        );
        wait_post(fake, GAMES, &format!("game #{id}:")).await;
        for o in others {
            fake.say(o, GAMES, &format!("!accept {id}"));
        }
        thread_of_game(fake, id).await
    };
    let standard = open(ALICE, vec![BOB], 1, "colour:white").await;
    both_move(fake, &standard, ALICE, BOB).await;
    let booster = open(
        ALICE,
        vec![BOB],
        2,
        r#"booster colour:white fen:"7k/8/8/8/4K3/8/8/8 w - - 0 1 e4:w2""#,
    )
    .await;
    let cloak = open(ALICE, vec![BOB], 3, "cloak colour:white").await;
    dm(fake, ALICE, "setup 3 RNBQKBNR");
    wait_dm(fake, ALICE, "your back rank").await;
    dm(fake, BOB, "setup 3 NRKRBBQN");
    wait_post(fake, &cloak, "play begins").await;
    let split = open(CAROL, vec![ALICE, BOB, DAVE], 4, "split-brain").await;
    let words = open(ALICE, vec![CAROL], 5, "chesswords colour:white").await;
    fake.say(DAVE, GAMES, "!challenge neighbour");
    let solitaire = thread_of_game(fake, 6).await;
    fake.say(ALICE, &booster, "Kf5");
    wait_post(fake, &booster, "plays Kf5").await;
    let mut places = Places::new();
    places.insert("chess", (standard, ALICE));
    places.insert("booster", (booster, ALICE));
    places.insert("cloak", (cloak, ALICE));
    places.insert("split-brain", (split, ALICE));
    places.insert("chesswords", (words, ALICE));
    places.insert("neighbour", (solitaire, DAVE));
    places
}

/// A button to press: the message showing it, its id, and whether it is in a DM.
struct Shown {
    message: Value,
    id: String,
    dm: bool,
}

/// Every button of the bot's messages and answers so far, each once, with the message
/// that shows it; `channels` gives each interaction's channel.
fn buttons_shown(fake: &Fake, channels: &HashMap<String, String>) -> Vec<Shown> {
    let dms = fake.dm_channels();
    let mut out: Vec<Shown> = Vec::new();
    for r in fake.requests().into_iter().filter(|r| r.ok()) {
        let (body, message) = if r.path.contains("/callback") {
            let id = r.path.split('/').nth(2).unwrap_or("");
            let Some(channel) = channels.get(id) else {
                continue;
            };
            let mut m = bot_message(fake, channel);
            m["flags"] = r.json["data"]["flags"].clone();
            (r.json["data"].clone(), m)
        } else if r.method == "POST" || r.method == "PATCH" {
            (r.json.clone(), r.response.clone())
        } else {
            continue;
        };
        let mut message = message;
        message["components"] = body["components"].clone();
        let channel = message["channel_id"].as_str().unwrap_or("").to_string();
        for id in button_ids(&body) {
            if !out.iter().any(|s| s.id == id) {
                out.push(Shown {
                    message: message.clone(),
                    id,
                    dm: dms.contains_key(&channel),
                });
            }
        }
    }
    out
}

/// The user a button is for (its custom id `cmd:USER:...`), else `anyone`.
fn presser(id: &str, anyone: (&'static str, &'static str)) -> (&'static str, &'static str) {
    let user = id.split(':').nth(1).unwrap_or("");
    [ALICE, BOB, CAROL, DAVE]
        .into_iter()
        .find(|u| u.0 == user)
        .unwrap_or(anyone)
}

/// Every registered command and subcommand, with fitting and unfitting arguments, in its
/// game's thread and in the games channel (where a player of several games is asked which,
/// with buttons), then every button pressed, new ones too: nothing the bot says is typed
/// syntax, every command was answered, and Discord accepted every request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_slash_command_and_button_speaks_slash() {
    let fake = Fake::start(TOKEN).await;
    let bot = start(&fake, &db("every-command"), config(&fake), 1).await;
    let places = scenario(&fake).await;
    let mut all = leaves(&fake);
    all.sort_by_key(|l| LAST.iter().any(|n| l.path.ends_with(n)));
    let general = (GAMES.to_string(), ALICE);
    let mut channels: HashMap<String, String> = HashMap::new();
    let mut answered = 0;
    for leaf in &all {
        let top = leaf.path.split(' ').next().unwrap_or("");
        let place = places.get(top).cloned().unwrap_or_else(|| general.clone());
        let mut sends = vec![
            (place.clone(), true),
            (place.clone(), false),
            (general.clone(), true),
        ];
        sends.dedup_by(|a, b| a.0 .0 == b.0 .0 && a.1 == b.1);
        for (at, fits) in sends {
            let options = options_for(&fake, leaf, &at, fits).await;
            let id = fake.slash(at.1, &at.0, &leaf.path, options);
            channels.insert(id.clone(), at.0.clone());
            let r = fake.wait_callback(&id).await;
            assert!(r.ok(), "/{} was not answered: {}", leaf.path, r.response);
            answered += 1;
        }
    }
    assert!(answered >= 2 * all.len(), "{answered} answers");
    settle(&fake).await;

    // Every button shown, pressed once by the one it is for; then those the presses
    // brought, for two more rounds.
    let mut pressed = BTreeSet::new();
    for _ in 0..3 {
        let fresh: Vec<Shown> = buttons_shown(&fake, &channels)
            .into_iter()
            .filter(|s| !pressed.contains(&s.id))
            .collect();
        for s in fresh {
            pressed.insert(s.id.clone());
            let who = presser(&s.id, BOB);
            let channel = s.message["channel_id"].as_str().unwrap_or("").to_string();
            let id = match s.dm {
                true => fake.press_in_dm(who, &s.message, &s.id),
                false => fake.press(who, &s.message, &s.id),
            };
            channels.insert(id.clone(), channel);
            fake.wait_callback(&id).await;
        }
        settle(&fake).await;
    }
    assert!(pressed.len() >= 10, "buttons pressed: {pressed:?}");
    // The rules' pages too: their brief and their documents quote commands as slash
    // commands.
    assert_no_typed_syntax(&fake);
    all_accepted(&fake);
    bot.stop().await;
}

#[test]
fn the_detector_tells_typed_syntax_from_slash_forms_and_words() {
    let words = TypedCommands::new();
    for typed in [
        "proposes a draw: draw accept or decline",
        "join it with tournament join 1",
        "Anyone: accept 21",
        "you may claim the win with `claim time`",
        "Change them with `settings reminders:24,1`",
        "type help for the list",
        "still to choose: card CARD on SQUARE, or done",
        "usage: move [ID] MOVE",
        "e.g. `pick 2 e1`",
        "answer with draw 12 accept",
    ] {
        assert!(typed_syntax(typed, &words).is_some(), "{typed}");
    }
    for fine in [
        "proposes a draw: `/chess draw answer:accept`",
        "still to choose: `/booster boost squares:SQUARE`",
        "game #12: alice plays Kf5; your move",
        "the board after 3 moves",
        "Your hand (6 cards): 9h, Qs",
        "you may claim the win with `/chess claim kind:time game:4`",
        "usage: `/chess move move:… [game]` (for example: `/chess move move:e4`)",
        "Anyone: `/chess accept game:21`",
        "to add a piece (16 piece cards left)",
        "challenge #7 is your own; tournament #1 (Swiss)",
    ] {
        assert_eq!(typed_syntax(fine, &words), None, "{fine}");
    }
}
