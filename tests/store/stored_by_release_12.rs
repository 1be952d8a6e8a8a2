//! Games stored by an earlier release still load, replay and export the same.
//!
//! `tests/data/release-12/` holds what release 12 (main at e8a1276, the last release
//! before the engine's variants became data and end reasons were stored through serde)
//! wrote: `schema.sql` is its database schema with its migration records (their
//! checksums included, so the current migrations must accept them unchanged),
//! `games.sql` the games, seats, actions and users of several databases, each one
//! transcript of `tests/transcripts/` played through `postal console --seed 1`, and
//! `exports.txt` what that release's `postal export` printed for each of their games (PGN
//! and JSON). See the README there for how they were made. A PGN's tags are compared
//! without their order, which issue 38 made one for every record ([`pgn_parts`]), and
//! its movetext token by token (a changed token may move a line break). What later
//! decisions changed on purpose is applied to the old text first ([`deliberate`]). A
//! solitaire keeps the words its record was stored with (replay compares the state
//! without them: `GameRules::state_for_replay_check`).

use postal::service::replay::check_replay;
use postal::store::Store;
use postal::variants::Registry;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn data(name: &str) -> String {
    let path = crate::common::root()
        .join("tests/data/release-12")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The databases of `games.sql`: each name with its insert statements.
fn databases() -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut current = None;
    for line in data("games.sql").lines() {
        if let Some(name) = line.strip_prefix("-- database ") {
            current = Some(name.to_string());
            out.entry(name.to_string()).or_default();
        } else if let Some(name) = &current {
            let sql = out.get_mut(name).unwrap();
            sql.push_str(line);
            sql.push('\n');
        }
    }
    out
}

/// The recorded exports: `(database, game id, format)` to the text.
fn exports() -> BTreeMap<(String, i64, String), String> {
    let mut out = BTreeMap::new();
    for section in data("exports.txt").split("=== ").filter(|s| !s.is_empty()) {
        let (head, body) = section.split_once('\n').unwrap();
        let mut words = head.split(' ');
        let key = (
            words.next().unwrap().to_string(),
            words.next().unwrap().parse().unwrap(),
            words.next().unwrap().to_string(),
        );
        out.insert(key, body.trim_end_matches('\n').to_string());
    }
    out
}

/// A PGN export as its tag lines, sorted, and its movetext. The tags keep the one order
/// every record is written in now (issue 38, `notation::pgn::tag_section`), which is not
/// release 12's for an aborted game, a solitaire or a variant that writes its own
/// movetext; each tag and its value, and the movetext, must be what that release wrote.
fn pgn_parts(pgn: &str) -> (Vec<&str>, Vec<&str>) {
    let (head, movetext) = pgn.split_once("\n\n").unwrap_or((pgn, ""));
    let mut tags: Vec<&str> = head.lines().collect();
    tags.sort_unstable();
    (tags, movetext.split_whitespace().collect())
}

/// `pgn` without the `ECO` and `Opening` tags, which this release adds on purpose to a
/// standard game's record (its opening, named by Lichess's table, issue 59): release 12
/// wrote none, and its records are compared without them.
fn without_opening(pgn: &str) -> String {
    pgn.lines()
        .filter(|l| !l.starts_with("[ECO \"") && !l.starts_with("[Opening \""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Release 12's PGN `pgn` as this release writes it on purpose (issue 38, with the
/// decisions in docs/rules/): a finished Secret Chesswords game's result is `1/2-1/2`, not
/// `*`; Chess# knows no check, so its moves carry no `+`; a solitaire's record follows
/// the Seven Tag Roster ([`solitaire_record`]).
fn deliberate(pgn: &str) -> String {
    let finished_chesswords = pgn.contains("[Variant \"chesswords\"]") && pgn.contains("[Grade ");
    let chess_sharp = pgn.contains("[Variant \"chess-sharp\"]");
    let (head, movetext) = pgn.split_once("\n\n").unwrap_or((pgn, ""));
    let mut head = head.to_string();
    let mut tokens: Vec<String> = Vec::new();
    let mut in_comment = false;
    for token in movetext.split_whitespace() {
        let move_token = !in_comment && !token.starts_with('{');
        in_comment = (in_comment || token.starts_with('{')) && !token.ends_with('}');
        let token = match token {
            "*" if finished_chesswords => "1/2-1/2",
            t if chess_sharp && move_token => t.trim_end_matches('+'),
            t => t,
        };
        tokens.push(token.to_string());
    }
    if finished_chesswords {
        head = head.replace("[Result \"*\"]", "[Result \"1/2-1/2\"]");
    }
    if head.contains("Solitaire\"]") {
        solitaire_record(&mut head, &mut tokens);
    }
    format!("{head}\n\n{}", tokens.join(" "))
}

/// A solitaire's record as issue 38 made it: `Black` is `-`, a finished attempt has a
/// `Result` (`1-0` won, `0-1` lost) that also ends the movetext, and the outcome's
/// comment is in words (`{won by connecting the group, 24 points}`). The deal is not
/// added: release 12 did not keep it.
fn solitaire_record(head: &mut String, tokens: &mut Vec<String>) {
    *head = head.replace("[Black \"\"]", "[Black \"-\"]");
    let Some(open) = tokens.iter().position(|t| t.starts_with('{')) else {
        head.push_str("\n[Result \"*\"]");
        return;
    };
    let comment = tokens[open..tokens.len() - 1].join(" ");
    let inner = comment.trim_start_matches('{').trim_end_matches('}');
    let (result, rest) = inner.split_once(" by ").expect("RESULT by REASON");
    let (reason, score) = match rest.split_once(" (score ") {
        Some((reason, score)) => (reason, score.trim_end_matches(')').parse().ok()),
        None => (rest, None),
    };
    let ended = postal::variants::solitaire::Ended::ALL
        .into_iter()
        .find(|e| e.reason().is_some_and(|r| r.name() == reason))
        .expect("a solitaire's ending");
    let points = score.unwrap_or(0);
    let outcome = ended.outcome(points).expect("an attempt with a result");
    assert_eq!(
        outcome.to_string(),
        inner,
        "the ending reads back as release 12 named it"
    );
    let pgn_result = if result == "won" { "1-0" } else { "0-1" };
    head.push_str(&format!("\n[Result \"{pgn_result}\"]"));
    tokens.truncate(open);
    tokens.extend(
        format!("{{{}}}", outcome.describe(&[]))
            .split(' ')
            .map(String::from),
    );
    tokens.push(pgn_result.into());
}

/// Release 12's JSON export `json` as this release writes it on purpose: a Chess# game's
/// moves carry no `+` ([`deliberate`]).
fn deliberate_json(json: &str) -> String {
    if json.contains("\"variant\": \"chess-sharp\"") {
        json.replace("+\"", "\"")
    } else {
        json.to_string()
    }
}

/// A new SQLite database file holding the old schema and one database's rows.
async fn restore(dir: &Path, name: &str, rows: &str) -> String {
    let file: PathBuf = dir.join(format!("{name}.db"));
    let url = format!("sqlite://{}?mode=rwc", file.display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    sqlx::raw_sql(&data("schema.sql"))
        .execute(&pool)
        .await
        .unwrap();
    sqlx::raw_sql(&format!("BEGIN;\n{rows}COMMIT;\n"))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    format!("sqlite://{}", file.display())
}

/// An action log entry as release 12 stored it: game, seq, seat, author, action, time and
/// event.
type Logged = (i64, i64, u8, String, String, i64, Option<String>);

/// Every action log entry of the database at `url`, read as release 12 stored them (before
/// any migration of this release runs).
async fn logged_as_stored(url: &str) -> Vec<Logged> {
    let pool = sqlx::SqlitePool::connect(url).await.unwrap();
    let rows = sqlx::query_as::<_, (i64, i64, i64, String, String, i64, Option<String>)>(
        "SELECT game_id, seq, seat, author, action, at, event_id FROM actions ORDER BY game_id, seq",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    pool.close().await;
    rows.into_iter()
        .map(|(g, seq, seat, author, action, at, event)| {
            (g, seq, seat as u8, author, action, at, event)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_stored_by_release_12_load_replay_and_export_the_same() {
    let dir = std::env::temp_dir().join(format!("postal-release-12-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let expected = exports();
    let registry = Registry::builtin();
    let mut checked = 0;
    let mut reasons = std::collections::BTreeSet::new();
    for (name, rows) in databases() {
        let url = restore(&dir, &name, &rows).await;
        let logged = logged_as_stored(&url).await;
        // Opening migrates: the old migration records must be accepted as they are.
        let store = Store::open(&url).await.unwrap();
        let ids = store.game_ids().await.unwrap();
        assert!(!ids.is_empty(), "{name}: no games");
        for id in ids {
            let game = store.game(id).await.unwrap().unwrap();
            let log = store.actions(id).await.unwrap();
            // Every entry reads back as release 12 wrote it, whatever form the migrations
            // keep it in (a move as its text alone, its time since the game's creation);
            // its event, kept apart as a key since migration 0024, is still seen.
            let read: Vec<_> = log
                .iter()
                .map(|r| (id, r.seq, r.seat, r.author.clone(), r.action.clone(), r.at))
                .collect();
            let want: Vec<_> = logged.iter().filter(|r| r.0 == id).collect();
            let want_entries: Vec<_> = want
                .iter()
                .map(|r| (r.0, r.1, r.2, r.3.clone(), r.4.clone(), r.5))
                .collect();
            assert_eq!(read, want_entries, "{name} game {id}");
            for event in want.iter().filter_map(|r| r.6.as_deref()) {
                assert!(
                    store.event_seen(event).await.unwrap(),
                    "{name} game {id}: event {event} no longer seen"
                );
            }
            check_replay(&registry, &game, &log).unwrap_or_else(|e| panic!("{name}: {e}"));
            if let Some(reason) = &game.reason {
                reasons.insert(reason.clone());
            }
            for format in ["pgn", "json"] {
                let got = postal::console::export(&url, id, format).await.unwrap();
                let got = String::from_utf8(got).unwrap();
                let got = got.trim_end_matches('\n');
                let want = &expected[&(name.clone(), id, format.to_string())];
                match format {
                    "pgn" => assert_eq!(
                        pgn_parts(&without_opening(got)),
                        pgn_parts(&deliberate(want)),
                        "{name} game {id} {format}:\n{got}"
                    ),
                    _ => assert_eq!(got, deliberate_json(want), "{name} game {id} {format}"),
                }
                checked += 1;
            }
        }
        store.close().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        checked,
        expected.len(),
        "every recorded export was compared"
    );
    // The databases cover the engine's stored reasons and several variants' own.
    for reason in [
        "checkmate",
        "king-captured",
        "resignation",
        "timeout",
        "threefold-repetition",
        "impasse",
        "fast-fifty",
        "stalemate",
    ] {
        assert!(
            reasons.contains(reason),
            "no game ended by {reason}: {reasons:?}"
        );
    }
}
