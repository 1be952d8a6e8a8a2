//! The variants the referee's help examples name, taken from the registry rather than
//! written into them: an example says what kind of variant it shows (`{two}`, a game of
//! two) and the registry gives one, so that help names no variant by hand and an example
//! never names a variant that is gone.

use crate::variants::api::VariantSpec;
use crate::variants::Registry;
use std::sync::OnceLock;

/// A placeholder of an example and the variant it stands for, chosen from the
/// registry's variants in order: the name a user types (its id), or a command's name.
type Pick = fn(&[&'static dyn VariantSpec]) -> Option<&'static str>;

/// Every placeholder, with how its variant is chosen.
const PLACEHOLDERS: &[(&str, Pick)] = &[
    // The registry's first variant, the one a challenge without a variant plays.
    ("{first}", |all| all.first().map(|v| v.id())),
    // A game of two other than the first.
    ("{two}", |all| seats(all, 2).map(|v| v.id())),
    // A game of four (partners in teams).
    ("{four}", |all| seats(all, 4).map(|v| v.id())),
    // A game played alone.
    ("{solitaire}", |all| seats(all, 1).map(|v| v.id())),
    // A variant with a command of its own, and that command.
    ("{own}", |all| own_command(all).map(|(v, _)| v.id())),
    ("{own-command}", |all| own_command(all).map(|(_, c)| c)),
];

/// The first variant after the registry's first with `n` seats.
fn seats(all: &[&'static dyn VariantSpec], n: usize) -> Option<&'static dyn VariantSpec> {
    all.iter().skip(1).copied().find(|v| v.seats().count() == n)
}

/// The first variant with a command the registry's first variant does not declare, and
/// that command's name.
fn own_command(
    all: &[&'static dyn VariantSpec],
) -> Option<(&'static dyn VariantSpec, &'static str)> {
    let first = all.first()?;
    all.iter().skip(1).find_map(|v| {
        v.commands()
            .iter()
            .find(|c| !first.commands().iter().any(|f| f.name == c.name))
            .map(|c| (*v, c.name))
    })
}

/// Each placeholder and its value among `all`, a registry's variants in order.
type Values = Vec<(&'static str, Option<&'static str>)>;

/// Each placeholder's value among `all`.
fn values_of(all: &[&'static dyn VariantSpec]) -> Values {
    PLACEHOLDERS
        .iter()
        .map(|(name, pick)| (*name, pick(all)))
        .collect()
}

/// `examples` (separated by `, `) with their placeholders filled from the built-in
/// registry (worked out once); an example whose placeholder no variant fills is left out.
pub fn filled(examples: &str) -> Vec<String> {
    static VALUES: OnceLock<Values> = OnceLock::new();
    let values = VALUES.get_or_init(|| {
        let all: Vec<&'static dyn VariantSpec> = Registry::builtin().all().collect();
        values_of(&all)
    });
    filled_with(examples, values)
}

/// `examples` filled from `values`, as [`filled`].
fn filled_with(examples: &str, values: &Values) -> Vec<String> {
    examples
        .split(", ")
        .filter(|e| !e.trim().is_empty())
        .filter_map(|e| {
            values
                .iter()
                .try_fold(e.to_string(), |text, (name, value)| {
                    match (text.contains(name), value) {
                        (false, _) => Some(text),
                        (true, Some(v)) => Some(text.replace(name, v)),
                        (true, None) => None,
                    }
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::command::REFEREE_COMMANDS;

    #[test]
    fn placeholders_are_filled_from_the_registry_and_every_one_is_known() {
        let all: Vec<&'static dyn VariantSpec> = Registry::builtin().all().collect();
        for (name, pick) in PLACEHOLDERS {
            let value = pick(&all).unwrap_or_else(|| panic!("{name} is filled"));
            let named = all
                .iter()
                .any(|v| v.id() == value || v.commands().iter().any(|c| c.name == value));
            assert!(named, "{name}: {value}");
        }
        let two = filled("challenge @bob {two} days:5, rules");
        assert_eq!(two.len(), 2);
        assert!(!two[0].contains('{'), "{two:?}");
        for c in REFEREE_COMMANDS {
            for e in filled(c.examples) {
                assert!(!e.contains('{') || e.contains("fen:"), "{}: {e}", c.name);
            }
        }
    }

    #[test]
    fn an_example_no_variant_fills_is_left_out() {
        let chess_alone: Vec<&'static dyn VariantSpec> =
            Registry::builtin().all().take(1).collect();
        let values = values_of(&chess_alone);
        assert_eq!(
            filled_with(
                "rules {first}, help {own}, rules {solitaire}, rules",
                &values
            ),
            [
                format!("rules {}", chess_alone[0].id()),
                "rules".to_string()
            ]
        );
    }
}
