//! The people this process has met: the display names the adapter last saw, bounded
//! however many users the bot meets.

use std::collections::HashMap;
use std::sync::Mutex;

/// The most display names kept in memory; past it the map starts again, which costs
/// only a name shown by key.
const MOST_KEPT: usize = 100_000;

/// Users' display names as the adapter last saw them: the names board images and records
/// show; a user not in it is shown by key.
#[derive(Default)]
pub(super) struct Names {
    inner: Mutex<HashMap<String, String>>,
}

impl Names {
    /// Records that `user` is shown as `name`.
    pub(super) fn learn(&self, user: &str, name: String) {
        let mut names = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if names.get(user) != Some(&name) {
            // Bounded: a bot seeing more users than this keeps the newest.
            if names.len() >= MOST_KEPT {
                names.clear();
            }
            names.insert(user.to_string(), name);
        }
    }

    /// Forgets the name `user` was shown by (a player forgotten at their request).
    pub(super) fn forget(&self, user: &str) {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(user);
    }

    /// `user`'s display name as last learnt, else the key.
    pub(super) fn of(&self, user: &str) -> String {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(user)
            .cloned()
            .unwrap_or_else(|| user.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_the_last_learnt_else_the_key() {
        let names = Names::default();
        assert_eq!(names.of("123456789012345678"), "123456789012345678");
        names.learn("123456789012345678", "Ann".into());
        names.learn("123456789012345678", "Annie".into());
        assert_eq!(names.of("123456789012345678"), "Annie");
    }

    #[test]
    fn the_names_stay_bounded_and_a_name_is_forgotten() {
        let names = Names::default();
        for i in 0..(MOST_KEPT + 10) {
            names.learn(&i.to_string(), "x".into());
        }
        assert!(names.inner.lock().unwrap().len() <= MOST_KEPT);
        let last = (MOST_KEPT + 9).to_string();
        assert_eq!(names.of(&last), "x");
        names.forget(&last);
        assert_eq!(names.of(&last), last);
    }
}
