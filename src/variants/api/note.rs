//! What happened, as the game tells it: lines of text for an audience, naming players by
//! seat so that the referee can write each player's name.

use super::Seat;

/// Who may read a note.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone: the game's channel.
    Everyone,
    /// One seat, privately.
    Seat(Seat),
}

/// A piece of a note's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Span {
    /// Plain text.
    Text(String),
    /// A player, by seat (the referee writes `alice (White)`).
    Player(Seat),
}

/// Text that may name players by seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text(pub Vec<Span>);

impl Text {
    /// Plain text.
    pub fn plain(text: impl Into<String>) -> Text {
        Text(vec![Span::Text(text.into())])
    }

    /// The player of `seat`, then `rest` (`alice (White) played e4`).
    pub fn player(seat: Seat, rest: impl Into<String>) -> Text {
        Text(vec![Span::Player(seat), Span::Text(rest.into())])
    }

    /// Adds plain text.
    pub fn push(mut self, text: impl Into<String>) -> Text {
        self.0.push(Span::Text(text.into()));
        self
    }

    /// Adds a player.
    pub fn push_player(mut self, seat: Seat) -> Text {
        self.0.push(Span::Player(seat));
        self
    }

    /// The text with each player written by `name`.
    pub fn render(&self, name: impl Fn(Seat) -> String) -> String {
        let mut out = String::new();
        for s in &self.0 {
            match s {
                Span::Text(t) => out.push_str(t),
                Span::Player(seat) => out.push_str(&name(*seat)),
            }
        }
        out
    }

    /// Whether there is nothing to say.
    pub fn is_empty(&self) -> bool {
        self.0
            .iter()
            .all(|s| matches!(s, Span::Text(t) if t.is_empty()))
    }
}

/// A count with its noun, singular for one and plural otherwise: `plural(1, "day",
/// "days")` is `1 day`, `plural(3, "day", "days")` is `3 days`, `plural(0, ...)` and
/// `plural(-2, ...)` plural; a count of minus one is singular (`-1 point`), as one is.
/// Every message that counts something says it through this, the referee's included.
pub fn plural(n: impl std::fmt::Display, one: &str, many: &str) -> String {
    let n = n.to_string();
    let noun = match n.strip_prefix('-').unwrap_or(&n) {
        "1" => one,
        _ => many,
    };
    format!("{n} {noun}")
}

/// One thing that happened when an action was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Who may read it.
    pub to: Audience,
    /// What it says.
    pub text: Text,
    /// Whether the board changed, so the message shows the new board.
    pub board: bool,
}

impl Note {
    /// A note for everyone.
    pub fn public(text: Text) -> Note {
        Note {
            to: Audience::Everyone,
            text,
            board: false,
        }
    }

    /// A note for one seat alone.
    pub fn private(seat: Seat, text: Text) -> Note {
        Note {
            to: Audience::Seat(seat),
            text,
            board: false,
        }
    }

    /// A public note of a change to the board (a move), shown with the board.
    pub fn moved(text: Text) -> Note {
        Note {
            board: true,
            ..Note::public(text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_one_takes_the_singular() {
        assert_eq!(plural(1, "day", "days"), "1 day");
        assert_eq!(plural(1usize, "attempt", "attempts"), "1 attempt");
        assert_eq!(plural(-1, "point", "points"), "-1 point");
        assert_eq!(plural(0, "point", "points"), "0 points");
        assert_eq!(plural(2u32, "day", "days"), "2 days");
        assert_eq!(plural(11, "day", "days"), "11 days");
        assert_eq!(plural(21, "day", "days"), "21 days");
        assert_eq!(plural(-3, "point", "points"), "-3 points");
    }

    #[test]
    fn players_are_written_by_the_referees_names() {
        let t = Text::player(Seat(1), " played e5; ")
            .push_player(Seat(0))
            .push(" to move");
        let names = ["alice", "bob"];
        assert_eq!(
            t.render(|s| names[s.0 as usize].to_string()),
            "bob played e5; alice to move"
        );
        assert!(Text::plain("").is_empty());
        assert!(!t.is_empty());
    }
}
