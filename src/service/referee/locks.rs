//! One lock per game, held while a change to the game is checked and written. A game's
//! lock lives only while someone holds it or waits for it: the map is pruned of idle
//! locks whenever it has doubled since the last pruning, so that it stays about as large
//! as the number of games being acted on at once, however many games the process has
//! seen (a finished game's lock goes with the next pruning).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A game's lock.
pub(super) type GameLock = Arc<tokio::sync::Mutex<()>>;

/// The map is never pruned below this many locks (pruning a small map saves nothing).
const SMALLEST_PRUNE: usize = 64;

/// The locks of the games being acted on.
pub(super) struct GameLocks {
    inner: Mutex<Map>,
}

struct Map {
    locks: HashMap<i64, GameLock>,
    /// The size at which the map is next pruned.
    prune_at: usize,
}

impl GameLocks {
    /// No lock yet.
    pub(super) fn new() -> GameLocks {
        GameLocks {
            inner: Mutex::new(Map {
                locks: HashMap::new(),
                prune_at: SMALLEST_PRUNE,
            }),
        }
    }

    /// The lock of game `id`: the one everyone else acting on it has, while anyone does.
    pub(super) fn of(&self, id: i64) -> GameLock {
        let mut map = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if map.locks.len() >= map.prune_at {
            // A lock whose only reference is the map's is neither held nor awaited (a
            // holder or waiter has its own clone, taken under this mutex): dropping it
            // and making a fresh one later is the same as keeping it.
            map.locks.retain(|_, lock| Arc::strong_count(lock) > 1);
            map.prune_at = (2 * map.locks.len()).max(SMALLEST_PRUNE);
        }
        map.locks.entry(id).or_default().clone()
    }

    /// How many locks the map holds.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.inner.lock().unwrap().locks.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_locks_are_dropped_and_the_map_stays_small() {
        let locks = GameLocks::new();
        for id in 0..10_000 {
            let lock = locks.of(id);
            drop(lock.try_lock().expect("nobody holds it"));
        }
        assert!(locks.len() <= SMALLEST_PRUNE, "{}", locks.len());
    }

    #[test]
    fn a_held_or_awaited_lock_survives_pruning() {
        let locks = GameLocks::new();
        let held = locks.of(1);
        let guard = held.clone().try_lock_owned().unwrap();
        let waiter = locks.of(2);
        for id in 3..1_000 {
            locks.of(id);
        }
        assert!(Arc::ptr_eq(&held, &locks.of(1)), "game 1 keeps its lock");
        assert!(locks.of(1).try_lock().is_err(), "and it is still held");
        assert!(Arc::ptr_eq(&waiter, &locks.of(2)));
        drop(guard);
        assert!(locks.of(1).try_lock().is_ok());
    }
}
