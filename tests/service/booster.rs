//! Booster Chess played through the referee: a game across a restart of the console on a
//! database file, paused in the middle of a turn (after the move, before the booster
//! steps), with its images and a log that replays; and a new game's deal through the
//! registry: six cards each from the hidden draws, shown to their holder alone.

use crate::common;

use common::booster::square_for;
use common::service::console;

use postal::variants::api::{NewGame, Seat, VariantSpec, Viewer};
use postal::variants::booster::SPEC;

#[test]
fn a_turn_goes_on_after_a_restart_between_its_move_and_its_steps() {
    let dir = common::service::TempDir::new("booster-restart");
    let db = dir.db();
    let images = dir.0.join("images");
    // White's king stands on two white checkers; Black's bare king is in the corner.
    let first = console(
        &db,
        &images,
        "alice: challenge @bob booster colour:white fen:\"7k/8/8/8/4K3/8/8/8 w - - 0 1 e4:w2\"\n\
         bob: accept\n\
         alice: Kf5\n",
    );
    assert!(first.contains("alice (White) plays Kf5"), "{first}");
    assert!(first.contains("still to choose: `boost SQUARE`"), "{first}");
    assert!(first.contains("image: "), "{first}");
    // After the restart the king takes its step and the turn ends: the king on f6 with
    // one checker left reaches every square around h8.
    let second = console(
        &db,
        &images,
        "bob: done\nalice: boost f6\nalice: done\nalice: moves\n",
    );
    assert!(second.contains("it is not your turn"), "{second}");
    assert!(second.contains("boosts the king to f6"), "{second}");
    assert!(
        second.contains("game over: alice (White) wins by checkmate (1-0)"),
        "{second}"
    );
    assert!(second.contains("1. Kf5 boost f6#"), "{second}");
    let pngs = std::fs::read_dir(&images).unwrap().count();
    assert!(pngs >= 3, "{pngs} images");
    postal::console::block_on(async {
        let store = postal::store::Store::open(&db).await.unwrap();
        assert_eq!(store.game(1).await.unwrap().unwrap().status, "finished");
        assert_eq!(common::service::check_log(&store, 1).await, 3);
        store.close().await;
    })
    .unwrap();
}

#[test]
fn a_new_game_deals_six_cards_each_shown_only_to_their_holder() {
    let setup = |seed| NewGame {
        hidden_seed: Some(seed),
        ..NewGame::default()
    };
    let g = SPEC.new_game(&setup(3)).unwrap();
    let public = g.project(Viewer::Public);
    assert!(public.holdings.is_none());
    assert!(public
        .counters
        .as_deref()
        .unwrap()
        .contains("cards in hand: White 6, Black 6; draw pile 24"));
    let white = g.project(Viewer::Seat(Seat(0))).holdings.unwrap();
    let black = g.project(Viewer::Seat(Seat(1))).holdings.unwrap();
    assert!(white.starts_with("your hand (6 cards): "), "{white}");
    assert_ne!(white, black);
    // Nothing public names a card before one is played.
    let seen = format!("{public:?}{}", g.pgn(Viewer::Public, &[]));
    for card in white.split(": ").nth(1).unwrap().split(", ") {
        let code = card.split(' ').next().unwrap();
        assert!(!seen.contains(&format!(" {code} ")), "{code} in {seen}");
    }
    // The same hidden seed deals the same hands; the snapshot reloads to the same game.
    let again = SPEC.new_game(&setup(3)).unwrap();
    assert_eq!(again.snapshot().unwrap(), g.snapshot().unwrap());
    let other = SPEC.new_game(&setup(4)).unwrap();
    assert_ne!(other.snapshot().unwrap(), g.snapshot().unwrap());
    let loaded = SPEC.load(&g.snapshot().unwrap()).unwrap();
    assert_eq!(loaded.snapshot().unwrap(), g.snapshot().unwrap());
}

/// A card play refused in a game's thread reads the same there whether the player holds
/// the card or not: the reason (which tells what they hold) goes to them alone, and the
/// game is unchanged (issue 38; docs/rules/booster.md, rule 17).
#[tokio::test]
async fn a_refused_card_play_reads_the_same_in_public_whether_the_card_is_held() {
    use common::service::{dm, open, say, start_game, T0};
    use postal::service::referee::{Destination, PRIVATE_REFUSAL};
    let dir = common::service::TempDir::new("booster-private-refusal");
    let svc = open(&dir.db()).await;
    start_game(&svc, "alice", "bob", "booster", T0).await;
    let out = say(&svc, "m1", "alice", "e4", T0 + 1).await;
    assert!(out[0].text.contains("plays e4"), "{}", out[0].text);
    let hand = dm(&svc, "h1", "alice", "hand", T0 + 2).await;
    let hand = &hand[0].text;
    // `game #1: your hand (6 cards): 9h (white bishop), 6s (black checker card), ...`
    let held: Vec<String> = hand
        .split("): ")
        .nth(1)
        .unwrap_or_else(|| panic!("{hand}"))
        .split(", ")
        .map(|c| c.split(' ').next().unwrap().to_string())
        .collect();
    let all = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Q", "K"]
        .iter()
        .flat_map(|v| ["h", "d", "s", "c"].map(|s| format!("{v}{s}")));
    let missing = all
        .into_iter()
        .find(|c| !held.contains(c))
        .expect("a card not held");
    let before = svc.store().game(1).await.unwrap().unwrap();
    // A card held, on an empty square; a card not held, on the same square.
    let mut public = Vec::new();
    for (n, card) in [held[0].clone(), missing].iter().enumerate() {
        let out = say(
            &svc,
            &format!("c{n}"),
            "alice",
            &format!("card {card} on e5"),
            T0 + 3,
        )
        .await;
        let (here, alone): (Vec<_>, Vec<_>) = out
            .into_iter()
            .partition(|o| o.to == Destination::Channel("games".into()));
        assert_eq!(here.len(), 1, "{here:?}");
        assert_eq!(here[0].text, PRIVATE_REFUSAL);
        assert!(here[0].refusal.is_some());
        assert_eq!(alone.len(), 1, "{alone:?}");
        assert_eq!(alone[0].to, Destination::Dm("alice".into()));
        assert!(!alone[0].text.is_empty());
        public.push(here[0].text.clone());
    }
    assert_eq!(public[0], public[1]);
    let after = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(after.version, before.version, "nothing changed");
    svc.store().close().await;
}

/// A Booster turn sent by private message for a game in the channel (issue 38), naming
/// its game (issue 54: a DM never plays a channel's game by a guess): the move, its card
/// and `done` in one line work there as in the channel; the channel reads the card
/// played (it goes face up) and nothing else of the hand.
#[test]
fn a_turn_with_its_card_may_be_sent_privately_and_ended_in_one_line() {
    let dir = common::service::TempDir::new("booster-dm-turn");
    let images = dir.0.join("images");
    let out = console(
        &dir.db(),
        &images,
        "alice: challenge @bob booster colour:white\n\
         bob: accept\n\
         alice> move 1 e4 .\n",
    );
    assert!(
        out.contains("[#games] game #1: alice (White) plays e4. @bob (Black) to move"),
        "{out}"
    );
    let hand = out
        .lines()
        .find(|l| l.starts_with("[dm bob] game #1: your hand"))
        .unwrap()
        .to_string();
    let cards: Vec<&str> = hand
        .split(": ")
        .last()
        .unwrap()
        .split(", ")
        .map(|c| c.split(' ').next().unwrap())
        .collect();
    let card = cards[0];
    let out = console(
        &dir.db(),
        &images,
        &format!("bob> move 1 e5 card {card} on {}\n", square_for(card)),
    );
    assert!(!out.contains("unknown command"), "{out}");
    let public: Vec<&str> = out.lines().filter(|l| l.starts_with("[#games]")).collect();
    assert!(
        public[0].starts_with(&format!(
            "[#games] game #1: bob (Black) plays e5; plays {card}"
        )),
        "{out}"
    );
    for other in cards.iter().filter(|c| **c != card) {
        assert!(
            !public.iter().any(|l| l.contains(&format!(" {other} "))),
            "{other} in {out}"
        );
    }
}
