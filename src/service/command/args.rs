//! The arguments of the referee's commands, as declared in [`super::REFEREE_COMMANDS`]:
//! what each holds, whether it is keyed (`name:value`) or required, so that the parser,
//! `help` and each adapter's form of the command (slash options, typed words) agree.

/// A command's arguments, as adapters offer them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arguments {
    /// These arguments, in the order they are declared to an adapter. They are written
    /// as text in this order, except that the game id comes first and a keyword
    /// ([`ArgKind::Choice`] not written `name:value`) after it.
    Listed(&'static [Arg]),
    /// A challenge's: the opponents and the variant, which depend on the registry, then
    /// these, each written `name:value`, then every variant's own options (which an
    /// adapter declares after these), the FEN ([`ArgKind::Text`], written `fen:"FEN"`)
    /// written last. [`TEAMS`](super::TEAMS) is offered only where a variant is played in teams.
    Challenge(&'static [Arg]),
}

/// One argument of a referee's command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arg {
    /// Its name (`game`, `days`, `reminders`).
    pub name: &'static str,
    /// What it is, in a few words, as an adapter describes it.
    pub help: &'static str,
    /// What it holds.
    pub kind: ArgKind,
    /// Whether it is written `name:value` (a setting) rather than as its value alone.
    pub keyed: bool,
    /// Whether it must be given.
    pub required: bool,
}

/// What an argument of a referee's command holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A game's number (`12`), written first after the name.
    Game,
    /// A switch, written as the argument's name when on (`games finished`).
    Flag,
    /// A whole number in this range.
    Number {
        /// The least.
        min: u32,
        /// The most.
        max: u32,
    },
    /// A user, written as a mention.
    User,
    /// A variant's id; `rated_only`: only a variant that keeps a table (rated, or a
    /// solitaire's best scores).
    Variant {
        /// Only variants that keep a table.
        rated_only: bool,
    },
    /// A word of at most `max` characters; `suggested`: adapters suggest the command
    /// names as it is typed.
    Word {
        /// The most characters.
        max: u16,
        /// Whether adapters suggest command names.
        suggested: bool,
    },
    /// Free text, spaces and all, of at most `max` characters.
    Text {
        /// The most characters.
        max: u16,
    },
    /// One of these values, each with a label: `(value, label)`.
    Choice(&'static [(&'static str, &'static str)]),
    /// Channels of the server, written as mentions separated by commas (`<#ID>,<#ID>`),
    /// or one of `words` instead (`(value, label)`: `any`, `here`). An adapter with a
    /// channel picker offers `pickers` pickers of text channels, named `each`, then
    /// `each` followed by 2, 3, ..., beside a choice of `words` under the argument's name.
    Channels {
        /// How many channels a picker form takes at most.
        pickers: u8,
        /// The name of one channel's picker.
        each: &'static str,
        /// The words that may stand instead of channels.
        words: &'static [(&'static str, &'static str)],
    },
    /// A role of the server, written as a mention (`<@&ID>`), or the word `none`. An
    /// adapter with a role picker offers one under the argument's name, and a switch
    /// named `none` that writes `none`.
    Role {
        /// The name of the switch that says no role.
        none: &'static str,
    },
}

impl Arg {
    /// The game an optional id picks: the argument of most of the referee's commands,
    /// and the last of every variant command's.
    pub const GAME: Arg = Arg {
        name: "game",
        help: "The game's number (needed only when you have several games here)",
        kind: ArgKind::Game,
        keyed: false,
        required: false,
    };

    /// The variant, as a challenge names it.
    pub const VARIANT: Arg = Arg {
        name: "variant",
        help: "The variant",
        kind: ArgKind::Variant { rated_only: false },
        keyed: false,
        required: false,
    };
}

/// The longest free text an argument takes.
pub const TEXT_MAX: u16 = 200;
