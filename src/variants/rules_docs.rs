//! The rules documents (`docs/rules/NAME.md`) in the form a chat shows them. Each
//! variant embeds its own document in its description
//! ([`rules_document!`](super::api::rules_document), [`Description::document`]), read
//! from the same files the repository holds, so that nothing is written twice and no
//! table here names a variant. These documents are the players' (how each variant is
//! implemented and checked is in `docs/rules/implementation/`, which is not embedded);
//! [`player_document`] gives one in the form a chat shows ([`super::player_text`]). A
//! test checks that every built-in variant has its document and that every document in
//! `docs/rules/` belongs to a variant.
//!
//! [`Description::document`]: super::api::Description::document

use super::api::RulesDocument;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The rules document `document` as a player reads it in a chat
/// ([`super::player_text`]), worked out once per process and document.
pub fn player_document(document: &RulesDocument) -> &'static str {
    if document.text.is_empty() {
        return "";
    }
    // By the document's text (its address: each is embedded once), each worked out the
    // first time it is asked for and kept for the process, as the text itself is.
    static PLAYERS: OnceLock<Mutex<HashMap<usize, &'static str>>> = OnceLock::new();
    let key = document.text.as_ptr() as usize;
    let mut players = PLAYERS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    players.entry(key).or_insert_with(|| {
        Box::leak(super::player_text::for_players(document.text).into_boxed_str())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Registry;

    #[test]
    fn every_variant_has_its_document_and_every_document_a_variant() {
        let r = Registry::builtin();
        for v in r.all() {
            let doc = v.description().document;
            assert!(doc.text.starts_with("# "), "{}: no document", v.id());
            assert!(!v.rules_text().is_empty(), "{}", v.id());
            assert!(
                r.all().filter(|o| o.rules_document() == doc.name).count() == 1,
                "{}: {}.md is another variant's too",
                v.id(),
                doc.name
            );
        }
        // Every file in docs/rules/ but the README is a variant's document.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules");
        for entry in std::fs::read_dir(dir).unwrap() {
            let file = entry.unwrap().file_name().into_string().unwrap();
            let Some(name) = file.strip_suffix(".md") else {
                continue;
            };
            if name != "README" {
                assert!(
                    r.all().any(|v| v.rules_document() == name),
                    "{file} belongs to no variant"
                );
            }
        }
    }

    #[test]
    fn a_document_is_worked_out_once_and_an_empty_one_is_empty() {
        let r = Registry::builtin();
        let v = r.all().next().unwrap();
        let doc = v.description().document;
        assert!(std::ptr::eq(player_document(&doc), player_document(&doc)));
        let none = RulesDocument {
            name: "none",
            text: "",
        };
        assert_eq!(player_document(&none), "");
    }
}
