//! What a variant needs from outside its games (an operator's file, such as the word
//! list of Secret Chesswords' finale): declared by the variant ([`ResourceSpec`]), read by
//! the service at start from the path its setting names, parsed by the variant (which
//! does no I/O itself), and handed to a game while it reads a command ([`Resources`]).

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

/// One resource a variant may be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResourceSpec {
    /// Its name within the variant (`words`).
    pub name: &'static str,
    /// What it is and what happens without it, for the configuration's documentation.
    pub help: &'static str,
}

/// A resource as its variant parsed it.
pub type Loaded = Arc<dyn Any + Send + Sync>;

/// Why a variant could not parse a resource's text.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ResourceError {
    /// The variant declares no resource of that name.
    #[error("{variant} has no resource '{name}'")]
    Unknown {
        /// The variant, as its error names it (its id, or its name).
        variant: &'static str,
        /// The resource's name asked for.
        name: String,
    },
    /// The text is not what the resource must be: the variant's own reason.
    #[error("{0}")]
    Invalid(Arc<dyn std::error::Error + Send + Sync>),
}

impl ResourceError {
    /// The text is not what the resource must be, for the reason `why`.
    pub fn invalid(why: impl std::error::Error + Send + Sync + 'static) -> ResourceError {
        ResourceError::Invalid(Arc::new(why))
    }
}

/// The setting that names a resource's file: the variant's id with `-` as `_`, then
/// `_` and the resource's name (`chesswords_words`), in the configuration's `[games]`
/// table, or `POSTAL_` and the same in capitals in the environment.
pub fn setting_key(variant: &str, resource: &str) -> String {
    format!("{}_{resource}", variant.replace('-', "_"))
}

/// Every resource the operator configured, by variant id and resource name: parsed, or
/// why it could not be read or parsed (a game that needs it says so to the player).
#[derive(Clone, Default)]
pub struct Resources {
    loaded: HashMap<(String, String), Result<Loaded, String>>,
}

impl std::fmt::Debug for Resources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.loaded.keys()).finish()
    }
}

impl Resources {
    /// Records `variant`'s resource `name`: parsed, or why not.
    pub fn insert(&mut self, variant: &str, name: &str, value: Result<Loaded, String>) {
        self.loaded.insert((variant.into(), name.into()), value);
    }

    /// `variant`'s resource `name` as the type its variant parsed it into: `None` when
    /// none was configured, else the resource or why it could not be had.
    pub fn get<T: Any>(&self, variant: &str, name: &str) -> Option<Result<&T, &str>> {
        let entry = self.loaded.get(&(variant.to_string(), name.to_string()))?;
        Some(match entry {
            Ok(value) => value
                .downcast_ref::<T>()
                .ok_or("the resource is not of the kind the game reads"),
            Err(why) => Err(why.as_str()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resource_is_found_by_variant_and_name_and_type() {
        let mut r = Resources::default();
        r.insert("word-game", "words", Ok(Arc::new(vec!["ox".to_string()])));
        r.insert("word-game", "broken", Err("cannot read it".into()));
        let words = r.get::<Vec<String>>("word-game", "words").unwrap().unwrap();
        assert_eq!(words, &vec!["ox".to_string()]);
        assert_eq!(
            r.get::<Vec<String>>("word-game", "broken"),
            Some(Err("cannot read it"))
        );
        assert!(r.get::<Vec<String>>("other", "words").is_none());
        assert!(r.get::<u32>("word-game", "words").unwrap().is_err());
        assert_eq!(setting_key("word-game", "words"), "word_game_words");
    }
}
