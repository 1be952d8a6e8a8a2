//! Reading a game's action log as the store keeps it (migration 0024): one text a game
//! (`game_logs.log`), an entry a line,
//!
//! ```text
//! {seat}{kind}{at} {text}
//! ```
//!
//! `kind` is `m` for a move kept as its bare text, `j` for any other action kept as its
//! JSON ([`super::packing`]); `at` is the seconds since the game's creation; an entry's
//! number (`seq`, from 1) is its line's. A game's write appends the entries; this reads
//! them back, strictly: a line of any other shape is damage, said as such.

use super::packing;

/// One entry of a log, as kept: its seat, its time since the game's creation and its
/// action's JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    /// The seat the action applies to.
    pub seat: u8,
    /// Seconds since the game's creation.
    pub at: i64,
    /// The action as JSON.
    pub json: String,
}

/// The entries of `log`, in order; the number (from 1) and a short reason of the first
/// line that is not an entry.
pub(super) fn entries(log: &str) -> Result<Vec<Entry>, (usize, &'static str)> {
    let Some(body) = log.strip_suffix('\n') else {
        return if log.is_empty() {
            Ok(Vec::new())
        } else {
            Err((
                log.split('\n').count(),
                "no line break after the last entry",
            ))
        };
    };
    body.split('\n')
        .enumerate()
        .map(|(n, line)| entry(line).map_err(|why| (n + 1, why)))
        .collect()
}

/// One line's entry.
fn entry(line: &str) -> Result<Entry, &'static str> {
    let kind_at = line
        .find(|c: char| !c.is_ascii_digit())
        .ok_or("no kind after the seat")?;
    let seat = line[..kind_at].parse().map_err(|_| "no seat")?;
    let mut rest = line[kind_at..].chars();
    let kind = rest.next();
    let rest = rest.as_str();
    let (at, text) = rest.split_once(' ').ok_or("no space after the time")?;
    let at = at.parse().map_err(|_| "no time")?;
    let json = match kind {
        Some('m') => packing::unpack(Some(text.to_string()), None),
        Some('j') => text.to_string(),
        _ => return Err("a kind other than m or j"),
    };
    Ok(Entry { seat, at, json })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(seat: u8, at: i64, json: &str) -> Entry {
        Entry {
            seat,
            at,
            json: json.into(),
        }
    }

    #[test]
    fn each_line_is_an_entry_in_order() {
        let log = "0m0 e2e4\n1m86400 e7e5\n0j90000 \"Resign\"\n12j-3 {\"Clue\":[\"a b\",2]}\n";
        assert_eq!(
            entries(log),
            Ok(vec![
                e(0, 0, r#"{"Move":"e2e4"}"#),
                e(1, 86400, r#"{"Move":"e7e5"}"#),
                e(0, 90000, r#""Resign""#),
                e(12, -3, r#"{"Clue":["a b",2]}"#),
            ])
        );
        assert_eq!(entries(""), Ok(Vec::new()));
        assert_eq!(entries("0m0 \n"), Ok(vec![e(0, 0, r#"{"Move":""}"#)]));
    }

    #[test]
    fn a_damaged_log_says_which_line() {
        for (log, line) in [
            ("0m0 e2e4", 1),
            ("0m0 e2e4\nx", 2),
            ("0m0 e2e4\n0x0 e7e5\n", 2),
            ("0m e2e4\n", 1),
            ("m0 e2e4\n", 1),
            ("0m0\n", 1),
            ("0\n", 1),
            ("300m0 e2e4\n", 1),
            ("\n", 1),
            ("0é0 e2e4\n", 1),
        ] {
            assert_eq!(entries(log).map_err(|e| e.0), Err(line), "{log:?}");
        }
    }

    mod fuzz {
        use super::super::*;
        use proptest::prelude::*;

        /// An action's JSON as the referee writes it: a move (its text free of what
        /// JSON escapes, or not), or another action with any text inside.
        fn action() -> impl Strategy<Value = String> {
            prop_oneof![
                "[a-h1-8xX@=+#:QRBNK ]{0,10}"
                    .prop_map(|m| serde_json::json!({"Move": m}).to_string()),
                any::<String>().prop_map(|m| serde_json::json!({"Move": m}).to_string()),
                any::<String>().prop_map(|t| serde_json::json!({"Clue": [t, 2]}).to_string()),
                Just("\"Resign\"".to_string()),
            ]
        }

        /// `entries` as a game's write appends them: `{seat}{kind}{at} {text}\n`.
        fn written(entries: &[Entry]) -> String {
            entries
                .iter()
                .map(|e| match packing::pack(&e.json) {
                    (Some(text), _) => format!("{}m{} {text}\n", e.seat, e.at),
                    (None, json) => format!("{}j{} {}\n", e.seat, e.at, json.unwrap_or("")),
                })
                .collect()
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(500))]

            #[test]
            fn a_written_log_reads_back_entry_for_entry(
                list in prop::collection::vec((any::<u8>(), any::<i64>(), action()), 0..12),
            ) {
                let list: Vec<Entry> = list
                    .into_iter()
                    .map(|(seat, at, json)| Entry { seat, at, json })
                    .collect();
                prop_assert_eq!(entries(&written(&list)), Ok(list));
            }

            #[test]
            fn any_text_is_read_or_refused_at_a_line_it_has(
                log in prop_oneof![
                    any::<String>(),
                    "([0-9]{0,4}[mjx]?-?[0-9]{0,6} ?[a-z0-9\"{}:]{0,8}\n?){0,5}",
                ],
            ) {
                if let Err((line, _)) = entries(&log) {
                    prop_assert!(line >= 1 && line <= log.split('\n').count(), "{} {:?}", line, log);
                }
            }

            #[test]
            fn a_damaged_log_is_read_or_refused(
                list in prop::collection::vec((0u8..4, 0i64..100_000, action()), 1..6),
                edits in prop::collection::vec((any::<usize>(), any::<char>(), any::<bool>()), 1..4),
            ) {
                let list: Vec<Entry> = list
                    .into_iter()
                    .map(|(seat, at, json)| Entry { seat, at, json })
                    .collect();
                let mut chars: Vec<char> = written(&list).chars().collect();
                for (at, c, insert) in edits {
                    let at = at % chars.len().max(1);
                    match (insert, chars.is_empty()) {
                        (true, _) | (false, true) => chars.insert(at.min(chars.len()), c),
                        (false, false) => chars[at] = c,
                    }
                }
                let log: String = chars.into_iter().collect();
                if let Err((line, _)) = entries(&log) {
                    prop_assert!(line >= 1 && line <= log.split('\n').count());
                }
            }
        }
    }
}
