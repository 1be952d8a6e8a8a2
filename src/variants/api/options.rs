//! The options of a challenge that a variant declares (`timer:N`), validated and stored
//! with the game.

use super::RuleError;
use std::collections::BTreeMap;

/// One option a variant takes, written `name:value` in a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name before the colon (`timer`).
    pub name: &'static str,
    /// How to write it (`timer:N`).
    pub usage: &'static str,
    /// What it does.
    pub help: &'static str,
    /// Which values it takes.
    pub kind: OptionKind,
}

/// Which values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number in a range; a unit suffix from the list may follow (`3min`).
    Number {
        /// The least value.
        min: u32,
        /// The greatest value.
        max: u32,
        /// Suffixes accepted after the number and dropped.
        suffixes: &'static [&'static str],
    },
    /// One of these words.
    Choice(&'static [&'static str]),
}

/// A game's options as validated: name to value, in a canonical form (numbers without
/// their suffix, words in lower case). Stored with the game.
pub type Options = BTreeMap<String, String>;

impl OptionSpec {
    /// The canonical form of `value` for this option, or why it is refused.
    pub fn read(&self, value: &str) -> Result<String, RuleError> {
        let v = value.trim().to_lowercase();
        match self.kind {
            OptionKind::Number { min, max, suffixes } => {
                let digits = suffixes
                    .iter()
                    .find_map(|s| v.strip_suffix(s))
                    .unwrap_or(&v);
                match digits.parse::<u32>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
                    _ => Err(RuleError::syntax(format!(
                        "{} takes a whole number from {min} to {max}",
                        self.usage
                    ))),
                }
            }
            OptionKind::Choice(words) => words
                .iter()
                .find(|w| **w == v)
                .map(|w| w.to_string())
                .ok_or_else(|| {
                    RuleError::syntax(format!("{} is one of {}", self.usage, words.join(", ")))
                }),
        }
    }
}

/// Validates the options given in a challenge (`(name, value)` as typed) against what the
/// variant `display` takes.
pub fn read_options(
    specs: &[OptionSpec],
    display: &str,
    given: &[(String, String)],
) -> Result<Options, RuleError> {
    let mut out = Options::new();
    for (name, value) in given {
        let name = name.to_lowercase();
        let Some(spec) = specs.iter().find(|s| s.name == name) else {
            let known: Vec<&str> = specs.iter().map(|s| s.usage).collect();
            return Err(RuleError::syntax(format!(
                "{display} takes no option {}:{}",
                name.chars().take(20).collect::<String>(),
                if known.is_empty() {
                    String::new()
                } else {
                    format!(" (it takes {})", known.join(", "))
                }
            )));
        };
        out.insert(name, spec.read(value)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMER: OptionSpec = OptionSpec {
        name: "timer",
        usage: "timer:N",
        help: "minutes",
        kind: OptionKind::Number {
            min: 1,
            max: 5,
            suffixes: &["min", "m"],
        },
    };

    #[test]
    fn options_are_checked_and_made_canonical() {
        let given = |v: &str| vec![("Timer".to_string(), v.to_string())];
        let ok = read_options(&[TIMER], "toy", &given("3min")).unwrap();
        assert_eq!(ok.get("timer").map(String::as_str), Some("3"));
        let e = read_options(&[TIMER], "toy", &given("9")).unwrap_err();
        assert_eq!(e.text, "timer:N takes a whole number from 1 to 5");
        let e = read_options(&[], "toy", &given("3")).unwrap_err();
        assert_eq!(e.text, "toy takes no option timer:");
        let e = read_options(&[], "toy", &[("speed".into(), "3".into())]).unwrap_err();
        assert_eq!(e.kind, super::super::RefusalKind::Syntax);
    }
}
