//! Standings tables as images (`postal::render::table`), from the tournament layer's
//! rows of text: a golden image of a round robin's standings with its crosstable, and
//! what the image means (one row per player under the header).

use super::*;
use postal::render::table::{render_table, Table};
use postal::tournament::{
    schedule, standings, standings_table, Format, GameScore, Outcome, Record, Round,
};

/// The four-player Chess# round robin of the tournament layer's hand-checked example,
/// with one game still in progress.
fn chess_sharp_league() -> (Record, Vec<String>) {
    let mut record = Record::new(4);
    let results = [[(10, 0), (7, 3)], [(4, 6), (8, 2)], [(7, 3), (7, 3)]];
    for (r, scores) in schedule(4, false).iter().zip(results) {
        let mut round = Round::new(&r.pairings, r.bye);
        for (b, (w, bl)) in round.boards.iter_mut().zip(scores) {
            b.outcome = Some(Outcome::Played(GameScore::from_points(w, bl, 10).unwrap()));
        }
        record.rounds.push(round);
    }
    record.rounds[2].boards[1].outcome = None;
    let names = ["Ann", "Bartholomew the Magnificent", "Cy", "Dee"]
        .map(String::from)
        .to_vec();
    (record, names)
}

fn league_table() -> Table {
    let (record, names) = chess_sharp_league();
    let st = standings(&record, Format::RoundRobin);
    let t = standings_table(&record, Format::RoundRobin, &st, &names);
    Table {
        title: "Chess# league · round 3".into(),
        header: t.header,
        rows: t.rows,
    }
}

#[test]
fn round_robin_standings_with_a_crosstable_match_the_golden_image() {
    let image = render_table(&league_table(), renderer().theme());
    golden("standings-round-robin", &image);
}

#[test]
fn a_standings_image_has_a_row_per_player_under_a_header_in_the_banner_colour() {
    let theme = Theme::default();
    let table = league_table();
    let image = render_table(&table, &theme);
    // Runs of rows whose left edge (inside the margin) is the banner colour: the header.
    let x = 16;
    let banner_rows = (0..image.height())
        .filter(|&y| image.rgb(x, y) == theme.banner)
        .count();
    assert!(banner_rows >= 20, "{banner_rows}");
    // Alternate rows are striped: players 2 and 4 on the status colour.
    let striped = (0..image.height())
        .filter(|&y| image.rgb(x, y) == theme.status)
        .count();
    assert!(striped >= 2 * 20, "{striped}");
    // One more player, one more row.
    let mut longer = table.clone();
    longer.rows.push(longer.rows[0].clone());
    let taller = render_table(&longer, &theme);
    assert!(taller.height() > image.height());
    assert_eq!(taller.width(), image.width());
}
