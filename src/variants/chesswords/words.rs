//! A list of words the operator provides (the finale words must be on it): the resource
//! `words` of Secret Chesswords, parsed from the text of the file the service read.

use std::collections::HashSet;

/// Why a word list's text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WordListError {
    /// No line holds a word.
    #[error("the word list has no words")]
    Empty,
}

/// The operator's word list (`games.chesswords_words`): words a game accepts must be on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordList {
    words: HashSet<String>,
}

impl WordList {
    /// Reads the text of a file of one word per line, in any case; blank lines and lines
    /// starting with `#` are skipped. A text without a word is an error.
    pub fn parse(text: &str) -> Result<WordList, WordListError> {
        let list = WordList::from_words(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#')),
        );
        if list.is_empty() {
            return Err(WordListError::Empty);
        }
        Ok(list)
    }

    /// A list of the given words, in any case.
    pub fn from_words<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> WordList {
        WordList {
            words: words
                .into_iter()
                .map(|w| w.as_ref().trim().to_ascii_uppercase())
                .filter(|w| !w.is_empty())
                .collect(),
        }
    }

    /// Whether `word` is on the list, in any case.
    pub fn contains(&self, word: &str) -> bool {
        self.words.contains(&word.trim().to_ascii_uppercase())
    }

    /// How many words the list holds.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the list holds no word.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}
