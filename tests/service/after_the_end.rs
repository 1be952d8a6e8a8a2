//! Lines typed after a game ended (issue 38): a move is told the game is over and was not
//! played; chat that no game of the variant reads as a move (`gg`, `thanks`) is told only
//! that the game is over, never that it "was not played", in a channel or privately, and
//! whichever way the game ended.

use crate::common;

use common::service::{dm, open, say, start_game, T0};

const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

/// The one answer to `user`'s `text`, typed in `#games` (or privately) at `at`.
async fn answer(
    svc: &postal::service::referee::Service,
    event: &str,
    user: &str,
    text: &str,
    private: bool,
    at: i64,
) -> String {
    let out = match private {
        true => dm(svc, event, user, text, at).await,
        false => say(svc, event, user, text, at).await,
    };
    assert_eq!(out.len(), 1, "{out:#?}");
    out[0].text.clone()
}

#[tokio::test]
async fn chat_after_a_checkmate_is_not_said_to_be_unplayed() {
    let svc = open("sqlite::memory:").await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    for (i, m) in ["f3", "e5", "g4", "Qh4#"].into_iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        say(&svc, &format!("m{i}"), who, m, T0 + i as i64).await;
    }
    let mut n = 0;
    for user in ["alice", "bob"] {
        for private in [false, true] {
            for chat in ["gg", "GG!", "thanks, well played", "good game"] {
                n += 1;
                let text = answer(&svc, &format!("c{n}"), user, chat, private, T0 + 10).await;
                assert!(
                    text.starts_with(
                        "game #1 is over (bob (Black) wins by checkmate (0-1)). Start another"
                    ),
                    "{chat}: {text}"
                );
                assert!(!text.contains("not played"), "{chat}: {text}");
            }
            // A move, legal in the game before its end or not, still hears it was not played.
            for mv in ["Nf3", "Ke2", "Qh5"] {
                n += 1;
                let text = answer(&svc, &format!("c{n}"), user, mv, private, T0 + 10).await;
                assert!(
                    text.contains(&format!(
                        "is over (bob (Black) wins by checkmate (0-1)), so `{mv}` was not played"
                    )),
                    "{mv}: {text}"
                );
            }
        }
    }
}

#[tokio::test]
async fn chat_after_a_timeout_or_an_abort_is_told_the_game_is_over() {
    let svc = open("sqlite::memory:").await;
    // #1 is lost on time by White, who did not answer 1. e4 e5.
    start_game(&svc, "alice", "bob", "standard days:1", T0).await;
    say(&svc, "m1", "alice", "e4", T0).await;
    say(&svc, "m2", "bob", "e5", T0).await;
    svc.tick(T0 + DAY + HOUR).await.unwrap();
    let text = answer(&svc, "g1", "bob", "gg", false, T0 + 2 * DAY).await;
    assert!(
        text.starts_with("game #1 is over (bob (Black) wins on time (0-1)). Start"),
        "{text}"
    );
    let text = answer(&svc, "g2", "alice", "Nf3", false, T0 + 2 * DAY).await;
    assert!(text.contains("so `Nf3` was not played"), "{text}");
    // #2 is aborted before any move.
    start_game(&svc, "carol", "dave", "standard", T0 + 3 * DAY).await;
    say(&svc, "a1", "dave", "abort", T0 + 3 * DAY).await;
    let text = answer(&svc, "g3", "carol", "gg", true, T0 + 3 * DAY).await;
    assert!(
        text.starts_with("game #2 is over (") && !text.contains("not played"),
        "{text}"
    );
    let text = answer(&svc, "g4", "carol", "d4", true, T0 + 3 * DAY).await;
    assert!(text.contains("so `d4` was not played"), "{text}");
}
