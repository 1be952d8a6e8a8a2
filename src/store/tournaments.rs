//! Tournaments (migration 0018): the tournament's row, its entrants by seed and each
//! round's boards. Every write that changes a tournament names the version it read and
//! writes nothing when another came between (`false`): a round is started once, with its
//! games, in one transaction, whichever process gets there first.

use super::{on_pool, Drawn, GameStatus, NewGame, NewMessage, Store, StoreError};
use sqlx::Row;

/// A tournament as its row keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// The id players use (`tournament 3`).
    pub id: i64,
    /// The server (Discord guild) it belongs to; `None` in the console.
    pub server: Option<String>,
    /// The channel its games are announced in.
    pub channel: Option<String>,
    /// Who made it.
    pub creator: String,
    /// `round-robin`, `swiss` or `competition` (a best-score competition).
    pub format: String,
    /// A double round robin.
    pub double: bool,
    /// A Swiss's number of rounds (0 for a round robin), a competition's deals.
    pub rounds: i64,
    /// The variant's id.
    pub variant: String,
    /// The games' options, a JSON object of text values.
    pub options: String,
    /// Days per move of its games.
    pub days_per_move: i64,
    /// Whether its games are rated.
    pub rated: bool,
    /// The most entrants, if limited.
    pub player_limit: Option<i64>,
    /// When sign-up closes (seconds since the epoch), if it does by itself.
    pub signup_until: Option<i64>,
    /// `together` or `sequential`.
    pub mode: String,
    /// `signup`, `running`, `paused`, `finished` or `cancelled`.
    pub state: String,
    /// How many rounds have started.
    pub current_round: i64,
    /// How many times the row was written; a write names the version it read.
    pub version: i64,
    /// When it was made.
    pub created_at: i64,
}

/// A tournament about to be made: [`TournamentRow`] without id, state or version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournament {
    /// The server, if any.
    pub server: Option<String>,
    /// The channel, if any.
    pub channel: Option<String>,
    /// Its creator.
    pub creator: String,
    /// `round-robin` or `swiss`.
    pub format: String,
    /// A double round robin.
    pub double: bool,
    /// A Swiss's number of rounds.
    pub rounds: i64,
    /// The variant's id.
    pub variant: String,
    /// The games' options (JSON object).
    pub options: String,
    /// Days per move.
    pub days_per_move: i64,
    /// Rated games.
    pub rated: bool,
    /// The most entrants.
    pub player_limit: Option<i64>,
    /// When sign-up closes.
    pub signup_until: Option<i64>,
    /// `together` or `sequential`.
    pub mode: String,
}

/// An entrant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    /// The user.
    pub user: String,
    /// The seed as stored (the order of joining; gaps where someone left before the
    /// start): the service ranks entrants by it.
    pub seed: i64,
    /// The number of rounds started when they withdrew; `None` while they are in.
    pub withdrawn_at: Option<i64>,
}

/// A board of a round, with its game's state as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    /// The round, from 1.
    pub round: i64,
    /// The board, from 1.
    pub board: i64,
    /// White's stored seed (for a bye: who sits out).
    pub white: i64,
    /// Black's stored seed; `None` for a bye.
    pub black: Option<i64>,
    /// The game played on it.
    pub game_id: Option<i64>,
    /// A forfeit (`white` or `black`: who scores; `double`), standing over the game.
    pub forfeit: Option<String>,
    /// The game's status.
    pub status: Option<GameStatus>,
    /// The game's result (`1-0`, ...).
    pub result: Option<String>,
    /// The game's score (`[10,0]`), where its variant scores.
    pub score: Option<String>,
}

/// A board of a round about to start: its players and its game (none for a bye or a
/// board forfeited before it is played).
#[derive(Clone, Debug)]
pub struct NewBoard {
    /// The board, from 1.
    pub board: i64,
    /// White's stored seed (a bye's player).
    pub white: i64,
    /// Black's stored seed; `None` for a bye.
    pub black: Option<i64>,
    /// A forfeit decided before the game (a withdrawn player's board).
    pub forfeit: Option<String>,
    /// The game to create, if one is played.
    pub game: Option<NewGame>,
}

/// The columns of a tournament row, in [`tournament_from_row`]'s order; a best-score
/// competition's format is read as `competition` (migration 0021, [`super::competition`]).
const COLUMNS: &str = "id, server, channel, creator, \
    CASE WHEN EXISTS (SELECT 1 FROM competitions c WHERE c.tournament_id = tournaments.id) \
    THEN 'competition' ELSE format END, double_round, rounds, variant, options, \
    days_per_move, rated, player_limit, signup_until, mode, state, current_round, version, created_at";

fn tournament_from_row<R: Row>(r: &R) -> TournamentRow
where
    usize: sqlx::ColumnIndex<R>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> Option<i64>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    TournamentRow {
        id: r.get(0),
        server: r.get(1),
        channel: r.get(2),
        creator: r.get(3),
        format: r.get(4),
        double: r.get::<i64, _>(5) != 0,
        rounds: r.get(6),
        variant: r.get(7),
        options: r.get(8),
        days_per_move: r.get(9),
        rated: r.get::<i64, _>(10) != 0,
        player_limit: r.get(11),
        signup_until: r.get(12),
        mode: r.get(13),
        state: r.get(14),
        current_round: r.get(15),
        version: r.get(16),
        created_at: r.get(17),
    }
}

/// Takes the tournament's write for this transaction: version `$2` becomes `$2 + 1` at
/// `$3`; no row when another write came first. On PostgreSQL the row stays locked, on
/// SQLite the database, until the transaction ends.
const BUMP: &str = "UPDATE tournaments SET version = version + 1, updated_at = $3 \
    WHERE id = $1 AND version = $2";

impl Store {
    /// Stores a new tournament in sign-up: its id.
    pub async fn create_tournament(&self, t: &NewTournament, at: i64) -> Result<i64, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "INSERT INTO tournaments (server, channel, creator, format, double_round, rounds, \
                 variant, options, days_per_move, rated, player_limit, signup_until, mode, state, \
                 current_round, version, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'signup', 0, 0, $14, $14) \
                 RETURNING id",
            )
            .bind(&t.server)
            .bind(&t.channel)
            .bind(&t.creator)
            .bind(&t.format)
            .bind(i64::from(t.double))
            .bind(t.rounds)
            .bind(&t.variant)
            .bind(&t.options)
            .bind(t.days_per_move)
            .bind(i64::from(t.rated))
            .bind(t.player_limit)
            .bind(t.signup_until)
            .bind(&t.mode)
            .bind(at)
            .fetch_one(p)
            .await?
            .get::<i64, _>(0)
        }))
    }

    /// Puts `messages`, each with the game it is about (if any), in the outbox in one
    /// transaction, as made at `at`: a tournament's news found by the deadline task.
    pub async fn queue_messages(
        &self,
        messages: &[(Option<i64>, NewMessage)],
        at: i64,
    ) -> Result<(), StoreError> {
        if messages.is_empty() {
            return Ok(());
        }
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            for (game, m) in messages {
                super::outbox::queue_messages!(tx, *game, std::slice::from_ref(m), at);
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Tournament `id`, if there is one.
    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1");
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(&sql)
                .bind(id)
                .fetch_optional(p)
                .await?
                .map(|r| tournament_from_row(&r))
        }))
    }

    /// The tournaments of `server` (`None`: those made outside any server) in one of
    /// `states`, oldest first, at most `limit`.
    pub async fn tournaments_in(
        &self,
        server: Option<&str>,
        states: &[&str],
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let states = states.join(",");
        let sql = format!(
            "SELECT {COLUMNS} FROM tournaments WHERE server IS NOT DISTINCT FROM $1 \
             AND ',' || $2 || ',' LIKE '%,' || state || ',%' ORDER BY id LIMIT $3"
        );
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(&sql)
                .bind(server)
                .bind(&states)
                .bind(limit)
                .fetch_all(p)
                .await?
                .iter()
                .map(tournament_from_row)
                .collect()
        }))
    }

    /// The ids of running tournaments whose latest round has no game still going: those
    /// whose next round (or end) may be due. Read by the deadline task, so that a round
    /// whose last game ended without a command (a timeout) or before a restart goes on.
    pub async fn tournaments_to_advance(&self) -> Result<Vec<i64>, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT t.id FROM tournaments t WHERE t.state = 'running' AND NOT EXISTS \
                 (SELECT 1 FROM tournament_boards b JOIN games g ON g.id = b.game_id \
                  WHERE b.tournament_id = t.id AND b.forfeit IS NULL \
                  AND g.status IN ('challenged', 'active')) ORDER BY t.id",
            )
            .fetch_all(p)
            .await?
            .iter()
            .map(|r| r.get::<i64, _>(0))
            .collect()
        }))
    }

    /// The tournament game `game_id` is played in, if any.
    pub async fn tournament_of_game(
        &self,
        game_id: i64,
    ) -> Result<Option<(i64, i64, i64)>, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT tournament_id, round, board FROM tournament_boards WHERE game_id = $1",
            )
            .bind(game_id)
            .fetch_optional(p)
            .await?
            .map(|r| (r.get::<i64, _>(0), r.get::<i64, _>(1), r.get::<i64, _>(2)))
        }))
    }

    /// The entrants of tournament `id`, by seed.
    pub async fn entrants(&self, id: i64) -> Result<Vec<EntrantRow>, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT user_id, seed, withdrawn_at FROM tournament_entrants \
                 WHERE tournament_id = $1 ORDER BY seed",
            )
            .bind(id)
            .fetch_all(p)
            .await?
            .iter()
            .map(|r| EntrantRow {
                user: r.get(0),
                seed: r.get(1),
                withdrawn_at: r.get(2),
            })
            .collect()
        }))
    }

    /// Every board of tournament `id`, by round and board, each with its game's status,
    /// result and score.
    pub async fn boards(&self, id: i64) -> Result<Vec<BoardRow>, StoreError> {
        let rows = on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT b.round, b.board, b.white, b.black, b.game_id, b.forfeit, g.status, g.result, g.score \
                 FROM tournament_boards b LEFT JOIN games g ON g.id = b.game_id \
                 WHERE b.tournament_id = $1 ORDER BY b.round, b.board",
            )
            .bind(id)
            .fetch_all(p)
            .await?
            .iter()
            .map(|r| {
                let status: Option<String> = r.get(6);
                (
                    BoardRow {
                        round: r.get(0),
                        board: r.get(1),
                        white: r.get(2),
                        black: r.get(3),
                        game_id: r.get(4),
                        forfeit: r.get(5),
                        status: None,
                        result: r.get(7),
                        score: r.get(8),
                    },
                    status,
                )
            })
            .collect::<Vec<_>>()
        });
        rows.into_iter()
            .map(|(mut b, status)| {
                b.status = status
                    .map(|s| GameStatus::parse(&s))
                    .transpose()
                    .map_err(|e| StoreError::Refused(format!("unknown game status {}", e.0)))?;
                Ok(b)
            })
            .collect()
    }

    /// `user` joins tournament `id` as seed `seed`, if it is still at `version`.
    pub async fn join_tournament(
        &self,
        id: i64,
        version: i64,
        user: &str,
        seed: i64,
        at: i64,
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let bumped = sqlx::query(BUMP)
                .bind(id)
                .bind(version)
                .bind(at)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if bumped == 0 {
                return Ok(false);
            }
            sqlx::query("INSERT INTO users (id, name) VALUES ($1, $1) ON CONFLICT (id) DO NOTHING")
                .bind(user)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO tournament_entrants (tournament_id, user_id, seed, joined_at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(user)
            .bind(seed)
            .bind(at)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// `user` leaves tournament `id` before its start (their entry is removed), if it is
    /// still at `version`.
    pub async fn leave_tournament(
        &self,
        id: i64,
        version: i64,
        user: &str,
        at: i64,
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let bumped = sqlx::query(BUMP)
                .bind(id)
                .bind(version)
                .bind(at)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if bumped == 0 {
                return Ok(false);
            }
            sqlx::query(
                "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2",
            )
            .bind(id)
            .bind(user)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// `user` withdraws from running tournament `id` (at `version`): marked withdrawn
    /// after `round` rounds, and each of `forfeits` (`(round, board, winner)`: their
    /// boards not yet ended) forfeited, in one transaction.
    pub async fn withdraw_entrant(
        &self,
        id: i64,
        version: i64,
        user: &str,
        round: i64,
        forfeits: &[(i64, i64, &str)],
        at: i64,
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let bumped = sqlx::query(BUMP)
                .bind(id)
                .bind(version)
                .bind(at)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if bumped == 0 {
                return Ok(false);
            }
            sqlx::query(
                "UPDATE tournament_entrants SET withdrawn_at = $3 \
                 WHERE tournament_id = $1 AND user_id = $2",
            )
            .bind(id)
            .bind(user)
            .bind(round)
            .execute(&mut *tx)
            .await?;
            for (r, b, winner) in forfeits {
                sqlx::query(
                    "UPDATE tournament_boards SET forfeit = $4 \
                     WHERE tournament_id = $1 AND round = $2 AND board = $3 AND forfeit IS NULL",
                )
                .bind(id)
                .bind(r)
                .bind(b)
                .bind(*winner)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Sets tournament `id`'s state, if it is still at `version`.
    pub async fn set_tournament_state(
        &self,
        id: i64,
        version: i64,
        state: &str,
        at: i64,
    ) -> Result<bool, StoreError> {
        let written = on_pool!(self.pool, |p| {
            sqlx::query(
                "UPDATE tournaments SET state = $4, version = version + 1, updated_at = $3 \
                 WHERE id = $1 AND version = $2",
            )
            .bind(id)
            .bind(version)
            .bind(at)
            .bind(state)
            .execute(p)
            .await?
            .rows_affected()
        });
        Ok(written == 1)
    }

    /// Starts rounds of tournament `id`, if it is still at `version`: its state becomes
    /// `state` and its count of rounds started `rounds_started`; each of `boards`
    /// (`(round, board)`) is stored with its game created active, every seat accepted,
    /// as `draw` (given the board's index in `boards` and the new game's id) seats and
    /// sets it up. All in one transaction: `None` and nothing written when another write
    /// came first; else the games' ids, by board (`None` for a board without a game).
    // Long because it is one transaction's straight line of statements, inside `on_pool!`.
    #[allow(clippy::too_many_arguments)]
    pub async fn start_rounds(
        &self,
        id: i64,
        version: i64,
        state: &str,
        rounds_started: i64,
        boards: &[(i64, NewBoard)],
        at: i64,
        mut draw: impl FnMut(usize, i64) -> Result<Drawn, StoreError>,
    ) -> Result<Option<Vec<Option<i64>>>, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            let bumped = sqlx::query(
                "UPDATE tournaments SET version = version + 1, updated_at = $3, state = $4, \
                 current_round = $5 WHERE id = $1 AND version = $2",
            )
            .bind(id)
            .bind(version)
            .bind(at)
            .bind(state)
            .bind(rounds_started)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if bumped == 0 {
                return Ok(None);
            }
            let mut ids = Vec::with_capacity(boards.len());
            for (i, (round, b)) in boards.iter().enumerate() {
                let mut game_id = None;
                if let Some(g) = &b.game {
                    sqlx::query(
                        "INSERT INTO users (id, name) VALUES ($1, $1) ON CONFLICT (id) DO NOTHING",
                    )
                    .bind(&g.challenger)
                    .execute(&mut *tx)
                    .await?;
                    let gid: i64 = sqlx::query(
                        "INSERT INTO games (variant, status, days_per_move, colour, challenger, channel, server, seed, start_fen, options, snapshot, version, created_at, updated_at, started_at)
                         VALUES ($1, 'active', $2, $3, $4, $5, $6, 0, $7, $8, $9, 1, $10, $10, $10)
                         RETURNING id",
                    )
                    .bind(&g.variant)
                    .bind(g.days_per_move)
                    .bind(&g.colour)
                    .bind(&g.challenger)
                    .bind(&g.channel)
                    .bind(&g.server)
                    .bind(&g.start_fen)
                    .bind(&g.options)
                    .bind(&g.snapshot)
                    .bind(at)
                    .fetch_one(&mut *tx)
                    .await?
                    .get(0);
                    let Drawn {
                        seed,
                        seats,
                        snapshot,
                        start,
                        start_is_default,
                    } = draw(i, gid)?;
                    sqlx::query(
                        "UPDATE games SET seed = $1, snapshot = coalesce($2, snapshot), start_snapshot = CASE WHEN $4 THEN NULL ELSE coalesce($2, snapshot) END WHERE id = $3",
                    )
                    .bind(seed)
                    .bind(&snapshot)
                    .bind(gid)
                    .bind(start_is_default)
                    .execute(&mut *tx)
                    .await?;
                    for (seat, due_at) in start.iter().flatten() {
                        // `check_at` 0: the next deadline check looks at it (and moves it on).
                        sqlx::query(
                            "INSERT INTO deadlines (game_id, seat, turn, due_at, check_at) VALUES ($1, $2, 1, $3, 0)",
                        )
                        .bind(gid)
                        .bind(*seat as i64)
                        .bind(due_at)
                        .execute(&mut *tx)
                        .await?;
                    }
                    for s in &seats {
                        if let Some(user) = &s.user {
                            sqlx::query(
                                "INSERT INTO users (id, name) VALUES ($1, $1) ON CONFLICT (id) DO NOTHING",
                            )
                            .bind(user)
                            .execute(&mut *tx)
                            .await?;
                        }
                        sqlx::query(
                            "INSERT INTO seats (game_id, seat, user_id, role, accepted) VALUES ($1, $2, $3, $4, $5)",
                        )
                        .bind(gid)
                        .bind(s.seat as i64)
                        .bind(&s.user)
                        .bind(&s.role)
                        .bind(i64::from(s.accepted))
                        .execute(&mut *tx)
                        .await?;
                    }
                    game_id = Some(gid);
                }
                sqlx::query(
                    "INSERT INTO tournament_boards (tournament_id, round, board, white, black, game_id, forfeit) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(id)
                .bind(round)
                .bind(b.board)
                .bind(b.white)
                .bind(b.black)
                .bind(game_id)
                .bind(&b.forfeit)
                .execute(&mut *tx)
                .await?;
                ids.push(game_id);
            }
            tx.commit().await?;
            Ok(Some(ids))
        })
    }
}
