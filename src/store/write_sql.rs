//! The statements of a game's write ([`super::Store::write`]), plain SQL on each backend
//! (no view, no trigger), composed for the parts a write carries, with numbered
//! parameters (`$1` the game, `$2` the write's time):
//!
//! - **SQLite** ([`Statement::sqlite`]): one transaction sent at once, `BEGIN` to
//!   `COMMIT`. Each write's first statement updates the game row and checks its version:
//!   the new version is NULL where the stored one is not the one expected, which the
//!   column's `NOT NULL` refuses, so that the statements after it are not run (the store
//!   rolls the transaction back). Then the event's key (its primary key refuses a second
//!   delivery), the status where it changes, the seats, the log's line appended to the
//!   game's last part, an author who is not the seat's player, the deadlines replaced, the
//!   notice and the outbox messages. None of them makes SQLite build a temporary table (an
//!   `UPDATE ... FROM`, an `INSERT ... SELECT` of the table inserted into, a `RETURNING`,
//!   or a `CHECK` of the status set to what it was would).
//! - **PostgreSQL** ([`Statement::postgres`]): the same statements as one, a chain of
//!   data-modifying CTEs that each read the row of the version-checked update: one round
//!   trip, committed on its own, whose one row counts the games updated (0: the version
//!   was not the one expected, and nothing was written).
//!
//! A statement's text depends only on the shape of the write (which parts it carries, how
//! many seats, deadlines and messages): it is made once per shape and kept
//! ([`TEXTS`]); a write then only gathers its values.

use super::event_key;
use super::packing;
use super::rows::{SeatRow, Write};
use super::Backend;
use std::fmt::{self, Write as _};
use std::sync::{Arc, Mutex};

/// A value bound to a statement's parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Arg<'a> {
    /// An integer.
    Int(i64),
    /// A text.
    Text(&'a str),
    /// A text or NULL.
    OptText(Option<&'a str>),
    /// Bytes (an event's key).
    Bytes(Vec<u8>),
}

/// A statement's text and the values of its parameters, `$1` the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Statement<'a> {
    /// The text (SQLite's: statements, each ended by `;`).
    pub text: Arc<str>,
    /// The values, in the order of their numbers.
    pub args: Vec<Arg<'a>>,
}

/// What a write's statements need besides its fields.
pub(super) struct Parts<'a> {
    w: &'a Write,
    /// The action's line before its time (`{seat}{kind}`) and after it (` {text}\n`).
    line: Option<(String, String)>,
    /// How the action's author is kept.
    author: Author<'a>,
}

/// Whether an action's author is kept beside the log (`action_authors`): only where it is
/// not the seat's player once the write is made.
#[derive(Clone, Copy)]
enum Author<'a> {
    /// No action, or its author is the player the write seats there.
    Not,
    /// The write seats someone else there: kept.
    Kept(&'a str),
    /// Compared with the seat's stored player (seat, author).
    IfNotSeated(i64, &'a str),
}

impl<'a> Parts<'a> {
    /// The parts of `w`, or why it cannot be written: the log keeps an entry a line
    /// ([`super::game_log`]); JSON as serde writes it never holds a line break, and a
    /// move's bare text none either ([`packing::pack`]).
    pub fn of(w: &'a Write) -> Result<Parts<'a>, String> {
        let Some(a) = &w.action else {
            return Ok(Parts {
                w,
                line: None,
                author: Author::Not,
            });
        };
        if a.json.contains('\n') {
            return Err("an action's JSON holds a line break".into());
        }
        let (text, kind) = match packing::pack(&a.json) {
            (Some(mv), _) => (mv, 'm'),
            (None, json) => (json.unwrap_or(&a.json), 'j'),
        };
        let seated = w
            .seats
            .as_ref()
            .and_then(|seats| seats.iter().find(|s| s.seat == a.seat));
        let author = match seated {
            Some(s) if s.user.as_deref() == Some(a.author.as_str()) => Author::Not,
            Some(_) => Author::Kept(&a.author),
            None => Author::IfNotSeated(i64::from(a.seat), &a.author),
        };
        Ok(Parts {
            w,
            line: Some((format!("{}{kind}", a.seat), format!(" {text}\n"))),
            author,
        })
    }

    /// What the text of this write's statements depends on.
    fn shape(&self) -> Shape {
        let w = self.w;
        Shape {
            event: w.event_id.is_some(),
            seats: w.seats.as_ref().map(Vec::len),
            line: self.line.is_some(),
            author: match self.author {
                Author::Not => 0,
                Author::Kept(_) => 1,
                Author::IfNotSeated(..) => 2,
            },
            deadlines: w.deadlines.len(),
            notice: w.notice.is_some(),
            messages: w.messages.len(),
        }
    }
}

/// The shape of a write: what its statements' text depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    event: bool,
    seats: Option<usize>,
    line: bool,
    author: u8,
    deadlines: usize,
    notice: bool,
    messages: usize,
}

/// The texts made so far, by backend and shapes (one shape a write of the statement).
type Texts = Vec<((Backend, Vec<Shape>), Arc<str>)>;

/// The texts made so far ([`Statement::cached`]); a few shapes cover nearly every write,
/// and at most [`TEXTS_KEPT`] are kept.
static TEXTS: Mutex<Texts> = Mutex::new(Vec::new());

/// The most texts [`TEXTS`] keeps: past them a text is made for each write.
const TEXTS_KEPT: usize = 64;

/// A parameter's number, written `$n`.
#[derive(Clone, Copy)]
struct Mark(usize);

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// A statement being made: its values, and its text unless it is known already.
struct Builder<'a> {
    text: Option<String>,
    args: Vec<Arg<'a>>,
}

impl<'a> Builder<'a> {
    /// Binds `a` to the next parameter; its mark.
    fn arg(&mut self, a: Arg<'a>) -> Mark {
        self.args.push(a);
        Mark(self.args.len())
    }

    /// Appends to the text, when it is being made.
    fn put(&mut self, s: fmt::Arguments<'_>) {
        if let Some(t) = &mut self.text {
            // Writing into a String cannot fail.
            let _ = t.write_fmt(s);
        }
    }
}

impl<'a> Statement<'a> {
    /// The statement of `parts` on `backend`, made by `make` with the text taken from
    /// [`TEXTS`] when its shape's was made before (`make` then gathers the values only).
    fn cached(
        backend: Backend,
        parts: &'a [Parts<'a>],
        make: impl Fn(&mut Builder<'a>, &'a [Parts<'a>]),
    ) -> Statement<'a> {
        let key = (backend, parts.iter().map(Parts::shape).collect::<Vec<_>>());
        let known = lock_texts()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, text)| Arc::clone(text));
        let mut b = Builder {
            text: known.is_none().then(String::new),
            args: Vec::with_capacity(16),
        };
        make(&mut b, parts);
        let text = match (known, b.text) {
            (Some(text), _) => text,
            (None, made) => {
                let text: Arc<str> = made.unwrap_or_default().into();
                let mut texts = lock_texts();
                if texts.len() < TEXTS_KEPT {
                    texts.push((key, Arc::clone(&text)));
                }
                text
            }
        };
        Statement { text, args: b.args }
    }

    /// SQLite's writes `parts` of game `game_id`, in order, as one transaction (see the
    /// module): `BEGIN`, each write's statements, `COMMIT`. Each write's first statement
    /// is its version check ([`Statement::sqlite_checks`] counts them).
    pub fn sqlite(game_id: i64, parts: &'a [Parts<'a>]) -> Statement<'a> {
        Statement::cached(Backend::Sqlite, parts, |b, parts| {
            b.put(format_args!("BEGIN;\n"));
            for p in parts {
                sqlite_write(b, game_id, p);
            }
            b.put(format_args!("COMMIT;\n"));
        })
    }

    /// The position among the results of [`Statement::sqlite`]'s statements (one each,
    /// from 0, `BEGIN` the first) of each write's version check.
    pub fn sqlite_checks(parts: &[Parts<'_>]) -> Vec<usize> {
        let mut at = 1;
        parts
            .iter()
            .map(|p| {
                let s = p.shape();
                let check = at;
                at += 1 // the version check
                    + usize::from(s.event)
                    + 1 // the status
                    + s.seats.unwrap_or(0)
                    + usize::from(s.line) * (1 + usize::from(s.author != 0))
                    + 1 // the deadlines' delete
                    + usize::from(s.deadlines > 0)
                    + usize::from(s.notice)
                    + usize::from(s.messages > 0);
                check
            })
            .collect()
    }

    /// PostgreSQL's write `p` of game `game_id` as one statement (see the module).
    pub fn postgres(game_id: i64, p: &'a Parts<'a>) -> Statement<'a> {
        Statement::cached(Backend::Postgres, std::slice::from_ref(p), |b, parts| {
            postgres_write(b, game_id, &parts[0]);
        })
    }
}

/// PostgreSQL's statement of write `w` to game `game_id` as [`super::Store::write`] sends
/// it, and its parameters as text in order (`None` for NULL; bytes as `\x` and their
/// hexadecimal digits): `postal bench backends` gives it to pgbench. SQLite's statements
/// are sent through sqlx alone (`None` for it).
pub fn write_statement(
    backend: Backend,
    game_id: i64,
    w: &Write,
) -> Option<(String, Vec<Option<String>>)> {
    if backend != Backend::Postgres {
        return None;
    }
    let parts = Parts::of(w).ok()?;
    let q = Statement::postgres(game_id, &parts);
    let args = q
        .args
        .iter()
        .map(|a| match a {
            Arg::Int(v) => Some(v.to_string()),
            Arg::Text(t) => Some(t.to_string()),
            Arg::OptText(t) => t.map(str::to_string),
            Arg::Bytes(b) => Some(b.iter().fold("\\x".to_string(), |mut s, byte| {
                let _ = write!(s, "{byte:02x}");
                s
            })),
        })
        .collect();
    Some((q.text.to_string(), args))
}

/// Locks [`TEXTS`] (a panic while it was held left nothing half-written in it).
fn lock_texts() -> std::sync::MutexGuard<'static, Texts> {
    TEXTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Binds the game and the write's time (`$1`, `$2`) where a write's statements begin:
/// the same numbers in each statement of SQLite's, the first two of PostgreSQL's.
fn game_and_time<'a>(b: &mut Builder<'a>, game_id: i64, w: &Write) -> (Mark, Mark) {
    (b.arg(Arg::Int(game_id)), b.arg(Arg::Int(w.at)))
}

/// The columns every write sets on the game row (its status apart).
fn game_row<'a>(b: &mut Builder<'a>, w: &'a Write, at: Mark) {
    let o = w.outcome.as_ref();
    let snapshot = b.arg(Arg::Text(&w.snapshot));
    let result = b.arg(Arg::OptText(o.map(|o| o.result.as_str())));
    let reason = b.arg(Arg::OptText(o.map(|o| o.reason.as_str())));
    let score = b.arg(Arg::OptText(o.and_then(|o| o.score.as_deref())));
    b.put(format_args!(
        "snapshot = {snapshot}, result = {result}, reason = {reason}, score = {score}, \
         updated_at = {at}"
    ));
}

/// One write's statements on SQLite, each ended by `;`.
fn sqlite_write<'a>(b: &mut Builder<'a>, game_id: i64, p: &'a Parts<'a>) {
    let w = p.w;
    let (id, at) = game_and_time(b, game_id, w);
    let version = b.arg(Arg::Int(w.expected_version));
    b.put(format_args!(
        "UPDATE games SET version = CASE WHEN version = {version} THEN version + 1 END, "
    ));
    game_row(b, w, at);
    b.put(format_args!(" WHERE id = {id};\n"));
    if let Some(event) = &w.event_id {
        // Written only where the game is (a write to no game writes nothing).
        let key = b.arg(Arg::Bytes(event_key(event)));
        b.put(format_args!(
            "INSERT INTO events (key) SELECT {key} FROM games WHERE id = {id};\n"
        ));
    }
    // Set only where it changes (its CHECK and the indexes that hold it then left
    // alone); `game_started` fires on this statement.
    let status = b.arg(Arg::Text(w.status.as_str()));
    b.put(format_args!(
        "UPDATE games SET status = {status} WHERE id = {id} AND status <> {status};\n"
    ));
    for s in w.seats.iter().flatten() {
        let [seat, user, role, accepted] = seat_args(b, s);
        b.put(format_args!(
            "UPDATE seats SET user_id = {user}, role = {role}, accepted = {accepted} \
             WHERE game_id = {id} AND seat = {seat};\n"
        ));
    }
    if let Some((before, after)) = &p.line {
        let (before, after) = (b.arg(Arg::Text(before)), b.arg(Arg::Text(after)));
        b.put(format_args!(
            "INSERT INTO game_logs (game_id, part, log) VALUES ({id}, \
             COALESCE((SELECT part + (length(log) >= 768) FROM game_logs \
             WHERE game_id = {id} ORDER BY part DESC LIMIT 1), 0), \
             {before} || ({at} - (SELECT created_at FROM games WHERE id = {id})) || {after}) \
             ON CONFLICT (game_id, part) DO UPDATE SET log = log || excluded.log;\n"
        ));
        if !matches!(p.author, Author::Not) {
            // The entry's number: the log's count of lines, this one's included.
            author(b, p.author, id, "", "IS NOT", |b| {
                b.put(format_args!(
                    "(SELECT sum(length(log) - length(replace(log, char(10), ''))) \
                     FROM game_logs WHERE game_id = {id})"
                ))
            });
            b.put(format_args!(";\n"));
        }
    }
    b.put(format_args!(
        "DELETE FROM deadlines WHERE game_id = {id};\n"
    ));
    if !w.deadlines.is_empty() {
        b.put(format_args!(
            "INSERT INTO deadlines (game_id, seat, turn, due_at, check_at) VALUES "
        ));
        deadline_rows(b, w, id, at);
        b.put(format_args!(";\n"));
    }
    if let Some(n) = &w.notice {
        let [seat, turn, kind] = notice_args(b, n);
        b.put(format_args!(
            "INSERT INTO notices (game_id, seat, turn, kind, at) \
             VALUES ({id}, {seat}, {turn}, {kind}, {at});\n"
        ));
    }
    if !w.messages.is_empty() {
        b.put(format_args!(
            "INSERT INTO outbox (game_id, destination, text, board, ending, created_at) VALUES "
        ));
        message_rows(b, w, id, at);
        b.put(format_args!(";\n"));
    }
}

/// The insert keeping the action's author where it is not the seat's player, its entry
/// number written by `seq`; its row selected `from` (`""`, or `" FROM g"`), `distinct` the
/// backend's comparison that takes NULL as a value. Nothing where the author is the
/// seat's player.
fn author<'a>(
    b: &mut Builder<'a>,
    author: Author<'a>,
    id: Mark,
    from: &str,
    distinct: &str,
    seq: impl FnOnce(&mut Builder<'a>),
) {
    let (a, seat) = match author {
        Author::Not => return,
        Author::Kept(a) => (b.arg(Arg::Text(a)), None),
        Author::IfNotSeated(seat, a) => {
            let seat = b.arg(Arg::Int(seat));
            (b.arg(Arg::Text(a)), Some(seat))
        }
    };
    b.put(format_args!(
        "INSERT INTO action_authors (game_id, seq, author) SELECT {id}, "
    ));
    seq(b);
    b.put(format_args!(", {a}{from}"));
    if let Some(seat) = seat {
        b.put(format_args!(
            " WHERE {a} {distinct} (SELECT user_id FROM seats WHERE game_id = {id} AND seat = {seat})"
        ));
    }
}

/// A seat's values bound: their marks (seat, user, role, accepted).
fn seat_args<'a>(b: &mut Builder<'a>, s: &'a SeatRow) -> [Mark; 4] {
    [
        b.arg(Arg::Int(i64::from(s.seat))),
        b.arg(Arg::OptText(s.user.as_deref())),
        b.arg(Arg::Text(&s.role)),
        b.arg(Arg::Int(i64::from(s.accepted))),
    ]
}

/// A notice's values bound: their marks (seat, turn, kind).
fn notice_args<'a>(b: &mut Builder<'a>, n: &'a super::NewNotice) -> [Mark; 3] {
    [
        b.arg(Arg::Int(i64::from(n.seat))),
        b.arg(Arg::Int(n.turn)),
        b.arg(Arg::Text(&n.kind)),
    ]
}

/// `w`'s deadlines as rows of `VALUES`, `(game, seat, turn, due_at, time)`: each looked
/// at by the deadline check from the write's time on.
fn deadline_rows<'a>(b: &mut Builder<'a>, w: &'a Write, id: Mark, at: Mark) {
    for (i, d) in w.deadlines.iter().enumerate() {
        let seat = b.arg(Arg::Int(i64::from(d.seat)));
        let turn = b.arg(Arg::Int(d.turn));
        let due_at = b.arg(Arg::Int(d.due_at));
        let comma = if i == 0 { "" } else { ", " };
        b.put(format_args!(
            "{comma}({id}, {seat}, {turn}, {due_at}, {at})"
        ));
    }
}

/// `w`'s outbox messages as rows of `VALUES`, `(game, destination, text, board, ending,
/// time)`.
fn message_rows<'a>(b: &mut Builder<'a>, w: &'a Write, id: Mark, at: Mark) {
    for (i, m) in w.messages.iter().enumerate() {
        let destination = b.arg(Arg::Text(&m.destination));
        let text = b.arg(Arg::Text(&m.text));
        let board = b.arg(Arg::Int(i64::from(m.board)));
        let ending = b.arg(Arg::Int(i64::from(m.ending)));
        let comma = if i == 0 { "" } else { ", " };
        b.put(format_args!(
            "{comma}({id}, {destination}, {text}, {board}, {ending}, {at})"
        ));
    }
}

/// The CTE updating `seats` of game `id` (PostgreSQL's write).
fn postgres_seats<'a>(b: &mut Builder<'a>, seats: &'a [SeatRow], id: Mark) {
    b.put(format_args!(
        ",\ns AS (UPDATE seats SET user_id = v.u, role = v.r, accepted = v.a \
         FROM g, (VALUES "
    ));
    for (i, s) in seats.iter().enumerate() {
        let [seat, user, role, accepted] = seat_args(b, s);
        let comma = if i == 0 { "" } else { ", " };
        b.put(format_args!("{comma}({seat}, {user}, {role}, {accepted})"));
    }
    b.put(format_args!(
        ") AS v(seat, u, r, a) WHERE seats.game_id = {id} AND seats.seat = v.seat)"
    ));
}

/// One write on PostgreSQL as one statement: the version-checked update (`g`) and,
/// reading its row, the writes SQLite makes after it. The statements of one chain see the
/// tables as they were before it, so the author's entry number is the count of lines
/// before it and one, and the deadlines are inserted once the delete has run (the insert
/// waits for the count of the deleted rows), so that a seat's new deadline does not meet
/// its old one in the primary key.
fn postgres_write<'a>(b: &mut Builder<'a>, game_id: i64, p: &'a Parts<'a>) {
    let w = p.w;
    let (id, at) = game_and_time(b, game_id, w);
    let status = b.arg(Arg::Text(w.status.as_str()));
    b.put(format_args!(
        "WITH g AS (UPDATE games SET status = {status}, version = version + 1, "
    ));
    game_row(b, w, at);
    let version = b.arg(Arg::Int(w.expected_version));
    b.put(format_args!(
        " WHERE id = {id} AND version = {version} RETURNING created_at)"
    ));
    if let Some(event) = &w.event_id {
        let key = b.arg(Arg::Bytes(event_key(event)));
        b.put(format_args!(
            ",\ne AS (INSERT INTO events (key) SELECT {key} FROM g)"
        ));
    }
    if let Some(seats) = w.seats.as_ref().filter(|s| !s.is_empty()) {
        postgres_seats(b, seats, id);
    }
    if let Some((before, after)) = &p.line {
        let (before, after) = (b.arg(Arg::Text(before)), b.arg(Arg::Text(after)));
        b.put(format_args!(
            ",\nl AS (INSERT INTO game_logs AS l (game_id, part, log) \
             SELECT {id}, COALESCE((SELECT part + (length(log) >= 768)::INT FROM game_logs \
             WHERE game_id = {id} ORDER BY part DESC LIMIT 1), 0), \
             {before} || ({at} - g.created_at) || {after} FROM g \
             ON CONFLICT (game_id, part) DO UPDATE SET log = l.log || excluded.log)"
        ));
        if !matches!(p.author, Author::Not) {
            b.put(format_args!(",\na AS ("));
            author(b, p.author, id, " FROM g", "IS DISTINCT FROM", |b| {
                b.put(format_args!(
                    "COALESCE((SELECT sum(length(log) - length(replace(log, E'\\n', ''))) \
                     FROM game_logs WHERE game_id = {id}), 0) + 1"
                ))
            });
            b.put(format_args!(")"));
        }
    }
    b.put(format_args!(
        ",\ndd AS (DELETE FROM deadlines WHERE game_id = {id} AND EXISTS (SELECT 1 FROM g) \
         RETURNING seat)"
    ));
    if !w.deadlines.is_empty() {
        b.put(format_args!(
            ",\ndi AS (INSERT INTO deadlines (game_id, seat, turn, due_at, check_at) \
             SELECT v.* FROM g, (VALUES "
        ));
        deadline_rows(b, w, id, at);
        b.put(format_args!(
            ") AS v(game_id, seat, turn, due_at, check_at) WHERE (SELECT count(*) FROM dd) >= 0)"
        ));
    }
    if let Some(n) = &w.notice {
        let [seat, turn, kind] = notice_args(b, n);
        b.put(format_args!(
            ",\nn AS (INSERT INTO notices (game_id, seat, turn, kind, at) \
             SELECT {id}, {seat}, {turn}, {kind}, {at} FROM g)"
        ));
    }
    if !w.messages.is_empty() {
        b.put(format_args!(
            ",\no AS (INSERT INTO outbox (game_id, destination, text, board, ending, created_at) \
             SELECT v.* FROM g, (VALUES "
        ));
        message_rows(b, w, id, at);
        b.put(format_args!(
            ") AS v(game_id, destination, text, board, ending, created_at))"
        ));
    }
    b.put(format_args!("\nSELECT count(*) FROM g"));
}
