//! Secret Chesswords as the registry knows it: its names, seats, the finale timer option
//! and its commands (clue, pass, play, letters, move, discard, words, guess).

use super::game::Chesswords;
use crate::variants::api::{
    rules_document, ArgKind, ArgSpec, CommandSpec, Description, GameRules, IdRule, NewGame,
    OptionKind, OptionSpec, ResourceError, RuleError, Standing, VariantSpec,
};

/// Secret Chesswords.
pub struct ChesswordsSpec;

/// Secret Chesswords, for the registry.
pub static SPEC: ChesswordsSpec = ChesswordsSpec;

/// The variant's id.
pub const SPEC_ID: &str = "chesswords";

/// The name of its resource: the operator's list of finale words.
pub const WORD_LIST: &str = "words";

/// `timer:N`: minutes for the finale's words (rule 10).
pub const TIMER: OptionSpec = OptionSpec {
    name: "timer",
    usage: "timer:N",
    help: "minutes each player has for the finale's words, 1 to 5",
    kind: OptionKind::Number {
        min: 1,
        max: 5,
        suffixes: &["min", "m"],
    },
};

/// What `discard` takes, `(value, label)`: the ten kinds of card in the deck's order, then
/// `none` (keep the cards, when asked as play ends).
pub const CARD_KINDS: &[(&str, &str)] = &[
    ("wK", "white king"),
    ("wQ", "white queen"),
    ("wR", "white rook"),
    ("wN", "white knight"),
    ("wP", "white pawn"),
    ("bK", "black king"),
    ("bQ", "black queen"),
    ("bR", "black rook"),
    ("bN", "black knight"),
    ("bP", "black pawn"),
    ("none", "none: keep my cards"),
];

/// `clue [#ID] TEXT`.
pub const CLUE: CommandSpec = CommandSpec {
    name: "clue",
    aliases: &["hint"],
    usage: "clue [#ID] TEXT",
    help: "a clue to a word whose first and last letters are those of the move you want your partner to make; in the finale, a clue to one of your words",
    examples: "clue a sweet reward, clue #12 frozen water",
    secret: false,
    id: IdRule::HashOnly,
    args: &[ArgSpec {
        name: "text",
        help: "the clue, 1 to 100 characters",
        kind: ArgKind::Text,
        required: true,
    }],
};

/// `pass [ID]`.
pub const PASS: CommandSpec = CommandSpec {
    name: "pass",
    aliases: &[],
    usage: "pass [ID]",
    help: "give no clue; your partner moves freely (two passes in a row end play)",
    examples: "pass",
    secret: false,
    id: IdRule::Plain,
    args: &[],
};

/// `play [ID] WORD MOVE`.
pub const PLAY: CommandSpec = CommandSpec {
    name: "play",
    aliases: &[],
    usage: "play [ID] WORD MOVE",
    help: "the word you guessed from the clue, and a move from its first letter's square to its last letter's",
    examples: "play treat Qc2, play 12 sun e2e3",
    secret: false,
    id: IdRule::Plain,
    args: &[
        ArgSpec {
            name: "word",
            help: "the word you guessed from the clue",
            kind: ArgKind::Word,
            required: true,
        },
        ArgSpec::MOVE,
    ],
};

/// `letters [ID] XY MOVE`.
pub const LETTERS: CommandSpec = CommandSpec {
    name: "letters",
    aliases: &[],
    usage: "letters [ID] XY MOVE",
    help: "when words fail, name the move's two letters instead of a word, for a penalty point",
    examples: "letters te Qc2",
    secret: false,
    id: IdRule::Plain,
    args: &[
        ArgSpec {
            name: "letters",
            help: "the move's first and last letters",
            kind: ArgKind::Word,
            required: true,
        },
        ArgSpec::MOVE,
    ],
};

/// `move [ID] MOVE`: a free move after a pass (a bare move works too).
pub const MOVE: CommandSpec = CommandSpec {
    name: "move",
    aliases: &[],
    usage: "move [ID] MOVE",
    help: "after your partner passed, a move with no word; in a channel with exactly one of your games a bare move works too",
    examples: "move 12 b3, b3",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec::MOVE],
};

/// `discard [ID] CARD`, privately.
pub const DISCARD: CommandSpec = CommandSpec {
    name: "discard",
    aliases: &[],
    usage: "discard [ID] CARD",
    help: "privately (a DM to the bot), a card your partner's capture lets you discard, until your next move; discard none to keep your cards when asked as play ends",
    examples: "discard white knight, discard bP, discard none",
    secret: true,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "card",
        help: "the card to discard (I tell you which fit), or none",
        kind: ArgKind::Named(CARD_KINDS),
        required: true,
    }],
};

/// `words [ID] WORD1 WORD2` or `words [ID] none`, privately.
pub const WORDS: CommandSpec = CommandSpec {
    name: "words",
    aliases: &[],
    usage: "words [ID] WORD1 WORD2",
    help: "finale: privately (a DM to the bot), your two words from the marked letters; words none if you have none",
    examples: "words stone rated, words none",
    secret: true,
    id: IdRule::Plain,
    args: &[
        ArgSpec {
            name: "word1",
            help: "your first word, or none",
            kind: ArgKind::Word,
            required: true,
        },
        ArgSpec {
            name: "word2",
            help: "your second word",
            kind: ArgKind::Word,
            required: false,
        },
    ],
};

/// `guess [ID] WORD`.
pub const GUESS: CommandSpec = CommandSpec {
    name: "guess",
    aliases: &[],
    usage: "guess [ID] WORD",
    help: "finale: your guess at your partner's word",
    examples: "guess stone",
    secret: false,
    id: IdRule::Plain,
    args: &[ArgSpec {
        name: "word",
        help: "your guess",
        kind: ArgKind::Word,
        required: true,
    }],
};

/// The rules in brief for `rules chesswords`: goal, moves, special rules, the end.
const RULES: &str = "A cooperative game for two on the Los Alamos board (6x6, no bishops), without check. Each square has a letter. Goal: score points together (a grade from A to F). Play: each player holds secret cards of pieces. Before each move the partner gives a clue (`clue TEXT`) for a word that starts with the letter of a piece's square and ends with the letter of its target square, or passes. The mover says the word they guessed and moves (`play treat Qc2`), or names the two letters for a penalty point (`letters te Qc2`). When a capture fits one of your cards you may discard it (`discard CARD`, privately): a checker marks a letter, and no piece may land on a marked square. Play ends when a king is captured, when both pass in a row, or when the mover has no move. Finale: each player privately makes two words from the marked letters (`words WORD1 WORD2`), gives a clue for one, and the partner guesses (`guess WORD`). With fewer than four marked letters there is no finale. Score: the product of the two words' lengths if guessed, plus one for a captured king, minus unused letters and penalties.";

/// Secret Chesswords as the registry knows it.
pub const DESCRIPTION: Description = Description {
    aliases: &["secret-chesswords", "chess_words"],
    summary: "two partners guide each other's moves with word clues on a board of letters, then guess each other's words",
    rules_summary: RULES,
    standing: Standing::Unrated(
        "Secret Chesswords is cooperative: both players share one grade, so it is not rated (see its rules)",
    ),
    board_variant: Some(crate::rules::Variant::CHESSWORDS),
    resources: &[crate::variants::api::ResourceSpec {
        name: WORD_LIST,
        help: "a file of words, one per line (# starts a comment), that every finale word must be on; without it any alphabetic word counts",
    }],
    options: &[TIMER],
    commands: &[CLUE, PASS, PLAY, LETTERS, MOVE, DISCARD, WORDS, GUESS],
    ..Description::new(SPEC_ID, "Secret Chesswords", rules_document!("chesswords"))
};

impl VariantSpec for ChesswordsSpec {
    fn description(&self) -> &Description {
        &DESCRIPTION
    }

    fn parse_resource(
        &self,
        name: &str,
        text: &str,
    ) -> Result<crate::variants::api::Loaded, ResourceError> {
        match name {
            WORD_LIST => Ok(std::sync::Arc::new(
                super::words::WordList::parse(text).map_err(ResourceError::invalid)?,
            )),
            _ => Err(ResourceError::Unknown {
                variant: "Secret Chesswords",
                name: name.to_string(),
            }),
        }
    }

    fn new_game(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        let timer = timer_minutes(setup)?;
        // The cards are a hidden draw: from the operating system's entropy unless every
        // draw is to be reproducible (then from the seed, as such games always were
        // dealt). What was dealt is in the state, and the game's starting state is
        // stored, so its log replays without any seed.
        let deal = match setup.hidden_seed {
            Some(seed) => super::cards::deal(seed),
            None => super::cards::deal_from(&mut setup.hidden_draws()),
        };
        Ok(Box::new(Chesswords::with_deal(
            setup.fen, setup.seed, deal, timer,
        )?))
    }

    fn new_game_stored_before(&self, setup: &NewGame) -> Result<Box<dyn GameRules>, RuleError> {
        // Dealt from the seed, and with the discard rules of then (docs/rules/chesswords.md).
        let deal = super::cards::deal(setup.seed);
        let mut game = Chesswords::with_deal(setup.fen, setup.seed, deal, timer_minutes(setup)?)?;
        game.keep_discard_rules_of_before();
        Ok(Box::new(game))
    }

    fn load(&self, snapshot: &serde_json::Value) -> Result<Box<dyn GameRules>, RuleError> {
        let state: super::game::State = serde_json::from_value(snapshot.clone())
            .map_err(|e| RuleError::new(format!("bad snapshot: {e}")))?;
        Ok(Box::new(Chesswords::from_snapshot(&state)?))
    }
}

/// The finale timer a challenge asked for (`timer:N`).
fn timer_minutes(setup: &NewGame) -> Result<Option<u8>, RuleError> {
    match setup.options.get(TIMER.name) {
        None => Ok(None),
        Some(v) => TIMER
            .read(v)?
            .parse::<u8>()
            .map(Some)
            .map_err(|_| RuleError::syntax("timer:N takes a whole number")),
    }
}

/// The command `name` (or an alias) of Secret Chesswords.
pub(super) fn command(name: &str) -> Option<&'static CommandSpec> {
    SPEC.commands().iter().find(|c| c.is_named(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_card_choices_are_the_ten_kinds_of_the_deck() {
        let mut kinds = super::super::cards::deck();
        kinds.dedup();
        let (none, cards) = CARD_KINDS.split_last().unwrap();
        assert_eq!(none.0, "none");
        let ours: Vec<(String, String)> = cards
            .iter()
            .map(|(v, l)| (v.to_string(), l.to_string()))
            .collect();
        let deck: Vec<(String, String)> = kinds.iter().map(|c| (c.short(), c.name())).collect();
        assert_eq!(ours, deck);
    }
}
