//! The referee's parts as types: a [`Core`] that every part reads through, and one type
//! per collaborator over it, each a borrowed view of the core with the methods of its own
//! files. A part reaches another only through the accessors declared here, which are the
//! only way to make one (their fields are private to this module), so the order in which
//! the parts may use each other is held by the compiler: a part that calls what is not
//! its own, nor the core's, nor an accessor's, does not build.
//!
//! | part | its files | what it may use besides the core |
//! | --- | --- | --- |
//! | [`Accounts`] | standing, vacation, listing, personal, forget | |
//! | [`Servers`] | server_settings | |
//! | [`Analyses`] | analysis_report, analysis_progress, analysis | |
//! | [`Play`] | chat, records, reading, conditional, takeback, acting, engine_turn | accounts |
//! | [`Seating`] | seating, challenge, rematch | servers |
//! | [`Events`] | round_outbox, rounds, competition, signup, progress, tournament | accounts, servers, seating |
//! | [`Moderators`] | moderation | accounts, servers, seating |
//! | [`Clock`] | outbox | accounts, analyses, events, play |
//!
//! The [`Service`](super::Service) on top (dispatch, adapter) reaches every part.

use super::core::Core;

/// Declares a part: a borrowed view of the [`Core`] (which it reads through, by
/// dereference) and the accessors of the parts it may use.
macro_rules! part {
    ($(#[$doc:meta])* $name:ident uses [$($uses:ident: $part:ident),*]) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub(super) struct $name<'a> {
            core: &'a Core,
        }

        impl std::ops::Deref for $name<'_> {
            type Target = Core;
            fn deref(&self) -> &Core {
                self.core
            }
        }

        #[allow(dead_code)]
        impl<'a> $name<'a> {
            $(
                /// The part this one may use.
                pub(super) fn $uses(&self) -> $part<'a> {
                    $part { core: self.core }
                }
            )*
        }
    };
}

part!(
    /// Players' standing and what is theirs: ratings and the leaderboard, vacations, the
    /// games each has, personal settings and digests, and forgetting a player.
    Accounts uses []
);
part!(
    /// A server's own settings (prefix, typed commands, where games start, challenge
    /// defaults, moderators' role), stored and applied.
    Servers uses []
);
part!(
    /// Finished games analysed by the engines: requests, progress and reports.
    Analyses uses []
);
part!(
    /// Playing a game: which messages are for the referee, acting under the game's lock,
    /// takebacks, conditional moves, the engine's turns, and reading a game's record.
    Play uses [accounts: Accounts]
);
part!(
    /// Seats taken: challenges made and answered, games started, rematches.
    Seating uses [servers: Servers]
);
part!(
    /// Tournaments and competitions: their rounds paired and started, sign-up, standings,
    /// and their announcements queued with them.
    Events uses [accounts: Accounts, servers: Servers, seating: Seating]
);
part!(
    /// A moderator's abort or adjudication of a stuck game and ending of a player's
    /// challenges.
    Moderators uses [accounts: Accounts, servers: Servers, seating: Seating]
);
part!(
    /// Time passing: deadlines, reminders and timeouts, and the outbox they fill.
    Clock uses [accounts: Accounts, analyses: Analyses, events: Events, play: Play]
);

/// The service on top reaches every part.
#[allow(dead_code)]
impl super::Service {
    pub(super) fn accounts(&self) -> Accounts<'_> {
        Accounts { core: self }
    }
    pub(super) fn servers(&self) -> Servers<'_> {
        Servers { core: self }
    }
    pub(super) fn analyses(&self) -> Analyses<'_> {
        Analyses { core: self }
    }
    pub(super) fn play(&self) -> Play<'_> {
        Play { core: self }
    }
    pub(super) fn seating(&self) -> Seating<'_> {
        Seating { core: self }
    }
    pub(super) fn events(&self) -> Events<'_> {
        Events { core: self }
    }
    pub(super) fn moderators(&self) -> Moderators<'_> {
        Moderators { core: self }
    }
    pub(super) fn clock(&self) -> Clock<'_> {
        Clock { core: self }
    }
}
