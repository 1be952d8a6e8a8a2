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
    /// Messages of other people (outbox, held) that named them, now naming the label.
    pub rewritten: u64,
}

impl Forgotten {
    /// Whether anything was held about the player.
    pub fn is_empty(&self) -> bool {
        self.label.is_none() && self.deleted == 0 && self.rewritten == 0
    }
}

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
            if let Some(e) = event_id {
                super::marked(
                    sqlx::query(super::MARK_EVENT)
                        .bind(super::event_key(e))
                        .execute(&mut *tx)
                        .await
                        .map(|r| r.rows_affected()),
                )?;
            }
            // A write first: it takes SQLite's write lock at once (no other writer can
            // slip in between the check below and the changes), and on PostgreSQL locks
            // the user's row, as a challenge of theirs does.
            sqlx::query("UPDATE users SET name = name WHERE id = $1")
                .bind(user)
                .execute(&mut *tx)
                .await?;
            let live: Vec<i64> = sqlx::query(
                "SELECT g.id FROM games g WHERE g.status IN ('challenged', 'active')
                 AND (g.challenger = $1 OR EXISTS
                     (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $1))
                 ORDER BY g.id",
            )
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
            let played: i64 = sqlx::query(
                "SELECT count(*) FROM games g WHERE g.challenger = $1 OR EXISTS
                     (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $1)
                 OR EXISTS (SELECT 1 FROM action_authors a WHERE a.game_id = g.id AND a.author = $1)",
            )
            .bind(user)
            .fetch_one(&mut *tx)
            .await?
            .get(0);
            if played > 0 {
                let n: i64 =
                    sqlx::query("INSERT INTO forgotten_players (at) VALUES ($1) RETURNING id")
                        .bind(at)
                        .fetch_one(&mut *tx)
                        .await?
                        .get(0);
                let label = (relabel.label)(n);
                sqlx::query("INSERT INTO users (id, name) VALUES ($1, $1)")
                    .bind(&label)
                    .execute(&mut *tx)
                    .await?;
                // The challenge posts of their past games named them as sent.
                done.deleted += sqlx::query(
                    "DELETE FROM challenge_posts WHERE game_id IN
                     (SELECT game_id FROM seats WHERE user_id = $1
                      UNION SELECT id FROM games WHERE challenger = $1)",
                )
                .bind(user)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                for sql in [
                    "UPDATE seats SET user_id = $2 WHERE user_id = $1",
                    "UPDATE games SET challenger = $2 WHERE challenger = $1",
                    "UPDATE action_authors SET author = $2 WHERE author = $1",
                    // Their places in tournaments, whose standings name them.
                    "UPDATE tournament_entrants SET user_id = $2 WHERE user_id = $1",
                    "UPDATE tournaments SET creator = $2 WHERE creator = $1",
                ] {
                    sqlx::query(sql)
                        .bind(user)
                        .bind(&label)
                        .execute(&mut *tx)
                        .await?;
                }
                done.games = played as u64;
                done.label = Some(label);
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
            let new = done.label.clone().unwrap_or_default();
            let tables: &[&str] = match done.label {
                Some(_) => &["outbox", "held_messages"],
                None => &[],
            };
            for table in tables {
                let rows: Vec<(i64, String)> = sqlx::query(&format!(
                    "SELECT id, text FROM {table} WHERE text LIKE $1 ESCAPE '\\'"
                ))
                .bind(&like)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
                for (id, text) in rows {
                    let changed = (relabel.rewrite)(&text, user, &new);
                    if changed != text {
                        done.rewritten +=
                            sqlx::query(&format!("UPDATE {table} SET text = $1 WHERE id = $2"))
                                .bind(&changed)
                                .bind(id)
                                .execute(&mut *tx)
                                .await?
                                .rows_affected();
                    }
                }
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
