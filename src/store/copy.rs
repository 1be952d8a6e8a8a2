//! Copying a whole database into another, of either backend (`postal migrate-db`): every
//! table, row for row, in one transaction on the target, in the order the foreign keys
//! need. [`TABLES`] is the schema both backends share, column by column; a test holds each
//! backend's schema to it.

use super::{on_pool, Backend, Store, StoreError};
use sqlx::Row;

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A 64-bit integer (flags are 0 or 1).
    Integer,
    /// Text.
    Text,
    /// Bytes (SQLite's BLOB, PostgreSQL's BYTEA).
    Bytes,
}

/// A table of the schema.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    /// Its name.
    pub name: &'static str,
    /// Its columns, in the order the schema declares them.
    pub columns: &'static [(&'static str, Kind)],
    /// Whether its `id` column is given by the database (a sequence to advance past the
    /// copied ids on PostgreSQL).
    pub generated_id: bool,
}

use Kind::{Bytes as B, Integer as I, Text as T};

/// Every table of the schema, each after the tables its foreign keys name.
pub const TABLES: &[Table] = &[
    Table {
        name: "users",
        columns: &[
            ("id", T),
            ("name", T),
            ("reminder_hours", T),
            ("auto_claim", I),
            ("digest_hour", I),
            ("orientation", T),
            ("digest_next", I),
        ],
        generated_id: false,
    },
    Table {
        name: "games",
        columns: &[
            ("id", I),
            ("variant", T),
            ("status", T),
            ("days_per_move", I),
            ("colour", T),
            ("challenger", T),
            ("channel", T),
            ("seed", I),
            ("result", T),
            ("reason", T),
            ("score", T),
            ("snapshot", T),
            ("version", I),
            ("created_at", I),
            ("updated_at", I),
            ("start_fen", T),
            ("options", T),
            ("start_snapshot", T),
            ("server", T),
            ("started_at", I),
        ],
        generated_id: true,
    },
    Table {
        name: "seats",
        columns: &[
            ("game_id", I),
            ("seat", I),
            ("user_id", T),
            ("role", T),
            ("accepted", I),
        ],
        generated_id: false,
    },
    Table {
        name: "game_logs",
        columns: &[("game_id", I), ("part", I), ("log", T)],
        generated_id: false,
    },
    Table {
        name: "action_authors",
        columns: &[("game_id", I), ("seq", I), ("author", T)],
        generated_id: false,
    },
    Table {
        name: "events",
        columns: &[("key", B)],
        generated_id: false,
    },
    Table {
        name: "deadlines",
        columns: &[
            ("game_id", I),
            ("seat", I),
            ("turn", I),
            ("due_at", I),
            ("check_at", I),
        ],
        generated_id: false,
    },
    Table {
        name: "notices",
        columns: &[
            ("game_id", I),
            ("seat", I),
            ("turn", I),
            ("kind", T),
            ("at", I),
        ],
        generated_id: false,
    },
    Table {
        name: "held_messages",
        columns: &[("id", I), ("user_id", T), ("text", T), ("at", I)],
        generated_id: true,
    },
    Table {
        name: "dm_closed",
        columns: &[("user_id", T), ("at", I)],
        generated_id: false,
    },
    Table {
        name: "game_threads",
        columns: &[("game_id", I), ("thread", T), ("parent", T)],
        generated_id: false,
    },
    Table {
        name: "outbox",
        columns: &[
            ("id", I),
            ("game_id", I),
            ("destination", T),
            ("text", T),
            ("board", I),
            ("created_at", I),
            ("delivered_at", I),
            ("claimed_by", T),
            ("claimed_until", I),
            ("ending", I),
            ("started", I),
            ("standings", T),
            ("analysis", I),
            ("retitle", I),
            ("claim_seat", I),
            ("progress", T),
        ],
        generated_id: true,
    },
    Table {
        name: "vacations",
        columns: &[
            ("user_id", T),
            ("started_at", I),
            ("planned_end", I),
            ("ended_at", I),
            ("days", I),
            ("settled", I),
        ],
        generated_id: false,
    },
    Table {
        name: "conditional_lines",
        columns: &[
            ("id", I),
            ("game_id", I),
            ("user_id", T),
            ("version", I),
            ("actions", T),
            ("typed", T),
        ],
        generated_id: true,
    },
    Table {
        name: "digests",
        columns: &[("user_id", T), ("day", I), ("at", I)],
        generated_id: false,
    },
    Table {
        name: "challenge_posts",
        columns: &[("game_id", I), ("channel", T), ("message", T), ("text", T)],
        generated_id: false,
    },
    Table {
        name: "lapsing_buttons",
        columns: &[("game_id", I), ("channel", T), ("message", T)],
        generated_id: false,
    },
    Table {
        name: "forgotten_players",
        columns: &[("id", I), ("at", I)],
        generated_id: true,
    },
    Table {
        name: "server_settings",
        columns: &[
            ("server", T),
            ("prefix", T),
            ("text_commands", I),
            ("channels", T),
            ("days", I),
            ("options", T),
            ("moderator_role", T),
            ("updated_at", I),
            ("version", I),
        ],
        generated_id: false,
    },
    Table {
        name: "tournaments",
        columns: &[
            ("id", I),
            ("server", T),
            ("channel", T),
            ("creator", T),
            ("format", T),
            ("double_round", I),
            ("rounds", I),
            ("variant", T),
            ("options", T),
            ("days_per_move", I),
            ("rated", I),
            ("player_limit", I),
            ("signup_until", I),
            ("mode", T),
            ("state", T),
            ("current_round", I),
            ("version", I),
            ("created_at", I),
            ("updated_at", I),
        ],
        generated_id: true,
    },
    Table {
        name: "tournament_entrants",
        columns: &[
            ("tournament_id", I),
            ("user_id", T),
            ("seed", I),
            ("joined_at", I),
            ("withdrawn_at", I),
        ],
        generated_id: false,
    },
    Table {
        name: "tournament_boards",
        columns: &[
            ("tournament_id", I),
            ("round", I),
            ("board", I),
            ("white", I),
            ("black", I),
            ("game_id", I),
            ("forfeit", T),
        ],
        generated_id: false,
    },
    Table {
        name: "competitions",
        columns: &[("tournament_id", I)],
        generated_id: false,
    },
    Table {
        name: "competition_deals",
        columns: &[("tournament_id", I), ("deal", I), ("seed", I)],
        generated_id: false,
    },
    Table {
        name: "analyses",
        columns: &[
            ("game_id", I),
            ("status", T),
            ("destination", T),
            ("requested_at", I),
            ("claimed_by", T),
            ("claimed_until", I),
            ("error", T),
            ("finished_at", I),
        ],
        generated_id: false,
    },
    Table {
        name: "analysis_positions",
        columns: &[
            ("game_id", I),
            ("ply", I),
            ("kind", T),
            ("value", I),
            ("line", T),
        ],
        generated_id: false,
    },
    Table {
        name: "analysis_posts",
        columns: &[
            ("game_id", I),
            ("destination", T),
            ("channel", T),
            ("message", T),
        ],
        generated_id: false,
    },
];

/// One value of a copied row.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Integer(Option<i64>),
    Text(Option<String>),
    Bytes(Option<Vec<u8>>),
}

/// How many rows of each table a copy wrote, in [`TABLES`]' order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copied(pub Vec<(&'static str, usize)>);

impl Store {
    /// How many rows each table holds, in [`TABLES`]' order.
    pub async fn row_counts(&self) -> Result<Copied, StoreError> {
        let mut counts = Vec::with_capacity(TABLES.len());
        for t in TABLES {
            let sql = format!("SELECT count(*) FROM {}", t.name);
            let n: i64 = on_pool!(self.pool, |p| sqlx::query(&sql).fetch_one(p).await?.get(0));
            counts.push((t.name, n as usize));
        }
        Ok(Copied(counts))
    }

    /// Copies every row of this database into `target`, which must be empty (refused
    /// otherwise), in one transaction there: all of it or nothing. Returns the rows
    /// written per table.
    pub async fn copy_into(&self, target: &Store) -> Result<Copied, StoreError> {
        if let Some((table, _)) = target.row_counts().await?.0.iter().find(|(_, n)| *n > 0) {
            return Err(StoreError::Refused(format!(
                "the target database is not empty (its {table} table has rows): a copy goes into a new database"
            )));
        }
        let mut tables = Vec::with_capacity(TABLES.len());
        for t in TABLES {
            tables.push((t, self.rows_of(t).await?));
        }
        let postgres = target.backend() == Backend::Postgres;
        on_pool!(target.pool, |p| {
            let mut tx = p.begin().await?;
            for (t, rows) in &tables {
                let names: Vec<&str> = t.columns.iter().map(|(c, _)| *c).collect();
                let marks: Vec<String> = (1..=names.len()).map(|n| format!("${n}")).collect();
                let sql = format!(
                    "INSERT INTO {} ({}) VALUES ({})",
                    t.name,
                    names.join(", "),
                    marks.join(", ")
                );
                for row in rows {
                    let mut q = sqlx::query(&sql);
                    for v in row {
                        q = match v {
                            Value::Integer(i) => q.bind(*i),
                            Value::Text(s) => q.bind(s.clone()),
                            Value::Bytes(b) => q.bind(b.clone()),
                        };
                    }
                    q.execute(&mut *tx).await?;
                }
                if postgres && t.generated_id {
                    // Ids given explicitly leave the sequence behind: the next row would
                    // take an id already used.
                    sqlx::query(&format!(
                        "SELECT setval(pg_get_serial_sequence('{0}', 'id'), max(id)) FROM {0} HAVING max(id) IS NOT NULL",
                        t.name
                    ))
                    .execute(&mut *tx)
                    .await?;
                }
            }
            tx.commit().await?;
        });
        Ok(Copied(
            tables
                .iter()
                .map(|(t, rows)| (t.name, rows.len()))
                .collect(),
        ))
    }

    /// Every row of table `t`, in the order of its first column.
    async fn rows_of(&self, t: &Table) -> Result<Vec<Vec<Value>>, StoreError> {
        let names: Vec<&str> = t.columns.iter().map(|(c, _)| *c).collect();
        let sql = format!(
            "SELECT {} FROM {} ORDER BY {}",
            names.join(", "),
            t.name,
            names[0]
        );
        Ok(on_pool!(self.pool, |p| sqlx::query(&sql)
            .fetch_all(p)
            .await?
            .iter()
            .map(|r| {
                t.columns
                    .iter()
                    .enumerate()
                    .map(|(i, (_, kind))| match kind {
                        Kind::Integer => Value::Integer(r.get(i)),
                        Kind::Text => Value::Text(r.get(i)),
                        Kind::Bytes => Value::Bytes(r.get(i)),
                    })
                    .collect()
            })
            .collect()))
    }

    /// The columns of each table of [`TABLES`] as this database describes them, in
    /// declaration order: what the schema test compares with [`TABLES`].
    pub async fn described_columns(&self) -> Result<Vec<(String, Vec<String>)>, StoreError> {
        let mut out = Vec::with_capacity(TABLES.len());
        let sql = match self.backend() {
            Backend::Sqlite => "SELECT name FROM pragma_table_info($1) ORDER BY cid",
            Backend::Postgres => {
                "SELECT column_name::text FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position"
            }
        };
        for t in TABLES {
            let columns: Vec<String> = on_pool!(self.pool, |p| sqlx::query(sql)
                .bind(t.name)
                .fetch_all(p)
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect());
            out.push((t.name.to_string(), columns));
        }
        Ok(out)
    }
}
