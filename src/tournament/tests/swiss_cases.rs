//! Swiss pairings checked by hand against the Dutch system.

use super::*;

fn pairs(p: &SwissPairing) -> Vec<(Player, Player)> {
    p.pairings.iter().map(|x| (x.white, x.black)).collect()
}

/// Plays a round: pairs it, and gives each board the result `result(white, black)`.
fn play(record: &mut Record, result: impl Fn(Player, Player) -> GameScore) -> SwissPairing {
    let p = pair(record).unwrap();
    let mut round = Round::new(&p.pairings, p.bye);
    for b in &mut round.boards {
        b.outcome = Some(Outcome::Played(result(b.pairing.white, b.pairing.black)));
    }
    record.rounds.push(round);
    p
}

#[test]
fn round_one_pairs_the_top_half_with_the_bottom_half_alternating_colours() {
    // Dutch: S1 = 1, 2, 3 against S2 = 4, 5, 6; the odd pairing numbers of S1 have White.
    let p = pair(&Record::new(6)).unwrap();
    assert_eq!(pairs(&p), vec![(0, 3), (4, 1), (2, 5)]);
    assert_eq!(p.bye, None);
    // Five players: the last seed has the bye; 1-3 and 4-2.
    let p = pair(&Record::new(5)).unwrap();
    assert_eq!((pairs(&p), p.bye), (vec![(0, 2), (3, 1)], Some(4)));
}

#[test]
fn round_two_pairs_score_groups_and_grants_colour_preferences() {
    let mut record = Record::new(6);
    // Round 1: 1-4, 5-2, 3-6; White wins every game: winners 0, 4, 2.
    play(&mut record, |_, _| GameScore::WHITE_WINS);
    let p = pair(&record).unwrap();
    // Score group 1: seeds 0, 2, 4 (ranked by seed), S1 = {0}, S2 = {2, 4} would leave
    // one over: it pairs 0-2 and 4 floats to the 0-point group {1, 3, 5} + 4.
    // 0 and 2 both had White (mild preference for Black each): one of them must give
    // way; the Dutch system grants the higher-ranked's preference: 2 White, 0 Black.
    // Bracket {4 | 1, 3, 5}: S1 = {4, 1}, S2 = {3, 5}: 4-3 is a rematch... 4 met 1.
    // 4 (had White, wants Black) meets 3 (had Black, wants White): 3-4; 1 (had Black)
    // meets 5 (had Black): both want White, the higher-ranked 1 gets it.
    assert_eq!(pairs(&p), vec![(2, 0), (3, 4), (1, 5)]);
    for x in &p.pairings {
        assert!(!record.have_met(x.white, x.black));
    }
}

#[test]
fn a_top_group_that_has_already_met_floats_down_whole() {
    let mut record = Record::new(4);
    // Round 1: 0-2 and 3-1, both 1-0 for the higher seed (0 and 1 win).
    record.rounds.push(Round {
        boards: vec![
            game(0, 2, GameScore::WHITE_WINS),
            game(3, 1, GameScore::BLACK_WINS),
        ],
        bye: None,
    });
    // Round 2: 0-1 and 2-3 drawn.
    record.rounds.push(Round {
        boards: vec![game(1, 0, GameScore::DRAW), game(2, 3, GameScore::DRAW)],
        bye: None,
    });
    // Round 3: 0 and 1 (1½ each) have met, so both float: 0 meets 3, 1 meets 2.
    let p = pair(&record).unwrap();
    let mut got: Vec<(Player, Player)> = p
        .pairings
        .iter()
        .map(|x| (x.white.min(x.black), x.white.max(x.black)))
        .collect();
    got.sort();
    assert_eq!(got, vec![(0, 3), (1, 2)]);
    assert!(!p.colours_relaxed);
}

#[test]
fn the_bye_goes_to_the_lowest_ranked_player_without_one() {
    let mut record = Record::new(5);
    let first = play(&mut record, |_, _| GameScore::DRAW);
    assert_eq!(first.bye, Some(4));
    // Everyone drew: 4 leads on 1 point (the bye), the rest have ½; the lowest group's
    // lowest-ranked player is 3.
    let second = play(&mut record, |_, _| GameScore::DRAW);
    assert_eq!(second.bye, Some(3));
    let third = pair(&record).unwrap();
    assert!(third.bye.is_some() && ![Some(3), Some(4)].contains(&third.bye));
}

#[test]
fn a_withdrawn_player_is_not_paired_and_unfinished_rounds_are_refused() {
    let mut record = Record::new(4);
    let p = pair(&record).unwrap();
    record.rounds.push(Round::new(&p.pairings, p.bye));
    assert_eq!(pair(&record), Err(PairingError::RoundUnfinished(0)));
    record.withdraw(3);
    for b in &mut record.rounds[0].boards {
        b.outcome.get_or_insert(Outcome::Played(GameScore::DRAW));
    }
    let next = pair(&record).unwrap();
    assert!(next.pairings.iter().all(|x| !x.has(3)));
    assert_eq!(next.pairings.len() + usize::from(next.bye.is_some()), 2);
    // 1's opponent forfeited by withdrawing: a forfeit win, so not 1's bye.
    assert_ne!(next.bye, Some(1));
    assert_eq!(pair(&Record::new(1)), Err(PairingError::TooFewPlayers));
}

#[test]
fn pairing_is_refused_when_every_pairing_repeats_a_game() {
    let mut record = Record::new(2);
    play(&mut record, |_, _| GameScore::DRAW);
    assert_eq!(pair(&record), Err(PairingError::NoPairing));
}

#[test]
fn an_eighteen_player_five_round_swiss_with_a_withdrawal_pairs_every_round_within_limits() {
    for (players, rounds) in [(18, 5), (9, 4), (40, 9)] {
        let mut record = Record::new(players);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for r in 0..rounds {
            let p =
                pair(&record).unwrap_or_else(|e| panic!("{players} players, round {}: {e}", r + 1));
            assert!(!p.colours_relaxed, "{players} players, round {}", r + 1);
            let mut round = Round::new(&p.pairings, p.bye);
            for b in &mut round.boards {
                assert!(!record.have_met(b.pairing.white, b.pairing.black));
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                b.outcome = Some(Outcome::Played(match seed % 3 {
                    0 => GameScore::WHITE_WINS,
                    1 => GameScore::DRAW,
                    _ => GameScore::BLACK_WINS,
                }));
            }
            record.rounds.push(round);
            if r == 1 {
                record.withdraw(players / 2);
            }
        }
        let byes: Vec<Player> = record.rounds.iter().filter_map(|r| r.bye).collect();
        let mut distinct = byes.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            byes.len(),
            "byes go to different players: {byes:?}"
        );
        let st = standings(&record, Format::Swiss);
        assert_eq!(st.len(), players);
        assert!(st.windows(2).all(|w| w[0].points >= w[1].points));
    }
}
