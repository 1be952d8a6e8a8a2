//! How an action is kept in the log (migration 0022; an entry of `game_logs` since 0024,
//! [`super::game_log`]): a move `{"Move":"<text>"}` as its bare text, any other action as
//! its JSON, so that the log's commonest entry costs its text alone and every entry reads
//! back byte for byte.

/// The JSON before a move's text.
const MOVE_START: &str = r#"{"Move":""#;
/// The JSON after a move's text.
const MOVE_END: &str = r#""}"#;

/// Action `json` as stored: `(move text, JSON)`, exactly one of them set. The text is
/// taken only where `json` is exactly `{"Move":"<text>"}` with nothing in `<text>` that
/// JSON escapes (a quote, a backslash, a control character), so that [`unpack`] gives
/// `json` back unchanged.
pub(super) fn pack(json: &str) -> (Option<&str>, Option<&str>) {
    match json
        .strip_prefix(MOVE_START)
        .and_then(|rest| rest.strip_suffix(MOVE_END))
        .filter(|text| !text.chars().any(|c| c == '"' || c == '\\' || c < ' '))
    {
        Some(text) => (Some(text), None),
        None => (None, Some(json)),
    }
}

/// The action's JSON from its stored parts ([`pack`]): the move text wrapped back, or
/// the JSON as it is (an empty text where neither is set, which the table's check
/// forbids).
pub(super) fn unpack(text: Option<String>, json: Option<String>) -> String {
    match (text, json) {
        (Some(text), _) => format!("{MOVE_START}{text}{MOVE_END}"),
        (None, json) => json.unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_keeps_its_text_and_reads_back_the_same() {
        for json in [
            r#"{"Move":"e2e4"}"#,
            r#"{"Move":"e7e8=Q"}"#,
            r#"{"Move":"N@f3"}"#,
            r#"{"Move":"é"}"#,
            r#"{"Move":""}"#,
        ] {
            let (text, rest) = pack(json);
            assert!(text.is_some() && rest.is_none(), "{json}");
            assert_eq!(unpack(text.map(str::to_string), None), json);
        }
        assert_eq!(pack(r#"{"Move":"e2e4"}"#).0, Some("e2e4"));
    }

    #[test]
    fn every_other_action_keeps_its_json() {
        for json in [
            r#""Resign""#,
            r#"{"Clue":["a",2]}"#,
            r#"{"Move":3}"#,
            r#"{"Move":"a\"b"}"#,
            r#"{"Move":"a\\b"}"#,
            r#"{"Move":"a\nb"}"#,
            r#"{"Move":"a","x":1}"#,
            r#"{"Move":"a"} "#,
            r#"{"Moves":"a"}"#,
        ] {
            let (text, rest) = pack(json);
            assert_eq!((text, rest), (None, Some(json)), "{json}");
            assert_eq!(unpack(None, rest.map(str::to_string)), json);
        }
    }

    #[test]
    fn the_packed_form_matches_what_serde_writes() {
        for text in ["e2e4", "O-O-O", "♞f3", "a b"] {
            let json = serde_json::json!({ "Move": text }).to_string();
            assert_eq!(pack(&json), (Some(text), None));
        }
    }
}
