//! PGN records that chess tools can read (issue 15): every standard-chess export, finished
//! in each way (checkmate, resignation, agreement, time, aborted) or still going, is read
//! by an independent PGN reader (`pgn-reader`, with `shakmaty` replaying every move). The
//! Seven Tag Roster comes first and in order, `Date` is the day the game started,
//! `Termination` has one of the PGN standard's values and Postal's own reason is in
//! `PostalReason`.

use crate::common;

use common::service::{open, say, start_game, T0};
use pgn_reader::{BufferedReader, RawHeader, SanPlus, Visitor};
use shakmaty::{Chess, Position};

const HOUR: i64 = 3600;
const DAY: i64 = 24 * HOUR;

/// What the reader saw of one game.
#[derive(Default, Debug)]
struct Record {
    tags: Vec<(String, String)>,
    sans: Vec<SanPlus>,
    outcome: Option<String>,
}

impl Record {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Visitor for Record {
    type Result = ();

    fn header(&mut self, key: &[u8], value: RawHeader<'_>) {
        self.tags.push((
            String::from_utf8(key.to_vec()).unwrap(),
            value.decode_utf8().unwrap().into_owned(),
        ));
    }

    fn san(&mut self, san_plus: SanPlus) {
        self.sans.push(san_plus);
    }

    fn outcome(&mut self, outcome: Option<shakmaty::Outcome>) {
        self.outcome = Some(outcome.map_or("*".to_string(), |o| o.to_string()));
    }

    fn end_game(&mut self) {}
}

/// Reads `pgn` as exactly one game and replays its moves from the standard start with
/// shakmaty: every move must be legal. Returns the record and the final position.
fn read(pgn: &str) -> (Record, Chess) {
    let mut reader = BufferedReader::new_cursor(pgn.as_bytes());
    let mut record = Record::default();
    reader
        .read_game(&mut record)
        .unwrap()
        .expect("one game in the export");
    let mut again = Record::default();
    assert!(
        reader.read_game(&mut again).unwrap().is_none() || again.sans.is_empty(),
        "one game only: {pgn}"
    );
    let mut pos = Chess::default();
    for san in &record.sans {
        let m = san
            .san
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{san} is not legal ({e}) in {pgn}"));
        pos.play_unchecked(&m);
    }
    (record, pos)
}

/// The export of game `id` through the `pgn` command.
async fn export(svc: &postal::service::referee::Service, id: i64, at: i64) -> String {
    let out = say(
        svc,
        &format!("pgn-{id}-{at}"),
        "alice",
        &format!("pgn {id}"),
        at,
    )
    .await;
    assert_eq!(out.len(), 1, "{out:?}");
    out[0].text.clone()
}

/// The seven tags of the roster, first and in the standard's order.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Every tag a standard game's record may hold, in the one order every record keeps
/// (issue 38: an aborted game's `Termination` came after `UTCDate` and `UTCTime`).
const ORDER: [&str; 19] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Variant",
    "SetUp",
    "FEN",
    "ECO",
    "Opening",
    "Score",
    "Termination",
    "PostalReason",
    "WhiteUserId",
    "BlackUserId",
    "UTCDate",
    "UTCTime",
];

/// The Termination values the PGN standard defines.
const TERMINATIONS: [&str; 8] = [
    "abandoned",
    "adjudication",
    "death",
    "emergency",
    "normal",
    "rules infraction",
    "time forfeit",
    "unterminated",
];

#[tokio::test]
async fn every_standard_export_reads_in_a_pgn_reader_with_the_standards_tags() {
    let svc = open("sqlite::memory:").await;
    let mut t = T0 + 9 * HOUR + 30 * 60 + 15;
    let mut n = 0;
    let mut next = |t: &mut i64| {
        *t += 60;
        n += 1;
        format!("ev{n}")
    };
    // #1 checkmate, started 2026-01-01 09:30:15 UTC.
    start_game(&svc, "alice", "bob", "standard", t).await;
    let started_1 = t;
    for (who, mv) in [
        ("alice", "e4"),
        ("bob", "e5"),
        ("alice", "Bc4"),
        ("bob", "Nc6"),
        ("alice", "Qh5"),
        ("bob", "Nf6"),
        ("alice", "Qxf7#"),
    ] {
        let e = next(&mut t);
        say(&svc, &e, who, &format!("move 1 {mv}"), t).await;
    }
    // #2 resignation, started the next day.
    t += DAY;
    start_game(&svc, "alice", "carol", "standard", t).await;
    let e = next(&mut t);
    say(&svc, &e, "alice", "move 2 d4", t).await;
    let e = next(&mut t);
    say(&svc, &e, "carol", "move 2 d5", t).await;
    let e = next(&mut t);
    say(&svc, &e, "carol", "resign 2", t).await;
    // #3 agreement.
    start_game(&svc, "alice", "dave", "standard", t).await;
    let e = next(&mut t);
    say(&svc, &e, "alice", "move 3 Nf3", t).await;
    let e = next(&mut t);
    say(&svc, &e, "dave", "draw 3 offer", t).await;
    let e = next(&mut t);
    say(&svc, &e, "alice", "draw 3 accept", t).await;
    // #4 aborted before any move.
    start_game(&svc, "alice", "erin", "standard", t).await;
    let e = next(&mut t);
    let out = say(&svc, &e, "erin", "abort 4", t).await;
    assert!(out.iter().any(|o| o.text.contains("abort")), "{out:?}");
    // #5 still going; #6 lost on time by Black (days:1).
    start_game(&svc, "alice", "frank", "standard", t).await;
    let e = next(&mut t);
    say(&svc, &e, "alice", "move 5 c4", t).await;
    start_game(&svc, "alice", "gina", "standard days:1", t).await;
    let e = next(&mut t);
    say(&svc, &e, "alice", "move 6 e4", t).await;
    let e = next(&mut t);
    say(&svc, &e, "gina", "move 6 e5", t).await;
    let e = next(&mut t);
    say(&svc, &e, "alice", "move 6 Nf3", t).await;
    svc.tick(t + 2 * DAY).await.unwrap();
    t += 2 * DAY + 60;

    let expect = [
        (1, "1-0", Some(("normal", "checkmate"))),
        (2, "1-0", Some(("normal", "resignation"))),
        (3, "1/2-1/2", Some(("normal", "agreement"))),
        (4, "*", Some(("abandoned", "aborted"))),
        (5, "*", None),
        (6, "1-0", Some(("time forfeit", "timeout"))),
    ];
    for (id, result, ending) in expect {
        let pgn = export(&svc, id, t).await;
        let (record, pos) = read(&pgn);
        let names: Vec<&str> = record.tags.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names[..7], ROSTER, "game #{id}: {pgn}");
        // The same order in every record, however the game ended.
        let places: Vec<usize> = names
            .iter()
            .map(|n| {
                ORDER
                    .iter()
                    .position(|o| o == n)
                    .unwrap_or_else(|| panic!("game #{id}: unexpected tag {n}: {pgn}"))
            })
            .collect();
        assert!(
            places.windows(2).all(|w| w[0] < w[1]),
            "game #{id}: tags out of order: {pgn}"
        );
        assert_eq!(record.tag("Result"), Some(result), "game #{id}: {pgn}");
        assert_eq!(record.outcome.as_deref(), Some(result), "game #{id}: {pgn}");
        assert_eq!(record.tag("Event"), Some(&*format!("Postal game #{id}")));
        assert_eq!(record.tag("Round"), Some("-"));
        let date = record.tag("Date").unwrap();
        let expected_date = if id == 1 { "2026.01.01" } else { "2026.01.02" };
        assert_eq!(date, expected_date, "game #{id}: {pgn}");
        assert_eq!(record.tag("UTCDate"), Some(expected_date));
        match ending {
            Some((termination, reason)) => {
                assert_eq!(record.tag("Termination"), Some(termination), "{pgn}");
                assert_eq!(record.tag("PostalReason"), Some(reason), "{pgn}");
            }
            None => {
                assert_eq!(record.tag("Termination"), None, "{pgn}");
                assert_eq!(record.tag("PostalReason"), None, "{pgn}");
            }
        }
        if let Some(term) = record.tag("Termination") {
            assert!(TERMINATIONS.contains(&term), "{term}");
        }
        if id == 1 {
            assert_eq!(record.tag("UTCTime"), Some("09:30:15"), "{pgn}");
            assert_eq!(started_1 % DAY, 9 * HOUR + 30 * 60 + 15);
            assert!(pos.is_checkmate(), "{pgn}");
            assert_eq!(record.sans.len(), 7);
            assert_eq!(record.sans.last().unwrap().to_string(), "Qxf7#");
        }
        if id == 4 {
            assert!(record.sans.is_empty(), "{pgn}");
        }
    }
}
