//! What a chat adapter keeps beside the games, reached through the service so that an
//! adapter talks to the service only (ARCHITECTURE.md, "Layers"): opening and closing
//! the database, the threads games are moved to, where a challenge was posted, and the
//! private messages held for a user whose DMs are closed, the moves to suggest as a
//! player types, the game a resignation to confirm is for. Each method is one question or
//! one change; none decides anything about a game.

use super::lookup::{Fit, Resolved};
use super::{Fail, Incoming, Place, Service, Settings};
use crate::service::command::{self, Command};
use crate::store::GameStatus;
use crate::store::Store;
use crate::variants::api::Action;
use crate::variants::api::{Seat, Viewer};
use crate::variants::Registry;

/// A stored game as the service hands it to an adapter (its id, variant, seats, place).
pub use crate::store::GameRow;
/// The error of the database under the service, as the service's methods return it.
pub use crate::store::StoreError;

/// A message that posted a challenge, kept to be edited once the challenge is settled
/// ([`Service::take_challenge_posts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengePost {
    /// The channel (or private-message channel) it was posted in.
    pub channel: String,
    /// The message's id.
    pub message: String,
    /// Its text as posted.
    pub text: String,
}

/// A message an adapter posted: the channel (or private-message channel) and its id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostedMessage {
    /// The channel it was posted in.
    pub channel: String,
    /// The message's id.
    pub message: String,
}

impl Service {
    /// Opens the database at `url` (applying migrations) and a service over it playing
    /// the variants of `registry`.
    pub async fn open(
        url: &str,
        settings: Settings,
        registry: Registry,
    ) -> Result<Service, StoreError> {
        let store = Store::open(url).await?;
        Ok(Service::with_registry(store, settings, registry))
    }

    /// Closes the database cleanly at shutdown (claims released, the WAL checkpointed).
    pub async fn close(&self) {
        self.store.close().await;
    }

    /// Whether command line `text` may start a game (an acceptance that takes the last
    /// seat, a challenge to a game of one), so that an adapter may get ready to give the
    /// game its place before the command runs.
    pub fn may_start_game(&self, text: &str) -> bool {
        matches!(
            command::parse(text, &self.registry),
            Ok(Command::Accept(_) | Command::Challenge(_))
        )
    }

    /// Records that `user` interacted, so private messages to them are tried again.
    pub async fn reopen_dms(&self, user: &str, at: i64) -> Result<(), StoreError> {
        self.store.set_dm_closed(user, false, at).await
    }

    /// Records that `user` refuses private messages until they interact again.
    pub async fn refuse_dms(&self, user: &str, at: i64) -> Result<(), StoreError> {
        self.store.set_dm_closed(user, true, at).await
    }

    /// Whether `user` refused private messages and has not interacted since.
    pub async fn dms_closed(&self, user: &str) -> Result<bool, StoreError> {
        self.store.dm_closed(user).await
    }

    /// Keeps a private message that could not be sent to `user`, for them to fetch.
    pub async fn hold_message(&self, user: &str, text: &str, at: i64) -> Result<(), StoreError> {
        self.store.hold_message(user, text, at).await
    }

    /// Takes the private messages held for `user`, oldest first.
    pub async fn take_held_messages(&self, user: &str) -> Result<Vec<String>, StoreError> {
        self.store.take_held(user).await
    }

    /// Whether `channel` is a game's thread.
    pub async fn is_game_thread(&self, channel: &str) -> Result<bool, StoreError> {
        self.store.is_game_thread(channel).await
    }

    /// The channel a new thread opens from for a game started in `channel`.
    pub async fn thread_parent(&self, channel: &str) -> Result<String, StoreError> {
        self.store.thread_parent(channel).await
    }

    /// The active games at home in `channel` that have no thread of their own yet.
    pub async fn games_needing_thread(&self, channel: &str) -> Result<Vec<GameRow>, StoreError> {
        self.store.games_needing_thread(channel).await
    }

    /// Moves game `id` from `parent` into its own `thread`, where its messages go from now.
    pub async fn move_to_thread(
        &self,
        id: i64,
        parent: &str,
        thread: &str,
    ) -> Result<(), StoreError> {
        self.store.move_to_thread(id, parent, thread).await
    }

    /// For a tournament's game `id`, how its thread's title names the tournament and the
    /// round (`T3 R2 B1`); `None` for any other game.
    pub async fn tournament_tag(&self, id: i64) -> Result<Option<String>, StoreError> {
        Ok(self
            .store
            .tournament_of_game(id)
            .await?
            .map(|(t, round, board)| format!("T{t} R{round} B{board}")))
    }

    /// Prunes the keys of Discord events made more than `days` days before the newest
    /// one ([`crate::store::Store::prune_event_keys`]): Discord can no longer deliver
    /// them again. How many went.
    pub async fn prune_event_keys(&self, days: u32) -> Result<u64, StoreError> {
        self.store
            .prune_event_keys(i64::from(days) * 86_400_000)
            .await
    }

    /// Game `id` as stored, if there is one: for an adapter to name its thread again
    /// ([`Outbound::retitle`](super::Outbound::retitle)).
    pub async fn stored_game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        self.store.game(id).await
    }

    /// The thread game `id` was given and the channel it was opened from, if any.
    pub async fn thread_of(&self, id: i64) -> Result<Option<(String, String)>, StoreError> {
        self.store.thread_of(id).await
    }

    /// Where game `id`'s messages go: its thread, else its channel (`None` for a game
    /// made in private, or no such game).
    pub async fn home_of(&self, id: i64) -> Result<Option<String>, StoreError> {
        if let Some((thread, _)) = self.store.thread_of(id).await? {
            return Ok(Some(thread));
        }
        Ok(self.store.game(id).await?.and_then(|g| g.channel))
    }

    /// Keeps where game `id`'s challenge was posted, to be edited once it is settled.
    pub async fn record_challenge_post(
        &self,
        id: i64,
        post: &ChallengePost,
    ) -> Result<(), StoreError> {
        self.store
            .record_challenge_post(id, &post.channel, &post.message, &post.text)
            .await
    }

    /// Keeps `posted`, a message of game `id`, as one whose buttons lapse when the game
    /// moves on in its channel ([`Service::take_lapsing`]): stored, so that a restart
    /// forgets none.
    pub async fn keep_lapsing(&self, id: i64, posted: &PostedMessage) -> Result<(), StoreError> {
        let PostedMessage { channel, message } = posted;
        self.store.keep_lapsing(id, channel, message).await
    }

    /// Takes game `id`'s messages whose buttons lapse, forgetting them so that each is
    /// edited once: those in `channel`, or, when the game is over (`None`), every one.
    pub async fn take_lapsing(
        &self,
        id: i64,
        channel: Option<&str>,
    ) -> Result<Vec<PostedMessage>, StoreError> {
        let taken = self.store.take_lapsing(id, channel).await?;
        Ok(taken
            .into_iter()
            .map(|(channel, message)| PostedMessage { channel, message })
            .collect())
    }

    /// Takes the posts of game `id`'s challenge, forgetting them: each is edited once.
    pub async fn take_challenge_posts(&self, id: i64) -> Result<Vec<ChallengePost>, StoreError> {
        let posts = self.store.take_challenge_posts(id).await?;
        Ok(posts
            .into_iter()
            .map(|(channel, message, text)| ChallengePost {
                channel,
                message,
                text,
            })
            .collect())
    }

    /// The games of `user` that command `command` may be about, to suggest as its
    /// `game` argument: challenges to answer; else the games in play, most urgent first
    /// ([`urgency`]: the user's turn first, then by deadline), followed, for a command
    /// that looks at a game, by the finished ones, the most recently ended first (at most
    /// [`ENDED_SUGGESTED`]); so an adapter that cuts the list keeps the live games.
    pub async fn games_to_suggest(
        &self,
        user: &str,
        command: &str,
    ) -> Result<Vec<GameRow>, StoreError> {
        let (statuses, ended): (&[GameStatus], bool) = match command {
            "accept" | "decline" | "cancel" => (&[GameStatus::Challenged], false),
            "board" | "moves" | "pgn" => (&[GameStatus::Active], true),
            _ => (&[GameStatus::Active], false),
        };
        let mut games = self.store.games_of(user, statuses).await?;
        games.sort_by_key(|g| urgency(g, user));
        if ended {
            let over = self
                .store
                .ended_games_of(user, None, ENDED_SUGGESTED)
                .await?;
            games.extend(
                over.into_iter()
                    .filter(|g| g.status == GameStatus::Finished),
            );
        }
        Ok(games)
    }

    /// The other players of game `g` as `user` sees them, by the names people read
    /// (`vs bob`; in a game of teams, the partners apart: `with carol vs bob, dave`), for
    /// a label such as a suggestion of the game; "" for a game of one.
    pub fn others_label(&self, g: &GameRow, user: &str) -> String {
        let teams = self
            .registry
            .find(&g.variant)
            .is_some_and(|v| v.seats().placing == crate::variants::api::Placing::Teams);
        let named = |u: &str| self.name_of(u);
        super::text::others_of(g, user, teams, "vs", &named)
            .trim_start()
            .to_string()
    }

    /// The two sides' names of game `g` for a title, from its players' `names` in seat
    /// order (`White` and `Black`, or the partners of each team); `?` for a game that
    /// cannot be read.
    pub fn side_names(&self, g: &GameRow, names: &[&str]) -> [String; 2] {
        match super::load_with(&self.registry, g) {
            Ok(rules) => rules.side_names(names),
            Err(_) => ["?".to_string(), "?".to_string()],
        }
    }

    /// Suggestions for the move `user` is typing in `place`: the moves their seat may
    /// make now in game `id`, or else in the one game here where it is their turn, that
    /// begin with `typed` (ignoring case), at most `limit`. None when it is not their
    /// turn, or when several games here wait for them and `id` does not say which. Reads
    /// only; changes nothing.
    pub async fn move_suggestions(
        &self,
        user: &str,
        place: &Place,
        id: Option<i64>,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let games = match id {
            Some(id) => self.store.game(id).await?.into_iter().collect(),
            None => self.games_at(user, place).await?,
        };
        let mut options: Vec<Vec<String>> = games
            .iter()
            .filter(|g| g.status == GameStatus::Active)
            .filter_map(|g| {
                let seat = g.seat_of(user)?;
                let moves = self.load(g).ok()?.project(Viewer::Seat(Seat(seat))).legal;
                (!moves.is_empty()).then_some(moves)
            })
            .collect();
        if options.len() != 1 {
            return Ok(Vec::new());
        }
        let typed = typed.trim().to_lowercase();
        let mut moves: Vec<String> = options
            .swap_remove(0)
            .into_iter()
            .filter(|m| m.to_lowercase().starts_with(&typed))
            .collect();
        moves.sort();
        moves.truncate(limit);
        Ok(moves)
    }

    /// For an adapter that asks for a confirmation before a resignation: the game that
    /// the `resign` command given as `inc` would resign (the one its text names, or the
    /// one the place decides, as [`Service::pick`] finds it), or the refusal or question
    /// to show instead. Reads only.
    pub async fn game_to_resign(&self, inc: &Incoming) -> Result<Resolved, StoreError> {
        let id = match crate::service::command::parse(&inc.text, &self.registry) {
            Ok(crate::service::command::Command::Resign(Some(id))) => Some(id),
            _ => None,
        };
        let resign = Action::resign();
        match self
            .pick(inc, id, &[GameStatus::Active], Fit::Action(&resign))
            .await
        {
            Ok(g) => Ok(Resolved::Game(g.id)),
            Err(Fail::Refuse(e)) => Ok(Resolved::Refused(e)),
            // One game offered (a channel's game, from a private message): the
            // confirmation names it, as the offer would.
            Err(Fail::Choose(c)) if c.games.len() == 1 => Ok(Resolved::Game(c.games[0])),
            Err(Fail::Choose(c)) => Ok(Resolved::Choose(c)),
            Err(Fail::Store(e)) => Err(e),
        }
    }
}

/// How many finished games [`Service::games_to_suggest`] adds after the live ones.
pub const ENDED_SUGGESTED: i64 = 50;

/// How urgent game `g` is to `user`, least first: a game awaiting them before one
/// awaiting others, each by its earliest deadline, then by id.
pub fn urgency(g: &GameRow, user: &str) -> (bool, i64, i64) {
    let mine = |seat: u8| g.user_at(seat) == Some(user);
    let due = |own: bool| {
        g.deadlines
            .iter()
            .filter(|d| mine(d.seat) == own)
            .map(|d| d.due_at)
            .min()
    };
    match due(true) {
        Some(at) => (false, at, g.id),
        None => (true, due(false).unwrap_or(i64::MAX), g.id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Deadline, SeatRow};

    /// Game `id` of alice (seat 0) and bob, awaiting `seat` until `due`.
    fn game(id: i64, seat: u8, due: i64) -> GameRow {
        let sat = |seat: u8, user: &str| SeatRow {
            seat,
            user: Some(user.into()),
            role: String::new(),
            accepted: true,
        };
        GameRow {
            id,
            variant: "standard".into(),
            status: GameStatus::Active,
            days_per_move: 3,
            colour: "white".into(),
            challenger: "alice".into(),
            channel: None,
            server: None,
            seed: 0,
            start_fen: None,
            options: "{}".into(),
            start_snapshot: None,
            result: None,
            reason: None,
            score: None,
            snapshot: String::new(),
            version: 1,
            seats: vec![sat(0, "alice"), sat(1, "bob")],
            deadlines: vec![Deadline {
                game_id: id,
                seat,
                turn: 1,
                due_at: due,
            }],
            started_at: Some(0),
            personal: Vec::new(),
        }
    }

    #[test]
    fn the_players_turn_comes_first_then_the_nearest_deadline() {
        let mut games = [
            game(1, 1, 100),
            game(2, 0, 500),
            game(3, 1, 50),
            game(4, 0, 200),
        ];
        games.sort_by_key(|g| urgency(g, "alice"));
        let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
        assert_eq!(ids, [4, 2, 3, 1]);
        games.sort_by_key(|g| urgency(g, "bob"));
        let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
        assert_eq!(ids, [3, 1, 4, 2]);
    }
}
