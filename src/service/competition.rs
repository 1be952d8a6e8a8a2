//! A stored best-score competition read as the pure layer's results: each entrant's
//! attempt at each deal from their board's game ([`deal_result`]), and whose next deal
//! is due. No I/O: the referee reads the rows and hands them here
//! (`src/service/referee/competition.rs` runs the competition).

use crate::store::{BoardRow, EntrantRow, GameStatus};
use crate::tournament::DealResult;

/// The most deals a competition takes: each is a whole attempt per entrant, played one
/// after another.
pub const MAX_DEALS: u32 = 10;

/// The deals of a competition made without `deals:`.
pub const DEFAULT_DEALS: u32 = 3;

/// A competition as stored, read: the entrants by seed and their attempts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Competition {
    /// The entrants' users, by seed (player 0 first).
    pub users: Vec<String>,
    /// Whether each entrant has withdrawn.
    pub withdrawn: Vec<bool>,
    /// `results[p][d]`: entrant `p`'s attempt at deal `d + 1`.
    pub results: Vec<Vec<DealResult>>,
    /// How many deals each entrant has been dealt.
    pub dealt: Vec<usize>,
}

/// The attempt a board holds: its game's result (`won` with its score, anything else
/// lost), lost when forfeited (a withdrawal) or when its game ended without a result (an
/// abort: a deal that was dealt counts), pending while the game goes on.
pub fn deal_result(b: &BoardRow) -> DealResult {
    if b.forfeit.is_some() {
        return DealResult::Lost;
    }
    match b.status {
        Some(GameStatus::Active | GameStatus::Challenged) => DealResult::Pending,
        Some(GameStatus::Finished) if b.result.as_deref() == Some("won") => {
            let score: Option<Vec<i32>> = b
                .score
                .as_deref()
                .and_then(|s| serde_json::from_str(s).ok());
            match score.as_deref() {
                Some([s]) => DealResult::Won(*s),
                _ => DealResult::Lost,
            }
        }
        _ => DealResult::Lost,
    }
}

impl Competition {
    /// Competition of `deals` deals from its entrants and boards (round = deal, `white`
    /// the entrant's stored seed). A deal not yet dealt is pending, or lost for an
    /// entrant who withdrew.
    pub fn read(deals: usize, entrants: &[EntrantRow], boards: &[BoardRow]) -> Competition {
        let mut sorted: Vec<&EntrantRow> = entrants.iter().collect();
        sorted.sort_by_key(|e| e.seed);
        let mut c = Competition {
            users: sorted.iter().map(|e| e.user.clone()).collect(),
            withdrawn: sorted.iter().map(|e| e.withdrawn_at.is_some()).collect(),
            results: Vec::new(),
            dealt: Vec::new(),
        };
        for e in &sorted {
            let unplayed = if e.withdrawn_at.is_some() {
                DealResult::Lost
            } else {
                DealResult::Pending
            };
            let mut row = vec![unplayed; deals];
            let mut dealt = 0;
            for b in boards.iter().filter(|b| b.white == e.seed) {
                if let Some(slot) = usize::try_from(b.round - 1)
                    .ok()
                    .and_then(|d| row.get_mut(d))
                {
                    *slot = deal_result(b);
                    dealt += 1;
                }
            }
            c.results.push(row);
            c.dealt.push(dealt);
        }
        c
    }

    /// The next deal (from 1) due to each entrant who has one: still in, no attempt
    /// under way, and deals left. `(player, deal)`.
    pub fn due(&self) -> Vec<(usize, usize)> {
        (0..self.users.len())
            .filter(|&p| !self.withdrawn[p])
            .filter(|&p| self.dealt[p] < self.results[p].len())
            .filter(|&p| !self.results[p][..self.dealt[p]].contains(&DealResult::Pending))
            .map(|p| (p, self.dealt[p] + 1))
            .collect()
    }

    /// Whether every attempt has ended: the competition is over.
    pub fn is_over(&self) -> bool {
        self.results
            .iter()
            .flatten()
            .all(|r| *r != DealResult::Pending)
    }

    /// The deals every entrant has finished, counted from the first: `d` when deals 1
    /// to `d` are all ended for everyone.
    pub fn deals_complete(&self) -> usize {
        let deals = self.results.first().map_or(0, Vec::len);
        (0..deals)
            .take_while(|&d| self.results.iter().all(|r| r[d] != DealResult::Pending))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(round: i64, white: i64, status: GameStatus, result: &str, score: &str) -> BoardRow {
        BoardRow {
            round,
            board: white + 1,
            white,
            black: None,
            game_id: Some(round * 10 + white),
            forfeit: None,
            status: Some(status),
            result: (!result.is_empty()).then(|| result.to_string()),
            score: (!score.is_empty()).then(|| score.to_string()),
        }
    }

    fn entrant(user: &str, seed: i64, withdrawn: bool) -> EntrantRow {
        EntrantRow {
            user: user.into(),
            seed,
            withdrawn_at: withdrawn.then_some(1),
        }
    }

    #[test]
    fn attempts_read_as_won_lost_or_pending_and_the_next_deal_is_due_after_the_last() {
        use DealResult::*;
        let entrants = [
            entrant("b", 3, false),
            entrant("a", 1, false),
            entrant("c", 4, true),
        ];
        let boards = [
            board(1, 1, GameStatus::Finished, "won", "[-2]"),
            board(2, 1, GameStatus::Active, "", ""),
            board(1, 3, GameStatus::Aborted, "", ""),
            board(1, 4, GameStatus::Finished, "lost", ""),
        ];
        let c = Competition::read(3, &entrants, &boards);
        assert_eq!(c.users, vec!["a", "b", "c"]);
        assert_eq!(
            c.results,
            vec![
                vec![Won(-2), Pending, Pending],
                vec![Lost, Pending, Pending],
                vec![Lost, Lost, Lost],
            ]
        );
        // a plays deal 2; b's deal 2 is due; c withdrew.
        assert_eq!(c.due(), vec![(1, 2)]);
        assert_eq!(c.deals_complete(), 1);
        assert!(!c.is_over());
        let mut forfeited = board(2, 1, GameStatus::Active, "", "");
        forfeited.forfeit = Some("black".into());
        assert_eq!(deal_result(&forfeited), Lost);
        // A won game whose score cannot be read counts as lost, not as a made-up score.
        assert_eq!(
            deal_result(&board(1, 1, GameStatus::Finished, "won", "x")),
            Lost
        );
    }
}
