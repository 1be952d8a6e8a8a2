//! Reading what a Secret Chesswords player typed (`clue`, `pass`, `play`, `letters`,
//! `move`, `discard`, `words`, `guess`) into an action of the game as it is now. The
//! finale's words are checked against the operator's word list here, before anything is
//! recorded.

use super::action::ChesswordsAction;
use super::game::Chesswords;
use super::words::WordList;
use crate::variants::api::{Action, Env, GameCommand, Reading, RuleError, Seat};

/// Reads one of the Secret Chesswords commands typed by `seat`.
pub(super) fn read(
    game: &Chesswords,
    seat: Seat,
    command: &GameCommand,
    env: Env,
) -> Result<Reading, RuleError> {
    let act = |a: ChesswordsAction| Action::of(&a).map(Reading::Act);
    match command.word.as_str() {
        "clue" | "hint" => act(ChesswordsAction::Clue(command.rest(0))),
        "pass" => act(ChesswordsAction::Pass),
        "play" => {
            let [word, ..] = command.args.as_slice() else {
                return Err(usage("play"));
            };
            act(ChesswordsAction::Play {
                word: word.clone(),
                mv: game.parse_move(seat, &command.rest(1))?,
            })
        }
        "letters" => {
            let [letters, ..] = command.args.as_slice() else {
                return Err(usage("letters"));
            };
            act(ChesswordsAction::Letters {
                letters: letters.clone(),
                mv: game.parse_move(seat, &command.rest(1))?,
            })
        }
        "move" => act(ChesswordsAction::Move(
            game.parse_move(seat, &command.rest(0))?,
        )),
        "discard" => act(ChesswordsAction::Discard(command.rest(0))),
        "words" => {
            let words = match command.args.as_slice() {
                [none] if none.eq_ignore_ascii_case("none") => Vec::new(),
                [a, b] => vec![a.clone(), b.clone()],
                _ => return Err(usage("words")),
            };
            if let Some(reason) = unlisted_word(env, &words) {
                return Err(RuleError::new(reason));
            }
            act(ChesswordsAction::Words(words))
        }
        "guess" => match command.args.as_slice() {
            [word] => act(ChesswordsAction::Guess(word.clone())),
            _ => Err(usage("guess")),
        },
        _ => Err(crate::variants::api::not_part_of(
            &command.word,
            "Secret Chesswords",
        )),
    }
}

/// The usage of one of the game's commands.
fn usage(name: &str) -> RuleError {
    super::spec::command(name)
        .map(|c| c.usage_error())
        .unwrap_or_else(|| {
            RuleError::syntax(format!("usage: {}", crate::variants::api::usage_mark(name)))
        })
}

/// Why finale words are refused by the operator's word list, if they are.
fn unlisted_word(env: Env, words: &[String]) -> Option<String> {
    match env
        .resources?
        .get::<WordList>(super::spec::SPEC_ID, super::spec::WORD_LIST)?
    {
        Err(e) => Some(format!(
            "the word list for finale words cannot be read ({e}); ask the operator"
        )),
        Ok(list) => words.iter().find(|w| !list.contains(w)).map(|w| {
            format!(
                "'{}' is not in this server's word list; nothing was recorded",
                w.chars().take(30).collect::<String>()
            )
        }),
    }
}
