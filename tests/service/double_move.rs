//! Double Move Chess through the referee: refusals change nothing, rule 5's capture is
//! told apart from the plain move onto the same square, and other variants refuse double
//! moves with a reason.

use crate::common;

use common::service::{check_log, open, say, TempDir, T0};
use postal::service::referee::{Outbound, Service};

fn text(out: &[Outbound]) -> String {
    out.iter()
        .map(|o| o.text.clone())
        .collect::<Vec<_>>()
        .join(" | ")
}

async fn start(svc: &Service, variant_and_fen: &str) {
    let out = say(
        svc,
        "c",
        "alice",
        &format!("challenge @bob {variant_and_fen} colour:white"),
        T0,
    )
    .await;
    assert!(text(&out).contains("challenges"), "{}", text(&out));
    say(svc, "a", "bob", "accept", T0).await;
}

#[tokio::test]
async fn the_capture_of_a_twice_moved_piece_is_written_with_x() {
    let dir = TempDir::new("dm-capture");
    let svc = open(&dir.db()).await;
    start(
        &svc,
        "double-move fen:\"4k3/8/5b2/8/8/8/8/1N2K3 w - - 0 12\"",
    )
    .await;
    let out = say(&svc, "1", "alice", "double Nc3 Ne4", T0).await;
    assert!(
        text(&out).contains("played the double move Nc3, Ne4 (3 tokens left)"),
        "{}",
        text(&out)
    );
    // From-to fits both the plain move and the capture: refused, both listed.
    let out = say(&svc, "2", "bob", "f6c3", T0).await;
    assert!(
        text(&out).contains("Bc3") && text(&out).contains("Bxc3"),
        "{}",
        text(&out)
    );
    assert_eq!(check_log(svc.store(), 1).await, 1);
    let out = say(&svc, "3", "bob", "Bxc3+", T0).await;
    assert!(
        text(&out).contains("played Bxc3+, taking the twice-moved knight on e4 en passant"),
        "{}",
        text(&out)
    );
    assert_eq!(check_log(svc.store(), 1).await, 2);
    svc.store().close().await;
}

#[tokio::test]
async fn refused_double_moves_change_nothing_and_say_why() {
    let dir = TempDir::new("dm-refusals");
    let svc = open(&dir.db()).await;
    start(&svc, "double-move fen:\"4k3/8/8/8/8/8/8/Rn2K3 w - - 0 12\"").await;
    for (event, line, reason) in [
        ("1", "double Rxb1 Ra2", "may not capture"),
        ("2", "double Ra8+ Kd2", "may not give check"),
        ("3", "double Ra2 Ra9", "second move, after Ra2"),
        ("4", "double Ra2", "usage: double"),
        (
            "5",
            "claim draw Ra2, Rb2",
            "a single move, not a double move",
        ),
    ] {
        let out = say(&svc, event, "alice", line, T0).await;
        assert!(text(&out).contains(reason), "{line}: {}", text(&out));
        assert_eq!(out.len(), 1, "{line}: one line of reply");
    }
    assert_eq!(check_log(svc.store(), 1).await, 0);
    let out = say(&svc, "6", "alice", "Ra2 then Rb2", T0).await;
    assert!(
        text(&out).contains("the double move Ra2, Rb2"),
        "{}",
        text(&out)
    );
    assert_eq!(check_log(svc.store(), 1).await, 1);
    svc.store().close().await;
}

#[tokio::test]
async fn other_variants_have_no_double_moves() {
    let dir = TempDir::new("dm-standard");
    let svc = open(&dir.db()).await;
    start(&svc, "standard").await;
    let out = say(&svc, "1", "alice", "double e4 Nf3", T0).await;
    assert!(
        text(&out).contains("`double` is not part of Standard chess"),
        "{}",
        text(&out)
    );
    let out = say(&svc, "2", "alice", "games", T0).await;
    assert!(!text(&out).contains("tokens"), "{}", text(&out));
    assert_eq!(check_log(svc.store(), 1).await, 0);
    svc.store().close().await;
}
