//! The solitaires as wholes. A property test plays each one through its `GameRules`
//! (reading typed commands as a player would type them), every other action at random
//! and the others the action that joins the pieces most, so that both wins and losses
//! are reached: every attempt ends,
//! a refused command changes nothing, a won attempt's score is the recount of the cards
//! its actions spent, the action log replays from the stored start to the same state, and
//! no output anyone sees (projections, prompts, notes, the image's cards) shows a card
//! before it is turned. Through the service: the bot deals from the operating system's
//! entropy, and a live game's export shows no card of its piles.

use crate::common;

use common::service::{check_log, say, TempDir, T0};
use postal::render::Card;
use postal::service::referee::{Service, Settings};
use postal::store::Store;
use postal::variants::api::{
    Action, Audience, Env, GameCommand, GameRules, NewGame, Reading, Seat, Viewer,
};
use postal::variants::solitaire::{piece_deck, position_deck, PlayingCard};
use postal::variants::Registry;
use proptest::prelude::*;
use serde_json::Value;

/// What the test knows of each solitaire: its deck, where its snapshot keeps the cards
/// turned face up, the most actions an attempt can take, and what each action costs
/// in cards (for the recount of the score).
struct Solitaire {
    id: &'static str,
    deck: fn() -> Vec<PlayingCard>,
    turned: &'static [&'static str],
    most_actions: usize,
    cards: i32,
    cost: fn(&str) -> i32,
}

const SOLITAIRES: &[Solitaire] = &[
    Solitaire {
        id: "parade",
        deck: piece_deck,
        turned: &["turned"],
        // Eight cards in hand, then sixteen negative points.
        most_actions: 24,
        cards: 8,
        cost: |action| match action {
            "move" | "add" => 1,
            _ => 0,
        },
    },
    Solitaire {
        id: "neighbour",
        deck: || piece_deck().into_iter().chain(position_deck()).collect(),
        turned: &["turned_pieces", "turned_positions"],
        // Sixteen additions, each perhaps placed, a stop, and a move for every card.
        most_actions: 16 * 2 + 1 + 36,
        cards: 36,
        cost: |action| match action {
            "add" => 2,
            "move" => 1,
            _ => 0,
        },
    },
];

/// The cards `snapshot` has turned face up, as shown (`9♥`).
fn turned(s: &Solitaire, snapshot: &Value) -> Vec<String> {
    s.turned
        .iter()
        .flat_map(|k| snapshot[*k].as_array().cloned().unwrap_or_default())
        .map(|v| {
            serde_json::from_value::<PlayingCard>(v)
                .unwrap()
                .to_string()
        })
        .collect()
}

/// Everything `viewer` may see of `game` now, as text, and the faces of the image's
/// cards.
fn seen(game: &dyn GameRules, viewer: Viewer) -> (String, Vec<Card>) {
    let p = game.project(viewer);
    let prompts: Vec<String> = game.awaiting().into_iter().map(|(_, p)| p.ask).collect();
    let text = [
        p.diagram,
        p.fen,
        p.record.join(" "),
        p.numbered,
        p.counters.unwrap_or_default(),
        p.instructions.unwrap_or_default(),
        p.holdings.unwrap_or_default(),
        prompts.join(" "),
        // A finished attempt's record holds its whole deal (checked in `play`).
        if game.is_over() {
            String::new()
        } else {
            game.pgn(viewer, &[])
        },
        game.outcome().map(|o| o.to_string()).unwrap_or_default(),
    ]
    .join("\n");
    let faces = p
        .board
        .overlays
        .iter()
        .flat_map(|o| match o {
            postal::render::Overlay::Cards(row) => row.cards.clone(),
            _ => Vec::new(),
        })
        .filter(|c| matches!(c, Card::Face { .. }))
        .collect();
    (text, faces)
}

/// Checks that nothing shown holds a card not yet turned.
fn shows_no_unturned_card(s: &Solitaire, game: &dyn GameRules, notes: &str) {
    let snapshot = game.snapshot().unwrap();
    let up = turned(s, &snapshot);
    let hidden: Vec<PlayingCard> = (s.deck)()
        .into_iter()
        .filter(|c| !up.contains(&c.to_string()))
        .collect();
    for viewer in [Viewer::Public, Viewer::Seat(Seat(0))] {
        let (text, faces) = seen(game, viewer);
        for card in &hidden {
            let name = card.to_string();
            assert!(
                !text.contains(&name),
                "{name} shows before it is turned:\n{text}"
            );
            assert!(
                !notes.contains(&name),
                "{name} is told before it is turned: {notes}"
            );
            assert!(!faces.contains(&card.face()), "{name} is drawn face up");
        }
    }
}

/// How good the state after `typed` is for the player, best first: a win, then not a
/// loss, then the fewest groups (read from the public counters).
pub(crate) fn rank(
    registry: &Registry,
    id: &str,
    game: &dyn GameRules,
    typed: &str,
) -> (bool, bool, usize) {
    let worst = (true, true, usize::MAX);
    let Ok(mut copy) = registry.load(id, &game.snapshot().unwrap()) else {
        return worst;
    };
    let (word, rest) = typed.split_once(' ').unwrap_or((typed, ""));
    let Ok(Reading::Act(action)) =
        copy.read(Seat(0), &GameCommand::new(word, rest), Env::default())
    else {
        return worst;
    };
    if copy.apply(Seat(0), &action).is_err() {
        return worst;
    }
    let won = copy.outcome().is_some_and(|o| o.result == "won");
    let lost = copy.outcome().is_some_and(|o| o.result == "lost");
    let groups = copy
        .project(Viewer::Public)
        .counters
        .and_then(|c| c.split_whitespace().nth(3).and_then(|n| n.parse().ok()))
        .unwrap_or(usize::MAX);
    (!won, lost, groups)
}

/// The index of the option [`rank`] likes best.
fn best(registry: &Registry, id: &str, game: &dyn GameRules, options: &[String]) -> usize {
    (0..options.len())
        .min_by_key(|&i| rank(registry, id, game, &options[i]))
        .unwrap_or(0)
}

/// Plays `s` from `seed`, choosing among the commands a player could type with
/// `choices`; returns the game, its start and its log.
fn play(s: &Solitaire, seed: u64, choices: &[usize]) {
    let registry = Registry::builtin();
    let setup = NewGame {
        seed,
        hidden_seed: Some(seed),
        ..NewGame::default()
    };
    let mut game = registry.new_game(s.id, &setup).unwrap();
    let start = game.snapshot().unwrap();
    let mut log: Vec<(Seat, Action)> = Vec::new();
    let mut spent = 0;
    let mut choice = choices.iter().cycle();
    shows_no_unturned_card(s, game.as_ref(), "");
    while !game.is_over() {
        assert!(log.len() < s.most_actions, "{} did not end", s.id);
        // What the player could type now: the legal moves and the prompt's answers,
        // plus a few that may be refused.
        let p = game.project(Viewer::Seat(Seat(0)));
        let mut options: Vec<String> = p.legal.iter().map(|m| format!("move {m}")).collect();
        for (_, prompt) in game.awaiting() {
            options.extend(prompt.answers.into_iter().map(|a| a.command));
        }
        options.extend(["add".to_string(), "move a1 a2 a3".to_string()]);
        loop {
            assert!(
                !options.is_empty(),
                "{}: no action is possible yet the game goes on",
                s.id
            );
            let pick = choice.next().copied().unwrap_or(0);
            // Every other choice plays the action that joins the pieces most, so that
            // wins (and their scores) are reached, not only losses.
            let at = if pick % 2 == 0 {
                best(&registry, s.id, game.as_ref(), &options)
            } else {
                pick % options.len()
            };
            let typed = options.remove(at);
            let (word, rest) = typed.split_once(' ').unwrap_or((&typed, ""));
            let before = game.snapshot().unwrap();
            let action = match game.read(Seat(0), &GameCommand::new(word, rest), Env::default()) {
                Ok(Reading::Act(a)) => a,
                Ok(other) => panic!("{typed}: {other:?}"),
                Err(_) => {
                    assert_eq!(game.snapshot().unwrap(), before, "reading changed the game");
                    continue;
                }
            };
            match game.apply(Seat(0), &action) {
                Ok(notes) => {
                    let told: Vec<String> = notes
                        .iter()
                        .map(|n| {
                            assert!(matches!(n.to, Audience::Everyone | Audience::Seat(_)));
                            n.text.render(|_| "alice".into())
                        })
                        .collect();
                    spent += (s.cost)(&action.name());
                    log.push((Seat(0), action));
                    shows_no_unturned_card(s, game.as_ref(), &told.join("\n"));
                    break;
                }
                Err(_) => assert_eq!(
                    game.snapshot().unwrap(),
                    before,
                    "{typed}: a refusal changed the game"
                ),
            }
        }
    }
    let outcome = game.outcome().expect("an ended attempt has an outcome");
    if outcome.result == "won" {
        assert_eq!(
            outcome.score,
            Some(vec![s.cards - spent]),
            "the score is the recount"
        );
    } else {
        assert_eq!(outcome.score, None, "a lost attempt has no score");
    }
    // Once over, the record holds the deal, every card of it, and a real result.
    let pgn = game.pgn(Viewer::Public, &[]);
    let deal = pgn
        .lines()
        .find_map(|l| l.strip_prefix("[Deal \""))
        .unwrap_or_else(|| panic!("no deal in a finished record: {pgn}"));
    for card in (s.deck)() {
        assert!(
            deal.contains(&format!("{card} ")) || deal.contains(&format!("{card}\"")),
            "{card} not in the deal: {pgn}"
        );
    }
    let result = if outcome.result == "won" {
        "1-0"
    } else {
        "0-1"
    };
    assert!(pgn.contains(&format!("[Result \"{result}\"]")), "{pgn}");
    assert!(pgn.trim_end().ends_with(result), "{pgn}");
    let replayed = registry.replay(s.id, Some(&start), &setup, &log).unwrap();
    assert_eq!(
        replayed.snapshot().unwrap(),
        game.snapshot().unwrap(),
        "the log replays to the same state"
    );
    let loaded = registry.load(s.id, &game.snapshot().unwrap()).unwrap();
    assert_eq!(loaded.snapshot().unwrap(), game.snapshot().unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_play_ends_scores_replays_and_shows_no_card_before_it_is_turned(
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<usize>(), 1..40),
    ) {
        for s in SOLITAIRES {
            play(s, seed, &choices);
        }
    }
}

/// Starts game #1 of `variant` on a new database with `settings`; returns the service
/// and the database's path.
async fn started(variant: &str, settings: Settings, dir: &TempDir) -> (Service, String) {
    let db = dir.db();
    let svc = Service::new(Store::open(&db).await.unwrap(), settings);
    let out = say(&svc, "c", "alice", &format!("challenge {variant}"), T0).await;
    assert!(
        out[0].text.contains(&format!(
            "alice plays {}",
            postal::variants::Registry::builtin()
                .get(variant)
                .unwrap()
                .display_name()
        )),
        "{}",
        out[0].text
    );
    (svc, db)
}

/// Game #1's stored snapshot.
async fn snapshot(svc: &Service) -> Value {
    let g = svc.store().game(1).await.unwrap().unwrap();
    serde_json::from_str(&g.snapshot).unwrap()
}

#[tokio::test]
async fn the_bot_deals_solitaires_from_the_systems_entropy_and_exports_no_pile() {
    let bot = Settings {
        seed: None,
        ..Settings::default()
    };
    for s in SOLITAIRES {
        let (d1, d2) = (TempDir::new("sol-a"), TempDir::new("sol-b"));
        let (a, db) = started(s.id, bot.clone(), &d1).await;
        let (b, _) = started(s.id, bot.clone(), &d2).await;
        let (sa, sb) = (snapshot(&a).await, snapshot(&b).await);
        assert_ne!(sa, sb, "the same settings dealt the same cards");
        say(&a, "x", "alice", "add", T0 + 60).await;
        assert_eq!(check_log(a.store(), 1).await, 1);
        let live = snapshot(&a).await;
        let up = turned(s, &live);
        a.store().close().await;
        b.store().close().await;
        for format in ["json", "pgn"] {
            let export = postal::console::export(&db, 1, format).await.unwrap();
            let export = String::from_utf8(export).unwrap();
            for card in (s.deck)().iter().filter(|c| !up.contains(&c.to_string())) {
                assert!(
                    !export.contains(&card.to_string()),
                    "{card} in a live export: {export}"
                );
            }
            assert!(
                !export.contains("hand") && !export.contains("pile"),
                "{export}"
            );
        }
    }
}

/// Runs `script` through the console on `db`.
fn console(db: &str, script: &str) -> String {
    let opts = postal::console::Options {
        db: db.into(),
        settings: Settings {
            seed: Some(1),
            ..Default::default()
        },
        images: None,
        registry: Registry::builtin(),
    };
    let mut out = Vec::new();
    postal::console::block_on(postal::console::run(&opts, script.as_bytes(), &mut out))
        .unwrap()
        .unwrap();
    String::from_utf8(out).unwrap()
}

/// A solitaire is persisted and goes on after a restart: half of each transcript's win
/// in one process, the rest in another on the same database, and the stored log
/// replays to the stored state.
#[test]
fn a_solitaire_goes_on_after_a_restart_to_its_win() {
    for (id, first, second, won) in [
        (
            1,
            "alice: challenge parade\nalice: move e2 a2 c2\nalice: Rc3: f3-e3\n",
            "alice: move c2 a4 d3\nalice: Re2: c2-f2\n",
            "won by connecting the group, 4 points",
        ),
        (
            2,
            "alice: challenge neighbor\nalice: add\nalice: add\nalice: add\nalice: add\n",
            "alice: place e1\nalice: stop\nalice: move f1 d2\nalice: Rc1-d1\nalice: move d2 g2 with d1\nalice: Rd1-f2\n",
            "won by connecting the group, 24 points",
        ),
    ] {
        let dir = TempDir::new(&format!("sol-restart-{id}"));
        let db = dir.db();
        let out = console(&db, first);
        assert!(!out.contains("game over"), "{out}");
        let out = console(&db, second);
        assert!(out.contains(won), "{out}");
        postal::console::block_on(async {
            let store = Store::open(&db).await.unwrap();
            assert!(check_log(&store, 1).await > 3);
            store.close().await;
        })
        .unwrap();
    }
}

/// All the text of `out`, one message a line.
fn texts(out: &[postal::service::referee::Outbound]) -> String {
    out.iter()
        .map(|o| o.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A shown deal counts (`docs/rules/parade.md`, "A shown deal counts"): a second live
/// attempt is refused naming the first, and an abort of a shown deal is a lost attempt
/// that the tables count; then a new attempt may start. The finished attempt's export
/// holds its deal, in PGN and JSON; a live one's holds neither.
#[tokio::test]
async fn an_abort_after_the_deal_is_shown_is_a_lost_attempt_and_one_attempt_is_live_at_a_time() {
    let dir = TempDir::new("sol-abort");
    let (svc, db) = started("parade", Settings::default(), &dir).await;
    let before = svc.store().game(1).await.unwrap().unwrap();
    let out = texts(&say(&svc, "c2", "alice", "challenge parade", T0 + 10).await);
    assert!(
        out.contains("your Parade Chess Solitaire attempt, game #1, is still under way"),
        "{out}"
    );
    assert!(svc.store().game(2).await.unwrap().is_none());
    assert_eq!(
        svc.store().game(1).await.unwrap().unwrap().version,
        before.version
    );
    // Someone else may, and so may alice at the other solitaire.
    let out = texts(&say(&svc, "c3", "bob", "challenge parade", T0 + 20).await);
    assert!(
        out.contains("game #2: bob plays Parade Chess Solitaire"),
        "{out}"
    );
    let out = texts(&say(&svc, "c4", "alice", "challenge neighbour", T0 + 30).await);
    assert!(
        out.contains("game #3: alice plays Neighbour Chess Solitaire"),
        "{out}"
    );
    // The setup is dealt face up: the abort records a lost attempt.
    let out = texts(&say(&svc, "a", "alice", "abort 1", T0 + 40).await);
    assert!(
        out.contains("alice (Player) calls the attempt off after the deal was shown: it counts as a lost attempt"),
        "{out}"
    );
    assert!(
        out.contains("lost by calling it off once the deal was shown"),
        "{out}"
    );
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.status, postal::store::GameStatus::Finished);
    assert_eq!(
        (g.result.as_deref(), g.reason.as_deref()),
        (Some("lost"), Some("aborted"))
    );
    let out = texts(&say(&svc, "r", "alice", "rating", T0 + 50).await);
    assert!(
        out.contains("Parade Chess Solitaire: no win yet, 1 attempt, 0 won"),
        "{out}"
    );
    // Neighbour shows nothing before its first `add`: an abort then is free.
    let out = texts(&say(&svc, "a3", "alice", "abort 3", T0 + 60).await);
    assert!(!out.contains("lost"), "{out}");
    let g = svc.store().game(3).await.unwrap().unwrap();
    assert_eq!(g.status, postal::store::GameStatus::Aborted);
    // With nothing live, a new attempt starts.
    let out = texts(&say(&svc, "c5", "alice", "challenge parade", T0 + 70).await);
    assert!(
        out.contains("game #4: alice plays Parade Chess Solitaire"),
        "{out}"
    );
    svc.store().close().await;
    for format in ["pgn", "json"] {
        let export = |id| postal::console::export(&db, id, format);
        let finished = String::from_utf8(export(1).await.unwrap()).unwrap();
        let live = String::from_utf8(export(2).await.unwrap()).unwrap();
        match format {
            "pgn" => {
                assert!(finished.contains("[Deal \""), "{finished}");
                assert!(finished.contains("[Result \"0-1\"]"), "{finished}");
                assert!(finished.contains("[Black \"-\"]"), "{finished}");
                assert!(finished.trim_end().ends_with("0-1"), "{finished}");
                assert!(!live.contains("Deal"), "{live}");
                assert!(live.contains("[Result \"*\"]"), "{live}");
            }
            _ => {
                let v: Value = serde_json::from_str(&finished).unwrap();
                assert_eq!(v["deal"]["setup"].as_array().map(Vec::len), Some(8), "{v}");
                assert_eq!(v["deal"]["hand"].as_array().map(Vec::len), Some(8), "{v}");
                let v: Value = serde_json::from_str(&live).unwrap();
                assert!(v.get("deal").is_none(), "{v}");
            }
        }
    }
}
