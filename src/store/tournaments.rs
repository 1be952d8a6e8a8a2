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
    /// Where it is in its life.
    pub state: TournamentState,
    /// How many rounds have started.
    pub current_round: i64,
    /// How many times the row was written; a write names the version it read.
    pub version: i64,
    /// When it was made.
    pub created_at: i64,
}

/// Where a tournament is in its life, as stored (the schema's check holds the column to
/// these five).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentState {
    /// Open for sign-up, not started.
    Signup,
    /// Under way.
    Running,
    /// Paused by its creator or a moderator: no round starts.
    Paused,
    /// Over, its standings final.
    Finished,
    /// Cancelled: its games count for nothing.
    Cancelled,
}

impl TournamentState {
    /// The state as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentState::Signup => "signup",
            TournamentState::Running => "running",
            TournamentState::Paused => "paused",
            TournamentState::Finished => "finished",
            TournamentState::Cancelled => "cancelled",
        }
    }

    /// The state stored as `text` (the schema allows no other; anything else is read as
    /// cancelled, a tournament nothing more happens in).
    fn stored(text: &str) -> TournamentState {
        match text {
            "signup" => TournamentState::Signup,
            "running" => TournamentState::Running,
            "paused" => TournamentState::Paused,
            "finished" => TournamentState::Finished,
            _ => TournamentState::Cancelled,
        }
    }

    /// Whether nothing more happens in it: finished or cancelled.
    pub fn is_over(self) -> bool {
        matches!(self, TournamentState::Finished | TournamentState::Cancelled)
    }
}

impl PartialEq<&str> for TournamentState {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Rounds started in one write ([`Store::start_rounds`]): the tournament's state after
/// it, its count of rounds started, and the boards, `(round, board)`.
#[derive(Clone, Copy)]
pub struct RoundStep<'a> {
    /// The tournament's state after the write.
    pub state: TournamentState,
    /// How many rounds have started after it.
    pub rounds_started: i64,
    /// The boards the write stores, each with its round.
    pub boards: &'a [(i64, NewBoard)],
}

impl<'a> RoundStep<'a> {
    /// To `state` with `rounds_started` rounds started and `boards` stored.
    pub fn new(
        state: TournamentState,
        rounds_started: i64,
        boards: &'a [(i64, NewBoard)],
    ) -> RoundStep<'a> {
        RoundStep {
            state,
            rounds_started,
            boards,
        }
    }
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
    /// The seed as stored: the order of joining in sign-up (gaps where someone left),
    /// renumbered at the start by rating ([`Store::seed_entrants`]): the service ranks
    /// entrants by it.
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

/// A message announcing a round (or a tournament's end), queued in the outbox by the
/// transaction that starts the round ([`Store::start_rounds_announced`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundMessage {
    /// The index, among the boards started with it, of the board whose game it announces:
    /// stored with that game's id and marked as opening it (an adapter that gives games
    /// threads opens its thread). `None` for a message about no game.
    pub board: Option<usize>,
    /// Where it goes, as the service encodes it (`channel:ID`).
    pub destination: String,
    /// The text (for a game's announcement: the heading its announcement starts with).
    /// [`game_mark`]`(i)` in it stands for the number of board `i`'s game, written in
    /// as the message is stored with the games (`#17`).
    pub text: String,
    /// The standings posted with it, as the table's JSON, which an adapter that sends
    /// images draws.
    pub standings: Option<String>,
}

/// What stands in a [`RoundMessage`]'s text for the number of board `board`'s game,
/// before the game exists.
pub fn game_mark(board: usize) -> String {
    format!("\u{1}game{board}\u{1}")
}

/// `text` with each [`game_mark`] replaced by its game's number (`#17`), or by `a game`
/// for a board that started none.
fn with_game_numbers(text: &str, ids: &[Option<i64>]) -> String {
    if !text.contains('\u{1}') {
        return text.to_string();
    }
    let mut out = text.to_string();
    for (i, id) in ids.iter().enumerate() {
        let number = id.map_or_else(|| "a game".to_string(), |id| format!("game #{id}"));
        out = out.replace(&game_mark(i), &number);
    }
    out
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
        state: TournamentState::stored(&r.get::<String, _>(14)),
        current_round: r.get(15),
        version: r.get(16),
        created_at: r.get(17),
    }
}

/// Marks chat event `$event` (`Option<&str>`) applied in transaction `$tx`,
/// first: [`StoreError::Duplicate`] when it was applied before, and then nothing is
/// written (a second delivery of the same command). Undone with the transaction when
/// the write that follows finds another came first.
macro_rules! mark_event {
    ($tx:ident, $event:expr) => {
        if let Some(e) = $event {
            super::marked(
                sqlx::query(super::MARK_EVENT)
                    .bind(super::event_key(e))
                    .execute(&mut *$tx)
                    .await
                    .map(|r| r.rows_affected()),
            )?;
        }
    };
}
pub(super) use mark_event;

/// Puts a round's `$messages` in the outbox in transaction `$tx` at `$at`, each about
/// the game of its board among `$ids` (the games made, by board), if any, its text's
/// game marks replaced by their numbers.
macro_rules! queue_round_messages {
    ($tx:ident, $messages:expr, $ids:expr, $at:expr) => {
        for m in $messages {
            let game = m.board.and_then(|i| $ids.get(i).copied().flatten());
            let text = with_game_numbers(&m.text, $ids);
            sqlx::query(
                "INSERT INTO outbox (game_id, destination, text, board, ending, started, standings, created_at) \
                 VALUES ($1, $2, $3, 0, 0, $4, $5, $6)",
            )
            .bind(game)
            .bind(&m.destination)
            .bind(&text)
            .bind(i64::from(game.is_some()))
            .bind(&m.standings)
            .bind($at)
            .execute(&mut *$tx)
            .await?;
        }
    };
}

/// Bumps tournament `$id`'s version from `$version` (at `$at`) in transaction `$tx`, or
/// returns `Ok(false)` from the enclosing write when another write came first.
macro_rules! bump_or_stale {
    ($tx:ident, $id:expr, $version:expr, $at:expr) => {
        if sqlx::query(BUMP)
            .bind($id)
            .bind($version)
            .bind($at)
            .execute(&mut *$tx)
            .await?
            .rows_affected()
            == 0
        {
            return Ok(false);
        }
    };
}

/// Takes the tournament's write for this transaction: version `$2` becomes `$2 + 1` at
/// `$3`; no row when another write came first. On PostgreSQL the row stays locked, on
/// SQLite the database, until the transaction ends.
const BUMP: &str = "UPDATE tournaments SET version = version + 1, updated_at = $3 \
    WHERE id = $1 AND version = $2";

impl Store {
    /// Stores a new tournament in sign-up, made by chat event `event` (marked applied in
    /// the same transaction): its id.
    pub async fn create_tournament(
        &self,
        t: &NewTournament,
        event: Option<&str>,
        at: i64,
    ) -> Result<i64, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            mark_event!(tx, event);
            let id: i64 = sqlx::query(
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
            .fetch_one(&mut *tx)
            .await?
            .get(0);
            tx.commit().await?;
            Ok(id)
        })
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
        states: &[TournamentState],
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let states: Vec<&str> = states.iter().map(|s| s.as_str()).collect();
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

    /// The ids of tournaments still in sign-up whose sign-up deadline is `now` or
    /// before: the deadline task starts or cancels them.
    pub async fn tournaments_signup_closed(&self, now: i64) -> Result<Vec<i64>, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT id FROM tournaments WHERE state = 'signup' \
                 AND signup_until IS NOT NULL AND signup_until <= $1 ORDER BY id",
            )
            .bind(now)
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

    /// `user` joins tournament `id` as seed `seed`, if it is still at `version`, by chat
    /// event `event` (marked applied with it).
    pub async fn join_tournament(
        &self,
        id: i64,
        version: i64,
        (user, seed): (&str, i64),
        event: Option<&str>,
        at: i64,
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            mark_event!(tx, event);
            bump_or_stale!(tx, id, version, at);
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

    /// Renumbers tournament `id`'s entrants, if it is still at `version`: `users` (every
    /// entrant, once) get seeds 0, 1, ... in that order, in one transaction. `false` and
    /// nothing written when another write came first.
    pub async fn seed_entrants(
        &self,
        id: i64,
        version: i64,
        users: &[String],
        at: i64,
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            bump_or_stale!(tx, id, version, at);
            // Out of the way first (below zero), so no two entrants share a seed between
            // the statements (the seeds are unique in a tournament).
            sqlx::query("UPDATE tournament_entrants SET seed = -1 - seed WHERE tournament_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            for (seed, user) in users.iter().enumerate() {
                sqlx::query(
                    "UPDATE tournament_entrants SET seed = $3 WHERE tournament_id = $1 AND user_id = $2",
                )
                .bind(id)
                .bind(user)
                .bind(seed as i64)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    /// `user` leaves tournament `id` before its start (their entry is removed), if it is
    /// still at `version`, by chat event `event` (marked applied with it).
    pub async fn leave_tournament(
        &self,
        id: i64,
        version: i64,
        user: &str,
        event: Option<&str>,
        at: i64,
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            mark_event!(tx, event);
            bump_or_stale!(tx, id, version, at);
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
    /// boards not yet ended) forfeited, in one transaction with chat event `event`.
    #[allow(clippy::too_many_arguments)]
    pub async fn withdraw_entrant(
        &self,
        id: i64,
        version: i64,
        user: &str,
        round: i64,
        forfeits: &[(i64, i64, &str)],
        event: Option<&str>,
        at: i64,
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            mark_event!(tx, event);
            bump_or_stale!(tx, id, version, at);
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

    /// Sets tournament `id`'s state, if it is still at `version`, by chat event `event`
    /// (marked applied with it).
    pub async fn set_tournament_state(
        &self,
        id: i64,
        version: i64,
        state: TournamentState,
        event: Option<&str>,
        at: i64,
    ) -> Result<bool, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            mark_event!(tx, event);
            let written = sqlx::query(
                "UPDATE tournaments SET state = $4, version = version + 1, updated_at = $3 \
                 WHERE id = $1 AND version = $2",
            )
            .bind(id)
            .bind(version)
            .bind(at)
            .bind(state.as_str())
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if written == 0 {
                return Ok(false);
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Starts rounds of tournament `id`, if it is still at `version`: its state becomes
    /// the `step`'s and its count of rounds started the step's; each of its `boards`
    /// (`(round, board)`) is stored with its game created active, every seat accepted,
    /// as `draw` (given the board's index in `boards` and the new game's id) seats and
    /// sets it up. All in one transaction: `None` and nothing written when another write
    /// came first; else the games' ids, by board (`None` for a board without a game).
    pub async fn start_rounds(
        &self,
        id: i64,
        version: i64,
        step: RoundStep<'_>,
        at: i64,
        draw: impl FnMut(usize, i64) -> Result<Drawn, StoreError>,
    ) -> Result<Option<Vec<Option<i64>>>, StoreError> {
        self.start_rounds_announced(id, version, step, &[], (None, at), draw)
            .await
    }

    /// [`Store::start_rounds`], with `messages` put in the outbox in the same transaction: the round's
    /// announcements, each about the game of its board, if any (that game's thread is
    /// then opened where it is delivered), and the standings. They exist once the round
    /// has started, whatever becomes of the process that started it, and never when
    /// another write came first. With no boards, it moves the tournament to `state` with
    /// its messages (its end and final standings). `(event, at)`: the chat event that
    /// does it (marked applied in the same transaction), if a command does, and when.
    pub async fn start_rounds_announced(
        &self,
        id: i64,
        version: i64,
        step: RoundStep<'_>,
        messages: &[RoundMessage],
        (event, at): (Option<&str>, i64),
        mut draw: impl FnMut(usize, i64) -> Result<Drawn, StoreError>,
    ) -> Result<Option<Vec<Option<i64>>>, StoreError> {
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            mark_event!(tx, event);
            let bumped = sqlx::query(
                "UPDATE tournaments SET version = version + 1, updated_at = $3, state = $4, \
                 current_round = $5 WHERE id = $1 AND version = $2",
            )
            .bind(id)
            .bind(version)
            .bind(at)
            .bind(step.state.as_str())
            .bind(step.rounds_started)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if bumped == 0 {
                return Ok(None);
            }
            let mut ids = Vec::with_capacity(step.boards.len());
            for (i, (round, b)) in step.boards.iter().enumerate() {
                let mut game_id = None;
                if let Some(g) = &b.game {
                    sqlx::query(
                        "INSERT INTO users (id, name) VALUES ($1, $1) ON CONFLICT (id) DO NOTHING",
                    )
                    .bind(&g.challenger)
                    .execute(&mut *tx)
                    .await?;
                    // No limit: the referee's games are no challenges.
                    let made = super::new_game::insert_game!(tx, g, true, i64::MAX, at, |gid| {
                        draw(i, gid)
                    });
                    let Some((gid, _, _)) = made else {
                        return Err(StoreError::OverLimit);
                    };
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
            queue_round_messages!(tx, messages, &ids, at);
            tx.commit().await?;
            Ok(Some(ids))
        })
    }
}
