//! A server's tables, computed from its finished games alone: Glicko-2 ratings per
//! variant family, the points table of variants that score (Chess#'s rule 12), and the
//! best scores of the solitaires. Nothing here is stored: the tables are a fold over the
//! stored games in the order they finished, so recomputing them from the database
//! (`postal ratings --recompute`) gives what the players saw game by game.
//!
//! Rating periods: each rated game is its own Glicko-2 rating period, applied in the
//! order the games finished (the time of their last write, then their id). A
//! correspondence game lasts weeks and finishes at no fixed time, so periods of a fixed
//! length would hold results back for no gain; one game per period is what the crate's
//! two-player form (`glicko2`) computes, and a period without games changes nothing.

use crate::service::names::is_forgotten;
use crate::store::FinishedGame;
use crate::variants::api::Standing;
use crate::variants::Registry;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use std::collections::BTreeMap;

/// One player's standing in one rated family.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated {
    /// The Glicko-2 rating (1500, deviation 350, volatility 0.06 before any game).
    pub rating: Glicko2Rating,
    /// Rated games won.
    pub won: u32,
    /// Rated games drawn.
    pub drawn: u32,
    /// Rated games lost.
    pub lost: u32,
    /// The points of every rated game added up, for a variant that scores (Chess#).
    pub points: i64,
}

impl Default for Rated {
    fn default() -> Rated {
        Rated {
            rating: Glicko2Rating::new(),
            won: 0,
            drawn: 0,
            lost: 0,
            points: 0,
        }
    }
}

impl Rated {
    /// Rated games played.
    pub fn games(&self) -> u32 {
        self.won + self.drawn + self.lost
    }
}

/// One player's record at a solitaire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Best {
    /// The best score of a won attempt, with that game's id; `None` before a win.
    pub best: Option<(i32, i64)>,
    /// Attempts finished (won or lost).
    pub attempts: u32,
    /// Attempts won.
    pub won: u32,
}

/// The tables of one server (or of all games, for the operator).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tables {
    /// By variant id, by user: the rated families.
    pub rated: BTreeMap<String, BTreeMap<String, Rated>>,
    /// By variant id, by user: the solitaires' best scores.
    pub best: BTreeMap<String, BTreeMap<String, Best>>,
}

/// Whether a stored game's options leave it rated: `rated:no` is recorded, the default
/// (and every game stored before the option existed) is rated.
pub fn rated_option(options: &str) -> bool {
    serde_json::from_str::<BTreeMap<String, String>>(options)
        .ok()
        .and_then(|o| o.get("rated").cloned())
        .map_or(true, |v| v != "no")
}

/// The points per seat a stored score holds (`[10,0]`).
fn score(g: &FinishedGame) -> Option<Vec<i32>> {
    serde_json::from_str(g.score.as_deref()?).ok()
}

impl Tables {
    /// The tables of `games`, taken in the order given (the order they finished).
    pub fn compute(registry: &Registry, games: &[FinishedGame]) -> Tables {
        let mut t = Tables::default();
        for g in games {
            t.add(registry, g);
        }
        t
    }

    /// Adds one finished game: a rated game is one rating period for its two players; a
    /// solitaire's attempt counts towards its player's record. Anything else (unrated,
    /// self-play, cooperative, a variant no longer registered) changes nothing.
    pub fn add(&mut self, registry: &Registry, g: &FinishedGame) {
        let Some(spec) = registry.find(&g.variant) else {
            return;
        };
        match spec.standing() {
            Standing::Rated { points } => {
                let [Some(a), Some(b)] = g.players.as_slice() else {
                    return;
                };
                let outcome = match g.result.as_str() {
                    "1-0" => Outcomes::WIN,
                    "0-1" => Outcomes::LOSS,
                    "1/2-1/2" => Outcomes::DRAW,
                    _ => return,
                };
                if a == b || !rated_option(&g.options) {
                    return;
                }
                let family = self.rated.entry(spec.id().to_string()).or_default();
                let pa = family.get(a).copied().unwrap_or_default();
                let pb = family.get(b).copied().unwrap_or_default();
                let (ra, rb) = glicko2(&pa.rating, &pb.rating, &outcome, &Glicko2Config::new());
                let pts = if points { score(g) } else { None };
                let next = |p: Rated, rating, seat: usize, won: bool, lost: bool| Rated {
                    rating,
                    won: p.won + u32::from(won),
                    lost: p.lost + u32::from(lost),
                    drawn: p.drawn + u32::from(!won && !lost),
                    points: p.points
                        + pts
                            .as_ref()
                            .and_then(|s| s.get(seat))
                            .map_or(0, |&x| i64::from(x)),
                };
                let white_won = outcome == Outcomes::WIN;
                let black_won = outcome == Outcomes::LOSS;
                let na = next(pa, ra, 0, white_won, black_won);
                let nb = next(pb, rb, 1, black_won, white_won);
                family.insert(a.clone(), na);
                family.insert(b.clone(), nb);
            }
            Standing::BestScore => {
                let [Some(user)] = g.players.as_slice() else {
                    return;
                };
                let table = self.best.entry(spec.id().to_string()).or_default();
                let rec = table.entry(user.clone()).or_insert(Best {
                    best: None,
                    attempts: 0,
                    won: 0,
                });
                rec.attempts += 1;
                if g.result == "won" {
                    rec.won += 1;
                    let s = score(g).and_then(|s| s.first().copied()).unwrap_or(0);
                    // The earlier of two equal scores keeps its place.
                    if rec.best.map_or(true, |(b, _)| s > b) {
                        rec.best = Some((s, g.id));
                    }
                }
            }
            Standing::Unrated(_) => {}
        }
    }

    /// The rated family `variant`, best first: by rating, then by name (user key).
    /// Forgotten players ([`crate::service::names::is_forgotten`]) are left out; their
    /// games still count for their opponents' ratings.
    pub fn leaders(&self, variant: &str) -> Vec<(&str, &Rated)> {
        let mut v: Vec<(&str, &Rated)> = self
            .rated
            .get(variant)
            .map(|f| f.iter().map(|(u, r)| (u.as_str(), r)).collect())
            .unwrap_or_default();
        v.retain(|(u, _)| !is_forgotten(u));
        v.sort_by(|a, b| {
            b.1.rating
                .rating
                .total_cmp(&a.1.rating.rating)
                .then_with(|| a.0.cmp(b.0))
        });
        v
    }

    /// The solitaire `variant`'s players with a won attempt, best score first (an
    /// earlier game first among equal scores); forgotten players left out.
    pub fn best_scores(&self, variant: &str) -> Vec<(&str, &Best)> {
        let mut v: Vec<(&str, &Best)> = self
            .best
            .get(variant)
            .map(|f| f.iter().map(|(u, r)| (u.as_str(), r)).collect())
            .unwrap_or_default();
        v.retain(|(u, b)| b.best.is_some() && !is_forgotten(u));
        v.sort_by_key(|(u, b)| {
            let (s, id) = b.best.unwrap_or((0, 0));
            (std::cmp::Reverse(s), id, u.to_string())
        });
        v
    }
}

/// A rating as players read it: `1662 ±290`.
pub fn rating_words(r: &Glicko2Rating) -> String {
    format!("{:.0} ±{:.0}", r.rating, r.deviation)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: i64, variant: &str, players: &[&str], result: &str) -> FinishedGame {
        FinishedGame {
            id,
            variant: variant.into(),
            server: None,
            options: "{}".into(),
            result: result.into(),
            score: None,
            finished_at: id,
            players: players.iter().map(|p| Some(p.to_string())).collect(),
        }
    }

    #[test]
    fn one_win_between_newcomers_gives_the_crates_reference_numbers() {
        // skillratings' documented example for `glicko2`: two players at 1500 ±350,
        // volatility 0.06; player one wins: 1662 ±290 and 1338 ±290, volatility
        // 0.05999967537233814 for both.
        let r = Registry::builtin();
        let t = Tables::compute(&r, &[game(1, "standard", &["alice", "bob"], "1-0")]);
        let a = t.rated["standard"]["alice"];
        let b = t.rated["standard"]["bob"];
        assert_eq!(a.rating.rating.round(), 1662.0);
        assert_eq!(a.rating.deviation.round(), 290.0);
        assert!((a.rating.volatility - 0.059_999_675_372_338_14).abs() < 1e-15);
        assert_eq!(b.rating.rating.round(), 1338.0);
        assert_eq!(b.rating.deviation.round(), 290.0);
        assert_eq!((a.won, a.lost, b.won, b.lost), (1, 0, 0, 1));
        assert_eq!(rating_words(&a.rating), "1662 ±290");
    }

    #[test]
    fn each_game_is_its_own_period_in_finishing_order() {
        // The crate's own test numbers (`test_glicko2`'s two-player case is computed
        // step by step here): three games, each one period.
        let r = Registry::builtin();
        let games = [
            game(1, "standard", &["alice", "bob"], "1-0"),
            game(2, "standard", &["bob", "carol"], "1/2-1/2"),
            game(3, "standard", &["carol", "alice"], "0-1"),
        ];
        let t = Tables::compute(&r, &games);
        let c = Glicko2Config::new();
        let n = Glicko2Rating::new();
        let (a1, b1) = glicko2(&n, &n, &Outcomes::WIN, &c);
        let (b2, c2) = glicko2(&b1, &n, &Outcomes::DRAW, &c);
        let (c3, a3) = glicko2(&c2, &a1, &Outcomes::LOSS, &c);
        let f = &t.rated["standard"];
        assert_eq!(f["alice"].rating, a3);
        assert_eq!(f["bob"].rating, b2);
        assert_eq!(f["carol"].rating, c3);
        assert_eq!(f["bob"].drawn, 1);
        let order: Vec<&str> = t.leaders("standard").iter().map(|(u, _)| *u).collect();
        assert_eq!(order, ["alice", "bob", "carol"]);
        // Another order of the same results gives other ratings: the order matters.
        let mut swapped = games.clone();
        swapped.swap(0, 2);
        assert_ne!(Tables::compute(&r, &swapped), t);
    }

    #[test]
    fn unrated_self_play_and_cooperative_games_change_nothing() {
        let r = Registry::builtin();
        let mut unrated = game(1, "standard", &["alice", "bob"], "1-0");
        unrated.options = r#"{"rated":"no"}"#.into();
        let games = [
            unrated,
            game(2, "standard", &["alice", "alice"], "1-0"),
            game(3, "chesswords", &["alice", "bob"], "A"),
            game(4, "split-brain", &["a", "b", "c", "d"], "1-0"),
        ];
        assert_eq!(Tables::compute(&r, &games), Tables::default());
    }

    #[test]
    fn chess_sharp_adds_up_rule_12_points_and_families_are_apart() {
        let r = Registry::builtin();
        let mut g1 = game(1, "chess-sharp", &["alice", "bob"], "0-1");
        g1.score = Some("[4,6]".into());
        let mut g2 = game(2, "chess-sharp", &["bob", "alice"], "1-0");
        g2.score = Some("[8,2]".into());
        let t = Tables::compute(&r, &[g1, g2, game(3, "standard", &["alice", "bob"], "1-0")]);
        assert_eq!(t.rated["chess-sharp"]["alice"].points, 6);
        assert_eq!(t.rated["chess-sharp"]["bob"].points, 14);
        assert_eq!(t.rated["chess-sharp"]["bob"].won, 2);
        assert_eq!(t.rated["standard"]["alice"].games(), 1);
        assert_eq!(t.rated["standard"]["alice"].points, 0);
    }

    #[test]
    fn solitaires_keep_the_best_won_score() {
        let r = Registry::builtin();
        let g = |id, who: &str, result: &str, s: Option<i32>| {
            let mut g = game(id, "parade", &[who], result);
            g.score = s.map(|s| format!("[{s}]"));
            g
        };
        let games = [
            g(1, "alice", "won", Some(12)),
            g(2, "alice", "lost", None),
            g(3, "alice", "won", Some(20)),
            g(4, "bob", "won", Some(20)),
            g(5, "carol", "lost", None),
        ];
        let t = Tables::compute(&r, &games);
        let board = t.best_scores("parade");
        let order: Vec<(&str, Option<(i32, i64)>)> =
            board.iter().map(|(u, b)| (*u, b.best)).collect();
        assert_eq!(order, [("alice", Some((20, 3))), ("bob", Some((20, 4)))]);
        assert_eq!(t.best["parade"]["alice"].attempts, 3);
        assert_eq!(t.best["parade"]["carol"].won, 0);
    }
}
