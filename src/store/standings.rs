//! What a server's tables (ratings, points, best scores) are computed from: its finished
//! games in the order they finished, with their players.

use super::{on_pool, Store, StoreError};
use sqlx::Row;

/// A finished game as the tables read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// The game id.
    pub id: i64,
    /// The variant's id.
    pub variant: String,
    /// The server it was played in; `None` for a private or console game.
    pub server: Option<String>,
    /// Its options as stored (JSON), where `rated` is recorded.
    pub options: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or the variant's own (`won`, `lost`, a grade).
    pub result: String,
    /// Points per seat as JSON (`[10,0]`), where the variant scores.
    pub score: Option<String>,
    /// When it finished (its last write), seconds since the epoch.
    pub finished_at: i64,
    /// The user in each seat, in seat order.
    pub players: Vec<Option<String>>,
}

impl Store {
    /// The finished games of one server (`Some(None)`: the games of no server, private
    /// and console games) or of every server (`None`), in the order they finished: by
    /// their last write's time, then by id.
    pub async fn finished_games(
        &self,
        server: Option<Option<&str>>,
    ) -> Result<Vec<FinishedGame>, StoreError> {
        let filter = if server.is_some() {
            "AND COALESCE(g.server, '') = $1"
        } else {
            ""
        };
        let sql = format!(
            "SELECT g.id, g.variant, g.server, g.options, g.result, g.score, g.updated_at, s.seat, s.user_id
             FROM games g JOIN seats s ON s.game_id = g.id
             WHERE g.status = 'finished' AND g.result IS NOT NULL {filter}
             ORDER BY g.updated_at, g.id, s.seat"
        );
        let key = server.flatten().unwrap_or("").to_string();
        let rows: Vec<(FinishedGame, Option<String>)> = on_pool!(self.pool, |p| {
            let mut q = sqlx::query(&sql);
            if server.is_some() {
                q = q.bind(&key);
            }
            q.fetch_all(p)
                .await?
                .iter()
                .map(|r| {
                    (
                        FinishedGame {
                            id: r.get(0),
                            variant: r.get(1),
                            server: r.get(2),
                            options: r.get(3),
                            result: r.get(4),
                            score: r.get(5),
                            finished_at: r.get(6),
                            players: Vec::new(),
                        },
                        r.get::<Option<String>, _>(8),
                    )
                })
                .collect()
        });
        let mut out: Vec<FinishedGame> = Vec::new();
        for (g, user) in rows {
            match out.last_mut() {
                Some(last) if last.id == g.id => last.players.push(user),
                _ => out.push(FinishedGame {
                    players: vec![user],
                    ..g
                }),
            }
        }
        Ok(out)
    }
}
