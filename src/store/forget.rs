//! Forgetting a player at their request (migration 0015): their own rows deleted, and
//! their key in the records of their past games replaced by a neutral label, in one
//! transaction. The service words the label and rewrites the texts that name them
//! ([`Relabel`]); the store knows which rows hold a player.

use super::{on_pool, Store, StoreError};
use sqlx::Row;

/// How the service names a forgotten player and rewrites the stored texts that name
/// them: the store calls these inside its transaction.
pub struct Relabel<'a> {
    /// The neutral label of the forgotten player numbered `n` (also their new key).
    pub label: &'a (dyn Fn(i64) -> String + Sync),
    /// `text` with every reference to user `old` made a reference to `new`.
    pub rewrite: &'a (dyn Fn(&str, &str, &str) -> String + Sync),
}

/// What forgetting a player did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forgetting {
    /// Nothing: the player has games or challenges still under way (these ids), which
    /// they must finish, resign, decline or cancel first.
    Live(Vec<i64>),
    /// Done (or nothing was held: `label` `None` and every count 0, as for a player
    /// forgotten before).
    Done(Forgotten),
}

/// What was removed or renamed when a player was forgotten.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forgotten {
    /// The label that now stands for them in their past games' records; `None` when they
    /// had none.
    pub label: Option<String>,
    /// Their past games (finished, aborted, declined or cancelled) now naming the label.
    pub games: u64,
    /// Their own rows deleted: the user row with its settings, vacations, digests,
    /// conditional lines, held messages, the refused-DMs mark, the outbox messages sent
    /// to them privately and the challenge posts of their past games.
    pub deleted: u64,
    /// Messages of other people (outbox, held) that named them, now naming the label
    /// (a queued message's text and its standings table alike).
    pub rewritten: u64,
    /// Their entries in tournaments and competitions still in sign-up, removed.
    pub entries_removed: u64,
    /// Their entries in tournaments and competitions under way, withdrawn (never paired
    /// or dealt again; their boards not yet begun forfeited), the places naming the label.
    pub entries_withdrawn: u64,
    /// Tournaments and competitions not yet over that they created: the creator is now
    /// the label, so only the server's moderators manage them.
    pub handed_over: u64,
    /// Threads of their past games whose names are to be given again with the label (on
    /// Discord, where a thread's name holds its players' names).
    pub threads: u64,
}

impl Forgotten {
    /// Whether anything was held about the player.
    pub fn is_empty(&self) -> bool {
        self.label.is_none()
            && self.deleted == 0
            && self.rewritten == 0
            && self.entries_removed == 0
    }

    /// What was done in tournaments and competitions and to game threads, as `; ...`
    /// clauses (empty when nothing), for the answers.
    pub fn events_words(&self) -> String {
        let n = |count: u64, one: &str, many: &str| match count {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        let mut out = String::new();
        if self.entries_removed > 0 {
            out += &format!(
                "; {} removed",
                n(self.entries_removed, "sign-up entry", "sign-up entries")
            );
        }
        if self.entries_withdrawn > 0 {
            out += &format!(
                "; withdrawn from {} under way",
                n(self.entries_withdrawn, "tournament", "tournaments")
            );
        }
        if self.threads > 0 {
            out += &format!(
                "; {} renamed",
                n(self.threads, "game thread", "game threads")
            );
        }
        if self.handed_over > 0 {
            out += &format!(
                "; {} created handed to the server's moderators",
                n(self.handed_over, "tournament", "tournaments")
            );
        }
        out
    }
}

/// A forgotten player's places in tournaments and competitions not yet over, each
/// statement with the player as `$1`: the boards not yet begun of those under way
/// forfeited to the opponent, then the entries there withdrawn (never paired or dealt
/// again), and the entries of those in sign-up removed. Run after each event's version
/// is taken ([`TAKE_EVENTS`]), so that a write in flight there is stale.
const EVENT_STATEMENTS: [&str; 3] = [
    "UPDATE tournament_boards SET forfeit = CASE WHEN white = \
         (SELECT e.seed FROM tournament_entrants e \
          WHERE e.tournament_id = tournament_boards.tournament_id AND e.user_id = $1) \
         THEN 'black' ELSE 'white' END \
     WHERE game_id IS NULL AND forfeit IS NULL AND black IS NOT NULL \
     AND tournament_id IN (SELECT id FROM tournaments WHERE state IN ('running', 'paused')) \
     AND EXISTS (SELECT 1 FROM tournament_entrants e \
         WHERE e.tournament_id = tournament_boards.tournament_id AND e.user_id = $1 \
         AND (e.seed = tournament_boards.white OR e.seed = tournament_boards.black))",
    "UPDATE tournament_entrants SET withdrawn_at = \
         (SELECT t.current_round FROM tournaments t WHERE t.id = tournament_entrants.tournament_id) \
     WHERE user_id = $1 AND withdrawn_at IS NULL \
     AND tournament_id IN (SELECT id FROM tournaments WHERE state IN ('running', 'paused'))",
    "DELETE FROM tournament_entrants WHERE user_id = $1 \
     AND tournament_id IN (SELECT id FROM tournaments WHERE state = 'signup')",
];

/// Takes the version of each tournament or competition not yet over that the player
/// (`$1`) created or entered, at `$2`; its rows are those they created.
const TAKE_EVENTS: &str = "UPDATE tournaments SET version = version + 1, updated_at = $2 \
     WHERE state IN ('signup', 'running', 'paused') AND (creator = $1 OR id IN \
         (SELECT tournament_id FROM tournament_entrants WHERE user_id = $1))";

/// How many tournaments and competitions the player (`$1`) created or entered.
const EVENTS_HELD: &str = "SELECT (SELECT count(*) FROM tournaments WHERE creator = $1) \
     + (SELECT count(*) FROM tournament_entrants WHERE user_id = $1)";

/// How many tournaments and competitions not yet over the player (`$1`) created.
const CREATED_LIVE: &str =
    "SELECT count(*) FROM tournaments WHERE creator = $1 AND state IN ('signup', 'running', 'paused')";

/// `text LIKE` pattern of the texts that hold `user` anywhere (`\` escapes).
fn holding(user: &str) -> String {
    let escaped: String = user
        .chars()
        .flat_map(|c| match c {
            '%' | '_' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    format!("%{escaped}%")
}

/// The statements that delete a forgotten player's own rows, each with the player's key
/// as `$1` (and `$2`, the label, where their past games are named).
const DELETIONS: &[&str] = &[
    "DELETE FROM vacations WHERE user_id = $1",
    "DELETE FROM digests WHERE user_id = $1",
    "DELETE FROM conditional_lines WHERE user_id = $1",
    "DELETE FROM held_messages WHERE user_id = $1",
    "DELETE FROM dm_closed WHERE user_id = $1",
    "DELETE FROM outbox WHERE destination = 'dm:' || $1",
    "DELETE FROM analysis_posts WHERE destination = 'dm:' || $1",
];

/// Takes `$user` out of the tournaments and competitions not yet over in transaction
/// `$tx` at `$at` (those they created handed over, their entries withdrawn or removed,
/// counted in `$done`); the count of events that still name them.
macro_rules! leave_events {
    ($tx:ident, $user:expr, $at:expr, $done:ident) => {{
        let count = |sql: &'static str| sqlx::query(sql).bind($user);
        let mut events: i64 = count(EVENTS_HELD).fetch_one(&mut *$tx).await?.get(0);
        if events > 0 {
            let created: i64 = count(CREATED_LIVE).fetch_one(&mut *$tx).await?.get(0);
            $done.handed_over = created as u64;
            count(TAKE_EVENTS).bind($at).execute(&mut *$tx).await?;
            let mut changed = [0u64; 3];
            for (sql, n) in EVENT_STATEMENTS.iter().zip(&mut changed) {
                *n = count(sql).execute(&mut *$tx).await?.rows_affected();
            }
            $done.entries_withdrawn = changed[1];
            $done.entries_removed = changed[2];
            events = count(EVENTS_HELD).fetch_one(&mut *$tx).await?.get(0);
        }
        events
    }};
}

/// Gives `$user` a new label (`$relabel`) in transaction `$tx` at `$at` and puts it in
/// their place in every record that names them: seats, challenges, authors, tournament
/// places; their past games' challenge posts deleted and their threads queued to be
/// renamed (counted in `$done`, which gets the label).
macro_rules! relabel_records {
    ($tx:ident, $user:expr, $at:expr, $relabel:expr, $done:ident) => {{
        let n: i64 = sqlx::query("INSERT INTO forgotten_players (at) VALUES ($1) RETURNING id")
            .bind($at)
            .fetch_one(&mut *$tx)
            .await?
            .get(0);
        let label = ($relabel.label)(n);
        sqlx::query("INSERT INTO users (id, name) VALUES ($1, $1)")
            .bind(&label)
            .execute(&mut *$tx)
            .await?;
        // The challenge posts of their past games named them as sent.
        $done.deleted += sqlx::query(
            "DELETE FROM challenge_posts WHERE game_id IN
             (SELECT game_id FROM seats WHERE user_id = $1
              UNION SELECT id FROM games WHERE challenger = $1)",
        )
        .bind($user)
        .execute(&mut *$tx)
        .await?
        .rows_affected();
        for sql in RELABELLED {
            sqlx::query(sql)
                .bind($user)
                .bind(&label)
                .execute(&mut *$tx)
                .await?;
        }
        // Their past games' threads, named with their name: renamed by the adapter that
        // gave them (an outbox message each, kept until delivered).
        $done.threads = sqlx::query(
            "INSERT INTO outbox (game_id, destination, text, created_at, retitle) \
             SELECT t.game_id, 'channel:' || t.thread, '', $2, 1 FROM game_threads t \
             WHERE t.game_id IN (SELECT game_id FROM seats WHERE user_id = $1)",
        )
        .bind(&label)
        .bind($at)
        .execute(&mut *$tx)
        .await?
        .rows_affected();
        $done.label = Some(label);
    }};
}

/// Rewrites, in transaction `$tx`, the queued and held messages whose text (matched by
/// `$like`) names `$user`, naming `$new` instead (counted in `$done`).
macro_rules! rewrite_mentions {
    ($tx:ident, $user:expr, $new:expr, $like:expr, $relabel:expr, $done:ident) => {{
        for (table, column) in MENTIONING {
            let rows: Vec<(i64, String)> = sqlx::query(&format!(
                "SELECT id, {column} FROM {table} WHERE {column} LIKE $1 ESCAPE '\\'"
            ))
            .bind($like)
            .fetch_all(&mut *$tx)
            .await?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
            for (id, text) in rows {
                let changed = ($relabel.rewrite)(&text, $user, $new);
                if changed != text {
                    $done.rewritten +=
                        sqlx::query(&format!("UPDATE {table} SET {column} = $1 WHERE id = $2"))
                            .bind(&changed)
                            .bind(id)
                            .execute(&mut *$tx)
                            .await?
                            .rows_affected();
                }
            }
        }
    }};
}

/// A user's live games and challenges (`$1` the user), which keep them from being
/// forgotten.
const LIVE_GAMES: &str = "SELECT g.id FROM games g WHERE g.status IN ('challenged', 'active')
     AND (g.challenger = $1 OR EXISTS
         (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $1))
     ORDER BY g.id";

/// How many games name a user (`$1`): as challenger, player or an action's author.
const GAMES_NAMING: &str = "SELECT count(*) FROM games g WHERE g.challenger = $1 OR EXISTS
         (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $1)
     OR EXISTS (SELECT 1 FROM action_authors a WHERE a.game_id = g.id AND a.author = $1)";

/// The records that name a player, each moved to their label (`$1` the user, `$2` the
/// label): seats, challenges, authors, tournament places and creators.
const RELABELLED: [&str; 5] = [
    "UPDATE seats SET user_id = $2 WHERE user_id = $1",
    "UPDATE games SET challenger = $2 WHERE challenger = $1",
    "UPDATE action_authors SET author = $2 WHERE author = $1",
    // Their places in tournaments, whose standings name them.
    "UPDATE tournament_entrants SET user_id = $2 WHERE user_id = $1",
    "UPDATE tournaments SET creator = $2 WHERE creator = $1",
];

/// The texts other people's messages keep that may name a player: `(table, column)`.
const MENTIONING: [(&str, &str); 3] = [
    ("outbox", "text"),
    ("outbox", "standings"),
    ("held_messages", "text"),
];

impl Store {
    /// Forgets `user` at `at`, in one transaction that also marks `event_id` processed
    /// (a copy of the event is then [`StoreError::Duplicate`]): unless they have a game or challenge
    /// still under way (then nothing changes), their key in the seats, challenges and
    /// action logs of their past games becomes a neutral label (`relabel.label` of the
    /// next number in `forgotten_players`, recorded as a user of its own), the other
    /// stored messages that name them are rewritten to name the label, and their own rows
    /// are deleted. A game's version and times are untouched: its record and its place in
    /// the tables stay as they were. Forgetting someone the store holds nothing of
    /// changes nothing.
    pub async fn forget_user(
        &self,
        user: &str,
        event_id: Option<&str>,
        at: i64,
        relabel: &Relabel<'_>,
    ) -> Result<Forgetting, StoreError> {
        let like = holding(user);
        on_pool!(self.pool, |p| {
            let mut tx = p.begin().await?;
            super::tournaments::mark_event!(tx, event_id);
            // A write first: it takes SQLite's write lock at once (no other writer can
            // slip in between the check below and the changes), and on PostgreSQL locks
            // the user's row, as a challenge of theirs does.
            sqlx::query("UPDATE users SET name = name WHERE id = $1")
                .bind(user)
                .execute(&mut *tx)
                .await?;
            let live: Vec<i64> = sqlx::query(LIVE_GAMES)
                .bind(user)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect();
            if !live.is_empty() {
                tx.rollback().await?;
                return Ok(Forgetting::Live(live));
            }
            let mut done = Forgotten::default();
            let played: i64 = sqlx::query(GAMES_NAMING)
                .bind(user)
                .fetch_one(&mut *tx)
                .await?
                .get(0);
            // Their places in tournaments and competitions: those not yet over left.
            let events = leave_events!(tx, user, at, done);
            // A label when a record or a tournament's place still names them.
            if played > 0 || events > 0 {
                relabel_records!(tx, user, at, relabel, done);
                done.games = played as u64;
            }
            for sql in DELETIONS {
                done.deleted += sqlx::query(sql)
                    .bind(user)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            // Other people's messages that name them: their games' messages to the
            // channel, the private messages held for an opponent (only a game names
            // anyone, so a player without one is named in none).
            if let Some(new) = done.label.clone() {
                rewrite_mentions!(tx, user, &new, &like, relabel, done);
            }
            done.deleted += sqlx::query("DELETE FROM users WHERE id = $1")
                .bind(user)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            tx.commit().await?;
            Ok(Forgetting::Done(done))
        })
    }
}
