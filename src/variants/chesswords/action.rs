//! What a seat can do in a Secret Chesswords game: the entries of its action log. The JSON
//! form is the one stored before the variant platform (`{"Clue":"a hint"}`, `"Pass"`,
//! `{"Play":{"word":"TREAT","mv":"c1c2"}}`), so old logs replay unchanged.

use serde::{Deserialize, Serialize};

/// One action of a Secret Chesswords seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChesswordsAction {
    /// A clue for the partner (in play) or for one of the seat's own words (in the
    /// finale), as typed.
    Clue(String),
    /// No clue: the partner moves freely.
    Pass,
    /// A move with the word the mover guessed.
    Play {
        /// The word, as typed.
        word: String,
        /// The move, UCI.
        mv: String,
    },
    /// A move with its two letters named instead of a word, for a penalty point.
    Letters {
        /// The two letters, as typed.
        letters: String,
        /// The move, UCI.
        mv: String,
    },
    /// A free move after a pass, UCI.
    Move(String),
    /// The card to discard, as typed.
    Discard(String),
    /// The seat's secret finale words (empty: none).
    Words(Vec<String>),
    /// A guess at the partner's finale word.
    Guess(String),
    /// The seat resigns: the partners lose together.
    Resign,
    /// The referee: this seat's time has run out.
    Timeout,
    /// The game is called off before each side has moved.
    Abort,
}

#[cfg(test)]
mod tests {
    use super::ChesswordsAction as A;
    use crate::variants::api::Action;

    #[test]
    fn stored_actions_keep_their_json() {
        let json = |a: &A| serde_json::to_string(&Action::of(a).unwrap()).unwrap();
        for (action, stored) in [
            (A::Clue("a hint".into()), r#"{"Clue":"a hint"}"#),
            (A::Pass, r#""Pass""#),
            (
                A::Play {
                    word: "treat".into(),
                    mv: "c1c2".into(),
                },
                r#"{"Play":{"word":"treat","mv":"c1c2"}}"#,
            ),
            (
                A::Letters {
                    letters: "te".into(),
                    mv: "c1c2".into(),
                },
                r#"{"Letters":{"letters":"te","mv":"c1c2"}}"#,
            ),
            (A::Move("b2b3".into()), r#"{"Move":"b2b3"}"#),
            (A::Discard("bP".into()), r#"{"Discard":"bP"}"#),
            (
                A::Words(vec!["ROD".into(), "ACE".into()]),
                r#"{"Words":["ROD","ACE"]}"#,
            ),
            (A::Words(vec![]), r#"{"Words":[]}"#),
            (A::Guess("rod".into()), r#"{"Guess":"rod"}"#),
            (A::Resign, r#""Resign""#),
            (A::Timeout, r#""Timeout""#),
            (A::Abort, r#""Abort""#),
        ] {
            // The same JSON as stored (an object's members may come in another order).
            let value: serde_json::Value = serde_json::from_str(stored).unwrap();
            assert_eq!(
                Action::of(&action).unwrap().json(),
                &value,
                "{}",
                json(&action)
            );
            let back: A = serde_json::from_str::<Action>(stored)
                .unwrap()
                .to("Secret Chesswords")
                .unwrap();
            assert_eq!(back, action);
        }
        assert_eq!(Action::resign(), Action::of(&A::Resign).unwrap());
        assert_eq!(Action::timeout(), Action::of(&A::Timeout).unwrap());
        assert_eq!(Action::abort(), Action::of(&A::Abort).unwrap());
    }
}
