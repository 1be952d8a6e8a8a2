//! The commands a variant declares, and a command as typed for a game: the command
//! parser, `help`, Discord's slash commands and their suggestions are built from these.

use super::{Action, RuleError, Seat};

/// One command of a variant, as its players type it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandSpec {
    /// The name (`draw`, `pick`, `clue`).
    pub name: &'static str,
    /// Other words that mean the same (`hint` for `clue`).
    pub aliases: &'static [&'static str],
    /// How to write it (`draw [ID] offer|accept|decline`).
    pub usage: &'static str,
    /// What it does, in one sentence.
    pub help: &'static str,
    /// Examples, separated by `, `.
    pub examples: &'static str,
    /// Whether it carries a secret: accepted only in private, never repeated in public.
    pub secret: bool,
    /// How a game id may follow the name.
    pub id: IdRule,
    /// Its arguments after the game id, in order.
    pub args: &'static [ArgSpec],
}

/// How a game id may follow a command's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdRule {
    /// `12` or `#12`.
    Plain,
    /// Only `#12`: the arguments may start with a number (a clue).
    HashOnly,
}

/// One argument of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgSpec {
    /// Its name (`square`, `move`, `answer`).
    pub name: &'static str,
    /// What it is, in a few words.
    pub help: &'static str,
    /// What it holds.
    pub kind: ArgKind,
    /// Whether it must be given.
    pub required: bool,
}

impl ArgSpec {
    /// A move of the game, in any notation: the argument of every variant's `move`.
    pub const MOVE: ArgSpec = ArgSpec {
        name: "move",
        help: "the move, in any notation",
        kind: ArgKind::Move,
        required: true,
    };
}

/// What an argument holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// One word.
    Word,
    /// The rest of the line, spaces and all.
    Text,
    /// A move of the game, in any notation (the rest of the line); adapters suggest the
    /// seat's legal moves.
    Move,
    /// One of these values, each with a label: `(value, label)`.
    Choice(&'static [(&'static str, &'static str)]),
    /// One of these values, `(value, label)`, typed as its value or as its label, spaces
    /// and all (the rest of the line: `white knight` or `wN`); adapters offer the labels
    /// as choices. The game reads and checks it.
    Named(&'static [(&'static str, &'static str)]),
}

impl ArgKind {
    /// Whether the argument takes the rest of the line.
    pub fn is_rest(self) -> bool {
        matches!(self, ArgKind::Text | ArgKind::Move | ArgKind::Named(_))
    }
}

impl CommandSpec {
    /// Whether `word` (lower case) names this command.
    pub fn is_named(&self, word: &str) -> bool {
        self.name == word || self.aliases.contains(&word)
    }

    /// Whether `n` words can be this command's arguments.
    pub fn takes(&self, n: usize) -> bool {
        let required = self.args.iter().filter(|a| a.required).count();
        let rest = self.args.last().is_some_and(|a| a.kind.is_rest());
        n >= required && (rest || n <= self.args.len())
    }

    /// The refusal that shows how to write the command.
    pub fn usage_error(&self) -> RuleError {
        let examples: Vec<String> = self.examples.split(", ").map(super::command_mark).collect();
        RuleError::syntax(format!(
            "usage: {} (for example: {})",
            super::usage_mark(self.usage),
            examples.join(", ")
        ))
    }
}

/// A variant's command as typed for one game: its name, the arguments after the game id
/// (as typed, words split on spaces), and the text they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameCommand {
    /// The command's word in lower case, as typed (a name or an alias).
    pub word: String,
    /// The arguments, one word each.
    pub args: Vec<String>,
}

impl GameCommand {
    /// A command from its word and the text after the game id.
    pub fn new(word: &str, rest: &str) -> GameCommand {
        GameCommand {
            word: word.to_lowercase(),
            args: rest.split_whitespace().map(str::to_string).collect(),
        }
    }

    /// The arguments from the `i`-th on, joined by single spaces.
    pub fn rest(&self, i: usize) -> String {
        self.args.get(i..).unwrap_or_default().join(" ")
    }

    /// The `i`-th argument in lower case, or "".
    pub fn arg(&self, i: usize) -> String {
        self.args
            .get(i)
            .map(|a| a.to_lowercase())
            .unwrap_or_default()
    }
}

/// What a typed command asks the referee to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Apply this action of the command's seat.
    Act(Action),
    /// The seat claims that `late`'s time has run out: the referee checks, under the
    /// game's lock, that `late`'s deadline has passed, then applies [`Action::timeout`]
    /// for `late`.
    ClaimTimeout {
        /// The seat whose time is claimed to be up.
        late: Seat,
    },
    /// Apply this action, and tell everyone how the typed text was read (a lower-case
    /// `bxc6` played as the pawn's capture while a bishop could also take there).
    Noted {
        /// The action to apply.
        action: Action,
        /// The note, one short sentence.
        note: String,
    },
}

impl Reading {
    /// The action to apply as the command's seat, if the reading is one.
    pub fn action(&self) -> Option<&Action> {
        match self {
            Reading::Act(action) | Reading::Noted { action, .. } => Some(action),
            Reading::ClaimTimeout { .. } => None,
        }
    }
}
