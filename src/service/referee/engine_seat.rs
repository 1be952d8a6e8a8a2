//! A game against the bot, as its stored row says: the game's options hold the engine's
//! level (`engine:3`), and the engine's seat is the one the challenger does not hold
//! (a game against the bot has two sides, and the bot cannot challenge). The engine's
//! name on boards and in records is `Postal (level 3)`.

use crate::store::GameRow;

/// The option, stored with a game against the bot, that holds the engine's level.
pub(super) const ENGINE_OPTION: &str = "engine";

/// The bot's name where it is named as a player outside a game's board and record (a
/// thread's line, a list of games): the engine, whatever its level.
pub(super) const ENGINE_NAME: &str = "Postal";

/// The engine in a game against the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct EngineSeat {
    /// The seat it plays.
    pub seat: u8,
    /// Its level, 1 to 8.
    pub level: u8,
}

impl EngineSeat {
    /// Its name on boards and in records: `Postal (level 3)`.
    pub fn shown_name(&self) -> String {
        format!("{ENGINE_NAME} (level {})", self.level)
    }
}

/// The level stored in a game's options (`{"engine":"3"}`), if it is a game against the
/// bot.
pub(super) fn level_of(options: &str) -> Option<u8> {
    let options: serde_json::Value = serde_json::from_str(options).ok()?;
    let level = options.get(ENGINE_OPTION)?.as_str()?.parse::<u8>().ok()?;
    crate::engines::Level::of(level).map(|l| l.level)
}

/// The engine of game `g`, if it is a game against the bot.
pub(super) fn engine_of(g: &GameRow) -> Option<EngineSeat> {
    let level = level_of(&g.options)?;
    let seat = g
        .seats
        .iter()
        .find(|s| s.user.as_deref().is_some_and(|u| u != g.challenger))?
        .seat;
    Some(EngineSeat { seat, level })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_is_read_from_the_options_and_checked() {
        assert_eq!(level_of(r#"{"engine":"3","rated":"no"}"#), Some(3));
        assert_eq!(level_of(r#"{"engine":"9"}"#), None);
        assert_eq!(level_of(r#"{"rated":"no"}"#), None);
        assert_eq!(level_of("not json"), None);
        assert_eq!(
            EngineSeat { seat: 1, level: 3 }.shown_name(),
            "Postal (level 3)"
        );
    }
}
