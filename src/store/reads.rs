//! Reading games: one by id, a user's, a channel's open challenges, the action log, the
//! deadlines due; each one indexed query whose rows carry their seats and deadlines.

use super::{
    game_log, on_pool, ActionRow, Backend, Deadline, GameRow, GameStatus, SeatRow, Store,
    StoreError,
};
use sqlx::{ColumnIndex, Decode, Row, Type};

impl Store {
    /// One game, with its seats.
    pub async fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        let sql = format!("{} WHERE id = $1", self.game_select());
        on_pool!(self.pool, |p| sqlx::query(&sql)
            .bind(id)
            .fetch_optional(p)
            .await?
            .map(|r| game_from_row(&r))
            .transpose())
    }

    /// The games `user` has a seat in (playing, or named in a challenge), in the given
    /// statuses, oldest first. Only the user's own: open challenges are found by
    /// [`Store::open_challenges`], in their channel.
    pub async fn games_of(
        &self,
        user: &str,
        statuses: &[GameStatus],
    ) -> Result<Vec<GameRow>, StoreError> {
        if statuses.is_empty() {
            return Ok(Vec::new());
        }
        let marks = (2..statuses.len() + 2)
            .map(|n| format!("${n}"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "{} WHERE id IN (SELECT game_id FROM seats WHERE user_id = $1) AND status IN ({marks}) ORDER BY id",
            self.game_select()
        );
        on_pool!(self.pool, |p| {
            let mut q = sqlx::query(&sql).bind(user);
            for s in statuses {
                q = q.bind(s.as_str());
            }
            q.fetch_all(p).await?.iter().map(game_from_row).collect()
        })
    }

    /// The games `user` played that have ended (finished or aborted), of `server` (of
    /// any server when `None`), the most recently ended first, at most `limit`.
    pub async fn ended_games_of(
        &self,
        user: &str,
        server: Option<&str>,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let by_server = if server.is_some() {
            " AND server = $3"
        } else {
            ""
        };
        let sql = format!(
            "{} WHERE id IN (SELECT game_id FROM seats WHERE user_id = $1) AND status IN ('finished', 'aborted'){by_server} ORDER BY updated_at DESC, id DESC LIMIT $2",
            self.game_select()
        );
        on_pool!(self.pool, |p| {
            let mut q = sqlx::query(&sql).bind(user).bind(limit);
            if let Some(s) = server {
                q = q.bind(s);
            }
            q.fetch_all(p).await?.iter().map(game_from_row).collect()
        })
    }

    /// The open challenges (with a seat anyone may take) made in `channel`, oldest first,
    /// at most `limit`.
    pub async fn open_challenges(
        &self,
        channel: &str,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "{} WHERE status = 'challenged' AND channel = $1 AND id IN (SELECT game_id FROM seats WHERE user_id IS NULL) ORDER BY id LIMIT $2",
            self.game_select()
        );
        on_pool!(self.pool, |p| sqlx::query(&sql)
            .bind(channel)
            .bind(limit)
            .fetch_all(p)
            .await?
            .iter()
            .map(game_from_row)
            .collect())
    }

    /// A game's action log in order: its entries (`game_logs`, its parts in order,
    /// [`game_log`]), each by the seat's player unless `action_authors` names another, its
    /// time counted from the game's creation. Read in one transaction, so that the log and
    /// its authors agree.
    pub async fn actions(&self, game_id: i64) -> Result<Vec<ActionRow>, StoreError> {
        let (log, created_at, mut authors, players) = on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let parts: Vec<(String, i64)> = sqlx::query_as(
                "SELECT l.log, g.created_at FROM game_logs l JOIN games g ON g.id = l.game_id
                 WHERE l.game_id = $1 ORDER BY l.part",
            )
            .bind(game_id)
            .fetch_all(&mut *tx)
            .await?;
            let authors: Vec<(i64, String)> =
                sqlx::query_as("SELECT seq, author FROM action_authors WHERE game_id = $1")
                    .bind(game_id)
                    .fetch_all(&mut *tx)
                    .await?;
            let players: Vec<(i64, Option<String>)> =
                sqlx::query_as("SELECT seat, user_id FROM seats WHERE game_id = $1")
                    .bind(game_id)
                    .fetch_all(&mut *tx)
                    .await?;
            tx.commit().await?;
            let created_at = parts.first().map_or(0, |(_, at)| *at);
            let log: String = parts.into_iter().map(|(part, _)| part).collect();
            (log, created_at, authors, players)
        });
        let entries = game_log::entries(&log).map_err(|(entry, why)| StoreError::DamagedLog {
            game: game_id,
            entry,
            why,
        })?;
        authors.sort_unstable();
        let player = |seat: u8| {
            players
                .iter()
                .find(|(s, _)| *s == i64::from(seat))
                .and_then(|(_, user)| user.clone())
                .unwrap_or_default()
        };
        Ok(entries
            .into_iter()
            .zip(1..)
            .map(|(e, seq)| ActionRow {
                seq,
                seat: e.seat,
                author: match authors.binary_search_by_key(&seq, |(s, _)| *s) {
                    Ok(i) => std::mem::take(&mut authors[i].1),
                    Err(_) => player(e.seat),
                },
                action: e.json,
                at: e.at + created_at,
            })
            .collect())
    }

    /// Deadlines of active games that fall before `until`, soonest first.
    pub async fn deadlines_before(&self, until: i64) -> Result<Vec<Deadline>, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
            "SELECT d.game_id, d.seat, d.turn, d.due_at FROM deadlines d JOIN games g ON g.id = d.game_id
             WHERE g.status = 'active' AND d.due_at <= $1 ORDER BY d.due_at, d.game_id",
        )
        .bind(until)
        .fetch_all(p)
        .await?
        .iter()
            .map(|r| Deadline {
                game_id: r.get(0),
                seat: r.get::<i64, _>(1) as u8,
                turn: r.get(2),
                due_at: r.get(3),
            })
            .collect()
        }))
    }

    /// Every game id, in order.
    pub async fn game_ids(&self) -> Result<Vec<i64>, StoreError> {
        Ok(on_pool!(self.pool, |p| sqlx::query(
            "SELECT id FROM games ORDER BY id"
        )
        .fetch_all(p)
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect()))
    }

    /// The start of a query of game rows on this store's backend.
    fn game_select(&self) -> &'static str {
        match self.backend() {
            Backend::Sqlite => GAME_SELECT_SQLITE,
            Backend::Postgres => GAME_SELECT_POSTGRES,
        }
    }
}

/// A game row with its seats and deadlines as JSON arrays: one statement, one round trip.
/// Each seat says too whether its player chose personal settings ([`GameRow::personal`]).
/// The two backends name their JSON functions differently; the columns are the same.
/// The arrays are put in seat order as they are read ([`game_from_row`]): on SQLite an
/// aggregate's `ORDER BY` builds a temporary table at every read.
pub(super) const GAME_SELECT_SQLITE: &str = "SELECT id, variant, status, days_per_move, colour, challenger, channel, seed, result, reason, score, snapshot, version, start_fen, options, start_snapshot,
    (SELECT json_group_array(json_array(seat, user_id, role, accepted,
        (SELECT count(*) FROM users u WHERE u.id = seats.user_id AND (u.digest_hour IS NOT NULL OR u.orientation IS NOT NULL)))) FROM seats WHERE game_id = games.id),
    (SELECT json_group_array(json_array(seat, turn, due_at)) FROM deadlines WHERE game_id = games.id),
    server, started_at
    FROM games";

/// [`GAME_SELECT_SQLITE`] for PostgreSQL.
pub(super) const GAME_SELECT_POSTGRES: &str = "SELECT id, variant, status, days_per_move, colour, challenger, channel, seed, result, reason, score, snapshot, version, start_fen, options, start_snapshot,
    (SELECT coalesce(json_agg(json_build_array(seat, user_id, role, accepted,
        (SELECT count(*) FROM users u WHERE u.id = seats.user_id AND (u.digest_hour IS NOT NULL OR u.orientation IS NOT NULL))) ORDER BY seat), '[]')::text FROM seats WHERE game_id = games.id),
    (SELECT coalesce(json_agg(json_build_array(seat, turn, due_at) ORDER BY seat), '[]')::text FROM deadlines WHERE game_id = games.id),
    server, started_at
    FROM games";

/// A game row of either backend, as [`GameRow`].
pub(super) fn game_from_row<R>(r: &R) -> Result<GameRow, StoreError>
where
    R: Row,
    usize: ColumnIndex<R>,
    for<'a> i64: Decode<'a, R::Database> + Type<R::Database>,
    for<'a> String: Decode<'a, R::Database> + Type<R::Database>,
{
    let id: i64 = r.get(0);
    let bad = |e: serde_json::Error| StoreError::Db(sqlx::Error::Decode(Box::new(e)));
    let mut seats: Vec<(u8, Option<String>, String, u8, u8)> =
        serde_json::from_str(&r.get::<String, _>(16)).map_err(bad)?;
    seats.sort_by_key(|s| s.0);
    let personal = seats.iter().map(|s| s.4 != 0).collect();
    let mut deadlines: Vec<(u8, i64, i64)> =
        serde_json::from_str(&r.get::<String, _>(17)).map_err(bad)?;
    deadlines.sort_by_key(|d| d.0);
    Ok(GameRow {
        id,
        variant: r.get(1),
        status: GameStatus::parse(&r.get::<String, _>(2))
            .map_err(|e| StoreError::Db(sqlx::Error::Decode(Box::new(e))))?,
        days_per_move: r.get(3),
        colour: r.get(4),
        challenger: r.get(5),
        channel: r.get(6),
        server: r.get(18),
        seed: r.get(7),
        result: r.get(8),
        reason: r.get(9),
        score: r.get(10),
        snapshot: r.get(11),
        version: r.get(12),
        start_fen: r.get(13),
        options: r.get(14),
        start_snapshot: r.get(15),
        seats: seats
            .into_iter()
            .map(|(seat, user, role, accepted, _)| SeatRow {
                seat,
                user,
                role,
                accepted: accepted != 0,
            })
            .collect(),
        deadlines: deadlines
            .into_iter()
            .map(|(seat, turn, due_at)| Deadline {
                game_id: id,
                seat,
                turn,
                due_at,
            })
            .collect(),
        started_at: r.get(19),
        personal,
    })
}
