//! What a Secret Chesswords game asks of a seat, in the referee's words. The prompts are
//! public and never depend on a secret: a discard's options reach the holder only
//! through its own projection's instructions.

use crate::variants::api::Prompt;

/// The partner of the side to move: a clue or a pass.
pub fn give_clue() -> Prompt {
    Prompt::turn("clue", "to give a clue or pass")
}

/// The finale: a clue for one of the seat's own words.
pub fn clue_for_word() -> Prompt {
    Prompt::turn("finale-clue", "to give a clue for one of their words")
}

/// The mover after a clue: the word and the move.
pub fn play_word() -> Prompt {
    Prompt::turn("play", "to name the word and move")
}

/// The mover after a pass: a free move.
pub fn free_move() -> Prompt {
    Prompt::turn("move", "to move")
}

/// Games stored before discards were private: which of two qualifying kinds of card to
/// discard, privately, while the game waits.
pub fn discard() -> Prompt {
    Prompt::secret("discard", "to choose a card to discard (privately)")
}

/// Play is over with a discard open to the seat: whether to discard, privately. Asked
/// whenever play ends with a discard open, whatever the seat holds.
pub fn last_discard() -> Prompt {
    Prompt::secret("last-discard", "to decide privately whether to discard")
}

/// The finale's two words, privately.
pub fn submit_words() -> Prompt {
    Prompt::secret("words", "to submit two words (privately)")
}

/// A guess at the partner's word.
pub fn guess() -> Prompt {
    Prompt::turn("guess", "to guess the word")
}
