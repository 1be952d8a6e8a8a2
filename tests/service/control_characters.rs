//! Control characters in a user's line (issue 38): NUL, ESC and the other C0 and C1
//! controls, and the overrides of writing direction, never come back in an answer that
//! quotes the user, whichever answer it is (an unknown command, a move that does not
//! read, a command's usage, a game over), in a channel or privately.

use crate::common;

use common::service::{dm, open, say, start_game, T0};
use postal::service::referee::Outbound;

/// A line the terminal would colour red, behind a NUL and a start of heading.
const RED: &str = "\u{0}\u{1}\u{1b}[31mred";

/// Whether `c` is a character no answer may hold: a control other than the line breaks
/// the referee writes itself, or a mark or override of writing direction. Written here
/// without the service's own test, so that the two cannot agree by mistake.
fn forbidden(c: char) -> bool {
    (c.is_control() && c != '\n')
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Fails unless `out` holds an answer and none holds a forbidden character.
fn assert_clean(line: &str, out: &[Outbound]) {
    assert!(!out.is_empty(), "{line:?} got no answer");
    for o in out {
        assert!(
            !o.text.chars().any(forbidden),
            "{line:?} came back with a control character: {:?}",
            o.text
        );
    }
}

#[tokio::test]
async fn an_unknown_command_is_quoted_without_its_control_characters() {
    let svc = open("sqlite::memory:").await;
    let out = say(&svc, "u1", "alice", RED, T0).await;
    assert_clean(RED, &out);
    // The printable rest is still quoted, so the user sees what was not understood.
    assert!(
        out[0].text.starts_with("unknown command '[31mred'"),
        "{}",
        out[0].text
    );
    let out = dm(&svc, "u2", "alice", RED, T0).await;
    assert_clean(RED, &out);
}

#[tokio::test]
async fn no_answer_quoting_a_line_holds_a_control_character() {
    let svc = open("sqlite::memory:").await;
    start_game(&svc, "alice", "bob", "standard", T0).await;
    let lines = [
        // Bare moves that do not read, out of turn, and a command's arguments.
        "\u{1b}[2Je\u{0}9",
        "\u{202E}4e\u{202C}",
        "move \u{1b}]0;owned\u{7}zz9",
        "move 1 \u{9b}31mzz\u{85}9",
        "help \u{1b}[5mclaim",
        "rules \u{1b}[1mnothing\u{2066}",
        "games \u{0}x",
        RED,
    ];
    let mut n = 0;
    for line in lines {
        for user in ["alice", "bob"] {
            n += 1;
            let out = say(&svc, &format!("c{n}"), user, line, T0 + n).await;
            assert_clean(line, &out);
            let out = dm(&svc, &format!("d{n}"), user, line, T0 + n).await;
            assert_clean(line, &out);
        }
    }
    // After the game: the answer that the game is over quotes the line too.
    say(&svc, "r", "alice", "resign", T0 + 100).await;
    for (i, line) in ["e\u{1b}[31m4", "move \u{0}e4", RED]
        .into_iter()
        .enumerate()
    {
        let out = say(&svc, &format!("o{i}"), "bob", line, T0 + 101).await;
        assert_clean(line, &out);
    }
}
