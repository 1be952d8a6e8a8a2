//! A list of words the operator provides (the finale words of a word game must be on it).

use std::collections::HashSet;
use std::path::Path;

/// The operator's word list (`games.chesswords_words`): words a game accepts must be on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordList {
    words: HashSet<String>,
}

impl WordList {
    /// Reads a file of one word per line, in any case; blank lines and lines starting
    /// with `#` are skipped. A file that cannot be read or holds no word is an error.
    pub fn load(path: impl AsRef<Path>) -> Result<WordList, String> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the word list {}: {e}", path.display()))?;
        let list = WordList::from_words(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#')),
        );
        if list.is_empty() {
            return Err(format!("the word list {} has no words", path.display()));
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
