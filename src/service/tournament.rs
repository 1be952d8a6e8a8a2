//! A stored tournament read as the pure layer's [`Record`]: its entrants ranked by their
//! stored seed, each board's outcome from its forfeit or its game (a variant that scores
//! counts as it scores: a side's points over the two sides' total, Chess#'s 7-3 as 0.7 to
//! 0.3), a round robin's rounds not yet started from its Berger table, and the
//! withdrawals. No I/O: the referee reads the rows and hands them here.

use crate::store::{BoardRow, EntrantRow, GameStatus, TournamentRow};
use crate::tournament::{
    schedule, Board, Format, GameScore, Outcome, Pairing, Player, Record, Round, Side,
};

/// The most entrants a tournament takes, whatever its limit: a round robin of this many
/// plays 63 rounds, and the standings image shows every row.
pub const MAX_ENTRANTS: usize = 64;

/// A tournament's format as the pure layer names it.
pub fn format_of(t: &TournamentRow) -> Format {
    if t.format == "swiss" {
        Format::Swiss
    } else {
        Format::RoundRobin
    }
}

/// How many rounds tournament `t` plays with `entrants` players.
pub fn rounds_of(t: &TournamentRow, entrants: usize) -> usize {
    match format_of(t) {
        // A best-score competition's deals.
        _ if t.format == "competition" => t.rounds.max(0) as usize,
        Format::Swiss => t.rounds.max(0) as usize,
        Format::RoundRobin => schedule(entrants, t.double).len(),
    }
}

/// The outcome of a board as stored: its forfeit, or its game's ending; `None` while
/// the game goes on. An aborted game counts as neither side's (a double forfeit), as
/// does a result the tournament cannot read.
pub fn board_outcome(b: &BoardRow) -> Option<Outcome> {
    match b.forfeit.as_deref() {
        Some("white") => {
            return Some(Outcome::Forfeit {
                winner: Side::White,
            })
        }
        Some("black") => {
            return Some(Outcome::Forfeit {
                winner: Side::Black,
            })
        }
        Some(_) => return Some(Outcome::DoubleForfeit),
        None => {}
    }
    match b.status? {
        GameStatus::Finished => Some(
            game_score(b.result.as_deref(), b.score.as_deref())
                .map_or(Outcome::DoubleForfeit, Outcome::Played),
        ),
        GameStatus::Active | GameStatus::Challenged => None,
        _ => Some(Outcome::DoubleForfeit),
    }
}

/// A finished game's score as the tournament counts it: where the variant scores points
/// (`[7,3]`), each side's points over their total; else by the result (`1-0`, `0-1`,
/// `1/2-1/2`).
pub fn game_score(result: Option<&str>, score: Option<&str>) -> Option<GameScore> {
    let points: Option<Vec<i64>> = score.and_then(|s| serde_json::from_str(s).ok());
    if let Some([w, b]) = points.as_deref() {
        if let (Ok(w), Ok(b)) = (u32::try_from(*w), u32::try_from(*b)) {
            if w + b > 0 {
                if let Ok(s) = GameScore::from_points(w, b, w + b) {
                    return Some(s);
                }
            }
        }
    }
    let (w, b, max) = match result? {
        "1-0" => (1, 0, 1),
        "0-1" => (0, 1, 1),
        "1/2-1/2" => (1, 1, 2),
        _ => return None,
    };
    GameScore::from_points(w, b, max).ok()
}

/// Tournament `t`'s record from its entrants and boards, with the entrants' users by
/// player number (0 the first seed).
pub fn record_of(
    t: &TournamentRow,
    entrants: &[EntrantRow],
    boards: &[BoardRow],
) -> (Record, Vec<String>) {
    let mut sorted: Vec<&EntrantRow> = entrants.iter().collect();
    sorted.sort_by_key(|e| e.seed);
    let users: Vec<String> = sorted.iter().map(|e| e.user.clone()).collect();
    let player = |seed: i64| -> Option<Player> { sorted.iter().position(|e| e.seed == seed) };
    let mut record = Record::new(users.len());
    let started = t.current_round.max(0) as usize;
    for r in 1..=started {
        let mut round = Round::default();
        for b in boards.iter().filter(|b| b.round == r as i64) {
            let Some(white) = player(b.white) else {
                continue;
            };
            match b.black.and_then(player) {
                None => round.bye = Some(white),
                Some(black) => round.boards.push(Board {
                    pairing: Pairing { white, black },
                    outcome: board_outcome(b),
                }),
            }
        }
        record.rounds.push(round);
    }
    if format_of(t) == Format::RoundRobin {
        // The rounds not yet started, as the schedule has them: a withdrawal forfeits them.
        for s in schedule(users.len(), t.double).into_iter().skip(started) {
            record.rounds.push(Round::new(&s.pairings, s.bye));
        }
    }
    let mut withdrawn: Vec<(i64, Player)> = sorted
        .iter()
        .enumerate()
        .filter_map(|(p, e)| e.withdrawn_at.map(|at| (at, p)))
        .collect();
    withdrawn.sort();
    for (_, p) in withdrawn {
        record.withdraw(p);
    }
    (record, users)
}

/// The format a best-score competition is read back with (migration 0021).
pub const COMPETITION: &str = "competition";

/// Whether tournament `t` is a best-score competition of a one-seat variant.
pub fn is_competition(t: &crate::store::TournamentRow) -> bool {
    t.format == COMPETITION
}

/// The users of `entrants` (by stored seed: the order they joined) in seed order for the
/// start: those with a rating in the tournament's variant (`ratings`, by user) first, the
/// higher rating first, then those without one; equal ratings, and those without, in the
/// order they joined (`docs/tournaments.md`, "Seeds").
pub fn seed_order(
    entrants: &[crate::store::EntrantRow],
    ratings: &std::collections::BTreeMap<String, f64>,
) -> Vec<String> {
    let mut joined: Vec<&crate::store::EntrantRow> = entrants.iter().collect();
    joined.sort_by_key(|e| e.seed);
    let mut order: Vec<(usize, &crate::store::EntrantRow)> =
        joined.into_iter().enumerate().collect();
    order.sort_by(|(i, a), (j, b)| {
        match (ratings.get(&a.user), ratings.get(&b.user)) {
            (Some(x), Some(y)) => y.total_cmp(x),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        }
        .then(i.cmp(j))
    });
    order.into_iter().map(|(_, e)| e.user.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Points;

    #[test]
    fn seeds_follow_the_rating_then_the_order_of_joining() {
        let e = |user: &str, seed| crate::store::EntrantRow {
            user: user.into(),
            seed,
            withdrawn_at: None,
        };
        // Joined in the order a, b, c, d, e (gaps where someone left).
        let entrants = [e("c", 4), e("a", 0), e("b", 2), e("d", 5), e("e", 7)];
        let ratings: std::collections::BTreeMap<String, f64> =
            [("b", 1600.0), ("d", 1700.0), ("e", 1600.0)]
                .iter()
                .map(|(u, r)| (u.to_string(), *r))
                .collect();
        // d the highest; b and e equal, b joined first; a and c unrated, by joining.
        assert_eq!(seed_order(&entrants, &ratings), ["d", "b", "e", "a", "c"]);
        assert_eq!(
            seed_order(&entrants, &Default::default()),
            ["a", "b", "c", "d", "e"]
        );
    }

    #[test]
    fn a_variant_that_scores_counts_as_it_scores() {
        let s = game_score(Some("1-0"), Some("[7,3]")).unwrap();
        assert_eq!(
            (s.white, s.black),
            (Points::from_units(1764), Points::from_units(756))
        );
        let s = game_score(Some("1/2-1/2"), None).unwrap();
        assert_eq!(s.white, s.black);
        let s = game_score(Some("0-1"), None).unwrap();
        assert_eq!((s.white, s.black), (Points::ZERO, Points::ONE));
        assert_eq!(game_score(Some("won"), None), None);
        // A negative score is read by the result.
        let s = game_score(Some("1-0"), Some("[-2,5]")).unwrap();
        assert_eq!(s.white, Points::ONE);
    }
}
