//! What a Secret Chesswords game asks of a seat, in the referee's words. The prompts are
//! public and never depend on a secret: a discard's options reach the holder only
//! through its own projection's instructions.

use crate::variants::api::{command_mark_str, Prompt, PromptKind};

/// The game's commands as its texts quote them, marked ([`command_mark_str`]) so that
/// each reader writes them its own way (Discord as slash commands, the console as typed).
pub mod say {
    use super::command_mark_str;
    /// A clue.
    pub const CLUE: &str = command_mark_str!("clue TEXT");
    /// No clue.
    pub const PASS: &str = command_mark_str!("pass");
    /// The word guessed and the move.
    pub const PLAY: &str = command_mark_str!("play WORD MOVE");
    /// The two letters and the move.
    pub const LETTERS: &str = command_mark_str!("letters XY MOVE");
    /// The example of [`LETTERS`].
    pub const LETTERS_EXAMPLE: &str = command_mark_str!("letters te Qc2");
    /// A free move.
    pub const MOVE: &str = command_mark_str!("move MOVE");
    /// A discard.
    pub const DISCARD: &str = command_mark_str!("discard CARD");
    /// No discard.
    pub const DISCARD_NONE: &str = command_mark_str!("discard none");
    /// The finale's words.
    pub const WORDS: &str = command_mark_str!("words WORD1 WORD2");
    /// No finale words.
    pub const WORDS_NONE: &str = command_mark_str!("words none");
    /// A guess at the partner's word.
    pub const GUESS: &str = command_mark_str!("guess WORD");
}

/// A clue or a pass by the partner of the side to move.
pub const CLUE: PromptKind = PromptKind("clue");
/// A clue for one of the seat's own words, in the finale.
pub const FINALE_CLUE: PromptKind = PromptKind("finale-clue");
/// The word and the move, after a clue.
pub const PLAY: PromptKind = PromptKind("play");
/// A card to discard, privately.
pub const DISCARD: PromptKind = PromptKind("discard");
/// Whether to discard once play is over, privately.
pub const LAST_DISCARD: PromptKind = PromptKind("last-discard");
/// The finale's two words, privately.
pub const WORDS: PromptKind = PromptKind("words");
/// A guess at the partner's word.
pub const GUESS: PromptKind = PromptKind("guess");

/// The partner of the side to move: a clue or a pass.
pub fn give_clue() -> Prompt {
    Prompt::turn(CLUE, "to give a clue or pass")
}

/// The finale: a clue for one of the seat's own words.
pub fn clue_for_word() -> Prompt {
    Prompt::turn(FINALE_CLUE, "to give a clue for one of their words")
}

/// The mover after a clue: the word and the move.
pub fn play_word() -> Prompt {
    Prompt::turn(PLAY, "to name the word and move")
}

/// The mover after a pass: a free move.
pub fn free_move() -> Prompt {
    Prompt::turn(PromptKind::MOVE, "to move")
}

/// Games stored before discards were private: which of two qualifying kinds of card to
/// discard, privately, while the game waits.
pub fn discard() -> Prompt {
    Prompt::secret(DISCARD, "to choose a card to discard (privately)")
}

/// Play is over with a discard open to the seat: whether to discard, privately. Asked
/// whenever play ends with a discard open, whatever the seat holds.
pub fn last_discard() -> Prompt {
    Prompt::secret(LAST_DISCARD, "to decide privately whether to discard")
}

/// The finale's two words, privately.
pub fn submit_words() -> Prompt {
    Prompt::secret(WORDS, "to submit two words (privately)")
}

/// A guess at the partner's word.
pub fn guess() -> Prompt {
    Prompt::turn(GUESS, "to guess the word")
}
