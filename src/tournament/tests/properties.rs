//! Property tests of both pairing systems over random fields, results and withdrawals.

use super::*;
use proptest::prelude::*;

/// Each player's colours over the games played, in order.
fn colour_runs(record: &Record) -> Vec<Vec<Side>> {
    let mut out = vec![Vec::new(); record.entrants];
    for round in &record.rounds {
        for b in &round.boards {
            if b.outcome.is_some_and(|o| o.played()) {
                out[b.pairing.white].push(Side::White);
                out[b.pairing.black].push(Side::Black);
            }
        }
    }
    out
}

/// Whether a colour sequence keeps the limits at every point: no colour three times
/// running, Whites minus Blacks within ±2.
fn within_limits(colours: &[Side]) -> bool {
    let mut d = 0i32;
    for (i, &c) in colours.iter().enumerate() {
        d += if c == Side::White { 1 } else { -1 };
        if d.abs() > 2 || (i >= 2 && colours[i - 2] == c && colours[i - 1] == c) {
            return false;
        }
    }
    true
}

/// Whether `players` can be paired with nobody meeting a former opponent (and, with
/// `colours`, nobody pushed past the colour limits), by trying every pairing.
fn pairable(record: &Record, players: &[Player], colours: bool) -> bool {
    let runs = colour_runs(record);
    let fits = |p: Player, c: Side| {
        let mut r = runs[p].clone();
        r.push(c);
        within_limits(&r)
    };
    fn go(players: &[Player], ok: &dyn Fn(Player, Player) -> bool) -> bool {
        let Some((&first, rest)) = players.split_first() else {
            return true;
        };
        rest.iter().enumerate().any(|(i, &q)| {
            ok(first, q) && {
                let mut others = rest.to_vec();
                others.remove(i);
                go(&others, ok)
            }
        })
    }
    let ok = |a: Player, b: Player| {
        !record.have_met(a, b)
            && (!colours
                || (fits(a, Side::White) && fits(b, Side::Black))
                || (fits(a, Side::Black) && fits(b, Side::White)))
    };
    go(players, &ok)
}

/// Whether `p` may still have a bye: none yet, and no forfeit win.
fn bye_eligible(record: &Record, p: Player) -> bool {
    record.rounds.iter().all(|r| {
        r.bye != Some(p)
            && !r.board_of(p).is_some_and(|x| {
                matches!(x.outcome, Some(Outcome::Forfeit { winner }) if x.pairing.side(p) == Some(winner))
            })
    })
}

/// A random result: `pick` chooses among wins, draws and Chess#'s shares.
fn result(pick: u8) -> GameScore {
    match pick % 6 {
        0 => GameScore::WHITE_WINS,
        1 => GameScore::BLACK_WINS,
        2 => GameScore::DRAW,
        3 => sharp(7, 3),
        4 => sharp(4, 6),
        _ => sharp(2, 8),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Swiss: no rematch, everyone still in paired once or given the bye, the bye only in
    /// odd fields and to nobody twice while someone else could take it, colours within
    /// the limits unless no pairing keeps them.
    #[test]
    fn swiss_pairings_keep_the_absolute_rules(
        players in 1usize..=40,
        rounds in 1usize..=9,
        picks in proptest::collection::vec(any::<u8>(), 400),
        leaves in proptest::collection::vec(any::<u16>(), 9),
    ) {
        let mut record = Record::new(players);
        let mut k = 0;
        for (r, &leave) in leaves.iter().enumerate().take(rounds) {
            let active = record.active();
            let paired = match pair(&record) {
                Ok(p) => p,
                Err(PairingError::TooFewPlayers) => {
                    prop_assert!(active.len() < 2);
                    break;
                }
                Err(e) => {
                    // Only when no pairing without a rematch exists, checked by brute
                    // force where that is affordable.
                    prop_assert_eq!(e, PairingError::NoPairing);
                    prop_assert!(active.len() <= 13, "{} players unpairable", active.len());
                    let odd = active.len() % 2 == 1;
                    let any = if odd {
                        (0..active.len()).any(|i| {
                            let mut rest = active.clone();
                            rest.remove(i);
                            pairable(&record, &rest, false)
                        })
                    } else {
                        pairable(&record, &active, false)
                    };
                    prop_assert!(!any, "a pairing existed");
                    break;
                }
            };
            // Everyone still in is paired once or has the bye; nobody else appears.
            let mut seen = vec![0; players];
            for x in &paired.pairings {
                prop_assert_ne!(x.white, x.black);
                prop_assert!(!record.have_met(x.white, x.black), "rematch {:?}", x);
                seen[x.white] += 1;
                seen[x.black] += 1;
            }
            if let Some(b) = paired.bye {
                seen[b] += 1;
            }
            for (p, &n) in seen.iter().enumerate() {
                prop_assert_eq!(n, usize::from(active.contains(&p)), "player {}", p);
            }
            prop_assert_eq!(paired.bye.is_some(), active.len() % 2 == 1);
            // A second bye only when nobody else eligible could have had it.
            if let Some(b) = paired.bye {
                if !bye_eligible(&record, b) {
                    prop_assert!(active.len() <= 13, "second bye for {} in a big field", b);
                    for &q in &active {
                        if q != b && bye_eligible(&record, q) {
                            let rest: Vec<Player> = active.iter().copied().filter(|&x| x != q).collect();
                            prop_assert!(!pairable(&record, &rest, false), "{} could have had the bye", q);
                        }
                    }
                }
            }
            let relaxed = paired.colours_relaxed;
            if relaxed {
                // Only when no pairing keeps the limits, whoever of the same standing
                // (eligible for a bye or not) sits out.
                prop_assert!(active.len() <= 13, "colours relaxed in a big field");
                if active.len() % 2 == 0 {
                    prop_assert!(!pairable(&record, &active, true));
                } else {
                    let eligible = |p: Player| bye_eligible(&record, p);
                    let class = paired.bye.map(eligible).unwrap_or(false);
                    for &q in &active {
                        if !class || eligible(q) {
                            let rest: Vec<Player> = active.iter().copied().filter(|&x| x != q).collect();
                            prop_assert!(!pairable(&record, &rest, true), "sitting {} out keeps colours", q);
                        }
                    }
                }
            }
            // Play the round; now and then someone withdraws before their game ends.
            let before = colour_runs(&record);
            let mut round = Round::new(&paired.pairings, paired.bye);
            for b in &mut round.boards {
                b.outcome = Some(Outcome::Played(result(picks[k % picks.len()])));
                k += 1;
            }
            record.rounds.push(round);
            if leave % 4 == 0 && !active.is_empty() {
                let who = active[leave as usize / 4 % active.len()];
                let board = record.rounds[r].boards.iter().position(|b| b.pairing.has(who));
                if let Some(i) = board {
                    record.rounds[r].boards[i].outcome = None;
                }
                record.withdraw(who);
            }
            // Within the limits after the round, for everyone who was before it (a
            // relaxed round earlier may have left someone beyond them).
            if !relaxed {
                for (p, run) in colour_runs(&record).iter().enumerate() {
                    if within_limits(&before[p]) {
                        prop_assert!(within_limits(run), "player {} has {:?}", p, run);
                    }
                }
            }
        }
    }

    /// Round robin: every pair meets once a cycle (colours reversed in the second),
    /// everyone plays or sits out each round, one round off a cycle in odd fields only,
    /// colours within the limits and balanced.
    #[test]
    fn round_robin_schedules_meet_everyone_once_a_cycle(players in 1usize..=40, double: bool) {
        let s = schedule(players, double);
        let cycles = if double { 2 } else { 1 };
        let per_cycle = if players < 2 { 0 } else { players - 1 + players % 2 };
        prop_assert_eq!(s.len(), per_cycle * cycles);
        let mut met = std::collections::HashMap::new();
        let mut colours = vec![Vec::new(); players];
        let mut byes = vec![0; players];
        for round in &s {
            let mut seen = vec![0; players];
            for x in &round.pairings {
                seen[x.white] += 1;
                seen[x.black] += 1;
                colours[x.white].push(Side::White);
                colours[x.black].push(Side::Black);
                met.entry((x.white.min(x.black), x.white.max(x.black)))
                    .or_insert_with(Vec::new)
                    .push(x.white);
            }
            if let Some(b) = round.bye {
                seen[b] += 1;
                byes[b] += 1;
            }
            prop_assert!(seen.iter().all(|&n| n == 1));
            prop_assert_eq!(round.bye.is_some(), players % 2 == 1);
        }
        prop_assert_eq!(met.len(), players * players.saturating_sub(1) / 2);
        for whites in met.values() {
            prop_assert_eq!(whites.len(), cycles);
            if double {
                prop_assert_ne!(whites[0], whites[1], "colours reversed");
            }
        }
        for p in 0..players {
            prop_assert_eq!(byes[p], if players % 2 == 1 && players > 1 { cycles } else { 0 });
            prop_assert!(within_limits(&colours[p]), "player {} has {:?}", p, colours[p]);
            let d: i32 = colours[p].iter().map(|&c| if c == Side::White { 1 } else { -1 }).sum();
            let bound = if players % 2 == 0 || double { 1 } else { 2 };
            prop_assert!(d.abs() <= bound, "player {} ends {} from even", p, d);
        }
    }
}
