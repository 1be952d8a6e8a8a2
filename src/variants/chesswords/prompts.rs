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

/// Which of two qualifying kinds of card to discard, privately.
pub fn discard() -> Prompt {
    Prompt::secret("discard", "to choose a card to discard (privately)")
}

/// The finale's two words, privately.
pub fn submit_words() -> Prompt {
    Prompt::secret("words", "to submit two words (privately)")
}

/// A guess at the partner's word.
pub fn guess() -> Prompt {
    Prompt::turn("guess", "to guess the word")
}
