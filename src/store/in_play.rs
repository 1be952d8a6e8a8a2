//! A game as an action is decided on it: its row, whether any conditional lines are
//! stored for it, and its players' vacations not settled, read in one statement (an
//! action's path asks all three, and one round trip costs less than three).

use super::reads::game_from_row;
use super::{on_pool, Backend, GameRow, Store, StoreError, Vacation};
use sqlx::Row;

/// A game with what an action on it needs to know besides its row.
#[derive(Clone, Debug)]
pub struct InPlay {
    /// The game, as [`Store::game`] reads it.
    pub game: GameRow,
    /// Whether any player has a conditional line stored for the game (current or stale).
    pub has_lines: bool,
    /// The vacations not settled (running, or ended with deadlines still to extend) of
    /// the game's seated players.
    pub vacations: Vec<Vacation>,
}

impl InPlay {
    /// `user`'s vacation not settled, if the read found one.
    pub fn vacation_of(&self, user: &str) -> Option<&Vacation> {
        self.vacations.iter().find(|v| v.user == user)
    }
}

/// The two columns added to the game's: whether lines exist, the vacations as a JSON array.
/// The vacations are joined to the seats (a player in two seats gives one twice, dropped as
/// read): an `IN (SELECT ...)` would build a temporary table at every read.
const EXTRA_SQLITE: &str = ",
    EXISTS (SELECT 1 FROM conditional_lines WHERE game_id = games.id),
    (SELECT json_group_array(json_array(v.user_id, v.started_at, v.planned_end, v.ended_at, v.days))
       FROM seats s JOIN vacations v ON v.user_id = s.user_id AND v.settled = 0
       WHERE s.game_id = games.id)
    FROM games WHERE id = $1";

/// [`EXTRA_SQLITE`] for PostgreSQL.
const EXTRA_POSTGRES: &str = ",
    CASE WHEN EXISTS (SELECT 1 FROM conditional_lines WHERE game_id = games.id) THEN 1::BIGINT ELSE 0::BIGINT END,
    (SELECT coalesce(json_agg(json_build_array(user_id, started_at, planned_end, ended_at, days)), '[]')::text
       FROM vacations WHERE settled = 0
        AND user_id IN (SELECT user_id FROM seats WHERE game_id = games.id AND user_id IS NOT NULL))
    FROM games WHERE id = $1";

/// The statement of [`Store::game_in_play`] on `backend` (its one parameter, `$1`, the
/// game), as it is sent: `postal bench backends` gives it to pgbench.
pub fn in_play_sql(backend: Backend) -> String {
    let (select, extra) = match backend {
        Backend::Sqlite => (super::reads::GAME_SELECT_SQLITE, EXTRA_SQLITE),
        Backend::Postgres => (super::reads::GAME_SELECT_POSTGRES, EXTRA_POSTGRES),
    };
    // The game's select ends with `FROM games`: the extra columns go before it.
    let columns = select
        .strip_suffix("FROM games")
        .unwrap_or(select)
        .trim_end();
    format!("{columns}{extra}")
}

impl Store {
    /// Game `id` with whether it has conditional lines and its players' open vacations,
    /// in one statement; `None` when there is no such game.
    pub async fn game_in_play(&self, id: i64) -> Result<Option<InPlay>, StoreError> {
        let sql = in_play_sql(self.backend());
        let bad = |e: serde_json::Error| StoreError::Db(sqlx::Error::Decode(Box::new(e)));
        on_pool!(self.pool, |p| {
            let Some(r) = sqlx::query(&sql).bind(id).fetch_optional(p).await? else {
                return Ok(None);
            };
            let game = game_from_row(&r)?;
            let has_lines = r.get::<i64, _>(20) != 0;
            let mut rows: Vec<(String, i64, i64, Option<i64>, i64)> =
                serde_json::from_str(&r.get::<String, _>(21)).map_err(bad)?;
            rows.sort();
            rows.dedup();
            let vacations = rows
                .into_iter()
                .map(|(user, started_at, planned_end, ended_at, days)| Vacation {
                    user,
                    started_at,
                    planned_end,
                    ended_at,
                    days,
                })
                .collect();
            Ok(Some(InPlay {
                game,
                has_lines,
                vacations,
            }))
        })
    }
}
