//! The people this process has met: the users already recorded in the database (so that
//! a message costs no write for them) and the display names the adapter last saw, both
//! bounded however many users the bot meets.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// The most display names (or recorded users) kept in memory; past it the map starts
/// again, which costs only a name shown by key or a repeated harmless write.
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

/// The users this process has recorded in the database.
#[derive(Default)]
pub(super) struct KnownUsers {
    inner: Mutex<HashSet<String>>,
}

impl KnownUsers {
    /// Whether `user` was recorded by this process.
    pub(super) fn has(&self, user: &str) -> bool {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(user)
    }

    /// Notes that `user` is recorded.
    pub(super) fn add(&self, user: &str) {
        let mut users = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if users.len() >= MOST_KEPT {
            users.clear();
        }
        users.insert(user.to_string());
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
    fn the_maps_stay_bounded() {
        let names = Names::default();
        let users = KnownUsers::default();
        for i in 0..(MOST_KEPT + 10) {
            names.learn(&i.to_string(), "x".into());
            users.add(&i.to_string());
        }
        assert!(names.inner.lock().unwrap().len() <= MOST_KEPT);
        assert!(users.inner.lock().unwrap().len() <= MOST_KEPT);
        assert!(users.has(&(MOST_KEPT + 9).to_string()));
    }
}
