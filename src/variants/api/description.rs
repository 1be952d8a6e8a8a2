//! What a variant declares of itself, as one constant value ([`Description`]): its
//! names, its rules document, its seats, options and commands, and the policies the
//! referee reads (standing, takebacks, conditional moves, a shown deal, a FEN). The
//! getters of [`VariantSpec`](super::VariantSpec) read it, so a variant states each
//! once, in its own folder, and names its document there too ([`rules_document!`]).

use super::{CommandSpec, OptionSpec, ResourceSpec, SeatPlan, Standing};
use crate::rules::Variant;

/// A variant's rules document for players, `docs/rules/NAME.md`, embedded in the binary
/// when it is built ([`rules_document!`]), so that `rules VARIANT` shows the repository's
/// document itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesDocument {
    /// Its file name without `.md` (`cloak-and-dagger`), for links into the repository.
    pub name: &'static str,
    /// Its whole text (Markdown).
    pub text: &'static str,
}

/// The rules document `docs/rules/NAME.md` of the crate, embedded: a variant's
/// description names its document with it (`rules_document!("booster")`), so the
/// document belongs to its variant and no table lists the documents.
macro_rules! rules_document {
    ($name:literal) => {
        $crate::variants::api::RulesDocument {
            name: $name,
            text: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/docs/rules/",
                $name,
                ".md"
            )),
        }
    };
}
pub(crate) use rules_document;

/// Why a variant with hidden information takes no takeback: the default of
/// [`Description::takebacks`].
pub const HIDDEN_INFORMATION: &str = "it has hidden information (hands, a deck's order or secret choices) that a move may reveal, and a takeback would let the player move again knowing it";

/// Why a variant takes no conditional move: the default of
/// [`Description::conditional_moves`].
pub const NO_SINGLE_REPLY: &str = "it has hidden information, secret or simultaneous choices or turns of several steps, so a move cannot be answered in advance";

/// What a variant declares of itself: one constant value per variant, which the
/// registry, the referee and the adapters read through
/// [`VariantSpec`](super::VariantSpec). [`Description::new`] gives the defaults of what
/// most variants leave out.
#[derive(Clone, Copy, Debug)]
pub struct Description {
    /// The id used in commands and stored with games (`chess-sharp`).
    pub id: &'static str,
    /// The name shown to people (`Chess#`).
    pub display_name: &'static str,
    /// Other names users type for it, compared without case, spaces, `-` or `_`.
    pub aliases: &'static [&'static str],
    /// Its rules document for players ([`rules_document!`]).
    pub document: RulesDocument,
    /// One line on what the game is, for `help` and Discord's choices.
    pub summary: &'static str,
    /// The rules in brief, for `rules VARIANT` in a chat: the goal, how to move, the
    /// variant's special rules and how the game ends, in at most
    /// [`RULES_SUMMARY_MAX`](super::RULES_SUMMARY_MAX) characters.
    pub rules_summary: &'static str,
    /// The chess-like board it is played on, where the chess engine plays it (for
    /// `postal perft` and `postal render`); `None` for a board of its own.
    pub board_variant: Option<Variant>,
    /// What it needs from outside its games, each named by a setting (see
    /// [`setting_key`](super::setting_key)).
    pub resources: &'static [ResourceSpec],
    /// The seats.
    pub seats: SeatPlan,
    /// The options a challenge may give it.
    pub options: &'static [OptionSpec],
    /// Its commands, beyond the referee's own (`challenge`, `resign`, `board`, ...).
    pub commands: &'static [CommandSpec],
    /// How its finished games count on a server's tables (ratings, best scores).
    pub standing: Standing,
    /// Whether its players may agree to take a move back (`takebacks:on` in a
    /// challenge), or why not. A takeback replays the game without the move, so in a
    /// game with hidden information (a hand, a deck's order, a secret choice) the player
    /// would move again knowing what their move revealed: a variant whose every seat
    /// sees the whole game says `Ok`.
    pub takebacks: Result<(), &'static str>,
    /// Whether its players may store conditional moves (`conditional`: "if they play X,
    /// I play Y"), or why not. The referee reads each stored move with the variant's
    /// `move` command in the position it would be played in, and plays an answer the
    /// moment the opponent's action equals the one expected. A game of more than two
    /// sides, of hidden information or of secret or simultaneous inputs has no single
    /// opponent's move to wait for; a variant of two sides taking turns in plain sight
    /// says `Ok`.
    pub conditional_moves: Result<(), &'static str>,
    /// Whether a deal of it, once shown, counts (a solitaire: `docs/rules/parade.md`, "A
    /// shown deal counts"): a player may have only one live game of it at a time (a
    /// second challenge is refused, naming the live one), so nobody can deal several and
    /// play the best; and its game takes an `abort` after the deal was shown as a lost
    /// attempt, which its standing counts.
    pub shown_deal_counts: bool,
    /// Whether a challenge may start it from a position (`fen:"..."`).
    pub takes_fen: bool,
}

impl Description {
    /// The description of the variant `id`, called `display_name`, with its `document`,
    /// two seats (White and Black), and every other part its default: no aliases,
    /// options or resources, no summaries or commands yet, a board of its own, unrated,
    /// neither takebacks nor conditional moves (hidden information is assumed), a shown
    /// deal that does not count, and a FEN taken. A variant gives the rest with struct
    /// update syntax (`Description { summary: ..., ..Description::new(...) }`).
    pub const fn new(
        id: &'static str,
        display_name: &'static str,
        document: RulesDocument,
    ) -> Description {
        Description {
            id,
            display_name,
            aliases: &[],
            document,
            summary: "",
            rules_summary: "",
            board_variant: None,
            resources: &[],
            seats: SeatPlan::TWO_SIDES,
            options: &[],
            commands: &[],
            standing: Standing::Unrated("its games are not rated"),
            takebacks: Err(HIDDEN_INFORMATION),
            conditional_moves: Err(NO_SINGLE_REPLY),
            shown_deal_counts: false,
            takes_fen: true,
        }
    }
}
