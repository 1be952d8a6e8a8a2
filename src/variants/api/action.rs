//! What a seat did: an action in the variant's own form, stored in the game's log.

use super::RuleError;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The refusal of a command `word` that `variant` (its name) does not have: the word
/// (its first 20 characters) and `help` marked as commands ([`super::command_mark`]), so
/// that each reader writes them its way (Discord as the slash commands).
pub fn not_part_of(word: &str, variant: &str) -> RuleError {
    let word: String = word.chars().filter(|&c| c != '`').take(20).collect();
    RuleError::not_here(format!(
        "{} is not part of {variant}: {} lists the commands",
        super::command_mark(&word),
        super::command_mark("help"),
    ))
}

/// One entry of a game's action log: a variant's own action type, kept as JSON so the
/// referee and the store need not know it. Replaying the log from the start rebuilds the
/// game exactly.
///
/// The referee itself makes three actions, which every variant must understand:
/// [`Action::resign`], [`Action::abort`] and [`Action::timeout`] (the JSON strings
/// `"Resign"`, `"Abort"` and `"Timeout"`, as a serde unit variant of those names writes
/// them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Action(serde_json::Value);

impl Action {
    /// The action of a variant's own type; one that cannot be written as JSON is an
    /// error, never a `null` in the log.
    pub fn of<T: Serialize>(action: &T) -> Result<Action, RuleError> {
        super::to_stored("the action", action).map(Action)
    }

    /// The action read back as the variant's own type; an action of another variant's
    /// is refused.
    pub fn to<T: DeserializeOwned>(&self, variant: &str) -> Result<T, RuleError> {
        serde_json::from_value(self.0.clone()).map_err(|_| not_part_of(&self.name(), variant))
    }

    /// An entry of the referee's own, written out as JSON.
    pub(super) fn referees(json: serde_json::Value) -> Action {
        Action(json)
    }

    /// The seat gives up.
    pub fn resign() -> Action {
        Action(serde_json::Value::String("Resign".into()))
    }

    /// The game is called off before it really started.
    pub fn abort() -> Action {
        Action(serde_json::Value::String("Abort".into()))
    }

    /// The referee: this seat's time has run out.
    pub fn timeout() -> Action {
        Action(serde_json::Value::String("Timeout".into()))
    }

    /// The action's name in lower case (`move`, `clue`, `resign`), for messages.
    pub fn name(&self) -> String {
        let name = match &self.0 {
            serde_json::Value::String(s) => s.as_str(),
            serde_json::Value::Object(m) => m.keys().next().map_or("?", |k| k.as_str()),
            _ => "?",
        };
        name.to_lowercase()
    }

    /// The action as stored: its JSON, written to the log as text by its `to_string`
    /// (a JSON value always is).
    pub fn json(&self) -> &serde_json::Value {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Toy {
        Resign,
        Timeout,
        Step(u8),
    }

    #[test]
    fn the_referees_actions_read_as_a_variants_unit_variants() {
        assert_eq!(Action::resign().to::<Toy>("toy").unwrap(), Toy::Resign);
        assert_eq!(Action::timeout().to::<Toy>("toy").unwrap(), Toy::Timeout);
        let e = Action::abort().to::<Toy>("toy").unwrap_err();
        assert_eq!(
            crate::variants::api::typed_commands(&e.text),
            "`abort` is not part of toy: `help` lists the commands"
        );
        let step = Action::of(&Toy::Step(3)).unwrap();
        assert_eq!(step.name(), "step");
        assert_eq!(step.to::<Toy>("toy").unwrap(), Toy::Step(3));
        assert_eq!(serde_json::to_string(&step).unwrap(), r#"{"Step":3}"#);
    }
}
