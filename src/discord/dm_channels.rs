//! The private-message channel of each user, remembered: Discord gives a user's DM
//! channel by `POST /users/@me/channels`, the same channel every time, so the adapter
//! asks once per user rather than before every private message (a busy session sent
//! forty of them). Kept in memory and bounded: past [`REMEMBERED`] users the one
//! remembered longest ago is forgotten, and asked for again if needed.

use serenity::all::{ChannelId, UserId};
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// How many users' DM channels are remembered at most.
const REMEMBERED: usize = 50_000;

/// The DM channels known, by user, and the order they were learnt in.
#[derive(Default)]
pub(super) struct DmChannels(Mutex<(HashMap<UserId, ChannelId>, VecDeque<UserId>)>);

impl DmChannels {
    /// The DM channel of `user`, if it is remembered.
    pub(super) fn get(&self, user: UserId) -> Option<ChannelId> {
        let guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        guard.0.get(&user).copied()
    }

    /// Remembers `channel` as `user`'s DM channel, forgetting the one learnt longest
    /// ago when [`REMEMBERED`] are known.
    pub(super) fn remember(&self, user: UserId, channel: ChannelId) {
        self.remember_within(user, channel, REMEMBERED);
    }

    /// [`DmChannels::remember`] with at most `bound` users remembered.
    fn remember_within(&self, user: UserId, channel: ChannelId, bound: usize) {
        let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (map, order) = &mut *guard;
        if map.insert(user, channel).is_none() {
            order.push_back(user);
        }
        while order.len() > bound {
            if let Some(old) = order.pop_front() {
                map.remove(&old);
            }
        }
    }

    /// Forgets `user`'s DM channel (Discord no longer knows it).
    pub(super) fn forget(&self, user: UserId) {
        let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (map, order) = &mut *guard;
        if map.remove(&user).is_some() {
            order.retain(|u| *u != user);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channel_is_remembered_per_user_and_the_oldest_forgotten_past_the_bound() {
        let dms = DmChannels::default();
        let (alice, bob, carol) = (
            UserId::new(300_000_000_000_000_001),
            UserId::new(300_000_000_000_000_002),
            UserId::new(300_000_000_000_000_003),
        );
        assert_eq!(dms.get(alice), None);
        dms.remember_within(alice, ChannelId::new(700_000_000_000_000_001), 2);
        dms.remember_within(bob, ChannelId::new(700_000_000_000_000_002), 2);
        dms.remember_within(alice, ChannelId::new(700_000_000_000_000_001), 2);
        assert_eq!(
            dms.get(alice),
            Some(ChannelId::new(700_000_000_000_000_001))
        );
        dms.remember_within(carol, ChannelId::new(700_000_000_000_000_003), 2);
        assert_eq!(dms.get(alice), None, "the oldest is forgotten");
        assert!(dms.get(bob).is_some() && dms.get(carol).is_some());
        dms.forget(bob);
        assert_eq!(dms.get(bob), None);
    }
}
