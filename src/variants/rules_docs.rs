//! The rules documents (`docs/rules/NAME.md`), embedded in the binary when it is built:
//! `rules VARIANT` shows a variant's whole document, read from the same files the
//! repository holds, so that nothing is written twice. These documents are the players'
//! (how each variant is implemented and checked is in `docs/rules/implementation/`, which
//! is not embedded); [`player_document`] gives one in the form a chat shows
//! ([`super::player_text`]). A variant names its document with
//! [`VariantSpec::rules_document`](super::api::VariantSpec::rules_document); a test checks
//! that every built-in variant's document is here and that every document here belongs to
//! a variant.

/// Every document, by name (its file name without `.md`).
const DOCUMENTS: &[(&str, &str)] = &[
    ("standard", include_str!("../../docs/rules/standard.md")),
    (
        "chess-sharp",
        include_str!("../../docs/rules/chess-sharp.md"),
    ),
    ("los-alamos", include_str!("../../docs/rules/los-alamos.md")),
    (
        "double-move",
        include_str!("../../docs/rules/double-move.md"),
    ),
    (
        "king-of-the-hill",
        include_str!("../../docs/rules/king-of-the-hill.md"),
    ),
    (
        "three-check",
        include_str!("../../docs/rules/three-check.md"),
    ),
    (
        "racing-kings",
        include_str!("../../docs/rules/racing-kings.md"),
    ),
    ("horde", include_str!("../../docs/rules/horde.md")),
    ("crazyhouse", include_str!("../../docs/rules/crazyhouse.md")),
    ("chess960", include_str!("../../docs/rules/chess960.md")),
    ("antichess", include_str!("../../docs/rules/antichess.md")),
    ("atomic", include_str!("../../docs/rules/atomic.md")),
    (
        "split-brain",
        include_str!("../../docs/rules/split-brain.md"),
    ),
    ("chesswords", include_str!("../../docs/rules/chesswords.md")),
    ("gravity", include_str!("../../docs/rules/gravity.md")),
    ("parade", include_str!("../../docs/rules/parade.md")),
    ("neighbour", include_str!("../../docs/rules/neighbour.md")),
    ("booster", include_str!("../../docs/rules/booster.md")),
    (
        "cloak-and-dagger",
        include_str!("../../docs/rules/cloak-and-dagger.md"),
    ),
];

/// The text of the rules document `name` (`chess-sharp` for `docs/rules/chess-sharp.md`),
/// if there is one.
pub fn document(name: &str) -> Option<&'static str> {
    DOCUMENTS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The rules document `name` as a player reads it in a chat ([`super::player_text`]),
/// worked out once per process.
pub fn player_document(name: &str) -> Option<&'static str> {
    static PLAYERS: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
    PLAYERS
        .get_or_init(|| {
            DOCUMENTS
                .iter()
                .map(|(n, text)| (*n, super::player_text::for_players(text)))
                .collect()
        })
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| t.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Registry;

    #[test]
    fn every_variant_has_its_document_and_every_document_a_variant() {
        let r = Registry::builtin();
        for v in r.all() {
            let doc =
                document(v.rules_document()).unwrap_or_else(|| panic!("{}: no document", v.id()));
            assert!(doc.starts_with("# "), "{}", v.id());
        }
        for (name, _) in DOCUMENTS {
            assert!(
                r.all().any(|v| v.rules_document() == *name),
                "{name}.md belongs to no variant"
            );
        }
        // Every file in docs/rules/ but the README is embedded.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules");
        for entry in std::fs::read_dir(dir).unwrap() {
            let file = entry.unwrap().file_name().into_string().unwrap();
            let Some(name) = file.strip_suffix(".md") else {
                continue;
            };
            if name != "README" {
                assert!(document(name).is_some(), "{file} is not embedded");
            }
        }
    }
}
