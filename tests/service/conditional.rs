//! Conditional moves (`conditional`): a waiting player's stored lines are played the moment
//! the opponent's move matches, announced with "(conditional)"; a line that does not match
//! is dropped; several lines, lines of several pairs, drops and double moves; lines kept
//! across a restart; refusals (a variant with hidden information, not waiting, an illegal
//! line) store nothing; lines are shown only to their owner and never in public.

use crate::common;

use common::service::{check_log, dm, open, say, start_game, TempDir, T0};
use postal::service::referee::{Destination, Outbound, Service};
use postal::variants::api::RefusalKind;

/// The texts of the messages sent to the channel `#games`.
fn public(out: &[Outbound]) -> Vec<&str> {
    out.iter()
        .filter(|m| m.to == Destination::Channel("games".into()))
        .map(|m| m.text.as_str())
        .collect()
}

/// The one message `out` holds for `user` privately.
fn private_to<'a>(out: &'a [Outbound], user: &str) -> &'a str {
    let mine: Vec<&Outbound> = out
        .iter()
        .filter(|m| m.to == Destination::Dm(user.into()))
        .collect();
    assert_eq!(mine.len(), 1, "{out:#?}");
    &mine[0].text
}

/// `bob` stores `line` privately for game 1 and it is accepted.
async fn store(svc: &Service, event: &str, line: &str) {
    let out = dm(svc, event, "bob", line, T0).await;
    let text = private_to(&out, "bob");
    assert!(text.contains("stored, seen only by you"), "{text}");
    assert_eq!(out.len(), 1, "{out:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matching_line_is_played_at_once_with_a_note_and_a_mismatch_drops_it() {
    let dir = TempDir::new("conditional-fire");
    let svc = open(&dir.db()).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    store(&svc, "c1", "conditional 1 e4 e5").await;
    let out = say(&svc, "m1", "alice", "e4", T0 + 1).await;
    let texts = public(&out);
    assert_eq!(texts.len(), 2, "{out:#?}");
    assert!(texts[0].contains("alice (White) played e4"), "{}", texts[0]);
    assert!(
        texts[1].contains("bob (Black) played e5 (conditional)"),
        "{}",
        texts[1]
    );
    assert!(texts[1].contains("@alice (White) to move"), "{}", texts[1]);
    // The answer is the player's own action, in the log, and the player is not called on
    // for a turn already played for them: the first message claims no one's turn (only the
    // final state's turn line is shown), and mentions no one.
    assert_eq!(texts[0], "game #1: alice (White) played e4", "{out:#?}");
    assert!(out[0].mentions.is_empty(), "{:?}", out[0].mentions);
    assert_eq!(check_log(svc.store(), 1).await, 2);
    let rows = svc.store().actions(1).await.unwrap();
    assert_eq!(rows[1].author, "bob");
    let out = dm(&svc, "l1", "bob", "conditional list", T0 + 2).await;
    assert_eq!(private_to(&out, "bob"), "you have no conditional lines");

    // A line that does not match is dropped, with a private word to its owner alone.
    store(&svc, "c2", "conditional 1 Nf3 Nc6").await;
    let out = say(&svc, "m2", "alice", "d4", T0 + 3).await;
    assert_eq!(public(&out).len(), 1, "{out:#?}");
    assert!(
        private_to(&out, "bob").contains("matched none of your conditional lines"),
        "{out:#?}"
    );
    assert!(!out.iter().any(|m| m.to == Destination::Dm("alice".into())));
    assert_eq!(check_log(svc.store(), 1).await, 3);
    let out = dm(&svc, "l2", "bob", "conditional 1 list", T0 + 4).await;
    assert_eq!(
        private_to(&out, "bob"),
        "game #1: you have no conditional lines"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_several_lines_the_matching_one_is_played_and_a_line_of_two_pairs_twice() {
    let dir = TempDir::new("conditional-several");
    let svc = open(&dir.db()).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    store(&svc, "c1", "conditional d4 d5").await;
    store(&svc, "c2", "conditional e4 c5 Nf3 d6").await;
    store(&svc, "c3", "conditional c4 e5").await;
    let out = say(&svc, "m1", "alice", "e4", T0 + 1).await;
    let texts = public(&out);
    assert!(
        texts[1].contains("bob (Black) played c5 (conditional)"),
        "{texts:?}"
    );
    // The other lines are dropped; the matching one goes on with its next pair.
    let out = dm(&svc, "l1", "bob", "conditional list", T0 + 2).await;
    assert_eq!(
        private_to(&out, "bob"),
        "your conditional lines:\ngame #1: 1. if Nf3, d6"
    );
    let out = say(&svc, "m2", "alice", "Nf3", T0 + 3).await;
    let texts = public(&out);
    assert!(
        texts[1].contains("bob (Black) played d6 (conditional)"),
        "{texts:?}"
    );
    assert_eq!(check_log(svc.store(), 1).await, 4);
    let out = dm(&svc, "l2", "bob", "conditional list", T0 + 4).await;
    assert_eq!(private_to(&out, "bob"), "you have no conditional lines");
    // The player moving themselves: a line stored before is no longer played.
    let out = say(&svc, "m3", "alice", "d4", T0 + 5).await;
    assert_eq!(public(&out).len(), 1, "{out:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_are_kept_across_a_restart() {
    let dir = TempDir::new("conditional-restart");
    let db = dir.db();
    let svc = open(&db).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    store(&svc, "c1", "conditional e4 e5 Nf3 Nc6").await;
    svc.store().close().await;
    let svc = open(&db).await;
    let out = dm(&svc, "l1", "bob", "conditional 1 list", T0 + 1).await;
    assert_eq!(
        private_to(&out, "bob"),
        "your conditional lines:\ngame #1: 1. if e4, e5; then if Nf3, Nc6"
    );
    let out = say(&svc, "m1", "alice", "e4", T0 + 2).await;
    assert!(
        public(&out)[1].contains("played e5 (conditional)"),
        "{out:#?}"
    );
    svc.store().close().await;
    let svc = open(&db).await;
    let out = say(&svc, "m2", "alice", "Nf3", T0 + 3).await;
    assert!(
        public(&out)[1].contains("played Nc6 (conditional)"),
        "{out:#?}"
    );
    assert_eq!(check_log(svc.store(), 1).await, 4);
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drop_in_chess_sharp_and_a_double_move_are_played() {
    let dir = TempDir::new("conditional-variants");
    let svc = open(&dir.db()).await;
    start_game(&svc, "alice", "bob", "chess-sharp", T0).await;
    store(&svc, "c1", "conditional 1 K@e1 N@d8").await;
    let out = say(&svc, "m1", "alice", "K@e1", T0 + 1).await;
    assert!(
        public(&out)[1].contains("bob (Black) played N@d8 (conditional)"),
        "{out:#?}"
    );
    assert_eq!(check_log(svc.store(), 1).await, 2);

    // Double Move Chess from a position where double moves are allowed: a double move
    // with spaces inside, the moves of the line separated by `;`.
    let out = say(
        &svc,
        "ch2",
        "alice",
        "challenge @bob double-move colour:white fen:\"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 12\"",
        T0 + 2,
    )
    .await;
    assert!(out[0].text.contains("challenges"), "{}", out[0].text);
    say(&svc, "acc2", "bob", "accept 2", T0 + 2).await;
    store(&svc, "c2", "conditional 2 Bc4; a7 to a6, g8 to f6").await;
    let out = say(&svc, "m2", "alice", "move 2 Bc4", T0 + 3).await;
    let texts = public(&out);
    assert!(
        texts[1].contains("bob (Black) played the double move a6, Nf6")
            && texts[1].contains("(conditional)"),
        "{texts:?}"
    );
    assert_eq!(check_log(svc.store(), 2).await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_store_nothing() {
    let dir = TempDir::new("conditional-refused");
    let svc = open(&dir.db()).await;
    // A variant with turns of several steps and secret information: refused, saying why.
    start_game(&svc, "alice", "bob", "gravity", T0).await;
    let out = dm(&svc, "g1", "bob", "conditional 1 e4 e5", T0).await;
    let text = private_to(&out, "bob");
    assert!(
        text.starts_with("Gravity Chess has no conditional moves: "),
        "{text}"
    );
    assert_eq!(
        out[0].refusal,
        Some(postal::variants::api::RefusalKind::NotHere)
    );
    start_game(&svc, "carol", "dave", "standard", T0).await;
    // Not waiting: it is carol's move.
    let out = dm(&svc, "n1", "carol", "conditional 2 e5 Nf3", T0).await;
    assert!(
        private_to(&out, "carol").contains("only while waiting for your opponent's move"),
        "{out:#?}"
    );
    // An illegal line: the reason, the move named, nothing stored.
    let out = dm(&svc, "i1", "dave", "conditional 2 e4 e4", T0).await;
    let text = private_to(&out, "dave");
    assert!(text.starts_with("game #2: your answer e4: "), "{text}");
    assert!(text.ends_with("nothing was stored"), "{text}");
    let out = dm(&svc, "i2", "dave", "conditional 2 e4 e5 Qh5", T0).await;
    assert!(
        private_to(&out, "dave").contains("pairs of moves"),
        "{out:#?}"
    );
    let out = dm(
        &svc,
        "i3",
        "dave",
        &format!("conditional 2 e4 {}", "x".repeat(300)),
        T0,
    )
    .await;
    let text = private_to(&out, "dave");
    assert!(
        text.contains("at most 40 characters") && !text.contains("xxxxx"),
        "{text}"
    );
    let long: Vec<&str> = ["Nf3", "Nf6", "Ng1", "Ng8"].repeat(6);
    let out = dm(
        &svc,
        "i4",
        "dave",
        &format!("conditional 2 {}", long.join(" ")),
        T0,
    )
    .await;
    assert!(
        private_to(&out, "dave").contains("at most 10 pairs"),
        "{out:#?}"
    );
    // Typed in the channel: answered privately, not stored.
    let out = say(&svc, "p1", "dave", "conditional 2 e4 e5", T0).await;
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].to, Destination::Dm("dave".into()));
    assert!(out[0]
        .text
        .contains("send the line to me in a private message"));
    let out = dm(&svc, "l1", "dave", "conditional list", T0).await;
    assert_eq!(private_to(&out, "dave"), "you have no conditional lines");
    let out = say(&svc, "m1", "carol", "e4", T0 + 1).await;
    assert_eq!(public(&out).len(), 1, "{out:#?}");
    // At most ten lines a game (ten different lines: the same one twice is refused).
    let replies = ["Nf6", "Nc6", "e5", "e6", "d5", "d6", "c5", "c6", "g6", "b6"];
    for (i, reply) in replies.into_iter().enumerate() {
        let out = dm(
            &svc,
            &format!("x{i}"),
            "carol",
            &format!("conditional 2 {reply} d4"),
            T0 + 2,
        )
        .await;
        assert!(
            private_to(&out, "carol").contains("stored, seen only by you"),
            "{out:#?}"
        );
    }
    let out = dm(&svc, "x10", "carol", "conditional 2 a6 d4", T0 + 2).await;
    assert!(
        private_to(&out, "carol").contains("already have 10"),
        "{out:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_line_is_refused_however_it_is_written() {
    let dir = TempDir::new("conditional-twice");
    let svc = open(&dir.db()).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    store(&svc, "c1", "conditional 1 e4 e5 Nf3 Nc6").await;
    store(&svc, "c2", "conditional 1 d4 d5").await;
    // The same moves again, as typed before or in another notation: refused, and the
    // refusal says which stored line it is.
    for (i, line) in [
        "conditional 1 e4 e5 Nf3 Nc6",
        "conditional 1 e2e4 e7e5 g1f3 b8c6",
        "conditional e4; e5; Nf3; Nc6",
    ]
    .into_iter()
    .enumerate()
    {
        let out = dm(&svc, &format!("d{i}"), "bob", line, T0).await;
        assert_eq!(
            private_to(&out, "bob"),
            "game #1: you have stored that line already, as line 1: if e4, e5; then if Nf3, Nc6; nothing was stored",
            "{line}"
        );
        assert_eq!(out[0].refusal, Some(RefusalKind::Illegal));
    }
    // A line that only begins the same way is another line.
    store(&svc, "c3", "conditional 1 e4 e5").await;
    let out = dm(&svc, "l1", "bob", "conditional 1 list", T0).await;
    assert_eq!(
        private_to(&out, "bob"),
        "your conditional lines:\ngame #1: 1. if e4, e5; then if Nf3, Nc6\n2. if d4, d5\n3. if e4, e5"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_are_shown_to_their_owner_alone_cleared_and_never_public() {
    let dir = TempDir::new("conditional-private");
    let svc = open(&dir.db()).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    let mut seen: Vec<Outbound> = Vec::new();
    let out = dm(&svc, "c1", "bob", "conditional e4 Nf6 d4 g6", T0).await;
    seen.extend(out);
    let out = dm(&svc, "c2", "bob", "conditional d4 Nf6 c4 g6", T0).await;
    seen.extend(out);
    // The opponent sees none of them; the owner sees both.
    let out = dm(&svc, "l1", "alice", "conditional list", T0).await;
    assert_eq!(private_to(&out, "alice"), "you have no conditional lines");
    let out = say(&svc, "l2", "bob", "conditional 1 list", T0).await;
    assert_eq!(out[0].to, Destination::Dm("bob".into()));
    assert_eq!(
        out[0].text,
        "your conditional lines:\ngame #1: 1. if e4, Nf6; then if d4, g6\n2. if d4, Nf6; then if c4, g6"
    );
    seen.extend(out);
    let out = say(&svc, "k1", "bob", "conditional clear", T0).await;
    assert_eq!(
        private_to(&out, "bob"),
        "your 2 conditional lines are cleared"
    );
    seen.extend(out);
    let out = dm(&svc, "l3", "bob", "conditional list", T0).await;
    assert_eq!(private_to(&out, "bob"), "you have no conditional lines");
    let out = dm(&svc, "c3", "bob", "conditional e4 Nf6 d4 g6", T0).await;
    seen.extend(out);
    // The opponent plays another move: the line is dropped, and nothing public says so.
    let out = say(&svc, "m1", "alice", "c4", T0 + 1).await;
    seen.extend(out);
    for m in &seen {
        if m.to != Destination::Dm("bob".into()) {
            for secret in ["Nf6", "g6", "conditional"] {
                assert!(!m.text.contains(secret), "{secret} in {m:#?}");
            }
        }
    }
    // Suggestions never offer a line either: they are the moves of the position.
    assert_eq!(check_log(svc.store(), 1).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_offer_keeps_lines_the_owners_own_action_drops_them_and_the_end_deletes_them() {
    let dir = TempDir::new("conditional-stale");
    let svc = open(&dir.db()).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    store(&svc, "c1", "conditional e4 e5 Nf3 Nc6").await;
    // The opponent's draw offer keeps the turn and the position: the line still applies.
    let out = say(&svc, "o1", "alice", "draw offer", T0 + 1).await;
    assert_eq!(out.len(), 1, "{out:#?}");
    let out = say(&svc, "m1", "alice", "e4", T0 + 2).await;
    assert!(
        public(&out)[1].contains("played e5 (conditional)"),
        "{out:#?}"
    );
    // The owner acting themselves (a draw offer while waiting): the line no longer
    // applies, is not played, and is gone.
    say(&svc, "o2", "bob", "draw offer", T0 + 3).await;
    let out = say(&svc, "m2", "alice", "Nf3", T0 + 4).await;
    assert_eq!(public(&out).len(), 1, "{out:#?}");
    assert!(
        !out.iter().any(|m| m.text.contains("conditional")),
        "{out:#?}"
    );
    let out = dm(&svc, "l1", "bob", "conditional list", T0 + 5).await;
    assert_eq!(private_to(&out, "bob"), "you have no conditional lines");
    // The game's end deletes every line of it.
    say(&svc, "m3", "bob", "Nc6", T0 + 6).await;
    say(&svc, "m4", "alice", "Bc4", T0 + 7).await;
    let out = dm(&svc, "c2", "alice", "conditional Nf6 d3", T0 + 7).await;
    assert!(
        private_to(&out, "alice").contains("stored, seen only by you"),
        "{out:#?}"
    );
    assert_eq!(
        svc.store()
            .conditional_lines(1, "alice")
            .await
            .unwrap()
            .len(),
        1
    );
    say(&svc, "r1", "bob", "resign", T0 + 8).await;
    assert!(svc
        .store()
        .conditional_lines(1, "alice")
        .await
        .unwrap()
        .is_empty());
    assert_eq!(check_log(svc.store(), 1).await, 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_played_for_a_player_on_vacation_leaves_the_vacation_running() {
    let dir = TempDir::new("conditional-vacation");
    let svc = open(&dir.db()).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    store(&svc, "c1", "conditional 1 e4 e5 Nf3 Nc6").await;
    let out = dm(&svc, "v1", "bob", "vacation 5", T0 + 1).await;
    assert!(
        private_to(&out, "bob").starts_with("you are on vacation until"),
        "{out:#?}"
    );
    // Alice's move is answered for bob while he is away: he is not back for it.
    let out = say(&svc, "m1", "alice", "e4", T0 + 2).await;
    let texts = public(&out);
    assert!(
        texts[1].contains("bob (Black) played e5 (conditional)"),
        "{out:#?}"
    );
    assert!(
        !out.iter().any(|m| m.text.contains("welcome back")),
        "{out:#?}"
    );
    let v = svc.store().open_vacation("bob").await.unwrap();
    assert!(v.is_some_and(|v| v.ended_at.is_none()), "still running");
    // The line goes on while he is away, and his own move is what brings him back.
    let out = say(&svc, "m2", "alice", "Nf3", T0 + 3).await;
    assert!(
        public(&out)[1].contains("bob (Black) played Nc6 (conditional)"),
        "{out:#?}"
    );
    let out = dm(&svc, "v2", "bob", "vacation", T0 + 4).await;
    assert!(
        private_to(&out, "bob").starts_with("you are on vacation until"),
        "{out:#?}"
    );
    say(&svc, "m3", "alice", "Bc4", T0 + 5).await;
    let out = say(&svc, "m4", "bob", "Nf6", T0 + 6).await;
    assert!(private_to(&out, "bob").contains("welcome back"), "{out:#?}");
    assert_eq!(svc.store().open_vacation("bob").await.unwrap(), None);
    check_log(svc.store(), 1).await;
    svc.store().close().await;
}

/// A game ended by a conditional answer shows its players' rating change on its
/// game-over message, as a game ended by any other action does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_ended_by_a_conditional_answer_shows_the_rating_change() {
    let dir = TempDir::new("conditional-rated");
    let svc = open(&dir.db()).await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    say(&svc, "m1", "alice", "f3", T0 + 1).await;
    say(&svc, "m2", "bob", "e5", T0 + 2).await;
    store(&svc, "c1", "conditional 1 g4 Qh4#").await;
    let out = say(&svc, "m3", "alice", "g4", T0 + 4).await;
    let over: Vec<&Outbound> = out.iter().filter(|m| m.ending).collect();
    assert_eq!(over.len(), 1, "{out:#?}");
    let text = &over[0].text;
    assert!(text.contains("(conditional)"), "{text}");
    assert!(text.contains("Ratings: alice 1500 → "), "{text}");
    assert!(text.contains(", bob 1500 → "), "{text}");
}
