//! The rows the store reads and writes: games with their seats, the action log, a
//! game's change, deadlines.

use super::{GameStatus, NewMessage};

/// A seat of a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat index.
    pub seat: u8,
    /// The user holding it; `None` for the open seat of an open challenge.
    pub user: Option<String>,
    /// The seat's role (`white`, `black`).
    pub role: String,
    /// Whether the seat's player has agreed to play (the challenger has; an invited
    /// player once they accept). A game starts when every seat has.
    pub accepted: bool,
}

/// A stored game.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game id players use (`#12`).
    pub id: i64,
    /// The variant's command name.
    pub variant: String,
    /// Where the game is in its life.
    pub status: GameStatus,
    /// Days per move.
    pub days_per_move: i64,
    /// The colour the challenger asked for (`white`, `black`, `random`).
    pub colour: String,
    /// The user who made the challenge.
    pub challenger: String,
    /// The channel the game lives in; `None` for a game made in private.
    pub channel: Option<String>,
    /// The server (Discord guild) it was made in; `None` for a game made in private, in
    /// the console, or stored before servers were recorded.
    pub server: Option<String>,
    /// The seed of the game's random draws.
    pub seed: i64,
    /// The starting position as FEN, when it is not the variant's own start.
    pub start_fen: Option<String>,
    /// The options the variant validated, as a JSON object (`{"timer":"3"}`).
    pub options: String,
    /// The state as it was set up, before any action (JSON); `None` for games stored
    /// before it was kept.
    pub start_snapshot: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: Option<String>,
    /// The end reason's name.
    pub reason: Option<String>,
    /// The score as JSON (`[10,0]`), where the variant scores.
    pub score: Option<String>,
    /// The state snapshot as JSON.
    pub snapshot: String,
    /// How many writes the game has had.
    pub version: i64,
    /// The seats.
    pub seats: Vec<SeatRow>,
    /// The deadlines of the seats the game awaits, by seat.
    pub deadlines: Vec<Deadline>,
    /// When the game started (seconds since the epoch): when its last seat accepted;
    /// `None` while it is a challenge.
    pub started_at: Option<i64>,
    /// Which seats' players chose settings that change the messages sent to them (a
    /// daily digest, an orientation of private boards), as read with the game: by seat
    /// index, so that the messages of a move read no one's settings when nobody did.
    pub personal: Vec<bool>,
}

impl GameRow {
    /// The user in `seat`.
    pub fn user_at(&self, seat: u8) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.seat == seat)
            .and_then(|s| s.user.as_deref())
    }

    /// The seat of `user`, if they play in this game.
    pub fn seat_of(&self, user: &str) -> Option<u8> {
        self.seats
            .iter()
            .find(|s| s.user.as_deref() == Some(user))
            .map(|s| s.seat)
    }
}

/// A game about to be created. Its seed and seats are drawn once its id is known (see
/// [`Store::create_game`]).
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The variant's command name.
    pub variant: String,
    /// Days per move.
    pub days_per_move: i64,
    /// The colour asked for.
    pub colour: String,
    /// Who challenged.
    pub challenger: String,
    /// The game's channel, if any.
    pub channel: Option<String>,
    /// The server (Discord guild) it is made in, if any.
    pub server: Option<String>,
    /// The starting position as FEN, when it is not the variant's own start.
    pub start_fen: Option<String>,
    /// The variant's options, as a JSON object.
    pub options: String,
    /// The initial snapshot.
    pub snapshot: String,
    /// The most challenges the challenger may have waiting for an answer, this one
    /// included; checked in the transaction that creates it ([`StoreError::OverLimit`]).
    pub max_open: i64,
    /// Whether the challenger may have only one live game of this variant (a solitaire
    /// whose shown deal counts); checked in the transaction that creates it
    /// ([`StoreError::LiveGame`]).
    pub one_live: bool,
}

/// What [`Store::create_game`] draws once the game's id is known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    /// The seed of the game's public draws.
    pub seed: i64,
    /// The seats, in order.
    pub seats: Vec<SeatRow>,
    /// The snapshot of the game as set up with the seed, replacing the one given.
    pub snapshot: Option<String>,
    /// For a game whose every seat is taken at once (a game of one): its first deadlines,
    /// `(seat, due time)`; it is stored active.
    pub start: Option<Vec<(u8, i64)>>,
    /// Whether the snapshot is what the variant sets up from the stored row alone (its
    /// position, options and seed), as a replay does where no starting state is stored
    /// (`games.start_snapshot` empty): it is then not stored a second time.
    pub start_is_default: bool,
}

/// One entry of the action log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRow {
    /// Position in the log, from 1, without gaps.
    pub seq: i64,
    /// The seat the action applies to.
    pub seat: u8,
    /// Who sent it (`referee` for automatic timeouts).
    pub author: String,
    /// The action as JSON.
    pub action: String,
    /// When, in seconds since the epoch.
    pub at: i64,
}

/// A change to a game, written in one transaction ([`Store::write`]): all of it or none.
#[derive(Clone, Debug, Default)]
pub struct Write {
    /// The version the change was computed from.
    pub expected_version: i64,
    /// The action to append.
    pub action: Option<NewAction>,
    /// The time of the change.
    pub at: i64,
    /// The chat event id to mark processed.
    pub event_id: Option<String>,
    /// The new status.
    pub status: GameStatus,
    /// The new snapshot.
    pub snapshot: String,
    /// How the game ended, when this change ends it.
    pub outcome: Option<StoredOutcome>,
    /// New seats (accepting a challenge fills a seat).
    pub seats: Option<Vec<SeatRow>>,
    /// Deadlines that replace the game's.
    pub deadlines: Vec<NewDeadline>,
    /// A notice recorded with the change.
    pub notice: Option<NewNotice>,
    /// Messages put in the outbox with the change (a timeout's announcement).
    pub messages: Vec<NewMessage>,
}

/// An action appended to a game's log by a [`Write`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAction {
    /// The seat it applies to.
    pub seat: u8,
    /// Who sent it (`referee` for automatic ones).
    pub author: String,
    /// The action as JSON.
    pub json: String,
}

/// How a game ended, as a [`Write`] stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredOutcome {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// The end reason's name.
    pub reason: String,
    /// The score as JSON (`[10,0]`), where the variant scores.
    pub score: Option<String>,
}

/// A deadline a [`Write`] sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewDeadline {
    /// The awaited seat.
    pub seat: u8,
    /// Which turn (the game's version once written).
    pub turn: i64,
    /// When time runs out, in seconds since the epoch.
    pub due_at: i64,
}

impl From<&Deadline> for NewDeadline {
    /// The deadline as it stands, kept by a write.
    fn from(d: &Deadline) -> NewDeadline {
        NewDeadline {
            seat: d.seat,
            turn: d.turn,
            due_at: d.due_at,
        }
    }
}

/// A notice a [`Write`] records, so that it goes out once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewNotice {
    /// The game seat it concerns.
    pub seat: u8,
    /// The turn it belongs to.
    pub turn: i64,
    /// What kind of notice (`timeout`).
    pub kind: String,
}

/// A deadline of an active game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// The game.
    pub game_id: i64,
    /// The awaited seat.
    pub seat: u8,
    /// Which turn (the game's version when it was set).
    pub turn: i64,
    /// When time runs out.
    pub due_at: i64,
}
