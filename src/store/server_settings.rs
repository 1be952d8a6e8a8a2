//! Each server's own settings (migration 0017): one row per server that changed any,
//! read whole and written whole, each write checked against the version it read. The service reads them into its `ServerSettings`
//! (`service::server_settings`), which says what they mean and checks every value.

use super::{on_pool, Store, StoreError};
use sqlx::Row;

/// A server's settings as its `server_settings` row keeps them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredServerSettings {
    /// The prefix of typed commands.
    pub prefix: String,
    /// Whether typed commands are read.
    pub text_commands: bool,
    /// The channels where games may start, ids separated by commas; empty: anywhere.
    pub channels: String,
    /// The default days per move; `None`: the operator's.
    pub days: Option<i64>,
    /// The default variant options, a JSON object of text values.
    pub options: String,
    /// The role whose members are the server's moderators.
    pub moderator_role: Option<String>,
    /// How many times the row was written (0: never); a write names the version it read.
    pub version: i64,
}

impl Store {
    /// The settings of `server`, or `None` when it never changed any.
    pub async fn server_settings(
        &self,
        server: &str,
    ) -> Result<Option<StoredServerSettings>, StoreError> {
        Ok(on_pool!(self.pool, |p| {
            sqlx::query(
                "SELECT prefix, text_commands, channels, days, options, moderator_role, version \
                 FROM server_settings WHERE server = $1",
            )
            .bind(server)
            .fetch_optional(p)
            .await?
            .map(|r| StoredServerSettings {
                prefix: r.get(0),
                text_commands: r.get::<i64, _>(1) != 0,
                channels: r.get(2),
                days: r.get(3),
                options: r.get(4),
                moderator_role: r.get(5),
                version: r.get(6),
            })
        }))
    }

    /// Stores the settings of `server` whole, at `at`, as version `s.version + 1`, if the
    /// stored row is still version `s.version` (or there is none and `s.version` is 0).
    /// False, and nothing written, when another write came between the read and this.
    pub async fn set_server_settings(
        &self,
        server: &str,
        s: &StoredServerSettings,
        at: i64,
    ) -> Result<bool, StoreError> {
        let written = on_pool!(self.pool, |p| {
            sqlx::query(
                "INSERT INTO server_settings \
                 (server, prefix, text_commands, channels, days, options, moderator_role, updated_at, version) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9 + 1) \
                 ON CONFLICT (server) DO UPDATE SET prefix = excluded.prefix, \
                 text_commands = excluded.text_commands, channels = excluded.channels, \
                 days = excluded.days, options = excluded.options, \
                 moderator_role = excluded.moderator_role, updated_at = excluded.updated_at, \
                 version = excluded.version \
                 WHERE server_settings.version = $9",
            )
            .bind(server)
            .bind(&s.prefix)
            .bind(i64::from(s.text_commands))
            .bind(&s.channels)
            .bind(s.days)
            .bind(&s.options)
            .bind(&s.moderator_role)
            .bind(at)
            .bind(s.version)
            .execute(p)
            .await?
            .rows_affected()
        });
        Ok(written == 1)
    }
}
