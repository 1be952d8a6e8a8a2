//! The recipe for adding a variant (ARCHITECTURE.md, "The variant platform"), checked for
//! every registered variant: its folder `src/variants/NAME/` (its id with `_` for `-`),
//! its `pub mod` and its registry line in `src/variants/mod.rs`, its rules document
//! `docs/rules/DOC.md` and the developers' `docs/rules/implementation/DOC.md` (`DOC` is
//! the document its description embeds, `rules_document!("DOC")`, read back as
//! [`VariantSpec::rules_document`]), and its row in `docs/rules/README.md`. The test names each step a variant misses. Run it
//! alone with `cargo test --test engine -- variant_recipe::`.

use postal::variants::api::VariantSpec;
use postal::variants::Registry;
use std::path::Path;

/// The steps of the recipe `v` misses, each in words; `variants` is the text of
/// `src/variants/mod.rs`, `readme` that of `docs/rules/README.md`.
fn missing(root: &Path, v: &dyn VariantSpec, variants: &str, readme: &str) -> Vec<String> {
    let id = v.id();
    let folder = id.replace('-', "_");
    let doc = v.rules_document();
    let mut out = Vec::new();
    let mut need = |ok: bool, what: String| {
        if !ok {
            out.push(format!("{id}: {what}"));
        }
    };
    need(
        root.join(format!("src/variants/{folder}/mod.rs")).is_file(),
        format!("no folder src/variants/{folder}/ with a mod.rs"),
    );
    need(
        variants.contains(&format!("\npub mod {folder};\n")),
        format!("no `pub mod {folder};` in src/variants/mod.rs"),
    );
    need(
        variants.contains(&format!("    &{folder}::SPEC,\n")),
        format!("no line `&{folder}::SPEC,` in BUILTIN (src/variants/mod.rs)"),
    );
    need(
        root.join(format!("docs/rules/{doc}.md")).is_file(),
        format!("its description's document names docs/rules/{doc}.md, which is not there"),
    );
    need(
        root.join(format!("docs/rules/implementation/{doc}.md"))
            .is_file(),
        format!("no docs/rules/implementation/{doc}.md"),
    );
    need(
        !v.rules_text().is_empty(),
        format!(
            "docs/rules/{doc}.md is not embedded: its description's document is not \
             rules_document!(\"{doc}\")"
        ),
    );
    let row = format!("| `{id}` | [{doc}.md]({doc}.md) |");
    need(
        readme
            .lines()
            .any(|l| l.starts_with("| ") && l.contains(&row)),
        format!("no row with `{row}` in docs/rules/README.md"),
    );
    out
}

#[test]
fn every_variant_has_its_folder_registry_line_documents_and_readme_row() {
    let root = crate::common::root();
    let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap();
    let variants = read("src/variants/mod.rs");
    let readme = read("docs/rules/README.md");
    let registry = Registry::builtin();
    assert!(
        registry.all().count() > 15,
        "the registry's variants are found"
    );
    let missing: Vec<String> = registry
        .all()
        .flat_map(|v| missing(root, v, &variants, &readme))
        .collect();
    assert!(
        missing.is_empty(),
        "a variant misses a step of the recipe (ARCHITECTURE.md, \"The variant platform\"):\n{}",
        missing.join("\n")
    );
}

/// The check names what a variant lacks: a variant of the test suite's own, registered
/// but with no folder, document or row, misses every step.
#[test]
fn a_variant_without_its_folder_and_documents_is_named_with_each_step_it_misses() {
    let root = crate::common::root();
    let toy: &dyn VariantSpec = &crate::toy::KNIGHT_HOP;
    let found = missing(root, toy, "", "");
    assert_eq!(found.len(), 7, "{found:#?}");
    assert!(found
        .iter()
        .all(|m| m.starts_with(&format!("{}: ", toy.id()))));
    assert!(found[0].contains("src/variants/"), "{}", found[0]);
}
