//! The Discord adapter's errors, one kind a variant; each says the same sentence an
//! operator read before they were typed.

use super::shards::ShardsError;
use super::TOKEN_HELP;
use crate::service::referee::adapter::StoreError;

/// Why the bot could not start, or why it stopped.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// No `DISCORD_TOKEN` in the environment.
    #[error("DISCORD_TOKEN is not set: {}", TOKEN_HELP)]
    NoToken,
    /// `DISCORD_TOKEN` is blank.
    #[error("DISCORD_TOKEN is empty: {}", TOKEN_HELP)]
    EmptyToken,
    /// Discord refused the token (at the REST check or the gateway's).
    #[error("Discord rejected DISCORD_TOKEN: {}", TOKEN_HELP)]
    TokenRejected,
    /// Discord's REST API did not answer the token check.
    #[error("cannot reach Discord: {0}")]
    Unreachable(Box<serenity::Error>),
    /// The database could not be opened.
    #[error("cannot open the database {url}: {error}")]
    Database {
        /// The database's name, without its password (`store::database_name`).
        url: String,
        /// What the database said.
        error: StoreError,
    },
    /// The bot's settings cannot be used.
    #[error(transparent)]
    Config(Box<super::config::ConfigError>),
    /// The metrics listener could not listen.
    #[error("cannot serve metrics on {addr}: {error}")]
    Metrics {
        /// The address asked for (`metrics_addr`).
        addr: std::net::SocketAddr,
        /// What the system said.
        error: std::io::Error,
    },
    /// The shard setting could not be resolved.
    #[error(transparent)]
    Shards(#[from] ShardsError),
    /// serenity could not build its client.
    #[error("cannot start the Discord client: {0}")]
    Client(Box<serenity::Error>),
    /// Discord refused the Message Content intent even on the second try.
    #[error(
        "the message content intent is not enabled: turn on \"Message Content Intent\" \
         under Bot in the developer portal (see README.md)"
    )]
    IntentNotEnabled,
    /// The gateway connection ended with an error.
    #[error("the Discord connection failed: {0}")]
    Connection(Box<serenity::Error>),
    /// The task running the connection ended abnormally.
    #[error("{0}")]
    Task(tokio::task::JoinError),
}

/// Why a message could not be sent.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The destination is not a channel id.
    #[error("bad channel id {0}")]
    BadChannel(String),
    /// The recipient is not a user id.
    #[error("bad user id {0}")]
    BadUser(String),
    /// Discord refused.
    #[error(transparent)]
    Discord(Box<serenity::Error>),
    /// The database did not answer.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<serenity::Error> for SendError {
    fn from(e: serenity::Error) -> SendError {
        SendError::Discord(Box::new(e))
    }
}
