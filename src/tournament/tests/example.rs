//! Standings worked out by hand, the arithmetic in the comments (docs/tournaments.md
//! shows the same two examples).

use super::*;

/// A four-player Chess# round robin (FIDE's Berger table for four: round 1 is 1-4, 2-3;
/// round 2 is 4-3, 1-2; round 3 is 2-4, 3-1), players A, B, C, D = seeds 0..3.
#[test]
fn a_chess_sharp_round_robin_is_scored_in_shares_and_broken_by_sonneborn_berger() {
    let s = schedule(4, false);
    let (a, b, c, d) = (0, 1, 2, 3);
    assert_eq!(
        s.iter().map(|r| r.pairings.clone()).collect::<Vec<_>>(),
        vec![
            vec![
                Pairing { white: a, black: d },
                Pairing { white: b, black: c }
            ],
            vec![
                Pairing { white: d, black: c },
                Pairing { white: a, black: b }
            ],
            vec![
                Pairing { white: b, black: d },
                Pairing { white: c, black: a }
            ],
        ]
    );
    let mut record = Record::new(4);
    // Round 1: A-D 10-0 (1-0), B-C 7-3 (0.7-0.3).
    // Round 2: D-C 4-6 (0.4-0.6, an impasse), A-B 8-2 (0.8-0.2).
    // Round 3: B-D 7-3 (0.7-0.3), C-A 7-3 (0.7-0.3).
    let results = [
        [sharp(10, 0), sharp(7, 3)],
        [sharp(4, 6), sharp(8, 2)],
        [sharp(7, 3), sharp(7, 3)],
    ];
    for (round, scores) in s.iter().zip(results) {
        let mut r = Round::new(&round.pairings, round.bye);
        for (board, score) in r.boards.iter_mut().zip(scores) {
            board.outcome = Some(Outcome::Played(score));
        }
        record.rounds.push(r);
    }
    // Points: A = 1 + 0.8 + 0.3 = 2.1; B = 0.7 + 0.2 + 0.7 = 1.6;
    //         C = 0.3 + 0.6 + 0.7 = 1.6; D = 0 + 0.4 + 0.3 = 0.7 (sum 6 = 6 games).
    // Sonneborn-Berger, opponent's points x points scored against them:
    //   A = D 0.7 x 1   + B 1.6 x 0.8 + C 1.6 x 0.3 = 0.7  + 1.28 + 0.48 = 2.46
    //   B = C 1.6 x 0.7 + A 2.1 x 0.2 + D 0.7 x 0.7 = 1.12 + 0.42 + 0.49 = 2.03
    //   C = B 1.6 x 0.3 + D 0.7 x 0.6 + A 2.1 x 0.7 = 0.48 + 0.42 + 1.47 = 2.37
    //   D = A 2.1 x 0   + C 1.6 x 0.4 + B 1.6 x 0.3 = 0    + 0.64 + 0.48 = 1.12
    // So C is second ahead of B, tied on 1.6 points.
    let st = standings(&record, Format::RoundRobin);
    let got: Vec<(Player, usize, Points, Vec<TieValue>)> = st
        .iter()
        .map(|x| (x.player, x.rank, x.points, x.tie_breaks.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (a, 1, tenths(21), vec![hundredths(246)]),
            (c, 2, tenths(16), vec![hundredths(237)]),
            (b, 3, tenths(16), vec![hundredths(203)]),
            (d, 4, tenths(7), vec![hundredths(112)]),
        ]
    );
    let names = ["Ann", "Bob", "Cy", "Dee"].map(String::from);
    let table = standings_table(&record, Format::RoundRobin, &st, &names);
    assert_eq!(
        table.to_text(),
        "#  Player  Pts    SB    1    2    3    4\n\
         ----------------------------------------\n\
         1  Ann     2.1  2.46    *  0.3  0.8    1\n\
         2  Cy      1.6  2.37  0.7    *  0.3  0.6\n\
         3  Bob     1.6  2.03  0.2  0.7    *  0.7\n\
         4  Dee     0.7  1.12    0  0.4  0.3    *"
    );
}

/// A five-player Swiss of standard chess over three rounds, with two byes and a
/// withdrawal (players P0..P4 by seed).
#[test]
fn a_swiss_counts_byes_and_withdrawals_as_games_against_oneself() {
    let mut record = Record::new(5);
    // Round 1: P0-P3 1-0, P1-P4 ½-½, P2 has the bye (1 point).
    record.rounds.push(Round {
        boards: vec![
            game(0, 3, GameScore::WHITE_WINS),
            game(1, 4, GameScore::DRAW),
        ],
        bye: Some(2),
    });
    // Round 2: P2-P0 0-1, P3-P1 0-1, P4 has the bye.
    record.rounds.push(Round {
        boards: vec![
            game(2, 0, GameScore::BLACK_WINS),
            game(3, 1, GameScore::BLACK_WINS),
        ],
        bye: Some(4),
    });
    // P4 withdraws before round 3, which is P0-P1 ½-½ and P2-P3 1-0.
    record.withdraw(4);
    assert_eq!(record.withdrawals, vec![(4, 2)]);
    record.rounds.push(Round {
        boards: vec![
            game(0, 1, GameScore::DRAW),
            game(2, 3, GameScore::WHITE_WINS),
        ],
        bye: None,
    });
    // Points: P0 = 1 + 1 + ½ = 2½; P1 = ½ + 1 + ½ = 2; P2 = 1 (bye) + 0 + 1 = 2;
    //         P3 = 0; P4 = ½ + 1 (bye) + 0 (absent) = 1½.
    // Buchholz (opponents' points; an unplayed round counts the player's own points):
    //   P0: P3 0 + P2 2 + P1 2               = 4
    //   P1: P4 1½ + P3 0 + P0 2½             = 4
    //   P2: bye (own 2) + P0 2½ + P3 0       = 4½
    //   P3: P0 2½ + P1 2 + P2 2              = 6½
    //   P4: P1 2 + bye (own 1½) + absent 1½  = 5
    // Median Buchholz (the middle one of three):
    //   P0 {0, 2, 2} -> 2; P1 {0, 1½, 2½} -> 1½; P2 {0, 2, 2½} -> 2;
    //   P3 {2, 2, 2½} -> 2; P4 {1½, 1½, 2} -> 1½.
    // P2 is second ahead of P1 on Buchholz.
    let st = standings(&record, Format::Swiss);
    let half = |n: i64| Points::from_units(n * UNITS / 2);
    let got: Vec<(Player, usize, Points, Vec<TieValue>, bool)> = st
        .iter()
        .map(|x| {
            (
                x.player,
                x.rank,
                x.points,
                x.tie_breaks.clone(),
                x.withdrawn,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (0, 1, half(5), vec![half(8).value(), half(4).value()], false),
            (2, 2, half(4), vec![half(9).value(), half(4).value()], false),
            (1, 3, half(4), vec![half(8).value(), half(3).value()], false),
            (4, 4, half(3), vec![half(10).value(), half(3).value()], true),
            (
                3,
                5,
                half(0),
                vec![half(13).value(), half(4).value()],
                false
            ),
        ]
    );
    assert_eq!(
        st.iter().map(|x| x.played).collect::<Vec<_>>(),
        [3, 2, 3, 1, 3]
    );
}

#[test]
fn a_withdrawal_forfeits_the_rest_of_a_round_robin_schedule() {
    let mut record = Record::new(4);
    for r in schedule(4, false) {
        record.rounds.push(Round::new(&r.pairings, r.bye));
    }
    // Round 1 is played: 1-0 on both boards. Then B (seed 1) withdraws.
    for b in &mut record.rounds[0].boards {
        b.outcome = Some(Outcome::Played(GameScore::WHITE_WINS));
    }
    assert_eq!(
        record.withdraw(1),
        2,
        "B's games against A and D are forfeited"
    );
    assert_eq!(record.withdraw(1), 0, "once");
    assert_eq!(record.withdrawals, vec![(1, 1)]);
    let a_b = record.rounds[1].boards[1];
    assert_eq!(
        a_b.outcome,
        Some(Outcome::Forfeit {
            winner: Side::White
        })
    );
    assert!(!a_b.outcome.unwrap().played());
    let st = standings(&record, Format::RoundRobin);
    let a = st.iter().find(|s| s.player == 0).unwrap();
    // A: a win over D and a forfeit win over B; C-A still to be played.
    assert_eq!((a.points, a.played), (Points::whole(2), 1));
    let table = standings_table(
        &record,
        Format::RoundRobin,
        &st,
        &["A", "B", "C", "D"].map(String::from),
    );
    assert!(table.rows.iter().any(|r| r[1] == "B (w)"));
    assert!(table.rows.iter().any(|r| r.iter().any(|c| c == "+")));
}
