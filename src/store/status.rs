//! A game's status: where it is in its life. Stored in the `status` column as its name
//! ([`GameStatus::as_str`]), the same words as before it had a type.

use std::fmt;

/// Where a game is in its life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// A challenge waiting for its players to accept.
    Challenged,
    /// Under way (the status of a default [`Write`](super::Write): a move's).
    #[default]
    Active,
    /// Ended with a result.
    Finished,
    /// Ended without one: aborted.
    Aborted,
    /// A challenge a challenged player declined.
    Declined,
    /// A challenge its challenger withdrew, or that lapsed unanswered.
    Cancelled,
}

/// A status name the store does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game status '{0}'")]
pub struct UnknownStatus(pub String);

impl GameStatus {
    /// Every status, in the order of a game's life.
    pub const ALL: [GameStatus; 6] = [
        GameStatus::Challenged,
        GameStatus::Active,
        GameStatus::Finished,
        GameStatus::Aborted,
        GameStatus::Declined,
        GameStatus::Cancelled,
    ];

    /// The statuses of a game that has started: under way or ended.
    pub const STARTED: [GameStatus; 3] = [
        GameStatus::Active,
        GameStatus::Finished,
        GameStatus::Aborted,
    ];

    /// The statuses of a game that was played and has ended.
    pub const ENDED: [GameStatus; 2] = [GameStatus::Finished, GameStatus::Aborted];

    /// The name stored in the database (`active`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Challenged => "challenged",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
            GameStatus::Declined => "declined",
            GameStatus::Cancelled => "cancelled",
        }
    }

    /// The status stored as `name`.
    pub fn parse(name: &str) -> Result<GameStatus, UnknownStatus> {
        GameStatus::ALL
            .into_iter()
            .find(|s| s.as_str() == name)
            .ok_or_else(|| UnknownStatus(name.chars().take(20).collect()))
    }

    /// Whether the game was played and has ended (finished or aborted).
    pub fn is_ended(self) -> bool {
        GameStatus::ENDED.contains(&self)
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for GameStatus {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for GameStatus {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_reads_back_from_its_stored_name() {
        for s in GameStatus::ALL {
            assert_eq!(GameStatus::parse(s.as_str()), Ok(s));
            assert_eq!(s, s.as_str());
        }
        assert!(GameStatus::parse("pending").is_err());
        assert_eq!(
            serde_json::to_value(GameStatus::Active).unwrap(),
            serde_json::json!("active")
        );
    }
}
