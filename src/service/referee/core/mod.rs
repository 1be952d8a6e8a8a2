//! The referee's core: what it holds (the store, the settings, the variants, the
//! games' locks, the names it has learnt) and the few things every part asks of it.

pub(in crate::service::referee) mod lookup;
pub(in crate::service::referee) mod routing;

use super::locks;
use super::people::Names;
use super::text::seat_users;
use super::Settings;
use super::*;
use crate::service::availability::Availability;
use crate::store::{GameRow, GameStatus, Store, StoreError, Write};
use crate::telemetry::Telemetry;
use crate::variants::api::{Env, Resources};
use crate::variants::Registry;

/// What every part of the referee reads through: the store, the settings, the variants,
/// the games' locks, the names learnt, the metrics, and the news that wakes the background
/// tasks. The [`Service`](super::Service) holds it; each part is a view of it
/// ([`super::parts`]).
pub struct Core {
    pub(in crate::service::referee) store: Store,
    pub(in crate::service::referee) settings: Settings,
    pub(in crate::service::referee) registry: Registry,
    pub(in crate::service::referee) locks: locks::GameLocks,
    /// Users' display names as the adapter last saw them ([`Service::learn_name`]).
    pub(in crate::service::referee) names: Names,
    /// The resources the variants declared and the operator configured, read at start.
    pub(in crate::service::referee) resources: Resources,
    /// What the operator's metrics count ([`Service::with_telemetry`]); off by default.
    pub(in crate::service::referee) telemetry: Telemetry,
    /// Whether the database answers: an outage is logged once, not once a request.
    pub(in crate::service::referee) availability: Availability,
    /// Whether a command queued messages in the outbox (a tournament's round), for the
    /// deadline task to deliver at once.
    pub(in crate::service::referee) outbox_news: OutboxNews,
    /// The engines that analyse finished games, started when first needed.
    pub(in crate::service::referee) engines: std::sync::Arc<crate::engines::Engines>,
    /// Set when a command queued an analysis; wakes the analysis task.
    pub(in crate::service::referee) analysis_news: OutboxNews,
    /// The bot's own user, who holds the engine's seat in games against the bot; unset,
    /// nobody can challenge the bot ([`Service::set_engine_user`]).
    pub(in crate::service::referee) engine_user: std::sync::OnceLock<String>,
    /// Set when a write gave the engine a turn; wakes the engine's task.
    pub(in crate::service::referee) engine_news: OutboxNews,
    /// What the chat platform says of a server's channels ([`Service::with_places`]).
    pub(in crate::service::referee) places:
        Option<std::sync::Arc<dyn crate::service::places::Places>>,
    /// The operator's prefix of typed commands, shown where a server has none of its own.
    pub(in crate::service::referee) default_prefix: String,
}

/// Reads the file of every resource a variant of `registry` declares and the settings
/// name, and has its variant parse it; a file that cannot be read or parsed is logged and
/// kept as the reason, which the game gives the players who need it.
fn load_resources(registry: &Registry, settings: &Settings) -> Resources {
    let mut resources = Resources::default();
    for variant in registry.all() {
        for spec in variant.resources() {
            let key = crate::variants::api::setting_key(variant.id(), spec.name);
            let Some(path) = settings.resources.get(&key) else {
                continue;
            };
            let loaded = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {path}: {e}"))
                .and_then(|text| {
                    variant
                        .parse_resource(spec.name, &text)
                        .map_err(|e| format!("{path}: {e}"))
                })
                .inspect_err(|e| tracing::error!("the setting {key} cannot be used: {e}"));
            resources.insert(variant.id(), spec.name, loaded);
        }
    }
    resources
}

impl Core {
    /// The core of a service over `store` playing the variants of `registry`.
    pub(in crate::service::referee) fn new(
        store: Store,
        settings: Settings,
        registry: Registry,
    ) -> Core {
        let resources = load_resources(&registry, &settings);
        let engines = std::sync::Arc::new(crate::engines::Engines::new(settings.engines.clone()));
        Core {
            store,
            resources,
            settings,
            registry,
            locks: locks::GameLocks::new(),
            names: Names::default(),
            telemetry: Telemetry::off(),
            availability: Availability::default(),
            outbox_news: Default::default(),
            engines,
            analysis_news: Default::default(),
            engine_user: Default::default(),
            engine_news: Default::default(),
            places: None,
            default_prefix: "!".into(),
        }
    }

    /// What this service's metrics count (the adapters record theirs into it too).
    pub fn telemetry(&self) -> &Telemetry {
        &self.telemetry
    }

    /// Whether the database answers, as the requests find it.
    pub fn availability(&self) -> &Availability {
        &self.availability
    }

    /// Whether the database answers now (the health check), and if not, why.
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.store.ping().await
    }

    /// Notes that a request failed with `e` (an adapter calls this once a request that
    /// failed). Returns whether it is the database not answering, which this logs once
    /// an outage and counts; the caller logs other failures itself.
    pub fn failed(&self, e: &StoreError) -> bool {
        let unavailable = self.availability.failed(e);
        if unavailable {
            self.telemetry.database_unavailable();
        }
        unavailable
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Records how `user` is called where the adapter saw them (a Discord member's
    /// server nickname, else their global name, else their username), cleaned for
    /// showing ([`crate::service::names::display_name`]). Board captions and records show
    /// this name; the text of messages keeps naming users by key, which an adapter shows
    /// its own way (Discord as a mention, which Discord displays as the name).
    pub fn learn_name(&self, user: &str, raw: &str) {
        let name = crate::service::names::display_name(raw, user);
        self.names.learn(user, name);
    }

    /// `user`'s display name as last learnt ([`Service::learn_name`]), else the key; the
    /// bot's own user, which plays the engine, is `Postal`.
    pub fn name_of(&self, user: &str) -> String {
        if self.engine_user() == Some(user) {
            return super::engine_seat::ENGINE_NAME.to_string();
        }
        self.names.of(user)
    }

    /// The display name of each seat's player, in seat order (`?` for an open seat; the
    /// engine's seat, `Postal (level 3)`).
    pub fn seat_names(&self, g: &crate::store::GameRow) -> Vec<String> {
        let engine = super::engine_seat::engine_of(g);
        seat_users(g)
            .into_iter()
            .enumerate()
            .map(|(i, u)| match engine {
                Some(e) if usize::from(e.seat) == i => e.shown_name(),
                _ => self.name_of(u),
            })
            .collect()
    }

    /// Makes `user` (the bot's own user, as the adapter names users) the player of the
    /// engine's seat in games against the bot: challenging `user` challenges the engine.
    /// Set once, when the adapter knows who it is; a second call changes nothing.
    pub fn set_engine_user(&self, user: &str) {
        let _ = self.engine_user.set(user.to_string());
    }

    /// The bot's own user, if the adapter said who it is.
    pub fn engine_user(&self) -> Option<&str> {
        self.engine_user.get().map(String::as_str)
    }

    /// The variants this service plays.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// What a game may consult while reading a command.
    pub(in crate::service::referee) fn env(&self) -> Env<'_> {
        Env {
            resources: Some(&self.resources),
        }
    }

    /// The lock of game `id` ([`locks::GameLocks::of`]).
    pub(in crate::service::referee) fn lock_for(&self, id: i64) -> locks::GameLock {
        self.locks.of(id)
    }

    /// Records `user` in the database when they take an open seat (never for a refused
    /// command). Written each time, not remembered by the process: a player forgotten
    /// meanwhile (`postal forget-user`, by another process) has no row any more.
    pub(in crate::service::referee) async fn ensure_user(
        &self,
        user: &str,
    ) -> Result<(), StoreError> {
        self.store.ensure_user(user, user).await
    }

    /// Forgets what this process remembers of `user` (the name it saw).
    pub(in crate::service::referee) fn forget_name(&self, user: &str) {
        self.names.forget(user);
    }

    /// The display name of the variant `id` (`Booster Chess`), as players read it.
    pub fn display_name(&self, id: &str) -> &'static str {
        self.registry
            .find(id)
            .map_or("this game", |v| v.display_name())
    }
}

impl Core {
    /// Commits `w` to game `g` ([`crate::store::Store::write`]), timing it and counting
    /// the games it starts and ends for the operator's metrics.
    pub(in crate::service::referee) async fn write(
        &self,
        g: &GameRow,
        w: &Write,
    ) -> Result<(), StoreError> {
        let started = std::time::Instant::now();
        self.store.write(g.id, w).await?;
        self.telemetry
            .database_write(started.elapsed().as_secs_f64());
        self.count_status(g, w);
        Ok(())
    }

    /// Commits `writes` to game `g`, in order, in one transaction ([`Store::write_all`]:
    /// an action and the answer it gets at once), as [`Service::write`] commits one.
    pub(in crate::service::referee) async fn write_all(
        &self,
        g: &GameRow,
        writes: &[Write],
    ) -> Result<(), StoreError> {
        let started = std::time::Instant::now();
        self.store.write_all(g.id, writes).await?;
        self.telemetry
            .database_write(started.elapsed().as_secs_f64());
        if let Some(last) = writes.last() {
            self.count_status(g, last);
        }
        Ok(())
    }

    /// Counts a game that write `w` to `g` started or ended.
    fn count_status(&self, g: &GameRow, w: &Write) {
        let t = &self.telemetry;
        let live = |s: GameStatus| s == GameStatus::Active;
        if live(w.status) && !live(g.status) {
            t.game_started(&g.variant);
        }
        let ended = match w.status {
            GameStatus::Finished => Some("finished"),
            GameStatus::Aborted => Some("aborted"),
            GameStatus::Cancelled => Some("cancelled"),
            GameStatus::Declined => Some("declined"),
            _ => None,
        };
        if let Some(how) = ended.filter(|_| w.status != g.status) {
            t.game_ended(&g.variant, how);
        }
    }
}

tokio::task_local! {
    /// Inside [`Service::delivering`]: whether the command handled there queued messages
    /// in the outbox that wait for its answer to be delivered.
    static HOLDING: std::cell::Cell<bool>;
}

/// Whether messages were queued in the outbox by a command since the deadline task or
/// the console last looked ([`Service::outbox_news`], [`Service::take_outbox_news`]).
#[derive(Debug, Default)]
pub(in crate::service::referee) struct OutboxNews {
    /// Set by a command that queued messages, cleared by whoever takes the news.
    pub(in crate::service::referee) queued: std::sync::atomic::AtomicBool,
    /// Wakes the deadline task waiting on it.
    pub(in crate::service::referee) notify: tokio::sync::Notify,
}

impl OutboxNews {
    /// Notes that a command queued messages (a tournament's round). Inside
    /// [`Service::delivering`] the deadline task is woken once that command's own answer
    /// is delivered, so that a round's standings and games follow the message that ended
    /// its last game rather than race it; another command's delivery does not wake it.
    /// Anywhere else (the deadline task's own timeouts, the console) it is woken at once.
    pub(in crate::service::referee) fn queued(&self) {
        self.queued.store(true, std::sync::atomic::Ordering::SeqCst);
        if HOLDING.try_with(|h| h.set(true)).is_err() {
            self.notify.notify_one();
        }
    }

    /// Notes that messages were queued by no command (an analysis's report): the deadline
    /// task is woken at once.
    pub(in crate::service::referee) fn queued_now(&self) {
        self.queued.store(true, std::sync::atomic::Ordering::SeqCst);
        self.notify.notify_one();
    }
}

impl OutboxNews {
    /// Runs `work` with the news it queues held ([`OutboxNews::queued`]), then wakes the
    /// deadline task if it queued any.
    pub(in crate::service::referee) async fn holding<F: std::future::Future>(
        &self,
        work: F,
    ) -> F::Output {
        let (out, held) = HOLDING
            .scope(std::cell::Cell::new(false), async {
                let out = work.await;
                (out, HOLDING.with(std::cell::Cell::get))
            })
            .await;
        if held {
            self.notify.notify_one();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::OutboxNews;
    use std::time::Duration;

    /// Whether the deadline task would wake now.
    async fn wakes(news: &OutboxNews) -> bool {
        tokio::time::timeout(Duration::from_millis(20), news.notify.notified())
            .await
            .is_ok()
    }

    #[tokio::test]
    async fn a_commands_news_waits_for_its_own_delivery_and_no_other() {
        let news = OutboxNews::default();
        let (ending_tx, ending_rx) = tokio::sync::oneshot::channel::<()>();
        // The command that ends a round queues its news, then waits to be delivered.
        let ending = news.holding(async {
            news.queued();
            ending_rx.await.ok();
        });
        // Another player's command is handled and delivered meanwhile.
        let other = async {
            news.holding(async {}).await;
            assert!(!wakes(&news).await, "another command released the news");
            ending_tx.send(()).ok();
        };
        tokio::join!(ending, other);
        assert!(
            wakes(&news).await,
            "the news goes out once its command is delivered"
        );
    }

    #[tokio::test]
    async fn news_queued_by_no_command_wakes_the_deadline_task_at_once() {
        let news = OutboxNews::default();
        news.queued();
        assert!(wakes(&news).await);
        news.queued_now();
        assert!(wakes(&news).await);
    }
}
