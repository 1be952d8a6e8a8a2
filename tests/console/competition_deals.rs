//! A best-score competition's deals stay secret while it runs, through the console and
//! `postal export`: an entrant who resigns an attempt at once (or leaves the competition)
//! learns nothing of the cards still face down, which the others are still to play, from
//! any command they may use (`pgn`, `moves`, `board`, `hand`, `games finished`) nor from
//! an export of the game as PGN or JSON; the record says why the deal is left out. Once
//! the competition is over the same commands give the whole deal. Parade and Neighbour
//! both.

use crate::export::{export, play, temp_db};

/// What entrant `who` (playing game `id`) types to learn about their attempt.
fn every_view(who: &str, id: i64) -> String {
    [
        format!("{who}> pgn {id}"),
        format!("{who}> moves {id}"),
        format!("{who}> board {id}"),
        format!("{who}> hand {id}"),
        format!("{who}> games finished"),
        format!("{who}: pgn {id}"),
    ]
    .join("\n")
        + "\n"
}

/// Game `id` exported as PGN and JSON, as one text.
fn exports(db: &str, id: i64) -> String {
    let pgn = String::from_utf8(export(db, id, "pgn").unwrap()).unwrap();
    let json = String::from_utf8(export(db, id, "json").unwrap()).unwrap();
    format!("{pgn}\n{json}")
}

/// The `[Deal "FIRST / SECOND"]` tag's two piles in `text`.
fn deal_of(text: &str) -> (String, String) {
    let start = text.find("[Deal \"").expect("a Deal tag") + 7;
    let tag = &text[start..start + text[start..].find('"').unwrap()];
    let (first, second) = tag.split_once(" / ").unwrap();
    (first.to_string(), second.to_string())
}

/// Fails if `seen` (what an entrant could read while the competition ran) shows the
/// deal's cards still face down (`hidden`, in their order) or the deal itself.
fn assert_kept(what: &str, seen: &str, hidden: &[&str]) {
    assert!(
        !seen.contains("[Deal"),
        "{what}: the deal is shown:\n{seen}"
    );
    assert!(
        !seen.contains("\"deal\":"),
        "{what}: the deal is exported:\n{seen}"
    );
    for pile in hidden {
        assert!(
            !seen.contains(pile),
            "{what}: the cards {pile} are shown:\n{seen}"
        );
    }
    assert!(
        seen.contains(postal::variants::solitaire::DEAL_KEPT),
        "{what}: the record says why the deal is left out:\n{seen}"
    );
}

fn deals_stay_secret_until_the_end(variant: &str) {
    let (dir, db) = temp_db(&format!("competition-{variant}"));
    // Three entrants of one deal: ann resigns at once, cy leaves, bob still plays.
    let start = format!(
        "ann: tournament create competition {variant} deals:1 days:2
ann: tournament join 1
bob: tournament join 1
cy: tournament join 1
ann: tournament start 1
ann> resign 1
cy: tournament leave 1
"
    );
    let started = play(&db, &start);
    assert!(started.contains("game #3: cy"), "{started}");
    let mut seen = play(&db, &(every_view("ann", 1) + &every_view("cy", 3)));
    let ann_export = exports(&db, 1);
    let cy_export = exports(&db, 3);
    // Bob finishes: the competition is over, and the deal is given.
    let end = play(&db, "bob> resign 2\nann> pgn 1\n");
    assert!(end.contains("final standings"), "{end}");
    let (first, second) = deal_of(&end);
    let after = exports(&db, 1);
    assert!(
        after.contains("[Deal \"") && after.contains("\"deal\":"),
        "{after}"
    );
    assert!(
        !after.contains(postal::variants::solitaire::DEAL_KEPT),
        "{after}"
    );
    assert_eq!(deal_of(&after), (first.clone(), second.clone()));
    // Parade turns its setup pile face up at the start: only the hand was face down.
    // Neighbour turns nothing before the first addition: both piles were.
    let hidden: Vec<&str> = match variant {
        "parade" => vec![second.as_str()],
        _ => vec![first.as_str(), second.as_str()],
    };
    seen.push_str(&started);
    assert_kept("ann's and cy's commands", &seen, &hidden);
    assert_kept("ann's export", &ann_export, &hidden);
    assert_kept("cy's export", &cy_export, &hidden);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_parade_competitions_deal_stays_secret_until_it_is_over() {
    deals_stay_secret_until_the_end("parade");
}

#[test]
fn a_neighbour_competitions_deal_stays_secret_until_it_is_over() {
    deals_stay_secret_until_the_end("neighbour");
}
