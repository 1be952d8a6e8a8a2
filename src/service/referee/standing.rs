//! `rating [@user]`, `leaderboard VARIANT` and the `rated:` option of a challenge: the
//! server's tables, computed from its finished games ([`crate::service::standings`]).

use super::commit::Committed;
use super::{Fail, Incoming, Place, Reply, Service};
use crate::service::standings::{rated_option, rating_words, Rated, Tables};
use crate::store::{FinishedGame, GameRow};
use crate::variants::api::{plural, Placing, RefusalKind, Standing, VariantSpec};

/// The most rows a leaderboard shows.
pub const LEADERBOARD_ROWS: usize = 10;

/// What a challenge's `rated:` option decides: `Some(true)` or `Some(false)` is recorded
/// with a game of a rated variant (rated unless `rated:no`); `None` for a variant whose
/// games are never rated. `rated:yes` where a game cannot be rated is refused with why.
pub(super) fn rated_choice(
    spec: &dyn VariantSpec,
    asked: Option<&str>,
) -> Result<Option<bool>, Fail> {
    let asked = match asked {
        None => None,
        Some("yes") => Some(true),
        Some("no") => Some(false),
        Some(_) => return Err(Fail::of(RefusalKind::Syntax, "rated: is yes or no")),
    };
    let never = |why: String| match asked {
        Some(true) => Err(Fail::of(RefusalKind::Illegal, why)),
        _ => Ok(None),
    };
    match spec.standing() {
        Standing::Rated { .. } if spec.seats().placing == Placing::Sides => {
            Ok(Some(asked.unwrap_or(true)))
        }
        Standing::BestScore | Standing::Rated { .. } => never(format!(
            "{} is played alone: it is not rated, its best scores are kept (leaderboard {})",
            spec.display_name(),
            spec.id()
        )),
        Standing::Unrated(why) => never(why.to_string()),
    }
}

/// A player as the tables name them: by mention (`@alice`), which Discord shows as the
/// player's display name; the answers change nothing, so a slash command's answer is
/// private and pings nobody.
fn at(user: &str) -> String {
    super::marks::user_at_mark(user)
}

/// `12 games (7 won, 2 drawn, 3 lost)`.
fn record(r: &Rated) -> String {
    let n = r.games();
    format!(
        "{n} game{} ({} won, {} drawn, {} lost)",
        if n == 1 { "" } else { "s" },
        r.won,
        r.drawn,
        r.lost
    )
}

impl Service {
    /// The tables of the server `inc` was typed in (asked privately: of the games made
    /// in private).
    async fn tables(&self, inc: &Incoming) -> Result<Tables, Fail> {
        let server = match inc.place {
            Place::Channel(_) => inc.server.as_deref(),
            Place::Dm => None,
        };
        let games = self.store.finished_games(Some(server)).await?;
        Ok(Tables::compute(&self.registry, &games))
    }

    /// The ratings in variant `variant` of the players of `server`'s games (`None`: the
    /// games of no server), by user: those with a rated game of it finished there.
    pub(super) async fn ratings_in(
        &self,
        server: Option<&str>,
        variant: &str,
    ) -> Result<std::collections::BTreeMap<String, f64>, Fail> {
        let games = self.store.finished_games(Some(server)).await?;
        let t = Tables::compute(&self.registry, &games);
        Ok(t.rated
            .get(variant)
            .map(|f| {
                f.iter()
                    .map(|(u, r)| (u.clone(), r.rating.rating))
                    .collect()
            })
            .unwrap_or_default())
    }

    /// `rating [@user]`: the user's rating in each family they have played rated, with
    /// points where the variant scores, and their solitaire records.
    pub(super) async fn rating(
        &self,
        inc: &Incoming,
        who: Option<String>,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let user = who.unwrap_or_else(|| inc.user.clone());
        let t = self.tables(inc).await?;
        let name = at(&user);
        let mut lines = Vec::new();
        for spec in self.registry.all() {
            if let Some(p) = t.rated.get(spec.id()).and_then(|f| f.get(&user)) {
                let points = match spec.standing() {
                    Standing::Rated { points: true } => {
                        format!(", {}", plural(p.points, "point", "points"))
                    }
                    _ => String::new(),
                };
                lines.push(format!(
                    "{}: {}, {}{points}",
                    spec.display_name(),
                    rating_words(&p.rating),
                    record(p)
                ));
            }
            if let Some(b) = t.best.get(spec.id()).and_then(|f| f.get(&user)) {
                let best = match b.best {
                    Some((s, id)) => format!("best {s} (game #{id})"),
                    None => "no win yet".into(),
                };
                lines.push(format!(
                    "{}: {best}, {} attempt{}, {} won",
                    spec.display_name(),
                    b.attempts,
                    if b.attempts == 1 { "" } else { "s" },
                    b.won
                ));
            }
        }
        r.say(if lines.is_empty() {
            format!("{name} has no finished rated game or solitaire attempt here yet")
        } else {
            format!("{name}, here:\n{}", lines.join("\n"))
        });
        Ok(())
    }

    /// `leaderboard VARIANT`: the family's players by rating (with points where the
    /// variant scores, and the points table), or a solitaire's best scores.
    pub(super) async fn leaderboard(
        &self,
        inc: &Incoming,
        variant: &str,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let spec = self.registry.get(variant)?;
        let shown = spec.display_name();
        let t = self.tables(inc).await?;
        let text = match spec.standing() {
            Standing::Unrated(why) => return Err(Fail::of(RefusalKind::NotHere, why)),
            Standing::Rated { points } => {
                let rows = t.leaders(spec.id());
                if rows.is_empty() {
                    format!("{shown}: no finished rated game here yet")
                } else {
                    let mut lines = vec![format!(
                        "{shown} ratings here ({} player{}):",
                        rows.len(),
                        if rows.len() == 1 { "" } else { "s" }
                    )];
                    for (i, (u, p)) in rows.iter().take(LEADERBOARD_ROWS).enumerate() {
                        lines.push(format!(
                            "{}. {} {}, {}{}",
                            i + 1,
                            at(u),
                            rating_words(&p.rating),
                            record(p),
                            if points {
                                format!(", {}", plural(p.points, "point", "points"))
                            } else {
                                String::new()
                            }
                        ));
                    }
                    if points {
                        let mut by_points = rows.clone();
                        by_points.sort_by(|a, b| b.1.points.cmp(&a.1.points).then(a.0.cmp(b.0)));
                        let table: Vec<String> = by_points
                            .iter()
                            .take(LEADERBOARD_ROWS)
                            .enumerate()
                            .map(|(i, (u, p))| format!("{}. {} {}", i + 1, at(u), p.points))
                            .collect();
                        lines.push(format!("points: {}", table.join(", ")));
                    }
                    lines.join("\n")
                }
            }
            Standing::BestScore => {
                let rows = t.best_scores(spec.id());
                if rows.is_empty() {
                    format!("{shown}: no won attempt here yet")
                } else {
                    let mut lines = vec![format!("{shown} best scores here:")];
                    for (i, (u, b)) in rows.iter().take(LEADERBOARD_ROWS).enumerate() {
                        let (s, id) = b.best.unwrap_or_default();
                        lines.push(format!(
                            "{}. {} {s} (game #{id}; {} of {} won)",
                            i + 1,
                            at(u),
                            b.won,
                            plural(b.attempts, "attempt", "attempts")
                        ));
                    }
                    lines.join("\n")
                }
            }
        };
        r.say(text);
        Ok(())
    }
}

/// One player's rating before and after a game, as the game-over message shows it:
/// `alice 1500 → 1662 (+162)` (whole points, the change between the rounded values).
fn change_words(user: &str, before: f64, after: f64) -> String {
    let (b, a) = (before.round() as i64, after.round() as i64);
    format!("{} {b} → {a} ({:+})", super::marks::user_mark(user), a - b)
}

impl Service {
    /// The rating change a game that has just ended with `done` brings its two players,
    /// as a sentence of its game-over message (`Ratings: alice 1500 → 1662 (+162), bob
    /// 1500 → 1338 (-162)`): their ratings in its family on its server before it (the
    /// server's other finished games, in the order they finished) and after it (this
    /// game added last, as the tables will count it). `None` for a game that did not
    /// just end, or that counts for no rating (unrated, aborted, a solitaire, self-play);
    /// a store that does not answer loses the sentence, never the game's end.
    pub(super) async fn rating_change(&self, g: &GameRow, done: &Committed) -> Option<String> {
        let rules = done.rules.as_ref();
        if done.was_over || !rules.is_over() {
            return None;
        }
        let outcome = rules.outcome()?;
        let spec = self.registry.find(&g.variant)?;
        if !matches!(spec.standing(), Standing::Rated { .. }) || !rated_option(&g.options) {
            return None;
        }
        let players: Vec<Option<String>> =
            (0..2).map(|s| g.user_at(s).map(str::to_string)).collect();
        let games = match self.store.finished_games(Some(g.server.as_deref())).await {
            Ok(games) => games,
            Err(e) => {
                tracing::warn!(error = %e, game = g.id, "the rating change could not be read");
                return None;
            }
        };
        let others: Vec<FinishedGame> = games.into_iter().filter(|f| f.id != g.id).collect();
        let mut t = Tables::compute(&self.registry, &others);
        let rating = |t: &Tables, u: &str| {
            t.rated
                .get(spec.id())
                .and_then(|f| f.get(u))
                .copied()
                .unwrap_or_default()
        };
        let before: Vec<Rated> = players.iter().flatten().map(|u| rating(&t, u)).collect();
        t.add(
            &self.registry,
            &FinishedGame {
                id: g.id,
                variant: g.variant.clone(),
                server: g.server.clone(),
                options: g.options.clone(),
                result: outcome.result,
                score: None,
                finished_at: 0,
                players: players.clone(),
            },
        );
        let mut words = Vec::new();
        for (u, b) in players.iter().flatten().zip(&before) {
            let a = rating(&t, u);
            if a.games() == b.games() {
                return None;
            }
            words.push(change_words(u, b.rating.rating, a.rating.rating));
        }
        Some(format!("Ratings: {}", words.join(", ")))
    }

    /// [`Service::announce`], and the game-over message of a rated game that has just
    /// ended given its players' rating change ([`Service::rating_change`]).
    pub(super) async fn announce_rated(&self, g: &GameRow, done: &Committed, r: &mut Reply) {
        let first = r.out.len();
        self.announce(g, done, r);
        let Some(change) = self.rating_change(g, done).await else {
            return;
        };
        for o in r.out[first..]
            .iter_mut()
            .filter(|o| o.ending && o.game == Some(g.id))
        {
            o.text = format!("{}. {change}", o.text.trim_end_matches('.'));
        }
    }
}
