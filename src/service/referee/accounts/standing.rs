//! `rating [@user]`, `leaderboard VARIANT` and the `rated:` option of a challenge: the
//! server's tables, computed from its finished games ([`crate::service::standings`]).

use super::commit::Committed;
use super::parts::Accounts;
use super::{Card, Fail, Incoming, Place, Ranked, Ranking, Reply};
use crate::service::standings::{rated_option, rating_words, Best, Rated, Tables};
use crate::store::{FinishedGame, GameRow};
use crate::variants::api::{plural, Placing, RefusalKind, Standing, VariantSpec};

/// The most rows a leaderboard shows.
pub const LEADERBOARD_ROWS: usize = 10;

/// What a challenge's `rated:` option decides: `Some(true)` or `Some(false)` is recorded
/// with a game of a rated variant (rated unless `rated:no`); `None` for a variant whose
/// games are never rated. `rated:yes` where a game cannot be rated is refused with why.
pub(crate) fn rated_choice(
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

impl Accounts<'_> {
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
    pub(crate) async fn ratings_in(
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
    pub(crate) async fn rating(
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
    /// variant scores, and the points table), or a solitaire's best scores; in the text,
    /// a line per player, and as a card ([`Card::Rankings`]).
    pub(crate) async fn leaderboard(
        &self,
        inc: &Incoming,
        variant: &str,
        r: &mut Reply,
    ) -> Result<(), Fail> {
        let spec = self.registry.get(variant)?;
        let shown = spec.display_name();
        let t = self.tables(inc).await?;
        let (text, rankings) = match spec.standing() {
            Standing::Unrated(why) => return Err(Fail::of(RefusalKind::NotHere, why)),
            Standing::Rated { points } => {
                let rows = t.leaders(spec.id());
                if rows.is_empty() {
                    r.say(format!("{shown}: no finished rated game here yet"));
                    return Ok(());
                }
                by_rating(shown, &rows, points)
            }
            Standing::BestScore => {
                let rows = t.best_scores(spec.id());
                if rows.is_empty() {
                    r.say(format!("{shown}: no won attempt here yet"));
                    return Ok(());
                }
                by_best_score(shown, &rows)
            }
        };
        r.say(text);
        r.card(Card::Rankings(rankings));
        Ok(())
    }
}

/// Player `u`'s row of a ranking.
fn ranked(u: &str, score: String, detail: String) -> Ranked {
    Ranked {
        player: at(u),
        score,
        detail,
    }
}

/// The ranking titled `title` of the players `rows`, best first: the first
/// [`LEADERBOARD_ROWS`], each written by `row`.
fn ranking<T>(title: String, rows: &[(&str, T)], row: impl Fn(&str, &T) -> Ranked) -> Ranking {
    Ranking {
        title,
        players: rows.len(),
        rows: rows
            .iter()
            .take(LEADERBOARD_ROWS)
            .map(|(u, x)| row(u, x))
            .collect(),
    }
}

/// The leaderboard of a rated variant `shown`, its players `rows` by rating: the text,
/// and the ranking by rating with, where the variant scores `points`, the one by points.
fn by_rating(shown: &str, rows: &[(&str, &Rated)], points: bool) -> (String, Vec<Ranking>) {
    let points_of = |p: &Rated| match points {
        true => format!(", {}", plural(p.points, "point", "points")),
        false => String::new(),
    };
    let by_rating = ranking(format!("{shown} ratings here"), rows, |u, p| {
        ranked(u, rating_words(&p.rating), record(p) + &points_of(p))
    });
    let mut text = vec![format!(
        "{shown} ratings here ({} player{}):",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    )];
    text.extend(numbered(&by_rating, ", "));
    let mut rankings = vec![by_rating];
    if points {
        let mut by_points = rows.to_vec();
        by_points.sort_by(|a, b| b.1.points.cmp(&a.1.points).then(a.0.cmp(b.0)));
        let table = ranking(format!("{shown} points here"), &by_points, |u, p| {
            ranked(u, p.points.to_string(), String::new())
        });
        text.push(format!("points: {}", numbered(&table, "").join(", ")));
        rankings.push(table);
    }
    (text.join("\n"), rankings)
}

/// The leaderboard of a solitaire `shown`, its players `rows` by best score: the text and
/// the ranking.
fn by_best_score(shown: &str, rows: &[(&str, &Best)]) -> (String, Vec<Ranking>) {
    let best = ranking(format!("{shown} best scores here"), rows, |u, b| {
        let (s, id) = b.best.unwrap_or_default();
        let detail = format!(
            "game #{id}; {} of {} won",
            b.won,
            plural(b.attempts, "attempt", "attempts")
        );
        ranked(u, s.to_string(), detail)
    });
    let mut text = vec![format!("{shown} best scores here:")];
    text.extend(
        best.rows
            .iter()
            .enumerate()
            .map(|(i, row)| format!("{}. {} {} ({})", i + 1, row.player, row.score, row.detail)),
    );
    (text.join("\n"), vec![best])
}

/// The rows of `ranking` as the text numbers them: `1. @alice 1662 ±80` and the detail
/// after `joiner`, where there is one.
fn numbered(ranking: &Ranking, joiner: &str) -> Vec<String> {
    ranking
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| match row.detail.is_empty() {
            true => format!("{}. {} {}", i + 1, row.player, row.score),
            false => format!(
                "{}. {} {}{joiner}{}",
                i + 1,
                row.player,
                row.score,
                row.detail
            ),
        })
        .collect()
}

/// One player's rating before and after a game, as the game-over message shows it:
/// `alice 1500 → 1662 (+162)` (whole points, the change between the rounded values).
fn change_words(user: &str, before: f64, after: f64) -> String {
    let (b, a) = (before.round() as i64, after.round() as i64);
    format!("{} {b} → {a} ({:+})", super::marks::user_mark(user), a - b)
}

impl Accounts<'_> {
    /// The rating change a game that has just ended with `done` brings its two players,
    /// as a sentence of its game-over message (`Ratings: alice 1500 → 1662 (+162), bob
    /// 1500 → 1338 (-162)`): their ratings in its family on its server before it (the
    /// server's other finished games, in the order they finished) and after it (this
    /// game added last, as the tables will count it). `None` for a game that did not
    /// just end, or that counts for no rating (unrated, aborted, a solitaire, self-play);
    /// a store that does not answer loses the sentence, never the game's end.
    pub(crate) async fn rating_change(&self, g: &GameRow, done: &Committed) -> Option<String> {
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
    pub(crate) async fn announce_rated(&self, g: &GameRow, done: &Committed, r: &mut Reply) {
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
