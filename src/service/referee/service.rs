//! The referee service: what adapters and background tasks hold. It owns the [`Core`] and
//! reaches every part ([`super::parts`]); its public methods are the referee's surface,
//! each handing its work to the part it belongs to (the dispatch of commands and what an
//! adapter asks besides are its own, in `dispatch` and `adapter`).

use super::core::Core;
use super::*;
use crate::service::availability::Availability;
use crate::service::server_settings::ServerSettings;
use crate::store::{Forgetting, Store, StoreError};
use crate::telemetry::Telemetry;
use crate::variants::Registry;
use std::sync::Arc;

/// The referee service.
pub struct Service {
    core: Core,
}

impl std::ops::Deref for Service {
    type Target = Core;
    fn deref(&self) -> &Core {
        &self.core
    }
}

impl Service {
    /// A service over `store` playing the built-in variants.
    pub fn new(store: Store, settings: Settings) -> Service {
        Service::with_registry(store, settings, Registry::builtin())
    }

    /// A service over `store` playing the variants of `registry`.
    pub fn with_registry(store: Store, settings: Settings, registry: Registry) -> Service {
        Service {
            core: Core::new(store, settings, registry),
        }
    }

    /// This service asking `places` about a server's channels (whether a channel named
    /// in its settings is one of its own, which channel a thread belongs to).
    pub fn with_places(
        mut self,
        places: std::sync::Arc<dyn crate::service::places::Places>,
    ) -> Service {
        self.core.places = Some(places);
        self
    }

    /// This service showing `prefix` as the prefix of a server that chose none (the
    /// adapter's own, from the operator's configuration).
    pub fn with_default_prefix(mut self, prefix: &str) -> Service {
        self.core.default_prefix = prefix.to_string();
        self
    }

    /// This service recording its metrics into `telemetry`.
    pub fn with_telemetry(mut self, telemetry: Telemetry) -> Service {
        self.core.availability = Availability::counted_in(telemetry.clone());
        self.core.telemetry = telemetry;
        self
    }
}

impl Service {
    /// Forgets `user` (at `at`, marking `event_id` processed with it): unless they have a
    /// game or challenge under way, their personal rows are deleted and their key in their
    /// past games' records, and in the stored messages that name them, becomes the
    /// neutral label of the next number ([`forgotten_label`]); what this process
    /// remembers of them goes too. Forgetting them again changes nothing. For
    /// `forget-me confirm` and the operator's `postal forget-user`.
    pub async fn forget_user(
        &self,
        user: &str,
        event_id: Option<&str>,
        at: i64,
    ) -> Result<Forgetting, StoreError> {
        self.accounts().forget_user(user, event_id, at).await
    }

    /// The settings of `server` (the defaults when it never changed any).
    pub async fn server_settings(&self, server: &str) -> Result<ServerSettings, StoreError> {
        self.servers().server_settings(server).await
    }

    /// How typed messages are read on `server`: its prefix and whether it reads them. A
    /// stored prefix that is refused now (one stored before a prefix had to be
    /// punctuation: `N` would turn the move `Nf3` into `f3`) is the operator's instead,
    /// and is replaced in the store by the operator's at the first read, which carries
    /// the notice that says so ([`TypedCommands::notice`]): said once in the server.
    pub async fn typed_commands(&self, server: &str) -> Result<TypedCommands, StoreError> {
        self.servers().typed_commands(server).await
    }

    /// How long a process holds an analysis it works on without storing a position, in
    /// seconds, before another may take it over (`engines.lease_seconds`).
    pub fn analysis_lease_seconds(&self) -> i64 {
        self.analyses().analysis_lease_seconds()
    }

    /// Where game `game`'s progress message to `to` was posted, if it was and its
    /// analysis has not ended since.
    pub async fn analysis_post(
        &self,
        game: i64,
        to: &Destination,
    ) -> Result<Option<AnalysisPost>, StoreError> {
        self.analyses().analysis_post(game, to).await
    }

    /// Keeps where game `game`'s progress message to `to` was posted, to edit it with
    /// every later update.
    pub async fn record_analysis_post(
        &self,
        game: i64,
        to: &Destination,
        post: &AnalysisPost,
    ) -> Result<(), StoreError> {
        self.analyses().record_analysis_post(game, to, post).await
    }

    /// Forgets where game `game`'s progress message to `to` was posted, once its last
    /// update (done or failed) is shown: another analysis of the game posts its own.
    pub async fn forget_analysis_post(
        &self,
        game: i64,
        to: &Destination,
    ) -> Result<(), StoreError> {
        self.analyses().forget_analysis_post(game, to).await
    }

    /// How many times an engine was started again after it failed (for the operator's
    /// metrics and the tests).
    pub fn engine_restarts(&self) -> u64 {
        self.analyses().engine_restarts()
    }

    /// Whether a command queued an analysis since the last call (the console's question
    /// after each line).
    pub fn take_analysis_news(&self) -> bool {
        self.analyses().take_analysis_news()
    }

    /// Resolves when a command queues an analysis (the analysis task's wait).
    pub async fn analysis_news(&self) {
        self.analyses().analysis_news().await
    }

    /// Claims the oldest queued analysis and makes it, holding it for `lease_seconds` at
    /// a time; returns its game, or `None` when none is waiting. The analysis ends done,
    /// with its report in the outbox, or failed, with a message saying why; one whose
    /// claim is lost meanwhile is left to the process that took it.
    pub async fn analyse_next(&self, lease_seconds: i64) -> Result<Option<i64>, StoreError> {
        self.analyses().analyse_next(lease_seconds).await
    }

    /// Whether the command `text` begins with runs privately, wherever it is typed
    /// ([`command::runs_privately`]).
    pub fn runs_privately(&self, text: &str) -> bool {
        self.play().runs_privately(text)
    }

    /// Whether the first word of `text` is a command some variant declares: what an
    /// adapter may still tell when the database cannot answer [`Service::is_for_referee`].
    pub fn is_declared_command(&self, text: &str) -> bool {
        self.play().is_declared_command(text)
    }

    /// Whether `text`, typed by `user` in `place` (with the command prefix taken off, or
    /// without one in a game's thread), is for the referee: one of the referee's own
    /// commands (even with wrong arguments, whose usage the answer shows); a command a
    /// variant declares, where it names a game of the user's (`move 12 e4`) or one of the
    /// user's games there (live or over) is of that variant;
    /// or text that one of those games reads as a move (legal or not: an illegal move or
    /// one out of turn gets its reason). Decided from the parser's, the registry's and the
    /// rules' structured answers (a [`RefusalKind::Syntax`] reading is chat), never from
    /// the words. Reads only.
    pub async fn is_for_referee(
        &self,
        user: &str,
        place: &Place,
        text: &str,
    ) -> Result<bool, StoreError> {
        self.play().is_for_referee(user, place, text).await
    }

    /// [`Service::is_for_referee`] for a line typed without the prefix in a game's
    /// thread, where people talk: a referee command that acts on the writer's own game
    /// and names none (`resign`, `abort`, `takeback`, `rematch`, `hand`, `conditional`)
    /// is for the referee only from someone who plays a game there (of any status); from
    /// an onlooker it is chat, as their move-like text is. Reads only.
    pub async fn is_for_referee_unprefixed(
        &self,
        user: &str,
        place: &Place,
        text: &str,
    ) -> Result<bool, StoreError> {
        self.play()
            .is_for_referee_unprefixed(user, place, text)
            .await
    }

    /// Game `id`'s public record as PGN, with its file name ([`record_name`]); `None`
    /// for no such game.
    pub async fn record(&self, id: i64) -> Result<Option<(String, String)>, StoreError> {
        self.play().record(id).await
    }

    /// Game `id`'s public animation as a GIF drawn by `renderer` (off the async runtime's
    /// threads), with its file name; `None` for no such game or a variant without
    /// animations.
    pub async fn animation(
        &self,
        id: i64,
        renderer: Arc<crate::render::Renderer>,
    ) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        self.play().animation(id, renderer).await
    }

    /// Claims the engine's turn that has waited longest and plays it, at `now`; returns
    /// its game, or `None` when no turn waits (or this service is not told who the bot
    /// is). An engine that fails is logged and its turn left to be tried again.
    pub async fn play_engine_next(&self, now: i64) -> Result<Option<i64>, StoreError> {
        self.play().play_engine_next(now).await
    }

    /// Whether a command gave the engine a turn since the last call (the console's
    /// question after each line).
    pub fn take_engine_news(&self) -> bool {
        self.play().take_engine_news()
    }

    /// Resolves when a command gives the engine a turn (the engine task's wait).
    pub async fn engine_turns_news(&self) {
        self.play().engine_turns_news().await
    }

    /// The seed of game `id`'s public draws (colours, teams, a letter grid), stored with
    /// the game: with a configured seed (`--seed`, tests), that seed mixed with the
    /// game's id, which the database hands out once, so the same settings give the same
    /// draws game by game; without one (the bot), the operating system's entropy.
    pub fn game_seed(&self, id: i64) -> i64 {
        self.seating().game_seed(id)
    }

    /// Waits until a command queues messages in the outbox (the deadline task then
    /// delivers them at once). Returns at once when some were queued since the last
    /// wait.
    pub async fn outbox_news(&self) {
        self.events().outbox_news().await
    }

    /// Runs `work`, an adapter's handling of one command and the delivery of its answer:
    /// what the command queued in the outbox (a tournament's next round) is held until
    /// `work` is over, then the deadline task is woken to deliver it, after the answer.
    /// Each command holds only its own news: another command's delivery releases none.
    pub async fn delivering<F: std::future::Future>(&self, work: F) -> F::Output {
        self.events().delivering(work).await
    }

    /// Whether a command queued messages in the outbox since this was last asked (or
    /// [`Service::outbox_news`] last returned): the console then delivers them after
    /// the command's answer.
    pub fn take_outbox_news(&self) -> bool {
        self.events().take_outbox_news()
    }

    /// The deadline task's sweep at `now`: every tournament whose sign-up deadline has
    /// passed starts (or is cancelled, too few having joined), and every running
    /// tournament whose games have all ended goes on, its messages queued in the outbox.
    pub async fn advance_tournaments(&self, now: i64) -> Result<(), StoreError> {
        self.events().advance_tournaments(now).await
    }

    /// Runs the deadline check at `now` ([`Service::check_deadlines`]) and returns every
    /// message in the outbox not yet delivered that this process may deliver
    /// ([`Service::claim_undelivered`]), the ones an earlier process left included. The
    /// deliverer calls [`Service::delivered`] for each once it is handed over; until then
    /// it is returned again by every call.
    pub async fn tick(&self, now: i64) -> Result<Vec<Queued>, StoreError> {
        self.clock().tick(now).await
    }

    /// Sends reminders and applies timeouts due at `now`. Each reminder, "time has run
    /// out" and timeout is recorded once, together with its messages in the outbox, in the
    /// same transaction (a timeout: the same statement as the game's change), so a
    /// restart neither skips nor repeats one. The messages wait in the outbox
    /// ([`Service::claim_undelivered`]).
    ///
    /// It reads only what is due: the deadlines whose time to be looked at has come (a
    /// reminder's hour or the deadline itself, `Store::deadlines_to_check`), in batches of
    /// [`CHECK_BATCH`], so a check costs the same with a hundred games as with a hundred
    /// thousand.
    pub async fn check_deadlines(&self, now: i64) -> Result<(), StoreError> {
        self.clock().check_deadlines(now).await
    }

    /// Once when a process's deadline task starts: brings every deadline's next look
    /// forward to the most distant reminder the operator's settings (read at start, not
    /// stored) or a player ask for, and the deadlines set aside to now, so that a change
    /// of the operator's reminder hours since they were set misses nothing.
    pub async fn recheck_deadlines(&self, now: i64) -> Result<u64, StoreError> {
        self.clock().recheck_deadlines(now).await
    }

    /// The outbox's undelivered messages, oldest first, each with the game's public board
    /// when it carries one, claimed for this process for [`OUTBOX_LEASE_SECONDS`]: those
    /// another process holds are left to it, unless it died holding them and its claim
    /// ran out.
    pub async fn claim_undelivered(&self) -> Result<Vec<Queued>, StoreError> {
        self.clock().claim_undelivered().await
    }

    /// Marks an outbox message delivered at `at`: its deliverer has handed it over.
    pub async fn delivered(&self, id: i64, at: i64) -> Result<(), StoreError> {
        self.clock().delivered(id, at).await
    }
}
