//! A server's own settings (`server ...`) and its moderators' tools (`moderate ...`):
//! changed only by a member with Manage Server, stored per server and read again after a
//! restart, applied to challenges (where games start, default days and options); a stuck
//! game adjudicated or aborted by a moderator (Manage Server, or the role the settings
//! name), in its log and record, its log replaying to its state; a player's challenges
//! ended; everyone else refused with a kind, nothing changed.

use crate::common;

use common::service::{check_log, open, TempDir, T0};
use postal::service::export::export_game;
use postal::service::referee::{Incoming, Member, Outbound, Place, Service};
use postal::variants::api::RefusalKind;
use postal::variants::Registry;

const SERVER: &str = "200000000000000001";
const GAMES: &str = "400000000000000001";
const LOBBY: &str = "400000000000000009";
const ROLE: &str = "500000000000000001";

/// `user` types `text` in `channel` of the server at `T0 + n`, with the standing `member`.
async fn on(
    svc: &Service,
    n: i64,
    user: &str,
    channel: &str,
    member: Member,
    text: &str,
) -> Vec<Outbound> {
    svc.handle_as(
        Incoming {
            event_id: format!("e{n}"),
            user: user.into(),
            place: Place::Channel(channel.into()),
            via: None,
            server: Some(SERVER.into()),
            text: text.into(),
            at: T0 + n,
        },
        member,
    )
    .await
    .unwrap()
}

fn manager() -> Member {
    Member {
        manager: true,
        roles: Vec::new(),
    }
}

fn nobody() -> Member {
    Member::default()
}

fn with_role(role: &str) -> Member {
    Member {
        manager: false,
        roles: vec![role.into()],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_are_changed_by_managers_only_stored_and_applied_after_a_restart() {
    let dir = TempDir::new("server-settings");
    let db = dir.db();
    let svc = open(&db).await;
    // Anyone sees them; the defaults first.
    let out = on(&svc, 1, "alice", GAMES, nobody(), "server").await;
    assert!(
        out[0].text.contains("games may start in any channel"),
        "{}",
        out[0].text
    );
    // A member without Manage Server changes nothing.
    let out = on(&svc, 2, "alice", GAMES, with_role(ROLE), "server prefix:?").await;
    assert_eq!(out[0].refusal, Some(RefusalKind::NotAllowed));
    assert_eq!(svc.typed_commands(SERVER).await.unwrap().prefix, None);
    // Bad values: refused, nothing changed, the input not repeated at length.
    let long = format!("server channels:{}", "x".repeat(400));
    for bad in [
        "server prefix:<@",
        "server days:90",
        long.as_str(),
        "server options:speed=9",
        "server options:start=5000",
    ] {
        let out = on(&svc, 3, "carol", GAMES, manager(), bad).await;
        assert!(out[0].refusal.is_some(), "{bad}: {}", out[0].text);
        assert!(out[0].text.len() < 300, "{}", out[0].text);
    }
    assert_eq!(svc.server_settings(SERVER).await.unwrap().days, None);
    // A manager changes them.
    let out = on(
        &svc,
        4,
        "carol",
        GAMES,
        manager(),
        &format!(
            "server prefix:? text:off channels:here days:9 options:start=518 moderators:<@&{ROLE}>"
        ),
    )
    .await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
    svc.store().close().await;

    // Another process reads them back.
    let svc = open(&db).await;
    let s = svc.server_settings(SERVER).await.unwrap();
    assert_eq!(s.prefix.as_deref(), Some("?"));
    assert!(!s.text_commands);
    assert_eq!(s.channels, [GAMES]);
    assert_eq!(s.days, Some(9));
    assert_eq!(s.options, [("start".to_string(), "518".to_string())]);
    assert_eq!(s.moderator_role.as_deref(), Some(ROLE));
    // Another server's are its own.
    assert_eq!(
        svc.server_settings("200000000000000002")
            .await
            .unwrap()
            .days,
        None
    );

    // A challenge elsewhere is refused with where games start.
    let out = on(&svc, 5, "alice", LOBBY, nobody(), "challenge @bob chess960").await;
    assert_eq!(out[0].refusal, Some(RefusalKind::NotHere));
    assert!(out[0].text.contains(GAMES), "{}", out[0].text);
    // Where they may: the server's days and the variant's default option.
    let out = on(&svc, 6, "alice", GAMES, nobody(), "challenge @bob chess960").await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.days_per_move, 9);
    assert!(g.options.contains("\"start\":\"518\""), "{}", g.options);
    // What the challenge gives wins over the defaults; an option a variant does not
    // take is not given to it.
    let out = on(
        &svc,
        7,
        "alice",
        GAMES,
        nobody(),
        "challenge @bob standard days:2",
    )
    .await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
    let g = svc.store().game(2).await.unwrap().unwrap();
    assert_eq!(g.days_per_move, 2);
    assert!(!g.options.contains("start"), "{}", g.options);
    // Back to the operator's defaults.
    let out = on(
        &svc,
        8,
        "carol",
        GAMES,
        manager(),
        "server channels:any days:default options:none",
    )
    .await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
    let s = svc.server_settings(SERVER).await.unwrap();
    assert!(s.channels.is_empty() && s.days.is_none() && s.options.is_empty());
    // Not in a private message: settings belong to a server.
    let out = svc
        .handle_as(
            Incoming {
                event_id: "dm".into(),
                user: "carol".into(),
                place: Place::Dm,
                via: None,
                server: None,
                text: "server prefix:?".into(),
                at: T0 + 9,
            },
            manager(),
        )
        .await
        .unwrap();
    assert_eq!(out[0].refusal, Some(RefusalKind::NotHere));
    let kept = svc.server_settings(SERVER).await.unwrap();
    svc.store().close().await;

    // A copy of the database (`postal migrate-db`) keeps them.
    let copy = dir.0.join("copy.db").display().to_string();
    let summary = postal::console::migrate_db(&db, &copy).await.unwrap();
    assert!(summary.contains("1 server_settings"), "{summary}");
    let copied = open(&copy).await;
    assert_eq!(copied.server_settings(SERVER).await.unwrap(), kept);
    copied.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moderator_adjudicates_aborts_and_ends_challenges_and_others_are_refused() {
    let dir = TempDir::new("moderation");
    let db = dir.db();
    let svc = open(&db).await;
    on(
        &svc,
        1,
        "alice",
        GAMES,
        nobody(),
        "challenge @bob standard colour:white",
    )
    .await;
    on(&svc, 2, "bob", GAMES, nobody(), "accept").await;
    on(&svc, 3, "alice", GAMES, nobody(), "e4").await;
    on(
        &svc,
        4,
        "carol",
        GAMES,
        nobody(),
        "challenge @dave standard",
    )
    .await;
    on(
        &svc,
        5,
        "carol",
        GAMES,
        nobody(),
        "challenge @erin standard",
    )
    .await;
    on(
        &svc,
        6,
        "alice",
        GAMES,
        nobody(),
        "challenge @bob standard colour:white",
    )
    .await;
    on(&svc, 7, "bob", GAMES, nobody(), "accept").await;

    // Neither a player nor a member with an unnamed role may.
    let adjudicate = "moderate 1 adjudicate result:white Black has left the server";
    for (who, member) in [("bob", nobody()), ("dave", with_role(ROLE))] {
        let out = on(&svc, 8, who, GAMES, member, adjudicate).await;
        assert_eq!(
            out[0].refusal,
            Some(RefusalKind::NotAllowed),
            "{}",
            out[0].text
        );
    }
    assert_eq!(svc.store().game(1).await.unwrap().unwrap().result, None);

    // Once the settings name the role, its members may.
    on(
        &svc,
        9,
        "zoe",
        GAMES,
        manager(),
        &format!("server moderators:{ROLE}"),
    )
    .await;
    let out = on(&svc, 10, "dave", GAMES, with_role(ROLE), adjudicate).await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
    let all: String = out
        .iter()
        .map(|o| o.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(all.contains("moderator dave adjudicated the game"), "{all}");
    assert!(all.contains("Black has left the server"), "{all}");
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!(g.result.as_deref(), Some("1-0"));
    assert_eq!(g.reason.as_deref(), Some("adjudicated"));
    // The log replays to the stored state; its last entry is the moderator's.
    check_log(svc.store(), 1).await;
    let log = svc.store().actions(1).await.unwrap();
    assert_eq!(log.last().unwrap().author, "dave");
    let pgn =
        String::from_utf8(export_game(&g, &log, "pgn", &Registry::builtin()).unwrap()).unwrap();
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"adjudication\"]"), "{pgn}");
    assert!(
        pgn.contains("{Adjudicated by a moderator: Black has left the server} 1-0"),
        "{pgn}"
    );
    // Rated as the result says.
    let out = on(&svc, 11, "alice", GAMES, nobody(), "rating").await;
    assert!(out[0].text.contains("1 won"), "{}", out[0].text);
    // Over: a second ending is refused; so is a move.
    let out = on(&svc, 12, "zoe", GAMES, manager(), "moderate 1 abort").await;
    assert_eq!(out[0].refusal, Some(RefusalKind::Over), "{}", out[0].text);

    // An abort (by Manage Server) leaves no result; after a restart the game is still
    // over, read from its stored state.
    let out = on(
        &svc,
        13,
        "zoe",
        GAMES,
        manager(),
        "moderate 4 abort nobody moved for weeks",
    )
    .await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
    svc.store().close().await;
    let svc = open(&db).await;
    let g = svc.store().game(4).await.unwrap().unwrap();
    assert_eq!(g.status.to_string(), "aborted");
    check_log(svc.store(), 4).await;
    let out = on(&svc, 14, "bob", GAMES, nobody(), "resign 4").await;
    assert_eq!(out[0].refusal, Some(RefusalKind::Over), "{}", out[0].text);

    // Carol's two open challenges end.
    let out = on(
        &svc,
        15,
        "zoe",
        GAMES,
        manager(),
        "moderate challenges @carol",
    )
    .await;
    let all: String = out
        .iter()
        .map(|o| o.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        all.contains("#2, #3") && all.contains("cancelled by moderator zoe"),
        "{all}"
    );
    let out = on(
        &svc,
        16,
        "zoe",
        GAMES,
        manager(),
        "moderate challenges @carol",
    )
    .await;
    assert_eq!(
        out[0].refusal,
        Some(RefusalKind::Unknown),
        "{}",
        out[0].text
    );
    // A game of another server is not this server's moderators'.
    let other = Incoming {
        event_id: "other".into(),
        user: "zoe".into(),
        place: Place::Channel(GAMES.into()),
        via: None,
        server: Some("200000000000000002".into()),
        text: "moderate 1 abort".into(),
        at: T0 + 17,
    };
    let out = svc.handle_as(other, manager()).await.unwrap();
    assert_eq!(
        out[0].refusal,
        Some(RefusalKind::NotYourGame),
        "{}",
        out[0].text
    );
    svc.store().close().await;
}

/// A prefix is punctuation (issue 54): `N`, `e` or `a` could begin a move or a word, so
/// they are refused with the reason and change nothing; one stored before the rule reads
/// as the operator's, and the first read says so once and replaces it in the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_letter_prefix_is_refused_and_a_stored_one_falls_back_once() {
    let dir = TempDir::new("server-prefix-letters");
    let svc = open(&dir.db()).await;
    for (n, letter) in ["N", "e", "a"].iter().enumerate() {
        let out = on(
            &svc,
            n as i64,
            "carol",
            GAMES,
            manager(),
            &format!("server prefix:{letter}"),
        )
        .await;
        assert_eq!(out[0].refusal, Some(RefusalKind::Syntax), "{}", out[0].text);
        assert!(
            out[0].text.contains("could begin a move or a word"),
            "{}",
            out[0].text
        );
    }
    assert_eq!(svc.typed_commands(SERVER).await.unwrap().prefix, None);
    let out = on(&svc, 5, "carol", GAMES, manager(), "server prefix:$").await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);

    // A prefix stored before the rule (written as an older release would have).
    let mut row = svc.server_settings(SERVER).await.unwrap().to_stored();
    row.prefix = "N".into();
    assert!(svc
        .store()
        .set_server_settings(SERVER, &row, T0 + 6)
        .await
        .unwrap());
    let first = svc.typed_commands(SERVER).await.unwrap();
    assert_eq!(first.prefix, None, "the operator's prefix");
    let notice = first.notice.expect("said at the first read");
    assert!(notice.contains("could begin a move"), "{notice}");
    assert!(!notice.contains("prefix:N"), "{notice}");
    let again = svc.typed_commands(SERVER).await.unwrap();
    assert_eq!((again.prefix, again.notice), (None, None), "said once");
    let stored = svc.store().server_settings(SERVER).await.unwrap().unwrap();
    assert_eq!(stored.prefix, "", "replaced in the store");
    svc.store().close().await;
}

/// A moderator does not rule on a game they play (issue 54): alice, holding Manage
/// Server, may neither adjudicate nor abort her own game, which stays under way; another
/// moderator may.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moderator_cannot_rule_on_their_own_game() {
    let dir = TempDir::new("moderation-own");
    let svc = open(&dir.db()).await;
    let challenge = "challenge @bob standard colour:white";
    on(&svc, 1, "alice", GAMES, nobody(), challenge).await;
    on(&svc, 2, "bob", GAMES, nobody(), "accept").await;
    on(&svc, 3, "alice", GAMES, nobody(), "e4").await;
    for (n, ruling) in [
        "moderate 1 adjudicate result:white Black has left the server",
        "moderate 1 abort stuck",
    ]
    .iter()
    .enumerate()
    {
        let out = on(&svc, 4 + n as i64, "alice", GAMES, manager(), ruling).await;
        assert_eq!(
            out[0].refusal,
            Some(RefusalKind::NotAllowed),
            "{}",
            out[0].text
        );
        assert!(out[0].text.contains("your own game"), "{}", out[0].text);
    }
    let g = svc.store().game(1).await.unwrap().unwrap();
    assert_eq!((g.status.to_string().as_str(), g.result), ("active", None));
    let out = on(
        &svc,
        9,
        "zoe",
        GAMES,
        manager(),
        "moderate 1 adjudicate result:white Black has left the server",
    )
    .await;
    assert_eq!(out[0].refusal, None, "{}", out[0].text);
    svc.store().close().await;
}
