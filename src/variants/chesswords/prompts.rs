//! What a Secret Chesswords game asks of a seat, in the referee's words. The prompts are
//! public and never depend on a secret: a discard's options reach the holder only
//! through its own projection's instructions.

use crate::variants::api::{Prompt, PromptKind};

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
