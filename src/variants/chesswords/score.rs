//! Words and scores of Secret Chesswords: checking a word's form, a move against a word
//! (rule 5), finale words against the marked letters (rule 9), the operator's word list,
//! and the score and grade (rule 12).

use std::collections::BTreeMap;

/// The shortest word.
const MIN_WORD: usize = 2;

/// Why a word, or a player's finale words, were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WordError {
    /// No word at all.
    #[error("a word is needed here")]
    Missing,
    /// Something besides letters A to Z (the text shown, at most 30 characters).
    #[error("'{0}' is not a word: a word is letters A to Z only")]
    NotLetters(String),
    /// Fewer letters than a word has (the text shown).
    #[error("'{0}' is too short: a word has at least {least} letters", least = MIN_WORD)]
    TooShort(String),
    /// Fewer letters than a word played with a move has (the word).
    #[error("'{0}' is too short: a word played with a move has at least {least} letters; to name only the two letters, use letters {lower} MOVE (one penalty point)", least = MIN_PLAYED_WORD, lower = .0.to_ascii_lowercase())]
    TooShortToPlay(String),
    /// The word does not start and end with the move's letters.
    #[error(
        "the move goes from {from} to {to}, but '{word}' starts with {first} and ends with {last}"
    )]
    NotTheMove {
        /// The letter of the move's starting square.
        from: char,
        /// The letter of the move's ending square.
        to: char,
        /// The word (at most 30 characters of it).
        word: String,
        /// The word's first letter.
        first: char,
        /// The word's last letter.
        last: char,
    },
    /// No word given with the move.
    #[error("the move goes from {from} to {to}, but no word was given")]
    NoWordForMove {
        /// The letter of the move's starting square.
        from: char,
        /// The letter of the move's ending square.
        to: char,
    },
    /// A letter no checker marks.
    #[error("no checker marks the letter {letter}: the marked letters are {marked}")]
    NotMarked {
        /// The letter.
        letter: char,
        /// The marked letters, as [`marked_text`] writes them.
        marked: String,
    },
    /// A letter used more often than it is marked.
    #[error("the words use {letter} {uses} times, but only {have} marked {} {letter}", squares_have(.have))]
    OverUsed {
        /// The letter.
        letter: char,
        /// How often the words use it.
        uses: usize,
        /// How many squares mark it.
        have: usize,
    },
}

/// `square has` or `squares have`, for `n` squares.
fn squares_have(n: &usize) -> &'static str {
    if *n == 1 {
        "square has"
    } else {
        "squares have"
    }
}

/// The word in `text` in upper case, or why it is not one: letters A to Z only, at
/// least two of them.
pub fn word_form(text: &str) -> Result<String, WordError> {
    let word = text.trim();
    let shown: String = word.chars().take(30).collect();
    if word.is_empty() {
        return Err(WordError::Missing);
    }
    if !word.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(WordError::NotLetters(shown));
    }
    if word.len() < MIN_WORD {
        return Err(WordError::TooShort(shown));
    }
    Ok(word.to_ascii_uppercase())
}

/// The fewest letters of a word played with a move (`play WORD MOVE`): a two-letter
/// "word" names just the move's two letters, which `letters XY MOVE` does for a penalty
/// point, so `play` asks for three (`docs/rules/chesswords.md`, rule 5).
pub const MIN_PLAYED_WORD: usize = 3;

/// Whether `word` (already in [`word_form`]) is long enough to be played with a move.
pub fn played_word(word: &str) -> Result<(), WordError> {
    if word.len() < MIN_PLAYED_WORD {
        return Err(WordError::TooShortToPlay(word.to_string()));
    }
    Ok(())
}

/// Whether `word` starts with the letter `from` and ends with `to` (the letters of a
/// move's starting and ending squares), in either case; the refusal names both.
pub fn matches_move(word: &str, from: char, to: char) -> Result<(), WordError> {
    let (from, to) = (from.to_ascii_uppercase(), to.to_ascii_uppercase());
    let first = word.chars().next().map(|c| c.to_ascii_uppercase());
    let last = word.chars().last().map(|c| c.to_ascii_uppercase());
    match (first, last) {
        (Some(f), Some(l)) if f == from && l == to => Ok(()),
        (Some(first), Some(last)) => Err(WordError::NotTheMove {
            from,
            to,
            word: word.chars().take(30).collect(),
            first,
            last,
        }),
        _ => Err(WordError::NoWordForMove { from, to }),
    }
}

/// How many of each letter, in upper case.
fn tally<'a>(letters: impl IntoIterator<Item = &'a char>) -> BTreeMap<char, usize> {
    let mut count = BTreeMap::new();
    for c in letters {
        *count.entry(c.to_ascii_uppercase()).or_default() += 1;
    }
    count
}

/// Checks a player's finale words against the marked letters (the letters under the
/// checkers): across both words each marked letter may be used at most once, as many
/// times as it is marked. Gives the number of marked letters the words leave unused, or
/// names the letter that is not marked or used too often.
pub fn letters_unused(words: &[String], marked: &[char]) -> Result<usize, WordError> {
    let available = tally(marked);
    let used: Vec<char> = words.iter().flat_map(|w| w.chars()).collect();
    for (letter, n) in tally(&used) {
        match available.get(&letter).copied().unwrap_or(0) {
            0 => {
                return Err(WordError::NotMarked {
                    letter,
                    marked: marked_text(marked),
                })
            }
            have if n > have => {
                return Err(WordError::OverUsed {
                    letter,
                    uses: n,
                    have,
                })
            }
            _ => {}
        }
    }
    Ok(marked.len() - used.len())
}

/// The marked letters in alphabetical order, `A, E, E, T` (or `none`).
fn marked_text(marked: &[char]) -> String {
    let mut letters: Vec<String> = marked
        .iter()
        .map(|c| c.to_ascii_uppercase().to_string())
        .collect();
    letters.sort();
    if letters.is_empty() {
        "none".into()
    } else {
        letters.join(", ")
    }
}

/// One player's score, in its three parts (rule 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerScore {
    /// The product of the lengths of the player's words if the partner guessed one of
    /// them, else 0.
    pub product: u32,
    /// One if a king was captured.
    pub king_bonus: u32,
    /// The marked letters the player's words did not use, one point off each.
    pub unused: u32,
}

impl PlayerScore {
    /// The player's points: the product plus the king bonus minus the unused letters.
    pub fn total(&self) -> i32 {
        self.product as i32 + self.king_bonus as i32 - self.unused as i32
    }
}

/// A player's score from their words (none when they submitted none), whether the
/// partner guessed one of them, whether a king was captured, and the marked letters.
/// The words are expected to have passed [`letters_unused`]; letters beyond the marked
/// ones are not counted as used.
pub fn player_score(
    words: &[String],
    guessed: bool,
    king_captured: bool,
    marked: &[char],
) -> PlayerScore {
    let product = if guessed && !words.is_empty() {
        words
            .iter()
            .map(|w| w.chars().count() as u32)
            .fold(1u32, u32::saturating_mul)
    } else {
        0
    };
    let used: Vec<char> = words.iter().flat_map(|w| w.chars()).collect();
    let used = tally(&used);
    let unused: usize = tally(marked)
        .iter()
        .map(|(letter, &have)| have.saturating_sub(used.get(letter).copied().unwrap_or(0)))
        .sum();
    PlayerScore {
        product,
        king_bonus: u32::from(king_captured),
        unused: unused as u32,
    }
}

/// The game's total: both players' points minus the penalty points (one for each move
/// made by naming its letters).
pub fn game_total(scores: &[PlayerScore; 2], penalties: u32) -> i32 {
    scores.iter().map(PlayerScore::total).sum::<i32>() - penalties as i32
}

/// The game's grade from its total (rule 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    /// 85 points or more.
    A,
    /// 75 to 84.
    B,
    /// 60 to 74.
    C,
    /// 50 to 59.
    D,
    /// Below 50, or resigned: the game is lost.
    Lost,
}

/// The lowest total of each winning grade, best first.
const GRADES: [(i32, Grade); 4] = [
    (85, Grade::A),
    (75, Grade::B),
    (60, Grade::C),
    (50, Grade::D),
];

/// The grade of a game's total.
pub fn grade(total: i32) -> Grade {
    GRADES
        .iter()
        .find(|&&(least, _)| total >= least)
        .map_or(Grade::Lost, |&(_, g)| g)
}

impl Grade {
    /// The grade's letter: `A` to `D`, `F` for a lost game.
    pub fn letter(self) -> &'static str {
        match self {
            Grade::A => "A",
            Grade::B => "B",
            Grade::C => "C",
            Grade::D => "D",
            Grade::Lost => "F",
        }
    }

    /// Whether the partners won (any grade but a loss).
    pub fn is_win(self) -> bool {
        self != Grade::Lost
    }
}

pub use super::words::WordList;

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| w.to_string()).collect()
    }

    fn letters(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn chesswords_play_requires_a_word_of_at_least_three_letters() {
        let e = played_word("PR").unwrap_err().to_string();
        assert!(
            e.contains("at least 3 letters") && e.contains("letters pr MOVE"),
            "{e}"
        );
        assert!(played_word("PAR").is_ok());
    }

    #[test]
    fn a_word_is_two_or_more_letters_returned_in_upper_case() {
        assert_eq!(word_form("  treat "), Ok("TREAT".into()));
        assert_eq!(word_form("Ox"), Ok("OX".into()));
        for (text, says) in [
            ("", "needed"),
            ("   ", "needed"),
            ("a", "at least 2 letters"),
            ("don't", "letters A to Z"),
            ("two words", "letters A to Z"),
            ("café", "letters A to Z"),
            ("r2d2", "letters A to Z"),
        ] {
            let err = word_form(text).unwrap_err().to_string();
            assert!(err.contains(says), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_move_matches_a_word_by_its_first_and_last_letters() {
        assert_eq!(matches_move("treat", 'T', 'T'), Ok(()));
        assert_eq!(matches_move("TREAT", 't', 't'), Ok(()));
        assert_eq!(matches_move("Easy", 'E', 'Y'), Ok(()));
        assert_eq!(
            matches_move("apple", 'E', 'T').unwrap_err().to_string(),
            "the move goes from E to T, but 'apple' starts with A and ends with E"
        );
        // Right start, wrong end, and the reverse, are both refused.
        assert!(matches_move("east", 'E', 'S').is_err());
        assert!(matches_move("seat", 'E', 'T').is_err());
        assert!(matches_move("", 'E', 'T')
            .unwrap_err()
            .to_string()
            .contains("no word"));
    }

    #[test]
    fn marked_letters_are_used_at_most_once_across_both_words() {
        let marked = letters("STAREDON");
        assert_eq!(letters_unused(&words(&["STARE", "DON"]), &marked), Ok(0));
        assert_eq!(letters_unused(&words(&["star", "do"]), &marked), Ok(2));
        assert_eq!(letters_unused(&[], &marked), Ok(8));
        // A letter twice needs two marked squares.
        let err = letters_unused(&words(&["STARE", "SEND"]), &marked)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("use E 2 times") && err.contains("only 1"),
            "{err}"
        );
        let err = letters_unused(&words(&["STARE", "DOG"]), &marked)
            .unwrap_err()
            .to_string();
        assert!(err.contains("letter G"), "{err}");
        assert_eq!(
            letters_unused(&words(&["TEE"]), &letters("ETE")),
            Ok(0),
            "marked twice, used twice"
        );
        assert!(letters_unused(&words(&["AB"]), &[])
            .unwrap_err()
            .to_string()
            .contains("none"));
    }

    #[test]
    fn a_worked_example_scores_a_concrete_game() {
        // Checkers marked S T A R E D O N L. A king was captured; two moves were made
        // by naming their letters.
        let marked = letters("STAREDONL");
        // White: STARE and DON, 8 of the 9 letters (L unused); Black guessed DON.
        let white = words(&["STARE", "DON"]);
        assert_eq!(letters_unused(&white, &marked), Ok(1));
        let w = player_score(&white, true, true, &marked);
        assert_eq!(
            w,
            PlayerScore {
                product: 15,
                king_bonus: 1,
                unused: 1
            }
        );
        assert_eq!(w.total(), 15);
        // Black: LOAD and REST, N unused; White's guess missed.
        let black = words(&["LOAD", "REST"]);
        assert_eq!(letters_unused(&black, &marked), Ok(1));
        let b = player_score(&black, false, true, &marked);
        assert_eq!(
            b,
            PlayerScore {
                product: 0,
                king_bonus: 1,
                unused: 1
            }
        );
        assert_eq!(b.total(), 0);
        let total = game_total(&[w, b], 2);
        assert_eq!(total, 13);
        assert_eq!(grade(total), Grade::Lost);
        assert_eq!(grade(total).letter(), "F");
        assert!(!grade(total).is_win());
    }

    #[test]
    fn a_player_without_words_loses_every_marked_letter() {
        let marked = letters("ABC");
        let s = player_score(&[], true, false, &marked);
        assert_eq!(
            s,
            PlayerScore {
                product: 0,
                king_bonus: 0,
                unused: 3
            }
        );
        assert_eq!(s.total(), -3);
    }

    #[test]
    fn the_perfect_game_scores_100_and_grade_a() {
        // 14 marked letters, two seven-letter words each, both guessed, a king taken.
        let marked = letters("PLASTERCOUNTED");
        let white = words(&["PLASTER", "COUNTED"]);
        let black = words(&["STAPLER", "COUNTED"]);
        assert_eq!(letters_unused(&white, &marked), Ok(0));
        assert_eq!(letters_unused(&black, &marked), Ok(0));
        let scores = [
            player_score(&white, true, true, &marked),
            player_score(&black, true, true, &marked),
        ];
        assert_eq!(scores[0].total(), 50);
        let total = game_total(&scores, 0);
        assert_eq!(total, 100);
        assert_eq!(grade(total), Grade::A);
    }

    #[test]
    fn grade_boundaries() {
        for (total, g, letter) in [
            (100, Grade::A, "A"),
            (85, Grade::A, "A"),
            (84, Grade::B, "B"),
            (75, Grade::B, "B"),
            (74, Grade::C, "C"),
            (60, Grade::C, "C"),
            (59, Grade::D, "D"),
            (50, Grade::D, "D"),
            (49, Grade::Lost, "F"),
            (-5, Grade::Lost, "F"),
        ] {
            assert_eq!(grade(total), g, "{total}");
            assert_eq!(g.letter(), letter);
            assert_eq!(g.is_win(), total >= 50);
        }
    }

    #[test]
    fn the_word_list_ignores_case_blanks_and_comments() {
        let list =
            WordList::parse("# a comment\nTreat\n\n  apple  \nSTARE\n#not a word\n").unwrap();
        assert_eq!(list.len(), 3);
        assert!(list.contains("treat") && list.contains("APPLE") && list.contains("Stare"));
        assert!(!list.contains("comment") && !list.contains("#not a word"));
        assert!(!list.contains("tread"));
        let small = WordList::from_words(["ox", "Ax"]);
        assert!(small.contains("OX") && small.contains("ax"));
    }

    #[test]
    fn an_empty_word_list_is_refused_with_the_reason() {
        let err = WordList::parse("# only comments\n\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("has no words"), "{err}");
    }
}
